// The Python binding of the contract (cpp/include/diabolo/core/contract.hpp), written once:
// bind_contract<R> makes the classes <Title>Game, <Title>State and <Title>Move of any game
// from its Rules, and each game's file adds only what is its own (its options as
// properties, the parts of a move, its bots). Every argument is checked here the same way
// for every game (seats, action ids, seeds, numpy integers, move data). new_state is each
// game's own: the deals it may be given differ.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bind_fast.hpp"
#include "bind_spec.hpp"
#include "common.hpp"
#include "diabolo/core/batch.hpp"
#include "diabolo/core/contract.hpp"
#include "diabolo/core/events.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/live.hpp"
#include "diabolo/core/match.hpp"
#include "diabolo/core/scores.hpp"

namespace diabolo::bindings {

template <class R>
struct GameClasses {
    py::class_<typename R::Game> game;
    py::class_<typename R::State> state;
    py::class_<typename R::Move> move;
};

namespace detail {

template <class R>
typename R::Game game_from_kwargs(const GameSpec<R>& spec, const py::dict& kwargs) {
    if (spec.game_from_kwargs) return spec.game_from_kwargs(kwargs);
    return R::game_from_json(from_python(kwargs, "options"));
}

template <class R>
py::dict options_of(const GameSpec<R>& spec, const typename R::Game& game) {
    if (spec.options) return spec.options(game);
    return to_python(R::options_json(game), true);
}

template <class R>
std::vector<int> legal_actions(const GameSpec<R>& spec, const typename R::State& state, const py::object& player) {
    const int seat = seat_of(spec, R::position(state), player, R::players(R::game(state)));
    return seat < 0 ? std::vector<int>{} : legal_ids(spec, state, seat);
}

/// Each seat's score so far.
template <class R>
std::vector<int32_t> scores(const typename R::State& state) {
    std::vector<int32_t> out(static_cast<std::size_t>(R::players(R::game(state))));
    R::scores(R::position(state), out.data());
    return out;
}

/// The docstrings of one game's classes: a text and its example, whose "{name}" is the
/// game's id (the examples run for every game). pybind11 copies each docstring, so the
/// texts need to live only while the classes are made.
template <class R>
class Docs {
public:
    const char* operator()(const std::string& text, const std::string& example) {
        std::string out = text + "\n\n" + example;
        for (std::size_t at = out.find("{name}"); at != std::string::npos; at = out.find("{name}", at))
            out.replace(at, 6, R::kName);
        return texts_.emplace_back(std::move(out)).c_str();
    }

private:
    std::deque<std::string> texts_;
};

/// The first line of the state members' examples.
constexpr const char* kStateExample = ">>> state = diabolo.load('{name}', players=3).new_state(seed=1)\n";

}  // namespace detail

/// <Title>Move: parsing, move data, comparison and hashing.
template <class R>
void bind_move(py::class_<typename R::Move>& cls, detail::Docs<R>& doc, const std::string& title) {
    using Move = typename R::Move;
    cls.def_static(
           "parse", [](const py::object& text) { return R::parse_move(utf8_text<NotationError>(text, "notation")); },
           py::arg("text"),
           doc("The move written as ``text`` in the notation of the rules page; NotationError otherwise.",
               ">>> move = diabolo.load('{name}').move(1)\n>>> type(move).parse(str(move)) == move\nTrue"))
        .def_static(
            "from_dict",
            [](const py::object& data) {
                return with_notation_clause(R::kNotationClause, [&] { return R::move_from_json(move_data(data)); });
            },
            py::arg("data"),
            doc("The move of move data (``to_dict()``'s form: ``{'kind': ...}``); NotationError naming what is wrong.",
                ">>> move = diabolo.load('{name}').move(1)\n>>> type(move).from_dict(move.to_dict()) == move\nTrue"))
        .def_property_readonly(
            "kind", &R::move_kind,
            doc("The kind of move, as move data names it.",
                ">>> move = diabolo.load('{name}').move(1)\n>>> move.kind == move.to_dict()['kind']\nTrue"))
        .def(
            "to_dict", [](const Move& move) { return to_python(R::move_json(move)); },
            doc("The move as data, the form frontends send: ``apply`` and ``game.move`` take it too.",
                ">>> game = diabolo.load('{name}')\n>>> game.move(game.move(1).to_dict()) == game.move(1)\nTrue"));
    bind_move_values(cls, title + "Move", &R::format_move, &R::parse_move);
}

/// <Title>State: whose turn it is, the scores, the history.
template <class R>
void bind_state_turns(py::class_<typename R::State>& cls, detail::Docs<R>& doc) {
    using State = typename R::State;
    const std::string start = detail::kStateExample;
    const auto position = [](const State& state) -> const typename R::Position& { return R::position(state); };
    // The loop's calls are bound by bind_fast.hpp; their docstrings are written here with the others'.
    fast::Calls<R>::describe(
        "current_player",
        doc("The seat to move, ``diabolo.SIMULTANEOUS`` while several seats may act, ``diabolo.TERMINAL`` at the end.",
            start + ">>> state.current_player in (*state.pending_seats, diabolo.SIMULTANEOUS)\nTrue"));
    fast::Calls<R>::describe("is_terminal", doc("True once the game is over.", start + ">>> state.is_terminal\nFalse"));
    cls.def_property_readonly(
           "game", [](const State& state) { return R::game(state); },
           doc("The game (rules and options) of this state.",
               ">>> game = diabolo.load('{name}')\n>>> game.new_state(seed=1).game == game\nTrue"))
        .def_property_readonly(
            "phase", [position](const State& state) { return R::phase(position(state)); },
            doc("The phase's name, as the views show it.", start + ">>> state.phase\n'play'"))
        .def_property_readonly(
            "round", [position](const State& state) { return R::round(position(state)); },
            doc("The round, from 0.", start + ">>> state.round\n0"))
        .def_property_readonly(
            "pending_seats", [position](const State& state) { return seat_list(R::pending_seats(position(state))); },
            doc("The seats that may or must act now, ascending (the player to move, the seats still to make a "
                "simultaneous decision, or every seat with a move in real time); empty at the end.",
                start + ">>> state.pending_seats == [p for p in range(3) if state.legal_actions(p)]\nTrue"))
        .def_property_readonly(
            "scores",
            [](const State& state) {
                const std::vector<int32_t> scores = detail::scores<R>(state);
                return std::vector<int>(scores.begin(), scores.end());
            },
            doc("Each seat's score so far (game totals, or victory tiles in a variant that counts them).",
                start + ">>> state.scores\n[0, 0, 0]"))
        .def(
            "returns",
            [](const State& state) {
                const std::vector<int32_t> scores = detail::scores<R>(state);
                return std::vector<double>(scores.begin(), scores.end());
            },
            doc("The scores as floats: the payoff for learning code.", start + ">>> state.returns()\n[0.0, 0.0, 0.0]"))
        .def(
            "rewards",
            [](const State& state) {
                std::vector<int32_t> rewards(static_cast<std::size_t>(R::players(R::game(state))));
                R::rewards(state, rewards.data());
                return std::vector<double>(rewards.begin(), rewards.end());
            },
            doc("What the last move applied to this state changed in each seat's score, as floats (zeros for a new "
                "state or one read from JSON): the per-move reward for learning code. They add up to ``returns()``.",
                start + ">>> state.rewards()\n[0.0, 0.0, 0.0]"))
        .def_property_readonly(
            "winners",
            [](const State& state) { return best_seats(detail::scores<R>(state), R::players(R::game(state))); },
            doc("Seats with the highest score; ties share the win.", start + ">>> state.winners\n[0, 1, 2]"))
        .def_property_readonly(
            "history",
            [](const State& state) {
                py::list out;
                for (const auto& step : state.history) out.append(py::make_tuple(step.player, step.move));
                return out;
            },
            doc("Every move so far as ``(seat, move)`` pairs, oldest first, as applied.",
                start +
                    ">>> seat = state.pending_seats[0]\n>>> state.apply(state.legal_actions(seat)[0], player=seat)\n"
                    ">>> [player for player, move in state.history] == [seat]\nTrue"))
        .def_property_readonly(
            "last_move",
            [](const State& state) -> py::object {
                if (state.history.empty()) return py::none();
                return py::make_tuple(state.history.back().player, state.history.back().move);
            },
            doc("The last move as a ``(seat, move)`` pair, or None before the first: ``history[-1]`` without "
                "building the whole history.",
                start + ">>> state.last_move is None\nTrue\n>>> seat = state.pending_seats[0]\n"
                        ">>> state.apply(state.legal_actions(seat)[0], player=seat)\n"
                        ">>> state.last_move == state.history[-1]\nTrue"));
}

/// <Title>State: the legal moves and actions, apply, the version.
template <class R>
void bind_state_moves(py::class_<typename R::State>& cls, detail::Docs<R>& doc, const GameSpec<R>& spec) {
    using State = typename R::State;
    const std::string start = detail::kStateExample;
    const auto seat = [spec](const State& state, const py::object& player) {
        return detail::seat_of(spec, R::position(state), player, R::players(R::game(state)));
    };
    fast::Calls<R>::describe(
        "legal_actions",
        doc("Legal action ids of ``player`` (default: the player to move), ascending; empty when that seat has "
            "nothing to do now.",
            start + ">>> actions = state.legal_actions(state.pending_seats[0])\n"
                    ">>> len(actions) > 0 and actions == sorted(actions)\nTrue"));
    fast::Calls<R>::describe(
        "apply",
        doc("Plays ``move`` (a move, an action id, notation or move data) for ``player`` (default: the player to "
            "move). Raises IllegalMoveError naming the clause, and changes nothing, if the move is not legal now. "
            "``version``: the state's version the move was made on (live play); a move that was legal then but "
            "lost a race to another move raises StaleMoveError, a subclass of IllegalMoveError.",
            start + ">>> seat = state.pending_seats[0]\n>>> move = state.legal_moves(seat)[0]\n"
                    ">>> state.apply(move.to_dict(), player=seat, version=state.version)\n>>> state.version\n1"));
    cls.def(
           "legal_moves",
           [spec, seat](const State& state, const py::object& player) {
               const int p = seat(state, player);
               if (p < 0) return py::object(py::list());
               if (spec.legal_moves) return py::cast(spec.legal_moves(R::position(state), p));
               const std::vector<int> ids = detail::legal_ids(spec, state, p);
               py::list moves(ids.size());  // filled in place: no vector of moves in between
               for (std::size_t i = 0; i < ids.size(); ++i) {
                   py::object move = py::cast(R::move_of_action(R::game(state), ids[i]));
                   PyList_SET_ITEM(moves.ptr(), static_cast<py::ssize_t>(i), move.release().ptr());
               }
               return py::object(std::move(moves));
           },
           py::arg("player") = py::none(),
           doc("Legal moves of ``player`` (default: the player to move), the moves of its legal actions.",
               start + ">>> seat = state.pending_seats[0]\n"
                       ">>> len(state.legal_moves(seat)) == len(state.legal_actions(seat))\nTrue"))
        .def(
            "legal_action_mask",
            [spec](const State& state, const py::object& player) {
                const auto n = static_cast<std::size_t>(R::num_actions(R::game(state)));
                py::array_t<bool> mask(static_cast<py::ssize_t>(n));
                bool* data = mask.mutable_data();
                std::fill(data, data + n, false);
                for (const int id : detail::legal_actions(spec, state, player)) data[id] = true;
                return mask;
            },
            py::arg("player") = py::none(),
            doc("A numpy bool array of length ``num_actions``, True at legal action ids.",
                start + ">>> mask = state.legal_action_mask(0)\n"
                        ">>> len(mask) == state.game.num_actions and int(mask.sum()) == len(state.legal_actions(0))\n"
                        "True"))
        .def_property_readonly(
            "version", [](const State& state) { return live::version(state); },
            doc("The number of moves applied so far. A move may name the version it was made on "
                "(``apply(..., version=)``); a server sends it beside each view and each list of events. Views do not "
                "hold it: in Schacht a version that moved on would tell a seat that another has made its secret "
                "doubler decision (S7.1).",
                start + ">>> state.version == len(state.history)\nTrue"));
}

/// <Title>State: each seat's views, events and tensor, and resample.
template <class R>
void bind_state_views(py::class_<typename R::State>& cls, detail::Docs<R>& doc) {
    using State = typename R::State;
    const std::string start = detail::kStateExample;
    cls.def(
           "observation",
           [](const State& state, const py::object& player) {
               const int p = to_seat(player, R::players(R::game(state)));
               return view_to_python([&](json::Tape& view) { R::observation(R::position(state), p, view); });
           },
           py::arg("player"),
           doc("What ``player`` may know, as a JSON-ready dict with the keys of the rules page.",
               start + ">>> view = state.observation(2)\n>>> view['player'], view['round']\n(2, 0)"))
        .def(
            "public_observation",
            [](const State& state) {
                return view_to_python([&](json::Tape& view) { R::public_observation(R::position(state), view); });
            },
            doc("What a spectator may know: the keys of ``observation`` that ``game.visibility`` marks public, with "
                "``player`` None.",
                start + ">>> view = state.public_observation()\n>>> view['player'] is None and 'legal' not in view\n"
                        "True\n>>> all(view[key] == value for key, value in state.observation(0).items() "
                        "if key in view and key != 'player')\nTrue"))
        .def_property_readonly(
            "last_events",
            [](const State& state) {
                py::list out;
                for (const Event& event : R::last_events(state)) {
                    py::dict entry;
                    entry["visible_to"] =
                        event.visible_to == kEveryone ? py::object(py::none()) : py::int_(event.visible_to);
                    entry["event"] = to_python(event.data);
                    entry["public"] = to_python(event.redacted);
                    out.append(std::move(entry));
                }
                return out;
            },
            doc("Every event of the last move, in order, secrets included: dicts ``{'visible_to': None or a seat, "
                "'event': {...}, 'public': {...} or None}``, where ``public`` is what the others see of a private "
                "event. Empty before the first move and for a state read from JSON. Written on demand: ``apply`` "
                "does not pay for it.",
                start + ">>> seat = state.pending_seats[0]\n>>> state.apply(state.legal_actions(seat)[0], player=seat)"
                        "\n>>> [entry['event']['type'] for entry in state.last_events][0] in "
                        "state.game.visibility['events']\nTrue"))
        .def(
            "events_for",
            [](const State& state, const py::object& player) {
                const int p = to_seat(player, R::players(R::game(state)));
                py::list out;
                for (const json::Value& event : events_seen_by(R::last_events(state), p)) out.append(to_python(event));
                return out;
            },
            py::arg("player"),
            doc("The events of the last move as ``player`` sees them, in order: JSON-ready dicts with a ``type``. Fed "
                "to a client that holds ``observation(player)``, they keep it up to date (docs: Building a frontend).",
                start + ">>> seat = state.pending_seats[0]\n>>> state.apply(state.legal_actions(seat)[0], player=seat)"
                        "\n>>> all('type' in event for event in state.events_for(0))\nTrue"))
        .def(
            "public_events",
            [](const State& state) {
                py::list out;
                for (const json::Value& event : events_seen_by(R::last_events(state), kEveryone))
                    out.append(to_python(event));
                return out;
            },
            doc("The events of the last move as a spectator sees them: they keep ``public_observation()`` up to date.",
                start + ">>> seat = state.pending_seats[0]\n>>> state.apply(state.legal_actions(seat)[0], player=seat)"
                        "\n>>> len(state.public_events()) <= len(state.last_events)\nTrue"))
        .def(
            "events_json",
            [](const State& state) {
                // One replay of the last move for every audience, written straight from its
                // events: no dicts made to be encoded again.
                const Events events = R::last_events(state);
                const int players = R::players(R::game(state));
                py::dict out;
                for (int p = -1; p < players; ++p) {
                    const int viewer = p < 0 ? kEveryone : p;
                    std::string text = "[";
                    for (const Event& event : events) {
                        const json::Value* shown = seen_by(event, viewer);
                        if (shown == nullptr) continue;
                        if (text.size() > 1) text += ',';
                        text += json::serialize(*shown);
                    }
                    text += ']';
                    out[p < 0 ? py::object(py::none()) : py::object(py::int_(p))] = py::str(text);
                }
                return out;
            },
            doc("The events of the last move as each audience sees them, as compact JSON text: ``{None: "
                "public_events(), 0: events_for(0), ...}`` written in C++ from one replay of the move, for a server "
                "that sends them on.",
                start + ">>> seat = state.pending_seats[0]\n>>> state.apply(state.legal_actions(seat)[0], player=seat)"
                        "\n>>> import json\n>>> texts = state.events_json()\n>>> json.loads(texts[0]) == "
                        "state.events_for(0)\nTrue\n>>> json.loads(texts[None]) == state.public_events()\nTrue"))
        .def(
            "observation_tensor",
            [](const State& state, const py::object& player) {
                const int p = to_seat(player, R::players(R::game(state)));
                py::array_t<float> out(R::observation_tensor_size(R::game(state)));
                R::observation_tensor(R::position(state), p, out.mutable_data());
                return out;
            },
            py::arg("player"),
            doc("What ``player`` may know as a float32 numpy array of ``game.observation_tensor_shape``.",
                start + ">>> state.observation_tensor(0).shape == state.game.observation_tensor_shape\nTrue"))
        .def(
            "resample",
            [](const State& state, const py::object& player, const py::object& seed) {
                return state.resample(to_seat(player, R::players(R::game(state))), to_seed(seed));
            },
            py::arg("player"), py::arg("seed"),
            doc("Determinisation: a state that looks the same to ``player``, with what that player cannot see dealt "
                "anew from ``seed``; it depends only on what ``player`` knows and on ``seed``.",
                start + ">>> state.resample(1, seed=5).observation(1) == state.observation(1)\nTrue"));
}

/// <Title>State: text, copies, JSON, equality and pickling.
template <class R>
void bind_state_values(py::class_<typename R::State>& cls, detail::Docs<R>& doc, const std::string& title) {
    using State = typename R::State;
    using Game = typename R::Game;
    const std::string start = detail::kStateExample;
    fast::Calls<R>::describe("clone", doc("An independent copy.",
                                          start + ">>> state.clone() == state and state.clone() is not state\nTrue"));
    fast::Calls<R>::describe("to_json",
                             doc("The whole state (hidden cards, seed and history included) as JSON text; the game's "
                                 "``state_from_json`` reads it back.",
                                 start + ">>> state.game.state_from_json(state.to_json()) == state\nTrue"));
    cls.def("__str__", [](const State& state) { return R::render(R::position(state)); })
        .def("__repr__",
             [title](const State& state) {
                 const auto& p = R::position(state);
                 const int current = R::current_player(p);
                 return "<" + title + "State round " + std::to_string(R::round(p)) + " " + R::phase(p) +
                        (current >= 0 ? " current_player=" + std::to_string(current) : std::string()) + ">";
             })
        .def("__copy__", [](const State& state) { return state; })
        .def(
            "__deepcopy__", [](const State& state, const py::object&) { return state; }, py::arg("memo"))
        .def("__eq__",
             [](const State& a, const py::object& b) -> py::object {
                 if (!py::isinstance<State>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 return py::bool_(R::to_json(a) == R::to_json(b.cast<const State&>()));
             })
        .def_property_readonly_static("__hash__", [](const py::object&) { return py::none(); })
        .def(py::pickle([](const State& state) { return py::make_tuple(R::game(state), R::to_json(state)); },
                        [title](const py::tuple& t) {
                            if (t.size() != 2 || !py::isinstance<Game>(t[0]))
                                throw StateFormatError("a pickled " + title + "State is (game, state JSON)");
                            return R::state_from_json(t[0].cast<const Game&>(),
                                                      utf8_text<StateFormatError>(t[1], "state JSON"));
                        }));
}

/// <Title>Game: its id, options, sizes, catalogue entry and the states it makes.
template <class R>
void bind_game_members(py::class_<typename R::Game>& cls, detail::Docs<R>& doc, const GameSpec<R>& spec) {
    using Game = typename R::Game;
    fast::Calls<R>::describe(
        "state_from_json", doc("The state written by the state's ``to_json``; StateFormatError naming what is wrong if "
                               "the text is not a valid state of this game.",
                               ">>> game = diabolo.load('{name}')\n>>> state = game.new_state(seed=2)\n"
                               ">>> game.state_from_json(state.to_json()) == state\nTrue"));
    cls.def(py::init([spec](const py::kwargs& kwargs) { return detail::game_from_kwargs(spec, kwargs); }))
        .def_property_readonly(
            "name", [](const Game&) { return R::kName; },
            doc("The game's id, as ``diabolo.load`` takes it.", ">>> diabolo.load('{name}').name\n'{name}'"))
        .def_property_readonly(
            "title", [](const Game&) { return R::kInfo.title; },
            doc("The game's name for people (its catalogue entry).",
                ">>> diabolo.load('{name}').title == diabolo.registry.catalogue_entry('{name}').title\nTrue"))
        .def_property_readonly("players", &R::players,
                               doc("Number of seats.", ">>> diabolo.load('{name}', players=3).players\n3"))
        .def_property_readonly(
            "options", [spec](const Game& game) { return detail::options_of(spec, game); },
            doc("Every option with its value, defaults filled in.",
                ">>> diabolo.load('{name}', players=3).options['players']\n3"))
        .def_property_readonly("num_actions", &R::num_actions,
                               doc("Number of action ids: they are 0 .. num_actions - 1.",
                                   ">>> game = diabolo.load('{name}')\n>>> "
                                   "len(game.new_state(seed=1).legal_action_mask(0)) == game.num_actions\nTrue"))
        .def(
            "action",
            [spec](const Game& game, const py::object& move) -> py::object {
                const int32_t action = R::action_of(game, detail::to_move(spec, game, move));
                return action < 0 ? py::object(py::none()) : py::object(py::int_(action));
            },
            py::arg("move"),
            doc("The action id of a move (a move, its notation or its data), or None for a move with no id "
                "(a Knizia claim of a word outside the lexicon).",
                ">>> game = diabolo.load('{name}')\n>>> state = game.new_state(seed=1)\n>>> "
                "seat = state.pending_seats[0]\n>>> "
                "game.action(state.legal_moves(seat)[0]) in state.legal_actions(seat)\nTrue"))
        .def_property_readonly(
            "max_game_length",
            [](const Game& game) -> py::object {
                const int64_t longest = R::max_game_length(game);
                return longest < 0 ? py::object(py::none()) : py::object(py::int_(longest));
            },
            doc("The most moves a game can take, or None if it can go on without end (a move that may be repeated, "
                "such as a pass that is always open).",
                ">>> game = diabolo.load('{name}', players=3)\n>>> game.max_game_length is None or "
                "game.max_game_length > 0\nTrue"))
        .def_property_readonly(
            "min_utility", [](const Game& game) { return static_cast<double>(R::min_utility(game)); },
            doc("The lowest final score a seat can have: a bound of ``returns()``.",
                ">>> game = diabolo.load('{name}', players=3)\n>>> game.min_utility <= 0 < game.max_utility\nTrue"))
        .def_property_readonly(
            "max_utility", [](const Game& game) { return static_cast<double>(R::max_utility(game)); },
            doc("The highest final score a seat can have: a bound of ``returns()``.",
                ">>> game = diabolo.load('{name}', players=3)\n>>> game.max_utility > 0\nTrue"))
        .def_property_readonly_static(  // also on the class: SchachtGame.real_time
            "real_time", [](const py::object&) { return R::kRealTime; },
            doc("Whether the game is played in real time: no turns, every seat with a legal move may "
                "move, and moves apply in the order they arrive (Duvelen D3, Knizia K3.2). Schacht "
                "is played in turns (S2.3).",
                ">>> diabolo.load('duvelen').real_time, diabolo.load('schacht').real_time\n(True, False)"))
        .def_property_readonly(
            "zero_sum", [](const Game&) { return R::kZeroSum; },
            doc("Whether the scores always sum to 0. The three games score each seat's own points: general-sum.",
                ">>> diabolo.load('{name}').zero_sum\nFalse"))
        .def_property_readonly(
            "observation_tensor_bounds",
            [](const Game& game) {
                const auto n = static_cast<py::ssize_t>(R::observation_tensor_size(game));
                py::array_t<float> low(n), high(n);
                R::observation_tensor_bounds(game, low.mutable_data(), high.mutable_data());
                return py::make_tuple(low, high);
            },
            doc("The lowest and highest value of every entry of the observation tensor, as two float32 arrays of "
                "``observation_tensor_shape``: the bounds of a Box space.",
                ">>> game = diabolo.load('{name}', players=3)\n>>> low, high = game.observation_tensor_bounds\n"
                ">>> tensor = game.new_state(seed=1).observation_tensor(0)\n"
                ">>> bool(((low <= tensor) & (tensor <= high)).all())\nTrue"))
        .def_property_readonly(
            "observation_tensor_shape",
            [](const Game& game) { return py::make_tuple(R::observation_tensor_size(game)); },
            doc("Shape of the state's ``observation_tensor``.",
                ">>> game = diabolo.load('{name}')\n>>> game.new_state(seed=1).observation_tensor(0).shape == "
                "game.observation_tensor_shape\nTrue"))
        .def_property_readonly(
            "visibility", [](const Game&) { return to_python(R::visibility()); },
            doc("Who may see what, as data: ``{'observation': {key: 'public' or 'private'}, 'moves': {kind: 'public' "
                "or 'secret'}, 'events': {type: 'public', 'private' or 'private_with_public_form'}}``. A server "
                "sends each seat ``observation(seat)`` and ``events_for(seat)``, spectators ``public_observation()`` "
                "and ``public_events()``; this table says why.",
                ">>> game = diabolo.load('{name}')\n>>> game.visibility['observation']['legal']\n'private'\n"
                ">>> sorted(game.visibility)\n['events', 'moves', 'observation']"))
        .def(
            "move", [spec](const Game& game, const py::object& move) { return detail::to_move(spec, game, move); },
            py::arg("move"),
            doc("The move of notation text, an action id or move data.",
                ">>> game = diabolo.load('{name}')\n>>> game.move(str(game.move(1))) == game.move(1)\nTrue"))
        .def(
            "play_random",
            [](const Game& game, const py::object& games, const py::object& seed, const py::object& threads) {
                const Batch batch = batch_args(games, seed, threads);
                RandomPlayResult result;
                SignalCheck signals;  // Ctrl-C stops the batch
                {
                    py::gil_scoped_release release;
                    result = play_random<R>(game, batch.games, batch.seed, batch.threads, signals.interrupt());
                }
                signals.raise_if_interrupted();
                py::dict out;
                out["scores"] = to_numpy(result.scores, {batch.games, result.players});
                out["moves"] = to_numpy(result.moves, {batch.games});
                return out;
            },
            py::arg("games"), py::arg("seed") = 0, py::arg("threads") = 1,
            doc("Plays ``games`` whole games in C++ without the GIL on ``threads`` threads: at each step a seat that "
                "may act makes a uniformly random legal move. Returns numpy arrays ``scores`` (games x players) and "
                "``moves`` (per game); game i depends only on (seed, i), not on ``threads``.",
                ">>> result = diabolo.load('{name}', players=3).play_random(4, seed=5, threads=2)\n"
                ">>> result['scores'].shape, result['moves'].shape\n((4, 3), (4,))"))
        .def(
            "vector_env",
            // Its options are checked and its opponents made in Python, where the bots and
            // their kinds are (diabolo.registry); imported at the call, the package's
            // modules having been imported by then.
            [](const py::object& game, const py::args& args, const py::kwargs& kwargs) {
                return py::module_::import("diabolo.envs.vector").attr("vector_env")(game, *args, **kwargs);
            },
            doc("``diabolo.envs.vector.vector_env(game, games, ...)``, which has the options: ``games`` games stepped "
                "together in C++, one learning seat in each, the others played by C++ bots (docs/ai.rst, \"The "
                "vector env\").",
                ">>> env = diabolo.load('{name}', players=3).vector_env(2, seed=1)\n"
                ">>> observations, masks = env.reset()\n>>> masks.shape == (2, env.num_actions)\nTrue"))
        .def("__repr__",
             [spec](const Game& game) {
                 if (spec.game_repr) return spec.game_repr(game);
                 std::string text = std::string("diabolo.load('") + R::kName + "'";
                 for (auto item : detail::options_of(spec, game))
                     text += ", " + std::string(py::str(item.first)) + "=" + std::string(py::repr(item.second));
                 return text + ")";
             })
        .def("__eq__", &equal_values<Game>)
        .def("__hash__", [](const Game& game) { return py::hash(py::str(json::serialize(R::options_json(game)))); })
        .def(py::pickle([spec](const Game& game) { return detail::options_of(spec, game); },
                        [spec](const py::dict& options) { return detail::game_from_kwargs(spec, options); }));
}

/// Binds the game of `R` into `m`: <Title>Game, <Title>State and <Title>Move with every
/// member of the contract. The caller adds the game's own members to the classes returned.
template <class R>
GameClasses<R> bind_contract(py::module_& m, const GameSpec<R>& spec) {
    using Game = typename R::Game;
    using State = typename R::State;
    using Move = typename R::Move;
    const std::string title = spec.title;
    detail::Docs<R> doc;
    GameClasses<R> classes{py::class_<Game>(m, (title + "Game").c_str(), spec.game_doc),
                           py::class_<State>(m, (title + "State").c_str(), spec.state_doc),
                           py::class_<Move>(m, (title + "Move").c_str(), spec.move_doc)};

    bind_move<R>(classes.move, doc, title);
    bind_state_turns<R>(classes.state, doc);
    bind_state_moves<R>(classes.state, doc, spec);
    bind_state_views<R>(classes.state, doc);
    bind_state_values<R>(classes.state, doc, title);
    bind_game_members<R>(classes.game, doc, spec);
    fast::install<R>(classes.game, classes.state, spec);
    return classes;
}

}  // namespace diabolo::bindings
