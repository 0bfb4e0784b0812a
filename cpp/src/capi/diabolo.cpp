// The C API (diabolo/diabolo.h), written once against the contract (core/contract.hpp):
// a game handle holds an implementation of the erased interface below for its Rules, and
// a state handle the game's State. No exception leaves a function of the API.
#define DIABOLO_BUILDING
#include "diabolo/diabolo.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diabolo/core/batch.hpp"
#include "diabolo/core/contract.hpp"
#include "diabolo/core/events.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/live.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/games.hpp"

namespace {

using namespace diabolo;

/// A position of any game (the table alone, no record), behind the C handle: what search
/// copies and plays.
struct AnyPosition {
    virtual ~AnyPosition() = default;
    virtual std::unique_ptr<AnyPosition> clone() const = 0;
    /// Copies `from`, or its determinisation for `player` when `seed` is given; false
    /// (and nothing changed) when `from` is a position of another game.
    virtual bool assign(const AnyPosition& from, std::optional<std::pair<int, uint64_t>> resample) = 0;
    virtual int players() const = 0;
    virtual int num_actions() const = 0;
    virtual int current_player() const = 0;
    virtual uint32_t pending_seats() const = 0;
    virtual int legal_actions(int player, int32_t* out) const = 0;
    /// Checked (IllegalMoveError, NotationError, and nothing changes), recording nothing.
    virtual void apply_action(int player, int action) = 0;
    virtual void scores(int32_t* out) const = 0;
    virtual int tensor_size() const = 0;
    virtual void tensor(int player, float* out) const = 0;
};

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
    virtual int tensor_size() const = 0;
    virtual void tensor(int player, float* out) const = 0;
    virtual std::string observation(int player) const = 0;
    virtual std::string events(int player) const = 0;
    virtual std::string to_json() const = 0;
    virtual std::unique_ptr<AnyState> resample(int player, uint64_t seed) const = 0;
};

/// What a bot does now: a move (its action id, -1 if it has none, and its notation) and
/// the microseconds after which it acts; no notation when it waits.
struct BotChoice {
    int32_t action = -1;
    std::string notation;
    int64_t delay = 0;
};

/// A bot of any game, behind the C handle.
struct AnyBot {
    virtual ~AnyBot() = default;
    virtual BotChoice choose(const AnyState& state, int player, uint64_t seed) const = 0;
};

/// A game of any kind, behind the C handle.
struct AnyGame {
    virtual ~AnyGame() = default;
    virtual int players() const = 0;
    virtual int num_actions() const = 0;
    virtual bool real_time() const = 0;
    virtual std::string options() const = 0;
    virtual std::unique_ptr<AnyState> new_state(uint64_t seed) const = 0;
    virtual std::unique_ptr<AnyState> new_dealt_state(uint64_t seed, const json::Value& deal) const = 0;
    virtual std::unique_ptr<AnyState> state_from_json(const char* text) const = 0;
    /// The position of `state`, a state of this game.
    virtual std::unique_ptr<AnyPosition> position_of(const AnyState& state) const = 0;
    virtual std::unique_ptr<AnyBot> bot(std::string_view kind, const json::Value& options) const = 0;
    virtual const char* bot_kinds() const = 0;
    virtual std::string action_notation(int action) const = 0;
    virtual void play_random(int games, uint64_t seed, int threads, int32_t* scores, int32_t* moves) const = 0;
};

template <class R>
struct PositionOf final : AnyPosition {
    typename R::Position position;
    const typename R::Game* of;  // the game of the handle's AnyGame, which the handle keeps alive
    PositionOf(const typename R::Position& p, const typename R::Game& game) : position(p), of(&game) {}
    const typename R::Game& game() const { return *of; }

    std::unique_ptr<AnyPosition> clone() const override { return std::make_unique<PositionOf>(position, *of); }
    bool assign(const AnyPosition& any, std::optional<std::pair<int, uint64_t>> resample) override {
        const auto* from = dynamic_cast<const PositionOf*>(&any);
        if (from == nullptr) return false;
        position = resample ? R::resample(from->position, resample->first, resample->second) : from->position;
        of = from->of;
        return true;
    }
    int players() const override { return R::players(game()); }
    int num_actions() const override { return R::num_actions(game()); }
    int current_player() const override { return R::current_player(position); }
    uint32_t pending_seats() const override { return R::pending_seats(position); }
    int legal_actions(int player, int32_t* out) const override { return R::legal_actions(position, player, out); }
    void apply_action(int player, int action) override {
        if (auto error = R::why_illegal(position, R::move_of_action(game(), action), player)) throw *error;
        R::apply_action(position, action, player);
    }
    void scores(int32_t* out) const override { R::scores(position, out); }
    int tensor_size() const override { return R::observation_tensor_size(game()); }
    void tensor(int player, float* out) const override { R::observation_tensor(position, player, out); }
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
    int tensor_size() const override { return R::observation_tensor_size(game()); }
    void tensor(int player, float* out) const override { R::observation_tensor(R::position(state), player, out); }
    std::string observation(int player) const override {
        json::Tape view;
        if (player == kEveryone) R::public_observation(R::position(state), view);
        else R::observation(R::position(state), player, view);
        return view.text();
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

// ---- bots --------------------------------------------------------------------------------

template <class R>
struct BotOf final : AnyBot {
    std::unique_ptr<const typename R::Bot> bot;
    explicit BotOf(std::unique_ptr<const typename R::Bot> b) : bot(std::move(b)) {}

    BotChoice choose(const AnyState& any, int player, uint64_t seed) const override {
        const auto* typed = dynamic_cast<const StateOf<R>*>(&any);
        if (typed == nullptr) throw OptionError(std::string("this bot plays ") + R::kName + ", not the state's game");
        Pcg32 rng(seed);
        BotChoice choice;
        const std::optional<typename R::Move> move = R::bot_move(*bot, R::position(typed->state), player, rng);
        if (move) {
            choice.delay = R::bot_delay(*bot, *move, rng);
            choice.action = R::action_of(typed->game(), *move);
            choice.notation = R::format_move(*move);
        }
        return choice;
    }
};

template <class R>
struct GameOf final : AnyGame {
    typename R::Game game;
    explicit GameOf(typename R::Game g) : game(std::move(g)) {}

    int players() const override { return R::players(game); }
    int num_actions() const override { return R::num_actions(game); }
    bool real_time() const override { return R::kRealTime; }
    std::string options() const override { return json::serialize(R::options_json(game)); }
    std::unique_ptr<AnyState> new_state(uint64_t seed) const override {
        return std::make_unique<StateOf<R>>(R::new_state(game, seed));
    }
    std::unique_ptr<AnyState> new_dealt_state(uint64_t seed, const json::Value& deal) const override {
        return std::make_unique<StateOf<R>>(R::new_dealt_state(game, seed, deal));
    }
    std::unique_ptr<AnyState> state_from_json(const char* text) const override {
        return std::make_unique<StateOf<R>>(R::state_from_json(game, text));
    }
    std::unique_ptr<AnyPosition> position_of(const AnyState& state) const override {
        return std::make_unique<PositionOf<R>>(R::position(dynamic_cast<const StateOf<R>&>(state).state), game);
    }
    std::unique_ptr<AnyBot> bot(std::string_view kind, const json::Value& options) const override {
        return std::make_unique<BotOf<R>>(R::make_bot(game, kind, options));
    }
    const char* bot_kinds() const override { return R::kInfo.bots; }
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

/// JSON text of the C API's arguments: NULL or "" is `empty`. Text that is not JSON is a
/// StateFormatError (a deal), or with `option` an OptionError (a game's or a bot's options).
json::Value json_argument(const char* text, const char* what, bool option, json::Value empty = json::Object()) {
    if (text == nullptr || *text == '\0') return empty;
    if (!option) return json::parse(text, what);
    try {
        return json::parse(text, what);
    } catch (const StateFormatError& e) {
        throw OptionError(e.what());
    }
}

/// Room for the legal ids of any game: one buffer per thread, grown to the largest
/// num_actions asked for (a Knizia game with a large word list has hundreds of thousands
/// of ids), so that asking for legal actions allocates nothing after the first call.
int32_t* legal_scratch(int num_actions) {
    thread_local std::vector<int32_t> scratch;
    if (scratch.size() < static_cast<std::size_t>(num_actions)) scratch.resize(static_cast<std::size_t>(num_actions));
    return scratch.data();
}

/// A caller's NULL where a function needs a handle, text or out-pointer (DIABOLO_BAD_ARGUMENT).
struct NullArgument : std::exception {
    std::string message;
    NullArgument(const char* function, const char* argument)
        : message(std::string(function) + ": " + argument + " is NULL") {}
    const char* what() const noexcept override { return message.c_str(); }
};

/// `*pointer`, or NullArgument naming `function` and `argument`.
template <class T>
T& need(T* pointer, const char* function, const char* argument) {
    if (pointer == nullptr) throw NullArgument(function, argument);
    return *pointer;
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
    } catch (const NullArgument& e) {
        return fail(error, DIABOLO_BAD_ARGUMENT, "null_argument", "", e.what());
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

/// The legal ids of `player` in a state or position, into out[0 .. capacity): straight
/// into `out` when every id fits, else through the thread's scratch buffer.
template <class Table>
int legal_actions_into(const Table& table, int player, int32_t* out, int capacity) {
    if (player < 0 || player >= table.players()) return -1;
    try {
        if (out != nullptr && capacity >= table.num_actions()) return table.legal_actions(player, out);
        int32_t* ids = legal_scratch(table.num_actions());
        const int n = table.legal_actions(player, ids);
        if (out != nullptr) std::copy(ids, ids + std::min(n, std::max(capacity, 0)), out);
        return n;
    } catch (...) {
        return -1;
    }
}

/// Each seat's score in a state or position into out[0 .. capacity); the number of seats.
template <class Table>
int scores_into(const Table& table, int32_t* out, int capacity) {
    std::array<int32_t, 32> all{};  // more than any game's seats (S1.1, D1.2, K1.1)
    const int n = table.players();
    table.scores(all.data());
    if (out != nullptr) std::copy(all.begin(), all.begin() + std::min(n, std::max(capacity, 0)), out);
    return n;
}

/// The observation tensor of `player` in a state or position (diabolo_state_observation_tensor).
template <class Table>
int tensor_into(const Table& table, int player, float* out, int capacity) {
    const int size = table.tensor_size();
    if (player < 0 || player >= table.players()) return -1;
    if (out == nullptr || capacity < size) return size;
    try {
        table.tensor(player, out);
        return size;
    } catch (...) {
        return -1;
    }
}

/// A copy of `text` that C frees with diabolo_string_free (free()).
char* c_string(const std::string& text) {
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    if (out != nullptr) std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}

/// PlayerError unless `player` is a seat of a state or position (or, where `spectator`
/// allows, DIABOLO_SPECTATOR).
template <class Table>
void check_seat(const Table& state, int player, bool spectator) {
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

struct diabolo_position {
    std::shared_ptr<const AnyGame> game;  // keeps the game (a Knizia lexicon) alive
    std::unique_ptr<AnyPosition> position;
};

struct diabolo_bot {
    std::shared_ptr<const AnyGame> game;
    std::unique_ptr<const AnyBot> bot;
};

namespace {

/// The JSON text `text(state)` for a seat or a spectator, or NULL with `error` set.
template <class Text>
char* state_text(const diabolo_state* state, const char* function, int player, diabolo_error* error, Text text) {
    std::string out;
    if (guarded(error, [&] {
            need(state, function, "state");
            check_seat(*state->state, player, true);
            out = text(*state->state);
        }) != DIABOLO_OK)
        return nullptr;
    return c_string(out);
}

/// A game by id; a game that takes a word list (Knizia) takes `lexicon` when given.
std::shared_ptr<const AnyGame> new_game(const char* name, const char* options_json,
                                        std::shared_ptr<const Lexicon> lexicon) {
    const json::Value options = json_argument(options_json, "options", true);
    const std::string_view id = name;
    std::shared_ptr<const AnyGame> made;
    for_each_game(Games{}, [&](auto tag) {
        using R = typename decltype(tag)::Rules;
        if (made || id != R::kName) return;
        if constexpr (takes_lexicon<R>()) {
            if (lexicon) {
                made = std::make_shared<GameOf<R>>(R::game_from_json(options, std::move(lexicon)));
                return;
            }
        } else if (lexicon) {
            throw OptionError(std::string("only a game of words takes a lexicon, not ") + quoted(std::string(id)));
        }
        made = std::make_shared<GameOf<R>>(R::game_from_json(options));
    });
    if (!made) throw OptionError("unknown game " + quoted(std::string(id)) + "; the games are: " + diabolo_games());
    return made;
}

/// The ids of the listed games, comma-separated and sorted.
std::string listed_games() {
    std::vector<std::string> names;
    for_each_game(Games{}, [&](auto tag) {
        using R = typename decltype(tag)::Rules;
        if (R::kInfo.listed) names.emplace_back(R::kName);
    });
    std::sort(names.begin(), names.end());
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
    return text;
}

}  // namespace

extern "C" {

const char* diabolo_version(void) { return DIABOLO_VERSION; }

int diabolo_api_version(void) { return DIABOLO_API_VERSION; }

const char* diabolo_games(void) {
    static const std::string games = listed_games();  // made once, then only read
    return games.c_str();
}

const char* diabolo_catalogue(void) {
    static const std::string catalogue = json::serialize(catalogue_json());  // made once, then only read
    return catalogue.c_str();
}

diabolo_status diabolo_game_new(const char* name, const char* options_json, diabolo_game** out, diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        need(out, "diabolo_game_new", "out");
        *out = new diabolo_game{new_game(&need(name, "diabolo_game_new", "name"), options_json, nullptr)};
    });
}

diabolo_status diabolo_game_new_with_lexicon(const char* name, const char* options_json, const void* lexicon,
                                             size_t lexicon_size, diabolo_game** out, diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        const char* const function = "diabolo_game_new_with_lexicon";
        need(out, function, "out");
        need(name, function, "name");
        const char* bytes = &need(static_cast<const char*>(lexicon), function, "lexicon");
        auto words = std::make_shared<Lexicon>(Lexicon::from_bytes(std::string(bytes, lexicon_size)));
        words->set_origin("bytes", "");
        *out = new diabolo_game{new_game(name, options_json, std::move(words))};
    });
}

void diabolo_game_free(diabolo_game* game) { delete game; }

int diabolo_game_players(const diabolo_game* game) { return game != nullptr ? game->game->players() : -1; }

int diabolo_game_num_actions(const diabolo_game* game) { return game != nullptr ? game->game->num_actions() : -1; }

int diabolo_game_real_time(const diabolo_game* game) {
    return game != nullptr ? (game->game->real_time() ? 1 : 0) : -1;
}

char* diabolo_game_options(const diabolo_game* game) {
    if (game == nullptr) return nullptr;
    try {
        return c_string(game->game->options());
    } catch (...) {
        return nullptr;
    }
}

diabolo_status diabolo_state_new(const diabolo_game* game, uint64_t seed, diabolo_state** out, diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        const auto& g = need(game, "diabolo_state_new", "game").game;
        need(out, "diabolo_state_new", "out");
        *out = new diabolo_state{g, g->new_state(seed)};
    });
}

diabolo_status diabolo_state_deal(const diabolo_game* game, uint64_t seed, const char* deal_json, diabolo_state** out,
                                  diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        const auto& g = need(game, "diabolo_state_deal", "game").game;
        need(out, "diabolo_state_deal", "out");
        const json::Value deal = json_argument(deal_json, "a deal", false);
        *out = new diabolo_state{g, g->new_dealt_state(seed, deal)};
    });
}

diabolo_status diabolo_state_from_json(const diabolo_game* game, const char* text, diabolo_state** out,
                                       diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        const auto& g = need(game, "diabolo_state_from_json", "game").game;
        need(out, "diabolo_state_from_json", "out");
        *out = new diabolo_state{g, g->state_from_json(&need(text, "diabolo_state_from_json", "json"))};
    });
}

diabolo_state* diabolo_state_clone(const diabolo_state* state) {
    if (state == nullptr) return nullptr;
    try {
        return new diabolo_state{state->game, state->state->clone()};
    } catch (...) {
        return nullptr;
    }
}

void diabolo_state_free(diabolo_state* state) { delete state; }

int diabolo_state_current_player(const diabolo_state* state) {
    return state != nullptr ? state->state->current_player() : -1;
}

uint32_t diabolo_state_pending_seats(const diabolo_state* state) {
    return state != nullptr ? state->state->pending_seats() : 0;
}

int diabolo_state_is_terminal(const diabolo_state* state) {
    if (state == nullptr) return -1;
    return state->state->current_player() == DIABOLO_TERMINAL ? 1 : 0;
}

uint64_t diabolo_state_version(const diabolo_state* state) { return state != nullptr ? state->state->version() : 0; }

int diabolo_state_legal_actions(const diabolo_state* state, int player, int32_t* out, int capacity) {
    return state != nullptr ? legal_actions_into(*state->state, player, out, capacity) : -1;
}

int diabolo_state_legal_mask(const diabolo_state* state, int player, uint8_t* mask, int capacity) {
    if (state == nullptr || player < 0 || player >= state->state->players()) return -1;
    try {
        int32_t* ids = legal_scratch(state->state->num_actions());
        const int n = state->state->legal_actions(player, ids);
        if (mask != nullptr && capacity > 0) {
            std::memset(mask, 0, static_cast<std::size_t>(capacity));
            for (int i = 0; i < n; ++i) {
                if (ids[i] < capacity) mask[ids[i]] = 1;
            }
        }
        return n;
    } catch (...) {
        return -1;
    }
}

diabolo_status diabolo_state_apply_action(diabolo_state* state, int player, int action, diabolo_error* error) {
    return guarded(error, [&] {
        AnyState& s = *need(state, "diabolo_state_apply_action", "state").state;
        check_seat(s, player, false);
        s.apply_action(player, action);
    });
}

diabolo_status diabolo_state_apply_move(diabolo_state* state, int player, const char* notation, diabolo_error* error) {
    return guarded(error, [&] {
        AnyState& s = *need(state, "diabolo_state_apply_move", "state").state;
        need(notation, "diabolo_state_apply_move", "notation");
        check_seat(s, player, false);
        s.apply_move(player, notation);
    });
}

int diabolo_state_scores(const diabolo_state* state, int32_t* out, int capacity) {
    return state != nullptr ? scores_into(*state->state, out, capacity) : -1;
}

int diabolo_state_observation_tensor(const diabolo_state* state, int player, float* out, int capacity) {
    return state != nullptr ? tensor_into(*state->state, player, out, capacity) : -1;
}

char* diabolo_state_observation(const diabolo_state* state, int player, diabolo_error* error) {
    return state_text(state, "diabolo_state_observation", player, error,
                      [&](const AnyState& s) { return s.observation(player); });
}

char* diabolo_state_events(const diabolo_state* state, int player, diabolo_error* error) {
    return state_text(state, "diabolo_state_events", player, error,
                      [&](const AnyState& s) { return s.events(player); });
}

char* diabolo_state_to_json(const diabolo_state* state) {
    if (state == nullptr) return nullptr;
    try {
        return c_string(state->state->to_json());
    } catch (...) {
        return nullptr;
    }
}

char* diabolo_game_action_notation(const diabolo_game* game, int action, diabolo_error* error) {
    std::string text;
    if (guarded(error, [&] {
            text = need(game, "diabolo_game_action_notation", "game").game->action_notation(action);
        }) != DIABOLO_OK)
        return nullptr;
    return c_string(text);
}

diabolo_status diabolo_state_resample(const diabolo_state* state, int player, uint64_t seed, diabolo_state** out,
                                      diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        const diabolo_state& from = need(state, "diabolo_state_resample", "state");
        need(out, "diabolo_state_resample", "out");
        check_seat(*from.state, player, false);
        *out = new diabolo_state{from.game, from.state->resample(player, seed)};
    });
}

diabolo_status diabolo_state_position(const diabolo_state* state, diabolo_position** out, diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        const diabolo_state& from = need(state, "diabolo_state_position", "state");
        need(out, "diabolo_state_position", "out");
        *out = new diabolo_position{from.game, from.game->position_of(*from.state)};
    });
}

diabolo_position* diabolo_position_clone(const diabolo_position* position) {
    if (position == nullptr) return nullptr;
    try {
        return new diabolo_position{position->game, position->position->clone()};
    } catch (...) {
        return nullptr;
    }
}

namespace {

/// `from` (or its determinisation) into `into`; DIABOLO_BAD_OPTION across games.
diabolo_status assign_position(const char* function, diabolo_position* into, const diabolo_position* from,
                               std::optional<std::pair<int, uint64_t>> resample, diabolo_error* error) {
    return guarded(error, [&] {
        need(into, function, "into");
        need(from, function, "from");
        if (resample) check_seat(*from->position, resample->first, false);
        if (!into->position->assign(*from->position, resample))
            throw OptionError("a position takes only positions of its own game");
        if (into->game != from->game) into->game = from->game;
    });
}

}  // namespace

diabolo_status diabolo_position_copy(diabolo_position* into, const diabolo_position* from, diabolo_error* error) {
    return assign_position("diabolo_position_copy", into, from, std::nullopt, error);
}

diabolo_status diabolo_position_resample(const diabolo_position* from, int player, uint64_t seed,
                                         diabolo_position* into, diabolo_error* error) {
    return assign_position("diabolo_position_resample", into, from, std::pair{player, seed}, error);
}

void diabolo_position_free(diabolo_position* position) { delete position; }

int diabolo_position_current_player(const diabolo_position* position) {
    return position != nullptr ? position->position->current_player() : -1;
}

uint32_t diabolo_position_pending_seats(const diabolo_position* position) {
    return position != nullptr ? position->position->pending_seats() : 0;
}

int diabolo_position_is_terminal(const diabolo_position* position) {
    if (position == nullptr) return -1;
    return position->position->current_player() == DIABOLO_TERMINAL ? 1 : 0;
}

int diabolo_position_legal_actions(const diabolo_position* position, int player, int32_t* out, int capacity) {
    return position != nullptr ? legal_actions_into(*position->position, player, out, capacity) : -1;
}

diabolo_status diabolo_position_apply_action(diabolo_position* position, int player, int action, diabolo_error* error) {
    return guarded(error, [&] {
        AnyPosition& p = *need(position, "diabolo_position_apply_action", "position").position;
        check_seat(p, player, false);
        p.apply_action(player, action);
    });
}

int diabolo_position_scores(const diabolo_position* position, int32_t* out, int capacity) {
    return position != nullptr ? scores_into(*position->position, out, capacity) : -1;
}

int diabolo_position_observation_tensor(const diabolo_position* position, int player, float* out, int capacity) {
    return position != nullptr ? tensor_into(*position->position, player, out, capacity) : -1;
}

diabolo_status diabolo_play_random(const diabolo_game* game, int games, uint64_t seed, int threads, int32_t* scores,
                                   int32_t* moves, diabolo_error* error) {
    return guarded(error, [&] {
        const AnyGame& g = *need(game, "diabolo_play_random", "game").game;
        if (games < 0 || games > 100000000)
            throw OptionError("games must be 0..100000000, got " + std::to_string(games));
        if (threads < 1 || threads > kMaxThreads)
            throw OptionError("threads must be 1.." + std::to_string(kMaxThreads) + ", got " + std::to_string(threads));
        g.play_random(games, seed, threads, scores, moves);
    });
}

const char* diabolo_game_bots(const diabolo_game* game) { return game != nullptr ? game->game->bot_kinds() : ""; }

diabolo_status diabolo_bot_new(const diabolo_game* game, const char* kind, const char* options_json, diabolo_bot** out,
                               diabolo_error* error) {
    if (out != nullptr) *out = nullptr;
    return guarded(error, [&] {
        const auto& g = need(game, "diabolo_bot_new", "game").game;
        need(kind, "diabolo_bot_new", "kind");
        need(out, "diabolo_bot_new", "out");
        const json::Value options = json_argument(options_json, "a bot's options", true);
        *out = new diabolo_bot{g, g->bot(kind, options)};
    });
}

void diabolo_bot_free(diabolo_bot* bot) { delete bot; }

diabolo_status diabolo_bot_choose(const diabolo_bot* bot, const diabolo_state* state, int player, uint64_t seed,
                                  int32_t* action, char** notation, int64_t* delay_us, diabolo_error* error) {
    if (action != nullptr) *action = DIABOLO_WAIT;
    if (notation != nullptr) *notation = nullptr;
    if (delay_us != nullptr) *delay_us = 0;
    BotChoice choice;
    const diabolo_status status = guarded(error, [&] {
        const AnyBot& b = *need(bot, "diabolo_bot_choose", "bot").bot;
        const AnyState& s = *need(state, "diabolo_bot_choose", "state").state;
        check_seat(s, player, false);
        choice = b.choose(s, player, seed);
        if (notation != nullptr && !choice.notation.empty()) {
            *notation = c_string(choice.notation);
            if (*notation == nullptr) throw std::bad_alloc();
        }
    });
    if (status != DIABOLO_OK) return status;
    if (action != nullptr) *action = choice.action;
    if (delay_us != nullptr) *delay_us = choice.delay;
    return status;
}

void diabolo_string_free(char* text) { std::free(text); }

}  // extern "C"
