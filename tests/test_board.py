"""The board and its squares: names like H8, the text form of a board, and the premium layout."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board import Board, Placement, Tile, parse_square, square_name, squares_text
from companion.errors import CompanionError
from companion.layout import LayoutError, get_layout, load_layout_file, standard_layout

EMPTY = ["." * 15] * 15


def rows_with(**squares: str) -> list[str]:
    """Fifteen rows with a letter on each named square, e.g. ``rows_with(H8="C")``."""
    grid = [list(r) for r in EMPTY]
    for name, letter in squares.items():
        r, c = parse_square(name)
        grid[r][c] = letter
    return ["".join(r) for r in grid]


# ----------------------------------------------------------------- square names
def test_centre_square_is_h8():
    assert square_name((7, 7)) == "H8"
    assert parse_square("H8") == (7, 7)


def test_square_names_corners():
    assert square_name((0, 0)) == "A1"
    assert square_name((0, 14)) == "O1"
    assert square_name((14, 0)) == "A15"
    assert square_name((14, 14)) == "O15"


def test_parse_square_square_name_round_trip_for_every_square():
    for r in range(15):
        for c in range(15):
            assert parse_square(square_name((r, c))) == (r, c)


@given(st.integers(0, 14), st.integers(0, 14))
@settings(max_examples=50, deadline=None)
def test_parse_square_accepts_row_first_and_lower_case(r, c):
    name = square_name((r, c))
    assert parse_square(name.lower()) == (r, c)
    assert parse_square(name[1:] + name[0]) == (r, c)  # "8H"
    assert parse_square(f"  {name} ") == (r, c)


@pytest.mark.parametrize("name", ["", "H", "8", "HH", "99", "H-1", "H 8", "P1", "Æ1", "H8x"])
def test_parse_square_rejects_text_that_is_not_a_square_name(name):
    with pytest.raises(CompanionError) as err:
        parse_square(name)
    assert repr(name) in str(err.value)


@pytest.mark.parametrize("name", ["H0", "H16", "A99"])
def test_parse_square_rejects_a_row_off_the_board(name):
    with pytest.raises(CompanionError) as err:
        parse_square(name)
    assert repr(name) in str(err.value) and "off the board" in str(err.value)


def test_parse_square_knows_the_board_size():
    assert parse_square("K11", size=11) == (10, 10)
    with pytest.raises(CompanionError):
        parse_square("L1", size=11)
    with pytest.raises(CompanionError):
        parse_square("A12", size=11)


@pytest.mark.parametrize("name", ["H²", "H٣", "²H"])
def test_parse_square_rejects_non_ascii_digits_with_a_companion_error(name):
    with pytest.raises(CompanionError):
        parse_square(name)


def test_squares_text_lists_names_in_board_order():
    assert squares_text([(7, 8), (7, 7), (0, 0)]) == "A1, H8, I8"


# ----------------------------------------------------------------- boards
def test_new_board_is_empty():
    board = Board()
    assert board.size == 15
    assert board.is_empty
    assert board.tile_count() == 0
    assert list(board.tiles()) == []


def test_from_rows_reads_tiles_blanks_and_unknown_blanks():
    board = Board.from_rows(rows_with(H8="C", I8="a", J8="?"))
    assert board[7, 7] == Tile("C")
    assert board[7, 8] == Tile("A", blank=True)
    assert board[7, 9] == Tile("?", blank=True)
    assert board[7, 10] is None
    assert board.tile_count() == 3


def test_from_rows_to_rows_round_trip():
    rows = rows_with(H8="C", I8="a", J8="?", A1="Æ", O15="ø")
    assert Board.from_rows(rows).to_rows() == rows


def test_from_rows_reads_danish_letters_and_blanks():
    board = Board.from_rows(rows_with(H8="Å", I8="å"))
    assert board[7, 7] == Tile("Å")
    assert board[7, 8] == Tile("Å", blank=True)


def test_from_rows_error_names_the_short_row():
    rows = list(EMPTY)
    rows[3] = "." * 14
    with pytest.raises(CompanionError) as err:
        Board.from_rows(rows)
    assert "row 4" in str(err.value) and "14" in str(err.value) and "15" in str(err.value)


def test_from_rows_error_names_the_square_of_a_bad_character():
    with pytest.raises(CompanionError) as err:
        Board.from_rows(rows_with(H8="1"))
    assert "H8" in str(err.value) and "'1'" in str(err.value)


def test_from_rows_board_size_is_the_number_of_rows():
    board = Board.from_rows(["...", ".A.", "..."])
    assert board.size == 3
    assert board[1, 1] == Tile("A")


def test_place_returns_a_new_board_and_leaves_the_old_one():
    board = Board()
    after = board.place([Placement((7, 7), Tile("C"))])
    assert board.is_empty
    assert after[7, 7] == Tile("C")


def test_remove_takes_tiles_off():
    board = Board.from_rows(rows_with(H8="C", I8="A"))
    assert board.remove([(7, 7)]) == Board.from_rows(rows_with(I8="A"))


def test_occupied_is_false_off_the_board():
    board = Board.from_rows(rows_with(A1="A"))
    assert board.occupied((0, 0))
    assert not board.occupied((-1, 0))
    assert not board.occupied((0, 15))
    assert not board.on_board((15, 0))


def test_tiles_are_listed_row_by_row():
    board = Board.from_rows(rows_with(H8="C", A15="Z", B1="B"))
    assert [sq for sq, _ in board.tiles()] == [(0, 1), (7, 7), (14, 0)]


def test_transposed_moves_each_tile_to_the_mirror_square():
    board = Board.from_rows(rows_with(H8="C", I8="A", J8="T"))
    t = board.transposed()
    assert t == Board.from_rows(rows_with(H8="C", H9="A", H10="T"))
    assert t.transposed() == board


def test_equal_boards_hash_alike():
    a = Board.from_rows(rows_with(H8="C"))
    b = Board().place([Placement((7, 7), Tile("C"))])
    assert a == b and hash(a) == hash(b)
    assert a != Board.from_rows(rows_with(H8="c"))  # a blank C is not a C tile


def test_tile_shows_a_blank_in_lower_case():
    assert str(Tile("Æ", blank=True)) == "æ"
    assert str(Placement((7, 7), Tile("C"))) == "H8=C"


# ----------------------------------------------------------------- the standard layout
def test_standard_layout_centre_is_a_double_word_star_on_h8():
    layout = standard_layout()
    assert layout.size == 15
    assert layout.centre == (7, 7)
    assert layout.word_multiplier((7, 7)) == 2
    assert layout.letter_multiplier((7, 7)) == 1
    assert layout.bingo_bonus == 50


@pytest.mark.parametrize("name, word, letter", [
    ("A1", 3, 1), ("H1", 3, 1), ("O15", 3, 1),   # triple word
    ("B2", 2, 1), ("E5", 2, 1), ("N14", 2, 1),   # double word
    ("F2", 1, 3), ("J6", 1, 3),                  # triple letter
    ("D1", 1, 2), ("G7", 1, 2), ("L8", 1, 2),    # double letter
    ("B1", 1, 1), ("I8", 1, 1),                  # plain
])
def test_standard_layout_premium_squares(name, word, letter):
    layout = standard_layout()
    sq = parse_square(name)
    assert (layout.word_multiplier(sq), layout.letter_multiplier(sq)) == (word, letter)


def test_standard_layout_counts_of_premium_squares():
    chars = "".join(standard_layout().rows)
    assert (chars.count("T"), chars.count("D") + chars.count("*"), chars.count("t"), chars.count("d")) == (8, 17, 12, 24)


def test_standard_layout_is_its_own_transpose():
    layout = standard_layout()
    assert layout.transposed() == layout


def test_transposed_layout_mirrors_premiums():
    layout = get_layout("standard15")
    odd = type(layout)("odd", ("T..", "...", "d.."), 50)
    t = odd.transposed()
    assert t.rows == ("T.d", "...", "...")
    assert t.letter_multiplier((0, 2)) == 2


def test_layout_file_must_be_square(tmp_path):
    path = tmp_path / "l.json"
    path.write_text(json.dumps({"rows": ["...", "..", "..."]}))
    with pytest.raises(LayoutError) as err:
        load_layout_file(path)
    assert "square" in str(err.value)


def test_layout_file_with_unknown_premium_character(tmp_path):
    path = tmp_path / "l.json"
    path.write_text(json.dumps({"rows": ["..x", ".*.", "..."]}))
    with pytest.raises(LayoutError) as err:
        load_layout_file(path)
    assert "x" in str(err.value)


def test_unknown_layout_name():
    with pytest.raises(LayoutError):
        get_layout("hexagonal")
