"""Shared helpers for the rules tests: small tile-set files and a random legal-placement generator."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.board import Board, Placement, Tile

ENGLISH = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@pytest.fixture
def tileset_file(tmp_path):
    """Write a tile set file and return its path (usable as ``tileset`` in ``game_started``).

    ``letters`` maps a letter to ``(count, value)``; a tiny set lets a test empty the bag in a few turns.
    """

    def make(letters: dict[str, tuple[int, int]], blanks: int = 0, name: str = "Tiny") -> str:
        path = Path(tmp_path) / f"{name.lower()}-{len(list(tmp_path.iterdir()))}.json"
        data = {"code": name.lower(), "name": name, "blanks": blanks,
                "letters": {k: {"count": n, "value": v} for k, (n, v) in letters.items()}}
        path.write_text(json.dumps(data), encoding="utf-8")
        return str(path)

    return make


def random_placements(board: Board, rng: random.Random, centre: tuple[int, int], max_tiles: int = 7,
                      letters: str | list[str] = ENGLISH, blank_rate: float = 0.1,
                      blank_letters: str | tuple[str, ...] = ENGLISH) -> tuple[Placement, ...]:
    """Tiles for a legal placement (by the placement rules only; no word list) on ``board``.

    The play runs across or down through an anchor: the centre on an empty board, otherwise an empty
    square next to a tile. It may start before the anchor and runs over tiles already there (they
    become play-through letters), so it is always in one line, without gaps, and connected.
    ``letters`` is a string to choose from freely, or a list of tiles to draw from (``?`` a blank, which
    then stands for one of ``blank_letters``).
    """
    n = board.size
    first = board.is_empty
    least = 2 if first else 1
    k = rng.randint(least, max(least, max_tiles))
    if first:
        anchor = centre
    else:
        anchor = rng.choice([
            (r, c) for r in range(n) for c in range(n)
            if not board.occupied((r, c))
            and any(board.occupied((r + a, c + b)) for a, b in ((0, 1), (0, -1), (1, 0), (-1, 0)))
        ])
    squares: list = []
    while len(squares) < least:  # a first play on a star by the edge may need another try
        dr, dc = (0, 1) if rng.random() < 0.5 else (1, 0)
        # Step back over up to k-1 empty squares (tiles in between are played through).
        r, c = anchor
        back = rng.randint(0, k - 1)
        while back:
            pr, pc = r - dr, c - dc
            while board.on_board((pr, pc)) and board.occupied((pr, pc)):
                pr, pc = pr - dr, pc - dc
            if not board.on_board((pr, pc)):
                break
            r, c, back = pr, pc, back - 1
        squares = []
        while len(squares) < k and board.on_board((r, c)):
            if not board.occupied((r, c)):
                squares.append((r, c))
            r, c = r + dr, c + dc
    pool = list(letters)
    out = []
    for s in squares:
        letter = pool.pop(rng.randrange(len(pool))) if isinstance(letters, list) else rng.choice(letters)
        if letter == "?":
            out.append(Placement(s, Tile(rng.choice(blank_letters), True)))
        else:
            out.append(Placement(s, Tile(letter, rng.random() < blank_rate)))
    return tuple(out)


@pytest.fixture(scope="session")
def random_play():
    """The generator above, for tests (session-scoped so hypothesis tests may use it)."""
    return random_placements


#: A 30-tile set (blanks included) for games whose bag runs out within a few turns.
TINY_LETTERS = {"E": (12, 1), "A": (6, 1), "S": (6, 1), "X": (2, 8), "Q": (1, 10), "Z": (1, 10)}


@pytest.fixture(scope="session")
def tiny_tileset(tmp_path_factory):
    """Path of a tile set file with 30 tiles (two blanks): a 2-player game starts with 16 in the bag."""
    path = tmp_path_factory.mktemp("tilesets") / "tiny.json"
    path.write_text(json.dumps({"code": "tiny", "name": "Tiny", "blanks": 2, "letters": {
        k: {"count": n, "value": v} for k, (n, v) in TINY_LETTERS.items()}}), encoding="utf-8")
    return str(path)
