"""Variant referees as plug-ins: a new variant is one module here (and its data), not edits across
the engine.

A variant module provides:

* ``new_game(start_event) -> state``: the state after ``game_started`` (raise RuleViolation if the
  event is not a valid start for this variant);
* ``apply(state, event) -> state``: the state after one event, or RuleViolation naming the rule
  broken (states are immutable, so the old state is untouched);
* ``complete(state, event, judge) -> event`` (optional): fill in what the referee decides before
  the event is saved, such as a challenge's verdict. ``judge(play)`` checks every word a board
  play forms, ``judge(["WORD", ...])`` a plain list of words, against the game's word list, and
  returns a ``companion.referee.Verdict`` (``.acceptable``, ``.valid_words``, ``.invalid_words``,
  ``str()`` the ruling "UNACCEPTABLE: QI and ZAX are valid, XQ is not");
* ``report(before, after, event) -> list[str]``: lines for the table after an event (the ledger);
* ``standings(state) -> list[(name, score)]``, ``is_over(state) -> bool``,
  ``format_final(state) -> str`` (the final standings table).

Variant states that have a board expose ``state.board`` and ``state.config`` (a
``companion.game.GameConfig``), so the referee's ``play_notation`` and ``play_board`` (the camera's
door) work for them too. Building blocks for board variants are public in ``companion.game``:
``apply`` for standard turns, ``parse_tiles``, ``check_supply``, ``next_player``, ``replace_at``,
and ``OnStandardBoard`` (players, board and config of a state that keeps a standard game).

``companion.events.Replay`` picks the module named by the ``variant`` field of ``game_started``
(``standard`` when absent); undo is handled there for every variant alike.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Callable, Mapping

from companion.errors import RuleViolation

#: variant name -> module implementing it
REGISTRY = {
    "standard": "companion.game",
    "strip-safe": "companion.variants.strip_safe",
    "strip-rounds": "companion.variants.strip_rounds",
    "speed": "companion.variants.speed",
    "wordthief": "companion.variants.wordthief",
}


def handler_for(handlers: Mapping[str, Callable], event: Any, game: str, also: tuple[str, ...] = ()) -> Callable | None:
    """The function that applies ``event`` (by its ``type``), or RuleViolation naming the event types
    ``game`` knows. ``also``: further types the caller handles itself (None is returned for them)."""
    if not isinstance(event, Mapping):
        raise RuleViolation(f"an event must be a JSON object, not {type(event).__name__}")
    kind = event.get("type")
    if kind in handlers:
        return handlers[kind]
    if kind in also:
        return None
    known = ", ".join(["game_started", "undo", *handlers, *also])
    raise RuleViolation(f"unknown event type {kind!r} for {game} (known: {known})")


def get_variant(name: str) -> ModuleType:
    if name not in REGISTRY:
        raise RuleViolation(f"unknown game variant {name!r}: choose one of {', '.join(REGISTRY)}")
    try:
        return importlib.import_module(REGISTRY[name])
    except ModuleNotFoundError:
        raise RuleViolation(f"the {name} referee is not installed in this version") from None
