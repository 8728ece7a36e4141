"""Tile sets: the letters of one language's edition, with how many tiles and how many points each.

Tile sets are data (``companion/data/tilesets/*.json``), so a club with another edition adds a file
rather than code. Letters are single upper-case Unicode characters in NFC form (Æ, Ø, Å, Ä, Ö, Ü,
Ł, ...); the blank is not a letter: a blank tile carries the letter it stands for and scores 0.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from companion.errors import CompanionError, UnknownLetter

BLANK = "?"


@dataclass(frozen=True)
class TileSet:
    """One edition's tiles: ``counts[letter]`` tiles of each letter worth ``values[letter]`` points."""

    code: str
    name: str
    counts: Mapping[str, int]
    values: Mapping[str, int]
    blanks: int = 2

    @property
    def total_tiles(self) -> int:
        """All tiles in the bag at the start, blanks included."""
        return sum(self.counts.values()) + self.blanks

    @property
    def alphabet(self) -> tuple[str, ...]:
        return tuple(self.counts)

    def value(self, letter: str) -> int:
        """Points of one (non-blank) tile showing ``letter``."""
        try:
            return self.values[letter]
        except KeyError:
            raise UnknownLetter(self._unknown(letter)) from None

    def normalize(self, letter: str) -> str:
        """Return ``letter`` as this set spells it (upper case, NFC), or raise UnknownLetter."""
        norm = unicodedata.normalize("NFC", letter).upper()
        if norm not in self.counts:
            raise UnknownLetter(self._unknown(letter))
        return norm

    def rack_value(self, letters: str) -> int:
        """Sum of tile values of a rack written as letters, with ``?`` for a blank."""
        return sum(0 if ch == BLANK else self.value(self.normalize(ch)) for ch in letters)

    def _unknown(self, letter: str) -> str:
        return f"the {self.name} tile set has no letter {letter!r} (it has {''.join(self.counts)} and {self.blanks} blanks)"


class TileSetError(CompanionError):
    """A tile set file that cannot be used."""


def load_tileset_file(path: Path | str) -> TileSet:
    """Read a tile set from a JSON file of the bundled format (see ``companion/data/tilesets/en.json``)."""
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        counts: dict[str, int] = {}
        values: dict[str, int] = {}
        for letter, info in raw["letters"].items():
            norm = unicodedata.normalize("NFC", letter).upper()
            if len(norm) != 1 or not norm.isalpha():
                raise TileSetError(f"{path}: {letter!r} is not a single letter")
            counts[norm] = int(info["count"])
            values[norm] = int(info["value"])
        return TileSet(
            code=str(raw["code"]),
            name=str(raw.get("name", raw["code"])),
            counts=MappingProxyType(counts),
            values=MappingProxyType(values),
            blanks=int(raw.get("blanks", 2)),
        )
    except TileSetError:
        raise
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise TileSetError(f"cannot read the tile set file {path}: {exc}") from None


def available_tilesets() -> list[str]:
    """Codes of the bundled tile sets (``en``, ``de``, ``da``, ...)."""
    folder = resources.files("companion") / "data" / "tilesets"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def get_tileset(code: str) -> TileSet:
    """A bundled tile set by language code, or a tile set file by path."""
    folder = resources.files("companion") / "data" / "tilesets"
    candidate = folder / f"{code}.json"
    if candidate.is_file():
        return load_tileset_file(Path(str(candidate)))
    if Path(code).is_file():
        return load_tileset_file(code)
    raise TileSetError(f"unknown tile set {code!r}: choose one of {', '.join(available_tilesets())} or give a tile set file")
