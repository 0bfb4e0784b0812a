"""How the fuzz targets read structured values out of fuzzer bytes, and how the seed
corpus writes them.

:class:`Reader` wraps ``atheris.FuzzedDataProvider`` with the few reads the targets
need. It takes every control value (a choice, a length, a kind) as one byte from the
*end* of the input (``ConsumeIntInRange(0, 255)``) and every payload (text, the bytes of
a big integer or a float) from the *front* (``ConsumeBytes``). :class:`Writer` makes
inputs that a Reader reads back as the values written: payloads go to the front, control
bytes are collected and appended reversed. So a seed made by ``fuzz/make_corpus.py``
reads as the real move or option it was written from, and libFuzzer's mutations of it
stay close to real input. An exhausted input reads as zeros and empty payloads.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

# The kinds of Python values :meth:`Reader.value` makes (options, arguments).
VALUE_KINDS = (
    "small_int",
    "big_int",
    "str",
    "known_str",
    "none",
    "bool",
    "float",
    "list",
    "tuple",
    "dict",
    "bytes",
    "object",
)
SPECIAL_INTS = (
    0,
    1,
    -1,
    2,
    3,
    64,
    66,
    127,
    128,
    255,
    256,
    2**31 - 1,
    2**31,
    2**32 - 1,
    2**32,
    2**32 + 3,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    -(2**31),
    -(2**63),
    -(2**64),
    10**30,
)


class Reader:
    """Structured reads from one fuzz input (see the module docstring)."""

    def __init__(self, data: bytes, known_strings: Sequence[str] = ()) -> None:
        import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]

        self._fdp: Any = atheris.FuzzedDataProvider(data)
        self.known_strings = tuple(known_strings) or ("",)

    def remaining(self) -> int:
        return int(self._fdp.remaining_bytes())

    def byte(self) -> int:
        """A control byte 0..255 (from the end)."""
        return int(self._fdp.ConsumeIntInRange(0, 255))

    def below(self, n: int) -> int:
        """A number 0..n-1 (one control byte, two when n > 256)."""
        if n > 256:
            return (self.byte() | self.byte() << 8) % n
        return self.byte() % n

    def pick(self, choices: Sequence[T]) -> T:
        return choices[self.below(len(choices))]

    def flag(self) -> bool:
        return self.byte() & 1 == 1

    def raw(self, limit: int = 255) -> bytes:
        """Up to ``limit`` payload bytes from the front; the length is a control byte (two
        when ``limit`` > 255)."""
        return bytes(self._fdp.ConsumeBytes(self.below(limit + 1)))

    def text(self, limit: int = 255) -> str:
        """A str: payload bytes decoded as UTF-8 (mode 0), with lone surrogates kept
        (mode 1, as ``surrogateescape`` makes them), or as Latin-1 (mode 2)."""
        payload = self.raw(limit)
        mode = self.below(3)
        if mode == 1:
            return payload.decode("utf-8", errors="surrogateescape")
        if mode == 2:
            return payload.decode("latin-1")
        return payload.decode("utf-8", errors="replace")

    def string(self, limit: int = 255) -> str:
        """One of the known strings (even control byte) or free text (odd)."""
        if self.flag():
            return self.text(limit)
        return self.pick(self.known_strings)

    def integer(self) -> int:
        """An int of any size and sign: small, special (2**32 + 3, 2**64, ...) or big."""
        kind = self.below(4)
        if kind == 0:
            return self.byte() - 128
        if kind == 1:
            return self.pick(SPECIAL_INTS)
        if kind == 2:
            return self.byte() | self.byte() << 8
        return int.from_bytes(self.raw(32), "little", signed=True)

    def real(self) -> float:
        """A float, NaN and the infinities included."""
        payload = self.raw(8)
        if len(payload) < 8:
            return (math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308)[len(payload) % 6]
        return float(struct.unpack("<d", payload)[0])

    def value(self, depth: int = 0) -> Any:
        """A Python value of any of :data:`VALUE_KINDS` (containers nest two deep)."""
        kind = VALUE_KINDS[self.below(len(VALUE_KINDS))]
        if kind in ("list", "tuple", "dict") and depth >= 2:
            kind = "small_int"
        if kind == "small_int":
            return self.byte() - 128
        if kind == "big_int":
            return self.integer()
        if kind == "str":
            return self.text()
        if kind == "known_str":
            return self.pick(self.known_strings)
        if kind == "none":
            return None
        if kind == "bool":
            return self.flag()
        if kind == "float":
            return self.real()
        if kind == "list":
            return [self.value(depth + 1) for _ in range(self.below(8))]
        if kind == "tuple":
            return tuple(self.value(depth + 1) for _ in range(self.below(8)))
        if kind == "dict":
            return {self.string(): self.value(depth + 1) for _ in range(self.below(5))}
        if kind == "bytes":
            return self.raw()
        return object()


class Writer:
    """Writes inputs that :class:`Reader` reads back as the values written."""

    def __init__(self, known_strings: Sequence[str] = ()) -> None:
        self._front = bytearray()
        self._back: list[int] = []
        self.known_strings = tuple(known_strings) or ("",)

    def data(self) -> bytes:
        return bytes(self._front) + bytes(reversed(self._back))

    def byte(self, value: int) -> None:
        assert 0 <= value <= 255, value
        self._back.append(value)

    def below(self, value: int, n: int) -> None:
        assert 0 <= value < n, (value, n)
        if n > 256:
            self.byte(value & 0xFF)
            self.byte(value >> 8)
        else:
            self.byte(value)

    def pick(self, choice: T, choices: Sequence[T]) -> None:
        self.below(list(choices).index(choice), len(choices))

    def flag(self, value: bool) -> None:
        self.byte(1 if value else 0)

    def raw(self, payload: bytes, limit: int = 255) -> None:
        assert len(payload) <= limit, payload
        self.below(len(payload), limit + 1)
        self._front += payload

    def text(self, value: str, limit: int = 255) -> None:
        self.raw(value.encode("utf-8"), limit)
        self.byte(0)

    def string(self, value: str, limit: int = 255) -> None:
        if value in self.known_strings:
            self.flag(False)
            self.pick(value, self.known_strings)
        else:
            self.flag(True)
            self.text(value, limit)

    def integer(self, value: int) -> None:
        if -128 <= value <= 127:
            self.byte(0)
            self.byte(value + 128)
        elif value in SPECIAL_INTS:
            self.byte(1)
            self.pick(value, SPECIAL_INTS)
        elif 0 <= value <= 0xFFFF:
            self.byte(2)
            self.byte(value & 0xFF)
            self.byte(value >> 8)
        else:
            self.byte(3)
            self.raw(value.to_bytes((value.bit_length() + 8) // 8, "little", signed=True), 32)

    def real(self, value: float) -> None:
        self.raw(struct.pack("<d", value), 8)

    def value(self, value: Any) -> None:
        """Writes ``value`` (None, bool, int, float, str, bytes, or a list, tuple or
        dict of those) as :meth:`Reader.value` reads it."""
        if value is None:
            self.pick("none", VALUE_KINDS)
        elif isinstance(value, bool):
            self.pick("bool", VALUE_KINDS)
            self.flag(value)
        elif isinstance(value, int):
            self.pick("big_int", VALUE_KINDS)
            self.integer(value)
        elif isinstance(value, float):
            self.pick("float", VALUE_KINDS)
            self.real(value)
        elif isinstance(value, str):
            if value in self.known_strings:
                self.pick("known_str", VALUE_KINDS)
                self.pick(value, self.known_strings)
            else:
                self.pick("str", VALUE_KINDS)
                self.text(value)
        elif isinstance(value, bytes):
            self.pick("bytes", VALUE_KINDS)
            self.raw(value)
        elif isinstance(value, (list, tuple)):
            self.pick("list" if isinstance(value, list) else "tuple", VALUE_KINDS)
            self.below(len(value), 8)
            for item in value:
                self.value(item)
        elif isinstance(value, dict):
            self.pick("dict", VALUE_KINDS)
            self.below(len(value), 5)
            for key, item in value.items():
                self.string(key)
                self.value(item)
        else:
            raise TypeError(f"cannot write {value!r}")
