// The vector environment (core/vector_env.hpp) bound once for every game: the class
// <Name>VectorEnv and the game's overload of the function vector_env that Game.vector_env calls
// (python/diabolo/envs/vector.py). The seats other than the learner's are played by C++
// bots; a step runs without the GIL and writes into numpy arrays the object owns.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "diabolo/bot_player.hpp"
#include "diabolo/core/vector_env.hpp"

namespace diabolo::bindings {

/// A vector environment with its bots and its output arrays, which every call returns
/// (the same arrays each time: a caller copies what it keeps).
template <class R>
struct BoundVectorEnv {
    std::vector<std::unique_ptr<SeatPlayer<R>>> players;
    bool compact = false;
    bool working = false;          // a call runs without the GIL (read and written under the GIL)
    py::array observations;        // float32, or uint8 with compact observations
    py::array final_observations;  // the same shape and type; written with same-step autoreset
    py::array_t<bool> masks;
    py::array_t<float> rewards;
    py::array_t<bool> terminated;
    py::array_t<bool> truncated;
    py::array_t<bool> lost_races;
    py::array_t<int32_t> seats;
    py::array_t<int32_t> scores;
    py::object action_features = py::none();  // float32 games x actions x features, or None
    // Last, so destroyed first: its destructor waits for a sent step, which writes into the
    // arrays above and asks the players.
    std::unique_ptr<VectorEnv<R>> env;

    /// Runs `call` without the GIL; OptionError if another Python thread is in a call of
    /// this env (the env steps one batch at a time).
    template <class Call>
    void without_gil(Call call) {
        if (working) throw OptionError("the vector env is in a call from another thread: one call at a time");
        working = true;
        try {
            py::gil_scoped_release release;
            call();
        } catch (...) {
            working = false;
            throw;
        }
        working = false;
    }

    py::tuple results() { return py::make_tuple(observations, masks, rewards, terminated, truncated); }

    /// The actions of a step as int32 ids, checked to fit (the env checks the rest).
    py::array_t<int32_t> actions(const py::handle& given) const {
        const py::array array = py::array::ensure(given);
        if (!array || array.ndim() != 1 || array.shape(0) != env->games() ||
            (array.dtype().kind() != 'i' && array.dtype().kind() != 'u'))
            throw OptionError("actions must be one integer action id per game, shape (" + std::to_string(env->games()) +
                              ",)");
        if (array.itemsize() >= 4 && array.size() > 0 &&
            (array.attr("min")() < py::int_(0) || array.attr("max")() > py::int_(INT32_MAX)))
            throw OptionError("an action id is 0.." + std::to_string(env->actions() - 1) + "; actions holds " +
                              py::repr(array.attr("min")()).cast<std::string>() + ".." +
                              py::repr(array.attr("max")()).cast<std::string>());
        return py::array_t < int32_t, py::array::c_style | py::array::forcecast > ::ensure(array);
    }

    VectorEnvOutput output() {
        void* rows = observations.mutable_data();
        void* final_rows = final_observations.mutable_data();
        return {
            compact ? nullptr : static_cast<float*>(rows),
            reinterpret_cast<uint8_t*>(masks.mutable_data()),
            rewards.mutable_data(),
            reinterpret_cast<uint8_t*>(terminated.mutable_data()),
            reinterpret_cast<uint8_t*>(truncated.mutable_data()),
            reinterpret_cast<uint8_t*>(lost_races.mutable_data()),
            seats.mutable_data(),
            compact ? static_cast<uint8_t*>(rows) : nullptr,
            compact ? nullptr : static_cast<float*>(final_rows),
            compact ? static_cast<uint8_t*>(final_rows) : nullptr,
            action_features.is_none() ? nullptr : static_cast<float*>(action_features.cast<py::array>().mutable_data()),
            scores.mutable_data()};
    }
};

/// Binds <Name>VectorEnv and vector_env(game, players, games, seed, threads, seat,
/// final_reward, penalise, penalty, idle_limit, max_steps, compact, same_step, claims,
/// action_features), where
/// players holds one C++ bot (or None for the learner's fixed seat) per seat.
template <class R, class Bot>
void bind_vector_env(py::module_& m) {
    using Env = BoundVectorEnv<R>;
    static const std::string class_name =
        static_cast<char>(R::kName[0] - 'a' + 'A') + std::string(R::kName + 1) + "VectorEnv";
    py::class_<Env>(m, class_name.c_str(),
                    "Many games stepped together in C++: see ``Game.vector_env`` and docs/ai.rst, \"The vector env\".")
        .def(
            "reset",
            [](Env& self) {
                const VectorEnvOutput out = self.output();
                self.without_gil([&] { self.env->reset(out); });
                return py::make_tuple(self.observations, self.masks);
            },
            "Starts every game's first episode: ``(observations, masks)``.")
        .def(
            "step",
            [](Env& self, const py::handle& given) {
                const auto actions = self.actions(given);
                const VectorEnvOutput out = self.output();
                self.without_gil([&] { self.env->step(actions.data(), out); });
                return self.results();
            },
            py::arg("actions"), "One step of every game: ``(observations, masks, rewards, terminated, truncated)``.")
        .def(
            "send",
            [](Env& self, const py::handle& given) {
                const auto actions = self.actions(given);
                const VectorEnvOutput out = self.output();
                self.without_gil([&] { self.env->send(actions.data(), out); });
            },
            py::arg("actions"),
            "Starts a step with these actions and returns at once; ``recv()`` returns its results. "
            "The arrays are being written until then.")
        .def(
            "recv",
            [](Env& self) {
                // Refused under the GIL when nothing was sent, so that it never holds up
                // another thread's call (no call of another thread runs when not working).
                if (!self.working && !self.env->sent())
                    throw OptionError("no step was sent to the vector env: send(actions) first");
                self.without_gil([&] { self.env->receive(); });
                return self.results();
            },
            "Waits for the step ``send`` started: ``(observations, masks, rewards, terminated, truncated)``.")
        .def_property_readonly(
            "games", [](const Env& self) { return self.env->games(); }, "The number of games.")
        .def_property_readonly(
            "num_actions", [](const Env& self) { return self.env->actions(); },
            "Action ids per game: the game's, and in real time the no-op last.")
        .def_property_readonly(
            "wait",
            [](const Env& self) -> py::object {
                if (self.env->wait_action() < 0) return py::none();
                return py::int_(self.env->wait_action());
            },
            "The no-op's action id in a real-time game; None in a turn-based one.")
        .def_property_readonly(
            "observation_size", [](const Env& self) { return self.env->observation_size(); },
            "Entries in each game's observation.")
        .def(
            "render",
            [](const Env& self, const py::object& game) {
                if (self.working || self.env->sent())  // the step is changing the tables
                    throw OptionError("the vector env is stepping: render it after recv()");
                const int index = to_int(game, "game");
                if (index < 0 || index >= self.env->games())
                    throw OptionError("game must be 0.." + std::to_string(self.env->games() - 1) + ", got " +
                                      std::to_string(index));
                return R::render(self.env->position(index));
            },
            py::arg("game") = 0, "A text picture of game ``game``'s table, as ``str(state)`` draws it.")
        .def(
            "compact_view",
            [](const Env& self, const py::object& game) {
                if (self.working || self.env->sent())
                    throw OptionError("the vector env is stepping: read it after recv()");
                const int index = to_int(game, "game");
                if (index < 0 || index >= self.env->games())
                    throw OptionError("game must be 0.." + std::to_string(self.env->games() - 1) + ", got " +
                                      std::to_string(index));
                const std::vector<int32_t>& view = self.env->compact_view(index);
                return py::array_t<int32_t>(static_cast<py::ssize_t>(view.size()), view.data());
            },
            py::arg("game") = 0,
            "With ``claims``: the game's action id that each of the learner's ids stands for now in game "
            "``game``, -1 where none (``KniziaState.compact_view``); empty without the option.")
        .def_readonly("lost_races", &Env::lost_races,
                      "Per game, whether the learner's move at the last step lost a race (real time).")
        .def_readonly("seats", &Env::seats, "Per game, the learner's seat in its current episode.")
        .def_readonly("scores", &Env::scores,
                      "Per game, every seat's score (games x seats, int32) as the last step left the episode: "
                      "in the step that ends it, its final scores, with either autoreset.")
        .def_readonly("action_features", &Env::action_features,
                      "With ``action_features=True``: per game, the features of each of the learner's actions "
                      "(games x actions x features, float32; zeros for actions not legal), rewritten with the "
                      "observations; None without the option.")
        .def_readonly("final_observations", &Env::final_observations,
                      "With ``autoreset=\"same_step\"``: row i is the last observation of game i's episode "
                      "when game i ended at the last step (its row of ``observations`` is the next deal's first).");
    m.def("vector_env", [](const typename R::Game& game, const py::sequence& players, const py::object& games,
                           const py::object& seed, const py::object& threads, int seat, bool final_reward,
                           bool penalise, double penalty, const py::object& idle_limit, const py::object& max_steps,
                           bool compact, bool same_step, const py::object& claims, bool action_features) {
        auto bound = std::make_unique<Env>();
        std::vector<const SeatPlayer<R>*> seated;
        for (const auto& player : players) {
            if (player.is_none()) {
                seated.push_back(nullptr);
                continue;
            }
            if (!py::isinstance<Bot>(player))  // a bot written in Python would need the GIL
                throw OptionError("a vector env's seats are played by C++ bots made by their classes, got " +
                                  py::repr(player).cast<std::string>());
            bound->players.push_back(std::make_unique<BotPlayer<R>>(cpp_bot<Bot>(player), game));
            seated.push_back(bound->players.back().get());
        }
        VectorEnvOptions options;
        options.seat = seat;
        options.final_reward = final_reward;
        options.penalise = penalise;
        options.penalty = static_cast<float>(penalty);
        options.idle_limit = to_int(idle_limit, "idle_limit");
        options.max_steps = max_steps.is_none() ? 0 : to_int64(max_steps, "max_steps");
        options.compact = compact;
        options.same_step = same_step;
        options.claims = to_int(claims, "claims");
        if (!max_steps.is_none() && options.max_steps < 1)
            throw OptionError("max_steps must be >= 1 or None, got " + std::to_string(options.max_steps));
        constexpr int features = action_feature_count<R>();
        if (action_features && features == 0)
            throw OptionError(std::string("action_features: ") + R::kName + " has no action features");
        bound->env = std::make_unique<VectorEnv<R>>(game, to_int(games, "games"), to_seed(seed),
                                                    to_int(threads, "threads"), seated, options);
        const auto n = static_cast<py::ssize_t>(bound->env->games());
        const auto size = static_cast<py::ssize_t>(bound->env->observation_size());
        bound->compact = compact;
        for (py::array* rows : {&bound->observations, &bound->final_observations}) {
            if (compact) *rows = py::array_t<uint8_t>({n, size});
            else *rows = py::array_t<float>({n, size});
        }
        std::memset(bound->final_observations.mutable_data(), 0,
                    static_cast<std::size_t>(bound->final_observations.nbytes()));
        bound->masks = py::array_t<bool>({n, static_cast<py::ssize_t>(bound->env->actions())});
        bound->rewards = py::array_t<float>(n);
        bound->terminated = py::array_t<bool>(n);
        bound->truncated = py::array_t<bool>(n);
        bound->lost_races = py::array_t<bool>(n);
        bound->seats = py::array_t<int32_t>(n);
        bound->scores = py::array_t<int32_t>({n, static_cast<py::ssize_t>(R::players(game))});
        std::fill_n(bound->lost_races.mutable_data(), n, false);
        if (action_features) {
            py::array_t<float> rows(
                {n, static_cast<py::ssize_t>(R::num_actions(game)), static_cast<py::ssize_t>(features)});
            std::fill_n(rows.mutable_data(), rows.size(), 0.0f);
            bound->action_features = rows;
        }
        return bound;
    });
}

}  // namespace diabolo::bindings
