// Diabolo (Schacht): the refusal that the bots and the search share when asked to move for
// a seat that has nothing to do.
#pragma once

#include <string>

#include "diabolo/core/errors.hpp"

namespace diabolo::schacht {

/// The error for a seat without a legal move now (S2.3: only the seat to move, or a seat
/// still to decide on its doubler, has one).
inline IllegalMoveError no_move_error(int seat) {
    return IllegalMoveError("S2.3", "seat " + std::to_string(seat) + " has no move now", "no_move",
                            {{"seat", std::to_string(seat)}});
}

}  // namespace diabolo::schacht
