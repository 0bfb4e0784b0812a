// Python bindings of the Duvelen bots: DuvelenBot and its kinds, bots written in Python,
// the real-time simulation and its play_match. The bots are in cpp/src/duvelen/.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bind_game.hpp"
#include "bind_realtime.hpp"
#include "common.hpp"
#include "diabolo/duvelen/duvelen.hpp"

namespace diabolo::bindings {

using namespace diabolo::duvelen;

GameSpec<Rules> duvelen_spec();  // src/duvelen.cpp

namespace {

realtime::Reaction reaction_from(const py::handle& value) {
    return bindings::reaction_from(value, default_reaction(), kReactionKindNames, kReactionKinds, "Duvelen");
}

std::shared_ptr<Bot> python_bot(const py::object& bot, const Game& game) {
    return std::make_shared<PythonBot<Rules, Bot>>(bot, duvelen_spec(), game,
                                                   reaction_from(py::getattr(bot, "reaction", py::none())));
}

}  // namespace

void bind_duvelen_bots(py::module_& m) {
    bind_realtime<Rules, Bot>(m, duvelen_spec(), &python_bot, kReactionKindNames, kReactionKinds);
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
    py::class_<SearchBot, Bot, std::shared_ptr<SearchBot>>(m, "DuvelenSearchBot", R"doc(
Plans beyond one move by playing the race out (D3). For each move it could make now (the
lookahead's choice, its other plays, a turn, either recycle) it simulates the next
``horizon`` seconds in ``worlds`` deals of the cards it cannot see, every seat played by a
:class:`LookaheadBot` with reaction times drawn as the real ones are, and weighs each move
by its round total's lead over the best other seat's (D5). The deals keep what it remembers
of the table: the cards that have been on top of a waste this round stay in their places
(they were in view, D8.1; D8.2 leaves memory to the player), so it sees which recycle
brings its own up when they fit and what the others' turns will show. A recycle is played
out twice as far ahead. It leaves the lookahead's choice only for a move whose gain the
deals make sure of (a paired t statistic above 1.5) and calls Stop at once. Its budget is
``worlds``, not a clock, so a seed gives the same game on every machine; with the defaults
a decision takes 5.1 ms on average (docs/strength.rst), far less than a reaction.

>>> import diabolo
>>> from diabolo.duvelen import SearchBot
>>> bot = SearchBot(worlds=8)
>>> bot.name, bot.worlds, bot.horizon
('search', 8, 16.0)
>>> state = diabolo.load("duvelen", players=2).new_state(seed=1)
>>> str(bot.choose(state, 0)) in {str(m) for m in state.legal_moves(0)}
True
)doc")
        .def(py::init([](const py::object& reaction, const py::object& worlds, const py::object& horizon) {
                 return std::make_shared<SearchBot>(reaction_from(reaction), to_int(worlds, "worlds"),
                                                    to_number(horizon, "horizon"));
             }),
             py::arg("reaction") = py::none(), py::arg("worlds") = kDefaultSearchWorlds,
             py::arg("horizon") = kDefaultSearchHorizon)
        .def_property_readonly(
            "name", [](const SearchBot&) { return "search"; }, "``'search'``.")
        .def_property_readonly("worlds", &SearchBot::worlds, "Deals of the unseen cards it plays each move out in.")
        .def_property_readonly("horizon", &SearchBot::horizon,
                               "Seconds of play it simulates after each move (twice as many after a recycle).");
}

}  // namespace diabolo::bindings
