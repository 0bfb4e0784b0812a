// A minimal test harness: CHECK records a failure and goes on; TEST registers a case.
#pragma once

#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace diabolo::testing {

struct Case {
    const char* name;
    std::function<void()> body;
};

inline std::vector<Case>& cases() {
    static std::vector<Case> all;
    return all;
}

inline int& failures() {
    static int count = 0;
    return count;
}

struct Register {
    Register(const char* name, std::function<void()> body) { cases().push_back({name, std::move(body)}); }
};

}  // namespace diabolo::testing

#define DIABOLO_CONCAT2(a, b) a##b
#define DIABOLO_CONCAT(a, b) DIABOLO_CONCAT2(a, b)
#define TEST(name)                                                                           \
    static void name();                                                                      \
    static const ::diabolo::testing::Register DIABOLO_CONCAT(register_, name){#name, &name}; \
    static void name()

#define CHECK(condition)                                                                    \
    do {                                                                                    \
        if (!(condition)) {                                                                 \
            ++::diabolo::testing::failures();                                               \
            std::cerr << __FILE__ << ":" << __LINE__ << ": CHECK failed: " #condition "\n"; \
        }                                                                                   \
    } while (0)

#define CHECK_THROWS(Exception, statement)                                                                 \
    do {                                                                                                   \
        bool thrown = false;                                                                               \
        try {                                                                                              \
            statement;                                                                                     \
        } catch (const Exception&) {                                                                       \
            thrown = true;                                                                                 \
        }                                                                                                  \
        if (!thrown) {                                                                                     \
            ++::diabolo::testing::failures();                                                              \
            std::cerr << __FILE__ << ":" << __LINE__ << ": expected " #Exception " from " #statement "\n"; \
        }                                                                                                  \
    } while (0)
