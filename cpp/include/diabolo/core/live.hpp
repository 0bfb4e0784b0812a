// Live play (docs/realtime.rst, "Live play"): moves checked against the version of the
// table their player saw, for servers that take moves from people and bots as they come.
//
// A state's version is the number of moves applied to it (its history's length); a move
// may name the version it was made on. Views do not hold it: in Schacht a version that
// moved on would tell a seat that another seat has made its secret doubler decision
// (S7.1), so a server sends it beside the view or the events of a seat, in its messages. A move that is legal
// now is applied whatever version it names (the table changed elsewhere: D3.10). A move
// that is not legal now but was legal at the version it names lost a race: it is a
// StaleMoveError, distinct from a move that was never legal (IllegalMoveError).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "diabolo/core/errors.hpp"

namespace diabolo::live {

/// The number of moves applied to `state`.
template <class State>
std::size_t version(const State& state) noexcept {
    return state.history.size();
}

/// The state as it was at `version`, replayed from the first position this state's line
/// applied a move to (State::origin); nullopt for a version before it or after now.
template <class State>
std::optional<State> state_at(const State& state, std::size_t at) {
    if (!state.origin || at < state.origin_version || at > state.history.size()) return std::nullopt;
    State then = state;
    then.position = *state.origin;
    then.history.resize(state.origin_version);
    then.before.reset();
    for (std::size_t i = state.origin_version; i < at; ++i) then.apply(state.history[i].move, state.history[i].player);
    return then;
}

/// R::apply of `move` by `player`, made on the table of version `seen`: StaleMoveError if
/// it is not legal now but was legal then; IllegalMoveError if it was never legal;
/// OptionError if `seen` is newer than the state. Nothing changes when it throws.
template <class R>
typename R::Move apply_seen(typename R::State& state, const typename R::Move& move, int player, std::size_t seen) {
    const std::size_t now = version(state);
    if (seen > now) {
        throw OptionError("version " + std::to_string(seen) + " is newer than the state's, " + std::to_string(now));
    }
    try {
        return R::apply(state, move, player);
    } catch (const StaleMoveError&) {
        throw;
    } catch (const IllegalMoveError& error) {
        if (seen == now) throw;
        const std::optional<typename R::State> then = state_at(state, seen);
        if (!then || R::why_illegal(R::position(*then), move, player)) throw;
        ErrorParams params{{"seen", std::to_string(seen)}, {"version", std::to_string(now)}, {"rule", error.code}};
        params.insert(params.end(), error.params.begin(), error.params.end());
        throw StaleMoveError(error.clause,
                             error.reason + " (it was legal at version " + std::to_string(seen) +
                                 ", the state is at version " + std::to_string(now) + ": another move came first)",
                             "stale_move", std::move(params));
    }
}

}  // namespace diabolo::live
