"""What the two Strip Scrabble variants share: the clothing each player declares at the start."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.errors import RuleViolation


def whole_number(value: Any, what: str) -> int:
    """``value`` as a count (0 or more), or RuleViolation naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleViolation(f"{what} must be a whole number, 0 or more (not {value!r})")
    return value


def declared_clothing(event: Mapping[str, Any], players: Sequence[str], variant: str) -> tuple[dict[str, int], dict[str, int]]:
    """Each player's items of clothing and limit of undress from ``game_started``.

    Every player declares a count (``clothing``); ``limits`` (optional) names the items a player
    keeps on. A player must start with at least one item above their limit.
    """
    clothing = event.get("clothing")
    if not isinstance(clothing, Mapping) or set(clothing) != set(players):
        raise RuleViolation(f"{variant} needs 'clothing': how many items each player wears (accessories do not count), "
                            f"for every player, like {{{', '.join(repr(p) + ': 5' for p in players)}}}")
    limits = event.get("limits", {})
    if not isinstance(limits, Mapping) or not set(limits) <= set(players):
        raise RuleViolation("'limits' must name players: the items each keeps on, like {\"Ann\": 1}")
    counts = {p: whole_number(clothing[p], f"{p}'s count of clothing") for p in players}
    limit = {p: whole_number(limits.get(p, 0), f"{p}'s limit of undress") for p in players}
    for p in players:
        if counts[p] <= limit[p]:
            raise RuleViolation(f"{p} wears {counts[p]} item(s) with a limit of undress of {limit[p]}: "
                                "a player must start with at least one item above their limit")
    return counts, limit
