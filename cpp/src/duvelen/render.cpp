// Duvelen: a text picture of the table, for logs and debugging.
#include <sstream>

#include "diabolo/duvelen/duvelen.hpp"

namespace diabolo::duvelen {

namespace {

std::string card_or_dash(int card) { return card < 0 ? "--" : format_card(card); }

}  // namespace

std::string Rules::render(const Position& s) {
    std::ostringstream out;
    out << "Duvelen, round " << s.round + 1 << " of " << int{s.game.rounds} << ", ";
    if (s.phase == Phase::Play) out << "playing";
    else if (s.phase == Phase::AfterStop) out << "after Stop by seat " << int{s.stop_called_by};
    else out << "game over";
    out << ", " << s.actions << " actions\n  centre:";
    bool any = false;
    for (int id = 1; id <= s.pile_count; ++id) {
        const Pile& pile = s.piles[static_cast<std::size_t>(id - 1)];
        if (pile.holder >= 0) continue;
        out << "  #" << id << " " << format_card(card_index(pile.suit, pile.top));
        any = true;
    }
    out << (any ? "" : "  (empty)") << "\n";
    const auto points = round_scores(s);
    for (int p = 0; p < s.players(); ++p) {
        const Seat& seat = s.seats[static_cast<std::size_t>(p)];
        out << "  seat " << p << ((s.passed >> p) & 1u ? " (passed)" : "") << ": stok " << card_or_dash(seat.stok_top())
            << " (" << int{seat.stok_count} << ")  rij";
        for (uint8_t card : seat.rij) out << " " << card_or_dash(card == kNoCard ? -1 : card);
        out << "  waste " << card_or_dash(seat.waste_top()) << " (" << int{seat.waste_count} << ")  draaistok "
            << seat.draaistok_count() << "  herenhopen";
        int held = 0;
        for (int id = 0; id < s.pile_count; ++id) held += s.piles[static_cast<std::size_t>(id)].holder == p ? 1 : 0;
        out << " " << held << "  round " << points[static_cast<std::size_t>(p)] << "  total "
            << s.scores[static_cast<std::size_t>(p)] << "\n";
    }
    return out.str();
}

}  // namespace diabolo::duvelen
