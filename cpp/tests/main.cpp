#include <cstring>

#include "check.hpp"

// Runs every test, or with arguments only those whose names contain one of them; an
// argument -NAME leaves out the tests whose names contain NAME (under emulation, the
// longest ones).
int main(int argc, char** argv) {
    int failed_cases = 0;
    int total = 0;
    bool chooses = false;
    for (int i = 1; i < argc; ++i) chooses = chooses || argv[i][0] != '-';
    for (const auto& test : diabolo::testing::cases()) {
        bool chosen = !chooses;
        for (int i = 1; i < argc; ++i) {
            if (argv[i][0] == '-') chosen = chosen && std::strstr(test.name, argv[i] + 1) == nullptr;
            else chosen = chosen || std::strstr(test.name, argv[i]) != nullptr;
        }
        if (!chosen) continue;
        ++total;
        const int before = diabolo::testing::failures();
        test.body();
        const bool ok = diabolo::testing::failures() == before;
        failed_cases += ok ? 0 : 1;
        std::cout << (ok ? "ok     " : "FAILED ") << test.name << "\n";
    }
    std::cout << (total - failed_cases) << " passed, " << failed_cases << " failed\n";
    return failed_cases == 0 && total > 0 ? 0 : 1;
}
