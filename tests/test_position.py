"""The board as found: a game the referee joins mid-way (the ``position`` event).

A camera set up after the first moves, or a game carried over from a paper scoresheet, starts from
the tiles already down and the scores so far; from there every turn is refereed as usual.
"""

from __future__ import annotations

import pytest

from companion.errors import CompanionError, IllegalPlay, RuleViolation
from companion.gcg import events_to_gcg
from companion.scoresheet import format_scoresheet
from companion.tiles import get_tileset

from tests.test_game import UNDO, conserved, play, rejected, replay, start

#: CAT across from G8 (the centre is H8) and TO down from its T.
FOUND = {"G8": "C", "H8": "A", "I8": "T", "I9": "O"}


def position(tiles=None, **extra) -> dict:
    return {"type": "position", "tiles": dict(FOUND if tiles is None else tiles), **extra}


def test_the_board_as_found_puts_its_tiles_down():
    state = replay(start(), position()).state
    assert {str(t) for _, t in state.board.tiles()} == {"C", "A", "T", "O"}
    assert state.board.tile_count() == 4


def test_the_tiles_found_come_out_of_the_bag_and_the_racks_stay_full():
    state = replay(start(), position()).state
    assert state.bag == 100 - 14 - 4
    assert state.rack_counts == (7, 7)
    assert conserved(state)


def test_scores_so_far_are_carried_as_scoresheet_lines():
    state = replay(start(), position(scores={"Ann": 24, "Bob": 9})).state
    assert state.scores == (24, 9)
    assert [(t.kind, t.score, t.total) for t in state.turns] == [("carried", 24, 24), ("carried", 9, 9)]
    assert "score before the referee began (the board as found: 4 tiles)" in format_scoresheet(state)


def test_a_player_not_named_in_the_scores_has_none_so_far():
    assert replay(start("Ann", "Bob", "Cy"), position(scores={"Bob": 30})).state.scores == (0, 30, 0)


def test_the_first_player_moves_first_unless_the_table_says_whose_turn_it_is():
    assert replay(start(), position()).state.to_move == 0
    assert replay(start(), position(to_move="Bob")).state.to_move == 1


def test_a_play_on_the_board_as_found_scores_its_cross_words():
    # S on J8 makes CATS: C3 A1 T1 S1 on the found tiles (J8 is no premium square) = 6
    r = replay(start(), position(scores={"Ann": 24, "Bob": 9}, to_move="Bob"), play("Bob", J8="S"))
    turn = r.state.turns[-1]
    assert (turn.score, turn.total, turn.words) == (6, 15, ("CATS",))


def test_a_blank_on_the_board_as_found_scores_nothing_in_later_words():
    r = replay(start(), position({"G8": "C", "H8": "a", "I8": "T"}), play("Ann", J8="S"))
    assert r.state.turns[-1].score == 3 + 0 + 1 + 1


def test_the_board_as_found_is_set_only_before_the_first_turn():
    r = replay(start(), play("Ann", H8="C", I8="A", J8="T"))
    assert "only before the first turn" in rejected(r, position(), RuleViolation)


def test_the_board_as_found_is_set_only_once():
    r = replay(start(), position())
    assert "only before the first turn" in rejected(r, position({"H8": "A", "H9": "T"}), RuleViolation)


def test_a_board_in_play_covers_the_centre_square():
    r = replay(start())
    assert "centre square H8" in rejected(r, position({"A1": "A", "B1": "T"}), IllegalPlay)


def test_a_board_in_play_has_its_tiles_joined_up():
    r = replay(start())
    assert "join up" in rejected(r, position({"H8": "A", "I8": "T", "A1": "Q"}), IllegalPlay)


def test_a_board_in_play_shows_two_tiles_or_more():
    r = replay(start())
    assert "two tiles or more" in rejected(r, position({"H8": "A"}), IllegalPlay)


def test_the_board_as_found_shows_no_more_of_a_letter_than_the_set_has():
    r = replay(start())
    assert "only 1" in rejected(r, position({"G8": "Z", "H8": "Z", "I8": "A"}), IllegalPlay)


def test_the_board_as_found_holds_no_more_tiles_than_were_out_of_the_bag():
    # four racks of seven leave 72 tiles for the board; 73 of the set's tiles in rows 3-7 are too many
    en = get_tileset("en")
    letters = [ch for ch, n in sorted(en.counts.items()) for _ in range(n)][:73]
    squares = [f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}" for r in range(3, 8) for c in range(15)][:73]
    tiles = dict(zip(squares, letters))          # rows 4 to 8, the centre H8 among them
    r = replay(start("Ann", "Bob", "Cy", "Di"))
    assert "only 72 can be out of the bag" in rejected(r, position(tiles), IllegalPlay)


def test_a_score_so_far_is_a_whole_number_of_points():
    r = replay(start())
    assert "whole number" in rejected(r, position(scores={"Ann": "24"}), RuleViolation)


def test_a_score_so_far_belongs_to_a_player_of_the_game():
    r = replay(start())
    assert "not a player" in rejected(r, position(scores={"Zed": 24}), RuleViolation)


def test_a_letter_not_in_the_set_is_refused_on_the_board_as_found():
    r = replay(start())
    assert "no letter" in rejected(r, position({"H8": "A", "I8": "Ø"}), CompanionError)


def test_undo_takes_the_board_as_found_back_to_the_empty_board():
    r = replay(start(), position(scores={"Ann": 24}), UNDO)
    assert r.state.board.is_empty and r.state.scores == (0, 0) and r.state.bag == 86 and not r.state.turns


def test_a_game_joined_mid_way_has_no_gcg_form_but_its_event_log():
    with pytest.raises(CompanionError, match="--format jsonl"):
        events_to_gcg([start(), position()])


def test_a_tile_of_the_board_as_found_is_put_right_and_the_plays_on_it_scored_again():
    from companion.lexicon import Lexicon
    from companion.referee import Referee

    ref = Referee.start({"players": ["Ann", "Bob"]}, Lexicon.from_words(["CATS"], "t"))
    ref.submit(position())
    ref.submit(play("Ann", J8="S"))                  # CATS: 3 + 1 + 1 + 1
    ref.correct_tile("G8", "B")                      # it was BATS (B 3): the same score
    ref.correct_tile("I8", "x")                      # ... and a blank X: BAxS, 3 + 1 + 0 + 1
    assert ref.state.board[7, 6].letter == "B" and ref.state.turns[-1].score == 5
