// Diabolo (Knizia): a text picture of the table, for logs and terminals.
#include <sstream>

#include "diabolo/knizia/knizia.hpp"

namespace diabolo::knizia {

std::string Rules::render(const Position& s) {
    std::ostringstream out;
    const bool tiles = s.config.variant == Variant::VictoryTiles;
    out << "Diabolo (Knizia), round " << s.round + 1;
    if (!tiles) out << " of " << int{s.config.rounds};
    out << ", dealer seat " << s.dealer() << ", ";
    if (s.phase == Phase::Play) out << "playing";
    else if (s.phase == Phase::Penalty) out << "penalty: seat " << int{s.penalty[0]} << " takes a card";
    else out << "game over";
    out << ", " << s.deck_count() << " cards in the deck\n  table:";
    for (int i = 0; i < s.table_count; ++i)
        out << "  " << i << ":" << format_card(s.config.card(s.table[static_cast<std::size_t>(i)]));
    out << (s.table_count ? "" : "  (empty)") << "\n";
    if (s.last_call.seat >= 0) {
        out << "  last call: seat " << int{s.last_call.seat} << " " << s.last_call.text() << " "
            << (s.last_call.valid ? "valid" : std::string("invalid (") + reason_text(s.last_call.reason) + ")") << "\n";
    }
    for (int p = 0; p < s.players(); ++p) {
        out << "  seat " << p << ((s.passed >> p) & 1u ? " (passed)" : "") << ": pile "
            << int{s.pile[static_cast<std::size_t>(p)]} << (tiles ? "  tiles " : "  total ")
            << s.scores[static_cast<std::size_t>(p)] << "\n";
    }
    return out.str();
}

}  // namespace diabolo::knizia
