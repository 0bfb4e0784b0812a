// The contract every game implements. Open this header first.
//
// A game is a traits struct `Rules` in the game's namespace (diabolo::schacht::Rules, ...)
// whose members have the same names and signatures in every game. Everything that works
// for any game is written once against it: batch play (core/batch.hpp), the Python
// bindings (src/bind_game.hpp), and the checks below, which turn a missing or misshapen
// member into a compile error that names it.
//
// The types (the Python classes that wrap them have the same names):
//
//   Game       validated options; a value, part of every Position.      Python <G>Game
//   Position   the whole situation of the table, trivially copyable:
//              search and batch play copy it (a clone is a memcpy).
//   State      a Position with the moves that led to it and the deals
//              given for later rounds: what a frontend keeps and saves. Python <G>State
//   Move       one move; str() in Python is its notation.              Python <G>Move
//
// The members (`R` is the Rules of a game):
//
//   R::kName                                   the game's id, "schacht"
//   R::kInfo                                   its entry in the catalogue (core/catalogue.hpp):
//                                              title, seats, bot kinds, resources; one line of
//                                              diabolo/games.hpp lists the game
//   R::Bot                                     the game's bots' base class
//   R::make_bot(game, kind, options) -> std::unique_ptr<const Bot>
//                                              a bot by kind (kInfo.bots), options as JSON
//                                              checked once, OptionError naming what is wrong
//   R::bot_move(bot, position, player, rng)    what a bot plays for `player` now, from what the
//       -> std::optional<Move>                 seat may know; nullopt: it waits or has nothing
//   R::bot_delay(bot, move, rng) -> int64_t    microseconds until the bot's move arrives (its
//                                              reaction time in real time, 0 in turns)
//   R::action_of(game, move) -> int32_t        the action id of a move
//   R::kNotationClause                         the clause of the game's notation ("S8"): every
//                                              NotationError of parse_move, move_from_json and
//                                              move_of_action names it
//   R::game_from_json(options) -> Game         OptionError naming the option
//   R::options_json(game) -> json::Value       every option, defaults filled in
//   R::num_actions(game) -> int                action ids are 0 .. num_actions - 1
//   R::players(game) -> int
//   R::new_state(game, seed) -> State          round 0 shuffled from seed
//   R::new_dealt_state(game, seed, deal)       a new game dealt from a given deal, a JSON
//       -> State                               object in the game's deal format ({"deck":
//                                              [...]}, {"decks": [...]}; S2.4, D2.5, K10.7),
//                                              what it leaves out shuffled from seed;
//                                              StateFormatError naming what is wrong
//   R::position(state) -> const Position&
//   R::game(state) -> const Game&
//   R::phase(position) -> const char*         the phase's name in views and states ("play")
//   R::round(position) -> int                  the round, from 0
//   R::render(position) -> std::string         a text picture of the table
//   position.players() -> int                  the seats of the position's game
//   R::current_player(position) -> int         a seat, kSimultaneous or kTerminal
//   R::legal_actions(position, player, out) -> int
//                                              the legal action ids of `player`, ascending,
//                                              written to out[0 ..), which has room for
//                                              num_actions(game) ids; returns how many
//   R::move_of_action(game, action) -> Move    NotationError for an id out of range
//   R::why_illegal(position, move, player)     the IllegalMoveError (with its clause) that
//       -> std::optional<IllegalMoveError>     applying `move` would raise, or nullopt
//   R::apply(state, move, player) -> Move      checked: IllegalMoveError and nothing
//                                              changes; records the move; returns it as
//                                              applied (a short form made explicit)
//   R::try_apply(position, move, player)      checked, on a bare position, as matches and
//       -> std::optional<Move>                 simulations play (core/match.hpp,
//                                              core/realtime.hpp): applies `move` and returns
//                                              it as applied, or returns nullopt and changes
//                                              nothing (not legal, or a lost race in real time)
//   R::apply_action(position, action, player)  unchecked, for search and batch play: the
//                                              caller took `action` from legal_actions
//   R::resample(position, player, seed)        determinisation: what `player` cannot see
//       -> Position                            dealt anew; depends only on what `player`
//                                              knows and on `seed`
//   R::observation_tensor_size(game) -> int
//   R::observation_tensor(position, player, out)   floats, what `player` may know
//   R::observation_bytes(position, player, out)    the same as bytes, 0..255 between each
//                                              entry's bounds (core/tensor.hpp)
//   R::observation(position, player, tape)     writes what `player` may know, as JSON,
//                                              into a json::Tape (tape.value(), .text())
//   R::public_observation(position, tape)      what a spectator may know: the public keys
//                                              of observation(), "player" null
//   R::visibility() -> json::Value             who may see each observation key, move kind
//                                              and event type (core/events.hpp)
//   R::last_events(state) -> Events            the events of the last move applied to
//                                              `state`, in order (core/events.hpp)
//   R::to_json(state) -> std::string           the whole state (secrets included)
//   R::state_from_json(game, text) -> State    StateFormatError naming the path, or that the
//                                              state's options differ from `game`
//   R::format_move(move) -> std::string        the notation of the rules page
//   R::parse_move(text) -> Move                NotationError
//   R::move_kind(move) -> const char*          the kind's name in move data ("place")
//   R::move_json(move) -> json::Value          the move as data: {"kind": ..., ...}
//   R::move_from_json(data) -> Move            NotationError naming what is wrong
//   R::random_player(position, rng) -> int     who acts in a random playout: the player to
//                                              move, or a seat drawn from `rng` when several
//                                              may act; -1 at the end
//   R::scores(position, out)                   each seat's score so far
//   R::kZeroSum                                whether the scores always sum to 0
//   R::kRealTime                               whether the game is played in real time: no
//                                              turns, every seat with a legal move may move,
//                                              moves apply in the order they arrive (Duvelen
//                                              D3, Knizia K3.2); current_player is then never
//                                              a seat
//   R::max_game_length(game) -> int64_t        the most moves a game can take; -1 if a game
//                                              can go on without end (a move that may be
//                                              repeated)
//   R::min_utility(game), R::max_utility(game) the lowest and highest final score of a seat
//       -> int64_t
//   R::observation_tensor_bounds(game, low, high)  the bounds of every tensor entry
//   R::rewards(state, out)                     what the last move applied to `state` changed
//                                              in each seat's score
//   R::pending_seats(position) -> uint32_t     the seats that may or must act now, one bit
//                                              each: the player to move, the seats still to
//                                              make a simultaneous decision, or every seat
//                                              with a legal move in real time; 0 at the end
//
// A game may add, checked where it is used (core/batch.hpp: HasRandomAction):
//   R::random_action(position, player, rng) -> int
//                                              the id legal_actions' ids[rng.below(count)]
//                                              picks, without the list; -1, drawing nothing,
//                                              when `player` has none (random play uses it)
//
// Errors are the types of core/errors.hpp; none of them ever leaves a state half changed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "diabolo/core/catalogue.hpp"
#include "diabolo/core/errors.hpp"
#include "diabolo/core/json_fwd.hpp"
#include "diabolo/core/rng.hpp"

namespace diabolo {

struct Event;  // core/events.hpp
using Events = std::vector<Event>;

namespace contract {

template <class...>
using void_t = void;

// Each check names the member it needs, so that a game that lacks one fails to compile
// with that name in the message.
#define DIABOLO_CONTRACT_MEMBER(name, expression, result) \
    template <class R, class = void>                      \
    struct has_##name : std::false_type {};               \
    template <class R>                                    \
    struct has_##name<R, void_t<decltype(expression)>> : std::is_convertible<decltype(expression), result> {};

template <class T>
T& ref();

DIABOLO_CONTRACT_MEMBER(game_from_json, R::game_from_json(ref<const json::Value>()), typename R::Game)
DIABOLO_CONTRACT_MEMBER(options_json, R::options_json(ref<const typename R::Game>()), json::Value)
DIABOLO_CONTRACT_MEMBER(num_actions, R::num_actions(ref<const typename R::Game>()), int)
DIABOLO_CONTRACT_MEMBER(players, R::players(ref<const typename R::Game>()), int)
DIABOLO_CONTRACT_MEMBER(new_state, R::new_state(ref<const typename R::Game>(), uint64_t{}), typename R::State)
DIABOLO_CONTRACT_MEMBER(new_dealt_state,
                        R::new_dealt_state(ref<const typename R::Game>(), uint64_t{}, ref<const json::Value>()),
                        typename R::State)
DIABOLO_CONTRACT_MEMBER(position, R::position(ref<const typename R::State>()), const typename R::Position&)
DIABOLO_CONTRACT_MEMBER(game, R::game(ref<const typename R::State>()), const typename R::Game&)
DIABOLO_CONTRACT_MEMBER(phase, R::phase(ref<const typename R::Position>()), const char*)
DIABOLO_CONTRACT_MEMBER(round, R::round(ref<const typename R::Position>()), int)
DIABOLO_CONTRACT_MEMBER(render, R::render(ref<const typename R::Position>()), std::string)
DIABOLO_CONTRACT_MEMBER(move_kind, R::move_kind(ref<const typename R::Move>()), const char*)
DIABOLO_CONTRACT_MEMBER(move_from_json, R::move_from_json(ref<const json::Value>()), typename R::Move)
DIABOLO_CONTRACT_MEMBER(current_player, R::current_player(ref<const typename R::Position>()), int)
DIABOLO_CONTRACT_MEMBER(legal_actions,
                        R::legal_actions(ref<const typename R::Position>(), 0, static_cast<int32_t*>(nullptr)), int)
DIABOLO_CONTRACT_MEMBER(move_of_action, R::move_of_action(ref<const typename R::Game>(), 0), typename R::Move)
DIABOLO_CONTRACT_MEMBER(why_illegal,
                        R::why_illegal(ref<const typename R::Position>(), ref<const typename R::Move>(), 0),
                        std::optional<IllegalMoveError>)
DIABOLO_CONTRACT_MEMBER(apply, R::apply(ref<typename R::State>(), ref<const typename R::Move>(), 0), typename R::Move)
DIABOLO_CONTRACT_MEMBER(try_apply, R::try_apply(ref<typename R::Position>(), ref<const typename R::Move>(), 0),
                        std::optional<typename R::Move>)
DIABOLO_CONTRACT_MEMBER(apply_action, (R::apply_action(ref<typename R::Position>(), 0, 0), 0), int)
DIABOLO_CONTRACT_MEMBER(resample, R::resample(ref<const typename R::Position>(), 0, uint64_t{}), typename R::Position)
DIABOLO_CONTRACT_MEMBER(observation_tensor_size, R::observation_tensor_size(ref<const typename R::Game>()), int)
DIABOLO_CONTRACT_MEMBER(observation_tensor,
                        (R::observation_tensor(ref<const typename R::Position>(), 0, static_cast<float*>(nullptr)), 0),
                        int)
DIABOLO_CONTRACT_MEMBER(observation_bytes,
                        (R::observation_bytes(ref<const typename R::Position>(), 0, static_cast<uint8_t*>(nullptr)), 0),
                        int)
DIABOLO_CONTRACT_MEMBER(to_json, R::to_json(ref<const typename R::State>()), std::string)
DIABOLO_CONTRACT_MEMBER(observation, (R::observation(ref<const typename R::Position>(), 0, ref<json::Tape>()), 0), int)
DIABOLO_CONTRACT_MEMBER(public_observation,
                        (R::public_observation(ref<const typename R::Position>(), ref<json::Tape>()), 0), int)
DIABOLO_CONTRACT_MEMBER(visibility, R::visibility(), json::Value)
DIABOLO_CONTRACT_MEMBER(last_events, R::last_events(ref<const typename R::State>()), Events)

template <class R, class = void>
struct has_move_json : std::false_type {};
template <class R>
struct has_move_json<R, void_t<decltype(R::move_json(ref<const typename R::Move>()))>>
    : std::is_same<decltype(R::move_json(ref<const typename R::Move>())), json::Value> {};
DIABOLO_CONTRACT_MEMBER(state_from_json, R::state_from_json(ref<const typename R::Game>(), std::string_view()),
                        typename R::State)
DIABOLO_CONTRACT_MEMBER(format_move, R::format_move(ref<const typename R::Move>()), std::string)
DIABOLO_CONTRACT_MEMBER(parse_move, R::parse_move(std::string_view()), typename R::Move)
DIABOLO_CONTRACT_MEMBER(random_player, R::random_player(ref<const typename R::Position>(), ref<Pcg32>()), int)
DIABOLO_CONTRACT_MEMBER(scores, (R::scores(ref<const typename R::Position>(), static_cast<int32_t*>(nullptr)), 0), int)
DIABOLO_CONTRACT_MEMBER(max_game_length, R::max_game_length(ref<const typename R::Game>()), int64_t)
DIABOLO_CONTRACT_MEMBER(min_utility, R::min_utility(ref<const typename R::Game>()), int64_t)
DIABOLO_CONTRACT_MEMBER(max_utility, R::max_utility(ref<const typename R::Game>()), int64_t)
DIABOLO_CONTRACT_MEMBER(observation_tensor_bounds,
                        (R::observation_tensor_bounds(ref<const typename R::Game>(), static_cast<float*>(nullptr),
                                                      static_cast<float*>(nullptr)),
                         0),
                        int)
DIABOLO_CONTRACT_MEMBER(rewards, (R::rewards(ref<const typename R::State>(), static_cast<int32_t*>(nullptr)), 0), int)
DIABOLO_CONTRACT_MEMBER(pending_seats, R::pending_seats(ref<const typename R::Position>()), uint32_t)
DIABOLO_CONTRACT_MEMBER(make_bot,
                        R::make_bot(ref<const typename R::Game>(), std::string_view(), ref<const json::Value>()),
                        std::unique_ptr<const typename R::Bot>)
DIABOLO_CONTRACT_MEMBER(bot_move,
                        R::bot_move(ref<const typename R::Bot>(), ref<const typename R::Position>(), 0, ref<Pcg32>()),
                        std::optional<typename R::Move>)
DIABOLO_CONTRACT_MEMBER(bot_delay,
                        R::bot_delay(ref<const typename R::Bot>(), ref<const typename R::Move>(), ref<Pcg32>()),
                        int64_t)
DIABOLO_CONTRACT_MEMBER(action_of, R::action_of(ref<const typename R::Game>(), ref<const typename R::Move>()), int32_t)

#undef DIABOLO_CONTRACT_MEMBER

}  // namespace contract

/// A new game of `R` dealt from `seed`, as a bare position (what matches and simulations
/// play on).
template <class R>
typename R::Position new_position(const typename R::Game& game, uint64_t seed) {
    return R::position(R::new_state(game, seed));
}

/// Checks at compile time that `R` implements the contract; use as
/// `static_assert(implements_contract<Rules>());` next to a game's Rules.
template <class R>
constexpr bool implements_contract() {
    static_assert(std::is_trivially_copyable_v<typename R::Position>,
                  "Position must be trivially copyable (clone = memcpy)");
    static_assert(std::is_copy_constructible_v<typename R::State>, "State must be a value");
    static_assert(std::is_convertible_v<decltype(R::kName), const char*>, "Rules::kName: the game's id");
    static_assert(std::is_convertible_v<decltype(R::kNotationClause), const char*>,
                  "Rules::kNotationClause: the clause of the game's notation");
    static_assert(contract::has_game_from_json<R>::value, "Rules::game_from_json(const json::Value&) -> Game");
    static_assert(contract::has_options_json<R>::value, "Rules::options_json(const Game&) -> json::Value");
    static_assert(contract::has_num_actions<R>::value, "Rules::num_actions(const Game&) -> int");
    static_assert(contract::has_players<R>::value, "Rules::players(const Game&) -> int");
    static_assert(contract::has_new_state<R>::value, "Rules::new_state(const Game&, uint64_t seed) -> State");
    static_assert(contract::has_new_dealt_state<R>::value,
                  "Rules::new_dealt_state(const Game&, uint64_t seed, const json::Value& deal) -> State");
    static_assert(contract::has_position<R>::value, "Rules::position(const State&) -> const Position&");
    static_assert(contract::has_game<R>::value, "Rules::game(const State&) -> const Game&");
    static_assert(contract::has_phase<R>::value, "Rules::phase(const Position&) -> const char*");
    static_assert(contract::has_round<R>::value, "Rules::round(const Position&) -> int");
    static_assert(contract::has_render<R>::value, "Rules::render(const Position&) -> std::string");
    static_assert(contract::has_move_kind<R>::value, "Rules::move_kind(const Move&) -> const char*");
    static_assert(contract::has_move_json<R>::value, "Rules::move_json(const Move&) -> json::Value");
    static_assert(contract::has_move_from_json<R>::value, "Rules::move_from_json(const json::Value&) -> Move");
    static_assert(contract::has_current_player<R>::value, "Rules::current_player(const Position&) -> int");
    static_assert(contract::has_legal_actions<R>::value,
                  "Rules::legal_actions(const Position&, int player, int32_t* out) -> int");
    static_assert(contract::has_move_of_action<R>::value, "Rules::move_of_action(const Game&, int action) -> Move");
    static_assert(contract::has_why_illegal<R>::value,
                  "Rules::why_illegal(const Position&, const Move&, int player) -> std::optional<IllegalMoveError>");
    static_assert(contract::has_apply<R>::value, "Rules::apply(State&, const Move&, int player) -> Move");
    static_assert(contract::has_try_apply<R>::value,
                  "Rules::try_apply(Position&, const Move&, int player) -> std::optional<Move>");
    static_assert(contract::has_apply_action<R>::value, "Rules::apply_action(Position&, int action, int player)");
    static_assert(contract::has_resample<R>::value,
                  "Rules::resample(const Position&, int player, uint64_t seed) -> Position");
    static_assert(contract::has_observation_tensor_size<R>::value,
                  "Rules::observation_tensor_size(const Game&) -> int");
    static_assert(contract::has_observation_tensor<R>::value,
                  "Rules::observation_tensor(const Position&, int player, float*)");
    static_assert(contract::has_observation_bytes<R>::value,
                  "Rules::observation_bytes(const Position&, int player, uint8_t*)");
    static_assert(contract::has_observation<R>::value, "Rules::observation(const Position&, int player, json::Tape&)");
    static_assert(contract::has_to_json<R>::value, "Rules::to_json(const State&) -> std::string");
    static_assert(contract::has_public_observation<R>::value,
                  "Rules::public_observation(const Position&, json::Tape&)");
    static_assert(contract::has_visibility<R>::value, "Rules::visibility() -> json::Value");
    static_assert(contract::has_last_events<R>::value, "Rules::last_events(const State&) -> Events");
    static_assert(contract::has_state_from_json<R>::value,
                  "Rules::state_from_json(const Game&, std::string_view) -> State");
    static_assert(contract::has_format_move<R>::value, "Rules::format_move(const Move&) -> std::string");
    static_assert(contract::has_parse_move<R>::value, "Rules::parse_move(std::string_view) -> Move");
    static_assert(contract::has_random_player<R>::value, "Rules::random_player(const Position&, Pcg32&) -> int");
    static_assert(contract::has_scores<R>::value, "Rules::scores(const Position&, int32_t* out)");
    static_assert(std::is_same_v<std::remove_cv_t<decltype(R::kZeroSum)>, bool>, "Rules::kZeroSum: a bool");
    static_assert(std::is_same_v<std::remove_cv_t<decltype(R::kRealTime)>, bool>, "Rules::kRealTime: a bool");
    static_assert(contract::has_max_game_length<R>::value, "Rules::max_game_length(const Game&) -> int64_t");
    static_assert(contract::has_min_utility<R>::value, "Rules::min_utility(const Game&) -> int64_t");
    static_assert(contract::has_max_utility<R>::value, "Rules::max_utility(const Game&) -> int64_t");
    static_assert(contract::has_observation_tensor_bounds<R>::value,
                  "Rules::observation_tensor_bounds(const Game&, float* low, float* high)");
    static_assert(contract::has_rewards<R>::value, "Rules::rewards(const State&, int32_t* out)");
    static_assert(contract::has_pending_seats<R>::value, "Rules::pending_seats(const Position&) -> uint32_t");
    static_assert(std::is_same_v<std::remove_cv_t<decltype(R::kInfo)>, GameInfo>,
                  "Rules::kInfo: the game's GameInfo (core/catalogue.hpp)");
    static_assert(contract::has_make_bot<R>::value,
                  "Rules::make_bot(const Game&, std::string_view kind, const json::Value& options) -> "
                  "std::unique_ptr<const Bot>");
    static_assert(contract::has_bot_move<R>::value,
                  "Rules::bot_move(const Bot&, const Position&, int player, Pcg32&) -> std::optional<Move>");
    static_assert(contract::has_bot_delay<R>::value, "Rules::bot_delay(const Bot&, const Move&, Pcg32&) -> int64_t");
    static_assert(contract::has_action_of<R>::value, "Rules::action_of(const Game&, const Move&) -> int32_t");
    return true;
}

}  // namespace diabolo
