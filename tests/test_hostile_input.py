"""Hostile input, found by fuzzing and resource probing: each case once crashed,
hung, exhausted or silently misread the engine. Every one must now raise a specific
DiaboloError (or behave correctly) and change nothing."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

import diabolo
from diabolo import Lexicon

SMALL = Lexicon.from_words(["Hang", "Lager", "Regal"])


def lexicon_bytes(words: int, nodes: int, edges: int, *arrays: int) -> bytes:
    return b"DIABLEX1" + struct.pack(f"<3I{len(arrays)}I", words, nodes, edges, *arrays)


# ---- binary lexicons --------------------------------------------------------------------


def test_lexicon_bytes_with_an_arc_no_node_owns_are_refused() -> None:
    # One node without letters and one arc pointing far away: once read out of bounds.
    with pytest.raises(diabolo.StateFormatError, match="arcs that no node owns"):
        Lexicon.from_bytes(lexicon_bytes(0, 1, 1, 0, 0, 0x3FFFFFFF))


def test_lexicon_bytes_with_a_forged_word_count_are_refused() -> None:
    data = bytearray(SMALL.to_bytes())
    data[8:12] = (1000).to_bytes(4, "little")
    with pytest.raises(diabolo.StateFormatError, match="counts 1000 words, the automaton holds 3"):
        Lexicon.from_bytes(bytes(data))


def test_lexicon_bytes_with_a_dead_end_node_are_refused() -> None:
    # Root --A--> node 1, which is no word and has no letters: 'A...' would spell nothing.
    with pytest.raises(diabolo.StateFormatError, match="node 1 ends no word"):
        Lexicon.from_bytes(lexicon_bytes(0, 2, 1, 1, 0, 0, 1, 1))


def test_lexicon_bytes_whose_arcs_overlap_are_refused() -> None:
    # Root --A--> 1 --A--> 2 (a word), but node 1's arc is said to be the root's.
    terminal = 1 << 31
    with pytest.raises(diabolo.StateFormatError, match="out of place"):
        Lexicon.from_bytes(lexicon_bytes(1, 3, 2, 1, 1, terminal, 0, 0, 2, 1, 2))


def test_lexicon_bytes_that_spell_more_words_than_a_lexicon_holds_are_refused() -> None:
    # 32 nodes, each with arcs A and B to the next: 2**31 words in 300 bytes.
    nodes, terminal = 32, 1 << 31
    masks = [0b11] * (nodes - 1) + [terminal]
    firsts = [2 * n for n in range(nodes - 1)] + [2 * (nodes - 1)]
    targets = [n + 1 for n in range(nodes - 1) for _ in range(2)]
    with pytest.raises(diabolo.StateFormatError, match="more than 1073741824 words"):
        Lexicon.from_bytes(lexicon_bytes(0, nodes, len(targets), *masks, *firsts, *targets))


def test_every_truncation_and_single_byte_change_of_a_lexicon_is_refused_or_consistent() -> None:
    data = SMALL.to_bytes()
    for cut in range(len(data)):
        with pytest.raises(diabolo.StateFormatError):
            Lexicon.from_bytes(data[:cut])
    for at in range(len(data)):
        for flip in (1, 0x80):
            changed = bytearray(data)
            changed[at] ^= flip
            try:
                lexicon = Lexicon.from_bytes(bytes(changed))
            except diabolo.StateFormatError:
                continue
            # Whatever is accepted is a whole lexicon: every word can be looked up and named.
            game = diabolo.load("knizia", players=2, lexicon=lexicon, deck="de")
            for action in range(game.num_actions - len(lexicon), game.num_actions):
                assert game.move(action).word in lexicon


def test_a_damaged_cache_entry_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIABOLO_CACHE_DIR", str(tmp_path))
    source = tmp_path / "words.txt"
    source.write_text("Hang\nLager\nRegal\n", encoding="utf-8")
    built = Lexicon.from_file(source)
    (entry,) = (tmp_path / "lexicons").glob("*.bin")
    good = entry.read_bytes()
    for damage in (b"", good[:40], good[:-1] + bytes([good[-1] ^ 1]), b"\0" * len(good)):
        entry.write_bytes(damage)
        assert Lexicon.from_file(source).to_bytes() == built.to_bytes()
        assert entry.read_bytes() == good  # and the entry is whole again
