// Matches between bots: many seeded games with the seats rotated, so that every bot
// plays every seat equally often, on several threads, for any game of the contract
// (core/contract.hpp). Game i depends only on (seed, i), never on the number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "diabolo/core/cardset.hpp"
#include "diabolo/core/errors.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/core/realtime.hpp"
#include "diabolo/core/rng.hpp"

namespace diabolo {

constexpr int kMaxMatchSeats = 8;

/// The outcome of a match: for game i and bot b, the game total of bot b.
struct MatchResult {
    int games = 0;
    int bots = 0;
    Results<int32_t> scores;  // games x bots, row-major
    Results<int64_t> moves;   // moves (or arrivals) per game
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
    result.scores.resize(static_cast<std::size_t>(result.games) * static_cast<std::size_t>(players));
    result.moves.resize(static_cast<std::size_t>(result.games));
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

/// The seat that acts next in a turn-based game: the player to move, or the lowest seat
/// still to make a simultaneous decision; -1 at the end.
template <class R>
int next_actor(const typename R::Position& position) noexcept {
    const uint32_t pending = R::pending_seats(position);
    return pending == 0 ? -1 : lowest_bit64(pending);
}

/// Games first .. first + games - 1 of a match of game `R` between `bots`, seats rotated
/// from game to game (bot_at); game g is dealt from derive_seed(seed, g). A turn-based
/// game is played move by move (next_actor asks R::bot_move, drawing from one stream per
/// game); a real-time game is simulated from mix64 of its seed, as game g of
/// realtime::simulate_many, and counts the accepted moves. OptionError unless there is
/// one bot per seat; a bot that has no move or an illegal one when its seat must act is a
/// std::logic_error (a broken bot, never the caller's input).
template <class R, class BotPtr>
MatchResult play_match(const typename R::Game& game, const std::vector<BotPtr>& bots, int games, uint64_t seed,
                       int threads, int first = 0, const Interrupt& interrupted = {}) {
    const int players = R::players(game);
    if (static_cast<int>(bots.size()) != players) {
        throw OptionError("a match needs one bot per seat: " + std::to_string(players) + " seats, got " +
                          std::to_string(bots.size()) + " bots");
    }
    return run_match(
        players, games, seed, threads,
        [&](uint64_t game_seed, const auto& seat_bots, int32_t* scores) -> int64_t {
            std::array<BotPtr, kMaxMatchSeats> seated{};  // no allocation per game: a game may take microseconds
            for (int s = 0; s < players; ++s)
                seated[static_cast<std::size_t>(s)] = bots[static_cast<std::size_t>(seat_bots[s])];
            typename R::Position position = new_position<R>(game, game_seed);
            int64_t moves = 0;
            if constexpr (R::kRealTime) {
                const std::vector<BotPtr> in_seats(seated.begin(), seated.begin() + players);
                const auto run = realtime::simulate<R>(position, in_seats, mix64(game_seed), realtime::Limits{}, false);
                position = run.state;
                moves = run.accepted;
            } else {
                Pcg32 rng(game_seed, 0xB075ULL);
                for (int actor = next_actor<R>(position); actor >= 0; actor = next_actor<R>(position), ++moves) {
                    const std::optional<typename R::Move> move =
                        R::bot_move(*seated[static_cast<std::size_t>(actor)], position, actor, rng);
                    if (!move || !R::try_apply(position, *move, actor)) {
                        throw std::logic_error(std::string("a bot of ") + R::kName + " had no legal move for seat " +
                                               std::to_string(actor));
                    }
                }
            }
            R::scores(position, scores);
            return moves;
        },
        first, interrupted);
}

}  // namespace diabolo
