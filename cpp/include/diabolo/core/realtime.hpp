// Event-driven simulation of the real-time games (docs/realtime.rst).
//
// There are no turns: every bot looks at the table, picks a move and needs a reaction
// time to make it. Moves arrive in time order and apply in that order; a move that
// lost a race is rejected by the rules and its bot decides again. A bot with nothing
// to do waits until the table changes. One seed fixes the whole run: the bots' choices,
// their reaction times and the order of moves that arrive at the same instant.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "diabolo/core/contract.hpp"
#include "diabolo/core/errors.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/core/rng.hpp"

namespace diabolo::realtime {

constexpr int kMaxKinds = 8;
constexpr int kMaxSeats = 8;  // seats of a simulated game

/// Reaction time for one kind of action: about normal(mean, spread), never below the
/// minimum of its Reaction.
struct Delay {
    double mean = 1.0;    // seconds
    double spread = 0.3;  // standard deviation, seconds
};

/// Simulated time is counted in whole microseconds, and reaction times are drawn with
/// integer arithmetic only, so a seed gives the same run on every platform (floating
/// point functions such as log and cos may round differently between C libraries).
inline int64_t microseconds(double seconds) noexcept { return std::llround(seconds * 1e6); }

/// Bounds that keep the integer arithmetic of Reaction::sample exact.
constexpr double kMaxMean = 3600.0;
constexpr double kMaxSpread = 300.0;

/// A bot's reaction-time model: one Delay per kind of action of the game.
struct Reaction {
    std::array<Delay, kMaxKinds> delays{};
    double minimum = 0.15;

    /// A reaction time in microseconds for an action of `kind`, drawn from `rng`: the
    /// mean plus the spread times an Irwin-Hall variable (12 uniforms minus 6: mean 0,
    /// standard deviation 1, within +-6), at least the minimum.
    int64_t sample(int kind, Pcg32& rng) const noexcept {
        int64_t sum = 0;
        for (int i = 0; i < 12; ++i) sum += rng.next();
        const int64_t centred = sum - 6 * (int64_t{1} << 32);  // z * 2^32, |z| <= 6
        const Delay& d = delays[static_cast<std::size_t>(kind)];
        const int64_t t = microseconds(d.mean) + ((microseconds(d.spread) * centred) >> 32);
        return t > microseconds(minimum) ? t : microseconds(minimum);
    }
};

/// One move of a simulated game: when it arrived, whose it was, and whether the rules
/// took it (false: it lost a race, or was not legal when it arrived).
template <class Move>
struct TimedMove {
    double time = 0.0;
    int player = 0;
    Move move{};
    bool accepted = false;
};

/// Limits of a run: simulated seconds and arrivals. A run that reaches one stops there.
struct Limits {
    double max_time = 24.0 * 3600.0;  // seconds
    int64_t max_events = 10'000'000;
};

/// The outcome of one simulated game.
template <class State, class Move>
struct Run {
    State state{};
    std::vector<TimedMove<Move>> log;
    int64_t accepted = 0;  // moves the rules took
    int64_t rejected = 0;  // moves that lost a race or were not legal on arrival
    double time = 0.0;
};

namespace detail {

inline constexpr int64_t kIdle = std::numeric_limits<int64_t>::max();

/// A bot's next move and when it arrives, in microseconds (never, while the bot waits).
template <class Move>
struct Pending {
    int64_t time = kIdle;
    uint64_t tiebreak = 0;
    std::optional<Move> move;
};

}  // namespace detail

/// A stretch of simulated play of game `R` (a real-time game of the contract,
/// core/contract.hpp) on a position the caller owns: each seat's bot plans a move,
/// which arrives a reaction time later (R::bot_move, R::bot_delay); step() applies the
/// next arrival through R::try_apply (a lost race is rejected) and lets the seats that
/// must decide again do so. simulate() plays whole games with it; a search plays short
/// stretches from positions of its own (play_out).
template <class R>
class Simulation {
public:
    using Position = typename R::Position;
    using Move = typename R::Move;
    using Bot = typename R::Bot;

    /// Seat p is played by *bots[p] (null for a seat that never moves on its own). The
    /// seed fixes the bots' choices, their reaction times and the order of arrivals at
    /// one instant.
    Simulation(Position& state, const std::array<const Bot*, kMaxSeats>& bots, uint64_t seed)
        : state_(state), bots_(bots), order_(seed, 0x71E0B4EAULL) {
        for (int p = 0; p < state.players(); ++p) minds_.emplace_back(derive_seed(seed, static_cast<uint64_t>(p) + 1));
    }

    /// Seat p's bot decides now: its move arrives after its reaction time, or never
    /// while it waits for the table to change.
    void plan(int p) {
        const auto seat = static_cast<std::size_t>(p);
        const std::optional<Move> move =
            bots_[seat] ? R::bot_move(*bots_[seat], state_, p, minds_[seat]) : std::optional<Move>{};
        send(p, move, move ? R::bot_delay(*bots_[seat], *move, minds_[seat]) : 0);
    }
    /// A search's rollout: seat p makes `first` now (nothing: it waits for the table to
    /// change), every other seat decides afresh, and the moves arrive until `until`
    /// microseconds or the end of the round, whichever comes first. Seat p needs a bot.
    void play_out(int p, const std::optional<Move>& first, int64_t until) {
        const auto seat = static_cast<std::size_t>(p);
        send(p, first, first ? R::bot_delay(*bots_[seat], *first, minds_[seat]) : 0);
        for (int q = 0; q < state_.players(); ++q) {
            if (q != p) plan(q);
        }
        const int round = R::round(state_);
        while (step(until) && R::round(state_) == round) {  // step() stops at the game's end
        }
    }

    /// One arrival: when, whose, what was sent and what the rules took (nothing: it lost a race).
    struct Arrival {
        int64_t time = 0;
        int player = 0;
        Move sent{};
        std::optional<Move> taken;
    };
    /// Applies the next arrival if it comes no later than `until` (microseconds) and the
    /// game is not over; then the seats that must decide again do (its sender, everyone
    /// at a new round, the waiting seats when the table changed). Nothing if every seat
    /// waits or the next arrival is later.
    std::optional<Arrival> step(int64_t until) {
        if (R::current_player(state_) == kTerminal) return std::nullopt;
        const int n = state_.players();
        int next = -1;
        for (int p = 0; p < n; ++p) {
            const auto& slot = pending_[static_cast<std::size_t>(p)];
            if (slot.time == detail::kIdle) continue;
            const auto& best = pending_[static_cast<std::size_t>(next < 0 ? p : next)];
            if (next < 0 || slot.time < best.time || (slot.time == best.time && slot.tiebreak < best.tiebreak))
                next = p;
        }
        if (next < 0 || pending_[static_cast<std::size_t>(next)].time > until) return std::nullopt;
        now_ = pending_[static_cast<std::size_t>(next)].time;
        const Move sent = *pending_[static_cast<std::size_t>(next)].move;
        const int round = R::round(state_);
        Arrival arrival{now_, next, sent, R::try_apply(state_, sent, next)};
        if (R::current_player(state_) == kTerminal) return arrival;
        if (!arrival.taken) {
            plan(next);
        } else if (R::round(state_) != round) {
            for (int p = 0; p < n; ++p) plan(p);  // a new deal: everyone starts afresh
        } else {
            plan(next);
            for (int p = 0; p < n; ++p) {  // waiting bots see the change
                if (p != next && pending_[static_cast<std::size_t>(p)].time == detail::kIdle) plan(p);
            }
        }
        return arrival;
    }
    int64_t now() const noexcept { return now_; }

private:
    /// Seat p sends `move` now, to arrive `delay` microseconds later (nothing: it waits).
    void send(int p, const std::optional<Move>& move, int64_t delay) {
        auto& slot = pending_[static_cast<std::size_t>(p)];
        slot.move = move;
        slot.time = move ? now_ + delay : detail::kIdle;
        const uint64_t high = order_.next();
        slot.tiebreak = (high << 32u) | order_.next();
    }

    Position& state_;
    std::array<const Bot*, kMaxSeats> bots_;
    Pcg32 order_;               // ties between arrivals at one instant
    std::vector<Pcg32> minds_;  // each bot's own stream: choices and delays
    std::array<detail::Pending<Move>, kMaxSeats> pending_{};
    int64_t now_ = 0;
};

/// OptionError unless a real-time search's budget is within its game's bounds: `worlds`
/// deals 1..max_worlds, and `horizon` 0.1..max_horizon seconds of simulated play.
inline void check_search_budget(int worlds, int max_worlds, double horizon, double max_horizon) {
    if (worlds < 1 || worlds > max_worlds)
        throw OptionError("worlds must be 1.." + std::to_string(max_worlds) + ", got " + std::to_string(worlds));
    if (!(horizon >= 0.1 && horizon <= max_horizon))
        throw OptionError("horizon must be 0.1.." + std::to_string(static_cast<int>(max_horizon)) + " seconds, got " +
                          std::to_string(horizon));
}

/// What a flat search (flat_search()) found: per candidate, the sum over the worlds of the
/// differences between its score and candidate 0's, and of their squares. Integers, so a
/// decision on them is the same on every machine.
struct FlatTotals {
    int worlds = 0;
    std::vector<int64_t> sum, squares;  // by candidate; 0 for candidate 0
};

/// The search of the real-time games: flat Monte Carlo over determinised worlds. For each
/// of `worlds` worlds (a seed drawn as two rng.next(), `resample(seed)` the position as
/// `player` may believe it), each candidate (a move, or nothing: wait for the table to
/// change) is played out from that world for `until` microseconds or to the end of the
/// round (Simulation::play_out, seat q by bots[q], the same seed for every candidate), and
/// scored by `player`'s standing less the best other seat's (`standing(world, seat)`, an
/// integer, read after the stretch). A decision rule (best_sum(), surely_better()) picks a
/// candidate from the totals.
template <class R, class Resample, class Standing>
FlatTotals flat_search(const std::vector<std::optional<typename R::Move>>& candidates, int player,
                       const std::array<const typename R::Bot*, kMaxSeats>& bots, int worlds, int64_t until, Pcg32& rng,
                       Resample resample, Standing standing) {
    const std::size_t count = candidates.size();
    FlatTotals totals{worlds, std::vector<int64_t>(count), std::vector<int64_t>(count)};
    std::vector<int64_t> scores(count);
    for (int w = 0; w < worlds; ++w) {
        const uint64_t high = rng.next();
        const uint64_t seed = (high << 32u) | rng.next();
        const typename R::Position world = resample(seed);
        for (std::size_t m = 0; m < count; ++m) {
            typename R::Position after = world;
            Simulation<R>(after, bots, seed).play_out(player, candidates[m], until);
            int64_t best_other = std::numeric_limits<int64_t>::min();
            for (int q = 0; q < after.players(); ++q) {
                if (q != player) best_other = std::max<int64_t>(best_other, standing(after, q));
            }
            scores[m] = standing(after, player) - best_other;
        }
        for (std::size_t m = 1; m < count; ++m) {
            const int64_t difference = scores[m] - scores[0];
            totals.sum[m] += difference;
            totals.squares[m] += difference * difference;
        }
    }
    return totals;
}

/// A decision rule of flat_search(): the candidate with the largest total, the earlier on a
/// tie (candidate 0, whose sum is 0, unless another did better).
inline std::size_t best_sum(const FlatTotals& totals) noexcept {
    std::size_t best = 0;
    for (std::size_t m = 1; m < totals.sum.size(); ++m) {
        if (totals.sum[m] > totals.sum[best]) best = m;
    }
    return best;
}

/// A decision rule of flat_search(): candidate 0 unless another surely does better, by a
/// paired t-test over the worlds (t = mean / sqrt(variance / worlds) > 3/2, squared and
/// multiplied out: 4 sum^2 worlds > 9 (squares worlds - sum^2), for a gain, sum > 0); of
/// those, the largest gain, the earlier on a tie.
inline std::size_t surely_better(const FlatTotals& totals) noexcept {
    const int64_t w = totals.worlds;
    std::size_t best = 0;
    for (std::size_t m = 1; m < totals.sum.size(); ++m) {
        const int64_t sum = totals.sum[m];
        const bool sure = sum > 0 && 4 * sum * sum * w > 9 * (totals.squares[m] * w - sum * sum);
        if (sure && (best == 0 || sum > totals.sum[best])) best = m;
    }
    return best;
}

/// Simulates game `R` (a real-time game of the contract, core/contract.hpp) from `state`
/// until it is over or a limit is reached; `bots[p]` plays seat p. Each bot's move is
/// R::bot_move and arrives R::bot_delay later; R::try_apply takes it or rejects it (a lost
/// race). The log holds accepted moves as applied (in long form). OptionError unless there
/// is one bot per seat.
template <class R, class BotPtr>
Run<typename R::Position, typename R::Move> simulate(typename R::Position state, const std::vector<BotPtr>& bots,
                                                     uint64_t seed, const Limits& limits, bool keep_log = true) {
    static_assert(R::kRealTime, "realtime::simulate plays the real-time games; play_match plays any game");
    const int n = state.players();
    if (static_cast<int>(bots.size()) != n) {
        throw OptionError("simulate needs one bot per seat: " + std::to_string(n) + " seats, got " +
                          std::to_string(bots.size()) + " bots");
    }
    std::array<const typename R::Bot*, kMaxSeats> seated{};
    for (int p = 0; p < n; ++p) seated[static_cast<std::size_t>(p)] = &*bots[static_cast<std::size_t>(p)];
    Run<typename R::Position, typename R::Move> run;
    Simulation<R> simulation(state, seated, seed);
    for (int p = 0; p < n; ++p) simulation.plan(p);
    const int64_t max_time = microseconds(limits.max_time);
    for (int64_t events = 0; events < limits.max_events; ++events) {
        const auto arrival = simulation.step(max_time);
        if (!arrival) break;  // over, all wait, or out of time
        (arrival->taken ? run.accepted : run.rejected) += 1;
        if (keep_log) {
            run.log.push_back(TimedMove<typename R::Move>{static_cast<double>(arrival->time) / 1e6, arrival->player,
                                                          arrival->taken.value_or(arrival->sent),
                                                          arrival->taken.has_value()});
        }
    }
    run.state = state;
    run.time = static_cast<double>(simulation.now()) / 1e6;
    return run;
}

/// Outcomes of many simulated games.
struct Batch {
    Results<int32_t> scores;    // games x players, row-major: the final state's scores
    Results<int64_t> actions;   // accepted moves per game
    Results<int64_t> rejected;  // moves that lost a race per game
    Results<double> time;       // simulated seconds per game
};

/// Simulates `games` whole games of `R` on `threads` threads: game i is dealt from
/// derive_seed(seed, i) and runs from that seed alone, so the results do not depend on
/// `threads`. `bots[p]` plays seat p in every game.
template <class R, class BotPtr>
Batch simulate_many(const typename R::Game& game, const std::vector<BotPtr>& bots, int games, uint64_t seed,
                    int threads, const Limits& limits, const Interrupt& interrupted = {}) {
    const int players = R::players(game);
    if (static_cast<int>(bots.size()) != players) {
        throw OptionError("simulate_many needs one bot per seat: " + std::to_string(players) + " seats, got " +
                          std::to_string(bots.size()) + " bots");
    }
    Batch batch;
    const auto g = static_cast<std::size_t>(games > 0 ? games : 0);
    const auto n = static_cast<std::size_t>(players);
    batch.scores.resize(g * n);
    batch.actions.resize(g);
    batch.rejected.resize(g);
    batch.time.resize(g);
    in_parallel(
        games, threads,
        [&](int first, int last) {
            for (int i = first; i < last; ++i) {
                const uint64_t game_seed = derive_seed(seed, static_cast<uint64_t>(i));
                const auto run = simulate<R>(new_position<R>(game, game_seed), bots, mix64(game_seed), limits, false);
                const auto k = static_cast<std::size_t>(i);
                R::scores(run.state, &batch.scores[k * n]);
                batch.actions[k] = run.accepted;
                batch.rejected[k] = run.rejected;
                batch.time[k] = run.time;
            }
        },
        interrupted);
    return batch;
}

}  // namespace diabolo::realtime
