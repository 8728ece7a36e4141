"""The command line as a player meets it: plain sentences, exit codes, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from companion import cli
from companion.lexicon import default_lexicon_path

needs_default_lexicon = pytest.mark.skipif(not default_lexicon_path().exists(), reason="default lexicon not built (run ./tc setup)")


def run(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@needs_default_lexicon
def test_demo_prints_the_scoresheet_and_the_winner(capsys):
    code, out, _ = run(capsys, "demo")
    assert code == 0
    assert "UNACCEPTABLE: DOKE is not" in out
    assert "ACCEPTABLE: HEX is valid" in out
    assert "winner: Ann" in out
    assert "1. Ann            181" in out


@needs_default_lexicon
def test_lexicon_check_prints_valid_or_invalid_per_word(capsys):
    code, out, _ = run(capsys, "lexicon", "check", "quixotic", "XQZW")
    assert out.splitlines() == ["QUIXOTIC\tVALID", "XQZW\tINVALID"]
    assert code == 1


def test_lexicon_check_with_a_word_list_file(capsys, tmp_path):
    words = tmp_path / "club.txt"
    words.write_text("qi\nZA\n", encoding="utf-8")
    code, out, _ = run(capsys, "lexicon", "check", "QI", "za", "--lexicon", str(words))
    assert code == 0 and out.splitlines() == ["QI\tVALID", "ZA\tVALID"]


def test_missing_word_list_is_a_plain_error(capsys, tmp_path):
    code, out, err = run(capsys, "lexicon", "check", "QI", "--lexicon", str(tmp_path / "nope.txt"))
    assert code == cli.EXIT_ERROR
    assert err.startswith("error: ") and "nope.txt" in err and "Traceback" not in err


def test_game_list_on_a_new_file(capsys, tmp_path):
    code, out, _ = run(capsys, "game", "list", "--db", str(tmp_path / "g.db"))
    assert code == 0 and "no saved games yet" in out


def test_damaged_saved_games_file_is_named(capsys, tmp_path):
    bad = tmp_path / "g.db"
    bad.write_bytes(b"this is not a database" * 100)
    code, _, err = run(capsys, "game", "list", "--db", str(bad))
    assert code == cli.EXIT_ERROR and str(bad) in err and "Traceback" not in err


def _typed_game(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("ZAX\nQI\nZA\n", encoding="utf-8")
    return ["game", "new", "--players", "Ann,Ben", "--lexicon", str(words), "--db", str(tmp_path / "g.db")]


def test_game_new_at_the_prompt_saves_every_turn(capsys, tmp_path, monkeypatch):
    typed = "play 8G ZAX\nplay H7 Q.\nchallenge Ann\nplay G8 .A\nbogus\nquit\n"
    code, out, _ = run(capsys, *_typed_game(tmp_path), stdin=typed, monkeypatch=monkeypatch)
    assert code == 0
    assert "UNACCEPTABLE: QA is not" in out
    assert "refused: it is Ben's turn" not in out
    assert "unknown command 'bogus'" in out
    code, out, _ = run(capsys, "game", "export", "1", "--format", "jsonl", "--db", str(tmp_path / "g.db"))
    types = [json.loads(line)["type"] for line in out.splitlines()]
    assert types == ["game_started", "play", "play", "challenge", "play"]


def test_a_game_joined_mid_way_is_typed_as_the_words_on_the_board_and_the_scores_so_far(capsys, tmp_path, monkeypatch):
    # ZAX across from G8 and ZA down from the same Z: four tiles; Ben to move with 50 against 44
    typed = "found 8G ZAX G8 .A Ann=50 Ben=44 to Ben\nfound 8G ZAX 9G\nplay 8G ZAXI\nfound 8G ZA\nquit\n"
    code, out, _ = run(capsys, *_typed_game(tmp_path), stdin=typed, monkeypatch=monkeypatch)
    assert code == 0
    assert "Ann          score before the referee began (the board as found: 4 tiles)   +50    50" in out
    assert "refused: it is Ben's turn" not in out and "Ben to move; 82 tiles in the bag" in out
    assert "refused: write: found POSITION WORD ..." in out
    assert "Ben          G8 across ZAXI" in out
    assert "refused: the board as found can be set only before the first turn" in out


def test_a_tile_is_put_right_at_the_prompt_and_the_turns_from_its_play_scored_again(capsys, tmp_path, monkeypatch):
    typed = "play 8G ZAX\nfix I8 x\nfix A1 Q\npass\nfix I8 X\nquit\n"
    code, out, _ = run(capsys, *_typed_game(tmp_path), stdin=typed, monkeypatch=monkeypatch)
    assert code == 0
    assert "Ann          G8 across ZAx                                   22    22" in out and "refused: not put right: " in out
    assert out.count("Ann          G8 across ZAX                                   38    38") == 2   # put right after Ben's pass
    code, out, _ = run(capsys, "game", "export", "1", "--format", "jsonl", "--db", str(tmp_path / "g.db"))
    assert [json.loads(line)["type"] for line in out.splitlines()] == \
        ["game_started", "play", "undo", "play", "pass", "undo", "undo", "play", "pass"]


def test_game_resume_continues_where_it_stopped(capsys, tmp_path, monkeypatch):
    run(capsys, *_typed_game(tmp_path), stdin="play 8G ZAX\nquit\n", monkeypatch=monkeypatch)
    code, out, _ = run(capsys, "game", "resume", "1", "--db", str(tmp_path / "g.db"), stdin="status\nquit\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "Ben to move" in out


def test_referee_script_rejects_a_rule_breaking_event_and_goes_on(capsys, tmp_path):
    script = tmp_path / "game.jsonl"
    lines = [
        {"type": "game_started", "players": ["Ann", "Ben"], "lexicon": str(tmp_path / "w.txt")},
        {"type": "play", "player": "Ann", "tiles": {"H8": "Q", "I8": "I"}},
        {"type": "play", "player": "Ann", "tiles": {"H9": "A"}},
        {"type": "play", "player": "Ben", "tiles": {"A1": "A", "A2": "X"}},
        {"type": "pass", "player": "Ben"},
    ]
    (tmp_path / "w.txt").write_text("QI\n", encoding="utf-8")
    script.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "referee", str(script))
    assert code == 1
    assert "event 3 (play): REJECTED: it is Ben's turn, not Ann's" in out
    assert "event 4 (play): REJECTED: the tiles do not touch any tile already on the board: A1, A2" in out
    assert "standings so far" in out


def test_referee_script_that_is_not_json(capsys, tmp_path):
    script = tmp_path / "bad.jsonl"
    script.write_text('{"type": "game_started", "players": ["A", "B"]}\nnot json\n', encoding="utf-8")
    code, _, err = run(capsys, "referee", str(script))
    assert code == cli.EXIT_ERROR and "line 2: not a JSON event" in err


def test_every_subcommand_has_help():
    for argv in (["--help"], ["demo", "--help"], ["game", "list", "--help"], ["gcg", "verify", "--help"],
                 ["lexicon", "check", "--help"], ["referee", "--help"], ["game", "export", "--help"]):
        with pytest.raises(SystemExit) as exit_:
            cli.build_parser().parse_args(argv)
        assert exit_.value.code == 0


def test_python_dash_m_companion_runs():
    result = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "referee" in result.stdout


SHARED_GCG = __import__("pathlib").Path(__file__).resolve().parents[2] / "shared" / "gcg"


@pytest.mark.skipif(not SHARED_GCG.is_dir(), reason="../shared/gcg not present")
def test_gcg_import_then_export_gives_the_same_moves(capsys, tmp_path):
    source = SHARED_GCG / "macondo__vs_frentz.gcg"
    db = str(tmp_path / "g.db")
    code, out, _ = run(capsys, "gcg", "import", str(source), "--db", db)
    assert code == 0 and "as game 1" in out
    code, out, _ = run(capsys, "game", "export", "1", "--format", "gcg", "--db", db)
    moves = [line.split()[2:4] for line in out.splitlines() if line.startswith(">") and len(line.split()) > 4]
    recorded = [line.split()[2:4] for line in source.read_text().splitlines() if line.startswith(">") and len(line.split()) > 4]
    assert moves == recorded


def test_gcg_import_of_a_broken_record_saves_nothing(capsys, tmp_path):
    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a a\n#player2 b b\n>a: ABC 8H ABC +7 7\n>b: DEF 2A DEF +8 8\n", encoding="utf-8")
    db = str(tmp_path / "g.db")
    code, _, err = run(capsys, "gcg", "import", str(bad), "--db", db)
    assert code == cli.EXIT_ERROR and "bad.gcg" in err and "Traceback" not in err
    code, out, _ = run(capsys, "game", "list", "--db", db)
    assert "no saved games yet" in out


def test_a_scripted_game_can_be_saved_and_continued(capsys, tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("QI\nQIS\n", encoding="utf-8")
    part1, part2 = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    part1.write_text(json.dumps({"type": "game_started", "players": ["Ann", "Ben"], "lexicon": str(words)}) + "\n"
                     + json.dumps({"type": "play", "player": "Ann", "tiles": {"H8": "Q", "I8": "I"}}) + "\n", encoding="utf-8")
    part2.write_text(json.dumps({"type": "play", "player": "Ben", "tiles": {"J8": "S"}}) + "\n"
                     + json.dumps({"type": "challenge", "challenger": "Ann"}) + "\n", encoding="utf-8")
    db = str(tmp_path / "g.db")
    code, out, _ = run(capsys, "referee", str(part1), "--save", "--db", db)
    assert code == 0 and "saving as game 1" in out
    code, out, _ = run(capsys, "referee", str(part2), "--game", "1", "--db", db)
    assert code == 0 and "ACCEPTABLE: QIS is valid" in out
    code, out, _ = run(capsys, "game", "show", "1", "--db", db)
    assert "H8 across QIS" in out


def test_the_typed_prompt_refuses_a_variant_game_with_directions(capsys, tmp_path, monkeypatch):
    script = tmp_path / "s.jsonl"
    script.write_text(json.dumps({"type": "game_started", "variant": "speed", "players": ["Ann", "Ben"], "lexicon": "default"}) + "\n", encoding="utf-8")
    db = str(tmp_path / "g.db")
    run(capsys, "referee", str(script), "--save", "--db", db)
    code, _, err = run(capsys, "game", "resume", "1", "--db", db, stdin="", monkeypatch=monkeypatch)
    assert code == cli.EXIT_ERROR and "speed game" in err and "--game 1" in err


def test_gcg_export_of_a_variant_game_says_to_use_jsonl(capsys, tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text(json.dumps({"type": "game_started", "variant": "speed", "players": ["Ann", "Ben"]}) + "\n", encoding="utf-8")
    db = str(tmp_path / "g.db")
    run(capsys, "referee", str(script), "--save", "--db", db)
    code, _, err = run(capsys, "game", "export", "1", "--db", db)
    assert code == cli.EXIT_ERROR and "use --format jsonl" in err
    code, out, _ = run(capsys, "game", "export", "1", "--format", "jsonl", "--db", db)
    assert code == 0 and json.loads(out.splitlines()[0])["variant"] == "speed"


def test_vision_calibrate_learns_a_tile_set_from_a_photo_of_its_sheet(capsys, tmp_path):
    render = pytest.importorskip("vision.render")
    import cv2
    import numpy as np

    from calibration.set_profile import sheet_layout

    fonts = render.font_paths("basic")
    if not fonts:
        pytest.skip("no fonts to draw tiles with")
    sheet = [["."] * 15 for _ in range(15)]
    for (r, c), ch in sheet_layout("ABCDEFGHIJKLMNOPQRSTUVWXYZ").items():
        sheet[r][c] = ch
    rng = np.random.default_rng(3)
    style = render.random_tile_style(np.random.default_rng(1), fonts)
    board_img, corners, _ = render.render_board(["".join(row) for row in sheet], render.random_board_style(np.random.default_rng(2)), style, rng)
    frame, _ = render.photograph(board_img, corners, render.Camera(size=(1280, 960), board_frac=0.8, tilt=0.1), rng)
    photo = tmp_path / "sheet.png"
    cv2.imwrite(str(photo), frame)
    code, out, _ = run(capsys, "vision", "calibrate", str(photo), "--profile", str(tmp_path / "set.npz"))
    assert code == 0 and "letters learnt" in out and (tmp_path / "set.npz").exists()
    code, out, _ = run(capsys, "vision", "read", str(photo), "--set-profile", str(tmp_path / "set.npz"))
    assert code == 0 and len(out.splitlines()) == 15
    # the English set's profile for a German read: refused with the letters it lacks
    code, out, err = run(capsys, "vision", "read", str(photo), "--tileset", "de", "--set-profile", str(tmp_path / "set.npz"))
    assert code != 0 and not out and "calibrate this set" in err


def _tile_pictures(folder, turn: int = 0):
    """A picture of each of the 26 letters' tiles, cut from a rendered board, in ``folder``/A/1.png,
    B/1.png ...; ``turn``: each turned that many quarter turns clockwise (a phone held sideways).
    Returns the board's square crops."""
    import cv2
    import numpy as np

    from vision import read as R
    from vision import render

    fonts = render.font_paths("basic")
    if not fonts:
        pytest.skip("no fonts to draw tiles with")
    words = ["ABCDEFGHIJKLM", "NOPQRSTUVWXYZ"]
    labels = ["." * 15] * 6 + ["." + words[0] + "."] + ["." * 15] + ["." + words[1] + "."] + ["." * 15] * 6
    style = render.TileStyle(face=(160, 208, 232), ink=(10, 15, 20), font=fonts[0])
    img, corners, _ = render.render_board(labels, render.random_board_style(np.random.default_rng(2)), style,
                                          np.random.default_rng(3), cell=40)
    crops = R.cell_crops(rectify_for_test(img, corners))
    for r in (6, 8):
        for c in range(1, 14):
            (folder / labels[r][c]).mkdir(parents=True)
            cv2.imwrite(str(folder / labels[r][c] / "1.png"), np.rot90(crops[r, c], -turn))
    return crops


def test_vision_calibrate_learns_a_tile_set_from_a_folder_of_tile_pictures(capsys, tmp_path):
    pytest.importorskip("vision.render")
    import cv2

    folder = tmp_path / "my set"
    crops = _tile_pictures(folder)
    (folder / "notes").mkdir()
    cv2.imwrite(str(folder / "notes" / "table.png"), crops[0, 0])       # not named by a letter: left out
    (folder / "A" / "2.png").write_text("not a picture", encoding="utf-8")   # damaged: left out, said
    code, out, _ = run(capsys, "vision", "calibrate", str(folder), "--profile", str(tmp_path / "set.npz"))
    assert code == 0 and "26 of 26 letters learnt" in out and (tmp_path / "set.npz").exists()
    assert "left out" in out and "2.png" in out
    code, out, _ = run(capsys, "vision", "classify", str(folder / "Q"), "--set-profile", str(tmp_path / "set.npz"))
    assert code == 0 and out.split("\t")[1] == "Q"
    empty = tmp_path / "nothing"
    empty.mkdir()
    cv2.imwrite(str(empty / "holiday.png"), crops[0, 0])
    code, out, _ = run(capsys, "vision", "calibrate", str(empty), "--profile", str(tmp_path / "x.npz"))
    assert code == 1 and "ERROR" in out and "named by a letter" in out and not (tmp_path / "x.npz").exists()


def test_vision_classify_and_calibrate_say_the_crops_lay_turned(tmp_path, capsys):
    """A folder of single-tile pictures taken with the phone held sideways: `vision calibrate`
    learns them turned back and says so; `vision classify` reads them turned back (stdout keeps
    its one line a crop) and says so on stderr; `--as-is` reads them as they lie."""
    from pathlib import Path

    folder = tmp_path / "sideways"
    _tile_pictures(folder, turn=1)
    code, out, _ = run(capsys, "vision", "calibrate", str(folder), "--profile", str(tmp_path / "set.npz"))
    assert code == 0 and "26 of 26 letters learnt" in out and "turned a quarter turn clockwise" in out
    code, out, err = run(capsys, "vision", "classify", str(folder))
    lines = out.splitlines()
    assert code == 0 and len(lines) == 26 and "turned a quarter turn clockwise" in err
    assert sum(line.split("\t")[1] == Path(line.split("\t")[0]).parent.name for line in lines) >= 25
    code, out, err = run(capsys, "vision", "classify", str(folder), "--as-is")
    assert err == "" and sum(line.split("\t")[1] == Path(line.split("\t")[0]).parent.name
                             for line in out.splitlines()) <= 13


def rectify_for_test(img, corners):
    from vision import read as R
    from vision.geometry import rectify

    return rectify(img, corners, R.CELL)


def test_vision_commands_on_a_file_that_is_not_a_picture(capsys, tmp_path):
    junk = tmp_path / "junk.jpg"
    junk.write_text("not a picture", encoding="utf-8")
    code, out, err = run(capsys, "vision", "locate", str(junk))
    assert code == 1 and out.startswith(f"{junk}\tERROR") and "Traceback" not in out + err
    code, out, err = run(capsys, "vision", "read", str(junk))
    assert code != 0 and "ERROR" in out + err and "Traceback" not in out + err
