# cython: language_level=3
# The C API of diabolo (diabolo/diabolo.h) for Cython: ``from diabolo cimport capi``.
#
# Every function is declared nogil: it touches no Python object, so a search loop can run
# with the GIL released. Build the extension with include_dirs=[diabolo.get_include()],
# library_dirs and runtime_library_dirs=[diabolo.get_library_dir()] and
# libraries=["diabolo"] (docs: "Embedding diabolo"). The header states who frees each
# buffer; docs/examples/cython/flat_mc_cython.pyx is a whole search written against it.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t


cdef extern from "diabolo/diabolo.h" nogil:
    int DIABOLO_API_VERSION
    int DIABOLO_SPECTATOR
    int DIABOLO_SIMULTANEOUS
    int DIABOLO_TERMINAL
    int DIABOLO_WAIT

    ctypedef enum diabolo_status:
        DIABOLO_OK
        DIABOLO_ILLEGAL_MOVE
        DIABOLO_STALE_MOVE
        DIABOLO_BAD_NOTATION
        DIABOLO_BAD_OPTION
        DIABOLO_BAD_STATE
        DIABOLO_BAD_PLAYER
        DIABOLO_LIMIT
        DIABOLO_ERROR
        DIABOLO_BAD_ARGUMENT

    ctypedef struct diabolo_error:
        diabolo_status status
        char code[48]
        char clause[16]
        char message[512]

    ctypedef struct diabolo_game:
        pass
    ctypedef struct diabolo_state:
        pass
    ctypedef struct diabolo_bot:
        pass
    ctypedef struct diabolo_position:
        pass

    const char* diabolo_version()
    int diabolo_api_version()
    const char* diabolo_games()
    const char* diabolo_catalogue()

    diabolo_status diabolo_game_new(const char* name, const char* options_json, diabolo_game** out,
                                    diabolo_error* error)
    diabolo_status diabolo_game_new_with_lexicon(const char* name, const char* options_json, const void* lexicon,
                                                 size_t lexicon_size, diabolo_game** out, diabolo_error* error)
    void diabolo_game_free(diabolo_game* game)
    int diabolo_game_players(const diabolo_game* game)
    int diabolo_game_num_actions(const diabolo_game* game)
    int diabolo_game_real_time(const diabolo_game* game)
    char* diabolo_game_options(const diabolo_game* game)
    char* diabolo_game_action_notation(const diabolo_game* game, int action, diabolo_error* error)
    const char* diabolo_game_bots(const diabolo_game* game)

    diabolo_status diabolo_state_new(const diabolo_game* game, uint64_t seed, diabolo_state** out,
                                     diabolo_error* error)
    diabolo_status diabolo_state_deal(const diabolo_game* game, uint64_t seed, const char* deal_json,
                                      diabolo_state** out, diabolo_error* error)
    diabolo_status diabolo_state_from_json(const diabolo_game* game, const char* json, diabolo_state** out,
                                           diabolo_error* error)
    diabolo_state* diabolo_state_clone(const diabolo_state* state)
    void diabolo_state_free(diabolo_state* state)

    int diabolo_state_current_player(const diabolo_state* state)
    uint32_t diabolo_state_pending_seats(const diabolo_state* state)
    int diabolo_state_is_terminal(const diabolo_state* state)
    uint64_t diabolo_state_version(const diabolo_state* state)
    int diabolo_state_legal_actions(const diabolo_state* state, int player, int32_t* out, int capacity)
    int diabolo_state_legal_mask(const diabolo_state* state, int player, uint8_t* mask, int capacity)
    diabolo_status diabolo_state_apply_action(diabolo_state* state, int player, int action, diabolo_error* error)
    diabolo_status diabolo_state_apply_move(diabolo_state* state, int player, const char* notation,
                                            diabolo_error* error)
    int diabolo_state_scores(const diabolo_state* state, int32_t* out, int capacity)
    int diabolo_state_observation_tensor(const diabolo_state* state, int player, float* out, int capacity)
    char* diabolo_state_observation(const diabolo_state* state, int player, diabolo_error* error)
    char* diabolo_state_events(const diabolo_state* state, int player, diabolo_error* error)
    char* diabolo_state_to_json(const diabolo_state* state)
    diabolo_status diabolo_state_resample(const diabolo_state* state, int player, uint64_t seed,
                                          diabolo_state** out, diabolo_error* error)

    # Positions: a state's table without its record, for search (copying allocates nothing,
    # playing records nothing).
    diabolo_status diabolo_state_position(const diabolo_state* state, diabolo_position** out,
                                          diabolo_error* error)
    diabolo_position* diabolo_position_clone(const diabolo_position* position)
    diabolo_status diabolo_position_copy(diabolo_position* into, const diabolo_position* from_,
                                         diabolo_error* error)
    diabolo_status diabolo_position_resample(const diabolo_position* from_, int player, uint64_t seed,
                                             diabolo_position* into, diabolo_error* error)
    void diabolo_position_free(diabolo_position* position)
    int diabolo_position_current_player(const diabolo_position* position)
    uint32_t diabolo_position_pending_seats(const diabolo_position* position)
    int diabolo_position_is_terminal(const diabolo_position* position)
    int diabolo_position_legal_actions(const diabolo_position* position, int player, int32_t* out, int capacity)
    diabolo_status diabolo_position_apply_action(diabolo_position* position, int player, int action,
                                                 diabolo_error* error)
    int diabolo_position_scores(const diabolo_position* position, int32_t* out, int capacity)
    int diabolo_position_observation_tensor(const diabolo_position* position, int player, float* out,
                                            int capacity)

    diabolo_status diabolo_play_random(const diabolo_game* game, int games, uint64_t seed, int threads,
                                       int32_t* scores, int32_t* moves, diabolo_error* error)

    diabolo_status diabolo_bot_new(const diabolo_game* game, const char* kind, const char* options_json,
                                   diabolo_bot** out, diabolo_error* error)
    void diabolo_bot_free(diabolo_bot* bot)
    diabolo_status diabolo_bot_choose(const diabolo_bot* bot, const diabolo_state* state, int player,
                                      uint64_t seed, int32_t* action, char** notation, int64_t* delay_us,
                                      diabolo_error* error)

    void diabolo_string_free(char* text)
