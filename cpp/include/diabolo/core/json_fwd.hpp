// The JSON value type and the tape views are written into, declared only: game headers
// name them in their signatures without pulling in Boost.JSON; code that builds or reads
// values includes diabolo/core/json.hpp.
#pragma once

#include <boost/json/fwd.hpp>

namespace diabolo::json {
using Value = boost::json::value;
class Tape;
}  // namespace diabolo::json
