// Python bindings of Diabolo (Schacht): what SchachtGame, SchachtState and SchachtMove add to the contract's
// binding (src/bind_game.hpp). Only conversion lives here: the rules, the views and the JSON
// are in cpp/src/schacht/; the bots' bindings are in src/schacht_bots.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bind_game.hpp"
#include "common.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo::bindings {

using namespace diabolo::schacht;

namespace {

// ---- conversions ---------------------------------------------------------------------

Move move_of_action(const py::handle& value) { return Move::of_action(to_action(value, kNumActions)); }

// ---- the Python classes --------------------------------------------------------------

State new_state(const Game& game, const py::object& seed, const py::object& deck, const py::object& decks) {
    return Rules::new_dealt_state(game, to_seed(seed), deal_json(deck, decks));
}

}  // namespace

/// SchachtBot and its kinds, the search and its play_match (src/schacht_bots.cpp).
void bind_schacht_bots(py::module_& m);

constexpr const char* kMoveDoc = R"doc(
A move of Diabolo (Schacht): frozen, hashable, ``str()`` is its notation (S8).

Make one with :meth:`parse` or :meth:`from_action`; ``state.legal_moves()`` returns them.

>>> from diabolo.schacht import SchachtMove
>>> move = SchachtMove.parse("G5<")
>>> move.kind, move.card, move.side, move.action
('place', 'G5', 'left', 28)
>>> str(SchachtMove.from_action(75))
'bet'
)doc";

constexpr const char* kStateDoc = R"doc(
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
)doc";

constexpr const char* kGameDoc = R"doc(
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
)doc";

constexpr const char* kNewStateDoc =
    "A new game. Round r is shuffled from ``seed`` unless a deal is given: ``deck`` (round 0) or "
    "``decks`` (one list per round, None for a shuffled round), each all cards in notation, dealt "
    "as S2.4 says.\n\n>>> diabolo.load('schacht').new_state(seed=3).round\n0";

/// What the generic binding needs to know of Schacht (src/bind_game.hpp).
GameSpec<Rules> schacht_spec() {
    return {"Schacht", kGameDoc, kStateDoc,
            kMoveDoc,  "'G5<'",  "doubler decisions are simultaneous (S5.3): name the player"};
}

void bind_schacht(py::module_& m) {
    bind_schacht_bots(m);
    GameClasses<Rules> classes = bind_contract<Rules>(m, schacht_spec());
    classes.game.def("new_state", &new_state, py::arg("seed") = 0, py::arg("deck") = py::none(),
                     py::arg("decks") = py::none(), kNewStateDoc);
    classes.move
        .def_static(
            "from_action", [](const py::object& action) { return move_of_action(action); }, py::arg("action"),
            "The move with this action id (0..76); raises NotationError.\n\n>>> str(SchachtMove.from_action(1))\n'R1>'")
        .def_property_readonly("action", &Move::action,
                               "The stable action id (0..76).\n\n>>> SchachtMove.parse('R1>').action\n1")
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
    classes.state.def_property_readonly(
        "dealer", [](const State& t) { return t.position.dealer; }, "The dealer's seat: round % players (S2.2).");
    classes.game.def_property_readonly(
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
        .def_property_readonly("deck_size", &Game::deck_size, "Cards in the deck (70 by default).");
}

}  // namespace diabolo::bindings
