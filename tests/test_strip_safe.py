"""Strip Scrabble, safe-score rules (``strip-safe``): one test per rule and edge case, named for it.

Scores use the English tile values on the standard board: the first play covers H8, the centre star
(a double word), so ``8H CAT`` is (C3 + A1 + T1) x 2 = 10, ``8H TEA`` (1+1+1) x 2 = 6 and
``8H AT`` (1+1) x 2 = 4. The safe score is 5 unless a test says otherwise.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from companion import cli
from companion.errors import CompanionError, RuleViolation
from companion.events import read_jsonl
from companion.game import AWAITING_RACKS, PLAYING, tiles_spec
from companion.lexicon import Lexicon, default_lexicon_path
from companion.notation import placements_from_notation
from companion.referee import Referee
from companion.variants import strip_safe

WORDS = Lexicon.from_words(
    ["CAT", "CATS", "AT", "TA", "TEA", "ACT",
     # the bundled demo game
     "FARM", "MOTHER", "MOTHERS", "HAT", "GARNETS"],
    "test",
)
DEMO = Path(str(resources.files("companion") / "data" / "demo" / "strip-safe.jsonl"))


def start(clothing=None, players=("Ann", "Ben"), **rules) -> Referee:
    clothing = clothing or {p: 5 for p in players}
    event = {"type": "game_started", "variant": "strip-safe", "players": list(players), "clothing": clothing, **rules}
    return Referee([event], lexicon=WORDS)


def play(ref: Referee, player: str, position: str, word: str, **extra):
    """Submit a play written as the scoresheet writes it (``8H CAT`` across, ``H8 CAT`` down)."""
    placements = placements_from_notation(ref.state.board, position, word, ref.state.config.tiles)
    return ref.submit({"type": "play", "player": player, "tiles": tiles_spec(placements), **extra})


def turn(ref: Referee, kind: str, player: str, **extra):
    return ref.submit({"type": kind, "player": player, **extra})


def held(ref: Referee, name: str) -> tuple[int, int]:
    """(items on, credit tokens) of ``name``."""
    return ref.state.items(name), ref.state.tokens(name)


def causes(ref: Referee, name: str) -> list[str]:
    return [f"{e.kind} {e.amount:+d}: {e.cause}" for e in ref.state.ledger.entries
            if e.player == name and not e.cause.startswith(("start", "agreed"))]


# ---------------------------------------------------------------------------------------------
# Before the first turn


def test_highest_clothing_count_is_the_standard_and_others_get_a_token_per_missing_item():
    ref = start({"Ann": 6, "Ben": 4, "Cy": 5}, players=("Ann", "Ben", "Cy"))
    assert held(ref, "Ann") == (6, 0)
    assert held(ref, "Ben") == (4, 2)
    assert held(ref, "Cy") == (5, 1)


def test_limit_of_undress_is_recorded_in_the_ledger():
    ref = start({"Ann": 5, "Ben": 5}, limits={"Ben": 2})
    assert ref.state.limit("Ben") == 2 and ref.state.limit("Ann") == 0
    assert [e.kind for e in ref.state.ledger.entries if e.player == "Ben"] == ["item", "limit"]


@pytest.mark.parametrize("start_event, rule", [
    ({"players": ["Ann", "Ben"]}, "needs 'clothing'"),
    ({"players": ["Ann", "Ben"], "clothing": {"Ann": 3}}, "for every player"),
    ({"players": ["Ann", "Ben"], "clothing": {"Ann": 3, "Ben": -1}}, "0 or more"),
    ({"players": ["Ann", "Ben"], "clothing": {"Ann": 3, "Ben": 3}, "limits": {"Ben": 3}}, "at least one item above their limit"),
    ({"players": ["Ann", "Ben"], "clothing": {"Ann": 3, "Ben": 3}, "safe_score": 4}, "from 5 to 10"),
    ({"players": ["Ann", "Ben"], "clothing": {"Ann": 3, "Ben": 3}, "safe_score": 11}, "from 5 to 10"),
    ({"players": ["Ann", "Ben"], "clothing": {"Ann": 3, "Ben": 3}, "penalty_default": "kiss"}, "penalty_default"),
    ({"players": ["A", "B", "C", "D", "E"], "clothing": {p: 3 for p in "ABCDE"}}, "2 to 4 players"),
])
def test_a_start_that_breaks_a_rule_is_refused(start_event, rule):
    with pytest.raises(RuleViolation, match=rule):
        Referee([{"type": "game_started", "variant": "strip-safe", **start_event}], lexicon=WORDS)


def test_safe_score_range_is_a_house_rule():
    ref = start(safe_score=15, safe_score_range=[1, 20])
    assert ref.state.safe_score == 15


# ---------------------------------------------------------------------------------------------
# Penalties while tiles are left in the bag


def test_a_turn_scoring_under_the_safe_score_costs_a_penalty():
    ref = start()
    play(ref, "Ann", "8H", "AT")  # 4 < 5
    assert held(ref, "Ann") == (4, 0)
    assert causes(ref, "Ann") == ["item -1: turn 1: scored 4, under the safe score 5"]


def test_a_turn_scoring_exactly_the_safe_score_is_safe():
    ref = start(safe_score=6)
    play(ref, "Ann", "8H", "TEA")  # 6, not under 6
    assert held(ref, "Ann") == (5, 0)


def test_a_pass_costs_a_penalty():
    ref = start()
    turn(ref, "pass", "Ann")
    assert held(ref, "Ann") == (4, 0)
    assert causes(ref, "Ann") == ["item -1: turn 1: passed with tiles left in the bag"]


def test_an_exchange_costs_a_penalty():
    ref = start()
    turn(ref, "exchange", "Ann", count=7)
    assert held(ref, "Ann") == (4, 0)


def test_penalty_takes_a_credit_token_first_by_default():
    ref = start({"Ann": 3, "Ben": 5})  # Ann has 2 tokens
    turn(ref, "pass", "Ann")
    assert held(ref, "Ann") == (3, 1)


def test_penalty_takes_an_item_when_the_player_chooses_it():
    ref = start({"Ann": 3, "Ben": 5})
    turn(ref, "pass", "Ann", penalty="item")
    assert held(ref, "Ann") == (2, 2)


def test_penalty_choice_can_name_the_player():
    ref = start({"Ann": 3, "Ben": 5})
    turn(ref, "pass", "Ann", penalty={"Ann": "item"})
    assert held(ref, "Ann") == (2, 2)


def test_items_first_can_be_the_agreed_default():
    ref = start({"Ann": 3, "Ben": 5}, penalty_default="item")
    turn(ref, "pass", "Ann")
    assert held(ref, "Ann") == (2, 2)
    turn(ref, "pass", "Ben")
    turn(ref, "pass", "Ann", penalty="token")
    assert held(ref, "Ann") == (2, 1)


def test_a_player_without_tokens_who_chooses_a_token_removes_an_item():
    ref = start()
    turn(ref, "pass", "Ann", penalty="token")
    assert held(ref, "Ann") == (4, 0)
    assert "no credit token left" in causes(ref, "Ann")[0]


def test_no_penalty_when_the_bag_is_empty(tileset_file):
    tiny = tileset_file({"A": (5, 1), "T": (5, 1), "C": (4, 3)})  # 14 tiles: two racks, the bag empty
    ref = start(tileset=tiny)
    assert ref.state.game.bag == 0
    play(ref, "Ann", "8H", "AT")  # 4 < 5, but no tile is left to draw
    turn(ref, "pass", "Ben")
    assert held(ref, "Ann") == (5, 0) and held(ref, "Ben") == (5, 0)


def test_the_bag_is_judged_at_the_turn_before_drawing(tileset_file):
    tiny = tileset_file({"A": (6, 1), "T": (5, 1), "C": (4, 3)})  # 15 tiles: one left in the bag
    ref = start(tileset=tiny)
    play(ref, "Ann", "8H", "AT")  # the last tile is drawn after the turn: the turn still pays
    assert ref.state.game.bag == 0
    assert held(ref, "Ann") == (4, 0)
    turn(ref, "pass", "Ben")  # now the bag is empty: no penalty
    assert held(ref, "Ben") == (5, 0)


# ---------------------------------------------------------------------------------------------
# Challenges


def test_an_invalid_challenged_play_is_withdrawn_scores_zero_and_costs_a_penalty():
    ref = start()
    play(ref, "Ann", "8H", "TAC")  # 10, safe, but not a word
    ref.submit({"type": "challenge", "challenger": "Ben"})
    assert ref.events[-1]["verdict"] == "invalid"
    assert ref.state.game.scores == (0, 0) and ref.state.board.is_empty
    assert causes(ref, "Ann") == ["item -1: turn 1: TAC challenged and withdrawn, scores 0"]


def test_a_play_under_the_safe_score_then_withdrawn_costs_one_penalty_not_two():
    ref = start()
    play(ref, "Ann", "8H", "TT")  # 4 < 5: a penalty at once
    ref.submit({"type": "challenge", "challenger": "Ben"})  # withdrawn: the turn has already paid
    assert held(ref, "Ann") == (4, 0)
    assert causes(ref, "Ann") == ["item -1: turn 1: scored 4, under the safe score 5"]


def test_a_failed_challenge_costs_the_challenger_a_penalty_and_under_double_the_turn():
    ref = start()
    play(ref, "Ann", "8H", "CAT")
    ref.submit({"type": "challenge", "challenger": "Ben"})
    assert ref.events[-1]["verdict"] == "valid"
    assert held(ref, "Ben") == (4, 0) and held(ref, "Ann") == (5, 0)
    assert causes(ref, "Ben") == ["item -1: turn 1: failed challenge of Ann's CAT"]
    assert ref.state.game.to_move == 0  # double rule: Ben loses his turn, Ann plays again


def test_a_failed_challenge_under_the_single_rule_costs_a_penalty_but_not_the_turn():
    ref = start(challenge_rule="single")
    play(ref, "Ann", "8H", "CAT")
    ref.submit({"type": "challenge", "challenger": "Ben"})
    assert held(ref, "Ben") == (4, 0)
    assert ref.state.game.to_move == 1


def test_no_challenge_penalty_when_the_challenged_turn_found_the_bag_empty(tileset_file):
    tiny = tileset_file({"A": (5, 1), "T": (5, 1), "C": (4, 3)})
    ref = start(tileset=tiny)
    play(ref, "Ann", "8H", "CAT")
    ref.submit({"type": "challenge", "challenger": "Ben"})
    assert held(ref, "Ben") == (5, 0)


def test_challenging_after_the_next_turn_has_started_is_refused():
    ref = start()
    play(ref, "Ann", "8H", "CAT")
    turn(ref, "pass", "Ben")
    with pytest.raises(RuleViolation, match="no play to challenge"):
        ref.submit({"type": "challenge", "challenger": "Ben"})


# ---------------------------------------------------------------------------------------------
# The safe score during play


def test_the_safe_score_can_be_changed_by_agreement():
    ref = start()
    ref.submit({"type": "safe_score", "score": 8})
    play(ref, "Ann", "8H", "TEA")  # 6: safe under 5, not under 8
    assert ref.state.safe_score == 8
    assert causes(ref, "Ann") == ["item -1: turn 1: scored 6, under the safe score 8"]


@pytest.mark.parametrize("score, rule", [(4, "from 5 to 10"), (11, "from 5 to 10"), ("8", "from 5 to 10"), (5, "already 5")])
def test_a_safe_score_change_outside_the_agreed_range_is_refused(score, rule):
    ref = start()
    with pytest.raises(RuleViolation, match=rule):
        ref.submit({"type": "safe_score", "score": score})
    assert ref.state.safe_score == 5


# ---------------------------------------------------------------------------------------------
# Elimination


def test_a_player_down_to_their_limit_is_eliminated_turns_skipped_rack_set_aside():
    ref = start({"Ann": 3, "Ben": 3, "Cy": 3}, players=("Ann", "Ben", "Cy"), limits={"Cy": 2})
    play(ref, "Ann", "8H", "CAT")   # 10
    play(ref, "Ben", "8H", "CATS")  # S on K8: CATS 6
    turn(ref, "pass", "Cy")         # 3 -> 2, the limit: out
    state = ref.state
    assert state.eliminated == ("Cy",)
    assert state.game.rack_counts[2] == 0
    assert state.game.to_move == 0
    play(ref, "Ann", "J7", "AT")    # A on J7 over the T: 2 < 5
    assert ref.state.game.to_move == 1
    turn(ref, "pass", "Ben")
    assert ref.state.game.to_move == 0  # Cy is skipped
    with pytest.raises(RuleViolation, match="Ann's turn"):
        turn(ref, "pass", "Cy")


def test_a_player_with_no_items_left_is_eliminated():
    ref = start({"Ann": 1, "Ben": 1, "Cy": 1}, players=("Ann", "Ben", "Cy"))
    turn(ref, "pass", "Ann")
    assert ref.state.eliminated == ("Ann",)
    assert [e.kind for e in ref.state.ledger.entries if e.player == "Ann"][-2:] == ["item", "eliminated"]


def test_the_last_player_still_in_wins_even_with_the_lower_score():
    ref = start({"Ann": 3, "Ben": 2}, limits={"Ben": 1}, penalty_default="item")
    turn(ref, "pass", "Ann")         # Ann 3 -> 2
    play(ref, "Ben", "8H", "CAT")    # Ben 10
    turn(ref, "pass", "Ann")         # Ann 2 -> 1
    turn(ref, "pass", "Ben")         # Ben 2 -> 1, his limit: out
    state = ref.state
    assert strip_safe.is_over(state)
    assert state.winners == ("Ann",)
    assert strip_safe.standings(state) == [("Ann", 0), ("Ben", 10)]
    assert "winner: Ann, the last player still in" in strip_safe.format_final(state)
    with pytest.raises(RuleViolation, match="game is over"):
        play(ref, "Ann", "J7", "AT")


def test_the_game_ends_when_every_player_still_in_has_passed_twice_and_the_highest_score_still_in_wins():
    ref = start({"Ann": 5, "Ben": 5, "Cy": 5}, players=("Ann", "Ben", "Cy"), limits={"Cy": 4})
    turn(ref, "pass", "Ann")
    turn(ref, "pass", "Ben")
    play(ref, "Cy", "8H", "CAT")     # Cy 10, the highest score of the game
    turn(ref, "pass", "Ann")
    turn(ref, "pass", "Ben")
    turn(ref, "pass", "Cy")          # Cy 5 -> 4, the limit: out
    turn(ref, "pass", "Ann")         # Ann has passed twice in a row, Ben once: not yet
    assert ref.state.game.phase == PLAYING
    turn(ref, "pass", "Ben")         # both players still in have passed twice in a row
    assert ref.state.game.phase == AWAITING_RACKS
    # Cy's rack is set aside: only the players still in show theirs.
    ref.submit({"type": "end_racks", "racks": {"Ann": "AEIOUST", "Ben": "AEIOUSZ"}})
    state = ref.state
    assert state.game.scores == (-7, -16, 10)  # AEIOUST 7; AEIOUSZ 6 + Z 10
    assert state.winners == ("Ann",)           # eliminated players cannot win on score
    assert [p for p, _ in strip_safe.standings(state)] == ["Ann", "Ben", "Cy"]


def test_eliminated_players_may_win_on_score_as_a_house_rule():
    ref = start({"Ann": 5, "Ben": 5, "Cy": 5}, players=("Ann", "Ben", "Cy"), limits={"Cy": 4}, eliminated_can_win=True)
    for event in [("pass", "Ann"), ("pass", "Ben")]:
        turn(ref, *event)
    play(ref, "Cy", "8H", "CAT")
    for event in [("pass", "Ann"), ("pass", "Ben"), ("pass", "Cy"), ("pass", "Ann"), ("pass", "Ben")]:
        turn(ref, *event)
    ref.submit({"type": "end_racks", "racks": {"Ann": "AEIOUST", "Ben": "AEIOUSZ"}})
    assert ref.state.winners == ("Cy",)


def test_an_eliminated_player_cannot_challenge_or_take_a_penalty():
    ref = start({"Ann": 3, "Ben": 3, "Cy": 3}, players=("Ann", "Ben", "Cy"), limits={"Cy": 2})
    turn(ref, "pass", "Ann")
    turn(ref, "pass", "Ben")
    turn(ref, "pass", "Cy")  # out
    play(ref, "Ann", "8H", "CAT")
    with pytest.raises(RuleViolation, match="Cy is eliminated"):
        ref.submit({"type": "challenge", "challenger": "Cy"})
    with pytest.raises(RuleViolation, match="Cy is eliminated"):
        play(ref, "Ben", "8H", "CATS", penalty={"Cy": "item"})
    with pytest.raises(RuleViolation, match="Cy is eliminated"):
        ref.submit({"type": "time_penalty", "player": "Cy", "points": 5})


# ---------------------------------------------------------------------------------------------
# End of game


def _ended(tileset_file, behind: int, clothing=None, **extra) -> Referee:
    """A two-player game on a 14-tile set (the bag empty: passes cost nothing) where Ben ends
    ``behind`` points behind Ann: a time penalty, two passes each, equal racks."""
    tiny = tileset_file({"A": (7, 1), "E": (7, 1)})
    ref = start(clothing, tileset=tiny)
    ref.submit({"type": "time_penalty", "player": "Ben", "points": behind})
    for name in ("Ann", "Ben", "Ann", "Ben"):
        turn(ref, "pass", name)
    ref.submit({"type": "end_racks", "racks": {"Ann": "AAAAAAA", "Ben": "EEEEEEE"}, **extra})
    return ref


@pytest.mark.parametrize("behind, penalties", [(0, 0), (49, 0), (50, 1), (99, 1), (149, 2), (150, 3)])
def test_the_lowest_scorer_takes_one_penalty_per_full_50_points_behind(tileset_file, behind, penalties):
    ref = _ended(tileset_file, behind)
    assert ref.state.game.scores == (-7, -7 - behind)
    assert held(ref, "Ben") == (5 - penalties, 0)
    assert held(ref, "Ann") == (5, 0)
    assert strip_safe.is_over(ref.state)


def test_end_of_game_penalties_name_the_gap(tileset_file):
    ref = _ended(tileset_file, 149)
    assert causes(ref, "Ben") == [
        "item -1: end of game: 149 points behind Ann's -7, penalty 1 of 2",
        "item -1: end of game: 149 points behind Ann's -7, penalty 2 of 2",
    ]


def test_end_of_game_penalties_follow_the_players_choices(tileset_file):
    ref = _ended(tileset_file, 100, clothing={"Ann": 5, "Ben": 3}, penalty={"Ben": ["item", "token"]})
    assert held(ref, "Ben") == (2, 1)  # 3 items and 2 tokens: one of each given up


def test_players_tied_for_lowest_each_take_the_end_penalties(tileset_file):
    tiny = tileset_file({"A": (21, 1)})
    ref = start({"Ann": 5, "Ben": 5, "Cy": 5}, players=("Ann", "Ben", "Cy"), tileset=tiny)
    ref.submit({"type": "time_penalty", "player": "Ben", "points": 100})
    ref.submit({"type": "time_penalty", "player": "Cy", "points": 100})
    for name in ("Ann", "Ben", "Cy") * 2:
        turn(ref, "pass", name)
    ref.submit({"type": "end_racks", "racks": {"Ann": "A" * 7, "Ben": "A" * 7, "Cy": "A" * 7}})
    assert held(ref, "Ben") == (3, 0) and held(ref, "Cy") == (3, 0) and held(ref, "Ann") == (5, 0)


def test_end_of_game_penalties_can_eliminate_the_lowest(tileset_file):
    ref = _ended(tileset_file, 120, clothing={"Ann": 2, "Ben": 2})
    assert ref.state.eliminated == ("Ben",)
    assert ref.state.winners == ("Ann",)


# ---------------------------------------------------------------------------------------------
# The event log


def test_a_rejected_event_leaves_the_game_as_it_was():
    ref = start()
    before = ref.state
    with pytest.raises(CompanionError):
        play(ref, "Ben", "8H", "CAT")  # not Ben's turn
    with pytest.raises(RuleViolation, match="'token' or 'item'"):
        turn(ref, "pass", "Ann", penalty="shoe")
    with pytest.raises(RuleViolation, match="unknown event type"):
        ref.submit({"type": "strip"})
    assert ref.state is before and len(ref.events) == 1


def test_undo_gives_the_penalty_back():
    ref = start()
    turn(ref, "pass", "Ann")
    ref.undo()
    assert held(ref, "Ann") == (5, 0)
    assert ref.state.game.to_move == 0


def test_replaying_the_saved_log_gives_the_same_state():
    ref = start({"Ann": 4, "Ben": 5})
    play(ref, "Ann", "8H", "TT")
    ref.submit({"type": "challenge", "challenger": "Ben"})
    turn(ref, "pass", "Ben", penalty="item")
    again = Referee(ref.events, lexicon=WORDS)
    assert again.state == ref.state


def test_report_shows_the_scoresheet_lines_the_ledger_entries_and_holdings():
    ref = start({"Ann": 4, "Ben": 5})
    before = ref.state
    play(ref, "Ann", "8H", "AT")
    lines = strip_safe.report(before, ref.state, ref.events[-1])
    text = "\n".join(lines)
    assert "Ann          H8 across AT" in lines[0]
    assert "penalty: Ann: -1 credit token(s) (turn 1: scored 4, under the safe score 5)" in text
    assert "Ann: 4 item(s) on, 0 tokens, score 4" in text
    assert "Ben: 5 item(s) on, 0 tokens, score 0" in text
    assert "next: Ben" in text


def test_format_final_prints_the_standings_table():
    ref = start({"Ann": 1, "Ben": 1})
    turn(ref, "pass", "Ann")  # Ann's only item: out
    table = strip_safe.format_final(ref.state)
    assert table.splitlines()[0].startswith("final standings")
    assert "Ben" in table.splitlines()[2] and "eliminated" in table.splitlines()[3]
    assert table.splitlines()[-1] == "winner: Ben, the last player still in"


# ---------------------------------------------------------------------------------------------
# A whole game: the bundled demo, worked out by hand


def test_the_bundled_demo_game_worked_out_by_hand():
    events = read_jsonl(DEMO)
    ref = Referee(events[:1], lexicon=WORDS)
    for event in events[1:]:
        ref.submit(event)
    state = ref.state
    # Start: Ann 5 items, Ben 3 + 2 tokens (the standard is 5), Cy 5 with a limit of 3; safe score 6.
    #  1 Ann FARM: (F4 A1 R1 M3) x 2 on the star = 18; safe.
    #  2 Ben AT (T on I9, a double letter): A1 + T2 = 3 < 6: Ben's first token (Ben 3 items, 1 token).
    #  3 Cy passes: no token, an item (Cy 4).
    #  4 Ann UAT: U2 (double letter) + A1 + T1 = 4 < 6: an item (Ann 4). 5: challenged, not a word,
    #    withdrawn (Ann back to 18): the turn has already paid, no second penalty.
    #  6 Ben MOTHER down from K8: M3 O1 T1 H4 E1 R1 = 11, x 2 (K11 double word) = 22 (Ben 25).
    #  7-8 Cy challenges, MOTHER is valid: Cy 4 -> 3, his limit: eliminated (and loses the turn).
    #  The safe score becomes 8.
    #  9 Ann exchanges 3: an item (Ann 3).
    # 10 Ben HAT across K11: H4 A1 T1 = 6 < 8: he chooses an item over his token (Ben 2 items, 1 token; 31).
    # 11 Ann GARNETS on row 14: G2 A3 (triple letter) R1 N1 E1 T3 (triple letter) S1 = 12, plus
    #    MOTHERS 3+1+1+4+1+1+1 = 12, plus the bingo 50: 74 (Ann 92).
    # 12-15 Ben, Ann, Ben, Ann pass (60 tiles still in the bag): Ben's last token, Ann 3 -> 2,
    #    Ben 2 -> 1, Ann 2 -> 1. Four scoreless turns: both players still in passed twice.
    # 16-17 Racks: Ann EIOULDN = 8 (D2), Ben EEIOQRV = 19 (Q10 V4): Ann 84, Ben 12.
    # End: Ben is 84 - 12 = 72 behind, one full 50: his last item. Ben is out, Ann is the last player in.
    assert state.game.scores == (84, 12, 0)
    assert [held(ref, p) for p in state.players] == [(1, 0), (0, 0), (3, 0)]
    assert state.eliminated == ("Cy", "Ben")
    assert state.safe_score == 8
    assert state.winners == ("Ann",)
    assert strip_safe.standings(state) == [("Ann", 84), ("Ben", 12), ("Cy", 0)]
    penalties = [(e.player, e.kind, e.amount) for e in state.ledger.entries if e.amount < 0]
    assert penalties == [
        ("Ben", "token", -1), ("Cy", "item", -1), ("Ann", "item", -1), ("Cy", "item", -1),
        ("Ann", "item", -1), ("Ben", "item", -1), ("Ben", "token", -1), ("Ann", "item", -1),
        ("Ben", "item", -1), ("Ann", "item", -1), ("Ben", "item", -1),
    ]


needs_default_lexicon = pytest.mark.skipif(not default_lexicon_path().exists(), reason="default lexicon not built (run ./tc setup)")


@needs_default_lexicon
def test_the_demo_runs_from_the_command_line(capsys):
    assert cli.main(["referee", "--variant", "strip-safe", str(DEMO)]) == 0
    out = capsys.readouterr().out
    assert "UNACCEPTABLE: UAT is not" in out
    assert out.rstrip().endswith("winner: Ann, the last player still in")


def test_a_strip_safe_game_cannot_be_joined_mid_way():
    ref = start()
    with pytest.raises(RuleViolation, match="cannot be joined mid-way"):
        ref.submit({"type": "position", "tiles": {"H8": "A", "I8": "T"}})
    assert ref.state.game.board.is_empty
