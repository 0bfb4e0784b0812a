// The JSON value type, declared only: game headers name it in their signatures without
// pulling in Boost.JSON; code that builds or reads values includes diabolo/core/json.hpp.
#pragma once

#include <boost/json/fwd.hpp>

namespace diabolo::json {
using Value = boost::json::value;
}  // namespace diabolo::json
