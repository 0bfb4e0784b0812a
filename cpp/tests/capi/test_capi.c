/* The C API (diabolo/diabolo.h) from plain C99: seeded games of every game, each move
 * picked from the legal actions by a small generator that the Python test reproduces
 * (tests/capi_replay.py), so both languages must reach the same final state. Checks along
 * the way: bad input is refused and changes nothing, clones and JSON round trips are
 * equal, views and events are JSON, batch play does not depend on the thread count.
 * A position follows each game move by move (the same legal actions, seats and scores as
 * its state, and a determinisation equal to the state's).
 * Then every golden transcript named on the command line (tests/transcripts.py: moves,
 * bots, legal actions, views, events and scores) is replayed and checked line by line,
 * and a lexicon file given as lexicon=<path> (Lexicon.to_bytes() of the transcripts'
 * words) makes the same game as the words do.
 * Prints one line per game, "<name> <seed> <moves> <final state JSON>", one line per
 * transcript, "<path> <lines>", then "ok". */
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

/* Whether two positions show every seat the same tensor (what positions hold, as numbers). */
static int same_tensors(const diabolo_position* a, const diabolo_position* b, int players) {
    const int size = diabolo_position_observation_tensor(a, 0, NULL, 0);
    float* one = malloc(sizeof(float) * (size_t)size);
    float* two = malloc(sizeof(float) * (size_t)size);
    int seat, same = 1;
    for (seat = 0; seat < players && same; ++seat) {
        CHECK(diabolo_position_observation_tensor(a, seat, one, size) == size);
        CHECK(diabolo_position_observation_tensor(b, seat, two, size) == size);
        same = memcmp(one, two, sizeof(float) * (size_t)size) == 0;
    }
    free(one);
    free(two);
    return same;
}

/* The position follows its state: the same seats, legal ids and scores; bad moves are
 * refused and change nothing; its determinisation is the state's. */
static void check_position(diabolo_position* position, const diabolo_state* state, int seat, int checks, int32_t* legal,
                           int32_t* position_legal, int actions, uint64_t seed) {
    diabolo_error error;
    const int players = diabolo_position_scores(position, NULL, 0);
    const int n = diabolo_state_legal_actions(state, seat, legal, actions);
    int32_t scores[8], position_scores[8];
    CHECK(diabolo_position_pending_seats(position) == diabolo_state_pending_seats(state));
    CHECK(diabolo_position_current_player(position) == diabolo_state_current_player(state));
    CHECK(diabolo_position_legal_actions(position, seat, position_legal, actions) == n);
    CHECK(memcmp(legal, position_legal, sizeof(int32_t) * (size_t)n) == 0);
    CHECK(diabolo_position_scores(position, position_scores, 8) == diabolo_state_scores(state, scores, 8));
    CHECK(memcmp(scores, position_scores, sizeof(int32_t) * (size_t)players) == 0);
    if (!checks) return;
    {
        diabolo_position* before = diabolo_position_clone(position);
        diabolo_position* guess = diabolo_position_clone(position);
        diabolo_position* expected = NULL;
        diabolo_state* state_guess = NULL;
        int32_t unlisted = 0;
        while (unlisted < n && legal[unlisted] == unlisted) ++unlisted; /* the first id not listed */
        CHECK(diabolo_position_apply_action(position, players, legal[0], &error) == DIABOLO_BAD_PLAYER);
        CHECK(diabolo_position_apply_action(position, seat, actions, &error) == DIABOLO_BAD_NOTATION);
        CHECK(diabolo_position_apply_action(position, seat, unlisted, &error) == DIABOLO_ILLEGAL_MOVE);
        CHECK(strlen(error.clause) > 0 && strlen(error.message) > 0);
        CHECK(same_tensors(position, before, players));
        CHECK(diabolo_position_resample(position, players, seed, guess, &error) == DIABOLO_BAD_PLAYER);
        CHECK(diabolo_position_resample(position, seat, seed, guess, &error) == DIABOLO_OK);
        CHECK(diabolo_state_resample(state, seat, seed, &state_guess, &error) == DIABOLO_OK);
        CHECK(diabolo_state_position(state_guess, &expected, &error) == DIABOLO_OK);
        CHECK(same_tensors(guess, expected, players));
        CHECK(diabolo_position_copy(guess, position, &error) == DIABOLO_OK && same_tensors(guess, position, players));
        diabolo_position_free(before);
        diabolo_position_free(guess);
        diabolo_position_free(expected);
        diabolo_state_free(state_guess);
    }
}

static void play(const char* name, const char* options, uint64_t seed, int max_moves, const char* tag) {
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
    int32_t* position_legal = malloc(sizeof(int32_t) * (size_t)actions);
    uint8_t* mask = malloc((size_t)actions);
    uint64_t x = seed;
    int moves = 0;
    diabolo_position* position = NULL;
    CHECK(diabolo_state_position(state, &position, &error) == DIABOLO_OK && position != NULL);
    while (!diabolo_state_is_terminal(state) && moves < max_moves) {
        const uint32_t pending = diabolo_state_pending_seats(state);
        CHECK(pending != 0);
        const int seat = lowest_seat(pending);
        /* In real time no seat has the turn; in turns the seat to move is the only one. */
        const int current = diabolo_state_current_player(state);
        CHECK(strcmp(name, "schacht") != 0 || !diabolo_game_real_time(game)); /* S2.3 */
        CHECK((strcmp(name, "duvelen") != 0 && strcmp(name, "knizia") != 0) || diabolo_game_real_time(game));
        CHECK(diabolo_game_real_time(game) ? current == DIABOLO_SIMULTANEOUS : current < 0 || pending == 1u << current);
        check_position(position, state, seat, moves % 17 == 0, legal, position_legal, actions, seed + (uint64_t)moves);
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
        CHECK(diabolo_position_apply_action(position, seat, action, &error) == DIABOLO_OK);
        ++moves;
        CHECK(diabolo_state_version(state) == (uint64_t)moves);
        char* events = diabolo_state_events(state, DIABOLO_SPECTATOR, &error);
        CHECK(events != NULL && events[0] == '[');
        diabolo_string_free(events);
    }
    CHECK(diabolo_position_is_terminal(position) == diabolo_state_is_terminal(state));
    check_position(position, state, 0, 0, legal, position_legal, actions, seed);
    diabolo_position_free(position);
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
    printf("%s %llu %d %s\n", tag, (unsigned long long)seed, moves, text);
    diabolo_string_free(text);
    diabolo_string_free(copied);
    diabolo_string_free(reloaded);
    diabolo_state_free(copy);
    diabolo_state_free(loaded);
    /* The game may go before its states. */
    diabolo_game_free(game);
    diabolo_state_free(state);
    free(legal);
    free(position_legal);
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

/* The whole of a file as a NUL-terminated buffer (free it), and its size. */
static char* read_file(const char* path, size_t* size) {
    FILE* file = fopen(path, "rb");
    char* text = NULL;
    long length;
    if (file == NULL) return NULL;
    if (fseek(file, 0, SEEK_END) == 0 && (length = ftell(file)) >= 0 && fseek(file, 0, SEEK_SET) == 0) {
        text = (char*)malloc((size_t)length + 1);
        if (text != NULL && fread(text, 1, (size_t)length, file) == (size_t)length) {
            text[length] = '\0';
            *size = (size_t)length;
        } else {
            free(text);
            text = NULL;
        }
    }
    fclose(file);
    return text;
}

/* The next line of `*cursor` (cut at its newline, which is overwritten), or NULL. */
static char* next_line(char** cursor) {
    char* line = *cursor;
    char* end;
    if (line == NULL || *line == '\0') return NULL;
    end = strchr(line, '\n');
    if (end != NULL) {
        *end = '\0';
        *cursor = end + 1;
    } else {
        *cursor = line + strlen(line);
    }
    return line;
}

/* `line` without its tag ("view -1 {...}" gives "-1 {...}"), or NULL if the tag differs. */
static char* field(char* line, const char* tag) {
    const size_t n = strlen(tag);
    return strncmp(line, tag, n) == 0 && line[n] == ' ' ? line + n + 1 : NULL;
}

/* Whether a JSON text the API returned equals the golden one (and frees it). */
static int same_text(char* produced, const char* golden) {
    const int same = produced != NULL && strcmp(produced, golden) == 0;
    diabolo_string_free(produced);
    return same;
}

/* Replays one golden transcript; returns the number of lines checked. */
static int check_transcript(const char* path) {
    size_t size = 0;
    char* text = read_file(path, &size);
    char* cursor = text;
    char *line, *name, *options, *deal, *seed;
    int checked = 0, failed_before = failures;
    diabolo_game* game = NULL;
    diabolo_state* state = NULL;
    diabolo_bot* bot = NULL;
    char bot_kind[32] = "";
    diabolo_error error;
    if (text == NULL) {
        fprintf(stderr, "%s: cannot read it\n", path);
        ++failures;
        return 0;
    }
    CHECK((line = next_line(&cursor)) != NULL && strcmp(line, "diabolo.transcript/1") == 0);
    name = field(next_line(&cursor), "game");
    options = field(next_line(&cursor), "options");
    deal = field(next_line(&cursor), "deal");
    seed = field(next_line(&cursor), "seed");
    CHECK(name && options && deal && seed);
    if (!(name && options && deal && seed) || diabolo_game_new(name, options, &game, &error) != DIABOLO_OK ||
        diabolo_state_deal(game, strtoull(seed, NULL, 10), deal, &state, &error) != DIABOLO_OK) {
        fprintf(stderr, "%s: the header does not make a game: %s\n", path, error.message);
        ++failures;
        diabolo_game_free(game);
        free(text);
        return 0;
    }
    while ((line = next_line(&cursor)) != NULL && failures == failed_before) {
        char* rest;
        char* after;
        const int seat = (int)strtol(strchr(line, ' ') ? strchr(line, ' ') + 1 : line, &after, 10);
        ++checked;
        if ((rest = field(line, "bot")) != NULL) {
            char kind[32];
            int bot_seat, expected_action, action = 0;
            long long expected_delay;
            int64_t delay = 0;
            unsigned long long bot_seed;
            char expected_notation[256];
            char* notation = NULL;
            CHECK(sscanf(rest, "%31s %d %llu %d %lld %255s", kind, &bot_seat, &bot_seed, &expected_action,
                         &expected_delay, expected_notation) == 6);
            if (strcmp(kind, bot_kind) != 0) {
                diabolo_bot_free(bot);
                CHECK(diabolo_bot_new(game, kind, NULL, &bot, &error) == DIABOLO_OK);
                strcpy(bot_kind, kind);
            }
            CHECK(diabolo_bot_choose(bot, state, bot_seat, bot_seed, &action, &notation, &delay, &error) == DIABOLO_OK);
            CHECK(action == expected_action && delay == expected_delay);
            CHECK(notation == NULL ? strcmp(expected_notation, "-") == 0 : strcmp(notation, expected_notation) == 0);
            diabolo_string_free(notation);
        } else if ((rest = field(line, "legal")) != NULL) {
            int32_t ids[4096];
            const int n = diabolo_state_legal_actions(state, seat, ids, 4096);
            int i;
            CHECK(n >= 0 && n <= 4096);
            for (i = 0; i < n && n <= 4096; ++i) CHECK(strtol(after, &after, 10) == ids[i]);
            while (*after == ' ') ++after;
            CHECK(*after == '\0');
        } else if ((rest = field(line, "move")) != NULL) {
            CHECK(diabolo_state_apply_move(state, seat, after + 1, &error) == DIABOLO_OK);
        } else if ((rest = field(line, "events")) != NULL) {
            CHECK(same_text(diabolo_state_events(state, seat, &error), after + 1));
        } else if ((rest = field(line, "view")) != NULL) {
            CHECK(same_text(diabolo_state_observation(state, seat, &error), after + 1));
        } else if ((rest = field(line, "scores")) != NULL) {
            int32_t scores[16];
            const int n = diabolo_state_scores(state, scores, 16);
            int i;
            for (i = 0; i < n; ++i) CHECK(strtol(rest, &rest, 10) == scores[i]);
            CHECK(*rest == '\0');
        } else if (strcmp(line, "end") == 0) {
            break;
        } else {
            fprintf(stderr, "%s: unknown line %.40s\n", path, line);
            ++failures;
        }
        if (failures != failed_before) fprintf(stderr, "%s: line %d differs: %.200s\n", path, checked + 5, line);
    }
    CHECK(line != NULL && strcmp(line, "end") == 0);
    diabolo_bot_free(bot);
    diabolo_state_free(state);
    diabolo_game_free(game);
    free(text);
    return checked;
}

/* A Knizia game from a lexicon file (Lexicon.to_bytes()) is the game its words make; a
 * file that is not a lexicon is refused. */
static void check_lexicon_file(const char* path, const char* words_options) {
    size_t size = 0;
    char* bytes = read_file(path, &size);
    diabolo_game *from_words = NULL, *from_bytes = NULL, *refused = NULL;
    diabolo_error error;
    static const char* deck =
        "{\"players\": 3, \"deck\": {\"language\": \"\", \"cards\": {\"A\": 3, \"E\": 4, \"N\": 2, \"O\": 2,"
        " \"R\": 3, \"S\": 3, \"T\": 4, \"ST\": 1, \"?\": 1, \"??\": 1}}}";
    CHECK(bytes != NULL);
    if (bytes == NULL) return;
    CHECK(diabolo_game_new("knizia", words_options, &from_words, &error) == DIABOLO_OK);
    CHECK(diabolo_game_new_with_lexicon("knizia", deck, bytes, size, &from_bytes, &error) == DIABOLO_OK);
    if (from_words != NULL && from_bytes != NULL) {
        char* a = diabolo_game_options(from_words);
        CHECK(same_text(diabolo_game_options(from_bytes), a));
        diabolo_string_free(a);
    }
    CHECK(diabolo_game_new_with_lexicon("knizia", deck, bytes, size / 2, &refused, &error) == DIABOLO_BAD_STATE);
    CHECK(diabolo_game_new_with_lexicon("schacht", NULL, bytes, size, &refused, &error) == DIABOLO_BAD_OPTION);
    CHECK(refused == NULL);
    diabolo_game_free(from_words);
    diabolo_game_free(from_bytes);
    free(bytes);
}

/* Given deals and bots refuse what is wrong, with a message that names it. */
static void check_refusals(void) {
    diabolo_game* game = NULL;
    diabolo_state* state = NULL;
    diabolo_bot* bot = NULL;
    diabolo_error error;
    int32_t action = 7;
    CHECK(diabolo_game_new("schacht", NULL, &game, &error) == DIABOLO_OK);
    CHECK(diabolo_state_deal(game, 1, "{\"deck\": [\"G5\"]}", &state, &error) == DIABOLO_BAD_STATE && state == NULL);
    CHECK(strstr(error.message, "S2.4") != NULL);
    CHECK(diabolo_state_deal(game, 1, "{\"hands\": []}", &state, &error) == DIABOLO_BAD_STATE);
    CHECK(strstr(error.message, "hands") != NULL);
    CHECK(diabolo_state_deal(game, 1, NULL, &state, &error) == DIABOLO_OK && state != NULL);
    CHECK(strcmp(diabolo_game_bots(game), "heuristic,ismcts,learned,random") == 0);
    CHECK(diabolo_bot_new(game, "greedy", NULL, &bot, &error) == DIABOLO_BAD_OPTION && bot == NULL);
    CHECK(strstr(error.message, "heuristic,ismcts,learned,random") != NULL);
    CHECK(diabolo_bot_new(game, "ismcts", "{\"iterations\": 0}", &bot, &error) == DIABOLO_BAD_OPTION);
    CHECK(diabolo_bot_new(game, "ismcts", "{\"seconds\": 1}", &bot, &error) == DIABOLO_BAD_OPTION);
    CHECK(diabolo_bot_new(game, "ismcts", "{\"iterations\": 50}", &bot, &error) == DIABOLO_OK);
    CHECK(diabolo_bot_choose(bot, state, 9, 1, &action, NULL, NULL, &error) == DIABOLO_BAD_PLAYER);
    CHECK(action == DIABOLO_WAIT);
    CHECK(diabolo_bot_choose(bot, state, diabolo_state_current_player(state), 1, &action, NULL, NULL, &error) ==
          DIABOLO_OK);
    CHECK(action >= 0 && action < diabolo_game_num_actions(game));
    {
        const int size = diabolo_state_observation_tensor(state, 0, NULL, 0);
        float* tensor = (float*)calloc((size_t)size, sizeof(float));
        float sum = 0.0f;
        int i;
        CHECK(size == 1223 && tensor != NULL); /* Python: load("schacht").observation_tensor_shape */
        CHECK(diabolo_state_observation_tensor(state, 0, tensor, size) == size);
        for (i = 0; i < size; ++i) sum += tensor[i];
        CHECK(sum > 0.0f);
        CHECK(diabolo_state_observation_tensor(state, 9, tensor, size) == -1);
        free(tensor);
    }
    {
        diabolo_game* other = NULL;
        diabolo_state* other_state = NULL;
        diabolo_position* position = NULL;
        diabolo_position* other_position = NULL;
        CHECK(diabolo_game_new("duvelen", NULL, &other, &error) == DIABOLO_OK);
        CHECK(diabolo_state_new(other, 1, &other_state, &error) == DIABOLO_OK);
        CHECK(diabolo_state_position(state, &position, &error) == DIABOLO_OK);
        CHECK(diabolo_state_position(other_state, &other_position, &error) == DIABOLO_OK);
        CHECK(diabolo_position_copy(position, other_position, &error) == DIABOLO_BAD_OPTION);
        CHECK(strstr(error.message, "own game") != NULL);
        CHECK(diabolo_position_resample(other_position, 0, 1, position, &error) == DIABOLO_BAD_OPTION);
        CHECK(diabolo_position_legal_actions(position, 9, NULL, 0) == -1);
        CHECK(diabolo_position_observation_tensor(position, 9, NULL, 0) == -1);
        diabolo_game_free(other); /* the positions keep their games */
        CHECK(diabolo_position_pending_seats(other_position) != 0);
        diabolo_position_free(position);
        diabolo_position_free(other_position);
        diabolo_state_free(other_state);
    }
    diabolo_bot_free(bot);
    diabolo_state_free(state);
    diabolo_game_free(game);
}

/* Every game of the catalogue that takes no word list, with its default options, one seeded
 * game each (printed as "<name>/default"), and a batch: a game added to the catalogue is
 * played here with no edit. The catalogue is the library's compact JSON, read by a scan of
 * its "name" and "lexicon" keys. */
static void play_the_catalogue(void) {
    const char* cursor = diabolo_catalogue();
    int games = 0;
    while ((cursor = strstr(cursor, "{\"name\":\"")) != NULL) {
        char name[64];
        char tag[80];
        const char* start = cursor + 9;
        const char* end = strchr(start, '"');
        const char* next = strstr(start, "{\"name\":\"");
        const char* lexicon = strstr(start, "\"lexicon\":null");
        cursor = start;
        if (end == NULL || (size_t)(end - start) >= sizeof name) break;
        memcpy(name, start, (size_t)(end - start));
        name[end - start] = '\0';
        if (lexicon == NULL || (next != NULL && lexicon > next)) continue; /* takes a word list */
        snprintf(tag, sizeof tag, "%s/default", name);
        play(name, NULL, 4, 2000, tag);
        batch(name, NULL);
        ++games;
    }
    CHECK(games >= 3);
}

/* Whether `status` is DIABOLO_BAD_ARGUMENT and `error` names `function` and `argument`. */
static int null_refused(diabolo_status status, const diabolo_error* error, const char* function, const char* argument) {
    char expected[128];
    snprintf(expected, sizeof expected, "%s: %s is NULL", function, argument);
    return status == DIABOLO_BAD_ARGUMENT && error->status == DIABOLO_BAD_ARGUMENT &&
           strcmp(error->code, "null_argument") == 0 && strcmp(error->message, expected) == 0;
}

/* Every function, given NULL for a handle, text or out-pointer it needs: a status, -1, 0,
 * NULL or "" as the header says, never a crash; the handles given alongside are unchanged. */
static void check_nulls(void) {
    diabolo_game* game = NULL;
    diabolo_state* state = NULL;
    diabolo_position* position = NULL;
    diabolo_bot* bot = NULL;
    diabolo_state* out_state = (diabolo_state*)&game; /* must come back NULL */
    diabolo_position* out_position = NULL;
    diabolo_error error;
    int32_t ids[100];
    uint8_t mask[100];
    float tensor[4];
    char* text;
    const char bytes[4] = {0, 1, 2, 3};
    CHECK(null_refused(diabolo_game_new(NULL, NULL, &game, &error), &error, "diabolo_game_new", "name"));
    CHECK(game == NULL);
    CHECK(null_refused(diabolo_game_new("schacht", NULL, NULL, &error), &error, "diabolo_game_new", "out"));
    CHECK(diabolo_game_new("schacht", NULL, NULL, NULL) == DIABOLO_BAD_ARGUMENT);
    CHECK(null_refused(diabolo_game_new_with_lexicon("knizia", NULL, NULL, 4, &game, &error), &error,
                       "diabolo_game_new_with_lexicon", "lexicon"));
    CHECK(null_refused(diabolo_game_new_with_lexicon(NULL, NULL, bytes, 4, &game, &error), &error,
                       "diabolo_game_new_with_lexicon", "name"));
    CHECK(null_refused(diabolo_game_new_with_lexicon("knizia", NULL, bytes, 4, NULL, &error), &error,
                       "diabolo_game_new_with_lexicon", "out"));
    diabolo_game_free(NULL);
    CHECK(diabolo_game_players(NULL) == -1 && diabolo_game_num_actions(NULL) == -1);
    CHECK(diabolo_game_real_time(NULL) == -1 && diabolo_game_options(NULL) == NULL);
    CHECK(strcmp(diabolo_game_bots(NULL), "") == 0);
    CHECK(diabolo_game_action_notation(NULL, 0, &error) == NULL);
    CHECK(null_refused(error.status, &error, "diabolo_game_action_notation", "game"));
    CHECK(null_refused(diabolo_state_new(NULL, 1, &out_state, &error), &error, "diabolo_state_new", "game"));
    CHECK(out_state == NULL);
    CHECK(null_refused(diabolo_state_deal(NULL, 1, NULL, &out_state, &error), &error, "diabolo_state_deal", "game"));
    CHECK(null_refused(diabolo_state_from_json(NULL, "{}", &out_state, &error), &error, "diabolo_state_from_json",
                       "game"));
    CHECK(null_refused(diabolo_play_random(NULL, 1, 1, 1, NULL, NULL, &error), &error, "diabolo_play_random", "game"));
    CHECK(null_refused(diabolo_bot_new(NULL, "random", NULL, &bot, &error), &error, "diabolo_bot_new", "game"));

    CHECK(diabolo_game_new("schacht", NULL, &game, &error) == DIABOLO_OK);
    CHECK(null_refused(diabolo_state_new(game, 1, NULL, &error), &error, "diabolo_state_new", "out"));
    CHECK(null_refused(diabolo_state_deal(game, 1, NULL, NULL, &error), &error, "diabolo_state_deal", "out"));
    CHECK(null_refused(diabolo_state_from_json(game, NULL, &out_state, &error), &error, "diabolo_state_from_json",
                       "json"));
    CHECK(null_refused(diabolo_state_from_json(game, "{}", NULL, &error), &error, "diabolo_state_from_json", "out"));
    CHECK(null_refused(diabolo_bot_new(game, NULL, NULL, &bot, &error), &error, "diabolo_bot_new", "kind"));
    CHECK(null_refused(diabolo_bot_new(game, "random", NULL, NULL, &error), &error, "diabolo_bot_new", "out"));
    CHECK(diabolo_bot_new(game, "random", "[1,", &bot, &error) == DIABOLO_BAD_OPTION && bot == NULL);
    CHECK(diabolo_bot_new(game, "random", NULL, &bot, &error) == DIABOLO_OK);
    CHECK(diabolo_state_new(game, 1, &state, &error) == DIABOLO_OK);

    diabolo_state_free(NULL);
    CHECK(diabolo_state_clone(NULL) == NULL);
    CHECK(diabolo_state_current_player(NULL) == -1 && diabolo_state_pending_seats(NULL) == 0);
    CHECK(diabolo_state_is_terminal(NULL) == -1 && diabolo_state_version(NULL) == 0);
    CHECK(diabolo_state_legal_actions(NULL, 0, ids, 100) == -1 && diabolo_state_legal_mask(NULL, 0, mask, 100) == -1);
    CHECK(diabolo_state_scores(NULL, ids, 100) == -1 && diabolo_state_observation_tensor(NULL, 0, tensor, 4) == -1);
    CHECK(diabolo_state_legal_actions(state, 0, NULL, 100) >= 0 && diabolo_state_legal_mask(state, 0, NULL, 9) >= 0);
    CHECK(null_refused(diabolo_state_apply_action(NULL, 0, 0, &error), &error, "diabolo_state_apply_action", "state"));
    CHECK(null_refused(diabolo_state_apply_move(NULL, 0, "G5<", &error), &error, "diabolo_state_apply_move", "state"));
    CHECK(
        null_refused(diabolo_state_apply_move(state, 0, NULL, &error), &error, "diabolo_state_apply_move", "notation"));
    CHECK(diabolo_state_version(state) == 0);
    CHECK(diabolo_state_observation(NULL, 0, &error) == NULL);
    CHECK(null_refused(error.status, &error, "diabolo_state_observation", "state"));
    CHECK(diabolo_state_events(NULL, 0, &error) == NULL);
    CHECK(null_refused(error.status, &error, "diabolo_state_events", "state"));
    CHECK(diabolo_state_observation(NULL, 0, NULL) == NULL && diabolo_state_to_json(NULL) == NULL);
    CHECK(null_refused(diabolo_state_resample(NULL, 0, 1, &out_state, &error), &error, "diabolo_state_resample",
                       "state"));
    CHECK(null_refused(diabolo_state_resample(state, 0, 1, NULL, &error), &error, "diabolo_state_resample", "out"));
    CHECK(null_refused(diabolo_state_position(NULL, &out_position, &error), &error, "diabolo_state_position", "state"));
    CHECK(null_refused(diabolo_state_position(state, NULL, &error), &error, "diabolo_state_position", "out"));

    CHECK(diabolo_state_position(state, &position, &error) == DIABOLO_OK);
    diabolo_position_free(NULL);
    CHECK(diabolo_position_clone(NULL) == NULL);
    CHECK(null_refused(diabolo_position_copy(NULL, position, &error), &error, "diabolo_position_copy", "into"));
    CHECK(null_refused(diabolo_position_copy(position, NULL, &error), &error, "diabolo_position_copy", "from"));
    CHECK(null_refused(diabolo_position_resample(NULL, 0, 1, position, &error), &error, "diabolo_position_resample",
                       "from"));
    CHECK(null_refused(diabolo_position_resample(position, 0, 1, NULL, &error), &error, "diabolo_position_resample",
                       "into"));
    CHECK(diabolo_position_current_player(NULL) == -1 && diabolo_position_pending_seats(NULL) == 0);
    CHECK(diabolo_position_is_terminal(NULL) == -1 && diabolo_position_legal_actions(NULL, 0, ids, 100) == -1);
    CHECK(null_refused(diabolo_position_apply_action(NULL, 0, 0, &error), &error, "diabolo_position_apply_action",
                       "position"));
    CHECK(diabolo_position_scores(NULL, ids, 100) == -1);
    CHECK(diabolo_position_observation_tensor(NULL, 0, tensor, 4) == -1);

    diabolo_bot_free(NULL);
    CHECK(null_refused(diabolo_bot_choose(NULL, state, 0, 1, ids, NULL, NULL, &error), &error, "diabolo_bot_choose",
                       "bot"));
    CHECK(ids[0] == DIABOLO_WAIT);
    CHECK(null_refused(diabolo_bot_choose(bot, NULL, 0, 1, NULL, &text, NULL, &error), &error, "diabolo_bot_choose",
                       "state"));
    CHECK(text == NULL);
    CHECK(diabolo_bot_choose(bot, state, diabolo_state_current_player(state), 1, NULL, NULL, NULL, NULL) == DIABOLO_OK);
    diabolo_string_free(NULL);
    diabolo_position_free(position);
    diabolo_bot_free(bot);
    diabolo_state_free(state);
    diabolo_game_free(game);
}

int main(int argc, char** argv) {
    int i;
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
    CHECK(diabolo_game_new("schacht", "{not json", &none, &error) == DIABOLO_BAD_OPTION);
    CHECK(strstr(error.message, "options") != NULL);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        play("schacht", "{\"players\": 3}", seed, 2000, "schacht");
        play("duvelen", "{\"players\": 2, \"max_actions\": 300}", seed, 2000, "duvelen");
        play("knizia", knizia, seed, 400, "knizia");
    }
    play_the_catalogue();
    batch("schacht", NULL);
    batch("duvelen", "{\"players\": 3, \"max_actions\": 500}");
    batch("knizia", knizia);
    check_refusals();
    check_nulls();
    for (i = 1; i < argc; ++i) {
        if (strncmp(argv[i], "lexicon=", 8) == 0) {
            check_lexicon_file(argv[i] + 8, knizia);
        } else {
            printf("%s %d\n", argv[i], check_transcript(argv[i]));
        }
    }
    if (failures != 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
