// Tests of the lexicon and the Knizia word finder: K2 normalisation, the DAWG, the
// rulebook's examples and the best assignment of K10.4.
#include <algorithm>
#include <string>
#include <vector>

#include "check.hpp"
#include "diabolo/knizia.hpp"
#include "diabolo/lexicon.hpp"

using namespace diabolo;
using namespace diabolo::knizia;

namespace {

std::vector<Card> table_of(const std::vector<std::string>& cards) {
    std::vector<Card> table;
    for (const auto& card : cards) table.push_back(parse_card(card));
    return table;
}

const Lexicon& small_lexicon() {
    static const Lexicon lexicon = Lexicon::from_words(
        {"Hang", "Lager", "Stop", "Post", "Pose", "Rest", "Regal", "Gang", "Angel", "Laser", "Ast", "Tor", "Rot",
         "Ära", "Straße", "U-Boot", "z.B.", "  Hang  ", "Café"});
    return lexicon;
}

}  // namespace

TEST(normalisation_follows_K2) {
    CHECK(normalise_word("Straße").value() == "STRASSE");
    CHECK(normalise_word("Ärger").value() == "AERGER");
    CHECK(normalise_word("über").value() == "UEBER");
    CHECK(normalise_word("Öl").value() == "OEL");
    CHECK(normalise_word("café").value() == "CAFE");
    CHECK(normalise_word("  Hang\\n").has_value() == false);
    CHECK(normalise_word("  Hang\n").value() == "HANG");
    CHECK(!normalise_word("U-Boot"));
    CHECK(!normalise_word("z.B."));
    CHECK(!normalise_word("abc1"));
    CHECK(!normalise_word(""));
    CHECK(!normalise_word("\xff\xfe"));
    CHECK(normalise_word("\xe1\xba\x9e").value() == "SS");  // capital sharp s
}

TEST(lexicon_membership_and_round_trip) {
    const Lexicon& lexicon = small_lexicon();
    CHECK(lexicon.size() == 16);  // duplicates and non-words dropped
    CHECK(lexicon.contains("HANG") && lexicon.contains("STRASSE") && lexicon.contains("AERA") && lexicon.contains("CAFE"));
    CHECK(!lexicon.contains("HAN") && !lexicon.contains("HANGS") && !lexicon.contains("UBOOT") && !lexicon.contains(""));
    const Lexicon copy = Lexicon::from_bytes(lexicon.to_bytes());
    CHECK(copy.size() == lexicon.size() && copy.contains("REGAL") && !copy.contains("REGA"));
    std::string broken = lexicon.to_bytes();
    broken[broken.size() - 1] = static_cast<char>(0x7F);
    CHECK_THROWS(StateFormatError, Lexicon::from_bytes(broken));
    CHECK_THROWS(StateFormatError, Lexicon::from_bytes("DIABLEX1"));
}

TEST(rulebook_examples_K3_3) {
    const Lexicon& lexicon = small_lexicon();
    // HANG and LAGER from plain letters.
    Check hang = check_word(lexicon, "HANG", table_of({"H", "X", "A", "N", "G"}));
    CHECK(hang.reason == Reason::None && hang.match->cards == std::vector<int>({0, 2, 3, 4}));
    CHECK(check_word(lexicon, "LAGER", table_of({"R", "E", "G", "A", "L"})).reason == Reason::None);
    // STOP with the ST card and a joker for the P.
    Check stop = check_word(lexicon, "STOP", table_of({"ST", "O", "?"}));
    CHECK(stop.reason == Reason::None && stop.match->cards == std::vector<int>({0, 1, 2}) && stop.match->jokers == 1);
    // POST with a double joker for OS: P, T and ??.
    Check post = check_word(lexicon, "POST", table_of({"T", "??", "P"}));
    CHECK(post.reason == Reason::None && post.match->cards == std::vector<int>({2, 1, 0}));
    // A double letter is never split or reversed (K3.3 d).
    CHECK(check_word(lexicon, "REST", table_of({"R", "E", "TS"})).reason == Reason::DoubleLetterSplit);
    CHECK(check_word(lexicon, "TOR", table_of({"T", "O"})).reason == Reason::LettersMissing);
    CHECK(check_word(lexicon, "ROT", table_of({"R", "O", "T"})).reason == Reason::None);
    CHECK(check_word(lexicon, "TOR", table_of({"T", "O", "R"}), 4).reason == Reason::TooFewCards);
    CHECK(check_word(lexicon, "AST", table_of({"A", "ST"})).reason == Reason::TooFewCards);  // 2 cards
    CHECK(check_word(lexicon, "XYZ", table_of({"X", "Y", "Z"})).reason == Reason::NotAWord);
}

TEST(best_assignment_K10_4) {
    const Lexicon& lexicon = small_lexicon();
    // Most cards first: S+T beats the ST card; then fewest jokers; then lowest positions.
    Check rest = check_word(lexicon, "REST", table_of({"ST", "R", "E", "S", "T", "?"}));
    CHECK(rest.match->cards == std::vector<int>({1, 2, 3, 4}) && rest.match->jokers == 0);
    Check gang = check_word(lexicon, "GANG", table_of({"?", "G", "A", "N", "G", "?"}));
    CHECK(gang.match->jokers == 0 && gang.match->cards == std::vector<int>({1, 2, 3, 4}));
    Check low = check_word(lexicon, "ROT", table_of({"T", "O", "R", "R", "O"}));
    CHECK(low.match->cards == std::vector<int>({2, 1, 0}));
}

TEST(find_words_lists_every_word_once) {
    const Lexicon& lexicon = small_lexicon();
    const std::vector<Match> words = find_words(lexicon, table_of({"L", "A", "G", "E", "R", "?"}));
    std::vector<std::string> found;
    for (const Match& m : words) found.push_back(m.word);
    // LAGER, REGAL (plain); ANGEL, GANG? (needs N and G twice: only one joker) ...
    CHECK(std::find(found.begin(), found.end(), "LAGER") != found.end());
    CHECK(std::find(found.begin(), found.end(), "REGAL") != found.end());
    CHECK(std::find(found.begin(), found.end(), "ANGEL") != found.end());  // joker as N
    CHECK(std::find(found.begin(), found.end(), "LASER") != found.end());  // joker as S
    CHECK(std::find(found.begin(), found.end(), "HANG") == found.end());   // needs two jokers
    CHECK(std::is_sorted(found.begin(), found.end()));
    for (const Match& m : words) CHECK(m.card_count() >= kDefaultMinCards);
}
