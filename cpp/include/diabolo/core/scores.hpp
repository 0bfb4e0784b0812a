// Results shared by every game.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace diabolo {

/// The seats 0..players-1 with the highest score; all of them when tied.
template <class Scores>
std::vector<int> best_seats(const Scores& scores, int players) {
    std::vector<int> best;
    for (int seat = 0; seat < players; ++seat) {
        const auto score = scores[static_cast<std::size_t>(seat)];
        if (best.empty() || score > scores[static_cast<std::size_t>(best[0])]) best = {seat};
        else if (score == scores[static_cast<std::size_t>(best[0])]) best.push_back(seat);
    }
    return best;
}

/// Copies the values of seats 0..players-1 (scores, rewards) into out[0 .. players).
template <class Values>
void copy_seats(const Values& values, int players, int32_t* out) noexcept {
    for (int seat = 0; seat < players; ++seat) out[seat] = static_cast<int32_t>(values[static_cast<std::size_t>(seat)]);
}

}  // namespace diabolo
