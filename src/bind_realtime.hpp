// The Python binding of real-time play (core/realtime.hpp), written once for the games
// without turns: the bots' base class (with the bindings of every game's bots,
// src/bind_bots.hpp), simulate and simulate_many (an overload per game), which
// diabolo.realtime calls, and play_match.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bind_bots.hpp"
#include "bind_game.hpp"
#include "bind_vector_env.hpp"
#include "common.hpp"
#include "diabolo/core/realtime.hpp"

namespace diabolo::bindings {

/// Binds `Bot` as <Title>Bot and the game's overloads of the module functions simulate and
/// simulate_many (core/realtime.hpp). `python_bot(bot, game)` wraps a bot written in Python;
/// `kinds[0 .. kind_count)` name the kinds of action of the bots' reaction times.
template <class R, class Bot>
py::class_<Bot, std::shared_ptr<Bot>> bind_realtime(py::module_& m, const GameSpec<R>& spec,
                                                    std::shared_ptr<Bot> (*python_bot)(const py::object& bot,
                                                                                       const typename R::Game& game),
                                                    const char* const* kinds, int kind_count) {
    using State = typename R::State;
    const std::string title = spec.title;
    const std::string doc = "A " + title + " bot implemented in C++.";
    py::class_<Bot, std::shared_ptr<Bot>> bot_class(m, (title + "Bot").c_str(), doc.c_str());
    bot_class.def(
        "choose",
        [](const Bot& bot, const State& state, const py::object& player, const py::object& seed) -> py::object {
            Pcg32 rng(to_seed(seed));
            const int seat = to_seat(player, R::players(R::game(state)));
            const typename R::Position position = R::position(state);
            std::optional<typename R::Move> move;
            {
                py::gil_scoped_release release;
                move = bot.choose(position, seat, rng);
            }
            return move ? py::cast(*move) : py::none();
        },
        py::arg("state"), py::arg("player"), py::arg("seed") = 0,
        "The move this bot makes for ``player`` now, or None to wait for the table to change.");
    bind_propose<R, Bot>(bot_class);
    bot_class.def_property_readonly(
        "reaction",
        [kinds, kind_count](const Bot& bot) {
            py::dict delays;
            for (int k = 0; k < kind_count; ++k) {
                const realtime::Delay& d = bot.reaction().delays[static_cast<std::size_t>(k)];
                delays[kinds[k]] = py::make_tuple(d.mean, d.spread);
            }
            py::dict out;
            out["delays"] = delays;
            out["minimum"] = bot.reaction().minimum;
            return out;
        },
        "The bot's reaction-time model: ``{'delays': {kind: (mean, spread)}, 'minimum': seconds}`` "
        "(``diabolo.realtime.Reaction(**bot.reaction)`` is the same model).");

    // A bot's C++ form: itself, or a bot written in Python wrapped.
    const auto seat_bot = [python_bot](const py::handle& bot, const typename R::Game& game) {
        return bindings::seat_bot<Bot>(bot, game, python_bot);
    };
    bind_play_match<R, Bot>(m, seat_bot);
    bind_vector_env<R, Bot>(m);
    m.def("simulate", [seat_bot](const State& start, const py::sequence& bots, const py::object& seed, double max_time,
                                 const py::object& max_events) {
        const realtime::Limits limits = limits_from(max_time, max_events);
        const SeatedBots<Bot> seated =
            seat_bots<Bot>(bots, [&](const py::handle& bot) { return seat_bot(bot, R::game(start)); });
        const uint64_t s = to_seed(seed);
        // Copied with the GIL held: another thread may apply moves to `start` meanwhile,
        // and the run's state is this copy played on.
        const State begin = start;
        const typename R::Position& position = R::position(begin);
        realtime::Run<typename R::Position, typename R::Move> run;
        if (seated.native) {
            py::gil_scoped_release release;
            run = realtime::simulate<R>(position, seated.seats, s, limits);
        } else {
            run = realtime::simulate<R>(position, seated.seats, s, limits);
        }
        State final = begin;
        final.position = run.state;
        py::list log;
        for (const auto& step : run.log) {
            if (step.accepted) final.history.push_back({step.player, step.move});
            log.append(py::make_tuple(step.time, step.player, step.move, step.accepted));
        }
        return py::make_tuple(final, log, run.accepted, run.rejected, run.time);
    });

    m.def("simulate_many",
          [](const typename R::Game& game, const py::sequence& bots, const py::object& games, const py::object& seed,
             const py::object& threads, double max_time, const py::object& max_events) {
              const realtime::Limits limits = limits_from(max_time, max_events);
              const SeatedBots<Bot> seated = seat_bots<Bot>(bots, [](const py::handle& bot) {
                  if (!py::isinstance<Bot>(bot))
                      throw OptionError("simulate_many runs C++ bots only; use simulate for Python bots");
                  return cpp_bot<Bot>(bot);
              });
              const Batch batch = batch_args(games, seed, threads);
              realtime::Batch result;
              SignalCheck signals;
              {
                  py::gil_scoped_release release;
                  result = realtime::simulate_many<R>(game, seated.seats, batch.games, batch.seed, batch.threads,
                                                      limits, signals.interrupt());
              }
              signals.raise_if_interrupted();
              return batch_dict(result, batch.games, R::players(game));
          });
    return bot_class;
}

}  // namespace diabolo::bindings
