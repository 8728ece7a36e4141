"""How much each square changed between two pictures of one board (vision.change)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import read as R
from vision.change import as_read, square_change
from vision.geometry import rectify
from vision.render import BoardStyle, TileStyle, font_paths, render_board

FONTS = font_paths("basic")
pytestmark = pytest.mark.skipif(not FONTS, reason="DejaVu fonts (fonts-dejavu-core) not installed")

BEFORE = ["." * 15] * 7 + ["...HOUSE......."] + ["." * 15] * 7
AFTER = ["." * 15] * 7 + ["...HOUSE?......"] + ["." * 15] * 7     # a blank put after HOUSE


def beige() -> BoardStyle:
    return BoardStyle(square=(170, 195, 205), line=(240, 245, 245), line_w=0.05,
                      premium={"T": (55, 55, 215), "D": (175, 170, 240), "t": (200, 130, 40), "d": (230, 210, 160)},
                      text=True, text_ink=(30, 30, 30), star=True, frame=(35, 30, 180))


def ivory_close_to_the_board() -> TileStyle:
    """Tiles whose plain face is only a little lighter than the board's squares (a blank the
    reader can take for an empty square)."""
    return TileStyle(face=(206, 228, 236), ink=(20, 20, 25), font=FONTS[0])


def picture(labels, seed=0, light=1.0):
    img, corners, _ = render_board(labels, beige(), ivory_close_to_the_board(), np.random.default_rng(seed),
                                   cell=40, placement_jitter=0.03)
    rect = rectify(img, corners, R.CELL).astype(np.float32) * light
    return np.clip(rect, 0, 255).astype(np.uint8)


def test_a_blank_put_on_an_empty_square_changes_it_far_more_than_the_squares_that_stayed_empty():
    z = square_change(picture(BEFORE), picture(AFTER))
    others = [z[r, c] for r in range(15) for c in range(15) if BEFORE[r][c] == "." and (r, c) != (7, 8)]
    assert z[7, 8] > 6 and max(others) < 3, (z[7, 8], max(others))


def test_a_dimmer_second_picture_is_not_a_change():
    z = square_change(picture(BEFORE), picture(BEFORE, light=0.8))
    assert np.abs(z).max() < 3


def test_the_spread_is_measured_on_the_squares_said_to_be_unchanged():
    same = np.array([[ch == "." for ch in row] for row in AFTER])
    z = square_change(picture(BEFORE), picture(AFTER), same)
    assert z[7, 8] > 6


def test_the_map_is_turned_as_the_reader_turned_the_board():
    m = np.zeros((15, 15))
    m[0, 1] = 1                      # top row, second square of the picture as it is
    assert as_read(m, 1, False)[13, 0] == 1      # np.rot90 once: the top row becomes the left column
    assert as_read(m, 0, True)[0, 13] == 1       # mirrored left to right
