"""What the players type while the camera watches: what it cannot see, and answers to its questions.

A pass, an exchange and a challenge leave the board as it was, so the camera cannot see them; a
blank's letter and a letter it was unsure of are its questions. The players type them
(``CameraTable.command``), the camera goes on watching.
"""

from __future__ import annotations

import io
import time

import pytest

from companion.lexicon import Lexicon
from companion.replay import CameraTable, TypedLines

from tests.test_replay import EMPTY, _reading, put, reading

CAT = put(EMPTY, "G8", "CAT")


def _table(words=("CAT", "COT", "CATS", "TO")):
    out = io.StringIO()
    return CameraTable(["Ann", "Ben"], "en", Lexicon.from_words(list(words), "test"), None, out), out


def _said(out) -> list[str]:
    return out.getvalue().splitlines()


def test_a_typed_pass_is_the_player_to_moves_and_the_next_play_is_the_next_players():
    table, out = _table()
    table.command("pass")
    table.take(reading(CAT), "f1", False)
    assert _said(out)[-1] == "Ben\tG8\tacross\tCAT\t10"


def test_a_typed_exchange_is_the_player_to_moves():
    table, out = _table()
    table.command("exchange 3")
    assert table.referee.state.turns[-1].kind == "exchange" and table.referee.state.players[table.referee.state.to_move] == "Ben"


def test_a_typed_challenge_of_a_phony_takes_the_play_back():
    table, out = _table(words=("CAT",))
    table.take(reading(put(EMPTY, "G8", "CAX")), "f1", False)
    table.command("challenge Ben")
    assert "UNACCEPTABLE: CAX is not" in out.getvalue()
    assert table.referee.state.board.is_empty
    # the tiles taken back, Ben plays: the camera sees his play on the empty board
    table.take(reading(CAT), "f2", False)
    assert _said(out)[-1] == "Ben\tG8\tacross\tCAT\t10"


def test_a_letter_the_camera_asked_about_is_put_right_and_the_play_scored_again():
    table, out = _table(words=("CAT", "COT"))
    table.take(_reading(put(EMPTY, "G8", "COT"), {(7, 7): ("O", 0.6)}), "f1", False)
    assert "question: is the tile on H8 O?" in out.getvalue()
    table.command("fix H8 A")
    assert _said(out)[-1] == "Ann\tG8\tacross\tCAT\t10"
    assert table.referee.state.board[7, 7].letter == "A" and table.referee.state.scores == (10, 0)


def test_a_blanks_letter_is_named_when_asked():
    table, out = _table(words=("CAT", "COT"))
    table.take(reading(put(EMPTY, "G8", "C?T")), "f1", False)
    assert "which letter does the blank on H8 stand for?" in out.getvalue()
    table.command("blank H8 O")
    tile = table.referee.state.board[7, 7]
    assert (tile.letter, tile.blank) == ("O", True) and _said(out)[-1] == "Ann\tG8\tacross\tCoT\t8"


def test_a_blank_the_camera_missed_is_added_to_the_last_play():
    table, out = _table(words=("CAT", "CATS"))
    table.take(reading(CAT), "f1", False)             # CATS played, its blank S read as an empty square
    table.command("fix J8 s")
    assert _said(out)[-1] == "Ann\tG8\tacross\tCATs\t10"
    assert table.referee.state.board[7, 9].blank


def test_glare_taken_for_a_tile_is_taken_off_the_last_play():
    table, out = _table(words=("CAT",))
    table.take(reading(put(CAT, "J8", "?")), "f1", False)       # glare on J8 read as a blank: CAT?
    table.command("fix J8 .")
    assert table.referee.state.board.tile_count() == 3 and _said(out)[-1] == "Ann\tG8\tacross\tCAT\t10"


def test_a_tile_put_right_after_later_turns_scores_them_again_and_says_so():
    table, out = _table()
    table.take(reading(CAT), "f1", False)
    table.command("pass")
    table.command("fix G8 H")                         # HAT: (4 + 1 + 1) x 2
    said = _said(out)
    assert said[-3] == "note: G8 put right; the turns from there on, scored again:"
    assert "Ann          G8 across HAT" in said[-2] and said[-2].endswith("12    12") and "passes" in said[-1]
    assert table.referee.state.scores == (12, 0)


def test_a_correction_that_breaks_a_rule_is_refused_and_the_play_kept():
    table, out = _table()
    table.take(reading(CAT), "f1", False)
    table.command("fix A1 S")                         # not in line with the rest
    assert _said(out)[-1].startswith("refused: not put right:")
    assert table.referee.state.board.tile_count() == 3 and table.referee.state.scores == (10, 0)


def test_a_typed_line_that_means_nothing_is_refused_by_name_and_help_says_what_to_type():
    table, out = _table()
    table.command("dance")
    assert "refused: unknown command 'dance'" in _said(out)[-1]
    table.command("fix H8")
    assert "write: fix SQUARE LETTER" in _said(out)[-1]
    table.command("help")
    assert "fix H8 Q" in out.getvalue() and "challenge NAME" in out.getvalue()
    assert table.command("quit") is False


def test_lines_typed_on_a_stream_are_handed_over_as_they_come():
    typed = TypedLines(io.StringIO("pass\nchallenge Ben\n"))
    got = []
    for _ in range(100):
        got += typed.pending()
        if len(got) == 2:
            break
        time.sleep(0.01)
    assert got == ["pass\n", "challenge Ben\n"]
    assert typed.pending() == []


class _Scripted:
    """Lines typed before given frames (a test's stand-in for the keyboard)."""

    def __init__(self, at: dict[int, list[str]]):
        self.at, self.frame = at, 0

    def pending(self) -> list[str]:
        lines = self.at.get(self.frame, [])
        self.frame += 1
        return lines


def test_watching_a_game_with_a_pass_typed_between_moves():
    render = pytest.importorskip("vision.render")
    if not render.font_paths("train"):
        pytest.skip("no fonts installed for rendering")
    from companion.replay import watch
    from tests.test_replay import photo

    cot = put(CAT, "G8", "COT", down=True)
    frames = [photo(CAT, seed=40)] * 5 + [photo(cot, seed=41)] * 5 + [photo(cot, seed=41)] * 2
    out = io.StringIO()
    code = watch(frames, ["Ann", "Ben"], "en", Lexicon.from_words(["CAT", "COT"], "t"), None, out, frames=4,
                 typed=_Scripted({6: ["pass"], 11: ["quit", "pass"]}))
    lines = [line for line in out.getvalue().splitlines() if "\tnote:" not in line]
    # Ann: CAT; Ben passes (typed); Ann: COT; quit stops watching before the last frame (no pass after it)
    assert lines[0] == "Ann\tG8\tacross\tCAT\t10", out.getvalue()
    assert "Ben" in lines[1] and "pass" in lines[1]
    assert lines[-2:] == ["Ann\tG8\tdown\tCOT\t6", "totals: Ann=16 Ben=0"], out.getvalue()
    assert code == 0
