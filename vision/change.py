"""How much each square changed between two pictures of the same board.

A tile put down changes its square's colour and texture, even a blank tile whose plain face is
nearly the board's colour (which a single picture can take for an empty square).  Comparing the
square with itself in the picture taken before the move sees that: the board's own print, its
lighting across the board and the camera's colour are the same in both pictures, so a square
that changed far more than the squares that stayed empty is worth a question.

Knows no game rules: the caller says which squares it expects unchanged (the scale of the
change is measured on them) and decides what a change means.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.read import GRID, SMALL, as_board, split_surround, square_middles

#: the change's scale is never taken under this (Lab units): two nearly identical pictures would
#: otherwise make a speck of noise many "spreads" of change
MIN_SPREAD = 1.5


def square_looks(picture: np.ndarray) -> np.ndarray:
    """(15, 15, 3): the mean B, G, R of each square's middle (6x6 of a 10 px square: no grid
    line, little of a neighbour's tile).  ``picture``: a rectified board (the grid, or the grid
    with its surround)."""
    grid = as_board(split_surround(picture)[0])
    small = cv2.resize(grid, (GRID * SMALL, GRID * SMALL), interpolation=cv2.INTER_AREA)
    return square_middles(small).mean(axis=(2, 3))


def _lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.clip(bgr / 255.0, 0, 1).astype(np.float32), cv2.COLOR_BGR2LAB)


def square_change(before: np.ndarray, after: np.ndarray, same: np.ndarray | None = None) -> np.ndarray:
    """(15, 15) how far each square's colour moved from ``before`` to ``after`` (two rectified
    pictures of one board, the same way round), in spreads of the change of the ``same``
    squares ((15, 15) bool: those expected unchanged; None: all) above their median.

    The light and the camera's colour may differ between the pictures: each colour channel of
    ``after`` is first scaled by the ``same`` squares' median ratio (exposure, white balance).
    Measured on recorded games (docs/camera-games.md), the colour of the middle parts put-down
    tiles from unchanged squares better than the middle's texture or the square's rim added to
    it (a lamp's glare and a hand-held camera's reframing move those on empty squares too)."""
    a, b = square_looks(before), square_looks(after)
    same = np.ones((GRID, GRID), bool) if same is None else np.asarray(same, bool)
    if same.sum() < 10:
        same = np.ones((GRID, GRID), bool)
    gain = np.median(a[same] / np.maximum(b[same], 1.0), axis=0)
    d = np.linalg.norm(_lab(b * gain) - _lab(a), axis=2)
    med = float(np.median(d[same]))
    spread = max(MIN_SPREAD, 1.4826 * float(np.median(np.abs(d[same] - med))))
    return (d - med) / spread


def as_read(values: np.ndarray, orientation: int, mirrored: bool) -> np.ndarray:
    """A (15, 15) map of the pictures as they are, turned as the reader turned the board
    (:attr:`BoardReading.orientation`, :attr:`BoardReading.mirrored`): square (r, c) of the
    result is the reading's square (r, c)."""
    v = values[:, ::-1] if mirrored else values
    return np.ascontiguousarray(np.rot90(v, orientation))
