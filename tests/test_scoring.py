"""Scoring: letter values, premium squares (only when newly covered), blanks, cross words, the bingo.

The standard layout (companion/data/layouts/standard15.json), rows 1, 2, 5, 8 and 9:

    row 1  T..d...T...d..T      T triple word, D double word, t triple letter,
    row 2  .D...t...t...D.      d double letter, * the centre star (a double word)
    row 5  ....D.....D....
    row 8  T..d...*...d..T      columns A B C D E F G H I J K L M N O
    row 9  ..d...d.d...d..

English values used below: A E I N O R S T 1, D 2, C 3, X 8; Danish Æ Ø Å 4; German Ä 6, Ö 8, Ü 6.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board import Board, Placement, Tile, parse_square
from companion.errors import UnknownLetter
from companion.layout import BoardLayout, standard_layout
from companion.play import score_play, score_word, validate_play
from companion.tiles import get_tileset

LAYOUT = standard_layout()
EN = get_tileset("en")


def board_with(**squares: str) -> Board:
    grid = [["."] * 15 for _ in range(15)]
    for name, letter in squares.items():
        r, c = parse_square(name)
        grid[r][c] = letter
    return Board.from_rows(["".join(r) for r in grid])


def tiles(**squares: str) -> list[Placement]:
    return [Placement(parse_square(n), Tile(l.upper(), l.islower())) for n, l in squares.items()]


def score(board: Board, placements, tileset=EN, layout=LAYOUT, rack_size=7):
    return score_play(validate_play(board, placements, layout), layout, tileset, rack_size)


CAT = dict(H8="C", I8="A", J8="T")
RELAX = dict(H8="R", I8="E", J8="L", K8="A", L8="X")


# ----------------------------------------------------------------- premiums
def test_first_play_is_doubled_by_the_centre_star():
    # CAT: C 3 + A 1 + T 1 = 5, the star doubles it: 10.
    s = score(Board(), tiles(**CAT))
    assert s.total == 10
    assert s.word_scores == (("CAT", 10),)
    assert s.bingo_bonus == 0


def test_premium_counts_only_on_newly_covered_square():
    # CATS with S on K8 (plain): 3 + 1 + 1 + 1 = 6; the star under the old C does not double it again.
    assert score(board_with(**CAT), tiles(K8="S")).total == 6


def test_letter_premium_under_an_old_tile_counts_once():
    # Seed: an X (8) on a double letter is worth 16 when played: RELAX from H8, X on L8 (d):
    # (1 + 1 + 1 + 1 + 16) x 2 = 40.
    assert score(Board(), tiles(**RELAX)).total == 40
    # A later word through that X gets only 8 for it: AXE down L7-L9 (L7, L9 plain) = 1 + 8 + 1 = 10.
    assert score(board_with(**RELAX), tiles(L7="A", L9="E")).total == 10


def test_play_through_the_star_does_not_double_again():
    # ACE down H7-H9 through the old C on the star: 1 + 3 + 1 = 5, not 10.
    assert score(board_with(**CAT), tiles(H7="A", H9="E")).total == 5


def test_double_letter_then_triple_word():
    # Seed: the letter premium first, then the word premium with the doubled letter in it.
    # FLAX from A1 up to the E already on E1: F on A1 (T) 4, L 1, A 1, X on D1 (d) 8 x 2 = 16, E 1
    # = 23, tripled = 69 (the X alone brings 16 x 3 = 48).
    s = score(board_with(E1="E"), tiles(A1="F", B1="L", C1="A", D1="X"))
    assert s.word_scores == (("FLAXE", 69),)


def test_two_double_words_multiply_to_four_times():
    # RETAINS across E5-K5 through the E already on F5: E5 and K5 are both double words.
    # 7 letters x 1 = 7, x 2 x 2 = 28. Six tiles: no bingo.
    s = score(board_with(F5="E"), tiles(E5="R", G5="T", H5="A", I5="I", J5="N", K5="S"))
    assert s.total == 28
    assert s.bingo_bonus == 0


def test_two_triple_words_and_a_bingo():
    # RETAINED across A1-H1 through the E on B1: R on A1 (T), T, A on D1 (d) = 2, I, N, E, D on H1 (T) = 2.
    # 1 + 1 + 1 + 2 + 1 + 1 + 1 + 2 = 10, x 3 x 3 = 90, seven tiles: + 50 = 140.
    s = score(board_with(B1="E"), tiles(A1="R", C1="T", D1="A", E1="I", F1="N", G1="E", H1="D"))
    assert s.word_scores == (("RETAINED", 90),)
    assert s.bingo_bonus == 50
    assert s.total == 140


def test_triple_letter_square():
    # X on F2 (t) under an E on F1: EX down = 1 + 8 x 3 = 25.
    assert score(board_with(F1="E"), tiles(F2="X")).total == 25


# ----------------------------------------------------------------- blanks
def test_blank_scores_zero_even_on_a_letter_premium():
    # RELAX with a blank x on L8 (d): 1 + 1 + 1 + 1 + 0 = 4, doubled by the star: 8.
    s = score(Board(), tiles(H8="R", I8="E", J8="L", K8="A", L8="x"))
    assert s.total == 8
    assert s.word_scores == (("RELAX", 8),)


def test_blank_on_a_word_premium_still_multiplies_the_word():
    # cAT with the blank c on the star: 0 + 1 + 1 = 2, doubled: 4.
    assert score(Board(), tiles(H8="c", I8="A", J8="T")).total == 4


def test_old_blank_scores_zero_in_a_new_word():
    # CaTS: the blank a stays worth nothing: 3 + 0 + 1 + 1 = 5.
    assert score(board_with(H8="C", I8="a", J8="T"), tiles(K8="S")).total == 5


def test_two_blank_play_scores_zero():
    s = score(Board(), tiles(H8="a", I8="x"))
    assert s.total == 0


def test_unnamed_blank_scores_zero():
    assert score(board_with(H8="C", I8="?", J8="T"), tiles(K8="S")).total == 5


# ----------------------------------------------------------------- cross words
def test_cross_words_are_found_and_scored():
    # AN on H9-I9 under CA: AN = 1 + N on I9 (d) 2 = 3; CA down = 3 + 1 = 4; AN down = 1 + 2 = 3.
    s = score(board_with(**CAT), tiles(H9="A", I9="N"))
    assert s.word_scores == (("AN", 3), ("CA", 4), ("AN", 3))
    assert s.total == 10


def test_single_tile_forming_words_both_ways_scores_both():
    # O on I9 (d) next to T on H9 and under X on I8: TO = 1 + 2 = 3, XO = 8 + 2 = 10.
    s = score(board_with(H8="A", I8="X", H9="T"), tiles(I9="O"))
    assert sorted(s.word_scores) == [("TO", 3), ("XO", 10)]
    assert s.total == 13


def test_new_tile_on_a_double_word_doubles_both_its_words():
    # X on E5 (D) after A on D5 and under O on E4: AX = (1 + 8) x 2 = 18, OX = (1 + 8) x 2 = 18.
    s = score(board_with(D5="A", E4="O"), tiles(E5="X"))
    assert s.total == 36


def test_hook_scores_the_whole_extended_word():
    # S on K8 (plain) after CAT: CATS = 3 + 1 + 1 + 1 = 6; the S has no word down.
    s = score(board_with(**CAT), tiles(K8="S"))
    assert s.word_scores == (("CATS", 6),)


def test_play_through_letters_score_their_face_value():
    # BADE down I7-I10 through the old A on I8: B on I7 (d) 6, A 1, D on I9 (d) 4, E 1 = 12.
    assert score(board_with(**CAT), tiles(I7="B", I9="D", I10="E")).total == 12


# ----------------------------------------------------------------- the bingo
def test_bingo_adds_fifty():
    # RETAINS from H8: I on L8 (d) = 2, the rest 1 each: 8, doubled by the star: 16; seven tiles: + 50 = 66.
    s = score(Board(), tiles(H8="R", I8="E", J8="T", K8="A", L8="I", M8="N", N8="S"))
    assert s.word_scores == (("RETAINS", 16),)
    assert s.bingo_bonus == 50
    assert s.total == 66


def test_six_tiles_earn_no_bingo():
    # RETAIN from H8: 1 + 1 + 1 + 1 + 2 + 1 = 7, doubled: 14.
    s = score(Board(), tiles(H8="R", I8="E", J8="T", K8="A", L8="I", M8="N"))
    assert (s.total, s.bingo_bonus) == (14, 0)


def test_bingo_needs_the_whole_rack():
    placements = tiles(H8="R", I8="E", J8="T", K8="A", L8="I", M8="N", N8="S")
    assert score(Board(), placements, rack_size=8).total == 16


def test_bingo_bonus_comes_from_the_layout():
    layout = BoardLayout("house", LAYOUT.rows, bingo_bonus=35)
    placements = tiles(H8="R", I8="E", J8="T", K8="A", L8="I", M8="N", N8="S")
    assert score(Board(), placements, layout=layout).total == 16 + 35


def test_bingo_with_blanks_still_earns_fifty():
    # RETAINs with a blank s: 1 + 1 + 1 + 1 + 2 + 1 + 0 = 7, doubled: 14, + 50 = 64.
    s = score(Board(), tiles(H8="R", I8="E", J8="T", K8="A", L8="I", M8="N", N8="s"))
    assert s.total == 64


# ----------------------------------------------------------------- other editions
def test_danish_letters_score_with_danish_values():
    # ÆØÅ from H8: 4 + 4 + 4 = 12, doubled: 24.
    assert score(Board(), tiles(H8="Æ", I8="Ø", J8="Å"), tileset=get_tileset("da")).total == 24


def test_danish_c_is_worth_eight():
    # CÆ from H8: 8 + 4 = 12, doubled: 24 (C would be 3 in English).
    assert score(Board(), tiles(H8="C", I8="Æ"), tileset=get_tileset("da")).total == 24


def test_danish_blank_standing_for_ae_scores_zero():
    # æØ: 0 + 4 = 4, doubled: 8.
    assert score(Board(), tiles(H8="æ", I8="Ø"), tileset=get_tileset("da")).total == 8


def test_german_umlauts_score_with_german_values():
    # ÄÖÜ from H8: 6 + 8 + 6 = 20, doubled: 40.
    assert score(Board(), tiles(H8="Ä", I8="Ö", J8="Ü"), tileset=get_tileset("de")).total == 40


def test_letter_outside_the_set_cannot_be_scored():
    with pytest.raises(UnknownLetter):
        score(Board(), tiles(H8="Æ", I8="A"))


# ----------------------------------------------------------------- properties
PREMIUMS = st.sampled_from("......dtDTqQ")


@st.composite
def layouts(draw):
    """A random 15x15 premium layout (usually not symmetric) with a star somewhere."""
    grid = [[draw(PREMIUMS) for _ in range(15)] for _ in range(15)]
    r, c = draw(st.integers(0, 14)), draw(st.integers(0, 14))
    grid[r][c] = "*"
    return BoardLayout("random", tuple("".join(row) for row in grid), draw(st.sampled_from([50, 35])))


def random_game_board(random_play, rng: random.Random, layout: BoardLayout, plays: int) -> Board:
    board = Board()
    for _ in range(plays):
        board = board.place(validate_play(board, random_play(board, rng, layout.centre), layout).placements)
    return board


def transpose(placements):
    return [Placement((p.square[1], p.square[0]), p.tile) for p in placements]


@given(st.one_of(st.just(LAYOUT), layouts()), st.integers(0, 2**32 - 1), st.integers(0, 8))
@settings(max_examples=60, deadline=None)
def test_scoring_is_invariant_under_transposing_the_board(random_play, layout, seed, plays):
    rng = random.Random(seed)
    board = random_game_board(random_play, rng, layout, plays)
    placements = random_play(board, rng, layout.centre)
    s = score_play(validate_play(board, placements, layout), layout, EN)
    t_play = validate_play(board.transposed(), transpose(placements), layout.transposed())
    t = score_play(t_play, layout.transposed(), EN)
    assert t.total == s.total
    assert t.bingo_bonus == s.bingo_bonus
    assert sorted(t.word_scores) == sorted(s.word_scores)


@given(st.integers(0, 2**32 - 1), st.integers(0, 6), st.data())
@settings(max_examples=40, deadline=None)
def test_a_blank_never_scores_more_than_the_tile_it_replaces(random_play, seed, plays, data):
    rng = random.Random(seed)
    board = random_game_board(random_play, rng, LAYOUT, plays)
    placements = list(random_play(board, rng, LAYOUT.centre, blank_rate=0))
    i = data.draw(st.integers(0, len(placements) - 1))
    with_blank = list(placements)
    with_blank[i] = Placement(placements[i].square, Tile(placements[i].tile.letter, True))
    full = score(board, placements).total
    blanked = score(board, with_blank).total
    assert blanked <= full
    # The difference: the letter's value times its letter premium, in each of its words times that word's premiums.
    square = placements[i].square
    play = validate_play(board, placements, LAYOUT)
    lost = 0
    for w in play.words:
        if square in w.squares:
            mult = 1
            for sq, fresh in zip(w.squares, w.new):
                mult *= LAYOUT.word_multiplier(sq) if fresh else 1
            lost += EN.value(placements[i].tile.letter) * LAYOUT.letter_multiplier(square) * mult
    assert full - blanked == lost


@given(st.integers(0, 2**32 - 1), st.integers(0, 6))
@settings(max_examples=40, deadline=None)
def test_score_is_the_sum_of_the_word_scores_and_the_bonus(random_play, seed, plays):
    rng = random.Random(seed)
    board = random_game_board(random_play, rng, LAYOUT, plays)
    play = validate_play(board, random_play(board, rng, LAYOUT.centre), LAYOUT)
    s = score_play(play, LAYOUT, EN)
    assert s.total == sum(v for _, v in s.word_scores) + s.bingo_bonus
    assert [w for w, _ in s.word_scores] == [w.text for w in play.words]
    assert [v for _, v in s.word_scores] == [score_word(w, LAYOUT, EN) for w in play.words]
    assert s.bingo_bonus == (50 if play.tiles_used == 7 else 0)
