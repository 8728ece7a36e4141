"""Strip Scrabble, safe-score rules (``strip-safe``): standard Scrabble plus clothing penalties.

The state is a standard ``companion.game.GameState`` (every turn is delegated to
``companion.game.apply``, so placement, scoring, challenges, the bag and the end of the game are the
standard referee's) plus the shared ``companion.ledger.Ledger`` of clothing items, credit tokens,
limits of undress and eliminations, plus the safe score. ``docs/variants/strip-safe.md`` states the
rules as applied, the house rules and the event format.

The rules (the rule text, seed 001):

* Each player declares how many items of clothing they wear; the highest count is the standard and
  every other player gets one credit token per missing item. A player may agree a limit of undress
  (items that stay on).
* The safe score (default 5, agreed between 5 and 10) can be changed during play (``safe_score``).
* A penalty is the surrender of a credit token or the removal of one item (the player chooses;
  token first unless they say otherwise).
* While at least one tile is left in the bag (judged at the turn, before drawing), a penalty is
  due for a turn scoring less than the safe score, a pass, an exchange, a play withdrawn after a
  challenge, and a failed challenge (the challenger). One turn costs at most one penalty.
* At the end, the lowest scorer takes one penalty per full 50 points behind the highest.
* A player with no items left above their limit is eliminated: turns skipped, rack set aside. The
  last player still in wins; if the game ends first, the highest score (among players still in) wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion import game
from companion.errors import RuleViolation
from companion.game import AWAITING_RACKS, ENDED, PLAYING, GameState
from companion.variants import handler_for
from companion.variants.clothing import declared_clothing
from companion.ledger import Entry, Ledger

#: What a penalty takes: a credit token or one item of clothing.
CHOICES = ("token", "item")
#: Event types of this variant beyond the standard game's.
OWN_EVENTS = ("safe_score",)
#: Points behind the highest score per end-of-game penalty.
END_PENALTY_STEP = 50


@dataclass(frozen=True)
class SafeRules:
    """What the table agreed before the first turn, beyond the standard game."""

    safe_score: int = 5
    #: The safe scores the table may agree (the rule text: "usually between 5 and 10").
    safe_range: tuple[int, int] = (5, 10)
    #: What a penalty takes when the player does not say: "token" (token first) or "item".
    penalty_default: str = "token"
    #: Whether an eliminated player can still win on score if the game ends before one player is left.
    eliminated_can_win: bool = False


@dataclass(frozen=True)
class SafeState(game.OnStandardBoard):
    """A standard game plus the ledger of clothing and the safe score."""

    game: GameState
    rules: SafeRules
    ledger: Ledger
    safe_score: int
    #: The scoresheet number of the latest turn (play, pass, exchange): causes in the ledger name it.
    turn_no: int = 0
    #: The play still open to a challenge already cost its player a penalty (scored under the safe score).
    turn_penalized: bool = False
    #: Eliminated players, in the order they went out.
    eliminated: tuple[str, ...] = ()
    #: Who passed in the current run of passes (the game ends when every player still in has passed
    #: twice in a row; a play or an exchange breaks the run, as in the standard game), and the run as it
    #: was before the play still open to a challenge.
    scoreless_run: tuple[str, ...] = ()
    run_before_play: tuple[str, ...] = ()

    # ----- reading -----
    def items(self, name: str) -> int:
        return self.ledger.total(name, "item")

    def tokens(self, name: str) -> int:
        return self.ledger.total(name, "token")

    def limit(self, name: str) -> int:
        return self.ledger.total(name, "limit")

    @property
    def still_in(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.eliminated)

    @property
    def over(self) -> bool:
        return self.game.phase == ENDED or len(self.still_in) <= 1

    @property
    def winners(self) -> tuple[str, ...]:
        """Who wins (only meaningful once the game is over): the last player still in, otherwise
        the highest score among the players still in (everyone's, under ``eliminated_can_win``)."""
        if len(self.still_in) == 1:
            return self.still_in
        pool = self.players if (self.rules.eliminated_can_win or not self.still_in) else self.still_in
        best = max(self.game.scores[self.players.index(p)] for p in pool)
        return tuple(p for p in pool if self.game.scores[self.players.index(p)] == best)

    @property
    def win_reason(self) -> str:
        if len(self.still_in) == 1 and len(self.players) > 1:
            return "the last player still in"
        return "the highest score" + ("" if self.rules.eliminated_can_win or not self.eliminated else " among the players still in")


# ---------------------------------------------------------------------------------------------
# Starting



def _rules_from(event: Mapping[str, Any]) -> SafeRules:
    rng = event.get("safe_score_range", [5, 10])
    if (not isinstance(rng, (list, tuple)) or len(rng) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in rng) or rng[0] > rng[1]):
        raise RuleViolation("safe_score_range must be two whole numbers, lowest first, like [5, 10]")
    rules = SafeRules(safe_range=(rng[0], rng[1]))
    safe = event.get("safe_score", 5)
    _check_safe(safe, rules)
    default = event.get("penalty_default", "token")
    if default not in CHOICES:
        raise RuleViolation(f"penalty_default must be 'token' (token first) or 'item', not {default!r}")
    return replace(rules, safe_score=safe, penalty_default=default,
                   eliminated_can_win=bool(event.get("eliminated_can_win", False)))


def _check_safe(score: Any, rules: SafeRules) -> None:
    lo, hi = rules.safe_range
    if isinstance(score, bool) or not isinstance(score, int) or not lo <= score <= hi:
        raise RuleViolation(f"the safe score must be a whole number from {lo} to {hi} (the agreed range), not {score!r}")


def new_game(event: Mapping[str, Any]) -> SafeState:
    """The state after ``game_started``: a standard game, the clothing declared, tokens issued."""
    g = game.new_game(event)
    rules = _rules_from(event)
    players = g.players
    counts, limit = declared_clothing(event, players, "strip-safe")
    standard = max(counts.values())
    entries = []
    for p in players:
        entries.append(Entry(p, "item", counts[p], f"start: declared {counts[p]} item(s)"))
        if counts[p] < standard:
            entries.append(Entry(p, "token", standard - counts[p],
                                 f"start: {standard - counts[p]} item(s) short of the standard {standard}"))
        if limit[p]:
            entries.append(Entry(p, "limit", limit[p], f"agreed before play: {limit[p]} item(s) stay on"))
    return SafeState(game=g, rules=rules, ledger=Ledger().add(*entries), safe_score=rules.safe_score)


# ---------------------------------------------------------------------------------------------
# Penalties


def _choices(state: SafeState, event: Mapping[str, Any]) -> dict[str, list[str]]:
    """The ``penalty`` field: what each player gives up, in order (the default fills the rest).

    ``"item"`` (every penalty of this event), ``{"Ann": "item"}`` or ``{"Ann": ["item", "token"]}``.
    """
    raw = event.get("penalty")
    if raw is None:
        return {}
    if isinstance(raw, str):
        if raw not in CHOICES:
            raise RuleViolation(f"'penalty' must be 'token' or 'item', not {raw!r}")
        raw = {p: raw for p in state.still_in}
    if not isinstance(raw, Mapping):
        raise RuleViolation("'penalty' must be 'token' or 'item', or name the players: {\"Ann\": \"item\"}")
    out: dict[str, list[str]] = {}
    for name, choice in raw.items():
        state.game.player_index(name)
        if name in state.eliminated:
            raise RuleViolation(f"{name} is eliminated: an eliminated player takes no more penalties")
        seq = [choice] if isinstance(choice, str) else choice
        if not isinstance(seq, list) or not all(c in CHOICES for c in seq):
            raise RuleViolation(f"{name}'s penalty must be 'token' or 'item' (or a list of them), not {choice!r}")
        out[name] = list(seq)
    return out


def _penalise(state: SafeState, name: str, cause: str, choices: dict[str, list[str]]) -> SafeState:
    """One penalty for ``name``: a token or an item as they choose (default first), then elimination
    if no item is left above their limit."""
    if name in state.eliminated:
        return state
    wanted = choices.get(name, [])
    chosen = wanted.pop(0) if wanted else None
    choice = chosen or state.rules.penalty_default
    if choice == "token" and state.tokens(name) > 0:
        entry = Entry(name, "token", -1, cause)
    else:
        note = " (no credit token left)" if chosen == "token" else ""
        entry = Entry(name, "item", -1, cause + note)
    state = replace(state, ledger=state.ledger.add(entry))
    if state.items(name) <= state.limit(name):
        what = "no items left" if state.limit(name) == 0 else f"down to the limit of undress ({state.limit(name)})"
        state = replace(state, ledger=state.ledger.add(Entry(name, "eliminated", 1, f"{what}; {cause}")),
                        eliminated=state.eliminated + (name,))
    return state


def _set_aside(state: SafeState) -> SafeState:
    """Eliminated players are out of the turn order and their racks are set aside."""
    g = state.game
    out = frozenset(g.player_index(p) for p in state.eliminated)
    racks = tuple(0 if i in out else n for i, n in enumerate(g.rack_counts))
    known = tuple(None if i in out else k for i, k in enumerate(g.known_racks))
    g = replace(g, out_of_game=out, rack_counts=racks, known_racks=known)
    if g.phase == PLAYING and g.to_move in out and len(out) < len(g.players):
        nxt, lose, turns = game.next_player(g, g.to_move)
        g = replace(g, to_move=nxt, lose_next_turn=lose, turns=turns)
    # Every player still in passing twice in a row ends the game; the standard rule counts
    # 2 x all players, which eliminated players can no longer make up.
    run = [p for p in state.scoreless_run if p not in state.eliminated]
    if g.phase == PLAYING and g.pending is None and run and len(run) >= 2 * len(state.still_in):
        g = replace(g, phase=AWAITING_RACKS)
    return replace(state, game=g)


def _end_penalties(state: SafeState, choices: dict[str, list[str]]) -> SafeState:
    """The lowest scorer(s) still in take one penalty per full 50 points behind the highest."""
    scores = {p: state.game.scores[state.players.index(p)] for p in state.still_in}
    if len(scores) < 2:
        return state
    high, low = max(scores.values()), min(scores.values())
    top = next(p for p in scores if scores[p] == high)
    count = (high - low) // END_PENALTY_STEP
    for name in [p for p in scores if scores[p] == low]:
        for k in range(1, count + 1):
            cause = f"end of game: {high - low} points behind {top}'s {high}, penalty {k} of {count}"
            state = _penalise(state, name, cause, choices)
    return state


# ---------------------------------------------------------------------------------------------
# Events


def apply(state: SafeState, event: Mapping[str, Any]) -> SafeState:
    """The state after one event; raises RuleViolation (or IllegalPlay) and leaves ``state`` as it was."""
    handler_for(game.HANDLERS, event, "strip-safe", also=tuple(OWN_EVENTS))
    kind = event.get("type")
    if state.over:
        if len(state.still_in) == 1:
            raise RuleViolation(f"the game is over: {state.still_in[0]} is the last player still in")
        raise RuleViolation("the game is over: no more turns")
    if kind == "position":
        # the ledger of clothing and tokens is kept turn by turn from the first: a game joined
        # mid-way would come with penalties no one recorded
        raise RuleViolation("a strip-safe game is refereed from its first turn: it cannot be joined mid-way")
    if kind == "safe_score":
        score = event.get("score")
        _check_safe(score, state.rules)
        if score == state.safe_score:
            raise RuleViolation(f"the safe score is already {score}")
        return replace(state, safe_score=score)
    choices = _choices(state, event)
    if kind == "challenge":
        challenger = event.get("challenger")
        if challenger in state.eliminated:
            raise RuleViolation(f"{challenger} is eliminated and takes no part in challenges")
    if kind == "time_penalty" and event.get("player") in state.eliminated:
        raise RuleViolation(f"{event.get('player')} is eliminated: an eliminated player takes no more penalties")

    before = state.game
    new = replace(state, game=game.apply(before, event))
    g = new.game
    if kind in ("play", "pass", "exchange"):
        n = len(before.turns) + 1  # the turn's line on the scoresheet
        name = new.players[before.player_index(event.get("player"))]
        tiles_left = before.bag > 0  # judged at the turn, before drawing
        new = replace(new, turn_no=n, turn_penalized=False)
        if kind == "play":
            score = g.pending.score
            new = replace(new, run_before_play=new.scoreless_run, scoreless_run=())
            if tiles_left and score < new.safe_score:
                new = _penalise(new, name, f"turn {n}: scored {score}, under the safe score {new.safe_score}", choices)
                new = replace(new, turn_penalized=True)
        else:
            run = new.scoreless_run + (name,) if kind == "pass" else ()
            new = replace(new, scoreless_run=run)
            if tiles_left:
                what = "passed" if kind == "pass" else f"exchanged {event.get('count')} tile(s)"
                new = _penalise(new, name, f"turn {n}: {what} with tiles left in the bag", choices)
    elif kind == "challenge":
        pending = before.pending
        played = new.players[pending.player]
        tiles_left = pending.bag_before > 0  # the challenge belongs to the turn it challenges
        words = " ".join(w.display for w in pending.play.words)
        if event.get("verdict") == "invalid":
            new = replace(new, scoreless_run=state.run_before_play)  # the withdrawn play did not happen
            if tiles_left and not state.turn_penalized:
                new = _penalise(new, played, f"turn {new.turn_no}: {words} challenged and withdrawn, scores 0", choices)
        elif tiles_left:
            new = _penalise(new, str(event.get("challenger")),
                            f"turn {new.turn_no}: failed challenge of {played}'s {words}", choices)
        new = replace(new, turn_penalized=False)
    new = _set_aside(new)
    if kind == "end_racks" and new.game.phase == ENDED:
        new = _set_aside(_end_penalties(new, choices))
    return new


def complete(state: SafeState, event: dict, judge) -> dict:
    """A challenge gets its verdict from the word list (as in the standard game)."""
    if state.over:
        return event
    if event.get("type") == "challenge" and event.get("challenger") in state.eliminated:
        return event  # apply says why it is refused
    return game.complete(state.game, event, judge)


# ---------------------------------------------------------------------------------------------
# Output


def holdings(state: SafeState, name: str) -> str:
    i = state.players.index(name)
    limit = f" (limit {state.limit(name)})" if state.limit(name) else ""
    tokens = state.tokens(name)
    status = "  ELIMINATED" if name in state.eliminated else ""
    return (f"{name}: {state.items(name)} item(s) on{limit}, {tokens} token{'s' if tokens != 1 else ''}, "
            f"score {state.game.scores[i]}{status}")


def report(before: SafeState, after: SafeState, event: Mapping[str, Any]) -> list[str]:
    """The scoresheet lines the event added, the ledger entries it added, and everyone's holdings."""
    lines = game.report(before.game, after.game, event)
    if after.safe_score != before.safe_score:
        lines.append(f"  safe score changed by agreement: {before.safe_score} -> {after.safe_score}")
    for entry in after.ledger.since(len(before.ledger.entries)):
        lines.append(f"  penalty: {entry}" if entry.kind != "eliminated" else f"  {entry}")
    for name in after.players:
        lines.append("     " + holdings(after, name))
    if after.over:
        win = after.winners
        lines.append(f"  the game is over: {' and '.join(win)} won ({after.win_reason})")
    elif after.game.phase == PLAYING:
        g = after.game
        lines.append(f"     next: {g.players[g.to_move]}; {g.bag} tile(s) in the bag; safe score {after.safe_score}")
    else:
        lines.append("     the game has ended: the players show the tiles left on their racks (end_racks)")
    return lines


def standings(state: SafeState) -> list[tuple[str, int]]:
    """Players still in by score (highest first), then the eliminated, the last to go out first;
    once the game is over the winner(s) come first."""
    score = {p: state.game.scores[state.players.index(p)] for p in state.players}
    if state.rules.eliminated_can_win:
        order = sorted(state.players, key=lambda p: -score[p])
    else:
        order = sorted(state.still_in, key=lambda p: -score[p]) + list(reversed(state.eliminated))
    if state.over:
        win = list(state.winners)
        order = win + [p for p in order if p not in win]
    return [(p, score[p]) for p in order]


def is_over(state: SafeState) -> bool:
    return state.over


def format_final(state: SafeState) -> str:
    title = "final standings" if state.over else "standings so far"
    lines = [f"{title} (strip-safe, safe score {state.safe_score}):",
             f"  {'':3} {'player':<12} {'score':>5} {'items':>5} {'tokens':>6}  status"]
    for n, (name, score) in enumerate(standings(state), start=1):
        status = "eliminated" if name in state.eliminated else "in"
        lines.append(f"  {n:>2}. {name:<12} {score:>5} {state.items(name):>5} {state.tokens(name):>6}  {status}")
    if state.over:
        win = state.winners
        lines.append("winner: " + " and ".join(win) + (" (tie)" if len(win) > 1 else "") + f", {state.win_reason}")
    return "\n".join(lines)
