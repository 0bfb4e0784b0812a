"""The German word list for diabolo, Knizia's word game (docs/games/knizia.rst K1.4, K9).

This distribution ships Björn Jacke's igerman98 word list exactly as Debian builds it for the
``wngerman`` package (``/usr/share/dict/ngerman``, one word per line, UTF-8), compressed with
gzip. The lines are not normalised here: the diabolo engine normalises each entry when it loads
the list (K2: upper case A-Z, Ä->AE, Ö->OE, Ü->UE, ß->SS, other accents stripped, entries that
are not purely alphabetic afterwards dropped).

The list is licensed under the GNU General Public License version 2 or 3, which is why it lives
in this separate distribution and not in the MIT-licensed ``diabolo`` wheel. diabolo finds it
through the ``diabolo.lexicons`` entry point group: ``de = diabolo_lexicon_de:wordlist_path``,
so ``diabolo.Lexicon.load("de")`` works once this distribution is installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["LANGUAGE", "LICENSE", "SOURCE", "wordlist_path"]

LANGUAGE: Final = "de"
"""The language code diabolo registers this list under."""

SOURCE: Final = (
    "igerman98 20161207 by Björn Jacke (https://www.j3e.de/ispell/igerman98/), "
    "as built by Debian's wngerman 20161207-11 (/usr/share/dict/ngerman)"
)
"""Where the word list comes from."""

LICENSE: Final = "GPL-2.0-only OR GPL-3.0-only"
"""The licence of the word list, as an SPDX expression."""

_FILENAME: Final = "de.txt.gz"


def wordlist_path() -> Path:
    """The packaged word list: gzip-compressed UTF-8 text, one entry per line, not normalised."""
    return Path(__file__).resolve().with_name(_FILENAME)
