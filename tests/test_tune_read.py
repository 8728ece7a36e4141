"""The tuning rows' tool (scripts/tune_read.py): report seeds refused, runs compared board by board."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("tune_read", ROOT / "scripts" / "tune_read.py")
tune = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tune)


def test_the_reports_seeds_are_refused_for_tuning():
    for seed in (5000, 5100, 5131, 6000, 6110, 30900, 30879, 31900):     # 309xx: the large check's boards
        with pytest.raises(SystemExit, match="report"):
            tune.check_seed(seed)
    for seed in (7500, 8300, 9500, 4999, 6200, 30800, 31200):
        tune.check_seed(seed)


def _board(row, board, squares, wrong=0):
    tally = dict(tiles=50, tiles_right=50 - len(squares), tiles_unread=len(squares) - wrong, tiles_wrong=wrong,
                 empty_wrong=0, covered_wrong=0)
    return {"row": row, "board": board, "face": "FreeSans.ttf", "tally": tally,
            "squares": [[r, c, t, g, g, 0.5] for r, c, t, g in squares]}


def test_two_runs_are_compared_board_by_board(tmp_path):
    before = [_board("hard_cold", 0, [(7, 0, "K", ".")], wrong=1), _board("hard_cold", 1, [])]
    after = [_board("hard_cold", 0, []), _board("hard_cold", 1, [(3, 3, "E", "#")])]
    (tmp_path / "old_7500.json").write_text(json.dumps(before))
    (tmp_path / "new_7500.json").write_text(json.dumps(after))
    lines = tune.compare(tune.load(tmp_path, "old"), tune.load(tmp_path, "new"))
    assert "hard_cold" in lines[1] and "1 of 2" not in lines[1] and "2 of 2" in lines[1]   # both boards clean now
    assert any("board 0" in ln and "mended [(7, 0, 'K', '.')]" in ln and "broke []" in ln for ln in lines)
    assert any("board 1" in ln and "broke [(3, 3, 'E', '#')]" in ln for ln in lines)
    with pytest.raises(SystemExit, match="no run called"):
        tune.load(tmp_path, "missing")


def test_runs_are_compared_on_the_seeds_both_read(tmp_path):
    (tmp_path / "old_7500.json").write_text(json.dumps([_board("hard_cold", 0, [])]))
    (tmp_path / "new_7500.json").write_text(json.dumps([_board("hard_cold", 0, [])]))
    (tmp_path / "new_7700.json").write_text(json.dumps([_board("hard_cold", 0, [(1, 1, "A", "B")], wrong=1)]))
    lines = tune.compare(tune.load(tmp_path, "old"), tune.load(tmp_path, "new"))
    assert "1 ->   1 of 1" in lines[1] and len(lines) == 2        # seed 7700 only the new run read


def test_squares_under_a_hand_shown_otherwise_are_compared_too(tmp_path):
    # a square partly under a hand shown as another letter makes its board one with a wrong square
    before, after = _board("hard_ref", 3, []), _board("hard_ref", 3, [])
    before["tally"]["covered_wrong"] = 1
    before["under_hand"], after["under_hand"] = [[0, 4, "X", "Y", "Y", 0.89, 0.64]], []
    (tmp_path / "old_7500.json").write_text(json.dumps([before]))
    (tmp_path / "new_7500.json").write_text(json.dumps([after]))
    lines = tune.compare(tune.load(tmp_path, "old"), tune.load(tmp_path, "new"))
    assert "0 ->   1 of 1" in lines[1]
    assert any("under a hand" in ln and "mended [(0, 4, 'X', 'Y')]" in ln for ln in lines)


def test_a_run_is_not_mixed_with_a_run_whose_tag_it_begins(tmp_path):
    (tmp_path / "rc_7500.json").write_text(json.dumps([_board("hard_cold", 0, [])]))
    (tmp_path / "rc_54_54000.json").write_text(json.dumps([_board("hard_cold", 0, [(7, 0, "K", "#")])]))
    assert [seed for seed, _ in tune.load(tmp_path, "rc")["hard_cold"]] == [7500]
    assert [seed for seed, _ in tune.load(tmp_path, "rc_54")["hard_cold"]] == [54000]


def test_a_runs_rows_are_told_by_tile_face(tmp_path):
    boards = [_board("unseen_cold", 0, [(1, 1, "E", "F")], wrong=1), _board("unseen_cold", 1, [])]
    boards[1]["face"] = "C059-Bold.otf"
    (tmp_path / "run_7500.json").write_text(json.dumps(boards))
    lines = tune.faces(tune.load(tmp_path, "run"))
    assert len(lines) == 2
    c059, free = lines
    assert "C059-Bold.otf" in c059 and "right 100.00 %" in c059
    assert "FreeSans.ttf" in free and "right  98.00 %" in free and "wrong   1" in free


def test_a_runs_misreadings_are_counted_by_kind_of_mistake(tmp_path):
    board = _board("hard_cold", 0, [(1, 1, ".", "?"), (2, 2, ".", "?"), (3, 3, "E", "F"), (4, 4, "?", ".")], wrong=3)
    board["squares"] += [[5, 5, "K", "#", "K", 0.55], [6, 6, "?", "#", "?", 0.6], [7, 7, ".", "#", ".", 0.5]]
    (tmp_path / "run_7500.json").write_text(json.dumps([board]))
    (line,) = tune.confusions(tune.load(tmp_path, "run"))
    assert line.split(None, 1)[1] == ("empty -> blank 2, # blank 1, # guessed right 1, blank -> empty 1, "
                                      "letter -> letter 1")
    assert tune.mistake("Q", "#", "O") == "# guessed another"
    assert tune.mistake("A", ".", "") == "letter -> empty"


def test_a_runs_misreadings_are_counted_by_the_reader_steps_that_touched_them(tmp_path):
    board = _board("unseen_cold", 0, [(1, 1, "E", "F"), (4, 4, "?", ".")], wrong=2)
    board["squares"] += [[5, 5, "K", "#", "K", 0.55], [6, 6, "I", "#", "I", 0.8], [7, 7, "I", "#", "I", 0.9]]
    board["steps"] = {"6,6": ["_glared"], "7,7": ["_glared", "_faint_stroke_lost"]}
    (tmp_path / "run_7500.json").write_text(json.dumps([board]))
    lines = tune.steps(tune.load(tmp_path, "run"))
    asked = next(ln for ln in lines if "# guessed right" in ln)
    assert asked.startswith("unseen_cold") and "(3)" in asked
    assert "1 first reading" in asked and "1 _glared," in asked and "1 _glared+_faint_stroke_lost" in asked
    assert any("letter -> letter (1): 1 first reading" in ln for ln in lines)
    # a run made before the steps were noted: every mistake is the first reading's
    del board["steps"]
    (tmp_path / "old_7500.json").write_text(json.dumps([board]))
    assert any("# guessed right (3): 3 first reading" in ln for ln in tune.steps(tune.load(tmp_path, "old")))


def test_the_steps_a_run_watches_are_the_readers_and_note_the_squares_they_return():
    import numpy as np

    from vision import read as R
    for name in tune.READER_STEPS:
        assert callable(getattr(R.BoardReader, name)), name       # a renamed step is caught here
    for name in tune.MODULE_STEPS:
        assert callable(getattr(R, name)), name

    class Reader:
        def _board_letters(self, *a):
            return {(3, 4): ("E", 0.9)}

    fake = type("FakeRead", (), {})()
    fake.BoardReader = Reader
    fake._glared = lambda an, labels=None: np.eye(15, dtype=bool)[:, ::-1] & (np.arange(15) < 2)[:, None]
    fake._unread_tiles = lambda colour, labels: [(3, 4), (9, 9)]
    touched = tune.watch_steps(fake)
    Reader()._board_letters()
    fake._glared(None)
    fake._unread_tiles(None, None)
    assert touched == {(3, 4): ["_board_letters", "_unread_tiles"], (9, 9): ["_unread_tiles"],
                       (0, 14): ["_glared"], (1, 13): ["_glared"]}


def test_a_board_shown_again_is_the_board_the_benchmark_reads(tmp_path):
    # boards 0 and 1 of a tuning row, each shown on its own: together they are what the benchmark
    # tallies for its first two boards -- the same draws, the same reading
    from vision import read as R
    step = R.BoardReader._board_letters
    shown = [tune.show_board(ROOT, 7500, "hard_cold", b) for b in (0, 1)]
    assert R.BoardReader._board_letters is step                       # the reader left unwatched
    import bench_read as B

    class Seeded:
        seed = 7500

    whole = B.bench_renders(2, B._values_seed(Seeded, "train", True, False), "train", False, hard=True,
                            printed=B.EN_VALUES, read_values=True)
    for k in ("tiles", "tiles_right", "tiles_unread", "empty", "empty_right", "covered_ok"):
        assert sum(s["tally"][k] for s in shown) == whole[k], k
    lines = tune.show_lines(shown[0])
    assert len(lines) == 1 + 15 + len(shown[0]["squares"])
    assert all(len(ln) == 15 + 3 + 15 + 3 + 15 for ln in lines[1:16])
    saved = tune.save_pictures(shown[0], tmp_path, "b0")
    assert saved[0].name == "b0_picture.png" and all(p.exists() for p in saved)


def test_a_row_that_is_not_a_tuning_row_is_refused():
    with pytest.raises(SystemExit, match="no row called"):
        tune.row_camera("hard_warm")
    assert tune.row_camera("unseen_ref") == ("unseen", "heldout", True, True, False)
    assert tune.row_camera("grey_std") == ("std", "train", False, False, True)
