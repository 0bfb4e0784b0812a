// The record every game's State keeps around its Position (core/contract.hpp): the moves
// that led to it, what the last move changed, and the positions last_events() and
// live::state_at replay from. A game's State derives from it and adds what is its own
// (its given deals, its Game when the Position does not hold it) and its methods.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace diabolo {

/// One move of a record and the seat that made it.
template <class Move>
struct Step {
    int player = 0;
    Move move{};
};

template <class Position, class Move, std::size_t Seats>
struct Record {
    Position position{};
    std::vector<Step<Move>> history;
    /// What the last move applied here changed in each seat's score (zeros for a new state
    /// or one read from JSON).
    std::array<int32_t, Seats> rewards{};
    /// The position before the last move applied here, from which last_events() replays
    /// it; none for a new state or one read from JSON. Clones share it (a clone copies a
    /// pointer, not a second position), and apply() overwrites it only when no other
    /// state holds it (remember_position, core/events.hpp).
    std::shared_ptr<Position> before;
    /// The position before the first move applied in this state's line (clones share it),
    /// and the version (history length) it had: live::state_at replays from it.
    std::shared_ptr<const Position> origin;
    std::size_t origin_version = 0;
};

}  // namespace diabolo
