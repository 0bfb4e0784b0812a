// Micro-benchmark of the C++ core, built and run by benchmarks/bench.py:
//
//   c++ -O2 -std=c++17 -I cpp/include benchmarks/clone_bench.cpp cpp/src/**/*.cpp -pthread
//   ./clone_bench [players] [seconds]
//
// Prints "key=value" lines (times in ns) that bench.py parses:
//   state_bytes       sizeof(State)
//   clone_ns          one copy of a mid-game State (the copy escapes, so it is not elided)
//   legal_actions_ns  one legal_actions call on a mid-game position
//   move_ns           legal_actions + one random pick + apply_unchecked, per move of whole
//                     random games (new_game is outside the timed region)
//   moves_per_game    average moves in those games
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "diabolo/common/rng.hpp"
#include "diabolo/schacht.hpp"

namespace {

using namespace diabolo;
using namespace diabolo::schacht;
using Clock = std::chrono::steady_clock;

static_assert(std::is_trivially_copyable_v<State>, "State should be trivially copyable");

/// Makes the compiler believe `p` is read and any memory may have changed, so
/// the work that produced *p cannot be optimised away or hoisted out of a loop.
inline void escape(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
    asm volatile("" : : "g"(p) : "memory");
#else
    static const void* volatile sink;
    sink = p;
#endif
}

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The seat to act: the player to move, or the lowest seat still to decide (S5.3).
int next_actor(const State& s) {
    if (s.current_player >= 0) return s.current_player;
    const auto pending = static_cast<unsigned>(s.doubler_available & ~s.decided);
    return lowest_bit64(pending);
}

/// Plays `moves` random moves (fewer if the game ends) from a new game.
State random_position(const Config& config, uint64_t seed, int moves) {
    State s = new_game(config, seed);
    Pcg32 rng(seed, 77);
    std::array<uint8_t, kNumActions> actions{};
    for (int i = 0; i < moves && !s.is_terminal(); ++i) {
        const int player = next_actor(s);
        const int n = legal_actions(s, player, actions);
        apply_unchecked(s, Move::of_action(actions[rng.below(static_cast<uint32_t>(n))]), player);
    }
    return s;
}

/// Median of the per-repeat values: robust against the odd preempted repeat.
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

/// ns per State copy: blocks of copies, repeated for `budget` seconds.
double time_clone(const State& source, double budget) {
    constexpr int kBlock = 100000;
    std::vector<double> per_copy;
    const auto start = Clock::now();
    do {
        const auto t0 = Clock::now();
        for (int i = 0; i < kBlock; ++i) {
            State copy = source;
            escape(&copy);
        }
        per_copy.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kBlock);
    } while (seconds_since(start) < budget);
    return median(per_copy);
}

/// ns per legal_actions call over a set of positions, repeated for `budget` seconds.
double time_legal_actions(const std::vector<State>& positions, double budget) {
    std::array<uint8_t, kNumActions> actions{};
    std::vector<double> per_call;
    long long sink = 0;
    const auto start = Clock::now();
    do {
        const auto t0 = Clock::now();
        for (int rep = 0; rep < 100; ++rep) {
            for (const State& s : positions) {
                escape(&s);
                sink += legal_actions(s, next_actor(s), actions);
                escape(actions.data());
            }
        }
        per_call.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() /
                           (100.0 * static_cast<double>(positions.size())));
    } while (seconds_since(start) < budget);
    escape(&sink);
    return median(per_call);
}

struct MoveTiming {
    double ns_per_move = 0;
    double moves_per_game = 0;
};

/// Whole random games: legal_actions + random pick + apply_unchecked per move.
MoveTiming time_moves(const Config& config, double budget) {
    std::array<uint8_t, kNumActions> actions{};
    double timed_ns = 0;
    long long moves = 0, games = 0;
    const auto start = Clock::now();
    do {
        const uint64_t seed = derive_seed(12345, static_cast<uint64_t>(games));
        State s = new_game(config, seed);
        Pcg32 rng(seed, 0xB07B07ULL);
        const auto t0 = Clock::now();
        while (!s.is_terminal()) {
            const int player = next_actor(s);
            const int n = legal_actions(s, player, actions);
            apply_unchecked(s, Move::of_action(actions[rng.below(static_cast<uint32_t>(n))]), player);
            ++moves;
        }
        timed_ns += std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
        escape(&s);
        ++games;
    } while (seconds_since(start) < budget);
    return MoveTiming{timed_ns / static_cast<double>(moves),
                      static_cast<double>(moves) / static_cast<double>(games)};
}

}  // namespace

int main(int argc, char** argv) {
    const int players = argc > 1 ? std::atoi(argv[1]) : 4;
    const double seconds = argc > 2 ? std::atof(argv[2]) : 1.0;
    Options options;
    options.players = players;
    const Config config = Config::from_options(options);

    // Mid-game positions: ~50 random moves in (random games last ~100 moves with 4 players).
    std::vector<State> positions;
    for (uint64_t i = 0; i < 64; ++i) {
        State s = random_position(config, derive_seed(99, i), 20 + static_cast<int>(i % 61));
        if (!s.is_terminal()) positions.push_back(s);
    }
    const State mid = random_position(config, 2024, 50);

    const double clone_ns = time_clone(mid, seconds / 3);
    const double legal_ns = time_legal_actions(positions, seconds / 3);
    const MoveTiming moves = time_moves(config, seconds / 3);

    std::printf("state_bytes=%zu\n", sizeof(State));
    std::printf("clone_ns=%.3f\n", clone_ns);
    std::printf("legal_actions_ns=%.3f\n", legal_ns);
    std::printf("move_ns=%.3f\n", moves.ns_per_move);
    std::printf("moves_per_game=%.2f\n", moves.moves_per_game);
    return 0;
}
