// A seeded random game of Diabolo (Schacht) through the C++ core, then a batch of games.
// Build: see docs/cpp.rst (links against the diabolo_core static library).
#include <array>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "diabolo/core/batch.hpp"
#include "diabolo/core/rng.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace sc = diabolo::schacht;

int main() {
    sc::Options options;
    options.players = 3;                                    // S1.1
    const sc::Game game = sc::Game::from_options(options);  // throws OptionError

    sc::Position state = sc::new_game(game, /*seed=*/7);
    std::cout << "seat " << int(state.current_player) << " may play:";
    for (const sc::Move& move : sc::legal_moves(state, state.current_player)) {
        std::cout << ' ' << sc::Rules::format_move(move);
    }
    std::cout << "\n";

    // Play to the end with uniformly random legal moves, checking every position.
    diabolo::Pcg32 rng(2024);
    std::array<uint8_t, sc::kNumActions> actions{};
    int moves = 0;
    while (!state.is_terminal()) {
        int player = state.current_player;
        if (player == diabolo::kSimultaneous) {  // doubler decisions (S5.3)
            for (player = 0; player < state.players(); ++player) {
                if (sc::Rules::legal_actions(state, player, actions) > 0) break;
            }
        }
        const int n = sc::Rules::legal_actions(state, player, actions);
        const sc::Move move = sc::Move::of_action(actions[rng.below(static_cast<uint32_t>(n))]);
        sc::apply(state, move, player);  // checked: throws IllegalMoveError
        ++moves;
        const std::string problem = sc::check_invariants(state);
        if (!problem.empty()) {
            std::cerr << "invariant broken: " << problem << "\n";
            return 1;
        }
    }
    std::cout << moves << " moves, scores:";
    for (int seat = 0; seat < state.players(); ++seat) std::cout << ' ' << state.scores[seat];
    std::cout << "\n" << sc::Rules::render(state);

    // An illegal move is refused with the clause it breaks; the state is unchanged.
    try {
        sc::apply(state, sc::parse_move("G5<"), 0);
    } catch (const diabolo::IllegalMoveError& error) {
        std::cout << "refused (" << error.clause << "): " << error.what() << "\n";
    }

    // 1000 random games on 4 threads; the results do not depend on the thread count.
    const diabolo::RandomPlayResult batch = diabolo::play_random<sc::Rules>(game, 1000, /*seed=*/1, /*threads=*/4);
    long total_moves = 0;
    for (int32_t m : batch.moves) total_moves += m;
    std::cout << batch.moves.size() << " games, " << total_moves << " moves in all\n";
    return 0;
}
