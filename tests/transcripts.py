"""Golden transcripts shared by every language: seeded games played by the engine's bots,
written once as text (tests/golden/transcripts/*.txt) and checked line by line from
Python (tests/test_transcripts.py), C (cpp/tests/capi/test_capi.c), Cython
(tests/cython/transcripts.pyx) and JavaScript (js/test/transcripts.test.mjs). A change of
behaviour shows in all of them.

The format, ``diabolo.transcript/1``, is one record per line, a tag and its fields
separated by single spaces; JSON fields are compact, keys in the engine's order, and
run to the end of the line:

    diabolo.transcript/1
    game <id>
    options <JSON object>        the game's options as the C API takes them (a Knizia
                                 "lexicon" is a list of words)
    deal <JSON object>           the given deal ({} for none): Rules::new_dealt_state
    seed <n>                     the state is new_dealt_state(game, seed, deal)
    bot <kind> <seat> <seed> <action> <delay_us> <notation or ->
                                 the bot of that kind, asked for that seat with that
                                 seed on the state as it stands, answers so (-1 -: waits)
    legal <seat> <ids...>        the seat's legal action ids
    move <seat> <notation>       apply this move of the seat
    events <seat> <JSON list>    the last move's events as the seat sees them (-1: a
                                 spectator)
    view <seat> <JSON object>    the seat's view (-1: the public view)
    scores <n...>                every seat's score
    end                          the game is over (or the transcript's move limit)

Moves are chosen by the bots: the pending seats are asked in ascending order and the
first move given is played; when every bot waits, the lowest pending seat plays its
lowest legal action.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import diabolo
from diabolo import Lexicon

TRANSCRIPTS = Path(__file__).parent / "golden" / "transcripts"
FORMAT = "diabolo.transcript/1"

KNIZIA_WORDS = ["TOR", "ROT", "ORT", "TORE", "REST", "RAST", "RATE", "STERN", "NEST", "ERNST", "NASE", "RASEN"]
KNIZIA_WORDS += ["ASTER", "TASTE", "OSTEN", "TEE", "SEE", "SAAT", "ENTE", "NETZ", "TON", "SOT", "RAT", "TAT"]
KNIZIA_DECK = {
    "language": "",
    "cards": {"A": 3, "E": 4, "N": 2, "O": 2, "R": 3, "S": 3, "T": 4, "ST": 1, "?": 1, "??": 1},
}


@dataclass(frozen=True)
class Spec:
    """One transcript: a game, its options and deal, a seed, the bots' kind and how
    often a view is written (every `view_every` moves, the seats in turn)."""

    name: str
    game: str
    options: dict[str, Any]
    seed: int
    bot: str
    deal: dict[str, Any] = field(default_factory=dict)
    view_every: int = 4
    max_moves: int = 400


def shuffled_schacht_deck(players: int, seed: int) -> list[str]:
    """The whole Schacht deck for `players` in an order drawn from `seed` (a given deal)."""
    dealt = json.loads(diabolo.load("schacht", players=players).new_state(seed=0).to_json())
    cards = sorted([card for hand in dealt["hands"] for card in hand] + dealt["pile"])
    random.Random(seed).shuffle(cards)
    return cards


SPECS = [
    Spec("schacht_3p_seed5", "schacht", {"players": 3}, 5, "heuristic"),
    Spec(
        "schacht_4p_dealt",
        "schacht",
        {"players": 4, "rounds": 1},
        6,
        "heuristic",
        deal={"deck": shuffled_schacht_deck(4, 6)},
    ),
    Spec("duvelen_2p_seed7", "duvelen", {"players": 2, "max_actions": 240}, 7, "greedy"),
    Spec("duvelen_3p_seed8", "duvelen", {"players": 3, "max_actions": 240}, 8, "lookahead"),
    Spec(
        "knizia_3p_seed9",
        "knizia",
        {"players": 3, "rounds": 3, "lexicon": KNIZIA_WORDS, "deck": KNIZIA_DECK},
        9,
        "word",
    ),
    Spec(
        "knizia_2p_seed10",
        "knizia",
        {"players": 2, "rounds": 2, "lexicon": KNIZIA_WORDS, "deck": KNIZIA_DECK},
        10,
        "lookahead",
    ),
]


def compact(value: Any) -> str:
    """JSON as the engine writes it: no spaces, UTF-8 as is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def load_game(name: str, options: dict[str, Any]) -> Any:
    """The game of a transcript's header, in Python: a word list becomes a Lexicon, and a
    deck in the JSON form its counts."""
    options = dict(options)
    if isinstance(options.get("lexicon"), list):
        options["lexicon"] = Lexicon.from_words(options["lexicon"])
    if isinstance(options.get("deck"), dict):
        options["deck"] = options["deck"]["cards"]
    return diabolo.load(name, **options)


def bot_answer(bot: Any, state: Any, seat: int, seed: int) -> tuple[Any, int]:
    """The bot's move for `seat` (None: it waits) and its delay in microseconds."""
    proposal = bot.propose(state, seat, seed)
    if proposal is None:
        return None, 0
    move, delay = proposal
    return move, round(delay * 1e6)


def action_of(game: Any, move: Any) -> int:
    """A move's action id, as the C API gives it (a Knizia claim: its word's id)."""
    return int(game.action(move)) if game.name == "knizia" else int(move.action)


def transcript(spec: Spec) -> list[str]:
    """The transcript of `spec`, played through the Python API."""
    game = load_game(spec.game, spec.options)
    state = game.new_state(seed=spec.seed, **spec.deal)
    bot = diabolo.bot(spec.game, spec.bot)
    players = game.players
    lines = [
        FORMAT,
        f"game {spec.game}",
        f"options {compact(spec.options)}",
        f"deal {compact(spec.deal)}",
        f"seed {spec.seed}",
        f"view -1 {compact(state.public_observation())}",
    ]
    moves = 0
    while not state.is_terminal and moves < spec.max_moves:
        pending = state.pending_seats
        chosen = None
        for seat in pending:
            seed = moves * 16 + seat
            move, delay = bot_answer(bot, state, seat, seed)
            action, notation = (-1, "-") if move is None else (action_of(game, move), str(move))
            lines.append(f"bot {spec.bot} {seat} {seed} {action} {delay} {notation}")
            if move is not None:
                chosen = (seat, move)
                break
        for seat in pending:
            lines.append(" ".join(["legal", str(seat), *map(str, state.legal_actions(seat))]))
        if chosen is None:
            chosen = (pending[0], game.move(state.legal_actions(pending[0])[0]))
        seat, move = chosen
        state.apply(move, player=seat)
        moves += 1
        lines.append(f"move {seat} {move}")
        lines.append(f"events {seat} {compact(state.events_for(seat))}")
        lines.append(f"events -1 {compact(state.public_events())}")
        lines.append(" ".join(["scores", *map(str, state.scores)]))
        if moves % spec.view_every == 0:
            viewer = moves // spec.view_every % (players + 1) - 1
            view = state.public_observation() if viewer < 0 else state.observation(viewer)
            lines.append(f"view {viewer} {compact(view)}")
    for seat in range(players):
        lines.append(f"view {seat} {compact(state.observation(seat))}")
    lines.append("end")
    return lines


def check_replayed(output: str) -> None:
    """Checks what a replaying program printed, a line "NAME LINES" per transcript: it
    replayed every golden transcript, each line after the header (as the C test does,
    tests/capi_replay.py)."""
    counts = dict(re.findall(r"^(\w+\.txt) (\d+)$", output, re.MULTILINE))
    files = sorted(TRANSCRIPTS.glob("*.txt"))
    assert sorted(counts) == [path.name for path in files] != [], output[-3000:]
    for path in files:
        assert int(counts[path.name]) == len(path.read_text().splitlines()) - 5, (path.name, output[-3000:])
