// The one index helper of the core: a seat, a letter or a position counted as an int (as the
// rules count them) used as the index of a std::array or std::vector, whose operator[] takes
// std::size_t. One conversion in one place, which -Wsign-conversion accepts.
#pragma once

#include <cstddef>

namespace diabolo {

/// `index` (at least 0) as a container index: `hands[at(seat)]`.
constexpr std::size_t at(int index) noexcept { return static_cast<std::size_t>(index); }

}  // namespace diabolo
