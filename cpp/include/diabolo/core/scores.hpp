// Results shared by every game.
#pragma once

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

}  // namespace diabolo
