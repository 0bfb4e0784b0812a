// Diabolo (Schacht): a text picture of the table, for logs and debugging.
#include <sstream>

#include "diabolo/schacht/schacht.hpp"

namespace diabolo::schacht {

namespace {

std::string card_text(CardSet set) {
    std::string out;
    for (Card card : cards_of(set)) out += (out.empty() ? "" : " ") + format_card(card);
    return out.empty() ? "-" : out;
}

std::string padded(const std::string& text, std::size_t width, bool right_align) {
    if (text.size() >= width) return text;
    const std::string pad(width - text.size(), ' ');
    return right_align ? pad + text : text + pad;
}

}  // namespace

std::string Rules::render(const Position& s) {
    std::ostringstream out;
    out << "Diabolo (Schacht), round " << s.round + 1 << " of " << int{s.game.rounds} << ", dealer seat "
        << int{s.dealer} << ", ";
    if (s.phase == Phase::Play) out << "seat " << int{s.current_player} << " to play";
    else if (s.phase == Phase::Doubler) out << "doubler decisions on " << kColourNames[s.scoring_colour];
    else out << "game over";
    out << ", pile " << s.pile_size() << "\n";
    out << "  " << padded("", 7, false) << padded("devil (left)", 14, true) << " | angel (right)\n";
    for (int c = 0; c < kColours; ++c) {
        const Row& row = s.rows[static_cast<std::size_t>(c)];
        std::string left, right;
        // The first card placed lies next to the heaven/hell card.
        for (int i = row.left_count - 1; i >= 0; --i)
            left += " " + std::to_string(row.left[static_cast<std::size_t>(i)]);
        for (int i = 0; i < row.right_count; ++i) right += std::to_string(row.right[static_cast<std::size_t>(i)]) + " ";
        out << "  " << padded(kColourNames[c], 7, false) << padded(left, 14, true) << " | " << padded(right, 14, false)
            << "devil " << padded(std::to_string(row.devil_sum()), 2, true) << "  angel "
            << padded(std::to_string(row.angel_sum()), 2, true) << (row.closed() ? "  closed" : "") << "\n";
    }
    for (int seat = 0; seat < s.players(); ++seat) {
        const auto k = static_cast<std::size_t>(seat);
        out << "  seat " << seat << (seat == s.current_player ? " *" : "  ") << " score "
            << padded(std::to_string(s.scores[k]), 4, true)
            << (s.doubler_available >> seat & 1u ? "  doubler" : "  -------") << "  hand: " << card_text(s.hands[k]);
        if (!s.shown[k].empty()) out << "  (shown: " << card_text(s.shown[k]) << ")";
        if (!s.discarded[k].empty()) out << "  (discarded: " << card_text(s.discarded[k]) << ")";
        out << "\n";
    }
    return out.str();
}

}  // namespace diabolo::schacht
