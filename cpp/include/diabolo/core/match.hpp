// Matches between bots: many seeded games with the seats rotated, so that every bot
// plays every seat equally often, on several threads. Game i depends only on (seed, i),
// never on the number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "diabolo/core/errors.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/core/rng.hpp"

namespace diabolo {

constexpr int kMaxMatchSeats = 8;

/// The outcome of a match: for game i and bot b, the game total of bot b.
struct MatchResult {
    int games = 0;
    int bots = 0;
    std::vector<int32_t> scores;  // games x bots, row-major
    std::vector<int64_t> moves;   // moves (or arrivals) per game
};

/// Seat `seat` of game `game` is played by bot (seat + game) % players.
constexpr int bot_at(int game, int seat, int players) noexcept { return (seat + game) % players; }

/// Plays games first_game .. first_game + games - 1 of a match on `threads` threads (a match may be
/// played in parts: game g is always seeded by (seed, g) and seated by bot_at(g, ...)).
/// `play_one(game_seed, seat_bots, seat_scores)` plays one game from `game_seed` with bot
/// seat_bots[s] in seat s, writes each seat's total into seat_scores and returns the
/// number of moves.
template <class PlayOne>
MatchResult run_match(int players, int games, uint64_t seed, int threads, PlayOne play_one, int first_game = 0,
                      const Interrupt& interrupted = {}) {
    if (players < 1 || players > kMaxMatchSeats) throw OptionError("a match needs 1..8 bots, one per seat");
    MatchResult result;
    result.games = games > 0 ? games : 0;
    result.bots = players;
    result.scores.assign(static_cast<std::size_t>(result.games) * static_cast<std::size_t>(players), 0);
    result.moves.assign(static_cast<std::size_t>(result.games), 0);
    in_parallel(
        games, threads,
        [&](int first, int last) {
            for (int i = first; i < last; ++i) {
                std::array<int, kMaxMatchSeats> seat_bots{};
                std::array<int32_t, kMaxMatchSeats> seat_scores{};
                const int game = first_game + i;
                for (int s = 0; s < players; ++s) seat_bots[static_cast<std::size_t>(s)] = bot_at(game, s, players);
                const auto k = static_cast<std::size_t>(i);
                result.moves[k] =
                    play_one(derive_seed(seed, static_cast<uint64_t>(game)), seat_bots, seat_scores.data());
                for (int s = 0; s < players; ++s) {
                    result.scores[k * static_cast<std::size_t>(players) +
                                  static_cast<std::size_t>(seat_bots[static_cast<std::size_t>(s)])] =
                        seat_scores[static_cast<std::size_t>(s)];
                }
            }
        },
        interrupted);
    return result;
}

}  // namespace diabolo
