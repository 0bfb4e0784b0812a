// Writes observation tensors: floats appended in order, with the encodings every game
// uses (scalars, one-hot indices, bitboards as 0/1 runs).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "diabolo/core/cardset.hpp"

namespace diabolo {

/// Writes the floats of a tensor, and, when made with `low` and `high`, the bounds of
/// every entry as well: a game writes its tensor once, with the bound of each scalar
/// beside it, so that the bounds it publishes (observation_tensor_bounds) follow its layout.
class TensorWriter {
public:
    explicit TensorWriter(float* out) noexcept : out_(out) {}
    TensorWriter(float* out, float* low, float* high) noexcept : out_(out), low_(low), high_(high) {}
    /// A value in [low, high] (a share or a flag by default).
    void scalar(float value, float low = 0.0f, float high = 1.0f) noexcept {
        bound(pos_, 1, low, high);
        out_[pos_++] = value;
    }
    /// `size` floats, 1 at `index` (none if index < 0).
    void one_hot(int index, int size) noexcept {
        bound(pos_, size, 0.0f, 1.0f);
        std::fill(out_ + pos_, out_ + pos_ + size, 0.0f);
        if (index >= 0 && index < size) out_[pos_ + index] = 1.0f;
        pos_ += size;
    }
    /// The first `size` slots of a card set as 0/1.
    void slots(CardSet set, int size) noexcept {
        bound(pos_, size, 0.0f, 1.0f);
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
    void bound(int first, int size, float low, float high) noexcept {
        if (low_ == nullptr) return;
        std::fill(low_ + first, low_ + first + size, low);
        std::fill(high_ + first, high_ + first + size, high);
    }
    float* out_;
    float* low_ = nullptr;
    float* high_ = nullptr;
    int pos_ = 0;
};

/// The bounds of every entry of the tensor that `write(position, player, writer)` writes,
/// into low[0 .. size) and high[0 .. size): written once over any position of the game,
/// since a game's layout does not depend on the position.
template <class Position, class Write>
void tensor_bounds(const Position& position, int size, Write write, float* low, float* high) {
    std::vector<float> scratch(static_cast<std::size_t>(size));
    TensorWriter writer(scratch.data(), low, high);
    write(position, 0, writer);
}

}  // namespace diabolo
