// A 128-bit set of card slots: the bitboard every game builds its hands, rows
// and masks from. A plain value type (trivially copyable), so states that hold
// card sets copy with memcpy.
#pragma once

#include <cstdint>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

namespace diabolo {

/// Population count. Portable wheels target baseline x86-64, which has no popcnt
/// instruction, and the compiler's fallback is a slow library call: so the SWAR
/// version unless the build enables the instruction.
inline int popcount64(uint64_t x) noexcept {
#if defined(__POPCNT__) && !defined(_MSC_VER)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
#endif
}

/// Bit i of a 64-bit word (i < 64).
inline uint64_t bit64(int i) noexcept { return uint64_t{1} << i; }

/// Bits [0, n) of a 64-bit word (n <= 64).
inline uint64_t low_mask(int n) noexcept { return n >= 64 ? ~uint64_t{0} : bit64(n) - 1; }

/// Index of the lowest set bit; x must not be 0.
inline int lowest_bit64(uint64_t x) noexcept {
#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_ARM64))
    unsigned long index = 0;
    _BitScanForward64(&index, x);
    return static_cast<int>(index);
#elif defined(_MSC_VER) && !defined(__clang__)  // 32-bit: _BitScanForward64 exists only on x64 and ARM64
    unsigned long index = 0;
    if (_BitScanForward(&index, static_cast<unsigned long>(x))) return static_cast<int>(index);
    _BitScanForward(&index, static_cast<unsigned long>(x >> 32u));
    return static_cast<int>(index) + 32;
#else
    return __builtin_ctzll(x);
#endif
}

struct CardSet {
    uint64_t lo = 0;  // slots 0..63
    uint64_t hi = 0;  // slots 64..127

    static constexpr int kSlots = 128;

    static constexpr CardSet single(int slot) noexcept {
        return slot < 64 ? CardSet{1ULL << slot, 0} : CardSet{0, 1ULL << (slot - 64)};
    }
    /// Slots [first, first + count), count <= 64.
    static constexpr CardSet range(int first, int count) noexcept {
        const uint64_t run = count >= 64 ? ~0ULL : ((1ULL << count) - 1);
        return shifted_left(CardSet{run, 0}, first);
    }
    static constexpr CardSet shifted_left(CardSet s, int n) noexcept {
        if (n == 0) return s;
        if (n >= 64) return CardSet{0, s.lo << (n - 64)};
        return CardSet{s.lo << n, (s.hi << n) | (s.lo >> (64 - n))};
    }
    static constexpr CardSet shifted_right(CardSet s, int n) noexcept {
        if (n == 0) return s;
        if (n >= 64) return CardSet{s.hi >> (n - 64), 0};
        return CardSet{(s.lo >> n) | (s.hi << (64 - n)), s.hi >> n};
    }

    constexpr bool test(int slot) const noexcept { return slot < 64 ? (lo >> slot) & 1u : (hi >> (slot - 64)) & 1u; }
    constexpr void set(int slot) noexcept { *this = *this | single(slot); }
    constexpr void reset(int slot) noexcept { *this = *this & ~single(slot); }
    constexpr bool empty() const noexcept { return (lo | hi) == 0; }
    int count() const noexcept { return popcount64(lo) + popcount64(hi); }
    /// Lowest set slot; the set must not be empty.
    int lowest() const noexcept { return lo ? lowest_bit64(lo) : 64 + lowest_bit64(hi); }
    /// Removes and returns the lowest set slot; the set must not be empty.
    int pop_lowest() noexcept {
        const int slot = lowest();
        if (lo) lo &= lo - 1;
        else hi &= hi - 1;
        return slot;
    }
    /// Bits [first, first + count) as an integer, count <= 64.
    constexpr uint64_t bits(int first, int count) const noexcept {
        const uint64_t word = shifted_right(*this, first).lo;
        return count >= 64 ? word : word & ((1ULL << count) - 1);
    }

    friend constexpr CardSet operator|(CardSet a, CardSet b) noexcept { return {a.lo | b.lo, a.hi | b.hi}; }
    friend constexpr CardSet operator&(CardSet a, CardSet b) noexcept { return {a.lo & b.lo, a.hi & b.hi}; }
    friend constexpr CardSet operator^(CardSet a, CardSet b) noexcept { return {a.lo ^ b.lo, a.hi ^ b.hi}; }
    friend constexpr CardSet operator~(CardSet a) noexcept { return {~a.lo, ~a.hi}; }
    friend constexpr bool operator==(CardSet a, CardSet b) noexcept { return a.lo == b.lo && a.hi == b.hi; }
    friend constexpr bool operator!=(CardSet a, CardSet b) noexcept { return !(a == b); }
    constexpr CardSet& operator|=(CardSet b) noexcept { return *this = *this | b; }
    constexpr CardSet& operator&=(CardSet b) noexcept { return *this = *this & b; }
};

}  // namespace diabolo
