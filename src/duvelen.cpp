// Python bindings of Duvelen: what DuvelenGame, DuvelenState and DuvelenMove add to the contract's
// binding (src/bind_game.hpp). Only conversion lives here: the rules, the views and the JSON
// are in cpp/src/duvelen/; the bots' bindings are in src/duvelen_bots.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bind_game.hpp"
#include "common.hpp"
#include "diabolo/duvelen/duvelen.hpp"

namespace diabolo::bindings {

using namespace diabolo::duvelen;

namespace {

constexpr const char* kSourceNames[] = {"S", "R1", "R2", "R3", "R4", "W"};
constexpr const char* kBlockNames[] = {"rotate_stok", "end_round"};

constexpr const char* kMoveDoc = R"doc(
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
)doc";

constexpr const char* kStateDoc = R"doc(
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
)doc";

constexpr const char* kGameDoc = R"doc(
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
)doc";

}  // namespace

/// What the generic binding needs to know of Duvelen (src/bind_game.hpp).
GameSpec<Rules> duvelen_spec() {
    GameSpec<Rules> spec{"Duvelen", kGameDoc,    kStateDoc,
                         kMoveDoc,  "'R2:7h>3'", "Duvelen is played simultaneously (D3): name the player"};
    spec.player_required = true;      // no player to move (every seat acts when it can)
    spec.legal_moves = &legal_moves;  // the canonical order of the rules page
    return spec;
}

/// DuvelenBot and its kinds, the real-time simulation and its play_match (src/duvelen_bots.cpp).
void bind_duvelen_bots(py::module_& m);

void bind_duvelen(py::module_& m) {
    bind_duvelen_bots(m);
    GameClasses<Rules> classes = bind_contract<Rules>(m, duvelen_spec());
    classes.move
        .def_static(
            "from_action", [](const py::object& action) { return Move::of_action(to_action(action, kNumActions)); },
            py::arg("action"),
            "The (short-form) move of an action id 0..202.\n\n>>> str(DuvelenMove.from_action(198))\n'turn'")
        .def_property_readonly("action", &Move::action, "The stable, positional action id (0..202).")
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
    classes.state.def_property_readonly(
        "round_scores",
        [](const State& t) {
            const auto points = round_scores(t.position);
            return std::vector<int>(points.begin(), points.begin() + t.position.players());
        },
        "The current round scored as if it ended now (D5); at game over, the last round's.");
    classes.game
        .def(
            "new_state",
            [](const Game& c, const py::object& seed, const py::object& decks) {
                return Rules::new_dealt_state(c, to_seed(seed), deal_json(py::none(), decks));
            },
            py::arg("seed") = 0, py::arg("decks") = py::none(),
            "A new game. Round 0 is dealt from ``decks`` (one list of 52 cards per seat, D2.5) if given; "
            "every other round is shuffled from ``seed``.\n\n>>> "
            "diabolo.load('duvelen').new_state(seed=1).phase\n'play'")
        .def_property_readonly(
            "rounds", [](const Game& c) { return c.rounds; }, "Rounds in a game (D1.3).")
        .def_property_readonly(
            "on_block", [](const Game& c) { return kBlockNames[static_cast<int>(c.on_block)]; },
            "What a block does (D4.5).")
        .def_property_readonly(
            "max_actions", [](const Game& c) { return c.max_actions; }, "The action cap of a round (D4.5).");
}

}  // namespace diabolo::bindings
