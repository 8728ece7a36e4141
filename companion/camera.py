"""From what the camera read to a move: the engine's side of the camera.

The vision room hands over, for every square, a label and a confidence: ``.`` empty, a letter, ``?``
a blank tile, ``#`` covered (a hand, an arm, a deep shadow). This module compares that reading with
the last confirmed board and says what the move is, or what it still needs to know:

* squares of the confirmed board are never re-decided by a later picture (a played tile does not
  move): a different reading there is reported as a misreading and ignored;
* a covered square on an empty square means the picture is not ready: wait for the next one --
  unless it cannot be part of the move: a play's tiles lie in one row or column with no empty
  square between them, so once new tiles are seen, a covered square off their line, or cut off
  from them by a square seen empty, is noted and does not hold the move up (a hand resting on a
  corner of the board, a lamp's glare on a white board);
* a tile the camera sees but cannot read (``unread``) is not a reason to wait forever: the word list
  says which letters it can be (:func:`fitting_letters`), and the table decides from that;
* a letter read with low confidence, and a blank tile (whose letter the camera cannot know), are
  questions for the players, not silent decisions; when the word list allows exactly one letter for
  a blank, that letter is offered as the answer to confirm.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Iterable, Sequence

from companion.board import Board, Placement, Tile, square_name
from companion.errors import CompanionError
from companion.layout import Square
from companion.play import validate_play
from companion.tiles import BLANK, TileSet

EMPTY, COVERED = ".", "#"
DEFAULT_MIN_CONFIDENCE = 0.80


@dataclass(frozen=True)
class Question:
    """Something the players must answer before the move is scored."""

    square: Square
    kind: str  # "blank" (which letter?), "unsure" (is it this letter?) or "maybe-blank" (a blank there?)
    guess: str | None
    text: str


@dataclass(frozen=True)
class CameraMove:
    """What one stable picture says happened since the confirmed board."""

    placements: tuple[Placement, ...] = ()
    questions: tuple[Question, ...] = ()
    covered: tuple[Square, ...] = ()
    misread: tuple[str, ...] = ()
    unread: tuple[Square, ...] = ()     # a tile is there, its letter could not be read
    elsewhere: tuple[Square, ...] = ()  # covered or unreadable, but off the move: no tile of this play can be there
    stray: tuple[Square, ...] = ()      # read as blank tiles, but off the line of the play's lettered tiles
    # read empty, but changed since the last move's picture, at an end of the play: a blank the
    # words may need (no question of its own: a moved glare changes squares too)
    changed_ends: tuple[Square, ...] = ()

    @property
    def ready(self) -> bool:
        """True when no square that may be part of the move is covered (the move can be taken
        from this picture)."""
        return not self.covered


def _seen_as(label: str) -> str:
    """A reading's label of a square as the table names it: "empty", "a blank" or the letter."""
    return "empty" if label == EMPTY else "a blank" if label == BLANK else label.upper()


def _held_as(tile: Tile) -> str:
    """A confirmed tile as the table names it, comparable with :func:`_seen_as`."""
    return "a blank" if tile.blank else tile.letter


def tiles_read_as_held(confirmed: Board, labels: Sequence[str]) -> tuple[int, int]:
    """(agree, disagree): of the tiles on the confirmed board, how many the reading shows as
    they are (the letter, or ``?`` for a blank) and how many as something else (empty, another
    letter); a square read covered counts for neither.  A reading turned the wrong way round
    disagrees on nearly every tile."""
    agree = disagree = 0
    for r in range(confirmed.size):
        for c in range(confirmed.size):
            held = confirmed[r, c]
            if held is None or labels[r][c] == COVERED:
                continue
            if _seen_as(labels[r][c]) == _held_as(held):
                agree += 1
            else:
                disagree += 1
    return agree, disagree


def read_move(confirmed: Board, labels: Sequence[str], confidence: Sequence[Sequence[float]] | None,
              tiles: TileSet, min_confidence: float = DEFAULT_MIN_CONFIDENCE,
              unread: Iterable[Square] = (), maybe_blank: Iterable[Square] = (),
              blank_before: Iterable[Square] = (), changed: Iterable[Square] = (),
              as_before: Iterable[Square] = ()) -> CameraMove:
    """Compare a picture's reading with the confirmed board.

    ``labels`` has one string per row, one character per square; ``confidence`` the matching numbers
    from 0 to 1 (None: all certain). ``unread``: squares labelled ``#`` where the camera sees a tile
    whose letter it cannot read (not a hand): they go to ``CameraMove.unread``, not ``covered``.
    ``maybe_blank``: squares read empty that may hold a blank of nearly the board's colour
    (``vision.read.BoardReading.maybe_blank``): a question where one touches the play.
    ``blank_before``: empty squares that looked like a blank tile (``CameraMove.stray``) on the
    picture the last move was taken from: a blank face there now was there before this move
    began (a lamp's glare that stays put), so it is no tile of this move, even in its line.
    ``changed``: squares read empty whose look changed since that picture as much as a tile put
    down changes it (``vision.change``): a blank of nearly the board's colour, or lamp light
    that moved.  One between two tiles of the play (a play has no gap) is taken as a blank,
    with its question; one at an end of the play goes to ``CameraMove.changed_ends`` (the word
    list decides: :func:`blank_the_words_need`).  A blank, not a lettered tile: on 300 rendered
    boards (tuning seed 7700) 73 blanks were read as empty squares and no lettered tile was.
    ``as_before``: squares read covered or unreadable that look as they did on that picture:
    whatever hides them was there before this move began (a lamp's glare that stays put), so no
    tile of this move is there: noted (``elsewhere``), never holding the move up.
    """
    unread = set(unread)
    n = confirmed.size
    if len(labels) != n or any(len(row) != n for row in labels):
        raise CompanionError(f"the camera reading is not {n} rows of {n} squares")
    placements, questions, covered, misread, unread_new = [], [], [], [], []
    for r in range(n):
        for c in range(n):
            label = labels[r][c]
            conf = 1.0 if confidence is None else float(confidence[r][c])
            held = confirmed[r, c]
            if held is not None:
                if label == COVERED:
                    continue
                seen, expected = _seen_as(label), _held_as(held)
                if seen != expected:
                    misread.append(f"{square_name((r, c))} reads {seen} but holds {expected}: keeping {expected}")
                continue
            if label == EMPTY:
                continue
            if label == COVERED:
                (unread_new if (r, c) in unread else covered).append((r, c))
                continue
            if label == BLANK:
                placements.append(Placement((r, c), Tile(BLANK, True)))
                questions.append(Question((r, c), "blank", None, f"which letter does the blank on {square_name((r, c))} stand for?"))
                continue
            letter = tiles.normalize(label)
            placements.append(Placement((r, c), Tile(letter)))
            if conf < min_confidence:
                questions.append(Question((r, c), "unsure", letter,
                                          f"is the tile on {square_name((r, c))} {letter}? (the camera is {conf:.0%} sure)"))
    as_before = set(as_before)
    # a tile the camera sees but cannot read, on a square that looks as it did before this move
    # began, is no tile of this move: a tile put down changes its square far more (on a stand,
    # the edge of a neighbour's tile sitting off its square read as an I on one picture of the
    # turn and as nothing on the next held a recorded game up for five turns)
    unread_new, unread_before = ([sq for sq in unread_new if sq not in as_before],
                                 [sq for sq in unread_new if sq in as_before])
    before = set(blank_before)
    stray = {p.square for p in placements if p.tile.blank and p.square in before}
    stray |= _stray_blanks([p for p in placements if p.square not in stray], unread_new, labels, confirmed)
    if stray:
        placements = [p for p in placements if p.square not in stray]
        questions = [q for q in questions if q.square not in stray]
    new = [p.square for p in placements] + unread_new
    changed = {sq for sq in changed if labels[sq[0]][sq[1]] == EMPTY and confirmed[sq] is None}
    for sq in sorted(changed & _gaps(new, confirmed)):
        # the play would have a hole where the camera saw a square change: a tile is there that
        # shows no letter (a blank of nearly the board's colour)
        placements.append(Placement(sq, Tile(BLANK, True)))
        questions.append(Question(sq, "blank", None, f"the camera sees no letter on {square_name(sq)}, but a tile "
                                                     f"was put there: which letter does the blank stand for?"))
        new.append(sq)
    # a square read empty that may be a blank of nearly the board's colour: asked about where it
    # touches a new tile in the play's line (the play is scored without it unless the answer says
    # otherwise); elsewhere it cannot be part of this play and is not worth a question
    changed_ends = []
    for sq in sorted(changed - set(new)):
        r, c = sq
        if new and any((r + dr, c + dc) in new for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))) \
                and _may_join(sq, new, labels, confirmed):
            changed_ends.append(sq)
    for sq in sorted(set(maybe_blank) - set(new)):
        r, c = sq
        if confirmed[r, c] is not None or labels[r][c] != EMPTY or not new:
            continue
        touches = any((r + dr, c + dc) in new for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))
        if touches and _may_join(sq, new, labels, confirmed):
            questions.append(Question(sq, "maybe-blank", None,
                                      f"is there a blank tile on {square_name(sq)}? (the camera took the square "
                                      f"for empty, and the play is scored without it)"))
    elsewhere = [sq for sq in covered if sq in as_before or not _may_join(sq, new, labels, confirmed)]
    covered = [sq for sq in covered if sq not in elsewhere]
    elsewhere = sorted(elsewhere + unread_before)
    return CameraMove(tuple(placements), tuple(questions), tuple(covered), tuple(misread), tuple(unread_new),
                      tuple(elsewhere), tuple(sorted(stray)), tuple(changed_ends))


def _gaps(new: Sequence[Square], confirmed: Board) -> set[Square]:
    """Empty squares of the board between the first and the last of ``new`` (tiles of one play,
    in one row or column): where the play would leave a hole."""
    rows, cols = {r for r, _ in new}, {c for _, c in new}
    if len(new) < 2 or (len(rows) > 1 and len(cols) > 1):
        return set()
    if len(rows) == 1:
        r = next(iter(rows))
        span = [(r, c) for c in range(min(cols) + 1, max(cols))]
    else:
        c = next(iter(cols))
        span = [(r, c) for r in range(min(rows) + 1, max(rows))]
    taken = set(new)
    return {sq for sq in span if sq not in taken and confirmed[sq] is None}


def _stray_blanks(placements: Sequence[Placement], unread: Sequence[Square], labels: Sequence[str],
                  confirmed: Board) -> set[Square]:
    """New "blank tiles" that cannot belong to the play the lettered new tiles make.

    A blank's face is plain, and so is a patch of lamp light or a reflection on an empty square:
    the camera can take one for the other, where a letter it reads is a tile.  So when the new
    tiles with letters (and tiles seen but not read) lie in one line, a new blank off that line,
    or cut off from them by a square seen empty, is no tile of this play -- every tile of a play
    lies in one line with no gap -- and is left out (the table says so) instead of making the
    whole picture an illegal play.  A play of blanks alone, or letters in no one line, is left
    as read (the referee says what is wrong)."""
    blanks = [p.square for p in placements if p.tile.blank]
    lettered = [p.square for p in placements if not p.tile.blank] + list(unread)
    if not blanks or not lettered:
        return set()
    rows, cols = {r for r, _ in lettered}, {c for _, c in lettered}
    if len(rows) > 1 and len(cols) > 1:
        return set()
    out = set()
    kept = list(lettered)
    # nearest first: a blank joins through another blank that joins (two blanks side by side)
    for sq in sorted(blanks, key=lambda s: min(abs(s[0] - t[0]) + abs(s[1] - t[1]) for t in lettered)):
        if _may_join(sq, kept, labels, confirmed, strays=out):
            kept.append(sq)
        else:
            out.add(sq)
    return out


def _may_join(square: Square, new: Sequence[Square], labels: Sequence[str], confirmed: Board,
              strays: Iterable[Square] = ()) -> bool:
    """Whether a covered ``square`` may hold a tile of the play whose seen new tiles are ``new``.

    A play's tiles lie in one row or one column, and every square from its first tile to its last
    holds a tile.  So the square may belong to it only when it lies in the line through all of
    ``new`` (either line for a single tile) and no square between it and them is seen empty
    (a played tile, a new tile, another covered square are not gaps).  With no new tile seen,
    every tile of the play would be hidden: the square may hold one only where a play hidden
    there could reach the tiles already played (:func:`_may_hide_a_play`).  New tiles in no one
    line (no play at all: the referee says why): anything may.
    """
    rows, cols = {r for r, _ in new}, {c for _, c in new}
    if not new:
        return _may_hide_a_play(square, labels, confirmed)
    if len(rows) > 1 and len(cols) > 1:
        return True
    strays = set(strays)
    r, c = square
    lines = []
    if len(rows) == 1 and r in rows:
        lines.append((1, [k for _, k in new], c))       # along the row: compare columns
    if len(cols) == 1 and c in cols:
        lines.append((0, [k for k, _ in new], r))       # down the column: compare rows
    for axis, seen, at in lines:
        lo, hi = (at + 1, min(seen)) if at < min(seen) else (max(seen) + 1, at)
        between = [(r, k) if axis else (k, c) for k in range(lo, hi)]
        if all((labels[i][j] != EMPTY and (i, j) not in strays) or confirmed[i, j] is not None
               for i, j in between):
            return True
    return False


def _may_hide_a_play(square: Square, labels: Sequence[str], confirmed: Board) -> bool:
    """Whether a covered ``square`` may hold a tile of a play none of whose tiles is seen.

    Every play after the first touches the tiles already played: its tiles and the played tiles
    between them make one unbroken run along a row or a column, and a tile of it lies next to a
    played tile, or the run holds one.  With every new tile hidden, the run is made of covered
    squares and played tiles only; a covered square in no such run that reaches a played tile --
    a glare spot far from the words on the picture of an exchange -- holds no tile of any play.
    Before the first play anything may, as it always did (nothing is played for a run to reach).
    """
    if confirmed.is_empty:
        return True
    r0, c0 = square
    for dr, dc in ((0, 1), (1, 0)):
        run = [square]
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while confirmed.on_board((r, c)) and (labels[r][c] == COVERED or confirmed.occupied((r, c))):
                run.append((r, c))
                r, c = r + sign * dr, c + sign * dc
        # a played tile in the run, or beside one of its squares (the same touch validate_play asks)
        if any(confirmed.occupied((r + a, c + b)) for r, c in run
               for a, b in ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0))):
            return True
    return False


#: More unknown squares than this in one play are not searched (26**3 trials and more).
MAX_UNKNOWN = 2


def fitting_letters(board: Board, placements: Sequence[Placement], squares: Sequence[Square], tiles: TileSet,
                    lexicon) -> dict[Square, list[str]]:
    """For each square of ``squares`` (tiles of this play whose letter is unknown), the letters that,
    with the other unknown squares filled in some way, make every word of the play acceptable.

    ``placements``: the play's tiles; a square of ``squares`` found there keeps its blank flag (an
    undeclared blank), one not found there is an ordinary tile the camera could not read. Empty lists
    when there is no word list or more than ``MAX_UNKNOWN`` unknown squares (nothing is guessed).
    """
    squares = list(dict.fromkeys(squares))
    out: dict[Square, list[str]] = {s: [] for s in squares}
    if not squares or lexicon is None or len(squares) > MAX_UNKNOWN:
        return out
    blank = {p.square: p.tile.blank for p in placements}
    fixed = [p for p in placements if p.square not in out]
    for choice in product(tiles.alphabet, repeat=len(squares)):
        trial = fixed + [Placement(s, Tile(ch, blank.get(s, False))) for s, ch in zip(squares, choice)]
        try:
            play = validate_play(board, trial)
        except CompanionError:
            continue
        if all(w.text in lexicon for w in play.words):
            for s, ch in zip(squares, choice):
                if ch not in out[s]:
                    out[s].append(ch)
    return out


def blank_letters(board: Board, placements: Sequence[Placement], tiles: TileSet, lexicon) -> dict[Square, list[str]]:
    """For each undeclared blank among ``placements``, the letters that make every word of the play
    acceptable (tried one blank at a time with the others' letters unknown; with two blanks the
    pairs are tried together)."""
    blanks = [p.square for p in placements if p.tile.blank and p.tile.letter == BLANK]
    if not blanks or lexicon is None:
        return {}
    return fitting_letters(board, placements, blanks, tiles, lexicon)


def board_words(board: Board) -> list[tuple[tuple[Square, ...], str]]:
    """Every word on ``board`` (each run of two tiles or more, across then down) with its
    squares; a blank not yet named reads ``?``."""
    n, out = board.size, []
    for dr, dc in ((0, 1), (1, 0)):
        for r in range(n):
            for c in range(n):
                if not board.occupied((r, c)) or board.occupied((r - dr, c - dc)):
                    continue
                run, (rr, cc) = [], (r, c)
                while board.occupied((rr, cc)):
                    run.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if len(run) > 1:
                    out.append((tuple(run), "".join(board[sq].letter for sq in run)))
    return out


def found_blank_letters(board: Board, tiles: TileSet, lexicon) -> dict[Square, list[str]]:
    """For each blank not yet named on a board as found (a game joined mid-way), the letters
    that make the words through it acceptable, one blank at a time (a word holding another
    unnamed blank is not judged).  Empty lists without a word list."""
    blanks = [sq for sq, t in board.tiles() if t.blank and t.letter == BLANK]
    out: dict[Square, list[str]] = {sq: [] for sq in blanks}
    if lexicon is None:
        return out
    words = board_words(board)
    for sq in blanks:
        through = [(run, text) for run, text in words if sq in run]
        for ch in tiles.alphabet:
            texts = [text[:run.index(sq)] + ch + text[run.index(sq) + 1:] for run, text in through]
            if all(BLANK in t or t in lexicon for t in texts):
                out[sq].append(ch)
    return out


def _words_fit(board: Board, placements: Sequence[Placement], unknown: Sequence[Square], tiles: TileSet,
               lexicon) -> bool:
    """Whether the play makes only words of the word list, each unknown square (an undeclared
    blank, a tile not read) filled with some letter."""
    if unknown:
        found = fitting_letters(board, placements, unknown, tiles, lexicon)
        return all(found[s] for s in unknown)
    try:
        play = validate_play(board, list(placements))
    except CompanionError:
        return False
    return all(w.text in lexicon for w in play.words)


def word_ends(board: Board, new: Sequence[Square], labels: Sequence[str]) -> list[Square]:
    """The squares just past each end of the word the play's tiles ``new`` make in their line
    (either line for a single tile), where they are free on the board and read empty: where a
    blank of nearly the board's colour that the camera took for an empty square would sit
    when it began or ended the play (lINEMEN read INEMEN: a white blank on a white board
    changes its square less than a lamp's flicker).  Empty when ``new`` is in no one line."""
    rows, cols = {r for r, _ in new}, {c for _, c in new}
    if not new or (len(rows) > 1 and len(cols) > 1):
        return []
    n, taken = board.size, set(new)
    steps = ([(0, 1)] if len(cols) > 1 else []) + ([(1, 0)] if len(rows) > 1 else []) or [(0, 1), (1, 0)]
    out = []
    for dr, dc in steps:
        for sign in (-1, 1):
            r, c = min(new) if sign < 0 else max(new)      # the play's first / last square in its line
            # past the play's own tiles and the board's tiles it runs through
            while 0 <= r < n and 0 <= c < n and ((r, c) in taken or board[r, c] is not None):
                r, c = r + sign * dr, c + sign * dc
            if 0 <= r < n and 0 <= c < n and labels[r][c] == EMPTY:
                out.append((r, c))
    return out


def blank_the_words_need(board: Board, placements: Sequence[Placement], unread: Sequence[Square],
                         candidates: Sequence[Square], tiles: TileSet, lexicon) -> Square | None:
    """The one square of ``candidates`` (read empty, but maybe a blank of nearly the board's
    colour) where a blank turns a play of non-words into words -- the bingo whose blank the
    camera missed (IRADOR for mIRADOR) -- or None: the play is words as read, no word list, no
    candidate does it, or more than one would."""
    if lexicon is None or not candidates:
        return None
    blanks = [p.square for p in placements if p.tile.blank and p.tile.letter == BLANK]
    unknown = blanks + list(unread)
    if len(unknown) + 1 > MAX_UNKNOWN:
        return None
    if _words_fit(board, placements, unknown, tiles, lexicon):
        return None
    fit = [sq for sq in dict.fromkeys(candidates)
           if _words_fit(board, list(placements) + [Placement(sq, Tile(BLANK, True))], unknown + [sq], tiles, lexicon)]
    return fit[0] if len(fit) == 1 else None


#: At most this many plays are looked for in one picture's new tiles (PLAYS_SEARCH_BUDGET plays
#: tried at most): plays the camera missed, not a whole game laid down unseen.
MOST_MISSED_PLAYS = 4
PLAYS_SEARCH_BUDGET = 20000


def plays_in_turn(board: Board, placements: Sequence[Placement], lexicon, rack_size: int = 7,
                  most: int = MOST_MISSED_PLAYS, budget: int = PLAYS_SEARCH_BUDGET, tiles: TileSet | None = None
                  ) -> list[tuple[tuple[Placement, ...], ...]]:
    """The ways to lay ``placements`` -- the tiles a picture shows added since the confirmed
    board, which are not one legal play -- as the fewest plays made one after another: each
    obeys the placement rules on the board the plays before it left, uses at most ``rack_size``
    tiles and makes only words of ``lexicon``.

    A camera misses a play when two are made before it sees a still board between them (fast
    players, a hand left over the board), or a photo was not taken after one.  Only two to
    ``most`` plays are looked for; empty when there is no such way, when the tiles are one play
    of words after all (nothing was missed), or when the search would try more than ``budget`` plays (each letter tried for a blank counts).  A blank whose letter is
    unknown (at most MAX_UNKNOWN, and only given the tile set, ``tiles``) is tried as each letter
    of the set: the ways hold it named (``Tile(letter, True)``), one way a letter that fits.
    Several ways (two plays far apart, made in either order; a blank that fits more letters)
    are all returned, in the order found: which player made which, and a blank's letter, are
    then the players' to say."""
    unknown = [p for p in placements if p.tile.letter == BLANK]
    if lexicon is None or len(placements) < 2 or (unknown and (tiles is None or len(unknown) > MAX_UNKNOWN)):
        return []
    alphabet = tuple(tiles.alphabet) if tiles is not None else ()
    tried = 0

    def candidates(left: tuple[Placement, ...]):
        # runs of the tiles left along one row or column, at most a rack of them
        seen = set()
        for axis in (0, 1):
            lines: dict[int, list[Placement]] = {}
            for p in left:
                lines.setdefault(p.square[axis], []).append(p)
            for line in lines.values():
                line.sort(key=lambda p: p.square[1 - axis])
                for i in range(len(line)):
                    for j in range(i, min(len(line), i + rack_size)):
                        group = tuple(line[i:j + 1])
                        key = frozenset(p.square for p in group)
                        if key not in seen:
                            seen.add(key)
                            yield group

    def lay(on: Board, left: tuple[Placement, ...], plays_left: int):
        nonlocal tried
        if not left:
            yield ()
            return
        if plays_left == 0:
            return
        for group in candidates(left):
            if plays_left == 1 and len(group) != len(left):
                continue
            rest = tuple(p for p in left if p not in group)
            blanks = [i for i, p in enumerate(group) if p.tile.letter == BLANK]
            for letters in product(alphabet, repeat=len(blanks)) if blanks else [()]:
                named = list(group)
                for i, ch in zip(blanks, letters):
                    named[i] = Placement(group[i].square, Tile(ch, True))
                tried += 1
                if tried > budget:
                    raise _TooMany
                try:
                    play = validate_play(on, named)
                except CompanionError:
                    continue
                if not all(w.text in lexicon for w in play.words):
                    continue
                for more in lay(on.place(named), rest, plays_left - 1):
                    yield (tuple(named),) + more

    try:
        for n in range(1, most + 1):
            ways = list(lay(board, tuple(placements), n))
            if ways:
                return ways if n > 1 else []       # one play of words: nothing was missed
    except _TooMany:
        return []
    return []


class _TooMany(Exception):
    """The search for missed plays went past its budget."""
