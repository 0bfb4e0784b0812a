// The C API (diabolo/diabolo.h), written once against the contract (core/contract.hpp):
// a game handle holds an implementation of the erased interface below for its Rules, and
// a state handle the game's State. No exception leaves a function of the API.
#define DIABOLO_BUILDING
#include "diabolo/diabolo.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "diabolo/core/batch.hpp"
#include "diabolo/core/contract.hpp"
#include "diabolo/core/events.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/live.hpp"
#include "diabolo/duvelen/duvelen.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace {

using namespace diabolo;

/// A state of any game, behind the C handle.
struct AnyState {
    virtual ~AnyState() = default;
    virtual std::unique_ptr<AnyState> clone() const = 0;
    virtual int players() const = 0;
    virtual int num_actions() const = 0;
    virtual int current_player() const = 0;
    virtual uint32_t pending_seats() const = 0;
    virtual uint64_t version() const = 0;
    virtual int legal_actions(int player, int32_t* out) const = 0;
    virtual void apply_action(int player, int action) = 0;
    virtual void apply_move(int player, const char* notation) = 0;
    virtual void scores(int32_t* out) const = 0;
    virtual std::string observation(int player) const = 0;
    virtual std::string events(int player) const = 0;
    virtual std::string to_json() const = 0;
    virtual std::unique_ptr<AnyState> resample(int player, uint64_t seed) const = 0;
};

/// A game of any kind, behind the C handle.
struct AnyGame {
    virtual ~AnyGame() = default;
    virtual int players() const = 0;
    virtual int num_actions() const = 0;
    virtual std::string options() const = 0;
    virtual std::unique_ptr<AnyState> new_state(uint64_t seed) const = 0;
    virtual std::unique_ptr<AnyState> state_from_json(const char* text) const = 0;
    virtual std::string action_notation(int action) const = 0;
    virtual void play_random(int games, uint64_t seed, int threads, int32_t* scores, int32_t* moves) const = 0;
};

template <class R>
struct StateOf final : AnyState {
    typename R::State state;
    explicit StateOf(typename R::State s) : state(std::move(s)) {}
    const typename R::Game& game() const { return R::game(state); }

    std::unique_ptr<AnyState> clone() const override { return std::make_unique<StateOf>(state); }
    int players() const override { return R::players(game()); }
    int num_actions() const override { return R::num_actions(game()); }
    int current_player() const override { return R::current_player(R::position(state)); }
    uint32_t pending_seats() const override { return R::pending_seats(R::position(state)); }
    uint64_t version() const override { return live::version(state); }
    int legal_actions(int player, int32_t* out) const override {
        return R::legal_actions(R::position(state), player, out);
    }
    void apply_action(int player, int action) override { R::apply(state, R::move_of_action(game(), action), player); }
    void apply_move(int player, const char* notation) override { R::apply(state, R::parse_move(notation), player); }
    void scores(int32_t* out) const override { R::scores(R::position(state), out); }
    std::string observation(int player) const override {
        const boost::json::storage_ptr heap;
        return json::serialize(player == kEveryone ? R::public_observation(R::position(state), heap)
                                                   : R::observation(R::position(state), player, heap));
    }
    std::string events(int player) const override {
        json::Array list;
        for (json::Value& event : events_seen_by(R::last_events(state), player)) list.emplace_back(std::move(event));
        return json::serialize(list);
    }
    std::string to_json() const override { return R::to_json(state); }
    std::unique_ptr<AnyState> resample(int player, uint64_t seed) const override {
        typename R::State guess = state.resample(player, seed);
        return std::make_unique<StateOf>(std::move(guess));
    }
};

template <class R>
struct GameOf final : AnyGame {
    typename R::Game game;
    explicit GameOf(typename R::Game g) : game(std::move(g)) {}

    int players() const override { return R::players(game); }
    int num_actions() const override { return R::num_actions(game); }
    std::string options() const override { return json::serialize(R::options_json(game)); }
    std::unique_ptr<AnyState> new_state(uint64_t seed) const override {
        return std::make_unique<StateOf<R>>(R::new_state(game, seed));
    }
    std::unique_ptr<AnyState> state_from_json(const char* text) const override {
        return std::make_unique<StateOf<R>>(R::state_from_json(game, text));
    }
    std::string action_notation(int action) const override { return R::format_move(R::move_of_action(game, action)); }
    void play_random(int games, uint64_t seed, int threads, int32_t* scores, int32_t* moves) const override {
        const RandomPlayResult result = diabolo::play_random<R>(game, games, seed, threads);
        if (scores) std::copy(result.scores.begin(), result.scores.end(), scores);
        if (moves) std::copy(result.moves.begin(), result.moves.end(), moves);
    }
};

template <class R>
std::unique_ptr<AnyGame> game_of(const json::Value& options) {
    return std::make_unique<GameOf<R>>(R::game_from_json(options));
}

void copy_text(char* out, std::size_t size, const std::string& text) {
    const std::size_t n = std::min(size - 1, text.size());
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
}

diabolo_status fail(diabolo_error* error, diabolo_status status, const std::string& code, const std::string& clause,
                    const std::string& message) {
    if (error != nullptr) {
        error->status = status;
        copy_text(error->code, sizeof error->code, code);
        copy_text(error->clause, sizeof error->clause, clause);
        copy_text(error->message, sizeof error->message, message);
    }
    return status;
}

/// Runs `body`; every exception becomes a status (and `error`), none leaves.
template <class Body>
diabolo_status guarded(diabolo_error* error, Body&& body) {
    try {
        body();
        if (error != nullptr) fail(error, DIABOLO_OK, "", "", "");
        return DIABOLO_OK;
    } catch (const StaleMoveError& e) {
        return fail(error, DIABOLO_STALE_MOVE, e.code, e.clause, e.what());
    } catch (const IllegalMoveError& e) {
        return fail(error, DIABOLO_ILLEGAL_MOVE, e.code, e.clause, e.what());
    } catch (const NotationError& e) {
        return fail(error, DIABOLO_BAD_NOTATION, e.code, e.clause, e.what());
    } catch (const OptionError& e) {
        return fail(error, DIABOLO_BAD_OPTION, e.code, "", e.what());
    } catch (const StateFormatError& e) {
        return fail(error, DIABOLO_BAD_STATE, e.code, "", e.what());
    } catch (const PlayerError& e) {
        return fail(error, DIABOLO_BAD_PLAYER, e.code, "", e.what());
    } catch (const LimitError& e) {
        return fail(error, DIABOLO_LIMIT, e.code, "", e.what());
    } catch (const DiaboloError& e) {
        return fail(error, DIABOLO_ERROR, e.code, "", e.what());
    } catch (const std::bad_alloc&) {
        return fail(error, DIABOLO_ERROR, "out_of_memory", "", "out of memory");
    } catch (const std::exception& e) {
        return fail(error, DIABOLO_ERROR, "error", "", e.what());
    }
}

/// A copy of `text` that C frees with diabolo_string_free (free()).
char* c_string(const std::string& text) {
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    if (out != nullptr) std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}

/// PlayerError unless `player` is a seat (or, where `spectator` allows, DIABOLO_SPECTATOR).
void check_seat(const AnyState& state, int player, bool spectator) {
    if ((spectator && player == DIABOLO_SPECTATOR) || (player >= 0 && player < state.players())) return;
    throw PlayerError("player must be a seat 0.." + std::to_string(state.players() - 1) +
                      (spectator ? " or -1 (a spectator)" : "") + ", got " + std::to_string(player));
}

}  // namespace

struct diabolo_game {
    std::shared_ptr<const AnyGame> game;
};

struct diabolo_state {
    std::shared_ptr<const AnyGame> game;  // keeps the game (a Knizia lexicon) alive
    std::unique_ptr<AnyState> state;
};

extern "C" {

const char* diabolo_version(void) { return "0.1.0"; }

int diabolo_api_version(void) { return DIABOLO_API_VERSION; }

const char* diabolo_games(void) { return "duvelen,knizia,schacht"; }

diabolo_status diabolo_game_new(const char* name, const char* options_json, diabolo_game** out, diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        if (name == nullptr || out == nullptr) throw OptionError("diabolo_game_new needs a name and an out-pointer");
        const json::Value options = options_json == nullptr || *options_json == '\0'
                                        ? json::Value(json::Object())
                                        : json::parse(options_json, "options");
        const std::string id = name;
        std::unique_ptr<AnyGame> game;
        if (id == schacht::Rules::kName) game = game_of<schacht::Rules>(options);
        else if (id == duvelen::Rules::kName) game = game_of<duvelen::Rules>(options);
        else if (id == knizia::Rules::kName) game = game_of<knizia::Rules>(options);
        else throw OptionError("unknown game " + quoted(id) + "; the games are: " + diabolo_games());
        *out = new diabolo_game{std::shared_ptr<const AnyGame>(std::move(game))};
    });
}

void diabolo_game_free(diabolo_game* game) { delete game; }

int diabolo_game_players(const diabolo_game* game) { return game->game->players(); }

int diabolo_game_num_actions(const diabolo_game* game) { return game->game->num_actions(); }

char* diabolo_game_options(const diabolo_game* game) {
    try {
        return c_string(game->game->options());
    } catch (...) {
        return nullptr;
    }
}

diabolo_status diabolo_state_new(const diabolo_game* game, uint64_t seed, diabolo_state** out, diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] { *out = new diabolo_state{game->game, game->game->new_state(seed)}; });
}

diabolo_status diabolo_state_from_json(const diabolo_game* game, const char* text, diabolo_state** out,
                                       diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        if (text == nullptr) throw StateFormatError("state JSON: got NULL");
        *out = new diabolo_state{game->game, game->game->state_from_json(text)};
    });
}

diabolo_state* diabolo_state_clone(const diabolo_state* state) {
    try {
        return new diabolo_state{state->game, state->state->clone()};
    } catch (...) {
        return nullptr;
    }
}

void diabolo_state_free(diabolo_state* state) { delete state; }

int diabolo_state_current_player(const diabolo_state* state) { return state->state->current_player(); }

uint32_t diabolo_state_pending_seats(const diabolo_state* state) { return state->state->pending_seats(); }

int diabolo_state_is_terminal(const diabolo_state* state) {
    return state->state->current_player() == DIABOLO_TERMINAL ? 1 : 0;
}

uint64_t diabolo_state_version(const diabolo_state* state) { return state->state->version(); }

int diabolo_state_legal_actions(const diabolo_state* state, int player, int32_t* out, int capacity) {
    if (player < 0 || player >= state->state->players()) return -1;
    try {
        std::vector<int32_t> ids(static_cast<std::size_t>(state->state->num_actions()));
        const int n = state->state->legal_actions(player, ids.data());
        if (out != nullptr) std::copy(ids.begin(), ids.begin() + std::min(n, std::max(capacity, 0)), out);
        return n;
    } catch (...) {
        return -1;
    }
}

int diabolo_state_legal_mask(const diabolo_state* state, int player, uint8_t* mask, int capacity) {
    if (player < 0 || player >= state->state->players()) return -1;
    try {
        std::vector<int32_t> ids(static_cast<std::size_t>(state->state->num_actions()));
        const int n = state->state->legal_actions(player, ids.data());
        if (mask != nullptr && capacity > 0) {
            std::memset(mask, 0, static_cast<std::size_t>(capacity));
            for (int i = 0; i < n; ++i) {
                if (ids[static_cast<std::size_t>(i)] < capacity) mask[ids[static_cast<std::size_t>(i)]] = 1;
            }
        }
        return n;
    } catch (...) {
        return -1;
    }
}

diabolo_status diabolo_state_apply_action(diabolo_state* state, int player, int action, diabolo_error* error) {
    return guarded(error, [&] {
        check_seat(*state->state, player, false);
        state->state->apply_action(player, action);
    });
}

diabolo_status diabolo_state_apply_move(diabolo_state* state, int player, const char* notation, diabolo_error* error) {
    return guarded(error, [&] {
        check_seat(*state->state, player, false);
        if (notation == nullptr) throw NotationError("a move in notation: got NULL");
        state->state->apply_move(player, notation);
    });
}

int diabolo_state_scores(const diabolo_state* state, int32_t* out, int capacity) {
    const int n = state->state->players();
    std::vector<int32_t> all(static_cast<std::size_t>(n));
    state->state->scores(all.data());
    if (out != nullptr) std::copy(all.begin(), all.begin() + std::min(n, std::max(capacity, 0)), out);
    return n;
}

char* diabolo_state_observation(const diabolo_state* state, int player, diabolo_error* error) {
    std::string text;
    if (guarded(error, [&] {
            check_seat(*state->state, player, true);
            text = state->state->observation(player);
        }) != DIABOLO_OK)
        return nullptr;
    return c_string(text);
}

char* diabolo_state_events(const diabolo_state* state, int player, diabolo_error* error) {
    std::string text;
    if (guarded(error, [&] {
            check_seat(*state->state, player, true);
            text = state->state->events(player);
        }) != DIABOLO_OK)
        return nullptr;
    return c_string(text);
}

char* diabolo_state_to_json(const diabolo_state* state) {
    try {
        return c_string(state->state->to_json());
    } catch (...) {
        return nullptr;
    }
}

char* diabolo_game_action_notation(const diabolo_game* game, int action, diabolo_error* error) {
    std::string text;
    if (guarded(error, [&] { text = game->game->action_notation(action); }) != DIABOLO_OK) return nullptr;
    return c_string(text);
}

diabolo_status diabolo_state_resample(const diabolo_state* state, int player, uint64_t seed, diabolo_state** out,
                                      diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        check_seat(*state->state, player, false);
        *out = new diabolo_state{state->game, state->state->resample(player, seed)};
    });
}

diabolo_status diabolo_play_random(const diabolo_game* game, int games, uint64_t seed, int threads, int32_t* scores,
                                   int32_t* moves, diabolo_error* error) {
    return guarded(error, [&] {
        if (games < 0 || games > 100000000)
            throw OptionError("games must be 0..100000000, got " + std::to_string(games));
        if (threads < 1 || threads > 256) throw OptionError("threads must be 1..256, got " + std::to_string(threads));
        game->game->play_random(games, seed, threads, scores, moves);
    });
}

void diabolo_string_free(char* text) { std::free(text); }

}  // extern "C"
