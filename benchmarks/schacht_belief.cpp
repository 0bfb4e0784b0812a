// How much Schacht's flat search (schacht::ismcts, 1,000 iterations) gains from a belief
// over the others' hidden hands, in one seat against three heuristic bots (4 players, seat
// rotated; a shared win counts 1/k). The search here is the library's flat search
// (sequential halving over the root moves, every survivor rolled out in the same deals,
// cpp/src/schacht/ismcts.cpp) with one change: where each deal of the unseen cards comes from.
//
//   resample   Rules::resample: every unseen card dealt uniformly (the library today)
//   truth      the others' true hands, the pile reshuffled: an upper bound, not a bot
//              (truth-at-placements, truth-at-doublers: only at those decisions, else resample)
//   belief     each other seat's hand drawn from a pool of `pool` resampled hands, weighted
//              by how likely the heuristic (the others' own policy here) was to make that
//              seat's latest move of the round with it (softmax of HeuristicBot::move_values
//              at temperature T; the hand then is exactly the hand now plus the card it
//              played, as no card is drawn between a seat's move and its next turn), and by
//              a log-linear term in each colour's hand sum and the values the seat placed on
//              each side this round (fitted on heuristic self-play); the seats' draws are
//              combined by rejection (no card used twice), else a plain resample
//
// Who placed which card is public at the table (everyone sees it), but Position does not
// keep it: this program plays its own games to know it.
//
//   c++ -O2 -std=c++17 -I cpp/include -I <boost> benchmarks/schacht_belief.cpp
//       build/libdiabolo_core.a -pthread -o schacht_belief
//   ./schacht_belief MODE [games = 1000] [seed = 1] [T = 0.2] [pool = 1024] [features = 1]
//                    [iterations = 1000]
//
// Figures of one run on two cores, 1,000 games each, seed 1 unless said: resample 0.341
// (0.311 .. 0.370); truth 0.598 (0.568 .. 0.628), truth-at-placements 0.594 (0.564 ..
// 0.625), truth-at-doublers 0.344 (0.315 .. 0.374): the hands' worth is all in the
// placements; belief 0.390 (0.360 .. 0.420), and 0.388 (0.358 .. 0.418) with seed 2 (T 0.2,
// pool 1024, features), about 4 minutes each, a third more than resample. With other random
// streams for the pools the same belief won 0.413 with seeds 1 and 2; with pool 256 and
// T 0.3 0.388, without the features 0.378, with the features alone 0.356. Resample with
// 4,000 iterations won 0.362 of 600 games: the search is short of knowledge more than of
// iterations.
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

enum class Mode { Resample, Truth, TruthAtPlacements, TruthAtDoublers, Belief };

struct Settings {
    Mode mode = Mode::Belief;
    double temperature = 0.2;
    int pool = 1024;
    bool features = true;
    int iterations = 1000;
};

/// What the table saw of each seat this round: its latest placement or discard (with the
/// position it was made in) and the values it placed on each side of each colour.
struct SeatRecord {
    bool moved = false;
    Position before{};
    Move move{};
    std::array<int, kColours> angel{}, devil{};
};
using TableRecord = std::array<SeatRecord, kMaxSeats>;

/// The library's reward of a finished round (ismcts.cpp): the round score against the
/// best other seat's, scaled into [-1, 1].
double reward(const Position& before, const Position& after, int player) noexcept {
    double best_other = -1e9;
    for (int o = 0; o < before.players(); ++o) {
        if (o != player) best_other = std::max<double>(best_other, after.scores[at(o)] - before.scores[at(o)]);
    }
    return std::clamp((after.scores[at(player)] - before.scores[at(player)] - best_other) / 30.0, -1.0, 1.0);
}

constexpr HeuristicWeights kSearcherWeights{1.519, 0.5, 2.0, 0.923, 0.817, 0.5, 0.5};  // as ismcts.cpp

/// The cards of `seat`'s hand in `deal` that were dealt to it (not known to be there).
CardSet dealt_cards(const Position& deal, const Position& root, int seat) {
    CardSet dealt = deal.hands[at(seat)];
    for (Card c : cards_of(known_cards(root, seat))) remove_card(dealt, c);
    return dealt;
}

/// The log-likelihood that the heuristic makes `move` for `seat` in `before` holding `hand`.
double move_log_likelihood(const Position& before, int seat, CardSet hand, const Move& move, double temperature) {
    static const HeuristicBot model;
    Position then = before;
    then.hands[at(seat)] = hand;
    std::array<uint8_t, kNumActions> legal{};
    const int n = Rules::legal_actions(then, seat, legal);
    const std::vector<double> values = model.move_values(then, seat);
    const double best = *std::max_element(values.begin(), values.end());
    double total = 0.0, chosen = -1e300;
    for (int i = 0; i < n; ++i) {
        total += std::exp((values[at(i)] - best) / temperature);
        if (legal[at(i)] == move.action()) chosen = (values[at(i)] - best) / temperature;
    }
    return chosen - std::log(total);
}

/// Each other seat's candidate hands and their cumulative weights.
struct Belief {
    std::array<std::vector<CardSet>, kMaxSeats> hands;
    std::array<std::vector<double>, kMaxSeats> cumulative;
};

Belief belief_of(const Position& root, int player, uint64_t seed, const TableRecord& record, const Settings& settings) {
    Belief belief;
    for (int seat = 0; seat < root.players(); ++seat) {
        const SeatRecord& r = record[at(seat)];
        if (seat == player || !r.moved) continue;
        double total = 0.0;
        for (int k = 0; k < settings.pool; ++k) {
            const uint64_t draw = derive_seed(seed, static_cast<uint64_t>(seat) * 1'000'000 + static_cast<uint64_t>(k));
            const CardSet hand = Rules::resample(root, player, draw).hands[at(seat)];
            CardSet then = hand;  // no card is drawn between a seat's move and its next turn (S2.3)
            add_card(then, r.move.card);
            double log_weight = move_log_likelihood(r.before, seat, then, r.move, settings.temperature);
            for (int c = 0; settings.features && c < kColours; ++c) {
                const double sum = colour_sum(hand, c), angel = r.angel[at(c)], devil = r.devil[at(c)];
                log_weight += sum * (0.25 * angel - 0.85 * devil) / 10.0 +
                              (sum > 0) * (0.15 * devil - 1.15 * angel) / 10.0 + sum * sum * 0.2 * devil / 100.0;
            }
            belief.hands[at(seat)].push_back(hand);
            belief.cumulative[at(seat)].push_back(total += std::exp(log_weight));
        }
    }
    return belief;
}

/// A deal: each other seat's hand drawn from the belief, the rest shuffled into the pile.
/// The unseen cards are what a plain resample dealt: its pile and the others' dealt cards.
Position deal_from(const Position& root, int player, uint64_t seed, const Belief& belief) {
    const Position plain = Rules::resample(root, player, seed);
    std::array<int, kKinds> unseen{};
    for (int i = plain.pile_next; i < plain.pile_end; ++i) ++unseen[plain.pile[at(i)]];
    for (int seat = 0; seat < root.players(); ++seat) {
        if (seat != player) {
            for (Card c : cards_of(dealt_cards(plain, root, seat))) ++unseen[c.kind];
        }
    }
    Pcg32 rng(seed, 0xBE11EFULL);
    for (int attempt = 0; attempt < 20; ++attempt) {
        std::array<int, kKinds> left = unseen;
        Position deal = plain;
        for (int seat = 0; seat < root.players(); ++seat) {
            const auto& hands = belief.hands[at(seat)];
            if (seat == player || hands.empty()) continue;
            const auto& cumulative = belief.cumulative[at(seat)];
            const double u = rng.next() / 4294967296.0 * cumulative.back();
            const auto k = static_cast<std::size_t>(std::lower_bound(cumulative.begin(), cumulative.end(), u) -
                                                    cumulative.begin());
            deal.hands[at(seat)] = hands[std::min(k, hands.size() - 1)];
        }
        bool fits = true;
        for (int seat = 0; seat < root.players() && fits; ++seat) {
            if (seat == player) continue;
            for (Card c : cards_of(dealt_cards(deal, root, seat))) fits = fits && --left[c.kind] >= 0;
        }
        if (!fits) continue;
        std::vector<uint8_t> pile;
        for (int kind = 0; kind < kKinds; ++kind)
            pile.insert(pile.end(), at(left[at(kind)]), static_cast<uint8_t>(kind));
        rng.shuffle(pile.data(), pile.size());
        deal.pile = {};
        deal.pile_next = 0;
        deal.pile_end = static_cast<uint8_t>(pile.size());
        std::copy(pile.begin(), pile.end(), deal.pile.begin());
        return deal;
    }
    return plain;
}

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

/// The flat search of ismcts.cpp (sequential halving), its deals made by `settings.mode`.
Move search(const Position& state, int player, uint64_t seed, const TableRecord& record, const Settings& settings) {
    std::array<uint8_t, kNumActions> legal{};
    const int n = Rules::legal_actions(state, player, legal);
    if (n == 1) return Move::of_action(legal[0]);
    const HeuristicBot others, searcher(kSearcherWeights);
    Belief belief;
    if (settings.mode == Mode::Belief && state.phase == Phase::Play)
        belief = belief_of(state, player, ~seed, record, settings);
    std::vector<uint8_t> alive(legal.begin(), legal.begin() + n);
    int rounds = 1;
    while ((1 << rounds) < n) ++rounds;
    std::array<double, kNumActions> total{};
    int64_t done = 0;
    uint64_t next_deal = 0;
    for (int r = 0; r < rounds && alive.size() > 1; ++r) {
        const int64_t left = settings.iterations - done;
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
            const Position deal = knows_truth(settings.mode, state.phase) ? true_deal(state, player, deal_seed)
                                  : settings.mode == Mode::Belief         ? deal_from(state, player, deal_seed, belief)
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
    const std::string mode = argc > 1 ? argv[1] : "belief";
    Settings settings;
    const std::array<std::pair<const char*, Mode>, 5> modes{{{"resample", Mode::Resample},
                                                             {"truth", Mode::Truth},
                                                             {"truth-at-placements", Mode::TruthAtPlacements},
                                                             {"truth-at-doublers", Mode::TruthAtDoublers},
                                                             {"belief", Mode::Belief}}};
    const auto named = std::find_if(modes.begin(), modes.end(), [&](const auto& m) { return mode == m.first; });
    const int games = argc > 2 ? std::atoi(argv[2]) : 1000;
    const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
    if (argc > 4) settings.temperature = std::atof(argv[4]);
    if (argc > 5) settings.pool = std::atoi(argv[5]);
    if (argc > 6) settings.features = std::atoi(argv[6]) != 0;
    if (argc > 7) settings.iterations = std::atoi(argv[7]);
    if (named == modes.end() || games < 1 || settings.pool < 1 || !(settings.temperature > 0.0) ||
        settings.iterations < 1) {
        std::fprintf(stderr,
                     "usage: schacht_belief resample|truth|truth-at-placements|truth-at-doublers|belief"
                     " [games] [seed] [T] [pool] [features] [iterations]\n");
        return 2;
    }
    settings.mode = named->second;
    const Game game = Game::from_options(Options{});  // 4 players
    std::vector<double> won(at(games));
    in_parallel(games, 2, [&](int first, int last) {
        const HeuristicBot heuristic;
        for (int g = first; g < last; ++g) {
            const uint64_t game_seed = derive_seed(seed, static_cast<uint64_t>(g));
            Position p = new_position<Rules>(game, game_seed);
            Pcg32 rng(game_seed, 0xB075ULL);
            const int searcher = g % 4;
            TableRecord record{};
            int round = p.round;
            for (int actor = next_actor(p); actor >= 0; actor = next_actor(p)) {
                if (p.round != round) record = TableRecord{}, round = p.round;
                const Move move = actor == searcher
                                      ? search(p, actor, (uint64_t{rng.next()} << 32) | rng.next(), record, settings)
                                      : heuristic.choose(p, actor, rng);
                if (move.kind == MoveKind::Place || move.kind == MoveKind::Discard) {
                    SeatRecord& r = record[at(actor)];
                    r.moved = true, r.before = p, r.move = move;
                    if (move.kind == MoveKind::Place)
                        (move.side == Side::Right ? r.angel : r.devil)[at(move.card.colour())] += move.card.value();
                }
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
    std::printf("%s (T %.2f, pool %d, features %d, %d iterations), %d games, seed %llu: %.3f (%.3f .. %.3f)\n",
                mode.c_str(), settings.temperature, settings.pool, settings.features ? 1 : 0, settings.iterations,
                games, static_cast<unsigned long long>(seed), mean, mean - 1.96 * error, mean + 1.96 * error);
}
