"""The referee: challenges judged against the word list, every event saved before it counts."""

from __future__ import annotations

import pytest

from companion.board import Board
from companion.errors import CompanionError, RuleViolation
from companion.lexicon import Lexicon
from companion.referee import Referee, Verdict
from companion.store import GameStore

WORDS = Lexicon.from_words(["QI", "ZAX", "WIZARD", "COBRA", "HEX", "AX", "ZA", "XI"], "test")
START = {"players": ["Ann", "Ben"], "tileset": "en", "challenge_rule": "double"}


def new(rule="double", store=None, players=("Ann", "Ben")) -> Referee:
    return Referee.start({**START, "players": list(players), "challenge_rule": rule}, WORDS, store)


def test_ruling_names_valid_and_invalid_words():
    assert str(Verdict(("QI", "ZAX"), ("XQ",))) == "UNACCEPTABLE: QI and ZAX are valid, XQ is not"
    assert str(Verdict(("QI",), ())) == "ACCEPTABLE: QI is valid"
    assert str(Verdict((), ("XQ", "QX"))) == "UNACCEPTABLE: XQ and QX are not"


def test_challenge_judges_every_word_the_play_formed():
    ref = new()
    ref.play_notation("Ann", "8G", "ZAX")  # Z G8, A H8, X I8
    ref.play_notation("Ben", "7H", "QI")  # Q H7 over A -> QA (invalid), I I7 over X -> IX (invalid)
    ref.submit({"type": "challenge", "challenger": "Ann"})
    ruling = ref.events[-1]["ruling"]
    assert ruling == "UNACCEPTABLE: QI is valid, QA and IX are not"
    assert ref.state.board[6, 7] is None  # withdrawn


def test_valid_challenge_under_double_rule_costs_challenger_the_turn():
    ref = new()
    ref.play_notation("Ann", "8G", "ZAX")
    ref.submit({"type": "challenge", "challenger": "Ben"})
    assert ref.events[-1]["verdict"] == "valid"
    assert ref.state.players[ref.state.to_move] == "Ann"


def test_void_rule_refuses_an_unacceptable_play_and_keeps_the_turn():
    ref = new("void")
    with pytest.raises(RuleViolation, match="UNACCEPTABLE: ZXA is not"):
        ref.play_notation("Ann", "8G", "ZXA")
    assert ref.state.board.is_empty and ref.state.to_move == 0
    ref.play_notation("Ann", "8G", "ZAX")
    assert ref.state.scores[0] > 0


def test_blank_without_a_letter_cannot_be_judged():
    ref = new()
    ref.submit({"type": "play", "player": "Ann", "tiles": {"H8": "Q", "I8": "?"}})
    with pytest.raises(RuleViolation, match="blank on I8 has no letter"):
        ref.submit({"type": "challenge", "challenger": "Ben"})


def test_rejected_event_is_not_saved(tmp_path):
    with GameStore(tmp_path / "games.db") as store:
        ref = new(store=store)
        ref.play_notation("Ann", "8G", "ZAX")
        saved = store.events(ref.game_id)
        with pytest.raises(CompanionError):
            ref.play_notation("Ann", "9G", "AX")  # Ben's turn
        with pytest.raises(CompanionError):
            ref.play_notation("Ben", "2A", "AX")  # floating
        assert store.events(ref.game_id) == saved
        assert ref.events == saved


def test_resumed_game_has_the_same_state(tmp_path):
    with GameStore(tmp_path / "games.db") as store:
        ref = new(store=store)
        ref.play_notation("Ann", "8G", "ZAX")
        ref.play_notation("Ben", "H7", "Q.")
        ref.submit({"type": "challenge", "challenger": "Ann"})
        game_id, state = ref.game_id, ref.state
    with GameStore(tmp_path / "games.db") as store:
        again = Referee.resume(store, game_id, WORDS)
        assert again.state.board == state.board
        assert again.state.scores == state.scores
        assert again.state.to_move == state.to_move


def test_undo_is_saved_and_restores_the_previous_state(tmp_path):
    with GameStore(tmp_path / "games.db") as store:
        ref = new(store=store)
        ref.play_notation("Ann", "8G", "ZAX")
        before = ref.state
        ref.play_notation("Ben", "H7", "Q.")
        ref.undo()
        assert ref.state is before
        events = store.events(ref.game_id)
        assert [e["type"] for e in events] == ["game_started", "play", "play", "undo"]
        assert Referee.resume(store, ref.game_id, WORDS).state.board == before.board


def test_nothing_to_undo_at_the_start():
    with pytest.raises(RuleViolation, match="nothing to undo"):
        new().undo()


def test_camera_board_becomes_a_play():
    ref = new()
    after = Board.from_rows(["." * 15] * 7 + ["......ZAX......"] + ["." * 15] * 7)
    ref.play_board("Ann", after)
    assert ref.state.turns[-1].words == ("ZAX",)


def test_camera_board_with_a_moved_tile_is_refused():
    ref = new()
    ref.play_notation("Ann", "8G", "ZAX")
    moved = Board.from_rows(["." * 15] * 7 + [".......AX......"] + ["." * 15] * 7)
    with pytest.raises(CompanionError, match="removed: G8"):
        ref.play_board("Ben", moved)


def test_a_verdict_with_no_words_says_so():
    assert str(Verdict((), ())) == "no words to judge"


def test_a_play_put_right_is_as_if_it_had_been_played_so():
    ref = new()
    ref.play_notation("Ann", "8G", "ZAX")
    ref.correct_tile("H8", "e")                       # the A was a blank standing for E: ZeX
    direct = new()
    direct.submit({"type": "play", "player": "Ann", "tiles": {"G8": "Z", "H8": "e", "I8": "X"}})
    assert (ref.state.board, ref.state.scores, ref.state.to_move, ref.state.bag) == \
        (direct.state.board, direct.state.scores, direct.state.to_move, direct.state.bag)
    assert [e["type"] for e in ref.events[1:]] == ["play", "undo", "play"]     # what was first taken is kept


def test_a_tile_put_right_turns_ago_scores_the_later_plays_through_it_again():
    ref = new()
    ref.play_notation("Ann", "8G", "ZAX")             # (10 + 1 + 8) x 2 = 38
    ref.play_notation("Ben", "I8", ".I")              # XI down: 8 + 1 x 2 (I9 double letter) = 10
    ref.submit({"type": "pass", "player": "Ann"})
    first = ref.correct_tile("I8", "Q")               # the X was a Q: ZAQ 42, QI 12
    assert first == 0 and [t.score for t in ref.state.turns] == [42, 12, 0]
    assert ref.state.scores == (42, 12) and ref.state.players[ref.state.to_move] == "Ben"
    assert [e["type"] for e in ref.events[1:]] == ["play", "play", "pass", "undo", "undo", "undo", "play", "play", "pass"]


def test_a_challenge_after_a_tile_put_right_is_ruled_again():
    ref = new()
    ref.play_notation("Ann", "8G", "ZAX")
    ref.submit({"type": "challenge", "challenger": "Ben"})          # ZAX is valid: Ben loses his turn
    ref.correct_tile("I8", "Q")                                      # ZAQ is not: the play is withdrawn
    assert ref.events[-1]["verdict"] == "invalid" and ref.state.board.is_empty and ref.state.scores == (0, 0)


def test_a_correction_that_breaks_a_rule_writes_nothing(tmp_path):
    store = GameStore(tmp_path / "g.db")
    ref = new(store=store)
    ref.play_notation("Ann", "8G", "ZAX")
    ref.play_notation("Ben", "I8", ".I")
    with pytest.raises(RuleViolation, match="not put right: the play put right"):
        ref.correct_tile("A1", "Q")                   # added to Ben's play: not in one line
    with pytest.raises(RuleViolation, match="not put right: the play after it"):
        ref.correct_tile("I8", ".")                   # Ben's I would touch no tile
    with pytest.raises(RuleViolation, match="not put right: the play put right: UNACCEPTABLE"):
        void = new("void")
        void.play_notation("Ann", "8G", "ZAX")
        void.correct_tile("I8", "Q")                  # ZAQ: the void rule refuses it
    assert [e["type"] for e in store.events(ref.game_id)] == ["game_started", "play", "play"]


def test_a_tile_is_added_only_to_the_last_play():
    ref = new()
    ref.play_notation("Ann", "8G", "ZA")
    ref.correct_tile("I8", "x")                       # a blank the camera missed: ZAx
    assert ref.state.board[7, 8].blank and ref.state.turns[-1].score == (10 + 1 + 0) * 2
    ref.submit({"type": "pass", "player": "Ben"})
    with pytest.raises(RuleViolation, match="J8 is empty: a tile can be added only to the last play"):
        ref.correct_tile("J8", "S")
