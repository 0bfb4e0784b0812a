// Diabolo (Schacht): many random games at once, on several threads. Game i is
// seeded from (seed, i) alone, so results never depend on the thread count.
#include <algorithm>

#include "diabolo/core/parallel.hpp"
#include "diabolo/core/rng.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo::schacht {

namespace {

int play_one(const Game& game, uint64_t game_seed, int32_t* scores) {
    Position s = new_game(game, game_seed);
    Pcg32 rng(game_seed, 0xB07B07ULL);
    std::array<uint8_t, kNumActions> actions{};
    int moves = 0;
    while (!s.is_terminal()) {
        const int player = next_actor(s);
        const int count = legal_actions(s, player, actions);
        apply_unchecked(s, Move::of_action(actions[rng.below(static_cast<uint32_t>(count))]), player);
        ++moves;
    }
    for (int seat = 0; seat < s.players(); ++seat) scores[seat] = s.scores[static_cast<std::size_t>(seat)];
    return moves;
}

}  // namespace

RandomPlayResult play_random_games(const Game& game, int games, uint64_t seed, int threads, const Interrupt& interrupted) {
    RandomPlayResult result;
    result.scores.assign(static_cast<std::size_t>(std::max(games, 0)) * game.players, 0);
    result.moves.assign(static_cast<std::size_t>(std::max(games, 0)), 0);
    in_parallel(games, threads, [&](int first, int last) {
        for (int i = first; i < last; ++i) {
            result.moves[static_cast<std::size_t>(i)] = play_one(
                game, derive_seed(seed, static_cast<uint64_t>(i)), &result.scores[static_cast<std::size_t>(i) * game.players]);
        }
    }, interrupted);
    return result;
}

}  // namespace diabolo::schacht
