// The contract test (core/contract.hpp): the same checks over every game that implements
// it, like OpenSpiel's shared random-simulation test. Random games through the contract
// alone: legal actions, checked and unchecked moves, JSON round trips, resampling, views,
// events and their visibility, versions.
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "check.hpp"
#include "diabolo/core/batch.hpp"
#include "diabolo/core/contract.hpp"
#include "diabolo/core/events.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/live.hpp"
#include "diabolo/core/tensor.hpp"
#include "diabolo/games.hpp"

using namespace diabolo;

namespace {

template <class R>
json::Value view_of(const typename R::Position& position, int player) {
    json::Tape view;
    R::observation(position, player, view);
    return view.value();
}

/// The game of its own options. The options of a game with a word list name the list by
/// fingerprint, so the list is given with them, as a caller that loaded it does.
template <class R>
typename R::Game reread(const typename R::Game& game) {
    if constexpr (takes_lexicon<R>()) return R::game_from_json(R::options_json(game), game.lexicon);
    else return R::game_from_json(R::options_json(game));
}

/// Every bot kind of the catalogue entry is made by make_bot with no options, and plays a
/// legal move, or waits, wherever it is asked; an unknown kind is an OptionError.
template <class R>
void check_bots(const typename R::Game& game, const std::vector<typename R::State>& states) {
    CHECK(!bot_kinds(R::kInfo).empty());
    for (const std::string_view kind : bot_kinds(R::kInfo)) {
        const std::unique_ptr<const typename R::Bot> bot = R::make_bot(game, kind, json::Object());
        CHECK(bot != nullptr);
        for (std::size_t i = 0; i < states.size(); ++i) {
            const typename R::Position& position = R::position(states[i]);
            for (int p = 0; p < R::players(game); ++p) {
                Pcg32 rng(i, static_cast<uint64_t>(p));
                const std::optional<typename R::Move> move = R::bot_move(*bot, position, p, rng);
                if (!move) continue;
                CHECK(!R::why_illegal(position, *move, p).has_value());
                CHECK(R::bot_delay(*bot, *move, rng) >= 0);
                CHECK(R::action_of(game, *move) >= 0 && R::action_of(game, *move) < R::num_actions(game));
            }
        }
    }
    CHECK_THROWS(OptionError, R::make_bot(game, "no such bot", json::Object()));
}

/// Plays `games` random games of `game` through the contract and checks every step.
template <class R>
void check_random_games(const typename R::Game& game, int games, int max_steps) {
    const int players = R::players(game);
    const int num_actions = R::num_actions(game);
    std::vector<int32_t> actions(static_cast<std::size_t>(num_actions));
    std::vector<float> tensor(static_cast<std::size_t>(R::observation_tensor_size(game)));
    std::vector<float> low(tensor.size()), high(tensor.size());
    R::observation_tensor_bounds(game, low.data(), high.data());
    const auto within_bounds = [&] {
        for (std::size_t i = 0; i < tensor.size(); ++i) {
            if (!(tensor[i] >= low[i] && tensor[i] <= high[i])) return false;
        }
        return true;
    };
    // The bytes are the floats quantised between their bounds (core/tensor.hpp).
    std::vector<uint8_t> bytes(tensor.size());
    const auto bytes_match = [&] {
        for (std::size_t i = 0; i < tensor.size(); ++i) {
            if (bytes[i] != quantise(tensor[i], low[i], high[i])) return false;
        }
        return true;
    };
    std::vector<int32_t> scores(static_cast<std::size_t>(players)), rewards(scores.size()), summed(scores.size());
    CHECK(reread<R>(game) == game);  // options round trip
    const json::Value visibility = R::visibility();
    const json::Object& event_types = visibility.at("events").get_object();
    std::vector<typename R::State> asked;  // states the bots are asked about
    for (int g = 0; g < games; ++g) {
        typename R::State state = R::new_state(game, static_cast<uint64_t>(g));
        Pcg32 rng(static_cast<uint64_t>(g), 77);
        std::fill(summed.begin(), summed.end(), 0);
        for (int step = 0; step < max_steps; ++step) {
            const typename R::Position& position = R::position(state);
            // pending_seats are the seats with a legal move; legal ids ascend within range.
            uint32_t with_moves = 0;
            for (int p = 0; p < players; ++p) {
                const int n = R::legal_actions(position, p, actions.data());
                if (n > 0) with_moves |= 1u << p;
                CHECK(std::is_sorted(actions.begin(), actions.begin() + n));
                CHECK(std::adjacent_find(actions.begin(), actions.begin() + n) == actions.begin() + n);
                for (int i = 0; i < n; ++i) {
                    CHECK(actions[static_cast<std::size_t>(i)] >= 0 &&
                          actions[static_cast<std::size_t>(i)] < num_actions);
                    const auto move = R::move_of_action(game, actions[static_cast<std::size_t>(i)]);
                    CHECK(!R::why_illegal(position, move, p).has_value());
                }
                R::observation_tensor(position, p, tensor.data());
                CHECK(within_bounds());  // also: no NaN
                R::observation_bytes(position, p, bytes.data());
                CHECK(bytes_match());
                // Resampling keeps the seat's view.
                const typename R::Position guess = R::resample(position, p, static_cast<uint64_t>(step));
                CHECK(view_of<R>(guess, p) == view_of<R>(position, p));
            }
            CHECK(R::pending_seats(position) == with_moves);
            // In real time no seat has the turn (kRealTime); in turns one seat at a time moves,
            // except for simultaneous decisions.
            const int current = R::current_player(position);
            if constexpr (R::kRealTime) CHECK(current == kSimultaneous || current == kTerminal);
            if (current >= 0) CHECK(with_moves == (1u << current));
            // Scores within the utility bounds; the rewards of the moves add up to them.
            R::scores(position, scores.data());
            for (int p = 0; p < players; ++p) {
                const auto k = static_cast<std::size_t>(p);
                CHECK(scores[k] >= R::min_utility(game) && scores[k] <= R::max_utility(game));
                CHECK(summed[k] == scores[k]);
            }
            const int64_t longest = R::max_game_length(game);
            CHECK(longest < 0 || static_cast<int64_t>(step) <= longest);
            if (with_moves == 0) break;
            if (step % 25 == 0) asked.push_back(state);
            // The JSON round trip gives the same state.
            const std::string text = R::to_json(state);
            CHECK(R::to_json(R::state_from_json(game, text)) == text);
            // A random seat with a move makes a random legal move, checked and unchecked alike.
            int seat = 0;
            do seat = static_cast<int>(rng.below(static_cast<uint32_t>(players)));
            while (!((with_moves >> seat) & 1u));
            const int n = R::legal_actions(position, seat, actions.data());
            const int action = actions[rng.below(static_cast<uint32_t>(n))];
            typename R::Position fast = position;
            R::apply_action(fast, action, seat);
            const auto applied = R::apply(state, R::move_of_action(game, action), seat);
            R::rewards(state, rewards.data());
            for (std::size_t k = 0; k < summed.size(); ++k) summed[k] += rewards[k];
            CHECK(R::parse_move(R::format_move(applied)) == applied);
            typename R::State fast_state = state;
            fast_state.position = fast;
            CHECK(R::to_json(fast_state) == R::to_json(state));
            // Every event is of a type the game lists, seen as its visibility says; the
            // public view is the seat view's public part; the version counts the moves.
            const Events events = R::last_events(state);
            CHECK(!events.empty());  // every move shows someone something
            for (const Event& event : events) {
                const json::Value* kind = event_types.if_contains(event.data.at("type").get_string());
                CHECK(kind != nullptr);
                const bool is_public = kind != nullptr && kind->get_string() == "public";
                CHECK(is_public == (event.visible_to == kEveryone));
                CHECK(event.redacted.is_null() ||
                      (kind != nullptr && kind->get_string() == "private_with_public_form"));
            }
            CHECK(events_seen_by(events, seat).size() >= events_seen_by(events, kEveryone).size());
            CHECK(live::version(state) == static_cast<std::size_t>(step) + 1);
            CHECK(R::last_events(typename R::State(state)).size() == events.size());  // a copy replays the same
            json::Tape spectator;
            R::public_observation(R::position(state), spectator);
            const json::Value seen = spectator.value();
            const json::Value mine = view_of<R>(R::position(state), seat);
            for (const auto& [key, who] : visibility.at("observation").get_object()) {
                if (who.get_string() == "public" && key != "player") CHECK(seen.at(key) == mine.at(key));
                if (who.get_string() == "private") CHECK(!seen.get_object().contains(key));
            }
        }
    }
    // Bad input changes nothing: an illegal id is refused with its clause.
    typename R::State state = R::new_state(game, 99);
    const std::string before = R::to_json(state);
    for (int action = 0; action < num_actions; ++action) {
        for (int p = 0; p < players; ++p) {
            const auto move = R::move_of_action(game, action);
            if (!R::why_illegal(R::position(state), move, p)) continue;
            CHECK_THROWS(IllegalMoveError, R::apply(state, move, p));
        }
    }
    CHECK(R::to_json(state) == before);
    CHECK_THROWS(NotationError, R::move_of_action(game, num_actions));
    CHECK_THROWS(StateFormatError, R::state_from_json(game, before.substr(0, before.size() / 2)));
    check_bots<R>(game, asked);
}

/// Batch play through the contract does not depend on the thread count. Apart from the
/// random games above, which start no thread: the ThreadSanitizer build runs this part
/// alone (threads_batch_play_of_the_contract_games_does_not_depend_on_threads).
template <class R>
void check_batch_play(const typename R::Game& game) {
    const RandomPlayResult one = play_random<R>(game, 12, 5, 1);
    const RandomPlayResult two = play_random<R>(game, 12, 5, 2);
    CHECK(one.scores == two.scores && one.moves == two.moves);
}

/// The games of the contract tests below.
schacht::Game schacht_game(int players) {
    schacht::Options o;
    o.players = players;
    return schacht::Game::from_options(o);
}

duvelen::Game duvelen_game(int players) {
    duvelen::Options o;
    o.players = players;
    o.max_actions = 2000;
    return duvelen::Game::from_options(o);
}

knizia::Game knizia_game() {
    // The lexicon as a list of words: the one form of it that options carry.
    const json::Value options = json::parse(
        R"({"players": 3, "lexicon": ["Tor", "Rot", "Ort", "Tore", "Rote", "Rest", "Rast", "Rate", "Stern", "Star",
             "Nest", "Ernst", "Nase", "Rasen", "Aster", "Taste", "Senat", "Osten", "Tee", "See"],
            "deck": {"language": "", "cards": {"A": 3, "E": 4, "N": 2, "O": 2, "R": 3, "S": 3, "T": 4, "ST": 1,
                                                "?": 1, "??": 1}}})",
        "options");
    return knizia::Rules::game_from_json(options);
}

}  // namespace

TEST(contract_every_game_of_the_catalogue_with_its_default_options) {
    // A game of words needs its list: contract_knizia below gives Knizia's.
    for_each_game(Games{}, [](auto tag) {
        using R = typename decltype(tag)::Rules;
        if constexpr (!takes_lexicon<R>()) check_random_games<R>(R::game_from_json(json::Object()), 3, 300);
    });
}

TEST(contract_schacht) {
    for (int players = 3; players <= 5; ++players) check_random_games<schacht::Rules>(schacht_game(players), 4, 400);
}

TEST(contract_duvelen) {
    for (int players : {2, 4}) check_random_games<duvelen::Rules>(duvelen_game(players), 2, 150);
}

TEST(contract_knizia) { check_random_games<knizia::Rules>(knizia_game(), 2, 300); }

// The threaded part of the contract tests above, on the same games: the ThreadSanitizer
// build runs it and leaves out those tests (tests/test_cpp_core.py, SINGLE_THREADED).
TEST(threads_batch_play_of_the_contract_games_does_not_depend_on_threads) {
    for_each_game(Games{}, [](auto tag) {
        using R = typename decltype(tag)::Rules;
        if constexpr (!takes_lexicon<R>()) check_batch_play<R>(R::game_from_json(json::Object()));
    });
    for (int players = 3; players <= 5; ++players) check_batch_play<schacht::Rules>(schacht_game(players));
    for (int players : {2, 4}) check_batch_play<duvelen::Rules>(duvelen_game(players));
    check_batch_play<knizia::Rules>(knizia_game());
}
