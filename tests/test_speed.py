"""Speed Scrabble ("Take Two", seed 003) as the referee applies it: one test per rule and edge case.

Most tests use a small tile set written for the test (``tileset_file``) holding exactly the tiles
of the grids they score, so the pool runs out in a call or two, and a small word list.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.errors import RuleViolation
from companion.events import fold, read_jsonl
from companion.lexicon import Lexicon, default_lexicon_path
from companion.referee import Referee
from companion.variants import speed

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "companion" / "data" / "demo" / "speed.jsonl"

#: English Scrabble tile values, for the small test sets.
EN = dict(A=1, B=3, C=3, D=2, E=1, F=4, G=2, H=4, I=1, J=8, K=5, L=1, M=3, N=1, O=1, P=3, Q=10, R=1, S=1, T=1,
          U=1, V=4, W=4, X=8, Y=4, Z=10)

WORDS = ["CAT", "CATS", "COAT", "COATS", "COW", "COWS", "AXE", "TAX", "EAT", "STONED", "SOD", "DOCTORS", "TO",
         "AT", "OX", "TOE", "ACT", "DOT", "NOTED", "TACO", "ODE"]
LEX = Lexicon.from_words(WORDS, "test")

#: Two grids of seven tiles: CATS 3+1+1+1 = 6 plus COWS (down) 3+1+4+1 = 9 -> 15; COAT 6 + COWS 9 -> 15.
ANN = ["CATS", "O...", "W...", "S..."]
BEN = ["COAT", "O...", "W...", "S..."]


def start(players=("Ann", "Ben"), **options) -> dict:
    return {"type": "game_started", "variant": "speed", "players": list(players), **options}


def referee(players=("Ann", "Ben"), lexicon=LEX, **options) -> Referee:
    return Referee([start(players, **options)], lexicon=lexicon)


def tiles_of(grids) -> tuple[Counter, int]:
    letters = Counter(ch for rows in grids for row in rows for ch in row if ch.isupper())
    blanks = sum(ch.islower() for rows in grids for row in rows for ch in row)
    return letters, blanks


def exact_set(tileset_file, grids) -> str:
    """A tile set holding exactly the tiles of ``grids`` (English values)."""
    letters, blanks = tiles_of(grids)
    return tileset_file({k: (n, EN[k]) for k, n in letters.items()}, blanks=blanks)


def stopped(tileset_file, grids: dict[str, list[str]], done_by="Ann", **options) -> Referee:
    """A game whose first round has stopped with a Done call. The tile set holds exactly the grids'
    tiles and the pool is emptied by calls, so each player holds their grid's tiles (grids of equal size)."""
    ref = referee(tuple(grids), tileset=exact_set(tileset_file, grids.values()), sets=1, **options)
    while ref.state.pool:
        ref.submit({"type": "call", "player": done_by})
    ref.submit({"type": "call", "player": done_by, "call": "done"})
    return ref


def grid(ref: Referee, player: str, rows: list[str]) -> speed.GridResult:
    """Submit a grid and return how it scored (also when it closed the round)."""
    ref.submit({"type": "grid", "player": player, "rows": rows})
    i = ref.state.players.index(player)
    current = ref.state.grids[i] if ref.state.grids else None
    return current if current is not None else ref.state.rounds[-1][i]


def score(rows, invalid=(), rule="keep", tiles="en"):
    from companion.tiles import get_tileset

    return speed.score_grid(speed.parse_grid(rows), set(invalid), get_tileset(tiles), rule)


# ------------------------------------------------------------------------------------------ setup
def test_each_player_takes_seven_from_one_pool_with_a_set_per_two_players():
    two = referee().state
    assert two.config.sets == 1 and two.taken == (7, 7) and two.pool == 100 - 14
    three = referee(("Ann", "Ben", "Cy")).state
    assert three.config.sets == 2 and three.pool == 200 - 21


def test_several_sets_make_one_pool():
    assert referee(sets=3).state.pool == 300 - 14


def test_a_pool_too_small_for_seven_each_is_refused(tileset_file):
    path = tileset_file({"A": (10, 1)})
    with pytest.raises(RuleViolation, match="too few for 2 players to take 7"):
        referee(tileset=path, sets=1)


@pytest.mark.parametrize("players", [["Ann"], [f"P{i}" for i in range(9)]])
def test_the_number_of_players_is_two_to_eight(players):
    with pytest.raises(RuleViolation, match="2 to 8 players"):
        referee(tuple(players))


def test_an_unknown_house_rule_value_is_refused():
    with pytest.raises(RuleViolation, match="unknown take_one_order rule 'random'"):
        referee(take_one_order="random")


def test_the_target_defaults_to_250_and_can_be_agreed():
    assert referee().state.config.target == 250
    assert referee(target=100).state.config.target == 100
    with pytest.raises(RuleViolation, match="'target'"):
        referee(target=0)


# ------------------------------------------------------------------------------------------ calls
def test_take_two_gives_every_player_two_tiles():
    ref = referee(("Ann", "Ben", "Cy"))
    ref.submit({"type": "call", "player": "Ben"})
    assert ref.state.taken == (9, 9, 9) and ref.state.pool == 179 - 6
    assert "TAKE TWO" in ref.state.notes[0]


def test_take_one_when_the_pool_holds_fewer_than_two_per_player(tileset_file):
    # 2 players, 17 tiles: pool 3 (fewer than 2 x 2) -> Take One, one each, pool 1.
    ref = referee(tileset=tileset_file({"A": (17, 1)}), sets=1)
    assert ref.state.pool == 3
    ref.submit({"type": "call", "player": "Ann"})
    assert ref.state.taken == (8, 8) and ref.state.pool == 1


def test_take_one_with_fewer_tiles_than_players_goes_in_seat_order_from_the_caller(tileset_file):
    # 3 players, 23 tiles: pool 2 -> Take One: the caller Ben, then Cy; Ann gets none.
    ref = referee(("Ann", "Ben", "Cy"), tileset=tileset_file({"A": (23, 1)}), sets=1)
    ref.submit({"type": "call", "player": "Ben"})
    assert ref.state.taken == (7, 8, 8) and ref.state.pool == 0
    assert "Ben and Cy take 1" in ref.state.notes[0] and "Ann get none" in ref.state.notes[0]


def test_house_rule_take_one_left_of_caller_starts_with_the_next_player(tileset_file):
    ref = referee(("Ann", "Ben", "Cy"), tileset=tileset_file({"A": (23, 1)}), sets=1, take_one_order="left_of_caller")
    ref.submit({"type": "call", "player": "Ben"})
    assert ref.state.taken == (8, 7, 8)  # Cy, then Ann (round the table); Ben gets none


def test_done_when_the_pool_is_empty_stops_the_round_at_once(tileset_file):
    ref = referee(tileset=tileset_file({"A": (14, 1)}), sets=1)
    assert ref.state.pool == 0
    ref.submit({"type": "call", "player": "Ben"})
    assert ref.state.phase == speed.SCORING and ref.state.done_by == 1
    with pytest.raises(RuleViolation, match="the round has stopped: no more calls"):
        ref.submit({"type": "call", "player": "Ann"})


def test_a_call_heard_wrong_is_refused_naming_the_right_call(tileset_file):
    ref = referee(tileset=tileset_file({"A": (17, 1)}), sets=1)
    with pytest.raises(RuleViolation, match="fewer than two for each of 2 players: the call is TAKE ONE"):
        ref.submit({"type": "call", "player": "Ann", "call": "Take Two!"})
    assert ref.state.pool == 3  # unchanged
    ref.submit({"type": "call", "player": "Ann", "call": "Take One"})
    with pytest.raises(RuleViolation, match="the call is TAKE ONE"):
        ref.submit({"type": "call", "player": "Ann", "call": "done"})


def test_simultaneous_calls_are_one_call():
    # Two players shouting at once are entered as one call: everyone takes two once.
    ref = referee()
    ref.submit({"type": "call", "player": "Ann"})
    assert ref.state.taken == (9, 9)


def test_a_call_with_a_grid_that_leaves_tiles_over_is_refused(tileset_file):
    ref = referee(tileset=tileset_file({k: (3, EN[k]) for k in "CATOWSX"}), sets=1)
    with pytest.raises(RuleViolation, match=r"call is refused: .*not in valid connected words: X"):
        ref.submit({"type": "call", "player": "Ann", "grid": ["CAT", "O..", "W.X", "S.."]})
    with pytest.raises(RuleViolation, match=r"has taken 7 tiles this round but the grid shows 6: 1 tile\(s\) missing"):
        ref.submit({"type": "call", "player": "Ann", "grid": ["CAT", "O..", "W..", "S.."]})
    assert ref.state.taken == (7, 7)


def test_a_call_with_a_clean_grid_is_accepted(tileset_file):
    ref = referee(tileset=tileset_file({k: (3, EN[k]) for k in "CATOWSX"}), sets=1)
    ref.submit({"type": "call", "player": "Ann", "grid": ANN})
    assert ref.events[-1]["invalid_words"] == [] and ref.state.taken == (9, 9)


def test_stop_ends_a_round_only_with_the_pool_empty_and_gives_no_done_bonus(tileset_file):
    with pytest.raises(RuleViolation, match="the pool still holds 86 tiles"):
        referee().submit({"type": "stop"})
    ref = referee(tileset=exact_set(tileset_file, [ANN, BEN]), sets=1)
    ref.submit({"type": "stop"})
    assert ref.state.phase == speed.SCORING and ref.state.done_by is None
    assert grid(ref, "Ann", ANN).done_bonus == 0


# ------------------------------------------------------------------------------------------ grids
def test_a_grid_before_the_round_stops_is_refused():
    ref = referee()
    with pytest.raises(RuleViolation, match="grids are scored when the round has stopped"):
        ref.submit({"type": "grid", "player": "Ann", "rows": ["CAT"]})


def test_words_across_then_down_and_a_tile_in_both_counts_twice():
    # CATS across (3+1+1+1 = 6), COW down (3+1+4 = 8): the C counts in both, 14 in all.
    parts = score(["CATS", "O...", "W..."])
    assert parts["scored_words"] == (("CATS", 6), ("COW", 8))
    assert parts["removed"] == () and parts["removed_points"] == 0


def test_there_are_no_premium_squares():
    # The same word scores the same wherever it lies in the grid.
    assert score(["....", "CAT.", "...."])["scored_words"] == score(["CAT"])["scored_words"] == (("CAT", 5),)


def test_letters_not_in_a_word_are_removed_and_subtracted():
    parts = score(["CAT", "...", "..Q"])
    assert parts["removed"] == ("Q",) and parts["removed_points"] == 10


def test_letters_of_an_invalid_word_are_removed_but_a_tile_a_valid_word_uses_stays():
    # House rule invalid_crossing=keep (default). CAT across, COW down; WXZ across is invalid:
    # W stays (COW uses it), X and Z go: -18.
    parts = score(["CAT", "O..", "WXZ"], invalid={"WXZ"})
    assert parts["invalid_words"] == ("WXZ",)
    assert parts["scored_words"] == (("CAT", 5), ("COW", 8))
    assert parts["removed"] == ("X", "Z") and parts["removed_points"] == 18


def test_house_rule_invalid_crossing_remove_also_breaks_the_crossing_word():
    # invalid_crossing=remove: WXZ's W is removed, so COW is incomplete and not scored; its C and O
    # go too unless another word uses them: C stays (CAT), O goes. Removed O W X Z = 1+4+8+10 = 23.
    parts = score(["CAT", "O..", "WXZ"], invalid={"WXZ"}, rule="remove")
    assert parts["scored_words"] == (("CAT", 5),)
    assert sorted(parts["removed"]) == ["O", "W", "X", "Z"] and parts["removed_points"] == 23


def test_tiles_outside_the_largest_connected_layout_are_removed():
    # CATS+COW (6 tiles) is the largest layout; OX (2 tiles) stands apart: removed, -9.
    parts = score(["CATS.", "O....", "W....", ".....", "...OX"])
    assert [w for w, _ in parts["scored_words"]] == ["CATS", "COW"]
    assert parts["removed"] == ("O", "X") and parts["removed_points"] == 9


def test_layouts_of_equal_size_the_higher_scoring_one_counts():
    # TO (2 points) and OX (9 points), two tiles each: OX counts, TO is removed.
    parts = score(["TO...", ".....", "...OX"])
    assert parts["scored_words"] == (("OX", 9),) and parts["removed"] == ("T", "O")


def test_a_word_of_seven_letters_or_more_earns_ten():
    parts = score(["DOCTORS"])
    assert parts["long_words"] == ("DOCTORS",)
    assert score(["STONED"])["long_words"] == ()


def test_a_blank_scores_nothing_and_an_unnamed_blank_is_refused(tileset_file):
    assert score(["cAT"])["scored_words"] == (("CAT", 2),)  # the blank c: 0 + 1 + 1
    ref = stopped(tileset_file, {"Ann": ["cATS", "O...", "W...", "S..."], "Ben": BEN})
    with pytest.raises(RuleViolation, match="has no letter"):
        ref.submit({"type": "grid", "player": "Ann", "rows": ["?ATS", "O...", "W...", "S..."]})
    assert grid(ref, "Ann", ["cATS", "O...", "W...", "S..."]).word_points == 15 - 3 - 3  # the blank C in two words


def test_the_grid_must_show_every_tile_the_player_has_taken(tileset_file):
    ref = stopped(tileset_file, {"Ann": ANN, "Ben": BEN})
    with pytest.raises(RuleViolation, match=r"Ann has taken 7 tiles this round but the grid shows 6: 1 tile\(s\) missing"):
        ref.submit({"type": "grid", "player": "Ann", "rows": ["CATS", "O...", "W..."]})
    with pytest.raises(RuleViolation, match=r"shows 8: 1 tile\(s\) too many"):
        ref.submit({"type": "grid", "player": "Ann", "rows": ["CATS", "O..T", "W...", "S..."]})


def test_the_grids_of_a_round_cannot_show_more_of_a_letter_than_the_pool_had(tileset_file):
    ref = stopped(tileset_file, {"Ann": ANN, "Ben": BEN})
    grid(ref, "Ann", ANN)
    # The set has 2 W; Ben's grid shows 2, with Ann's 1 that is 3.
    with pytest.raises(RuleViolation, match=r"show 3 W tiles, but 1 .* set\(s\) have only 2"):
        ref.submit({"type": "grid", "player": "Ben", "rows": ["COAT", "O...", "W...", "W..."]})


def test_a_players_grid_is_scored_once_per_round(tileset_file):
    ref = stopped(tileset_file, {"Ann": ANN, "Ben": BEN})
    grid(ref, "Ann", ANN)
    with pytest.raises(RuleViolation, match=r"already scored \(undo it to change it\)"):
        ref.submit({"type": "grid", "player": "Ann", "rows": ANN})


def test_the_referee_judges_the_grid_and_the_ruling_is_saved_with_it(tileset_file):
    bad = ["CAT", "O..", "WXZ", "S.."]
    ref = stopped(tileset_file, {"Ann": bad, "Ben": ["COATS", "O....", "W....", "S...."]})
    grid(ref, "Ann", bad)
    saved = ref.events[-1]
    assert saved["invalid_words"] == ["WXZ"] and "WXZ is not" in saved["ruling"]
    # The saved log replays the same without any word list.
    assert fold(ref.events).grids[0] == ref.state.grids[0]


def test_a_grid_not_judged_by_the_referee_is_refused(tileset_file):
    ref = stopped(tileset_file, {"Ann": ANN, "Ben": BEN})
    with pytest.raises(RuleViolation, match="must be judged by the referee"):
        ref.replay.check({"type": "grid", "player": "Ann", "rows": ANN})


def test_grid_rows_may_be_one_string_and_differ_in_length():
    board = speed.parse_grid("CATS/O/W")
    assert board.to_rows()[:3] == ["CATS", "O...", "W..."]
    with pytest.raises(RuleViolation, match="cannot be read"):
        speed.parse_grid(["CA7"])


def test_done_earns_ten_for_the_caller(tileset_file):
    ref = stopped(tileset_file, {"Ann": ANN, "Ben": BEN}, done_by="Ben")
    assert grid(ref, "Ben", BEN).done_bonus == 10
    assert ref.state.ledger.entries[-1].cause == "round 1: called Done"
    assert grid(ref, "Ann", ANN).done_bonus == 0


def test_house_rule_done_bonus_clean_needs_nothing_removed(tileset_file):
    messy = ["CATS", "O...", "W.X."]  # COW, CATS; the X is removed
    ref = stopped(tileset_file, {"Ann": messy, "Ben": BEN}, done_bonus="clean")
    assert grid(ref, "Ann", messy).done_bonus == 0


# ------------------------------------------------------------------------------------------ rounds
def test_a_new_round_starts_with_seven_each_and_a_full_pool(tileset_file):
    ref = stopped(tileset_file, {"Ann": ANN, "Ben": BEN})
    grid(ref, "Ann", ANN)
    grid(ref, "Ben", BEN)
    s = ref.state
    assert s.round == 2 and s.phase == speed.PLAYING and s.taken == (7, 7) and s.pool == 0 and s.done_by is None
    assert s.totals == (15 + 10, 15)  # Ann called Done


def test_first_to_reach_the_target_wins(tileset_file):
    ref = stopped(tileset_file, {"Ann": ANN, "Ben": BEN}, target=20)
    grid(ref, "Ann", ANN)
    grid(ref, "Ben", BEN)
    # Ann 15 + 10 (Done) = 25 reaches 20; Ben 15 does not.
    assert speed.is_over(ref.state) and ref.state.winners == ("Ann",)
    with pytest.raises(RuleViolation, match="the game is over"):
        ref.submit({"type": "call", "player": "Ben"})


def test_when_several_reach_the_target_in_a_round_the_highest_total_wins(tileset_file):
    ref = stopped(tileset_file, {"Ann": ANN, "Ben": BEN}, done_by="Ben", target=15)
    grid(ref, "Ann", ANN)
    grid(ref, "Ben", BEN)
    # Ann 15, Ben 15 + 10 = 25: both reach 15 in the same round; Ben is higher.
    assert ref.state.totals == (15, 25) and ref.state.winners == ("Ben",)


def test_equal_highest_totals_over_the_target_play_another_round(tileset_file):
    ref = referee(tileset=exact_set(tileset_file, [ANN, ANN]), sets=1, target=10)
    ref.submit({"type": "stop"})  # no Done bonus: 15 each
    grid(ref, "Ann", ANN)
    grid(ref, "Ben", ANN)
    assert ref.state.totals == (15, 15) and not speed.is_over(ref.state) and ref.state.round == 2
    assert "another round is played" in " ".join(ref.state.notes)


def test_house_rule_tie_share_ends_with_a_shared_win(tileset_file):
    ref = referee(tileset=exact_set(tileset_file, [ANN, ANN]), sets=1, target=10, tie="share")
    ref.submit({"type": "stop"})
    grid(ref, "Ann", ANN)
    grid(ref, "Ben", ANN)
    assert speed.is_over(ref.state) and ref.state.winners == ("Ann", "Ben")
    assert "winner: Ann and Ben (shared)" in speed.format_final(ref.state)


def test_undo_takes_back_a_call():
    ref = referee()
    ref.submit({"type": "call", "player": "Ann"})
    ref.undo()
    assert ref.state.taken == (7, 7) and ref.state.pool == 86


def test_a_rejected_event_leaves_the_game_as_it_was(tileset_file):
    ref = stopped(tileset_file, {"Ann": ANN, "Ben": BEN})
    before, n = ref.state, len(ref.events)
    with pytest.raises(RuleViolation):
        ref.submit({"type": "grid", "player": "Ann", "rows": ["CAT"]})
    assert ref.state is before and len(ref.events) == n


def test_unknown_event_type_is_refused():
    with pytest.raises(RuleViolation, match="unknown event type 'play' for Speed Scrabble"):
        referee().submit({"type": "play", "player": "Ann"})


def test_report_shows_the_event_its_ledger_entries_and_the_totals(tileset_file):
    bad = ["CAT", "O..", "WXZ", "S.."]
    ref = stopped(tileset_file, {"Ann": bad, "Ben": ["COATS", "O....", "W....", "S...."]})
    before = ref.state
    ref.submit({"type": "grid", "player": "Ann", "rows": bad})
    lines = speed.report(before, ref.state, ref.events[-1])
    # CAT 5 + COWS 9 = 14, X and Z removed (-18), Done +10: 6
    assert lines[0].startswith("round 1: Ann's grid (8 tiles): CAT 5, COWS 9; not valid: WXZ; removed X Z (-18)")
    assert lines[0].endswith("Done +10; round score 6")
    assert "     Ann: -18 points (round 1: tiles removed X Z)" in lines
    assert lines[-1] == "     totals: Ann 6, Ben 0"


# ------------------------------------------------------------------------------------------ a whole game
def test_a_full_scripted_game_with_the_standings_worked_out_by_hand(tileset_file):
    # An 18-tile set (English values): A2 C1 D2 E2 N1 O3 R1 S2 T3 X1. Two players: 7 each, pool 4.
    path = tileset_file({"A": (2, 1), "C": (1, 3), "D": (2, 2), "E": (2, 1), "N": (1, 1), "O": (3, 1),
                         "R": (1, 1), "S": (2, 1), "T": (3, 1), "X": (1, 8)})
    lex = Lexicon.from_words(["CATS", "AXE", "COAT", "STONED", "SOD", "DOCTORS", "TAX", "EAT"], "test")
    ref = Referee([start(tileset=path, sets=1, target=25)], lexicon=lex)
    events = [
        # Round 1: Ann calls Take Two (pool 4 -> 0, 9 tiles each); Ben calls Done.
        {"type": "call", "player": "Ann", "call": "take two"},
        {"type": "call", "player": "Ben", "call": "done"},
        # Ann: CATS 3+1+1+1 = 6, AXE 1+8+1 = 10, COAT (down) 3+1+1+1 = 6  -> 22
        {"type": "grid", "player": "Ann", "rows": ["CATS", "O...", "AXE.", "T..."]},
        # Ben: STONED 1+1+1+1+1+2 = 7, SOD (down) 1+1+2 = 4; DR is not a word: its D stays (SOD uses
        # it), its R is removed (-1); Done +10  -> 7 + 4 - 1 + 10 = 20
        {"type": "grid", "player": "Ben", "rows": ["STONED", "O.....", "DR...."]},
        # After round 1: Ann 22, Ben 20; nobody has 25.
        # Round 2: Ben calls Take Two, Ann calls Done.
        {"type": "call", "player": "Ben"},
        {"type": "call", "player": "Ann"},
        # Ann: DOCTORS 2+1+3+1+1+1+1 = 10, TAX (down) 1+1+8 = 10, 7 letters +10, Done +10  -> 40
        {"type": "grid", "player": "Ann", "rows": ["DOCTORS", "...A...", "...X..."]},
        # Ben: STONED 7, EAT (down) 1+1+1 = 3, the E left alone is removed (-1)  -> 9
        {"type": "grid", "player": "Ben", "rows": ["STONED", "....A.", "....T.", "......", "E....."]},
    ]
    for e in events:
        ref.submit(e)
    # Totals: Ann 22 + 40 = 62, Ben 20 + 9 = 29. Both reach 25 in round 2; the higher, Ann, wins.
    s = ref.state
    assert [g.total for g in s.rounds[0]] == [22, 20]
    assert [g.total for g in s.rounds[1]] == [40, 9]
    assert speed.standings(s) == [("Ann", 62), ("Ben", 29)]
    assert speed.is_over(s) and s.winners == ("Ann",)
    # Every point is in the ledger with its cause.
    assert [(e.amount, e.cause) for e in s.ledger.entries if e.player == "Ben"] == [
        (11, "round 1: 2 word(s) across and down"), (10, "round 1: called Done"), (-1, "round 1: tiles removed R"),
        (10, "round 2: 2 word(s) across and down"), (-1, "round 2: tiles removed E"),
    ]
    final = speed.format_final(s)
    assert "final standings" in final and "winner: Ann" in final
    assert final.splitlines()[2].split() == ["1.", "Ann", "22", "40", "62"]
    # The saved log folds to the same standings with no word list at all.
    assert speed.standings(fold(ref.events)) == [("Ann", 62), ("Ben", 29)]


# ------------------------------------------------------------------------------------------ the bundled demo
needs_default_lexicon = pytest.mark.skipif(not default_lexicon_path().exists(), reason="default lexicon not built (run ./tc setup)")


@needs_default_lexicon
def test_the_bundled_demo_runs_through_the_referee_command():
    out = subprocess.run([sys.executable, "-m", "companion", "referee", "--variant", "speed", str(DEMO)],
                         capture_output=True, text=True, cwd=REPO, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "REJECTED" not in out.stdout
    assert "Cy wins with 217" in out.stdout and out.stdout.rstrip().endswith("winner: Cy")


def test_the_bundled_demo_replays_with_a_word_list_of_its_own_words():
    # Every word laid out in the demo's grids is valid except Ben's misspelt OBOTEE in round 1.
    events = read_jsonl(DEMO)
    words = {w for e in events if e["type"] == "grid" for w in speed.grid_words(speed.parse_grid(e["rows"]))} - {"OBOTEE"}
    ref = Referee(events[:1], lexicon=Lexicon.from_words(sorted(words), "demo"))
    for e in events[1:]:
        ref.submit(e)
    assert [[g.total for g in r] for r in ref.state.rounds] == [[92, 81, 99], [122, 73, 118]]
    assert ref.state.winners == ("Cy",) and speed.standings(ref.state)[0] == ("Cy", 217)
