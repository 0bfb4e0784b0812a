// Python bindings of the lexicon and of Diabolo (Knizia): Lexicon, Deck, the word
// finder, KniziaGame, KniziaState, KniziaMove and the bots. Only conversion lives here;
// the rules, the views and the JSON are in cpp/src/knizia/.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <boost/json/monotonic_resource.hpp>

#include "bind_game.hpp"
#include "common.hpp"
#include "diabolo/core/batch.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/knizia/lexicon.hpp"

namespace diabolo::bindings {

using namespace diabolo::knizia;

namespace {

std::vector<Card> table_from(const py::handle& value) {
    if (!py::isinstance<py::sequence>(value) || PyUnicode_Check(value.ptr())) {
        throw NotationError("a table is a list of cards like ['O', 'ST', '?'] (K8)");
    }
    std::vector<Card> table;
    for (auto card : py::reinterpret_borrow<py::sequence>(value))
        table.push_back(parse_card(utf8_text<NotationError>(card, "a card")));
    if (table.size() > static_cast<std::size_t>(kMaxTable)) {
        throw NotationError("a table holds at most " + std::to_string(kMaxTable) + " cards, got " +
                            std::to_string(table.size()));
    }
    return table;
}

int min_cards_from(const py::handle& value) {
    const int n = to_int(value, "min_cards");
    if (n < 1 || n > kMaxWord)
        throw OptionError("min_cards must be 1.." + std::to_string(kMaxWord) + " (K3.3), got " + std::to_string(n));
    return static_cast<int>(n);
}

// ---- the lexicon and the deck ----------------------------------------------------------------

using SharedLexicon = std::shared_ptr<Lexicon>;

SharedLexicon make_lexicon(Lexicon lexicon, const std::string& source, const py::object& language) {
    lexicon.set_origin(source, language.is_none() ? "" : utf8_text<OptionError>(language, "a lexicon's language"));
    return std::make_shared<Lexicon>(std::move(lexicon));
}

/// The bytes of a bytes-like object; OptionError naming what was given otherwise.
std::string bytes_of(const py::handle& data) {
    if (PyBytes_Check(data.ptr())) return py::bytes(py::reinterpret_borrow<py::bytes>(data));
    Py_buffer view;
    if (PyObject_GetBuffer(data.ptr(), &view, PyBUF_SIMPLE) != 0) {
        PyErr_Clear();
        throw OptionError("data must be bytes (from Lexicon.to_bytes), got " +
                          py::str(py::type::of(data).attr("__name__")).cast<std::string>());
    }
    std::string out(static_cast<const char*>(view.buf), static_cast<std::size_t>(view.len));
    PyBuffer_Release(&view);
    return out;
}

/// A class's loader, which diabolo's Python layer adds (it reads package data and files).
py::object load_by_language(const py::type& cls, const py::handle& language) { return cls.attr("load")(language); }

Deck deck_from_mapping(const py::handle& cards, const py::handle& language) {
    json::Object data;
    if (!PyUnicode_Check(language.ptr()) || PyUnicode_AsUTF8AndSize(language.ptr(), nullptr) == nullptr) {
        PyErr_Clear();
        throw OptionError("a deck's language is a code like 'de' (letters, digits, '-' or '_'), or '', got " +
                          py::repr(language).cast<std::string>());
    }
    data.emplace("language", from_python(language, "a deck's language"));
    const bool mapping = PyDict_Check(cards.ptr()) || (PyMapping_Check(cards.ptr()) && py::hasattr(cards, "items") &&
                                                       !py::isinstance<py::sequence>(cards));
    if (!mapping) {
        throw OptionError("a deck's cards are a mapping of card to count, like {'E': 5, '?': 4}, got " +
                          py::repr(cards).cast<std::string>());
    }
    const py::dict items(py::reinterpret_borrow<py::object>(cards));
    for (auto item : items) {  // named as Python shows them ('Ä', 1); the core checks the counts
        bool card = PyUnicode_Check(item.first.ptr());
        try {
            if (card) parse_card(utf8_text<NotationError>(item.first, "a card"));
        } catch (const NotationError&) {
            card = false;
        }
        if (!card) {
            throw OptionError("not a card: " + py::repr(item.first).cast<std::string>() +
                              "; cards are 'A', 'EI', '?' or '?\?' (K1.2)");
        }
    }
    data.emplace("cards", from_python(items, "a deck's cards"));
    return deck_from_json(data);
}

py::dict deck_cards(const Deck& deck) {
    py::dict cards;
    for (std::size_t k = 0; k < deck.kinds.size(); ++k) cards[py::str(format_card(deck.kinds[k]))] = deck.counts[k];
    return cards;
}

/// The lexicon option: a diabolo.Lexicon, or a language code to load.
SharedLexicon lexicon_option(const py::handle& value) {
    py::object lexicon = py::reinterpret_borrow<py::object>(value);
    if (PyUnicode_Check(value.ptr())) lexicon = load_by_language(py::type::of<Lexicon>(), value);
    if (!py::isinstance<Lexicon>(lexicon)) {
        throw OptionError("lexicon must be a diabolo.Lexicon or a language code like 'de' (K1.4), got " +
                          py::repr(value).cast<std::string>());
    }
    return lexicon.cast<SharedLexicon>();
}

/// The deck option: a Deck, a language code, or a mapping of counts (None: the
/// lexicon's language, else 'de').
Deck deck_option(const py::handle& value, const Lexicon& lexicon) {
    if (value.is_none()) {
        const std::string language = lexicon.language().empty() ? "de" : lexicon.language();
        return load_by_language(py::type::of<Deck>(), py::str(language)).cast<Deck>();
    }
    if (PyUnicode_Check(value.ptr())) return load_by_language(py::type::of<Deck>(), value).cast<Deck>();
    if (py::isinstance<Deck>(value)) return value.cast<Deck>();
    if (PyDict_Check(value.ptr())) return deck_from_mapping(value, py::str(""));
    throw OptionError(
        "deck must be a diabolo.knizia.Deck, a language code like 'de' or a dict of card counts (K10.7), got " +
        py::repr(value).cast<std::string>());
}

// ---- the game -----------------------------------------------------------------------------

Game game_from_kwargs(const py::dict& kwargs) {
    py::dict rest;
    py::object lexicon = py::str("de"), deck = py::none();
    for (auto item : kwargs) {
        const std::string key = utf8_text<OptionError>(item.first, "an option name");
        if (key == "lexicon") lexicon = py::reinterpret_borrow<py::object>(item.second);
        else if (key == "deck") deck = py::reinterpret_borrow<py::object>(item.second);
        else rest[item.first] = item.second;
    }
    json::Value options = from_python(rest, "options");
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

Deal deal_from(const py::handle& value, const Config& c, const std::string& what) {
    if (!py::isinstance<py::sequence>(value) || PyUnicode_Check(value.ptr())) {
        throw StateFormatError(what + " must be a list of the deck's " + std::to_string(c.deck_size) +
                               " cards in reveal order (K10.7)");
    }
    Deal deal;
    for (auto card : py::reinterpret_borrow<py::sequence>(value)) {
        Card parsed;
        try {
            parsed = parse_card(utf8_text<StateFormatError>(card, what));
        } catch (const NotationError& e) {
            throw StateFormatError(what + ": " + e.what());
        }
        const int kind = c.kind_of(parsed);
        if (kind < 0) throw StateFormatError(what + ": the deck has no card '" + format_card(parsed) + "' (K10.7)");
        deal.push_back(static_cast<uint8_t>(kind));
        if (deal.size() > static_cast<std::size_t>(kMaxDeck)) break;
    }
    try {
        check_deal(c, deal);
    } catch (const StateFormatError& e) {
        throw StateFormatError(what + ": " + e.what());
    }
    return deal;
}

State new_state(const Game& g, const py::object& seed, const py::object& deck, const py::object& decks) {
    if (!deck.is_none() && !decks.is_none())
        throw StateFormatError("give deck (round 0) or decks (one per round), not both");
    std::vector<Deal> deals;
    if (!deck.is_none()) deals.push_back(deal_from(deck, g.config, "deck"));
    if (!decks.is_none()) {
        if (!py::isinstance<py::sequence>(decks) || PyUnicode_Check(decks.ptr()))
            throw StateFormatError("decks must be a list of deals");
        int r = 0;
        for (auto d : py::reinterpret_borrow<py::sequence>(decks)) {
            if (r == kMaxRounds) throw StateFormatError("decks: at most 64 rounds");
            if (d.is_none()) deals.emplace_back();  // this round is shuffled from the seed
            else deals.push_back(deal_from(d, g.config, "decks[" + std::to_string(r) + "]"));
            ++r;
        }
    }
    return State::start(g, to_seed(seed), &deals);
}

py::list card_list(const Config& c, const uint8_t* kinds, int count) {
    py::list out;
    for (int i = 0; i < count; ++i) out.append(format_card(c.card(kinds[i])));
    return out;
}

py::object last_call_dict(const Position& s) {
    if (s.last_call.seat < 0) return py::none();
    py::dict d;
    d["seat"] = s.last_call.seat;
    d["word"] = std::string(s.last_call.text());
    d["valid"] = s.last_call.valid;
    d["reason"] = s.last_call.valid ? py::object(py::none()) : py::object(py::str(reason_text(s.last_call.reason)));
    return d;
}

template <class T>
py::list seat_values(const std::array<T, kMaxPlayers>& values, int players) {
    py::list out;
    for (int p = 0; p < players; ++p) out.append(values[static_cast<std::size_t>(p)]);
    return out;
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

/// What the generic binding needs to know of Knizia (src/bind_game.hpp): the lexicon and
/// the deck are Python objects among the options, and legal moves list pass last (K9).
GameSpec<Rules> spec() {
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
    spec.legal_moves = &legal_moves;
    spec.legal_actions = [](const Position& position, int player) { return legal_actions(position, player); };
    return spec;
}

// ---- bots and simulation -------------------------------------------------------------------

realtime::Reaction reaction_from(const py::handle& value) {
    return bindings::reaction_from(value, default_reaction(), kReactionKindNames, kReactionKinds, "Knizia");
}

double per_letter_from(const py::handle& value) {
    const double seconds = to_number(value, "per_letter");
    if (!(seconds >= 0.0 && seconds <= 60.0))
        throw OptionError("per_letter must be 0..60 seconds, got " + py::repr(value).cast<std::string>());
    return seconds;
}

/// A bot written in Python: anything with choose(state, player) -> move or None. It is
/// called with the GIL held (simulations with Python bots keep it).
class PythonBot : public Bot {
public:
    PythonBot(py::object bot, Game game)
        : Bot(reaction_from(py::getattr(bot, "reaction", py::none())),
              per_letter_from(py::getattr(bot, "per_letter", py::float_(kDefaultPerLetter)))),
          bot_(std::move(bot)),
          game_(std::move(game)) {}
    std::optional<Move> choose(const Position& position, int player, Pcg32&) const override {
        State view;
        view.game = game_;
        view.position = position;
        const py::object move = bot_.attr("choose")(view, player);
        if (move.is_none()) return std::nullopt;
        return detail::to_move(spec(), game_, move);
    }

private:
    py::object bot_;
    Game game_;
};

py::tuple run_tuple(const State& start, const Run& run) {
    State final = start;
    final.position = run.state;
    py::list log;
    for (const auto& step : run.log) {
        if (step.accepted) final.history.push_back(Step{step.player, step.move});
        log.append(py::make_tuple(step.time, step.player, step.move, step.accepted));
    }
    return py::make_tuple(final, log, run.accepted, run.rejected, run.time);
}

/// A match as an instance of diabolo.knizia.FoundWord, a NamedTuple (word, cards, jokers),
/// made directly through the tuple API: a third of the cost of calling the class.
PyObject* new_match(PyTypeObject* type, const FoundWordView& v) {
    py::tuple cards(v.card_count);
    for (int c = 0; c < v.card_count; ++c) PyTuple_SET_ITEM(cards.ptr(), c, PyLong_FromLong(v.cards[c]));
    PyObject* match = type->tp_alloc(type, 3);
    if (match == nullptr) throw py::error_already_set();
    PyTuple_SET_ITEM(match, 0, PyUnicode_FromStringAndSize(v.word.data(), static_cast<py::ssize_t>(v.word.size())));
    PyTuple_SET_ITEM(match, 1, cards.release().ptr());
    PyTuple_SET_ITEM(match, 2, PyLong_FromLong(v.jokers));
    // Neither tuple can be part of a reference cycle (they hold a str, ints and an
    // untracked tuple), so the cyclic collector need not walk thousands of them.
    PyObject_GC_UnTrack(PyTuple_GET_ITEM(match, 1));
    PyObject_GC_UnTrack(match);
    return match;
}

/// find_words' result: the C++ FoundWords, whose entries become FoundWord tuples only when read.
struct FoundWordsResult {
    knizia::FoundWords matches;
    py::type word_type;

    PyTypeObject* type() const { return reinterpret_cast<PyTypeObject*>(word_type.ptr()); }
    py::object at(py::ssize_t index) const {
        const auto size = static_cast<py::ssize_t>(matches.size());
        if (index < 0) index += size;
        if (index < 0 || index >= size) throw py::index_error("found-word index out of range");
        return py::reinterpret_steal<py::object>(new_match(type(), matches[static_cast<std::size_t>(index)]));
    }
    py::list to_list() const {
        py::list out(matches.size());
        for (std::size_t i = 0; i < matches.size(); ++i)
            PyList_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), new_match(type(), matches[i]));
        return out;
    }
};

/// Checks that diabolo.knizia passed a NamedTuple type for the matches.
py::type word_type_from(const py::type& word_type) {
    if (!PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(word_type.ptr()), &PyTuple_Type)) {
        throw OptionError("a found-word type is a NamedTuple (word, cards, jokers)");
    }
    return word_type;
}

void bind_lexicon(py::module_& m) {
    py::class_<Lexicon, SharedLexicon>(m, "Lexicon", R"doc(
A set of words, normalised per K2; ``word in lexicon`` and ``len(lexicon)`` work.

Make one with :meth:`load` (a language code), :meth:`from_file` or :meth:`from_words`.
It is stored as a minimal automaton (a DAWG); a lexicon read from a file is cached in
its binary form, so the second load of a large list takes milliseconds.

>>> from diabolo import Lexicon
>>> lexicon = Lexicon.from_words(["Lager", "Regal", "lager"])
>>> len(lexicon), "Regal" in lexicon, "Gale" in lexicon
(2, True, False)
)doc")
        .def_static(
            "from_words",
            [](const py::object& entries, const std::string& source, const py::object& language) {
                if (PyUnicode_Check(entries.ptr()) || PyBytes_Check(entries.ptr()) ||
                    !py::isinstance<py::iterable>(entries)) {
                    throw OptionError("words must be an iterable of str such as a list, got " +
                                      py::str(py::type::of(entries).attr("__name__")).cast<std::string>());
                }
                std::vector<std::string> words;
                for (auto entry : entries) words.push_back(utf8_text<NotationError>(entry, "a lexicon entry"));
                Lexicon lexicon;
                {
                    py::gil_scoped_release release;
                    lexicon = Lexicon::from_words(words);
                }
                return make_lexicon(std::move(lexicon), source, language);
            },
            py::arg("words"), py::kw_only(), py::arg("source") = "words", py::arg("language") = py::none(),
            "A lexicon of ``words`` (any iterable of str), normalised per K2; ``source`` and ``language`` say where "
            "they came from.\n\n>>> len(Lexicon.from_words(['Hang', 'HANG', 'hang ']))\n1")
        .def_static(
            "from_bytes",
            [](const py::object& data, const std::string& source, const py::object& language) {
                return make_lexicon(Lexicon::from_bytes(bytes_of(data)), source, language);
            },
            py::arg("data"), py::kw_only(), py::arg("source") = "bytes", py::arg("language") = py::none(),
            "A lexicon from :meth:`to_bytes` (any bytes-like object); StateFormatError if ``data`` is not one.\n\n"
            ">>> len(Lexicon.from_bytes(Lexicon.from_words(['Hang', 'Gang']).to_bytes()))\n2")
        .def(
            "to_bytes", [](const Lexicon& lexicon) { return py::bytes(lexicon.to_bytes()); },
            "The compact binary form (loads with :meth:`from_bytes` in milliseconds).")
        .def(
            "__contains__",
            [](const Lexicon& lexicon, const py::object& word) {
                if (!PyUnicode_Check(word.ptr())) return false;
                const auto normal = normalise_word(utf8_text<NotationError>(word, "a word"));
                return normal.has_value() && lexicon.contains(*normal);
            },
            py::arg("word"))
        .def("__len__", &Lexicon::size)
        .def_property_readonly("node_count", &Lexicon::node_count, "States of the automaton.")
        .def_property_readonly(
            "source", [](const Lexicon& lexicon) { return lexicon.source(); },
            "Where the words came from: a file path, ``'words'`` or ``'bytes'``.")
        .def_property_readonly(
            "language",
            [](const Lexicon& lexicon) -> py::object {
                return lexicon.language().empty() ? py::object(py::none()) : py::object(py::str(lexicon.language()));
            },
            "The language code it was loaded by (:meth:`load`), else None.")
        .def("__repr__",
             [](const Lexicon& lexicon) {
                 return "<Lexicon of " + std::to_string(lexicon.size()) + " words from " + lexicon.source() + ">";
             })
        // A lexicon loaded by language pickles as that language (loaded again, and shared,
        // where it is unpickled); any other as its bytes.
        .def(py::pickle(
            [](const Lexicon& lexicon) -> py::tuple {
                if (!lexicon.language().empty()) return py::make_tuple(py::str(lexicon.language()), py::none());
                return py::make_tuple(py::none(), py::bytes(lexicon.to_bytes()), lexicon.source());
            },
            [](const py::tuple& t) {
                if (t.size() < 2) throw StateFormatError("a pickled Lexicon is (language, bytes[, source])");
                if (!t[0].is_none()) return load_by_language(py::type::of<Lexicon>(), t[0]).cast<SharedLexicon>();
                const std::string source =
                    t.size() > 2 ? utf8_text<StateFormatError>(t[2], "a lexicon's source") : "bytes";
                return make_lexicon(Lexicon::from_bytes(bytes_of(t[1])), source, py::none());
            }));

    py::class_<Deck>(m, "Deck", R"doc(
The cards of a game (K1.3, K10.7): how many of each card, and the language.

Cards are in notation: a letter ``"E"``, a double letter ``"EI"``, a joker ``"?"``
and a double joker ``"??"``. The decks packaged for ``de`` (the default), ``en`` and
``nl`` are reconstructions from letter frequencies; see the rules page.

>>> from diabolo.knizia import Deck
>>> deck = Deck.load("de")
>>> deck.size, deck.cards["?"], deck.cards["??"]
(66, 4, 2)
>>> Deck({"A": 2, "ST": 1}).size
3
)doc")
        .def(py::init([](const py::object& cards, const py::object& language) {
                 return deck_from_mapping(cards, language);
             }),
             py::arg("cards"), py::arg("language") = "")
        .def_static(
            "from_json",
            [](const py::object& text) {
                json::Value data;
                try {
                    data = parse_text(text, "a deck file");
                } catch (const StateFormatError& e) {  // "a deck file is not valid JSON: ..."
                    throw OptionError(e.what());
                }
                return deck_from_json(data);
            },
            py::arg("text"),
            "The deck of JSON text ``{\"language\": \"de\", \"cards\": {\"E\": 5, ...}}`` (K10.7).\n\n"
            ">>> Deck.from_json('{\"language\": \"xx\", \"cards\": {\"A\": 3}}').cards['A']\n3")
        .def(
            "to_json", [](const Deck& deck) { return json::serialize(deck_json(deck)); },
            "The deck file's text.\n\n>>> Deck({'A': 1}, 'xx').to_json()\n'{\"language\":\"xx\",\"cards\":{\"A\":1}}'")
        .def_property_readonly(
            "cards",
            [](const Deck& deck) { return py::module_::import("types").attr("MappingProxyType")(deck_cards(deck)); },
            "How many of each card the deck holds (read only).")
        .def_property_readonly(
            "language", [](const Deck& deck) { return deck.language; }, "The language code (``'de'``), or ``''``.")
        .def_property_readonly("size", &Deck::size, "Number of cards.")
        .def("__eq__", &equal_values<Deck>)
        .def("__hash__",
             [](const Deck& deck) {  // as ==: the order of the cards does not count
                 return py::hash(py::make_tuple(deck.language, py::frozenset(deck_cards(deck).attr("items")())));
             })
        .def("__repr__",
             [](const Deck& deck) {
                 return "Deck(" + py::repr(deck_cards(deck)).cast<std::string>() + ", " +
                        py::repr(py::str(deck.language)).cast<std::string>() + ")";
             })
        .def(py::pickle([](const Deck& deck) { return py::make_tuple(deck_cards(deck), deck.language); },
                        [](const py::tuple& t) {
                            if (t.size() != 2) throw StateFormatError("a pickled Deck is (cards, language)");
                            return deck_from_mapping(t[0], t[1]);
                        }));
}

void bind_game(py::module_& m) {
    py::class_<Bot, std::shared_ptr<Bot>>(m, "KniziaBot", "A Diabolo (Knizia) bot implemented in C++.")
        .def(
            "choose",
            [](const Bot& bot, const State& k, const py::object& player, const py::object& seed) -> py::object {
                Pcg32 rng(to_seed(seed));
                const int p = to_seat(player, k.position.players());
                const Position state = k.position;
                std::optional<Move> move;
                {
                    py::gil_scoped_release release;
                    move = bot.choose(state, p, rng);
                }
                return move ? py::cast(*move) : py::none();
            },
            py::arg("state"), py::arg("player"), py::arg("seed") = 0,
            "The move this bot makes for ``player`` now, or None to wait for the table to change.")
        .def_property_readonly("per_letter", &Bot::per_letter,
                               "Seconds a called word takes per letter, on top of the claim delay.");
    py::class_<RandomBot, Bot, std::shared_ptr<RandomBot>>(m, "KniziaRandomBot", R"doc(
Makes any legal move, uniformly at random (the seed of the run decides which).

>>> from diabolo.knizia import RandomBot
>>> RandomBot().name
'random'
)doc")
        .def(py::init([](const py::object& reaction, const py::object& per_letter) {
                 return std::make_shared<RandomBot>(reaction_from(reaction), per_letter_from(per_letter));
             }),
             py::arg("reaction") = py::none(), py::arg("per_letter") = kDefaultPerLetter)
        .def_property_readonly("name", [](const RandomBot&) { return "random"; }, "``'random'``.");
    py::class_<WordBot, Bot, std::shared_ptr<WordBot>>(m, "KniziaWordBot", R"doc(
Calls the longest word it knows on the table; as dealer it reveals when it knows none;
with the deck used up it passes; as another's penalty it takes the most versatile card.

What it knows is its vocabulary (the game's lexicon unless ``vocabulary`` is given),
cut to words of at most ``max_length`` letters, of which it knows a share
``coverage`` (each word known or not by a fixed hash of the word and ``memory``).
Its claims take the reaction's claim delay plus ``per_letter`` seconds a letter (K6.3).
With ``lookahead`` it weighs each word it could call (the sixteen with most cards) by the
cards it takes, minus part of its length (a longer call arrives later) and part of the
longest word the others could then form from the cards left.

>>> from diabolo import Lexicon
>>> from diabolo.knizia import WordBot
>>> bot = WordBot(max_length=5, coverage=0.5)
>>> bot.max_length, bot.coverage
(5, 0.5)
)doc")
        .def(py::init([](const py::object& reaction, const py::object& per_letter, const py::object& vocabulary,
                         const py::object& max_length, const py::object& coverage, const py::object& memory,
                         bool lookahead) {
                 Vocabulary v;
                 if (!vocabulary.is_none()) {
                     if (!py::isinstance<Lexicon>(vocabulary))
                         throw OptionError("vocabulary must be a diabolo.Lexicon or None");
                     v.words = vocabulary.cast<SharedLexicon>();
                 }
                 v.max_length = to_int(max_length, "max_length");
                 if (v.max_length < 1 || v.max_length > kMaxWord) throw OptionError("max_length must be 1..64 letters");
                 v.coverage = to_number(coverage, "coverage");
                 if (!(v.coverage >= 0.0 && v.coverage <= 1.0)) throw OptionError("coverage must be a share in [0, 1]");
                 v.memory = to_seed(memory, "memory");
                 return std::make_shared<WordBot>(reaction_from(reaction), per_letter_from(per_letter), v, lookahead);
             }),
             py::arg("reaction") = py::none(), py::arg("per_letter") = kDefaultPerLetter,
             py::arg("vocabulary") = py::none(), py::arg("max_length") = kMaxWord, py::arg("coverage") = 1.0,
             py::arg("memory") = 0, py::arg("lookahead") = false)
        .def_property_readonly(
            "name", [](const WordBot& b) { return b.lookahead() ? "lookahead-word" : "word"; },
            "``'word'``, or ``'lookahead-word'`` with ``lookahead``.")
        .def_property_readonly("lookahead", &WordBot::lookahead,
                               "Whether it weighs what its call leaves to the others.")
        .def_property_readonly(
            "max_length", [](const WordBot& b) { return b.vocabulary().max_length; }, "Longest word it knows.")
        .def_property_readonly(
            "coverage", [](const WordBot& b) { return b.vocabulary().coverage; }, "Share of the words it knows.")
        .def_property_readonly(
            "memory", [](const WordBot& b) { return b.vocabulary().memory; },
            "The seed of which words it knows when coverage is below 1.")
        .def_property_readonly(
            "vocabulary",
            [](const WordBot& b) -> py::object {
                if (!b.vocabulary().words) return py::none();
                return py::cast(std::const_pointer_cast<Lexicon>(b.vocabulary().words));
            },
            "Its own word list, or None (the game's lexicon).");

    m.def("knizia_simulate", [](const State& start, const py::sequence& bots, const py::object& seed, double max_time,
                                const py::object& max_events) {
        const realtime::Limits limits = limits_from(max_time, max_events);
        std::vector<std::shared_ptr<Bot>> owned;
        bool all_native = true;
        for (auto bot : bots) {
            if (py::isinstance<Bot>(bot)) {
                owned.push_back(cpp_bot<Bot>(bot));
            } else {
                if (!py::hasattr(bot, "choose")) throw OptionError("a bot needs a choose(state, player) method");
                owned.push_back(std::make_shared<PythonBot>(py::reinterpret_borrow<py::object>(bot), start.game));
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

    m.def("knizia_simulate_many",
          [](const Game& g, const py::sequence& bots, const py::object& games, const py::object& seed,
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
                  result = simulate_many(g, seats, batch.games, batch.seed, batch.threads, limits, signals.interrupt());
              }
              signals.raise_if_interrupted();
              return batch_dict(result, batch.games, g.config.players);
          });

    GameClasses<Rules> classes = bind_contract<Rules>(m, spec());
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
        .def_property_readonly(
            "dealer", [](const State& k) { return k.position.dealer(); }, "The dealer's seat (K10.1).")
        .def_property_readonly(
            "table",
            [](const State& k) {
                return card_list(k.position.config, k.position.table.data(), k.position.table_count);
            },
            "The table line in notation, position 0 first (K8).")
        .def_property_readonly(
            "deck_count", [](const State& k) { return k.position.deck_count(); }, "Cards left in the deck.")
        .def_property_readonly(
            "piles", [](const State& k) { return seat_values(k.position.pile, k.position.players()); },
            "Cards each seat took this round (K4.1).")
        .def_property_readonly(
            "penalty",
            [](const State& k) {
                return std::vector<int>(k.position.penalty.begin(),
                                        k.position.penalty.begin() + k.position.penalty_count);
            },
            "Seats still to take a card for an invalid call, in order (K3.5).")
        .def_property_readonly(
            "last_call", [](const State& k) { return last_call_dict(k.position); },
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
            "action",
            [](const Game& g, const py::object& move) -> py::object {
                const int action = action_of(detail::to_move(spec(), g, move), *g.lexicon);
                return action < 0 ? py::object(py::none()) : py::object(py::int_(action));
            },
            py::arg("move"), "The action id of a move (a claim by its word), or None for a word not in the lexicon.");
}

}  // namespace

void bind_knizia(py::module_& m) {
    bind_lexicon(m);
    py::class_<FoundWordsResult>(m, "KniziaFoundWords",
                                 "The words a Knizia table forms (behind diabolo.knizia.FoundWords).")
        .def("__len__", [](const FoundWordsResult& f) { return f.matches.size(); })
        .def("at", &FoundWordsResult::at, py::arg("index"))
        .def("to_list", &FoundWordsResult::to_list);
    m.def("knizia_find_words",
          [](const py::object& table, const Lexicon& lexicon, const py::object& min_cards, const py::type& word_type) {
              const std::vector<Card> cards = table_from(table);
              const int minimum = min_cards_from(min_cards);
              FoundWordsResult found{knizia::FoundWords(), word_type_from(word_type)};
              {
                  py::gil_scoped_release release;
                  found.matches = find_words(lexicon, cards, minimum);
              }
              return found;
          });
    m.def("knizia_check_word",
          [](const py::object& word, const py::object& table, const Lexicon& lexicon, const py::object& min_cards,
             const py::type& word_type) -> py::tuple {
              const std::vector<Card> cards = table_from(table);
              const int minimum = min_cards_from(min_cards);
              const auto normal = normalise_word(utf8_text<NotationError>(word, "a word"));
              if (!normal) return py::make_tuple(reason_text(Reason::NotAWord), py::none());
              const Check check = check_word(lexicon, *normal, cards, minimum);
              if (!check.match) return py::make_tuple(reason_text(check.reason), py::none());
              const std::vector<uint8_t> positions(check.match->cards.begin(), check.match->cards.end());
              const FoundWordView view{check.match->word, positions.data(), check.match->card_count(),
                                       check.match->jokers, 0};
              return py::make_tuple(reason_text(check.reason),
                                    py::reinterpret_steal<py::object>(new_match(
                                        reinterpret_cast<PyTypeObject*>(word_type_from(word_type).ptr()), view)));
          });
    m.def("normalise_word", [](const py::object& word) -> py::object {
        const auto normal = normalise_word(utf8_text<NotationError>(word, "a word"));
        return normal ? py::object(py::str(*normal)) : py::object(py::none());
    });
    bind_game(m);
}

}  // namespace diabolo::bindings
