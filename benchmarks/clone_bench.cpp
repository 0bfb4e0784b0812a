// Micro-benchmark of the C++ core, built and run by benchmarks/bench.py:
//
//   c++ -O2 -std=c++17 -I cpp/include benchmarks/clone_bench.cpp cpp/src/**/*.cpp -pthread
//   ./clone_bench [players] [seconds]
//
// Prints "key=value" lines (times in ns; best block, and *_median_ns the median block)
// that bench.py parses:
//   state_bytes       sizeof(Position)
//   clone_ns          one copy of a mid-game Position (the copy escapes, so it is not elided)
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

#include "diabolo/core/rng.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace {

using namespace diabolo;
using namespace diabolo::schacht;
using Clock = std::chrono::steady_clock;

static_assert(std::is_trivially_copyable_v<Position>, "Position should be trivially copyable");

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

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// Plays `moves` random moves (fewer if the game ends) from a new game.
Position random_position(const Game& game, uint64_t seed, int moves) {
    Position s = new_game(game, seed);
    Pcg32 rng(seed, 77);
    std::array<uint8_t, kNumActions> actions{};
    for (int i = 0; i < moves && !s.is_terminal(); ++i) {
        const int player = next_actor(s);
        const int n = Rules::legal_actions(s, player, actions);
        apply_unchecked(s, Move::of_action(actions[rng.below(static_cast<uint32_t>(n))]), player);
    }
    return s;
}

/// Best and median of the per-block times: the best block is the cost without
/// interference from other processes (as Python's timeit reports), the median shows the noise.
struct Timing {
    double best = 0;
    double median = 0;
};

Timing summarise(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? Timing{} : Timing{v.front(), v[v.size() / 2]};
}

double ns_since(Clock::time_point t0) { return std::chrono::duration<double, std::nano>(Clock::now() - t0).count(); }

/// ns per Position copy: blocks of copies, repeated for `budget` seconds.
Timing time_clone(const Position& source, double budget) {
    constexpr int kBlock = 10000;
    std::vector<double> per_copy;
    const auto start = Clock::now();
    do {
        const auto t0 = Clock::now();
        for (int i = 0; i < kBlock; ++i) {
            Position copy = source;
            escape(&copy);
        }
        per_copy.push_back(ns_since(t0) / kBlock);
    } while (seconds_since(start) < budget);
    return summarise(per_copy);
}

/// ns per legal_actions call over a set of positions, repeated for `budget` seconds.
Timing time_legal_actions(const std::vector<Position>& positions, double budget) {
    std::array<uint8_t, kNumActions> actions{};
    std::vector<double> per_call;
    long long sink = 0;
    const auto start = Clock::now();
    do {
        const auto t0 = Clock::now();
        for (int rep = 0; rep < 10; ++rep) {
            for (const Position& s : positions) {
                escape(&s);
                sink += Rules::legal_actions(s, next_actor(s), actions);
                escape(actions.data());
            }
        }
        per_call.push_back(ns_since(t0) / (10.0 * static_cast<double>(positions.size())));
    } while (seconds_since(start) < budget);
    escape(&sink);
    return summarise(per_call);
}

/// Whole random games, legal_actions + random pick + apply_unchecked per move; timed in
/// blocks of 32 games dealt beforehand (new_game is outside the timed region).
Timing time_moves(const Game& game, double budget, double& moves_per_game) {
    constexpr int kGames = 32;
    std::array<uint8_t, kNumActions> actions{};
    std::vector<Position> games(kGames);
    std::vector<double> per_move;
    long long total_moves = 0, total_games = 0;
    const auto start = Clock::now();
    do {
        for (int g = 0; g < kGames; ++g) {
            games[static_cast<std::size_t>(g)] =
                new_game(game, derive_seed(12345, static_cast<uint64_t>(total_games + g)));
        }
        Pcg32 rng(static_cast<uint64_t>(total_games), 0xB07B07ULL);
        long long moves = 0;
        const auto t0 = Clock::now();
        for (Position& s : games) {
            while (!s.is_terminal()) {
                const int player = next_actor(s);
                const int n = Rules::legal_actions(s, player, actions);
                apply_unchecked(s, Move::of_action(actions[rng.below(static_cast<uint32_t>(n))]), player);
                ++moves;
            }
            escape(&s);
        }
        per_move.push_back(ns_since(t0) / static_cast<double>(moves));
        total_moves += moves;
        total_games += kGames;
    } while (seconds_since(start) < budget);
    moves_per_game = static_cast<double>(total_moves) / static_cast<double>(total_games);
    return summarise(per_move);
}

}  // namespace

int main(int argc, char** argv) {
    const int players = argc > 1 ? std::atoi(argv[1]) : 4;
    const double seconds = argc > 2 ? std::atof(argv[2]) : 1.0;
    Options options;
    options.players = players;
    const Game game = Game::from_options(options);

    // Mid-game positions: ~50 random moves in (random games last ~100 moves with 4 players).
    std::vector<Position> positions;
    for (uint64_t i = 0; i < 64; ++i) {
        Position s = random_position(game, derive_seed(99, i), 20 + static_cast<int>(i % 61));
        if (!s.is_terminal()) positions.push_back(s);
    }
    const Position mid = random_position(game, 2024, 50);

    const Timing clone = time_clone(mid, seconds / 3);
    const Timing legal = time_legal_actions(positions, seconds / 3);
    double moves_per_game = 0;
    const Timing move = time_moves(game, seconds / 3, moves_per_game);

    std::printf("state_bytes=%zu\n", sizeof(Position));
    std::printf("clone_ns=%.3f\nclone_median_ns=%.3f\n", clone.best, clone.median);
    std::printf("legal_actions_ns=%.3f\nlegal_actions_median_ns=%.3f\n", legal.best, legal.median);
    std::printf("move_ns=%.3f\nmove_median_ns=%.3f\n", move.best, move.median);
    std::printf("moves_per_game=%.2f\n", moves_per_game);
    return 0;
}
