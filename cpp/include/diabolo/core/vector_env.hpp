// A vector environment written once against the contract (core/contract.hpp): many games
// stepped together, each with one learning seat whose actions come from the caller and
// the other seats played by C++ players (bots), on a pool of threads that stays up
// between steps (core/worker_pool.hpp). Observation tensors, action masks, rewards and
// end flags are written into arrays the caller owns, one row per game.
//
// Each game i is reproducible alone, and from the one-game API: episode e of game i is
// dealt from deal = derive_seed(derive_seed(seed, i), e); the k-th decision of another
// seat in the episode (k = 0, 1, ...) is made with the seed derive_seed(deal, k), as a
// bot's choose(state, seat, seed) makes it; in real time, step t's arrival order sorts the
// seats by derive_seed(derive_seed(deal, kOrderStream), t * 64 + seat). So the results
// never depend on the thread count.
//
// A step of game i:
//   - Turn-based (Schacht): the learner's action is applied, then the other seats play
//     until the learner is to act again or the game is over. At the secret doubler
//     decisions (S5.3) the learner decides when it is pending, like any seat.
//   - Real time (Duvelen, Knizia): the learner's action or the no-op (the id
//     num_actions) and one chance for every other seat (a player may wait) arrive in the
//     step's arrival order; a learner's move that an earlier arrival made illegal lost the
//     race and changes nothing.
//   - The reward is what the step changed in the learner's score, or with final rewards
//     the learner's final score at the end and 0 before.
//   - A finished game is terminated; a game past max_steps steps, or in real time one in
//     which nothing happened for idle_limit steps in a row, is truncated. The next step of
//     a game that ended ignores its action and starts its next episode (Gymnasium's
//     NEXT_STEP autoreset, as EnvPool does): it writes the new deal's first observation,
//     reward 0 and no end. With the same_step option the step that ends a game starts its
//     next episode at once (Gymnasium's SAME_STEP autoreset, as Stable-Baselines3's VecEnv
//     expects): it writes the last observation of the episode into final_observations, and
//     the new deal's first observation and mask with the ended step's reward and end flags.
//   - An illegal learner's action: with `penalise` the step changes nothing, the reward
//     is the penalty and the learner acts again; otherwise the whole step throws the
//     IllegalMoveError (naming the game's index and the rule) before any game changes.
//   - With `claims` > 0, in a game whose rules rank their moves for learners (Knizia: its
//     claims, one action per word of the lexicon), the learner's actions are a compact
//     space of R::compact_actions(game, claims) ids: what each stands for is rewritten at
//     every write from the learner's legal actions (R::compact_view), and a step applies
//     the move its id stood for when the step began.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "diabolo/core/contract.hpp"
#include "diabolo/core/errors.hpp"
#include "diabolo/core/rng.hpp"
#include "diabolo/core/worker_pool.hpp"

namespace diabolo {

/// A seat played inside a vector environment. `act` returns the action id the seat plays
/// now, or -1 to wait (in real time) or when it has nothing to do; it reads only what the
/// seat may know, draws only from Pcg32(seed), and is const: one player serves many games
/// on many threads.
template <class R>
class SeatPlayer {
public:
    virtual ~SeatPlayer() = default;
    virtual int act(const typename R::Position& position, int seat, uint64_t seed) const = 0;
};

/// The stream of a vector environment's arrival orders (see the header's comment).
constexpr uint64_t kOrderStream = 0x0A771BA1ULL;

/// Whether the rules `R` offer a compact action space for learners:
///   static int compact_actions(const Game&, int claims): its number of ids, and
///   static void compact_view(const Game&, const int32_t* legal, int count, int claims, int32_t* view):
///     from the legal action ids (ascending), the engine's id each compact id stands for now
///     (-1 where none).
template <class R, class = void>
struct HasCompactActions : std::false_type {};
template <class R>
struct HasCompactActions<R, std::void_t<decltype(&R::compact_view)>> : std::true_type {};

/// Whether the rules `R` describe each action by features for learners:
///   static constexpr int kActionFeatures: features per action, and
///   static void action_features(const Position&, int seat, float* out): num_actions x
///     kActionFeatures, zeros for actions not legal now.
template <class R, class = void>
struct HasActionFeatures : std::false_type {};
template <class R>
struct HasActionFeatures<R, std::void_t<decltype(&R::action_features)>> : std::true_type {};

/// Features per action of the rules `R` (0 if they have none).
template <class R>
constexpr int action_feature_count() noexcept {
    if constexpr (HasActionFeatures<R>::value) {
        return R::kActionFeatures;
    } else {
        return 0;
    }
}

/// How a vector environment runs; see the header's comment.
struct VectorEnvOptions {
    int seat = 0;               // the learner's seat; -1: seat e % players in episode e
    bool final_reward = false;  // rewards: score changes (false) or the final score at the end
    bool penalise = false;      // an illegal action: IllegalMoveError (false) or the penalty
    float penalty = -1.0f;
    int idle_limit = 8;      // real time: steps in a row without a move before a truncation
    int64_t max_steps = 0;   // steps of an episode before a truncation; 0: no limit
    bool compact = false;    // observations as bytes: round((x - low) / (high - low) * 255)
    bool same_step = false;  // autoreset: in the step that ends a game (true) or the next one
    int claims = 0;          // > 0: the compact action space with that many ranked claims
};

/// Where a step writes, row i for game i. observations: games x observation size, as
/// floats, or as bytes (compact_observations) with the `compact` option; masks: games x
/// actions (1 where legal); the others one entry per game. lost_races and seats may be null.
/// final_observations (or compact_final_observations) is shaped as observations, for the
/// same_step option: a step writes row i there only when game i ended in it.
/// action_features, where not null (rules with HasActionFeatures), gets each write's
/// R::action_features of the learner, row i for game i. scores gets every seat's score of
/// game i's episode as the step left it: in the step that ends an episode, its final
/// scores (with either autoreset); in a step that starts one, zeros.
struct VectorEnvOutput {
    float* observations = nullptr;
    uint8_t* masks = nullptr;
    float* rewards = nullptr;
    uint8_t* terminated = nullptr;
    uint8_t* truncated = nullptr;
    uint8_t* lost_races = nullptr;
    int32_t* seats = nullptr;
    uint8_t* compact_observations = nullptr;
    float* final_observations = nullptr;
    uint8_t* compact_final_observations = nullptr;
    float* action_features = nullptr;  // games x the game's actions x action_feature_count<R>(), or null
    int32_t* scores = nullptr;         // games x seats, or null
};

template <class R>
class VectorEnv {
public:
    using Game = typename R::Game;
    using Position = typename R::Position;

    /// `players[s]` plays seat s whenever the learner does not (the learner's fixed seat
    /// may be null). OptionError names what is wrong.
    VectorEnv(const Game& game, int games, uint64_t seed, int threads, std::vector<const SeatPlayer<R>*> players,
              VectorEnvOptions options)
        : game_(game),
          seed_(seed),
          players_(std::move(players)),
          options_(options),
          seats_(R::players(game)),
          actions_(action_count(game, options.claims) + (R::kRealTime ? 1 : 0)),
          tensor_size_(R::observation_tensor_size(game)),
          pool_(threads) {
        if (games < 1 || games > (1 << 24))
            throw OptionError("a vector env has 1..16777216 games, got " + std::to_string(games));
        if (options.seat < -1 || options.seat >= seats_)
            throw OptionError("seat must be -1 (each seat in turn) or 0.." + std::to_string(seats_ - 1) + ", got " +
                              std::to_string(options.seat));
        if (static_cast<int>(players_.size()) != seats_)
            throw OptionError("a vector env needs a player for each of the " + std::to_string(seats_) + " seats, got " +
                              std::to_string(players_.size()));
        for (int s = 0; s < seats_; ++s) {
            if (players_[static_cast<std::size_t>(s)] == nullptr && (options.seat == -1 || s != options.seat))
                throw OptionError("seat " + std::to_string(s) + " has no player");
        }
        if (options.idle_limit < 1)
            throw OptionError("idle_limit must be >= 1, got " + std::to_string(options.idle_limit));
        if (options.max_steps < 0) throw OptionError("max_steps must be >= 0 (0: no limit)");
        slots_.resize(static_cast<std::size_t>(games));
        legal_buffers_.assign(static_cast<std::size_t>(pool_.threads()),
                              std::vector<int32_t>(static_cast<std::size_t>(R::num_actions(game))));
    }

    int games() const noexcept { return static_cast<int>(slots_.size()); }
    int observation_size() const noexcept { return tensor_size_; }
    /// Action ids 0 .. actions() - 1: the game's, and in real time the no-op last.
    int actions() const noexcept { return actions_; }
    /// The no-op's id in real time, -1 in a turn-based game.
    int wait_action() const noexcept { return R::kRealTime ? actions_ - 1 : -1; }
    const Position& position(int game) const { return slots_.at(static_cast<std::size_t>(game)).position; }
    /// With `claims`: the engine's id each of the learner's ids stands for now in game
    /// `game`, -1 where none (empty without the option).
    const std::vector<int32_t>& compact_view(int game) const { return slots_.at(static_cast<std::size_t>(game)).view; }

    /// Starts episode 0 of every game and writes the first observations.
    void reset(const VectorEnvOutput& out) {
        refuse_while_sent();
        pool_.run(games(), [&](int first, int last, int thread) {
            std::vector<int32_t>& legal = legal_buffers_[static_cast<std::size_t>(thread)];
            for (int i = first; i < last; ++i) {
                Slot& slot = slots_[static_cast<std::size_t>(i)];
                slot.episode = 0;
                start(slot, i);
                write_scores(slot, i, out);
                write(slot, i, out, legal, 0.0f, false, false, false);
            }
        });
    }

    /// One step of every game: `actions[i]` is the learner's action in game i (ignored in
    /// a game that ended at the last step). An id out of range is an OptionError, whatever
    /// the options; nothing changes then.
    void step(const int32_t* actions, const VectorEnvOutput& out) {
        refuse_while_sent();
        validate(actions);
        pool_.run(games(), [&](int first, int last, int thread) {
            std::vector<int32_t>& legal = legal_buffers_[static_cast<std::size_t>(thread)];
            for (int i = first; i < last; ++i) step_one(i, actions[i], out, legal);
        });
    }

    /// The same step, on the pool's threads alone: checks the actions (the errors of
    /// step(), before anything starts), keeps a copy of them and returns at once; the step
    /// writes into `out` until receive(), so `out` must stay valid until then (or until the
    /// env is destroyed: its destructor waits for the step). A caller chooses the actions of
    /// another vector env meanwhile, so that its own work and the step overlap.
    void send(const int32_t* actions, const VectorEnvOutput& out) {
        refuse_while_sent();
        validate(actions);
        sent_actions_.assign(actions, actions + games());
        pool_.start(games(), [this, out](int first, int last, int thread) {
            std::vector<int32_t>& legal = legal_buffers_[static_cast<std::size_t>(thread)];
            for (int i = first; i < last; ++i) step_one(i, sent_actions_[static_cast<std::size_t>(i)], out, legal);
        });
        sent_ = true;
    }

    /// Waits for the step send() began: its rows are then written. OptionError if no step
    /// was sent.
    void receive() {
        if (!sent_) throw OptionError("no step was sent to the vector env: send(actions) first");
        sent_ = false;
        pool_.wait();
    }

    /// Whether a step was sent and not received.
    bool sent() const noexcept { return sent_; }

private:
    struct Slot {
        Position position{};
        uint64_t deal = 0;
        uint64_t decisions = 0;  // the other seats' decisions so far in the episode
        uint64_t episode = 0;
        int64_t steps = 0;
        int idle = 0;
        int seat = 0;
        bool ended = false;
        std::vector<int32_t> legal;  // the learner's legal actions now, as the last write found them
        std::vector<int32_t> view;   // compact space: the engine's id of each learner's id now, or -1
    };

    /// What a learner's action id stands for in the engine: the no-op, or an entry of the
    /// compact space that stands for nothing now.
    static constexpr int32_t kNoOp = -1;
    static constexpr int32_t kNothing = -2;

    /// The learner's action ids, but the no-op: the game's, or its compact space's.
    static int action_count(const Game& game, int claims) {
        if (claims == 0) return R::num_actions(game);
        if constexpr (HasCompactActions<R>::value) {
            if (claims < 0 || claims > (1 << 20))
                throw OptionError("claims must be 1..1048576 (0: an action per word), got " + std::to_string(claims));
            return R::compact_actions(game, claims);
        } else {
            throw OptionError(std::string("claims: ") + R::kName + " has no compact action space");
        }
    }

    /// The engine's id of the learner's `action` (in range): itself, or what its entry of
    /// the compact space stands for now; kNoOp for the no-op.
    int32_t engine_action(const Slot& slot, int32_t action) const {
        if (action == wait_action()) return kNoOp;
        if (options_.claims == 0) return action;
        const int32_t move = slot.view[static_cast<std::size_t>(action)];
        return move < 0 ? kNothing : move;
    }

    void refuse_while_sent() const {
        if (sent_) throw OptionError("a step was sent to the vector env and not received: receive it first");
    }

    /// The errors of a step, before any game changes.
    void validate(const int32_t* actions) const {
        for (int i = 0; i < games(); ++i) {
            if (!slots_[static_cast<std::size_t>(i)].ended && (actions[i] < 0 || actions[i] >= actions_))
                throw OptionError("game " + std::to_string(i) + " of the vector env: an action is an id 0.." +
                                  std::to_string(actions_ - 1) + ", got " + std::to_string(actions[i]));
        }
        if (!options_.penalise) check(actions);
    }

    void start(Slot& slot, int index) {
        slot.deal = derive_seed(derive_seed(seed_, static_cast<uint64_t>(index)), slot.episode);
        slot.position = R::position(R::new_state(game_, slot.deal));
        slot.decisions = 0;
        slot.seat = options_.seat >= 0 ? options_.seat : static_cast<int>(slot.episode % static_cast<uint64_t>(seats_));
        slot.steps = 0;
        slot.idle = 0;
        slot.ended = false;
        if (!R::kRealTime) play_others(slot);
    }

    /// Turn-based: the other seats play until the learner is to act or the game is over.
    void play_others(Slot& slot) const {
        for (;;) {
            const uint32_t pending = R::pending_seats(slot.position);
            if (pending == 0 || (pending >> slot.seat & 1u) != 0) return;
            const int actor = lowest_seat(pending);
            const int action = decide(slot, actor);
            if (action < 0)
                throw LimitError("the player of seat " + std::to_string(actor) + " has no move in its turn");
            R::apply_action(slot.position, action, actor);
        }
    }

    /// Another seat's decision, with the episode's next decision seed.
    int decide(Slot& slot, int seat) const {
        return players_[static_cast<std::size_t>(seat)]->act(slot.position, seat,
                                                             derive_seed(slot.deal, slot.decisions++));
    }

    static int lowest_seat(uint32_t seats) noexcept {
        int seat = 0;
        while ((seats >> seat & 1u) == 0) ++seat;
        return seat;
    }

    /// Throws the IllegalMoveError of the first game whose learner's action (an id in
    /// range) is not legal now; changes nothing. It reads the legal actions the last write
    /// stored, so it costs a search per game.
    void check(const int32_t* actions) const {
        for (int index = 0; index < games(); ++index) {
            const Slot& slot = slots_[static_cast<std::size_t>(index)];
            if (slot.ended) continue;
            const int32_t action = engine_action(slot, actions[index]);
            if (action == kNoOp || (action >= 0 && was_legal(slot, action))) continue;
            const std::string where = "game " + std::to_string(index) + " of the vector env: ";
            if (action == kNothing)
                throw IllegalMoveError(
                    "", where + "compact action " + std::to_string(actions[index]) + " stands for no move now");
            const auto error = R::why_illegal(slot.position, R::move_of_action(game_, action), slot.seat);
            if (!error) throw IllegalMoveError("", where + "action " + std::to_string(action) + " is not legal now");
            throw IllegalMoveError(error->clause, where + error->reason, error->code, error->params);
        }
    }

    /// Whether `action` was legal for the learner when the step began.
    static bool was_legal(const Slot& slot, int32_t action) {
        return std::binary_search(slot.legal.begin(), slot.legal.end(), action);
    }

    /// Whether `action` is legal for the learner now (in a race, after earlier arrivals).
    bool is_legal(const Slot& slot, int32_t action, std::vector<int32_t>& legal) const {
        const int count = R::legal_actions(slot.position, slot.seat, legal.data());
        return std::binary_search(legal.begin(), legal.begin() + count, action);
    }

    /// Game `index`'s step; `legal` is the running thread's room for every action id.
    void step_one(int index, int32_t learner_action, const VectorEnvOutput& out, std::vector<int32_t>& legal) {
        Slot& slot = slots_[static_cast<std::size_t>(index)];
        if (slot.ended) {
            ++slot.episode;
            start(slot, index);
            write_scores(slot, index, out);
            write(slot, index, out, legal, 0.0f, false, false, false);
            return;
        }
        const int32_t action = engine_action(slot, learner_action);
        // Without `penalise`, check() found every action legal before the step began.
        if (options_.penalise && action != kNoOp && (action < 0 || !was_legal(slot, action))) {
            write(slot, index, out, legal, options_.penalty, false, false, false);  // penalised: nothing changes
            return;
        }
        const int32_t before = score(slot);
        bool lost = false;
        bool moved = false;
        if (R::kRealTime) {
            race(slot, action, legal, lost, moved);
        } else {
            R::apply_action(slot.position, action, slot.seat);
            play_others(slot);
            moved = true;
        }
        ++slot.steps;
        slot.idle = moved ? 0 : slot.idle + 1;
        const bool terminated = R::current_player(slot.position) == kTerminal;
        const bool truncated = !terminated && ((options_.max_steps > 0 && slot.steps >= options_.max_steps) ||
                                               (R::kRealTime && slot.idle >= options_.idle_limit));
        slot.ended = terminated || truncated;
        const float reward = options_.final_reward ? (terminated ? static_cast<float>(score(slot)) : 0.0f)
                                                   : static_cast<float>(score(slot) - before);
        write_scores(slot, index, out);
        if (slot.ended && options_.same_step) {
            write_observation(slot, index, out.final_observations, out.compact_final_observations);
            ++slot.episode;
            start(slot, index);
        }
        write(slot, index, out, legal, reward, terminated, truncated, lost);
    }

    /// Real time: the learner's action and one chance for every other seat, in the step's
    /// arrival order.
    void race(Slot& slot, int32_t action, std::vector<int32_t>& legal, bool& lost, bool& moved) {
        int order[32];
        uint64_t keys[32];
        const uint64_t stream = derive_seed(slot.deal, kOrderStream);
        for (int s = 0; s < seats_; ++s) {
            order[s] = s;
            keys[s] = derive_seed(stream, static_cast<uint64_t>(slot.steps) * 64 + static_cast<uint64_t>(s));
        }
        std::sort(order, order + seats_, [&](int a, int b) { return keys[a] != keys[b] ? keys[a] < keys[b] : a < b; });
        for (int k = 0; k < seats_ && R::current_player(slot.position) != kTerminal; ++k) {
            const int seat = order[k];
            if (seat == slot.seat) {
                if (action == kNoOp) continue;
                if (!is_legal(slot, action, legal)) {
                    lost = true;  // legal when the step began: an earlier arrival took it
                    continue;
                }
                R::apply_action(slot.position, action, seat);
                moved = true;
                continue;
            }
            const int played = decide(slot, seat);
            if (played < 0) continue;
            R::apply_action(slot.position, played, seat);
            moved = true;
        }
    }

    int32_t score(const Slot& slot) const {
        int32_t scores[32]{};  // zeroed: the compiler cannot see that R::scores writes slot.seat's
        R::scores(slot.position, scores);
        return scores[slot.seat];
    }

    /// Every seat's score of game `index` now, into its row of out.scores.
    void write_scores(const Slot& slot, int index, const VectorEnvOutput& out) const {
        if (out.scores != nullptr)
            R::scores(slot.position, out.scores + static_cast<std::size_t>(index) * static_cast<std::size_t>(seats_));
    }

    /// Compact space: what each learner's id stands for now, and the mask of those that
    /// stand for a move.
    void write_view(Slot& slot, uint8_t* mask) const {
        if constexpr (HasCompactActions<R>::value) {
            const int size = actions_ - (R::kRealTime ? 1 : 0);
            slot.view.resize(static_cast<std::size_t>(size));
            R::compact_view(game_, slot.legal.data(), static_cast<int>(slot.legal.size()), options_.claims,
                            slot.view.data());
            for (int k = 0; k < size; ++k) mask[k] = slot.view[static_cast<std::size_t>(k)] >= 0;
        } else {
            (void)slot, (void)mask;  // action_count refused the option
        }
    }

    /// Writes the learner's observation of game `index` into row `index` of `floats`, or of
    /// `bytes` with the compact option.
    void write_observation(const Slot& slot, int index, float* floats, uint8_t* bytes) const {
        const auto row = static_cast<std::size_t>(index) * static_cast<std::size_t>(tensor_size_);
        if (options_.compact) {
            R::observation_bytes(slot.position, slot.seat, bytes + row);
        } else {
            R::observation_tensor(slot.position, slot.seat, floats + row);
        }
    }

    /// Writes game `index`'s row, and keeps the learner's legal actions for the next step.
    void write(Slot& slot, int index, const VectorEnvOutput& out, std::vector<int32_t>& legal, float reward,
               bool terminated, bool truncated, bool lost) const {
        const auto i = static_cast<std::size_t>(index);
        write_observation(slot, index, out.observations, out.compact_observations);
        uint8_t* mask = out.masks + i * static_cast<std::size_t>(actions_);
        std::memset(mask, 0, static_cast<std::size_t>(actions_));
        const int count = R::legal_actions(slot.position, slot.seat, legal.data());
        slot.legal.assign(legal.begin(), legal.begin() + count);
        if (options_.claims > 0) {
            write_view(slot, mask);
        } else {
            for (int k = 0; k < count; ++k) mask[legal[static_cast<std::size_t>(k)]] = 1;
        }
        if (R::kRealTime && R::current_player(slot.position) != kTerminal) mask[actions_ - 1] = 1;
        out.rewards[i] = reward;
        out.terminated[i] = terminated;
        out.truncated[i] = truncated;
        if constexpr (HasActionFeatures<R>::value) {
            if (out.action_features != nullptr) {
                const auto row = static_cast<std::size_t>(R::num_actions(game_)) * R::kActionFeatures;
                R::action_features(slot.position, slot.seat, out.action_features + i * row);
            }
        }
        if (out.lost_races != nullptr) out.lost_races[i] = lost;
        if (out.seats != nullptr) out.seats[i] = slot.seat;
    }

    const Game game_;
    const uint64_t seed_;
    const std::vector<const SeatPlayer<R>*> players_;
    const VectorEnvOptions options_;
    const int seats_;
    const int actions_;
    const int tensor_size_;
    std::vector<Slot> slots_;
    std::vector<std::vector<int32_t>> legal_buffers_;  // per pool thread: room for every action id
    std::vector<int32_t> sent_actions_;                // a sent step's actions, read until it is received
    bool sent_ = false;
    WorkerPool pool_;  // last: its destructor waits for a sent step, which uses the members above
};

}  // namespace diabolo
