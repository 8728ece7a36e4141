"""The shared ledger of penalties and chips (companion.ledger): entries, holdings, and chips with the
bank in the fewest chips, making change when a player lacks the exact chips.

Chips: white 1, blue 5, red 20 (the Wordthief text says pink for red).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.ledger import CHIP_VALUES, Entry, Ledger, fewest_chips, pay_chips


def value(chips) -> int:
    return sum(CHIP_VALUES[c] * n for c, n in chips.items())


def count(chips) -> int:
    return sum(abs(n) for n in chips.values())


# ------------------------------------------------------------------------------------------ fewest chips
@pytest.mark.parametrize("amount, chips", [
    (0, {"red": 0, "blue": 0, "white": 0}),
    (1, {"red": 0, "blue": 0, "white": 1}),
    (4, {"red": 0, "blue": 0, "white": 4}),
    (5, {"red": 0, "blue": 1, "white": 0}),
    (19, {"red": 0, "blue": 3, "white": 4}),
    (20, {"red": 1, "blue": 0, "white": 0}),
    (26, {"red": 1, "blue": 1, "white": 1}),
    (99, {"red": 4, "blue": 3, "white": 4}),
])
def test_an_amount_is_taken_in_the_fewest_chips(amount, chips):
    assert fewest_chips(amount) == chips


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=400))
def test_no_other_mix_of_chips_makes_the_amount_with_fewer(amount):
    best = min(r + b + w for r in range(amount // 20 + 1) for b in range((amount - 20 * r) // 5 + 1)
               for w in [amount - 20 * r - 5 * b])
    got = fewest_chips(amount)
    assert value(got) == amount and count(got) == best


def test_a_negative_amount_of_chips_is_refused():
    with pytest.raises(ValueError):
        fewest_chips(-1)
    with pytest.raises(ValueError):
        pay_chips({"red": 1}, -1)


# ------------------------------------------------------------------------------------------ paying back
def test_a_payment_uses_the_exact_chips_largest_first():
    assert pay_chips({"red": 1, "blue": 2, "white": 3}, 27) == {"red": -1, "blue": -1, "white": -2}


def test_exact_chips_are_used_where_possible_even_when_change_would_move_fewer():
    # 4 whites, rather than a blue and a white back: nobody waits for change they do not need.
    assert pay_chips({"blue": 1, "white": 4}, 4) == {"red": 0, "blue": 0, "white": -4}


def test_a_player_without_the_exact_chips_hands_over_a_larger_chip_and_gets_change():
    # 5 from a lone red: the red goes, 15 comes back as three blues.
    assert pay_chips({"red": 1}, 5) == {"red": -1, "blue": 3, "white": 0}
    # 3 from a lone blue: the blue goes, two whites come back.
    assert pay_chips({"blue": 1}, 3) == {"red": 0, "blue": -1, "white": 2}


def test_change_is_made_after_paying_what_the_small_chips_cover():
    # 5 from a red and 4 whites: the whites cover 4, the red pays the last 1 and 19 comes back
    # (3 blue, 4 white): in all the red goes and three blues come back.
    assert pay_chips({"red": 1, "white": 4}, 5) == {"red": -1, "blue": 3, "white": 0}


def test_a_player_who_holds_less_than_the_amount_hands_over_everything():
    assert pay_chips({"red": 1, "blue": 1, "white": 1}, 40) == {"red": -1, "blue": -1, "white": -1}
    assert pay_chips({}, 5) == {"red": 0, "blue": 0, "white": 0}


def test_paying_nothing_moves_no_chip():
    assert count(pay_chips({"red": 2, "blue": 1}, 0)) == 0


holdings = st.fixed_dictionaries({"red": st.integers(0, 4), "blue": st.integers(0, 6), "white": st.integers(0, 9)})


@settings(max_examples=300, deadline=None)
@given(holdings, st.integers(min_value=0, max_value=150))
def test_a_payment_moves_exactly_the_amount_and_never_more_chips_than_held(held, amount):
    moved = pay_chips(held, amount)
    wealth = value(held)
    assert value(moved) == -min(amount, wealth)
    assert all(held[c] + moved[c] >= 0 for c in CHIP_VALUES)
    exact = any(20 * r + 5 * b + w == amount for r, b, w in itertools.product(
        range(held["red"] + 1), range(held["blue"] + 1), range(held["white"] + 1)))
    if exact:
        assert all(n <= 0 for n in moved.values())  # nothing comes back when the exact chips are there


# ------------------------------------------------------------------------------------------ the ledger
def test_adding_to_a_ledger_returns_a_new_ledger_and_leaves_the_old_one():
    empty = Ledger()
    one = empty.add(Entry("Ann", "points", 5, "turn 1: CAT 5"))
    assert empty.entries == () and len(one.entries) == 1


def test_holdings_are_the_sum_of_a_players_entries_by_kind():
    ledger = Ledger().add(
        Entry("Ann", "points", 12, "turn 1"),
        Entry("Ann", "chips", 12, "turn 1", chips={"blue": 2, "white": 2}),
        Entry("Ben", "points", -5, "turn 2"),
        Entry("Ann", "points", -5, "turn 3"),
        Entry("Ann", "chips", -5, "turn 3", chips={"blue": -1}),
    )
    assert ledger.total("Ann", "points") == 7 and ledger.total("Ben", "points") == -5
    assert ledger.total("Ann", "chips") == 7
    assert ledger.chips_of("Ann") == {"red": 0, "blue": 1, "white": 2}
    assert ledger.chips_of("Ben") == {"red": 0, "blue": 0, "white": 0}


def test_since_gives_what_one_event_added():
    ledger = Ledger().add(Entry("Ann", "points", 1, "a"))
    after = ledger.add(Entry("Ben", "points", 2, "b"), Entry("Ben", "points", 3, "c"))
    assert [e.cause for e in after.since(len(ledger.entries))] == ["b", "c"]


def test_an_unknown_kind_of_entry_is_refused():
    with pytest.raises(ValueError, match="unknown ledger kind 'money'"):
        Ledger().add(Entry("Ann", "money", 1, "x"))


def test_entries_read_as_plain_lines_with_their_cause():
    assert str(Entry("Ann", "points", -5, "turn 3: cannot play")) == "Ann: -5 points (turn 3: cannot play)"
    assert str(Entry("Ann", "chips", -5, "turn 3", chips={"red": -1, "blue": 3})) == "Ann: -5 in chips [-1 red, +3 blue] (turn 3)"
    assert str(Entry("Ann", "eliminated", 1, "no items left")) == "Ann: eliminated (no items left)"


def test_a_pink_chip_is_a_red_chip_or_is_refused_when_added():
    entry = Entry("Ann", "chips", 20, "turn 1", chips={"pink": 1})
    try:
        ledger = Ledger().add(entry)
    except ValueError:
        return  # refused at the door, naming the colour: fine too
    assert ledger.chips_of("Ann") == {"red": 1, "blue": 0, "white": 0}
