// The Python binding of bots, written once for every game: `propose`, the one call that
// asks any bot of any game for its move and its delay; bots written in Python, seated in
// C++ matches and simulations; and play_match, which diabolo.match calls. Each game's
// file binds its bot classes and their own `choose` (its seat rules differ by game).
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bind_game.hpp"
#include "common.hpp"
#include "diabolo/core/match.hpp"

namespace diabolo::bindings {

/// A bot written in Python: anything with choose(state, player) -> a move (a Move, an action
/// id, notation or move data), or None to wait for the table to change in a real-time game.
/// It is called with the GIL held (matches and simulations with Python bots keep it) and
/// sees the position through the game's state type (observations, legal moves), without the
/// game's history. `Bot` is the game's C++ bot class, made with `args` (in real time, its
/// reaction times). In a turn-based game the seat must move: a move the rules refuse raises
/// their IllegalMoveError, anything that is no move a NotationError.
template <class R, class Bot>
class PythonBot : public Bot {
public:
    using Move = typename R::Move;
    using Choice = std::conditional_t<R::kRealTime, std::optional<Move>, Move>;

    template <class... Args>
    PythonBot(py::object bot, GameSpec<R> spec, typename R::Game game, Args&&... args)
        : Bot(std::forward<Args>(args)...),
          bot_(std::move(bot)),
          spec_(spec),
          game_(std::move(game)),
          blank_(R::new_state(game_, 0)) {}

    Choice choose(const typename R::Position& position, int player, Pcg32&) const override {
        typename R::State view = blank_;  // the game's state type around the position the bot sees
        view.position = position;
        const py::object move = bot_.attr("choose")(view, player);
        if constexpr (R::kRealTime) {
            if (move.is_none()) return std::nullopt;
            return detail::to_move(spec_, game_, move);
        } else {
            const Move chosen = detail::to_move(spec_, game_, move);
            if (auto error = R::why_illegal(position, chosen, player)) throw *error;
            return chosen;
        }
    }

private:
    py::object bot_;
    GameSpec<R> spec_;
    typename R::Game game_;
    typename R::State blank_;  // made once: a new state per decision would deal a game each time
};

/// Binds `propose(state, player, seed)` on the game's bot class: what any bot of any game
/// plays for `player` on this table and after how many seconds, through the contract
/// (R::bot_move, then R::bot_delay from the same stream, as the simulator plans a move):
/// ``(move, delay)``, or None while the seat has nothing to do (a turn-based game's seat not
/// due, a real-time bot waiting for the table to change). Turn-based bots act at once
/// (delay 0).
template <class R, class Bot>
void bind_propose(py::class_<Bot, std::shared_ptr<Bot>>& bot_class) {
    detail::Docs<R> doc;
    bot_class.def(
        "propose",
        [](const Bot& bot, const typename R::State& state, const py::object& player, const py::object& seed) {
            Pcg32 mind(to_seed(seed));
            const int seat = to_seat(player, R::players(R::game(state)));
            const typename R::Position position = R::position(state);
            std::optional<typename R::Move> move;
            int64_t delay = 0;
            {
                py::gil_scoped_release release;
                move = R::bot_move(bot, position, seat, mind);
                if (move) delay = R::bot_delay(bot, *move, mind);
            }
            return move ? py::object(py::make_tuple(*move, static_cast<double>(delay) / 1e6)) : py::object(py::none());
        },
        py::arg("state"), py::arg("player"), py::arg("seed") = 0,
        doc("``(move, delay)``: the move this bot would make for ``player`` on this table and the seconds after "
            "which it would act (a real-time bot's reaction time drawn with ``seed``, 0 in a turn-based game); or "
            "None while the seat has nothing to do (not its turn, or waiting for the table to change). The one way "
            "to ask any bot of any game: a server applies the move when the delay is over, naming the version it "
            "was proposed on (``state.apply(move, player, version=...)``), and asks again after a StaleMoveError or "
            "any change of the table. The simulator plans each bot's moves the same way (seat p's first plan of "
            "``simulate(..., seed=s)`` is ``propose(state, p, seed=diabolo.derive_seed(s, p + 1))``).",
            ">>> bot = diabolo.bot('{name}', 'random')\n"
            ">>> state = diabolo.load('{name}').new_state(seed=1)\n"
            ">>> seat = state.pending_seats[0]\n"
            ">>> move, delay = bot.propose(state, seat, seed=2)\n"
            ">>> move in state.legal_moves(seat), delay >= 0\n(True, True)"));
}

/// A bot's C++ form for a match or a simulation: a bot made by its C++ class itself, or a
/// bot written in Python wrapped by `python_bot(bot, game)`; OptionError for anything
/// without a choose method.
template <class Bot, class Game, class Wrap>
std::shared_ptr<Bot> seat_bot(const py::handle& bot, const Game& game, Wrap python_bot) {
    if (py::isinstance<Bot>(bot)) return cpp_bot<Bot>(bot);
    if (!py::hasattr(bot, "choose")) throw OptionError("a bot needs a choose(state, player) method");
    return python_bot(py::reinterpret_borrow<py::object>(bot), game);
}

/// The C++ bots of a Python sequence, one per seat: `owned` keeps them alive and `seats`
/// points at them. `native` says whether every one is a bot made by its C++ class, so that
/// the caller may release the GIL.
template <class Bot>
struct SeatedBots {
    std::vector<std::shared_ptr<Bot>> owned;
    std::vector<const Bot*> seats;
    bool native = true;
};

/// The bots of `bots`, each made into its C++ form by `seat_bot(bot)`.
template <class Bot, class SeatBot>
SeatedBots<Bot> seat_bots(const py::sequence& bots, SeatBot seat_bot) {
    SeatedBots<Bot> out;
    for (auto bot : bots) {
        out.native = out.native && py::isinstance<Bot>(bot);
        out.owned.push_back(seat_bot(bot));
    }
    for (const auto& bot : out.owned) out.seats.push_back(bot.get());
    return out;
}

/// Binds play_match(game, bots, games, seed, threads, first) -> {"scores", "moves"} for the
/// game's classes (an overload per game), which diabolo.match calls: games first .. first +
/// games - 1 of a match (core/match.hpp). `seat_bot(bot, game)` gives a bot's C++ form; bots made
/// by their C++ classes play without the GIL on `threads` threads, and a match with a
/// bot written in Python keeps the GIL and plays on the calling thread.
template <class R, class Bot>
void bind_play_match(
    py::module_& m, std::function<std::shared_ptr<Bot>(const py::handle& bot, const typename R::Game& game)> seat_bot) {
    m.def("play_match", [seat_bot](const typename R::Game& game, const py::sequence& bots, const py::object& games,
                                   const py::object& seed, const py::object& threads, const py::object& first) {
        const long long first_game = to_int64(first, "first");
        if (first_game < 0 || first_game > 1'000'000'000) throw OptionError("first must be 0..1000000000");
        const SeatedBots<Bot> seated = seat_bots<Bot>(bots, [&](const py::handle& bot) { return seat_bot(bot, game); });
        const Batch batch = batch_args(games, seed, threads);
        MatchResult result;
        SignalCheck signals;
        if (seated.native) {
            py::gil_scoped_release release;
            result = play_match<R>(game, seated.seats, batch.games, batch.seed, batch.threads,
                                   static_cast<int>(first_game), signals.interrupt());
        } else {
            result = play_match<R>(game, seated.seats, batch.games, batch.seed, 1, static_cast<int>(first_game),
                                   signals.interrupt());
        }
        signals.raise_if_interrupted();
        py::dict out;
        out["scores"] = to_numpy(result.scores, {batch.games, result.bots});
        out["moves"] = to_numpy(result.moves, {batch.games});
        return out;
    });
}

/// Binds play_match for a turn-based game: its C++ bots, and bots written in Python
/// wrapped as PythonBot with `spec` (a real-time game's binding wraps them with their
/// reaction times, src/bind_realtime.hpp).
template <class R, class Bot>
void bind_turn_based_match(py::module_& m, GameSpec<R> spec) {
    bind_play_match<R, Bot>(m, [spec](const py::handle& bot, const typename R::Game& game) {
        return seat_bot<Bot>(bot, game, [spec](const py::object& python, const typename R::Game& g) {
            return std::shared_ptr<Bot>(std::make_shared<PythonBot<R, Bot>>(python, spec, g));
        });
    });
}

}  // namespace diabolo::bindings
