// Python bindings of the word game's materials: Lexicon (a word list), Deck (the cards of
// a game, K10.7), the word finder (find_words, check_word) and normalise_word. Only
// conversion lives here; the rules are in cpp/src/knizia/words.cpp and lexicon.cpp.
#include "words.hpp"

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "diabolo/knizia/knizia.hpp"

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

SharedLexicon make_lexicon(Lexicon lexicon, const std::string& source, const py::object& language) {
    lexicon.set_origin(source,
                       std::string(language.is_none() ? "" : utf8_text<OptionError>(language, "a lexicon's language")));
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

}  // namespace

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

/// The deck option: a Deck, a language code, a mapping of counts, or the deck as
/// options_json writes it ({"language": ..., "cards": {...}}) (None: the lexicon's
/// language, else 'de').
Deck deck_option(const py::handle& value, const Lexicon& lexicon) {
    if (PyDict_Check(value.ptr()) && PyDict_Size(value.ptr()) == 2 && PyDict_GetItemString(value.ptr(), "cards") &&
        PyDict_GetItemString(value.ptr(), "language"))
        return deck_from_mapping(PyDict_GetItemString(value.ptr(), "cards"),
                                 PyDict_GetItemString(value.ptr(), "language"));
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

void bind_words(py::module_& m) {
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
                for (auto entry : entries) words.emplace_back(utf8_text<NotationError>(entry, "a lexicon entry"));
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
                    std::string(t.size() > 2 ? utf8_text<StateFormatError>(t[2], "a lexicon's source") : "bytes");
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
}

}  // namespace diabolo::bindings
