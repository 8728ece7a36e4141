"""The event log: a game is a list of JSON records, and its state is the fold of them.

``fold(events)`` replays a log. Undo is itself an event (``{"type": "undo"}``) that takes back the
latest turn-level event still in force, so the log only ever grows: nothing confirmed is erased, and
an undone turn is still in the saved game for anyone who asks.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

from companion.errors import CompanionError, RuleViolation
from companion.variants import get_variant

Event = dict[str, Any]


class Replay:
    """States after each event still in force, so undo is a pop and the current state is the top."""

    def __init__(self, first: Mapping[str, Any]):
        if not isinstance(first, Mapping) or first.get("type") != "game_started":
            raise RuleViolation("a game log must begin with a game_started event")
        self.variant = get_variant(str(first.get("variant", "standard")))
        self.states = [self.variant.new_game(first)]

    @property
    def state(self):
        return self.states[-1]

    def check(self, event: Mapping[str, Any]):
        """The state ``event`` would lead to, without keeping it (raises RuleViolation if illegal)."""
        if not isinstance(event, Mapping):
            raise RuleViolation(f"an event must be a JSON object, not {type(event).__name__}")
        if event.get("type") == "undo":
            if len(self.states) < 2:
                raise RuleViolation("there is nothing to undo")
            return self.states[-2]
        if event.get("type") == "game_started":
            raise RuleViolation("the game has already started")
        return self.variant.apply(self.states[-1], event)

    def push(self, event: Mapping[str, Any]):
        new = self.check(event)
        if event.get("type") == "undo":
            self.states.pop()
        else:
            self.states.append(new)
        return new


def fold(events: Iterable[Mapping[str, Any]]):
    """The state after all ``events`` (the first must be ``game_started``)."""
    it = iter(events)
    try:
        first = next(it)
    except StopIteration:
        raise RuleViolation("the game log is empty") from None
    replay = Replay(first)
    for n, event in enumerate(it, start=2):
        try:
            replay.push(event)
        except CompanionError as exc:
            raise RuleViolation(f"event {n} ({event.get('type') if isinstance(event, Mapping) else event!r}): {exc}") from None
    return replay.state


def read_jsonl(path) -> list[Event]:
    """Events from a JSON-lines file (one event per line; blank lines and ``//`` comments skipped)."""
    from pathlib import Path

    events = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleViolation(f"cannot read the event file {path}: {exc}") from None
    for n, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RuleViolation(f"{path} line {n}: not a JSON event ({exc.msg} at column {exc.colno})") from None
        if not isinstance(event, dict):
            raise RuleViolation(f"{path} line {n}: an event must be a JSON object")
        events.append(event)
    return events
