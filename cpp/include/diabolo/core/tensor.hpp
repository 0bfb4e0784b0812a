// Writes observation tensors: entries appended in order, with the encodings every game
// uses (scalars, one-hot indices, bitboards as 0/1 runs), as floats, as bytes, or as the
// bounds of every entry.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "diabolo/core/cardset.hpp"

namespace diabolo {

/// Writes a tensor's entries in one of three forms, the same layout in each:
///   - floats: every entry as it is;
///   - bytes: entry x with bounds [low, high] as round((x - low) / (high - low) * 255),
///     0 for a constant entry, so 0/1 entries are exactly 0/255 (a quarter of the bytes);
///   - bounds: the lowest and highest value of every entry, which follow the layout since
///     a game writes each scalar with its bounds beside it.
/// A row of floats or bytes is zeroed once when the writer is made; the runs of 0/1
/// entries then only set their ones (many small fills cost more than one).
class TensorWriter {
public:
    /// Floats into out[0 .. size).
    TensorWriter(float* out, int size) noexcept : floats_(out) { std::fill(out, out + size, 0.0f); }
    /// Bytes into out[0 .. size).
    TensorWriter(uint8_t* out, int size) noexcept : bytes_(out) { std::memset(out, 0, static_cast<std::size_t>(size)); }
    /// The bounds of every entry into low[] and high[].
    TensorWriter(float* low, float* high) noexcept : low_(low), high_(high) {}

    /// A value in [low, high] (a share or a flag by default).
    void scalar(float value, float low = 0.0f, float high = 1.0f) noexcept {
        if (floats_ != nullptr) {
            floats_[pos_] = value;
        } else if (bytes_ != nullptr) {
            bytes_[pos_] = quantise(value, low, high);
        } else {
            low_[pos_] = low;
            high_[pos_] = high;
        }
        ++pos_;
    }
    /// `size` 0/1 entries, 1 at `index` (none if index < 0).
    void one_hot(int index, int size) noexcept {
        if (low_ != nullptr) {
            flags(size);
        } else if (index >= 0 && index < size) {
            one(pos_ + index);
        }
        pos_ += size;
    }
    /// The first `size` slots of a card set as 0/1 entries.
    void slots(CardSet set, int size) noexcept {
        if (low_ != nullptr) {
            flags(size);
        } else {
            while (!set.empty()) {
                const int slot = set.pop_lowest();
                if (slot < size) one(pos_ + slot);
            }
        }
        pos_ += size;
    }
    /// The first `size` bits of a 64-bit mask as 0/1 entries.
    void bits(uint64_t mask, int size) noexcept { slots(CardSet{mask, 0}, size); }

    /// x in [low, high] as a byte: 0 at low, 255 at high (0 if low == high).
    static uint8_t quantise(float value, float low, float high) noexcept {
        const float range = high - low;
        if (!(range > 0.0f)) return 0;
        const float level = (value - low) * (255.0f / range) + 0.5f;
        return static_cast<uint8_t>(static_cast<int>(std::clamp(level, 0.0f, 255.0f)));
    }

private:
    void one(int entry) noexcept {
        if (floats_ != nullptr) {
            floats_[entry] = 1.0f;
        } else {
            bytes_[entry] = 255;
        }
    }
    void flags(int size) noexcept {
        std::fill(low_ + pos_, low_ + pos_ + size, 0.0f);
        std::fill(high_ + pos_, high_ + pos_ + size, 1.0f);
    }

    float* floats_ = nullptr;
    uint8_t* bytes_ = nullptr;
    float* low_ = nullptr;
    float* high_ = nullptr;
    int pos_ = 0;
};

}  // namespace diabolo
