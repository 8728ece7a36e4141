"""The referee: takes what happens at the table as events, judges them, and saves each one.

A ``Referee`` holds one game: its event log, the state folded from it, the word list the table
agreed on, and (optionally) the saved-games file. ``submit`` is the one door for every event: the
event is checked against the rules first, then written to disk, and only then becomes part of the
game, so a rejected event changes nothing and a confirmed one survives a crash.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from companion.board import Board, parse_square, square_name
from companion.errors import CompanionError, RuleViolation
from companion.events import Replay
from companion.game import tiles_spec
from companion.lexicon import Lexicon, default_lexicon
from companion.notation import placements_from_notation
from companion.play import Play, extract_placements


@dataclass(frozen=True)
class Verdict:
    """The judgement of every word a play formed."""

    valid_words: tuple[str, ...]
    invalid_words: tuple[str, ...]

    @property
    def acceptable(self) -> bool:
        return not self.invalid_words

    def __str__(self) -> str:
        def join(words: tuple[str, ...]) -> str:
            return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

        if not self.valid_words and not self.invalid_words:
            return "no words to judge"
        if self.acceptable:
            verb = "is" if len(self.valid_words) == 1 else "are"
            return f"ACCEPTABLE: {join(self.valid_words)} {verb} valid"
        bad = f"{join(self.invalid_words)} {'is' if len(self.invalid_words) == 1 else 'are'} not"
        if not self.valid_words:
            return f"UNACCEPTABLE: {bad}"
        return f"UNACCEPTABLE: {join(self.valid_words)} {'is' if len(self.valid_words) == 1 else 'are'} valid, {bad}"


def load_lexicon(name: str) -> Lexicon:
    """``default`` for the installed default list, otherwise the path of a word-list file."""
    if name in ("", "default"):
        return default_lexicon()
    return Lexicon.from_file(Path(name).expanduser())


def judge_words(words, lexicon: Lexicon) -> Verdict:
    """Check a list of words (for variants without a board) against the word list."""
    valid = tuple(w.upper() for w in words if w in lexicon)
    invalid = tuple(w.upper() for w in words if w not in lexicon)
    return Verdict(valid, invalid)


def judge_play(play: Play, lexicon: Lexicon) -> Verdict:
    """Check every word of a play (the main word and each cross word) against the word list."""
    valid, invalid = [], []
    for word in play.words:
        unknown = [square_name(s) for s, t in zip(word.squares, word.tiles) if t.letter == "?"]
        if unknown:
            raise RuleViolation(f"the blank on {', '.join(unknown)} has no letter yet: say which letter it stands for before the word can be judged")
        (valid if word.text in lexicon else invalid).append(word.text)
    return Verdict(tuple(valid), tuple(invalid))


class Referee:
    """One game at the table: its log, its state, its word list and where it is saved."""

    def __init__(self, events: Iterable[Mapping[str, Any]], lexicon: Lexicon | None = None, store=None, game_id: int | None = None):
        events = list(events)
        if not events:
            raise RuleViolation("a game needs a game_started event")
        self.replay = Replay(events[0])
        for n, event in enumerate(events[1:], start=2):
            try:
                self.replay.push(event)
            except CompanionError as exc:
                raise RuleViolation(f"saved event {n} cannot be replayed: {exc}") from None
        self.events: list[dict] = [dict(e) for e in events]
        self._lexicon = lexicon
        self.store = store
        self.game_id = game_id

    # ----- starting and resuming -----
    @classmethod
    def start(cls, start_event: Mapping[str, Any], lexicon: Lexicon | None = None, store=None, name: str | None = None) -> "Referee":
        """A new game; when ``store`` is given it is saved at once under ``name``."""
        start_event = {"type": "game_started", **dict(start_event)}
        Replay(start_event)  # validate before anything is written
        game_id = None
        if store is not None:
            players = start_event.get("players", [])
            game_name = name or " v ".join(players)
            game_id = store.create_game(game_name, str(start_event.get("variant", "standard")), start_event)
        return cls([start_event], lexicon, store, game_id)

    @classmethod
    def resume(cls, store, game_id: int, lexicon: Lexicon | None = None) -> "Referee":
        return cls(store.events(game_id), lexicon, store, game_id)

    @property
    def state(self):
        return self.replay.state

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = load_lexicon(self.events[0].get("lexicon", "default"))
        return self._lexicon

    # ----- the one door -----
    def submit(self, event: Mapping[str, Any]):
        """Judge, check, save, then apply one event. Returns the new state; raises and changes
        nothing if the event breaks a rule or cannot be saved."""
        event = self._complete(dict(event))
        self.replay.check(event)  # raises before anything is written
        if self.store is not None and self.game_id is not None:
            self.store.append(self.game_id, event)
        self.events.append(event)
        return self.replay.push(event)

    def _complete(self, event: dict) -> dict:
        """Let the variant fill in what the referee decides (verdicts of challenges, and so on)."""
        complete = getattr(self.replay.variant, "complete", None)
        if complete is None:
            return event
        return complete(self.state, event, self.judge)

    def judge(self, what) -> Verdict:
        """Judge a board play (every word it forms) or a plain list of words against the word list."""
        if isinstance(what, Play):
            return judge_play(what, self.lexicon)
        return judge_words(list(what), self.lexicon)

    # ----- conveniences for the people at the table -----
    def play_notation(self, player: str, position: str, word: str, rack: str | None = None):
        """Submit a play written as ``8D CRAaLED``."""
        placements = placements_from_notation(self.state.board, position, word, self.state.config.tiles)
        event = {"type": "play", "player": player, "tiles": tiles_spec(placements)}
        if rack:
            event["rack"] = rack
        return self.submit(event)

    def position_notation(self, words: list[tuple[str, str]], scores: Mapping[str, int] | None = None,
                          to_move: str | None = None):
        """Submit the board as found (a game joined mid-way) written as its words, each as a play
        is (``8G CAT``, ``G8 COT``: a letter already written by an earlier word may be given or
        ``.``), with the scores so far and whose turn it is."""
        board, placements = self.state.board, []
        for position, word in words:
            new = placements_from_notation(board, position, word, self.state.config.tiles)
            board = board.place(new)
            placements += new
        event: dict[str, Any] = {"type": "position", "tiles": tiles_spec(placements), "scores": dict(scores or {})}
        if to_move is not None:
            event["to_move"] = to_move
        return self.submit(event)

    def in_force(self) -> list[dict]:
        """The events still in force after ``game_started``, oldest first (an undo takes back the
        latest one still in force, and is itself not listed)."""
        stack: list[dict] = []
        for event in self.events[1:]:
            if event.get("type") == "undo":
                stack.pop()
            else:
                stack.append(event)
        return stack

    def correct_tile(self, square: str, letter: str) -> int:
        """Put a tile right in the play that laid it (or the board as found), however many turns
        ago: ``letter`` a letter,
        lower case a blank standing for it, ``?`` a blank not named, ``.`` no tile there -- a letter
        the camera misread, a blank's letter named, glare taken for a tile; a tile added where the
        square is empty (a blank the camera missed) goes to the last play, which must be the last
        event.  The events from that play on are taken back and made again with the tile put
        right, each judged afresh (a later play through the tile scores by it; a challenge is
        ruled again): the log keeps what was taken first, the undos, and what was made again.
        Everything is checked first: where the play put right, or any event after it, breaks a
        rule, it is refused and nothing is written.  Returns the index in ``state.turns`` of the
        first turn scored again."""
        state = self.state
        where = square_name(parse_square(square, state.board.size))
        if not (letter in (".", "?") or (len(letter) == 1 and letter.isalpha())):
            raise RuleViolation(f"{letter!r} is not a letter, ? (a blank) or . (no tile)")
        stack = self.in_force()
        # the play that laid it, or the board as found (a game joined mid-way)
        plays = [i for i, e in enumerate(stack) if e.get("type") in ("play", "position") and where in (e.get("tiles") or {})]
        if plays:
            k = plays[-1]
        elif letter == ".":
            raise RuleViolation(f"no play in force has a tile on {where}")
        elif stack and stack[-1].get("type") == "play" and getattr(state, "pending", None) is not None:
            k = len(stack) - 1                      # a tile the camera missed: the last play's
        else:
            raise RuleViolation(f"{where} is empty: a tile can be added only to the last play, before anything "
                                f"else happens")
        tiles = dict(stack[k]["tiles"])
        if letter == ".":
            del tiles[where]
            if not tiles:
                raise RuleViolation(f"that leaves the play on {where} no tile: undo it instead")
        else:
            tiles[where] = letter
        again = [{**stack[k], "tiles": tiles}] + [_unjudged(e) for e in stack[k + 1:]]
        trial = Replay(self.events[0])              # checked first: a refusal writes nothing
        for event in stack[:k]:
            trial.push(event)
        first_turn = len(trial.state.turns)
        complete = getattr(trial.variant, "complete", None)
        made = []
        for n, event in enumerate(again):
            try:
                event = complete(trial.state, dict(event), self.judge) if complete else dict(event)
                trial.push(event)
            except CompanionError as exc:
                what = "the play put right" if n == 0 else f"the {event.get('type')} after it"
                raise RuleViolation(f"not put right: {what}: {exc}") from None
            made.append(event)
        for _ in range(len(stack) - k):
            self.undo()
        for event in made:
            self.submit(event)
        return first_turn

    def play_board(self, player: str, after: Board):
        """Submit the play that turns the current board into ``after`` (what the camera sees)."""
        placements = extract_placements(self.state.board, after)
        return self.submit({"type": "play", "player": player, "tiles": tiles_spec(placements)})

    def undo(self):
        return self.submit({"type": "undo"})


def _unjudged(event: Mapping[str, Any]) -> dict:
    """``event`` without what the referee decided when it was made (a challenge's verdict and
    ruling), so that it is judged again."""
    return {k: v for k, v in event.items() if k not in ("verdict", "invalid_words", "ruling")}
