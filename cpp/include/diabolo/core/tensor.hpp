// Writes observation tensors: entries appended in order, with the encodings every game
// uses (scalars, one-hot indices, bitboards as 0/1 runs), as floats, as bytes, or as the
// bounds of every entry. A game writes its tensor once, as a template over the writer:
//   template <class Writer> void write_observation(const Position&, int player, Writer&);
// so that the three forms follow one layout, and each is compiled for its form (a byte
// store may alias anything, so a writer that chose its form at run time would reload its
// own members after every entry).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "diabolo/core/cardset.hpp"

namespace diabolo {

/// x in [low, high] as a byte: round((x - low) / (high - low) * 255), and 0 for a
/// constant entry (low == high). 0/1 entries are exactly 0 and 255. x must lie within its
/// bounds, as every entry of a game's tensor does (the contract suite checks it at every
/// step of its random games): without a clamp, the conversion has no data-dependent
/// branch (a clamp at 0 and 255 compiled to branches taken for every 0 or 1 of the data,
/// which made bytes slower than floats).
inline uint8_t quantise(float value, float low, float high) noexcept {
    const float range = high - low;
    if (!(range > 0.0f)) return 0;
    return static_cast<uint8_t>(static_cast<int>((value - low) * (255.0f / range) + 0.5f));
}

/// Writes a row of `T` entries: floats as they are (T = float), or bytes (T = uint8_t),
/// each entry quantised between the bounds it is written with. The row is zeroed once
/// when the writer is made; the runs of 0/1 entries then only set their ones (many small
/// fills cost more than one).
template <class T>
class TensorWriter {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, uint8_t>, "floats or bytes");

public:
    /// Entries into out[0 .. size).
    TensorWriter(T* out, int size) noexcept : out_(out) {
        std::memset(out, 0, sizeof(T) * static_cast<std::size_t>(size));
    }
    /// A value in [low, high] (a share or a flag by default).
    void scalar(float value, float low = 0.0f, float high = 1.0f) noexcept {
        if constexpr (std::is_same_v<T, float>) {
            out_[pos_++] = value;
        } else {
            out_[pos_++] = quantise(value, low, high);
        }
    }
    /// `size` 0/1 entries, 1 at `index` (none if index < 0).
    void one_hot(int index, int size) noexcept {
        if (index >= 0 && index < size) out_[pos_ + index] = kOne;
        pos_ += size;
    }
    /// The first `size` slots of a card set as 0/1 entries.
    void slots(CardSet set, int size) noexcept {
        while (!set.empty()) {
            const int slot = set.pop_lowest();
            if (slot < size) out_[pos_ + slot] = kOne;
        }
        pos_ += size;
    }
    /// The first `size` bits of a 64-bit mask as 0/1 entries.
    void bits(uint64_t mask, int size) noexcept { slots(CardSet{mask, 0}, size); }

private:
    static constexpr T kOne = std::is_same_v<T, float> ? T(1) : T(255);
    T* out_;
    int pos_ = 0;
};

/// Writes the bounds of every entry, in the layout a TensorWriter writes: the lowest
/// value into low[] and the highest into high[] (0 and 1 for the 0/1 runs).
class TensorBounds {
public:
    TensorBounds(float* low, float* high) noexcept : low_(low), high_(high) {}
    void scalar(float, float low = 0.0f, float high = 1.0f) noexcept {
        low_[pos_] = low;
        high_[pos_] = high;
        ++pos_;
    }
    void one_hot(int, int size) noexcept { flags(size); }
    void slots(CardSet, int size) noexcept { flags(size); }
    void bits(uint64_t, int size) noexcept { flags(size); }

private:
    void flags(int size) noexcept {
        std::fill(low_ + pos_, low_ + pos_ + size, 0.0f);
        std::fill(high_ + pos_, high_ + pos_ + size, 1.0f);
        pos_ += size;
    }
    float* low_;
    float* high_;
    int pos_ = 0;
};

}  // namespace diabolo
