// A C++ bot as the player of a seat in a vector environment (core/vector_env.hpp), asked
// as bot.choose(state, seat, seed) asks it: shared by the Python binding
// (src/bind_vector_env.hpp) and the C++ benchmark (benchmarks/vector_env.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "diabolo/core/rng.hpp"
#include "diabolo/core/vector_env.hpp"

namespace diabolo {

/// Plays a seat with `bot`, drawing from Pcg32(seed); -1 when the bot waits or the seat has
/// nothing to do (R::bot_move). Const and shared: one player serves many games on many threads.
template <class R>
class BotPlayer final : public SeatPlayer<R> {
public:
    BotPlayer(std::shared_ptr<const typename R::Bot> bot, const typename R::Game& game)
        : bot_(std::move(bot)), game_(game) {}
    int act(const typename R::Position& position, int seat, uint64_t seed) const override {
        Pcg32 rng(seed);
        const auto move = R::bot_move(*bot_, position, seat, rng);
        return move ? R::action_of(game_, *move) : -1;
    }

private:
    std::shared_ptr<const typename R::Bot> bot_;
    typename R::Game game_;
};

}  // namespace diabolo
