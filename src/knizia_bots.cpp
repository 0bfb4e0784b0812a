// Python bindings of the Knizia bots: KniziaBot and its kinds, bots written in Python,
// the real-time simulation and its play_match. The bots are in cpp/src/knizia/.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bind_game.hpp"
#include "bind_realtime.hpp"
#include "common.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/knizia/lexicon.hpp"
#include "words.hpp"

namespace diabolo::bindings {

using namespace diabolo::knizia;

GameSpec<Rules> knizia_spec();  // src/knizia.cpp

namespace {

realtime::Reaction reaction_from(const py::handle& value) {
    return bindings::reaction_from(value, default_reaction(), kReactionKindNames, kReactionKinds, "Knizia");
}

double per_letter_from(const py::handle& value) {
    const double seconds = to_number(value, "per_letter");
    check_bot_options(seconds, Vocabulary{});
    return seconds;
}

/// A word bot's vocabulary from its constructor's arguments, checked with its per_letter.
Vocabulary vocabulary_from(const py::object& vocabulary, const py::object& max_length, const py::object& coverage,
                           const py::object& memory, double per_letter) {
    Vocabulary v;
    if (!vocabulary.is_none()) {
        if (!py::isinstance<Lexicon>(vocabulary)) throw OptionError("vocabulary must be a diabolo.Lexicon or None");
        v.words = vocabulary.cast<SharedLexicon>();
    }
    v.max_length = to_int(max_length, "max_length");
    v.coverage = to_number(coverage, "coverage");
    v.memory = to_seed(memory, "memory");
    check_bot_options(per_letter, v);
    return v;
}

/// The properties of what a bot knows (WordBot, SearchBot): max_length, coverage, memory, vocabulary.
template <class Class>
void def_vocabulary(Class& cls) {
    using B = typename Class::type;
    cls.def_property_readonly(
           "max_length", [](const B& b) { return b.vocabulary().max_length; }, "Longest word it knows.")
        .def_property_readonly(
            "coverage", [](const B& b) { return b.vocabulary().coverage; }, "Share of the words it knows.")
        .def_property_readonly(
            "memory", [](const B& b) { return b.vocabulary().memory; },
            "The seed of which words it knows when coverage is below 1.")
        .def_property_readonly(
            "vocabulary",
            [](const B& b) -> py::object {
                if (!b.vocabulary().words) return py::none();
                return py::cast(std::const_pointer_cast<Lexicon>(b.vocabulary().words));
            },
            "Its own word list, or None (the game's lexicon).");
}

std::shared_ptr<Bot> python_bot(const py::object& bot, const Game& game) {
    return std::make_shared<PythonBot<Rules, Bot>>(
        bot, knizia_spec(), game, reaction_from(py::getattr(bot, "reaction", py::none())),
        per_letter_from(py::getattr(bot, "per_letter", py::float_(kDefaultPerLetter))));
}

}  // namespace

void bind_knizia_bots(py::module_& m) {
    bind_realtime<Rules, Bot>(m, knizia_spec(), &python_bot, kReactionKindNames, kReactionKinds)
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
    py::class_<WordBot, Bot, std::shared_ptr<WordBot>> word_bot(m, "KniziaWordBot", R"doc(
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
)doc");
    word_bot
        .def(py::init([](const py::object& reaction, const py::object& per_letter, const py::object& vocabulary,
                         const py::object& max_length, const py::object& coverage, const py::object& memory,
                         bool lookahead) {
                 const double seconds = per_letter_from(per_letter);
                 return std::make_shared<WordBot>(reaction_from(reaction), seconds,
                                                  vocabulary_from(vocabulary, max_length, coverage, memory, seconds),
                                                  lookahead);
             }),
             py::arg("reaction") = py::none(), py::arg("per_letter") = kDefaultPerLetter,
             py::arg("vocabulary") = py::none(), py::arg("max_length") = kMaxWord, py::arg("coverage") = 1.0,
             py::arg("memory") = 0, py::arg("lookahead") = false)
        .def_property_readonly(
            "name", [](const WordBot& b) { return b.lookahead() ? "lookahead" : "word"; },
            "``'word'``, or ``'lookahead'`` with ``lookahead`` (the kind that makes it).")
        .def_property_readonly("lookahead", &WordBot::lookahead,
                               "Whether it weighs what its call leaves to the others.");
    def_vocabulary(word_bot);
    py::class_<SearchBot, Bot, std::shared_ptr<SearchBot>> search_bot(m, "KniziaSearchBot", R"doc(
Plans its call by playing the race out (K3.2, K3.5, K6.3). For each move it could make
now (the lookahead's choice, the claims with most cards, the shortest claims, a reveal
as dealer, or waiting for the next card) it simulates the next ``horizon`` seconds in
``worlds`` deals of the unseen deck, every seat played by a lookahead :class:`WordBot`
with reaction times drawn as the real ones are, and makes the move after which its cards
lead the best other seat's by most on average. Its budget is ``worlds``, not a clock,
so a seed gives the same game on every machine; with the defaults a decision takes
under a millisecond on average and at most about a tenth of a second (docs/strength.rst),
less than the quickest reaction. ``vocabulary``, ``max_length``, ``coverage`` and
``memory`` limit the words it calls, as a WordBot's do.

>>> from diabolo.knizia import SearchBot
>>> bot = SearchBot(worlds=8)
>>> bot.name, bot.worlds, bot.horizon
('search', 8, 4.0)
)doc");
    search_bot
        .def(py::init([](const py::object& reaction, const py::object& per_letter, const py::object& vocabulary,
                         const py::object& max_length, const py::object& coverage, const py::object& memory,
                         const py::object& worlds, const py::object& horizon) {
                 const double seconds = per_letter_from(per_letter);
                 return std::make_shared<SearchBot>(reaction_from(reaction), seconds,
                                                    vocabulary_from(vocabulary, max_length, coverage, memory, seconds),
                                                    to_int(worlds, "worlds"), to_number(horizon, "horizon"));
             }),
             py::arg("reaction") = py::none(), py::arg("per_letter") = kDefaultPerLetter,
             py::arg("vocabulary") = py::none(), py::arg("max_length") = kMaxWord, py::arg("coverage") = 1.0,
             py::arg("memory") = 0, py::arg("worlds") = kDefaultSearchWorlds,
             py::arg("horizon") = kDefaultSearchHorizon)
        .def_property_readonly(
            "name", [](const SearchBot&) { return "search"; }, "``'search'``.")
        .def_property_readonly("worlds", &SearchBot::worlds, "Deals of the unseen deck it plays each move out in.")
        .def_property_readonly("horizon", &SearchBot::horizon, "Seconds of play it simulates after each move.");
    def_vocabulary(search_bot);
}

}  // namespace diabolo::bindings
