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
import zlib
from collections.abc import Iterable
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


class Lexicon:
    """A set of words, normalised per K2; ``word in lexicon`` and ``len(lexicon)`` work.

    Make one with :meth:`load` (a language code), :meth:`from_file` or :meth:`from_words`.

    >>> from diabolo import Lexicon
    >>> lexicon = Lexicon.from_words(["Lager", "Regal", "lager"])
    >>> len(lexicon), "Regal" in lexicon, "Gale" in lexicon
    (2, True, False)
    """

    __slots__ = ("_core", "language", "source")

    def __init__(self, core: _core.LexiconCore, source: str) -> None:
        self._core = core
        self.source = source
        """Where the words came from: a file path, ``"words"`` or ``"bytes"``."""
        self.language: str | None = None
        """The language code it was loaded by (:meth:`load`), else None."""

    @classmethod
    def from_words(cls, words: Iterable[str]) -> Lexicon:
        """A lexicon of ``words`` (any iterable of str), normalised per K2.

        >>> len(Lexicon.from_words(["Hang", "HANG", "hang "]))
        1
        """
        if isinstance(words, (str, bytes)) or not isinstance(words, Iterable):
            raise OptionError(f"words must be an iterable of str such as a list, got {type(words).__name__}")
        return cls(_core.LexiconCore.from_words(words), "words")

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], *, cache: bool = True) -> Lexicon:
        """The words of a text file, one per line (UTF-8; ``.gz`` files are read
        compressed), normalised per K2. With ``cache`` the built lexicon is kept in the
        user's cache folder (``$DIABOLO_CACHE_DIR``, else ``$XDG_CACHE_HOME/diabolo`` or
        ``~/.cache/diabolo``), keyed by the file's contents."""
        source = Path(path)
        raw = source.read_bytes()
        cached = _cache_file(raw) if cache else None
        core = _read_cache(cached) if cached is not None else None
        if core is None:  # not cached, or a damaged entry: built again
            text = _decompressed(raw, source) if source.suffix == ".gz" else raw
            core = _core.LexiconCore.from_words(text.decode("utf-8", errors="replace").splitlines())
            if cached is not None:
                data = core.to_bytes()
                _store(cached, hashlib.sha256(data).digest() + data)
        return cls(core, str(source))

    @classmethod
    def load(cls, language: str = "de", *, cache: bool = True) -> Lexicon:
        """The word list for ``language``: one packaged with diabolo (``en``, ``nl``), an
        installed lexicon distribution (``de``: ``pip install ./lexicons/de``), or a
        system list in ``/usr/share/dict``. :class:`~diabolo.LexiconNotFoundError` says how
        to get one when none is found."""
        path = _find_list(language)
        key = (language, str(path))
        loaded = _LOADED.get(key)
        if loaded is None:
            loaded = cls.from_file(path, cache=cache)
            loaded.language = language
            _LOADED[key] = loaded
        return loaded

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview) -> Lexicon:
        """A lexicon from :meth:`to_bytes` (any bytes-like object); StateFormatError if
        ``data`` is not one.

        >>> len(Lexicon.from_bytes(Lexicon.from_words(["Hang", "Gang"]).to_bytes()))
        2
        """
        try:
            raw = bytes(memoryview(data))
        except TypeError:
            raise OptionError(f"data must be bytes (from Lexicon.to_bytes), got {type(data).__name__}") from None
        return cls(_core.LexiconCore.from_bytes(raw), "bytes")

    def to_bytes(self) -> bytes:
        """The compact binary form (loads with :meth:`from_bytes` in milliseconds)."""
        return self._core.to_bytes()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # A lexicon loaded by language pickles as that language; any other as its bytes.
        if self.language is not None:
            return (Lexicon.load, (self.language,))
        return (Lexicon.from_bytes, (self.to_bytes(),))

    def __contains__(self, word: object) -> bool:
        return self._core.contains(word)

    def __len__(self) -> int:
        return len(self._core)

    def __repr__(self) -> str:
        return f"<Lexicon of {len(self)} words from {self.source}>"


def _find_list(language: str) -> Path:
    if not isinstance(language, str) or not language.isalpha():
        raise LexiconNotFoundError(f"a language is a code like 'de', got {language!r}")
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


def _read_cache(path: Path) -> _core.LexiconCore | None:
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
        return _core.LexiconCore.from_bytes(data)
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
