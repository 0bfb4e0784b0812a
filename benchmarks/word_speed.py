"""The words of Knizia's Diabolo over the German word list, for ``bench.py knizia``
(install the list with ``pip install ./lexicons/de``).

- the lexicon: load times (from the text list, Lexicon.load in an empty cache, loading
  again as a new process does from the cached binary form, from_bytes), its words, DAWG
  nodes and binary size, and the pure-Python trie build;
- membership: ``word in lexicon`` from Python against a Python set;
- the word finder: diabolo.knizia.find_words on random 12-card tables (one joker, no
  joker) against a pure-Python trie search and a scan of the word list (py_words.py);
  every table is checked: they find the same words with the same K10.4 assignment;
- claims: check_word calls per second on random tables;
- random games against the reference model (a small lexicon, the German deck) and
  simulated games of word bots with the German list.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import py_words  # benchmarks/py_words.py, the baseline of bench.py knizia
from game_speed import play_random_seats, python_api_realtime_game, random_game_section
from report import (
    Meter,
    Row,
    Section,
    Throughput,
    machine_info,
    progress,
    publish,
    ratio_row,
    time_calls,
    usable_cores,
)

import diabolo
from diabolo import InvalidWordError, Lexicon, LexiconNotFoundError, realtime
from diabolo.knizia import Deck, FoundWord, WordBot, check_word, find_words
from diabolo.lexicon import normalise_word
from tests.reference import knizia as reference_knizia

# ---- the lexicon and membership -----------------------------------------------------------


def german_deck_cards() -> list[str]:
    """The letter cards of the reconstructed German deck (decks/de.json), jokers left out,
    one entry per copy."""
    text = resources.files("diabolo").joinpath("decks", "de.json").read_text(encoding="utf-8")
    counts: dict[str, int] = json.loads(text)["cards"]
    return [card for card, count in counts.items() if card not in ("?", "??") for _ in range(count)]


def random_tables(joker: bool, seed: int) -> Iterator[list[str]]:
    """Random 12-card tables, endlessly: 11 letter cards drawn from the German deck
    (jokers left out) and one "?" at a random position, or, without `joker`, 12 letter
    cards."""
    cards = german_deck_cards()
    rng = random.Random(seed)
    while True:
        if joker:
            table = rng.sample(cards, 11) + ["?"]
            rng.shuffle(table)
        else:
            table = rng.sample(cards, 12)
        yield table


def timed_runs(run: Callable[[], object], budget: float, at_least: int, at_most: int) -> list[float]:
    """Seconds of each call of `run`, repeated until `budget` seconds have passed (at least
    `at_least` and at most `at_most` calls)."""
    samples: list[float] = []
    start = time.perf_counter()
    while len(samples) < at_most and (len(samples) < at_least or time.perf_counter() - start < budget):
        t0 = time.perf_counter()
        run()
        samples.append(time.perf_counter() - t0)
    return samples


@contextmanager
def temporary_cache_dir() -> Iterator[str]:
    """DIABOLO_CACHE_DIR set to a fresh temporary folder, so that the user's cache is
    neither read nor written."""
    before = os.environ.get("DIABOLO_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="diabolo-bench-cache-") as folder:
        os.environ["DIABOLO_CACHE_DIR"] = folder
        try:
            yield folder
        finally:
            if before is None:
                del os.environ["DIABOLO_CACHE_DIR"]
            else:
                os.environ["DIABOLO_CACHE_DIR"] = before


def seconds_row(key: str, label: str, samples: Sequence[float], note: str = "") -> Row:
    """A row in milliseconds: the best run, with the median and the number of runs in the note."""
    best, median = min(samples), statistics.median(samples)
    text = f"median {median * 1e3:,.1f} ms of {len(samples)} runs" if len(samples) > 1 else "1 run"
    return Row(
        key,
        label,
        best * 1e3,
        "ms",
        f"{text}; {note}" if note else text,
        {"median_ms": median * 1e3, "runs": float(len(samples))},
    )


def lexicon_rows(budget: float) -> tuple[list[Row], Lexicon, Path]:
    """Load times of the German list: the text list without cache, the first and second
    Lexicon.load("de") in an empty cache folder, and from_bytes; its size."""
    with temporary_cache_dir() as folder:
        progress('lexicon: Lexicon.load("de"), empty cache (builds and stores the binary form)')
        t0 = time.perf_counter()
        lexicon = Lexicon.load("de")
        first = time.perf_counter() - t0
        path = Path(lexicon.source)
        # A process loads a language once (Lexicon.load keeps it); what another process
        # pays is reading the file and the cache entry, as from_file does.
        progress('lexicon: loading "de" again in a new process (reads the cached binary form)')
        second = timed_runs(lambda: Lexicon.from_file(path), budget / 2, 5, 1000)
        cache_files = list(Path(folder).rglob("*.bin"))
    progress(f"lexicon: Lexicon.from_file({path.name}, cache=False)")
    built = timed_runs(lambda: Lexicon.from_file(path, cache=False), budget, 3, 10)
    data = lexicon.to_bytes()
    progress("lexicon: Lexicon.from_bytes(lexicon.to_bytes())")
    from_bytes = timed_runs(lambda: Lexicon.from_bytes(data), budget / 2, 5, 1000)
    cached = "cache written" if cache_files else "no cache file written!"
    rows = [
        seconds_row(
            "lexicon_from_text",
            "Lexicon.from_file(text list, cache=False)",
            built,
            f"{path.stat().st_size / 1e6:.1f} MB {'gzip ' if path.suffix == '.gz' else ''}file: read, K2, "
            "build the DAWG",
        ),
        seconds_row("lexicon_load_first", 'Lexicon.load("de"), empty cache', [first], f"builds; {cached}"),
        seconds_row(
            "lexicon_load_cached",
            'Lexicon.load("de") in a new process, cached',
            second,
            "reads the file and the cache entry (sha256 key); in the same process load returns the same lexicon",
        ),
        seconds_row(
            "lexicon_from_bytes",
            "Lexicon.from_bytes(lexicon.to_bytes())",
            from_bytes,
            f"{len(data) / 1e6:.2f} MB binary form",
        ),
        Row("lexicon_words", "words", float(len(lexicon)), "words", "distinct after K2 normalisation"),
        Row("lexicon_nodes", "DAWG nodes", float(lexicon.node_count), "nodes", "lexicon.node_count"),
        Row("lexicon_bytes", "binary form (to_bytes)", float(len(data)), "bytes"),
    ]
    return rows, lexicon, path


def membership_probes(words: Sequence[str], count: int, seed: int) -> list[str]:
    """`count` words to look up: half of them words of the list, half one letter away from
    a word of the list and not in it, shuffled."""
    rng = random.Random(seed)
    known = set(words)
    probes = rng.sample(words, count // 2)
    while len(probes) < count:
        word = rng.choice(words)
        at = rng.randrange(len(word))
        miss = word[:at] + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + word[at + 1 :]
        if miss not in known:
            probes.append(miss)
    rng.shuffle(probes)
    return probes


def membership_rows(lexicon: Lexicon, words: Sequence[str], budget: float) -> list[Row]:
    probes = membership_probes(words, 1024, seed=11)
    known = set(words)
    n = len(probes)

    def loop_only() -> None:
        for w in probes:
            pass

    def in_lexicon() -> None:
        for w in probes:
            w in lexicon

    def in_set() -> None:
        for w in probes:
            w in known

    overhead = time_calls(loop_only, n, min(budget, 0.5)).min_ns
    rows = []
    for key, label, block, note in [
        (
            "membership_lexicon",
            "word in lexicon (Python -> DAWG)",
            in_lexicon,
            "normalises per K2, then walks the DAWG",
        ),
        ("membership_set", "word in set (Python set of the same words)", in_set, "for comparison: a hash lookup"),
    ]:
        progress(f"membership: {label}")
        cost = time_calls(block, n, budget / 2)
        rows.append(
            Row(
                key,
                label,
                cost.min_ns - overhead,
                "ns/call",
                f"median {cost.median_ns - overhead:,.0f}; {n} words, half of them misses",
                {"median_ns": cost.median_ns - overhead},
            )
        )
    return rows


@dataclass
class FinderTimes:
    """Seconds per table (one entry per table, the same tables in each list) and words
    found per table."""

    engine: list[float]
    search_only: list[float]
    read_all: list[float]  # find_words and then every FoundWord made (list(...))
    python: list[float]
    words: list[int]
    scan: list[float]  # the word-list scan, on the first SCAN_TABLES tables only
    other_load: float | None = None  # CPUs kept busy by other processes during the whole section


def k10_4_key(cards: Sequence[int], jokers: int) -> tuple[int, int, list[int]]:
    """What K10.4 compares: the number of cards, the jokers, the sorted positions."""
    return len(cards), jokers, sorted(cards)


def check_same(table: Sequence[str], engine: Sequence[FoundWord], python: dict[str, py_words.Assignment]) -> None:
    """(a) and (b) must find the same words, each with the same K10.4 best assignment."""
    engine_words = {m.word for m in engine}
    if engine_words != set(python):
        missing = sorted(set(python) - engine_words)[:5]
        extra = sorted(engine_words - set(python))[:5]
        raise AssertionError(f"table {table}: the engine misses {missing}, the Python search misses {extra}")
    for m in engine:
        cards, jokers = python[m.word]
        if k10_4_key(m.cards, m.jokers) != k10_4_key(cards, jokers):
            raise AssertionError(f"table {table}: {m.word} on {m.cards} (engine) but {cards} (Python)")


def time_passes(run: Callable[[list[str]], object], tables: Sequence[list[str]], budget: float) -> list[float]:
    """Seconds per table of `run`: passes over all tables until `budget` seconds have
    passed (at least 3), each table's time being its median over the passes."""
    samples: list[list[float]] = [[] for _ in tables]
    start = time.perf_counter()
    passes = 0
    while passes < 3 or time.perf_counter() - start < budget:
        for i, table in enumerate(tables):
            t0 = time.perf_counter()
            run(table)
            samples[i].append(time.perf_counter() - t0)
        passes += 1
    return [statistics.median(s) for s in samples]


SCAN_TABLES = 8  # the word-list scan takes about a second a table


def time_finders(
    lexicon: Lexicon, trie: py_words.Trie, words_list: Sequence[str], joker: bool, budget: float
) -> FinderTimes:
    """(a) diabolo.knizia.find_words and (b) the pure-Python trie search on the same random
    tables, as many as (b) handles in about 2 * budget seconds (at least 20). (b) runs once
    per table; (a), (a) with min_cards=13 (the search alone: no word is recorded) and
    (a) with every match read (list(...)) run in passes over all tables (time_passes).
    Every table is checked:
    (a) and (b) find the same words with the same K10.4 best assignment."""
    source = random_tables(joker, seed=41 if joker else 43)
    find_words(next(random_tables(joker, seed=1)), lexicon)  # warm-up
    tables: list[list[str]] = []
    python: list[float] = []
    words: list[int] = []
    meter = Meter()
    while len(tables) < 20 or meter.elapsed() < 2 * budget:
        table = next(source)
        t0 = time.perf_counter()
        found_py = py_words.find_words(trie, table)
        python.append(time.perf_counter() - t0)
        found = find_words(table, lexicon)
        check_same(table, found, found_py)
        tables.append(table)
        words.append(len(found))
    engine = time_passes(lambda t: find_words(t, lexicon), tables, budget)
    search_only = time_passes(lambda t: find_words(t, lexicon, 13), tables, budget / 2)
    read_all = time_passes(lambda t: list(find_words(t, lexicon)), tables, budget / 2)
    scan: list[float] = []
    for table in tables[:SCAN_TABLES]:
        t0 = time.perf_counter()
        found_scan = py_words.scan_words(words_list, table)
        scan.append(time.perf_counter() - t0)
        check_same(table, find_words(table, lexicon), found_scan)
    return FinderTimes(engine, search_only, read_all, python, words, scan, meter.stop(len(tables), 0).other_load)


def per_table_row(key: str, label: str, seconds: Sequence[float], note: str = "") -> Row:
    """A row of the mean microseconds per table, with the median in the note."""
    mean, median = statistics.mean(seconds) * 1e6, statistics.median(seconds) * 1e6
    text = f"median {median:,.1f}"
    return Row(
        key,
        label,
        mean,
        "µs/table",
        f"{text}; {note}" if note else text,
        {"mean_us": mean, "median_us": median, "tables": float(len(seconds))},
    )


def finder_rows(
    lexicon: Lexicon, trie: py_words.Trie, words_list: Sequence[str], joker: bool, budget: float
) -> tuple[Section, FinderTimes]:
    what = "one joker" if joker else "no joker"
    progress(f"find_words: 12-card tables, {what}: (a) engine, (b) pure-Python trie search, (c) word-list scan")
    t = time_finders(lexicon, trie, words_list, joker, budget)
    tag = "joker" if joker else "plain"
    load = "" if t.other_load is None else f"; other load {t.other_load:.1f} CPUs"
    a = per_table_row(
        f"find_{tag}_engine",
        "(a) diabolo.knizia.find_words",
        t.engine,
        "every word with its best assignment, stored in C++ (a FoundWords sequence)" + load,
    )
    if t.other_load is not None:
        a.extra["other_load"] = t.other_load
    a_alone = per_table_row(
        f"find_{tag}_search_only",
        "(a) the same, min_cards=13: search alone",
        t.search_only,
        "the DFS without recording or returning a word",
    )
    a_read = per_table_row(
        f"find_{tag}_read_all",
        "(a) and reading every match: list(find_words(...))",
        t.read_all,
        "a FoundWord NamedTuple made for each word",
    )
    b = per_table_row(f"find_{tag}_python", "(b) pure-Python trie search (py_words.py)", t.python, "one run per table")
    ratio = ratio_row(f"ratio_{tag}_b_a", "(b) / (a), means", b, a)
    medians = [p / e for p, e in zip(t.python, t.engine)]
    ratio.note = f"median of the per-table ratios {statistics.median(medians):,.1f}x"
    ratio.extra = {"median_ratio": statistics.median(medians)}
    c = per_table_row(
        f"find_{tag}_scan",
        "(c) pure-Python scan of the word list (py_words.py)",
        t.scan,
        f"the first {len(t.scan)} tables, one run each",
    )
    engine_there = t.engine[: len(t.scan)]
    ratio_c = Row(
        f"ratio_{tag}_c_a",
        "(c) / (a), means over those tables",
        statistics.mean(t.scan) / statistics.mean(engine_there),
        "x",
        f"median of the per-table ratios {statistics.median(s / e for s, e in zip(t.scan, engine_there)):,.0f}x",
    )
    words = Row(
        f"find_{tag}_words",
        "words found per table",
        statistics.mean(t.words),
        "words",
        f"median {statistics.median(t.words):,.0f}, range {min(t.words):,}..{max(t.words):,}; "
        f"(a) = (b) on every table, (a) = (c) on the tables of (c)",
        {"median": float(statistics.median(t.words)), "min": float(min(t.words)), "max": float(max(t.words))},
    )
    cards = "11 letter cards of the German deck + one ?" if joker else "12 letter cards of the German deck"
    title = f"find_words, random 12-card tables with {what} ({cards}; {len(t.engine)} tables)"
    return Section(title, [a, a_alone, a_read, b, ratio, c, ratio_c, words]), t


def claim_probes(lexicon: Lexicon, words: Sequence[str], count: int, seed: int) -> list[tuple[str, list[str]]]:
    """`count` claims (word, table) on random 12-card tables with one joker: half of them
    valid (a random word find_words lists for the table), a quarter random words of the
    list (mostly letters missing), a quarter a valid word with one letter changed
    (mostly not a word)."""
    rng = random.Random(seed)
    tables = random_tables(True, seed)
    claims: list[tuple[str, list[str]]] = []
    while len(claims) < count:
        table = next(tables)
        valid = [m.word for m in find_words(table, lexicon)]
        if not valid:
            continue
        for _ in range(4):
            claims.append((rng.choice(valid), table))
        for _ in range(2):
            claims.append((rng.choice(words), table))
        for _ in range(2):
            word = rng.choice(valid)
            at = rng.randrange(len(word))
            claims.append((word[:at] + rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + word[at + 1 :], table))
    rng.shuffle(claims)
    return claims[:count]


def claim_rows(lexicon: Lexicon, words: Sequence[str], budget: float) -> list[Row]:
    claims = claim_probes(lexicon, words, 1024, seed=13)
    reasons: dict[str, int] = {}
    for word, table in claims:
        try:
            check_word(word, table, lexicon)
            reason = "valid"
        except InvalidWordError as error:
            reason = error.reason
        reasons[reason] = reasons.get(reason, 0) + 1

    def block() -> None:
        for word, table in claims:
            try:
                check_word(word, table, lexicon)
            except InvalidWordError:
                pass

    progress("claims: check_word on random tables")
    cost = time_calls(block, len(claims), budget)
    mix = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1]))
    return [
        Row(
            "claims_per_second",
            "check_word(word, table, lexicon)",
            1e9 / cost.min_ns,
            "checks/s",
            f"median block {1e9 / cost.median_ns:,.0f}/s; invalid claims raise InvalidWordError",
            {"median_per_second": 1e9 / cost.median_ns},
        ),
        Row(
            "claims_ns",
            "check_word, cost per claim",
            cost.min_ns,
            "ns/call",
            f"median {cost.median_ns:,.0f}; {len(claims)} claims: {mix}",
            {"median_ns": cost.median_ns, **{f"mix_{r.replace(' ', '_')}": float(c) for r, c in reasons.items()}},
        ),
    ]


# ---- random games and simulated word-bot games --------------------------------------------


# The word game's random games are compared on a small lexicon: the reference model's
# brute-force finder could not search the German list at every step.
GAME_WORDS = [
    "TOR",
    "ROT",
    "ORT",
    "TORE",
    "ROTE",
    "REST",
    "RAST",
    "RATE",
    "STERN",
    "STAR",
    "NEST",
    "ERNST",
    "NASE",
    "RASEN",
    "ASTER",
    "TASTE",
    "SENAT",
    "OTTER",
    "SEE",
    "TEE",
    "ARTEN",
    "ANTE",
    "TANTE",
    "ROSE",
    "OSTEN",
    "LAGER",
    "REGAL",
    "HANG",
    "STOP",
    "POST",
    "EIS",
    "REIS",
    "NEIN",
    "SEIN",
    "STEIN",
    "ACHT",
    "NACH",
    "DACH",
    "ENDE",
    "RUND",
]


def reference_knizia_game(players: int, deck: Deck, rng: random.Random) -> int:
    """(c) One random Knizia game of the pure-Python reference model, decks shuffled here."""
    cards = [card for card, count in deck.cards.items() for _ in range(count)]
    deals = []
    for _ in range(players):
        rng.shuffle(cards)
        deals.append(list(cards))
    return play_random_seats(reference_knizia.KniziaModel(players, deals, GAME_WORDS), players, rng)


def knizia_game_sections(lexicon: Lexicon, budget: float) -> tuple[list[Section], list[Throughput]]:
    """Random games (small lexicon, German deck, 4 players) on the three paths, and
    simulated games of word bots with the German list."""
    players = 4
    deck = Deck.load("de")
    game = diabolo.load("knizia", players=players, lexicon=Lexicon.from_words(GAME_WORDS), deck=deck)
    games, batch_times = random_game_section(
        f"Random games per second ({players} players, the German deck, a {len(GAME_WORDS)}-word lexicon; "
        "each step a random seat makes a random legal move)",
        game,
        python_api_realtime_game,
        lambda rng: reference_knizia_game(players, deck, rng),
        budget,
    )
    german = diabolo.load("knizia", players=players, lexicon=lexicon)
    bots = [
        WordBot(),
        WordBot(coverage=0.5, memory=1),
        WordBot(max_length=6, memory=2),
        WordBot(coverage=0.2, memory=3),
    ]
    rows = []
    for threads in (1, 2):
        progress(f"knizia simulations: realtime.simulate_many, German list, {threads} thread(s)")
        meter = Meter()
        played = arrivals = 0
        while meter.elapsed() < budget or played < 2:
            result = realtime.simulate_many(german, bots, games=2 * threads, seed=played, threads=threads)
            played += 2 * threads
            arrivals += int(result["actions"].sum() + result["rejected"].sum())
        t = meter.stop(played, arrivals)
        rows.append(
            Row(
                f"simulate_many_{threads}",
                f"realtime.simulate_many, {threads} thread(s)",
                t.games / t.wall,
                "games/s",
                f"{t.moves_per_game:.0f} arrivals/game; whole games of {german.rounds} rounds",
                {"games": float(t.games), "seconds": t.wall},
            )
        )
    simulations = Section(f"Simulated games of 4 word bots with the German list ({len(lexicon):,} words)", rows)
    return [games, simulations], batch_times


def main_knizia(args: argparse.Namespace) -> int:
    """`bench.py knizia`: the German lexicon, find_words against a pure-Python search, claim
    checks, random games against the reference model, and simulated word-bot games."""
    budget: float = args.seconds
    info = machine_info(None)
    wall0 = time.perf_counter()
    try:
        lexicon_part, lexicon, path = lexicon_rows(budget)
    except LexiconNotFoundError as error:
        print(f"bench.py: {error}", file=sys.stderr)
        return 2
    info["lexicon"] = f"{lexicon.source} ({len(lexicon):,} words)"

    progress("pure-Python trie: reading and normalising the list (not timed in the search rows)")
    raw = path.read_bytes()
    lines = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8", errors="replace").splitlines()
    line_count = len(lines)
    t0 = time.perf_counter()
    trie, trie_words = py_words.build_trie(lines)
    trie_seconds = time.perf_counter() - t0
    if trie_words != len(lexicon):
        raise AssertionError(f"the trie holds {trie_words} words, the lexicon {len(lexicon)}")
    lexicon_part.append(
        seconds_row(
            "trie_build",
            "pure-Python trie build, for (b) below",
            [trie_seconds],
            f"{trie_words:,} words, normalise_word per line",
        )
    )
    words = sorted({w for w in map(normalise_word, lines) if w is not None})
    del lines
    # The trie is over a million dicts: freeze them out of the cyclic garbage collector,
    # whose full collections would otherwise walk them all during the timed rows.
    gc.collect()
    gc.freeze()

    lexicon_section = Section(f"German lexicon ({path.name}, {line_count:,} lines)", lexicon_part)
    membership_section = Section(
        "Membership from Python (best block of 1024 lookups, empty loop subtracted)",
        membership_rows(lexicon, words, budget),
    )
    joker_section, joker_times = finder_rows(lexicon, trie, words, True, budget)
    plain_section, plain_times = finder_rows(lexicon, trie, words, False, budget)
    claims_section = Section(
        "Claim checks (best block of 1024 check_word calls on random 12-card tables with one joker)",
        claim_rows(lexicon, words, budget),
    )
    game_sections, batch_times = knizia_game_sections(lexicon, budget)
    sections = [lexicon_section, membership_section, joker_section, plain_section, claims_section, *game_sections]

    mean_us = statistics.mean(joker_times.engine) * 1e6
    ratio = statistics.mean(joker_times.python) / statistics.mean(joker_times.engine)
    scan_ratio = statistics.mean(joker_times.scan) / statistics.mean(joker_times.engine[: len(joker_times.scan)])
    footnotes = []
    loads = [t.other_load for t in (joker_times, plain_times) if t.other_load is not None]
    loads += [t.other_load for t in batch_times if t.other_load is not None]
    if loads and max(loads) >= 0.3:
        footnotes.append(
            f"Warning: other processes kept {max(loads):.1f} CPUs busy during the find_words rows "
            f"({usable_cores()} usable cores): rerun on an idle machine before quoting them."
        )
    footnotes += [
        f"Aims (one joker): under 100 µs per table: {'met' if mean_us < 100 else 'not met'} "
        f"({mean_us:,.0f} µs mean); at least 100x a straightforward pure-Python search: "
        f"{'met' if scan_ratio >= 100 else 'not met'} against the word-list scan (c) ({scan_ratio:,.0f}x), "
        f"{'met' if ratio >= 100 else 'not met'} against the trie search (b) ({ratio:,.1f}x).",
        "Engine rows: each table's median over several passes, then mean (value) and median (note) "
        "over the tables; (b) runs once per table.",
        f"Total run time {time.perf_counter() - wall0:.0f} s; --seconds {budget:g} per measurement.",
    ]
    fields = {"game": args.game, "seconds": budget}
    publish("diabolo benchmark: knizia", info, sections, footnotes, fields if args.json else None)
    return 0
