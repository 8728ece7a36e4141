"""Wordthief (seed 004) as the referee applies it: one test per rule and edge case.

Most tests deal known hands from the default deck (trump KD, so diamonds are trump) with a small word
list. The end of the game and the whole scripted game use an 18-card deck written for the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import RuleViolation
from companion.events import fold, read_jsonl
from companion.ledger import CHIP_VALUES
from companion.lexicon import Lexicon, default_lexicon_path
from companion.referee import Referee
from companion.variants import wordthief as wt

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "companion" / "data" / "demo" / "wordthief.jsonl"

WORDS = ["CAT", "CATS", "COAT", "COATS", "COASTER", "COT", "AS", "ACT", "ACTS", "ONE", "STONE", "TONERS", "CANOE",
         "CORNEAS", "TRACERS", "QUA", "BOX", "OX", "TO", "AT", "SAC", "TACO", "TACOS", "OAT", "OATS", "ACTRESS"]
LEX = Lexicon.from_words(WORDS, "test")


def start(players=("Ann", "Ben"), **options) -> dict:
    return {"type": "game_started", "variant": "wordthief", "players": list(players), **options}


def referee(players=("Ann", "Ben"), lexicon=LEX, **options) -> Referee:
    return Referee([start(players, **options)], lexicon=lexicon)


def dealt(hands=None, trump="KD", first="Ann", players=("Ann", "Ben"), **options) -> Referee:
    """A game with the first player agreed and the cards dealt (``hands``: the cards seen)."""
    ref = referee(players, first=first, **options)
    ref.submit({"type": "deal", "trump": trump, **({"hands": hands} if hands else {})})
    return ref


def points(ref, name):
    return ref.state.ledger.total(name, "points")


def chip_value(chips):
    return sum(CHIP_VALUES[c] * n for c, n in chips.items())


@pytest.fixture
def tiny_deck(tmp_path):
    """18 cards: A C E N O R S T (English values, C = 3) in spades and hearts, and two jokers."""
    path = tmp_path / "deck-tiny.json"
    path.write_text(json.dumps({
        "code": "tiny", "name": "Tiny", "suits": {"S": "spades", "H": "hearts"},
        "values": {"A": 1, "C": 3, "E": 1, "N": 1, "O": 1, "R": 1, "S": 1, "T": 1}, "jokers": 2,
    }), encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------------------------------ the deck
def test_the_default_deck_has_108_cards_four_suits_of_26_and_four_jokers():
    deck = wt.get_deck("en")
    assert deck.size == 108
    assert list(deck.suits.values()) == ["spades", "hearts", "diamonds", "clubs"]
    for suit in deck.suits:
        assert sorted(c.letter for c in deck.cards.values() if c.suit == suit) == list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert [c.id for c in deck.cards.values() if c.joker] == ["JK1", "JK2", "JK3", "JK4"]


def test_card_values_are_the_english_tile_values_and_jokers_are_worth_nothing():
    deck = wt.get_deck("en")
    assert [deck.cards[c].value for c in ("QH", "ZC", "KS", "JD", "XH", "EH", "AS", "JK1")] == [10, 10, 5, 8, 8, 1, 1, 0]
    assert sum(c.value for c in deck.cards.values() if c.suit == "S") == 87


def test_two_players_may_halve_the_deck_two_suits_and_two_jokers():
    ref = referee(half_deck=True)
    deck = ref.state.config.deck
    assert deck.size == 54 and list(deck.suits) == ["S", "H"] and "JK3" not in deck.cards
    ref.submit({"type": "cut", "cards": {"Ann": "BS", "Ben": "CH"}})
    with pytest.raises(RuleViolation, match="'AD' is not a card of this deck"):
        ref.submit({"type": "deal", "trump": "AD"})


def test_the_half_deck_is_only_for_two_players():
    with pytest.raises(RuleViolation, match="halved only for two players"):
        referee(("Ann", "Ben", "Cy"), half_deck=True)


def test_players_can_give_a_deck_file_for_their_edition(tmp_path):
    path = tmp_path / "edition.json"
    path.write_text(json.dumps({"name": "Club edition", "suits": {"S": "spades", "H": "hearts"},
                                "values": {"A": 1, "B": 2, "C": 3, "D": 4, "E": 5, "F": 6, "G": 7, "H": 8},
                                "suit_values": {"H": {"A": 2, "B": 4, "C": 6, "D": 8, "E": 9, "F": 9, "G": 9, "H": 9}},
                                "jokers": 1}), encoding="utf-8")
    deck = referee(deck=str(path)).state.config.deck
    assert deck.size == 17 and deck.cards["CS"].value == 3 and deck.cards["CH"].value == 6


def test_an_unknown_deck_is_refused():
    with pytest.raises(wt.DeckError, match="unknown Wordthief deck 'xx'"):
        referee(deck="xx")


@pytest.mark.parametrize("players", [["Ann"], ["A", "B", "C", "D", "E"]])
def test_wordthief_is_for_two_to_four_players(players):
    with pytest.raises(RuleViolation, match="2 to 4 players"):
        referee(tuple(players))


# ------------------------------------------------------------------------------------------ the cut and the deal
def test_the_letter_nearest_a_goes_first():
    ref = referee()
    ref.submit({"type": "cut", "cards": {"Ann": "QH", "Ben": "CS"}})
    assert ref.state.phase == wt.DEAL and ref.state.first == 1
    ref.submit({"type": "deal", "trump": "KD"})
    assert ref.state.to_move == 1


def test_a_tie_in_the_cut_is_cut_again_by_the_tied_players_only():
    ref = referee(("Ann", "Ben", "Cy"))
    ref.submit({"type": "cut", "cards": {"Ann": "DS", "Ben": "DH", "Cy": "QS"}})
    assert ref.state.phase == wt.CUT and ref.state.cutters == (0, 1)
    with pytest.raises(RuleViolation, match="Ann and Ben cut now \\(the tie is cut again\\)"):
        ref.submit({"type": "cut", "cards": {"Ann": "ES", "Ben": "BH", "Cy": "AS"}})
    ref.submit({"type": "cut", "cards": {"Ann": "ES", "Ben": "BH"}})
    assert ref.state.first == 1


def test_a_joker_in_the_cut_is_refused_and_cut_again():
    with pytest.raises(RuleViolation, match="Ann turned a joker, which has no letter"):
        referee().submit({"type": "cut", "cards": {"Ann": "JK2", "Ben": "CS"}})


def test_two_players_cannot_cut_the_same_card():
    with pytest.raises(RuleViolation, match="the same card"):
        referee().submit({"type": "cut", "cards": {"Ann": "CS", "Ben": "cs"}})


def test_an_agreed_first_player_skips_the_cut():
    ref = referee(first="Ben")
    assert ref.state.phase == wt.DEAL and ref.state.first == 1


def test_nobody_plays_before_the_cut_and_the_deal():
    ref = referee()
    with pytest.raises(RuleViolation, match="each player cuts a card first"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"]})
    with pytest.raises(RuleViolation, match="cut for first player before the deal"):
        ref.submit({"type": "deal", "trump": "KD"})
    ref = referee(first="Ann")
    with pytest.raises(RuleViolation, match="have not been dealt"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"]})


def test_seven_cards_each_and_the_trump_card_is_in_the_deck_drawn_last():
    s = dealt(players=("Ann", "Ben", "Cy", "Dee")).state
    assert s.hands == (7, 7, 7, 7) and s.deck == 108 - 28 and s.trump == "KD" and s.trump_suit == "D"


def test_a_joker_cannot_be_the_trump_card():
    ref = referee(first="Ann")
    with pytest.raises(RuleViolation, match="a joker cannot be the trump card"):
        ref.submit({"type": "deal", "trump": "JK1"})


def test_a_dealt_card_cannot_be_in_two_places():
    ref = referee(first="Ann")
    with pytest.raises(RuleViolation, match="CS cannot be in both Ann's and Ben's hands"):
        ref.submit({"type": "deal", "trump": "KD", "hands": {"Ann": ["CS"], "Ben": ["CS"]}})
    with pytest.raises(RuleViolation, match="KD is the trump card"):
        ref.submit({"type": "deal", "trump": "KD", "hands": {"Ann": ["KD"]}})
    with pytest.raises(RuleViolation, match="dealt 7 cards, not 8"):
        ref.submit({"type": "deal", "trump": "KD", "hands": {"Ann": ["AS", "BS", "CS", "DS", "ES", "FS", "GS", "HS"]}})


# ------------------------------------------------------------------------------------------ making a word
def test_a_word_is_worth_the_sum_of_its_card_values():
    ref = dealt()
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"]})
    assert points(ref, "Ann") == 3 + 1 + 1


def test_a_word_all_of_one_suit_is_wordlocked_and_doubled():
    ref = dealt()
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AS", "TS"]})
    word = ref.state.table[0]
    assert word.locked and word.mult == 2 and points(ref, "Ann") == (3 + 1 + 1) * 2


def test_a_wordlocked_word_in_the_trump_suit_is_tripled():
    ref = dealt(trump="KD")
    ref.submit({"type": "word", "player": "Ann", "cards": ["CD", "AD", "TD"]})
    assert points(ref, "Ann") == (3 + 1 + 1) * 3


def test_a_joker_is_worth_nothing_and_takes_the_suit_it_is_declared_as():
    ref = dealt()
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "JK1=AS", "TS"]})
    assert ref.state.table[0].text == "CAT" and points(ref, "Ann") == (3 + 0 + 1) * 2  # wordlocked in spades


def test_a_joker_must_be_declared_as_a_letter_and_a_suit():
    ref = dealt()
    with pytest.raises(RuleViolation, match="joker JK1 must be declared as a letter and a suit"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "JK1", "TS"]})
    with pytest.raises(RuleViolation, match="declared in suit 'X'"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "JK1=AX", "TS"]})
    with pytest.raises(RuleViolation, match="CS is not a joker"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["CS=CH", "AH", "TS"]})


def test_the_length_bonus_is_five_per_letter_beyond_four_added_after_the_multiplier():
    ref = dealt()
    # COATS all spades: (3+1+1+1+1) x 2 = 14, then +5 for the fifth letter: 19.
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "OS", "AS", "TS", "SS"]})
    assert points(ref, "Ann") == 14 + 5
    # TONERS by Ben, mixed suits: 6, then +10 for six letters.
    ref.submit({"type": "word", "player": "Ben", "cards": ["TH", "OH", "NH", "EH", "RH", "SD"]})
    assert points(ref, "Ben") == 6 + 10


def test_using_every_card_of_a_hand_of_seven_earns_twenty():
    hand = ["CS", "OH", "AH", "SD", "TS", "EH", "RS"]
    ref = dealt({"Ann": hand})
    ref.submit({"type": "word", "player": "Ann", "cards": hand})  # COASTER
    # 3+1+1+1+1+1+1 = 9, +15 for seven letters, +20 for the whole hand.
    assert points(ref, "Ann") == 9 + 15 + 20
    assert ref.state.ledger.entries[2].cause == "turn 1: used all 7 cards in the hand"


def test_a_word_has_two_or_more_letters():
    with pytest.raises(RuleViolation, match="two or more letters"):
        dealt().submit({"type": "word", "player": "Ann", "cards": ["AS"]})


def test_a_word_not_in_the_word_list_is_refused_and_the_player_plays_again():
    ref = dealt()
    before = ref.state
    with pytest.raises(RuleViolation, match="UNACCEPTABLE: TCA is not: the move is refused; Ann plays again"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["TS", "CS", "AH"]})
    assert ref.state is before and len(ref.events) == 2


def test_the_referee_records_its_ruling_in_the_saved_event():
    ref = dealt()
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"]})
    assert ref.events[-1]["ruling"] == "ACCEPTABLE: CAT is valid"


def test_play_passes_to_the_left():
    ref = dealt(players=("Ann", "Ben", "Cy"))
    with pytest.raises(RuleViolation, match="it is Ann's turn, not Cy's"):
        ref.submit({"type": "word", "player": "Cy", "cards": ["CS", "AH", "TS"]})
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"]})
    assert ref.state.to_move == 1


def test_after_a_word_the_player_draws_back_up_to_seven():
    ref = dealt()
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"]})
    assert ref.state.hands == (7, 7) and ref.state.deck == 94 - 3


def test_a_draw_of_the_wrong_number_of_cards_is_refused():
    ref = dealt()
    with pytest.raises(RuleViolation, match="Ann draws 3 card\\(s\\) now, not 2"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"], "drawn": 2})
    with pytest.raises(RuleViolation, match="Ann draws 3 card\\(s\\) now, not 1"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"], "drawn": ["QH"]})


def test_the_cards_drawn_become_known_in_the_hand():
    ref = dealt({"Ann": ["CS", "AH", "TS", "OS", "NS", "ES", "RS"]})
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"], "drawn": ["QH", "UH", "BD"]})
    assert ref.state.known[0] == ("BD", "ES", "NS", "OS", "QH", "RS", "UH")


def test_an_unknown_card_is_refused():
    ref = dealt()
    for bad in ("1H", "AX", "JK5", "A", "QQQ"):
        with pytest.raises(RuleViolation, match="is not a card of this deck"):
            ref.submit({"type": "word", "player": "Ann", "cards": ["CS", bad]})


def test_a_card_not_in_a_known_hand_is_refused():
    ref = dealt({"Ann": ["CS", "AH", "TS", "OS", "NS", "ES", "RS"]})
    with pytest.raises(RuleViolation, match="AS cannot be in Ann's hand: the hand is known to be"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AS", "TS"]})


def test_a_card_in_another_players_hand_is_refused():
    ref = dealt({"Ben": ["CS", "AH", "TS", "OS", "NS", "ES", "RS"]})
    with pytest.raises(RuleViolation, match="CS is in Ben's hand, not in Ann's hand"):
        ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AD", "TD"]})


def test_a_card_on_the_table_cannot_be_played_from_the_hand():
    ref = dealt()
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"]})
    with pytest.raises(RuleViolation, match="CS is on the table in Ann's word CAT, not in Ben's hand: to use a word on the table, steal it"):
        ref.submit({"type": "word", "player": "Ben", "cards": ["CS", "AD", "TD"]})


def test_the_trump_card_cannot_be_played_while_it_lies_under_the_deck():
    with pytest.raises(RuleViolation, match="KD is the trump card, face up under the deck"):
        dealt(trump="KD").submit({"type": "word", "player": "Ann", "cards": ["OS", "KD"]})


def test_a_card_used_twice_is_refused():
    with pytest.raises(RuleViolation, match="card CS is used twice"):
        dealt().submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "CS"]})


def test_a_player_shows_their_hand_and_it_must_fit_what_is_known():
    ref = dealt({"Ann": ["CS", "AH"]})
    ref.submit({"type": "hand", "player": "Ann", "cards": ["CS", "AH", "TS", "OS", "NS", "ES", "RS"]})
    assert len(ref.state.known[0]) == 7
    with pytest.raises(RuleViolation, match="Ben holds 7 card\\(s\\), not 2"):
        ref.submit({"type": "hand", "player": "Ben", "cards": ["QH", "UH"]})
    with pytest.raises(RuleViolation, match="CS cannot be in Ben's hand: it is in Ann's hand"):
        ref.submit({"type": "hand", "player": "Ben", "cards": ["CS", "AD", "TD", "OD", "ND", "ED", "RD"]})


# ------------------------------------------------------------------------------------------ stealing
def _with_cat(trump="KD", **hands):
    """Ann has made CAT [CS AH TS] (mixed suits: 5); Ben is to play."""
    ref = dealt(hands or None, trump=trump)
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"]})
    return ref


def test_a_steal_uses_the_whole_word_plus_a_card_from_the_hand():
    ref = _with_cat()
    ref.submit({"type": "steal", "player": "Ben", "from": "Ann", "word": "CAT", "words": [["CS", "OD", "AH", "TS"]]})
    # COAT 3+1+1+1 = 6 to Ben; Ann loses CAT's 5.
    assert points(ref, "Ben") == 6 and points(ref, "Ann") == 5 - 5
    assert [(w.text, ref.state.players[w.owner]) for w in ref.state.table] == [("COAT", "Ben")]
    assert ref.state.hands[1] == 7 and ref.state.deck == 91 - 1


def test_a_steal_that_leaves_out_a_card_of_the_stolen_word_is_refused():
    ref = _with_cat()
    with pytest.raises(RuleViolation, match="must use every card of the stolen word CAT \\[CS AH TS\\]: CS is missing"):
        ref.submit({"type": "steal", "player": "Ben", "words": [["OD", "AH", "TS"]]})


def test_a_steal_must_add_a_card_from_the_hand():
    ref = _with_cat()
    with pytest.raises(RuleViolation, match="must add at least one card from Ben's hand to CAT"):
        ref.submit({"type": "steal", "player": "Ben", "words": [["AH", "CS", "TS"]]})


def test_a_wordlocked_word_cannot_be_stolen():
    ref = dealt()
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AS", "TS"]})
    with pytest.raises(RuleViolation, match="CAT is wordlocked \\(every card spades\\): a wordlocked word cannot be stolen"):
        ref.submit({"type": "steal", "player": "Ben", "words": [["CS", "OD", "AS", "TS"]]})


def test_nobody_steals_their_own_word():
    ref = _with_cat()
    ref.submit({"type": "word", "player": "Ben", "cards": ["OD", "XD"]})
    with pytest.raises(RuleViolation, match="CAT is Ann's own word: nobody steals, changes or locks their own words"):
        ref.submit({"type": "steal", "player": "Ann", "words": [["CS", "OH", "AH", "TS"]]})


def test_a_steal_may_make_several_words_each_with_a_card_of_the_stolen_word():
    ref = _with_cat()
    # COT [CS OS TS] is all spades: wordlocked, (3+1+1) x 2 = 10; AS [AH SD] = 2. 12 > 5.
    ref.submit({"type": "steal", "player": "Ben", "words": [["CS", "OS", "TS"], ["AH", "SD"]]})
    assert points(ref, "Ben") == 12 and [w.text for w in ref.state.table] == ["COT", "AS"]
    assert ref.state.table[0].locked  # a thief may lock a stolen word


def test_each_new_word_must_hold_a_card_of_the_stolen_word():
    ref = _with_cat()
    with pytest.raises(RuleViolation, match="each new word must hold at least one card of the stolen word CAT: OX holds none"):
        ref.submit({"type": "steal", "player": "Ben", "words": [["CS", "AH", "TS", "SD"], ["OD", "XD"]]})


def test_the_new_words_must_be_worth_more_than_the_stolen_word():
    ref = _with_cat()
    # ACTS with a joker as the S: 1+3+1+0 = 5, not more than CAT's 5.
    with pytest.raises(RuleViolation, match="worth more than the stolen word CAT \\(5\\): ACTS 5 = 5"):
        ref.submit({"type": "steal", "player": "Ben", "words": [["AH", "CS", "TS", "JK1=SD"]]})


def test_the_victim_loses_the_stolen_words_value_but_keeps_its_bonus():
    ref = dealt()
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "OH", "AH", "TS", "SD"]})  # COATS 7 + 5 = 12
    ref.submit({"type": "steal", "player": "Ben", "words": [["CS", "OH", "AH", "SD", "TS", "ED", "RD"]]})  # COASTER
    assert points(ref, "Ann") == 12 - 7
    assert points(ref, "Ben") == 9 + 15  # 3+1+1+1+1+1+1, seven letters; 2 cards from the hand: no +20
    assert ("Ann", -7, "turn 2: COATS stolen by Ben (its bonus points stay)") in [
        (e.player, e.amount, e.cause) for e in ref.state.ledger.entries]


def test_a_steal_takes_one_whole_word_not_cards_of_several():
    ref = _with_cat()
    ref.submit({"type": "word", "player": "Ben", "cards": ["OD", "XD"]})
    ref.submit({"type": "word", "player": "Ann", "cards": ["OH", "NH", "ES"]})
    with pytest.raises(RuleViolation, match="one whole word, not cards of several \\(Ann's CAT and Ann's ONE\\)"):
        ref.submit({"type": "steal", "player": "Ben", "words": [["CS", "AH", "TS", "OH", "NH", "ES", "SS"]]})


def test_a_steal_naming_the_wrong_owner_or_word_is_refused():
    ref = _with_cat()
    with pytest.raises(RuleViolation, match="CAT is Ann's word, not Ben's"):
        ref.submit({"type": "steal", "player": "Ben", "from": "Ben", "words": [["CS", "OD", "AH", "TS"]]})
    with pytest.raises(RuleViolation, match="these cards are Ann's word CAT, not ACT"):
        ref.submit({"type": "steal", "player": "Ben", "word": "act", "words": [["CS", "OD", "AH", "TS"]]})


def test_a_steal_with_no_card_from_the_table_is_refused():
    ref = _with_cat()
    with pytest.raises(RuleViolation, match="none of these cards is on the table"):
        ref.submit({"type": "steal", "player": "Ben", "words": [["OD", "XD"]]})


# ------------------------------------------------------------------------------------------ a player who cannot play
def test_a_player_who_cannot_make_or_steal_loses_five_draws_one_and_misses_the_turn():
    ref = dealt()
    ref.submit({"type": "stuck", "player": "Ann"})
    s = ref.state
    assert points(ref, "Ann") == -5 and s.hands == (8, 7) and s.deck == 93 and s.to_move == 1


def test_drawing_from_an_empty_deck_is_refused(tiny_deck):
    ref = _tiny_dealt(tiny_deck)
    for player in ("Ann", "Ben", "Ann", "Ben"):
        ref.submit({"type": "stuck", "player": player})
    assert ref.state.deck == 0
    with pytest.raises(RuleViolation, match="the deck is empty: Ann cannot draw"):
        ref.submit({"type": "stuck", "player": "Ann", "drawn": ["JK2"]})
    with pytest.raises(RuleViolation, match="the deck is empty: Ann cannot draw"):
        ref.submit({"type": "stuck", "player": "Ann", "drawn": 1})
    ref.submit({"type": "stuck", "player": "Ann"})  # draws nothing
    assert ref.state.hands[0] == 9


# ------------------------------------------------------------------------------------------ the trump card and the end
TINY_ANN = ["AS", "CS", "ES", "NS", "OS", "RS", "SS"]
TINY_BEN = ["TS", "AH", "CH", "EH", "NH", "OH", "RH"]
# Left: JK1, JK2, TH and the trump SH (hearts), drawn last: the deck holds 4.


def _tiny_dealt(tiny_deck):
    ref = referee(deck=tiny_deck, first="Ann")
    ref.submit({"type": "deal", "trump": "SH", "hands": {"Ann": TINY_ANN, "Ben": TINY_BEN}})
    assert ref.state.deck == 4
    return ref


def test_the_trump_card_is_the_last_card_drawn(tiny_deck):
    ref = _tiny_dealt(tiny_deck)
    with pytest.raises(RuleViolation, match="the trump card SH is drawn last, but the deck would still hold 3"):
        ref.submit({"type": "stuck", "player": "Ann", "drawn": ["SH"]})
    ref.submit({"type": "word", "player": "Ann", "cards": ["OS", "NS", "ES"], "drawn": 3})  # ONE; the deck keeps SH
    with pytest.raises(RuleViolation, match="the last card of the deck is the trump card SH: it must be among the cards drawn"):
        ref.submit({"type": "word", "player": "Ben", "cards": ["TS", "OH"], "drawn": ["JK1"]})
    ref.submit({"type": "word", "player": "Ben", "cards": ["TS", "OH"]})  # TO; draws the last card, the trump
    assert ref.state.deck == 0 and "SH" in ref.state.known[1]


def test_the_game_ends_when_the_deck_is_used_up_and_a_player_has_played_every_card(tiny_deck):
    ref = _tiny_dealt(tiny_deck)
    # 1 Ann: ONE (OS NS ES), all spades (not trump): (1+1+1) x 2 = 6; draws 3 back up to seven; the deck keeps the trump SH.
    ref.submit({"type": "word", "player": "Ann", "cards": ["OS", "NS", "ES"], "drawn": ["JK1", "JK2", "TH"]})
    with pytest.raises(RuleViolation, match="game is not over"):
        ref.submit({"type": "end_hands", "hands": {}})
    # 2 Ben: TO (TS OH) = 2; draws the last card, the trump SH.
    ref.submit({"type": "word", "player": "Ben", "cards": ["TS", "OH"]})
    assert ref.state.deck == 0 and ref.state.phase == wt.PLAYING
    # 3 Ann plays her whole hand of seven: ACTRESS, mixed (TH), 1+3+1+1+0+1+0 = 7, +15 for seven
    # letters, +20 for the whole hand: 42. The deck is used up and Ann has no card: the game is over.
    ref.submit({"type": "word", "player": "Ann", "cards": ["AS", "CS", "TH", "RS", "JK1=ES", "SS", "JK2=SS"]})
    assert ref.state.phase == wt.COUNTING and ref.state.went_out == 0
    with pytest.raises(RuleViolation, match="the game is over"):
        ref.submit({"type": "stuck", "player": "Ben"})
    # Ben's hand is known (dealt in view, and the trump): AH CH EH NH RH SH = 1+3+1+1+1+1 = 8.
    ref.submit({"type": "end_hands"})
    # Ann: 6 + 42 = 48. Ben: 2 - 8 = -6.
    assert wt.standings(ref.state) == [("Ann", 48), ("Ben", -6)] and ref.state.winners == ("Ann",)


def test_the_game_ends_when_nobody_can_make_or_steal_a_word(tiny_deck):
    ref = _tiny_dealt(tiny_deck)
    # Ann and Ben draw the four cards of the deck (Ben the trump last), then both cannot play.
    for player, drawn in (("Ann", ["JK1"]), ("Ben", ["JK2"]), ("Ann", ["TH"]), ("Ben", ["SH"])):
        ref.submit({"type": "stuck", "player": player, "drawn": drawn})
    ref.submit({"type": "stuck", "player": "Ann"})
    assert ref.state.phase == wt.PLAYING  # Ben may still play
    ref.submit({"type": "stuck", "player": "Ben"})
    assert ref.state.phase == wt.COUNTING
    with pytest.raises(RuleViolation, match="the game is over: the cards left in the hands are counted now"):
        ref.submit({"type": "stuck", "player": "Ann"})
    # Every hand is known, so the referee fills them in: Ann AS CS ES NS OS RS SS JK1 TH = 1+3+1+1+1+1+1+0+1
    # = 10; Ben TS AH CH EH NH OH RH JK2 SH = 10. Each lost 6 x 5 / 2 = 15 before: both end on -25.
    ref.submit({"type": "end_hands"})
    assert [points(ref, p) for p in ("Ann", "Ben")] == [-25, -25]
    assert wt.is_over(ref.state) and ref.state.winners == ("Ann", "Ben")
    assert "winner: Ann and Ben (shared)" in wt.format_final(ref.state)


def test_the_cards_left_in_hand_must_be_shown_in_full(tiny_deck):
    ref = _tiny_dealt(tiny_deck)
    for player in ("Ann", "Ben", "Ann", "Ben", "Ann", "Ben"):
        ref.submit({"type": "stuck", "player": player})
    assert ref.state.phase == wt.COUNTING
    with pytest.raises(RuleViolation, match="the cards left in the hands of Ann and Ben are needed"):
        ref.submit({"type": "end_hands", "hands": {}})
    ann = TINY_ANN + ["JK1", "TH"]
    with pytest.raises(RuleViolation, match="Ann holds 9 card\\(s\\), not 8"):
        ref.submit({"type": "end_hands", "hands": {"Ann": ann[:-1], "Ben": TINY_BEN + ["JK2", "SH"]}})
    with pytest.raises(RuleViolation, match="card TH is listed in two hands"):
        ref.submit({"type": "end_hands", "hands": {"Ann": ann, "Ben": TINY_BEN + ["TH", "SH"]}})
    with pytest.raises(RuleViolation, match="Ann's hand is known to hold AS"):
        ref.submit({"type": "end_hands", "hands": {"Ann": ["JK2"] + ann[1:], "Ben": TINY_BEN + ["AS", "SH"]}})
    ref.submit({"type": "end_hands", "hands": {"Ann": ann, "Ben": TINY_BEN + ["JK2", "SH"]}})
    assert wt.is_over(ref.state)


# ------------------------------------------------------------------------------------------ chips
def _chip_entries(ref, name):
    return [e for e in ref.state.ledger.entries if e.player == name and e.kind == "chips"]


def test_every_score_change_is_taken_from_the_bank_in_the_fewest_chips():
    ref = dealt(trump="KD")
    ref.submit({"type": "word", "player": "Ann", "cards": ["QD", "UD", "AD"]})  # (10+1+1) x 3 = 36
    (entry,) = _chip_entries(ref, "Ann")
    assert entry.amount == 36 and entry.chips == {"red": 1, "blue": 3, "white": 1}


def test_a_loss_is_paid_back_with_change_when_the_exact_chips_are_missing():
    ref = dealt(trump="KD")
    ref.submit({"type": "word", "player": "Ann", "cards": ["QS", "US", "AS"]})  # (10+1+1) x 2 = 24: 1 red, 4 white
    ref.submit({"type": "stuck", "player": "Ben"})
    ref.submit({"type": "stuck", "player": "Ann"})  # -5: the 4 whites are not enough, so a red goes and 19 comes back
    last = _chip_entries(ref, "Ann")[-1]
    assert last.amount == -5 and last.chips == {"red": -1, "blue": 3}
    assert "with change" in last.cause
    assert ref.state.ledger.chips_of("Ann") == {"red": 0, "blue": 3, "white": 4}


def test_a_score_below_zero_is_owed_and_later_gains_pay_it_off_first():
    ref = dealt()
    ref.submit({"type": "stuck", "player": "Ann"})  # -5 with no chips: owed on the score sheet
    assert _chip_entries(ref, "Ann") == [] and points(ref, "Ann") == -5
    ref.submit({"type": "stuck", "player": "Ben"})
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "OS", "AS", "TS"]})  # COAT x2 = 12: 5 pays the debt
    assert points(ref, "Ann") == 7 and ref.state.ledger.chips_of("Ann") == {"red": 0, "blue": 1, "white": 2}


def test_the_holdings_show_a_debt_below_zero():
    ref = dealt()
    before = ref.state
    ref.submit({"type": "stuck", "player": "Ann"})
    assert "Ann -5 [0 red, 0 blue, 0 white; owes 5]" in wt.report(before, ref.state, ref.events[-1])[-2]


def test_undo_takes_back_a_turn_with_its_points_and_chips():
    ref = _with_cat()
    ref.undo()
    assert ref.state.table == () and points(ref, "Ann") == 0 and ref.state.ledger.chips_of("Ann")["blue"] == 0


def test_unknown_event_type_is_refused():
    with pytest.raises(RuleViolation, match="unknown event type 'play' for Wordthief"):
        dealt().submit({"type": "play", "player": "Ann"})


def test_report_shows_the_move_its_ledger_entries_and_the_holdings():
    ref = dealt()
    before = ref.state
    ref.submit({"type": "word", "player": "Ann", "cards": ["CS", "AH", "TS"]})
    lines = wt.report(before, ref.state, ref.events[-1])
    assert lines == [
        "turn 1: Ann makes CAT [CS AH TS] for 5; draws 3; deck 91",
        "     Ann: +5 points (turn 1: CAT 5)",
        "     Ann: +5 in chips [+1 blue] (turn 1: takes 5 from the bank)",
        "     holdings: Ann 5 [0 red, 1 blue, 0 white]; Ben 0 [0 red, 0 blue, 0 white]",
        "Ben to play",
    ]


# ------------------------------------------------------------------------------------------ a whole game
def test_a_full_scripted_game_with_the_standings_worked_out_by_hand(tiny_deck):
    lex = Lexicon.from_words(["ONE", "STONE", "ACTS", "CANOE", "TONERS", "CORNEAS"], "test")
    ref = Referee([start(deck=tiny_deck)], lexicon=lex)
    events = [
        # Ann cuts the A, Ben the C: Ann plays first.
        {"type": "cut", "cards": {"Ann": "AH", "Ben": "CS"}},
        # Deal: Ann AS CS TS NS OH RH EH; Ben AH CH TH SH JK1 ES OS; trump NH (hearts) under JK2 RS SS.
        {"type": "deal", "trump": "NH", "hands": {"Ann": ["AS", "CS", "TS", "NS", "OH", "RH", "EH"],
                                                   "Ben": ["AH", "CH", "TH", "SH", "JK1", "ES", "OS"]}},
        # 1 Ann: ONE, mixed suits, 1+1+1 = 3. Draws 3 (JK2 RS SS); the deck keeps the trump.
        {"type": "word", "player": "Ann", "cards": ["OH", "NS", "EH"], "drawn": ["JK2", "RS", "SS"]},
        # 2 Ben steals ONE with SH TH: STONE 1+1+1+1+1 = 5 > 3, +5 (five letters) = 10. Ann -3.
        #   Ben draws the last card, the trump NH.
        {"type": "steal", "player": "Ben", "from": "Ann", "word": "ONE", "words": [["SH", "TH", "OH", "NS", "EH"]]},
        # 3 Ann: ACTS all spades, not trump: (1+3+1+1) x 2 = 12. The deck is empty: no draw.
        {"type": "word", "player": "Ann", "cards": ["AS", "CS", "TS", "SS"]},
        # 4 Ben: CANOE (CH AH NH OS ES), mixed: 3+1+1+1+1 = 7, +5 = 12.
        {"type": "word", "player": "Ben", "cards": ["CH", "AH", "NH", "OS", "ES"]},
        # 5 Ann steals STONE with RH: TONERS 6 > 5, +10 (six letters) = 16. Ben -5.
        {"type": "steal", "player": "Ann", "words": [["TH", "OH", "NS", "EH", "RH", "SH"]]},
        # 6 Ben holds only JK1: cannot make or steal a word: -5 (the deck is empty).
        {"type": "stuck", "player": "Ben"},
        # 7 Ann steals CANOE with RS and JK2 as an S: CORNEAS 3+1+1+1+1+1+0 = 8 > 7, +15 (seven letters) = 23.
        #   Ben -7. Ann has played every card and the deck is used up: the game is over.
        {"type": "steal", "player": "Ann", "words": [["CH", "OS", "RS", "NH", "ES", "AH", "JK2=SS"]]},
        # Ben's last card is known (JK1, worth 0): the referee fills in the hands.
        {"type": "end_hands"},
    ]
    for e in events:
        ref.submit(e)
    s = ref.state
    # Ann: 3 - 3 + 12 + 16 + 23 = 51.  Ben: 10 + 12 - 5 - 5 - 7 - 0 = 5.
    assert wt.standings(s) == [("Ann", 51), ("Ben", 5)]
    assert wt.is_over(s) and s.winners == ("Ann",) and s.went_out == 0
    assert not any("used all" in e.cause for e in s.ledger.entries)  # Ann's last hand was two cards, not seven
    assert ref.events[-1]["hands"] == {"Ben": ["JK1"]}
    # Chips, in the fewest at each change: Ann +3 (3 white), -3 (3 white back), +12 (2 blue 2 white),
    # +16 (3 blue 1 white), +23 (1 red 3 white): 1 red, 5 blue, 6 white = 51.
    assert s.ledger.chips_of("Ann") == {"red": 1, "blue": 5, "white": 6}
    # Ben +10 (2 blue), +12 (2 blue 2 white), -5 (1 blue), -5 (1 blue), -7 (1 blue 2 white): 1 blue = 5.
    assert s.ledger.chips_of("Ben") == {"red": 0, "blue": 1, "white": 0}
    assert [w.text for w in s.words_of(0)] == ["ACTS", "TONERS", "CORNEAS"] and s.words_of(1) == ()
    final = wt.format_final(s)
    assert final.splitlines()[2].split() == ["1.", "Ann", "51", "1", "5", "6", "ACTS", "TONERS", "CORNEAS"]
    assert final.splitlines()[-1] == "winner: Ann"
    # The saved log folds to the same game without a word list.
    assert wt.standings(fold(ref.events)) == [("Ann", 51), ("Ben", 5)]


def test_chips_are_always_worth_the_score_or_nothing_below_zero():
    # The bundled demo, judged with a word list of exactly the words it plays.
    events = read_jsonl(DEMO)
    played = [e["cards"] for e in events if e["type"] == "word"] + [w for e in events if e["type"] == "steal" for w in e["words"]]
    words = ["".join(c.split("=")[1][0] if "=" in c else c[0] for c in cards) for cards in played]
    ref = Referee(events[:1], lexicon=Lexicon.from_words(words, "demo"))
    for e in events[1:]:
        s = ref.submit(e)
        for i, p in enumerate(s.players):
            assert chip_value(s.ledger.chips_of(p)) == max(0, s.points(i))
            assert all(n >= 0 for n in s.ledger.chips_of(p).values())


# ------------------------------------------------------------------------------------------ the bundled demo
needs_default_lexicon = pytest.mark.skipif(not default_lexicon_path().exists(), reason="default lexicon not built (run ./tc setup)")


@needs_default_lexicon
def test_the_bundled_demo_runs_through_the_referee_command():
    out = subprocess.run([sys.executable, "-m", "companion", "referee", "--variant", "wordthief", str(DEMO)],
                         capture_output=True, text=True, cwd=REPO, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "REJECTED" not in out.stdout and out.stdout.rstrip().endswith("winner: Ann")
