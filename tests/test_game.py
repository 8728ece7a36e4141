"""A game as a fold over events: turns, the bag and the racks, challenges, the end of the game, undo."""

from __future__ import annotations

import json
import random
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError, IllegalPlay, RuleViolation, UnknownLetter
from companion.events import Replay, fold
from companion.game import AWAITING_RACKS, ENDED, PLAYING, new_game, parse_tiles, tiles_spec


# ----------------------------------------------------------------- event helpers
def start(*players: str, **options) -> dict:
    return {"type": "game_started", "players": list(players or ("Ann", "Bob")), **options}


def play(player: str, rack: str | None = None, **squares: str) -> dict:
    event = {"type": "play", "player": player, "tiles": squares}
    if rack is not None:
        event["rack"] = rack
    return event


def pass_(player: str) -> dict:
    return {"type": "pass", "player": player}


def exchange(player: str, count: int) -> dict:
    return {"type": "exchange", "player": player, "count": count}


def challenge(challenger: str, verdict: str) -> dict:
    return {"type": "challenge", "challenger": challenger, "verdict": verdict}


def end_racks(**racks: str) -> dict:
    return {"type": "end_racks", "racks": racks}


UNDO = {"type": "undo"}

#: CAT from H8 scores (3 + 1 + 1) x 2 = 10.
CAT = dict(H8="C", I8="A", J8="T")


def replay(*events) -> Replay:
    r = Replay(events[0])
    for e in events[1:]:
        r.push(e)
    return r


def rejected(r: Replay, event: dict, error=CompanionError) -> str:
    """Push ``event``, expect it refused, and check the game is exactly as it was."""
    before = r.state
    with pytest.raises(error) as err:
        r.push(event)
    assert r.state is before
    return str(err.value)


def conserved(state) -> bool:
    """Every tile is on the board, in the bag or on a rack."""
    return state.board.tile_count() + state.bag + sum(state.rack_counts) == state.config.tiles.total_tiles


# ----------------------------------------------------------------- starting
def test_bag_after_start_is_100_minus_14_for_two_players():
    s = fold([start("Ann", "Bob")])
    assert s.bag == 100 - 14
    assert s.rack_counts == (7, 7)
    assert s.scores == (0, 0)
    assert s.to_move == 0
    assert s.board.is_empty
    assert s.phase == PLAYING


@pytest.mark.parametrize("players, bag", [(3, 79), (4, 72)])
def test_bag_after_start_for_three_and_four_players(players, bag):
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    assert fold([start(*names)]).bag == bag


def test_german_bag_starts_from_its_102_tiles():
    assert fold([start("Ann", "Bob", tileset="de")]).bag == 102 - 14


@pytest.mark.parametrize("players", [["Ann"], ["A", "B", "C", "D", "E"], [], "Ann,Bob", ["Ann", ""]])
def test_scrabble_is_for_two_to_four_named_players(players):
    with pytest.raises(RuleViolation):
        new_game({"type": "game_started", "players": players})


def test_players_need_different_names():
    with pytest.raises(RuleViolation) as err:
        new_game(start("Ann", "Ann"))
    assert "same name" in str(err.value)


def test_unknown_challenge_rule_is_refused():
    with pytest.raises(RuleViolation) as err:
        new_game(start(challenge_rule="fisticuffs"))
    assert "double" in str(err.value)


def test_unknown_tileset_is_refused():
    with pytest.raises(CompanionError):
        new_game(start(tileset="klingon"))


@pytest.mark.parametrize("rack_size", ["abc", None, 0, -1])
def test_rack_size_must_be_a_positive_whole_number(rack_size):
    with pytest.raises(RuleViolation):
        new_game(start(rack_size=rack_size))


def test_a_game_log_begins_with_game_started():
    with pytest.raises(RuleViolation):
        fold([pass_("Ann")])
    with pytest.raises(RuleViolation):
        fold([])


def test_a_game_cannot_start_twice():
    r = replay(start())
    rejected(r, start(), RuleViolation)


def test_unknown_event_type_is_refused():
    r = replay(start())
    assert "shuffle" in rejected(r, {"type": "shuffle"}, RuleViolation)


# ----------------------------------------------------------------- turns
def test_play_scores_and_passes_the_turn():
    s = fold([start(), play("Ann", **CAT)])
    assert s.scores == (10, 0)
    assert s.to_move == 1
    assert s.board.tile_count() == 3
    assert s.turns[-1].kind == "play" and s.turns[-1].words == ("CAT",)


def test_wrong_player_to_move_is_rejected_and_state_unchanged():
    r = replay(start())
    msg = rejected(r, play("Bob", **CAT), RuleViolation)
    assert "Ann" in msg and "Bob" in msg
    rejected(r, pass_("Bob"), RuleViolation)
    rejected(r, exchange("Bob", 3), RuleViolation)
    assert r.state == fold([start()])


def test_unknown_player_is_rejected():
    r = replay(start())
    assert "Eve" in rejected(r, play("Eve", **CAT), RuleViolation)


def test_illegal_placement_is_rejected_and_state_unchanged():
    r = replay(start())
    msg = rejected(r, play("Ann", A1="C", B1="A", C1="T"), IllegalPlay)
    assert "H8" in msg
    assert r.state.to_move == 0


def test_play_without_tiles_is_refused():
    r = replay(start())
    rejected(r, {"type": "play", "player": "Ann"}, RuleViolation)
    rejected(r, {"type": "play", "player": "Ann", "tiles": {}}, RuleViolation)


def test_play_on_a_bad_square_name_is_refused():
    r = replay(start())
    assert "Z99" in rejected(r, play("Ann", Z99="C", H8="A"))


def test_more_tiles_than_the_rack_holds():
    r = replay(start())
    msg = rejected(r, play("Ann", H8="A", I8="B", J8="C", K8="D", L8="E", M8="F", N8="G", O8="H"), IllegalPlay)
    assert "7" in msg and "8" in msg


def test_more_tiles_than_the_set_has():
    # English has one Z.
    r = replay(start())
    msg = rejected(r, play("Ann", H8="Z", I8="Z"), IllegalPlay)
    assert "2 Z" in msg and "only 1" in msg


def test_more_tiles_than_the_set_has_across_turns():
    r = replay(start(), play("Ann", H8="Z", I8="A"))
    rejected(r, play("Bob", H9="Z", I9="A"), IllegalPlay)


def test_more_blanks_than_the_set_has():
    r = replay(start(), play("Ann", H8="c", I8="a", J8="T"))
    assert "blanks" in rejected(r, play("Bob", K8="s"), IllegalPlay)


def test_unknown_letter_for_tileset():
    r = replay(start())
    msg = rejected(r, play("Ann", H8="Æ", I8="A"), UnknownLetter)
    assert "'Æ'" in msg


def test_danish_letters_play_and_score_in_a_danish_game():
    # ÆØÅ from H8: 4 + 4 + 4 = 12, doubled by the star: 24; æ is a blank and scores 0.
    s = fold([start(tileset="da"), play("Ann", H8="Æ", I8="Ø", J8="Å"), play("Bob", H9="æ", I9="R")])
    assert s.scores[0] == 24
    assert str(s.board[8, 7]) == "æ"


def test_german_umlaut_scores_six():
    # ÄR from H8: (6 + 1) x 2 = 14.
    assert fold([start(tileset="de"), play("Ann", H8="Ä", I8="R")]).scores == (14, 0)


def test_lower_case_letter_is_a_blank():
    placements = parse_tiles({"H8": "C", "I8": "a", "J8": "?"}, new_game(start()))
    assert [(p.tile.letter, p.tile.blank) for p in placements] == [("C", False), ("A", True), ("?", True)]
    assert tiles_spec(placements) == {"H8": "C", "I8": "a", "J8": "?"}


@pytest.mark.parametrize("letter", [unicodedata.normalize("NFD", "Å"), "\u212b"])
def test_play_letters_are_read_in_normal_form(letter):
    placements = parse_tiles({"H8": letter, "I8": "R"}, new_game(start(tileset="da")))
    assert (placements[0].tile.letter, placements[0].tile.blank) == ("Å", False)


def test_a_turn_after_the_game_is_over_is_refused(tiny_tileset):
    r = replay(start(tileset=tiny_tileset), *[pass_(p) for p in ("Ann", "Bob") * 2])
    assert r.state.phase == AWAITING_RACKS
    assert "end_racks" in rejected(r, play("Ann", H8="E", I8="A"), RuleViolation)
    r.push(end_racks(Ann="EEEEEEE", Bob="EEEEEEE"))
    assert "over" in rejected(r, pass_("Bob"), RuleViolation)
    assert "over" in rejected(r, end_racks(Ann="EEEEEEE", Bob="EEEEEEE"), RuleViolation)


# ----------------------------------------------------------------- the bag and the racks
def test_drawing_refills_the_rack_to_seven():
    s = fold([start(), play("Ann", **CAT)])
    assert s.rack_counts == (7, 7)
    assert s.bag == 86 - 3
    assert conserved(s)


def test_drawing_stops_when_bag_empty(tileset_file):
    # 17 tiles, 14 on the racks: 3 in the bag.
    path = tileset_file({"E": (17, 1)})
    s = fold([start(tileset=path)])
    assert s.bag == 3
    s = fold([start(tileset=path), play("Ann", H8="E", I8="E")])
    assert (s.bag, s.rack_counts) == (1, (7, 7))
    s = fold([start(tileset=path), play("Ann", H8="E", I8="E"), play("Bob", J8="E", K8="E", L8="E")])
    assert (s.bag, s.rack_counts) == (0, (7, 5))  # Bob drew the last tile only
    assert conserved(s)


def test_going_out_only_when_bag_empty(tileset_file):
    path = tileset_file({"E": (17, 1)})
    # Ann plays all seven while three tiles are left: she draws them and the game goes on.
    seven = dict(H8="E", I8="E", J8="E", K8="E", L8="E", M8="E", N8="E")
    s = fold([start(tileset=path), play("Ann", **seven)])
    assert s.phase == PLAYING
    assert (s.bag, s.rack_counts, s.to_move) == (0, (3, 7), 1)
    # With the bag empty, playing her last three tiles takes her out.
    s = fold([start(tileset=path), play("Ann", **seven), play("Bob", H9="E", H10="E"),
              play("Ann", I9="E", I10="E", I11="E")])
    assert s.phase == AWAITING_RACKS
    assert s.went_out == 0
    assert s.rack_counts == (0, 5)


def test_exchange_needs_seven_in_bag(tileset_file):
    # 20 tiles: 6 in the bag after two racks of seven.
    s = fold([start(tileset=tileset_file({"E": (20, 1)}))])
    assert s.bag == 6
    r = replay(start(tileset=tileset_file({"E": (20, 1)})))
    msg = rejected(r, exchange("Ann", 1), RuleViolation)
    assert "7" in msg and "6" in msg


def test_exchange_with_seven_in_bag_is_allowed(tileset_file):
    s = fold([start(tileset=tileset_file({"E": (21, 1)})), exchange("Ann", 7)])
    assert (s.bag, s.rack_counts, s.scores, s.to_move) == (7, (7, 7), (0, 0), 1)
    assert s.turns[-1].kind == "exchange"


@pytest.mark.parametrize("count", [0, -1, 8, "3", None])
def test_exchange_count_must_fit_the_rack(count):
    r = replay(start())
    rejected(r, exchange("Ann", count), RuleViolation)


def test_unseen_tiles_are_bag_and_opponents_racks():
    # Ann shows CATSZQX: the Z, Q and X are then out of sight for nobody but her.
    s = fold([start(), {"type": "rack", "player": "Ann", "rack": "catszqx"}])
    assert s.known_racks[0] == "CATSZQX"
    unseen = s.unseen(0)
    assert unseen["Z"] == unseen["Q"] == unseen["X"] == 0
    assert unseen["C"] == 1 and unseen["A"] == 8 and unseen["?"] == 2
    assert sum(unseen.values()) == 100 - 7 == s.bag + s.rack_counts[1]


def test_unseen_tiles_leave_out_the_board():
    # After CAT (Ann draws three: her rack is unknown again), Bob shows his rack.
    s = fold([start(), {"type": "rack", "player": "Ann", "rack": "CATSZQX"}, play("Ann", **CAT),
              {"type": "rack", "player": "Bob", "rack": "EEEEEEE"}])
    assert s.known_racks == (None, "EEEEEEE")
    unseen = s.unseen(1)
    assert unseen["C"] == 1 and unseen["E"] == 12 - 7
    assert sum(unseen.values()) == 100 - 3 - 7 == s.bag + s.rack_counts[0]
    # Without a known rack, everything off the board is unseen.
    assert sum(s.unseen().values()) == 100 - 3 == s.bag + sum(s.rack_counts)


def test_known_rack_keeps_what_was_not_played_when_nothing_is_drawn(tileset_file):
    # 14 tiles: the bag is empty from the start, so Ann draws nothing after playing.
    path = tileset_file({"E": (10, 1), "A": (2, 1), "Q": (1, 10), "Z": (1, 10)})
    s = fold([start(tileset=path), {"type": "rack", "player": "Ann", "rack": "EEEEEAZ"}, play("Ann", H8="E", I8="A")])
    assert s.known_racks[0] == "EEEEZ"
    unseen = s.unseen(0)
    assert dict(unseen) == {"E": 10 - 1 - 4, "A": 2 - 1, "Q": 1}
    assert sum(unseen.values()) == s.bag + s.rack_counts[1] == 7


def test_a_rack_shown_with_a_play_must_fit_the_play(tileset_file):
    path = tileset_file({"E": (10, 1), "A": (2, 1), "Q": (1, 10), "Z": (1, 10)})
    r = replay(start(tileset=path))
    rejected(r, play("Ann", rack="QQ", H8="E", I8="A"), RuleViolation)


def test_shown_rack_must_have_the_right_number_of_tiles():
    r = replay(start())
    rejected(r, {"type": "rack", "player": "Ann", "rack": "CAT"}, RuleViolation)
    rejected(r, {"type": "rack", "player": "Ann", "rack": "CATSZQÆ"}, UnknownLetter)


# ----------------------------------------------------------------- the end of the game
def seed_game(path: str) -> list[dict]:
    """Three players, the bag empty from the start (21 tiles); A goes out on her second play,
    leaving B with Z and C and C with A and K (the seed's example)."""
    return [
        start("A", "B", "C", tileset=path),
        play("A", H8="E", I8="E"),                                     # (1 + 1) x 2 = 4
        play("B", J8="E", K8="E", L8="E", M8="E", N8="E"),             # 2 old + 1 + 1 + 2 (L8 d) + 1 + 1 = 8
        play("C", H9="E", H10="E", H11="E", H12="E", H13="E"),         # 1 old + 1 + 1 + 1 + 2 (H12 d) + 1 = 7
        play("A", N9="E", N10="E", N11="E", N12="E", N13="E"),         # 1 old + 1 + 3 (N10 t) + 1 + 1 + 1 = 8
    ]


@pytest.fixture
def seed_tiles(tileset_file):
    return tileset_file({"E": (17, 1), "A": (1, 1), "Z": (1, 10), "C": (1, 3), "K": (1, 5)})


def test_going_out_seed_example(seed_tiles):
    events = seed_game(seed_tiles)
    s = fold(events)
    assert s.phase == AWAITING_RACKS and s.went_out == 0
    assert s.scores == (12, 8, 7)
    assert s.rack_counts == (0, 2, 2)
    # B holds Z (10) + C (3), C holds A (1) + K (5): A +19, B -13, C -6.
    end = fold(events + [end_racks(A="", B="ZC", C="AK")])
    assert end.phase == ENDED
    assert end.scores == (12 + 19, 8 - 13, 7 - 6)
    assert end.winners == ["A"]


def test_going_out_player_need_not_show_an_empty_rack(seed_tiles):
    end = fold(seed_game(seed_tiles) + [end_racks(B="ZC", C="AK")])
    assert end.scores == (31, -5, 1)


def test_going_out_needs_every_other_rack(seed_tiles):
    r = replay(*seed_game(seed_tiles))
    assert "C" in rejected(r, end_racks(B="ZC"), RuleViolation)


def test_end_racks_must_match_the_rack_counts(seed_tiles):
    r = replay(*seed_game(seed_tiles))
    msg = rejected(r, end_racks(B="ZCE", C="AK"), RuleViolation)
    assert "2" in msg and "3" in msg


def test_end_racks_before_the_end_is_refused():
    r = replay(start())
    assert "not over" in rejected(r, end_racks(Ann="ABCDEFG", Bob="ABCDEFG"), RuleViolation)


def test_all_players_passing_twice_ends_the_game():
    events = [start(), pass_("Ann"), pass_("Bob"), pass_("Ann")]
    assert fold(events).phase == PLAYING
    s = fold(events + [pass_("Bob")])
    assert s.phase == AWAITING_RACKS and s.went_out is None
    # Each player loses their own rack: RETAINS = 7, QZXJKVW = 10 + 10 + 8 + 8 + 5 + 4 + 4 = 49.
    end = fold(events + [pass_("Bob"), end_racks(Ann="RETAINS", Bob="QZXJKVW")])
    assert end.scores == (-7, -49)
    assert end.winners == ["Ann"]


def test_all_three_players_passing_twice_ends_the_game():
    passes = [pass_(p) for p in ("Ann", "Bob", "Cy") * 2]
    assert fold([start("Ann", "Bob", "Cy")] + passes[:5]).phase == PLAYING
    assert fold([start("Ann", "Bob", "Cy")] + passes).phase == AWAITING_RACKS


def test_a_scoring_play_breaks_the_run_of_passes():
    events = [start(), pass_("Ann"), pass_("Bob"), play("Ann", **CAT), pass_("Bob"), pass_("Ann")]
    assert fold(events).phase == PLAYING
    assert fold(events + [pass_("Bob"), pass_("Ann")]).phase == AWAITING_RACKS


def test_a_zero_point_play_breaks_the_run_of_passes():
    # Seed: the game ends when every player passes twice in a row. Ann's 0-point play (two blanks) is not a pass.
    events = [start(), pass_("Ann"), pass_("Bob"), play("Ann", H8="a", I8="x"), pass_("Bob"), pass_("Ann")]
    assert fold(events).scores == (0, 0)
    assert fold(events).phase == PLAYING
    assert fold(events + [pass_("Bob"), pass_("Ann")]).phase == AWAITING_RACKS


def test_an_exchange_breaks_the_run_of_passes():
    # Only passes count towards the end on passes: Bob's exchange starts the count again.
    events = [start(), pass_("Ann"), pass_("Bob"), pass_("Ann"), exchange("Bob", 3), pass_("Ann"), pass_("Bob")]
    assert fold(events).phase == PLAYING
    assert fold(events + [pass_("Ann"), pass_("Bob")]).phase == AWAITING_RACKS


def test_end_racks_after_passes_needs_every_rack():
    r = replay(start(), *[pass_(p) for p in ("Ann", "Bob") * 2])
    rejected(r, end_racks(Ann="QZXJKVW"), RuleViolation)


def test_time_penalty_comes_off_the_score():
    s = fold([start(), play("Ann", **CAT), {"type": "time_penalty", "player": "Ann", "points": 10}])
    assert s.scores == (0, 0)
    assert s.to_move == 1  # a penalty is not a turn
    r = replay(start())
    rejected(r, {"type": "time_penalty", "player": "Ann", "points": -3}, RuleViolation)


# ----------------------------------------------------------------- challenges
def test_invalid_challenge_withdraws_the_play_and_the_player_loses_the_turn():
    before = fold([start()])
    s = fold([start(), play("Ann", **CAT), challenge("Bob", "invalid")])
    assert s.board == before.board
    assert s.scores == (0, 0)
    assert (s.bag, s.rack_counts) == (before.bag, before.rack_counts)
    assert s.to_move == 1  # Ann's turn is over
    assert s.turns[-1].kind == "withdrawn" and s.turns[-1].score == -10
    # Bob may now make the first play himself.
    assert fold([start(), play("Ann", **CAT), challenge("Bob", "invalid"), play("Bob", **CAT)]).scores == (0, 10)


def test_invalid_challenge_in_a_three_player_game_moves_on_to_the_next_player():
    s = fold([start("Ann", "Bob", "Cy"), play("Ann", **CAT), challenge("Cy", "invalid")])
    assert s.board.is_empty
    assert s.to_move == 1


@pytest.mark.parametrize("rule", ["double", "single", "bonus5", "bonus10"])
def test_invalid_challenge_withdraws_the_play_under_every_rule(rule):
    s = fold([start(challenge_rule=rule), play("Ann", **CAT), play("Bob", H9="A", I9="N"), challenge("Ann", "invalid")])
    assert s.board == fold([start(), play("Ann", **CAT)]).board
    assert s.scores == (10, 0)
    assert s.to_move == 0


def test_invalid_challenge_restores_the_players_shown_rack(tileset_file):
    # 14 tiles: the bag is empty, so Ann's shown rack loses the E and A she plays; taken back, she holds them again.
    path = tileset_file({"E": (10, 1), "A": (2, 1), "Q": (1, 10), "Z": (1, 10)})
    s = fold([start(tileset=path), {"type": "rack", "player": "Ann", "rack": "EEEEEAZ"}, play("Ann", H8="E", I8="A"),
              challenge("Bob", "invalid")])
    assert s.known_racks[0] == "EEEEEAZ"
    assert sum(s.unseen(0).values()) == s.bag + s.rack_counts[1]


def test_failed_challenge_costs_the_challenger_the_next_turn_two_players():
    # Seed (double challenge): if the word is good, the challenger loses the turn.
    s = fold([start(), play("Ann", **CAT), challenge("Bob", "valid")])
    assert s.scores == (10, 0)
    assert s.to_move == 0
    assert [t.kind for t in s.turns[-2:]] == ["failed_challenge", "lost_turn"]
    s = fold([start(), play("Ann", **CAT), challenge("Bob", "valid"), play("Ann", K8="S")])
    assert s.to_move == 1  # Bob lost one turn only


def test_failed_challenge_costs_the_challenger_the_next_turn_three_players_challenger_next():
    s = fold([start("Ann", "Bob", "Cy"), play("Ann", **CAT), challenge("Bob", "valid")])
    assert s.to_move == 2
    s = fold([start("Ann", "Bob", "Cy"), play("Ann", **CAT), challenge("Bob", "valid"), pass_("Cy"), pass_("Ann")])
    assert s.to_move == 1


def test_failed_challenge_costs_the_challenger_the_next_turn_three_players_challenger_later():
    # Cy challenges Ann's good play: Bob still moves next, then Cy is skipped.
    events = [start("Ann", "Bob", "Cy"), play("Ann", **CAT), challenge("Cy", "valid")]
    assert fold(events).to_move == 1
    s = fold(events + [pass_("Bob")])
    assert s.to_move == 0
    assert s.turns[-1].kind == "lost_turn" and s.turns[-1].player == 2
    s = fold(events + [pass_("Bob"), pass_("Ann"), pass_("Bob")])
    assert s.to_move == 2  # Cy lost one turn only


def test_single_challenge_costs_the_challenger_nothing():
    s = fold([start(challenge_rule="single"), play("Ann", **CAT), challenge("Bob", "valid")])
    assert s.scores == (10, 0)
    assert s.to_move == 1


def test_bonus5_challenge():
    s = fold([start(challenge_rule="bonus5"), play("Ann", **CAT), challenge("Bob", "valid")])
    assert s.scores == (15, 0)
    assert s.to_move == 1
    assert s.turns[-1].kind == "challenge_bonus" and s.turns[-1].score == 5


def test_bonus10_challenge():
    s = fold([start(challenge_rule="bonus10"), play("Ann", **CAT), challenge("Bob", "valid")])
    assert s.scores == (20, 0)
    assert s.to_move == 1


def test_cannot_challenge_after_next_turn_started():
    r = replay(start(), play("Ann", **CAT), pass_("Bob"))
    assert "next turn" in rejected(r, challenge("Bob", "invalid"), RuleViolation)
    r = replay(start(), play("Ann", **CAT), exchange("Bob", 2))
    rejected(r, challenge("Bob", "invalid"), RuleViolation)


def test_a_challenge_after_the_next_play_concerns_that_play():
    s = fold([start(), play("Ann", **CAT), play("Bob", K8="S"), challenge("Ann", "invalid")])
    assert s.board == fold([start(), play("Ann", **CAT)]).board
    assert s.scores == (10, 0)


def test_cannot_challenge_before_any_play():
    rejected(replay(start()), challenge("Bob", "invalid"), RuleViolation)


def test_cannot_challenge_own_play():
    r = replay(start(), play("Ann", **CAT))
    assert "own" in rejected(r, challenge("Ann", "invalid"), RuleViolation)


def test_a_play_is_challenged_once():
    r = replay(start("Ann", "Bob", "Cy", challenge_rule="single"), play("Ann", **CAT), challenge("Bob", "valid"))
    assert "already" in rejected(r, challenge("Cy", "valid"), RuleViolation)


@pytest.mark.parametrize("verdict", [None, "maybe"])
def test_a_challenge_needs_a_verdict(verdict):
    r = replay(start(), play("Ann", **CAT))
    rejected(r, {"type": "challenge", "challenger": "Bob", "verdict": verdict}, RuleViolation)


def test_invalid_challenge_of_a_going_out_play_resumes_the_game(seed_tiles):
    events = seed_game(seed_tiles) + [challenge("B", "invalid")]
    s = fold(events)
    assert s.phase == PLAYING and s.went_out is None
    assert s.rack_counts == (5, 2, 2)
    assert s.scores == (4, 8, 7)
    assert s.to_move == 1  # A lost the turn


def test_valid_challenge_of_a_going_out_play_ends_the_game(seed_tiles):
    s = fold(seed_game(seed_tiles) + [challenge("B", "valid")])
    assert s.phase == AWAITING_RACKS and s.went_out == 0
    assert fold(seed_game(seed_tiles) + [challenge("B", "valid"), end_racks(B="ZC", C="AK")]).scores == (31, -5, 1)


# ----------------------------------------------------------------- undo and replay
def test_undo_takes_back_the_last_play():
    assert fold([start(), play("Ann", **CAT), UNDO]) == fold([start()])


def test_undo_takes_back_a_challenge_only():
    events = [start(), play("Ann", **CAT)]
    assert fold(events + [challenge("Bob", "invalid"), UNDO]) == fold(events)


def test_undo_reaches_back_event_by_event():
    events = [start(), play("Ann", **CAT), pass_("Bob"), UNDO, UNDO]
    assert fold(events) == fold([start()])


def test_nothing_to_undo_at_the_start():
    with pytest.raises(RuleViolation) as err:
        fold([start(), UNDO])
    assert "nothing to undo" in str(err.value)


def test_a_refused_event_in_a_log_is_reported_with_its_number():
    with pytest.raises(RuleViolation) as err:
        fold([start(), play("Ann", **CAT), pass_("Ann")])
    assert "event 3" in str(err.value)


# ----------------------------------------------------------------- properties of whole games
RULES = ["double", "single", "bonus5", "bonus10"]


def random_event(state, rng: random.Random, random_play) -> dict:
    """A random legal next event for ``state`` (no word list: any letters, only legal placements)."""
    names = state.players
    if state.phase == AWAITING_RACKS:
        pool = list(state.config.tiles.counts)
        return end_racks(**{n: "".join(rng.choice(pool) for _ in range(state.rack_counts[i])) for i, n in enumerate(names)})
    who = names[state.to_move]
    roll = rng.random()
    if state.pending is not None and not state.pending.challenged and roll < 0.15:
        by = rng.choice([n for i, n in enumerate(names) if i != state.pending.player])
        return challenge(by, rng.choice(["valid", "invalid"]))
    if roll < 0.25:
        return pass_(who)
    if roll < 0.3 and state.bag >= 7:
        return exchange(who, rng.randint(1, state.rack_counts[state.to_move]))
    if roll < 0.32:
        return {"type": "time_penalty", "player": rng.choice(names), "points": rng.randint(0, 10)}
    pool = list(state.unseen().elements())
    placements = random_play(state.board, rng, state.config.board_layout.centre,
                             max_tiles=state.rack_counts[state.to_move], letters=pool, blank_rate=0,
                             blank_letters=state.config.tiles.alphabet)
    return {"type": "play", "player": who, "tiles": tiles_spec(placements)}


def random_game(rng: random.Random, tileset: str, length: int, random_play) -> list[dict]:
    players = ["Ann", "Bob", "Cy", "Di"][:rng.randint(2, 4)]
    events = [start(*players, tileset=tileset, challenge_rule=rng.choice(RULES))]
    r = Replay(events[0])
    while len(events) <= length and r.state.phase != ENDED:
        event = random_event(r.state, rng, random_play)
        r.push(event)  # a generated event is always legal: a refusal here is a bug
        events.append(event)
    return events


games = st.builds(
    lambda seed, tileset, length: (seed, tileset, length),
    st.integers(0, 2**32 - 1), st.sampled_from(["en", "da", "tiny"]), st.integers(0, 25),
)


def game_events(tiny_tileset, random_play, spec) -> list[dict]:
    seed, tileset, length = spec
    return random_game(random.Random(seed), tiny_tileset if tileset == "tiny" else tileset, length, random_play)


def same_state(a, b) -> None:
    assert a.board == b.board
    assert a.scores == b.scores
    assert a.to_move == b.to_move
    assert a.bag == b.bag
    assert a.rack_counts == b.rack_counts
    assert a.phase == b.phase
    assert a == b


@given(games, st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_undo_restores_the_exact_state(tiny_tileset, random_play, spec, seed):
    events = game_events(tiny_tileset, random_play, spec)
    state = fold(events)
    if state.phase == ENDED:
        events, state = events[:-1], fold(events[:-1])
    e = random_event(state, random.Random(seed), random_play)
    same_state(fold(events + [e, UNDO]), state)


@given(games)
@settings(max_examples=30, deadline=None)
def test_replaying_the_same_events_gives_the_same_state(tiny_tileset, random_play, spec):
    events = game_events(tiny_tileset, random_play, spec)
    same_state(fold(json.loads(json.dumps(events))), fold(events))


@given(games)
@settings(max_examples=30, deadline=None)
def test_every_tile_is_on_the_board_in_the_bag_or_on_a_rack(tiny_tileset, random_play, spec):
    events = game_events(tiny_tileset, random_play, spec)
    r = Replay(events[0])
    total = r.state.config.tiles.total_tiles
    for e in events[1:]:
        s = r.push(e)
        assert conserved(s)
        assert s.bag >= 0 and all(0 <= n <= 7 for n in s.rack_counts)
        assert sum(s.unseen().values()) == total - s.board.tile_count() == s.bag + sum(s.rack_counts)
        if s.phase == PLAYING and s.bag > 0:
            assert all(n == 7 for n in s.rack_counts)


@given(games)
@settings(max_examples=30, deadline=None)
def test_the_scoresheet_adds_up_to_the_scores(tiny_tileset, random_play, spec):
    s = fold(game_events(tiny_tileset, random_play, spec))
    for i, total in enumerate(s.scores):
        lines = [t for t in s.turns if t.player == i]
        assert sum(t.score for t in lines) == total
        if lines:
            assert lines[-1].total == total
