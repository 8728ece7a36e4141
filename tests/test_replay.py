"""Photos to scores: ``companion replay`` on a short game photographed by the simulated camera."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest

from companion.lexicon import Lexicon
from companion.replay import replay_folder

render = pytest.importorskip("vision.render")

EMPTY = ["." * 15] * 15


def put(rows: list[str], start: str, word: str, down: bool = False) -> list[str]:
    grid = [list(r) for r in rows]
    col, row = ord(start[0]) - 65, int(start[1:]) - 1
    for i, ch in enumerate(word):
        r, c = (row + i, col) if down else (row, col + i)
        grid[r][c] = ch
    return ["".join(r) for r in grid]


def photo(labels: list[str], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    fonts = render.font_paths("train")
    if not fonts:
        pytest.skip("no fonts installed for rendering")
    style = render.random_tile_style(np.random.default_rng(1), fonts)
    board = render.random_board_style(np.random.default_rng(2))
    image, corners, _ = render.render_board(labels, board, style, rng, placement_jitter=0.02)
    cam = render.Camera(size=(1280, 960), board_frac=0.8, tilt=0.1, turn=2.0)
    frame, _ = render.photograph(image, corners, cam, rng)
    return frame


def test_replay_scores_each_photographed_move_and_prints_totals(tmp_path):
    # Ann: CAT across from G8 (G8 C, H8 A on the star, I8 T): (3 + 1 + 1) x 2 = 10.
    # Ben: COT down from G8 through the C (G9 O on a double letter, G10 T): 3 + 2 + 1 = 6.
    # Ann: the third photo shows no new tile: a pass.
    boards = [put(EMPTY, "G8", "CAT")]
    boards.append(put(boards[-1], "G8", "COT", down=True))
    boards.append(boards[-1])
    for i, labels in enumerate(boards):
        cv2.imwrite(str(tmp_path / f"move{i + 1:02d}.png"), photo(labels, seed=10 + i))
    out = io.StringIO()
    words = Lexicon.from_words(["CAT", "COT"], "test")
    code = replay_folder(str(tmp_path), ["Ann", "Ben"], "en", words, None, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Ann\tG8\tacross\tCAT\t10", out.getvalue()
    assert lines[1] == "Ben\tG8\tdown\tCOT\t6", out.getvalue()
    assert lines[2].startswith("Ann\tpass")
    assert lines[-1] == "totals: Ann=10 Ben=6"
    assert code == 0


def test_replay_of_a_folder_that_is_not_there(tmp_path):
    from companion.errors import CompanionError

    with pytest.raises(CompanionError, match="not a folder"):
        replay_folder(str(tmp_path / "nope"), ["Ann", "Ben"], "en", Lexicon.from_words(["CAT"], "t"))

