"""Placement rules: one line, no gaps, connected, the first play on the centre; and the words a play forms.

No word list is involved here: any letters are fine, only where the tiles go matters.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board import Board, Placement, Tile, parse_square
from companion.errors import CompanionError, IllegalPlay
from companion.layout import BoardLayout, standard_layout
from companion.play import ACROSS, DOWN, extract_placements, play_from_boards, validate_play

LAYOUT = standard_layout()


def rows_with(**squares: str) -> list[str]:
    grid = [["."] * 15 for _ in range(15)]
    for name, letter in squares.items():
        r, c = parse_square(name)
        grid[r][c] = letter
    return ["".join(r) for r in grid]


def board_with(**squares: str) -> Board:
    return Board.from_rows(rows_with(**squares))


def tiles(**squares: str) -> list[Placement]:
    """Placements from ``H8="C"``; a lower-case letter is a blank."""
    return [Placement(parse_square(n), Tile(l.upper(), l.islower())) for n, l in squares.items()]


#: CAT across from H8: C on H8 (the star), A on I8, T on J8.
CAT = dict(H8="C", I8="A", J8="T")


def error_of(board: Board, placements) -> str:
    with pytest.raises(IllegalPlay) as err:
        validate_play(board, placements, LAYOUT)
    return str(err.value)


# ----------------------------------------------------------------- the first play
def test_first_play_must_cover_the_centre():
    msg = error_of(Board(), tiles(A1="C", B1="A", C1="T"))
    assert "centre" in msg and "H8" in msg


def test_first_play_covering_the_centre_is_legal():
    play = validate_play(Board(), tiles(**CAT), LAYOUT)
    assert play.main_word.text == "CAT"
    assert play.direction == ACROSS
    assert play.cross_words == ()


def test_first_play_may_run_down_through_the_centre():
    play = validate_play(Board(), tiles(H6="D", H7="O", H8="G"), LAYOUT)
    assert play.direction == DOWN
    assert play.main_word.text == "DOG"


def test_first_play_needs_at_least_two_letters():
    msg = error_of(Board(), tiles(H8="A"))
    assert "two letters" in msg


def test_first_play_centre_comes_from_the_layout():
    # A 3x3 layout whose star is in the top-left corner.
    layout = BoardLayout("corner", ("*..", "...", "..."))
    board = Board(3)
    validate_play(board, tiles(A1="A", B1="B"), layout)
    with pytest.raises(IllegalPlay) as err:
        validate_play(board, tiles(B2="A", C2="B"), layout)
    assert "A1" in str(err.value)


def test_first_play_without_a_layout_uses_the_middle_square():
    with pytest.raises(IllegalPlay):
        validate_play(Board(), tiles(A1="A", B1="B"))
    assert validate_play(Board(), tiles(H8="A", I8="B")).main_word.text == "AB"


# ----------------------------------------------------------------- one line, no gaps, connected
def test_no_tiles_is_not_a_play():
    assert "no tiles" in error_of(Board(), [])


def test_tiles_not_in_one_line_error_names_the_squares():
    msg = error_of(Board(), tiles(H8="C", I8="A", I9="T"))
    assert "one line" in msg and "H8, I8, I9" in msg


def test_tiles_with_a_gap_error_names_the_gap():
    msg = error_of(Board(), tiles(H8="C", J8="T"))
    assert "gap" in msg and "I8" in msg


def test_gap_in_a_down_play_names_every_empty_square():
    msg = error_of(board_with(**CAT), tiles(H9="A", H12="E"))
    assert "H10, H11" in msg


def test_tile_already_on_the_board_fills_the_gap():
    # S on G8 and S on K8 around CAT: the word SCATS plays through C, A and T.
    play = validate_play(board_with(**CAT), tiles(G8="S", K8="S"), LAYOUT)
    assert play.main_word.text == "SCATS"
    assert play.main_word.new == (True, False, False, False, True)


def test_later_play_must_touch_a_tile_on_the_board():
    msg = error_of(board_with(**CAT), tiles(A1="N", B1="O"))
    assert "touch" in msg and "A1, B1" in msg


def test_diagonal_contact_is_not_touching():
    msg = error_of(board_with(**CAT), tiles(K9="N", L9="O"))
    assert "touch" in msg


def test_square_already_holding_a_tile_is_named():
    msg = error_of(board_with(**CAT), tiles(I8="E", I9="N"))
    assert "already hold" in msg and "I8" in msg


def test_two_tiles_on_one_square_is_named():
    placements = tiles(H9="A") + tiles(H9="B")
    msg = error_of(board_with(**CAT), placements)
    assert "one square" in msg and "H9" in msg


def test_tiles_off_the_board_are_rejected():
    msg = error_of(board_with(**CAT), [Placement((15, 7), Tile("S"))])
    assert "off the board" in msg


def test_illegal_play_is_a_companion_error():
    assert issubclass(IllegalPlay, CompanionError)


# ----------------------------------------------------------------- the words a play forms
def test_play_extending_an_existing_word():
    # Hook: an S on K8 makes CATS; the S is the only new tile.
    play = validate_play(board_with(**CAT), tiles(K8="S"), LAYOUT)
    assert play.main_word.text == "CATS"
    assert play.main_word.new == (False, False, False, True)
    assert play.direction == ACROSS
    assert play.cross_words == ()


def test_front_hook_reads_the_whole_word():
    play = validate_play(board_with(**CAT), tiles(G8="S"), LAYOUT)
    assert play.main_word.text == "SCAT"
    assert play.main_word.start == (7, 6)


def test_single_tile_with_a_word_only_down_makes_that_the_main_word():
    play = validate_play(board_with(**CAT), tiles(H9="O"), LAYOUT)
    assert play.main_word.text == "CO"
    assert play.direction == DOWN
    assert play.cross_words == ()


def test_single_tile_forming_words_both_ways():
    # T on H9 under A on H8, X on I8: an O on I9 makes TO across and XO down.
    board = board_with(H8="A", I8="X", H9="T")
    play = validate_play(board, tiles(I9="O"), LAYOUT)
    assert sorted(w.text for w in play.words) == ["TO", "XO"]
    assert len(play.cross_words) == 1


def test_single_tile_main_word_is_the_longer_word():
    # B E on H9 I9 and Z on J8: a D on J9 makes BED across (3 letters) and ZD down (2): BED is the main word.
    board = board_with(H9="B", I9="E", J8="Z")
    play = validate_play(board, tiles(J9="D"), LAYOUT)
    assert play.main_word.text == "BED"
    assert play.direction == ACROSS
    assert [w.text for w in play.cross_words] == ["ZD"]


def test_cross_words_are_found_for_a_parallel_play():
    # A on H9 and N on I9 under CA of CAT: AN across, and CA and AN down.
    play = validate_play(board_with(**CAT), tiles(H9="A", I9="N"), LAYOUT)
    assert play.main_word.text == "AN"
    assert [w.text for w in play.cross_words] == ["CA", "AN"]
    assert all(w.direction == DOWN for w in play.cross_words)
    assert [w.text for w in play.words] == ["AN", "CA", "AN"]


def test_a_tile_with_nothing_beside_it_forms_no_cross_word():
    play = validate_play(board_with(**CAT), tiles(K8="S", L8="E"), LAYOUT)
    assert play.main_word.text == "CATSE"
    assert play.cross_words == ()


def test_play_through_letters_are_in_the_main_word():
    # Down through the A of CAT: B on I7, A already on I8, D on I9 and E on I10.
    play = validate_play(board_with(**CAT), tiles(I7="B", I9="D", I10="E"), LAYOUT)
    assert play.main_word.text == "BADE"
    assert play.main_word.new == (True, False, True, True)
    assert play.direction == DOWN
    assert play.tiles_used == 3


def test_blank_reads_as_its_letter_and_displays_in_lower_case():
    play = validate_play(Board(), tiles(H8="C", I8="a", J8="T"), LAYOUT)
    assert play.main_word.text == "CAT"
    assert play.main_word.display == "CaT"
    assert play.describe() == "H8 across CaT"


def test_describe_names_start_direction_and_words():
    play = validate_play(board_with(**CAT), tiles(H9="A", I9="N"), LAYOUT)
    assert play.describe() == "H9 across AN CA AN"


def test_placements_are_sorted_in_board_order():
    play = validate_play(Board(), tiles(J8="T", H8="C", I8="A"), LAYOUT)
    assert [p.square for p in play.placements] == [(7, 7), (7, 8), (7, 9)]


# ----------------------------------------------------------------- reading a play off two boards
def test_extract_placements_finds_the_new_tiles():
    before = board_with(**CAT)
    after = board_with(**CAT, K8="s")
    assert extract_placements(before, after) == (Placement((7, 10), Tile("S", True)),)


def test_extract_placements_removed_tile_names_the_squares():
    before = board_with(**CAT)
    after = board_with(H8="C")
    with pytest.raises(IllegalPlay) as err:
        extract_placements(before, after)
    assert "removed" in str(err.value) and "I8, J8" in str(err.value)


def test_extract_placements_changed_tile_names_the_squares():
    before = board_with(**CAT)
    after = board_with(H8="C", I8="O", J8="T")
    with pytest.raises(IllegalPlay) as err:
        extract_placements(before, after)
    assert "changed" in str(err.value) and "I8" in str(err.value)


def test_extract_placements_tile_turned_into_a_blank_is_a_change():
    with pytest.raises(IllegalPlay) as err:
        extract_placements(board_with(**CAT), board_with(H8="c", I8="A", J8="T"))
    assert "H8" in str(err.value)


def test_naming_an_unknown_blank_is_not_a_change():
    before = board_with(H8="C", I8="?", J8="T")
    after = board_with(H8="C", I8="a", J8="T", K8="S")
    assert extract_placements(before, after) == (Placement((7, 10), Tile("S")),)


def test_extract_placements_boards_of_different_sizes():
    with pytest.raises(IllegalPlay) as err:
        extract_placements(Board(15), Board(11))
    assert "15" in str(err.value) and "11" in str(err.value)


def test_play_from_boards_validates_what_changed():
    play = play_from_boards(board_with(**CAT), board_with(**CAT, K8="S"), LAYOUT)
    assert play.main_word.text == "CATS"
    with pytest.raises(IllegalPlay):
        play_from_boards(board_with(**CAT), board_with(**CAT, A1="S"), LAYOUT)


# ----------------------------------------------------------------- properties
@given(st.integers(0, 2**32 - 1), st.integers(0, 8))
@settings(max_examples=60, deadline=None)
def test_generated_placements_are_legal_and_their_words_hold_every_new_tile(random_play, seed, plays):
    rng = random.Random(seed)
    board = Board()
    for _ in range(plays + 1):
        placements = random_play(board, rng, LAYOUT.centre)
        play = validate_play(board, placements, LAYOUT)
        after = board.place(play.placements)
        assert set(extract_placements(board, after)) == set(placements)
        new = {p.square for p in placements}
        # The main word holds every new tile; each word holds at least one and has two letters or more.
        assert new <= set(play.main_word.squares)
        for w in play.words:
            assert len(w.squares) >= 2
            assert any(w.new)
            assert {s for s, fresh in zip(w.squares, w.new) if fresh} <= new
        # One cross word at most per new tile, each through its own tile.
        assert len(play.cross_words) <= len(placements)
        board = after
