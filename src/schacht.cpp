// Python bindings of Diabolo (Schacht): SchachtGame, SchachtState, SchachtMove.
// Only conversion lives here; the rules are in cpp/src/schacht/.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/monotonic_resource.hpp>

#include "common.hpp"
#include "diabolo/core/batch.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo::bindings {

using namespace diabolo::schacht;

namespace {

constexpr const char* kPhaseNames[] = {"play", "doubler", "game_over"};
constexpr const char* kMoveKinds[] = {"place", "discard", "bet", "hold"};

// ---- conversions ---------------------------------------------------------------------

py::dict options_dict(const Game& game) { return to_python(options_json(game), true); }

Game game_from_kwargs(const py::dict& kwargs) { return game_from_json(from_python(kwargs, "options")); }

std::string state_text(const State& t) { return to_json(t); }

State state_from_text(const std::string& text) { return state_from_json(text); }

/// A seat of this game; PlayerError names the valid seats otherwise.
int to_player(const Position& s, const py::handle& value) { return to_seat(value, s.players()); }

std::optional<int> optional_player(const Position& s, const py::object& value) {
    if (value.is_none()) return std::nullopt;
    return to_player(s, value);
}

/// The legal action ids of the seat a query is about (default: the player to move);
/// nobody has any once the game is over.
int query_actions(const Position& s, const py::object& player, std::array<uint8_t, kNumActions>& out) {
    if (player.is_none() && s.is_terminal()) return 0;
    return legal_actions(s, acting_player(s, optional_player(s, player)), out);
}

Move move_of_action(const py::handle& value) { return Move::of_action(to_action(value, kNumActions)); }

Move to_move(const py::handle& value) {
    // Cheapest checks first: action ids are the fast path of search loops.
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) return move_of_action(value);
    if (PyUnicode_Check(value.ptr())) return parse_move(utf8_text<NotationError>(value, "a move"));
    if (py::isinstance<Move>(value)) return value.cast<Move>();
    if (as_integer(value)) return Move::of_action(to_action(value, kNumActions));  // numpy integers
    if (PyDict_Check(value.ptr())) return move_from_json(move_data(value));        // {"kind": ...}
    throw NotationError("a Schacht move is a SchachtMove, an action id or notation text like 'G5<', got " +
                        py::repr(value).cast<std::string>());
}

std::vector<Card> deck_from(const py::handle& value, const std::string& what) {
    if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value)) {
        throw StateFormatError(what + " must be a list of cards like 'G5' (S2.4)");
    }
    std::vector<Card> deck;
    for (auto item : py::reinterpret_borrow<py::sequence>(value)) {
        if (!PyUnicode_Check(item.ptr()))
            throw StateFormatError(what + " must hold card strings like 'G5', got " +
                                   py::repr(item).cast<std::string>());
        try {
            deck.push_back(parse_card(utf8_text<StateFormatError>(item, what)));
        } catch (const NotationError& e) {
            throw StateFormatError(what + ": " + e.what());
        }
    }
    return deck;
}

// ---- the Python classes --------------------------------------------------------------

State new_state(const Game& game, const py::object& seed, const py::object& deck, const py::object& decks) {
    std::vector<std::vector<Card>> given;
    if (!deck.is_none() && !decks.is_none())
        throw StateFormatError("give either deck= (round 0) or decks= (one per round), not both");
    if (!deck.is_none()) {
        given.push_back(deck_from(deck, "deck"));
        check_deck(game, given.back());
    }
    if (!decks.is_none()) {
        if (!py::isinstance<py::sequence>(decks) || py::isinstance<py::str>(decks))
            throw StateFormatError("decks must be a list of decks, one per round (S2.4)");
        std::size_t i = 0;
        for (auto item : py::reinterpret_borrow<py::sequence>(decks)) {
            given.push_back(item.is_none() ? std::vector<Card>{} : deck_from(item, "decks[" + std::to_string(i) + "]"));
            if (!item.is_none()) check_deck(game, given.back());
            ++i;
        }
    }
    return State::start(game, to_seed(seed), std::move(given));
}

}  // namespace

// ---- bots, search and matches -------------------------------------------------------------

/// The seat a bot decides for: `player`, or the seat whose decision is due.
int bot_player(const Position& s, const py::object& player) {
    const int seat = player.is_none() ? next_actor(s) : to_player(s, player);
    if (seat < 0) throw IllegalMoveError("S6.1", "the game is over");
    std::array<uint8_t, kNumActions> legal{};
    if (legal_actions(s, seat, legal) == 0)
        throw IllegalMoveError("S2.3", "seat " + std::to_string(seat) + " has no move now");
    return seat;
}

void bind_bots(py::module_& m) {
    py::class_<Bot, std::shared_ptr<Bot>>(m, "SchachtBot", "A Schacht bot implemented in C++.")
        .def(
            "choose",
            [](const Bot& bot, const State& t, const py::object& player, const py::object& seed) {
                const int seat = bot_player(t.position, player);
                Pcg32 rng(to_seed(seed));
                const Position state = t.position;
                py::gil_scoped_release release;
                return bot.choose(state, seat, rng);
            },
            py::arg("state"), py::arg("player") = py::none(), py::arg("seed") = 0,
            "The move this bot makes for ``player`` (default: the seat whose decision is due), from what that "
            "seat may know; ``seed`` fixes its random choices.");
    py::class_<RandomBot, Bot, std::shared_ptr<RandomBot>>(m, "SchachtRandomBot", R"doc(
Any legal move, uniformly at random.

>>> from diabolo.schacht import RandomBot
>>> RandomBot().name
'random'
)doc")
        .def(py::init([]() { return std::make_shared<RandomBot>(); }))
        .def_property_readonly("name", [](const RandomBot&) { return "random"; }, "``'random'``.");
    py::class_<HeuristicBot, Bot, std::shared_ptr<HeuristicBot>>(m, "SchachtHeuristicBot", R"doc(
Plays the colour-steering game: keeps the colours it is long in positive (the angel
side), pushes the colours others lead negative (the devil side), discards what hurts it
least, and bets its doubler on the positive colour it most likely leads with the most.
A one-move look-ahead over its estimate of every colour's outcome, from what it knows.

>>> import diabolo
>>> from diabolo.schacht import HeuristicBot
>>> state = diabolo.load("schacht").new_state(seed=1)
>>> HeuristicBot().choose(state) in state.legal_moves()
True
)doc")
        .def(py::init([]() { return std::make_shared<HeuristicBot>(); }))
        .def_property_readonly("name", [](const HeuristicBot&) { return "heuristic"; }, "``'heuristic'``.");
    py::class_<SearchResult>(m, "SchachtSearchResult",
                             "The answer of an ISMCTS search: the root moves with visits and values.")
        .def_readonly("moves", &SearchResult::moves, "The searching seat's legal moves, in action-id order.")
        .def_property_readonly(
            "visits",
            [](const SearchResult& r) { return to_numpy(r.visits, {static_cast<py::ssize_t>(r.visits.size())}); },
            "Visits of each move (numpy int64).")
        .def_property_readonly(
            "values",
            [](const SearchResult& r) { return to_numpy(r.values, {static_cast<py::ssize_t>(r.values.size())}); },
            "Mean reward of each move for the searching seat, in [-1, 1] (numpy float64).")
        .def_readonly("iterations", &SearchResult::iterations, "Iterations run, over all threads.")
        .def_readonly("best", &SearchResult::best, "The most visited move.")
        .def("__repr__", [](const SearchResult& r) {
            return "<SchachtSearchResult best " + format_move(r.best) + " after " + std::to_string(r.iterations) +
                   " iterations>";
        });
    py::class_<IsmctsBot, Bot, std::shared_ptr<IsmctsBot>>(m, "SchachtIsmctsBot", R"doc(
Information-set Monte Carlo tree search (ISMCTS) in C++, without the GIL.

Every iteration deals the cards the seat cannot see anew (``state.resample(player, ...)``),
so the search never reads hidden cards. The tree holds the seat's own moves (UCB with
availability counts), biased at the root towards the heuristic's ranking of the moves
(``prior``, fading with visits); the other seats and the rollouts to the end of the
round play by the heuristic (or at random). ``iterations`` are split over ``threads``
trees whose root statistics are summed; ``seconds`` > 0 gives each thread a time budget
instead.

>>> import diabolo
>>> from diabolo.schacht import IsmctsBot
>>> state = diabolo.load("schacht").new_state(seed=1)
>>> result = IsmctsBot(iterations=200).search(state, seed=3)
>>> result.iterations, result.best in result.moves, int(result.visits.sum())
(200, True, 200)
)doc")
        .def(py::init([](const py::object& iterations, double seconds, const py::object& threads, double exploration,
                         bool heuristic_rollouts, double prior) {
                 SearchOptions o;
                 o.iterations = to_int(iterations, "iterations");
                 o.seconds = seconds;
                 o.threads = to_int(threads, "threads");
                 o.exploration = exploration;
                 o.heuristic_rollouts = heuristic_rollouts;
                 o.prior = prior;
                 check_search_options(o);
                 return std::make_shared<IsmctsBot>(o);
             }),
             py::arg("iterations") = 1000, py::arg("seconds") = 0.0, py::arg("threads") = 1,
             py::arg("exploration") = 0.5, py::arg("heuristic_rollouts") = true, py::arg("prior") = 1.0)
        .def(
            "search",
            [](const IsmctsBot& bot, const State& t, const py::object& player, const py::object& seed) {
                const int seat = bot_player(t.position, player);
                const uint64_t s = to_seed(seed);
                const Position state = t.position;
                py::gil_scoped_release release;
                return ismcts(state, seat, bot.options(), s);
            },
            py::arg("state"), py::arg("player") = py::none(), py::arg("seed") = 0,
            "Searches for ``player`` (default: the seat whose decision is due) and returns the root statistics.")
        .def_property_readonly(
            "name", [](const IsmctsBot&) { return "ismcts"; }, "``'ismcts'``.")
        .def_property_readonly(
            "iterations", [](const IsmctsBot& b) { return b.options().iterations; }, "Iterations per search.")
        .def_property_readonly(
            "threads", [](const IsmctsBot& b) { return b.options().threads; }, "Trees searched in parallel.");

    m.def("schacht_play_match", [](const Game& c, const py::sequence& bots, const py::object& games,
                                   const py::object& seed, const py::object& threads, const py::object& first) {
        const long long first_game = to_int64(first, "first");
        if (first_game < 0 || first_game > 1'000'000'000) throw OptionError("first must be 0..1000000000");
        std::vector<std::shared_ptr<Bot>> owned;
        for (auto bot : bots) owned.push_back(cpp_bot<Bot>(bot));
        std::vector<const Bot*> seats;
        for (const auto& bot : owned) seats.push_back(bot.get());
        const Batch batch = batch_args(games, seed, threads);
        MatchResult result;
        SignalCheck signals;
        {
            py::gil_scoped_release release;
            result = play_match(c, seats, batch.games, batch.seed, batch.threads, static_cast<int>(first_game),
                                signals.interrupt());
        }
        signals.raise_if_interrupted();
        py::dict out;
        out["scores"] = to_numpy(result.scores, {batch.games, result.bots});
        out["moves"] = to_numpy(result.moves, {batch.games});
        return out;
    });
}

void bind_schacht(py::module_& m) {
    bind_bots(m);
    py::class_<Move> move_class(m, "SchachtMove", R"doc(
A move of Diabolo (Schacht): frozen, hashable, ``str()`` is its notation (S8).

Make one with :meth:`parse` or :meth:`from_action`; ``state.legal_moves()`` returns them.

>>> from diabolo.schacht import SchachtMove
>>> move = SchachtMove.parse("G5<")
>>> move.kind, move.card, move.side, move.action
('place', 'G5', 'left', 28)
>>> str(SchachtMove.from_action(75))
'bet'
)doc");
    move_class
        .def_static(
            "parse", [](const py::object& text) { return parse_move(utf8_text<NotationError>(text, "notation")); },
            py::arg("text"),
            "The move written as ``text`` (``'G5<'``, ``'P2>'``, ``'xG5'``, ``'bet'``, ``'hold'``); "
            "raises NotationError.\n\n>>> SchachtMove.parse('xG5').kind\n'discard'")
        .def_static(
            "from_action", [](const py::object& action) { return move_of_action(action); }, py::arg("action"),
            "The move with this action id (0..76); raises NotationError.\n\n>>> str(SchachtMove.from_action(1))\n'R1>'")
        .def_property_readonly("action", &Move::action,
                               "The stable action id (0..76).\n\n>>> SchachtMove.parse('R1>').action\n1")
        .def_property_readonly(
            "kind", [](const Move& mv) { return kMoveKinds[static_cast<int>(mv.kind)]; },
            "``'place'``, ``'discard'``, ``'bet'`` or ``'hold'``.\n\n>>> SchachtMove.parse('hold').kind\n'hold'")
        .def_property_readonly(
            "card",
            [](const Move& mv) -> py::object {
                if (mv.kind != MoveKind::Place && mv.kind != MoveKind::Discard) return py::none();
                return py::str(format_card(mv.card));
            },
            "The card placed or discarded (``'G5'``), or None.\n\n>>> SchachtMove.parse('P2>').card\n'P2'")
        .def_property_readonly(
            "side",
            [](const Move& mv) -> py::object {
                if (mv.kind != MoveKind::Place) return py::none();
                return py::str(mv.side == Side::Left ? "left" : "right");
            },
            "``'left'`` (devil) or ``'right'`` (angel) for a placement, else None.\n\n>>> "
            "SchachtMove.parse('P2>').side\n'right'");
    move_class.def(
        "to_dict", [](const Move& m) { return to_python(move_json(m)); },
        "The move as data, as ``apply`` and ``game.move`` also take it (S8).\n\n"
        ">>> SchachtMove.parse('G5<').to_dict()\n{'kind': 'place', 'card': 'G5', 'side': 'left'}");
    bind_move_values(move_class, "SchachtMove", &format_move, &parse_move);

    py::class_<State> state_class(m, "SchachtState", R"doc(
A position of Diabolo (Schacht), with the moves that led to it.

Get one from :meth:`SchachtGame.new_state`. States are values: :meth:`clone`, ``copy``,
``pickle`` and :meth:`to_json` all give independent, equal copies.

>>> import diabolo
>>> state = diabolo.load("schacht", players=3).new_state(seed=7)
>>> state.current_player, state.phase
(1, 'play')
>>> move = state.legal_moves()[0]
>>> state.apply(move)
>>> state.history[-1][1] == move
True
)doc");
    state_class
        .def_property_readonly(
            "game", [](const State& t) { return t.position.game; }, "The game (rules and options) of this state.")
        .def_property_readonly(
            "current_player", [](const State& t) { return t.position.current_player; },
            "The seat to move, or ``diabolo.SIMULTANEOUS`` during doubler decisions (S5.3), "
            "or ``diabolo.TERMINAL`` at game over.\n\n>>> diabolo.load('schacht').new_state(seed=1).current_player\n1")
        .def_property_readonly(
            "phase", [](const State& t) { return kPhaseNames[static_cast<int>(t.position.phase)]; },
            "``'play'``, ``'doubler'`` or ``'game_over'`` (S7.4).")
        .def_property_readonly(
            "round", [](const State& t) { return t.position.round; }, "The round, from 0 (S7.4).")
        .def_property_readonly(
            "pending_seats", [](const State& t) { return seat_list(pending_seats(t.position)); },
            "The seats that must act now, ascending: the player to move, or during doubler decisions every seat "
            "still to decide (S5.3); empty at game over. Whether another seat has decided is secret (S7.1), so in "
            "``resample(p, seed)`` every other seat holding its doubler is pending again.\n\n"
            ">>> diabolo.load('schacht').new_state(seed=1).pending_seats\n[1]")
        .def_property_readonly(
            "dealer", [](const State& t) { return t.position.dealer; }, "The dealer's seat: round % players (S2.2).")
        .def_property_readonly(
            "is_terminal", [](const State& t) { return t.position.is_terminal(); },
            "True once the game is over (S6.1).")
        .def_property_readonly(
            "scores",
            [](const State& t) {
                return std::vector<int>(t.position.scores.begin(), t.position.scores.begin() + t.position.players());
            },
            "Game totals per seat so far (S6.2).")
        .def(
            "returns",
            [](const State& t) {
                return std::vector<double>(t.position.scores.begin(), t.position.scores.begin() + t.position.players());
            },
            "Game totals per seat as floats: the payoff for learning code (S6.2).\n\n"
            ">>> diabolo.load('schacht', players=3).new_state(seed=1).returns()\n[0.0, 0.0, 0.0]")
        .def_property_readonly(
            "winners", [](const State& t) { return winners(t.position); },
            "Seats with the highest total; ties share the win (S6.2).")
        .def_property_readonly(
            "history",
            [](const State& t) {
                py::list out;
                for (const Step& step : t.history) out.append(py::make_tuple(step.player, step.move));
                return out;
            },
            "Every move so far as ``(seat, move)`` pairs, oldest first.")
        .def(
            "legal_moves",
            [](const State& t, const py::object& player) {
                std::array<uint8_t, kNumActions> actions{};
                const int n = query_actions(t.position, player, actions);
                std::vector<Move> moves;
                for (int i = 0; i < n; ++i) moves.push_back(Move::of_action(actions[static_cast<std::size_t>(i)]));
                return moves;
            },
            py::arg("player") = py::none(),
            "Legal moves of ``player`` (default: the player to move), in action-id order; empty when "
            "that seat has nothing to do now.\n\n>>> [str(m) for m in "
            "diabolo.load('schacht').new_state(seed=1).legal_moves()][:3]\n"
            "['R1<', 'R1>', 'Y3<']")
        .def(
            "legal_actions",
            [](const State& t, const py::object& player) {
                std::array<uint8_t, kNumActions> actions{};
                const int n = query_actions(t.position, player, actions);
                return std::vector<int>(actions.begin(), actions.begin() + n);
            },
            py::arg("player") = py::none(), "Legal action ids of ``player``, ascending (see :meth:`legal_moves`).")
        .def(
            "legal_action_mask",
            [](const State& t, const py::object& player) {
                std::array<uint8_t, kNumActions> actions{};
                const int n = query_actions(t.position, player, actions);
                py::array_t<bool> mask(kNumActions);
                bool* data = mask.mutable_data();
                std::fill(data, data + kNumActions, false);
                for (int i = 0; i < n; ++i) data[actions[static_cast<std::size_t>(i)]] = true;
                return mask;
            },
            py::arg("player") = py::none(), "A numpy bool array of length ``num_actions``, True at legal action ids.")
        .def(
            "apply",
            [](State& t, const py::object& move, const py::object& player) {
                t.apply(to_move(move), optional_player(t.position, player));
            },
            py::arg("move"), py::arg("player") = py::none(),
            "Plays ``move`` (a SchachtMove, an action id or notation) for ``player`` (default: the player "
            "to move). Raises IllegalMoveError naming the clause, and changes nothing, if the move is not legal.")
        .def(
            "observation",
            [](const State& t, const py::object& player) {
                const int p = to_player(t.position, player);
                unsigned char buffer[8192];  // the view is built in one block, then handed to Python
                boost::json::monotonic_resource arena(buffer, sizeof buffer);
                return to_python(observation(t.position, p, &arena));
            },
            py::arg("player"),
            "What ``player`` may know, as a JSON-ready dict with the keys of S7.4 (see the rules page).")
        .def(
            "observation_tensor",
            [](const State& t, const py::object& player) {
                const int p = to_player(t.position, player);
                py::array_t<float> out(observation_tensor_size(t.position.game));
                observation_tensor(t.position, p, out.mutable_data());
                return out;
            },
            py::arg("player"),
            "What ``player`` may know as a float32 numpy array of ``game.observation_tensor_shape``.")
        .def(
            "resample",
            [](const State& t, const py::object& player, const py::object& seed) {
                return t.resample(to_player(t.position, player), to_seed(seed));
            },
            py::arg("player"), py::arg("seed"),
            "Determinisation (S7.3): a state that looks the same to ``player``, with every card that player "
            "cannot see dealt anew from ``seed``. Depends only on what ``player`` knows and on ``seed``.")
        .def("__str__", [](const State& t) { return render(t.position); })
        .def("__repr__", [](const State& t) {
            return "<SchachtState round " + std::to_string(t.position.round) + " " +
                   kPhaseNames[static_cast<int>(t.position.phase)] +
                   " current_player=" + std::to_string(t.position.current_player) + ">";
        });
    bind_state_values(state_class, &state_text, &state_from_text);

    py::class_<Game> game_class(m, "SchachtGame", R"doc(
Diabolo (Michael Schacht, 2006) with its rule options. Get one with ``diabolo.load``.

Options (all keyword, validated, OptionError when wrong):

- ``players``: 3-5 (S1.1); 2-8 with ``strict_players=False``.
- ``rounds``: rounds in the game, default one per player (S6.1).
- ``rows_to_end``: closed rows that end a round, default 2, or 3 with 5+ players (S4.1).
- ``value_counts``: copies of the values 1..5 per colour, default ``(4, 3, 3, 2, 2)`` (S1.3).
- ``strict_players``: True (default) holds ``players`` to 3-5; False allows 2-8 for experiments (S1.1).

>>> import diabolo
>>> game = diabolo.load("schacht", players=4)
>>> game.num_actions, game.rounds, game.rows_to_end
(77, 4, 2)
)doc");
    game_class.def(py::init([](const py::kwargs& kwargs) { return game_from_kwargs(kwargs); }))
        .def_property_readonly(
            "name", [](const Game&) { return "schacht"; }, "The game's id: ``'schacht'``.")
        .def_property_readonly(
            "players", [](const Game& c) { return c.players; }, "Number of seats.")
        .def_property_readonly(
            "rounds", [](const Game& c) { return c.rounds; }, "Rounds in a game (S6.1).")
        .def_property_readonly(
            "rows_to_end", [](const Game& c) { return c.rows_to_end; }, "Closed rows that end a round (S4.1).")
        .def_property_readonly(
            "value_counts",
            [](const Game& c) {
                const auto& v = c.value_counts;
                return py::make_tuple(v[0], v[1], v[2], v[3], v[4]);
            },
            "Copies of each value per colour (S1.3).\n\n>>> diabolo.load('schacht').value_counts\n(4, 3, 3, 2, 2)")
        .def_property_readonly(
            "strict_players", [](const Game& c) { return c.strict_players != 0; },
            "Whether players is held to 3-5 (S1.1).")
        .def_property_readonly("options", &options_dict, "Every option with its value, defaults filled in.")
        .def_property_readonly("deck_size", &Game::deck_size, "Cards in the deck (70 by default).")
        .def_property_readonly(
            "num_actions", [](const Game&) { return kNumActions; }, "Number of action ids: 77.")
        .def_property_readonly(
            "observation_tensor_shape", [](const Game& c) { return py::make_tuple(observation_tensor_size(c)); },
            "Shape of :meth:`SchachtState.observation_tensor`.")
        .def("new_state", &new_state, py::arg("seed") = 0, py::arg("deck") = py::none(), py::arg("decks") = py::none(),
             "A new game. Round r is shuffled from ``seed`` unless a deal is given: ``deck`` (round 0) or "
             "``decks`` (one list per round, None for a shuffled round), each all cards in notation, dealt "
             "as S2.4 says.\n\n>>> diabolo.load('schacht').new_state(seed=3).round\n0")
        .def(
            "state_from_json",
            [](const Game& c, const py::object& text) {
                State t = state_from_json(utf8_text<StateFormatError>(text, "state JSON"));
                if (!(t.position.game == c)) throw StateFormatError("state JSON: its options differ from this game's");
                return t;
            },
            py::arg("text"),
            "The state written by :meth:`SchachtState.to_json`; StateFormatError if the text "
            "is not a valid state of this game.")
        .def(
            "move", [](const Game&, const py::object& move) { return to_move(move); }, py::arg("move"),
            "The SchachtMove for notation text or an action id.\n\n>>> diabolo.load('schacht').move('bet').action\n75")
        .def(
            "play_random",
            [](const Game& c, const py::object& games, const py::object& seed, const py::object& threads) {
                return random_play(c, games, seed, threads, &play_random<Rules>);
            },
            py::arg("games"), py::arg("seed") = 0, py::arg("threads") = 1,
            "Plays ``games`` whole games with uniformly random legal moves in C++, without the GIL, on "
            "``threads`` threads. Returns numpy arrays: ``scores`` (games x players) and ``moves`` (per game). "
            "Game i depends only on (seed, i), so results do not depend on ``threads``.\n\n"
            ">>> result = diabolo.load('schacht', players=3).play_random(100, seed=5, threads=2)\n"
            ">>> result['scores'].shape, result['moves'].shape\n((100, 3), (100,))")
        .def("__repr__", [](const Game& c) {
            return "diabolo.load('schacht', players=" + std::to_string(c.players) +
                   ", rounds=" + std::to_string(c.rounds) + ", rows_to_end=" + std::to_string(c.rows_to_end) + ")";
        });
    bind_game_values(game_class, &options_dict, &game_from_kwargs);
}

}  // namespace diabolo::bindings
