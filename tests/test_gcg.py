"""GCG records: reading every kind of line, replaying on the engine, checking scores, writing back."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.board import Board, Placement, Tile
from companion.errors import CompanionError
from companion.events import Replay, fold
from companion.game import AWAITING_RACKS, PLAYING, tiles_spec
from companion.gcg import (
    CHALLENGE_BONUS, END_RACK, EXCHANGE, PASS, PLAY, TIME_PENALTY, WITHDRAWN, GcgError, cli_export, cli_import,
    cli_verify, events_to_gcg, gcg_to_events, parse_gcg, read_gcg, verify, verify_game,
)
from companion.tiles import get_tileset

DATA = Path(__file__).resolve().parent / "data" / "gcg"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "gcg"
REAL = sorted(SHARED.glob("*.gcg")) if SHARED.is_dir() else []
needs_real = pytest.mark.skipif(not REAL, reason="the real GCG files (../shared/gcg) are not here")

#: Real files that are not valid GCG, and why.
NOT_GCG = {
    "macondo__name_weird_encoding_with_header.gcg": "line 1: unsupported #character-encoding 'ISO8859-6'",
}


def rejection(path: Path) -> str:
    report = verify([path])
    assert report.games_checked == 0 and len(report.rejected) == 1
    line = report.lines()[0]
    assert line.startswith(f"{path}: rejected: ")
    return line[len(f"{path}: rejected: "):]


# ---------------------------------------------------------------------------------------------
# Reading


def test_every_kind_of_line_is_read():
    game = read_gcg(DATA / "all_kinds.gcg")
    assert [(p.nick, p.name) for p in game.players] == [("joe", "Joe Bloggs"), ("ann", "Ann Smith")]
    assert game.title == "All kinds of lines" and game.lexicon == "NWL20" and game.tileset == "en"
    assert game.pragmas["event-venue"] == "Club night"  # unknown pragmas are kept
    assert game.notes == ["Before the first move."]
    assert [m.kind for m in game.moves] == [
        PLAY, PLAY, EXCHANGE, PLAY, PLAY, CHALLENGE_BONUS, PLAY, WITHDRAWN, PASS, PLAY, EXCHANGE, END_RACK, END_RACK,
        TIME_PENALTY]
    first, fod, exch, dish = game.moves[:4]
    assert (first.player, first.rack, first.position, first.word, first.score, first.total, first.line) == (
        "joe", "ACEIORT", "8D", "COATI", 20, 20, 9)
    assert first.notes == ["A note\nthat goes on over two lines."]
    assert (fod.square, fod.across, fod.word) == ((6, 4), False, "F.D")  # e7: column first, so down
    assert (exch.exchanged, exch.exchange_count) == ("EIU", 3)
    assert [(c.letter, c.blank, c.through) for c in dish.cells] == [("D", False, True), ("I", False, False),
                                                                    ("S", True, False), ("H", False, False)]
    assert game.moves[10].exchange_count == 7 and game.moves[10].exchanged == ""
    assert game.moves[11].end_rack == "AEFIKLM" and game.moves[11].score == -16
    assert game.moves[13].score == -10
    assert game.challenge_rule == "bonus5"


def test_the_engine_agrees_with_every_line_of_the_sample():
    report = verify([DATA / "all_kinds.gcg"])
    assert report.lines() == ["checked 14 moves in 1 games: 0 mismatches"]
    assert report.exit_status == 0
    assert report.files[0].final_scores == {"joe": 87, "ann": 25}


def test_older_layout_whole_words_cross_words_and_each_player_losing_their_own_leftover():
    text = "\n".join([
        "#player1 Gan Ganesh",
        "#player2 Paul Paul C",
        ">Gan: AOXJGWS  8g   JAW             +26   26  ",
        ">Paul: IEEKBNL   h6  BEANLIKE        +69   69  ",  # A on H8 written in full
        ">Gan: OXGSHYD   i12 OXY             +44   70  KO, EX",
        ">Paul: ISN 14h SYN +23 92",
        ">Paul:               (T)              +1  93",  # the out player gains the leftover once ...
        ">Gan: T             (T)              -1  69",  # ... and the other player loses it
    ])
    game = parse_gcg(text, "old.gcg")
    assert game.moves[2].cross_words == ("KO", "EX")
    assert game.moves[1].cells[2].through is False  # written in full; found on the board when replayed
    events = gcg_to_events(game)
    assert events[0]["end_rule"] == "transfer"  # the two-line form
    assert events[2]["tiles"] == {"H6": "B", "H7": "E", "H9": "N", "H10": "L", "H11": "I", "H12": "K", "H13": "E"}
    assert events[-1] == {"type": "end_racks", "racks": {"Gan": "T"}}
    result = verify_game(game)
    # A fragment: the bag is not empty, so on the engine nobody went out and Paul gains nothing; Gan's
    # own leftover counts as it would at the end of a game ended on passes.
    assert [(m.line, m.engine_score, m.engine_total) for m in result.mismatches] == [(7, 0, 92)]
    assert result.final_scores == {"Gan": 69, "Paul": 93}
    assert (7, "the record says Paul went out, the engine has nobody going out (71 tiles still in the bag)") in result.remarks


@pytest.mark.parametrize("rule, end", [
    ("double", [">Bo: (QZ) +40 1289"]),  # the spec's line: twice the leftover, the other player keeps their score
    ("transfer", [">Bo: (QZ) +20 1269", ">Al: QZ (QZ) -20 1112"]),  # the older form: the leftover changes hands
])
def test_going_out_is_settled_by_the_engine_under_the_end_rule_the_end_lines_show(rule, end):
    path = DATA / f"went_out_{rule}.gcg"
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[-len(end):] == end
    game = read_gcg(path)
    assert game.end_rule == rule
    events = gcg_to_events(game)
    assert events[0]["end_rule"] == rule
    assert events[-1] == {"type": "end_racks", "racks": {"Al": "QZ"}}  # no convention of gcg.py's own
    state = fold(events)
    assert state.went_out == 1 and state.config.end_rule == rule
    report = verify([path])
    assert report.lines() == [f"checked {14 + len(end)} moves in 1 games: 0 mismatches"]
    assert report.files[0].final_scores == dict(zip(("Al", "Bo"), state.scores))
    assert events_to_gcg(events) == text  # written back in the same form


def test_an_end_of_game_line_the_engine_does_not_agree_with_is_a_mismatch():
    text = (DATA / "went_out_double.gcg").read_text(encoding="utf-8").replace(">Bo: (QZ) +40 1289", ">Bo: (QZ) +20 1269")
    result = verify_game(parse_gcg(text, "t.gcg"))
    assert [str(m) for m in result.mismatches] == [
        "t.gcg:21: expected +20 (total 1269), engine scored +40 (total 1289): >Bo: (QZ) +20 1269"]


def test_play_through_written_three_ways_gives_the_same_tiles():
    head = "#player1 a A\n#player2 b B\n>a: ACEIORT 8D COATI +20 20\n"
    tiles = []
    for word in ("F.D", "F(O)D", "FOD", "f(o)D"):
        score = 7 if word[0] == "F" else 3
        events = gcg_to_events(parse_gcg(head + f">b: DEFGHIL E7 {word} +{score} {score}\n", "p.gcg"))
        tiles.append(events[-1]["tiles"])
    assert tiles[:3] == [{"E7": "F", "E9": "D"}] * 3
    assert tiles[3] == {"E7": "f", "E9": "D"}


def test_polish_letters_choose_the_polish_tile_set():
    text = "#character-encoding UTF-8\n#player1 1 ptf\n#player2 2 smut\n>1: AHIJOUY 8F HUJA +20 20\n>2: ĆĘIKPST 8G STĘPIĆ +46 46\n"
    game = parse_gcg(text.encode("utf-8"), "pl.gcg")
    assert game.tileset == "pl" and game.encoding == "utf-8"
    assert parse_gcg("#player1 a A\n#player2 b B\n#lexicon OSPS49\n>a: AB 8H AB +8 8\n").tileset == "pl"
    assert parse_gcg("#player1 a A\n#player2 b B\n>a: AB 8H AB +8 8\n").tileset == "en"


def test_encodings():
    latin1 = "#player1 c\xe9sar C\xe9sar\n#player2 doug doug\n>c\xe9sar: DINNVWY 8D WINDY +32 32\n".encode("latin-1")
    game = parse_gcg(latin1, "l.gcg")
    assert game.players[0].nick == "césar" and game.encoding == "iso-8859-1"
    assert "read as ISO-8859-1" in game.remarks[0][1]
    declared = read_gcg(DATA / "latin1_declared.gcg")  # ISO-8859-1 pragma and CRLF line ends
    assert declared.players[0].nick == "césar" and [m.word for m in declared.moves] == ["WINDY", "GALE"]
    assert parse_gcg("#character-encoding UTF-8\r\n#player1 é é\r\n#player2 b b\r\n".encode()).players[0].nick == "é"
    assert "not valid UTF-8" in rejection(DATA / "latin1_declared_utf8.gcg")


# ---------------------------------------------------------------------------------------------
# Files that are not valid GCG: a clear reason with the line, never a traceback


@pytest.mark.parametrize("name, reason", [
    ("missing_score.gcg", "line 7: '>joe 8D' has no score"),
    ("bad_coordinate.gcg", "line 4: '>ann: DEFGHIL Z9 FOD +7 7' has a bad coordinate 'Z9'"),
    ("word_off_board.gcg", "line 4: '>ann: DEFGHIL 8L FIDDLE +12 12' has the word 'FIDDLE' at 8L, which does not fit on the board"),
    ("dot_over_empty.gcg", "line 4: '>ann: DEFGHIL E10 F.D +7 7' plays through E11 with '.', but E11 is empty"),
    ("wrong_play_through.gcg", "line 4: '>ann: DEFGHIL e7 F(A)D +7 7' plays through (A) on E8, but E8 holds O"),
    ("unknown_letter.gcg", "line 6: '>ann: ŻABDEFG E7 ŻAB +7 7': 'Ż' is not a letter of the English tile set (lexicon NWL20)"),
    ("letter_of_no_tileset.gcg", "line 5: '>ann: ÑABDEFG E7 ÑAB +7 7': 'Ñ' is not a letter of the English tile set, nor of any other"),
    ("not_touching.gcg", "line 4: '>ann: DEFGHIL 2B FIDDLE +12 12' cannot be replayed: the tiles do not touch any tile"),
    ("withdrawn_wrong_player.gcg", "line 4: '>ann: DEFGHIL -- -20 0' takes back a play (--), but the play before it is joe's"),
    ("duplicate_nick.gcg", "line 4: '>joe: DEFGHIL e7 F.D +7 30': 'joe' is the nickname of 2 players, and the running total 30 "
                           "continues none of their totals (Joe Bloggs 20, Joe Two 0) by +7"),
    ("empty.gcg", "empty file"),
    ("binary.gcg", "line 3: binary data (a NUL byte at offset 8)"),
])
def test_bad_files_are_rejected_with_the_line_and_the_reason(name, reason):
    assert rejection(DATA / name).startswith(reason)
    with pytest.raises(GcgError) as info:
        verify_game(read_gcg(DATA / name))
    assert isinstance(info.value, CompanionError)
    assert str(info.value).startswith(f"{DATA / name}:")


@pytest.mark.parametrize("text, reason", [
    ("#player1 a A\n#player2 b B\n>a: ACEIORT 8D COATI +20\n", "has no running total"),
    ("#player1 a A\n#player2 b B\n>a: ACEIORT COATI +20 20\n", "has no position"),
    ("#player1 a A\n#player2 b B\n>a: ACEIORT 8D +20 20\n", "has no word after its position"),
    ("#player1 a A\n#player2 b B\n>a: ACEIORT 8D CO%TI +20 20\n", "which is not a word of tiles"),
    ("#player1 a A\n#player2 b B\n>a: ACEIORT 8D COATI +20 20 ???\n", "after its running total"),
    ("#player1 a A\n#player2 b B\n>c: ACEIORT 8D COATI +20 20\n", "'c' is not a player of this game (a, b)"),
    ("#player1 a A\n#player2 b B\n>a: ACEIORT -A1B +0 0\n", "neither an exchange"),
    ("#player1 a A\n#player2 b B\n>a: ACEIORT (time) +10 10\n", "time penalty with a positive score"),
    ("#player1 a A\n#player2 b B\nhello\n", "is not a GCG line"),
    (">a: ACEIORT 8D COATI +20 20\n", "before any #player line"),
    ("#player1 a A\n#player2 b B\n>b: ABC (challenge) +5 5\n", "there is no play open"),
    ("#player1 a A\n#player2 b B\n>a: ACEIORT 8D COATI +20 20\n>b: ABC (challenge) +5 5\n", "the play before it is a's"),
    ("#player1 a A\n#player2 b B\n>a: ACEIORT 8D COATI +20 20\n>a: ACEIORT 9D COATI +20 40\n>a: (B) +6 46\n>b: X 8D COATI +20 20\n",
     "comes after the end of the game"),
    ("#player1 a A\n#player2 b B\n>a: ACEIORT 8D COATI +20 20\n>b: ABCDEFG 2A BAD +6 6\n", "cannot be replayed: the tiles do not touch"),
    ("#player1 a A\n#player2 b B\n>a: AB 8H A. +2 2\n", "plays through I8 with '.', but I8 is empty"),
    ("   \n\n", "empty file"),
    ("#player1 a A\n#player2 b B\n\x01\x02\x03\n", "binary data"),
])
def test_more_malformed_records(text, reason):
    with pytest.raises(GcgError) as info:
        verify_game(parse_gcg(text, "m.gcg"))
    assert reason in str(info.value)
    assert str(info.value).startswith("m.gcg")


def test_a_running_total_that_does_not_add_up_is_a_mismatch_reported_once():
    report = verify([DATA / "bad_total.gcg"])
    assert report.lines() == [
        f"{DATA / 'bad_total.gcg'}:5: expected +0 (total 21), engine scored +0 (total 20): >joe: EEIRRSU -EIU +0 21",
        "checked 6 moves in 1 games: 1 mismatches",
    ]
    assert report.exit_status == 1


def test_cli_verify_exit_status_and_output(capsys):
    assert cli_verify([str(DATA / "all_kinds.gcg")]) == 0
    assert capsys.readouterr().out == "checked 14 moves in 1 games: 0 mismatches\n"
    assert cli_verify([str(DATA / "all_kinds.gcg"), str(DATA / "empty.gcg")]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{DATA / 'empty.gcg'}: rejected: empty file: no #player lines and no moves",
                   "checked 14 moves in 1 games: 0 mismatches (1 files rejected)"]
    assert cli_verify([str(DATA / "bad_total.gcg"), str(DATA / "empty.gcg")]) == 1
    capsys.readouterr()
    assert cli_verify([str(DATA / "no_such_file.gcg")]) == 2
    assert "rejected: cannot read the file" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# The real files


@needs_real
def test_all_real_files_check_out_or_are_rejected_for_a_reason():
    report = verify(REAL)
    assert len(REAL) == 44
    assert report.mismatches == []
    rejected = {Path(f.path).name: f.rejected for f in report.rejected}
    assert set(rejected) == set(NOT_GCG)
    for name, reason in NOT_GCG.items():
        assert rejected[name].startswith(reason)
    assert report.games_checked == 43 and report.moves_checked >= 960
    assert report.summary.endswith(": 0 mismatches (1 files rejected)")
    scores = {Path(f.path).name: f.final_scores for f in report.files}
    assert scores["quackle__multiplayer-crash.gcg"] == {"Mark_Ogden": 172, "Chappy": 184, "Nicole_Gorham": 221, "Daniel_Southam": 149}
    assert scores["macondo__polish_endgame.gcg"] == {"1": 316, "2": 323}
    assert scores["quackle__fivepoint.gcg"] == {"Ganesh": 452, "Paul": 360}
    assert scores["quackle__consonant_heaviness_tendency.gcg"] == {"New Player 2": 345, "jasonkb": 356}


@needs_real
def test_real_files_special_cases():
    polish = read_gcg(SHARED / "macondo__polish_endgame.gcg")
    assert polish.tileset == "pl" and polish.moves[-1].end_rack == "BHUWZ"
    weird = verify([SHARED / "macondo__name_iso8859-1.gcg"]).files[0]
    assert weird.final_scores == {"césar": 32, "hércules": 16}
    dos = read_gcg(SHARED / "macondo__utf8_dos.gcg")
    assert dos.moves[9].notes[0].startswith("tennises dentines way more points\nsince ive been behind")
    capp = read_gcg(SHARED / "quackle__capp.gcg")
    assert [m.score_given for m in capp.moves if m.kind == WITHDRAWN] == [False]  # the older '-- +0'
    double = gcg_to_events(read_gcg(SHARED / "macondo__doug_v_emely_double_challenge.gcg"))
    assert double[0]["end_rule"] == "double"
    assert double[-2] == {"type": "challenge", "challenger": "doug", "verdict": "valid", "gcg_rack": "EGOP"}
    assert double[-1] == {"type": "end_racks", "racks": {"doug": "OPEG"}}
    assert gcg_to_events(read_gcg(SHARED / "quackle__fivepoint.gcg"))[0]["end_rule"] == "transfer"
    names = gcg_to_events(read_gcg(SHARED / "macondo__noah_vs_peter.gcg"))[0]["players"]
    assert names == ["Noah", "Peter Armstrong"]


@needs_real
@pytest.mark.parametrize("path", [p for p in REAL if p.name not in NOT_GCG], ids=lambda p: p.stem)
def test_real_files_round_trip(path):
    game = read_gcg(path)
    events = gcg_to_events(game)
    fold(events)  # the engine replays the imported game as it stands
    text = events_to_gcg(events)
    again = parse_gcg(text, "export.gcg")
    assert strip(gcg_to_events(again)) == strip(events)
    assert verify_game(again).mismatches == []
    before = [(m.seat, m.kind, m.total) + ((m.score,) if m.score_given else ()) for m in game.moves]
    after = [(m.seat, m.kind, m.total) + ((m.score,) if game.moves[i].score_given else ()) for i, m in enumerate(again.moves)]
    assert after == before
    if not game.shared_nicks:
        assert [m.player for m in again.moves] == [m.player for m in game.moves]


@needs_real
def test_cli_import_and_export():
    events = cli_import(SHARED / "macondo__vs_frentz.gcg")
    state = fold(events)
    assert state.players == ("cesar", "frentz")
    text = cli_export(events)
    assert text.startswith("#character-encoding UTF-8\n#player1 cesar cesar\n#player2 frentz frentz\n")
    assert ">frentz: (AHNTT) +16 550" in text


def strip(events):
    """Events without the record-only details: what the engine acts on."""
    out = []
    for e in events:
        e = {k: v for k, v in e.items() if k not in ("gcg", "note")}
        if e["type"] == "game_started":
            e = {k: e[k] for k in ("type", "players", "tileset")}
        out.append(e)
    return out


# ---------------------------------------------------------------------------------------------
# Export then import is the identity: random legal games


def _random_placements(board: Board, rng: random.Random, rack: list[str]) -> tuple[Placement, ...] | None:
    n = board.size
    first = board.is_empty
    least = 2 if first else 1
    if len(rack) < least:
        return None
    anchors = [(7, 7)] if first else [
        (r, c) for r in range(n) for c in range(n) if board[r, c] is None
        and any(board.occupied((r + a, c + b)) for a, b in ((0, 1), (0, -1), (1, 0), (-1, 0)))]
    for _ in range(20):
        k = rng.randint(least, len(rack))
        dr, dc = rng.choice([(0, 1), (1, 0)])
        r, c = rng.choice(anchors)
        for _ in range(rng.randint(0, k - 1)):  # start before the anchor, over empty squares
            pr, pc = r - dr, c - dc
            while board.occupied((pr, pc)):
                pr, pc = pr - dr, pc - dc
            if not board.on_board((pr, pc)):
                break
            r, c = pr, pc
        squares = []
        while len(squares) < k and board.on_board((r, c)):
            if board[r, c] is None:
                squares.append((r, c))
            r, c = r + dr, c + dc
        if len(squares) < least:
            continue
        letters = rng.sample(rack, len(squares))
        return tuple(Placement(s, Tile(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), True) if ch == "?" else Tile(ch))
                     for s, ch in zip(squares, letters))
    return None


def random_game(seed: int, players: int, rule: str) -> list[dict]:
    """A legal game as the referee would save it: plays, challenges, exchanges, passes, penalties, undo."""
    rng = random.Random(seed)
    names = ["Ann", "Bob Lee", "Cy", "Dee"][:players]
    start = {"type": "game_started", "players": names, "tileset": "en", "challenge_rule": rule}
    if players == 2 and rng.random() < 0.5:  # one (RACK) +2N line cannot say whose tiles were whose among 3 or 4
        start["end_rule"] = "double"
    replay = Replay(start)
    tiles = get_tileset("en")
    bag = [letter for letter, count in tiles.counts.items() for _ in range(count)] + ["?"] * tiles.blanks
    rng.shuffle(bag)
    racks = [[bag.pop() for _ in range(7)] for _ in names]
    events = [start]
    saved = []  # (racks, bag) before each event, for undo

    def push(event):
        snapshot = (copy.deepcopy(racks), list(bag))
        replay.push(event)
        events.append(event)
        saved.append(snapshot)

    for _ in range(rng.randint(1, 90)):
        state = replay.state
        if state.phase != PLAYING:
            break
        who = state.to_move
        rack = racks[who]
        roll = rng.random()
        if roll < 0.07 and saved:
            replay.push({"type": "undo"})
            events.append({"type": "undo"})
            old_racks, old_bag = saved.pop()
            racks[:] = old_racks
            bag[:] = old_bag
        elif roll < 0.75:
            placements = _random_placements(state.board, rng, rack)
            if placements is None:
                continue
            push({"type": "play", "player": names[who], "tiles": tiles_spec(placements), "rack": "".join(rack)})
            for p in placements:
                rack.remove("?" if p.tile.blank else p.tile.letter)
            rack += [bag.pop() for _ in range(min(len(placements), len(bag)))]
            if rng.random() < 0.2:
                verdict = rng.choice(["valid", "invalid"])
                before_racks, before_bag = saved[-1]
                push({"type": "challenge", "challenger": names[(who + 1) % players], "verdict": verdict})
                if verdict == "invalid":
                    racks[:] = copy.deepcopy(before_racks)
                    bag[:] = before_bag
        elif roll < 0.83 and len(bag) >= 7 and rack:
            out = rng.sample(rack, rng.randint(1, len(rack)))
            event = {"type": "exchange", "player": names[who], "count": len(out), "rack": "".join(rack)}
            if rng.random() < 0.5:
                event["exchanged"] = "".join(out)
            push(event)
            for t in out:
                rack.remove(t)
            rack += [bag.pop() for _ in out]
            bag += out
            rng.shuffle(bag)
        elif roll < 0.93:
            push({"type": "pass", "player": names[who]})
        elif roll < 0.97:
            push({"type": "time_penalty", "player": rng.choice(names), "points": rng.randint(0, 30)})
        elif rack:
            push({"type": "rack", "player": names[who], "rack": "".join(rack)})
    if replay.state.phase == PLAYING and rng.random() < 0.3:
        while replay.state.phase == PLAYING:
            push({"type": "pass", "player": names[replay.state.to_move]})
    state = replay.state
    if state.phase == AWAITING_RACKS:
        left = {names[i]: "".join(racks[i]) for i in range(players) if i != state.went_out and racks[i]}
        push({"type": "end_racks", "racks": left})
        if rng.random() < 0.3:
            push({"type": "time_penalty", "player": rng.choice(names), "points": 10})
    return events


def in_force(events):
    out = []
    for e in events:
        if e["type"] == "undo":
            out.pop()
        else:
            out.append(e)
    return out


def engine_view(events, rule):
    """What the engine acts on, per event (the challenger only where the rule makes it matter)."""
    out = []
    for e in in_force(events):
        kind = e["type"]
        if kind == "game_started":
            out.append((kind, tuple(e["players"]), e.get("tileset", "en")))
        elif kind == "play":
            out.append((kind, e["player"], tuple(sorted(e["tiles"].items())), e.get("rack", "")))
        elif kind == "challenge":
            who = e["challenger"] if e["verdict"] == "valid" and rule in ("double", "single") else None
            out.append((kind, e["verdict"], who))
        elif kind == "exchange":
            out.append((kind, e["player"], e["count"]))
        elif kind == "pass":
            out.append((kind, e["player"]))
        elif kind == "end_racks":
            out.append((kind, tuple(sorted((k, v) for k, v in e["racks"].items() if v))))
        elif kind == "time_penalty":
            out.append((kind, e["player"], e["points"]))
        elif kind == "rack":
            out.append((kind, e["player"], e["rack"]))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), rule=st.sampled_from(["double", "single", "bonus5", "bonus10"]))
def test_export_then_import_is_the_identity(seed, players, rule):
    events = random_game(seed, players, rule)
    text = events_to_gcg(events)
    game = parse_gcg(text, "export.gcg")
    imported = gcg_to_events(game)
    assert engine_view(imported, rule) == engine_view(events, rule)
    assert fold(imported).scores == fold(events).scores
    result = verify_game(game)
    assert result.mismatches == [], text
    assert events_to_gcg(imported) == text  # and exporting the import again gives the same record


def test_export_of_a_saved_game_with_undo_and_names_with_spaces():
    events = [
        {"type": "game_started", "players": ["Ann Lee", "Bob"], "tileset": "en"},
        {"type": "play", "player": "Ann Lee", "tiles": {"H8": "C", "I8": "a", "J8": "T"}, "rack": "ACT?XYZ"},
        {"type": "play", "player": "Bob", "tiles": {"K8": "S"}},
        {"type": "undo"},
        {"type": "play", "player": "Bob", "tiles": {"H9": "O", "H10": "W"}, "note": "nice\n#not a pragma"},
        {"type": "time_penalty", "player": "Bob", "points": 10},
    ]
    text = events_to_gcg(events)
    assert text == "\n".join([
        "#character-encoding UTF-8",
        "#player1 Ann_Lee Ann Lee",
        "#player2 Bob Bob",
        ">Ann_Lee: ACT?XYZ 8H CaT +8 8",
        ">Bob: H8 .OW +8 8",
        "#note nice",
        "#note #not a pragma",
        ">Bob: (time) -10 -2",
    ]) + "\n"
    back = gcg_to_events(parse_gcg(text))
    assert back[0]["players"] == ["Ann Lee", "Bob"]
    assert back[2]["note"] == "nice\n#not a pragma"
    assert fold(back).scores == (8, -2)


def test_export_refuses_what_gcg_cannot_hold():
    with pytest.raises(GcgError, match="no events"):
        events_to_gcg([])
    with pytest.raises(GcgError, match="no letter"):
        events_to_gcg([{"type": "game_started", "players": ["A", "B"]},
                       {"type": "play", "player": "A", "tiles": {"H8": "?", "I8": "A"}}])


def test_verify_takes_a_folder():
    report = verify([DATA])
    assert report.games_checked == 6 and len(report.rejected) == len(list(DATA.glob("*.gcg"))) - 6
    assert report.exit_status == 1


def test_a_record_that_goes_on_after_every_player_passed_twice():
    # The engine's own rule ends a game when every player has passed twice; tournament records may go on.
    text = "\n".join(["#player1 a A", "#player2 b B", ">a: ACEIORT 8D COATI +20 20", ">b: DEFGHIL - +0 0",
                      ">a: EEIRRSU - +0 20", ">b: DEFGHIL - +0 0", ">a: EEIRRSU - +0 20", ">b: DEFGHIL e7 F.D +7 7"])
    result = verify_game(parse_gcg(text, "p.gcg"))
    assert result.mismatches == [] and result.final_scores == {"a": 20, "b": 7} and result.moves == 6
    assert result.remarks == []  # the engine itself goes on: no workaround, nothing to note


def test_a_record_ended_after_six_scoreless_turns_imports_and_verifies(capsys):
    path = DATA / "six_scoreless_turns.gcg"
    report = verify([path])
    assert report.lines() == ["checked 9 moves in 1 games: 0 mismatches"]
    assert report.files[0].final_scores == {"joe": 13, "ann": -15}
    events = cli_import(path)
    assert capsys.readouterr().err == ""
    assert [e["type"] for e in events[1:]] == ["play"] + ["pass"] * 6 + ["end_racks"]
    state = fold(events)
    assert state.phase == "ended" and state.went_out is None and state.scores == (13, -15)
    assert events_to_gcg(events).splitlines()[-2:] == [">joe: EEIRRSU (EEIRRSU) -7 13", ">ann: DEFGHIL (DEFGHIL) -15 -15"]


def test_shared_nicknames_are_told_apart_by_turn_order_and_running_totals(capsys):
    text = "\n".join([
        "#player1 x Ann Lee", "#player2 x Bob",
        ">x: ACEIORT 8D COATI +20 20",  # both totals are 0: turn order says Ann
        ">x: DEFGHIL e7 F.D +7 7",  # turn order says Bob, and only Bob's total fits
        ">x: DEHIL 9D E +7 14",  # turn order says Ann, the totals say Bob (20 + 7 is not 14): Bob's
        ">x: EEIRRSU (challenge) +5 19",  # a bonus belongs to the player of the play before it
    ])
    game = parse_gcg(text, "s.gcg")
    assert [m.seat for m in game.moves] == [0, 1, 1, 1]
    assert game.labels == ["Ann Lee", "Bob"]
    assert game.remarks == [
        (2, "#player1 and #player2 share the nickname 'x': their lines are told apart by turn order, each checked against "
            "that player's running total (#player1 as 'Ann Lee', #player2 as 'Bob')"),
        (5, "turn order gives this line to Ann Lee, the running totals to Bob: it is Bob's"),
    ]
    events = gcg_to_events(game)
    assert events[0]["players"] == ["Ann Lee", "Bob"]
    assert [e.get("player") for e in events[1:4]] == ["Ann Lee", "Bob", "Bob"]
    assert events[4] == {"type": "challenge", "challenger": "Ann Lee", "verdict": "valid", "gcg_rack": "EEIRRSU"}
    result = verify_game(game)
    assert result.mismatches == [] and result.final_scores == {"Ann Lee": 20, "Bob": 19}
    assert cli_verify([str(DATA / "all_kinds.gcg")]) == 0 and capsys.readouterr().out.count("note:") == 0
    # Written back, each player has a nickname of their own.
    exported = events_to_gcg(events)
    assert exported.splitlines()[1:3] == ["#player1 Ann_Lee Ann Lee", "#player2 Bob Bob"]
    assert [m.seat for m in parse_gcg(exported).moves] == [0, 1, 1, 1]


@needs_real
def test_the_real_record_with_a_shared_nickname(capsys):
    path = SHARED / "quackle__consonant_heaviness_tendency.gcg"
    assert cli_verify([str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{path}:2: note: #player1 and #player2 share the nickname 'NoName': their lines are told apart by turn "
                   f"order, each checked against that player's running total (#player1 as 'New Player 2', #player2 as 'jasonkb')",
                   "checked 17 moves in 1 games: 0 mismatches"]
    game = read_gcg(path)
    assert [m.seat for m in game.moves] == [0, 1] * 8 + [0]  # strict alternation, every total confirming it
    events = cli_import(path)
    assert "share the nickname 'NoName'" in capsys.readouterr().err
    assert events[0]["players"] == ["New Player 2", "jasonkb"]
    assert fold(events).scores == (345, 356)


def test_unsuccessful_challenge_note_and_final_racks():
    text = "\n".join([
        "#player1 a A", "#player2 b B",
        ">a: ACEIORT 8D COATI +20 20",
        ">b: DEFGHIL - +0 0",
        "#note #unsuccessful-challenge",
        ">a: EEIRRSU 9D E +6 26",
        "#rack2 DEFGHIL",
    ])
    events = gcg_to_events(parse_gcg(text, "u.gcg"))
    assert events[2] == {"type": "challenge", "challenger": "b", "verdict": "valid", "gcg_rack": "DEFGHIL"}
    assert events[-1] == {"type": "rack", "player": "b", "rack": "DEFGHIL"}
    assert fold(events).known_racks[1] == "DEFGHIL"
    exported = events_to_gcg(events)
    assert ">b: DEFGHIL - +0 0\n#note #unsuccessful-challenge\n" in exported and exported.endswith("#rack2 DEFGHIL\n")
