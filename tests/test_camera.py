"""The engine's side of the camera: a reading becomes a move, or questions for the players."""

from __future__ import annotations

from companion.board import Board, Placement, Tile
from companion.camera import (blank_letters, blank_the_words_need, fitting_letters, plays_in_turn, read_move,
                              tiles_read_as_held, word_ends)
from companion.lexicon import Lexicon
from companion.tiles import get_tileset

EN = get_tileset("en")
EMPTY_ROWS = ["." * 15] * 15


def rows(**squares: str) -> list[str]:
    grid = [list(r) for r in EMPTY_ROWS]
    for name, ch in squares.items():
        col, row = ord(name[0]) - 65, int(name[1:]) - 1
        grid[row][col] = ch
    return ["".join(r) for r in grid]


def test_new_tiles_on_empty_squares_are_the_move():
    move = read_move(Board(), rows(H8="C", I8="A", J8="T"), None, EN)
    assert [(p.square, p.tile) for p in move.placements] == [((7, 7), Tile("C")), ((7, 8), Tile("A")), ((7, 9), Tile("T"))]
    assert move.ready and not move.questions


def test_a_covered_empty_square_means_wait_for_the_next_picture():
    move = read_move(Board(), rows(H8="C", I8="#"), None, EN)
    assert not move.ready and move.covered == ((7, 8),)


def test_a_covered_square_off_the_line_of_the_new_tiles_does_not_hold_the_move_up():
    # a hand resting on a corner of the board, glare on a white square far from the play
    move = read_move(Board(), rows(H8="C", I8="A", J8="T", C3="#"), None, EN)
    assert move.ready and len(move.placements) == 3 and move.elsewhere == ((2, 2),)


def test_a_covered_square_in_their_line_cut_off_by_an_empty_square_does_not_hold_it_up():
    move = read_move(Board(), rows(H8="C", I8="A", J8="T", M8="#"), None, EN)
    assert move.ready and move.elsewhere == ((7, 12),)


def test_a_covered_square_reached_through_played_tiles_holds_the_move_up():
    board = Board.from_rows(rows(K8="S"))
    move = read_move(board, rows(H8="C", I8="A", J8="T", K8="S", L8="#"), None, EN)
    assert not move.ready and move.covered == ((7, 11),)


def test_a_covered_square_reached_through_covered_squares_holds_the_move_up():
    move = read_move(Board(), rows(H8="C", I8="A", J8="#", K8="#"), None, EN)
    assert not move.ready and move.covered == ((7, 9), (7, 10))


def test_a_single_new_tile_may_grow_along_its_row_or_its_column():
    move = read_move(Board(), rows(H8="A", H9="#", C8="#", C3="#"), None, EN)
    assert not move.ready and move.covered == ((8, 7),) and set(move.elsewhere) == {(7, 2), (2, 2)}


def test_with_no_new_tile_seen_any_covered_square_means_wait():
    move = read_move(Board(), rows(C3="#"), None, EN)
    assert not move.ready and move.covered == ((2, 2),) and not move.elsewhere


def test_with_no_new_tile_seen_a_covered_square_no_play_could_reach_does_not_hold_it_up():
    # a glare spot in a corner on the picture of an exchange: every play touches the tiles played
    board = Board.from_rows(rows(H8="C", I8="A", J8="T"))
    move = read_move(board, rows(H8="C", I8="A", J8="T", A13="#", B13="#", A14="#"), None, EN)
    assert move.ready and not move.placements and set(move.elsewhere) == {(12, 0), (12, 1), (13, 0)}


def test_with_no_new_tile_seen_a_covered_square_beside_a_played_tile_means_wait():
    board = Board.from_rows(rows(H8="C", I8="A", J8="T"))
    move = read_move(board, rows(H8="C", I8="A", J8="T", K8="#"), None, EN)
    assert not move.ready and move.covered == ((7, 10),)
    move = read_move(board, rows(H8="C", I8="A", J8="T", I9="#"), None, EN)
    assert not move.ready and move.covered == ((8, 8),)


def test_with_no_new_tile_seen_covered_squares_in_a_run_reaching_the_played_tiles_mean_wait():
    # a hand over a whole word laid beside the played ones: the far squares are in its run
    board = Board.from_rows(rows(H8="C", I8="A", J8="T"))
    move = read_move(board, rows(H8="C", I8="A", J8="T", K8="#", L8="#", M8="#", H13="#"), None, EN)
    assert not move.ready and move.covered == ((7, 10), (7, 11), (7, 12))
    assert move.elsewhere == ((12, 7),)
    move = read_move(board, rows(H8="C", I8="A", J8="T", K5="#", K6="#", K7="#", K8="#"), None, EN)
    assert not move.ready and set(move.covered) == {(4, 10), (5, 10), (6, 10), (7, 10)}


def test_a_covered_played_square_does_not_matter():
    board = Board.from_rows(rows(H8="C", I8="A", J8="T"))
    move = read_move(board, rows(H8="#", I8="A", J8="T", K8="S"), None, EN)
    assert move.ready and len(move.placements) == 1


def test_a_low_confidence_letter_is_a_question_not_a_decision():
    conf = [[1.0] * 15 for _ in range(15)]
    conf[7][8] = 0.4
    move = read_move(Board(), rows(H8="C", I8="A"), conf, EN)
    (q,) = move.questions
    assert q.kind == "unsure" and q.guess == "A" and "I8" in q.text and "40%" in q.text


def test_a_blank_tile_asks_which_letter():
    move = read_move(Board(), rows(H8="C", I8="?"), None, EN)
    (q,) = move.questions
    assert q.kind == "blank" and "I8" in q.text
    assert move.placements[1].tile == Tile("?", True)


def test_a_blank_off_the_line_of_the_lettered_tiles_is_stray_not_part_of_the_play():
    # lamp light on an empty square reads as a plain blank face; a play lies in one line
    move = read_move(Board(), rows(H8="C", I8="A", J8="T", C3="?"), None, EN)
    assert move.stray == ((2, 2),)
    assert [p.square for p in move.placements] == [(7, 7), (7, 8), (7, 9)]
    assert not move.questions                     # no "which letter does the blank on C3 stand for?"


def test_a_blank_in_the_line_but_past_an_empty_square_is_stray():
    move = read_move(Board(), rows(H8="C", I8="A", J8="T", L8="?"), None, EN)
    assert move.stray == ((7, 11),) and len(move.placements) == 3


def test_a_blank_next_to_the_lettered_tiles_in_their_line_is_part_of_the_play():
    move = read_move(Board(), rows(H8="C", I8="A", J8="?"), None, EN)
    assert not move.stray and move.placements[2].tile == Tile("?", True)


def test_two_blanks_side_by_side_in_the_line_join_through_each_other():
    move = read_move(Board(), rows(H8="C", I8="?", J8="?"), None, EN)
    assert not move.stray and len(move.placements) == 3


def test_a_blank_joins_through_tiles_already_played():
    board = Board.from_rows(rows(I8="A", J8="T"))
    move = read_move(board, rows(H8="C", I8="A", J8="T", K8="?"), None, EN)
    assert not move.stray and [p.square for p in move.placements] == [(7, 7), (7, 10)]


def test_a_single_lettered_tile_keeps_a_blank_in_either_line():
    move = read_move(Board(), rows(H8="A", H9="?", F3="?"), None, EN)
    assert move.stray == ((2, 5),) and [p.square for p in move.placements] == [(7, 7), (8, 7)]


def test_a_blank_face_seen_before_the_move_began_is_no_tile_of_it_even_in_its_line():
    # a lamp's glare that stays put: K8 looked like a blank on the last move's picture too
    move = read_move(Board(), rows(H8="C", I8="A", J8="T", K8="?"), None, EN, blank_before={(7, 10)})
    assert move.stray == ((7, 10),) and len(move.placements) == 3 and not move.questions


def test_a_blank_face_seen_before_on_a_picture_with_nothing_new_is_a_pass_not_a_play():
    move = read_move(Board(), rows(K8="?"), None, EN, blank_before={(7, 10)})
    assert not move.placements and move.stray == ((7, 10),)


def test_blanks_alone_or_letters_in_no_one_line_are_left_for_the_referee():
    assert not read_move(Board(), rows(H8="?", I8="?", C3="?"), None, EN).stray
    assert not read_move(Board(), rows(H8="C", I9="A", C3="?"), None, EN).stray


def test_a_square_that_may_be_a_blank_is_asked_about_where_it_touches_the_play():
    # J8 read empty, but maybe a blank of nearly the board's colour: CAT + a blank would be a
    # four-letter word; the play is scored as seen, and the players are asked
    move = read_move(Board(), rows(H8="C", I8="A", J8="."), None, EN, maybe_blank=[(7, 9)])
    (q,) = move.questions
    assert q.kind == "maybe-blank" and "J8" in q.text
    assert move.ready and [p.square for p in move.placements] == [(7, 7), (7, 8)]


def test_a_square_that_changed_between_two_tiles_of_the_play_is_a_blank_there():
    # C and T read, I8 between them read empty but its colour changed since the last move's
    # picture: a play has no gap, so a tile is there that shows no letter -- a blank
    move = read_move(Board(), rows(H8="C", J8="T"), None, EN, changed=[(7, 8)])
    assert [(p.square, p.tile) for p in move.placements] == [((7, 7), Tile("C")), ((7, 9), Tile("T")),
                                                              ((7, 8), Tile("?", True))]
    (q,) = move.questions
    assert q.kind == "blank" and "I8" in q.text


def test_a_covered_square_that_looks_as_before_the_move_does_not_hold_it_up():
    # J8 in the play's line reads covered, but looks as it did on the last move's picture (a
    # lamp's glare on a stand): no tile of this move is there
    move = read_move(Board(), rows(H8="C", I8="A", J8="#"), None, EN, as_before=[(7, 9)])
    assert move.ready and move.elsewhere == ((7, 9),)
    assert [p.square for p in move.placements] == [(7, 7), (7, 8)]


def test_a_covered_square_in_the_line_that_changed_still_holds_the_move_up():
    move = read_move(Board(), rows(H8="C", I8="A", J8="#"), None, EN, as_before=[(3, 3)])
    assert not move.ready and move.covered == ((7, 9),)


def test_a_gap_that_did_not_change_stays_a_gap():
    move = read_move(Board(), rows(H8="C", J8="T"), None, EN, changed=[(3, 3)])
    assert [p.square for p in move.placements] == [(7, 7), (7, 9)] and not move.questions


def test_a_square_that_changed_at_the_end_of_the_play_is_left_to_the_word_list_without_a_question():
    move = read_move(Board(), rows(H8="C", I8="A"), None, EN, changed=[(7, 9), (7, 6), (2, 2)])
    assert move.changed_ends == ((7, 6), (7, 9)) and not move.questions
    assert [p.square for p in move.placements] == [(7, 7), (7, 8)]


def test_a_changed_square_on_a_played_tile_or_read_as_a_letter_is_no_candidate():
    board = Board().place([Placement((7, 6), Tile("S"))])
    move = read_move(board, rows(G8="S", H8="C", I8="A"), None, EN, changed=[(7, 6), (7, 7)])
    assert not move.changed_ends and [p.tile for p in move.placements] == [Tile("C"), Tile("A")]


def test_a_blank_is_taken_where_the_words_need_it_and_nowhere_else():
    # IRADOR read, M of mIRADOR a blank the camera took for an empty square
    lexicon = Lexicon.from_words(["MIRADOR", "IRADORS"], "t")
    move = read_move(Board(), rows(H8="I", I8="R", J8="A", K8="D", L8="O", M8="R"), None, EN)
    placements = list(move.placements)
    assert blank_the_words_need(Board(), placements, [], [(7, 6)], EN, lexicon) == (7, 6)
    # two squares would each make words: nothing is taken
    assert blank_the_words_need(Board(), placements, [], [(7, 6), (7, 13)], EN, lexicon) is None
    # the words read are words: nothing is taken
    assert blank_the_words_need(Board(), placements, [], [(7, 6)], EN, Lexicon.from_words(["IRADOR", "MIRADOR"], "t")) is None
    # no word list: nothing is taken
    assert blank_the_words_need(Board(), placements, [], [(7, 6)], EN, None) is None


def test_the_squares_past_the_ends_of_a_plays_word_are_its_word_ends():
    # M3..M8 down, the board's O at M9 continues the word: the ends are M2 and M10
    board = Board().place([Placement((8, 12), Tile("O"))])
    new = [(r, 12) for r in range(2, 8)]
    labels = rows(**{f"M{r + 1}": "N" for r in range(2, 8)}, M9="O")
    assert word_ends(board, new, labels) == [(1, 12), (9, 12)]
    # an end read covered, or off the board, is no end
    labels = rows(**{f"M{r + 1}": "N" for r in range(2, 8)}, M9="O", M2="#")
    assert word_ends(board, new, labels) == [(9, 12)]
    assert word_ends(Board(), [(0, 3), (0, 4)], rows(D1="A", E1="B")) == [(0, 2), (0, 5)]
    # a single tile: both lines
    assert sorted(word_ends(Board(), [(7, 7)], rows(H8="A"))) == [(6, 7), (7, 6), (7, 8), (8, 7)]
    # tiles in no one line: none
    assert word_ends(Board(), [(7, 7), (8, 8)], rows(H8="A", I9="B")) == []


def test_a_blank_the_camera_could_not_tell_from_the_board_is_found_past_the_words_end():
    # lINEMEN down from H2, its white blank on a white board read empty: INEMEN is no word
    labels = rows(H3="I", H4="N", H5="E", H6="M", H7="E", H8="N")
    move = read_move(Board(), labels, None, EN)
    ends = word_ends(Board(), [p.square for p in move.placements], labels)
    assert ends == [(1, 7), (8, 7)]
    lexicon = Lexicon.from_words(["LINEMEN", "MINE"], "t")
    assert blank_the_words_need(Board(), move.placements, [], ends, EN, lexicon) == (1, 7)
    # a blank at either end would make words (INEMENT too): the camera does not choose
    both = Lexicon.from_words(["LINEMEN", "INEMENT"], "t")
    assert blank_the_words_need(Board(), move.placements, [], ends, EN, both) is None


def test_a_square_that_may_be_a_blank_away_from_the_play_is_not_asked_about():
    # off the play's line (H9 below the C of an across play is another word's square) and far away
    move = read_move(Board(), rows(H8="C", I8="A"), None, EN, maybe_blank=[(8, 7), (2, 2)])
    assert not move.questions and move.ready


def test_a_square_that_may_be_a_blank_on_a_played_tile_is_not_asked_about():
    board = Board().place([Placement((7, 7), Tile("C"))])
    move = read_move(board, rows(H8="C", I8="A", J8="."), None, EN, maybe_blank=[(7, 7)])
    assert not move.questions and [p.square for p in move.placements] == [(7, 8)]


def test_a_played_tile_read_differently_is_kept_and_reported():
    board = Board.from_rows(rows(H8="C", I8="A", J8="T"))
    move = read_move(board, rows(H8="O", I8="A", J8="T"), None, EN)
    assert move.placements == ()
    assert move.misread == ("H8 reads O but holds C: keeping C",)


def test_the_word_list_names_the_only_letter_a_blank_can_be():
    lexicon = Lexicon.from_words(["CAT", "COT"], "t")
    move = read_move(Board(), rows(H8="C", I8="?", J8="T"), None, EN)
    assert blank_letters(Board(), move.placements, EN, lexicon) == {(7, 8): ["A", "O"]}
    lexicon = Lexicon.from_words(["CAT"], "t")
    assert blank_letters(Board(), move.placements, EN, lexicon) == {(7, 8): ["A"]}


def test_an_unread_tile_is_not_a_covered_square():
    move = read_move(Board(), rows(H8="C", I8="#", J8="T"), None, EN, unread=[(7, 8)])
    assert move.ready and move.unread == ((7, 8),) and move.covered == ()
    assert [p.square for p in move.placements] == [(7, 7), (7, 9)]


def test_an_unreadable_square_that_looks_as_before_the_move_is_no_tile_of_it():
    # K8 reads as a tile the camera cannot read, but looks as it did on the last move's picture
    # (the edge of J8's neighbour sitting off its square): the move is C A, nothing to ask
    move = read_move(Board(), rows(H8="C", I8="A", K8="#"), None, EN, unread=[(7, 10)], as_before=[(7, 10)])
    assert move.ready and move.unread == () and move.elsewhere == ((7, 10),)
    assert [p.square for p in move.placements] == [(7, 7), (7, 8)]


def test_an_unreadable_square_that_changed_is_still_a_tile_to_read():
    move = read_move(Board(), rows(H8="C", I8="A", K8="#"), None, EN, unread=[(7, 10)], as_before=[(3, 3)])
    assert move.unread == ((7, 10),) and move.elsewhere == ()


def test_an_unread_square_on_a_played_tile_is_ignored():
    board = Board.from_rows(rows(H8="C", I8="A", J8="T"))
    move = read_move(board, rows(H8="C", I8="#", J8="T"), None, EN, unread=[(7, 8)])
    assert move.unread == () and move.placements == ()


def test_the_word_list_names_the_letters_an_unread_tile_can_be():
    lexicon = Lexicon.from_words(["CAT", "COT", "CUTS"], "t")
    move = read_move(Board(), rows(H8="C", I8="#", J8="T"), None, EN, unread=[(7, 8)])
    assert fitting_letters(Board(), move.placements, move.unread, EN, lexicon) == {(7, 8): ["A", "O"]}


def test_two_unknown_tiles_are_searched_together():
    lexicon = Lexicon.from_words(["CAT", "CUTS"], "t")
    move = read_move(Board(), rows(H8="C", I8="#", J8="T", K8="#"), None, EN, unread=[(7, 8), (7, 10)])
    assert fitting_letters(Board(), move.placements, move.unread, EN, lexicon) == {(7, 8): ["U"], (7, 10): ["S"]}


def test_more_unknown_tiles_than_the_limit_are_not_guessed():
    lexicon = Lexicon.from_words(["CATS"], "t")
    move = read_move(Board(), rows(H8="#", I8="#", J8="#", K8="S"), None, EN, unread=[(7, 7), (7, 8), (7, 9)])
    assert fitting_letters(Board(), move.placements, move.unread, EN, lexicon) == {(7, 7): [], (7, 8): [], (7, 9): []}


def test_an_unread_tile_beside_an_undeclared_blank_is_solved_with_it():
    # C ? T with the blank unknown and T unread: only CAT-like words fit
    lexicon = Lexicon.from_words(["CAT"], "t")
    move = read_move(Board(), rows(H8="C", I8="?", J8="#"), None, EN, unread=[(7, 9)])
    got = fitting_letters(Board(), move.placements, [(7, 8), (7, 9)], EN, lexicon)
    assert got == {(7, 8): ["A"], (7, 9): ["T"]}


def _placed(**squares: str) -> list[Placement]:
    out = []
    for name, ch in squares.items():
        col, row = ord(name[0]) - 65, int(name[1:]) - 1
        out.append(Placement((row, col), Tile(ch)))
    return out


def _board_of(**squares: str) -> Board:
    return Board().place(_placed(**squares))


def test_new_tiles_that_are_two_plays_made_in_turn_are_found_in_their_order():
    # CAT across H8-J8 on the board; then COT down from H8 through its C, then TOE across from
    # H10 through COT's T: four tiles in two lines, no one play
    board = _board_of(H8="C", I8="A", J8="T")
    new = _placed(H9="O", H10="T", I10="O", J10="E")
    words = Lexicon.from_words(["CAT", "COT", "TOE"], "t")
    ways = plays_in_turn(board, new, words)
    assert len(ways) == 1
    first, second = ways[0]
    assert {p.square for p in first} == {(8, 7), (9, 7)}          # COT: H9, H10
    assert {p.square for p in second} == {(9, 8), (9, 9)}         # then TOE: I10, J10


def test_new_tiles_that_are_one_legal_play_are_not_split():
    board = _board_of(H8="C", I8="A", J8="T")
    assert plays_in_turn(board, _placed(H9="O", H10="T"), Lexicon.from_words(["CAT", "COT", "CO"], "t")) == []


def test_missed_plays_are_looked_for_only_among_words_of_the_word_list():
    board = _board_of(H8="C", I8="A", J8="T")
    new = _placed(H9="O", H10="T", I10="O", J10="E")
    assert plays_in_turn(board, new, Lexicon.from_words(["CAT", "COT"], "t")) == []


def test_two_plays_far_apart_come_in_either_order():
    board = _board_of(H8="C", I8="A", J8="T")
    new = _placed(H7="A", J9="O")          # A over the C makes AC, O under the T makes TO
    ways = plays_in_turn(board, new, Lexicon.from_words(["CAT", "AC", "TO"], "t"))
    assert len(ways) == 2 and {len(w) for w in ways} == {2}
    assert [len(g) for g in ways[0]] == [1, 1]


def test_a_blank_in_missed_plays_is_tried_as_each_letter_of_the_set():
    board = _board_of(H8="C", I8="A", J8="T")
    new = _placed(H9="O", H10="T", J10="E") + [Placement((9, 8), Tile("?", True))]      # I10: a blank
    words = Lexicon.from_words(["CAT", "COT", "TOE", "TIE"], "t")
    ways = plays_in_turn(board, new, words, tiles=EN)
    assert sorted(p.tile.letter for way in ways for g in way for p in g if p.tile.blank) == ["I", "O"]
    assert all(p.tile.blank for way in ways for g in way for p in g if p.square == (9, 8))
    assert plays_in_turn(board, new, words) == []              # no tile set: its letters are not known


def test_the_search_for_missed_plays_gives_up_past_its_budget():
    board = _board_of(H8="C", I8="A", J8="T")
    new = _placed(H9="O", H10="T", I10="O", J10="E")
    assert plays_in_turn(board, new, Lexicon.from_words(["CAT", "COT", "TOE"], "t"), budget=2) == []


def test_tiles_already_down_are_counted_as_read_as_they_are_or_as_something_else():
    board = Board().place(_placed(H8="C", I8="A", J8="T") + [Placement((7, 10), Tile("S", True))])   # CATs
    assert tiles_read_as_held(board, rows(H8="C", I8="A", J8="T", K8="?")) == (4, 0)
    assert tiles_read_as_held(board, rows(H8="C", I8="O", K8="S")) == (1, 3)     # O, an empty J8, a blank as S
    assert tiles_read_as_held(board, rows(H8="#", I8="#", J8="T", K8="#")) == (1, 0)   # covered: neither
    assert tiles_read_as_held(Board(), rows(H8="C")) == (0, 0)                           # nothing down yet
