// Tests of the lexicon and the Knizia word finder: K2 normalisation, the DAWG, the
// rulebook's examples and the best assignment of K10.4.
#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"
#include "diabolo/core/batch.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/knizia/lexicon.hpp"
#include "knizia_finder_reference.hpp"

using namespace diabolo;
using namespace diabolo::knizia;

namespace {

std::vector<Card> table_of(const std::vector<std::string>& cards) {
    std::vector<Card> table;
    for (const auto& card : cards) table.push_back(parse_card(card));
    return table;
}

const Lexicon& small_lexicon() {
    static const Lexicon lexicon =
        Lexicon::from_words({"Hang", "Lager", "Stop", "Post", "Pose", "Rest", "Regal", "Gang", "Angel", "Laser", "Ast",
                             "Tor", "Rot", "Ära", "Straße", "U-Boot", "z.B.", "  Hang  ", "Café"});
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
    CHECK(lexicon.contains("HANG") && lexicon.contains("STRASSE") && lexicon.contains("AERA") &&
          lexicon.contains("CAFE"));
    CHECK(!lexicon.contains("HAN") && !lexicon.contains("HANGS") && !lexicon.contains("UBOOT") &&
          !lexicon.contains(""));
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
    const FoundWords words = find_words(lexicon, table_of({"L", "A", "G", "E", "R", "?"}));
    std::vector<std::string> found;
    for (std::size_t i = 0; i < words.size(); ++i) {
        found.emplace_back(words[i].word);
        CHECK(words[i].card_count >= kDefaultMinCards);
        CHECK(lexicon.index_of(words[i].word).value() == words[i].index);  // the claim's action id
    }
    // LAGER, REGAL (plain); ANGEL, GANG? (needs N and G twice: only one joker) ...
    CHECK(std::find(found.begin(), found.end(), "LAGER") != found.end());
    CHECK(std::find(found.begin(), found.end(), "REGAL") != found.end());
    CHECK(std::find(found.begin(), found.end(), "ANGEL") != found.end());  // joker as N
    CHECK(std::find(found.begin(), found.end(), "LASER") != found.end());  // joker as S
    CHECK(std::find(found.begin(), found.end(), "HANG") == found.end());   // needs two jokers
    CHECK(std::is_sorted(found.begin(), found.end()));
    CHECK(std::adjacent_find(found.begin(), found.end()) == found.end());
    CHECK(forms_a_word(lexicon, table_of({"L", "A", "G", "E", "R", "?"})));
    CHECK(!forms_a_word(lexicon, table_of({"L", "A", "G", "E", "R", "?"}), 7));
    CHECK(!forms_a_word(lexicon, table_of({"X", "Y", "?"})));
}

// ---- the finder against the one it replaced ---------------------------------------------------
//
// find_words runs the tiling walk within a budget, else the prefix walk (finder.cpp); both
// must give exactly what the former finder gave (reference::, a frozen copy): the same
// words, the same cards in word order, the same jokers. A budget of 0 runs the prefix walk
// alone.

namespace {

constexpr uint64_t kPrefixWalkOnly = 0;
constexpr uint64_t kAsFound = detail::kTilingBudget;  // as find_words runs

std::string shown(const std::vector<Card>& table) {
    std::string text;
    for (const Card& card : table) text += (text.empty() ? "" : " ") + format_card(card);
    return text;
}

/// Whether find_words, forms_a_word and check_word (of every word of `words`) agree with
/// the former finder on `table`; prints the first difference.
bool agrees(const Lexicon& lexicon, const std::vector<std::string>& words, const std::vector<Card>& table,
            int min_cards, uint64_t budget) {
    const FoundWords now = detail::find_words(lexicon, table, min_cards, budget);
    const std::vector<reference::Found1> then = reference::find_words(lexicon, table, min_cards);
    bool ok = now.size() == then.size();
    for (std::size_t i = 0; ok && i < now.size(); ++i) {
        const FoundWordView v = now[i];
        ok = reference::Found1{v.index, std::string(v.word), std::vector<int>(v.cards, v.cards + v.card_count),
                               v.jokers} == then[i];
    }
    ok = ok && detail::forms_a_word(lexicon, table, min_cards, budget) == !then.empty();
    for (const std::string& word : words) {
        const Check a = detail::check_word(lexicon, word, table, min_cards, budget);
        const Check b = reference::check_word(lexicon, word, table, min_cards);
        const bool same = a.reason == b.reason && a.match.has_value() == b.match.has_value() &&
                          (!a.match || (a.match->word == b.match->word && a.match->cards == b.match->cards &&
                                        a.match->jokers == b.match->jokers));
        if (!same) {
            std::cerr << "check_word(" << word << ") differs\n";
            ok = false;
            break;
        }
    }
    if (!ok) std::cerr << "finder differs on [" << shown(table) << "], min_cards " << min_cards << "\n";
    return ok;
}

/// Words over few letters, those of double letter cards among them, letters repeated: many ways
/// to tile each, so the best assignment and its tie-breaks (K10.4) are put to work.
std::vector<std::string> tiling_words(Pcg32& rng, int count) {
    const std::string letters = "EENNRRSTTIICHAAO";
    std::vector<std::string> words = {"EEEE",   "ENEN",     "ENENEN",   "ERERER", "STST",   "EIEIEI",   "CHCH",
                                      "NENNEN", "SEENSEEN", "EIERN",    "REISEN", "STEINE", "CHINESEN", "ANNE",
                                      "ERNTEN", "TEER",     "EINSEHEN", "NIEREN", "SCHEREN"};
    while (static_cast<int>(words.size()) < count) {
        std::string word;
        const uint32_t length = 2 + rng.below(11);
        for (uint32_t i = 0; i < length; ++i) word += letters[rng.below(static_cast<uint32_t>(letters.size()))];
        words.push_back(word);
    }
    return words;
}

/// `size` cards drawn from `deck` (card notation: count).
std::vector<Card> drawn(Pcg32& rng, const std::vector<std::pair<std::string, int>>& deck, int size) {
    std::vector<Card> cards;
    for (const auto& [text, count] : deck) {
        for (int i = 0; i < count; ++i) cards.push_back(parse_card(text));
    }
    for (std::size_t i = cards.size(); i > 1; --i) std::swap(cards[i - 1], cards[rng.below(static_cast<uint32_t>(i))]);
    cards.resize(std::min(cards.size(), static_cast<std::size_t>(size)));
    return cards;
}

const std::vector<std::pair<std::string, int>> kGermanDeck = {
    {"A", 4},  {"B", 1},  {"C", 1},  {"D", 2},  {"E", 5},  {"F", 1}, {"G", 2}, {"H", 1}, {"I", 2},
    {"J", 1},  {"K", 1},  {"L", 3},  {"M", 2},  {"N", 3},  {"O", 1}, {"P", 1}, {"Q", 1}, {"R", 3},
    {"S", 4},  {"T", 3},  {"U", 3},  {"V", 1},  {"W", 1},  {"X", 1}, {"Y", 1}, {"Z", 1}, {"CH", 2},
    {"EI", 1}, {"EN", 3}, {"ER", 2}, {"IE", 1}, {"ST", 1}, {"?", 4}, {"??", 2}};

/// Few plain letters, many two-letter cards and jokers: many tilings per word.
const std::vector<std::pair<std::string, int>> kTilingDeck = {
    {"A", 1},  {"C", 1},  {"E", 3},  {"H", 1},  {"I", 2},  {"N", 2},  {"O", 1},  {"R", 2},  {"S", 2}, {"T", 2},
    {"CH", 2}, {"EI", 2}, {"EN", 4}, {"ER", 3}, {"IE", 2}, {"NE", 2}, {"ST", 2}, {"SE", 1}, {"?", 4}, {"??", 4}};

}  // namespace

TEST(finder_agrees_with_the_former_finder_on_the_examples) {
    const Lexicon& lexicon = small_lexicon();
    std::vector<std::string> words;
    for (uint32_t i = 0; i < lexicon.size(); ++i) words.push_back(lexicon.word_at(i));
    const std::vector<std::vector<std::string>> tables = {{"L", "A", "G", "E", "R", "?"},
                                                          {"ST", "O", "?"},
                                                          {"T", "??", "P"},
                                                          {"ST", "R", "E", "S", "T", "?"},
                                                          {"?", "G", "A", "N", "G", "?"},
                                                          {"T", "O", "R", "R", "O"},
                                                          {"R", "E", "TS"},
                                                          {"??", "??", "??"},
                                                          {"?", "?", "?", "?", "??", "??", "E", "N", "ST"}};
    for (const auto& cards : tables) {
        for (int min_cards = 0; min_cards <= 4; ++min_cards) {
            CHECK(agrees(lexicon, words, table_of(cards), min_cards, kAsFound));
            CHECK(agrees(lexicon, words, table_of(cards), min_cards, kPrefixWalkOnly));
        }
    }
}

TEST(finder_agrees_with_the_former_finder_on_random_tables) {
    // Random tables of 0..66 cards of the German deck, and of a deck of many two-letter
    // cards and jokers; a lexicon of words with many tilings each; min_cards 0..5.
    Pcg32 rng(20240611, 7);
    const std::vector<std::string> words = tiling_words(rng, 400);
    const Lexicon lexicon = Lexicon::from_words(words);
    std::vector<std::string> some;  // check_word on these (check_word is slow to compare on all)
    for (int i = 0; i < 40; ++i) some.push_back(lexicon.word_at(rng.below(static_cast<uint32_t>(lexicon.size()))));
    int tables = 0;
    for (int round = 0; round < 240; ++round) {
        const bool german = round % 2 == 0;
        const std::vector<Card> table =
            drawn(rng, german ? kGermanDeck : kTilingDeck, static_cast<int>(rng.below(german ? 67 : 48)));
        const int min_cards = rng.below(3) == 0 ? static_cast<int>(rng.below(6)) : 3;
        const bool ok = agrees(lexicon, some, table, min_cards, kAsFound);
        CHECK(ok);
        const bool prefix_ok = agrees(lexicon, some, table, min_cards, kPrefixWalkOnly);
        CHECK(prefix_ok);
        ++tables;
        if (!ok || !prefix_ok) break;
    }
    CHECK(tables == 240);
}

TEST(check_word_splits_a_full_table_of_double_letters) {
    // 128 cards, 256 letters split: more than a table holds (kMaxTable), only the letters
    // the word can use are kept.
    const Lexicon lexicon = Lexicon::from_words({"Nene", "Enen", "Tee"});
    const std::vector<Card> table(static_cast<std::size_t>(kMaxTable), parse_card("EN"));
    CHECK(check_word(lexicon, "ENEN", table).reason == Reason::TooFewCards);  // EN + EN: 2 cards
    CHECK(check_word(lexicon, "ENEN", table, 2).match->cards == std::vector<int>({0, 1}));
    CHECK(check_word(lexicon, "NENE", table).reason == Reason::DoubleLetterSplit);
    CHECK(check_word(lexicon, "TEE", table).reason == Reason::LettersMissing);
    std::vector<Card> jokers(static_cast<std::size_t>(kMaxTable) - 4, parse_card("EN"));
    for (const char* card : {"?", "??", "?", "??"}) jokers.push_back(parse_card(card));
    CHECK(check_word(lexicon, "TEE", jokers).reason == Reason::TooFewCards);  // ?? + ?: 2 cards
    CHECK(check_word(lexicon, "NENE", jokers).reason == Reason::None);        // ?, EN, ?
}

TEST(finder_takes_over_from_an_exhausted_budget) {
    // A budget too small for the tiling walk: the prefix walk finishes the job, the same.
    const Lexicon& lexicon = small_lexicon();
    const std::vector<Card> table = table_of({"L", "A", "G", "E", "R", "?", "??", "ST", "O", "P", "N", "H"});
    const FoundWords some = detail::find_words(lexicon, table, kDefaultMinCards, 5);
    const FoundWords all = find_words(lexicon, table);
    CHECK(some.size() == all.size() && some.size() > 5);
    for (std::size_t i = 0; i < some.size() && i < all.size(); ++i) {
        CHECK(some[i].to_match().cards == all[i].to_match().cards && some[i].word == all[i].word);
    }
}

// ---- formable_words: the legal claims without their assignments --------------------------
//
// formable_words must give exactly find_words' words (K3.3): it decides from letter counts
// where it can and searches the tilings of one word where it cannot, so the tables below
// put both to work: the German deck (double letters, four `?` and two `??`), a deck of many
// two-letter cards and jokers with words made of their letters, and tables with every joker.

namespace {

/// Whether formable_words gives find_words' words on `table`; prints the first difference.
bool same_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards) {
    const FoundWords found = find_words(lexicon, table, min_cards);
    const std::vector<uint32_t> formable = formable_words(lexicon, table, min_cards);
    std::vector<uint32_t> expected;
    for (std::size_t i = 0; i < found.size(); ++i) expected.push_back(found[i].index);
    if (formable == expected) return true;
    std::size_t i = 0;
    while (i < formable.size() && i < expected.size() && formable[i] == expected[i]) ++i;
    const uint32_t differ = i < formable.size() ? formable[i] : expected[i];
    std::cerr << "formable_words differs on [" << shown(table) << "], min_cards " << min_cards << ": "
              << formable.size() << " words, find_words " << expected.size() << "; first " << lexicon.word_at(differ)
              << "\n";
    return false;
}

/// `size` cards of `deck` with every joker of it among them (as many as fit).
std::vector<Card> with_jokers(Pcg32& rng, const std::vector<std::pair<std::string, int>>& deck, int size) {
    std::vector<std::pair<std::string, int>> jokers, letters;
    for (const auto& kind : deck) (parse_card(kind.first).is_joker() ? jokers : letters).push_back(kind);
    std::vector<Card> table = drawn(rng, jokers, size);
    for (const Card& card : drawn(rng, letters, size - static_cast<int>(table.size()))) table.push_back(card);
    return table;
}

}  // namespace

TEST(formable_words_are_find_words_words_on_the_examples) {
    const Lexicon& lexicon = small_lexicon();
    for (const auto& cards : std::vector<std::vector<std::string>>{{"L", "A", "G", "E", "R", "?"},
                                                                   {"ST", "O", "?"},
                                                                   {"T", "??", "P"},
                                                                   {"O", "S", "??"},
                                                                   {"??", "??", "??"},
                                                                   {"R", "E", "TS"},
                                                                   {}}) {
        for (int min_cards = 0; min_cards <= 5; ++min_cards) CHECK(same_words(lexicon, table_of(cards), min_cards));
    }
    // K3.3(f): P, T and a double joker make POST, with three cards.
    CHECK(formable_words(lexicon, table_of({"T", "??", "P"})) == std::vector<uint32_t>{*lexicon.index_of("POST")});
    CHECK(formable_words(lexicon, table_of({"T", "??", "P"}), 4).empty());
}

TEST(formable_words_are_find_words_words_on_random_tables) {
    // Tables of 0..66 cards: of the German deck, the same with every joker, and of a deck of
    // two-letter cards (doubles, four `??`); words with many tilings; min_cards 3 and 4
    // (and now and then 0..6).
    Pcg32 rng(20251128, 9);
    const Lexicon lexicon = Lexicon::from_words(tiling_words(rng, 3000));
    int tables = 0;
    for (int round = 0; round < 600; ++round) {
        const int deck = round % 3;
        const int size = static_cast<int>(rng.below(deck == 2 ? 49 : 67));
        const std::vector<Card> table = deck == 0   ? drawn(rng, kGermanDeck, size)
                                        : deck == 1 ? with_jokers(rng, kGermanDeck, size)
                                                    : with_jokers(rng, kTilingDeck, size);
        const int min_cards = rng.below(5) == 0 ? static_cast<int>(rng.below(7)) : 3 + static_cast<int>(rng.below(2));
        const bool ok = same_words(lexicon, table, min_cards);
        CHECK(ok);
        if (!ok) break;
        ++tables;
    }
    CHECK(tables == 600);
}

TEST(formable_words_split_across_threads_are_find_words_words) {
    // A list long enough that formable_words splits it across threads (where the machine has
    // two or more): the parts come back in word order, each word once.
    Pcg32 rng(20261128, 3);
    const Lexicon lexicon = Lexicon::from_words(tiling_words(rng, 40000));
    CHECK(lexicon.size() > 32768);
    for (int round = 0; round < 6; ++round) {  // a few: the sanitizer builds run it too
        const std::vector<Card> table = with_jokers(rng, round % 2 == 0 ? kGermanDeck : kTilingDeck, 4 + round * 2);
        CHECK(same_words(lexicon, table, kDefaultMinCards));
    }
}

TEST(formable_words_share_the_letter_index_between_threads) {
    // The index is built once, on first use, whoever asks first: threads that ask together
    // get the same words.
    const Lexicon lexicon = Lexicon::from_words(tiling_words(*std::make_unique<Pcg32>(5, 1), 500));
    const std::vector<Card> table = table_of({"E", "N", "??", "ER", "?", "S", "T", "EN", "I"});
    std::vector<std::vector<uint32_t>> results(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&, t] { results[t] = formable_words(lexicon, table); });
    for (std::thread& thread : threads) thread.join();
    for (const auto& result : results) CHECK(result == results[0]);
    CHECK(same_words(lexicon, table, kDefaultMinCards));
    const Lexicon copy = lexicon;  // copies share the index
    CHECK(&copy.letter_index() == &lexicon.letter_index());
}

// ---- the game -------------------------------------------------------------------------------

namespace {

const std::shared_ptr<const Lexicon>& shared_lexicon() {
    static const auto lexicon = std::make_shared<const Lexicon>(
        Lexicon::from_words({"Tor",  "Rot",  "Ort",   "Tore", "Rote",  "Rest",  "Rast",  "Rate",  "Stern",
                             "Star", "Nest", "Ernst", "Nase", "Rasen", "Aster", "Taste", "Senat", "Otter",
                             "See",  "Tee",  "Arten", "Ante", "Tante", "Rose",  "Osten"}));
    return lexicon;
}

const Lexicon& game_lexicon() { return *shared_lexicon(); }

Game test_game(int players, Variant variant = Variant::Standard) {
    Options o;
    o.players = players;
    o.variant = variant;
    o.deck.kinds = {parse_card("A"), parse_card("E"), parse_card("N"),  parse_card("O"), parse_card("R"),
                    parse_card("S"), parse_card("T"), parse_card("ST"), parse_card("?"), parse_card("??")};
    o.deck.counts = {3, 4, 2, 2, 3, 3, 4, 1, 1, 1};
    return Game::make(o, shared_lexicon());
}

Config game_config(int players, Variant variant = Variant::Standard) { return test_game(players, variant).config; }

bool same_state(const Position& a, const Position& b) {
    return Rules::render(a) == Rules::render(b) && a.deck == b.deck && a.deck_next == b.deck_next &&
           a.table == b.table && a.taken == b.taken && a.drawn == b.drawn && a.scores == b.scores &&
           a.penalty == b.penalty && a.passed == b.passed && a.seed == b.seed;
}

}  // namespace

TEST(knizia_notation_round_trips_K7) {
    for (const char* text : {"reveal", "pass", "take@5", "LAGER", "POST@3,7,9,2"})
        CHECK(Rules::format_move(parse_move(text)) == text);
    CHECK(Rules::format_move(parse_move(" Straße ")) == "STRASSE");
    for (const char* bad : {"", "LAG3R", "POST@", "POST@1,,2", "POST@1,1", "take@", "take@128", "@1"}) {
        bool threw = false;
        try {
            parse_move(bad);
        } catch (const NotationError&) {
            threw = true;
        }
        CHECK(threw);
    }
}

TEST(knizia_claim_ids_use_the_lexicon_index) {
    const Lexicon& lexicon = game_lexicon();
    for (uint32_t i = 0; i < lexicon.size(); ++i) {
        const Move move = move_of_action(kFirstClaimAction + static_cast<int>(i), lexicon);
        CHECK(action_of(move, lexicon) == kFirstClaimAction + static_cast<int>(i));
        CHECK(lexicon.index_of(move.word()).value() == i);
    }
    CHECK(action_of(parse_move("XYZ"), lexicon) == -1);
}

TEST(knizia_penalty_follows_K3_5) {
    const Config config = game_config(3);
    std::vector<Deal> deals(1);
    const std::vector<std::string> order = {"T", "O", "R", "A", "A", "A", "E", "E", "E", "E",  "N", "N",
                                            "O", "R", "R", "S", "S", "S", "T", "T", "T", "ST", "?", "??"};
    for (const auto& text : order) deals[0].push_back(static_cast<uint8_t>(config.kind_of(parse_card(text))));
    Position s = new_game(config, game_lexicon(), 1, &deals);
    apply(s, Move::reveal(), 0);
    apply(s, parse_move("XYZ"), 1);  // not a word: seats 2 and 0 take a card
    CHECK(s.phase == Phase::Penalty && s.penalty_count == 2 && s.penalty[0] == 2 && s.penalty[1] == 0);
    CHECK(Rules::why_illegal(s, Move::take(0), 0).has_value());         // not seat 0's turn yet
    apply(s, Move::take(0), 2);                                         // the table is empty now ...
    CHECK(s.phase == Phase::Play && s.pile[2] == 1 && s.pile[0] == 1);  // ... so seat 0 drew blind
    CHECK(s.deck_count() == config.deck_size - 2);
    CHECK(check_invariants(s).empty());
}

TEST(knizia_random_games_keep_every_invariant) {
    for (const Variant variant : {Variant::Standard, Variant::VictoryTiles}) {
        for (int players = 2; players <= 6; players += 2) {
            const Config config = game_config(players, variant);
            for (uint64_t game = 0; game < 10; ++game) {
                Position s = new_game(config, game_lexicon(), game);
                Pcg32 rng(game, 5);
                int steps = 0;
                while (!s.is_terminal() && steps < 20000) {
                    const std::string problem = check_invariants(s);
                    CHECK(problem.empty());
                    if (!problem.empty()) {
                        std::cerr << problem << "\n" << Rules::render(s);
                        return;
                    }
                    const int player = static_cast<int>(rng.below(static_cast<uint32_t>(players)));
                    std::vector<Move> moves = legal_moves(s, player);
                    std::vector<int> ids;  // legal_actions: the ids of legal_moves, ascending
                    for (const Move& move : moves) ids.push_back(action_of(move, game_lexicon()));
                    std::sort(ids.begin(), ids.end());
                    CHECK(Rules::legal_actions(s, player) == ids);
                    if (moves.empty()) continue;
                    if (s.phase == Phase::Play && rng.below(8) == 0) moves = {parse_move("TEER")};  // an invalid call
                    const Move move = moves[rng.below(static_cast<uint32_t>(moves.size()))];
                    CHECK(!Rules::why_illegal(s, move, player).has_value());
                    const Position resampled = resample(s, game);
                    CHECK(check_invariants(resampled).empty());
                    CHECK(Rules::render(resampled) == Rules::render(s));  // nothing visible changes
                    apply(s, move, player);
                    ++steps;
                }
                CHECK(s.is_terminal());
                CHECK(check_invariants(s).empty());
            }
        }
    }
}

TEST(knizia_word_bot_simulations_finish_and_replay) {
    const Config config = game_config(4);
    const WordBot full(default_reaction(), kDefaultPerLetter, Vocabulary{});
    const WordBot small(default_reaction(), 0.5, Vocabulary{nullptr, 4, 0.5, 3});
    const RandomBot random(default_reaction(), kDefaultPerLetter);
    const std::vector<const Bot*> bots = {&full, &small, &random, &full};
    for (uint64_t seed = 0; seed < 8; ++seed) {
        const Position start = new_game(config, game_lexicon(), seed);
        const auto run = realtime::simulate<Rules>(start, bots, seed, realtime::Limits{});
        CHECK(run.state.is_terminal());
        Position replay = start;
        double last = 0.0;
        for (const auto& step : run.log) {
            CHECK(step.time >= last);
            last = step.time;
            if (step.accepted) apply(replay, step.move, step.player);
        }
        CHECK(same_state(replay, run.state));
    }
    const realtime::Batch one = realtime::simulate_many<Rules>(test_game(4), bots, 10, 7, 1, realtime::Limits{});
    const realtime::Batch two = realtime::simulate_many<Rules>(test_game(4), bots, 10, 7, 2, realtime::Limits{});
    CHECK(one.scores == two.scores && one.actions == two.actions && one.time == two.time);
    const RandomPlayResult a = play_random<Rules>(test_game(4), 10, 3, 1);
    const RandomPlayResult b = play_random<Rules>(test_game(4), 10, 3, 2);
    CHECK(a.scores == b.scores && a.moves == b.moves);
}

TEST(knizia_search_bot_games_do_not_depend_on_threads) {
    // Standard and victory tiles: the same seeds give the same games on 1 and 2 threads
    // (the search asked through the contract's one factory).
    for (const Variant variant : {Variant::Standard, Variant::VictoryTiles}) {
        const Game game = test_game(3, variant);
        const auto search = Rules::make_bot(game, "search", json::parse(R"({"worlds": 4, "horizon": 3})", "options"));
        const auto lookahead = Rules::make_bot(game, "lookahead", json::parse("{}", "options"));
        const std::vector<const Bot*> bots = {search.get(), lookahead.get(), search.get()};
        const realtime::Batch one = realtime::simulate_many<Rules>(game, bots, 6, 5, 1, realtime::Limits{});
        const realtime::Batch two = realtime::simulate_many<Rules>(game, bots, 6, 5, 2, realtime::Limits{});
        CHECK(one.scores == two.scores && one.actions == two.actions && one.time == two.time);
    }
}

TEST(knizia_search_bot_games_finish_and_its_options_are_checked) {
    // Standard and victory tiles: every game ends (the search never leaves a round waiting
    // for it, K3.7), and the search is asked through the contract's one factory with its
    // options checked. One thread: the ThreadSanitizer build leaves this part out.
    for (const Variant variant : {Variant::Standard, Variant::VictoryTiles}) {
        const Game game = test_game(3, variant);
        const auto search = Rules::make_bot(game, "search", json::parse(R"({"worlds": 4, "horizon": 3})", "options"));
        const auto lookahead = Rules::make_bot(game, "lookahead", json::parse("{}", "options"));
        const std::vector<const Bot*> bots = {search.get(), lookahead.get(), search.get()};
        for (int i = 0; i < 6; ++i) {
            const Position start = new_game(game.config, game_lexicon(), derive_seed(5, static_cast<uint64_t>(i)));
            CHECK(realtime::simulate<Rules>(start, bots, 11, realtime::Limits{}, false).state.is_terminal());
        }
    }
    CHECK_THROWS(OptionError, Rules::make_bot(test_game(3), "search", json::parse(R"({"worlds": 0})", "o")));
    CHECK_THROWS(OptionError, Rules::make_bot(test_game(3), "search", json::parse(R"({"horizon": 11})", "o")));
    CHECK_THROWS(OptionError, Rules::make_bot(test_game(3), "word", json::parse(R"({"worlds": 4})", "o")));
}
