// Duvelen: bots and the real-time simulation of whole games.
#include <algorithm>

#include "diabolo/core/json.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/duvelen/duvelen.hpp"

namespace diabolo::duvelen {

int reaction_kind(const Move& move) noexcept {
    switch (move.kind) {
        case MoveKind::Play: return 0;
        case MoveKind::Turn: return 1;
        case MoveKind::Recycle:
        case MoveKind::RecycleUp: return 2;
        case MoveKind::Stop: return 3;
        case MoveKind::Pass: return 4;
    }
    return 0;
}

realtime::Reaction default_reaction() noexcept {
    realtime::Reaction reaction;
    reaction.delays[0] = {0.9, 0.3};   // play a card
    reaction.delays[1] = {0.6, 0.15};  // turn three
    reaction.delays[2] = {1.2, 0.3};   // pick up and recycle the waste
    reaction.delays[3] = {0.5, 0.15};  // call Stop
    reaction.delays[4] = {1.0, 0.3};   // pass
    reaction.minimum = 0.15;
    return reaction;
}

std::optional<Move> RandomBot::choose(const Position& state, int player, Pcg32& rng) const {
    std::array<Move, kNumActions> moves{};
    const int n = legal_moves(state, player, moves);
    if (n == 0) return std::nullopt;
    return moves[rng.below(static_cast<uint32_t>(n))];
}

std::optional<Move> GreedyBot::choose(const Position& state, int player, Pcg32&) const {
    std::array<Move, kNumActions> moves{};
    const int n = legal_moves(state, player, moves);
    const auto first = [&](MoveKind kind) -> std::optional<Move> {
        for (int i = 0; i < n; ++i) {
            if (moves[static_cast<std::size_t>(i)].kind == kind) return moves[static_cast<std::size_t>(i)];
        }
        return std::nullopt;
    };
    if (auto stop = first(MoveKind::Stop)) return stop;
    // Legal plays come in source order S, R1..R4, W: the first is the preferred one.
    if (auto play = first(MoveKind::Play)) return play;
    if (auto turn = first(MoveKind::Turn)) return turn;
    if (auto recycle = first(MoveKind::Recycle)) return recycle;
    if ((state.passed >> player) & 1u) return std::nullopt;  // its pass stands: wait
    return first(MoveKind::Pass);
}

std::optional<Move> LookaheadBot::choose(const Position& state, int player, Pcg32& rng) const {
    std::array<Move, kNumActions> moves{};
    const int n = legal_moves(state, player, moves);
    std::optional<Move> best;
    double best_value = -1e300;
    std::array<Move, kNumActions> next{};
    for (int i = 0; i < n; ++i) {
        const Move& move = moves[static_cast<std::size_t>(i)];
        if (move.kind == MoveKind::Stop) return move;  // D5.5: +10, and the round ends
        if (move.kind != MoveKind::Play) continue;
        Position after = state;
        apply_unchecked(after, move, player);
        // D5 as it stands after the play, plus a little for every play it opens next.
        int plays = 0;
        const int count = legal_moves(after, player, next);
        for (int j = 0; j < count; ++j) plays += next[static_cast<std::size_t>(j)].kind == MoveKind::Play ? 1 : 0;
        const double value = round_scores(after)[static_cast<std::size_t>(player)] + 0.5 * plays;
        if (value > best_value) best = move, best_value = value;  // ties: the first in source order
    }
    if (best) return best;
    return GreedyBot(reaction()).choose(state, player, rng);  // no play: turn, recycle or pass as greedy does
}

SearchBot::SearchBot(realtime::Reaction reaction, int worlds, double horizon)
    : Bot(reaction), model_(reaction), worlds_(worlds), horizon_(realtime::microseconds(horizon)) {
    realtime::check_search_budget(worlds, kMaxSearchWorlds, horizon, kMaxSearchHorizon);
}

int64_t SearchBot::outcome(Position world, const Move& first, int player, uint64_t seed, int64_t until) const {
    std::array<const Bot*, realtime::kMaxSeats> bots{};
    for (int p = 0; p < world.players(); ++p) bots[static_cast<std::size_t>(p)] = &model_;
    const int round = world.round;
    realtime::Simulation<Rules>(world, bots, seed).play_out(player, first, until);
    // The totals as the round stands (D5), or as it ended.
    std::array<int32_t, kMaxSeats> totals = world.scores;
    if (world.round == round && !world.is_terminal()) {
        const auto now = round_scores(world);
        for (int p = 0; p < world.players(); ++p)
            totals[static_cast<std::size_t>(p)] += now[static_cast<std::size_t>(p)];
    }
    int64_t best_other = INT64_MIN;
    for (int p = 0; p < world.players(); ++p) {
        if (p != player) best_other = std::max<int64_t>(best_other, totals[static_cast<std::size_t>(p)]);
    }
    return totals[static_cast<std::size_t>(player)] - best_other;
}

std::optional<Move> SearchBot::choose(const Position& state, int player, Pcg32& rng) const {
    const std::optional<Move> usual = model_.choose(state, player, rng);
    if (!usual || usual->kind == MoveKind::Stop) return usual;  // waiting, or D5.5's +10 at once
    std::array<Move, kNumActions> legal{};
    const int n = legal_moves(state, player, legal);
    std::array<Move, kNumActions> moves{*usual};  // the candidates, the usual move first
    std::size_t count = 1;
    for (int i = 0; i < n; ++i) {
        const Move& move = legal[static_cast<std::size_t>(i)];
        if (move.kind != MoveKind::Pass && move != *usual) moves[count++] = move;
    }
    if (count < 2) return usual;
    // Per move, the sum of its outcome's differences from the usual move's over the deals,
    // and of their squares: integers, so the choice is the same on every machine.
    std::array<int64_t, kNumActions> sum{}, squares{}, outcomes{};
    // Which recycle is better shows only as the next pass brings the cards up (D3.8).
    const int64_t until = usual->kind == MoveKind::Recycle ? 2 * horizon_ : horizon_;
    for (int w = 0; w < worlds_; ++w) {
        const uint64_t high = rng.next();
        const uint64_t seed = (high << 32u) | rng.next();
        const Position world = resample(state, seed, Memory::WasteTops);
        for (std::size_t m = 0; m < count; ++m) outcomes[m] = outcome(world, moves[m], player, seed, until);
        for (std::size_t m = 1; m < count; ++m) {
            const int64_t difference = outcomes[m] - outcomes[0];
            sum[m] += difference;
            squares[m] += difference * difference;
        }
    }
    // t = mean / sqrt(variance / worlds) > 3/2, squared and multiplied out:
    // 4 sum^2 worlds > 9 (squares worlds - sum^2), for a gain (sum > 0).
    const int64_t w = worlds_;
    std::size_t best = 0;
    for (std::size_t m = 1; m < count; ++m) {
        const bool sure = sum[m] > 0 && 4 * sum[m] * sum[m] * w > 9 * (squares[m] * w - sum[m] * sum[m]);
        if (sure && (best == 0 || sum[m] > sum[best])) best = m;
    }
    return moves[best];
}

std::optional<Move> Rules::try_apply(Position& state, const Move& move, int player) noexcept {
    const std::optional<Move> resolved = resolve(state, player, move);
    if (!resolved || !is_legal(state, *resolved, player)) return std::nullopt;  // a lost race (D3.10)
    apply_unchecked(state, *resolved, player);
    return resolved;
}

std::unique_ptr<const Bot> Rules::make_bot(const Game&, std::string_view kind, const json::Value& options) {
    const json::OptionReader r(options, "the bot", {"worlds", "horizon"});
    const realtime::Reaction reaction = default_reaction();
    if (kind == "search") {
        const int worlds = r.has("worlds") ? json::int_option(r, "worlds") : kDefaultSearchWorlds;
        const double horizon = r.has("horizon") ? r.number_in("horizon", -1e300, 1e300) : kDefaultSearchHorizon;
        return std::make_unique<SearchBot>(reaction, worlds, horizon);
    }
    if (r.has("worlds") || r.has("horizon"))
        throw OptionError("worlds and horizon are options of the search bot, not of " + quoted(std::string(kind)));
    if (kind == "random") return std::make_unique<RandomBot>(reaction);
    if (kind == "greedy") return std::make_unique<GreedyBot>(reaction);
    if (kind == "lookahead") return std::make_unique<LookaheadBot>(reaction);
    throw OptionError("no bot " + quoted(std::string(kind)) + " for duvelen; the bots are " + kInfo.bots);
}

}  // namespace diabolo::duvelen
