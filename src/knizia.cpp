// Python bindings of Diabolo (Knizia): what KniziaGame, KniziaState and KniziaMove add to the contract's
// binding (src/bind_game.hpp). Only conversion lives here: the rules, the views and the JSON
// are in cpp/src/knizia/; the bots' bindings are in src/knizia_bots.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bind_game.hpp"
#include "common.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/knizia/lexicon.hpp"
#include "words.hpp"

namespace diabolo::bindings {

using namespace diabolo::knizia;

namespace {

// ---- the game -----------------------------------------------------------------------------

Game game_from_kwargs(const py::dict& kwargs) {
    py::dict rest;
    py::object lexicon = py::str("de"), deck = py::none();
    for (auto item : kwargs) {
        const std::string key(utf8_text<OptionError>(item.first, "an option name"));
        if (key == "lexicon") lexicon = py::reinterpret_borrow<py::object>(item.second);
        else if (key == "deck") deck = py::reinterpret_borrow<py::object>(item.second);
        else rest[item.first] = item.second;
    }
    json::Value options = from_python(rest, "options");
    // The lexicon as options_json writes it ({"language", "words", "fingerprint"}, a record's
    // or a state's options): the packaged list of its language, if its fingerprint is that
    // list's (game_from_json checks).
    if (PyDict_Check(lexicon.ptr())) {
        options.get_object().emplace("lexicon", from_python(lexicon, "lexicon"));
        const py::object language = lexicon.attr("get")("language");
        if (!PyUnicode_Check(language.ptr()))
            throw OptionError(
                "lexicon: these options name a word list that is not a packaged one (no language): "
                "give the diabolo.Lexicon itself (K1.4)");
        lexicon = language;
    }
    const SharedLexicon words = lexicon_option(lexicon);
    options.get_object().emplace("deck", deck_json(deck_option(deck, *words)));
    return game_from_json(options, words);
}

/// Every option with its value; the lexicon and the deck as their Python objects.
py::dict options_dict(const Game& game) {
    py::dict options = to_python(options_json(game), true);
    options["lexicon"] = std::const_pointer_cast<Lexicon>(game.lexicon);
    options["deck"] = game.deck();
    return options;
}

State new_state(const Game& g, const py::object& seed, const py::object& deck, const py::object& decks) {
    return Rules::new_dealt_state(g, to_seed(seed), deal_json(deck, decks));
}

constexpr const char* kMoveDoc = R"doc(
A move of Diabolo (Knizia): frozen, hashable, ``str()`` is its notation (K7).

``reveal`` (the dealer turns the next card), ``pass``, ``take@i`` (a card taken as the
penalty of another's invalid call, K3.5), or a call: a word in capitals, optionally
with the table positions of its cards in word order (``POST@3,7,9``). Parsing
normalises the word (K10.8); the keywords are lower case, so write words in capitals.

>>> from diabolo.knizia import KniziaMove
>>> move = KniziaMove.parse("POST@3,7,9,2")
>>> move.kind, move.word, move.cards
('claim', 'POST', (3, 7, 9, 2))
>>> str(KniziaMove.parse("Straße")), KniziaMove.parse("take@5").position
('STRASSE', 5)
)doc";

constexpr const char* kStateDoc = R"doc(
A position of Diabolo (Knizia), with the moves that led to it.

There are no turns (K3.2): ``current_player`` is ``diabolo.SIMULTANEOUS`` until the
game is over, every query names its player, and ``apply(move, player=p)`` applies
moves in the order they arrive. A call of a word that is not a valid claim is a move
too: it draws the penalty of K3.5 (or, with ``stale_calls='reject'``, raises).

>>> import diabolo
>>> from diabolo import Lexicon
>>> game = diabolo.load("knizia", players=2, lexicon=Lexicon.from_words(["Tor", "Rot"]), deck={"T": 1, "O": 1, "R": 1})
>>> state = game.new_state(deck=["T", "O", "R"])
>>> for _ in range(3):
...     state.apply("reveal", player=0)
>>> [str(m) for m in state.legal_moves(1)]
['ROT', 'TOR', 'pass']
>>> state.apply("TOR", player=1)
>>> state.is_terminal, state.scores
(False, [0, 3])
)doc";

constexpr const char* kGameDoc = R"doc(
Diabolo (Knizia) with its rule options. Get one with ``diabolo.load("knizia", ...)``.

Options (all keyword, validated, OptionError when wrong):

- ``players``: 2-6 (K1.1).
- ``lexicon``: a :class:`diabolo.Lexicon` or a language code, default ``'de'`` (K1.4).
- ``deck``: a :class:`diabolo.knizia.Deck`, a language code or a dict of card counts;
  default the deck of the lexicon's language, else ``'de'`` (K10.7).
- Both as a state's JSON writes them (``json.loads(state.to_json())["options"]``, what a
  record keeps): ``diabolo.load("knizia", **options)`` makes the same game again when its
  word list is the packaged one of its language (its fingerprint is checked).
- ``min_cards``: cards a word needs, default 3; 4 is the children's variant (K3.3).
- ``variant``: ``'standard'`` (totals, K4.2) or ``'victory_tiles'`` (K4.3).
- ``handicap``: cards a tile holder counts fewer in the victory-tiles variant, default 10.
- ``rounds``: rounds of the standard game; default one deal per seat with 4-6 players,
  two with 2-3 (K4.2).
- ``stale_calls``: ``'penalty'`` (default) or ``'reject'`` (K10.3).

>>> import diabolo
>>> from diabolo import Lexicon
>>> game = diabolo.load("knizia", players=3, lexicon=Lexicon.from_words(["Tor"]), deck="de")
>>> game.rounds, game.deck_size, game.num_actions
(6, 66, 131)
)doc";

std::string game_repr(const Game& g) {
    return "diabolo.load('knizia', players=" + std::to_string(g.config.players) +
           ", min_cards=" + std::to_string(g.config.min_cards) + ", variant='" + variant_name(g.config.variant) +
           "', lexicon=<" + std::to_string(g.lexicon->size()) + " words>, deck=<" + std::to_string(g.config.deck_size) +
           " cards>)";
}

}  // namespace

/// What the generic binding needs to know of Knizia (src/bind_game.hpp): the lexicon and
/// the deck are Python objects among the options, and legal moves list pass last (K9).
GameSpec<Rules> knizia_spec() {
    GameSpec<Rules> spec{"Knizia",
                         kGameDoc,
                         kStateDoc,
                         kMoveDoc,
                         "'LAGER' or 'take@2'",
                         "Diabolo (Knizia) is played simultaneously (K3.2): name the player"};
    spec.player_required = true;  // no player to move (every seat acts when it can)
    spec.game_from_kwargs = &game_from_kwargs;
    spec.options = &options_dict;
    spec.game_repr = &game_repr;
    spec.legal_moves = [](const Position& position, int player) { return legal_moves(position, player); };
    spec.legal_actions = [](const Position& position, int player) { return Rules::legal_actions(position, player); };
    return spec;
}

/// KniziaBot and its kinds, the real-time simulation and its play_match (src/knizia_bots.cpp).
void bind_knizia_bots(py::module_& m);

void bind_knizia(py::module_& m) {
    bind_words(m);
    bind_knizia_bots(m);
    GameClasses<Rules> classes = bind_contract<Rules>(m, knizia_spec());
    classes.move
        .def_property_readonly(
            "word",
            [](const Move& mv) -> py::object {
                return mv.kind == MoveKind::Claim ? py::object(py::str(std::string(mv.word())))
                                                  : py::object(py::none());
            },
            "The called word (A-Z), or None.")
        .def_property_readonly(
            "cards",
            [](const Move& mv) -> py::object {
                if (mv.kind != MoveKind::Claim || mv.card_count == 0) return py::none();
                return py::tuple(py::cast(mv.positions()));
            },
            "The table positions a call names, in word order, or None (the best assignment, K10.4).")
        .def_property_readonly(
            "position",
            [](const Move& mv) -> py::object {
                return mv.kind == MoveKind::Take ? py::object(py::int_(mv.position)) : py::object(py::none());
            },
            "The table position of a take, or None.");
    classes.state
        .def(
            "legal_moves",
            [](const State& k, const py::object& player, bool claims) {
                return legal_moves(k.position, to_seat(player, k.position.players()), false, claims);
            },
            py::arg("player") = py::none(), py::arg("claims") = true,
            "With ``claims=False``, every legal move of ``player`` but the claims, without running the word finder: "
            "reveal, take@i and pass, the controls a frontend offers while a word is typed and checked when it is "
            "called (K10.3). A server sends these, not the claimable words, which would be the answer key.\n\n"
            ">>> import diabolo\n>>> state = diabolo.load('knizia', players=3).new_state(seed=1)\n"
            ">>> for _ in range(30):\n...     state.apply('reveal', player=0)\n"
            ">>> [str(m) for m in state.legal_moves(0, claims=False)], len(state.legal_moves(0)) > 1000\n"
            "(['reveal', 'pass'], True)")
        .def(
            "observation",
            [](const State& k, const py::object& player, bool claims) {
                const int p = to_seat(player, k.position.players());
                return view_to_python([&](json::Tape& view) { observation(k.position, p, view, claims); });
            },
            py::arg("player"), py::arg("claims") = true,
            "With ``claims=False``, the view's ``legal`` and ``legal_moves`` leave out the claims (see "
            "``legal_moves(player, claims=False)``): a view that stays small and cheap however many words the "
            "table holds.\n\n"
            ">>> import diabolo\n>>> state = diabolo.load('knizia', players=3).new_state(seed=1)\n"
            ">>> state.apply('reveal', player=0)\n>>> state.observation(1, claims=False)['legal']\n['pass']")
        .def(
            "compact_view",
            [](const State& k, const py::object& player, const py::object& claims) {
                const int p = to_seat(player, k.position.players());
                const int kept = to_int(claims, "claims");
                if (kept < 1 || kept > (1 << 20))
                    throw OptionError("claims must be 1..1048576, got " + std::to_string(kept));
                const std::vector<int> legal = Rules::legal_actions(k.position, p);
                const std::vector<int32_t> ids(legal.begin(), legal.end());
                py::array_t<int32_t> view(Rules::compact_actions(k.game, kept));
                Rules::compact_view(k.game, ids.data(), static_cast<int>(ids.size()), kept, view.mutable_data());
                return view;
            },
            py::arg("player"), py::arg("claims"),
            "The compact action space for learners (docs/ai.rst): entry i is the action id that compact id i "
            "stands for now for ``player``, -1 where none. The ids below the first claim's are the engine's "
            "(reveal, pass, take@i); then ``claims`` entries, the legal claims ranked, longest words first, then "
            "in word order.\n\n"
            ">>> import diabolo\n>>> state = diabolo.load('knizia', players=2).new_state(seed=3)\n"
            ">>> for _ in range(20):\n...     state.apply('reveal', player=0)\n"
            ">>> view = state.compact_view(1, claims=3)\n"
            ">>> [str(state.game.move(int(i))) for i in view[view >= 0]]\n"
            "['pass', 'EINBRENNLACKIERTEM', 'EINBRENNLACKIERTEN', 'EINBRENNLACKIERTER']")
        .def_property_readonly(
            "dealer", [](const State& k) { return k.position.dealer(); }, "The dealer's seat (K10.1).")
        .def_property_readonly(
            "table", [](const State& k) { return to_python(table_json(k.position)); },
            "The table line in notation, position 0 first (K8).")
        .def_property_readonly(
            "deck_count", [](const State& k) { return k.position.deck_count(); }, "Cards left in the deck.")
        .def_property_readonly(
            "piles",
            [](const State& k) {
                return std::vector<int>(k.position.pile.begin(), k.position.pile.begin() + k.position.players());
            },
            "Cards each seat took this round (K4.1).")
        .def_property_readonly(
            "penalty",
            [](const State& k) {
                return std::vector<int>(k.position.penalty.begin(),
                                        k.position.penalty.begin() + k.position.penalty_count);
            },
            "Seats still to take a card for an invalid call, in order (K3.5).")
        .def_property_readonly(
            "last_call", [](const State& k) { return to_python(last_call_json(k.position)); },
            "None, or ``{'seat', 'word', 'valid', 'reason'}`` of the round's last call (K10.6).");
    classes.game
        .def("new_state", &new_state, py::arg("seed") = 0, py::arg("deck") = py::none(), py::arg("decks") = py::none(),
             "A new game. Round 0 is dealt from ``deck`` (every card of the deck in reveal order, K10.7) if given, "
             "round r from ``decks[r]`` unless it is None; every other round is shuffled from ``seed``.")
        .def_property_readonly(
            "rounds",
            [](const Game& g) -> py::object {
                return g.config.variant == Variant::Standard ? py::object(py::int_(g.config.rounds))
                                                             : py::object(py::none());
            },
            "Rounds of the standard game (K4.2); None in the victory-tiles variant.")
        .def_property_readonly(
            "min_cards", [](const Game& g) { return g.config.min_cards; }, "Cards a word needs (K3.3).")
        .def_property_readonly(
            "variant", [](const Game& g) { return variant_name(g.config.variant); }, "K4.2 or K4.3.")
        .def_property_readonly(
            "handicap", [](const Game& g) { return g.config.handicap; }, "The tile holders' handicap (K4.3).")
        .def_property_readonly(
            "stale_calls", [](const Game& g) { return stale_calls_name(g.config.stale_calls); }, "K10.3.")
        .def_property_readonly(
            "lexicon", [](const Game& g) { return std::const_pointer_cast<Lexicon>(g.lexicon); },
            "The lexicon calls are checked against.")
        .def_property_readonly(
            "deck", [](const Game& g) { return g.deck(); }, "The deck (K10.7).")
        .def_property_readonly(
            "deck_size", [](const Game& g) { return g.config.deck_size; }, "Cards in the deck.")
        .def(
            "compact_actions", [](const Game& g, int claims) { return Rules::compact_actions(g, claims); },
            py::arg("claims"),
            "The number of ids of the compact action space with ``claims`` ranked claims (``State.compact_view``): "
            "the ids below the first claim's, then the claims.\n\n"
            ">>> import diabolo\n>>> diabolo.load('knizia', players=2).compact_actions(32)\n162");
}

}  // namespace diabolo::bindings
