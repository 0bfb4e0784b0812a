// Python bindings of the Schacht bots: SchachtBot, its random, heuristic and ISMCTS kinds,
// the search's statistics and its play_match. The bots are in cpp/src/schacht/.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "bind_bots.hpp"
#include "bind_game.hpp"
#include "bind_vector_env.hpp"
#include "common.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo::bindings {

using namespace diabolo::schacht;

GameSpec<Rules> schacht_spec();  // src/schacht.cpp

namespace {

/// The seat a bot decides for: `player`, or the seat whose decision is due.
int bot_player(const Position& s, const py::object& player) {
    const int seat = player.is_none() ? next_actor(s) : to_seat(player, s.players());
    if (seat < 0) throw IllegalMoveError("S6.1", "the game is over", "game_over");
    std::array<uint8_t, kNumActions> legal{};
    if (Rules::legal_actions(s, seat, legal) == 0)
        throw IllegalMoveError("S2.3", "seat " + std::to_string(seat) + " has no move now", "no_move",
                               {{"seat", std::to_string(seat)}});
    return seat;
}

}  // namespace

void bind_schacht_bots(py::module_& m) {
    py::class_<Bot, std::shared_ptr<Bot>> bot_class(m, "SchachtBot", "A Schacht bot implemented in C++.");
    bot_class.def(
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
    bind_propose<Rules, Bot>(bot_class);
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
    py::class_<LearnedBot, Bot, std::shared_ptr<LearnedBot>>(m, "SchachtLearnedBot", R"doc(
Plays the legal move whose features (:func:`move_features`) have the largest dot product
with its weights; ties keep the lowest action id. The weights that come with the package
were trained by self-play through the vector env (``examples/train_learned.py``,
docs/strength.rst); ``weights`` (17 numbers) plays others.

>>> import diabolo
>>> from diabolo.schacht import LearnedBot
>>> state = diabolo.load("schacht").new_state(seed=1)
>>> LearnedBot().choose(state) in state.legal_moves()
True
>>> LearnedBot(weights=[0.0] * 17).weights.shape
(17,)
)doc")
        .def(py::init([](const py::object& weights) {
                 if (weights.is_none()) return std::make_shared<LearnedBot>();
                 if (!py::isinstance<py::iterable>(weights))
                     throw OptionError("weights must be a list of 17 numbers, got " +
                                       py::repr(weights).cast<std::string>());
                 py::list entries;
                 for (const auto& entry : py::iter(weights)) entries.append(entry);  // any sequence or array
                 return std::make_shared<LearnedBot>(learned_weights(from_python(entries, "weights")));
             }),
             py::arg("weights") = py::none())
        .def_property_readonly(
            "name", [](const LearnedBot&) { return "learned"; }, "``'learned'``.")
        .def_property_readonly(
            "weights",
            [](const LearnedBot& bot) {
                const LearnedWeights& w = bot.weights();
                return py::array_t<double>(static_cast<py::ssize_t>(w.size()), w.data());
            },
            "Its weights, one per feature (a float64 array of 17).");
    m.def(
        "schacht_move_features",
        [](const State& t, const py::object& player) {
            const int seat = bot_player(t.position, player);
            py::array_t<float> out({static_cast<py::ssize_t>(kNumActions), static_cast<py::ssize_t>(kMoveFeatures)});
            move_features(t.position, seat, out.mutable_data());
            return out;
        },
        py::arg("state"), py::arg("player") = py::none());
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
        .def_readonly("iterations", &SearchResult::iterations, "Rollouts run, over all threads.")
        .def_readonly("best", &SearchResult::best, "The most visited move.")
        .def("__repr__", [](const SearchResult& r) {
            return "<SchachtSearchResult best " + Rules::format_move(r.best) + " after " +
                   std::to_string(r.iterations) + " iterations>";
        });
    py::class_<IsmctsBot, Bot, std::shared_ptr<IsmctsBot>>(m, "SchachtIsmctsBot", R"doc(
Information-set Monte Carlo search in C++, without the GIL.

Every rollout deals the cards the seat cannot see anew, so the search never reads hidden
cards. In the play phase each other seat's hand is drawn from a belief (``belief=True``,
the default): hands dealt as ``state.resample(player, ...)`` deals them, weighted by how
likely the heuristic was to make that seat's latest move of the round with each (the
round's ``turns``, S7.1); ``belief=False`` deals every unseen card uniformly. Each
rollout plays to the end of the round: the other
seats by the heuristic (the model of how others play), the searching seat by the
heuristic with weights tuned by self-play (or all at random with
``heuristic_rollouts=False``). A rollout's reward is the seat's chance to win the game
from the totals then (a logistic in its lead over the best other total, sharper the
fewer rounds are left), with a fifth of its round's score against the best other seat's.

- The flat search (the default, ``tree=False``) rolls every root move out in the same
  determinisations, so moves are compared on the same deals, and halves the moves
  round by round onto the better half (sequential halving). ``iterations`` are the
  rollouts in all, shared out over ``threads``; the result is the same for any number of
  threads.
- ``tree=True`` is single-observer ISMCTS: a tree of the seat's own moves (UCB with
  ``exploration`` and availability counts), biased at the root towards the heuristic's
  ranking (``prior``, fading with visits); one tree per thread, merged at the root.

``seconds`` > 0 gives a time budget instead of ``iterations``. With ``threads`` > 1 the
bot starts its other threads at its first search and keeps them, asleep, until it is
dropped: a search a move is then not slowed by starting threads (a search from another
Python thread meanwhile, or in a forked process, starts threads of its own).

>>> import diabolo
>>> from diabolo.schacht import IsmctsBot
>>> state = diabolo.load("schacht").new_state(seed=1)
>>> result = IsmctsBot(iterations=200).search(state, seed=3)
>>> result.best in result.moves, int(result.visits.sum()) == result.iterations <= 200
(True, True)
)doc")
        .def(py::init([](const py::object& iterations, double seconds, const py::object& threads, double exploration,
                         bool heuristic_rollouts, double prior, bool tree, bool belief) {
                 SearchOptions o;
                 o.iterations = to_int(iterations, "iterations");
                 o.seconds = seconds;
                 o.threads = to_int(threads, "threads");
                 o.exploration = exploration;
                 o.heuristic_rollouts = heuristic_rollouts;
                 o.prior = prior;
                 o.tree = tree;
                 o.belief = belief;
                 check_search_options(o);
                 return std::make_shared<IsmctsBot>(o);
             }),
             py::arg("iterations") = 1000, py::arg("seconds") = 0.0, py::arg("threads") = 1,
             py::arg("exploration") = 0.5, py::arg("heuristic_rollouts") = true, py::arg("prior") = 1.0,
             py::arg("tree") = false, py::arg("belief") = true)
        .def(
            "search",
            [](const IsmctsBot& bot, const State& t, const py::object& player, const py::object& seed) {
                const int seat = bot_player(t.position, player);
                const uint64_t s = to_seed(seed);
                const Position state = t.position;
                py::gil_scoped_release release;
                return bot.search(state, seat, s);
            },
            py::arg("state"), py::arg("player") = py::none(), py::arg("seed") = 0,
            "Searches for ``player`` (default: the seat whose decision is due) and returns the root statistics.")
        .def_property_readonly(
            "name", [](const IsmctsBot&) { return "ismcts"; }, "``'ismcts'``.")
        .def_property_readonly(
            "iterations", [](const IsmctsBot& b) { return b.options().iterations; }, "Iterations per search.")
        .def_property_readonly(
            "threads", [](const IsmctsBot& b) { return b.options().threads; }, "Threads of each search.")
        .def_property_readonly(
            "tree", [](const IsmctsBot& b) { return b.options().tree; }, "Whether it searches a tree (else flat).")
        .def_property_readonly(
            "belief", [](const IsmctsBot& b) { return b.options().belief; },
            "Whether it deals the others' hands by their moves this round (else uniformly).");

    bind_turn_based_match<Rules, Bot>(m, schacht_spec());
    bind_vector_env<Rules, Bot>(m);
}

}  // namespace diabolo::bindings
