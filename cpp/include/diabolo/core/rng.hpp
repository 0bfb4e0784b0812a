// Portable seeded random numbers: the same seed gives the same stream on every
// platform, compiler and standard library (docs/interface.rst, "Determinism and chance").
// Never use std::shuffle, std::uniform_int_distribution or rand(): their output
// differs between standard libraries.
#pragma once

#include <cstddef>
#include <cstdint>

#include "diabolo/core/float_model.hpp"

namespace diabolo {

/// SplitMix64 finaliser: turns any 64-bit value into a well-mixed one. Used to
/// derive independent seeds (per round, per game of a batch) from one seed.
constexpr uint64_t mix64(uint64_t x) noexcept {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/// Derives the seed of sub-stream `index` of `seed` (round r of a game, game i of a batch).
constexpr uint64_t derive_seed(uint64_t seed, uint64_t index) noexcept {
    return mix64(mix64(seed) ^ mix64(index + 0x632BE59BD9B4E019ULL));
}

/// PCG32 (O'Neill, XSH-RR variant): 64-bit state, 32-bit output. A value type.
class Pcg32 {
public:
    explicit constexpr Pcg32(uint64_t seed, uint64_t stream = 0x14057B7EF767814FULL) noexcept
        : state_(0), inc_((stream << 1u) | 1u) {
        next();
        state_ += mix64(seed);
        next();
    }

    constexpr uint32_t next() noexcept {
        const uint64_t old = state_;
        state_ = old * 6364136223846793005ULL + inc_;
        const auto xorshifted = static_cast<uint32_t>(((old >> 18u) ^ old) >> 27u);
        const auto rot = static_cast<uint32_t>(old >> 59u);
        return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
    }

    /// Uniform integer in [0, bound), bound > 0, without modulo bias (Lemire 2019).
    constexpr uint32_t below(uint32_t bound) noexcept {
        uint64_t product = uint64_t{next()} * bound;
        auto low = static_cast<uint32_t>(product);
        if (low < bound) {
            const uint32_t threshold = (0u - bound) % bound;
            while (low < threshold) {
                product = uint64_t{next()} * bound;
                low = static_cast<uint32_t>(product);
            }
        }
        return static_cast<uint32_t>(product >> 32u);
    }

    /// Uniform double in [0, 1) with 53 random bits.
    constexpr double uniform() noexcept {
        // Two statements: the two draws of one expression may be made in either order.
        const uint64_t first = next();
        const uint64_t second = next();
        const uint64_t bits = (first << 21u) ^ (second >> 11u);
        return static_cast<double>(bits & ((1ULL << 53u) - 1u)) * 0x1.0p-53;
    }

    /// Fisher-Yates shuffle of items[0..count).
    template <class T>
    constexpr void shuffle(T* items, std::size_t count) noexcept {
        for (std::size_t i = count; i > 1; --i) {
            const std::size_t j = below(static_cast<uint32_t>(i));
            T tmp = items[i - 1];
            items[i - 1] = items[j];
            items[j] = tmp;
        }
    }

private:
    uint64_t state_;
    uint64_t inc_;
};

}  // namespace diabolo
