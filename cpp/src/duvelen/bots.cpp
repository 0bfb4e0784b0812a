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

std::optional<Move> SearchBot::choose(const Position& state, int player, Pcg32& rng) const {
    const std::optional<Move> usual = model_.choose(state, player, rng);
    if (!usual || usual->kind == MoveKind::Stop) return usual;  // waiting, or D5.5's +10 at once
    std::array<Move, kNumActions> legal{};
    const int n = legal_moves(state, player, legal);
    std::vector<std::optional<Move>> moves{usual};  // the candidates, the usual move first
    for (int i = 0; i < n; ++i) {
        const Move& move = legal[static_cast<std::size_t>(i)];
        if (move.kind != MoveKind::Pass && move != *usual) moves.emplace_back(move);
    }
    if (moves.size() < 2) return usual;
    std::array<const Bot*, realtime::kMaxSeats> bots{};
    for (int p = 0; p < state.players(); ++p) bots[static_cast<std::size_t>(p)] = &model_;
    // Which recycle is better shows only as the next pass brings the cards up (D3.8).
    const int64_t until = usual->kind == MoveKind::Recycle ? 2 * horizon_ : horizon_;
    // A seat's total as the round stands (D5), or as it ended.
    const auto standing = [round = state.round](const Position& world, int seat) -> int64_t {
        const auto p = static_cast<std::size_t>(seat);
        const bool ended = world.round != round || world.is_terminal();
        return world.scores[p] + (ended ? 0 : round_scores(world)[p]);
    };
    const auto world = [&](uint64_t seed) { return resample(state, seed, Memory::WasteTops); };
    // The usual move unless a paired test over the worlds finds another surely better.
    return moves[realtime::surely_better(
        realtime::flat_search<Rules>(moves, player, bots, worlds_, until, rng, world, standing))];
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
