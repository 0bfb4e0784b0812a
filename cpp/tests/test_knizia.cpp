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
    const Matches words = find_words(lexicon, table_of({"L", "A", "G", "E", "R", "?"}));
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

// ---- the game -------------------------------------------------------------------------------

namespace {

const Lexicon& game_lexicon() {
    static const Lexicon lexicon = Lexicon::from_words(
        {"Tor", "Rot", "Ort", "Tore", "Rote", "Rest", "Rast", "Rate", "Stern", "Star", "Nest", "Ernst", "Nase",
         "Rasen", "Aster", "Taste", "Senat", "Otter", "See", "Tee", "Arten", "Ante", "Tante", "Rose", "Osten"});
    return lexicon;
}

Config game_config(int players, Variant variant = Variant::Standard) {
    Options o;
    o.players = players;
    o.variant = variant;
    o.deck.kinds = {parse_card("A"), parse_card("E"), parse_card("N"), parse_card("O"), parse_card("R"),
                    parse_card("S"), parse_card("T"), parse_card("ST"), parse_card("?"), parse_card("??")};
    o.deck.counts = {3, 4, 2, 2, 3, 3, 4, 1, 1, 1};
    return Config::from_options(o);
}

bool same_state(const State& a, const State& b) {
    return render(a) == render(b) && a.deck == b.deck && a.deck_next == b.deck_next && a.table == b.table &&
           a.taken == b.taken && a.drawn == b.drawn && a.scores == b.scores && a.penalty == b.penalty &&
           a.passed == b.passed && a.seed == b.seed;
}

}  // namespace

TEST(knizia_notation_round_trips_K7) {
    for (const char* text : {"reveal", "pass", "take@5", "LAGER", "POST@3,7,9,2"}) CHECK(format_move(parse_move(text)) == text);
    CHECK(format_move(parse_move(" Straße ")) == "STRASSE");
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
    const std::vector<std::string> order = {"T", "O", "R", "A", "A", "A", "E", "E", "E", "E", "N", "N", "O", "R", "R",
                                            "S", "S", "S", "T", "T", "T", "ST", "?", "??"};
    for (const auto& text : order) deals[0].push_back(static_cast<uint8_t>(config.kind_of(parse_card(text))));
    State s = new_game(config, game_lexicon(), 1, &deals);
    apply(s, Move::reveal(), 0);
    apply(s, parse_move("XYZ"), 1);                      // not a word: seats 2 and 0 take a card
    CHECK(s.phase == Phase::Penalty && s.penalty_count == 2 && s.penalty[0] == 2 && s.penalty[1] == 0);
    CHECK(why_illegal(s, Move::take(0), 0).has_value());  // not seat 0's turn yet
    apply(s, Move::take(0), 2);                           // the table is empty now ...
    CHECK(s.phase == Phase::Play && s.pile[2] == 1 && s.pile[0] == 1);  // ... so seat 0 drew blind
    CHECK(s.deck_count() == config.deck_size - 2);
    CHECK(check_invariants(s).empty());
}

TEST(knizia_random_games_keep_every_invariant) {
    for (const Variant variant : {Variant::Standard, Variant::VictoryTiles}) {
        for (int players = 2; players <= 6; players += 2) {
            const Config config = game_config(players, variant);
            for (uint64_t game = 0; game < 10; ++game) {
                State s = new_game(config, game_lexicon(), game);
                Pcg32 rng(game, 5);
                int steps = 0;
                while (!s.is_terminal() && steps < 20000) {
                    const std::string problem = check_invariants(s);
                    CHECK(problem.empty());
                    if (!problem.empty()) {
                        std::cerr << problem << "\n" << render(s);
                        return;
                    }
                    const int player = static_cast<int>(rng.below(static_cast<uint32_t>(players)));
                    std::vector<Move> moves = legal_moves(s, player);
                    const std::vector<int> actions = legal_actions(s, player);
                    CHECK(actions.size() == moves.size());
                    for (std::size_t i = 0; i < moves.size() && i < actions.size(); ++i) CHECK(actions[i] == action_of(moves[i], game_lexicon()));
                    if (moves.empty()) continue;
                    if (s.phase == Phase::Play && rng.below(8) == 0) moves = {parse_move("TEER")};  // an invalid call
                    const Move move = moves[rng.below(static_cast<uint32_t>(moves.size()))];
                    CHECK(!why_illegal(s, move, player).has_value());
                    const State resampled = resample(s, game);
                    CHECK(check_invariants(resampled).empty());
                    CHECK(render(resampled) == render(s));  // nothing visible changes
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
        const State start = new_game(config, game_lexicon(), seed);
        const Run run = simulate(start, bots, seed, realtime::Limits{});
        CHECK(run.state.is_terminal());
        State replay = start;
        double last = 0.0;
        for (const auto& step : run.log) {
            CHECK(step.time >= last);
            last = step.time;
            if (step.accepted) apply(replay, step.move, step.player);
        }
        CHECK(same_state(replay, run.state));
    }
    const SimulationBatch one = simulate_many(config, game_lexicon(), bots, 10, 7, 1, realtime::Limits{});
    const SimulationBatch two = simulate_many(config, game_lexicon(), bots, 10, 7, 2, realtime::Limits{});
    CHECK(one.scores == two.scores && one.actions == two.actions && one.time == two.time);
    const RandomPlayResult a = play_random_games(config, game_lexicon(), 10, 3, 1);
    const RandomPlayResult b = play_random_games(config, game_lexicon(), 10, 3, 2);
    CHECK(a.scores == b.scores && a.moves == b.moves);
}
