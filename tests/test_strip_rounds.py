"""Strip Scrabble, simultaneous rounds (``strip-rounds``): one test per rule and edge case, named for it.

Every round's plays are made on the board as it stands, so on an empty board each covers H8, the
centre star (a double word). With the English tile values:

* ``8H CAT`` and ``8G ACT`` (C3 + A1 + T1) x 2 = 10; ``8H TAC`` (not a word) 10
* ``8H TEA`` (1+1+1) x 2 = 6; ``8H AT`` and ``8H TA`` (1+1) x 2 = 4
* ``8H RETAINS``: R1 E1 T1 A1 I1x2 (L8 double letter) N1 S1 = 8, x 2 = 16, + 50 bingo = 66
  (``8H AERTINS``, not a word, scores the same)
* ``8H JUKEBOX``: J8 U1 K5 E1 B3x2 O1 X8 = 30, x 2 = 60, + 50 = 110
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from companion import cli
from companion.errors import CompanionError, RuleViolation
from companion.events import read_jsonl
from companion.game import tiles_spec
from companion.lexicon import Lexicon, default_lexicon_path
from companion.notation import placements_from_notation
from companion.referee import Referee
from companion.variants import strip_rounds

WORDS = Lexicon.from_words(
    ["CAT", "CATS", "ACT", "AT", "TA", "TEA", "RETAINS", "JUKEBOX",
     # the bundled demo game
     "WHEAT", "WHEATS", "STRANGE", "AWE", "HI", "HA", "AH", "WAX", "FARM"],
    "test",
)
DEMO = Path(str(resources.files("companion") / "data" / "demo" / "strip-rounds.jsonl"))
THREE = ("Ann", "Ben", "Cy")


def start(clothing=None, players=("Ann", "Ben"), **rules) -> Referee:
    clothing = clothing or {p: 5 for p in players}
    event = {"type": "game_started", "variant": "strip-rounds", "players": list(players), "clothing": clothing, **rules}
    return Referee([event], lexicon=WORDS)


def reveal(ref: Referee, **plays):
    """``reveal(ref, Ann=("8H", "CAT"), Ben="pass")``: each play written as the scoresheet writes it."""
    spec = {}
    for name, play in plays.items():
        if play == "pass":
            spec[name] = "pass"
        else:
            placements = placements_from_notation(ref.state.board, play[0], play[1], ref.state.config.tiles)
            spec[name] = {"tiles": tiles_spec(placements)}
    return ref.submit({"type": "reveal", "plays": spec})


def challenge(ref: Referee, challenger: str, challenged: str):
    return ref.submit({"type": "challenge", "challenger": challenger, "challenged": challenged})


def settle(ref: Referee):
    return ref.submit({"type": "settle"})


def items(ref: Referee) -> dict[str, int]:
    return {p: ref.state.items(p) for p in ref.state.players}


def round_scores(ref: Referee) -> dict[str, int]:
    rnd = ref.state.round
    return {ref.state.players[i]: s for i, s in sorted(rnd.scores.items())}


def placed(ref: Referee) -> str | None:
    rnd = ref.state.round
    return None if rnd.placed is None else ref.state.players[rnd.placed]


def board_word(ref: Referee, row: int, first: str, length: int) -> str:
    """The letters on row ``row`` (1-based) from column ``first``."""
    c = ord(first) - ord("A")
    return "".join((t.letter if t else ".") for t in (ref.state.board[row - 1, c + k] for k in range(length)))


# ---------------------------------------------------------------------------------------------
# Before the first round


def test_each_players_items_and_limit_are_in_the_ledger():
    ref = start({"Ann": 5, "Ben": 3}, limits={"Ann": 1})
    assert items(ref) == {"Ann": 5, "Ben": 3}
    assert ref.state.limit("Ann") == 1 and ref.state.limit("Ben") == 0
    assert ref.state.totals == (0, 0)


@pytest.mark.parametrize("extra, rule", [
    ({"clothing": None}, "needs 'clothing'"),
    ({"clothing": {"Ann": 3}}, "for every player"),
    ({"limits": {"Ann": 5}}, "at least one item above their limit"),
    ({"win": "coin toss"}, "unknown winning condition"),
    ({"win": "points"}, "needs 'target'"),
    ({"win": "bag_empty", "target": 100}, "'target' belongs"),
    ({"tie_break": "dice"}, "unknown tie_break"),
])
def test_a_start_that_breaks_a_rule_is_refused(extra, rule):
    event = {"type": "game_started", "variant": "strip-rounds", "players": ["Ann", "Ben"],
             "clothing": {"Ann": 5, "Ben": 5}, **extra}
    if event["clothing"] is None:
        del event["clothing"]
    with pytest.raises(RuleViolation, match=rule):
        Referee([event], lexicon=WORDS)


# ---------------------------------------------------------------------------------------------
# A round: reveal, settle


def test_every_play_is_scored_as_if_it_alone_were_placed():
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8G", "ACT"), Cy=("8H", "TEA"))  # the same squares, three boards
    assert round_scores(ref) == {"Ann": 10, "Ben": 10, "Cy": 6}
    assert ref.state.board.is_empty  # nothing is placed before the round is settled


def test_the_highest_play_goes_on_the_board_and_its_player_draws():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    settle(ref)
    assert placed(ref) == "Ann"
    assert board_word(ref, 8, "H", 3) == "CAT"
    assert ref.state.game.bag == 100 - 14 - 3
    assert ref.state.game.rack_counts == (7, 7)
    assert ref.state.totals == (10, 4)


def test_a_pass_scores_zero():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben="pass")
    assert round_scores(ref) == {"Ann": 10, "Ben": 0}
    settle(ref)
    assert items(ref) == {"Ann": 5, "Ben": 4}


def test_every_player_with_the_lowest_round_score_removes_one_item():
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"), Cy=("8H", "TA"))  # 10, 4, 4
    settle(ref)
    assert items(ref) == {"Ann": 5, "Ben": 4, "Cy": 4}
    assert [e.cause for e in ref.state.ledger.entries if e.amount < 0] == [
        "round 1: lowest round score (4)", "round 1: lowest round score (4)"]


def test_all_equal_round_nobody_removes_and_the_player_with_most_items_on_places():
    ref = start({"Ann": 4, "Ben": 5})
    reveal(ref, Ann=("8H", "CAT"), Ben=("8G", "ACT"))  # 10 and 10
    settle(ref)
    assert items(ref) == {"Ann": 4, "Ben": 5}
    assert placed(ref) == "Ben" and board_word(ref, 8, "G", 3) == "ACT"


def test_all_equal_round_with_equal_items_the_earliest_in_seat_order_places():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben=("8G", "ACT"))
    settle(ref)
    assert placed(ref) == "Ann"


def test_everyone_passing_removes_nothing_and_places_nothing():
    ref = start()
    reveal(ref, Ann="pass", Ben="pass")
    settle(ref)
    assert placed(ref) is None and ref.state.board.is_empty
    assert items(ref) == {"Ann": 5, "Ben": 5}


def test_tie_for_the_highest_the_tied_player_with_most_items_on_places():
    ref = start({"Ann": 4, "Ben": 5, "Cy": 5}, players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8G", "ACT"), Cy=("8H", "AT"))  # 10, 10, 4
    settle(ref)
    assert placed(ref) == "Ben"
    assert items(ref) == {"Ann": 4, "Ben": 5, "Cy": 4}


def test_tie_for_the_highest_still_tied_the_earliest_in_seat_order_places():
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8G", "ACT"), Cy=("8H", "AT"))
    settle(ref)
    assert placed(ref) == "Ann"


def test_tie_break_by_seat_order_alone_is_a_house_rule():
    ref = start({"Ann": 4, "Ben": 5, "Cy": 5}, players=THREE, tie_break="seat")
    reveal(ref, Ann=("8H", "CAT"), Ben=("8G", "ACT"), Cy=("8H", "AT"))
    settle(ref)
    assert placed(ref) == "Ann"
    # When every round score is equal the rule text itself says the most items on places.
    ref = start({"Ann": 4, "Ben": 5}, tie_break="seat")
    reveal(ref, Ann=("8H", "CAT"), Ben=("8G", "ACT"))
    settle(ref)
    assert placed(ref) == "Ben"


# ---------------------------------------------------------------------------------------------
# Bingos


def test_a_bingo_costs_every_other_player_an_item_even_when_not_placed():
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "RETAINS"), Ben=("8H", "JUKEBOX"), Cy="pass")  # 66, 110, 0
    settle(ref)
    assert placed(ref) == "Ben"
    # Cy: lowest (1) + Ann's bingo (1) + Ben's bingo (1); Ann: Ben's bingo; Ben: Ann's unplaced bingo.
    assert items(ref) == {"Ann": 4, "Ben": 4, "Cy": 2}
    assert "round 1: Ann's bingo RETAINS" in [e.cause for e in ref.state.ledger.entries if e.player == "Ben"]


def test_a_bingo_ruled_invalid_costs_the_others_nothing():
    ref = start()
    reveal(ref, Ann=("8H", "AERTINS"), Ben=("8H", "CAT"))  # 66 (not a word), 10
    challenge(ref, "Ben", "Ann")  # invalid: Ann removes 2 items (a bingo: as many as the players)
    settle(ref)                   # CAT is placed; Ann, lowest at -66, removes one more
    assert items(ref) == {"Ann": 2, "Ben": 5}
    assert placed(ref) == "Ben"


def test_an_invalid_bingo_can_still_cost_the_others_as_a_house_rule():
    ref = start(invalid_bingo_counts=True)
    reveal(ref, Ann=("8H", "AERTINS"), Ben=("8H", "CAT"))
    challenge(ref, "Ben", "Ann")
    settle(ref)
    assert items(ref) == {"Ann": 2, "Ben": 4}


# ---------------------------------------------------------------------------------------------
# Challenges


def test_a_challenge_of_a_valid_play_the_challenger_removes_an_item_and_scores_minus_their_own_play():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    challenge(ref, "Ben", "Ann")
    assert ref.events[-1]["verdict"] == "valid" and ref.events[-1]["ruling"] == "ACCEPTABLE: CAT is valid"
    assert round_scores(ref) == {"Ann": 10, "Ben": -4}
    assert items(ref) == {"Ann": 5, "Ben": 4}
    settle(ref)
    assert placed(ref) == "Ann"
    assert items(ref) == {"Ann": 5, "Ben": 3}  # and Ben is the round's lowest
    assert ref.state.totals == (10, -4)


def test_a_challenge_of_an_invalid_play_the_challenged_loses_and_the_play_cannot_be_placed():
    ref = start()
    reveal(ref, Ann=("8H", "TAC"), Ben=("8H", "AT"))  # TAC 10 is the highest, but not a word
    challenge(ref, "Ben", "Ann")
    assert ref.events[-1]["verdict"] == "invalid"
    assert round_scores(ref) == {"Ann": -10, "Ben": 4}
    settle(ref)
    assert placed(ref) == "Ben" and board_word(ref, 8, "H", 2) == "AT"
    assert items(ref) == {"Ann": 3, "Ben": 5}  # the challenge and the round's low


def test_the_loser_of_a_challenge_of_a_bingo_removes_as_many_items_as_there_are_players():
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "RETAINS"), Ben=("8H", "AT"), Cy="pass")
    challenge(ref, "Ben", "Ann")  # RETAINS is valid: Ben loses, three players: three items
    assert items(ref) == {"Ann": 5, "Ben": 2, "Cy": 5}
    assert round_scores(ref)["Ben"] == -4


def test_a_player_who_lost_a_challenge_may_not_challenge_again_that_round():
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "TAC"), Cy=("8H", "AT"))
    challenge(ref, "Cy", "Ann")  # CAT is valid: Cy loses
    with pytest.raises(RuleViolation, match="may not challenge again"):
        challenge(ref, "Cy", "Ben")
    challenge(ref, "Ann", "Ben")  # others still may
    settle(ref)
    reveal(ref, Ann=("8H", "CATS"), Ben="pass", Cy="pass")
    challenge(ref, "Cy", "Ann")  # a new round: Cy may challenge again


def test_in_a_two_player_round_a_second_lost_challenge_leaves_the_score_negative():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "TAC"))  # 10 and 10
    challenge(ref, "Ann", "Ben")  # TAC is not a word: Ben loses, -10
    challenge(ref, "Ben", "Ann")  # two players: Ben may challenge again; CAT is valid: Ben loses again
    assert round_scores(ref) == {"Ann": 10, "Ben": -10}  # not +10
    assert items(ref) == {"Ann": 5, "Ben": 3}


def test_round_lows_are_decided_after_challenges():
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "TEA"), Cy=("8H", "AT"))  # 10, 6, 4
    challenge(ref, "Ben", "Ann")  # Ben loses: -6, now below Cy's 4
    settle(ref)
    assert items(ref) == {"Ann": 5, "Ben": 3, "Cy": 5}


def test_challenging_after_the_winning_play_is_placed_is_refused():
    ref = start()
    reveal(ref, Ann=("8H", "TAC"), Ben=("8H", "AT"))
    settle(ref)
    with pytest.raises(RuleViolation, match="before the winning play is placed"):
        challenge(ref, "Ben", "Ann")


@pytest.mark.parametrize("challenger, challenged, rule", [
    ("Ann", "Ann", "their own play"),
    ("Ann", "Cy", "there is no play to challenge"),
    ("Ann", "Dee", "not a player"),
])
def test_a_challenge_that_breaks_a_rule_is_refused(challenger, challenged, rule):
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"), Cy="pass")
    with pytest.raises(RuleViolation, match=rule):
        challenge(ref, challenger, challenged)


def test_a_play_can_be_challenged_only_once():
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"), Cy="pass")
    challenge(ref, "Ben", "Ann")
    with pytest.raises(RuleViolation, match="already been challenged"):
        challenge(ref, "Cy", "Ann")


def test_challenges_come_after_a_reveal():
    ref = start()
    with pytest.raises(RuleViolation, match="no plays have been revealed"):
        challenge(ref, "Ben", "Ann")


# ---------------------------------------------------------------------------------------------
# Reveals and exchanges that break a rule


def test_every_player_still_in_must_reveal_a_play_or_pass():
    ref = start(players=THREE)
    with pytest.raises(RuleViolation, match="missing Cy"):
        reveal(ref, Ann=("8H", "CAT"), Ben="pass")


def test_a_reveal_waits_until_the_round_is_settled():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben="pass")
    with pytest.raises(RuleViolation, match="still open"):
        reveal(ref, Ann=("8H", "CAT"), Ben="pass")


def test_an_illegal_placement_is_refused_naming_the_player():
    ref = start()
    with pytest.raises(RuleViolation, match="Ben's play: the first play must cover the centre square H8"):
        reveal(ref, Ann=("8H", "CAT"), Ben=("1A", "CAT"))
    assert ref.state.round is None


def test_exchanges_without_penalty_for_players_who_did_not_place():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    with pytest.raises(RuleViolation, match="after the round is settled"):
        ref.submit({"type": "exchange", "player": "Ben", "count": 7})
    settle(ref)
    before = items(ref)
    ref.submit({"type": "exchange", "player": "Ben", "count": 7})
    assert items(ref) == before
    with pytest.raises(RuleViolation, match="already exchanged"):
        ref.submit({"type": "exchange", "player": "Ben", "count": 1})
    with pytest.raises(RuleViolation, match="only the other players may exchange"):
        ref.submit({"type": "exchange", "player": "Ann", "count": 1})


def test_an_exchange_needs_enough_tiles_in_the_bag(tileset_file):
    tiny = tileset_file({"C": (3, 3), "A": (7, 1), "T": (8, 1)})  # 18 tiles: 4 in the bag
    ref = start(tileset=tiny)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    settle(ref)  # Ann draws 3: 1 left
    with pytest.raises(RuleViolation, match="bag holds only 1"):
        ref.submit({"type": "exchange", "player": "Ben", "count": 2})


# ---------------------------------------------------------------------------------------------
# Elimination and winning


def test_a_player_with_no_items_left_is_eliminated_and_sits_out():
    ref = start({"Ann": 3, "Ben": 3, "Cy": 1}, players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"), Cy="pass")
    settle(ref)
    assert ref.state.out == ("Cy",)
    assert ref.state.game.rack_counts[2] == 0  # the rack is set aside
    with pytest.raises(RuleViolation, match="Cy is eliminated"):
        reveal(ref, Ann=("8H", "CATS"), Ben="pass", Cy="pass")
    with pytest.raises(RuleViolation, match="Cy is eliminated"):
        ref.submit({"type": "exchange", "player": "Cy", "count": 1})
    reveal(ref, Ann=("8H", "CATS"), Ben="pass")
    with pytest.raises(RuleViolation, match="Cy is eliminated"):
        challenge(ref, "Cy", "Ann")


def test_a_player_down_to_their_limit_of_undress_is_eliminated():
    ref = start({"Ann": 3, "Ben": 3, "Cy": 3}, players=THREE, limits={"Cy": 2})
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"), Cy="pass")
    settle(ref)
    assert ref.state.out == ("Cy",) and items(ref)["Cy"] == 2


def test_a_player_out_of_clothes_in_a_challenge_drops_out_of_the_round():
    ref = start({"Ann": 1, "Ben": 5, "Cy": 5}, players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"), Cy=("8H", "TA"))  # 10, 4, 4
    challenge(ref, "Ann", "Ben")  # AT is valid: Ann's last item
    settle(ref)
    # Ann is out: her CAT is not placed and her -10 is not a low; Ben and Cy are equal: nobody removes.
    assert placed(ref) == "Ben"
    assert items(ref) == {"Ann": 0, "Ben": 5, "Cy": 5}


def test_the_last_player_with_items_on_wins():
    ref = start({"Ann": 2, "Ben": 2})
    reveal(ref, Ann=("8H", "CAT"), Ben=("8G", "ACT"))  # 10 and 10: all equal, nobody removes
    settle(ref)
    assert not strip_rounds.is_over(ref.state)
    reveal(ref, Ann=("8H", "CATS"), Ben="pass")  # S on K8: CATS 6; Ben 0 removes one
    settle(ref)
    assert items(ref) == {"Ann": 2, "Ben": 1} and not strip_rounds.is_over(ref.state)
    reveal(ref, Ann="pass", Ben=("J7", "AT"))  # A on J7 over the T: 2; Ann, lowest, removes one
    settle(ref)
    assert items(ref) == {"Ann": 1, "Ben": 1}
    reveal(ref, Ann=("I7", "TA"), Ben="pass")  # T on I7 (double letter): TA down 3 + TA across 3 = 6
    settle(ref)
    state = ref.state
    assert strip_rounds.is_over(state)
    assert state.winners == ("Ann",) and state.end_reason == "the last player with items on"
    assert state.totals == (10 + 6 + 0 + 6, 10 + 0 + 2 + 0)
    with pytest.raises(RuleViolation, match="the game is over"):
        reveal(ref, Ann="pass")


def test_everyone_out_in_the_same_round_the_highest_total_among_them_wins():
    ref = start({"Ann": 1, "Ben": 1})
    reveal(ref, Ann=("8H", "RETAINS"), Ben=("8H", "JUKEBOX"))  # each bingo takes the other's last item
    settle(ref)
    assert ref.state.out == ("Ann", "Ben")
    assert ref.state.winners == ("Ben",)  # 110 against 66


def test_first_to_the_target_total_wins():
    ref = start(win="points", target=15)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))  # 10 and 4
    settle(ref)
    assert not strip_rounds.is_over(ref.state)
    reveal(ref, Ann=("8H", "CATS"), Ben="pass")  # S on K8: CATS 6, Ann 16
    settle(ref)
    assert ref.state.winners == ("Ann",) and ref.state.totals == (16, 4)
    assert ref.state.end_reason == "first to 15 points"


def test_highest_total_when_the_bag_is_empty_wins(tileset_file):
    tiny = tileset_file({"C": (3, 3), "A": (7, 1), "T": (7, 1)})  # 17 tiles: 3 in the bag
    ref = start(tileset=tiny, win="bag_empty")
    reveal(ref, Ann=("8H", "AT"), Ben=("8H", "CAT"))
    challenge(ref, "Ann", "Ben")  # CAT is valid: Ann -4
    settle(ref)  # Ben draws the last 3 tiles
    assert ref.state.game.bag == 0
    assert ref.state.winners == ("Ben",) and ref.state.totals == (-4, 10)


def test_running_totals_are_kept_in_every_mode():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    challenge(ref, "Ben", "Ann")
    settle(ref)
    reveal(ref, Ann="pass", Ben=("8H", "CATS"))
    settle(ref)
    assert ref.state.totals == (10 + 0, -4 + 6)
    assert strip_rounds.standings(ref.state) == [("Ann", 10), ("Ben", 2)]


def test_the_table_may_agree_to_stop_between_rounds():
    ref = start({"Ann": 5, "Ben": 5})
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    with pytest.raises(RuleViolation, match="still open"):
        ref.submit({"type": "end"})
    settle(ref)
    ref.submit({"type": "end"})
    assert ref.state.winners == ("Ann",)  # 5 items on against 4


# ---------------------------------------------------------------------------------------------
# The event log and the output


def test_a_rejected_event_leaves_the_game_as_it_was():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    before = ref.state
    with pytest.raises(CompanionError):
        ref.submit({"type": "play", "player": "Ann", "tiles": {"H8": "A"}})
    with pytest.raises(CompanionError):
        ref.submit({"type": "reveal", "plays": "everyone"})
    assert ref.state is before


def test_undo_takes_back_a_settled_round():
    ref = start()
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    settle(ref)
    ref.undo()
    assert ref.state.board.is_empty and items(ref) == {"Ann": 5, "Ben": 5}
    challenge(ref, "Ann", "Ben")  # the round is open again


def test_replaying_the_saved_log_gives_the_same_state():
    ref = start(players=THREE)
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "TAC"), Cy="pass")
    challenge(ref, "Cy", "Ben")
    settle(ref)
    ref.submit({"type": "exchange", "player": "Cy", "count": 3})
    again = Referee(ref.events, lexicon=WORDS)
    assert again.state == ref.state


def test_report_shows_the_round_the_ledger_entries_and_holdings():
    ref = start()
    before = ref.state
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    lines = strip_rounds.report(before, ref.state, ref.events[-1])
    assert lines[0] == "round 1: plays revealed"
    assert "H8 across CAT" in lines[1] and lines[1].rstrip().endswith("10")
    before = ref.state
    settle(ref)
    text = "\n".join(strip_rounds.report(before, ref.state, ref.events[-1]))
    assert "round 1 settled: round scores Ann 10, Ben 4" in text
    assert "Ann places H8 across CAT and draws 3" in text
    assert "penalty: Ben: -1 item(s) of clothing (round 1: lowest round score (4))" in text
    assert "Ben: 4 item(s) on, total 4" in text


def test_format_final_prints_the_standings_table():
    ref = start({"Ann": 2, "Ben": 1})
    reveal(ref, Ann=("8H", "CAT"), Ben=("8H", "AT"))
    settle(ref)
    lines = strip_rounds.format_final(ref.state).splitlines()
    assert lines[0].startswith("final standings (strip-rounds after 1 round(s)")
    assert lines[2].split() == ["1.", "Ann", "10", "2", "in"]
    assert lines[3].split() == ["2.", "Ben", "4", "0", "out", "in", "round", "1"]
    assert lines[-1] == "winner: Ann, the last player with items on"


# ---------------------------------------------------------------------------------------------
# A whole game: the bundled demo, worked out by hand


def test_the_bundled_demo_game_worked_out_by_hand():
    events = read_jsonl(DEMO)
    ref = Referee(events[:1], lexicon=WORDS)
    for event in events[1:]:
        ref.submit(event)
    state = ref.state
    # Start: Ann 4 items, Ben 4, Cy 3; the last player with items on wins.
    # Round 1: FARM (F4 A1 R1 M3) x 2 = 18, WHEAT (W4 H4 E1 A1 T1) x 2 = 22, Cy passes (0).
    #   WHEAT is placed. Cy, lowest, removes one (Cy 2). Totals 18, 22, 0. Ann exchanges 2.
    # Round 2: STRANGE down L8-L14: S1x2 (L8 double letter) T1 R1 A1 N1 G2 E1 = 9, x 2 (L12 double
    #   word) = 18; WHEATS 4+4+1+1+1+2 = 13; bingo 50: 81. AWE down G7-G9: A1x2 + W4 + E1x2 = 8.
    #   HI down H8-H9: 4 + 1 = 5. Cy challenges AWE, valid: Cy removes one (1), scores -5.
    #   STRANGE is placed. Cy, lowest (-5), removes his last: out. Ann's bingo: Ben removes one (3).
    #   Totals 99, 30, -5.
    # Round 3: HA (A on H9) 4 + 1 = 5, AH (A on H7) 1 + 4 = 5: all equal, nobody removes; Ann has 4
    #   items on, Ben 3: Ann places HA. Totals 104, 35. Ben exchanges 7.
    # Round 4: WAX across K11 (a double word): (W4 A1 X8) x 2 = 26; QNA across K12: 10 + 1 + 1 = 12.
    #   Ben challenges WAX, valid: Ben removes one (2), -12. Ann challenges QNA, invalid: Ben removes
    #   one (1), still -12. WAX is placed; Ben, lowest, removes his last: out. Totals 130, 23, -5.
    assert state.totals == (130, 23, -5)
    assert items(ref) == {"Ann": 4, "Ben": 0, "Cy": 0}
    assert state.eliminated == (("Cy", 2), ("Ben", 4))
    assert state.winners == ("Ann",)
    assert strip_rounds.standings(state) == [("Ann", 130), ("Ben", 23), ("Cy", -5)]
    assert board_word(ref, 8, "G", 6) == "WHEATS" and board_word(ref, 11, "K", 3) == "WAX"
    assert [e.cause for e in state.ledger.entries if e.amount < 0 and e.kind == "item"] == [
        "round 1: lowest round score (0)",
        "round 2: lost the challenge of Ben's AWE (valid)",
        "round 2: lowest round score (-5)",
        "round 2: Ann's bingo STRANGE WHEATS",
        "round 4: lost the challenge of Ann's WAX (valid)",
        "round 4: QNA challenged by Ann: invalid",
        "round 4: lowest round score (-12)",
    ]


needs_default_lexicon = pytest.mark.skipif(not default_lexicon_path().exists(), reason="default lexicon not built (run ./tc setup)")


@needs_default_lexicon
def test_the_demo_runs_from_the_command_line(capsys):
    assert cli.main(["referee", "--variant", "strip-rounds", str(DEMO)]) == 0
    out = capsys.readouterr().out
    assert "UNACCEPTABLE: QNA is not" in out
    assert out.rstrip().endswith("winner: Ann, the last player with items on")
