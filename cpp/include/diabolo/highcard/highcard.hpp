// High card: a small trick-taking game that exists for the tests only (it is not listed:
// kInfo.listed is false). It proves the catalogue: added with this folder, its sources in
// cpp/src/highcard/ and one line of diabolo/games.hpp, it passes the C++, C and Python
// contract suites with no other edit. Its rules, numbered as the real games' are:
//   H1   2-4 players; a deck of the cards 1..12; `rounds` rounds (default 10).
//   H2   Each round the deck is shuffled and every seat is dealt 3 cards, unseen by the
//        others; the rest stay face down. Seat `round % players` leads the first trick.
//   H3   In turn from the leader, each seat plays one card of its hand face up.
//   H4   When every seat has played, the highest card wins the trick: its seat scores the
//        sum of the trick's cards and leads the next one. After 3 tricks the round ends.
//   H5   The highest total after the last round wins.
//   H6   Notation: a move is the card's number ("7"); its action id is the number - 1.
//   H7   A given deal is {"deck": [12 numbers]}, the order round 0 deals in (H2).
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
#include "diabolo/core/record.hpp"
#include "diabolo/core/rng.hpp"

namespace diabolo {
class EventLog;  // core/events.hpp
}

namespace diabolo::highcard {

constexpr int kCards = 12;  // H1
constexpr int kHand = 3;    // H2
constexpr int kMinPlayers = 2, kMaxSeats = 4;
constexpr int kMaxRounds = 20;

enum class Phase : uint8_t { Play = 0, GameOver = 1 };

/// The validated options.
struct Game {
    int players = 3;
    int rounds = 10;
    bool operator==(const Game& other) const noexcept { return players == other.players && rounds == other.rounds; }
};

/// Playing a card (H3): the card's number, 1..12.
struct Move {
    int card = 1;
    int action() const noexcept { return card - 1; }
    bool operator==(const Move& other) const noexcept { return card == other.card; }
    bool operator!=(const Move& other) const noexcept { return card != other.card; }
};

using Cards = uint16_t;  // a set of cards: bit c - 1 for card c

/// The whole table; trivially copyable.
struct Position {
    Game game{};
    uint64_t seed = 0;  // the deals of later rounds come from it (H2)
    int round = 0;
    Phase phase = Phase::Play;
    int to_move = 0;  // the seat to play, while the game goes on
    int leader = 0;   // who led the trick under way
    std::array<Cards, kMaxSeats> hands{};
    Cards unseen = 0;                       // the cards nobody was dealt this round
    std::array<int8_t, kMaxSeats> trick{};  // each seat's card in the trick under way, 0: none yet
    int tricks = 0;                         // tricks finished this round
    std::array<int32_t, kMaxSeats> scores{};
    int players() const noexcept { return game.players; }
};

using Step = diabolo::Step<Move>;

/// A position with the moves that led to it (core/record.hpp).
struct State : Record<Position, Move, kMaxSeats> {
    void apply(const Move& move, int player);
    State resample(int player, uint64_t seed) const;
};

Position new_game(const Game& game, uint64_t seed, const std::array<int, kCards>* deck = nullptr);
/// Plays a legal move (unchecked); `log`, when given, receives its events.
void play(Position& position, const Move& move, int player, EventLog* log = nullptr) noexcept;
Move parse_move(std::string_view text);

/// Any legal card, uniformly at random.
class Bot {
public:
    virtual ~Bot() = default;
    virtual Move choose(const Position& position, int player, Pcg32& rng) const = 0;
};
class RandomBot : public Bot {
public:
    Move choose(const Position& position, int player, Pcg32& rng) const override;
};
/// Plays its highest card.
class HighestBot : public Bot {
public:
    Move choose(const Position& position, int player, Pcg32& rng) const override;
};

/// High card as every game presents itself (core/contract.hpp).
struct Rules {
    using Game = highcard::Game;
    using Position = highcard::Position;
    using State = highcard::State;
    using Move = highcard::Move;
    static constexpr const char* kName = "highcard";
    static constexpr const char* kNotationClause = "H6";
    static constexpr bool kZeroSum = false;
    static constexpr bool kRealTime = false;
    static constexpr GameInfo kInfo{
        kName, "High card (a test game)", kMinPlayers, kMaxSeats, kMinPlayers, kMaxSeats, kRealTime,
        false, "highest,random",          "",          "highest"};

    static Game game_from_json(const json::Value& options);
    static json::Value options_json(const Game& game);
    static int num_actions(const Game&) noexcept { return kCards; }
    static int players(const Game& game) noexcept { return game.players; }
    static State new_state(const Game& game, uint64_t seed);
    static State new_dealt_state(const Game& game, uint64_t seed, const json::Value& deal);
    static const Position& position(const State& state) noexcept { return state.position; }
    static const Game& game(const State& state) noexcept { return state.position.game; }
    static const char* phase(const Position& position) noexcept;
    static int round(const Position& position) noexcept { return position.round; }
    static std::string render(const Position& position);
    static int current_player(const Position& position) noexcept;
    static int legal_actions(const Position& position, int player, int32_t* out) noexcept;
    static Move move_of_action(const Game& game, int action);
    static std::optional<IllegalMoveError> why_illegal(const Position& position, const Move& move, int player);
    static Move apply(State& state, const Move& move, int player) {
        state.apply(move, player);
        return move;
    }
    static std::optional<Move> try_apply(Position& position, const Move& move, int player) {
        if (why_illegal(position, move, player)) return std::nullopt;
        play(position, move, player);
        return move;
    }
    static void apply_action(Position& position, int action, int player) noexcept {
        play(position, Move{action + 1}, player);
    }
    static Position resample(const Position& position, int player, uint64_t seed);
    static int observation_tensor_size(const Game&) noexcept { return 3 * kCards + kMaxSeats; }
    static void observation_tensor(const Position& position, int player, float* out) noexcept;
    static void observation_bytes(const Position& position, int player, uint8_t* out) noexcept;
    static void observation_tensor_bounds(const Game& game, float* low, float* high) noexcept;
    static void observation(const Position& position, int player, json::Tape& out);
    static void public_observation(const Position& position, json::Tape& out);
    static json::Value visibility();
    static Events last_events(const State& state);
    static std::string to_json(const State& state);
    static State state_from_json(const Game& game, std::string_view text);
    static std::string format_move(const Move& move);
    static Move parse_move(std::string_view text);
    static const char* move_kind(const Move&) noexcept { return "play"; }
    static json::Value move_json(const Move& move);
    static Move move_from_json(const json::Value& data);
    static int random_player(const Position& position, Pcg32&) noexcept { return current_player(position); }
    static void scores(const Position& position, int32_t* out) noexcept;
    static int64_t max_game_length(const Game& game) noexcept { return int64_t{game.rounds} * kHand * game.players; }
    static int64_t min_utility(const Game&) noexcept { return 0; }
    static int64_t max_utility(const Game& game) noexcept { return int64_t{game.rounds} * (kCards * (kCards + 1) / 2); }
    static void rewards(const State& state, int32_t* out) noexcept;
    static uint32_t pending_seats(const Position& position) noexcept;

    using Bot = highcard::Bot;
    static std::unique_ptr<const Bot> make_bot(const Game& game, std::string_view kind, const json::Value& options);
    static std::optional<Move> bot_move(const Bot& bot, const Position& position, int player, Pcg32& rng) {
        if ((pending_seats(position) >> player & 1u) == 0) return std::nullopt;
        return bot.choose(position, player, rng);
    }
    static int64_t bot_delay(const Bot&, const Move&, Pcg32&) noexcept { return 0; }
    static int32_t action_of(const Game&, const Move& move) noexcept { return move.action(); }
};

}  // namespace diabolo::highcard
