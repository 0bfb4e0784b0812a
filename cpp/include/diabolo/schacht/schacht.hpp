// Diabolo (Michael Schacht, 2006): the rules engine. Clause numbers (S3.2)
// refer to docs/games/schacht.rst.
//
// Cards live in a CardSet with a fixed layout: each of the 25 card kinds
// (colour x value) owns 5 consecutive slots, and a set holding k copies of a
// kind has the lowest k slots of its group set (thermometer code). Sets are
// therefore canonical, "which kinds are held" is one AND with kKindFirstSlots,
// and a colour is one 25-slot range.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diabolo/core/cardset.hpp"
#include "diabolo/core/contract.hpp"
#include "diabolo/core/errors.hpp"
#include "diabolo/core/json_fwd.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/core/record.hpp"
#include "diabolo/core/rng.hpp"
#include "diabolo/core/scores.hpp"

namespace diabolo::schacht {

constexpr int kColours = 5;  // S1.2, layout order
constexpr int kValues = 5;   // values 1..5
constexpr int kKinds = kColours * kValues;
constexpr int kMaxCopies = 5;  // slots per kind
constexpr int kSlotsPerColour = kValues * kMaxCopies;
constexpr int kRowCards = 5;                     // S3.1
constexpr int kSideCards = 3;                    // S3.2
constexpr int kHandSize = 6;                     // S2.1
constexpr int kMinPlayers = 3, kMaxPlayers = 5;  // S1.1
constexpr int kMinPlayersRelaxed = 2, kMaxSeats = 8;
constexpr int kMaxRounds = 32;
constexpr int kMaxDeck = kKinds * kMaxCopies;

constexpr char kColourLetters[kColours + 1] = "RYGPB";
constexpr const char* kColourNames[kColours] = {"red", "yellow", "green", "purple", "blue"};

enum class Side : uint8_t { Left = 0, Right = 1 };  // Left: devil side, Right: angel side
enum class Phase : uint8_t { Play = 0, Doubler = 1, GameOver = 2 };
enum class MoveKind : uint8_t { Place = 0, Discard = 1, Bet = 2, Hold = 3 };

/// A card kind: colour 0..4 (layout order), value 1..5.
struct Card {
    uint8_t kind = 0;  // colour * 5 + (value - 1)
    static constexpr Card of(int colour, int value) noexcept {
        return Card{static_cast<uint8_t>(colour * kValues + value - 1)};
    }
    constexpr int colour() const noexcept { return kind / kValues; }
    constexpr int value() const noexcept { return kind % kValues + 1; }
    friend constexpr bool operator==(Card a, Card b) noexcept { return a.kind == b.kind; }
    friend constexpr bool operator!=(Card a, Card b) noexcept { return a.kind != b.kind; }
};

/// Action ids, stable across versions:
///   0..49   place: card.kind * 2 + side        (S2.3)
///   50..74  discard: 50 + card.kind            (S3.3)
///   75      bet the doubler, 76 hold it        (S5.3)
constexpr int kDiscardBase = 2 * kKinds;
constexpr int kBetAction = kDiscardBase + kKinds;
constexpr int kHoldAction = kBetAction + 1;
constexpr int kNumActions = kHoldAction + 1;

// Four bytes, not three: a 3-byte struct returned in a register is stored byte by byte
// and read back as a word, which stalls every caller that keeps one (a state's history).
struct alignas(4) Move {
    MoveKind kind = MoveKind::Place;
    Card card{};             // Place and Discard only
    Side side = Side::Left;  // Place only

    static constexpr Move place(Card c, Side s) noexcept { return Move{MoveKind::Place, c, s}; }
    static constexpr Move discard(Card c) noexcept { return Move{MoveKind::Discard, c, Side::Left}; }
    static constexpr Move bet() noexcept { return Move{MoveKind::Bet, Card{}, Side::Left}; }
    static constexpr Move hold() noexcept { return Move{MoveKind::Hold, Card{}, Side::Left}; }

    constexpr int action() const noexcept {
        switch (kind) {
            case MoveKind::Place: return card.kind * 2 + static_cast<int>(side);
            case MoveKind::Discard: return kDiscardBase + card.kind;
            case MoveKind::Bet: return kBetAction;
            case MoveKind::Hold: return kHoldAction;
        }
        return -1;
    }
    /// The move of an action id in [0, kNumActions) (unchecked: for search loops).
    static constexpr Move of_action(int action) noexcept {
        if (action < kDiscardBase) return place(Card{static_cast<uint8_t>(action / 2)}, static_cast<Side>(action % 2));
        if (action < kBetAction) return discard(Card{static_cast<uint8_t>(action - kDiscardBase)});
        return action == kBetAction ? bet() : hold();
    }
    /// The move of an action id; throws NotationError when the id is out of range.
    static Move from_action(int action);

    friend constexpr bool operator==(const Move& a, const Move& b) noexcept { return a.action() == b.action(); }
    friend constexpr bool operator!=(const Move& a, const Move& b) noexcept { return !(a == b); }
};

/// Rule options (S1.1, S1.3, S4.1, S6.1). Zero means "the default for this player count".
struct Options {
    int players = 4;
    int rounds = 0;                                        // default: as many rounds as players (S6.1)
    int rows_to_end = 0;                                   // default: 2 rows, 3 with 5 or more players (S4.1)
    std::array<int, kValues> value_counts{4, 3, 3, 2, 2};  // copies of each value per colour (S1.3)
    bool strict_players = true;                            // false allows 2..8 players for experiments (S1.1)
};

/// Validated options with the defaults filled in; part of every state.
struct Game {
    uint8_t players = 4;
    uint8_t rounds = 4;
    uint8_t rows_to_end = 2;
    uint8_t strict_players = 1;
    std::array<uint8_t, kValues> value_counts{4, 3, 3, 2, 2};

    /// Validates options; throws OptionError naming the option and the allowed values.
    static Game from_options(const Options& options);
    Options to_options() const noexcept;
    int deck_size() const noexcept;
    /// Every card of the deck, one slot per copy.
    CardSet full_deck() const noexcept;
    friend bool operator==(const Game& a, const Game& b) noexcept;
};

struct Row {
    std::array<uint8_t, kSideCards> left{};  // values in the order placed
    std::array<uint8_t, kSideCards> right{};
    uint8_t left_count = 0;
    uint8_t right_count = 0;
    int size() const noexcept { return left_count + right_count; }
    bool closed() const noexcept { return size() >= kRowCards; }  // S3.1
    int devil_sum() const noexcept;                               // S5.2
    int angel_sum() const noexcept;
};

/// One turn of the round's record: who placed or discarded what (S7.1: public at the table).
struct Turn {
    uint8_t seat = 0;
    uint8_t action = 0;  // a place or discard action id
};

/// The whole state of a game: a trivially copyable value (clone = memcpy).
struct Position {
    Game game{};
    Phase phase = Phase::Play;
    int8_t current_player = 0;  // seat, kSimultaneous or kTerminal
    uint8_t round = 0;
    uint8_t dealer = 0;
    int8_t scoring_colour = -1;     // colour being decided in the doubler phase
    uint8_t revealed_colours = 0;   // bit c: hands of colour c revealed at this round's scoring
    uint8_t doubler_available = 0;  // bit s: seat s still holds its doubler (S5.7)
    uint8_t decided = 0;            // doubler phase: seats that have decided
    uint8_t bets = 0;               // doubler phase: seats that bet (secret until all decided)
    uint8_t pile_next = 0;          // draw pile is pile[pile_next .. pile_end)
    uint8_t pile_end = 0;
    std::array<uint8_t, kMaxDeck> pile{};  // card kinds in draw order
    std::array<CardSet, kMaxSeats> hands{};
    std::array<CardSet, kMaxSeats> shown{};      // S3.3: shown and still in hand
    std::array<CardSet, kMaxSeats> discarded{};  // S3.3: discarded this round
    std::array<Row, kColours> rows{};
    std::array<int16_t, kMaxSeats> scores{};  // game totals
    uint64_t seed = 0;                        // shuffles of the rounds to come
    // This round's placements and discards in the order made (S7.1). Every card in the
    // rows or discarded this round has its turn here, or none has: a state loaded from
    // JSON whose history does not hold the round keeps no record (round_record_known).
    std::array<Turn, kMaxDeck> turns{};
    uint8_t turn_count = 0;

    int players() const noexcept { return game.players; }
    int pile_size() const noexcept { return pile_end - pile_next; }
    bool is_terminal() const noexcept { return phase == Phase::GameOver; }
    int closed_rows() const noexcept;
    /// Cards placed or discarded this round: as many as the round's turns so far.
    int cards_played() const noexcept;
    /// Whether `turns` holds the whole round so far (always, unless loaded without it).
    bool round_record_known() const noexcept { return turn_count == cards_played(); }
};

// ---- card sets in the fixed layout -------------------------------------------------

// Inline: the deal, the moves and the scoring call these for every card.

/// Number of copies of `card` in `set`.
inline int count_of(CardSet set, Card card) noexcept {
    // A group holds its copies in its lowest slots (2^k - 1), so k = log2(group + 1).
    return lowest_bit64(set.bits(card.kind * kMaxCopies, kMaxCopies) + 1);
}
/// Adds one copy of `card`; the group must have room.
inline void add_card(CardSet& set, Card card) noexcept { set.set(card.kind * kMaxCopies + count_of(set, card)); }
/// Removes one copy of `card`; the set must hold it.
inline void remove_card(CardSet& set, Card card) noexcept {
    set.reset(card.kind * kMaxCopies + count_of(set, card) - 1);
}
/// The slots of colour c.
CardSet colour_mask(int colour) noexcept;
/// The first slot of every kind held: one bit per distinct card.
CardSet kinds_held(CardSet set) noexcept;
/// Sum of the values of the cards of `colour` in `set` (S5.3).
int colour_sum(CardSet set, int colour) noexcept;
/// colour_sum of every colour at once, by one pass over the set's cards (quicker for a hand).
std::array<int, kColours> colour_sums(CardSet set) noexcept;
/// Cards of `set` sorted by colour (layout order) then value, one entry per copy.
std::vector<Card> cards_of(CardSet set);

// ---- notation (S8) ------------------------------------------------------------------

/// Writes the card's notation, its two characters ("G5"), at `out`; format_card and the
/// state JSON's writer share it.
inline void write_card_notation(Card card, char* out) noexcept {
    out[0] = kColourLetters[card.colour()];
    out[1] = static_cast<char>('0' + card.value());
}
std::string format_card(Card card);
/// Parses "G5"; throws NotationError.
Card parse_card(std::string_view text);
/// Parses "G5<", "P2>", "xG5", "bet", "hold"; throws NotationError.
Move parse_move(std::string_view text);

// ---- the rules ----------------------------------------------------------------------

/// A new game; round 0 dealt from `deck` (S2.4) if given, else shuffled from `seed`.
Position new_game(const Game& game, uint64_t seed, const std::vector<Card>* deck = nullptr);
/// Checks that `deck` is exactly the configured deck; throws StateFormatError naming the problem.
void check_deck(const Game& game, const std::vector<Card>& deck);
/// Replaces the current round's deal by `deck` (given deals for later rounds, S2.4). Only
/// allowed before the round's first move: hands, pile and the first draw are redone.
void redeal(Position& state, const std::vector<Card>& deck);

std::vector<Move> legal_moves(const Position& state, int player);
bool is_legal(const Position& state, const Move& move, int player) noexcept;

/// Applies a legal move; the caller guarantees legality (fast path for search).
void apply_unchecked(Position& state, const Move& move, int player) noexcept;
/// Applies a move after checking it; throws IllegalMoveError and leaves `state` unchanged.
void apply(Position& state, const Move& move, int player);

/// The seat that acts for a move: `player` if given (checked to be a seat, PlayerError),
/// else the player to move (PlayerError while decisions are simultaneous; IllegalMoveError
/// at game over).
int acting_player(const Position& state, std::optional<int> player);

/// Cards publicly known to be in `seat`'s hand (shown under S3.3 or revealed at scoring).
CardSet known_cards(const Position& state, int seat) noexcept;

/// Checks every invariant (card conservation, limits, phase consistency); returns an
/// empty string when the state is consistent, else what is wrong.
std::string check_invariants(const Position& state);

/// Seats with the highest total (S6.2); all seats share a tie.
std::vector<int> winners(const Position& state);

// ---- the record a frontend keeps --------------------------------------------------

using Step = diabolo::Step<Move>;

/// A state with the moves that led to it and the given deals of the rounds still to
/// come (S2.4): what the Python Position wraps, and what a C++ frontend keeps.
struct State : Record<Position, Move, kMaxSeats> {
    std::vector<std::vector<Card>> decks;  // given deal per round; empty entries are shuffled

    /// A new game: round r dealt from decks[r] where given, else shuffled from `seed`.
    static State start(const Game& game, uint64_t seed, std::vector<std::vector<Card>> decks);
    /// Checked move (see apply); records it and deals a given deck when a round begins.
    void apply(const Move& move, std::optional<int> player);
    /// What is inconsistent (check_invariants, then the history's last doubler
    /// decisions against the state), or an empty string.
    std::string check() const;
    /// Sets the position's record of this round's turns from the history, whose last
    /// placements and discards they are, or leaves none when those do not make this
    /// round's rows and discards (a state written without its history).
    void recall_turns() noexcept;
    /// Determinisation of the whole record for `player`: resample() of the state, the
    /// history without other players' undisclosed doubler decisions, no future deals.
    State resample(int player, uint64_t seed) const;
    /// The events of the last move applied here, in order (docs/frontend.rst): none for a
    /// new state or one read from JSON.
    Events last_events() const;
};

// ---- views and JSON (docs/games/schacht.rst) --------------------------------------------

/// The options with their values, defaults filled in: {"players": 4, "rounds": 4, ...}.
json::Value options_json(const Game& game);
/// The state of the text to_json wrote; StateFormatError naming the path of what is
/// wrong, or the invariant an impossible state breaks.
State state_from_json(std::string_view text);
/// A move as data: {"kind": "place", "card": "G5", "side": "left"}, {"kind": "discard",
/// "card": "G5"}, {"kind": "bet"} or {"kind": "hold"} (S8).
json::Value move_json(const Move& move);
/// The names of the phases and of the kinds of move, as views, states and move data
/// write them.
const char* phase_name(Phase phase) noexcept;
const char* kind_name(MoveKind kind) noexcept;
/// The move of such data; NotationError naming what is wrong.
Move move_from_json(const json::Value& data);
/// Writes what `player` may know (S7.4) into `out`: its hand, the public table and its
/// legal moves (out.value() is the view as a JSON value).
void observation(const Position& position, int player, json::Tape& out);
/// Writes what a spectator may know (S7.1): the keys of observation() that are public,
/// with "player" null.
void public_observation(const Position& position, json::Tape& out);
/// Who may see each observation key, move kind and event type (docs/frontend.rst).
json::Value visibility();

// ---- observation tensor ---------------------------------------------------------------

/// The lowest and highest score of a seat in one round (S5): when a round is scored a hand
/// holds at most 6 cards (S2.3) of value 5 at most, all scored as minus points (S5.4), or
/// as plus points with the doubler on one colour (S5.3).
constexpr int kMinRoundScore = -6 * kValues;
constexpr int kMaxRoundScore = 2 * 6 * kValues;

// ---- bots and search ----------------------------------------------------------------

/// The seat whose decision a bot or search takes next: the player to move, or during
/// simultaneous doubler decisions the lowest seat still to decide; -1 at game over.
int next_actor(const Position& state) noexcept;

/// A bot: picks a legal move for `player`, who must have one. It reads only what
/// `player` may know (its hand, the public table, resample() of the state), and draws
/// only from `rng`: `choose` is const, so one bot can play many games at once.
class Bot {
public:
    virtual ~Bot() = default;
    virtual Move choose(const Position& state, int player, Pcg32& rng) const = 0;
};

/// Any legal move, uniformly at random.
class RandomBot : public Bot {
public:
    Move choose(const Position& state, int player, Pcg32& rng) const override;
};

/// The constants of the heuristic's evaluation. The defaults are the `heuristic` bot's.
struct HeuristicWeights {
    double rival_factor = 1.15;  // how much the best other seat's expected hand sum is inflated
    double lead_offset = 0.5;    // a hand sum must beat the others' by this much to lead
    double lead_scale = 2.0;     // the spread of the logistic chance of leading a colour
    double sign_scale = 3.0;     // an open row's balance b counts as tanh(b / sign_scale) of its sign
    double theirs = 0.5;         // the weight of what the leading other seat gains
    double doubler = 0.5;        // the worth of a doubler held, per point of the best positive colour
    double bet_threshold = 0.5;  // the least chance of leading the colour that a bet needs (S5.3)
};

/// Plays the colour-steering game by a one-move look-ahead over an estimate of each
/// colour's outcome: it keeps the colours it is long in positive (angel side) and pushes
/// the colours others lead negative (devil side), discards what hurts least, and bets
/// its doubler on the positive colour it most likely leads with the largest sum.
class HeuristicBot : public Bot {
public:
    explicit HeuristicBot(const HeuristicWeights& weights = {});
    Move choose(const Position& state, int player, Pcg32& rng) const override;
    /// The value of each legal move of `player`, in action-id order (from what `player`
    /// knows; higher is better).
    std::vector<double> move_values(const Position& state, int player) const;
    /// The same without allocating, for search loops: the legal actions of `player` into
    /// `actions` and their values into `values`; returns how many.
    int move_values(const Position& state, int player, std::array<uint8_t, kNumActions>& actions,
                    std::array<double, kNumActions>& values) const noexcept;

private:
    HeuristicWeights weights_;
    std::array<double, 2 * kSideCards * kValues + 1> soft_sign_{};  // tanh(b / sign_scale), b = -15..15
};

/// Features of a move for a learned evaluation: what the move changes in the heuristic's
/// estimate of its colour, under the heuristic's constants and under sharper ones (a larger
/// rival factor, a steeper soft sign), and what kind of move it is; for a doubler
/// decision (S5.3), what the bet is likely worth. Every feature reads only what the seat
/// knows (S7). Entries: 0-1 the change of the seat's own expected gain (default, sharp),
/// 2-3 of the leading other seat's, 4 of the best positive colour's gain with a doubler
/// held, 5 a discard, 6 a discard's value / 5, 7 a card on the angel side, 8 a card that
/// closes its row, 9 that times the row's final sign, 10 the chance of leading the colour,
/// signed by the side, 11 the card's value / 5; a bet: 12 one, 13 the chance of leading the
/// colour scored, 14 that times its sum / 15, 15 the best such gain of a positive colour
/// still to score / 15, 16 whether the heuristic bets. The hold and the moves not legal now
/// have all zeros.
constexpr int kMoveFeatures = 17;

/// Writes the features of every action of `player` into
/// out[action * kMoveFeatures .. + kMoveFeatures), kNumActions rows.
void move_features(const Position& state, int player, float* out) noexcept;

/// The weights of the learned bot's features (a move's value is their dot product).
using LearnedWeights = std::array<double, kMoveFeatures>;

/// The weights trained by self-play through the vector env (examples/train_learned.py).
extern const LearnedWeights kLearnedWeights;

/// Weights from JSON: a list of kMoveFeatures numbers in -1e6..1e6; OptionError naming the
/// entry otherwise.
LearnedWeights learned_weights(const json::Value& value);

/// Plays the legal move whose features (move_features) have the largest dot product with
/// its weights; ties keep the lowest action id.
class LearnedBot : public Bot {
public:
    explicit LearnedBot(const LearnedWeights& weights = kLearnedWeights) : weights_(weights) {}
    Move choose(const Position& state, int player, Pcg32& rng) const override;
    const LearnedWeights& weights() const noexcept { return weights_; }

private:
    LearnedWeights weights_;
};

/// Options of the information-set Monte Carlo search (ismcts()).
struct SearchOptions {
    int iterations = 1000;           // rollouts in all, over the threads, unless `seconds` is set
    double seconds = 0.0;            // > 0: a time budget instead of `iterations`
    int threads = 1;                 // flat: worlds shared out; tree: one tree per thread, merged at the root
    double exploration = 0.5;        // tree: the UCB constant (rewards lie in [-1, 1])
    bool heuristic_rollouts = true;  // play rollouts with the heuristic, else at random
    double prior = 1.0;              // tree: weight of the heuristic's ranking of the root moves (progressive bias)
    bool tree = false;               // false: the flat search (sequential halving); true: the ISMCTS tree
    bool belief = true;              // deal the others' hands by what their moves this round say (ismcts.cpp)
};

/// Throws OptionError naming a bad search option.
void check_search_options(const SearchOptions& options);

/// A search's answer: the root moves with their visit counts and mean rewards.
struct SearchResult {
    std::vector<Move> moves;  // legal moves of the player, in action-id order
    std::vector<int64_t> visits;
    std::vector<double> values;  // mean reward in [-1, 1] of each move for the player
    int64_t iterations = 0;      // rollouts, over all threads
    Move best{};                 // the most visited move (ties: the better value, then the lower id)
};

/// Information-set Monte Carlo search for `player` (S7.3): every rollout plays in a
/// determinisation made only of what the seat sees, so the search never reads hidden
/// cards: resample(player, seed_i), where in the play phase (options.belief) each other
/// seat's hand is drawn from a belief weighted by that seat's turns this round (S7.1);
/// rollouts run to the end of the round, and the reward is the seat's chance to win the
/// game (S6.2) from the totals then (a logistic in its lead over the best other total,
/// sharper the fewer rounds are left), with a fifth of its round's score against the best
/// other seat's to tell apart games already won or lost. In rollouts the other seats play the heuristic in
/// their determinised hands (the model of others), the searching seat the heuristic
/// with tuned weights.
/// - Flat (options.tree false): in each of ceil(log2(moves)) rounds the surviving root
///   moves are rolled out in the same fresh determinisations, a share of the iterations
///   each round, and the better half survives (sequential halving); the best move is the
///   last survivor. It spends the iterations but for fewer than the last round's
///   survivors; a round that cannot give every survivor a deal goes on with the best of
///   them (at the start, those the heuristic ranks best).
/// - Tree (options.tree true): single-observer ISMCTS, UCB over the seat's own moves
///   with availability counts; each thread builds its own tree (seeded from `seed` and
///   its index) and the root statistics are summed.
/// The same seed gives the same result for any number of threads (unless `seconds` is
/// set). Runs without any Python.
SearchResult ismcts(const Position& state, int player, const SearchOptions& options, uint64_t seed);
/// The same on the threads of `team` (of options.threads threads).
SearchResult ismcts(const Position& state, int player, const SearchOptions& options, uint64_t seed, Team& team);

/// A bot that plays the best move of ismcts(). On several threads it keeps them from one
/// search to the next (KeptTeam): copies of the bot share them, and a search that finds
/// them busy with another thread's search starts its own.
class IsmctsBot : public Bot {
public:
    explicit IsmctsBot(SearchOptions options) : options_(options) {}
    Move choose(const Position& state, int player, Pcg32& rng) const override;
    /// ismcts() with the bot's options, on its kept threads.
    SearchResult search(const Position& state, int player, uint64_t seed) const;
    const SearchOptions& options() const noexcept { return options_; }

private:
    SearchOptions options_;
    std::shared_ptr<KeptTeam> team_ = std::make_shared<KeptTeam>();
};

// ---- the contract (diabolo/core/contract.hpp) ----------------------------------------------

/// Diabolo (Schacht) as every game presents itself.
struct Rules {
    using Game = schacht::Game;
    using Position = schacht::Position;
    using State = schacht::State;
    using Move = schacht::Move;
    static constexpr const char* kName = "schacht";
    static constexpr const char* kNotationClause = "S8";  // the clause of the notation: NotationError names it

    /// The game of an options object (any subset of the option names); OptionError naming
    /// the option otherwise.
    static Game game_from_json(const json::Value& options);
    static json::Value options_json(const Game& game);
    static int num_actions(const Game&) noexcept { return kNumActions; }
    static int players(const Game& game) noexcept { return game.players; }
    static State new_state(const Game& game, uint64_t seed) { return State::start(game, seed, {}); }
    static State new_dealt_state(const Game& game, uint64_t seed, const json::Value& deal);
    static const Position& position(const State& state) noexcept { return state.position; }
    static const Game& game(const State& state) noexcept { return state.position.game; }
    static const char* phase(const Position& position) noexcept { return phase_name(position.phase); }
    static int round(const Position& position) noexcept { return position.round; }
    /// A text picture of the whole table (every hand shown): for logs and debugging.
    static std::string render(const Position& position);
    static int current_player(const Position& position) noexcept { return position.current_player; }
    /// Legal moves of `player` (kSimultaneous-free seat) in action-id order, into `out`
    /// (room for kNumActions ids); none if the player has nothing to do now.
    static int legal_actions(const Position& position, int player, int32_t* out) noexcept;
    /// The same as bytes (an action id fits one), for search.
    static int legal_actions(const Position& position, int player, std::array<uint8_t, kNumActions>& out) noexcept;
    /// The action that legal_actions' ids[rng.below(count)] picks, found without the list; -1,
    /// drawing nothing, when `player` has none. Random play (play_random) and the random bot
    /// draw their moves with it: the same moves from the same draws, without writing the ids.
    static int random_action(const Position& position, int player, Pcg32& rng) noexcept;
    static Move move_of_action(const Game&, int action) {
        return with_notation_clause(kNotationClause, [&] { return Move::from_action(action); });
    }
    /// Why `move` by `player` is illegal now (clause and message), or nullopt if legal.
    static std::optional<IllegalMoveError> why_illegal(const Position& position, const Move& move, int player);
    static Move apply(State& state, const Move& move, int player) {
        state.apply(move, player);
        return move;
    }
    static std::optional<Move> try_apply(Position& position, const Move& move, int player) noexcept {
        if (!is_legal(position, move, player)) return std::nullopt;
        apply_unchecked(position, move, player);
        return move;
    }
    static void apply_action(Position& position, int action, int player) noexcept {
        apply_unchecked(position, Move::of_action(action), player);
    }
    /// Determinisation (S7.3): every card `player` cannot see is dealt anew from `seed`.
    /// Depends only on what `player` knows and on `seed`.
    static Position resample(const Position& position, int player, uint64_t seed);
    /// Number of floats in observation_tensor for this configuration.
    static int observation_tensor_size(const Game& game) noexcept;
    /// Writes the observation tensor of `player` into out[0 .. observation_tensor_size).
    static void observation_tensor(const Position& position, int player, float* out) noexcept;
    /// The same tensor as bytes, each entry scaled to 0..255 between its bounds (TensorWriter).
    static void observation_bytes(const Position& position, int player, uint8_t* out) noexcept;
    static void observation(const Position& position, int player, json::Tape& out);
    static void public_observation(const Position& position, json::Tape& out);
    static json::Value visibility();
    static Events last_events(const State& state);
    /// The whole state as JSON text: options, seed, every hand, the pile, the history and the
    /// given deals.
    static std::string to_json(const State& state);
    /// The state of `text`, which must be of `game`.
    static State state_from_json(const Game& game, std::string_view text);
    static std::string format_move(const Move& move);
    static Move parse_move(std::string_view text) {
        return with_notation_clause(kNotationClause, [&] { return schacht::parse_move(text); });
    }
    static const char* move_kind(const Move& move) noexcept { return kind_name(move.kind); }
    static json::Value move_json(const Move& move);
    static Move move_from_json(const json::Value& data) {
        return with_notation_clause(kNotationClause, [&] { return schacht::move_from_json(data); });
    }
    /// The player to move, or during doubler decisions the lowest seat still to decide.
    static int random_player(const Position& position, Pcg32&) noexcept { return next_actor(position); }
    static void scores(const Position& position, int32_t* out) noexcept {
        copy_seats(position.scores, position.players(), out);
    }
    /// The seats that must act now, one bit each: the player to move, or during doubler
    /// decisions every seat still to decide (S5.3); none at game over. Whether another seat
    /// has decided is not shown to a seat, and resample() forgets it, so a resampled state
    /// lists every other seat holding its doubler again.
    static uint32_t pending_seats(const Position& position) noexcept;
    static constexpr bool kZeroSum = false;   // scores are points of each seat's own: general-sum
    static constexpr bool kRealTime = false;  // turns (S2.3), and secret simultaneous doubler decisions (S5.3)
    /// The game's entry in the catalogue (core/catalogue.hpp).
    static constexpr GameInfo kInfo{kName,
                                    "Diabolo (Schacht)",
                                    kMinPlayers,
                                    kMaxPlayers,
                                    kMinPlayersRelaxed,
                                    kMaxSeats,
                                    kRealTime,
                                    true,
                                    "heuristic,ismcts,learned,random",
                                    "",
                                    "heuristic"};

    // ---- bots: one factory, one way to ask any bot ----
    using Bot = schacht::Bot;
    /// A bot by kind (kInfo.bots) with its options as JSON, checked as the Python classes
    /// check theirs; OptionError names the kinds or the option.
    static std::unique_ptr<const Bot> make_bot(const Game& game, std::string_view kind, const json::Value& options);
    /// What `bot` plays for `player` now: nothing when the seat has nothing to do.
    static std::optional<Move> bot_move(const Bot& bot, const Position& position, int player, Pcg32& rng) {
        std::optional<Move> move;
        if (pending_seats(position) >> player & 1u) move.emplace(bot.choose(position, player, rng));
        return move;
    }
    /// A turn-based bot acts at once.
    static int64_t bot_delay(const Bot&, const Move&, Pcg32&) noexcept { return 0; }
    static int32_t action_of(const Game&, const Move& move) noexcept { return move.action(); }
    static int64_t max_game_length(const Game& game) noexcept;
    static int64_t min_utility(const Game& game) noexcept;
    static int64_t max_utility(const Game& game) noexcept;
    /// The lowest and highest value of every entry of observation_tensor, into low[] and high[].
    static void observation_tensor_bounds(const Game& game, float* low, float* high);
    /// Features of each action for learners (move_features): kActionFeatures per action.
    static constexpr int kActionFeatures = kMoveFeatures;
    static void action_features(const Position& position, int player, float* out) noexcept {
        move_features(position, player, out);
    }
    static void rewards(const State& state, int32_t* out) noexcept {
        copy_seats(state.rewards, players(game(state)), out);
    }
};

}  // namespace diabolo::schacht
