"""Speed Scrabble ("Take Two", "Scribble"): no board, one face-down pool, a private crossword each.

The rules as this referee applies them (``docs/variants/speed.md`` has the full text and every house
rule with its default):

* One pool of tiles face down: a whole tile set per ``sets`` (default one set per two players).
  Each player takes 7 and builds a private connected crossword.
* A player who has used every tile calls: **Take Two** (every player takes two) while the pool holds
  at least two per player; **Take One** (one each, while tiles last) when it holds fewer; **Done**
  when the pool is empty, and the round stops at once.
* Each player's final grid is scored: letter values of every word across, then every word down (a
  tile in both counts twice), no premium squares. Letters not in a valid word, and tiles outside
  the largest connected layout, are removed and subtracted. +10 for each word of 7 letters or more;
  +10 for the player who called Done.
* Rounds repeat until a player reaches the target (default 250); the highest total then wins.

The referee never sees the face-down pool: it counts. It knows how many tiles are left and how many
each player has taken this round, and it learns letters only from the grids at the end of a round.

Events (JSON objects; ``game_started`` carries ``"variant": "speed"``)::

    {"type": "call", "player": "Ann"}                       # Take Two / Take One / Done, as the pool says
    {"type": "call", "player": "Ann", "call": "take_two"}   # the call as heard: checked against the pool
    {"type": "call", "player": "Ann", "grid": ["CAT", ...]} # with the caller's grid: checked too
    {"type": "stop"}                                        # pool empty, nobody can finish: stop, no bonus
    {"type": "grid", "player": "Ann", "rows": ["CAT..", "O....", "W...."]}

Grids are rows of text as ``Board.from_rows`` reads them: ``.`` an empty square, an upper-case letter a
tile, a lower-case letter a blank standing for that letter. Rows may differ in length (short rows are
padded with empty squares). The referee fills in ``invalid_words`` and ``ruling`` when a grid is
submitted, so the saved log replays the same way whatever the word list later becomes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from companion.board import Board, Tile
from companion.errors import CompanionError, RuleViolation
from companion.players import read_players, seat_of
from companion.variants import handler_for
from companion.ledger import Entry, Ledger
from companion.tiles import BLANK, TileSet, get_tileset

Square = tuple[int, int]

PLAYING, SCORING, ENDED = "playing", "scoring", "ended"
TAKE_TWO, TAKE_ONE, DONE = "take_two", "take_one", "done"
CALL_NAMES = {TAKE_TWO: "TAKE TWO", TAKE_ONE: "TAKE ONE", DONE: "DONE"}

START_TILES = 7
LONG_WORD = 7          # a word of this many letters or more earns LONG_WORD_BONUS
LONG_WORD_BONUS = 10
DONE_BONUS = 10
MIN_PLAYERS, MAX_PLAYERS = 2, 8

#: House rules, each with its choices; the first choice is the default.
HOUSE_RULES: dict[str, dict[str, str]] = {
    "take_one_order": {
        "caller_first": "when the pool holds fewer tiles than players, the last tiles go one each in seat order starting with the caller",
        "left_of_caller": "when the pool holds fewer tiles than players, the last tiles go one each in seat order starting with the player after the caller",
    },
    "invalid_crossing": {
        "keep": "a tile of an invalid word stays when a valid crossing word uses it; only tiles in no valid word are removed",
        "remove": "every tile of an invalid word is removed, and a valid word that loses a tile that way is not scored either",
    },
    "done_bonus": {
        "always": "the player who called Done gets +10",
        "clean": "the player who called Done gets +10 only if nothing is removed from their grid",
    },
    "tie": {
        "play_on": "if the highest totals at or over the target are equal, another round is played",
        "share": "if the highest totals at or over the target are equal, those players share the win",
    },
}


# ---------------------------------------------------------------------------------------------
# Configuration and state


@dataclass(frozen=True)
class SpeedConfig:
    players: tuple[str, ...]
    tileset: str = "en"
    sets: int = 1
    target: int = 250
    lexicon: str = "default"
    take_one_order: str = "caller_first"
    invalid_crossing: str = "keep"
    done_bonus: str = "always"
    tie: str = "play_on"

    @classmethod
    def from_event(cls, event: Mapping[str, Any]) -> "SpeedConfig":
        players = list(read_players(event, "Speed Scrabble", MIN_PLAYERS, MAX_PLAYERS))
        sets = event.get("sets", (len(players) + 1) // 2)
        if not isinstance(sets, int) or isinstance(sets, bool) or sets < 1:
            raise RuleViolation(f"'sets' is how many tile sets make the pool: a whole number, 1 or more (not {sets!r})")
        target = event.get("target", 250)
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise RuleViolation(f"'target' is the score that ends the game: a whole number, 1 or more (not {target!r})")
        rules = {}
        for name, choices in HOUSE_RULES.items():
            value = event.get(name, next(iter(choices)))
            if value not in choices:
                raise RuleViolation(f"unknown {name} rule {value!r}: choose one of {', '.join(choices)}")
            rules[name] = value
        cfg = cls(players=tuple(players), tileset=str(event.get("tileset", "en")), sets=sets, target=target,
                  lexicon=str(event.get("lexicon", "default")), **rules)
        tiles = cfg.tiles  # fails with the tile set's own message if unknown
        if cfg.pool_size < START_TILES * len(players):
            raise RuleViolation(f"{sets} {tiles.name} set(s) hold {cfg.pool_size} tiles, too few for {len(players)} players to take {START_TILES} each")
        return cfg

    @property
    def tiles(self) -> TileSet:
        return get_tileset(self.tileset)

    @property
    def pool_size(self) -> int:
        return self.sets * self.tiles.total_tiles


@dataclass(frozen=True)
class GridResult:
    """One player's scored grid for one round."""

    player: int
    rows: tuple[str, ...]
    tiles: int
    scored_words: tuple[tuple[str, int], ...]   # (word, letter points) across first, then down
    invalid_words: tuple[str, ...]
    removed: tuple[str, ...]                    # letters removed (blanks in lower case)
    removed_points: int
    long_words: tuple[str, ...]
    done_bonus: int

    @property
    def word_points(self) -> int:
        return sum(p for _, p in self.scored_words)

    @property
    def total(self) -> int:
        return self.word_points + LONG_WORD_BONUS * len(self.long_words) + self.done_bonus - self.removed_points


@dataclass(frozen=True)
class SpeedState:
    config: SpeedConfig
    round: int
    pool: int
    taken: tuple[int, ...]                          # tiles each player has taken this round
    phase: str = PLAYING
    done_by: int | None = None                      # who called Done this round (None: stopped)
    grids: tuple[GridResult | None, ...] = ()       # this round's grids, by seat
    rounds: tuple[tuple[GridResult, ...], ...] = () # finished rounds
    ledger: Ledger = Ledger()
    notes: tuple[str, ...] = ()                     # what the last event did, for the table
    winners: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    def player_index(self, name: Any) -> int:
        return seat_of(self.config.players, name)

    def total(self, who: int) -> int:
        return self.ledger.total(self.players[who], "points")

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.total(i) for i in range(len(self.players)))


def _fresh_round(state: SpeedState, number: int) -> SpeedState:
    n = len(state.players)
    return replace(state, round=number, pool=state.config.pool_size - START_TILES * n, taken=(START_TILES,) * n,
                   phase=PLAYING, done_by=None, grids=(None,) * n)


def new_game(event: Mapping[str, Any]) -> SpeedState:
    if event.get("type") != "game_started":
        raise RuleViolation("a game must begin with a game_started event")
    cfg = SpeedConfig.from_event(event)
    n = len(cfg.players)
    state = _fresh_round(SpeedState(config=cfg, round=1, pool=0, taken=(0,) * n), 1)
    return replace(state, notes=(f"round 1: everyone takes {START_TILES}; the pool holds {state.pool} ({cfg.sets} set(s) of {cfg.tiles.total_tiles}), target {cfg.target}",))


# ---------------------------------------------------------------------------------------------
# Grids


def parse_grid(rows: Any) -> Board:
    """A player's grid from rows of text (a list, or one string with rows split by '/' or new lines).
    Short rows are padded with empty squares, and the grid is made square."""
    if isinstance(rows, str):
        rows = [r for r in rows.replace("/", "\n").split()]
    if not isinstance(rows, (list, tuple)) or not rows or not all(isinstance(r, str) for r in rows):
        raise RuleViolation("a grid needs 'rows': the grid as rows of text, '.' for an empty square, like [\"CAT\", \"O..\", \"W..\"]")
    rows = [r.strip() for r in rows]
    size = max(len(rows), max(len(r) for r in rows), 1)
    padded = [r.ljust(size, ".") for r in rows] + ["." * size] * (size - len(rows))
    try:
        return Board.from_rows(padded)
    except CompanionError as exc:
        raise RuleViolation(f"the grid cannot be read: {exc}") from None


@dataclass(frozen=True)
class Run:
    """A word as laid out: two or more tiles in a line, across or down."""

    squares: tuple[Square, ...]
    text: str
    direction: str


def grid_runs(board: Board) -> list[Run]:
    """Every word on the grid: runs of two or more tiles, across (row by row) and then down."""
    runs = []
    for direction, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
        n = board.size
        for a in range(n):
            current: list[Square] = []
            for b in range(n + 1):
                sq = (a, b) if direction == "across" else (b, a)
                if b < n and board[sq] is not None:
                    current.append(sq)
                    continue
                if len(current) >= 2:
                    text = "".join(board[s].letter for s in current)
                    runs.append(Run(tuple(current), text, direction))
                current = []
    return runs


def grid_words(board: Board) -> list[str]:
    """The words to judge: every run's text (unknown blanks refused)."""
    unknown = [s for s, t in board.tiles() if t.letter == BLANK]
    if unknown:
        where = ", ".join(f"row {r + 1} column {c + 1}" for r, c in unknown)
        raise RuleViolation(f"the blank at {where} has no letter: write it as the lower-case letter it stands for")
    return [r.text for r in grid_runs(board)]


def _tile_value(tile: Tile, tiles: TileSet) -> int:
    return 0 if tile.blank else tiles.value(tile.letter)


def _check_letters(board: Board, tiles: TileSet) -> None:
    for _, t in board.tiles():
        if t.letter == BLANK:
            raise RuleViolation("a blank in the grid has no letter: write it as the lower-case letter it stands for")
        try:
            tiles.normalize(t.letter)
        except CompanionError as exc:
            raise RuleViolation(str(exc)) from None


def score_grid(board: Board, invalid: set[str], tiles: TileSet, crossing_rule: str = "keep") -> dict:
    """Score a grid given which words are invalid. Returns the parts of the score (without Done).

    A tile stays if a scored word uses it. Which words are scored: the valid ones ("keep"), or the
    valid ones with no tile in an invalid word ("remove"). Then only the largest connected layout
    counts (most tiles; equal sizes: the higher-scoring, then the one first in reading order).
    """
    runs = grid_runs(board)
    live = [r for r in runs if r.text not in invalid]
    if crossing_rule == "remove":
        bad = {s for r in runs if r.text in invalid for s in r.squares}
        live = [r for r in live if not bad.intersection(r.squares)]
    # Connected layouts: tiles joined by scored words (union-find).
    parent: dict[Square, Square] = {}

    def find(s: Square) -> Square:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    for r in live:
        for s in r.squares:
            parent.setdefault(s, s)
        for a, b in zip(r.squares, r.squares[1:]):
            parent[find(a)] = find(b)
    groups: dict[Square, list[Run]] = {}
    for r in live:
        groups.setdefault(find(r.squares[0]), []).append(r)

    def points(run: Run) -> int:
        return sum(_tile_value(board[s], tiles) for s in run.squares)

    def rank(item):
        root, words = item
        squares = {s for w in words for s in w.squares}
        return (-len(squares), -sum(points(w) for w in words), min(squares))

    best = sorted(groups.items(), key=rank)[0][1] if groups else []
    kept = {s for w in best for s in w.squares}
    scored = [w for w in live if w in best]  # keeps the order: across first, then down
    removed = [(s, t) for s, t in board.tiles() if s not in kept]
    return {
        "scored_words": tuple((w.text, points(w)) for w in scored),
        "invalid_words": tuple(sorted({r.text for r in runs if r.text in invalid})),
        "removed": tuple(str(t) for _, t in removed),
        "removed_points": sum(_tile_value(t, tiles) for _, t in removed),
        "long_words": tuple(w.text for w in scored if len(w.text) >= LONG_WORD),
    }


def _supply_check(state: SpeedState, board: Board, who: int) -> None:
    """All the grids of a round together cannot show more tiles of a letter than the pool had."""
    tiles = state.config.tiles
    used: Counter = Counter()
    for g in state.grids:
        if g is not None and g.player != who:
            for row in g.rows:
                for ch in row:
                    if ch != ".":
                        used[BLANK if ch.islower() else ch] += 1
    for _, t in board.tiles():
        used[BLANK if t.blank else t.letter] += 1
    sets = state.config.sets
    for letter, n in sorted(used.items()):
        have = sets * (tiles.blanks if letter == BLANK else tiles.counts.get(letter, 0))
        if n > have:
            what = "blanks" if letter == BLANK else f"{letter} tiles"
            raise RuleViolation(f"the grids of this round show {n} {what}, but {sets} {tiles.name} set(s) have only {have}")


def _invalid_from(event: Mapping[str, Any]) -> set[str]:
    invalid = event.get("invalid_words")
    if not isinstance(invalid, list):
        raise RuleViolation("a grid must be judged by the referee before it is scored ('invalid_words' is missing): submit it through the referee")
    return {str(w).upper() for w in invalid}


def _tile_count_check(board: Board, name: str, should: int, what: str = "grid") -> None:
    have = board.tile_count()
    if have != should:
        diff = should - have
        more = f"{diff} tile(s) missing" if diff > 0 else f"{-diff} tile(s) too many"
        raise RuleViolation(f"{name} has taken {should} tiles this round but the {what} shows {have}: {more}")


# ---------------------------------------------------------------------------------------------
# Events


def _call_kind(state: SpeedState) -> str:
    n = len(state.players)
    if state.pool >= 2 * n:
        return TAKE_TWO
    if state.pool > 0:
        return TAKE_ONE
    return DONE


def _normal_call(value: Any) -> str:
    text = str(value).strip().lower().replace("-", "_").replace(" ", "_").replace("!", "")
    return {"i'm_out": DONE, "im_out": DONE, "out": DONE, "take2": TAKE_TWO, "take1": TAKE_ONE}.get(text, text)


def apply_call(state: SpeedState, event: Mapping[str, Any]) -> SpeedState:
    who = state.player_index(event.get("player"))
    name = state.players[who]
    if state.phase == ENDED:
        raise RuleViolation("the game is over: no more calls")
    if state.phase == SCORING:
        raise RuleViolation("the round has stopped: no more calls; every player shows their grid")
    kind = _call_kind(state)
    n = len(state.players)
    heard = event.get("call")
    if heard is not None and _normal_call(heard) != kind:
        why = {TAKE_TWO: f"the pool holds {state.pool} tiles, at least two for each of {n} players",
               TAKE_ONE: f"the pool holds {state.pool} tiles, fewer than two for each of {n} players",
               DONE: "the pool is empty"}[kind]
        raise RuleViolation(f"{name} called {heard!r}, but {why}: the call is {CALL_NAMES[kind]}")
    if "grid" in event:
        board = parse_grid(event["grid"])
        _check_letters(board, state.config.tiles)
        _tile_count_check(board, name, state.taken[who])
        parts = score_grid(board, _invalid_from(event), state.config.tiles, state.config.invalid_crossing)
        if parts["removed"] or parts["invalid_words"]:
            what = []
            if parts["invalid_words"]:
                what.append("not valid: " + ", ".join(parts["invalid_words"]))
            if parts["removed"]:
                what.append("not in valid connected words: " + " ".join(parts["removed"]))
            raise RuleViolation(f"{name}'s call is refused: a player calls only when every tile is used in valid connected words ({'; '.join(what)})")
    if kind == TAKE_TWO:
        taken = tuple(t + 2 for t in state.taken)
        pool = state.pool - 2 * n
        note = f"round {state.round}: {name} calls TAKE TWO: everyone takes 2 (each has taken {taken[who]}; the pool holds {pool})"
        return replace(state, taken=taken, pool=pool, notes=(note,))
    if kind == TAKE_ONE:
        start = who if state.config.take_one_order == "caller_first" else (who + 1) % n
        order = [(start + k) % n for k in range(n)]
        takers = order[:state.pool]
        taken = tuple(t + (i in takers) for i, t in enumerate(state.taken))
        pool = state.pool - len(takers)
        if len(takers) == n:
            note = f"round {state.round}: {name} calls TAKE ONE: everyone takes 1 (the pool holds {pool})"
        else:
            missed = [state.players[i] for i in order[len(takers):]]
            note = (f"round {state.round}: {name} calls TAKE ONE: {_join([state.players[i] for i in takers])} "
                    f"take{'s' if len(takers) == 1 else ''} 1 "
                    f"and the pool is empty; {_join(missed)} get none")
        return replace(state, taken=taken, pool=pool, notes=(note,))
    note = f"round {state.round}: {name} calls DONE: the round stops; nobody changes their grid; every player shows their grid"
    return replace(state, phase=SCORING, done_by=who, notes=(note,))


def apply_stop(state: SpeedState, event: Mapping[str, Any]) -> SpeedState:
    if state.phase != PLAYING:
        raise RuleViolation("the round is not being played: nothing to stop")
    if state.pool:
        raise RuleViolation(f"the pool still holds {state.pool} tiles: a round stops only when the pool is empty")
    return replace(state, phase=SCORING, done_by=None,
                   notes=(f"round {state.round}: the table stops the round (nobody can finish; no Done bonus); every player shows their grid",))


def apply_grid(state: SpeedState, event: Mapping[str, Any]) -> SpeedState:
    who = state.player_index(event.get("player"))
    name = state.players[who]
    if state.phase == ENDED:
        raise RuleViolation("the game is over")
    if state.phase != SCORING:
        raise RuleViolation(f"grids are scored when the round has stopped (a Done call); the pool still holds {state.pool} tiles" if state.pool
                            else "grids are scored when the round has stopped: the next player to finish calls Done")
    if state.grids[who] is not None:
        raise RuleViolation(f"{name}'s grid for round {state.round} is already scored (undo it to change it)")
    board = parse_grid(event.get("rows"))
    tiles = state.config.tiles
    _check_letters(board, tiles)
    _tile_count_check(board, name, state.taken[who])
    _supply_check(state, board, who)
    parts = score_grid(board, _invalid_from(event), tiles, state.config.invalid_crossing)
    done = 0
    if state.done_by == who and (state.config.done_bonus == "always" or not parts["removed"]):
        done = DONE_BONUS
    result = GridResult(player=who, rows=tuple(board.to_rows()), tiles=board.tile_count(), done_bonus=done, **parts)
    r = state.round
    entries = [Entry(name, "points", result.word_points, f"round {r}: {len(result.scored_words)} word(s) across and down")]
    entries += [Entry(name, "points", LONG_WORD_BONUS, f"round {r}: {w}, {len(w)} letters") for w in result.long_words]
    if done:
        entries.append(Entry(name, "points", done, f"round {r}: called Done"))
    if result.removed:
        entries.append(Entry(name, "points", -result.removed_points, f"round {r}: tiles removed {' '.join(result.removed)}"))
    grids = tuple(result if i == who else g for i, g in enumerate(state.grids))
    new = replace(state, grids=grids, ledger=state.ledger.add(*entries))
    notes = [_describe_grid(new, result)]
    if all(g is not None for g in grids):
        new, more = _end_round(new)
        notes += more
    return replace(new, notes=tuple(notes))


def _describe_grid(state: SpeedState, g: GridResult) -> str:
    name = state.players[g.player]
    parts = [f"round {state.round}: {name}'s grid ({g.tiles} tiles): " +
             (", ".join(f"{w} {p}" for w, p in g.scored_words) or "no word scores")]
    if g.invalid_words:
        parts.append("not valid: " + ", ".join(g.invalid_words))
    if g.removed:
        parts.append(f"removed {' '.join(g.removed)} (-{g.removed_points})")
    if g.long_words:
        parts.append(f"long words {', '.join(g.long_words)} (+{LONG_WORD_BONUS * len(g.long_words)})")
    if g.done_bonus:
        parts.append(f"Done +{g.done_bonus}")
    return "; ".join(parts) + f"; round score {g.total}"


def _end_round(state: SpeedState) -> tuple[SpeedState, list[str]]:
    results = tuple(state.grids)  # type: ignore[arg-type]
    totals = state.totals
    line = f"round {state.round} scored: " + ", ".join(f"{p} {g.total:+d} (total {t})" for p, g, t in zip(state.players, results, totals))
    state = replace(state, rounds=state.rounds + (results,))
    target = state.config.target
    if max(totals) >= target:
        best = max(totals)
        top = [p for p, t in zip(state.players, totals) if t == best]
        if len(top) == 1 or state.config.tie == "share":
            state = replace(state, phase=ENDED, winners=tuple(top), grids=())
            win = f"{top[0]} wins" if len(top) == 1 else f"{_join(top)} share the win"
            return state, [line, f"{_join([p for p, t in zip(state.players, totals) if t >= target])} reached {target}: {win} with {best}"]
        line2 = f"{_join(top)} are level on {best} at or over the target {target}: another round is played (house rule tie=play_on)"
    else:
        line2 = f"nobody has reached {target} yet"
    state = _fresh_round(state, state.round + 1)
    return state, [line, line2, f"round {state.round}: everyone takes {START_TILES}; the pool holds {state.pool}"]


def _join(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


HANDLERS = {"call": apply_call, "grid": apply_grid, "stop": apply_stop}


def apply(state: SpeedState, event: Mapping[str, Any]) -> SpeedState:
    handler = handler_for(HANDLERS, event, "Speed Scrabble")
    return handler(state, event)


# ---------------------------------------------------------------------------------------------
# The plug-in interface


def complete(state: SpeedState, event: dict, judge) -> dict:
    """Judge every word of a grid (on a ``grid`` event, or a call that shows one) against the word
    list and record the ruling in the event."""
    kind = event.get("type")
    rows = event.get("rows") if kind == "grid" else event.get("grid") if kind == "call" else None
    if rows is None:
        return event
    words = grid_words(parse_grid(rows))
    verdict = judge(sorted(set(words))) if words else None
    event["invalid_words"] = sorted(set(verdict.invalid_words)) if verdict else []
    if verdict is not None:
        event["ruling"] = str(verdict)
    return event


def report(before: SpeedState, after: SpeedState, event: Mapping[str, Any]) -> list[str]:
    undo = event.get("type") == "undo"
    notes = ["undo: the last event is taken back"] if undo else list(after.notes)
    lines = notes[:1]
    if not undo and event.get("ruling") and event.get("invalid_words"):
        lines.append(f"     {event['ruling']}")
    for e in after.ledger.since(len(before.ledger.entries)):
        lines.append(f"     {e}")
    if undo or len(after.ledger.entries) != len(before.ledger.entries):
        lines.append("     totals: " + ", ".join(f"{p} {t}" for p, t in zip(after.players, after.totals)))
    return lines + notes[1:]


def standings(state: SpeedState) -> list[tuple[str, int]]:
    return sorted(zip(state.players, state.totals), key=lambda pt: -pt[1])


def is_over(state: SpeedState) -> bool:
    return state.phase == ENDED


def format_final(state: SpeedState) -> str:
    title = "final standings" if state.phase == ENDED else "standings so far"
    rounds = len(state.rounds)
    head = f"{'':>3}  {'player':<12}" + "".join(f"{'R' + str(k + 1):>6}" for k in range(rounds)) + f"{'total':>7}"
    lines = [f"{title} (Speed Scrabble, target {state.config.target}):", head]
    previous, place = None, 0
    for n, (name, total) in enumerate(standings(state), start=1):
        if total != previous:
            place, previous = n, total
        i = state.players.index(name)
        cells = "".join(f"{r[i].total:>6}" for r in state.rounds)
        lines.append(f"{place:>2}.  {name:<12}{cells}{total:>7}")
    if state.phase == ENDED:
        lines.append("winner: " + " and ".join(state.winners) + (" (shared)" if len(state.winners) > 1 else ""))
    elif state.phase == SCORING:
        waiting = [p for p, g in zip(state.players, state.grids) if g is None]
        lines.append(f"round {state.round} has stopped; grids still to show: {', '.join(waiting)}")
    else:
        lines.append(f"round {state.round} in play; the pool holds {state.pool}")
    return "\n".join(lines)
