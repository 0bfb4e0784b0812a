// Tunes the weights of the Schacht heuristic (schacht::HeuristicWeights) by self-play:
// a random local search in which each step changes one weight by 10-40% and keeps the
// change when the changed bot, in one seat against three default heuristic bots
// (4 players, seats rotated), wins more often than the unchanged one over the same
// 40,000 games (common seeds: the two differ by the weights, not by the deals).
//
//   c++ -O2 -std=c++17 -I cpp/include -I <boost> benchmarks/tune_heuristic.cpp \
//       build/libdiabolo_core.a -pthread -o tune_heuristic
//   ./tune_heuristic [games per evaluation = 40000] [steps = 80] [threads = 2]
//
// With the defaults it prints one line per step and ends with the weights that the
// search's own rollouts use (kSearcherWeights in cpp/src/schacht/ismcts.cpp):
// {1.519, 0.5, 2.0, 0.923, 0.817, 0.5, 0.5}, winning about 0.315 against three
// heuristic bots (parity 0.25). About 5 minutes on 2 cores.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "diabolo/core/match.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace {

using namespace diabolo;
using namespace diabolo::schacht;

constexpr int kWeights = 7;

std::array<double, kWeights> as_array(const HeuristicWeights& w) {
    return {w.rival_factor, w.lead_offset, w.lead_scale, w.sign_scale, w.theirs, w.doubler, w.bet_threshold};
}

HeuristicWeights from_array(const std::array<double, kWeights>& a) {
    return HeuristicWeights{a[0], a[1], a[2], a[3], a[4], a[5], a[6]};
}

/// The share of `games` won (a shared win split) by a bot with `weights` in one seat
/// against three default heuristic bots.
double win_rate(const HeuristicWeights& weights, int games, uint64_t seed, int threads) {
    const Game game = Game::from_options(Options{});  // 4 players
    const std::vector<std::shared_ptr<const Bot>> bots{
        std::make_shared<HeuristicBot>(weights), std::make_shared<HeuristicBot>(), std::make_shared<HeuristicBot>(),
        std::make_shared<HeuristicBot>()};
    const MatchResult r = play_match<Rules>(game, bots, games, seed, threads);
    double wins = 0.0;
    for (int g = 0; g < games; ++g) {
        const int32_t* row = &r.scores[static_cast<std::size_t>(g) * 4];
        const int32_t best = *std::max_element(row, row + 4);
        wins += row[0] == best ? 1.0 / static_cast<double>(std::count(row, row + 4, best)) : 0.0;
    }
    return wins / games;
}

}  // namespace

int main(int argc, char** argv) {
    const int games = argc > 1 ? std::atoi(argv[1]) : 40000;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 80;
    const int threads = argc > 3 ? std::atoi(argv[3]) : 2;
    std::array<double, kWeights> current = as_array(HeuristicWeights{});
    std::printf("default weights: %.4f\n", win_rate(from_array(current), games, 1, threads));
    Pcg32 rng(5, 5);
    for (int step = 0; step < steps; ++step) {
        std::array<double, kWeights> changed = current;
        const auto k = static_cast<std::size_t>(rng.below(kWeights));
        const double sign = rng.below(2) ? 1.0 : -1.0;
        const double scale = sign * (0.1 + 0.3 * (rng.next() / 4294967296.0));
        changed[k] = current[k] * (1.0 + scale);
        if (k == 2 || k == 3) changed[k] = std::max(0.2, changed[k]);  // the two spreads stay positive
        const uint64_t seed = 100 + static_cast<uint64_t>(step);
        const double before = win_rate(from_array(current), games, seed, threads);
        const double after = win_rate(from_array(changed), games, seed, threads);
        if (after > before + 0.004) current = changed;  // about 1.5 standard errors of the difference
        std::printf("step %d: weight %zu, %.4f -> %.4f; weights {", step, k, before, after);
        for (std::size_t i = 0; i < kWeights; ++i) std::printf("%s%.3f", i ? ", " : "", current[i]);
        std::printf("}\n");
        std::fflush(stdout);
    }
}
