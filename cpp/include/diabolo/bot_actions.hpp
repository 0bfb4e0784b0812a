// What a bot of any game does now, as the game's action id: shared by the C API's bots
// and the players of the vector environment (core/vector_env.hpp), so that both ask a
// bot the same way and draw the same numbers.
#pragma once

#include <cstdint>
#include <optional>

#include "diabolo/core/rng.hpp"
#include "diabolo/duvelen/duvelen.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo {

/// The action id of a move (a Knizia claim's id is its word's: the best assignment).
inline int32_t action_id(const schacht::Game&, const schacht::Move& move) { return move.action(); }
inline int32_t action_id(const duvelen::Game&, const duvelen::Move& move) { return move.action(); }
inline int32_t action_id(const knizia::Game& game, const knizia::Move& move) {
    return knizia::action_of(move, *game.lexicon);
}

/// A turn-based bot's move: none when `player` has nothing to do now.
inline std::optional<schacht::Move> bot_move(const schacht::Bot& bot, const schacht::Position& position, int player,
                                             Pcg32& rng) {
    if ((schacht::pending_seats(position) >> player & 1u) == 0) return std::nullopt;
    return bot.choose(position, player, rng);
}

/// A real-time bot's move, or none when it waits for the table to change.
template <class Bot, class Position>
auto bot_move(const Bot& bot, const Position& position, int player, Pcg32& rng) {
    return bot.choose(position, player, rng);
}

/// The time a bot takes to make `move`, in microseconds, drawn after its choice (a
/// turn-based bot acts at once).
inline int64_t reaction_delay(const schacht::Bot&, const schacht::Move&, Pcg32&) { return 0; }
template <class Bot, class Move>
int64_t reaction_delay(const Bot& bot, const Move& move, Pcg32& rng) {
    return bot.reaction_time(move, rng);
}

}  // namespace diabolo
