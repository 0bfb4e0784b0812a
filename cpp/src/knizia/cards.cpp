// Diabolo (Knizia): card notation (K1.2) and the table's size limit (kMaxTable).

#include <string>
#include <vector>

#include "cards.hpp"
#include "diabolo/knizia/knizia.hpp"

namespace diabolo::knizia {

Card parse_card(std::string_view text) {
    const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    if (text == "?") return Card{Card::Kind::Joker, 0, 0};
    if (text == "??") return Card{Card::Kind::DoubleJoker, 0, 0};
    if (text.size() == 1 && upper(text[0])) return Card{Card::Kind::Letter, text[0], 0};
    if (text.size() == 2 && upper(text[0]) && upper(text[1])) return Card{Card::Kind::Double, text[0], text[1]};
    throw NotationError(
        "not a card: " + quoted(text) +
        "; cards are a capital letter ('A'), a double letter ('EI'), a joker ('?') or a double joker ('?\?') (K1.2)");
}

std::string format_card(const Card& card) {
    switch (card.kind) {
        case Card::Kind::Letter: return std::string(1, card.first);
        case Card::Kind::Double: return std::string{card.first, card.second};
        case Card::Kind::Joker: return "?";
        case Card::Kind::DoubleJoker: return "??";
    }
    return "";
}

void check_table_size(const std::vector<Card>& table) {
    if (table.size() > static_cast<std::size_t>(kMaxTable)) {
        throw NotationError("a table holds at most " + std::to_string(kMaxTable) + " cards, got " +
                            std::to_string(table.size()));
    }
}

}  // namespace diabolo::knizia
