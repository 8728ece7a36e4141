"""Players: the names given at the start of a game, checked the same way by every variant."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.errors import RuleViolation


def read_players(event: Mapping[str, Any], game: str, fewest: int, most: int) -> tuple[str, ...]:
    """The ``players`` of a ``game_started`` event: ``fewest`` to ``most`` distinct, non-empty names."""
    players = event.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RuleViolation("game_started needs 'players': a list of player names")
    if not fewest <= len(players) <= most:
        raise RuleViolation(f"{game} is for {fewest} to {most} players, not {len(players)}")
    if len(set(players)) != len(players):
        raise RuleViolation("two players have the same name: give each player their own name")
    return tuple(players)


def seat_of(players: Sequence[str], name: Any) -> int:
    """The seat (0, 1, ...) of the player called ``name``, or RuleViolation naming the players."""
    try:
        return list(players).index(name)
    except ValueError:
        raise RuleViolation(f"{name!r} is not a player in this game ({', '.join(players)})") from None
