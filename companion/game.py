"""Standard Scrabble as a fold over events: the state of a game is ``fold(events)``.

Every event is a plain JSON record (a dict with a ``"type"``); ``docs/events.md`` documents them.
``apply(state, event)`` returns a new state or raises ``RuleViolation`` naming the rule broken; the
old state is never touched (states are immutable), so a rejected event leaves the game as it was.

The referee at a real table does not see inside the bag or the racks. It knows how many tiles each
rack holds (seven, minus what was played, plus what was drawn) and how many remain in the bag, and it
learns rack letters only when they are shown (a ``rack`` field on a turn, or the racks at the end).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

from companion.board import Board, Placement, Tile, parse_square, square_name
from companion.errors import IllegalPlay, RuleViolation
from companion.layout import BoardLayout, get_layout
from companion.play import Play, score_play, validate_play
from companion.players import read_players, seat_of
from companion.tiles import BLANK, TileSet, get_tileset
from companion.variants import handler_for

Event = dict[str, Any]

#: How a challenged play is settled (chosen per game in ``game_started``).
CHALLENGE_RULES = {
    "double": "an invalid play is taken back and its player loses the turn; a valid play costs the challenger their next turn (the Danish rule text)",
    "single": "an invalid play is taken back and its player loses the turn; a failed challenge costs nothing",
    "bonus5": "an invalid play is taken back; a valid play earns its player 5 points",
    "bonus10": "an invalid play is taken back; a valid play earns its player 10 points",
    "void": "every play is checked before it is scored; an unacceptable play is refused and the player tries again",
}
CHALLENGE_BONUS = {"bonus5": 5, "bonus10": 10}

PLAYING, AWAITING_RACKS, ENDED = "playing", "awaiting_racks", "ended"


@dataclass(frozen=True)
class GameConfig:
    """What the table agreed before the first turn."""

    players: tuple[str, ...]
    tileset: str = "en"
    layout: str = "standard15"
    lexicon: str = "default"
    challenge_rule: str = "double"
    rack_size: int = 7
    #: A recorded game (GCG import) may list moves in its own order: turn order is then not enforced,
    #: and the game does not end by itself on passes (the record's end lines say when it ended).
    strict_turns: bool = True
    #: How going out is settled: "transfer" (the rule text: the others lose their racks' values and
    #: the player who went out gains the sum) or "double" (tournament records: the player who went out
    #: gains twice the sum, the others keep their scores).
    end_rule: str = "transfer"

    @classmethod
    def from_event(cls, event: Mapping[str, Any]) -> "GameConfig":
        players = read_players(event, "Scrabble", 2, 4)
        rack_size = event.get("rack_size", 7)
        if not isinstance(rack_size, int) or isinstance(rack_size, bool) or rack_size < 1:
            raise RuleViolation(f"rack_size must be a whole number of tiles, 1 or more, not {rack_size!r}")
        rule = event.get("challenge_rule", "double")
        if rule not in CHALLENGE_RULES:
            raise RuleViolation(f"unknown challenge rule {rule!r}: choose one of {', '.join(CHALLENGE_RULES)}")
        cfg = cls(
            players=players,
            tileset=str(event.get("tileset", "en")),
            layout=str(event.get("layout", "standard15")),
            lexicon=str(event.get("lexicon", "default")),
            challenge_rule=rule,
            rack_size=rack_size,
            strict_turns=bool(event.get("strict_turns", True)),
            end_rule=str(event.get("end_rule", "transfer")),
        )
        if cfg.end_rule not in ("transfer", "double"):
            raise RuleViolation(f"unknown end_rule {cfg.end_rule!r}: choose transfer or double")
        get_tileset(cfg.tileset)  # fail now, with the tile set's own message, if it is unknown
        get_layout(cfg.layout)
        return cfg

    @property
    def tiles(self) -> TileSet:
        return get_tileset(self.tileset)

    @property
    def board_layout(self) -> BoardLayout:
        return get_layout(self.layout)


@dataclass(frozen=True)
class Turn:
    """One line of the scoresheet."""

    player: int
    kind: str  # play, pass, exchange, withdrawn, challenge_bonus, lost_turn, end_racks, time_penalty
    description: str
    score: int
    total: int
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class PendingPlay:
    """The last play, still open to a challenge until the next player acts."""

    player: int
    play: Play
    score: int
    board_before: Board
    bag_before: int
    rack_counts_before: tuple[int, ...]
    passes_before: int
    known_racks_before: tuple[str | None, ...] = ()
    challenged: bool = False


@dataclass(frozen=True)
class GameState:
    """Everything the referee knows at one moment of a standard game."""

    config: GameConfig
    board: Board
    scores: tuple[int, ...]
    to_move: int
    bag: int
    rack_counts: tuple[int, ...]
    known_racks: tuple[str | None, ...]
    pending: PendingPlay | None = None
    #: Passes in a row since the last play or exchange; 2 per player ends the game.
    scoreless_passes: int = 0
    lose_next_turn: frozenset[int] = frozenset()
    #: Players whose turns are skipped for good (a variant's eliminated players).
    out_of_game: frozenset[int] = frozenset()
    phase: str = PLAYING
    went_out: int | None = None
    turns: tuple[Turn, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    def player_index(self, name: Any) -> int:
        return seat_of(self.config.players, name)

    def unseen(self, viewer: int | None = None) -> Counter:
        """Tiles not on the board (and not on ``viewer``'s rack when it is known): the bag plus the
        other racks. Blanks count under ``?``."""
        tiles = self.config.tiles
        left = Counter(tiles.counts)
        left[BLANK] = tiles.blanks
        for _, tile in self.board.tiles():
            left[BLANK if tile.blank else tile.letter] -= 1
        if viewer is not None and self.known_racks[viewer]:
            for ch in self.known_racks[viewer]:
                left[ch] -= 1
        return +left

    def standings(self) -> list[tuple[str, int]]:
        """Players by score, highest first (ties keep seat order)."""
        return sorted(zip(self.config.players, self.scores), key=lambda ps: -ps[1])

    @property
    def winners(self) -> list[str]:
        best = max(self.scores)
        return [p for p, s in zip(self.config.players, self.scores) if s == best]


class OnStandardBoard:
    """For a variant state that keeps a standard ``GameState`` in ``self.game``: its players, its
    board and its config, so the referee's ``play_notation`` and ``play_board`` (the camera's door)
    work for the variant too."""

    game: GameState

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    @property
    def board(self) -> Board:
        """The board as it stands (plays revealed but not placed are not on it)."""
        return self.game.board

    @property
    def config(self) -> GameConfig:
        return self.game.config


# ---------------------------------------------------------------------------------------------
# Events to state


def new_game(event: Mapping[str, Any]) -> GameState:
    """The state right after ``game_started``: an empty board and every rack drawn full."""
    if event.get("type") != "game_started":
        raise RuleViolation("a game must begin with a game_started event")
    cfg = GameConfig.from_event(event)
    total = cfg.tiles.total_tiles
    n = len(cfg.players)
    if total < n * cfg.rack_size:
        raise RuleViolation(f"the {cfg.tiles.name} set has too few tiles for {n} racks of {cfg.rack_size}")
    size = cfg.board_layout.size
    return GameState(
        config=cfg,
        board=Board(size),
        scores=(0,) * n,
        to_move=0,
        bag=total - n * cfg.rack_size,
        rack_counts=(cfg.rack_size,) * n,
        known_racks=(None,) * n,
    )


def parse_tiles(spec: Mapping[str, str] | str, state: GameState) -> tuple[Placement, ...]:
    """Turn a ``{"H8": "C", "I8": "a"}`` mapping (lower case: a blank standing for that letter, ``?``
    a blank not yet named) into placements, checking every letter against the game's tile set."""
    if not isinstance(spec, Mapping) or not spec:
        raise RuleViolation("a play needs 'tiles': a mapping of squares to letters, like {\"H8\": \"C\"}")
    tiles = state.config.tiles
    out = []
    for name, letter in spec.items():
        square = parse_square(str(name), state.board.size)
        if isinstance(letter, str):
            letter = unicodedata.normalize("NFC", letter)
        if not isinstance(letter, str) or len(letter) != 1:
            raise RuleViolation(f"square {name}: {letter!r} is not one letter")
        if letter == BLANK:
            out.append(Placement(square, Tile(BLANK, True)))
            continue
        upper = tiles.normalize(letter)
        out.append(Placement(square, Tile(upper, letter.islower())))
    return tuple(out)


def tiles_spec(placements: Iterable[Placement]) -> dict[str, str]:
    """The event form of placements (inverse of ``parse_tiles``)."""
    return {square_name(p.square): str(p.tile) for p in placements}


def check_supply(board: Board, tiles: TileSet) -> None:
    """A board cannot show more tiles of a letter than the set has."""
    used = Counter(BLANK if t.blank else t.letter for _, t in board.tiles())
    for letter, n in used.items():
        have = tiles.blanks if letter == BLANK else tiles.counts.get(letter, 0)
        if n > have:
            what = "blanks" if letter == BLANK else f"{letter} tiles"
            raise IllegalPlay(f"the board would show {n} {what}, but the {tiles.name} set has only {have}")


def next_player(state: GameState, after: int) -> tuple[int, frozenset[int], tuple[Turn, ...]]:
    """Who moves after ``after``, skipping (and recording) players who lost their turn."""
    n = len(state.players)
    nxt, lose, turns = (after + 1) % n, set(state.lose_next_turn), state.turns
    for _ in range(2 * n):
        if nxt in state.out_of_game:
            nxt = (nxt + 1) % n
        elif nxt in lose:
            lose.discard(nxt)
            turns += (Turn(nxt, "lost_turn", "loses this turn (failed challenge)", 0, state.scores[nxt]),)
            nxt = (nxt + 1) % n
        else:
            break
    return nxt, frozenset(lose), turns


def _actor(state: GameState, event: Mapping[str, Any]) -> int:
    who = state.player_index(event.get("player"))
    if state.phase == ENDED:
        raise RuleViolation("the game is over: no more turns")
    if state.phase == AWAITING_RACKS:
        raise RuleViolation("the game has ended: the players still on racks must show their tiles (end_racks)")
    if state.config.strict_turns and who != state.to_move:
        raise RuleViolation(f"it is {state.players[state.to_move]}'s turn, not {state.players[who]}'s")
    return who


def _with_score(state: GameState, who: int, delta: int) -> tuple[int, ...]:
    scores = list(state.scores)
    scores[who] += delta
    return tuple(scores)


def replace_at(seq: tuple, i: int, value: Any) -> tuple:
    """A copy of ``seq`` with item ``i`` replaced (states hold tuples, never lists)."""
    out = list(seq)
    out[i] = value
    return tuple(out)


def _known_rack(event: Mapping[str, Any], state: GameState, who: int) -> tuple[str | None, ...]:
    rack = event.get("rack")
    if rack is None:
        return state.known_racks
    tiles = state.config.tiles
    letters = "".join(BLANK if ch == BLANK else tiles.normalize(ch) for ch in str(rack))
    return replace_at(state.known_racks, who, letters)


def apply_play(state: GameState, event: Mapping[str, Any]) -> GameState:
    who = _actor(state, event)
    placements = parse_tiles(event.get("tiles"), state)
    cfg = state.config
    if len(placements) > state.rack_counts[who]:
        raise IllegalPlay(f"{cfg.players[who]} has only {state.rack_counts[who]} tiles but placed {len(placements)}")
    play = validate_play(state.board, placements, cfg.board_layout)
    board = state.board.place(play.placements)
    check_supply(board, cfg.tiles)
    score = score_play(play, cfg.board_layout, cfg.tiles, cfg.rack_size)
    drawn = min(len(placements), state.bag)
    rack_left = state.rack_counts[who] - len(placements) + drawn
    shown = _known_rack(event, state, who)
    if event.get("rack") is not None:
        rack = shown[who]
        if len(rack) != state.rack_counts[who]:
            raise RuleViolation(f"{cfg.players[who]} holds {state.rack_counts[who]} tiles, but the rack shown has {len(rack)} ({rack})")
        missing = Counter(BLANK if p.tile.blank else p.tile.letter for p in play.placements) - Counter(rack)
        if missing:
            raise RuleViolation(f"the tiles played ({''.join(sorted(missing.elements()))}) are not on the rack shown ({rack})")
    pending = PendingPlay(who, play, score.total, state.board, state.bag, state.rack_counts, state.scoreless_passes, shown)
    scores = _with_score(state, who, score.total)
    words = tuple(w.text for w in play.words)
    turn = Turn(who, "play", play.describe(), score.total, scores[who], words)
    known = shown
    # What is left of a shown rack after the play (drawn tiles are unknown again).
    if known[who] is not None and drawn == 0:
        left = Counter(known[who]) - Counter(BLANK if p.tile.blank else p.tile.letter for p in play.placements)
        known = replace_at(known, who, "".join(sorted(left.elements())))
    elif known[who] is not None:
        known = replace_at(known, who, None)
    new = replace(
        state, board=board, scores=scores, bag=state.bag - drawn, rack_counts=replace_at(state.rack_counts, who, rack_left),
        known_racks=known, pending=pending, scoreless_passes=0,
        turns=state.turns + (turn,),
    )
    if rack_left == 0 and new.bag == 0:
        return replace(new, phase=AWAITING_RACKS, went_out=who)
    nxt, lose, turns = next_player(new, who)
    return replace(new, to_move=nxt, lose_next_turn=lose, turns=turns)


def _connected(squares: set) -> bool:
    """Whether ``squares`` join up through shared sides (as the tiles of a board in play do)."""
    todo, seen = [next(iter(squares))], set()
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo += [sq for sq in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if sq in squares and sq not in seen]
    return len(seen) == len(squares)


def apply_position(state: GameState, event: Mapping[str, Any]) -> GameState:
    """The board as found: a game the referee joins mid-way (a camera set up after the first moves).

    ``tiles`` the tiles already down (as a play's: lower case a blank standing for that letter,
    ``?`` a blank not yet named), ``scores`` optional ``{player: points}`` so far (0 for anyone not
    named), ``to_move`` optional, the player whose turn it is (default the first). Only before the
    first turn. The tiles must be a board a game can reach: two or more, joined up, one on the
    centre square, no more of a letter than the set has, and no more in all than the bag held
    once the racks were drawn. Their words are not judged (the table let them stand); the racks
    stay full, and the bag loses the tiles on the board. Each player's score so far is a line of
    the scoresheet (kind ``carried``), so the totals add up."""
    if state.turns or not state.board.is_empty:
        raise RuleViolation("the board as found can be set only before the first turn: undo the turns first")
    placements = parse_tiles(event.get("tiles"), state)
    cfg = state.config
    squares = {p.square for p in placements}
    centre = cfg.board_layout.centre
    if len(placements) < 2:
        raise IllegalPlay("a board in play shows two tiles or more (the first play is a word)")
    if centre not in squares:
        raise IllegalPlay(f"no tile on the centre square {square_name(centre)}: the first play covers it, so every "
                          f"board in play has one there")
    if not _connected(squares):
        raise IllegalPlay("the tiles do not all join up: every play after the first touches the tiles already down")
    board = state.board.place(placements)
    check_supply(board, cfg.tiles)
    if len(placements) > state.bag:
        raise IllegalPlay(f"the board shows {len(placements)} tiles, but with {len(cfg.players)} full racks only "
                          f"{state.bag} can be out of the bag")
    scores = event.get("scores") or {}
    if not isinstance(scores, Mapping):
        raise RuleViolation("'scores' must map each player to their points so far, like {\"Ann\": 120}")
    points = [0] * len(cfg.players)
    for name, value in scores.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise RuleViolation(f"{name}'s score so far must be a whole number of points, not {value!r}")
        points[state.player_index(name)] = value
    to_move = state.player_index(event["to_move"]) if event.get("to_move") is not None else 0
    found = f"score before the referee began (the board as found: {len(placements)} tiles)"
    turns = tuple(Turn(i, "carried", found, p, p) for i, p in enumerate(points))
    return replace(state, board=board, scores=tuple(points), bag=state.bag - len(placements), to_move=to_move,
                   turns=turns)


def _after_pass(state: GameState, who: int, turn: Turn) -> GameState:
    passes = state.scoreless_passes + 1
    new = replace(state, pending=None, scoreless_passes=passes, turns=state.turns + (turn,))
    # Variants with players out keep their own count (strip-safe); a recorded game ends where its record says.
    if passes >= 2 * len(state.players) and state.config.strict_turns:
        return replace(new, phase=AWAITING_RACKS)
    nxt, lose, turns = next_player(new, who)
    return replace(new, to_move=nxt, lose_next_turn=lose, turns=turns)


def apply_pass(state: GameState, event: Mapping[str, Any]) -> GameState:
    who = _actor(state, event)
    return _after_pass(state, who, Turn(who, "pass", "passes", 0, state.scores[who]))


def apply_exchange(state: GameState, event: Mapping[str, Any]) -> GameState:
    who = _actor(state, event)
    count = event.get("count")
    if not isinstance(count, int) or count < 1:
        raise RuleViolation("an exchange needs 'count': how many tiles go back (1 or more)")
    if count > state.rack_counts[who]:
        raise RuleViolation(f"{state.players[who]} has only {state.rack_counts[who]} tiles to exchange")
    if state.bag < state.config.rack_size:
        raise RuleViolation(f"tiles can be exchanged only while the bag holds at least {state.config.rack_size}; it holds {state.bag}")
    # Only passes count towards the end on passes (the rule text: "every player passes twice in a row").
    turn = Turn(who, "exchange", f"exchanges {count}", 0, state.scores[who])
    state = replace(state, known_racks=replace_at(state.known_racks, who, None), scoreless_passes=0, pending=None,
                    turns=state.turns + (turn,))
    return _continue_after(state, who)


def apply_challenge(state: GameState, event: Mapping[str, Any]) -> GameState:
    """Settle a challenge of the last play. The verdict is decided by the referee against the game's
    word list when the event is made and stored in it, so the log replays the same way forever."""
    pending = state.pending
    if pending is None:
        raise RuleViolation("there is no play to challenge: a play can be challenged only before the next turn starts")
    if pending.challenged:
        raise RuleViolation("this play has already been challenged")
    challenger = state.player_index(event.get("challenger"))
    if challenger == pending.player:
        raise RuleViolation("players cannot challenge their own play")
    verdict = event.get("verdict")
    if verdict not in ("valid", "invalid"):
        raise RuleViolation("a challenge needs a 'verdict' of 'valid' or 'invalid' (the referee fills it in)")
    rule = state.config.challenge_rule
    who = pending.player
    if verdict == "invalid":
        # The tiles go back to the rack, the score is taken back, the player's turn is over.
        scores = _with_score(state, who, -pending.score)
        turn = Turn(who, "withdrawn", f"play withdrawn ({', '.join(event.get('invalid_words', [])) or 'unacceptable'})",
                    -pending.score, scores[who])
        restored = replace(
            state, board=pending.board_before, scores=scores, bag=pending.bag_before,
            rack_counts=pending.rack_counts_before, known_racks=pending.known_racks_before or state.known_racks,
            pending=None, phase=PLAYING, went_out=None,
            scoreless_passes=pending.passes_before, turns=state.turns + (turn,),
        )
        if state.phase == PLAYING:
            return restored  # the turn had already passed on when the play was made
        return _continue_after(restored, who)
    # A valid play stands.
    if rule in CHALLENGE_BONUS:
        bonus = CHALLENGE_BONUS[rule]
        scores = _with_score(state, who, bonus)
        turn = Turn(who, "challenge_bonus", "challenge bonus: the play is valid", bonus, scores[who])
        return replace(state, scores=scores, pending=replace(pending, challenged=True), turns=state.turns + (turn,))
    if rule == "double":
        turn = Turn(challenger, "failed_challenge", "failed challenge: loses the next turn", 0, state.scores[challenger])
        new = replace(state, pending=replace(pending, challenged=True), turns=state.turns + (turn,))
        if state.phase != PLAYING:
            return new
        if new.to_move == challenger:
            nxt, lose, turns = next_player(new, challenger)
            turns += (Turn(challenger, "lost_turn", "loses this turn (failed challenge)", 0, state.scores[challenger]),)
            return replace(new, to_move=nxt, lose_next_turn=lose, turns=turns)
        return replace(new, lose_next_turn=state.lose_next_turn | {challenger})
    turn = Turn(challenger, "failed_challenge", "challenged a valid play", 0, state.scores[challenger])
    return replace(state, pending=replace(pending, challenged=True), turns=state.turns + (turn,))


def _continue_after(state: GameState, who: int) -> GameState:
    nxt, lose, turns = next_player(state, who)
    return replace(state, to_move=nxt, lose_next_turn=lose, turns=turns)


def apply_end_racks(state: GameState, event: Mapping[str, Any]) -> GameState:
    """The tiles left on the racks at the end: ``{"racks": {"Bob": "ZC", "Cy": "AK"}}``.

    If a player went out, every other player loses the value of their rack and the player who went
    out gains the sum (the rule text); under the game's ``end_rule`` ``"double"`` (tournament
    records) the player who went out gains twice the sum and the others keep their scores. If the
    game ended on passes, each player loses their own rack's value.
    """
    if state.phase == ENDED:
        raise RuleViolation("the racks have already been counted: the game is over")
    if state.phase != AWAITING_RACKS and state.config.strict_turns:
        raise RuleViolation("the game is not over yet: racks are counted when a player goes out with the bag empty or every player has passed twice in a row")
    racks = event.get("racks")
    if not isinstance(racks, Mapping):
        raise RuleViolation("end_racks needs 'racks': each player's remaining letters, like {\"Bob\": \"ZC\"}")
    tiles = state.config.tiles
    values: dict[int, int] = {}
    for name, letters in racks.items():
        i = state.player_index(name)
        letters = str(letters)
        if state.config.strict_turns and len(letters) != state.rack_counts[i]:
            raise RuleViolation(f"{name} should have {state.rack_counts[i]} tiles left, not {len(letters)} ({letters!r})")
        values[i] = tiles.rack_value(letters)
    scores = list(state.scores)
    turns = list(state.turns)
    out = state.went_out
    if out is not None:
        missing = [state.players[i] for i in range(len(scores)) if i != out and i not in values and state.rack_counts[i]]
        if missing and state.config.strict_turns:
            raise RuleViolation(f"the racks of {', '.join(missing)} are needed to finish the game")
        gain = 0
        double = state.config.end_rule == "double"
        for i, v in sorted(values.items()):
            if i == out:
                continue
            gain += v
            if not double:
                scores[i] -= v
                turns.append(Turn(i, "end_racks", "loses the tiles left on the rack", -v, scores[i]))
        if double:
            gain *= 2
        scores[out] += gain
        how = "twice the others' rack values" if double else "the others' rack values"
        turns.append(Turn(out, "end_racks", f"went out: gains {how}", gain, scores[out]))
    else:
        missing = [state.players[i] for i in range(len(scores)) if i not in values and state.rack_counts[i]]
        if missing and state.config.strict_turns:
            raise RuleViolation(f"the racks of {', '.join(missing)} are needed to finish the game")
        for i, v in sorted(values.items()):
            scores[i] -= v
            turns.append(Turn(i, "end_racks", "loses the tiles left on the rack", -v, scores[i]))
    return replace(state, scores=tuple(scores), phase=ENDED, pending=None, turns=tuple(turns))


def apply_time_penalty(state: GameState, event: Mapping[str, Any]) -> GameState:
    who = state.player_index(event.get("player"))
    points = event.get("points")
    if not isinstance(points, int) or points < 0:
        raise RuleViolation("a time penalty needs 'points': a whole number of points to lose (0 or more)")
    scores = _with_score(state, who, -points)
    return replace(state, scores=scores, turns=state.turns + (Turn(who, "time_penalty", "time penalty", -points, scores[who]),))


def apply_rack(state: GameState, event: Mapping[str, Any]) -> GameState:
    """A player shows their rack (for unseen-tile tracking); nothing else changes."""
    who = state.player_index(event.get("player"))
    known = _known_rack(event, state, who)
    if known[who] is not None and len(known[who]) != state.rack_counts[who]:
        raise RuleViolation(f"{state.players[who]} holds {state.rack_counts[who]} tiles, not {len(known[who])}")
    return replace(state, known_racks=known)


HANDLERS = {
    "play": apply_play,
    "pass": apply_pass,
    "exchange": apply_exchange,
    "challenge": apply_challenge,
    "end_racks": apply_end_racks,
    "time_penalty": apply_time_penalty,
    "rack": apply_rack,
    "position": apply_position,
}


def apply(state: GameState, event: Mapping[str, Any]) -> GameState:
    """The state after one event; raises RuleViolation (or IllegalPlay) and leaves ``state`` as it was."""
    handler = handler_for(HANDLERS, event, "standard Scrabble")
    return handler(state, event)


# ---------------------------------------------------------------------------------------------
# The variant plug-in interface (see companion.variants): what the referee and the CLI call.


def complete(state: GameState, event: dict, judge) -> dict:
    """Fill in what the referee decides before the event is checked and saved.

    ``judge(play)`` returns a ``companion.referee.Verdict`` for a play's words. A challenge gets its
    verdict; under the void rule a play with an unacceptable word is refused outright.
    """
    kind = event.get("type")
    if kind == "challenge" and "verdict" not in event:
        if state.pending is None:
            raise RuleViolation("there is no play to challenge: a play can be challenged only before the next turn starts")
        verdict = judge(state.pending.play)
        event["verdict"] = "valid" if verdict.acceptable else "invalid"
        event["invalid_words"] = list(verdict.invalid_words)
        event["ruling"] = str(verdict)
    elif kind == "play" and state.config.challenge_rule == "void" and state.phase == PLAYING:
        play = validate_play(state.board, parse_tiles(event.get("tiles"), state), state.config.board_layout)
        verdict = judge(play)
        if not verdict.acceptable:
            raise RuleViolation(f"{verdict}: the play is refused; take the tiles back and play again")
    return event


def report(before: GameState, after: GameState, event: Mapping[str, Any]) -> list[str]:
    """Lines telling the table what one event did (the scoresheet lines it added)."""
    from companion.scoresheet import format_turn

    lines = [format_turn(after, i) for i in range(len(before.turns), len(after.turns))]
    if event.get("ruling"):
        lines.append(f"     {event['ruling']}")
    return lines


def standings(state: GameState) -> list[tuple[str, int]]:
    return state.standings()


def is_over(state: GameState) -> bool:
    return state.phase == ENDED


def format_final(state: GameState) -> str:
    from companion.scoresheet import format_standings

    return format_standings(state)
