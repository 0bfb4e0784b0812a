// Plays a seeded game of each of the three games through the contract
// (diabolo/core/contract.hpp) alone: one function serves every game. It prints a seat's
// view as JSON, saves the state as JSON halfway, loads it back, and plays on from both
// copies, which must end alike. Built and run by the test suite (tests/test_cpp_core.py).
#include <iostream>
#include <string>
#include <vector>

#include "diabolo/core/json.hpp"
#include "diabolo/duvelen/duvelen.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/schacht/schacht.hpp"

using namespace diabolo;

/// Random legal moves until the game ends: at each step a seat that may act (R::random_player)
/// makes a uniformly random legal move.
template <class R>
void play_out(typename R::State& state, Pcg32& rng, int max_moves) {
    std::vector<int32_t> actions(static_cast<std::size_t>(R::num_actions(R::game(state))));
    for (int moves = 0; moves < max_moves; ++moves) {
        const int seat = R::random_player(R::position(state), rng);
        if (seat < 0) return;
        const int count = R::legal_actions(R::position(state), seat, actions.data());
        if (count == 0) continue;
        const int action = actions[rng.below(static_cast<uint32_t>(count))];
        R::apply(state, R::move_of_action(R::game(state), action), seat);
    }
}

template <class R>
bool play(const char* options_text) {
    const typename R::Game game = R::game_from_json(json::parse(options_text, "options"));
    typename R::State state = R::new_state(game, 7);
    Pcg32 rng(7, 1);
    play_out<R>(state, rng, 20);

    // What seat 1 may know now, as JSON (the keys of the rules page).
    json::Tape view;
    R::observation(R::position(state), 1, view);
    std::cout << R::kName << ": seat 1 sees " << view.text() << "\n";

    // Save the whole state, load it back, and play on from both with the same random moves.
    const std::string saved = R::to_json(state);
    typename R::State loaded = R::state_from_json(game, saved);
    Pcg32 rng_copy = rng;
    play_out<R>(state, rng, 100000);
    play_out<R>(loaded, rng_copy, 100000);
    std::vector<int32_t> scores(static_cast<std::size_t>(R::players(game)));
    R::scores(R::position(state), scores.data());
    std::cout << R::kName << ": saved " << saved.size() << " bytes of JSON; final scores";
    for (const int32_t score : scores) std::cout << " " << score;
    const bool same = R::to_json(loaded) == R::to_json(state);
    std::cout << (same ? "; the loaded copy ended alike\n" : "; THE LOADED COPY DIFFERS\n");
    return same;
}

int main() {
    try {
        bool ok = play<schacht::Rules>(R"({"players": 3})");
        ok = play<duvelen::Rules>(R"({"players": 2, "max_actions": 2000})") && ok;
        // The word game takes its lexicon as a list of words here; a frontend with a word
        // list file loads it with knizia::Lexicon::from_bytes and game_from_json(options, lexicon).
        ok = play<knizia::Rules>(R"({"players": 2, "lexicon": ["TOR", "ROT", "ORT", "REST", "NEST", "STERN"],
                                     "deck": {"language": "", "cards": {"T": 3, "O": 2, "R": 3, "E": 3, "S": 2,
                                                                        "N": 2, "?": 1}}})") &&
             ok;
        return ok ? 0 : 1;
    } catch (const DiaboloError& error) {  // every error of the core is a DiaboloError
        std::cerr << "error: " << error.what() << "\n";
        return 1;
    }
}
