// The vector environment (core/vector_env.hpp) over every game: the same seed gives the
// same steps for any thread count, game i does not depend on the other games, an illegal
// action throws before anything changes (or is penalised), finished games start their
// next episode on the next step, and rewards add up to the learner's final score.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "check.hpp"
#include "diabolo/core/vector_env.hpp"
#include "diabolo/duvelen/duvelen.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/schacht/schacht.hpp"

using namespace diabolo;

namespace {

/// Plays a uniformly random legal action; in real time it waits one time in four.
template <class R>
class RandomPlayer final : public SeatPlayer<R> {
public:
    explicit RandomPlayer(const typename R::Game& game) : actions_(static_cast<std::size_t>(R::num_actions(game))) {}
    int act(const typename R::Position& position, int seat, uint64_t seed) const override {
        Pcg32 rng(seed);
        std::vector<int32_t> legal(actions_);
        const int count = R::legal_actions(position, seat, legal.data());
        if (count == 0 || (R::kRealTime && rng.below(4) == 0)) return -1;
        return legal[rng.below(static_cast<uint32_t>(count))];
    }

private:
    std::size_t actions_;
};

/// Everything steps write, for comparing runs.
struct Run {
    std::vector<float> observations;
    std::vector<uint8_t> masks;
    std::vector<float> rewards;
    std::vector<uint8_t> ends;
};

/// `steps` steps of a vector env of `games` games with learner actions drawn from the
/// masks by a generator of the test (the same for any thread count).
template <class R>
Run run(const typename R::Game& game, int games, int threads, int steps, VectorEnvOptions options) {
    RandomPlayer<R> player(game);
    std::vector<const SeatPlayer<R>*> players(static_cast<std::size_t>(R::players(game)), &player);
    VectorEnv<R> env(game, games, 17, threads, players, options);
    const auto n = static_cast<std::size_t>(games);
    std::vector<float> observations(n * static_cast<std::size_t>(env.observation_size()));
    std::vector<uint8_t> masks(n * static_cast<std::size_t>(env.actions()));
    std::vector<float> rewards(n);
    std::vector<uint8_t> terminated(n), truncated(n);
    const VectorEnvOutput out{observations.data(), masks.data(), rewards.data(), terminated.data(), truncated.data()};
    env.reset(out);
    Run result;
    Pcg32 picks(99);
    std::vector<int32_t> actions(n);
    for (int t = 0; t < steps; ++t) {
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<int32_t> legal;
            for (int a = 0; a < env.actions(); ++a) {
                if (masks[i * static_cast<std::size_t>(env.actions()) + static_cast<std::size_t>(a)])
                    legal.push_back(a);
            }
            actions[i] = legal.empty() ? 0 : legal[picks.below(static_cast<uint32_t>(legal.size()))];
        }
        env.step(actions.data(), out);
        result.observations.insert(result.observations.end(), observations.begin(), observations.end());
        result.masks.insert(result.masks.end(), masks.begin(), masks.end());
        result.rewards.insert(result.rewards.end(), rewards.begin(), rewards.end());
        for (std::size_t i = 0; i < n; ++i)
            result.ends.push_back(static_cast<uint8_t>(terminated[i] | truncated[i] << 1));
    }
    return result;
}

template <class R>
void check_thread_counts(const typename R::Game& game) {
    VectorEnvOptions options;
    options.seat = -1;
    const Run one = run<R>(game, 13, 1, 400, options);
    const Run three = run<R>(game, 13, 3, 400, options);
    CHECK(one.observations == three.observations);
    CHECK(one.masks == three.masks);
    CHECK(one.rewards == three.rewards);
    CHECK(one.ends == three.ends);
    CHECK(std::count_if(one.ends.begin(), one.ends.end(), [](uint8_t end) { return end != 0; }) >
          0);  // and began again
}

}  // namespace

TEST(vector_env_gives_the_same_steps_for_any_thread_count) {
    schacht::Options schacht_options;
    schacht_options.players = 3;
    check_thread_counts<schacht::Rules>(schacht::Game::from_options(schacht_options));
    duvelen::Options duvelen_options;
    duvelen_options.players = 3;
    check_thread_counts<duvelen::Rules>(duvelen::Game::from_options(duvelen_options));
}

namespace {

/// A vector env of Schacht for 3 with random players, and its output arrays.
struct SchachtEnv {
    explicit SchachtEnv(int games, VectorEnvOptions options = {}, uint64_t seed = 17)
        : game(make_game()),
          player(game),
          env(game, games, seed, 2, {&player, &player, &player}, options),
          observations(static_cast<std::size_t>(games * env.observation_size())),
          masks(static_cast<std::size_t>(games * env.actions())),
          rewards(static_cast<std::size_t>(games)),
          terminated(static_cast<std::size_t>(games)),
          truncated(static_cast<std::size_t>(games)),
          out{observations.data(), masks.data(), rewards.data(), terminated.data(), truncated.data()} {
        env.reset(out);
    }
    static schacht::Game make_game() {
        schacht::Options o;
        o.players = 3;
        return schacht::Game::from_options(o);
    }
    /// The first legal action of game i, by its mask.
    int32_t first_legal(int i) const {
        const auto row = masks.begin() + i * env.actions();
        return static_cast<int32_t>(std::find(row, row + env.actions(), uint8_t{1}) - row);
    }
    schacht::Game game;
    RandomPlayer<schacht::Rules> player;
    VectorEnv<schacht::Rules> env;
    std::vector<float> observations;
    std::vector<uint8_t> masks;
    std::vector<float> rewards;
    std::vector<uint8_t> terminated, truncated;
    VectorEnvOutput out;
};

}  // namespace

TEST(vector_env_game_i_does_not_depend_on_the_other_games) {
    SchachtEnv many(7);
    SchachtEnv two(2);
    for (int t = 0; t < 60; ++t) {
        std::vector<int32_t> actions(7);
        for (int i = 0; i < 7; ++i) actions[static_cast<std::size_t>(i)] = many.first_legal(i);
        many.env.step(actions.data(), many.out);
        two.env.step(actions.data(), two.out);
        const auto size = static_cast<std::ptrdiff_t>(2 * many.env.observation_size());
        CHECK(std::equal(two.observations.begin(), two.observations.end(), many.observations.begin(),
                         many.observations.begin() + size));
        CHECK(two.rewards[1] == many.rewards[1] && two.terminated[1] == many.terminated[1]);
    }
}

TEST(vector_env_an_illegal_action_throws_before_any_game_changes_or_is_penalised) {
    SchachtEnv env(5);
    std::vector<int32_t> actions(5);
    for (int i = 0; i < 5; ++i) actions[static_cast<std::size_t>(i)] = env.first_legal(i);
    const auto row = env.masks.begin() + 3 * env.env.actions();
    actions[3] = static_cast<int32_t>(std::find(row, row + env.env.actions(), uint8_t{0}) - row);
    std::vector<schacht::Position> before;
    for (int i = 0; i < 5; ++i) before.push_back(env.env.position(i));
    bool thrown = false;
    try {
        env.env.step(actions.data(), env.out);
    } catch (const IllegalMoveError& error) {
        thrown = std::string(error.what()).find("game 3 of the vector env") != std::string::npos &&
                 error.clause.rfind("S", 0) == 0;
    }
    CHECK(thrown);
    actions[3] = 77;  // out of range
    CHECK_THROWS(OptionError, env.env.step(actions.data(), env.out));
    for (int i = 0; i < 5; ++i) CHECK(std::memcmp(&before[i], &env.env.position(i), sizeof(schacht::Position)) == 0);

    VectorEnvOptions penalise;
    penalise.penalise = true;
    penalise.penalty = -2.5f;
    SchachtEnv soft(5, penalise);
    actions[3] = static_cast<int32_t>(std::find(soft.masks.begin() + 3 * soft.env.actions(),
                                                soft.masks.begin() + 4 * soft.env.actions(), uint8_t{0}) -
                                      (soft.masks.begin() + 3 * soft.env.actions()));
    const schacht::Position kept = soft.env.position(3);
    soft.env.step(actions.data(), soft.out);
    CHECK(soft.rewards[3] == -2.5f);
    CHECK(std::memcmp(&kept, &soft.env.position(3), sizeof(schacht::Position)) == 0);
    CHECK(std::memcmp(&before[0], &soft.env.position(0), sizeof(schacht::Position)) != 0);  // the others moved
}

TEST(vector_env_rewards_add_up_to_the_final_score_and_the_next_step_starts_a_new_episode) {
    VectorEnvOptions final_options;
    final_options.final_reward = true;
    SchachtEnv scores(4);
    SchachtEnv finals(4, final_options);
    std::vector<float> summed(4, 0.0f);
    int ended = 0;
    for (int t = 0; t < 400 && ended < 4; ++t) {
        std::vector<int32_t> actions(4);
        for (int i = 0; i < 4; ++i) actions[static_cast<std::size_t>(i)] = scores.first_legal(i);
        const std::vector<uint8_t> was_over = scores.terminated;
        scores.env.step(actions.data(), scores.out);
        finals.env.step(actions.data(), finals.out);
        for (std::size_t i = 0; i < 4; ++i) {
            if (was_over[i]) {  // a new episode began: no reward, no end, a fresh deal
                CHECK(scores.rewards[i] == 0.0f && !scores.terminated[i]);
                continue;
            }
            summed[i] += scores.rewards[i];
            CHECK(finals.terminated[i] == scores.terminated[i]);
            if (!scores.terminated[i]) {
                CHECK(finals.rewards[i] == 0.0f);
                continue;
            }
            int32_t final_scores[8];
            schacht::Rules::scores(scores.env.position(static_cast<int>(i)), final_scores);
            CHECK(summed[i] == static_cast<float>(final_scores[0]));
            CHECK(finals.rewards[i] == static_cast<float>(final_scores[0]));
            summed[i] = 0.0f;
            ++ended;
        }
    }
    CHECK(ended >= 4);
}

TEST(vector_env_send_and_receive_step_as_step_does_while_the_caller_works) {
    SchachtEnv sent(9);
    SchachtEnv stepped(9);
    std::vector<int32_t> actions(9);
    CHECK_THROWS(OptionError, sent.env.receive());  // nothing sent
    for (int t = 0; t < 150; ++t) {
        for (int i = 0; i < 9; ++i) actions[static_cast<std::size_t>(i)] = stepped.first_legal(i);
        sent.env.send(actions.data(), sent.out);
        std::fill(actions.begin(), actions.end(), -1);  // the env keeps its own copy
        CHECK(sent.env.sent());
        CHECK_THROWS(OptionError, sent.env.send(actions.data(), sent.out));
        CHECK_THROWS(OptionError, sent.env.step(actions.data(), sent.out));
        CHECK_THROWS(OptionError, sent.env.reset(sent.out));
        for (int i = 0; i < 9; ++i) actions[static_cast<std::size_t>(i)] = stepped.first_legal(i);
        stepped.env.step(actions.data(), stepped.out);  // the caller's own work meanwhile
        sent.env.receive();
        CHECK(!sent.env.sent());
        CHECK(sent.observations == stepped.observations && sent.masks == stepped.masks);
        CHECK(sent.rewards == stepped.rewards && sent.terminated == stepped.terminated);
    }
    // An env destroyed while it steps waits for the step (its outputs outlive it).
    auto env = std::make_unique<VectorEnv<schacht::Rules>>(
        sent.game, 9, 5, 2, std::vector<const SeatPlayer<schacht::Rules>*>(3, &sent.player), VectorEnvOptions{});
    env->reset(sent.out);
    for (int i = 0; i < 9; ++i) actions[static_cast<std::size_t>(i)] = sent.first_legal(i);
    env->send(actions.data(), sent.out);
    env.reset();
}
