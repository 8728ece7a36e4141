"""Watching a video or a camera: a move is taken only from a still, clear picture."""

from __future__ import annotations

import io

import numpy as np
import pytest

from companion.lexicon import Lexicon

render = pytest.importorskip("vision.render")
from test_replay import EMPTY, photo, put  # noqa: E402  (the same simulated camera)


def test_watch_takes_a_move_only_once_the_picture_is_still_and_clear(tmp_path):
    from companion.replay import watch

    empty, cat = EMPTY, put(EMPTY, "G8", "CAT")
    cot = put(cat, "G8", "COT", down=True)
    still = {name: photo(labels, seed=20 + i) for i, (name, labels) in enumerate((("empty", empty), ("cat", cat), ("cot", cot)))}
    rng = np.random.default_rng(5)
    fonts = render.font_paths("train")
    style = render.random_tile_style(np.random.default_rng(1), fonts)
    board = render.random_board_style(np.random.default_rng(2))
    image, corners, _ = render.render_board(cot, board, style, rng, hands=1)
    hand, _ = render.photograph(image, corners, render.Camera(size=(1280, 960), board_frac=0.8, tilt=0.1, turn=2.0), rng)
    # The empty board, Ann's CAT, a hand over the board while Ben lays COT, then the board still.
    frames = [still["empty"]] * 4 + [still["cat"]] * 5 + [hand] * 3 + [still["cot"]] * 5
    out = io.StringIO()
    code = watch(frames, ["Ann", "Ben"], "en", Lexicon.from_words(["CAT", "COT"], "t"), None, out, frames=4)
    lines = [line for line in out.getvalue().splitlines() if "\tnote:" not in line]
    assert lines == ["Ann\tG8\tacross\tCAT\t10", "Ben\tG8\tdown\tCOT\t6", "totals: Ann=10 Ben=6"], out.getvalue()
    assert code == 0
