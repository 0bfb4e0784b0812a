// Diabolo (Reiner Knizia, 1999): letter cards, the words they form, and the real-time
// game around them. Clause numbers (K3.3) refer to docs/games/knizia.rst.
//
// The deck is data (K1.3): a list of card kinds with counts. A physical card is known
// by its kind id (an index into the deck's kinds), since cards of one kind are alike.
// A state refers to its game's lexicon by pointer: the lexicon must outlive the states
// that use it (a State keeps its game, and so its lexicon, alive through the bindings).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diabolo/core/contract.hpp"
#include "diabolo/core/errors.hpp"
#include "diabolo/core/json_fwd.hpp"
#include "diabolo/core/realtime.hpp"
#include "diabolo/core/record.hpp"
#include "diabolo/core/rng.hpp"
#include "diabolo/core/scores.hpp"
#include "diabolo/knizia/lexicon.hpp"

namespace diabolo::knizia {

constexpr int kDefaultMinCards = 3;              // K3.3(b); 4 in the children's variant
constexpr int kMaxDeck = 128;                    // cards in a deck (the German deck has 66, K1.2)
constexpr int kMaxTable = kMaxDeck;              // table positions: every card may lie on the table
constexpr int kMaxKinds = 64;                    // kinds of card in a deck
constexpr int kMaxWord = 64;                     // letters in a called word
constexpr int kMinPlayers = 2, kMaxPlayers = 6;  // K1.1
constexpr int kMaxRounds = 64;

/// A letter card (K1.2): one letter, a double letter (two letters in printed order),
/// a joker (`?`, one letter) or a double joker (`??`, two consecutive letters).
struct Card {
    enum class Kind : uint8_t { Letter = 0, Double = 1, Joker = 2, DoubleJoker = 3 };
    Kind kind = Kind::Letter;
    char first = 'A';  // Letter and Double
    char second = 0;   // Double only
    bool is_joker() const noexcept { return kind == Kind::Joker || kind == Kind::DoubleJoker; }
    friend bool operator==(const Card& a, const Card& b) noexcept {
        return a.kind == b.kind && a.first == b.first && a.second == b.second;
    }
};

/// Card notation (K8): "A", "EI", "?", "??"; NotationError otherwise.
Card parse_card(std::string_view text);
std::string format_card(const Card& card);

/// A way to form a word from table cards (K3.4): positions (0-based, K10.4) in word order.
struct FoundWord {
    std::string word;
    std::vector<int> cards;
    int jokers = 0;  // joker cards used (`?` and `??` count one each)
    int card_count() const noexcept { return static_cast<int>(cards.size()); }
};

/// A found word: its letters, the table positions of its best assignment in word order
/// (K10.4) and its index in the lexicon (which gives the claim's action id). The
/// pointers are valid while the FoundWords that gave it lives.
struct FoundWordView {
    std::string_view word;
    const uint8_t* cards;
    int card_count;
    int jokers;
    uint32_t index;
    FoundWord to_match() const {
        return FoundWord{std::string(word), std::vector<int>(cards, cards + card_count), jokers};
    }
};

class FoundWords;
namespace detail {
FoundWords find_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, uint64_t tiling_budget);
}

/// The words a table can form, in word order, stored flat: a table with a joker forms
/// more than a thousand, and storing them should cost little next to finding them.
class FoundWords {
public:
    FoundWords() = default;
    std::size_t size() const noexcept { return entries_.size(); }
    bool empty() const noexcept { return entries_.empty(); }
    FoundWordView operator[](std::size_t i) const noexcept {
        const Entry& e = entries_[i];
        return FoundWordView{std::string_view(letters_.data() + e.letters, e.length), positions_.data() + e.positions,
                             e.count, e.jokers, e.index};
    }

    struct Entry {
        uint32_t index;      // the word's index in the lexicon
        uint32_t letters;    // where its letters start in the letter buffer
        uint32_t positions;  // where its best assignment starts in the position buffer
        uint8_t length, count, jokers;
    };

private:
    friend FoundWords detail::find_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards,
                                         uint64_t tiling_budget);
    FoundWords(std::vector<Entry> entries, std::vector<char> letters, std::vector<uint8_t> positions)
        : entries_(std::move(entries)), letters_(std::move(letters)), positions_(std::move(positions)) {}
    std::vector<Entry> entries_;
    std::vector<char> letters_;
    std::vector<uint8_t> positions_;
};

/// The most steps the word finder takes on one table (a prefix entered, a partial tiling
/// made or compared: 10 to 20 ns each) and the most partial tilings it holds at once (about
/// 90 bytes each): past either, find_words, forms_a_word and check_word throw LimitError
/// rather than search for minutes or gigabytes. The tables of the German deck stay far
/// below (measured on 600 random tables: at most 110 million steps and 12,000 tilings);
/// custom decks with many jokers and double letter cards, or lexicons of long words, can
/// reach them (src/knizia/finder.cpp, docs: reliability).
constexpr uint64_t kMaxFinderWork = uint64_t{1} << 30;
constexpr uint64_t kMaxFinderTilings = uint64_t{1} << 18;

/// Every valid word of `lexicon` the table can form with at least `min_cards` cards,
/// each with its best assignment (K10.4: most cards, then fewest jokers, then the lowest
/// sorted positions, then the lowest positions in word order), sorted by word: the
/// legal-move generation of this game (K6.1). Words longer than kMaxWord letters are
/// never formed (no call can name them). Time and memory grow with the words found, not
/// with the ways to assign cards to them (worst case: the top of src/knizia/finder.cpp);
/// the whole German deck on the table takes about 0.15 s. LimitError past the limits above.
FoundWords find_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards = kDefaultMinCards);

/// The lexicon indices of the words of find_words(lexicon, table, min_cards), ascending,
/// without their assignments: whether each word can be formed with at least min_cards
/// cards (K3.3), decided from its letter counts (Lexicon::letter_index, built on the first
/// call) and, for the few words that need two-letter tiles, by an exact search over that
/// word alone (src/knizia/formable.cpp). What the legal claims need (their ids are
/// kFirstClaimAction + index): for the German list, a median of 3.5 to 5 ms on two cores
/// over the table families of benchmarks/knizia_mask.py, and up to about 30 ms (60 on one
/// core) at the hardest tables found there, many double letter cards with double jokers
/// (docs/ai.rst), where find_words takes half a second; a list of more than 32,768 words
/// is split across up to 4 threads where the machine has the cores (the same words on any
/// count). LimitError past kMaxFinderWork steps of that search, which only custom decks of
/// many two-letter cards can reach.
std::vector<uint32_t> formable_words(const Lexicon& lexicon, const std::vector<Card>& table,
                                     int min_cards = kDefaultMinCards);
/// The same words written to `out` (room for lexicon.size() ids) as first_id + index, for
/// action ids without a copy; returns how many.
int formable_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, int32_t first_id,
                   int32_t* out);

/// Whether the table forms any valid word (find_words(...).empty() is false), stopping
/// at the first (K3.7).
bool forms_a_word(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards = kDefaultMinCards);

/// Why a called word is not a valid claim (K6.2, K10.8), checked in this order.
enum class Reason : uint8_t { None = 0, NotAWord, TooFewCards, LettersMissing, DoubleLetterSplit };
const char* reason_text(Reason reason) noexcept;

struct Check {
    Reason reason = Reason::None;
    std::optional<FoundWord> match;  // the best match when reason is None
};

/// Checks the normalised word `word` (A-Z) against the table (K3.3, K6.2).
Check check_word(const Lexicon& lexicon, std::string_view word, const std::vector<Card>& table,
                 int min_cards = kDefaultMinCards);

namespace detail {
/// The budget of the finder's first walk, the tiling walk (src/knizia/finder.cpp), in
/// prefixes entered and assignments recorded together: a table of a game needs far fewer
/// (12 cards of the German deck: a few thousand, at most about 900,000 in 300 random
/// tables), and past it the prefix walk takes over, so the tiling walk costs at most about
/// 100 ms and 70 MB.
constexpr uint64_t kTilingBudget = uint64_t{3} << 19;

// find_words, forms_a_word and check_word with the budget of the finder's first walk given
// (src/knizia/finder.cpp; 0 runs its second walk alone): the tests check that both walks give
// the same. Not part of the API.
bool forms_a_word(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, uint64_t tiling_budget);
Check check_word(const Lexicon& lexicon, std::string_view word, const std::vector<Card>& table, int min_cards,
                 uint64_t tiling_budget);
}  // namespace detail

// ---- the game ------------------------------------------------------------------------------

enum class MoveKind : uint8_t { Reveal = 0, Pass = 1, Take = 2, Claim = 3 };
enum class Phase : uint8_t { Play = 0, Penalty = 1, GameOver = 2 };
enum class Variant : uint8_t { Standard = 0, VictoryTiles = 1 };  // K4.2, K4.3
enum class StaleCalls : uint8_t { Penalty = 0, Reject = 1 };      // K10.3

/// Action ids, stable for a given lexicon: 0 reveal, 1 pass, 2 + i take@i (i < 128),
/// then kFirstClaimAction + the word's index in the lexicon (a claim with the best
/// assignment). So num_actions = kFirstClaimAction + lexicon.size().
constexpr int kRevealAction = 0;
constexpr int kPassAction = 1;
constexpr int kFirstTakeAction = 2;
constexpr int kFirstClaimAction = kFirstTakeAction + kMaxTable;

/// A move (K7): reveal, pass, take@i, or a call of a word (A-Z), optionally naming the
/// table positions of its cards in word order (`POST@3,7,9`). A fixed-size value.
struct Move {
    MoveKind kind = MoveKind::Pass;
    uint8_t position = 0;                   // Take: the table position
    uint8_t length = 0;                     // Claim: letters of the word
    uint8_t card_count = 0;                 // Claim: positions named (0: the best assignment)
    std::array<char, kMaxWord> letters{};   // Claim: the word, A-Z
    std::array<uint8_t, kMaxWord> cards{};  // Claim: the positions named

    static Move reveal() noexcept { return Move{MoveKind::Reveal}; }
    static Move pass() noexcept { return Move{MoveKind::Pass}; }
    static Move take(int position) noexcept;
    /// A call of `word` (A-Z, 1..kMaxWord letters; NotationError otherwise), naming
    /// `cards` (distinct positions < kMaxTable, at most one per letter) if not empty.
    static Move claim(std::string_view word, const std::vector<int>& cards = {});
    std::string_view word() const noexcept { return {letters.data(), length}; }
    std::vector<int> positions() const { return std::vector<int>(cards.begin(), cards.begin() + card_count); }
    friend bool operator==(const Move& a, const Move& b) noexcept;
    friend bool operator!=(const Move& a, const Move& b) noexcept { return !(a == b); }
};

Move parse_move(std::string_view text);

/// The action id of `move` (a claim by its word; -1 for a word not in `lexicon`).
int action_of(const Move& move, const Lexicon& lexicon) noexcept;
/// The move of an action id in [0, kFirstClaimAction + lexicon.size()); NotationError otherwise.
Move move_of_action(int action, const Lexicon& lexicon);

/// A deck (K1.3, K10.7): kinds of card with their counts, and the language it was made
/// for ("de", or ""). Its JSON is a deck file: {"language": "de", "cards": {"E": 5, ...}}.
struct Deck {
    std::string language;
    std::vector<Card> kinds;
    std::vector<int> counts;
    int size() const noexcept;
    /// The same language and counts, in any order.
    friend bool operator==(const Deck& a, const Deck& b);
};

/// Rule options (K1.1, K3.3, K3.5, K4.2, K4.3, K10.3).
struct Options {
    int players = 4;
    int rounds = 0;  // 0: K4.2 (players rounds with 4-6 players, twice that with 2-3)
    int min_cards = kDefaultMinCards;
    Variant variant = Variant::Standard;
    int handicap = 10;  // K4.3
    StaleCalls stale_calls = StaleCalls::Penalty;
    Deck deck;  // required: 1..64 kinds, 1..128 cards
};

/// Validated options; part of every state. Kinds are sorted: letters A-Z, double
/// letters, `?`, `??`, so equal decks compare equal.
struct Config {
    uint8_t players = 4;
    uint8_t rounds = 4;  // planned rounds (standard variant)
    uint8_t min_cards = kDefaultMinCards;
    Variant variant = Variant::Standard;
    uint16_t handicap = 10;
    StaleCalls stale_calls = StaleCalls::Penalty;
    uint8_t kind_count = 0;
    uint8_t deck_size = 0;
    std::array<Card, kMaxKinds> kinds{};
    std::array<uint8_t, kMaxKinds> counts{};

    /// Validates options; throws OptionError naming the option and the allowed values.
    static Config from_options(const Options& options);
    Options to_options() const;
    /// The kind id of `card`, or -1 if the deck has no such card.
    int kind_of(const Card& card) const noexcept;
    const Card& card(int kind) const noexcept { return kinds[static_cast<std::size_t>(kind)]; }
    friend bool operator==(const Config& a, const Config& b) noexcept;
};

/// One deal in reveal order (the first card is revealed first), as kind ids.
using Deal = std::vector<uint8_t>;

/// The last call of the round (K8): who called what, and whether it was valid.
struct LastCall {
    int8_t seat = -1;  // -1: no call yet this round
    bool valid = false;
    Reason reason = Reason::None;
    uint8_t length = 0;
    std::array<char, kMaxWord> word{};
    std::string_view text() const noexcept { return {word.data(), length}; }
};

/// The whole state: a trivially copyable value (clone = memcpy), plus a pointer to the
/// game's lexicon.
struct Position {
    Config config{};
    const Lexicon* lexicon = nullptr;
    Phase phase = Phase::Play;
    uint8_t round = 0;
    uint8_t deck_next = 0;  // deck[deck_next] is revealed next
    uint8_t table_count = 0;
    uint8_t passed = 0;  // bit s: seat s's pass stands (K10.5)
    uint8_t penalty_count = 0;
    std::array<uint8_t, kMaxPlayers> penalty{};                       // seats still to take a card, in order
    std::array<uint8_t, kMaxDeck> deck{};                             // this round's deal, kind ids
    std::array<uint8_t, kMaxDeck> table{};                            // the line, kind ids
    std::array<std::array<uint8_t, kMaxKinds>, kMaxPlayers> taken{};  // per seat: cards taken from the table
    std::array<std::array<uint8_t, kMaxKinds>, kMaxPlayers>
        drawn{};                                // per seat: cards drawn blind from the deck (K3.5)
    std::array<uint8_t, kMaxPlayers> pile{};    // cards per seat this round (K4.1)
    std::array<int32_t, kMaxPlayers> scores{};  // totals, or victory tiles (K4.3)
    LastCall last_call{};
    uint64_t seed = 0;  // shuffles of the rounds to come

    int players() const noexcept { return config.players; }
    int dealer() const noexcept { return round % config.players; }  // K10.1
    int deck_count() const noexcept { return config.deck_size - deck_next; }
    bool is_terminal() const noexcept { return phase == Phase::GameOver; }
    int current_player() const noexcept { return is_terminal() ? kTerminal : kSimultaneous; }
    /// The table line as cards.
    std::vector<Card> table_cards() const;
};

/// A new game; round r is dealt from `deals[r]` if given and not empty, else shuffled
/// from `seed`.
Position new_game(const Config& config, const Lexicon& lexicon, uint64_t seed,
                  const std::vector<Deal>* deals = nullptr);
/// Checks that `deal` holds every card of the deck once; throws StateFormatError.
void check_deal(const Config& config, const Deal& deal);
/// Replaces the current round's deal (given deals for later rounds). Only before the
/// round's first move.
void redeal(Position& state, const Deal& deal);

/// Legal moves of `player` (K9): reveal (the dealer, while cards remain), every valid
/// claim on the table in word order (bare words: the best assignment; with `name_cards`
/// each names the table positions of its best assignment, K3.4), pass; during a penalty
/// only take@i for the seat at its head (K10.2). Empty at game over. Without `claims`,
/// every legal move but the claims, cheaply (the word finder does not run): what a
/// frontend offers as controls while a call is typed and checked on arrival (K10.3).
std::vector<Move> legal_moves(const Position& state, int player, bool name_cards = false, bool claims = true);
/// What a call would be (K3.3, K10.8): the reason it fails, or its match.
Check evaluate_call(const Position& state, const Move& claim);
/// Applies a move after checking it; throws IllegalMoveError and changes nothing.
/// Returns the move as applied: a valid claim names the positions it took.
Move apply(Position& state, const Move& move, int player);

/// Seats with the highest total (standard), or with the most tiles (K4.3).
std::vector<int> winners(const Position& state);
/// Whether some valid word can be formed from the table (K3.7).
bool any_word(const Position& state);

/// Determinisation (K5.1): the deck order is unknown to everyone, and so are the cards
/// drawn blind into piles; they are shuffled together and dealt back. The same for
/// every player.
Position resample(const Position& state, uint64_t seed);

/// What is inconsistent (card conservation, counts, phase), or an empty string.
std::string check_invariants(const Position& state);

/// Number of floats in observation_tensor for this configuration.
int observation_tensor_size(const Config& config) noexcept;

// ---- the game and the record a frontend keeps ------------------------------------------------

/// A game: validated options (part of every Position), the lexicon calls are checked
/// against, and the deck's language. A value: copies share the lexicon, which lives as
/// long as any of them.
struct Game {
    Config config{};
    std::shared_ptr<const Lexicon> lexicon;
    std::string deck_language;

    /// Validates `options` (OptionError naming the option); `lexicon` must not be null.
    static Game make(const Options& options, std::shared_ptr<const Lexicon> lexicon);
    /// The deck: kinds in the order of Config (letters A-Z, double letters, `?`, `??`).
    Deck deck() const;
    /// Number of action ids: kFirstClaimAction + the lexicon's words.
    int num_actions() const noexcept;
    /// Equal options, deck language and lexicon (the same words, by fingerprint).
    friend bool operator==(const Game& a, const Game& b) noexcept;
};

using Step = diabolo::Step<Move>;

/// A state with the moves that led to it (every move is public), and the given deals
/// of later rounds: what the Python KniziaState wraps, and what a C++ frontend keeps.
/// The position's lexicon pointer is the game's lexicon, which the state keeps alive.
struct State : Record<Position, Move, kMaxPlayers> {
    Game game;
    std::vector<Deal> deals;  // given deals of rounds 0, 1, ... (empty: shuffled; may be fewer than the rounds)

    static State start(const Game& game, uint64_t seed, const std::vector<Deal>* deals = nullptr);
    /// Checked move of `player`; records it as applied and returns it (a valid claim
    /// names its cards). Throws IllegalMoveError and changes nothing if illegal.
    Move apply(const Move& move, int player);
    /// check_invariants of the state, then the history; empty if consistent.
    std::string check() const;
    /// Determinisation of the position for `player` (the same for every player: nobody sees
    /// what it deals anew); the history is kept.
    State resample(int player, uint64_t seed) const;
    /// The events of the last move applied here, in order (docs/frontend.rst): none for a
    /// new state or one read from JSON.
    Events last_events() const;
};

// ---- JSON (src/knizia/json.cpp; docs/games/knizia.rst, "Observations" and "Saving a game") ---

/// Every option: players, rounds (null in the victory-tiles variant), min_cards, variant,
/// handicap, stale_calls, lexicon ({"language", "words": count, "fingerprint"}) and deck.
json::Value options_json(const Game& game);
/// The game of `options` (the keys of options_json; "deck" is required). The lexicon is
/// `lexicon`, or, if that is null, the option "lexicon" given as a list of words; a
/// "lexicon" object (as options_json writes it) must name `lexicon`'s fingerprint.
/// OptionError naming the option otherwise.
Game game_from_json(const json::Value& options, std::shared_ptr<const Lexicon> lexicon);
/// A deck file's JSON and back (K10.7): OptionError naming what is wrong.
json::Value deck_json(const Deck& deck);
Deck deck_from_json(const json::Value& value);
/// Writes what `player` may know (K8, K10.6) into `out`: the keys of the rules page
/// (out.value() is the view as a JSON value). Without `claims`, "legal" and
/// "legal_moves" leave out the claims (legal_moves above).
void observation(const Position& position, int player, json::Tape& out, bool claims = true);
/// Writes what a spectator may know: observation() without "legal", "player" null (K5.1).
void public_observation(const Position& position, json::Tape& out);
/// Who may see each observation key, move kind and event type (docs/frontend.rst).
json::Value visibility();
/// Parts of every seat's view: the table line in notation (K8), and the round's last call
/// as {"seat", "word", "valid", "reason"} or null (K10.6).
json::Value table_json(const Position& position);
json::Value last_call_json(const Position& position);
/// A move as data: {"kind": "reveal"}, {"kind": "pass"}, {"kind": "take", "position": 5},
/// {"kind": "claim", "word": "POST", "cards": [3, 7, 9, 2] or null}; NotationError back.
json::Value move_json(const Move& move);
Move move_from_json(const json::Value& value);

const char* phase_name(Phase phase) noexcept;
const char* kind_name(MoveKind kind) noexcept;
const char* variant_name(Variant variant) noexcept;
const char* stale_calls_name(StaleCalls stale_calls) noexcept;

// ---- bots and simulation (diabolo::realtime) -------------------------------------------------

/// Kinds of action with their own reaction time. A claim also takes a time per letter.
constexpr int kReactionKinds = 4;
constexpr const char* kReactionKindNames[kReactionKinds] = {"reveal", "claim", "take", "pass"};
int reaction_kind(const Move& move) noexcept;
/// A quick human: reveals a card a second, finds a word in about 1.2 s plus 0.3 s a letter.
realtime::Reaction default_reaction() noexcept;
constexpr double kDefaultPerLetter = 0.3;

/// A bot: picks a move for `player` (or nothing, to wait for the table to change).
/// `choose` is const and draws only from `rng`, so one bot can serve many games at once.
class Bot {
public:
    Bot(realtime::Reaction reaction, double per_letter)
        : reaction_(reaction), per_letter_(realtime::microseconds(per_letter)) {}
    virtual ~Bot() = default;
    virtual std::optional<Move> choose(const Position& state, int player, Pcg32& rng) const = 0;
    const realtime::Reaction& reaction() const noexcept { return reaction_; }
    double per_letter() const noexcept { return static_cast<double>(per_letter_) / 1e6; }
    /// Microseconds until `move` arrives: the delay of its kind, plus per_letter for
    /// every letter of a called word (K6.3).
    int64_t reaction_time(const Move& move, Pcg32& rng) const noexcept;

private:
    realtime::Reaction reaction_;
    int64_t per_letter_;
};

/// Any legal move, uniformly at random.
class RandomBot : public Bot {
public:
    using Bot::Bot;
    std::optional<Move> choose(const Position& state, int player, Pcg32& rng) const override;
};

/// What a WordBot knows (K6.3): words of its vocabulary (the game's lexicon if none),
/// of at most max_length letters, and of those only a share `coverage` (each word is
/// known or not by a fixed hash of the word and `memory`, so a bot is consistent).
struct Vocabulary {
    std::shared_ptr<const Lexicon> words;  // null: the game's lexicon
    int max_length = kMaxWord;
    double coverage = 1.0;
    uint64_t memory = 0;
    /// Whether the bot knows `word`, a word of its list (`words`, else the game's lexicon):
    /// it is short enough and falls in the bot's share.
    bool knows(std::string_view word) const noexcept;
};

/// OptionError unless a bot's per_letter (seconds, 0..60) and vocabulary (max_length
/// 1..kMaxWord, coverage in [0, 1]) are in range: what every way of making a bot checks.
void check_bot_options(double per_letter, const Vocabulary& vocabulary);

/// Calls the longest word it knows on the table (most cards, K4.1); the dealer reveals
/// when it knows no word; once the deck is empty it passes; during a penalty it takes
/// the most versatile card: a double joker, a joker, a double letter, else the first.
/// With `lookahead` it weighs each word it could call (the sixteen with most cards) by the
/// cards it takes, minus part of its length (a longer call arrives later, K6.3) and part
/// of the longest word the others could then form from what is left.
class WordBot : public Bot {
public:
    WordBot(realtime::Reaction reaction, double per_letter, Vocabulary vocabulary, bool lookahead = false)
        : Bot(reaction, per_letter), vocabulary_(std::move(vocabulary)), lookahead_(lookahead) {}
    std::optional<Move> choose(const Position& state, int player, Pcg32& rng) const override;
    const Vocabulary& vocabulary() const noexcept { return vocabulary_; }
    bool lookahead() const noexcept { return lookahead_; }

private:
    Vocabulary vocabulary_;
    bool lookahead_;
};

/// Plans its call by playing the race out (K3.2, K3.5, K6.3): for each move it could
/// make now (the lookahead's choice, the claims with most cards, the shortest claims,
/// a reveal as dealer, or waiting) it simulates the next `horizon` seconds in `worlds`
/// deals of the unseen deck (resample, K5.1), every seat played by a lookahead WordBot
/// (its own later moves over its vocabulary, the others' over the whole lexicon) with
/// reaction times drawn as the real ones are; it makes the move after which its cards
/// lead the best other seat's by most on average (a victory tile, K4.3, counts ten
/// cards). Every move is weighed in the same deals and reaction times. Its own budget
/// is `worlds`, not a clock, so a seed gives the same game on every machine.
class SearchBot : public Bot {
public:
    SearchBot(realtime::Reaction reaction, double per_letter, Vocabulary vocabulary, int worlds, double horizon);
    std::optional<Move> choose(const Position& state, int player, Pcg32& rng) const override;
    const Vocabulary& vocabulary() const noexcept { return own_.vocabulary(); }
    int worlds() const noexcept { return worlds_; }
    double horizon() const noexcept { return static_cast<double>(horizon_) / 1e6; }

private:
    std::vector<std::optional<Move>> candidates(const Position& state, int player, Pcg32& rng) const;

    WordBot own_;     // its own later moves in a simulation
    WordBot others_;  // every other seat's
    int worlds_;
    int64_t horizon_;  // microseconds
};

constexpr int kDefaultSearchWorlds = 16;
constexpr double kDefaultSearchHorizon = 4.0;  // seconds
/// The bounds of the search's options (realtime::check_search_budget).
constexpr int kMaxSearchWorlds = 64;
constexpr double kMaxSearchHorizon = 10.0;  // seconds

/// The contract (core/contract.hpp). There are no turns (K3.2): current_player is
/// kSimultaneous until the game is over, and random playouts draw the acting seat among
/// pending_seats.
struct Rules {
    using Game = knizia::Game;
    using Position = knizia::Position;
    using State = knizia::State;
    using Move = knizia::Move;
    static constexpr const char* kName = "knizia";
    static constexpr const char* kNotationClause = "K7";  // the clause of the notation: NotationError names it

    /// The lexicon is the option "lexicon" as a list of words here; a caller with a loaded
    /// lexicon uses knizia::game_from_json(options, lexicon).
    static Game game_from_json(const json::Value& options) { return knizia::game_from_json(options, nullptr); }
    /// A game with its word list given apart from its options (kInfo.lexicon).
    static Game game_from_json(const json::Value& options, std::shared_ptr<const Lexicon> lexicon) {
        return knizia::game_from_json(options, std::move(lexicon));
    }
    static json::Value options_json(const Game& game);
    static int num_actions(const Game& game) noexcept { return game.num_actions(); }
    static int players(const Game& game) noexcept { return game.config.players; }
    static State new_state(const Game& game, uint64_t seed) { return State::start(game, seed); }
    static State new_dealt_state(const Game& game, uint64_t seed, const json::Value& deal);
    static const Position& position(const State& state) noexcept { return state.position; }
    static const Game& game(const State& state) noexcept { return state.game; }
    static const char* phase(const Position& position) noexcept { return phase_name(position.phase); }
    static int round(const Position& position) noexcept { return position.round; }
    /// A text picture of the table.
    static std::string render(const Position& position);
    static int current_player(const Position& position) noexcept { return position.current_player(); }
    /// The action ids of legal_moves(state, player), ascending (a claim's id comes from the
    /// word finder, without looking the word up again).
    static std::vector<int> legal_actions(const Position& position, int player);
    /// The same into `out`, which has room for them (num_actions ids always do); returns how many.
    static int legal_actions(const Position& position, int player, int32_t* out);
    static Move move_of_action(const Game& game, int action) {
        return with_notation_clause(kNotationClause, [&] { return knizia::move_of_action(action, *game.lexicon); });
    }
    /// Why `move` by `player` may not be applied now (clause and message), or nullopt. An
    /// invalid call is a legal move (it draws the penalty) unless stale_calls is Reject.
    static std::optional<IllegalMoveError> why_illegal(const Position& position, const Move& move, int player);
    static Move apply(State& state, const Move& move, int player) { return state.apply(move, player); }
    /// A claim's id is applied with its best assignment (K10.4), found again here.
    /// A move resolved and applied if legal (a lost race otherwise, D3.10 / K3.2).
    static std::optional<Move> try_apply(Position& position, const Move& move, int player) noexcept;
    static void apply_action(Position& position, int action, int player) {
        knizia::apply(position, knizia::move_of_action(action, *position.lexicon), player);
    }
    /// Nobody sees the deck or the blind draws (K5.1): the same for every player.
    static Position resample(const Position& position, int, uint64_t seed) { return knizia::resample(position, seed); }
    static int observation_tensor_size(const Game& game) noexcept {
        return knizia::observation_tensor_size(game.config);
    }
    /// Writes what `player` may know (K5.1, K8) into out[0 .. observation_tensor_size);
    /// seats appear relative to `player` (block 0 is the player).
    static void observation_tensor(const Position& position, int player, float* out) noexcept;
    /// The same tensor as bytes, each entry scaled to 0..255 between its bounds (TensorWriter).
    static void observation_bytes(const Position& position, int player, uint8_t* out) noexcept;
    static void observation(const Position& position, int player, json::Tape& out);
    static void public_observation(const Position& position, json::Tape& out);
    static json::Value visibility();
    static Events last_events(const State& state);
    /// The whole state as JSON text, and back for the game `game` (StateFormatError naming
    /// the path of what is wrong, or that the options differ from the game's).
    static std::string to_json(const State& state);
    static State state_from_json(const Game& game, std::string_view text);
    /// Notation (K7): "reveal", "pass", "take@5", "LAGER", "POST@3,7,9". A called word is
    /// normalised (K10.8); the keywords are lower case, so write words in capitals.
    static std::string format_move(const Move& move);
    static Move parse_move(std::string_view text) {
        return with_notation_clause(kNotationClause, [&] { return knizia::parse_move(text); });
    }
    static const char* move_kind(const Move& move) noexcept { return kind_name(move.kind); }
    static json::Value move_json(const Move& move);
    static Move move_from_json(const json::Value& data) {
        return with_notation_clause(kNotationClause, [&] { return knizia::move_from_json(data); });
    }
    /// A pending seat drawn uniformly from `rng`; -1 at game over.
    static int random_player(const Position& position, Pcg32& rng) noexcept;
    static void scores(const Position& position, int32_t* out) noexcept {
        copy_seats(position.scores, position.players(), out);
    }
    /// The seats that may act now, one bit each: every seat while the round is played (each
    /// may pass or call at any time, K3.2, K10.5), the seat at the head of a penalty (K10.2);
    /// none at game over.
    static uint32_t pending_seats(const Position& position) noexcept;
    static constexpr bool kZeroSum = false;  // scores are points of each seat's own: general-sum
    static constexpr bool kRealTime = true;  // everyone plays at once (K3.2)
    /// The compact action space for learners (docs/ai.rst, "The word game for learners"),
    /// whose ids are kFirstClaimAction + claims: the ids below kFirstClaimAction as they
    /// are (reveal, pass, take@i), then `claims` entries for the legal claims ranked, the
    /// longest words first (a card is a point, K4.1), then in word order.
    static int compact_actions(const Game&, int claims) noexcept { return kFirstClaimAction + claims; }
    /// From the legal action ids `legal[0 .. count)` (ascending), the engine's id that each
    /// compact id stands for now into view[0 .. compact_actions(game, claims)), -1 where none.
    static void compact_view(const Game& game, const int32_t* legal, int count, int claims, int32_t* view);
    /// The game's entry in the catalogue (core/catalogue.hpp).
    static constexpr GameInfo kInfo{kName,
                                    "Diabolo (Knizia)",
                                    kMinPlayers,
                                    kMaxPlayers,
                                    kMinPlayers,
                                    kMaxPlayers,
                                    kRealTime,
                                    true,
                                    "lookahead,random,search,word",
                                    "lexicon",
                                    "word"};

    // ---- bots: one factory, one way to ask any bot ----
    using Bot = knizia::Bot;
    /// A bot by kind (kInfo.bots) with its options as JSON, checked as the Python classes
    /// check theirs; OptionError names the kinds or the option.
    static std::unique_ptr<const Bot> make_bot(const Game& game, std::string_view kind, const json::Value& options);
    /// What `bot` plays for `player` now: nothing while it waits for the table to change.
    static std::optional<Move> bot_move(const Bot& bot, const Position& position, int player, Pcg32& rng) {
        return bot.choose(position, player, rng);
    }
    /// Microseconds until the bot's `move` arrives (its reaction time, K6.3).
    static int64_t bot_delay(const Bot& bot, const Move& move, Pcg32& rng) noexcept {
        return bot.reaction_time(move, rng);
    }
    /// A claim's id is its word's (the best assignment of cards).
    static int32_t action_of(const Game& game, const Move& move) { return knizia::action_of(move, *game.lexicon); }
    static int64_t max_game_length(const Game& game) noexcept;
    static int64_t min_utility(const Game& game) noexcept;
    static int64_t max_utility(const Game& game) noexcept;
    /// The lowest and highest value of every entry of observation_tensor, into low[] and high[].
    static void observation_tensor_bounds(const Game& game, float* low, float* high);
    static void rewards(const State& state, int32_t* out) noexcept {
        copy_seats(state.rewards, players(game(state)), out);
    }
};

}  // namespace diabolo::knizia
