#include "check.hpp"

int main() {
    int failed_cases = 0;
    for (const auto& test : diabolo::testing::cases()) {
        const int before = diabolo::testing::failures();
        test.body();
        const bool ok = diabolo::testing::failures() == before;
        failed_cases += ok ? 0 : 1;
        std::cout << (ok ? "ok     " : "FAILED ") << test.name << "\n";
    }
    const int total = static_cast<int>(diabolo::testing::cases().size());
    std::cout << (total - failed_cases) << " passed, " << failed_cases << " failed\n";
    return failed_cases == 0 && total > 0 ? 0 : 1;
}
