# cython: language_level=3
"""The golden transcripts (tests/transcripts.py) replayed from Cython through the C API
(``from diabolo cimport capi``): every line must come out of the engine exactly as the
file has it, as from Python, C and JavaScript. tests/test_cython.py builds and runs it."""

from libc.stdint cimport int32_t, int64_t

from diabolo cimport capi


cdef str taken(char* text):
    """A C API string as Python text, freed."""
    if text == NULL:
        raise ValueError("the engine returned no text")
    try:
        return text.decode()
    finally:
        capi.diabolo_string_free(text)


def check_transcript(str path):
    """Replays the transcript at ``path``; returns the number of lines checked after the
    header, or raises AssertionError naming the first line that differs."""
    cdef capi.diabolo_error error
    cdef capi.diabolo_game* game = NULL
    cdef capi.diabolo_state* state = NULL
    cdef capi.diabolo_bot* bot = NULL
    cdef int32_t ids[4096]
    cdef int32_t action = 0
    cdef int64_t delay = 0
    cdef char* notation = NULL
    cdef int n, seat
    lines = open(path, encoding="utf-8").read().splitlines()
    assert lines[0] == "diabolo.transcript/1", path
    header = {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in lines[1:5]}
    bot_kind = None
    if capi.diabolo_game_new(header["game"].encode(), header["options"].encode(), &game, &error):
        raise ValueError(error.message.decode())
    try:
        if capi.diabolo_state_deal(game, int(header["seed"]), header["deal"].encode(), &state, &error):
            raise ValueError(error.message.decode())
        for number, line in enumerate(lines[5:], start=6):
            tag, _, rest = line.partition(" ")
            where = f"{path}:{number}"
            if tag == "end":
                return number - 5
            fields = rest.split(" ")
            seat = int(fields[1] if tag == "bot" else fields[0])
            if tag == "bot":
                kind, _, bot_seed, expected_action, expected_delay, expected_notation = fields
                if kind != bot_kind:
                    capi.diabolo_bot_free(bot)
                    bot = NULL
                    assert capi.diabolo_bot_new(game, kind.encode(), NULL, &bot, &error) == capi.DIABOLO_OK, where
                    bot_kind = kind
                assert capi.diabolo_bot_choose(bot, state, seat, int(bot_seed), &action, &notation, &delay, &error) == 0
                answer = "-" if notation == NULL else taken(notation)
                notation = NULL
                assert (action, delay, answer) == (int(expected_action), int(expected_delay), expected_notation), where
            elif tag == "legal":
                n = capi.diabolo_state_legal_actions(state, seat, ids, 4096)
                assert 0 <= n <= 4096 and [ids[i] for i in range(n)] == [int(a) for a in fields[1:]], where
            elif tag == "move":
                move = rest.split(" ", 1)[1].encode()
                assert capi.diabolo_state_apply_move(state, seat, move, &error) == capi.DIABOLO_OK, where
            elif tag in ("events", "view"):
                text = taken(
                    capi.diabolo_state_events(state, seat, &error)
                    if tag == "events"
                    else capi.diabolo_state_observation(state, seat, &error)
                )
                assert text == rest.split(" ", 1)[1], where
            elif tag == "scores":
                n = capi.diabolo_state_scores(state, ids, 4096)
                assert [ids[i] for i in range(n)] == [int(s) for s in fields], where
            else:
                raise AssertionError(f"{where}: unknown line {line[:40]!r}")
        raise AssertionError(f"{path}: no end line")
    finally:
        capi.diabolo_bot_free(bot)
        capi.diabolo_state_free(state)
        capi.diabolo_game_free(game)
