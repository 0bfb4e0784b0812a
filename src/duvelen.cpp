// Python bindings of Duvelen: DuvelenGame, DuvelenState, DuvelenMove.
// Only conversion lives here; the rules are in cpp/src/duvelen/.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/monotonic_resource.hpp>

#include "common.hpp"
#include "diabolo/core/batch.hpp"
#include "diabolo/duvelen/duvelen.hpp"

namespace diabolo::bindings {

using namespace diabolo::duvelen;

namespace {

constexpr const char* kPhaseNames[] = {"play", "after_stop", "game_over"};
constexpr const char* kMoveKinds[] = {"play", "turn", "recycle", "recycle^", "stop", "pass"};
constexpr const char* kSourceNames[] = {"S", "R1", "R2", "R3", "R4", "W"};
constexpr const char* kBlockNames[] = {"rotate_stok", "end_round"};

py::dict options_dict(const Game& game) { return to_python(options_json(game), true); }

Game config_from_kwargs(const py::dict& kwargs) { return game_from_json(from_python(kwargs, "options")); }

Move to_move(const py::handle& value) {
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) return Move::of_action(to_action(value, kNumActions));
    if (PyUnicode_Check(value.ptr())) return parse_move(utf8_text<NotationError>(value, "a move"));
    if (py::isinstance<Move>(value)) return value.cast<Move>();
    if (as_integer(value)) return Move::of_action(to_action(value, kNumActions));  // numpy integers
    if (PyDict_Check(value.ptr())) return move_from_json(move_data(value));        // {"kind": ...}
    throw NotationError("a Duvelen move is a DuvelenMove, an action id or notation text like 'R2:7h>3', got " +
                        py::repr(value).cast<std::string>());
}

/// The player a query is about. Duvelen has no player to move (D3), so one must be named.
int query_player(const Position& s, const py::object& player) {
    if (player.is_none()) throw PlayerError("Duvelen is played simultaneously (D3): name the player");
    return to_seat(player, s.players());
}

std::vector<Deck> decks_from(const py::handle& value, int players) {
    if (!py::isinstance<py::sequence>(value) || PyUnicode_Check(value.ptr())) {
        throw StateFormatError("decks must be one list of 52 cards per seat (D2.5)");
    }
    const auto seq = py::reinterpret_borrow<py::sequence>(value);
    if (static_cast<int>(py::len(seq)) != players) {
        throw StateFormatError("decks must hold one deck per seat (D2.5): " + std::to_string(players) + " decks, got " +
                               std::to_string(py::len(seq)));
    }
    std::vector<Deck> decks;
    for (std::size_t seat = 0; seat < seq.size(); ++seat) {
        const std::string what = "decks[" + std::to_string(seat) + "]";
        const py::handle cards = seq[seat];
        if (!py::isinstance<py::sequence>(cards) || PyUnicode_Check(cards.ptr()) || py::len(cards) != kDeckCards) {
            throw StateFormatError(what + " must list all 52 cards of a deck, like '10h' (D2.5)");
        }
        Deck deck{};
        std::size_t i = 0;
        for (auto card : py::reinterpret_borrow<py::sequence>(cards)) {
            try {
                deck[i++] = static_cast<uint8_t>(parse_card(utf8_text<StateFormatError>(card, what)));
            } catch (const NotationError& e) {
                throw StateFormatError(what + ": " + e.what());
            }
        }
        check_deck(deck);
        decks.push_back(deck);
    }
    return decks;
}

// ---- bots and simulation -----------------------------------------------------------------

realtime::Reaction reaction_from(const py::handle& value) {
    return bindings::reaction_from(value, default_reaction(), kReactionKindNames, kReactionKinds, "Duvelen");
}

/// A bot written in Python: anything with choose(state, player) -> move or None. It is
/// called with the GIL held (simulations with Python bots keep it).
class PythonBot : public Bot {
public:
    explicit PythonBot(py::object bot)
        : Bot(reaction_from(py::getattr(bot, "reaction", py::none()))), bot_(std::move(bot)) {}
    std::optional<Move> choose(const Position& state, int player, Pcg32&) const override {
        State view;
        view.position = state;
        const py::object move = bot_.attr("choose")(view, player);
        if (move.is_none()) return std::nullopt;
        return to_move(move);
    }

private:
    py::object bot_;
};

py::tuple run_tuple(const State& start, const Run& run) {
    State final;
    final.position = run.state;
    final.history = start.history;
    py::list log;
    for (const auto& step : run.log) {
        if (step.accepted) final.history.push_back(Step{step.player, step.move});
        log.append(py::make_tuple(step.time, step.player, step.move, step.accepted));
    }
    return py::make_tuple(final, log, run.accepted, run.rejected, run.time);
}

}  // namespace

void bind_duvelen(py::module_& m) {
    py::class_<Bot, std::shared_ptr<Bot>>(m, "DuvelenBot", "A Duvelen bot implemented in C++.")
        .def(
            "choose",
            [](const Bot& bot, const State& t, const py::object& player, const py::object& seed) -> py::object {
                Pcg32 rng(to_seed(seed));
                const std::optional<Move> move = bot.choose(t.position, to_seat(player, t.position.players()), rng);
                return move ? py::cast(*move) : py::none();
            },
            py::arg("state"), py::arg("player"), py::arg("seed") = 0,
            "The move this bot makes for ``player`` now, or None to wait for the table to change.");
    py::class_<RandomBot, Bot, std::shared_ptr<RandomBot>>(m, "DuvelenRandomBot", R"doc(
Plays any legal move, uniformly at random (the seed of the run decides which).

>>> from diabolo.duvelen import RandomBot
>>> RandomBot().name
'random'
)doc")
        .def(py::init([](const py::object& reaction) { return std::make_shared<RandomBot>(reaction_from(reaction)); }),
             py::arg("reaction") = py::none())
        .def_property_readonly("name", [](const RandomBot&) { return "random"; }, "``'random'``.");
    py::class_<GreedyBot, Bot, std::shared_ptr<GreedyBot>>(m, "DuvelenGreedyBot", R"doc(
Calls Stop as soon as it may; otherwise plays whenever it can (its Stok first, then its
Rij, then its waste), else turns or recycles. After Stop it plays or passes, then waits.

>>> import diabolo
>>> from diabolo.duvelen import GreedyBot
>>> state = diabolo.load("duvelen", players=2).new_state(seed=1)
>>> str(GreedyBot().choose(state, 0)) in {str(m) for m in state.legal_moves(0)}
True
)doc")
        .def(py::init([](const py::object& reaction) { return std::make_shared<GreedyBot>(reaction_from(reaction)); }),
             py::arg("reaction") = py::none())
        .def_property_readonly("name", [](const GreedyBot&) { return "greedy"; }, "``'greedy'``.");
    py::class_<LookaheadBot, Bot, std::shared_ptr<LookaheadBot>>(m, "DuvelenLookaheadBot", R"doc(
Calls Stop when it can, and otherwise picks the play after which its round score (D5)
plus the number of plays it then has is highest: one move of look-ahead. So it empties
its Stok and Rij first, completes Herenhoops and keeps its chains going. With no play it
turns, recycles or passes like GreedyBot.

>>> import diabolo
>>> from diabolo.duvelen import LookaheadBot
>>> state = diabolo.load("duvelen", players=2).new_state(seed=1)
>>> LookaheadBot().name
'lookahead'
)doc")
        .def(py::init(
                 [](const py::object& reaction) { return std::make_shared<LookaheadBot>(reaction_from(reaction)); }),
             py::arg("reaction") = py::none())
        .def_property_readonly("name", [](const LookaheadBot&) { return "lookahead"; }, "``'lookahead'``.");

    m.def("duvelen_simulate", [](const State& start, const py::sequence& bots, const py::object& seed, double max_time,
                                 const py::object& max_events) {
        const realtime::Limits limits = limits_from(max_time, max_events);
        std::vector<std::shared_ptr<Bot>> owned;
        bool all_native = true;
        for (auto bot : bots) {
            if (py::isinstance<Bot>(bot)) {
                owned.push_back(cpp_bot<Bot>(bot));
            } else {
                if (!py::hasattr(bot, "choose")) throw OptionError("a bot needs a choose(state, player) method");
                owned.push_back(std::make_shared<PythonBot>(py::reinterpret_borrow<py::object>(bot)));
                all_native = false;
            }
        }
        std::vector<const Bot*> seats;
        for (const auto& bot : owned) seats.push_back(bot.get());
        const uint64_t s = to_seed(seed);
        Run run;
        if (all_native) {
            py::gil_scoped_release release;
            run = simulate(start.position, seats, s, limits);
        } else {
            run = simulate(start.position, seats, s, limits);
        }
        return run_tuple(start, run);
    });

    m.def("duvelen_simulate_many",
          [](const Game& c, const py::sequence& bots, const py::object& games, const py::object& seed,
             const py::object& threads, double max_time, const py::object& max_events) {
              const realtime::Limits limits = limits_from(max_time, max_events);
              std::vector<std::shared_ptr<Bot>> owned;
              for (auto bot : bots) {
                  if (!py::isinstance<Bot>(bot))
                      throw OptionError("simulate_many runs C++ bots only; use simulate for Python bots");
                  owned.push_back(cpp_bot<Bot>(bot));
              }
              std::vector<const Bot*> seats;
              for (const auto& bot : owned) seats.push_back(bot.get());
              const Batch batch = batch_args(games, seed, threads);
              SimulationBatch result;
              SignalCheck signals;
              {
                  py::gil_scoped_release release;
                  result = simulate_many(c, seats, batch.games, batch.seed, batch.threads, limits, signals.interrupt());
              }
              signals.raise_if_interrupted();
              return batch_dict(result, batch.games, c.players);
          });

    py::class_<Move> move_class(m, "DuvelenMove", R"doc(
A move of Duvelen: frozen, hashable, ``str()`` is its notation (D7).

A play names its source, card and target pile (``'R2:7h>3'``), so a play sent before
the table changed can never play another card (D3.10). The short form ``'R2>3'`` and
the action ids name only the source and the pile: the card is whatever lies there
when the move is applied.

>>> from diabolo.duvelen import DuvelenMove
>>> move = DuvelenMove.parse("R2:7h>3")
>>> move.kind, move.source, move.card, move.target, move.action
('play', 'R2', '7h', 3, 69)
>>> str(DuvelenMove.from_action(69)), str(DuvelenMove.parse("S:Ah>new"))
('R2>3', 'S:Ah>new')
)doc");
    move_class
        .def_static(
            "parse", [](const py::object& text) { return parse_move(utf8_text<NotationError>(text, "notation")); },
            py::arg("text"),
            "The move written as ``text`` (D7); raises NotationError.\n\n>>> "
            "DuvelenMove.parse('recycle^').kind\n'recycle^'")
        .def_static(
            "from_action", [](const py::object& action) { return Move::of_action(to_action(action, kNumActions)); },
            py::arg("action"),
            "The (short-form) move of an action id 0..202.\n\n>>> str(DuvelenMove.from_action(198))\n'turn'")
        .def_property_readonly("action", &Move::action, "The stable, positional action id (0..202).")
        .def_property_readonly(
            "kind", [](const Move& mv) { return kMoveKinds[static_cast<int>(mv.kind)]; },
            "``'play'``, ``'turn'``, ``'recycle'``, ``'recycle^'``, ``'stop'`` or ``'pass'``.")
        .def_property_readonly(
            "source",
            [](const Move& mv) -> py::object {
                if (mv.kind != MoveKind::Play) return py::none();
                return py::str(kSourceNames[static_cast<int>(mv.source)]);
            },
            "``'S'``, ``'R1'``..``'R4'`` or ``'W'`` for a play, else None.")
        .def_property_readonly(
            "card",
            [](const Move& mv) -> py::object {
                return mv.kind == MoveKind::Play && mv.card != kNoCard ? py::object(py::str(format_card(mv.card)))
                                                                       : py::object(py::none());
            },
            "The card a play names (``'7h'``), or None (short form, or not a play).")
        .def_property_readonly(
            "target",
            [](const Move& mv) -> py::object {
                if (mv.kind != MoveKind::Play) return py::none();
                return mv.target == 0 ? py::object(py::str("new")) : py::object(py::int_(mv.target));
            },
            "The pile number a play goes to, ``'new'`` for an Ace, or None.");
    move_class.def(
        "to_dict", [](const Move& m) { return to_python(move_json(m)); },
        "The move as data, as ``apply`` and ``game.move`` also take it (D7).\n\n"
        ">>> DuvelenMove.parse('R2:7h>3').to_dict()\n{'kind': 'play', 'source': 'R2', 'card': '7h', 'target': 3}");
    bind_move_values(move_class, "DuvelenMove", &format_move, &parse_move);

    py::class_<State> state_class(m, "DuvelenState", R"doc(
A position of Duvelen, with the moves that led to it.

There are no turns (D3): ``current_player`` is ``diabolo.SIMULTANEOUS`` until the game is
over, every query names its player, and ``apply(move, player=p)`` applies moves in the
order they arrive. A play that lost a race raises IllegalMoveError and changes nothing.

>>> import diabolo
>>> state = diabolo.load("duvelen", players=2).new_state(seed=3)
>>> state.current_player == diabolo.SIMULTANEOUS
True
>>> state.apply("turn", player=0)
>>> state.observation(1)["seats"][0]["waste_count"]
3
)doc");
    state_class
        .def_property_readonly(
            "game", [](const State& t) { return t.position.game; }, "The game (rules and options) of this state.")
        .def_property_readonly(
            "current_player", [](const State& t) { return t.position.current_player(); },
            "``diabolo.SIMULTANEOUS`` while a round is played, ``diabolo.TERMINAL`` at game over.")
        .def_property_readonly(
            "phase", [](const State& t) { return kPhaseNames[static_cast<int>(t.position.phase)]; },
            "``'play'``, ``'after_stop'`` or ``'game_over'`` (D8.3).")
        .def_property_readonly(
            "round", [](const State& t) { return t.position.round; }, "The round, from 0 (D1.3).")
        .def_property_readonly(
            "pending_seats", [](const State& t) { return seat_list(pending_seats(t.position)); },
            "The seats with a legal move now, ascending (D3: every seat acts when it can); empty at game over.\n\n"
            ">>> diabolo.load('duvelen', players=3).new_state(seed=1).pending_seats\n[0, 1, 2]")
        .def_property_readonly(
            "is_terminal", [](const State& t) { return t.position.is_terminal(); }, "True once the game is over.")
        .def_property_readonly(
            "scores",
            [](const State& t) {
                return std::vector<int>(t.position.scores.begin(), t.position.scores.begin() + t.position.players());
            },
            "Totals of the finished rounds per seat (D5).")
        .def_property_readonly(
            "round_scores",
            [](const State& t) {
                const auto points = round_scores(t.position);
                return std::vector<int>(points.begin(), points.begin() + t.position.players());
            },
            "The current round scored as if it ended now (D5); at game over, the last round's.")
        .def(
            "returns",
            [](const State& t) {
                return std::vector<double>(t.position.scores.begin(), t.position.scores.begin() + t.position.players());
            },
            "Totals of the finished rounds per seat as floats.")
        .def_property_readonly(
            "winners", [](const State& t) { return winners(t.position); },
            "Seats with the highest total; ties share the win.")
        .def_property_readonly(
            "history",
            [](const State& t) {
                py::list out;
                for (const Step& step : t.history) out.append(py::make_tuple(step.player, step.move));
                return out;
            },
            "Every move so far as ``(seat, move)`` pairs in arrival order, plays in long form.")
        .def(
            "legal_moves",
            [](const State& t, const py::object& player) {
                return legal_moves(t.position, query_player(t.position, player));
            },
            py::arg("player") = py::none(),
            "Legal moves of ``player`` now, in the canonical order of the rules page "
            "(``player`` is required: Duvelen has no player to move).")
        .def(
            "legal_actions",
            [](const State& t, const py::object& player) {
                std::vector<int> actions;
                for (const Move& move : legal_moves(t.position, query_player(t.position, player)))
                    actions.push_back(move.action());
                return actions;
            },
            py::arg("player") = py::none(),
            "Legal action ids of ``player`` (the positional ids of :meth:`legal_moves`).")
        .def(
            "legal_action_mask",
            [](const State& t, const py::object& player) {
                py::array_t<bool> mask(kNumActions);
                bool* data = mask.mutable_data();
                std::fill(data, data + kNumActions, false);
                for (const Move& move : legal_moves(t.position, query_player(t.position, player)))
                    data[move.action()] = true;
                return mask;
            },
            py::arg("player") = py::none(), "A numpy bool array of length ``num_actions``, True at legal action ids.")
        .def(
            "apply",
            [](State& t, const py::object& move, const py::object& player) {
                t.apply(to_move(move), query_player(t.position, player));
            },
            py::arg("move"), py::arg("player") = py::none(),
            "Applies ``player``'s move (a DuvelenMove, an action id or notation) in arrival order. Raises "
            "IllegalMoveError naming the clause, and changes nothing, if it is not legal now (for instance "
            "because it lost a race, D3.10).")
        .def(
            "observation",
            [](const State& t, const py::object& player) {
                const int p = to_seat(player, t.position.players());
                unsigned char buffer[16384];  // the view is built in one block, then handed to Python
                boost::json::monotonic_resource arena(buffer, sizeof buffer);
                return to_python(observation(t.position, p, &arena));
            },
            py::arg("player"),
            "What ``player`` may know, as a JSON-ready dict with the keys of D8.3 (see the rules page).")
        .def(
            "observation_tensor",
            [](const State& t, const py::object& player) {
                const int p = to_seat(player, t.position.players());
                py::array_t<float> out(observation_tensor_size(t.position.game));
                observation_tensor(t.position, p, out.mutable_data());
                return out;
            },
            py::arg("player"),
            "What ``player`` may know as a float32 numpy array of ``game.observation_tensor_shape``.")
        .def(
            "resample",
            [](const State& t, const py::object& player, const py::object& seed) {
                to_seat(player, t.position.players());
                return t.resample(to_seed(seed));
            },
            py::arg("player"), py::arg("seed"),
            "Determinisation (D8.2): every seat's face-down cards reshuffled among that seat's hidden places. "
            "Nobody knows the order of face-down cards, so the result is the same for every ``player``.")
        .def("__str__", [](const State& t) { return render(t.position); })
        .def("__repr__", [](const State& t) {
            return "<DuvelenState round " + std::to_string(t.position.round) + " " +
                   kPhaseNames[static_cast<int>(t.position.phase)] + ">";
        });
    bind_state_values(
        state_class, [](const State& t) { return to_json(t); },
        [](const std::string& text) { return state_from_json(text); });

    py::class_<Game> game_class(m, "DuvelenGame", R"doc(
Duvelen with its rule options. Get one with ``diabolo.load("duvelen", ...)``.

Options (all keyword, validated, OptionError when wrong):

- ``players``: 2-8 (D1.2).
- ``rounds``: rounds in the game, default 1 (D1.3).
- ``on_block``: ``'rotate_stok'`` (default) or ``'end_round'`` (D4.5).
- ``max_actions``: actions per round before it is cut off and scored, default 100,000 (D4.5).

>>> import diabolo
>>> game = diabolo.load("duvelen", players=3)
>>> game.num_actions, game.on_block
(203, 'rotate_stok')
)doc");
    game_class.def(py::init([](const py::kwargs& kwargs) { return config_from_kwargs(kwargs); }))
        .def_property_readonly(
            "name", [](const Game&) { return "duvelen"; }, "The game's id: ``'duvelen'``.")
        .def_property_readonly(
            "players", [](const Game& c) { return c.players; }, "Number of seats.")
        .def_property_readonly(
            "rounds", [](const Game& c) { return c.rounds; }, "Rounds in a game (D1.3).")
        .def_property_readonly(
            "on_block", [](const Game& c) { return kBlockNames[static_cast<int>(c.on_block)]; },
            "What a block does (D4.5).")
        .def_property_readonly(
            "max_actions", [](const Game& c) { return c.max_actions; }, "The action cap of a round (D4.5).")
        .def_property_readonly("options", &options_dict, "Every option with its value.")
        .def_property_readonly(
            "num_actions", [](const Game&) { return kNumActions; }, "Number of action ids: 203.")
        .def_property_readonly(
            "observation_tensor_shape", [](const Game& c) { return py::make_tuple(observation_tensor_size(c)); },
            "Shape of :meth:`DuvelenState.observation_tensor`.")
        .def(
            "new_state",
            [](const Game& c, const py::object& seed, const py::object& decks) {
                if (decks.is_none()) return State::start(c, to_seed(seed));
                const std::vector<Deck> given = decks_from(decks, c.players);
                return State::start(c, to_seed(seed), &given);
            },
            py::arg("seed") = 0, py::arg("decks") = py::none(),
            "A new game. Round 0 is dealt from ``decks`` (one list of 52 cards per seat, D2.5) if given; "
            "every other round is shuffled from ``seed``.\n\n>>> "
            "diabolo.load('duvelen').new_state(seed=1).phase\n'play'")
        .def(
            "state_from_json",
            [](const Game& c, const py::object& text) {
                State t = state_from_json(utf8_text<StateFormatError>(text, "state JSON"));
                if (!(t.position.game == c)) throw StateFormatError("state JSON: its options differ from this game's");
                return t;
            },
            py::arg("text"),
            "The state written by :meth:`DuvelenState.to_json`; StateFormatError if it is not a valid state.")
        .def("__repr__",
             [](const Game& c) {
                 return "diabolo.load('duvelen', players=" + std::to_string(c.players) +
                        ", rounds=" + std::to_string(c.rounds) + ", on_block='" +
                        kBlockNames[static_cast<int>(c.on_block)] + "', max_actions=" + std::to_string(c.max_actions) +
                        ")";
             })
        .def(
            "move", [](const Game&, const py::object& move) { return to_move(move); }, py::arg("move"),
            "The DuvelenMove for notation text or an action id.\n\n>>> str(diabolo.load('duvelen').move(201))\n'stop'")
        .def(
            "play_random",
            [](const Game& c, const py::object& games, const py::object& seed, const py::object& threads) {
                return random_play(c, games, seed, threads, &play_random<Rules>);
            },
            py::arg("games"), py::arg("seed") = 0, py::arg("threads") = 1,
            "Plays ``games`` whole games in C++ without the GIL: at each step a random seat with legal moves "
            "makes a uniformly random one (no timing; see diabolo.realtime for that). Returns numpy arrays "
            "``scores`` (games x players) and ``moves``; game i depends only on (seed, i).\n\n"
            ">>> diabolo.load('duvelen', players=2).play_random(3, seed=1)['scores'].shape\n(3, 2)");
    bind_game_values(game_class, &options_dict, &config_from_kwargs);
}

}  // namespace diabolo::bindings
