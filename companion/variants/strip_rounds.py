"""Strip Scrabble, simultaneous rounds (``strip-rounds``): everyone plays on the same board at once.

The board, the bag, the racks' sizes, the tile set and the layout are a standard
``companion.game.GameState``; plays are parsed, checked and scored by the engine core
(``companion.game.parse_tiles``, ``companion.play.validate_play``, ``companion.play.score_play``)
exactly as in the standard game, and words are judged by the referee's ``judge``. Clothing, limits
and eliminations are entries in the shared ``companion.ledger.Ledger``. ``docs/variants/strip-rounds.md``
states the rules as applied, the house rules and the event format.

A round is three steps, each an event:

1. ``reveal``: every player still in shows a play on the board as it stands (or passes); each is
   scored as if it alone were placed.
2. ``challenge`` (any number, before the round is settled): the referee checks every word of the
   challenged play; the loser removes one item (as many as there are players in the round if the
   play was a bingo) and their round score becomes minus their own play's score.
3. ``settle``: the highest play goes on the board and its player draws; every player with the lowest
   round score removes an item (nobody when all are equal); every bingo costs each other player an
   item; running totals grow; the winning condition is checked.

Between rounds the players who did not place may ``exchange`` tiles without penalty.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from companion import game
from companion.errors import CompanionError, RuleViolation
from companion.game import GameState
from companion.variants import handler_for
from companion.variants.clothing import declared_clothing
from companion.ledger import Entry, Ledger
from companion.play import Play, score_play, validate_play

#: Winning conditions the table can agree before play.
WIN_MODES = {
    "last_dressed": "the last player with items on (above their limit) wins",
    "points": "the first to reach the target total wins (highest total if several reach it in one round)",
    "bag_empty": "the highest running total when the bag is empty wins",
}
#: How a tie for the highest round score is broken.
TIE_BREAKS = {
    "items": "the tied player with the most items on places; still tied, the earliest in seat order",
    "seat": "the earliest tied player in seat order places",
}
EVENTS = ("reveal", "challenge", "settle", "exchange", "end")


@dataclass(frozen=True)
class RoundsRules:
    """What the table agreed before the first round."""

    win: str = "last_dressed"
    target: int | None = None
    tie_break: str = "items"
    #: Whether a bingo ruled invalid in a challenge still costs the other players an item.
    invalid_bingo_counts: bool = False


@dataclass(frozen=True)
class Revealed:
    """One player's part of a round: their play (None for a pass), its score, and what challenges did."""

    play: Play | None
    score: int
    bingo: bool = False
    #: "valid" or "invalid" once the play has been challenged.
    ruled: str | None = None

    def describe(self) -> str:
        return "passes" if self.play is None else self.play.describe()


@dataclass(frozen=True)
class Round:
    number: int
    #: player index -> their revealed play, for the players taking part (still in at the reveal).
    plays: Mapping[int, Revealed]
    #: player index -> round score so far (changed by lost challenges).
    scores: Mapping[int, int]
    #: player index -> challenges lost this round (as challenger or as challenged).
    lost: Mapping[int, int]
    settled: bool = False
    placed: int | None = None
    drawn: int = 0
    exchanged: frozenset[int] = frozenset()

    @property
    def taking_part(self) -> tuple[int, ...]:
        return tuple(sorted(self.plays))


@dataclass(frozen=True)
class RoundsState(game.OnStandardBoard):
    game: GameState
    rules: RoundsRules
    ledger: Ledger
    totals: tuple[int, ...]
    round: Round | None = None
    #: Eliminated players (names), in the order they went out, with the round it happened in.
    eliminated: tuple[tuple[str, int], ...] = ()
    #: Set when the game is over: the winners and why.
    winners: tuple[str, ...] | None = None
    end_reason: str = ""

    # ----- reading -----
    @property
    def out(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.eliminated)

    @property
    def still_in(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.out)

    def items(self, name: str) -> int:
        return self.ledger.total(name, "item")

    def limit(self, name: str) -> int:
        return self.ledger.total(name, "limit")

    def total(self, name: str) -> int:
        return self.totals[self.players.index(name)]

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def round_no(self) -> int:
        return self.round.number if self.round else 0

    @property
    def round_open(self) -> bool:
        return self.round is not None and not self.round.settled


# ---------------------------------------------------------------------------------------------
# Starting



def _rules_from(event: Mapping[str, Any]) -> RoundsRules:
    win = event.get("win", "last_dressed")
    if win not in WIN_MODES:
        raise RuleViolation(f"unknown winning condition {win!r}: choose one of {', '.join(WIN_MODES)}")
    target = event.get("target")
    if win == "points":
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise RuleViolation("the 'points' winning condition needs 'target': the total to reach, like 150")
    elif target is not None:
        raise RuleViolation("'target' belongs to the 'points' winning condition only")
    tie = event.get("tie_break", "items")
    if tie not in TIE_BREAKS:
        raise RuleViolation(f"unknown tie_break {tie!r}: choose one of {', '.join(TIE_BREAKS)}")
    return RoundsRules(win=win, target=target, tie_break=tie,
                       invalid_bingo_counts=bool(event.get("invalid_bingo_counts", False)))


def new_game(event: Mapping[str, Any]) -> RoundsState:
    """The state after ``game_started``: an empty board, full racks, the clothing declared."""
    g = game.new_game(event)
    rules = _rules_from(event)
    players = g.players
    counts, limit = declared_clothing(event, players, "strip-rounds")
    entries = []
    for p in players:
        n, lim = counts[p], limit[p]
        entries.append(Entry(p, "item", n, f"start: declared {n} item(s)"))
        if lim:
            entries.append(Entry(p, "limit", lim, f"agreed before play: {lim} item(s) stay on"))
    return RoundsState(game=g, rules=rules, ledger=Ledger().add(*entries), totals=(0,) * len(players))


# ---------------------------------------------------------------------------------------------
# Removing items


def _remove(state: RoundsState, name: str, count: int, cause: str) -> RoundsState:
    """``name`` removes ``count`` items (as many as they have above their limit), and is eliminated
    when none is left above it."""
    if name in state.out or count <= 0:
        return state
    can = state.items(name) - state.limit(name)
    n = min(count, can)
    note = f" (only {n} left to remove)" if n < count else ""
    ledger = state.ledger.add(Entry(name, "item", -n, cause + note))
    state = replace(state, ledger=ledger)
    if state.items(name) <= state.limit(name):
        what = "no items left" if state.limit(name) == 0 else f"down to the limit of undress ({state.limit(name)})"
        i = state.players.index(name)
        g = state.game
        g = replace(g, out_of_game=g.out_of_game | {i}, rack_counts=game.replace_at(g.rack_counts, i, 0))
        state = replace(state, game=g, ledger=state.ledger.add(Entry(name, "eliminated", 1, f"{what}; {cause}")),
                        eliminated=state.eliminated + ((name, state.round_no),))
    return state


# ---------------------------------------------------------------------------------------------
# Events


def _reveal(state: RoundsState, event: Mapping[str, Any]) -> RoundsState:
    if state.round_open:
        raise RuleViolation(f"round {state.round_no} is still open: settle it before the next reveal")
    plays = event.get("plays")
    if not isinstance(plays, Mapping):
        raise RuleViolation("a reveal needs 'plays': each player's play, like {\"Ann\": {\"tiles\": {\"H8\": \"C\"}}, \"Ben\": \"pass\"}")
    for name in plays:
        state.game.player_index(name)
        if name in state.out:
            raise RuleViolation(f"{name} is eliminated and plays no more rounds")
    missing = [p for p in state.still_in if p not in plays]
    if missing:
        raise RuleViolation(f"every player still in reveals a play or passes: missing {', '.join(missing)}")
    g, cfg = state.game, state.game.config
    revealed: dict[int, Revealed] = {}
    for name, spec in plays.items():
        i = g.player_index(name)
        if spec == "pass" or (isinstance(spec, Mapping) and spec.get("pass") is True):
            revealed[i] = Revealed(None, 0)
            continue
        tiles = spec.get("tiles") if isinstance(spec, Mapping) else None
        try:
            placements = game.parse_tiles(tiles, g)
            if len(placements) > g.rack_counts[i]:
                raise RuleViolation(f"{name} has only {g.rack_counts[i]} tiles but placed {len(placements)}")
            play = validate_play(g.board, placements, cfg.board_layout)
            game.check_supply(g.board.place(play.placements), cfg.tiles)
        except CompanionError as exc:
            raise RuleViolation(f"{name}'s play: {exc}") from None
        score = score_play(play, cfg.board_layout, cfg.tiles, cfg.rack_size).total
        revealed[i] = Revealed(play, score, bingo=len(placements) >= cfg.rack_size)
    rnd = Round(state.round_no + 1, revealed, {i: r.score for i, r in revealed.items()}, {i: 0 for i in revealed})
    return replace(state, round=rnd)


def _open_round(state: RoundsState, what: str) -> Round:
    if state.round is None:
        raise RuleViolation(f"no plays have been revealed yet: {what} comes after a reveal")
    if state.round.settled:
        raise RuleViolation(f"round {state.round.number} is settled and its play placed: "
                            f"{what} must come before the winning play is placed")
    return state.round


def _challenge(state: RoundsState, event: Mapping[str, Any]) -> RoundsState:
    rnd = _open_round(state, "a challenge")
    g = state.game
    challenger, challenged = g.player_index(event.get("challenger")), g.player_index(event.get("challenged"))
    cname, dname = state.players[challenger], state.players[challenged]
    for i, name in ((challenger, cname), (challenged, dname)):
        if name in state.out:
            raise RuleViolation(f"{name} is eliminated and takes no part in challenges")
        if i not in rnd.plays:
            raise RuleViolation(f"{name} takes no part in round {rnd.number}")
    if challenger == challenged:
        raise RuleViolation("players cannot challenge their own play")
    target = rnd.plays[challenged]
    if target.play is None:
        raise RuleViolation(f"{dname} passed: there is no play to challenge")
    if target.ruled is not None:
        raise RuleViolation(f"{dname}'s play has already been challenged: the ruling ({target.ruled}) stands")
    if rnd.lost[challenger] and len(rnd.plays) > 2:
        raise RuleViolation(f"{cname} lost a challenge this round and may not challenge again until the next round "
                            "(only in a two-player round may a player challenge again)")
    verdict = event.get("verdict")
    if verdict not in ("valid", "invalid"):
        raise RuleViolation("a challenge needs a 'verdict' of 'valid' or 'invalid' (the referee fills it in)")
    loser = challenger if verdict == "valid" else challenged
    lname = state.players[loser]
    # The loser's round score becomes minus their own play's score (it stays negative after a second loss).
    scores = dict(rnd.scores)
    scores[loser] = -rnd.plays[loser].score
    lost = dict(rnd.lost)
    lost[loser] += 1
    plays = dict(rnd.plays)
    plays[challenged] = replace(target, ruled=verdict)
    state = replace(state, round=replace(rnd, plays=plays, scores=scores, lost=lost))
    count = len(rnd.plays) if target.bingo else 1
    words = " ".join(w.display for w in target.play.words)
    outcome = "valid" if verdict == "valid" else "invalid"
    cause = (f"round {rnd.number}: lost the challenge of {dname}'s {'bingo ' if target.bingo else ''}{words} "
             f"({outcome})" if loser == challenger else
             f"round {rnd.number}: {'bingo ' if target.bingo else ''}{words} challenged by {cname}: invalid")
    return _remove(state, lname, count, cause)


def _rank_key(state: RoundsState, rnd: Round, i: int, all_equal: bool):
    """Highest round score first; among equals the most items on (always when every round score is
    equal, the rule text; otherwise under the ``items`` tie-break), then seat order."""
    by_items = all_equal or state.rules.tie_break == "items"
    items = state.items(state.players[i]) if by_items else 0
    return (-rnd.scores[i], -items, i)


def _settle(state: RoundsState, event: Mapping[str, Any]) -> RoundsState:
    rnd = _open_round(state, "settling")
    g = state.game
    n = rnd.number
    part = [i for i in sorted(rnd.plays) if state.players[i] not in state.out]
    scores = [rnd.scores[i] for i in part]
    all_equal = len(set(scores)) <= 1
    # Who places: the highest round score among real plays not ruled invalid and whose players are still in.
    candidates = [i for i in part if rnd.plays[i].play is not None and rnd.plays[i].ruled != "invalid"]
    placer = min(candidates, key=lambda i: _rank_key(state, rnd, i, all_equal)) if candidates else None
    # Every player with the lowest round score removes one item, unless every round score is equal.
    lows = [] if all_equal else [i for i in part if rnd.scores[i] == min(scores)]
    for i in lows:
        state = _remove(state, state.players[i], 1, f"round {n}: lowest round score ({rnd.scores[i]})")
    # Each bingo costs every other player an item, placed or not.
    for b, r in sorted(rnd.plays.items()):
        if r.bingo and (r.ruled != "invalid" or state.rules.invalid_bingo_counts):
            words = " ".join(w.display for w in r.play.words)
            for i in sorted(rnd.plays):
                if i != b:
                    state = _remove(state, state.players[i], 1, f"round {n}: {state.players[b]}'s bingo {words}")
    # The placed play goes on the board and its player draws (unless they are now out: their rack is set aside).
    drawn = 0
    g = state.game
    if placer is not None:
        play = rnd.plays[placer].play
        used = len(play.placements)
        racks = g.rack_counts
        if state.players[placer] not in state.out:
            drawn = min(used, g.bag)
            racks = game.replace_at(racks, placer, racks[placer] - used + drawn)
        g = replace(g, board=g.board.place(play.placements), bag=g.bag - drawn, rack_counts=racks)
    totals = tuple(t + rnd.scores.get(i, 0) for i, t in enumerate(state.totals))
    state = replace(state, game=g, totals=totals, round=replace(rnd, settled=True, placed=placer, drawn=drawn))
    return _check_end(state)


def _check_end(state: RoundsState) -> RoundsState:
    """Apply the agreed winning condition after a round."""
    still = state.still_in
    rules = state.rules
    if len(still) <= 1:
        if still:
            return replace(state, winners=still, end_reason="the last player with items on")
        # Everyone still in went out in the same round: the highest running total among them wins.
        last = [name for name, r in state.eliminated if r == state.round_no]
        return replace(state, winners=_best(state, last), end_reason="the highest total among the last players out")
    if rules.win == "points":
        reached = [p for p in still if state.total(p) >= rules.target]
        if reached:
            return replace(state, winners=_best(state, reached), end_reason=f"first to {rules.target} points")
    if rules.win == "bag_empty" and state.game.bag == 0:
        return replace(state, winners=_best(state, still), end_reason="the highest total when the bag is empty")
    return state


def _best(state: RoundsState, names) -> tuple[str, ...]:
    names = list(names)
    top = max(state.total(p) for p in names)
    return tuple(p for p in names if state.total(p) == top)


def _exchange(state: RoundsState, event: Mapping[str, Any]) -> RoundsState:
    rnd = state.round
    if rnd is None or not rnd.settled:
        raise RuleViolation("exchanges come after the round is settled (the winning play placed), before the next reveal")
    who = state.game.player_index(event.get("player"))
    name = state.players[who]
    if name in state.out:
        raise RuleViolation(f"{name} is eliminated: their rack is set aside")
    if who == rnd.placed:
        raise RuleViolation(f"{name} placed the winning play and drew: only the other players may exchange")
    if who in rnd.exchanged:
        raise RuleViolation(f"{name} has already exchanged this round")
    count = event.get("count")
    g = state.game
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise RuleViolation("an exchange needs 'count': how many tiles go back (1 or more)")
    if count > g.rack_counts[who]:
        raise RuleViolation(f"{name} has only {g.rack_counts[who]} tiles to exchange")
    if count > g.bag:
        raise RuleViolation(f"the bag holds only {g.bag} tiles: {name} can exchange at most that many")
    return replace(state, round=replace(rnd, exchanged=rnd.exchanged | {who}))


def _end(state: RoundsState, event: Mapping[str, Any]) -> RoundsState:
    """The table agrees to stop (between rounds): the winning condition decides on what there is."""
    if state.round_open:
        raise RuleViolation(f"round {state.round_no} is still open: settle it before ending the game")
    still = state.still_in
    if state.rules.win == "last_dressed":
        most = max(state.items(p) - state.limit(p) for p in still)
        dressed = [p for p in still if state.items(p) - state.limit(p) == most]
        return replace(state, winners=_best(state, dressed),
                       end_reason="stopped by agreement: the most items on (then the highest total)")
    return replace(state, winners=_best(state, still), end_reason="stopped by agreement: the highest total")


HANDLERS = {"reveal": _reveal, "challenge": _challenge, "settle": _settle, "exchange": _exchange, "end": _end}


def apply(state: RoundsState, event: Mapping[str, Any]) -> RoundsState:
    """The state after one event; raises RuleViolation and leaves ``state`` as it was."""
    handler = handler_for(HANDLERS, event, "strip-rounds")
    if state.over:
        raise RuleViolation(f"the game is over: {' and '.join(state.winners)} won ({state.end_reason})")
    return handler(state, event)


def complete(state: RoundsState, event: dict, judge) -> dict:
    """A challenge gets its verdict: every word the challenged play forms, against the word list."""
    if event.get("type") != "challenge" or "verdict" in event or state.over:
        return event
    rnd = state.round
    if rnd is None or rnd.settled:
        return event  # apply says why it is refused
    try:
        target = rnd.plays.get(state.game.player_index(event.get("challenged")))
    except RuleViolation:
        return event
    if target is None or target.play is None:
        return event
    verdict = judge(target.play)
    event["verdict"] = "valid" if verdict.acceptable else "invalid"
    event["invalid_words"] = list(verdict.invalid_words)
    event["ruling"] = str(verdict)
    return event


# ---------------------------------------------------------------------------------------------
# Output


def holdings(state: RoundsState, name: str) -> str:
    limit = f" (limit {state.limit(name)})" if state.limit(name) else ""
    status = "  ELIMINATED" if name in state.out else ""
    return f"{name}: {state.items(name)} item(s) on{limit}, total {state.total(name)}{status}"


def _play_line(state: RoundsState, rnd: Round, i: int) -> str:
    r = rnd.plays[i]
    marks = []
    if r.bingo:
        marks.append("BINGO")
    if r.ruled:
        marks.append(f"ruled {r.ruled}")
    extra = f"  [{', '.join(marks)}]" if marks else ""
    return f"  {state.players[i]:<12} {r.describe():<44} {r.score:>5}{extra}"


def report(before: RoundsState, after: RoundsState, event: Mapping[str, Any]) -> list[str]:
    """What the event did: the plays revealed, a challenge's ruling, a round's outcome; the ledger
    entries the event added; everyone's holdings."""
    kind = event.get("type")
    rnd = after.round
    lines: list[str] = []
    if kind == "reveal":
        lines.append(f"round {rnd.number}: plays revealed")
        lines += [_play_line(after, rnd, i) for i in rnd.taking_part]
    elif kind == "challenge":
        loser = event["challenger"] if event.get("verdict") == "valid" else event["challenged"]
        i = after.players.index(loser)
        lines.append(f"round {rnd.number}: {event['challenger']} challenges {event['challenged']}'s play: "
                     f"{event.get('ruling', event.get('verdict'))}")
        lines.append(f"  {loser} loses the challenge: round score {rnd.scores[i]}")
    elif kind == "settle":
        scores = ", ".join(f"{after.players[i]} {rnd.scores[i]}" for i in rnd.taking_part)
        lines.append(f"round {rnd.number} settled: round scores {scores}")
        if rnd.placed is None:
            lines.append("  no play is placed")
        else:
            p = after.players[rnd.placed]
            lines.append(f"  {p} places {rnd.plays[rnd.placed].describe()} and draws {rnd.drawn}; "
                         f"{after.game.bag} tile(s) in the bag")
    elif kind == "exchange":
        lines.append(f"round {rnd.number}: {event['player']} exchanges {event['count']} tile(s), no penalty")
    elif kind == "end":
        lines.append("the table agrees to stop")
    for entry in after.ledger.since(len(before.ledger.entries)):
        lines.append(f"  penalty: {entry}" if entry.kind != "eliminated" else f"  {entry}")
    if kind in ("challenge", "settle", "end") or after.over:
        for name in after.players:
            lines.append("     " + holdings(after, name))
    if after.over:
        lines.append(f"  the game is over: {' and '.join(after.winners)} won ({after.end_reason})")
    return lines


def standings(state: RoundsState) -> list[tuple[str, int]]:
    """(name, running total): the winners first once the game is over; then the players still in
    (by items on in the last-dressed game, then by total), then the eliminated, last out first."""
    def key(p):
        spare = state.items(p) - state.limit(p)
        return (-spare, -state.total(p)) if state.rules.win == "last_dressed" else (-state.total(p),)

    order = sorted(state.still_in, key=key) + list(reversed(state.out))
    if state.over:
        order = list(state.winners) + [p for p in order if p not in state.winners]
    return [(p, state.total(p)) for p in order]


def is_over(state: RoundsState) -> bool:
    return state.over


def format_final(state: RoundsState) -> str:
    title = "final standings" if state.over else "standings so far"
    mode = WIN_MODES[state.rules.win] if state.rules.win != "points" else f"first to {state.rules.target} points"
    lines = [f"{title} (strip-rounds after {state.round_no} round(s); {mode}):",
             f"  {'':3} {'player':<12} {'total':>5} {'items':>5}  status"]
    rounds_out = dict(state.eliminated)
    for n, (name, total) in enumerate(standings(state), start=1):
        status = f"out in round {rounds_out[name]}" if name in rounds_out else "in"
        lines.append(f"  {n:>2}. {name:<12} {total:>5} {state.items(name):>5}  {status}")
    if state.over:
        win = state.winners
        lines.append("winner: " + " and ".join(win) + (" (tie)" if len(win) > 1 else "") + f", {state.end_reason}")
    return "\n".join(lines)
