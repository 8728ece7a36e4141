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


def photo_with_a_hand_on(labels, squares, seed):
    """A still picture of the board with a hand resting over ``squares`` (row, column ranges)."""
    import cv2

    rng = np.random.default_rng(seed)
    fonts = render.font_paths("train")
    style = render.random_tile_style(np.random.default_rng(1), fonts)
    board = render.random_board_style(np.random.default_rng(2))
    cell = 48
    image, corners, _ = render.render_board(labels, board, style, rng, placement_jitter=0.02, cell=cell)
    (r0, r1), (c0, c1) = squares
    m = cell                                     # the grid starts one square in (margin 1.0)
    cv2.rectangle(image, (m + c0 * cell - 6, m + r0 * cell - 6), (m + c1 * cell + 6, image.shape[0]), (95, 140, 205), -1)
    frame, _ = render.photograph(image, corners, render.Camera(size=(1280, 960), board_frac=0.8, tilt=0.1, turn=2.0), rng)
    return frame


def test_a_hand_resting_off_the_plays_line_does_not_hold_the_play_up():
    from companion.replay import watch
    from vision.read import BoardReader, rectify_photo

    empty, cat = EMPTY, put(EMPTY, "G8", "CAT")
    cot = put(cat, "G8", "COT", down=True)
    corner = ((12, 15), (12, 15))                # an arm over the bottom right-hand corner, all game long
    frames = ([photo_with_a_hand_on(empty, corner, 30)] * 4 + [photo_with_a_hand_on(cat, corner, 31)] * 5
              + [photo_with_a_hand_on(cot, corner, 32)] * 5)
    seen = BoardReader("ABCDEFGHIJKLMNOPQRSTUVWXYZ").read(rectify_photo(frames[-1]))
    assert all("#" in row[12:] for row in seen.labels[12:]), seen.text()     # the arm is seen as covered
    out = io.StringIO()
    code = watch(frames, ["Ann", "Ben"], "en", Lexicon.from_words(["CAT", "COT"], "t"), None, out, frames=4)
    said = out.getvalue().splitlines()
    lines = [line for line in said if not any(k in line for k in ("\tnote:", "\tquestion:", "\twaiting:"))]
    assert lines == ["Ann\tG8\tacross\tCAT\t10", "Ben\tG8\tdown\tCOT\t6", "totals: Ann=10 Ben=6"], out.getvalue()
    assert sum("O15 covered or unreadable, off this play's line" in line for line in said) == 2, out.getvalue()
    assert code == 0


def test_a_hand_resting_on_the_plays_line_is_waited_for():
    from companion.replay import watch

    cat = put(EMPTY, "G8", "CAT")
    over_the_word = ((7, 9), (6, 10))            # rows 8-9, columns G-J: over CAT and below it
    frames = ([photo(EMPTY, seed=40)] * 4 + [photo_with_a_hand_on(cat, over_the_word, 41)] * 5
              + [photo(cat, seed=42)] * 5)
    out = io.StringIO()
    code = watch(frames, ["Ann", "Ben"], "en", Lexicon.from_words(["CAT"], "t"), None, out, frames=4)
    lines = [line for line in out.getvalue().splitlines() if not any(k in line for k in ("\tnote:", "\tquestion:"))]
    assert lines[-2:] == ["Ann\tG8\tacross\tCAT\t10", "totals: Ann=10 Ben=0"], out.getvalue()
    assert lines[:-2] and all("\twaiting: " in line for line in lines[:-2]), out.getvalue()
    assert code == 0


def test_a_board_turned_round_on_the_table_is_read_the_right_way_up_again():
    # the board (or the tablet on its stand) turned half round between two plays: read the old
    # way up every tile of the game would look new.  Here the tracker follows the turn and the
    # reader, whose way up was not yet sure, decides it again; where neither does, the table
    # reads the picture again with the way up decided afresh (CameraTable.checked, tested in
    # test_replay.py with a reader that reads the wrong way round)
    from companion.replay import watch

    first = put(EMPTY, "G8", "CARTONS")
    then = put(first, "G8", "COT", down=True)
    frames = [photo(first, seed=31)] * 5 + [np.ascontiguousarray(np.rot90(photo(then, seed=32), 2))] * 5
    out = io.StringIO()
    code = watch(frames, ["Ann", "Ben"], "en", Lexicon.from_words(["CARTONS", "COT"], "t"), None, out, frames=4)
    lines = [line for line in out.getvalue().splitlines() if "\tnote:" not in line and "\tquestion:" not in line]
    assert lines == ["Ann\tG8\tacross\tCARTONS\t70", "Ben\tG8\tdown\tCOT\t6", "totals: Ann=70 Ben=6"], out.getvalue()
    assert "another way round now" in out.getvalue()
    assert code == 0


def test_a_camera_set_up_mid_game_takes_its_first_still_board_as_found_then_scores_the_moves():
    from companion.replay import MidGame, watch

    cat = put(EMPTY, "G8", "CAT")
    cot = put(cat, "G8", "COT", down=True)
    cots = put(cot, "G10", "TO")                       # Ann: TO across from the T of COT
    frames = [photo(cot, seed=30)] * 5 + [photo(cots, seed=31)] * 5
    out = io.StringIO()
    code = watch(frames, ["Ann", "Ben"], "en", Lexicon.from_words(["CAT", "COT", "TO"], "t"), None, out, frames=4,
                 mid_game=MidGame({"Ann": 10, "Ben": 6}))
    lines = [line for line in out.getvalue().splitlines() if "\tnote:" not in line]
    assert lines[0].endswith("\tboard as found: 5 tiles; scores so far Ann=10 Ben=6; Ann to move"), out.getvalue()
    assert lines[1:] == ["Ann\tG10\tacross\tTO\t2", "totals: Ann=12 Ben=6"], out.getvalue()
    assert code == 0


def test_watching_a_camera_that_gives_smaller_pictures_than_asked_for_says_so_first():
    from companion.replay import watch
    from vision.frames import ArraySource

    source = ArraySource([_empty_photo()] * 4)
    source.description = "camera 0"
    source.notes.append("gives 640x480 pictures, not the 1920x1080 asked for: keep the board large in the picture")
    out = io.StringIO()
    watch(source, ["Ann", "Ben"], "en", Lexicon.from_words(["CAT"], "t"), None, out, frames=4)
    assert out.getvalue().splitlines()[0] == ("camera 0\tnote: gives 640x480 pictures, not the 1920x1080 asked "
                                              "for: keep the board large in the picture")


def _empty_photo():
    return photo(EMPTY, seed=20)
