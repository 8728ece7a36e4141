"""The board: which tile lies on which square. Immutable; placing tiles returns a new board.

Squares are ``(row, column)`` counted from 0 at the top-left. People name them the way the
board's edges are printed: column letter then row number, ``H8`` for the centre of a 15x15 board.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Iterable, Iterator

from companion.errors import CompanionError
from companion.layout import Square

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
UNKNOWN_BLANK_LETTER = "?"


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile on the board: the letter it shows, and whether it is a blank standing for that letter.

    A blank whose letter nobody has said yet has ``letter == "?"``; it scores like any blank (0) but no
    word through it can be judged until the players name the letter.
    """

    letter: str
    blank: bool = False

    def __str__(self) -> str:
        return self.letter.lower() if self.blank else self.letter


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile put on one square in a turn."""

    square: Square
    tile: Tile

    def __str__(self) -> str:
        return f"{square_name(self.square)}={self.tile}"


def square_name(square: Square) -> str:
    """``(7, 7)`` -> ``"H8"``: column letter, then row number counted from 1."""
    return f"{COLUMNS[square[1]]}{square[0] + 1}"


def parse_square(name: str, size: int = 15) -> Square:
    """``"H8"`` -> ``(7, 7)``. Also accepts ``"8H"`` (row first); raises CompanionError naming the text."""
    text = name.strip().upper()
    if text[:1].isalpha():
        col_part, row_part = text[:1], text[1:]
    else:
        row_part, col_part = text[:-1], text[-1:]
    if not (row_part.isascii() and row_part.isdigit()) or not col_part or col_part not in COLUMNS[:size]:
        raise CompanionError(f"{name!r} is not a square name (use a column letter and a row number, like H8)")
    row = int(row_part) - 1
    if not 0 <= row < size:
        raise CompanionError(f"{name!r} is off the board (rows go from 1 to {size})")
    return (row, COLUMNS.index(col_part))


def squares_text(squares: Iterable[Square]) -> str:
    return ", ".join(square_name(s) for s in sorted(squares))


class Board:
    """An immutable ``size`` x ``size`` grid of tiles (``None`` for an empty square)."""

    __slots__ = ("size", "_cells", "_hash")

    def __init__(self, size: int = 15, cells: tuple[Tile | None, ...] | None = None):
        self.size = size
        self._cells: tuple[Tile | None, ...] = cells if cells is not None else (None,) * (size * size)
        if len(self._cells) != size * size:
            raise ValueError("cells do not fit the board size")
        self._hash: int | None = None

    # ----- reading -----
    def __getitem__(self, square: Square) -> Tile | None:
        r, c = square
        return self._cells[r * self.size + c]

    def on_board(self, square: Square) -> bool:
        return 0 <= square[0] < self.size and 0 <= square[1] < self.size

    def occupied(self, square: Square) -> bool:
        r, c = square
        return 0 <= r < self.size and 0 <= c < self.size and self._cells[r * self.size + c] is not None

    def tiles(self) -> Iterator[tuple[Square, Tile]]:
        """Every tile on the board with its square, row by row."""
        n = self.size
        for i, tile in enumerate(self._cells):
            if tile is not None:
                yield (i // n, i % n), tile

    @property
    def is_empty(self) -> bool:
        return all(t is None for t in self._cells)

    def tile_count(self) -> int:
        return sum(t is not None for t in self._cells)

    # ----- changing (new boards) -----
    def place(self, placements: Iterable[Placement]) -> "Board":
        """A new board with the tiles added (squares are assumed free: validate first)."""
        cells = list(self._cells)
        for p in placements:
            cells[p.square[0] * self.size + p.square[1]] = p.tile
        return Board(self.size, tuple(cells))

    def remove(self, squares: Iterable[Square]) -> "Board":
        cells = list(self._cells)
        for r, c in squares:
            cells[r * self.size + c] = None
        return Board(self.size, tuple(cells))

    def transposed(self) -> "Board":
        """The board mirrored in its main diagonal: across words become down words."""
        n = self.size
        return Board(n, tuple(self._cells[c * n + r] for r in range(n) for c in range(n)))

    # ----- text form -----
    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> "Board":
        """Build a board from text rows: ``.`` empty, upper-case letter a tile, lower-case a blank
        standing for that letter, ``?`` a blank whose letter is not known."""
        rows = [unicodedata.normalize("NFC", r.strip()) for r in rows]
        size = len(rows)
        cells: list[Tile | None] = []
        for r, row in enumerate(rows):
            if len(row) != size:
                raise CompanionError(f"board row {r + 1} has {len(row)} squares, expected {size}: {row!r}")
            for c, ch in enumerate(row):
                if ch == ".":
                    cells.append(None)
                elif ch == "?":
                    cells.append(Tile(UNKNOWN_BLANK_LETTER, True))
                elif ch.isalpha():
                    cells.append(Tile(ch.upper(), ch.islower()))
                else:
                    raise CompanionError(f"square {square_name((r, c))} holds {ch!r}, which is not a letter, '?' or '.'")
        return cls(size, tuple(cells))

    def to_rows(self) -> list[str]:
        n = self.size
        return ["".join("." if t is None else str(t) for t in self._cells[r * n:(r + 1) * n]) for r in range(n)]

    def __str__(self) -> str:
        return "\n".join(self.to_rows())

    def __repr__(self) -> str:
        return f"Board.from_rows({self.to_rows()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.size == other.size and self._cells == other._cells

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.size, self._cells))
        return self._hash
