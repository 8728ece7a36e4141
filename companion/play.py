"""Plays: which tiles a turn put down, whether that placement is legal, the words it forms, its score.

The referee sees the board before and after a turn (from the camera or typed). ``extract_placements``
finds what changed, ``validate_play`` checks the placement rules and finds the main word and every
cross word, and ``score_play`` scores them. None of this looks at a word list: whether the words are
acceptable is the challenge's business (``companion.challenge``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from companion.board import Board, Placement, Tile, square_name, squares_text
from companion.errors import IllegalPlay
from companion.layout import BoardLayout, Square
from companion.tiles import TileSet

ACROSS = "across"
DOWN = "down"


@dataclass(frozen=True, slots=True)
class Word:
    """A word formed by a play: its squares in reading order, the tiles on them, and which are new."""

    squares: tuple[Square, ...]
    tiles: tuple[Tile, ...]
    new: tuple[bool, ...]

    @property
    def text(self) -> str:
        """The word as read, upper case (a blank reads as the letter it stands for)."""
        return "".join(t.letter for t in self.tiles)

    @property
    def display(self) -> str:
        """The word as a scoresheet writes it: blanks in lower case."""
        return "".join(str(t) for t in self.tiles)

    @property
    def start(self) -> Square:
        return self.squares[0]

    @property
    def direction(self) -> str:
        if len(self.squares) < 2:
            return ACROSS
        return ACROSS if self.squares[0][0] == self.squares[1][0] else DOWN

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Play:
    """A legal placement: the tiles put down, the direction, and every word it forms."""

    placements: tuple[Placement, ...]
    direction: str
    main_word: Word
    cross_words: tuple[Word, ...]

    @property
    def words(self) -> tuple[Word, ...]:
        """The main word first, then the cross words in board order."""
        return (self.main_word,) + self.cross_words

    @property
    def tiles_used(self) -> int:
        return len(self.placements)

    def describe(self) -> str:
        w = self.main_word
        return f"{square_name(w.start)} {self.direction} {' '.join(x.display for x in self.words)}"


@dataclass(frozen=True, slots=True)
class Score:
    """The points of a play: per word, the bingo bonus, and the total."""

    word_scores: tuple[tuple[str, int], ...]
    bingo_bonus: int
    total: int


def extract_placements(before: Board, after: Board) -> tuple[Placement, ...]:
    """The tiles added between two boards of the same size.

    Raises IllegalPlay when a tile was removed or changed (a tile already played never moves), naming
    the squares.
    """
    if before.size != after.size:
        raise IllegalPlay(f"the boards differ in size ({before.size} and {after.size} squares a side)")
    removed, changed, placed = [], [], []
    for r in range(before.size):
        for c in range(before.size):
            old, new = before[r, c], after[r, c]
            if old is None:
                if new is not None:
                    placed.append(Placement((r, c), new))
            elif new is None:
                removed.append((r, c))
            elif new != old and not (old.blank and new.blank and old.letter == "?"):
                changed.append((r, c))
    if removed:
        raise IllegalPlay(f"tiles already on the board were removed: {squares_text(removed)}")
    if changed:
        raise IllegalPlay(f"tiles already on the board were changed: {squares_text(changed)}")
    return tuple(placed)


def _word_through(board: Board, square: Square, dr: int, dc: int, new: frozenset[Square]) -> Word:
    """The run of tiles through ``square`` along (dr, dc) on ``board`` (which already holds the play)."""
    r, c = square
    while board.occupied((r - dr, c - dc)):
        r, c = r - dr, c - dc
    squares, tiles, fresh = [], [], []
    while board.occupied((r, c)):
        squares.append((r, c))
        tiles.append(board[r, c])
        fresh.append((r, c) in new)
        r, c = r + dr, c + dc
    return Word(tuple(squares), tuple(tiles), tuple(fresh))


def validate_play(board: Board, placements: Iterable[Placement], layout: BoardLayout | None = None) -> Play:
    """Check the placement rules for ``placements`` on ``board`` and find the words formed.

    Rules: at least one tile; every tile on a free square of the board; all tiles in one row or one
    column; no gap between them (squares between may hold earlier tiles); the first play covers the
    centre and forms a word of at least two letters; a later play touches a tile already on the board.
    Every error names the squares concerned.
    """
    placements = tuple(sorted(placements, key=lambda p: p.square))
    if not placements:
        raise IllegalPlay("no tiles were placed")
    squares = [p.square for p in placements]
    off = [s for s in squares if not board.on_board(s)]
    if off:
        raise IllegalPlay(f"tiles are off the board: {', '.join(f'row {r + 1}, column {c + 1}' for r, c in off)}")
    if len(set(squares)) != len(squares):
        dup = {s for s in squares if squares.count(s) > 1}
        raise IllegalPlay(f"two tiles on one square: {squares_text(dup)}")
    taken = [s for s in squares if board.occupied(s)]
    if taken:
        raise IllegalPlay(f"squares already hold a tile: {squares_text(taken)}")

    rows = {s[0] for s in squares}
    cols = {s[1] for s in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlay(f"tiles are not in one line: {squares_text(squares)}")

    new = frozenset(squares)
    after = board.place(placements)
    if len(placements) == 1:
        across = _word_through(after, squares[0], 0, 1, new)
        down = _word_through(after, squares[0], 1, 0, new)
        direction = ACROSS if len(across.squares) >= len(down.squares) else DOWN
    else:
        direction = ACROSS if len(rows) == 1 else DOWN
    dr, dc = (0, 1) if direction == ACROSS else (1, 0)

    first, last = squares[0], squares[-1]
    gaps = []
    r, c = first
    while (r, c) != last:
        r, c = r + dr, c + dc
        if not after.occupied((r, c)):
            gaps.append((r, c))
    if gaps:
        raise IllegalPlay(f"the tiles leave a gap at {squares_text(gaps)}")

    if board.is_empty:
        centre = (layout.centre if layout is not None else (board.size // 2, board.size // 2))
        if centre not in new:
            raise IllegalPlay(f"the first play must cover the centre square {square_name(centre)}")
        if len(placements) < 2:
            raise IllegalPlay("the first play must be a word of at least two letters")
    else:
        touches = any(
            board.occupied((r + a, c + b)) for (r, c) in squares for a, b in ((0, 1), (0, -1), (1, 0), (-1, 0))
        )
        if not touches:
            raise IllegalPlay(f"the tiles do not touch any tile already on the board: {squares_text(squares)}")

    main = _word_through(after, first, dr, dc, new)
    cross = []
    for s in squares:
        w = _word_through(after, s, dc, dr, new)
        if len(w.squares) >= 2:
            cross.append(w)
    if len(main.squares) < 2:
        # A lone tile whose only word runs the other way: that word is the main word.
        main, cross = cross[0], cross[1:]
        direction = ACROSS if direction == DOWN else DOWN
    return Play(placements, direction, main, tuple(cross))


def score_word(word: Word, layout: BoardLayout, tileset: TileSet) -> int:
    """Letter values times letter premiums, times the word premiums; premiums count only on new tiles."""
    total, mult = 0, 1
    for square, tile, fresh in zip(word.squares, word.tiles, word.new):
        v = 0 if tile.blank else tileset.value(tile.letter)
        if fresh:
            v *= layout.letter_multiplier(square)
            mult *= layout.word_multiplier(square)
        total += v
    return total * mult


def score_play(play: Play, layout: BoardLayout, tileset: TileSet, rack_size: int = 7) -> Score:
    """The score of a validated play: every word it forms, plus the bingo bonus for using a full rack."""
    words = tuple((w.text, score_word(w, layout, tileset)) for w in play.words)
    bonus = layout.bingo_bonus if play.tiles_used >= rack_size else 0
    return Score(words, bonus, sum(s for _, s in words) + bonus)


def play_from_boards(before: Board, after: Board, layout: BoardLayout | None = None) -> Play:
    """Extract and validate the play that turned ``before`` into ``after``."""
    return validate_play(before, extract_placements(before, after), layout)
