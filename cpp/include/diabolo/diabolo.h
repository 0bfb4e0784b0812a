/* The C API of diabolo: every game of the engine from C, C#, GDScript, Rust or anything else
 * that calls C. Nothing of C++ crosses it: games and states are opaque handles, text is
 * UTF-8, views, events and states are JSON text, and no exception leaves a function.
 *
 * Ownership, for every function:
 *   - a handle returned through an out-parameter (diabolo_game_new, diabolo_state_new, ...)
 *     belongs to the caller, who frees it with diabolo_game_free or diabolo_state_free;
 *   - a char* returned by a function (views, events, JSON) is a new, NUL-terminated buffer
 *     that the caller frees with diabolo_string_free; NULL means an error (see `error`);
 *   - text and buffers passed in stay the caller's and are not kept;
 *   - a state or position keeps its game alive: a game may be freed before the states and
 *     positions made from it.
 * Errors: functions that can fail return a diabolo_status and, when `error` is not NULL,
 * fill it (its message names the rule broken or what was wrong); a failed call changes
 * nothing. States are values: a state may be read from several threads at once, but a
 * state that one thread changes needs a lock.
 *
 * NULL: no function crashes on a NULL handle, text or out-pointer it needs. Those that
 * return a diabolo_status return DIABOLO_BAD_ARGUMENT (code "null_argument", the message
 * naming the function and the argument); those that return text return NULL (with `error`
 * filled where they take one); diabolo_game_bots returns ""; those that return a number
 * return -1, except diabolo_state_pending_seats, diabolo_position_pending_seats and
 * diabolo_state_version, which return 0. The *_free functions accept NULL. Optional
 * arguments say so: options JSON, a deal, a legal-action or score buffer, and a bot's
 * action, notation and delay out-pointers may be NULL. A handle that was freed, or that
 * is not one, cannot be detected. */
#ifndef DIABOLO_H
#define DIABOLO_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#if defined(DIABOLO_BUILDING)
#define DIABOLO_API __declspec(dllexport)
#else
#define DIABOLO_API __declspec(dllimport)
#endif
#else
#define DIABOLO_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this API: a program built against version N runs with any library whose
 * diabolo_api_version() is N. */
#define DIABOLO_API_VERSION 1

/* The library's version: the one place it is written (CMake, setup.py, the Python package
 * and the tests read it from here). */
#define DIABOLO_VERSION "0.1.0"

/* The seat of a spectator (views and events), and the values of current_player that are not
 * seats (as in Python and OpenSpiel). */
#define DIABOLO_SPECTATOR (-1)
#define DIABOLO_SIMULTANEOUS (-2)
#define DIABOLO_TERMINAL (-4)
/* The action a bot gives when it waits for the table to change (real time), or when its
 * seat has nothing to do now. */
#define DIABOLO_WAIT (-1)

typedef enum diabolo_status {
    DIABOLO_OK = 0,
    DIABOLO_ILLEGAL_MOVE = 1, /* the rules forbid the move now (error->clause names the rule) */
    DIABOLO_STALE_MOVE = 2,   /* legal on an older version of the table, lost a race */
    DIABOLO_BAD_NOTATION = 3, /* not a move of the game */
    DIABOLO_BAD_OPTION = 4,   /* an unknown game, bot, option or argument; options that are not JSON */
    DIABOLO_BAD_STATE = 5,    /* state JSON that is not a state of the game */
    DIABOLO_BAD_PLAYER = 6,   /* no such seat */
    DIABOLO_LIMIT = 7,        /* work past one of the engine's documented limits */
    DIABOLO_ERROR = 8,        /* anything else (out of memory) */
    DIABOLO_BAD_ARGUMENT = 9  /* NULL where the function needs a handle, text or out-pointer */
} diabolo_status;

/* What went wrong: the status, the error's stable code ("side_full"), the rule's clause
 * ("S3.2", empty if none) and the English message, each NUL-terminated and cut to fit. */
typedef struct diabolo_error {
    diabolo_status status;
    char code[48];
    char clause[16];
    char message[512];
} diabolo_error;

typedef struct diabolo_game diabolo_game;
typedef struct diabolo_state diabolo_state;
typedef struct diabolo_bot diabolo_bot;
typedef struct diabolo_position diabolo_position;

/* The library's version (DIABOLO_VERSION of its build) and API version (DIABOLO_API_VERSION of its build). */
DIABOLO_API const char* diabolo_version(void);
DIABOLO_API int diabolo_api_version(void);

/* The ids of the games, comma-separated and sorted ("duvelen,knizia,schacht"): a static string. */
DIABOLO_API const char* diabolo_games(void);
/* The catalogue of games as a JSON list, a static string: each game's "name", "title",
 * "min_players" and "max_players" (what its default options allow), "min_players_any" and
 * "max_players_any" (what some options allow), "real_time", "listed"
 * (false for a game that exists for the tests only, which diabolo_games leaves out, though
 * diabolo_game_new makes it), "bots" (its bot kinds), "lexicon" (the option naming its
 * word list, or null) and "stand_in" (the bot kind that plays on for a person who leaves a
 * game under way). */
DIABOLO_API const char* diabolo_catalogue(void);

/* A game by id with its options as a JSON object ({"players": 3}; NULL or "" for the
 * defaults). A Knizia game needs "lexicon" (a list of words) and "deck". */
DIABOLO_API diabolo_status diabolo_game_new(const char* name, const char* options_json, diabolo_game** out,
                                            diabolo_error* error);
/* A Knizia game with its word list in the binary form Python's diabolo.Lexicon.to_bytes()
 * writes (checked completely; DIABOLO_BAD_STATE if it is not one): what a web page fetches
 * instead of building the list from words. The bytes are read, not kept. */
DIABOLO_API diabolo_status diabolo_game_new_with_lexicon(const char* name, const char* options_json,
                                                         const void* lexicon, size_t lexicon_size, diabolo_game** out,
                                                         diabolo_error* error);
DIABOLO_API void diabolo_game_free(diabolo_game* game);
DIABOLO_API int diabolo_game_players(const diabolo_game* game);
DIABOLO_API int diabolo_game_num_actions(const diabolo_game* game);
/* 1 if the game is played in real time (Duvelen D3, Knizia K3.2): no turns, every seat with a
 * legal move may move, moves apply in the order they arrive, and the current player is never
 * a seat; 0 if it is played in turns (Schacht S2.3). */
DIABOLO_API int diabolo_game_real_time(const diabolo_game* game);
/* Every option with its value, as a JSON object. */
DIABOLO_API char* diabolo_game_options(const diabolo_game* game);

/* A new game shuffled from `seed`, or the state a JSON text (diabolo_state_to_json) holds. */
DIABOLO_API diabolo_status diabolo_state_new(const diabolo_game* game, uint64_t seed, diabolo_state** out,
                                             diabolo_error* error);
/* A new game dealt from a given deal, a JSON object in the game's deal format (Schacht
 * {"deck": [...]} or {"decks": [...]}, S2.4; Duvelen {"decks": [...]}, D2.5; Knizia
 * {"deck": [...]} or {"decks": [...]}, K10.7); what it leaves out is shuffled from `seed`.
 * DIABOLO_BAD_STATE names what is wrong with the deal. */
DIABOLO_API diabolo_status diabolo_state_deal(const diabolo_game* game, uint64_t seed, const char* deal_json,
                                              diabolo_state** out, diabolo_error* error);
DIABOLO_API diabolo_status diabolo_state_from_json(const diabolo_game* game, const char* json, diabolo_state** out,
                                                   diabolo_error* error);
/* An independent copy (NULL when out of memory). */
DIABOLO_API diabolo_state* diabolo_state_clone(const diabolo_state* state);
DIABOLO_API void diabolo_state_free(diabolo_state* state);

/* A seat, DIABOLO_SIMULTANEOUS or DIABOLO_TERMINAL; the seats that may or must act now,
 * one bit each; whether the game is over; the number of moves applied (the version). */
DIABOLO_API int diabolo_state_current_player(const diabolo_state* state);
DIABOLO_API uint32_t diabolo_state_pending_seats(const diabolo_state* state);
DIABOLO_API int diabolo_state_is_terminal(const diabolo_state* state);
DIABOLO_API uint64_t diabolo_state_version(const diabolo_state* state);

/* The legal action ids of `player`, ascending, into out[0 .. capacity); returns how many
 * there are (more than `capacity` means only the first `capacity` were written), or -1
 * for a seat that does not exist. A buffer of diabolo_game_num_actions ids always fits. */
DIABOLO_API int diabolo_state_legal_actions(const diabolo_state* state, int player, int32_t* out, int capacity);
/* mask[id] = 1 for each legal id of `player`, 0 otherwise, for ids below `capacity`;
 * returns the number of legal ids, or -1 for a seat that does not exist. */
DIABOLO_API int diabolo_state_legal_mask(const diabolo_state* state, int player, uint8_t* mask, int capacity);

/* Plays an action id, or a move in the game's notation ("G5<", "R2:7h>3", "LAGER"), for
 * `player`. DIABOLO_ILLEGAL_MOVE (and the rest) change nothing. */
DIABOLO_API diabolo_status diabolo_state_apply_action(diabolo_state* state, int player, int action,
                                                      diabolo_error* error);
DIABOLO_API diabolo_status diabolo_state_apply_move(diabolo_state* state, int player, const char* notation,
                                                    diabolo_error* error);

/* Each seat's score so far into out[0 .. capacity); returns the number of seats. */
DIABOLO_API int diabolo_state_scores(const diabolo_state* state, int32_t* out, int capacity);

/* The observation tensor of `player` (what that seat may know, as floats: the layout of
 * Python's state.observation_tensor(player)) into out[0 .. size); returns its size, writing
 * nothing when `capacity` is smaller (call with NULL, 0 to learn it), or -1 for a seat
 * that does not exist. */
DIABOLO_API int diabolo_state_observation_tensor(const diabolo_state* state, int player, float* out, int capacity);

/* JSON text: the view of `player` (DIABOLO_SPECTATOR: the public view), the events of the
 * last move as `player` sees them (a JSON list), the whole state. NULL with `error` set for
 * a seat that does not exist. Free each with diabolo_string_free. */
DIABOLO_API char* diabolo_state_observation(const diabolo_state* state, int player, diabolo_error* error);
DIABOLO_API char* diabolo_state_events(const diabolo_state* state, int player, diabolo_error* error);
DIABOLO_API char* diabolo_state_to_json(const diabolo_state* state);
/* The notation of an action id ("G5<"), for logs and menus. */
DIABOLO_API char* diabolo_game_action_notation(const diabolo_game* game, int action, diabolo_error* error);

/* Determinisation: what `player` cannot see dealt anew from `seed`. */
DIABOLO_API diabolo_status diabolo_state_resample(const diabolo_state* state, int player, uint64_t seed,
                                                  diabolo_state** out, diabolo_error* error);

/* Positions, for search: a position is a state's table alone, without its record (the
 * moves that led to it, the deals given for later rounds, the last move's events), so that
 * copying one allocates nothing and playing on one records nothing: what search code
 * copies and plays millions of times. A position gives the same legal actions, scores and
 * tensor as its state, and a move checked the same way; views, events and JSON need a
 * state. The functions below mirror the diabolo_state_ functions of the same name.
 *
 * diabolo_state_position makes a new position, the state's; diabolo_position_clone an
 * independent copy (NULL when out of memory); diabolo_position_copy overwrites `into` with
 * `from`, and diabolo_position_resample with the determinisation of `from` for `player`
 * (what that seat cannot see dealt anew from `seed`: the position of
 * diabolo_state_resample's state), reusing `into`'s memory; `into` must be a position of
 * the same game (a Schacht position takes any Schacht position, options included;
 * DIABOLO_BAD_OPTION for another game) and may be `from` itself. */
DIABOLO_API diabolo_status diabolo_state_position(const diabolo_state* state, diabolo_position** out,
                                                  diabolo_error* error);
DIABOLO_API diabolo_position* diabolo_position_clone(const diabolo_position* position);
DIABOLO_API diabolo_status diabolo_position_copy(diabolo_position* into, const diabolo_position* from,
                                                 diabolo_error* error);
DIABOLO_API diabolo_status diabolo_position_resample(const diabolo_position* from, int player, uint64_t seed,
                                                     diabolo_position* into, diabolo_error* error);
DIABOLO_API void diabolo_position_free(diabolo_position* position);
DIABOLO_API int diabolo_position_current_player(const diabolo_position* position);
DIABOLO_API uint32_t diabolo_position_pending_seats(const diabolo_position* position);
DIABOLO_API int diabolo_position_is_terminal(const diabolo_position* position);
DIABOLO_API int diabolo_position_legal_actions(const diabolo_position* position, int player, int32_t* out,
                                               int capacity);
/* Checked like diabolo_state_apply_action (DIABOLO_ILLEGAL_MOVE and the rest change
 * nothing); nothing is recorded. */
DIABOLO_API diabolo_status diabolo_position_apply_action(diabolo_position* position, int player, int action,
                                                         diabolo_error* error);
DIABOLO_API int diabolo_position_scores(const diabolo_position* position, int32_t* out, int capacity);
DIABOLO_API int diabolo_position_observation_tensor(const diabolo_position* position, int player, float* out,
                                                    int capacity);

/* `games` whole games of uniformly random legal moves on `threads` threads; game i's final
 * scores go to scores[i * players .. (i + 1) * players) and its number of moves to
 * moves[i] (either may be NULL). The same seed gives the same games for any thread count. */
DIABOLO_API diabolo_status diabolo_play_random(const diabolo_game* game, int games, uint64_t seed, int threads,
                                               int32_t* scores, int32_t* moves, diabolo_error* error);

/* The kinds of bots of a game, comma-separated ("heuristic,ismcts,learned,random"): a static string. */
DIABOLO_API const char* diabolo_game_bots(const diabolo_game* game);
/* A bot of `game` by kind, with its options as a JSON object (NULL or "" for the defaults):
 * Schacht "ismcts" takes iterations, threads, exploration, heuristic_rollouts, prior, tree and
 * belief,
 * "learned" weights (a list of 17 numbers; default: the trained ones);
 * Knizia "word" and "lookahead" take max_length, coverage, memory and per_letter, "search"
 * those and worlds and horizon, "random" per_letter; Duvelen "search" takes worlds and
 * horizon; the others take none. The bots are
 * those of Python's diabolo.<game> modules, with their default reaction times. */
DIABOLO_API diabolo_status diabolo_bot_new(const diabolo_game* game, const char* kind, const char* options_json,
                                           diabolo_bot** out, diabolo_error* error);
DIABOLO_API void diabolo_bot_free(diabolo_bot* bot);
/* The move `bot` makes for `player` now, from what that seat may know, its random choices
 * drawn from `seed`: the action id into *action and, if `notation` is not NULL, the move's
 * notation into a new buffer *notation (free it with diabolo_string_free); DIABOLO_WAIT and
 * NULL when the bot waits or the seat has nothing to do. *delay_us (if not NULL) gets the
 * microseconds after which the bot would act in live play (0 in Schacht). The same state,
 * seat and seed give the same move as Python's bot.choose(state, player, seed) and the same
 * delay as bot.propose(state, player, seed). A Knizia claim's action id is its word's (the
 * best assignment of cards); its notation names the cards. */
DIABOLO_API diabolo_status diabolo_bot_choose(const diabolo_bot* bot, const diabolo_state* state, int player,
                                              uint64_t seed, int32_t* action, char** notation, int64_t* delay_us,
                                              diabolo_error* error);

DIABOLO_API void diabolo_string_free(char* text);

#ifdef __cplusplus
}
#endif

#endif /* DIABOLO_H */
