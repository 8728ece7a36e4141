"""Photos to scores: ``companion replay`` on a short game photographed by the simulated camera."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest

from companion.lexicon import Lexicon
from companion.replay import replay_folder

render = pytest.importorskip("vision.render")

EMPTY = ["." * 15] * 15


def put(rows: list[str], start: str, word: str, down: bool = False) -> list[str]:
    grid = [list(r) for r in rows]
    col, row = ord(start[0]) - 65, int(start[1:]) - 1
    for i, ch in enumerate(word):
        r, c = (row + i, col) if down else (row, col + i)
        grid[r][c] = ch
    return ["".join(r) for r in grid]


def photo(labels: list[str], seed: int, values: dict | None = None) -> np.ndarray:
    """The simulated camera's photo of a board; ``values``: the points printed on the tiles."""
    rng = np.random.default_rng(seed)
    fonts = render.font_paths("train")
    if not fonts:
        pytest.skip("no fonts installed for rendering")
    style = render.random_tile_style(np.random.default_rng(1), fonts)
    board = render.random_board_style(np.random.default_rng(2))
    printed = None if values is None else {ch: str(v) for ch, v in values.items()}
    image, corners, _ = render.render_board(labels, board, style, rng, placement_jitter=0.02, values=printed)
    cam = render.Camera(size=(1280, 960), board_frac=0.8, tilt=0.1, turn=2.0)
    frame, _ = render.photograph(image, corners, cam, rng)
    return frame


def test_replay_scores_each_photographed_move_and_prints_totals(tmp_path):
    # Ann: CAT across from G8 (G8 C, H8 A on the star, I8 T): (3 + 1 + 1) x 2 = 10.
    # Ben: COT down from G8 through the C (G9 O on a double letter, G10 T): 3 + 2 + 1 = 6.
    # Ann: the third photo shows no new tile: a pass.
    boards = [put(EMPTY, "G8", "CAT")]
    boards.append(put(boards[-1], "G8", "COT", down=True))
    boards.append(boards[-1])
    for i, labels in enumerate(boards):
        cv2.imwrite(str(tmp_path / f"move{i + 1:02d}.png"), photo(labels, seed=10 + i))
    out = io.StringIO()
    words = Lexicon.from_words(["CAT", "COT"], "test")
    code = replay_folder(str(tmp_path), ["Ann", "Ben"], "en", words, None, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Ann\tG8\tacross\tCAT\t10", out.getvalue()
    assert lines[1] == "Ben\tG8\tdown\tCOT\t6", out.getvalue()
    assert lines[2].startswith("Ann\tpass")
    assert lines[-1] == "totals: Ann=10 Ben=6"
    assert code == 0


def test_a_polish_game_is_scored_with_its_marked_letters(tmp_path):
    # the Polish set, its values printed on the tiles: Ania ŻÓŁW across from H8 (Ż 5 on the star,
    # Ó 5, Ł 3, W 1): 14 x 2 = 28.  Bartek ŁĄKA down from J8 through the Ł (Ą 5, K 2 on a triple
    # letter, A 1): 3 + 5 + 6 + 1 = 15.  Ania KOŃ across from J10 through the K: 2 + 1 + 7 = 10
    from companion.tiles import get_tileset
    values = dict(get_tileset("pl").values)
    boards = [put(EMPTY, "H8", "ŻÓŁW")]
    boards.append(put(boards[-1], "J8", "ŁĄKA", down=True))
    boards.append(put(boards[-1], "J10", "KOŃ"))
    for i, labels in enumerate(boards):
        cv2.imwrite(str(tmp_path / f"move{i + 1:02d}.png"), photo(labels, seed=20 + i, values=values))
    out = io.StringIO()
    words = Lexicon.from_words(["ŻÓŁW", "ŁĄKA", "KOŃ"], "test")
    code = replay_folder(str(tmp_path), ["Ania", "Bartek"], "pl", words, None, out)
    lines = out.getvalue().splitlines()
    assert lines[:3] == ["Ania\tH8\tacross\tŻÓŁW\t28", "Bartek\tJ8\tdown\tŁĄKA\t15",
                         "Ania\tJ10\tacross\tKOŃ\t10"], out.getvalue()
    assert lines[-1] == "totals: Ania=38 Bartek=15"
    assert code == 0


def test_a_damaged_photo_is_named_and_the_game_goes_on(tmp_path):
    # Ann: CAT (10).  A copy of a later photo stopped half way: named, left out.  Ben: COT (6).
    boards = [put(EMPTY, "G8", "CAT")]
    boards.append(put(boards[-1], "G8", "COT", down=True))
    cv2.imwrite(str(tmp_path / "move01.jpg"), photo(boards[0], seed=10))
    ok, buf = cv2.imencode(".jpg", photo(boards[1], seed=11))
    (tmp_path / "move02.jpg").write_bytes(buf.tobytes()[: len(buf) // 3])
    cv2.imwrite(str(tmp_path / "move03.jpg"), photo(boards[1], seed=11))
    out = io.StringIO()
    code = replay_folder(str(tmp_path), ["Ann", "Ben"], "en", Lexicon.from_words(["CAT", "COT"], "test"), None, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Ann\tG8\tacross\tCAT\t10", out.getvalue()
    assert lines[1] == "move02.jpg\tERROR the picture is cut short (the file is damaged, or was still being copied); " \
                       "copy it again", out.getvalue()
    assert lines[2] == "Ben\tG8\tdown\tCOT\t6", out.getvalue()
    assert lines[-1] == "totals: Ann=10 Ben=6"
    assert code == 1  # a problem was reported


def test_a_photo_smeared_by_a_shaken_phone_is_taken_again_and_the_game_goes_on(tmp_path):
    # Ann: CAT (10).  The photo of Ben's move taken while the phone moved (a smear of a third of
    # a square: its letters would read as blank tiles): refused, nothing scored.  Taken again: COT (6).
    boards = [put(EMPTY, "G8", "CAT")]
    boards.append(put(boards[-1], "G8", "COT", down=True))
    cv2.imwrite(str(tmp_path / "move01.png"), photo(boards[0], seed=10))
    shaken = cv2.filter2D(photo(boards[1], seed=11), -1, np.full((1, 17), 1 / 17, np.float32))
    cv2.imwrite(str(tmp_path / "move02.png"), shaken)
    cv2.imwrite(str(tmp_path / "move03.png"), photo(boards[1], seed=12))
    out = io.StringIO()
    code = replay_folder(str(tmp_path), ["Ann", "Ben"], "en", Lexicon.from_words(["CAT", "COT"], "test"), None, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Ann\tG8\tacross\tCAT\t10", out.getvalue()
    assert lines[1].startswith("move02.png\tERROR The board picture is smeared"), out.getvalue()
    assert lines[1].endswith("take it again."), out.getvalue()
    assert lines[2] == "Ben\tG8\tdown\tCOT\t6", out.getvalue()
    assert lines[-1] == "totals: Ann=10 Ben=6"
    assert code == 1  # a problem was reported


def test_replay_of_a_folder_that_is_not_there(tmp_path):
    from companion.errors import CompanionError

    with pytest.raises(CompanionError, match="not a folder"):
        replay_folder(str(tmp_path / "nope"), ["Ann", "Ben"], "en", Lexicon.from_words(["CAT"], "t"))



def _reading(labels: list[str], unsure: dict[tuple[int, int], tuple[str, float]]):
    from vision.read import BoardReading

    kinds = np.array([["tile" if ch != "." else "empty" for ch in row] for row in labels], object)
    conf = np.ones((15, 15), np.float32)
    guesses = [list(row) for row in labels]
    rows_ = [list(row) for row in labels]
    for (r, c), (guess, p) in unsure.items():
        rows_[r][c], guesses[r][c], kinds[r, c], conf[r, c] = "#", guess, "unsure", p
    return BoardReading(["".join(r) for r in rows_], conf, ["".join(r) for r in guesses], kinds)


def _table(words: list[str]):
    from companion.replay import CameraTable

    out = io.StringIO()
    return CameraTable(["Ann", "Ben"], "en", Lexicon.from_words(words, "test"), None, out), out


def test_a_fault_in_the_camera_code_loses_that_photo_not_the_game():
    from vision.frames import Frame

    table, out = _table(["CAT"])

    def broken(image, name):
        raise ZeroDivisionError("division by zero")

    table.tracker.update = broken
    assert table.rectified(Frame(np.zeros((10, 10, 3), np.uint8), "move3.jpg", 0, 0.0)) is None
    assert out.getvalue().startswith("move3.jpg\tERROR the board could not be found in this photo "
                                     "(an error in Table Companion: ZeroDivisionError: division by zero)")
    assert table.problems == 1


def test_an_unread_tile_the_word_list_settles_is_taken_and_said():
    table, out = _table(["CAT"])
    table.take(_reading(put(EMPTY, "G8", "CAT"), {(7, 7): ("O", 0.3)}), "p1", True)
    lines = out.getvalue().splitlines()
    assert "could not be read; it is taken as A" in lines[0]
    assert lines[1] == "Ann\tG8\tacross\tCAT\t10"


def test_an_unread_tile_with_several_letters_takes_the_cameras_guess_as_a_question():
    table, out = _table(["CAT", "COT"])
    table.take(_reading(put(EMPTY, "G8", "CAT"), {(7, 7): ("O", 0.3)}), "p1", True)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("p1\tquestion: is the tile on H8 O?") and "allows A, O" in lines[0]
    assert lines[1] == "Ann\tG8\tacross\tCOT\t10"


def test_an_unread_tile_nothing_settles_waits_for_another_photo():
    table, out = _table(["CAT", "CUT"])
    table.take(_reading(put(EMPTY, "G8", "CAT"), {(7, 7): ("O", 0.3)}), "p1", True)
    assert out.getvalue().splitlines() == [
        "p1\tERROR the tile on H8 cannot be read (the word list allows A, U); take the photo again"]
    assert table.referee.state.board.is_empty and table.problems == 1


def test_an_unread_tile_on_a_board_small_in_the_picture_says_to_move_the_camera_closer():
    table, out = _table(["CAT", "CUT"])
    table.corners = np.array([[0, 0], [294, 0], [294, 294], [0, 294]], float)   # 19.6 px squares, as last seen
    table.take(_reading(put(EMPTY, "G8", "CAT"), {(7, 7): ("O", 0.3)}), "p1", True)
    said = out.getvalue()
    assert "the tile on H8 cannot be read (the word list allows A, U); take the photo again" in said
    assert "(the board is small in the picture: 19 px a square, letters read best from 27;" in said
    assert "move the camera closer" in said


def test_an_unread_tile_on_the_flattened_far_side_of_a_slanted_board_says_so_but_not_one_near_by():
    # seen at a slant: the top rows far off and flattened (about 13 px high), the bottom ones 28 px
    slant = np.array([[100, 0], [500, 0], [600, 300], [0, 300]], float)
    table, out = _table(["CAT", "CUT"])
    table.corners = slant
    table.take(_reading(put(EMPTY, "G1", "CAT"), {(0, 7): ("O", 0.3)}), "p1", True)
    assert "small in the picture: 13 px a square" in out.getvalue()
    table, out = _table(["CAT", "CUT"])
    table.corners = slant
    table.take(_reading(put(EMPTY, "G15", "CAT"), {(14, 7): ("O", 0.3)}), "p1", True)
    assert "cannot be read" in out.getvalue() and "small in the picture" not in out.getvalue()


def test_squares_washed_out_by_a_lamp_say_to_move_the_lamp_or_the_camera():
    # CAT down from H7 with its T on H9 under a lamp's glare: read as an empty square washed out
    reading = _reading(put(EMPTY, "H7", "CA", down=True), {(8, 7): (".", 0.9)})
    reading.glared = frozenset({(8, 7)})
    table, out = _table(["CAT"])
    table.take(reading, "p1", True)
    assert out.getvalue().splitlines() == [
        "p1\tERROR squares covered or unreadable: H9; take the photo again "
        "(light washes out H9: move the lamp or the camera a little)"]


def test_an_unread_tile_on_a_blurred_picture_says_to_hold_the_camera_still_and_let_it_focus():
    reading = _reading(put(EMPTY, "G8", "CAT"), {(7, 7): ("O", 0.3)})
    reading.details["blur_px"] = 1.62
    table, out = _table(["CAT", "CUT"])
    table.take(reading, "p1", True)
    assert "(the picture is a little out of focus, its edges 1.6 px wide: hold the camera still" in out.getvalue()


def test_a_board_large_enough_in_the_picture_gets_no_advice_about_its_size():
    table, out = _table(["CAT", "CUT"])
    table.corners = np.array([[0, 0], [600, 0], [600, 600], [0, 600]], float)
    table.take(_reading(put(EMPTY, "G8", "CAT"), {(7, 7): ("O", 0.3)}), "p1", True)
    assert "small in the picture" not in out.getvalue()


def test_an_unsure_square_beside_a_hand_is_not_an_unread_tile():
    reading = _reading(put(EMPTY, "G8", "CAT"), {(7, 7): ("O", 0.3)})
    reading.kinds[7, 8] = "covered"
    labels = [list(r) for r in reading.labels]
    labels[7][8] = "#"
    reading.labels = ["".join(r) for r in labels]
    table, out = _table(["CAT"])
    table.take(reading, "p1", True)
    assert "covered or unreadable: H8, I8" in out.getvalue()


def reading(labels: list[str], turns: int = 0, mirrored: bool = False, maybe_blank=()):
    """A sure reading of ``labels`` as the reader would hand it over (seen turned / mirrored)."""
    from vision.read import BoardReading

    kinds = np.array([["tile" if ch != "." else "empty" for ch in row] for row in labels], object)
    return BoardReading(labels, np.ones((15, 15)), labels, kinds, turns, 1, mirrored=mirrored,
                        maybe_blank=frozenset(maybe_blank))


def _two_photos(words: list[str], first: list[str], second: list[str]):
    """A table that took ``first`` (sure readings) as Ann's move and was then shown ``second``:
    (the table, what it said, line by line)."""
    table, out = _table(words)
    table.take(reading(first), "move01.png", True)
    table.take(reading(second), "move02.png", True)
    return table, out.getvalue().splitlines()


def test_lamp_light_read_as_a_blank_off_the_play_is_noted_and_the_play_scored():
    labels = put(EMPTY, "G8", "CAT")
    labels = put(labels, "C3", "?")                     # a glare patch on C3 read as a blank face
    table, out = _table(["CAT"])
    table.take(reading(labels), "p1", True)
    lines = out.getvalue().splitlines()
    assert lines[0] == ("p1\tnote: C3 looks like a blank tile, off this play's line: not taken (lamp light or "
                        "a reflection?); if a blank was played there, take the photo again")
    assert lines[1] == "Ann\tG8\tacross\tCAT\t10"
    assert table.problems == 0


def test_glare_that_stays_put_is_not_taken_for_a_blank_when_a_play_comes_next_to_it():
    table, out = _table(["CAT", "CATS"])
    first = put(put(EMPTY, "G8", "CAT"), "K8", "?")        # K8: a glare patch, past the empty J8
    table.take(reading(first), "p1", True)
    second = put(first, "J8", "S")                          # Ben adds S on J8, next to the glare
    table.take(reading(second), "p2", True)
    lines = out.getvalue().splitlines()
    assert lines[-1] == "Ben\tG8\tacross\tCATS\t6", out.getvalue()
    assert "p2\tnote: K8 looks like a blank tile" in out.getvalue()
    assert table.problems == 0


def test_a_square_read_empty_that_may_be_a_blank_beside_the_play_is_a_question_not_a_hold_up():
    from companion.replay import CameraTable

    out = io.StringIO()
    table = CameraTable(["Ann", "Ben"], "en", Lexicon.from_words(["WAX"], "test"), None, out)
    table.take(reading(put(EMPTY, "G8", "WAX"), maybe_blank=[(7, 9), (2, 2)]), "move01.png", empty_is_pass=True)
    said = out.getvalue().splitlines()
    assert said[0] == "move01.png\tquestion: is there a blank tile on J8? (the camera took the square for empty, " \
                      "and the play is scored without it)", out.getvalue()
    assert said[1] == "Ann\tG8\tacross\tWAX\t26", out.getvalue()
    assert "C3" not in out.getvalue()


def test_photos_of_the_empty_board_before_the_first_move_are_not_passes():
    from companion.replay import CameraTable

    out = io.StringIO()
    table = CameraTable(["Ann", "Ben"], "en", Lexicon.from_words(["WAX", "AXE"], "test"), None, out)
    for name in ("setup1.png", "setup2.png", "setup3.png", "setup4.png"):    # four would end the game as passes
        table.take(reading(EMPTY), name, empty_is_pass=True)
    first = put(EMPTY, "G8", "WAX")
    table.take(reading(first), "move01.png", empty_is_pass=True)
    table.take(reading(first), "move02.png", empty_is_pass=True)        # once the game is on: a pass
    said = out.getvalue().splitlines()
    assert all(line.startswith(f"setup{i + 1}.png\tnote: the empty board before the first move")
               for i, line in enumerate(said[:4])), out.getvalue()
    assert said[4] == "Ann\tG8\tacross\tWAX\t26", out.getvalue()
    assert said[5].startswith("Ben\tpass"), out.getvalue()
    assert tuple(table.referee.state.scores) == (26, 0)


def test_photos_from_a_camera_that_mirrors_its_picture_score_the_same(tmp_path):
    boards = [put(EMPTY, "G8", "CAT")]
    boards.append(put(boards[-1], "G8", "COT", down=True))
    for i, labels in enumerate(boards):
        cv2.imwrite(str(tmp_path / f"move{i + 1:02d}.png"), cv2.flip(photo(labels, seed=10 + i), 1))
    out = io.StringIO()
    code = replay_folder(str(tmp_path), ["Ann", "Ben"], "en", Lexicon.from_words(["CAT", "COT"], "test"), None, out)
    lines = [line for line in out.getvalue().splitlines() if "\tnote:" not in line and "\tquestion:" not in line]
    assert lines == ["Ann\tG8\tacross\tCAT\t10", "Ben\tG8\tdown\tCOT\t6", "totals: Ann=10 Ben=6"], out.getvalue()
    assert out.getvalue().count("note: the camera mirrors its picture") == 1
    assert code == 0


def test_the_table_is_told_when_the_camera_decides_again_which_way_the_board_is_seen():
    # the first move (WAX) was read upside down, as XAW; more letters show the way up, and the
    # tiles already taken read otherwise seen that way: they were read the other way round
    from companion.replay import CameraTable

    out = io.StringIO()
    table = CameraTable(["Ann", "Ben"], "en", Lexicon.from_words(["WAX", "XAW", "AXE"], "test"), None, out)
    table.take(reading(put(EMPTY, "G8", "XAW"), 0, False), "move01.png", empty_is_pass=True)
    table.take(reading(put(put(EMPTY, "G8", "WAX"), "H8", "AXE", down=True), 2, True), "move02.png", empty_is_pass=True)
    said = out.getvalue().splitlines()
    assert said[0] == "Ann\tG8\tacross\tXAW\t26", out.getvalue()
    assert said[1].startswith("move02.png\tnote: the camera now sees the board mirrored and turned by 2"), out.getvalue()


def test_a_photo_from_another_side_whose_tiles_read_as_taken_is_only_said_to_be_seen_otherwise():
    from companion.replay import CameraTable

    out = io.StringIO()
    table = CameraTable(["Ann", "Ben"], "en", Lexicon.from_words(["WAX", "ATE"], "test"), None, out)
    first = put(EMPTY, "G8", "WAX")
    table.take(reading(first, 0, False), "move01.png", empty_is_pass=True)
    table.take(reading(put(first, "H8", "ATE", down=True), 1, False), "move02.png", empty_is_pass=True)
    said = out.getvalue().splitlines()
    assert said[1] == ("move02.png\tnote: the camera sees the board another way round now (from another side of the "
                       "table, or the phone turned); the tiles already on the board read as before"), out.getvalue()
    assert said[2].startswith("Ben\tH8\tdown\tATE\t"), out.getvalue()


class _TurnedReader:
    """A reader double that reads the board the wrong way round until told to decide again."""

    def __init__(self, wrong: list[str], right: list[str], right_turns: int = 2):
        self.wrong, self.right, self.right_turns = wrong, right, right_turns
        self.state, self.calls = (0, False, 1), []

    def read(self, picture):
        self.calls.append("read")
        if self.state[0] is None:
            self.state = (self.right_turns, False, 1)
            return reading(self.right, self.right_turns)
        return reading(self.wrong, self.state[0])

    def way_up(self):
        return self.state

    def decide_way_up_again(self):
        self.calls.append("again")
        self.state = (None, False, 1)

    def keep_way_up(self, way_up):
        self.calls.append("keep")
        self.state = way_up


def _turned(labels: list[str]) -> list[str]:
    return ["".join(row) for row in np.rot90(np.array([list(r) for r in labels]), 2)]


def test_a_photo_read_the_wrong_way_round_is_read_again_with_the_way_up_decided_afresh():
    # a photo taken from the other side of the table, its corners taken in the last photo's
    # order: read the old way every tile of the game is elsewhere, and the move is no play
    table, out = _table(["CARTS", "COT"])
    cat = put(EMPTY, "G8", "CARTS")
    table.take(reading(cat), "move01.png", True)
    now = put(cat, "G8", "COT", down=True)
    table.reader = _TurnedReader(_turned(now), now)
    got = table.read(None)
    assert got.labels == now and table.reader.calls == ["read", "again", "read"]
    table.take(got, "move02.png", True)
    said = out.getvalue().splitlines()
    assert "the tiles already on the board read as before" in said[1] and said[2] == "Ben\tG8\tdown\tCOT\t6", said


def test_a_photo_that_reads_no_better_decided_afresh_keeps_the_way_up_it_had():
    table, out = _table(["CARTS", "COT"])
    cat = put(EMPTY, "G8", "CARTS")
    table.take(reading(cat), "move01.png", True)
    wrong = _turned(put(cat, "G8", "COT", down=True))
    table.reader = _TurnedReader(wrong, wrong)
    got = table.read(None)
    assert got.labels == wrong and table.reader.calls == ["read", "again", "read", "keep"]
    assert table.reader.state == (0, False, 1)


def test_a_photo_showing_tiles_already_down_as_they_are_is_not_read_again():
    table, out = _table(["CARTS", "COT"])
    cat = put(EMPTY, "G8", "CARTS")
    table.take(reading(cat), "move01.png", True)
    now = put(cat, "G8", "COT", down=True)
    table.reader = _TurnedReader(now, now)
    assert table.read(None).labels == now and table.reader.calls == ["read"]


def test_a_photo_showing_two_plays_made_in_turn_scores_both_players():
    # the camera missed Ben's COT: the next photo shows it and Ann's TOE as well
    cat = put(EMPTY, "G8", "CAT")
    table, said = _two_photos(["CAT", "COT", "TOE"], cat, put(put(cat, "G8", "COT", down=True), "G10", "TOE"))
    assert said[1] == ("move02.png\tnote: the 4 new tiles are 2 plays, not one: the camera missed 1 (a photo not "
                       "taken, or a play made while the board was hidden); taken in turn, check them"), said
    assert said[2] == "Ben\tG8\tdown\tCOT\t6" and said[3].startswith("Ann\tG10\tacross\tTOE\t"), said
    assert [t.player for t in table.referee.state.turns] == [0, 1, 0]


def test_new_tiles_that_are_no_plays_of_words_stay_refused():
    cat = put(EMPTY, "G8", "CAT")
    table, said = _two_photos(["CAT", "COT"], cat, put(put(cat, "G8", "COT", down=True), "G10", "TOE"))
    assert "ERROR the tiles read are not a legal play" in said[1]
    assert len(table.referee.state.turns) == 1


def top_down(labels: list[str]) -> np.ndarray:
    """A rectified picture of a beige board whose blank tiles are nearly the board's colour."""
    from vision import read as R
    from vision.geometry import rectify

    fonts = render.font_paths("basic")
    if not fonts:
        pytest.skip("no fonts installed for rendering")
    board = render.BoardStyle(square=(170, 195, 205), line=(240, 245, 245), line_w=0.05,
                              premium={"T": (55, 55, 215), "D": (175, 170, 240), "t": (200, 130, 40),
                                       "d": (230, 210, 160)},
                              text=True, text_ink=(30, 30, 30), star=True, frame=(35, 30, 180))
    tiles = render.TileStyle(face=(206, 228, 236), ink=(20, 20, 25), font=fonts[0])
    img, corners, _ = render.render_board(labels, board, tiles, np.random.default_rng(0), cell=40,
                                          placement_jitter=0.03)
    return rectify(img, corners, R.CELL)


def test_a_blank_read_as_an_empty_square_is_taken_where_the_square_changed_and_the_words_need_it():
    # mIRADOR, a bingo: the camera reads IRADOR (the blank on G8 taken for an empty square), but
    # G8 changed since the picture of the empty board and IRADOR is no word where MIRADOR is
    table, out = _table(["MIRADOR"])
    table.take(reading(EMPTY), "p0", True, picture=top_down(EMPTY))
    seen = put(EMPTY, "H8", "IRADOR")
    table.take(reading(seen), "p1", True, picture=top_down(put(EMPTY, "G8", "?IRADOR")))
    said = out.getvalue()
    assert "p1\tnote: a blank tile is taken on G8" in said, said
    assert "the blank on G8 is taken as M" in said
    assert said.splitlines()[-1] == "Ann\tG8\tacross\tmIRADOR\t66", said
    assert table.problems == 0


def test_a_square_that_did_not_change_is_not_taken_for_a_blank_the_words_would_need():
    table, out = _table(["MIRADOR"])
    table.take(reading(EMPTY), "p0", True, picture=top_down(EMPTY))
    seen = put(EMPTY, "H8", "IRADOR")
    table.take(reading(seen), "p1", True, picture=top_down(seen))    # no blank was put down
    assert out.getvalue().splitlines()[-1] == "Ann\tH8\tacross\tIRADOR\t16", out.getvalue()
    # ... but where a tile just past the word's end would make words of it, the table asks
    assert "p1\tquestion: is there a blank tile on G8?" in out.getvalue()


def test_a_play_of_words_as_read_is_asked_nothing_about_its_ends():
    table, out = _table(["MIRADOR", "IRADOR"])
    table.take(reading(EMPTY), "p0", True, picture=top_down(EMPTY))
    seen = put(EMPTY, "H8", "IRADOR")
    table.take(reading(seen), "p1", True, picture=top_down(seen))
    assert "question" not in out.getvalue()


def test_a_square_unreadable_on_two_photos_alike_does_not_hold_up_the_next_play():
    # a glare patch on J8 reads '#' on both photos and looks the same: the play beside it is taken
    from vision.read import BoardReading

    def glare_reading(labels):
        kinds = np.array([["tile" if ch not in ".#" else "covered" if ch == "#" else "empty" for ch in row]
                          for row in labels], object)
        return BoardReading(labels, np.ones((15, 15)), labels, kinds, 0, 1)

    table, out = _table(["CAT", "CATS"])
    first = put(EMPTY, "G8", "CAT")
    table.take(glare_reading(put(first, "L8", "#")), "p1", True, picture=top_down(first))
    second = put(first, "J8", "S")
    table.take(glare_reading(put(second, "K8", "#")), "p2", True, picture=top_down(second))
    said = out.getvalue()
    assert said.splitlines()[-1] == "Ben\tG8\tacross\tCATS\t6", said
    assert "p2\tnote: K8 covered or unreadable, off this play's line or as before it" in said
    assert table.problems == 0


def _stand_photos(tmp_path, boards, plain=False):
    """Photos of ``boards`` by a camera on a stand (the board lands in the same place each time);
    the grid's corners in them.  ``plain``: a board with no premium squares (a plain grid)."""
    from dataclasses import replace

    fonts = render.font_paths("train")
    if not fonts:
        pytest.skip("no fonts installed for rendering")
    style = render.random_tile_style(np.random.default_rng(1), fonts)
    board = render.random_board_style(np.random.default_rng(2))
    if plain:
        board = replace(board, premium={k: board.square for k in board.premium}, text=False, star=False)
    cam = render.Camera(size=(1280, 960), board_frac=0.8, tilt=0.1, turn=2.0)
    for i, labels in enumerate(boards):
        rng = np.random.default_rng(20 + i)
        image, corners, _ = render.render_board(labels, board, style, rng, placement_jitter=0.02)
        frame, grid = render.photograph(image, corners, cam, rng, placement=np.random.default_rng(99))
        cv2.imwrite(str(tmp_path / f"move{i + 1:02d}.png"), frame)
    return grid


def test_a_board_the_locator_cannot_find_is_scored_with_the_corners_kept_once(tmp_path):
    # the automatic locator finds a board by its premium squares' pattern and refuses a plain grid;
    # the corners set once (companion vision corners) find the board in every picture
    from vision.locate import save_profile

    boards = [put(EMPTY, "G8", "CAT")]
    boards.append(put(boards[-1], "G8", "COT", down=True))
    grid = _stand_photos(tmp_path, boards, plain=True)
    words = Lexicon.from_words(["CAT", "COT"], "test")
    out = io.StringIO()
    assert replay_folder(str(tmp_path), ["Ann", "Ben"], "en", words, None, out) == 1
    assert "no Scrabble board found" in out.getvalue()
    profile = tmp_path / "profile" / "board.json"
    save_profile(profile, grid, (1280, 960))
    out = io.StringIO()
    code = replay_folder(str(tmp_path), ["Ann", "Ben"], "en", words, None, out, board_profile=str(profile))
    lines = [line for line in out.getvalue().splitlines() if "\tnote:" not in line and "\tquestion:" not in line]
    assert lines == ["Ann\tG8\tacross\tCAT\t10", "Ben\tG8\tdown\tCOT\t6", "totals: Ann=10 Ben=6"], out.getvalue()
    assert code == 0


def _english_set_profile(path) -> None:
    """A set profile learnt from the tile sheet of the photos' set (English letters), saved at ``path``."""
    from calibration.set_profile import calibrate_rectified, sheet_layout
    from vision.geometry import rectify
    from vision.read import CELL

    layout = sheet_layout("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    sheet = ["".join(layout.get((r, c), ".") for c in range(15)) for r in range(15)]
    style = render.random_tile_style(np.random.default_rng(1), render.font_paths("train"))
    image, corners, _ = render.render_board(sheet, render.random_board_style(np.random.default_rng(2)), style,
                                            np.random.default_rng(5))
    calibrate_rectified(rectify(image, corners, CELL), "ABCDEFGHIJKLMNOPQRSTUVWXYZ", variants=1).save(path)


def test_a_game_is_read_with_the_tile_set_calibrated_from_its_sheet(tmp_path):
    boards = [put(EMPTY, "G8", "CAT")]
    boards.append(put(boards[-1], "G8", "COT", down=True))
    _stand_photos(tmp_path, boards)
    _english_set_profile(tmp_path / "set.npz")
    out = io.StringIO()
    code = replay_folder(str(tmp_path), ["Ann", "Ben"], "en", Lexicon.from_words(["CAT", "COT"], "test"), None, out,
                         set_profile=str(tmp_path / "set.npz"))
    assert out.getvalue().splitlines()[-1] == "totals: Ann=10 Ben=6", out.getvalue()
    assert code == 0


def test_a_tile_set_profile_for_other_letters_or_no_profile_at_all_is_refused_by_name(tmp_path):
    from companion.errors import CompanionError

    _english_set_profile(tmp_path / "english.npz")
    words = Lexicon.from_words(["CAT"], "test")
    with pytest.raises(CompanionError, match="also has ÄÜÖ: calibrate this set"):
        replay_folder(str(tmp_path), ["Ann", "Ben"], "de", words, None, io.StringIO(),
                      set_profile=str(tmp_path / "english.npz"))
    (tmp_path / "junk.npz").write_bytes(b"no profile")
    with pytest.raises(CompanionError, match="the tile-set profile cannot be used: .*not a tile-set profile"):
        replay_folder(str(tmp_path), ["Ann", "Ben"], "en", words, None, io.StringIO(),
                      set_profile=str(tmp_path / "junk.npz"))
    with pytest.raises(CompanionError, match="the tile-set profile cannot be used: .*not found"):
        replay_folder(str(tmp_path), ["Ann", "Ben"], "en", words, None, io.StringIO(),
                      set_profile=str(tmp_path / "missing.npz"))
    with pytest.raises(CompanionError, match="the board profile cannot be used: .*not found"):
        replay_folder(str(tmp_path), ["Ann", "Ben"], "en", words, None, io.StringIO(),
                      board_profile=str(tmp_path / "missing.json"))


def test_vision_read_finds_a_board_by_its_kept_corners(tmp_path):
    from vision.locate import save_profile
    from vision.read import read_main

    grid = _stand_photos(tmp_path, [put(EMPTY, "G8", "CAT")], plain=True)
    save_profile(tmp_path / "board.json", grid, (1280, 960))
    out = io.StringIO()
    assert read_main(str(tmp_path / "move01.png"), "ABCDEFGHIJKLMNOPQRSTUVWXYZ", out=out) == 1
    assert "no Scrabble board found" in out.getvalue()
    out = io.StringIO()
    assert read_main(str(tmp_path / "move01.png"), "ABCDEFGHIJKLMNOPQRSTUVWXYZ", out=out,
                     board_profile=str(tmp_path / "board.json")) == 0
    assert out.getvalue().splitlines()[7] == "......CAT......", out.getvalue()


def test_a_tile_sheet_on_a_board_the_locator_cannot_find_is_learnt_with_the_kept_corners(tmp_path):
    from calibration.set_profile import calibrate_main, sheet_layout
    from vision.locate import save_profile

    layout = sheet_layout("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    sheet = ["".join(layout.get((r, c), ".") for c in range(15)) for r in range(15)]
    grid = _stand_photos(tmp_path, [sheet], plain=True)
    save_profile(tmp_path / "board.json", grid, (1280, 960))
    out = io.StringIO()
    assert calibrate_main(str(tmp_path / "move01.png"), "ABCDEFGHIJKLMNOPQRSTUVWXYZ", str(tmp_path / "set.npz"), out) == 1
    assert "no Scrabble board found" in out.getvalue()
    out = io.StringIO()
    assert calibrate_main(str(tmp_path / "move01.png"), "ABCDEFGHIJKLMNOPQRSTUVWXYZ", str(tmp_path / "set.npz"), out,
                          board_profile=str(tmp_path / "board.json")) == 0
    assert "26 of 26 letters learnt" in out.getvalue(), out.getvalue()


def test_two_plays_far_apart_are_taken_with_a_question_on_who_played_which():
    carts = put(EMPTY, "G8", "CARTS")
    table, said = _two_photos(["CARTS", "AC", "TO"], carts, put(put(carts, "G7", "A"), "J9", "O"))
    assert said[1].startswith("move02.png\tnote: the 2 new tiles are 2 plays, not one"), said
    assert said[2].startswith("move02.png\tquestion: the plays could have been made in another order: who played which?")
    assert len(table.referee.state.turns) == 3


def test_new_tiles_that_split_into_plays_more_than_one_way_are_not_taken():
    # J8 P, K8 Q, J9 R: CATPQ then PR, or PR (with CATP) then CATPQ -- other plays, other scores
    cat = put(EMPTY, "G8", "CAT")
    table, said = _two_photos(["CAT", "CATP", "CATPQ", "PR"], cat, put(put(cat, "J8", "PQ"), "J9", "R"))
    assert said[1] == ("move02.png\tnote: the 3 new tiles could be 2 plays made in turn, but split more than one "
                       "way: not taken (take a photo after each play)"), said
    assert "ERROR the tiles read are not a legal play" in said[2]
    assert len(table.referee.state.turns) == 1


def test_missed_plays_the_referee_refuses_leave_no_play_of_them_taken():
    # an X under the C and another under the T: each a play of words, but the set has one X
    cat = put(EMPTY, "G8", "CAT")
    table, said = _two_photos(["CAT", "CX", "TX"], cat, put(put(cat, "G9", "X"), "I9", "X"))
    assert "ERROR the tiles read are not a legal play" in said[-1], said
    assert [e["type"] for e in table.referee.events][-2:] == ["play", "undo"]      # the first taken, then undone
    assert len(table.referee.state.turns) == 1
    assert sorted(sq for sq, _ in table.referee.state.board.tiles()) == [(7, 6), (7, 7), (7, 8)]


def _photos(folder, boards, seed=10):
    folder.mkdir(parents=True, exist_ok=True)
    for i, labels in enumerate(boards):
        cv2.imwrite(str(folder / f"move{i + 1:02d}.png"), photo(labels, seed=seed + i))
    return str(folder)


def _cli(capsys, *argv):
    from companion import cli

    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_game_scored_from_photos_is_saved_as_it_goes_and_carried_on_later(tmp_path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("CAT\nCOT\nCOTS\n")
    db = str(tmp_path / "games.db")
    cat = put(EMPTY, "G8", "CAT")
    first = _photos(tmp_path / "evening", [cat])
    code, out, err = _cli(capsys, "replay", first, "--players", "Ann,Ben", "--lexicon", str(words), "--db", db)
    assert code == 0 and out.splitlines() == ["Ann\tG8\tacross\tCAT\t10", "totals: Ann=10 Ben=0"], out
    assert err.startswith("game 1 saved in ") and "companion game resume 1" in err and "--game 1" in err
    # later, the camera carries on the saved game: the next photo is Ben's move
    later = _photos(tmp_path / "later", [put(cat, "G8", "COT", down=True)], seed=20)
    code, out, err = _cli(capsys, "replay", later, "--game", "1", "--lexicon", str(words), "--db", db)
    assert code == 0 and out.splitlines() == ["Ben\tG8\tdown\tCOT\t6", "totals: Ann=10 Ben=6"], out
    code, out, _ = _cli(capsys, "game", "show", "1", "--db", db)
    assert "G8 across CAT" in out and "G8 down COT" in out


def test_a_camera_game_without_players_or_a_saved_game_is_refused_by_name(tmp_path, capsys):
    folder = _photos(tmp_path / "p", [])
    code, _, err = _cli(capsys, "replay", folder, "--db", str(tmp_path / "g.db"))
    assert code != 0 and "name the players (--players Ann,Ben) or carry on a saved game (--game ID)" in err
    code, _, err = _cli(capsys, "replay", folder, "--game", "7", "--db", str(tmp_path / "g.db"))
    assert code != 0 and "no saved game with id 7" in err and "saved in" not in err and "Traceback" not in err
    code, _, err = _cli(capsys, "replay", folder, "--game", "1", "--no-save")
    assert code != 0 and "--game carries on a saved game: it cannot go with --no-save" in err


def test_a_saved_game_is_carried_on_only_by_its_own_players(tmp_path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("CAT\n")
    db = str(tmp_path / "games.db")
    folder = _photos(tmp_path / "p", [put(EMPTY, "G8", "CAT")])
    assert _cli(capsys, "replay", folder, "--players", "Ann,Ben", "--lexicon", str(words), "--db", db)[0] == 0
    code, _, err = _cli(capsys, "replay", folder, "--game", "1", "--players", "Cy,Di", "--lexicon", str(words), "--db", db)
    assert code != 0 and "saved game 1 is played by Ann, Ben, not Cy, Di" in err


def test_a_camera_game_not_to_be_saved_leaves_no_saved_game(tmp_path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("CAT\n")
    folder = _photos(tmp_path / "p", [put(EMPTY, "G8", "CAT")])
    code, out, err = _cli(capsys, "replay", folder, "--players", "Ann,Ben", "--lexicon", str(words), "--no-save",
                          "--db", str(tmp_path / "games.db"))
    assert code == 0 and "saved" not in err and not (tmp_path / "games.db").exists()


def test_a_blank_in_plays_the_camera_missed_is_named_where_one_letter_fits_and_asked_where_more_do():
    cat = put(EMPTY, "G8", "CAT")
    both = put(put(cat, "G8", "COT", down=True), "G10", "T?E")        # TOE, its O a blank
    table, said = _two_photos(["CAT", "COT", "TOE"], cat, both)
    assert table.referee.state.board[9, 7].letter == "O" and table.referee.state.board[9, 7].blank
    assert not any("which letter" in line for line in said), said
    table, said = _two_photos(["CAT", "COT", "TOE", "TIE"], cat, both)
    assert "move02.png\tquestion: which letter does the blank on H10 stand for? (the word list allows I, O)" in said, said
    assert len(table.referee.state.turns) == 3


def test_a_watch_stopped_by_ctrl_c_still_says_where_its_game_is_saved(tmp_path, capsys, monkeypatch):
    import companion.replay as replay

    def stopped(*args, **kwargs):
        replay.CameraTable(["Ann", "Ben"], "en", None, None, io.StringIO(), store=kwargs["store"])
        raise KeyboardInterrupt

    monkeypatch.setattr(replay, "watch", stopped)
    code, _, err = _cli(capsys, "watch", "0", "--players", "Ann,Ben", "--db", str(tmp_path / "games.db"))
    assert code == 130 and "game 1 saved in " in err and "stopped" in err


def test_a_photo_of_the_board_as_it_was_is_not_a_pass_where_several_photos_a_move_are_taken():
    cat = put(EMPTY, "G8", "CAT")
    table, out = _table(["CAT"])
    table.take(reading(cat), "move01.png", True, repeat_photos=True)
    table.take(reading(cat), "move01b.png", True, repeat_photos=True)
    said = out.getvalue().splitlines()
    assert said[1] == "move01b.png\tnote: no new tile: the board as it was photographed again (not a pass)", said
    assert len(table.referee.state.turns) == 1 and table.referee.state.to_move == 1
