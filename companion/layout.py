"""Board layouts: the size of the grid and where the premium squares are.

A layout is data (``companion/data/layouts/*.json``): rows of characters, ``T`` triple word,
``D`` double word, ``t`` triple letter, ``d`` double letter, ``*`` the centre star (a double word
square that the first play must cover), ``.`` plain.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from companion.errors import CompanionError

Square = tuple[int, int]
"""A square as (row, column), both counted from 0 at the top-left corner."""

_LETTER_MULT = {"d": 2, "t": 3, "q": 4}
_WORD_MULT = {"D": 2, "T": 3, "Q": 4, "*": 2}


class LayoutError(CompanionError):
    """A board layout file that cannot be used."""


@dataclass(frozen=True)
class BoardLayout:
    """The fixed premium pattern of a board; ``rows[r][c]`` is the premium character of a square."""

    name: str
    rows: tuple[str, ...]
    bingo_bonus: int = 50

    @property
    def size(self) -> int:
        return len(self.rows)

    @property
    def centre(self) -> Square:
        """The start square (the star); for a layout without a star, the middle square."""
        for r, row in enumerate(self.rows):
            c = row.find("*")
            if c >= 0:
                return (r, c)
        return (self.size // 2, self.size // 2)

    def letter_multiplier(self, square: Square) -> int:
        return _LETTER_MULT.get(self.rows[square[0]][square[1]], 1)

    def word_multiplier(self, square: Square) -> int:
        return _WORD_MULT.get(self.rows[square[0]][square[1]], 1)

    def transposed(self) -> "BoardLayout":
        """The layout mirrored in its main diagonal (the standard layout is its own transpose)."""
        return BoardLayout(self.name, tuple("".join(row[c] for row in self.rows) for c in range(self.size)), self.bingo_bonus)


def load_layout_file(path: Path | str) -> BoardLayout:
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        rows = tuple(str(r) for r in raw["rows"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LayoutError(f"cannot read the board layout file {path}: {exc}") from None
    if not rows or any(len(r) != len(rows) for r in rows):
        raise LayoutError(f"{path}: a board layout must be square (every row as long as there are rows)")
    bad = {ch for r in rows for ch in r} - set(".*") - set(_LETTER_MULT) - set(_WORD_MULT)
    if bad:
        raise LayoutError(f"{path}: unknown premium characters {''.join(sorted(bad))}")
    return BoardLayout(str(raw.get("name", path.stem)), rows, int(raw.get("bingo_bonus", 50)))


@cache
def get_layout(name: str = "standard15") -> BoardLayout:
    """A bundled layout by name, or a layout file by path."""
    candidate = resources.files("companion") / "data" / "layouts" / f"{name}.json"
    if candidate.is_file():
        return load_layout_file(Path(str(candidate)))
    if Path(name).is_file():
        return load_layout_file(name)
    raise LayoutError(f"unknown board layout {name!r}")




def standard_layout() -> BoardLayout:
    """The standard 15x15 premium layout."""
    return get_layout("standard15")
