// Diabolo (Reiner Knizia, 1999): letter cards and the words they form. Clause numbers
// (K3.3) refer to rules/knizia.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diabolo/common/errors.hpp"
#include "diabolo/lexicon.hpp"

namespace diabolo::knizia {

constexpr int kDefaultMinCards = 3;  // K3.3(b); 4 in the children's variant
constexpr int kMaxTable = 64;        // table positions a finder handles

/// A letter card (K1.2): one letter, a double letter (two letters in printed order),
/// a joker (`?`, one letter) or a double joker (`??`, two consecutive letters).
struct Card {
    enum class Kind : uint8_t { Letter = 0, Double = 1, Joker = 2, DoubleJoker = 3 };
    Kind kind = Kind::Letter;
    char first = 'A';   // Letter and Double
    char second = 0;    // Double only
    bool is_joker() const noexcept { return kind == Kind::Joker || kind == Kind::DoubleJoker; }
    friend bool operator==(const Card& a, const Card& b) noexcept {
        return a.kind == b.kind && a.first == b.first && a.second == b.second;
    }
};

/// Card notation (K8): "A", "EI", "?", "??"; NotationError otherwise.
Card parse_card(std::string_view text);
std::string format_card(const Card& card);

/// A way to form a word from table cards (K3.4): positions (0-based, K10.4) in word order.
struct Match {
    std::string word;
    std::vector<int> cards;
    int jokers = 0;  // joker cards used (`?` and `??` count one each)
    int card_count() const noexcept { return static_cast<int>(cards.size()); }
};

/// Every valid word of `lexicon` the table can form with at least `min_cards` cards,
/// each with its best assignment (K10.4: most cards, then fewest jokers, then the lowest
/// sorted positions, then the lowest positions in word order), sorted by word. The legal-move generation of this game (K6.1).
std::vector<Match> find_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards = kDefaultMinCards);

/// Why a called word is not a valid claim (K6.2, K10.8), checked in this order.
enum class Reason : uint8_t { None = 0, NotAWord, TooFewCards, LettersMissing, DoubleLetterSplit };
const char* reason_text(Reason reason) noexcept;

struct Check {
    Reason reason = Reason::None;
    std::optional<Match> match;  // the best match when reason is None
};

/// Checks the normalised word `word` (A-Z) against the table (K3.3, K6.2).
Check check_word(const Lexicon& lexicon, std::string_view word, const std::vector<Card>& table,
                 int min_cards = kDefaultMinCards);

}  // namespace diabolo::knizia
