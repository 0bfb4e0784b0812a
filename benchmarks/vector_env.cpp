// The vector environment (core/vector_env.hpp) stepped from C++, without Python: what the
// engine itself costs, beside benchmarks/vector_env.py's figures through numpy. Built and
// run by vector_env.py; by hand:
//
//   c++ -O3 -std=c++17 -ffp-contract=off -I cpp/include -I <boost headers> \
//       benchmarks/vector_env.cpp cpp/src/{core,schacht,duvelen,knizia}/*.cpp -pthread
//   ./a.out games threads bytes seconds repeats
//
// Schacht, four players, RandomBot in the other seats, the learner's lowest legal action
// (as vector_env.py plays it). Prints "steps_per_second=<best of the repeats>".
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "diabolo/bot_player.hpp"
#include "diabolo/core/vector_env.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace {

using namespace diabolo;
using R = schacht::Rules;

double steps_per_second(int games, int threads, bool bytes, double seconds) {
    const schacht::Game game = schacht::Game::from_options({});
    const BotPlayer<R> player(std::make_shared<const schacht::RandomBot>(), game);  // as Python's
    const std::vector<const SeatPlayer<R>*> players(static_cast<std::size_t>(R::players(game)), &player);
    VectorEnvOptions options;
    options.compact = bytes;
    VectorEnv<R> env(game, games, 1, threads, players, options);
    const auto n = static_cast<std::size_t>(games);
    const auto size = static_cast<std::size_t>(env.observation_size());
    const auto actions = static_cast<std::size_t>(env.actions());
    std::vector<float> floats(bytes ? 0 : n * size);
    std::vector<uint8_t> compact(bytes ? n * size : 0), masks(n * actions), terminated(n), truncated(n);
    std::vector<float> rewards(n);
    std::vector<int32_t> chosen(n);
    VectorEnvOutput out;
    out.observations = floats.data();
    out.compact_observations = compact.data();
    out.masks = masks.data();
    out.rewards = rewards.data();
    out.terminated = terminated.data();
    out.truncated = truncated.data();
    env.reset(out);
    const auto started = std::chrono::steady_clock::now();
    int64_t steps = 0;
    for (;;) {
        for (std::size_t i = 0; i < n; ++i) {  // the lowest legal action (0 after an end)
            const uint8_t* row = masks.data() + i * actions;
            chosen[i] = static_cast<int32_t>(std::max<std::ptrdiff_t>(0, std::find(row, row + actions, 1) - row) %
                                             static_cast<std::ptrdiff_t>(actions));
        }
        env.step(chosen.data(), out);
        steps += games;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (elapsed >= seconds) return static_cast<double>(steps) / elapsed;
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int games = argc > 1 ? std::atoi(argv[1]) : 1024;
    const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
    const bool bytes = argc > 3 && std::atoi(argv[3]) != 0;
    const double seconds = argc > 4 ? std::atof(argv[4]) : 2.0;
    const int repeats = argc > 5 ? std::atoi(argv[5]) : 3;
    double best = 0.0;
    for (int k = 0; k < repeats; ++k) best = std::max(best, steps_per_second(games, threads, bytes, seconds));
    std::printf("steps_per_second=%.0f\n", best);
}
