// Batch play written once against the contract (core/contract.hpp): many whole games
// with uniformly random legal moves, on several threads. Game i is seeded from (seed, i)
// alone, so the results never depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "diabolo/core/contract.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/core/rng.hpp"

namespace diabolo {

/// Whether R draws a random legal action without listing them (R::random_action: the id
/// that legal_actions' ids[rng.below(count)] picks, or -1 drawing nothing when there is none).
template <class R, class = void>
struct HasRandomAction : std::false_type {};
template <class R>
struct HasRandomAction<
    R, std::void_t<decltype(R::random_action(std::declval<const typename R::Position&>(), 0, std::declval<Pcg32&>()))>>
    : std::true_type {};

/// What play_random returns: each game's final scores and its number of moves.
struct RandomPlayResult {
    int players = 0;
    Results<int32_t> scores;  // games x players, row-major
    Results<int32_t> moves;   // moves per game
};

/// Plays `games` whole games of `game`: at every step R::random_player picks who acts
/// and that seat makes a uniformly random legal move (R::random_action where the game has
/// it: the same move from the same draw). A seat drawn with nothing to do
/// draws again (real-time games); game i depends only on (seed, i).
template <class R>
RandomPlayResult play_random(const typename R::Game& game, int games, uint64_t seed, int threads,
                             const Interrupt& interrupted = {}) {
    const int players = R::players(game);
    const auto n = static_cast<std::size_t>(players);
    RandomPlayResult result;
    result.players = players;
    result.scores.resize(static_cast<std::size_t>(std::max(games, 0)) * n);
    result.moves.resize(static_cast<std::size_t>(std::max(games, 0)));
    in_parallel(
        games, threads,
        [&](int first, int last) {
            std::vector<int32_t> actions(static_cast<std::size_t>(R::num_actions(game)));
            for (int i = first; i < last; ++i) {
                const uint64_t game_seed = derive_seed(seed, static_cast<uint64_t>(i));
                typename R::Position position = R::position(R::new_state(game, game_seed));
                Pcg32 rng(game_seed, 0xB07B07ULL);
                int32_t moves = 0;
                for (int player = R::random_player(position, rng); player >= 0;
                     player = R::random_player(position, rng)) {
                    if constexpr (HasRandomAction<R>::value) {
                        const int action = R::random_action(position, player, rng);
                        if (action < 0) continue;
                        R::apply_action(position, action, player);
                    } else {
                        const int count = R::legal_actions(position, player, actions.data());
                        if (count == 0) continue;
                        R::apply_action(position, actions[rng.below(static_cast<uint32_t>(count))], player);
                    }
                    ++moves;
                }
                const auto k = static_cast<std::size_t>(i);
                R::scores(position, &result.scores[k * n]);
                result.moves[k] = moves;
            }
        },
        interrupted);
    return result;
}

}  // namespace diabolo
