// Python bindings of the lexicon and of Diabolo (Knizia)'s word finder.
// Only conversion lives here; the rules are in cpp/src/knizia/ and cpp/src/lexicon.cpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "diabolo/knizia.hpp"
#include "diabolo/lexicon.hpp"

namespace diabolo::bindings {

using namespace diabolo::knizia;

namespace {

std::vector<Card> table_from(const py::handle& value) {
    if (!py::isinstance<py::sequence>(value) || PyUnicode_Check(value.ptr())) {
        throw NotationError("a table is a list of cards like ['O', 'ST', '?'] (K8)");
    }
    std::vector<Card> table;
    for (auto card : py::reinterpret_borrow<py::sequence>(value)) table.push_back(parse_card(utf8_text<NotationError>(card, "a card")));
    if (table.size() > static_cast<std::size_t>(kMaxTable)) {
        throw NotationError("a table holds at most " + std::to_string(kMaxTable) + " cards, got " + std::to_string(table.size()));
    }
    return table;
}

int min_cards_from(const py::handle& value) {
    const long long n = to_int(value, "min_cards");
    if (n < 1 || n > kMaxTable) throw OptionError("min_cards must be 1.." + std::to_string(kMaxTable) + " (K3.3), got " + std::to_string(n));
    return static_cast<int>(n);
}

}  // namespace

void bind_knizia(py::module_& m) {
    py::class_<Lexicon, std::shared_ptr<Lexicon>>(m, "LexiconCore", "The compiled lexicon behind diabolo.Lexicon.")
        .def_static("from_words", [](const py::iterable& entries) {
            std::vector<std::string> words;
            for (auto entry : entries) words.push_back(utf8_text<NotationError>(entry, "a lexicon entry"));
            py::gil_scoped_release release;
            return std::make_shared<Lexicon>(Lexicon::from_words(words));
        }, py::arg("entries"))
        .def_static("from_bytes", [](const py::bytes& data) { return std::make_shared<Lexicon>(Lexicon::from_bytes(data)); },
                    py::arg("data"))
        .def("to_bytes", [](const Lexicon& lexicon) { return py::bytes(lexicon.to_bytes()); })
        .def("contains", [](const Lexicon& lexicon, const py::object& word) {
            if (!PyUnicode_Check(word.ptr())) return false;
            const auto normal = normalise_word(utf8_text<NotationError>(word, "a word"));
            return normal.has_value() && lexicon.contains(*normal);
        }, py::arg("word"))
        .def("__len__", &Lexicon::size)
        .def_property_readonly("node_count", &Lexicon::node_count);

    py::class_<Match>(m, "KniziaMatch", R"doc(
A word the table can form, with its best card assignment (K3.4, K10.4).

>>> from diabolo import Lexicon
>>> from diabolo.knizia import check_word
>>> match = check_word("stop", ["ST", "O", "?"], Lexicon.from_words(["Stop"]))
>>> match.word, match.cards, match.card_count, match.jokers
('STOP', (0, 1, 2), 3, 1)
)doc")
        .def_readonly("word", &Match::word, "The word, normalised (A-Z).")
        .def_property_readonly("cards", [](const Match& match) { return py::tuple(py::cast(match.cards)); },
                               "Table positions used (0-based), in word order.")
        .def_property_readonly("card_count", &Match::card_count, "Number of cards used.")
        .def_readonly("jokers", &Match::jokers, "Joker cards used (``?`` and ``??`` count one each).")
        .def("__repr__", [](const Match& match) {
            std::string cards;
            for (int card : match.cards) cards += (cards.empty() ? "" : ", ") + std::to_string(card);
            return "Match(word='" + match.word + "', cards=(" + cards + (match.cards.size() == 1 ? ",))" : "))");
        })
        .def("__eq__", [](const Match& a, const py::object& b) -> py::object {
            if (!py::isinstance<Match>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            const Match& other = b.cast<const Match&>();
            return py::bool_(a.word == other.word && a.cards == other.cards && a.jokers == other.jokers);
        })
        .def("__hash__", [](const Match& match) { return py::hash(py::make_tuple(match.word, py::tuple(py::cast(match.cards)))); });

    m.def("knizia_find_words", [](const py::object& table, const Lexicon& lexicon, const py::object& min_cards) {
        const std::vector<Card> cards = table_from(table);
        const int minimum = min_cards_from(min_cards);
        py::gil_scoped_release release;
        return find_words(lexicon, cards, minimum);
    });
    m.def("knizia_check_word", [](const py::object& word, const py::object& table, const Lexicon& lexicon,
                                  const py::object& min_cards) -> py::tuple {
        const std::vector<Card> cards = table_from(table);
        const int minimum = min_cards_from(min_cards);
        const auto normal = normalise_word(utf8_text<NotationError>(word, "a word"));
        if (!normal) return py::make_tuple(reason_text(Reason::NotAWord), py::none());
        const Check check = check_word(lexicon, *normal, cards, minimum);
        return py::make_tuple(reason_text(check.reason), check.match ? py::cast(*check.match) : py::object(py::none()));
    });
    m.def("normalise_word", [](const py::object& word) -> py::object {
        const auto normal = normalise_word(utf8_text<NotationError>(word, "a word"));
        return normal ? py::object(py::str(*normal)) : py::object(py::none());
    });
}

}  // namespace diabolo::bindings
