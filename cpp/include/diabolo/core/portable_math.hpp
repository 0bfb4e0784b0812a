// Elementary functions whose bits are the same on every platform, for the decisions of
// bots and search: libm's exp, log and tanh are not correctly rounded and differ between
// C libraries, and compilers fold them at compile time with other bits again, so a bot
// using them could choose another move on another machine with the same seed. These use
// only +, -, *, / (correctly rounded by IEEE 754), frexp and ldexp (exact), and need
// floating-point contraction off (-ffp-contract=off, set by the builds), so that no
// a * b + c is fused into one differently rounded operation.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "diabolo/core/float_model.hpp"

namespace diabolo::portable {

namespace detail {
// ln 2 split so that k * kLn2High is exact for |k| < 2^11 (Cody and Waite).
constexpr double kLn2High = 0x1.62e42fefa3800p-1;
constexpr double kLn2Low = 0x1.ef35793c76730p-45;
constexpr double kInvLn2 = 0x1.71547652b82fep0;
}  // namespace detail

namespace detail {

/// e^x by its Taylor series after a reduction to |r| <= ln 2 / 2 (error < 2^-60): slow,
/// used once to make the table of exp() below.
inline double exp_series(double x) noexcept {
    const double k = std::floor(x * kInvLn2 + 0.5);
    const double r = (x - k * kLn2High) - k * kLn2Low;
    double term = 1.0;
    double sum = 1.0;
    for (int i = 1; i <= 17; ++i) {
        term = term * r / i;
        sum += term;
    }
    return std::ldexp(sum, static_cast<int>(k));
}

/// 2^(j/32) for j = 0..31, made by exp_series once (the same bits everywhere).
inline const double* exp_table() noexcept {
    static const struct Table {
        double values[32];
        Table() noexcept {
            for (int j = 0; j < 32; ++j) values[j] = exp_series(j * (kLn2High + kLn2Low) / 32);
        }
    } table;
    return table.values;
}

/// ldexp(x, e), bit for bit, without a call into libm where 2^e is a normal number: the
/// product with it is then x 2^e correctly rounded, which is what ldexp returns.
inline double scale(double x, int e) noexcept {
    if (e < -1022 || e > 1023) return std::ldexp(x, e);
    const uint64_t bits = static_cast<uint64_t>(e + 1023) << 52;
    double power;
    std::memcpy(&power, &bits, sizeof power);
    return x * power;
}

}  // namespace detail

/// e^x within a few units in the last place for |x| < 44 (within 1e-13 relative beyond,
/// where k ln2/32 is no longer exact); 0 below -745, +inf above 709.8.
inline double exp(double x) noexcept {
    if (x != x) return x;
    if (x > 709.78) return HUGE_VAL;
    if (x < -745.2) return 0.0;
    // x = (32 m + j) ln2 / 32 + r with |r| <= ln 2 / 64: e^x = 2^m 2^(j/32) e^r, e^r by a
    // short series (error below 2^-58).
    const double k = std::floor(x * (32 * detail::kInvLn2) + 0.5);
    const double r = (x - k * (detail::kLn2High / 32)) - k * (detail::kLn2Low / 32);
    const double p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720))))));
    const long long n = static_cast<long long>(k);
    const long long j = n & 31;
    return detail::scale(detail::exp_table()[j] * p, static_cast<int>((n - j) / 32));
}

/// The natural logarithm of x > 0 to within a few units in the last place (NaN for
/// x < 0, -inf for 0).
inline double log(double x) noexcept {
    if (x != x || x < 0.0) return NAN;
    if (x == 0.0) return -HUGE_VAL;
    if (x == HUGE_VAL) return x;
    int e = 0;
    double m = std::frexp(x, &e);    // x = m 2^e, m in [0.5, 1)
    if (m < 0x1.6a09e667f3bcdp-1) {  // sqrt(1/2): keep m in [0.707, 1.414)
        m *= 2.0;
        --e;
    }
    // log m = 2 atanh(s) with s = (m - 1) / (m + 1), |s| < 0.172: an odd series in s.
    const double s = (m - 1.0) / (m + 1.0);
    const double s2 = s * s;
    double power = s;
    double sum = 0.0;
    for (int i = 1; i <= 41; i += 2) {
        sum += power / i;
        power *= s2;
    }
    return 2.0 * sum + e * detail::kLn2Low + e * detail::kLn2High;
}

/// The hyperbolic tangent (within 1e-15 of the true value).
inline double tanh(double x) noexcept {
    if (x != x) return x;
    if (x > 20.0) return 1.0;
    if (x < -20.0) return -1.0;
    const double e = exp(2.0 * x);
    return (e - 1.0) / (e + 1.0);
}

/// The logistic function 1 / (1 + e^-x).
inline double logistic(double x) noexcept { return 1.0 / (1.0 + exp(-x)); }

}  // namespace diabolo::portable
