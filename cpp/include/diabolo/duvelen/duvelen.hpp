// Duvelen (a Dutch family speed game, a Dutch Blitz relative): the rules engine.
// Clause numbers (D3.2) refer to docs/games/duvelen.rst.
//
// Every seat owns a 52-card deck. A card of a deck is an index 0..51 (suit * 13 +
// rank - 1, suits h, d, c, s); its owner is the seat whose deck it is. Which cards a
// seat can play is a 52-bit mask: the cards it has face up (Stok top, Rij, waste top)
// AND the cards the centre wants (every Ace, and the next rank of every pile), so legal
// move generation is a mask intersection.
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

namespace diabolo::duvelen {

constexpr int kSuits = 4;   // h, d, c, s
constexpr int kRanks = 13;  // A = 1 .. K = 13
constexpr int kDeckCards = kSuits * kRanks;
constexpr int kStokCards = 13;                                    // D2.1
constexpr int kRijSlots = 4;                                      // D2.2
constexpr int kCycleCards = kDeckCards - kStokCards - kRijSlots;  // D2.3: the Draaistok
constexpr int kTurnCards = 3;                                     // D3.7
constexpr int kMinPlayers = 2, kMaxSeats = 8;                     // D1.2
constexpr int kMaxPiles = kSuits * kMaxSeats;                     // one pile per Ace on the table
constexpr int kMaxRounds = 64;
constexpr int kStopBonus = 10;  // D5.5
constexpr uint8_t kNoCard = 0xFF;

constexpr char kSuitLetters[kSuits + 1] = "hdcs";

/// A card of one deck: index = suit * 13 + rank - 1.
constexpr int card_index(int suit, int rank) noexcept { return suit * kRanks + rank - 1; }
constexpr int suit_of(int card) noexcept { return card / kRanks; }
constexpr int rank_of(int card) noexcept { return card % kRanks + 1; }
constexpr uint64_t card_bit(int card) noexcept { return 1ULL << card; }

/// Where a played card comes from (D3.1, D7).
enum class Source : uint8_t { Stok = 0, R1 = 1, R2 = 2, R3 = 3, R4 = 4, Waste = 5 };
constexpr int kSources = 6;

enum class MoveKind : uint8_t { Play = 0, Turn = 1, Recycle = 2, RecycleUp = 3, Stop = 4, Pass = 5 };
enum class Phase : uint8_t { Play = 0, AfterStop = 1, GameOver = 2 };
enum class OnBlock : uint8_t { RotateStok = 0, EndRound = 1 };  // D4.5

/// Action ids, stable across versions. They are positional, like the short notation
/// `R2>3`: a play is (source, target pile) and the card is whatever lies at the source.
///   0..197  play: source * 33 + target (target 0 = a new pile, 1..32 = pile number)
///   198 turn, 199 recycle, 200 recycle^, 201 stop, 202 pass
constexpr int kTargets = kMaxPiles + 1;
constexpr int kTurnAction = kSources * kTargets;
constexpr int kRecycleAction = kTurnAction + 1;
constexpr int kRecycleUpAction = kTurnAction + 2;
constexpr int kStopAction = kTurnAction + 3;
constexpr int kPassAction = kTurnAction + 4;
constexpr int kNumActions = kPassAction + 1;

/// A move. A play names its source, its card and its target (D3.10): a play sent before
/// the table changed can never play another card or land on another pile.
struct Move {
    MoveKind kind = MoveKind::Turn;
    Source source = Source::Stok;  // Play only
    uint8_t card = kNoCard;        // Play only: the card's index in its owner's deck
    uint8_t target = 0;            // Play only: 0 = new pile (Aces), else the pile number

    static constexpr Move play(Source source, int card, int target) noexcept {
        return Move{MoveKind::Play, source, static_cast<uint8_t>(card), static_cast<uint8_t>(target)};
    }
    static constexpr Move of_kind(MoveKind kind) noexcept { return Move{kind, Source::Stok, kNoCard, 0}; }
    /// The move of an action id in [0, kNumActions); a play in short form (no card).
    static constexpr Move of_action(int action) noexcept {
        if (action < kTurnAction) return play(static_cast<Source>(action / kTargets), kNoCard, action % kTargets);
        return of_kind(static_cast<MoveKind>(action - kTurnAction + 1));
    }
    constexpr int action() const noexcept {
        switch (kind) {
            case MoveKind::Play: return static_cast<int>(source) * kTargets + target;
            case MoveKind::Turn: return kTurnAction;
            case MoveKind::Recycle: return kRecycleAction;
            case MoveKind::RecycleUp: return kRecycleUpAction;
            case MoveKind::Stop: return kStopAction;
            case MoveKind::Pass: return kPassAction;
        }
        return -1;
    }
    friend constexpr bool operator==(const Move& a, const Move& b) noexcept {
        return a.kind == b.kind &&
               (a.kind != MoveKind::Play || (a.source == b.source && a.card == b.card && a.target == b.target));
    }
    friend constexpr bool operator!=(const Move& a, const Move& b) noexcept { return !(a == b); }
};

/// Rule options (D1.2, D1.3, D4.5).
struct Options {
    int players = 4;
    int rounds = 1;
    OnBlock on_block = OnBlock::RotateStok;
    int max_actions = 100000;
};

/// Validated options; part of every state.
struct Game {
    uint8_t players = 4;
    uint8_t rounds = 1;
    OnBlock on_block = OnBlock::RotateStok;
    uint32_t max_actions = 100000;

    /// Validates options; throws OptionError naming the option and the allowed values.
    static Game from_options(const Options& options);
    Options to_options() const noexcept;
    friend bool operator==(const Game& a, const Game& b) noexcept;
};

/// One seat's cards (D2). Stok: stok[0] is the face-up top. Draaistok and waste share
/// `cycle`: cycle[0 .. waste_count) is the waste (its top at waste_count - 1) and
/// cycle[waste_count .. cycle_count) is the face-down Draaistok (next card first). So
/// turning moves the boundary, and recycling resets it to 0.
struct Seat {
    std::array<uint8_t, kStokCards> stok{};
    std::array<uint8_t, kRijSlots> rij{};
    std::array<uint8_t, kCycleCards> cycle{};
    uint8_t stok_count = 0;
    uint8_t cycle_count = 0;
    uint8_t waste_count = 0;
    uint64_t cycle_mask = 0;  // every card in the Draaistok or waste
    /// The cards of the cycle that have been this seat's waste top this round (a turn
    /// shows one card, D3.7; a recycle shifts which ones come up, D3.8; a play from the
    /// waste shows the card below). Each was in everyone's view (D8.1), and the turns and
    /// recycles that moved it since are public, so whoever watched knows where it lies.
    /// No view shows this memory (D8.2); a search may deal around it (Memory::WasteTops).
    uint64_t seen = 0;

    int stok_top() const noexcept { return stok_count ? stok[0] : -1; }
    int waste_top() const noexcept { return waste_count ? cycle[waste_count - 1u] : -1; }
    int draaistok_count() const noexcept { return cycle_count - waste_count; }
    /// The cards this seat can play now (D3.1).
    uint64_t available() const noexcept;
    /// Every card this seat could still bring into play before Stop (D4.5).
    uint64_t reachable() const noexcept;
};

/// A pile in the centre, or a Herenhoop once completed (D3.9).
struct Pile {
    uint8_t suit = 0;
    uint8_t top = 0;                       // rank on top, 1..13
    int8_t holder = -1;                    // Herenhoop holder; -1 while in the centre
    uint8_t completed = 0;                 // completion order (1-based) once a Herenhoop
    std::array<uint8_t, kRanks> owners{};  // owner of the A, the 2, ...
};

/// The whole state: a trivially copyable value (clone = memcpy).
struct Position {
    Game game{};
    Phase phase = Phase::Play;
    uint8_t round = 0;
    int8_t stop_called_by = -1;
    uint8_t passed = 0;      // bit s: seat s's pass stands (D4.4)
    uint8_t pile_count = 0;  // piles started this round (numbers 1..pile_count)
    uint8_t herenhoop_count = 0;
    uint32_t actions = 0;                         // actions applied this round (D4.5 cap)
    uint64_t wanted = 0;                          // cards the centre takes: Aces + next ranks
    std::array<uint8_t, kSuits * kRanks> tops{};  // piles in the centre per (suit, top rank - 1)
    std::array<Pile, kMaxPiles> piles{};          // by number - 1
    std::array<Seat, kMaxSeats> seats{};
    std::array<int32_t, kMaxSeats> scores{};  // totals of finished rounds
    uint64_t seed = 0;                        // shuffles of the rounds to come

    int players() const noexcept { return game.players; }
    bool is_terminal() const noexcept { return phase == Phase::GameOver; }
    int current_player() const noexcept { return is_terminal() ? kTerminal : kSimultaneous; }
};

/// One seat's deck in D2.5 order: 13 Stok cards (top first), 4 Rij cards, 35 Draaistok
/// cards (the first is turned first).
using Deck = std::array<uint8_t, kDeckCards>;

// ---- notation (D7) ------------------------------------------------------------------------

std::string format_card(int card);
/// Parses "10h", "Qs"; throws NotationError.
int parse_card(std::string_view text);
/// A parsed move. A short-form play (`R2>3`) has card kNoCard: the state fills it in.
Move parse_move(std::string_view text);

// ---- the rules -----------------------------------------------------------------------------

/// A new game; round r's decks are given by `decks` if present (one per seat), else
/// shuffled from `seed` (D2.5).
Position new_game(const Game& game, uint64_t seed, const std::vector<Deck>* decks = nullptr);
/// Checks that `deck` holds each of the 52 cards once; throws StateFormatError.
void check_deck(const Deck& deck);
/// Replaces the current round's deal by `decks` (given deals for later rounds). Only
/// before the round's first action.
void redeal(Position& state, const std::vector<Deck>& decks);

/// Legal moves of `player` in canonical order: plays by source (S, R1..R4, W), each to a
/// new pile (Aces) or to the piles it fits in number order; then turn, recycle,
/// recycle^, stop, pass. Empty at game over.
int legal_moves(const Position& state, int player, std::array<Move, kNumActions>& out) noexcept;
std::vector<Move> legal_moves(const Position& state, int player);
/// The move a positional action id or a short-form play means now, or nullopt if it
/// names nothing (an empty source).
std::optional<Move> resolve(const Position& state, int player, const Move& move) noexcept;
bool is_legal(const Position& state, const Move& move, int player) noexcept;

/// Applies a legal move (fast path for search and simulation).
void apply_unchecked(Position& state, const Move& move, int player) noexcept;
/// Applies a move after checking it; throws IllegalMoveError and changes nothing.
void apply(Position& state, const Move& move, int player);

/// True when no seat could play or call Stop ever again without a rotation (D4.5).
bool is_blocked(const Position& state) noexcept;
/// Seats with the highest game total; ties share the win.
std::vector<int> winners(const Position& state);
/// D5 scores of the current round as if it ended now.
std::array<int32_t, kMaxSeats> round_scores(const Position& state) noexcept;

/// What a deal keeps of the round so far.
enum class Memory : uint8_t {
    None,       ///< only what shows now, as D8.2 decides for the contract's resample
    WasteTops,  ///< also every card that has been a waste's top this round (Seat::seen)
};

/// Determinisation (D8.2): every seat's face-down cards (Stok below the top, Draaistok,
/// waste below the top) are reshuffled among that seat's own hidden places. With
/// Memory::WasteTops the cards that have been a waste's top this round stay in their
/// places: a player who watched the table and remembers it.
Position resample(const Position& state, uint64_t seed, Memory memory = Memory::None);

/// What is inconsistent (card conservation, piles, counts, phase), or an empty string.
std::string check_invariants(const Position& state);

/// The lowest and highest score of a seat in one round (D5): every Stok card left (-2
/// each, D5.4), or every card of the seat's deck in its own Herenhoops (+2 each, D5.2)
/// and the Stop bonus (D5.5).
constexpr int kMinRoundScore = -2 * kStokCards;
constexpr int kMaxRoundScore = 2 * kDeckCards + 10;

// ---- views and JSON (docs/games/duvelen.rst) -----------------------------------------------

/// The options with their values: {"players": 4, "rounds": 1, "on_block": ..., "max_actions": ...}.
json::Value options_json(const Game& game);
/// A move as data: {"kind": "play", "source": "R2", "card": "7h", "target": 3} (the card
/// left out in the short form, "target": "new" for an Ace), or {"kind": "turn"} and the
/// other kinds alone (D7).
json::Value move_json(const Move& move);
/// The names of the phases and of the kinds of move, as views, states and move data
/// write them.
const char* phase_name(Phase phase) noexcept;
const char* kind_name(MoveKind kind) noexcept;
/// The move of such data; NotationError naming what is wrong.
Move move_from_json(const json::Value& data);
/// Writes what `player` may know (D8.3) into `out`: the centre, every seat's face-up cards
/// and counts, the scores and its legal moves (out.value() is the view as a JSON value).
void observation(const Position& position, int player, json::Tape& out);
/// Writes what a spectator may know: observation() without "legal", "player" null (D8.1).
void public_observation(const Position& position, json::Tape& out);
/// Who may see each observation key, move kind and event type (docs/frontend.rst).
json::Value visibility();

// ---- the record a frontend keeps -------------------------------------------------------------

using Step = diabolo::Step<Move>;

/// A state with the moves that led to it (every move of Duvelen is public): what the
/// Python Position wraps, and what a C++ frontend keeps.
struct State : Record<Position, Move, kMaxSeats> {
    static State start(const Game& game, uint64_t seed, const std::vector<Deck>* decks = nullptr);
    /// Checked move of `player` (a short-form play is resolved to the card at its source);
    /// records the long form. Throws IllegalMoveError and changes nothing if illegal.
    void apply(const Move& move, int player);
    /// check_invariants of the state, then the history's seats; empty if consistent.
    std::string check() const;
    /// Determinisation of the position for `player` (the same for every player: nobody sees
    /// what it deals anew); the history is kept.
    State resample(int player, uint64_t seed) const;
    /// The events of the last move applied here, in order (docs/frontend.rst): none for a
    /// new state or one read from JSON.
    Events last_events() const;
};

// ---- bots and simulation (diabolo::realtime) -------------------------------------------------

/// Kinds of action with their own reaction time: play, turn, recycle (either way), stop, pass.
constexpr int kReactionKinds = 5;
constexpr const char* kReactionKindNames[kReactionKinds] = {"play", "turn", "recycle", "stop", "pass"};
int reaction_kind(const Move& move) noexcept;
/// A quick human: plays in about 0.9 s, turns in 0.6 s, recycles in 1.2 s.
realtime::Reaction default_reaction() noexcept;

/// A bot: picks a move for `player` (or nothing, to wait for the table to change).
/// `choose` is const and draws only from `rng`, so one bot can serve many games at once.
class Bot {
public:
    explicit Bot(realtime::Reaction reaction) : reaction_(reaction) {}
    virtual ~Bot() = default;
    virtual std::optional<Move> choose(const Position& state, int player, Pcg32& rng) const = 0;
    const realtime::Reaction& reaction() const noexcept { return reaction_; }
    /// Microseconds until `move` arrives, drawn from `rng`.
    int64_t reaction_time(const Move& move, Pcg32& rng) const noexcept {
        return reaction_.sample(reaction_kind(move), rng);
    }

private:
    realtime::Reaction reaction_;
};

/// Any legal move, uniformly at random.
class RandomBot : public Bot {
public:
    using Bot::Bot;
    std::optional<Move> choose(const Position& state, int player, Pcg32& rng) const override;
};

/// Calls Stop when it can; otherwise plays whenever it can (Stok first, then the Rij,
/// then the waste), else turns or recycles; after Stop plays or passes, then waits.
class GreedyBot : public Bot {
public:
    using Bot::Bot;
    std::optional<Move> choose(const Position& state, int player, Pcg32& rng) const override;
};

/// Like GreedyBot, it calls Stop when it can, but it picks among its plays by looking one
/// move ahead: the play after which its round score (D5) plus what it can play next is
/// highest, so it plays from its Stok and Rij first, completes Herenhoops, and prefers
/// plays that open further plays of its own. With no play it turns or recycles.
class LookaheadBot : public Bot {
public:
    using Bot::Bot;
    std::optional<Move> choose(const Position& state, int player, Pcg32& rng) const override;
};

/// Plans beyond one move by playing the race out (D3): for each move it could make now
/// (the lookahead's choice, its other plays, a turn, either recycle) it simulates the
/// next `horizon` seconds in `worlds` deals of the cards it cannot see, every seat played
/// by a LookaheadBot with reaction times drawn as the real ones are, and weighs each move
/// by its round total's lead over the best other seat's (D5). The deals keep what it
/// remembers of the table (Memory::WasteTops): where the cards it has seen on a waste's
/// top lie in their Draaistok, so it sees which recycle brings its own up when they fit,
/// and what the others' turns will show. A recycle is played out twice as far, since
/// which one is better shows only as the next pass brings the cards up (D3.8). It leaves
/// the lookahead's choice only for a move whose gain the deals make sure of (a paired t
/// statistic above 1.5, in integers). Every move is weighed in the same deals and
/// reaction times, and its budget is `worlds`, not a clock, so a seed gives the same game
/// on every machine. It calls Stop at once, as the lookahead does.
class SearchBot : public Bot {
public:
    SearchBot(realtime::Reaction reaction, int worlds, double horizon);
    std::optional<Move> choose(const Position& state, int player, Pcg32& rng) const override;
    int worlds() const noexcept { return worlds_; }
    double horizon() const noexcept { return static_cast<double>(horizon_) / 1e6; }

private:
    LookaheadBot model_;  // every seat's later moves in a simulation
    int worlds_;
    int64_t horizon_;  // microseconds
};

constexpr int kDefaultSearchWorlds = 128;
constexpr double kDefaultSearchHorizon = 16.0;  // seconds
/// The bounds of the search's options (realtime::check_search_budget).
constexpr int kMaxSearchWorlds = 256;
constexpr double kMaxSearchHorizon = 30.0;  // seconds

/// The state of the text to_json wrote; StateFormatError naming the path of what is wrong.
State state_from_json(std::string_view text);

// ---- the contract (diabolo/core/contract.hpp) ----------------------------------------------

/// Duvelen as every game presents itself.
struct Rules {
    using Game = duvelen::Game;
    using Position = duvelen::Position;
    using State = duvelen::State;
    using Move = duvelen::Move;
    static constexpr const char* kName = "duvelen";
    static constexpr const char* kNotationClause = "D7";  // the clause of the notation: NotationError names it

    /// The game of an options object; OptionError naming the option otherwise.
    static Game game_from_json(const json::Value& options);
    static json::Value options_json(const Game& game);
    static int num_actions(const Game&) noexcept { return kNumActions; }
    static int players(const Game& game) noexcept { return game.players; }
    static State new_state(const Game& game, uint64_t seed) { return State::start(game, seed); }
    static State new_dealt_state(const Game& game, uint64_t seed, const json::Value& deal);
    static const Position& position(const State& state) noexcept { return state.position; }
    static const Game& game(const State& state) noexcept { return state.position.game; }
    static const char* phase(const Position& position) noexcept { return phase_name(position.phase); }
    static int round(const Position& position) noexcept { return position.round; }
    /// A text picture of the whole table.
    static std::string render(const Position& position);
    static int current_player(const Position& position) noexcept { return position.current_player(); }
    /// The action ids of the legal moves, in the same order, into `out` (room for kNumActions).
    static int legal_actions(const Position& position, int player, int32_t* out) noexcept;
    static Move move_of_action(const Game&, int action) {
        if (action < 0 || action >= kNumActions) {
            throw NotationError(
                "action id " + std::to_string(action) + " is out of range 0.." + std::to_string(kNumActions - 1),
                kNotationClause);
        }
        return Move::of_action(action);
    }
    /// Why `move` by `player` is illegal now (clause and message), or nullopt if legal.
    static std::optional<IllegalMoveError> why_illegal(const Position& position, const Move& move, int player);
    static Move apply(State& state, const Move& move, int player) {
        state.apply(move, player);
        return state.history.back().move;
    }
    /// A move resolved and applied if legal (a lost race otherwise, D3.10 / K3.2).
    static std::optional<Move> try_apply(Position& position, const Move& move, int player) noexcept;
    /// Applies a legal action id (fast path): a positional play takes the card at its source
    /// now (D3.10).
    static void apply_action(Position& position, int action, int player) noexcept;
    static Position resample(const Position& position, int, uint64_t seed) { return duvelen::resample(position, seed); }
    /// Number of floats in observation_tensor for this configuration.
    static int observation_tensor_size(const Game& game) noexcept;
    /// Writes what `player` may know (D8) into out[0 .. observation_tensor_size); seats
    /// appear relative to `player` (block 0 is the player).
    static void observation_tensor(const Position& position, int player, float* out) noexcept;
    /// The same tensor as bytes, each entry scaled to 0..255 between its bounds (TensorWriter).
    static void observation_bytes(const Position& position, int player, uint8_t* out) noexcept;
    static void observation(const Position& position, int player, json::Tape& out);
    static void public_observation(const Position& position, json::Tape& out);
    static json::Value visibility();
    static Events last_events(const State& state);
    /// The whole state as JSON text (every seat's face-down cards and the history included).
    static std::string to_json(const State& state);
    /// The state of `text`, which must be of `game`.
    static State state_from_json(const Game& game, std::string_view text);
    static std::string format_move(const Move& move);
    static Move parse_move(std::string_view text) {
        return with_notation_clause(kNotationClause, [&] { return duvelen::parse_move(text); });
    }
    static const char* move_kind(const Move& move) noexcept { return kind_name(move.kind); }
    static json::Value move_json(const Move& move);
    static Move move_from_json(const json::Value& data) {
        return with_notation_clause(kNotationClause, [&] { return duvelen::move_from_json(data); });
    }
    /// Every seat may act at any time (D3): a seat drawn at random.
    static uint32_t pending_seats(const Position& position) noexcept;
    static constexpr bool kZeroSum = false;  // scores are points of each seat's own: general-sum
    static constexpr bool kRealTime = true;  // no turns: moves apply as they arrive (D3)
    /// The game's entry in the catalogue (core/catalogue.hpp).
    static constexpr GameInfo kInfo{kName,     "Duvelen",   kMinPlayers,
                                    kMaxSeats, kMinPlayers, kMaxSeats,
                                    kRealTime, true,        "greedy,lookahead,random,search",
                                    "",        "greedy"};

    // ---- bots: one factory, one way to ask any bot ----
    using Bot = duvelen::Bot;
    /// A bot by kind (kInfo.bots) with its options as JSON, checked as the Python classes
    /// check theirs; OptionError names the kinds or the option.
    static std::unique_ptr<const Bot> make_bot(const Game& game, std::string_view kind, const json::Value& options);
    /// What `bot` plays for `player` now: nothing while it waits for the table to change.
    static std::optional<Move> bot_move(const Bot& bot, const Position& position, int player, Pcg32& rng) {
        return bot.choose(position, player, rng);
    }
    /// Microseconds until the bot's `move` arrives (its reaction time, D3).
    static int64_t bot_delay(const Bot& bot, const Move& move, Pcg32& rng) noexcept {
        return bot.reaction_time(move, rng);
    }
    static int32_t action_of(const Game&, const Move& move) noexcept { return move.action(); }
    static int64_t max_game_length(const Game& game) noexcept;
    static int64_t min_utility(const Game& game) noexcept;
    static int64_t max_utility(const Game& game) noexcept;
    /// The lowest and highest value of every entry of observation_tensor, into low[] and high[].
    static void observation_tensor_bounds(const Game& game, float* low, float* high);
    static void rewards(const State& state, int32_t* out) noexcept {
        copy_seats(state.rewards, players(game(state)), out);
    }
    static int random_player(const Position& position, Pcg32& rng) noexcept {
        return position.is_terminal() ? -1 : static_cast<int>(rng.below(position.game.players));
    }
    static void scores(const Position& position, int32_t* out) noexcept {
        copy_seats(position.scores, position.players(), out);
    }
};

}  // namespace diabolo::duvelen
