// What a game's binding says of itself (GameSpec), and the conversions of a call's
// arguments that every binding of the contract shares: a move in any of its forms, the
// seat a call is about, the legal action ids.
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <string>
#include <vector>

#include "common.hpp"
#include "diabolo/core/contract.hpp"

namespace diabolo::bindings {

/// What a game's binding says of itself; the hooks left null take the contract's way.
template <class R>
struct GameSpec {
    using Game = typename R::Game;
    using State = typename R::State;
    using Position = typename R::Position;
    using Move = typename R::Move;

    const char* title;  // "Schacht": SchachtGame, SchachtState, SchachtMove
    const char* game_doc;
    const char* state_doc;
    const char* move_doc;
    /// Notation shown in the error for what is not a move: "'G5<'".
    const char* move_example;
    /// The PlayerError for a query without a player while several seats may act.
    const char* name_the_player;
    /// Whether every query and move must name its player (games without turns), even at
    /// the end; else a query without one is about the player to move.
    bool player_required = false;
    /// The game of keyword options (default: R::game_from_json of them).
    Game (*game_from_kwargs)(const py::dict&) = nullptr;
    /// Every option with its value (default: R::options_json as Python values).
    py::dict (*options)(const Game&) = nullptr;
    /// repr() of a game (default: diabolo.load('<name>', <every option>)).
    std::string (*game_repr)(const Game&) = nullptr;
    /// Legal moves and action ids (default: from R::legal_actions, ascending).
    std::vector<Move> (*legal_moves)(const Position&, int player) = nullptr;
    std::vector<int> (*legal_actions)(const Position&, int player) = nullptr;
};

namespace detail {

template <class R>
typename R::Move any_move(const GameSpec<R>& spec, const typename R::Game& game, const py::handle& value) {
    // Cheapest checks first: action ids are the fast path of search loops.
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr()))
        return R::move_of_action(game, to_action(value, R::num_actions(game)));
    if (PyUnicode_Check(value.ptr())) return R::parse_move(utf8_text<NotationError>(value, "a move"));
    if (py::isinstance<typename R::Move>(value)) return value.cast<typename R::Move>();
    if (as_integer(value)) return R::move_of_action(game, to_action(value, R::num_actions(game)));  // numpy
    if (PyDict_Check(value.ptr())) return R::move_from_json(move_data(value));
    throw NotationError(std::string("a ") + spec.title + " move is a " + spec.title +
                        "Move, an action id, notation text like " + spec.move_example +
                        " or move data like {'kind': ...}, got " + py::repr(value).cast<std::string>());
}

/// A move given as a Move, an action id (an int or anything with __index__), notation
/// text or move data ({"kind": ...}); NotationError naming what was given, and the
/// game's notation clause, otherwise.
template <class R>
typename R::Move to_move(const GameSpec<R>& spec, const typename R::Game& game, const py::handle& value) {
    return with_notation_clause(R::kNotationClause, [&] { return any_move(spec, game, value); });
}

/// The seat a query or a move is about: `player`, else the player to move. -1 at the end
/// of the game; PlayerError while several seats may act.
template <class R>
int seat_of(const GameSpec<R>& spec, const typename R::Position& position, const py::object& player, int players) {
    if (!player.is_none()) return to_seat(player, players);
    const int current = R::current_player(position);
    if (current == kSimultaneous || spec.player_required) throw PlayerError(spec.name_the_player);
    return current >= 0 ? current : -1;
}

/// The legal action ids of `seat`, ascending.
template <class R>
std::vector<int> legal_ids(const GameSpec<R>& spec, const typename R::State& state, int seat) {
    const typename R::Position& position = R::position(state);
    if (spec.legal_actions) return spec.legal_actions(position, seat);
    const int n = R::num_actions(R::game(state));
    std::array<int32_t, 256> small;  // most games' ids fit: no allocation on the hot path
    std::vector<int32_t> large(n > 256 ? static_cast<std::size_t>(n) : 0);
    int32_t* ids = n > 256 ? large.data() : small.data();
    return std::vector<int>(ids, ids + R::legal_actions(position, seat, ids));
}

}  // namespace detail

}  // namespace diabolo::bindings
