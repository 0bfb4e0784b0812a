// Writes observation tensors: floats appended in order, with the encodings every game
// uses (scalars, one-hot indices, bitboards as 0/1 runs).
#pragma once

#include <algorithm>
#include <cstdint>

#include "diabolo/core/cardset.hpp"

namespace diabolo {

class TensorWriter {
public:
    explicit TensorWriter(float* out) noexcept : out_(out) {}
    void scalar(float value) noexcept { out_[pos_++] = value; }
    /// `size` floats, 1 at `index` (none if index < 0).
    void one_hot(int index, int size) noexcept {
        std::fill(out_ + pos_, out_ + pos_ + size, 0.0f);
        if (index >= 0 && index < size) out_[pos_ + index] = 1.0f;
        pos_ += size;
    }
    /// The first `size` slots of a card set as 0/1.
    void slots(CardSet set, int size) noexcept {
        std::fill(out_ + pos_, out_ + pos_ + size, 0.0f);
        while (!set.empty()) {
            const int slot = set.pop_lowest();
            if (slot < size) out_[pos_ + slot] = 1.0f;
        }
        pos_ += size;
    }
    /// The first `size` bits of a 64-bit mask as 0/1.
    void bits(uint64_t mask, int size) noexcept { slots(CardSet{mask, 0}, size); }

private:
    float* out_;
    int pos_ = 0;
};

}  // namespace diabolo
