/* The C API (diabolo/diabolo.h) from plain C99: seeded games of every game, each move
 * picked from the legal actions by a small generator that the Python test reproduces
 * (tests/test_capi.py), so both languages must reach the same final state. Checks along
 * the way: bad input is refused and changes nothing, clones and JSON round trips are
 * equal, views and events are JSON, batch play does not depend on the thread count.
 * Prints one line per game, "<name> <seed> <moves> <final state JSON>", then "ok". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diabolo/diabolo.h"

static int failures = 0;

#define CHECK(condition)                                                                  \
    do {                                                                                  \
        if (!(condition)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #condition); \
            ++failures;                                                                   \
        }                                                                                 \
    } while (0)

/* The move picker both languages share: x = x * 6364136223846793005 + 1442695040888963407
 * (mod 2^64), and the pick is (x >> 33) % n. */
static uint64_t next_pick(uint64_t* x, uint64_t n) {
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (*x >> 33) % n;
}

static int lowest_seat(uint32_t seats) {
    int seat = 0;
    while (!((seats >> seat) & 1u)) ++seat;
    return seat;
}

static void play(const char* name, const char* options, uint64_t seed, int max_moves) {
    diabolo_error error;
    diabolo_game* game = NULL;
    CHECK(diabolo_game_new(name, options, &game, &error) == DIABOLO_OK);
    if (game == NULL) {
        fprintf(stderr, "%s: %s\n", name, error.message);
        return;
    }
    diabolo_state* state = NULL;
    CHECK(diabolo_state_new(game, seed, &state, &error) == DIABOLO_OK);
    const int players = diabolo_game_players(game);
    const int actions = diabolo_game_num_actions(game);
    int32_t* legal = malloc(sizeof(int32_t) * (size_t)actions);
    uint8_t* mask = malloc((size_t)actions);
    uint64_t x = seed;
    int moves = 0;
    while (!diabolo_state_is_terminal(state) && moves < max_moves) {
        const uint32_t pending = diabolo_state_pending_seats(state);
        CHECK(pending != 0);
        const int seat = lowest_seat(pending);
        const int n = diabolo_state_legal_actions(state, seat, legal, actions);
        CHECK(n > 0 && diabolo_state_legal_mask(state, seat, mask, actions) == n);
        const int action = legal[next_pick(&x, (uint64_t)n)];
        CHECK(mask[action] == 1);
        if (moves % 17 == 0) { /* bad input changes nothing */
            char* before = diabolo_state_to_json(state);
            CHECK(diabolo_state_apply_action(state, players, action, &error) == DIABOLO_BAD_PLAYER);
            CHECK(diabolo_state_apply_move(state, seat, "not a move", &error) == DIABOLO_BAD_NOTATION);
            CHECK(strlen(error.clause) > 0 && strcmp(error.code, "bad_notation") == 0);
            CHECK(diabolo_state_apply_action(state, seat, actions, &error) == DIABOLO_BAD_NOTATION);
            char* after = diabolo_state_to_json(state);
            CHECK(strcmp(before, after) == 0);
            diabolo_string_free(before);
            diabolo_string_free(after);
            char* view = diabolo_state_observation(state, seat, &error);
            char* public_view = diabolo_state_observation(state, DIABOLO_SPECTATOR, &error);
            CHECK(view != NULL && view[0] == '{' && public_view != NULL && public_view[0] == '{');
            CHECK(diabolo_state_observation(state, players, &error) == NULL && error.status == DIABOLO_BAD_PLAYER);
            diabolo_string_free(view);
            diabolo_string_free(public_view);
            diabolo_state* guess = NULL;
            CHECK(diabolo_state_resample(state, seat, (uint64_t)moves, &guess, &error) == DIABOLO_OK);
            diabolo_state_free(guess);
        }
        if (moves % 2 == 0) {
            CHECK(diabolo_state_apply_action(state, seat, action, &error) == DIABOLO_OK);
        } else { /* the same move by its notation */
            char* notation = diabolo_game_action_notation(game, action, &error);
            CHECK(notation != NULL);
            CHECK(diabolo_state_apply_move(state, seat, notation, &error) == DIABOLO_OK);
            diabolo_string_free(notation);
        }
        ++moves;
        CHECK(diabolo_state_version(state) == (uint64_t)moves);
        char* events = diabolo_state_events(state, DIABOLO_SPECTATOR, &error);
        CHECK(events != NULL && events[0] == '[');
        diabolo_string_free(events);
    }
    /* Clones and the JSON round trip give the same state. */
    diabolo_state* copy = diabolo_state_clone(state);
    char* text = diabolo_state_to_json(state);
    char* copied = diabolo_state_to_json(copy);
    CHECK(strcmp(text, copied) == 0);
    diabolo_state* loaded = NULL;
    CHECK(diabolo_state_from_json(game, text, &loaded, &error) == DIABOLO_OK);
    char* reloaded = diabolo_state_to_json(loaded);
    CHECK(strcmp(text, reloaded) == 0);
    diabolo_state* bad = NULL;
    CHECK(diabolo_state_from_json(game, "{}", &bad, &error) == DIABOLO_BAD_STATE && bad == NULL);
    printf("%s %llu %d %s\n", name, (unsigned long long)seed, moves, text);
    diabolo_string_free(text);
    diabolo_string_free(copied);
    diabolo_string_free(reloaded);
    diabolo_state_free(copy);
    diabolo_state_free(loaded);
    /* The game may go before its states. */
    diabolo_game_free(game);
    diabolo_state_free(state);
    free(legal);
    free(mask);
}

static void batch(const char* name, const char* options) {
    diabolo_error error;
    diabolo_game* game = NULL;
    CHECK(diabolo_game_new(name, options, &game, &error) == DIABOLO_OK);
    const int players = diabolo_game_players(game);
    int32_t one[8 * 6], two[8 * 6], moves_one[6], moves_two[6];
    CHECK(diabolo_play_random(game, 6, 42, 1, one, moves_one, &error) == DIABOLO_OK);
    CHECK(diabolo_play_random(game, 6, 42, 2, two, moves_two, &error) == DIABOLO_OK);
    CHECK(memcmp(one, two, sizeof(int32_t) * (size_t)(6 * players)) == 0);
    CHECK(memcmp(moves_one, moves_two, sizeof moves_one) == 0);
    CHECK(diabolo_play_random(game, 6, 42, 0, one, moves_one, &error) == DIABOLO_BAD_OPTION);
    diabolo_game_free(game);
}

int main(void) {
    static const char* knizia =
        "{\"players\": 3, \"lexicon\": [\"Tor\", \"Rot\", \"Ort\", \"Tore\", \"Rest\", \"Rast\", \"Rate\", \"Stern\","
        " \"Nest\", \"Ernst\", \"Nase\", \"Rasen\", \"Aster\", \"Taste\", \"Osten\", \"Tee\", \"See\"],"
        " \"deck\": {\"language\": \"\", \"cards\": {\"A\": 3, \"E\": 4, \"N\": 2, \"O\": 2, \"R\": 3, \"S\": 3,"
        " \"T\": 4, \"ST\": 1, \"?\": 1, \"??\": 1}}}";
    diabolo_error error;
    diabolo_game* none = NULL;
    CHECK(diabolo_api_version() == DIABOLO_API_VERSION && strlen(diabolo_version()) > 0);
    CHECK(diabolo_game_new("chess", NULL, &none, &error) == DIABOLO_BAD_OPTION && none == NULL);
    CHECK(strstr(error.message, "chess") != NULL && strcmp(error.code, "bad_option") == 0);
    CHECK(diabolo_game_new("schacht", "{\"players\": 9}", &none, &error) == DIABOLO_BAD_OPTION);
    CHECK(diabolo_game_new("schacht", "{not json", &none, &error) == DIABOLO_BAD_STATE);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        play("schacht", "{\"players\": 3}", seed, 2000);
        play("duvelen", "{\"players\": 2, \"max_actions\": 300}", seed, 2000);
        play("knizia", knizia, seed, 400);
    }
    batch("schacht", NULL);
    batch("duvelen", "{\"players\": 3, \"max_actions\": 500}");
    batch("knizia", knizia);
    if (failures != 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
