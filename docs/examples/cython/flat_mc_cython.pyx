# cython: language_level=3, boundscheck=False, wraparound=False
"""Flat Monte Carlo for any game of diabolo, written in Cython against the C API
(``from diabolo cimport capi``): for each legal action of the seat, ``playouts``
determinised games (what the seat cannot see dealt anew, then random moves to the end),
and the mean of the seat's final score minus the best other seat's. It draws every
random number from the same generator as flat_mc_python.py, the same algorithm over the
Python API, so both give the same values; this one runs with the GIL released, and plays
on positions (a state's table without its record), determinised into one reused buffer.
"""

import json

from libc.stdint cimport int32_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from diabolo cimport capi


cdef inline uint64_t next_number(uint64_t* x) noexcept nogil:
    """The shared generator: x = x * 6364136223846793005 + 1442695040888963407 (mod 2**64)."""
    x[0] = x[0] * 6364136223846793005ULL + 1442695040888963407ULL
    return x[0]


cdef inline int lowest_seat(uint32_t seats) noexcept nogil:
    cdef int seat = 0
    while not (seats >> seat) & 1u:
        seat += 1
    return seat


cdef int reward(capi.diabolo_position* position, int player, int players) noexcept nogil:
    """The seat's score minus the best other seat's."""
    cdef int32_t scores[16]
    cdef int best = -2147483647, seat
    capi.diabolo_position_scores(position, scores, 16)
    for seat in range(players):
        if seat != player and scores[seat] > best:
            best = scores[seat]
    return scores[player] - best


cdef int playout(capi.diabolo_position* position, int32_t* legal, int capacity, uint64_t* x) noexcept nogil:
    """Random moves to the end of the game (the lowest pending seat moves); 0, or -1 if the
    engine refused a move."""
    cdef int seat, n
    while not capi.diabolo_position_is_terminal(position):
        seat = lowest_seat(capi.diabolo_position_pending_seats(position))
        n = capi.diabolo_position_legal_actions(position, seat, legal, capacity)
        if n <= 0:
            return -1
        if capi.diabolo_position_apply_action(position, seat, legal[(next_number(x) >> 33) % <uint64_t>n], NULL):
            return -1
    return 0


def flat_monte_carlo(state, int player, int playouts, uint64_t seed):
    """``[(action, mean reward), ...]`` for each legal action of ``player`` in ``state`` (a
    diabolo state of any game), from ``playouts`` determinised random games each.

    >>> import diabolo
    >>> state = diabolo.load("schacht", players=3).new_state(seed=4)
    >>> values = flat_monte_carlo(state, state.current_player, 8, seed=1)
    >>> [action for action, _ in values] == state.legal_actions(state.current_player)
    True
    """
    cdef capi.diabolo_error error
    cdef capi.diabolo_game* game = NULL
    cdef capi.diabolo_state* state_root = NULL
    cdef capi.diabolo_position* root = NULL
    cdef capi.diabolo_position* guess = NULL
    cdef int32_t* legal = NULL
    cdef int32_t* moves = NULL
    cdef int n, a, i, players, capacity, failed = 0
    cdef long total
    cdef uint64_t x = seed
    text = state.to_json().encode()
    options = json.dumps(json.loads(text)["options"]).encode()
    name = state.game.name.encode()
    if capi.diabolo_game_new(name, options, &game, &error) != capi.DIABOLO_OK:
        raise ValueError(error.message.decode())
    try:
        if capi.diabolo_state_from_json(game, text, &state_root, &error) != capi.DIABOLO_OK:
            raise ValueError(error.message.decode())
        if capi.diabolo_state_position(state_root, &root, &error) != capi.DIABOLO_OK:
            raise ValueError(error.message.decode())
        guess = capi.diabolo_position_clone(root)
        players = capi.diabolo_game_players(game)
        capacity = capi.diabolo_game_num_actions(game)
        legal = <int32_t*>malloc(capacity * sizeof(int32_t))
        moves = <int32_t*>malloc(capacity * sizeof(int32_t))
        if legal == NULL or moves == NULL or guess == NULL:
            raise MemoryError()
        n = capi.diabolo_position_legal_actions(root, player, legal, capacity)
        if n < 0:
            raise ValueError(f"there is no seat {player}")
        values = []
        for a in range(n):
            total = 0
            with nogil:
                for i in range(playouts):
                    if (
                        capi.diabolo_position_resample(root, player, next_number(&x), guess, NULL)
                        or capi.diabolo_position_apply_action(guess, player, legal[a], NULL)
                        or playout(guess, moves, capacity, &x)
                    ):
                        failed = 1
                        break
                    total += reward(guess, player, players)
            if failed:
                raise RuntimeError("the engine refused a move of a playout")
            values.append((legal[a], total / playouts))
        return values
    finally:
        free(legal)
        free(moves)
        capi.diabolo_position_free(guess)
        capi.diabolo_position_free(root)
        capi.diabolo_state_free(state_root)
        capi.diabolo_game_free(game)
