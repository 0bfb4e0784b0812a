// How much Schacht's flat search (schacht::ismcts, 1,000 iterations) gains from what it
// knows of the others' hidden hands, in one seat against three heuristic bots (4 players,
// seat rotated; a shared win counts 1/k). Where each deal of the unseen cards comes from:
//
//   resample   Rules::resample: every unseen card dealt uniformly (ismcts, belief=false)
//   belief     the library's search as it plays (ismcts, belief=true): each other seat's
//              hand drawn from a pool weighted by how likely the heuristic was to make
//              that seat's latest move of the round with it (cpp/src/schacht/ismcts.cpp)
//   truth      the others' true hands, the pile reshuffled: an upper bound, not a bot
//              (truth-at-placements, truth-at-doublers: only at those decisions, else
//              resample). The truth modes run a copy of the library's flat search
//              (sequential halving, every survivor rolled out in the same deals) whose
//              deals are the true hands.
//
//   c++ -O2 -std=c++17 -I cpp/include -I <boost> benchmarks/schacht_belief.cpp
//       build/libdiabolo_core.a -pthread -o schacht_belief
//   ./schacht_belief MODE [games = 1000] [seed = 1] [iterations = 1000]
//
// Figures of one run on two cores, 1,000 games each, seed 1, when the search's reward was
// the round's score against the best other seat's (before the chance to win the game):
// resample 0.341 (0.311 .. 0.370); truth 0.598 (0.568 .. 0.628), truth-at-placements
// 0.594 (0.564 .. 0.625), truth-at-doublers 0.344 (0.315 .. 0.374): the hands' worth is
// all in the placements.
// Resample with 4,000 iterations won 0.362 of 600 games: the search is short of knowledge
// more than of iterations. The belief's figures are in docs/strength.rst.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "diabolo/core/match.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace {

using namespace diabolo;
using namespace diabolo::schacht;

std::size_t at(int i) noexcept { return static_cast<std::size_t>(i); }

enum class Mode { Resample, Belief, Truth, TruthAtPlacements, TruthAtDoublers };

/// The library's reward of a finished round (ismcts.cpp: reward): the seat's chance to
/// win the game from the totals after it, as 2p - 1, plus a fifth of its round score
/// against the best other seat's (scaled into [-1, 1]), divided by 1.2.
double reward(const Position& before, const Position& after, int player) noexcept {
    double best_gain = -1e9, best_total = -1e9;
    for (int o = 0; o < before.players(); ++o) {
        if (o == player) continue;
        best_gain = std::max<double>(best_gain, after.scores[at(o)] - before.scores[at(o)]);
        best_total = std::max<double>(best_total, after.scores[at(o)]);
    }
    const int rounds_left = before.game.rounds - 1 - before.round;
    const double scale = rounds_left > 0 ? 9.5 * std::sqrt(static_cast<double>(rounds_left)) : 2.0;
    const double margin = after.scores[at(player)] - best_total - 3.3 * rounds_left;
    const double gain = after.scores[at(player)] - before.scores[at(player)];
    const double round_margin = std::clamp((gain - best_gain) / 30.0, -1.0, 1.0);
    return (2.0 / (1.0 + std::exp(-margin / scale)) - 1.0 + 0.2 * round_margin) / 1.2;
}

constexpr HeuristicWeights kSearcherWeights{1.519, 0.5, 2.0, 0.923, 0.817, 0.5, 0.5};  // as ismcts.cpp

/// The true hands with the pile reshuffled (an upper bound).
Position true_deal(const Position& truth, int player, uint64_t seed) {
    Position deal = truth;
    Pcg32 rng(seed, 77);
    rng.shuffle(deal.pile.data() + deal.pile_next, static_cast<std::size_t>(deal.pile_size()));
    deal.decided = static_cast<uint8_t>(truth.decided & (1u << player));
    deal.bets = static_cast<uint8_t>(truth.bets & (1u << player));
    deal.seed = mix64(seed ^ 0xD1CE5EEDULL);
    return deal;
}

/// Whether the search is dealt the true hands in this phase.
bool knows_truth(Mode mode, Phase phase) noexcept {
    return mode == Mode::Truth || (mode == Mode::TruthAtPlacements && phase == Phase::Play) ||
           (mode == Mode::TruthAtDoublers && phase == Phase::Doubler);
}

/// The flat search of ismcts.cpp (sequential halving), dealt the true hands where `mode`
/// knows them, else by Rules::resample.
Move truth_search(const Position& state, int player, uint64_t seed, Mode mode, int iterations) {
    std::array<uint8_t, kNumActions> legal{};
    const int n = Rules::legal_actions(state, player, legal);
    if (n == 1) return Move::of_action(legal[0]);
    const HeuristicBot others, searcher(kSearcherWeights);
    std::vector<uint8_t> alive(legal.begin(), legal.begin() + n);
    int rounds = 1;
    while ((1 << rounds) < n) ++rounds;
    std::array<double, kNumActions> total{};
    int64_t done = 0;
    uint64_t next_deal = 0;
    for (int r = 0; r < rounds && alive.size() > 1; ++r) {
        const int64_t left = iterations - done;
        if (left < static_cast<int64_t>(alive.size())) {  // the heuristic's best `left` go on
            if (left == 0) break;
            const std::vector<double> values = searcher.move_values(state, player);
            std::array<double, kNumActions> value{};
            for (int i = 0; i < n; ++i) value[legal[at(i)]] = values[at(i)];
            std::stable_sort(alive.begin(), alive.end(), [&](uint8_t a, uint8_t b) {
                return total[a] != total[b] ? total[a] > total[b] : value[a] > value[b];
            });
            alive.resize(static_cast<std::size_t>(left));
        }
        const int width = static_cast<int>(alive.size());
        const int deals = static_cast<int>(std::max<int64_t>(1, left / (rounds - r) / width));
        for (int d = 0; d < deals; ++d) {
            const uint64_t deal_seed = derive_seed(seed, next_deal++);
            const Position deal = knows_truth(mode, state.phase) ? true_deal(state, player, deal_seed)
                                                                 : Rules::resample(state, player, deal_seed);
            for (int j = 0; j < width; ++j) {
                Position s = deal;
                Pcg32 rng(deal_seed, static_cast<uint64_t>(j));
                apply_unchecked(s, Move::of_action(alive[at(j)]), player);
                while (!s.is_terminal() && s.round == state.round) {
                    const int actor = next_actor(s);
                    apply_unchecked(s, (actor == player ? searcher : others).choose(s, actor, rng), actor);
                }
                total[alive[at(j)]] += reward(state, s, player);
            }
        }
        done += static_cast<int64_t>(deals) * width;
        std::stable_sort(alive.begin(), alive.end(), [&](uint8_t a, uint8_t b) { return total[a] > total[b]; });
        alive.resize(at((width + 1) / 2));
        std::sort(alive.begin(), alive.end());
    }
    uint8_t best = alive[0];
    for (uint8_t a : alive) best = total[a] > total[best] ? a : best;
    return Move::of_action(best);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string name = argc > 1 ? argv[1] : "belief";
    const std::array<std::pair<const char*, Mode>, 5> modes{{{"resample", Mode::Resample},
                                                             {"belief", Mode::Belief},
                                                             {"truth", Mode::Truth},
                                                             {"truth-at-placements", Mode::TruthAtPlacements},
                                                             {"truth-at-doublers", Mode::TruthAtDoublers}}};
    const auto named = std::find_if(modes.begin(), modes.end(), [&](const auto& m) { return name == m.first; });
    const int games = argc > 2 ? std::atoi(argv[2]) : 1000;
    const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
    const int iterations = argc > 4 ? std::atoi(argv[4]) : 1000;
    if (named == modes.end() || games < 1 || iterations < 1) {
        std::fprintf(stderr,
                     "usage: schacht_belief resample|belief|truth|truth-at-placements|truth-at-doublers"
                     " [games] [seed] [iterations]\n");
        return 2;
    }
    const Mode mode = named->second;
    SearchOptions options;
    options.iterations = iterations;
    options.belief = mode == Mode::Belief;
    const IsmctsBot library(options);
    const Game game = Game::from_options(Options{});  // 4 players
    std::vector<double> won(at(games));
    in_parallel(games, 2, [&](int first, int last) {
        const HeuristicBot heuristic;
        for (int g = first; g < last; ++g) {
            const uint64_t game_seed = derive_seed(seed, static_cast<uint64_t>(g));
            Position p = new_position<Rules>(game, game_seed);
            Pcg32 rng(game_seed, 0xB075ULL);
            const int searcher = g % 4;
            for (int actor = next_actor(p); actor >= 0; actor = next_actor(p)) {
                Move move;
                if (actor != searcher) move = heuristic.choose(p, actor, rng);
                else if (mode == Mode::Resample || mode == Mode::Belief) move = library.choose(p, actor, rng);
                else move = truth_search(p, actor, (uint64_t{rng.next()} << 32) | rng.next(), mode, iterations);
                apply_unchecked(p, move, actor);
            }
            const int best = *std::max_element(p.scores.begin(), p.scores.begin() + 4);
            const auto tied = std::count(p.scores.begin(), p.scores.begin() + 4, best);
            won[at(g)] = p.scores[at(searcher)] == best ? 1.0 / static_cast<double>(tied) : 0.0;
        }
    });
    double sum = 0.0, squares = 0.0;
    for (double w : won) sum += w, squares += w * w;
    const double mean = sum / games, error = std::sqrt((squares / games - mean * mean) / games);
    std::printf("%s (%d iterations), %d games, seed %llu: %.3f (%.3f .. %.3f)\n", name.c_str(), iterations, games,
                static_cast<unsigned long long>(seed), mean, mean - 1.96 * error, mean + 1.96 * error);
}
