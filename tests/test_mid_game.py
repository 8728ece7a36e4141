"""A game the camera joins mid-way: ``replay --mid-game`` / ``watch --mid-game``.

The first picture with tiles is the board as found (the ``position`` event), with the scores so far
the players give; every later picture is a move as usual.
"""

from __future__ import annotations

import io

import pytest

from companion.errors import CompanionError
from companion.lexicon import Lexicon
from companion.replay import CameraTable, MidGame

from tests.test_replay import EMPTY, _cli, _photos, _reading, put, reading

#: CAT across from G8 and COT down from its C: five tiles
FOUND = put(put(EMPTY, "G8", "CAT"), "G8", "COT", down=True)
WORDS = ["CAT", "COT", "CATS", "TO", "TOE", "TIE"]


def _joining(words=WORDS, **mid):
    out = io.StringIO()
    table = CameraTable(["Ann", "Ben"], "en", Lexicon.from_words(words, "test"), None, out,
                        mid_game=MidGame(**mid))
    return table, out


def test_the_first_picture_with_tiles_is_the_board_as_found_not_a_play():
    table, out = _joining(scores={"Ann": 24, "Ben": 9}, to_move="Ben")
    table.take(reading(FOUND), "p1", True)
    state = table.referee.state
    assert out.getvalue().splitlines() == ["p1\tboard as found: 5 tiles; scores so far Ann=24 Ben=9; Ben to move"]
    assert state.board.tile_count() == 5 and state.scores == (24, 9) and state.players[state.to_move] == "Ben"
    assert [t.kind for t in state.turns] == ["carried", "carried"]


def test_the_next_picture_is_the_next_players_move_scored_on_the_board_as_found():
    table, out = _joining(scores={"Ann": 24, "Ben": 9}, to_move="Ben")
    table.take(reading(FOUND), "p1", True)
    table.take(reading(put(FOUND, "J8", "S")), "p2", True)      # CATS: 3 + 1 + 1 + 1
    assert out.getvalue().splitlines()[-1] == "Ben\tG8\tacross\tCATS\t6"
    assert table.referee.state.scores == (24, 15)


def test_a_blank_on_the_board_as_found_is_named_where_the_word_list_allows_one_letter():
    table, out = _joining(words=["CAT", "COT"])
    table.take(reading(put(FOUND, "I8", "?")), "p1", True)        # CA? across: only CAT
    assert table.referee.state.board[7, 8].letter == "T" and table.referee.state.board[7, 8].blank
    assert "p1\tnote: the blank on I8 is taken as T, the only letter the word list allows there" in out.getvalue()


def test_a_blank_on_the_board_as_found_is_asked_where_the_word_list_allows_more():
    table, out = _joining(words=["CAT", "CAB", "COT"])
    table.take(reading(put(FOUND, "I8", "?")), "p1", True)
    assert ("p1\tquestion: which letter does the blank on I8 stand for? (the word list allows B, T)"
            in out.getvalue())
    assert table.referee.state.board[7, 8].letter == "?"


def test_words_of_the_board_as_found_the_word_list_lacks_are_said_not_refused():
    table, out = _joining(words=["CAT"])
    table.take(reading(FOUND), "p1", True)
    assert "words the word list lacks: COT" in out.getvalue()
    assert table.referee.state.board.tile_count() == 5


def test_a_letter_read_unsure_on_the_board_as_found_is_asked():
    table, out = _joining()
    table.take(_reading(FOUND, {(7, 8): ("T", 0.6)}), "p1", True)
    assert "p1\tquestion: is the tile on I8 T? (the camera is 60% sure)" in out.getvalue()
    assert table.referee.state.board.tile_count() == 5


def test_a_covered_square_holds_up_the_board_as_found():
    found = put(FOUND, "I8", "#")
    labels = reading(found)
    labels.kinds[7, 8] = "covered"
    table, out = _joining()
    table.take(labels, "p1", True)
    assert out.getvalue().startswith("p1\tERROR squares covered or unreadable on the board as found: I8")
    assert table.referee.state.board.is_empty
    table.take(labels, "f9", False, wait_when_covered=True)
    assert "f9\twaiting:" in out.getvalue() and table.referee.state.board.is_empty


def test_a_covered_square_joined_to_no_tile_does_not_hold_up_the_board_as_found():
    # glare on A1 and B1, far from the tiles: a board's tiles all join up, so none is there
    found = put(FOUND, "A1", "##")
    labels = reading(found)
    labels.kinds[0, 0] = labels.kinds[0, 1] = "covered"
    table, out = _joining()
    table.take(labels, "p1", True)
    assert "p1\tnote: A1, B1 covered or unreadable, joined to no tile: no tile of the board can be there" in out.getvalue()
    assert table.referee.state.board.tile_count() == 5


def test_covered_squares_joined_to_a_tile_through_each_other_hold_up_the_board_as_found():
    labels = reading(put(FOUND, "J8", "##"))             # a hand on J8 and K8, beside CAT's T
    labels.kinds[7, 9] = labels.kinds[7, 10] = "covered"
    table, out = _joining()
    table.take(labels, "f1", False, wait_when_covered=True)
    assert out.getvalue() == "f1\twaiting: squares covered or unreadable on the board as found: J8, K8\n"
    assert table.referee.state.board.is_empty


def test_tiles_that_are_no_board_in_play_are_refused_and_the_next_picture_tried():
    table, out = _joining()
    table.take(reading(put(EMPTY, "A1", "CAT")), "p1", True)         # off the centre square
    assert "p1\tERROR the tiles read are not a board in play: no tile on the centre square H8" in out.getvalue()
    table.take(reading(FOUND), "p2", True)
    assert table.referee.state.board.tile_count() == 5


def test_an_empty_board_first_means_the_game_is_scored_from_its_first_move():
    table, out = _joining()
    table.take(reading(EMPTY), "p1", True)
    table.take(reading(put(EMPTY, "G8", "CAT")), "p2", True)
    lines = out.getvalue().splitlines()
    assert "the game is scored from its first move" in lines[0]
    assert lines[-1] == "Ann\tG8\tacross\tCAT\t10"


def test_joining_mid_way_names_only_players_of_the_game():
    with pytest.raises(CompanionError, match="Zed is not a player of this game"):
        _joining(scores={"Zed": 3})
    with pytest.raises(CompanionError, match="Zed is not a player"):
        _joining(to_move="Zed")


def test_a_game_joined_mid_way_from_photos_is_scored_saved_and_exported_as_its_event_log(tmp_path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    db = str(tmp_path / "games.db")
    folder = _photos(tmp_path / "evening", [FOUND, put(FOUND, "J8", "S")])
    code, out, err = _cli(capsys, "replay", folder, "--players", "Ann,Ben", "--mid-game", "--scores", "24,9",
                          "--to-move", "Ben", "--lexicon", str(words), "--db", db)
    assert code == 0, out + err
    assert out.splitlines() == ["move01.png\tboard as found: 5 tiles; scores so far Ann=24 Ben=9; Ben to move",
                                "Ben\tG8\tacross\tCATS\t6", "totals: Ann=24 Ben=15"], out
    code, out, err = _cli(capsys, "game", "export", "1", "--db", db)
    assert code != 0 and "--format jsonl" in err and "Traceback" not in err
    code, out, _ = _cli(capsys, "game", "export", "1", "--format", "jsonl", "--db", db)
    assert code == 0 and '"type": "position"' in out


def test_scores_so_far_go_with_mid_game_one_a_player(tmp_path, capsys):
    folder = _photos(tmp_path / "p", [])
    code, _, err = _cli(capsys, "replay", folder, "--players", "Ann,Ben", "--scores", "3,4", "--no-save")
    assert code != 0 and "add --mid-game" in err
    code, _, err = _cli(capsys, "replay", folder, "--players", "Ann,Ben", "--mid-game", "--scores", "3", "--no-save")
    assert code != 0 and "in the order of --players (2 of them" in err
    code, _, err = _cli(capsys, "replay", folder, "--game", "1", "--mid-game", "--db", str(tmp_path / "g.db"))
    assert code != 0 and "Traceback" not in err
