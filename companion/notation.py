"""Move notation as players and game records write it: ``8D CRAaLED`` across, ``D8 CRAaLED`` down.

The position names the first square of the main word. Row-first (``8D``) means the word runs
across; column-first (``D8``) means it runs down. In the word, a lower-case letter is a blank, and a
letter already on the board is written either as ``.`` or as itself (``JAVE..N`` and ``JAVE(LI)N``
and ``JAVELIN`` all say the same when L and I are on the board).
"""

from __future__ import annotations

import re
from typing import Iterator

from companion.board import COLUMNS, Board, Placement, Tile
from companion.errors import IllegalPlay
from companion.play import ACROSS, DOWN
from companion.tiles import TileSet

_POSITION = re.compile(r"^(?:(\d{1,2})([A-Za-z])|([A-Za-z])(\d{1,2}))$")


def parse_position(text: str, size: int = 15) -> tuple[tuple[int, int], str]:
    """``"8D"`` -> ((7, 3), "across"); ``"D8"`` -> ((7, 3), "down")."""
    m = _POSITION.match(text.strip())
    if not m:
        raise IllegalPlay(f"{text!r} is not a position: write a row number and a column letter (8D, across) or the other way round (D8, down)")
    if m.group(1):
        row, col, direction = int(m.group(1)) - 1, m.group(2).upper(), ACROSS
    else:
        row, col, direction = int(m.group(4)) - 1, m.group(3).upper(), DOWN
    c = COLUMNS.index(col)
    if not (0 <= row < size and c < size):
        raise IllegalPlay(f"position {text!r} is off the board")
    return (row, c), direction


def read_notation(board: Board, position: str, word: str) -> Iterator[tuple[tuple[int, int], str, bool, Tile | None]]:
    """The squares a move written as ``position word`` covers on ``board``, in order: (square, the
    character written for it, whether it is marked as a tile already on the board (``.`` or inside
    parentheses), the tile on that square now or None). Raises IllegalPlay when the position is not
    one, or when the word runs off the board (at the first square past the edge)."""
    (r, c), direction = parse_position(position, board.size)
    dr, dc = (0, 1) if direction == ACROSS else (1, 0)
    inside_parens = False
    for ch in word:
        if ch == "(":
            inside_parens = True
            continue
        if ch == ")":
            inside_parens = False
            continue
        if not board.on_board((r, c)):
            raise IllegalPlay(f"{position} {word} runs off the board")
        yield (r, c), ch, ch == "." or inside_parens, board[r, c]
        r, c = r + dr, c + dc


def placements_from_notation(board: Board, position: str, word: str, tiles: TileSet) -> tuple[Placement, ...]:
    """The tiles a move puts down, from its position and word written against ``board``."""
    out: list[Placement] = []
    for (r, c), ch, through, existing in read_notation(board, position, word):
        if through:
            if existing is None:
                raise IllegalPlay(f"{position} {word}: the square {COLUMNS[c]}{r + 1} is empty, but the move plays through a tile there")
        elif existing is not None:
            if existing.letter != ch.upper() and ch != "?":
                raise IllegalPlay(f"{position} {word}: {COLUMNS[c]}{r + 1} already holds {existing.letter}, not {ch}")
        elif ch == "?":
            out.append(Placement((r, c), Tile("?", True)))
        else:
            upper = tiles.normalize(ch)
            out.append(Placement((r, c), Tile(upper, ch != upper)))
    return tuple(out)
