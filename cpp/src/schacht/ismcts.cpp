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

#include "diabolo/core/parallel.hpp"
#include "diabolo/core/portable_math.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo::schacht {

namespace {

std::size_t at(int index) noexcept { return static_cast<std::size_t>(index); }

/// A node: the move `action` made by seat `actor` from its parent.
struct Node {
    int32_t parent = -1;
    uint8_t action = 0;
    int8_t actor = -1;
    int64_t visits = 0;
    int64_t available = 0;  // how often the move was legal when its parent was visited
    double reward = 0.0;    // the actor's rewards, summed
    std::vector<int32_t> children;
};

/// Each seat's reward for a finished round: its round score against the best other
/// seat's (a race for the highest total, S6.2), scaled into [-1, 1].
std::array<double, kMaxSeats> rewards(const Position& before, const Position& after) noexcept {
    std::array<double, kMaxSeats> gain{}, reward{};
    const int n = before.players();
    for (int p = 0; p < n; ++p) gain[at(p)] = after.scores[at(p)] - before.scores[at(p)];
    for (int p = 0; p < n; ++p) {
        double best_other = -1e9;
        for (int o = 0; o < n; ++o) {
            if (o != p) best_other = std::max(best_other, gain[at(o)]);
        }
        reward[at(p)] = n > 1 ? std::clamp((gain[at(p)] - best_other) / 30.0, -1.0, 1.0) : 0.0;
    }
    return reward;
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

class Tree {
public:
    Tree(const Position& root, int player, const SearchOptions& options, uint64_t seed)
        : policy_{player, options.heuristic_rollouts},
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
        Position state = Rules::resample(root_, player_, (uint64_t{rng_.next()} << 32) | rng_.next());
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
                chosen = add_child(node, static_cast<uint8_t>(action), actor);
                expanded = true;
            }
            apply_unchecked(state, Move::of_action(nodes_[at(chosen)].action), actor);
            node = chosen;
        }
        policy_.play_out(state, root_.round, rng_);
        const auto reward = rewards(root_, state);
        for (int32_t n = node; n > 0; n = nodes_[at(n)].parent) {
            Node& current = nodes_[at(n)];
            ++current.visits;
            current.reward += reward[at(current.actor)];
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

    int32_t add_child(int32_t parent, uint8_t action, int actor) {
        const auto id = static_cast<int32_t>(nodes_.size());
        Node child;
        child.parent = parent;
        child.action = action;
        child.actor = static_cast<int8_t>(actor);
        child.available = 1;
        nodes_.push_back(std::move(child));
        nodes_[at(parent)].children.push_back(id);
        return id;
    }

    static constexpr double kPriorVisits = 50.0;  // visits over which the prior fades to half
    RolloutPolicy policy_;
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
RootStats tree_search(const Position& state, int player, const SearchOptions& options, uint64_t seed) {
    std::vector<int64_t> done(at(options.threads), 0);
    std::vector<RootStats> trees(at(options.threads));
    in_parallel(options.threads, options.threads, [&](int first, int last) {
        for (int t = first; t < last; ++t) {
            Tree tree(state, player, options, derive_seed(seed, static_cast<uint64_t>(t)));
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
void roll_out_world(const Position& root, int player, const RolloutPolicy& policy, uint64_t world_seed,
                    const std::vector<uint8_t>& moves, double* out) {
    const Position world = Rules::resample(root, player, world_seed);
    for (std::size_t j = 0; j < moves.size(); ++j) {
        Position s = world;
        Pcg32 rng(world_seed, j);  // used by random rollouts only; the heuristic draws nothing
        apply_unchecked(s, Move::of_action(moves[j]), player);
        policy.play_out(s, root.round, rng);
        out[j] = rewards(root, s)[at(player)];
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
RootStats halving_search(const Position& state, int player, const SearchOptions& options, uint64_t seed) {
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
            in_parallel(count, options.threads, [&](int first, int last) {
                for (int w = first; w < last; ++w) {
                    roll_out_world(state, player, policy, derive_seed(seed, next_world + static_cast<uint64_t>(w)),
                                   alive, rewards_of.data() + at((worlds + w) * width));
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
    if (player < 0 || player >= state.players()) throw PlayerError("there is no seat " + std::to_string(player));
    std::array<uint8_t, kNumActions> legal{};
    const int n = Rules::legal_actions(state, player, legal);
    if (n == 0)
        throw IllegalMoveError("S2.3", "seat " + std::to_string(player) + " has no move now", "no_move",
                               {{"seat", std::to_string(player)}});
    const RootStats stats =
        options.tree ? tree_search(state, player, options, seed) : halving_search(state, player, options, seed);
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
    return ismcts(state, player, options_, (high << 32) | rng.next()).best;
}

}  // namespace diabolo::schacht
