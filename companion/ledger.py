"""The one ledger of penalties and chips, shared by every variant.

Each entry records one movement (points, a clothing item, a credit token, chips, an elimination)
for one player, with its cause ("turn 7: scored 3, under the safe score 5"). What a player holds
is the sum of their entries: nothing is kept twice, and the app, the command line and the saved
game all read the same entries. A ledger is immutable; ``add`` returns a new one.

Chips: white 1, blue 5, red 20 (the Wordthief text says pink; a red chip is the same thing).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from companion.errors import RuleViolation

#: Chip colours, largest first, and what each is worth.
CHIP_VALUES: dict[str, int] = {"red": 20, "blue": 5, "white": 1}

#: Other names the rule texts use for a chip colour.
CHIP_ALIASES = {"pink": "red"}

#: What an entry can move.
KINDS = ("points", "item", "token", "chips", "eliminated", "limit")


@dataclass(frozen=True)
class Entry:
    """One movement: ``amount`` of ``kind`` for ``player`` (negative = given up), and why.

    For ``chips`` the amount is the value in points and ``chips`` says which chips moved, e.g.
    ``{"red": -1, "white": 2}`` for paying 18 with a red chip and getting two whites back.
    """

    player: str
    kind: str
    amount: int
    cause: str
    event: int | None = None  # position of the event in the game log that caused it
    chips: Mapping[str, int] | None = None

    def __str__(self) -> str:
        what = {"points": "points", "item": "item(s) of clothing", "token": "credit token(s)", "chips": "in chips",
                "eliminated": "eliminated", "limit": "limit of undress"}[self.kind]
        if self.kind == "eliminated":
            return f"{self.player}: eliminated ({self.cause})"
        if self.kind == "chips" and self.chips:
            moved = ", ".join(f"{n:+d} {colour}" for colour, n in self.chips.items() if n)
            return f"{self.player}: {self.amount:+d} {what} [{moved}] ({self.cause})"
        return f"{self.player}: {self.amount:+d} {what} ({self.cause})"


@dataclass(frozen=True)
class Ledger:
    """All entries of one game, in order."""

    entries: tuple[Entry, ...] = ()

    def add(self, *entries: Entry) -> "Ledger":
        checked = []
        for e in entries:
            if e.kind not in KINDS:
                raise ValueError(f"unknown ledger kind {e.kind!r}")
            if e.chips:
                # The Wordthief text calls the 20-point chip pink: the same chip as red.
                chips = {CHIP_ALIASES.get(c, c): n for c, n in e.chips.items()}
                unknown = sorted(set(chips) - set(CHIP_VALUES))
                if unknown:
                    raise ValueError(f"unknown chip colour {', '.join(unknown)}: the chips are {', '.join(CHIP_VALUES)}")
                value = sum(CHIP_VALUES[c] * n for c, n in chips.items())
                if value != e.amount:
                    raise ValueError(f"chips worth {value} recorded as {e.amount} points for {e.player}")
                e = replace(e, chips=chips)
            checked.append(e)
        return Ledger(self.entries + tuple(checked))

    def total(self, player: str, kind: str) -> int:
        return sum(e.amount for e in self.entries if e.player == player and e.kind == kind)

    def chips_of(self, player: str) -> dict[str, int]:
        """How many chips of each colour ``player`` holds."""
        held = {c: 0 for c in CHIP_VALUES}
        for e in self.entries:
            if e.player == player and e.kind == "chips" and e.chips:
                for colour, n in e.chips.items():
                    held[colour] += n
        return held

    def since(self, count: int) -> tuple[Entry, ...]:
        """Entries added after the first ``count`` (what one event changed)."""
        return self.entries[count:]


def fewest_chips(amount: int) -> dict[str, int]:
    """``amount`` points as the fewest chips (greedy is optimal for 20/5/1)."""
    if amount < 0:
        raise ValueError("amount must not be negative")
    out = {}
    for colour, value in CHIP_VALUES.items():
        out[colour], amount = divmod(amount, value)
    return out


def pay_chips(held: Mapping[str, int], amount: int) -> dict[str, int]:
    """The chip movement (negative = handed to the bank, positive = change received) for a player
    holding ``held`` who must return ``amount`` points to the bank.

    Exact chips are used where possible, fewest first-largest; when the player lacks the exact chips
    they hand over the smallest larger chip(s) and the bank makes change in the fewest chips. A
    player who holds less than ``amount`` in all gives everything they have (the rest is owed as
    points on the score sheet, which the ledger keeps as points).
    """
    if amount < 0:
        raise ValueError("amount must not be negative")
    held = {c: max(0, int(held.get(c, 0))) for c in CHIP_VALUES}
    wealth = sum(n * CHIP_VALUES[c] for c, n in held.items())
    if amount >= wealth:
        return {c: -n for c, n in held.items()}
    # Pay exactly from largest to smallest while it fits.
    give = {c: 0 for c in CHIP_VALUES}
    left = amount
    for colour, value in CHIP_VALUES.items():
        n = min(held[colour], left // value)
        give[colour] += n
        left -= n * value
    if left == 0:
        return {c: -n for c, n in give.items()}
    # Not exact: hand over the smallest chip (still held) worth more than what is left, take change.
    for colour, value in reversed(list(CHIP_VALUES.items())):
        if held[colour] - give[colour] > 0 and value > left:
            give[colour] += 1
            change = fewest_chips(value - left)
            return {c: change.get(c, 0) - give[c] for c in CHIP_VALUES}
    # Only smaller chips remain: pay them all and the bank changes the overpayment (cannot happen with 1-point chips).
    raise RuleViolation(f"cannot pay {amount} in chips from {held}")
