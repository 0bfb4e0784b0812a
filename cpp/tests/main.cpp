#include <cstring>

#include "check.hpp"

// Runs every test, or with arguments only those whose names contain one of them.
int main(int argc, char** argv) {
    int failed_cases = 0;
    int total = 0;
    for (const auto& test : diabolo::testing::cases()) {
        bool chosen = argc < 2;
        for (int i = 1; i < argc; ++i) chosen = chosen || std::strstr(test.name, argv[i]) != nullptr;
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
