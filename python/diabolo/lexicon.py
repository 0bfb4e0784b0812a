"""Word lists for the word game (Diabolo by Knizia): :class:`Lexicon`.

A lexicon holds words normalised per K2: upper case A-Z, Ä->AE, Ö->OE, Ü->UE,
ß->SS, other accents stripped; entries that are not purely alphabetic afterwards
(abbreviations, hyphenated words) are dropped. It is stored in C++ as a minimal
automaton (a DAWG); a lexicon read from a file is cached in that binary form, so the
second load of a large list takes milliseconds.

>>> from diabolo import Lexicon
>>> words = Lexicon.from_words(["Straße", "Hang", "z.B."])
>>> len(words), "strasse" in words, "STRASSE" in words, "z.B." in words
(2, True, True, False)
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import zlib
from collections.abc import Callable
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from diabolo import _core
from diabolo.errors import LexiconNotFoundError, OptionError

__all__ = ["Lexicon", "normalise_word"]

# Debian's word lists by language, as installed in /usr/share/dict.
_SYSTEM_LISTS = {
    "de": ["ngerman", "ogerman", "swiss"],
    "en": ["american-english", "british-english", "words"],
    "nl": ["dutch"],
}
_FORMAT = "DIABLEX1/K2/3"  # binary layout, normalisation, node order, checksum: part of every cache key

# Lexicons loaded by language in this process, by (language, file): loading one again
# gives the same immutable object, so games that use it share it and compare equal.
_LOADED: dict[tuple[str, str], Lexicon] = {}


def normalise_word(word: str) -> str | None:
    """A word normalised per K2 (upper case A-Z), or None if it is not a word.

    >>> from diabolo.lexicon import normalise_word
    >>> normalise_word(" Ärger "), normalise_word("café"), normalise_word("U-Boot")
    ('AERGER', 'CAFE', None)
    """
    return _core.normalise_word(word)


Lexicon = _core.Lexicon
Lexicon.__module__ = __name__


def _from_file(
    cls: type[Lexicon], path: str | os.PathLike[str], *, cache: bool = True, language: str | None = None
) -> Lexicon:
    """The words of a text file, one per line (UTF-8; ``.gz`` files are read
    compressed), normalised per K2. With ``cache`` the built lexicon is kept in the
    user's cache folder (``$DIABOLO_CACHE_DIR``, else ``$XDG_CACHE_HOME/diabolo`` or
    ``~/.cache/diabolo``), keyed by the file's contents."""
    source = Path(path)
    raw = source.read_bytes()
    cached = _cache_file(raw) if cache else None
    lexicon = _read_cache(cls, cached, str(source), language) if cached is not None else None
    if lexicon is not None:
        return lexicon
    # Not cached, or a damaged entry: built again.
    text = _decompressed(raw, source) if source.suffix == ".gz" else raw
    lexicon = cls.from_words(text.decode("utf-8", errors="replace").splitlines(), source=str(source), language=language)
    if cached is not None:
        data = lexicon.to_bytes()
        _store(cached, hashlib.sha256(data).digest() + data)
    return lexicon


DEFAULT_LANGUAGE = "de"
"""The packaged word list a game of words gets when none is named (Knizia's game is German)."""


def _load(cls: type[Lexicon], language: str = DEFAULT_LANGUAGE, *, cache: bool = True) -> Lexicon:
    """The word list for ``language``: one packaged with diabolo (``en``, ``nl``), an
    installed lexicon distribution (``de``: ``pip install ./lexicons/de``), or a
    system list in ``/usr/share/dict``. :class:`~diabolo.LexiconNotFoundError` says how
    to get one when none is found."""
    path = _find_list(language)
    key = (language, str(path))
    loaded = _LOADED.get(key)
    if loaded is None:
        loaded = _from_file(cls, path, cache=cache, language=language)
        _LOADED[key] = loaded
    return loaded


def add_constructor(cls: type[Any], name: str, function: Callable[..., Any]) -> None:
    """Adds ``function`` to the engine's class ``cls`` as the classmethod ``name``.

    The ways to make a Lexicon or a Deck that read files (package data, entry points, the
    cache folder) are Python's to find, so they are written in Python and join the class
    the engine defines: ``game.lexicon`` and ``game.deck`` are then of that one class. The
    function takes the name, so that the method pickles by it.
    """
    function.__name__ = name
    function.__qualname__ = f"{cls.__name__}.{name}"
    setattr(cls, name, classmethod(function))


add_constructor(Lexicon, "from_file", _from_file)
add_constructor(Lexicon, "load", _load)


def is_language_code(language: object) -> bool:
    """Whether ``language`` is a language code: 2-8 ASCII letters (``de``, ``en``), never a path.

    >>> is_language_code("de"), is_language_code("../de"), is_language_code("a" * 300)
    (True, False, False)
    """
    return isinstance(language, str) and re.fullmatch("[A-Za-z]{2,8}", language) is not None


def _find_list(language: str) -> Path:
    if not is_language_code(language):
        shown = language if not isinstance(language, str) or len(language) <= 40 else language[:40] + "..."
        raise LexiconNotFoundError(f"a language is a code like 'de' (2-8 letters), got {shown!r}")
    packaged = resources.files("diabolo") / "lexicons" / f"{language}.txt.gz"
    if packaged.is_file():
        return Path(str(packaged))
    for entry in metadata.entry_points(group="diabolo.lexicons"):
        if entry.name == language:
            found = Path(entry.load()())
            if found.is_file():
                return found
    for name in _SYSTEM_LISTS.get(language, []):
        system = Path("/usr/share/dict") / name
        if system.is_file():
            return system
    raise LexiconNotFoundError(
        f"no word list for language {language!r}: install one (for German, "
        "'pip install ./lexicons/de' from the diabolo repository; on Debian, "
        "'apt-get install wngerman' puts one in /usr/share/dict), or use "
        "Lexicon.from_file(path) or Lexicon.from_words(words)"
    )


def _cache_file(raw: bytes) -> Path | None:
    base = os.environ.get("DIABOLO_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "diabolo"
    )
    digest = hashlib.sha256(_FORMAT.encode() + raw).hexdigest()[:32]
    return Path(base) / "lexicons" / f"{digest}.bin"


def _decompressed(raw: bytes, source: Path) -> bytes:
    """The contents of a gzip file; OptionError naming the file if it is damaged."""
    try:
        return gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as error:
        raise OptionError(f"{source} is not a readable gzip file: {error}") from None


def _read_cache(cls: type[Lexicon], path: Path, source: str, language: str | None) -> Lexicon | None:
    """The lexicon of a cache entry, or None if there is none or it is damaged: an entry
    is the SHA-256 of its lexicon's bytes, then those bytes, so any change to it shows
    (from_bytes alone would accept a damaged entry that is still a well-formed lexicon)."""
    try:
        entry = path.read_bytes()
    except OSError:
        return None
    digest, data = entry[:32], entry[32:]
    if hashlib.sha256(data).digest() != digest:
        return None
    try:
        return cls.from_bytes(data, source=source, language=language)
    except ValueError:
        return None


def _store(path: Path, data: bytes) -> None:
    """Writes a cache entry atomically; a cache that cannot be written is skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(data)
        os.replace(partial, path)
    except OSError:
        pass
