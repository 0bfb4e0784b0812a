// The Python binding of a game that brings no binding of its own (the test-only game
// highcard): the contract's classes (bind_contract), new_state with the game's deal given as
// keywords, and its bots, all from the game's Rules and its catalogue entry. A game with a
// binding file of its own (src/<game>.cpp) adds its options as properties, typed bot
// classes and docstrings with examples on top of the same contract.
#pragma once

#include <pybind11/pybind11.h>

#include <cctype>
#include <memory>
#include <string>

#include "bind_bots.hpp"
#include "bind_game.hpp"
#include "bind_vector_env.hpp"
#include "common.hpp"

namespace diabolo::bindings {

template <class R>
void bind_plain_game(py::module_& m) {
    using Game = typename R::Game;
    using State = typename R::State;
    using Bot = typename R::Bot;
    // The spec's texts stay in use by the bound functions (error messages): they live as
    // long as the module, made once per game.
    static const std::string name = R::kName;
    static const std::string title = [] {
        std::string text = R::kName;
        text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
        return text;
    }();
    const std::string game_doc = std::string(R::kInfo.title) +
                                 " with its rule options. Get one with ``diabolo.load``.\n\n>>> import diabolo\n"
                                 ">>> diabolo.load('" +
                                 name + "').name\n'" + name + "'";
    const std::string state_doc = "A game of " + std::string(R::kInfo.title) +
                                  " in progress.\n\n>>> import diabolo\n>>> diabolo.load('" + name +
                                  "').new_state(seed=1).round\n0";
    const std::string move_doc =
        "A move of " + std::string(R::kInfo.title) + ": ``str()`` is its notation (" + R::kNotationClause + ").";
    static const std::string example =
        "'" + R::format_move(R::move_of_action(R::game_from_json(json::Object()), 0)) + "'";
    GameSpec<R> spec{title.c_str(),    game_doc.c_str(), state_doc.c_str(),
                     move_doc.c_str(), example.c_str(),  "several seats may act: name the player"};
    GameClasses<R> classes = bind_contract<R>(m, spec);
    classes.game.def(
        "new_state",
        [](const Game& game, const py::object& seed, const py::kwargs& deal) {
            return R::new_dealt_state(game, to_seed(seed), from_python(deal, "a deal"));
        },
        py::arg("seed") = 0,
        ("A new game shuffled from ``seed``; keywords give a deal in the game's deal format.\n\n"
         ">>> diabolo.load('" +
         name + "').new_state(seed=3).round\n0")
            .c_str());
    py::class_<Bot, std::shared_ptr<Bot>> bot_class(
        m, (title + "Bot").c_str(),
        ("A bot of " + std::string(R::kInfo.title) +
         ", made by ``diabolo.bot``.\n\n>>> import diabolo\n>>> bot = diabolo.bot('" + name +
         "', 'random')\n>>> bot.choose(diabolo.load('" + name + "').new_state(seed=1)) is not None\nTrue")
            .c_str());
    bot_class.def(
        "choose",
        [](const Bot& bot, const State& state, const py::object& player, const py::object& seed) -> py::object {
            const int seat =
                player.is_none() ? R::current_player(R::position(state)) : to_seat(player, R::players(R::game(state)));
            if (seat < 0) return py::none();
            Pcg32 rng(to_seed(seed));
            const auto move = R::bot_move(bot, R::position(state), seat, rng);
            return move ? py::cast(*move) : py::none();
        },
        py::arg("state"), py::arg("player") = py::none(), py::arg("seed") = 0,
        "The move this bot makes for ``player`` (default: the player to move), or None when the seat has "
        "nothing to do; ``seed`` fixes its random choices.");
    bind_propose<R, Bot>(bot_class);
    bind_turn_based_match<R, Bot>(m, spec);
    bind_vector_env<R, Bot>(m);
}

}  // namespace diabolo::bindings
