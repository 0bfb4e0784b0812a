// The games of the engine: one line each. The Python module, the C API (and JavaScript
// through it) and the generic tests read this list; each game says the rest of what it is
// in its Rules::kInfo (core/catalogue.hpp). "How to add a game" in docs/contract.rst lists
// what a new game brings besides this line.
#pragma once

#include "diabolo/core/catalogue.hpp"
#include "diabolo/duvelen/duvelen.hpp"
#include "diabolo/highcard/highcard.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo {

using Games = GameList<duvelen::Rules, highcard::Rules, knizia::Rules, schacht::Rules>;

}  // namespace diabolo
