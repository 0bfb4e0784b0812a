/* Finds diabolo through find_package(diabolo), plays one Schacht move, prints the view. */
#include <stdio.h>

#include <diabolo/diabolo.h>

int main(void) {
    diabolo_error error;
    diabolo_game* game = NULL;
    diabolo_state* state = NULL;
    if (diabolo_game_new("schacht", "{\"players\": 3}", &game, &error) != DIABOLO_OK) return 1;
    if (diabolo_state_new(game, 1, &state, &error) != DIABOLO_OK) return 1;
    if (diabolo_state_apply_move(state, 1, "B3>", &error) != DIABOLO_ILLEGAL_MOVE) return 1;
    printf("%s %s\n", diabolo_version(), error.code);
    char* view = diabolo_state_observation(state, 1, &error);
    printf("%s\n", view);
    diabolo_string_free(view);
    diabolo_state_free(state);
    diabolo_game_free(game);
    return 0;
}
