// Diabolo (Schacht): information-set Monte Carlo search. The searching seat never sees a
// hidden card: every determinisation is Rules::resample(player, seed), which depends only
// on what the seat knows (S7.3). Two ways to spend the iterations (SearchOptions::tree):
// - flat (the default): every root move is rolled out in the same determinisations and
//   the budget is halved onto the better half of the moves, round by round (sequential
//   halving, Karnin, Koren and Somekh 2013);
// - tree: single-observer ISMCTS (Cowling, Powley and Whitehouse 2012), UCB over the
//   seat's own moves with availability counts.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "diabolo/core/index.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/core/portable_math.hpp"
#include "diabolo/schacht/schacht.hpp"
#include "no_move.hpp"

namespace diabolo::schacht {

namespace {

/// A node: the move `action` the searching seat made from its parent (the tree holds only
/// its moves; the others play by the rollout policy).
struct Node {
    int32_t parent = -1;
    uint8_t action = 0;
    int64_t visits = 0;
    int64_t available = 0;  // how often the move was legal when its parent was visited
    double reward = 0.0;    // the searching seat's rewards, summed
    std::vector<int32_t> children;
};

/// The chance that a seat `margin` points ahead of the best other total (behind if
/// negative) wins the game (S6.2) with `rounds_left` rounds still to play: a logistic
/// fitted to 80,000 seats of heuristic self-play (4 players) after each round,
/// centre 3.3 points a round and scale 9.5 points times the root of the rounds left. In
/// the last round a step smoothed over kLastRoundScale points: a point more is worth
/// almost a win, and a tie about half of one.
double win_chance(double margin, int rounds_left) noexcept {
    constexpr double kCentre = 3.3, kScale = 9.5, kLastRoundScale = 2.0;
    const double scale = rounds_left > 0 ? kScale * std::sqrt(static_cast<double>(rounds_left)) : kLastRoundScale;
    return 1.0 / (1.0 + portable::exp(-(margin - kCentre * rounds_left) / scale));
}

/// The reward of `player` for a finished round, in [-1, 1]: its chance to win the game
/// from the totals after the round (win_chance, as 2p - 1), plus a fifth of its round
/// score against the best other seat's (scaled into [-1, 1]), which still tells moves
/// apart where the chance does not (a game already won or lost); the sum divided by 1.2.
double reward(const Position& before, const Position& after, int player) noexcept {
    constexpr double kRoundWeight = 0.2;
    const int n = before.players();
    if (n < 2) return 0.0;
    double best_gain = -1e9, best_total = -1e9;
    for (int o = 0; o < n; ++o) {
        if (o == player) continue;
        best_gain = std::max<double>(best_gain, after.scores[at(o)] - before.scores[at(o)]);
        best_total = std::max<double>(best_total, after.scores[at(o)]);
    }
    const double gain = after.scores[at(player)] - before.scores[at(player)];
    const double round_margin = std::clamp((gain - best_gain) / 30.0, -1.0, 1.0);
    const double chance = win_chance(after.scores[at(player)] - best_total, before.game.rounds - 1 - before.round);
    return (2.0 * chance - 1.0 + kRoundWeight * round_margin) / (1.0 + kRoundWeight);
}

/// The searching seat's own moves in rollouts, and its ranking of the root's moves: the
/// heuristic with weights tuned by self-play against three heuristic bots
/// (benchmarks/tune_heuristic.cpp). The other seats play the plain heuristic: the model
/// of how others play.
constexpr HeuristicWeights kSearcherWeights{1.519, 0.5, 2.0, 0.923, 0.817, 0.5, 0.5};

/// Who plays what in a rollout, in both ways of searching: the searching seat by the
/// tuned heuristic, the others by the heuristic, or everyone at random.
struct RolloutPolicy {
    int player;
    bool heuristic_rollouts;
    HeuristicBot heuristic{};
    HeuristicBot searcher{kSearcherWeights};
    RandomBot random{};

    const Bot& of(int actor) const noexcept {
        if (!heuristic_rollouts) return random;
        return actor == player ? searcher : heuristic;
    }

    /// Plays `s` to the end of round `round` (or of the game).
    void play_out(Position& s, int round, Pcg32& rng) const {
        while (!s.is_terminal() && s.round == round) {
            const int actor = next_actor(s);
            apply_unchecked(s, of(actor).choose(s, actor, rng), actor);
        }
    }
};

/// What the searching seat may believe of the others' hands in the play phase: for each
/// seat that has moved this round, kPool candidate hands (the cards a Rules::resample
/// leaves unseen, shuffled anew and dealt as it deals them: made only of what the
/// searching seat sees, S7.3), each weighted by
/// - how likely the heuristic, the model of how the others play, was to make the seat's
///   latest placement or discard with it: the softmax of HeuristicBot::move_values at
///   temperature kTemperature, in the position before that move, rebuilt from the round's
///   turns (S7.1). The hand then was the hand now plus the card played: no card is drawn
///   between a seat's move and its next turn (S2.3);
/// - a log-linear term in the hand's sum of each colour and the values the seat placed on
///   that colour's sides this round, fitted by hand to heuristic self-play.
/// Knowing the others' true hands lifts the flat search from 0.34 to 0.60 against three
/// heuristic bots, all of it at the placements (docs/strength.rst,
/// benchmarks/schacht_belief.cpp); this belief recovers about a fifth of that (0.40).
class Belief {
public:
    /// With `enabled` false, or outside the play phase, or without the round's turns,
    /// every deal is a plain Rules::resample.
    Belief(const Position& root, int player, uint64_t seed, bool enabled, Team& team) : root_(root), player_(player) {
        if (!enabled || root.phase != Phase::Play || !root.round_record_known()) return;
        std::array<int, kMaxSeats> latest{};
        latest.fill(-1);
        for (int i = 0; i < root.turn_count; ++i) latest[root.turns[at(i)].seat] = i;
        const Position world = Rules::resample(root, player, seed);
        std::array<Position, kMaxSeats> before{};
        std::array<std::array<int, kColours>, kMaxSeats> angel{}, devil{};
        for (int seat = 0; seat < root.players(); ++seat) {
            if (seat == player || latest[at(seat)] < 0) continue;
            modelled_[at(seat)] = true;
            before[at(seat)] = position_before(world, latest[at(seat)]);
            for (int i = 0; i < root.turn_count; ++i) {
                const Move move = Move::of_action(root.turns[at(i)].action);
                if (root.turns[at(i)].seat != seat || move.kind != MoveKind::Place) continue;
                (move.side == Side::Right ? angel : devil)[at(seat)][at(move.card.colour())] += move.card.value();
            }
        }
        std::array<std::vector<double>, kMaxSeats> weights;
        for (int seat = 0; seat < root.players(); ++seat) {
            if (!modelled_[at(seat)]) continue;
            hands_[at(seat)].resize(kPool);
            weights[at(seat)].resize(kPool);
        }
        // The pool: the cards unseen by `player` (those `world` dealt to the pile and to the
        // other seats' hidden places) shuffled anew for each candidate and dealt as
        // Rules::resample deals them: each seat's known cards and as many unseen ones as it
        // hides.
        std::vector<uint8_t> unseen(world.pile.begin() + world.pile_next, world.pile.begin() + world.pile_end);
        std::array<int, kMaxSeats> hidden{};
        for (int seat = 0; seat < root.players(); ++seat) {
            if (seat == player) continue;
            known_[at(seat)] = known_cards(root, seat);
            for (CardSet rest = world.hands[at(seat)]; !rest.empty();) {
                const int slot = rest.pop_lowest();
                if (!known_[at(seat)].test(slot))
                    unseen.push_back(static_cast<uint8_t>(slot / kMaxCopies)), ++hidden[at(seat)];
            }
        }
        for (const uint8_t kind : unseen) ++unseen_count_[kind];  // the same cards in every deal
        team.run(kPool, [&](int first, int last) {
            const HeuristicBot model;
            std::array<Position, kMaxSeats> then = before;  // each modelled seat's hand set in turn
            std::vector<uint8_t> cards = unseen;
            for (int k = first; k < last; ++k) {
                std::copy(unseen.begin(), unseen.end(), cards.begin());
                Pcg32 rng(seed, static_cast<uint64_t>(k) + 1);
                rng.shuffle(cards.data(), cards.size());
                std::size_t next = 0;
                for (int seat = 0; seat < root.players(); ++seat) {
                    if (seat == player) continue;
                    CardSet hand = known_[at(seat)];
                    for (int i = 0; i < hidden[at(seat)]; ++i) add_card(hand, Card{cards[next++]});
                    if (!modelled_[at(seat)]) continue;
                    const Turn& turn = root.turns[at(latest[at(seat)])];
                    double weight = move_likelihood(model, then[at(seat)], seat, hand, turn.action);
                    if (weight > 0.0) {
                        const std::array<int, kColours> sums = colour_sums(hand);
                        double log_factor = 0.0;
                        for (int c = 0; c < kColours; ++c) {
                            const double sum = sums[at(c)], a = angel[at(seat)][at(c)], d = devil[at(seat)][at(c)];
                            log_factor += sum * (0.25 * a - 0.85 * d) / 10.0 +
                                          (sum > 0 ? (0.15 * d - 1.15 * a) / 10.0 : 0.0) + sum * sum * 0.2 * d / 100.0;
                        }
                        weight *= portable::exp(log_factor);
                    }
                    hands_[at(seat)][at(k)] = hand;
                    weights[at(seat)][at(k)] = weight;
                }
            }
        });
        for (int seat = 0; seat < root.players(); ++seat) {
            if (!modelled_[at(seat)]) continue;
            double total = 0.0;
            for (const double weight : weights[at(seat)]) cumulative_[at(seat)].push_back(total += weight);
            if (!(total > 0.0)) modelled_[at(seat)] = false;  // no candidate could have made the move
        }
    }

    /// A determinisation for `seed`: Rules::resample's, with each modelled seat's hand
    /// drawn from the belief. The seats' draws are kept only if no unseen card is used
    /// twice (else drawn again, kAttempts times, then the plain resample is kept); the
    /// unseen cards they leave are shuffled into the pile.
    Position deal(uint64_t seed) const {
        const Position plain = Rules::resample(root_, player_, seed);
        if (std::none_of(modelled_.begin(), modelled_.end(), [](bool m) { return m; })) return plain;
        Pcg32 rng(seed, 0xBE11EFULL);
        for (int attempt = 0; attempt < kAttempts; ++attempt) {
            Position deal = plain;
            for (int seat = 0; seat < root_.players(); ++seat) {
                if (!modelled_[at(seat)]) continue;
                const auto& cumulative = cumulative_[at(seat)];
                const double u = rng.next() / 4294967296.0 * cumulative.back();
                const auto k = std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
                deal.hands[at(seat)] = hands_[at(seat)][std::min(static_cast<std::size_t>(k), at(kPool - 1))];
            }
            std::array<int, kKinds> left = unseen_count_;
            bool fits = true;
            for (int seat = 0; seat < root_.players() && fits; ++seat) {
                if (seat != player_) fits = take_dealt(deal, seat, left);
            }
            if (!fits) continue;
            deal.pile_next = 0;
            deal.pile_end = 0;
            deal.pile = {};
            for (int kind = 0; kind < kKinds; ++kind) {
                for (int copy = 0; copy < left[at(kind)]; ++copy)
                    deal.pile[deal.pile_end++] = static_cast<uint8_t>(kind);
            }
            rng.shuffle(deal.pile.data(), deal.pile_end);
            return deal;
        }
        return plain;
    }

private:
    static constexpr int kPool = 1024;
    static constexpr double kTemperature = 0.2;
    static constexpr int kAttempts = 20;

    /// Takes each card `seat` was dealt in `deal` (its hand but the cards known to be
    /// there) out of the unseen `counts`; false if one is not there.
    bool take_dealt(const Position& deal, int seat, std::array<int, kKinds>& counts) const {
        bool fits = true;
        for (CardSet rest = deal.hands[at(seat)]; !rest.empty();) {
            const int slot = rest.pop_lowest();
            if (known_[at(seat)].test(slot)) continue;  // thermometer codes: the same slot is the same copy
            fits = --counts[at(slot / kMaxCopies)] >= 0 && fits;
        }
        return fits;
    }

    /// `world` as it stood when the turn `turn` of the round was to be made: the later
    /// turns undone, each with the card its seat drew first (S2.3: turn t drew if the pile
    /// still held cards, that is if t < the cards drawn this round), back on the pile.
    /// Which of a seat's hidden cards goes back does not matter: the model of that seat
    /// sees only their number.
    static Position position_before(const Position& world, int turn) {
        Position s = world;
        const int drawn = world.pile_next;
        const auto undo_draw = [&](int t, int seat) {
            CardSet hidden = s.hands[at(seat)] & ~known_cards(s, seat);
            if (t >= drawn || hidden.empty() || s.pile_next == 0) return;
            const Card card{static_cast<uint8_t>(hidden.pop_lowest() / kMaxCopies)};
            remove_card(s.hands[at(seat)], card);
            s.pile[--s.pile_next] = card.kind;
        };
        undo_draw(s.turn_count, s.current_player);  // the turn in progress
        for (int t = s.turn_count - 1; t >= turn; --t) {
            const Turn done = s.turns[at(t)];
            const Move move = Move::of_action(done.action);
            add_card(s.hands[done.seat], move.card);
            if (move.kind == MoveKind::Discard) {
                remove_card(s.discarded[done.seat], move.card);
                if (s.discarded[done.seat].empty()) s.shown[done.seat] = CardSet{};
            } else {
                Row& row = s.rows[at(move.card.colour())];
                (move.side == Side::Left ? row.left[--row.left_count] : row.right[--row.right_count]) = 0;
            }
            s.turns[at(t)] = Turn{};
            --s.turn_count;
            s.current_player = static_cast<int8_t>(done.seat);
            if (t > turn) undo_draw(t, done.seat);
        }
        return s;
    }

    /// The probability that the heuristic makes `action` for `seat` in `then` (the
    /// position before the move) holding `hand` plus the card the action played; 0 if it
    /// could not. Sets that hand in `then`.
    static double move_likelihood(const HeuristicBot& model, Position& then, int seat, CardSet hand, int action) {
        add_card(hand, Move::of_action(action).card);
        then.hands[at(seat)] = hand;
        std::array<uint8_t, kNumActions> legal{};
        std::array<double, kNumActions> values{};
        const int n = model.move_values(then, seat, legal, values);
        if (n == 0) return 0.0;
        const double best = *std::max_element(values.begin(), values.begin() + n);
        double total = 0.0, chosen = 0.0;
        for (int i = 0; i < n; ++i) {
            const double odds = portable::exp((values[at(i)] - best) / kTemperature);
            total += odds;
            if (legal[at(i)] == action) chosen = odds;
        }
        return chosen / total;  // the best move's odds are 1: total >= 1
    }

    const Position& root_;
    int player_;
    std::array<bool, kMaxSeats> modelled_{};
    std::array<CardSet, kMaxSeats> known_{};  // what everyone knows of each other hand
    std::array<int, kKinds> unseen_count_{};  // the cards `player_` does not see, by kind
    std::array<std::vector<CardSet>, kMaxSeats> hands_;
    std::array<std::vector<double>, kMaxSeats> cumulative_;
};

class Tree {
public:
    Tree(const Position& root, int player, const SearchOptions& options, const Belief& belief, uint64_t seed)
        : policy_{player, options.heuristic_rollouts},
          belief_(belief),
          root_(root),
          player_(player),
          options_(options),
          rng_(seed, 0x15C7515ULL) {
        nodes_.emplace_back();
        // Progressive bias at the root: the heuristic's ranking of the seat's moves (its
        // view of them does not depend on the hidden cards), in [-1, 0], best 0.
        std::array<uint8_t, kNumActions> legal{};
        const int n = Rules::legal_actions(root, player, legal);
        const std::vector<double> values = policy_.searcher.move_values(root, player);
        const double best = *std::max_element(values.begin(), values.end());
        const double worst = *std::min_element(values.begin(), values.end());
        for (int i = 0; i < n; ++i) prior_[legal[at(i)]] = best > worst ? (values[at(i)] - best) / (best - worst) : 0.0;
    }

    /// One iteration: determinise, select and expand, roll out to the round's end,
    /// back the rewards up.
    void iterate() {
        Position state = belief_.deal((uint64_t{rng_.next()} << 32) | rng_.next());
        int32_t node = 0;
        bool expanded = false;
        std::array<uint8_t, kNumActions> legal{};
        while (!round_over(state) && !expanded) {
            const int actor = node == 0 ? player_ : next_actor(state);
            if (actor != player_) {  // the others play by the rollout policy, in their determinised hands
                apply_unchecked(state, policy_.of(actor).choose(state, actor, rng_), actor);
                continue;
            }
            const int n = Rules::legal_actions(state, actor, legal);
            // Availability of the moves already in the tree, and the first untried one.
            int32_t chosen = -1;
            double best = -1e300;
            int untried[kNumActions];
            int untried_count = 0;
            for (int i = 0; i < n; ++i) {
                const int32_t child = child_of(node, legal[at(i)]);
                if (child < 0) {
                    untried[untried_count++] = legal[at(i)];
                    continue;
                }
                Node& c = nodes_[at(child)];
                ++c.available;
                const double visits = static_cast<double>(c.visits);
                double score =
                    c.reward / visits +
                    options_.exploration * std::sqrt(portable::log(static_cast<double>(c.available)) / visits);
                if (node == 0) score += options_.prior * prior_[c.action] * kPriorVisits / (kPriorVisits + visits);
                if (score > best) best = score, chosen = child;
            }
            if (untried_count > 0) {
                // At the root the heuristic's best untried move first; deeper, any.
                int pick = static_cast<int>(rng_.below(static_cast<uint32_t>(untried_count)));
                if (node == 0) {
                    for (int i = 0; i < untried_count; ++i) {
                        if (prior_[untried[i]] > prior_[untried[pick]]) pick = i;
                    }
                }
                const int action = untried[pick];
                chosen = add_child(node, static_cast<uint8_t>(action));
                expanded = true;
            }
            apply_unchecked(state, Move::of_action(nodes_[at(chosen)].action), actor);
            node = chosen;
        }
        policy_.play_out(state, root_.round, rng_);
        const double value = reward(root_, state, player_);  // every node is a move of player_
        for (int32_t n = node; n > 0; n = nodes_[at(n)].parent) {
            Node& current = nodes_[at(n)];
            ++current.visits;
            current.reward += value;
        }
        ++nodes_[0].visits;
    }

    /// The root's moves with their visits and summed rewards.
    void add_root_stats(std::array<int64_t, kNumActions>& visits, std::array<double, kNumActions>& reward) const {
        for (const int32_t child : nodes_[0].children) {
            const Node& c = nodes_[at(child)];
            visits[c.action] += c.visits;
            reward[c.action] += c.reward;
        }
    }

private:
    bool round_over(const Position& s) const noexcept { return s.is_terminal() || s.round != root_.round; }

    int32_t child_of(int32_t node, uint8_t action) const noexcept {
        for (const int32_t child : nodes_[at(node)].children) {
            if (nodes_[at(child)].action == action) return child;
        }
        return -1;
    }

    int32_t add_child(int32_t parent, uint8_t action) {
        const auto id = static_cast<int32_t>(nodes_.size());
        Node child;
        child.parent = parent;
        child.action = action;
        child.available = 1;
        nodes_.push_back(std::move(child));
        nodes_[at(parent)].children.push_back(id);
        return id;
    }

    static constexpr double kPriorVisits = 50.0;  // visits over which the prior fades to half
    RolloutPolicy policy_;
    const Belief& belief_;
    std::array<double, kNumActions> prior_{};

    Position root_;
    int player_;
    SearchOptions options_;
    Pcg32 rng_;
    std::vector<Node> nodes_;
};

}  // namespace

void check_search_options(const SearchOptions& o) {
    if (o.iterations < 1 || o.iterations > 100'000'000) {
        throw OptionError("iterations must be 1..100000000, got " + std::to_string(o.iterations));
    }
    if (!(o.seconds >= 0.0 && o.seconds <= 3600.0)) throw OptionError("seconds must be 0..3600");
    if (o.threads < 1 || o.threads > kMaxThreads)
        throw OptionError("threads must be 1.." + std::to_string(kMaxThreads) + ", got " + std::to_string(o.threads));
    if (!(o.exploration >= 0.0 && o.exploration <= 100.0)) throw OptionError("exploration must be 0..100");
    if (!(o.prior >= 0.0 && o.prior <= 100.0)) throw OptionError("prior must be 0..100");
}

namespace {

/// The root's moves with their visits and summed rewards, by action id.
struct RootStats {
    std::array<int64_t, kNumActions> visits{};
    std::array<double, kNumActions> reward{};
    int64_t iterations = 0;
};

/// Single-observer ISMCTS: one tree per thread, merged at the root.
RootStats tree_search(const Position& state, int player, const SearchOptions& options, const Belief& belief,
                      uint64_t seed, Team& team) {
    std::vector<int64_t> done(at(options.threads), 0);
    std::vector<RootStats> trees(at(options.threads));
    team.run(options.threads, [&](int first, int last) {
        for (int t = first; t < last; ++t) {
            Tree tree(state, player, options, belief, derive_seed(seed, static_cast<uint64_t>(t)));
            // The iterations are split over the threads, so more threads search as much, sooner.
            const int64_t share =
                options.iterations / options.threads + (t < options.iterations % options.threads ? 1 : 0);
            const auto start = std::chrono::steady_clock::now();
            const auto budget = std::chrono::duration<double>(options.seconds);
            int64_t count = 0;
            while (options.seconds > 0.0 ? std::chrono::steady_clock::now() - start < budget : count < share) {
                tree.iterate();
                ++count;
            }
            done[at(t)] = count;
            tree.add_root_stats(trees[at(t)].visits, trees[at(t)].reward);
        }
    });
    RootStats stats;
    for (int t = 0; t < options.threads; ++t) {  // summed in thread order: the same sums every run
        stats.iterations += done[at(t)];
        for (int a = 0; a < kNumActions; ++a) {
            stats.visits[at(a)] += trees[at(t)].visits[at(a)];
            stats.reward[at(a)] += trees[at(t)].reward[at(a)];
        }
    }
    return stats;
}

/// Each of `moves` rolled out to the round's end in the determinisation of `world_seed`:
/// the searcher's reward for each, into out[0 .. moves.size()).
void roll_out_world(const Position& root, int player, const RolloutPolicy& policy, const Belief& belief,
                    uint64_t world_seed, const std::vector<uint8_t>& moves, double* out) {
    const Position world = belief.deal(world_seed);
    for (std::size_t j = 0; j < moves.size(); ++j) {
        Position s = world;
        Pcg32 rng(world_seed, j);  // used by random rollouts only; the heuristic draws nothing
        apply_unchecked(s, Move::of_action(moves[j]), player);
        policy.play_out(s, root.round, rng);
        out[j] = reward(root, s, player);
    }
}

/// Keeps the best `count` of the surviving moves `alive`: by their summed rewards (they
/// were rolled out equally often), ties by the searcher's heuristic's ranking.
void narrow(std::vector<uint8_t>& alive, std::size_t count, const RootStats& stats, const Position& state, int player,
            const HeuristicBot& searcher) {
    std::array<uint8_t, kNumActions> legal{};
    const int n = Rules::legal_actions(state, player, legal);
    const std::vector<double> values = searcher.move_values(state, player);
    std::array<double, kNumActions> value_of{};
    for (int i = 0; i < n; ++i) value_of[legal[at(i)]] = values[at(i)];
    std::stable_sort(alive.begin(), alive.end(), [&](uint8_t a, uint8_t b) {
        if (stats.reward[a] != stats.reward[b]) return stats.reward[a] > stats.reward[b];
        return value_of[a] > value_of[b];
    });
    alive.resize(count);
    std::sort(alive.begin(), alive.end());
}

/// The flat search: in each of ceil(log2(moves)) rounds the surviving root moves are
/// rolled out in the same fresh determinisations (so their rewards differ by the move,
/// not by the deal), and the better half survives (sequential halving). World w is dealt
/// from derive_seed(seed, w) and the rewards are summed in world order: the same result
/// for any number of threads.
RootStats halving_search(const Position& state, int player, const SearchOptions& options, const Belief& belief,
                         uint64_t seed, Team& team) {
    std::array<uint8_t, kNumActions> legal{};
    const int n = Rules::legal_actions(state, player, legal);
    std::vector<uint8_t> alive(legal.begin(), legal.begin() + n);
    int rounds = 1;
    while ((1 << rounds) < n) ++rounds;
    const RolloutPolicy policy{player, options.heuristic_rollouts};
    RootStats stats;
    const auto start = std::chrono::steady_clock::now();
    uint64_t next_world = 0;
    for (int r = 0; r < rounds; ++r) {
        const int64_t left = options.iterations - stats.iterations;
        if (options.seconds <= 0.0 && left < static_cast<int64_t>(alive.size())) {
            // Too few iterations left for one deal of every survivor: go on with the best
            // `left` of them (at the start, the heuristic's best), or stop.
            if (left == 0) break;
            narrow(alive, static_cast<std::size_t>(left), stats, state, player, policy.searcher);
        }
        const int width = static_cast<int>(alive.size());
        std::vector<double> rewards_of;  // world by move
        int worlds = 0;
        const auto roll = [&](int count) {
            rewards_of.resize(at((worlds + count) * width));
            team.run(count, [&](int first, int last) {
                for (int w = first; w < last; ++w) {
                    roll_out_world(state, player, policy, belief,
                                   derive_seed(seed, next_world + static_cast<uint64_t>(w)), alive,
                                   rewards_of.data() + at((worlds + w) * width));
                }
            });
            worlds += count;
            next_world += static_cast<uint64_t>(count);
        };
        if (options.seconds > 0.0) {  // this round's share of the time, a block of worlds at a time
            const auto until = start + std::chrono::duration<double>(options.seconds * (r + 1) / rounds);
            do roll(options.threads);
            while (std::chrono::steady_clock::now() < until);
        } else {  // this round's share of the iterations left, at least one world
            const int64_t share = left / (rounds - r);
            roll(static_cast<int>(std::max<int64_t>(1, share / width)));
        }
        stats.iterations += static_cast<int64_t>(worlds) * width;
        std::vector<std::pair<double, int>> order;  // (summed reward, position in alive)
        for (int j = 0; j < width; ++j) {
            double sum = 0.0;
            for (int w = 0; w < worlds; ++w) sum += rewards_of[at(w * width + j)];
            stats.visits[alive[at(j)]] += worlds;
            stats.reward[alive[at(j)]] += sum;
            order.emplace_back(stats.reward[alive[at(j)]], j);
        }
        if (width == 1) break;
        // The better half survives; equal rewards keep the lower action id.
        std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        std::vector<uint8_t> survivors;
        for (int j = 0; j < (width + 1) / 2; ++j) survivors.push_back(alive[at(order[at(j)].second)]);
        std::sort(survivors.begin(), survivors.end());
        alive = survivors;
    }
    return stats;
}

}  // namespace

SearchResult ismcts(const Position& state, int player, const SearchOptions& options, uint64_t seed) {
    check_search_options(options);
    // One team for the whole search: its rounds would otherwise start threads each time.
    Team team(options.threads);
    return ismcts(state, player, options, seed, team);
}

SearchResult ismcts(const Position& state, int player, const SearchOptions& options, uint64_t seed, Team& team) {
    check_search_options(options);
    if (team.threads() != options.threads)
        throw OptionError("the team has " + std::to_string(team.threads()) + " threads, the search asks for " +
                          std::to_string(options.threads));
    if (player < 0 || player >= state.players()) throw PlayerError("there is no seat " + std::to_string(player));
    std::array<uint8_t, kNumActions> legal{};
    const int n = Rules::legal_actions(state, player, legal);
    if (n == 0) throw no_move_error(player);
    // The belief's pool is dealt from seeds of its own (the worlds take derive_seed(seed, w)).
    const Belief belief(state, player, options.belief ? derive_seed(~seed, 0) : 0, options.belief, team);
    const RootStats stats = options.tree ? tree_search(state, player, options, belief, seed, team)
                                         : halving_search(state, player, options, belief, seed, team);
    SearchResult result;
    result.iterations = stats.iterations;
    int best = -1;
    for (int i = 0; i < n; ++i) {
        const int a = legal[at(i)];
        result.moves.push_back(Move::of_action(legal[at(i)]));
        result.visits.push_back(stats.visits[at(a)]);
        result.values.push_back(stats.visits[at(a)] ? stats.reward[at(a)] / static_cast<double>(stats.visits[at(a)])
                                                    : 0.0);
        if (best < 0 || result.visits[at(i)] > result.visits[at(best)] ||
            (result.visits[at(i)] == result.visits[at(best)] && result.values[at(i)] > result.values[at(best)])) {
            best = i;
        }
    }
    result.best = result.moves[at(best)];
    return result;
}

Move IsmctsBot::choose(const Position& state, int player, Pcg32& rng) const {
    std::array<uint8_t, kNumActions> legal{};
    if (Rules::legal_actions(state, player, legal) == 1) return Move::of_action(legal[0]);  // nothing to search
    const uint64_t high = rng.next();
    return search(state, player, (high << 32) | rng.next()).best;
}

SearchResult IsmctsBot::search(const Position& state, int player, uint64_t seed) const {
    check_search_options(options_);
    return team_->with(options_.threads, [&](Team& team) { return ismcts(state, player, options_, seed, team); });
}

}  // namespace diabolo::schacht
