"""A recorded game photographed turn by turn and scored by the camera table (the benchmark's
machinery in scripts/bench_replay.py, checked on small games)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"

_spec = importlib.util.spec_from_file_location("bench_replay", ROOT / "scripts" / "bench_replay.py")
bench = importlib.util.module_from_spec(_spec)
sys.modules["bench_replay"] = bench   # dataclasses look their module up by name
_spec.loader.exec_module(bench)

from companion.gcg import gcg_to_events, parse_gcg  # noqa: E402

# Ann: CAT across from G8 ((3 + 1 + 1) x 2 = 10); Ben: COT down through its C (3 + 2 + 1 = 6);
# Ann: exchanges three tiles (0).
THREE_TURNS = """#player1 Ann Ann
#player2 Ben Ben
>Ann: ACEIRTU 8G CAT +10 10
>Ben: EOTNRSL G8 .OT +6 6
>Ann: EIRUQVW -QVW +0 10
"""


def _turns(text: str):
    return bench.true_turns(gcg_to_events(parse_gcg(text, "game.gcg")))


def test_a_recorded_game_is_cut_into_the_turns_a_camera_sees():
    turns = _turns(THREE_TURNS)
    assert [(t.player, t.score) for t in turns] == [(0, 10), (1, 6), (0, 0)]
    assert bench.board_labels(turns[0].board)[7] == "......CAT......"
    assert [row[6] for row in bench.board_labels(turns[1].board)[7:10]] == ["C", "O", "T"]
    assert turns[2].board == turns[1].board          # an exchange puts no tile down


def test_a_withdrawn_phony_is_a_turn_with_no_new_tile_and_no_points():
    path = SHARED / "gcg" / "macondo__phony_tiles_returned.gcg"
    if not path.exists():
        pytest.skip("../shared/gcg not here")
    from companion.gcg import read_gcg

    turns = bench.true_turns(gcg_to_events(read_gcg(path)))
    boek = next(i for i, t in enumerate(turns) if t.player == 1 and i > 0 and t.board == turns[i - 1].board
                and t.score == 0)
    assert bench.board_labels(turns[boek].board)[1][12] == "."   # M2 empty again: BOEK taken back
    assert turns[boek + 1].score == 56                            # QuOP, the next turn, as recorded


def test_a_recorded_game_photographed_turn_by_turn_is_scored_as_recorded(tmp_path):
    render = pytest.importorskip("vision.render")
    if not render.font_paths("train"):
        pytest.skip("no fonts installed for rendering")
    path = tmp_path / "game.gcg"
    path.write_text(THREE_TURNS)
    tally = bench.play_game(path, seed=3, role="train", hard=False)
    assert tally.turns == 3
    assert tally.wrong == 0 and tally.refused == 0, tally.faults
    assert tally.right + tally.asked + tally.retaken == 3


def test_a_photo_found_but_refused_by_the_reader_is_taken_again_not_the_end_of_the_run(tmp_path, monkeypatch):
    # a hand-held photo can pass the locator and still be refused by the reader (smeared, too
    # dark): `companion replay` says so and takes the next photo; the benchmark does the same
    render = pytest.importorskip("vision.render")
    if not render.font_paths("train"):
        pytest.skip("no fonts installed for rendering")
    from companion.replay import CameraTable
    from vision.errors import VisionError

    real = CameraTable.read
    calls = []

    def first_refused(self, picture):
        calls.append(1)
        if len(calls) == 1:
            raise VisionError("The board picture is smeared: hold the camera still and take it again.", "smeared")
        return real(self, picture)

    monkeypatch.setattr(CameraTable, "read", first_refused)
    path = tmp_path / "game.gcg"
    path.write_text(THREE_TURNS)
    tally = bench.play_game(path, seed=3, role="train", hard=False)
    assert tally.turns == 3 and tally.retaken == 1
    assert tally.wrong == 0 and tally.refused == 0, tally.faults
