// What the finder (finder.cpp) and formable_words (formable.cpp) share of the table's cards.
#pragma once

#include <vector>

#include "diabolo/knizia/knizia.hpp"

namespace diabolo::knizia {

/// NotationError unless the table holds at most kMaxTable cards: the bound every walk over
/// a table's cards relies on.
void check_table_size(const std::vector<Card>& table);

}  // namespace diabolo::knizia
