"""Scoring a game from the camera: ``companion replay FOLDER`` and ``companion watch SOURCE``.

Camera to vision to engine, in one direction: every picture is located and read by ``vision``
(labels and confidences per square, nothing about rules); ``companion.camera`` turns the reading
into the tiles added since the last confirmed board; the referee checks and scores the play.

* ``replay``: a folder of photos, sorted by name, one taken after each move; the players are taken
  in turn, and a photo with no new tile is a pass (or an exchange: the camera cannot tell) --
  except photos of the empty board before the first move, which show the table being set up.
* ``watch``: a video file or a live camera. A move is taken only once the picture is still and
  every square agrees over several frames (``vision.read.Stabiliser``), so hands, arms and shadows
  passing over the board are never read as tiles. A new stable board with new tiles is the next
  player's move. What the camera cannot see (a pass, an exchange, a challenge) the players type
  while it watches, and they answer its questions the same way (``fix H8 Q``, ``blank H10 O``:
  :meth:`CameraTable.command`).

Questions the camera cannot settle are printed, never silently decided as fact: a blank tile's
letter is taken from the word list when exactly one letter makes every word acceptable (and said
so), otherwise left unnamed (it scores 0 either way); a letter read with low confidence is used
and flagged; a tile seen but not read is taken only when the word list allows a single letter there
(said), or the camera's weak guess is among the letters it allows (asked); otherwise the photo must be
taken again.
"""

from __future__ import annotations

import queue
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, TextIO

import numpy as np

from companion.board import Placement, Tile, square_name
from companion.camera import (blank_the_words_need, board_words, fitting_letters, found_blank_letters, plays_in_turn,
                              read_move, tiles_read_as_held, word_ends)
from companion.errors import CompanionError
from companion.game import tiles_spec
from companion.referee import Referee
from companion.tiles import BLANK, get_tileset

#: Below this, a square the reader was unsure of stays unreadable (the picture must be taken again)
#: rather than becoming a question: too weak a guess to put to the players.
MIN_GUESS = 0.5


def reading_for_engine(reading) -> tuple[list[str], list[list[float]], list[tuple[int, int]]]:
    """Labels, confidences and unread tiles from a ``vision.read.BoardReading``.

    A square the reader was unsure of carries its best guess with its (low) confidence, so the
    engine can ask about it, unless the guess is too weak: then it stays ``#`` and, when the reader
    took it for a tile with a letter and no neighbour is covered (so it is not a hand), it is listed
    as an unread tile, which the word list may settle. A covered square stays covered.
    """
    labels, conf, unread = [], [], []
    kinds = reading.kinds
    n = len(reading.labels)
    for r, row in enumerate(reading.labels):
        out = []
        for c, ch in enumerate(row):
            kind = str(kinds[r][c])
            guess = reading.guesses[r][c]
            if ch == "#" and kind == "unsure" and guess not in (".", "#"):
                if reading.confidence[r][c] >= MIN_GUESS:
                    ch = guess
                elif guess != "?" and not any(0 <= r + dr < n and 0 <= c + dc < n and str(kinds[r + dr][c + dc]) == "covered"
                                              for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))):
                    unread.append((r, c))
            out.append(ch)
        labels.append("".join(out))
        conf.append([float(x) for x in reading.confidence[r]])
    return labels, conf, unread


TYPED_HELP = """while the camera watches, type (then Enter):
  pass | exchange N | challenge NAME | undo    what the camera cannot see
  fix H8 Q                   the tile on H8 is Q (q: a blank standing for Q; ?: a blank; .: no tile)
  blank H10 O                the blank on H10 stands for O
  end NAME=LETTERS ...       the tiles left on the racks when the game has ended
  sheet | board | status | check WORD ... | quit"""


class TypedLines:
    """Lines the players type while the camera watches: a thread reads ``stream`` as they come,
    :meth:`pending` hands over those typed since it was last asked (never waiting)."""

    def __init__(self, stream):
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        try:
            for line in stream:
                self._lines.put(line)
        except (OSError, ValueError):       # no input to read (closed, or captured)
            pass

    def pending(self) -> list[str]:
        out = []
        while True:
            try:
                out.append(self._lines.get_nowait())
            except queue.Empty:
                return out


@dataclass(frozen=True)
class MidGame:
    """A game the camera joins mid-way: its first picture with tiles is the board as found (the
    ``position`` event), not a play.  ``scores``: each player's points so far (0 for anyone not
    named); ``to_move``: whose turn it is (default the first player)."""

    scores: Mapping[str, int] = field(default_factory=dict)
    to_move: str | None = None


class CameraTable:
    """A game scored from pictures: the referee, the board tracker and the square reader."""

    def __init__(self, players: list[str], tileset: str = "en", lexicon=None, reference: str | None = None,
                 out: TextIO = sys.stdout, min_confidence: float = 0.8, photos: bool = False,
                 board_profile: str | None = None, set_profile: str | None = None, store=None,
                 game_id: int | None = None, mid_game: MidGame | None = None):
        """``board_profile``: a board profile (JSON, ``companion vision corners``): the grid's
        corners set once, for a camera that stays put -- found where the automatic locator cannot
        (a black-and-white camera, a board without premium colours).  ``set_profile``: the tile set
        calibrated from its tile sheet (``companion vision calibrate``).  ``store``: the saved
        games (``companion.store.GameStore``): the game is saved there, every move as it is
        taken, as ``game new`` saves one; with ``game_id``, that saved game is carried on with its
        players (``players``: empty, or the same), tile set (``tileset`` is not used) and board.
        ``mid_game``: the game began before the camera was set up (:class:`MidGame`)."""
        from vision.errors import VisionError
        from vision.frames import load_image
        from vision.read import BoardReader
        from vision.track import BoardTracker

        if game_id is not None and mid_game is not None:
            raise CompanionError("a saved game carried on (--game) already has its board: --mid-game is for a game "
                                 "the referee has not seen yet")
        if game_id is not None:
            if store is None:
                raise CompanionError("a saved game can only be carried on from the saved-games file")
            self.referee = Referee.resume(store, game_id, lexicon)
            start = self.referee.events[0]
            if start.get("variant", "standard") != "standard":
                raise CompanionError(f"saved game {game_id} is {start['variant']}, not standard Scrabble: "
                                     f"the camera scores standard Scrabble games")
            if players and list(players) != list(self.referee.state.players):
                raise CompanionError(f"saved game {game_id} is played by {', '.join(self.referee.state.players)}, "
                                     f"not {', '.join(players)}")
            tileset = start.get("tileset", tileset)
        self.tiles = get_tileset(tileset)
        corners_kept = load_board_profile(board_profile) if board_profile else None
        letters = "".join(self.tiles.alphabet)
        own_tiles = load_set_profile(set_profile, letters, self.tiles.code) if set_profile else None
        if game_id is None:
            if not players:
                raise CompanionError("name the players (--players Ann,Ben) or carry on a saved game (--game ID)")
            self.referee = Referee.start({"players": players, "tileset": self.tiles.code, "challenge_rule": "single",
                                          "lexicon": "default" if lexicon is None else lexicon.name}, lexicon,
                                         store, "camera: " + " v ".join(players))
        if mid_game is not None:
            for name in list(mid_game.scores) + ([mid_game.to_move] if mid_game.to_move is not None else []):
                if name not in self.referee.state.players:
                    raise CompanionError(f"{name} is not a player of this game ({', '.join(self.referee.state.players)})")
        self.mid_game = mid_game
        self.tracker = BoardTracker(photos=photos, profile=corners_kept)   # photos, one a move, or video
        self.corners: np.ndarray | None = None       # the grid's corners in the last picture
        self.out = out
        self.min_confidence = min_confidence
        self.problems = 0
        self.view: tuple[int, bool] | None = None     # (quarter turns, mirrored) of the last reading taken
        self.glared: frozenset = frozenset()           # its squares washed out by light
        self.blur_px: float | None = None               # how blurred its picture was (vision.read.blur_width)
        self.blank_before: frozenset = frozenset()    # "blanks" seen off the last move taken: glare
        self.last_picture = None                      # the rectified picture the last move was taken from
        reference_rect = None
        if reference:
            try:
                ref_image = load_image(reference)
                reference_rect = self.tracker.update(ref_image, reference).rectify(ref_image)
            except VisionError as exc:
                raise CompanionError(f"the empty-board photo cannot be used: {exc}") from None
        # the tile set's point values let the reader check a letter it hesitates over
        self.reader = BoardReader(letters, reference_rect, own_tiles, values=dict(self.tiles.values))

    def say(self, text: str) -> None:
        self.out.write(text + "\n")

    def error(self, name: str, text: str) -> None:
        self.problems += 1
        self.say(f"{name}\tERROR {text}")

    def unread_hint(self, squares) -> str:
        """What the message about unread ``squares`` (the reading's) ends with: why they may be
        unread and what would help, or ''.  Light washing some of them out (a lamp's glare: the
        reading's ``glared``): move the lamp or the camera a little.  The board small in the last
        picture where they are (the smallest of them, along the direction the view shrinks it: a
        board seen at a slant has its far rows flattened; :func:`vision.read.small_board_note`).
        The picture blurred enough to leave tiles unread (:func:`vision.read.blurred_note`)."""
        from vision.change import as_read
        from vision.geometry import square_sizes
        from vision.read import blurred_note, glare_note, small_board_note

        squares = list(squares)
        if not squares:
            return ""
        notes = [glare_note(s for s in squares if s in self.glared)]
        if self.corners is not None and self.view is not None:     # worked out only when asked
            sizes = as_read(square_sizes(self.corners), *self.view)
            notes.append(small_board_note(min(float(sizes[s]) for s in squares)))
        notes.append(blurred_note(self.blur_px))
        notes = [n for n in notes if n]
        return f" ({'; '.join(notes)})" if notes else ""

    def rectified(self, frame):
        """The frame's board, straightened (None, with an ERROR line, when there is no board)."""
        from vision.errors import VisionError
        from vision.read import rectify_board

        try:
            location = self.tracker.update(frame.image, frame.name)
            self.corners = location.corners
            if location.details.get("framed_anew"):
                # a photo of another shape (the phone turned): the corners' order says nothing
                # of which side is up, the letters decide it again
                self.reader.decide_way_up_again()
            # the grid and a few pixels of the photo round it: edge squares are cut from the photo
            return rectify_board(frame.image, location.corners)
        except VisionError as exc:
            self.error(frame.name, str(exc))
            return None
        except Exception as exc:  # a fault of ours must not end the game: this photo is lost, not the rest
            self.error(frame.name, f"the board could not be found in this photo (an error in Table Companion: "
                                   f"{type(exc).__name__}: {exc}); take the photo again, and please report it")
            return None

    def read(self, picture):
        """The reader's reading of ``picture`` (rectified), :meth:`checked`."""
        return self.checked(self.reader.read(picture), picture)

    def checked(self, reading, picture):
        """``reading`` of ``picture`` (rectified), or the picture read again with the way up
        decided afresh where the reading shows most tiles already on the board as something
        else: a photo taken from another side of the table, or a tablet turned on its stand,
        whose corners were taken in the last picture's order (then every tile of the game would
        look new, and the picture be refused as an illegal play).  The new reading is kept only
        where it reads more of those tiles as they are."""
        board = self.referee.state.board
        agree, disagree = tiles_read_as_held(board, reading.labels)
        if disagree < max(MISREAD_TILES, agree + 1):
            return reading
        from vision.errors import VisionError

        kept = self.reader.way_up()
        self.reader.decide_way_up_again()
        try:
            again = self.reader.read(picture)
        except VisionError:
            again = None
        if again is not None:
            agree2, disagree2 = tiles_read_as_held(board, again.labels)
            if agree2 > agree and disagree2 < disagree:
                return again
        self.reader.keep_way_up(kept)
        return reading

    def compare_with_last(self, reading, picture) -> tuple[frozenset, frozenset]:
        """Against the picture the last move was taken from (``vision.change``): the squares
        read empty (on an empty square of the board) whose look changed by CHANGED_SPREADS or
        more -- where a blank of nearly the board's colour may have been put down -- and the
        squares read covered or unreadable on an empty square that look as they did (under
        UNCHANGED_SPREADS: a lamp's glare that stays put, not a tile of this move)."""
        if picture is None or self.last_picture is None:
            return frozenset(), frozenset()
        from vision.change import as_read, square_change

        board = self.referee.state.board
        k, mirrored = reading.orientation, reading.mirrored
        free = np.array([[board[r, c] is None for c in range(board.size)] for r in range(board.size)])
        empty = free & np.array([[ch == "." for ch in row] for row in reading.labels])
        unturned = np.rot90(empty, -k)           # as_read's inverse: the pictures are not turned
        z = as_read(square_change(self.last_picture, picture, unturned[:, ::-1] if mirrored else unturned),
                    k, mirrored)
        if (z[empty] >= CHANGED_SPREADS).mean() > CHANGED_MOST:
            # the pictures do not match square for square (the board moved)
            return frozenset(), frozenset()
        covered = free & np.array([[ch == "#" for ch in row] for row in reading.labels])

        def squares(mask):
            return frozenset((int(r), int(c)) for r, c in zip(*np.nonzero(mask)))
        return squares(empty & (z >= CHANGED_SPREADS)), squares(covered & (z < UNCHANGED_SPREADS))

    def take(self, reading, name: str, empty_is_pass: bool, wait_when_covered: bool = False,
             picture=None, repeat_photos: bool = False) -> None:
        """Turn one trusted reading into the next player's move (or a pass), print it.

        A square that may hold a tile of the play but is covered or unreadable: a photo must be
        taken again (an ERROR), or, ``wait_when_covered`` (a camera watching), the next still
        picture is waited for.  One that cannot be part of the play is only noted.  ``picture``:
        the rectified picture read (compared with the one the last move was taken from, see
        :meth:`compare_with_last`).  ``repeat_photos``: a photo showing no new tile is the board
        photographed again, not a pass (several photos a move)."""
        state = self.referee.state
        player = state.players[state.to_move]
        view = (reading.orientation, reading.mirrored)
        if self.view is not None and view != self.view and not state.board.is_empty:
            agree, disagree = tiles_read_as_held(state.board, reading.labels)
            if agree > disagree:
                # the photo was taken from elsewhere (another side of the table, the phone
                # turned): the tiles already down read as they were taken
                self.say(f"{name}\tnote: the camera sees the board another way round now (from another side of "
                         f"the table, or the phone turned); the tiles already on the board read as before")
            else:
                # the reader decided again which way the board is seen (a first move of a few
                # letters could not tell): what was taken before was read the other way round
                self.say(f"{name}\tnote: the camera now sees the board {'mirrored and ' if view[1] else ''}"
                         f"turned by {view[0]} quarter turn(s), not as before: the moves taken so far were "
                         f"read the other way round; check their squares")
        elif view[1] and (self.view is None or not self.view[1]):
            self.say(f"{name}\tnote: the camera mirrors its picture (a phone used as a webcam, a front "
                     f"camera): each picture is read flipped back")
        self.view = view
        self.glared = frozenset(getattr(reading, "glared", ()))
        self.blur_px = getattr(reading, "details", {}).get("blur_px")
        labels, conf, unread = reading_for_engine(reading)
        changed, as_before = self.compare_with_last(reading, picture)
        move = read_move(state.board, labels, conf, self.tiles, self.min_confidence, unread,
                         reading.maybe_blank, self.blank_before, changed, as_before)
        for note in move.misread:
            self.say(f"{name}\tnote: {note}")
        if self.mid_game is not None and not state.turns and (move.placements or move.unread):
            self._take_position(move, name, picture, wait_when_covered)
            return
        if not move.ready:
            covered = ", ".join(square_name(s) for s in move.covered)
            if wait_when_covered:
                self.say(f"{name}\twaiting: squares covered or unreadable: {covered}{self.unread_hint(move.covered)}")
            else:
                self.error(name, f"squares covered or unreadable: {covered}; take the photo again"
                                 f"{self.unread_hint(move.covered)}")
            return
        if self.mid_game is not None and not state.turns:
            # an empty board: the game has not begun after all, and is scored from its first move
            self.say(f"{name}\tnote: the board is empty: the game is scored from its first move, not joined mid-way")
            self.mid_game = None
        if move.stray:
            self.say(f"{name}\tnote: {', '.join(square_name(s) for s in move.stray)} look{'s' if len(move.stray) == 1 else ''} "
                     f"like a blank tile, off this play's line: not taken (lamp light or a reflection?); "
                     f"if a blank was played there, take the photo again")
        if move.elsewhere and (move.placements or move.unread):
            self.say(f"{name}\tnote: {', '.join(square_name(s) for s in move.elsewhere)} covered or unreadable, "
                     f"off this play's line{' or as before it' if set(move.elsewhere) & as_before else ''}: "
                     f"no tile of it can be there")
        if not move.placements and not move.unread:
            if empty_is_pass and state.board.is_empty and not state.turns:
                # a photo of the empty board before anyone has played is the table being set up
                # (players often take one first): as passes, two such photos each would end a
                # two-player game before it began
                self.say(f"{name}\tnote: the empty board before the first move (setting up): not a pass")
                self.last_picture = picture
            elif empty_is_pass and repeat_photos:
                # several photos a move: one with no new tile is the board photographed again
                self.say(f"{name}\tnote: no new tile: the board as it was photographed again (not a pass)")
            elif empty_is_pass:
                self.referee.submit({"type": "pass", "player": player})
                self.say(f"{player}\tpass (no new tile in {name})\t0")
                self.blank_before = frozenset(move.stray)
                self.last_picture = picture
            return
        placements = list(move.placements)
        maybe = [q.square for q in move.questions if q.kind == "maybe-blank"] + list(move.changed_ends)
        unread = move.unread
        needed = blank_the_words_need(state.board, placements, unread, maybe, self.tiles,
                                      self.referee.lexicon) if maybe else None
        if needed is None:
            # no square the camera doubted makes words of a play of non-words; one just past an end
            # of its word may (a white blank on a white board changes its square less than lamp
            # flicker): asked, not taken -- without a sign of it a phony is as likely as a blank
            ends = word_ends(state.board, [p.square for p in placements] + list(unread), labels)
            end = blank_the_words_need(state.board, placements, unread, ends, self.tiles,
                                       self.referee.lexicon) if ends else None
            if end is not None:
                self.say(f"{name}\tquestion: is there a blank tile on {square_name(end)}? (the camera saw none, but "
                         f"the words read are not words and are with a tile there; the play is scored without it)")
        if needed is not None:
            placements.append(Placement(needed, Tile(BLANK, True)))
            self.say(f"{name}\tnote: a blank tile is taken on {square_name(needed)}: the camera saw no letter "
                     f"there, but the words read are not words without a tile there and are with one (check it)")
        for q in move.questions:
            if q.kind == "unsure" or (q.kind == "maybe-blank" and q.square != needed):
                self.say(f"{name}\tquestion: {q.text}")
        blanks = [p.square for p in placements if p.tile.blank and p.tile.letter == BLANK]
        options = fitting_letters(state.board, placements, blanks + list(unread), self.tiles,
                                  self.referee.lexicon) if blanks or unread else {}
        # a tile the camera could not read: the word list, then the camera's weak guess, settle it
        for s in unread:
            allowed, guess = options.get(s, []), reading.guesses[s[0]][s[1]]
            where = square_name(s)
            if len(allowed) == 1:
                placements.append(Placement(s, Tile(allowed[0])))
                self.say(f"{name}\tnote: the tile on {where} could not be read; it is taken as {allowed[0]}, "
                         f"the only letter the word list allows there (check it)")
            elif guess in allowed:
                placements.append(Placement(s, Tile(guess)))
                self.say(f"{name}\tquestion: is the tile on {where} {guess}? (the camera could hardly read it; "
                         f"the word list allows {', '.join(allowed)})")
            else:
                allowed_text = f" (the word list allows {', '.join(allowed)})" if allowed else ""
                self.error(name, f"the tile on {where} cannot be read{allowed_text}; take the photo again"
                                 f"{self.unread_hint([s])}")
                return
        blank_said = []       # said once the play is taken as one (plays the camera missed say their own)
        for i, p in enumerate(placements):
            choice = options.get(p.square) if p.square in blanks else None
            if choice is None:
                continue
            if len(choice) == 1:
                placements[i] = Placement(p.square, Tile(choice[0], True))
                blank_said.append(f"{name}\tnote: the blank on {square_name(p.square)} is taken as {choice[0]}, "
                                  f"the only letter the word list allows there")
            else:
                allowed = f" (the word list allows {', '.join(choice)})" if choice else ""
                blank_said.append(f"{name}\tquestion: which letter does the blank on {square_name(p.square)} "
                                  f"stand for?{allowed}")
        placements.sort(key=lambda p: p.square)
        try:
            self.referee.submit({"type": "play", "player": player, "tiles": tiles_spec(placements)})
        except CompanionError as exc:
            if not self._take_missed_plays([Placement(p.square, Tile(BLANK, True)) if p.tile.blank else p
                                            for p in placements], name):
                for line in blank_said:
                    self.say(line)
                self.error(name, f"the tiles read are not a legal play: {exc}")
                return
        else:
            for line in blank_said:
                self.say(line)
            self.say(self._turn_line(player))
        self.blank_before = frozenset(move.stray)
        self.last_picture = picture

    def _take_position(self, move, name: str, picture, wait_when_covered: bool) -> None:
        """The first picture of a game joined mid-way: its tiles are the board as found (the
        ``position`` event), with the scores so far.  Every square must be read (a covered or
        unread one could hold any tile: the next picture, or the photo again); letters read
        unsure are asked, a blank's letter is taken from the word list where it allows one only
        (asked otherwise), and words the word list lacks are said (a misread letter, or a word
        the table let stand).  A covered or unreadable square joined to no tile through other such
        squares holds none (a board's tiles all join up): noted, never holding the board up."""
        tiles = {p.square for p in move.placements} | set(move.unread)
        hidden = set(move.covered) | set(move.elsewhere)
        near = {s for s in hidden if any((s[0] + dr, s[1] + dc) in tiles for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))}
        todo = list(near)
        while todo:                     # hidden squares joined to those, through hidden squares
            r, c = todo.pop()
            for sq in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
                if sq in hidden and sq not in near:
                    near.add(sq)
                    todo.append(sq)
        holding = sorted(near | set(move.unread))
        if holding:
            where = ", ".join(square_name(s) for s in holding)
            if wait_when_covered:
                self.say(f"{name}\twaiting: squares covered or unreadable on the board as found: {where}"
                         f"{self.unread_hint(holding)}")
            else:
                self.error(name, f"squares covered or unreadable on the board as found: {where}; take the photo "
                                 f"again{self.unread_hint(holding)}")
            return
        state = self.referee.state
        placements = sorted(move.placements, key=lambda p: p.square)
        board = state.board.place(placements)
        said = [f"{name}\tquestion: {q.text}" for q in move.questions if q.kind == "unsure"]
        if hidden:
            said.append(f"{name}\tnote: {', '.join(square_name(s) for s in sorted(hidden))} covered or unreadable, "
                        f"joined to no tile: no tile of the board can be there")
        if move.stray:
            said.append(f"{name}\tnote: {', '.join(square_name(s) for s in move.stray)} look like a blank tile, but "
                        f"join no word of the board: not taken (lamp light or a reflection?)")
        for sq, letters in sorted(found_blank_letters(board, self.tiles, self.referee.lexicon).items()):
            if len(letters) == 1:
                placements = [Placement(sq, Tile(letters[0], True)) if p.square == sq else p for p in placements]
                said.append(f"{name}\tnote: the blank on {square_name(sq)} is taken as {letters[0]}, the only "
                            f"letter the word list allows there")
            else:
                allowed = f" (the word list allows {', '.join(sorted(letters))})" if letters else ""
                said.append(f"{name}\tquestion: which letter does the blank on {square_name(sq)} stand for?{allowed}")
        event = {"type": "position", "tiles": tiles_spec(placements), "scores": dict(self.mid_game.scores)}
        if self.mid_game.to_move is not None:
            event["to_move"] = self.mid_game.to_move
        try:
            self.referee.submit(event)
        except CompanionError as exc:
            self.error(name, f"the tiles read are not a board in play: {exc}")
            return
        state = self.referee.state
        lexicon = self.referee.lexicon
        odd = sorted({text for _, text in board_words(state.board)
                      if lexicon is not None and BLANK not in text and text not in lexicon})
        for line in said:
            self.say(line)
        if odd:
            self.say(f"{name}\tnote: the board as found shows words the word list lacks: {', '.join(odd)} "
                     f"(a letter read wrong, or a word the table let stand: check them)")
        scores = " ".join(f"{p}={v}" for p, v in zip(state.players, state.scores))
        self.say(f"{name}\tboard as found: {len(placements)} tiles; scores so far {scores}; "
                 f"{state.players[state.to_move]} to move")
        self.blank_before = frozenset()
        self.last_picture = picture

    def command(self, line: str) -> bool:
        """A line the players typed while the camera watches: what the camera cannot see (``pass``,
        ``exchange N``, ``challenge NAME``, ``undo``, ``end NAME=LETTERS ...``) or an answer to its
        questions -- ``fix H8 Q`` (the tile on H8 is Q), ``fix H8 q``
        (a blank standing for Q), ``fix J8 ?`` (a blank the camera missed), ``fix K8 .`` (no tile
        there: glare), ``blank H10 O`` (the blank on H10 stands for O); and the typed console's
        other commands (``sheet``, ``board``, ``check WORD``, ``play 8D WORD``, ...).  A line that
        breaks a rule is refused, said, and changes nothing.  False for ``quit``."""
        from companion.console import run_command

        words = line.split()
        if not words:
            return True
        cmd, args = words[0].lower(), words[1:]
        if cmd in ("quit", "exit", "q"):
            return False
        try:
            if cmd in ("fix", "blank"):
                if len(args) != 2 or len(args[1]) != 1:
                    raise CompanionError("write: fix SQUARE LETTER (e.g. fix H8 Q; q a blank standing for Q, ? a blank, "
                                         ". no tile) or blank SQUARE LETTER (e.g. blank H10 O)")
                self.correct_tile(args[0], args[1].lower() if cmd == "blank" else args[1])
            elif cmd == "help":
                self.say(TYPED_HELP)
            else:
                run_command(self.referee, cmd, args, self.say)
        except CompanionError as exc:
            self.say(f"refused: {exc}")
        return True

    def correct_tile(self, square: str, letter: str) -> None:
        """A tile put right in the play that laid it (:meth:`Referee.correct_tile`), said: the
        play as the camera says one where it is the last, otherwise the scoresheet's lines of
        every turn scored again."""
        from companion.scoresheet import format_turn

        first = self.referee.correct_tile(square, letter)
        state = self.referee.state
        if first == len(state.turns) - 1 and state.pending is not None:
            self.say(self._turn_line(state.players[state.turns[-1].player]))
            return
        self.say(f"note: {square.upper()} put right; the turns from there on, scored again:")
        for i in range(first, len(state.turns)):
            self.say(format_turn(state, i))

    def _turn_line(self, player: str) -> str:
        """The play just taken, as printed: player, square, direction, words, score."""
        turn, play = self.referee.state.turns[-1], self.referee.state.pending.play
        words = " ".join(w.display for w in play.words)
        return f"{player}\t{square_name(play.main_word.start)}\t{play.direction}\t{words}\t{turn.score}"

    def _take_missed_plays(self, placements: list[Placement], name: str) -> bool:
        """New tiles that are no one legal play but are two or more made in turn (plays the
        camera missed: ``companion.camera.plays_in_turn``): taken as the next players' plays, in
        the order found, said and asked about (who played which, where the same plays could come
        in another order).  False (nothing taken) where they are not, or where they split into
        plays more than one way (the scores would differ: the camera cannot choose)."""
        state = self.referee.state
        ways = plays_in_turn(state.board, placements, self.referee.lexicon, state.config.rack_size, tiles=self.tiles)
        if not ways:
            return False
        orders = {tuple(frozenset(p.square for p in group) for group in way) for way in ways}
        if len({frozenset(order) for order in orders}) > 1:
            # the tiles make other plays taken otherwise (scores differ): the camera cannot say
            self.say(f"{name}\tnote: the {len(placements)} new tiles could be {len(ways[0])} plays made in turn, "
                     f"but split more than one way: not taken (take a photo after each play)")
            return False
        # a blank that fits more than one letter is taken unnamed (it scores 0 either way) and asked
        fits: dict = {}
        for way in ways:
            for group in way:
                for p in group:
                    if p.tile.blank:
                        fits.setdefault(p.square, set()).add(p.tile.letter)
        open_blanks = {sq: sorted(letters) for sq, letters in fits.items() if len(letters) > 1}
        plays = tuple(tuple(Placement(p.square, Tile(BLANK, True)) if p.square in open_blanks else p for p in group)
                      for group in ways[0])
        lines = []
        try:
            for group in plays:
                player = self.referee.state.players[self.referee.state.to_move]
                self.referee.submit({"type": "play", "player": player,
                                     "tiles": tiles_spec(sorted(group, key=lambda p: p.square))})
                lines.append(self._turn_line(player))
        except CompanionError:
            for _ in lines:                        # all or nothing: no half of it stays taken
                self.referee.undo()
            return False
        self.say(f"{name}\tnote: the {len(placements)} new tiles are {len(plays)} plays, not one: the camera "
                 f"missed {len(plays) - 1} (a photo not taken, or a play made while the board was hidden); "
                 f"taken in turn, check them")
        if len(orders) > 1:
            self.say(f"{name}\tquestion: the plays could have been made in another order: who played which? "
                     f"(taken in the order below)")
        for sq, letters in sorted(open_blanks.items()):
            self.say(f"{name}\tquestion: which letter does the blank on {square_name(sq)} stand for? "
                     f"(the word list allows {', '.join(letters)})")
        for line in lines:
            self.say(line)
        return True

    def totals(self) -> None:
        state = self.referee.state
        self.say("totals: " + " ".join(f"{name}={score}" for name, score in zip(state.players, state.scores)))


#: A reading showing at least this many tiles already on the board as something else, and more
#: of them so than as they are, is read again with the way up decided afresh (CameraTable.read):
#: a photo read the wrong way round shows nearly all of them otherwise, a hand or a misread
#: letter one or two.
MISREAD_TILES = 3

#: A square read empty whose look changed by this many spreads of the unchanged squares' change
#: since the last move's picture may hold a tile (vision.change; see docs/camera-games.md): on
#: 300 rendered boards (tuning seed 7700) 63 of 73 blanks read as empty squares changed this
#: much against 3.5 % of the empty squares (a neighbour's raised tile, moved glare).
CHANGED_SPREADS = 4.0
#: ... unless this share of the empty squares changed that much: the pictures do not match.
CHANGED_MOST = 0.1
#: A square read covered or unreadable that changed less than this since the last move's picture
#: looks as it did before the move began: no tile of the move is on it (a lamp's glare on a stand).
UNCHANGED_SPREADS = 2.0


def _open(spec, **options):
    from vision.errors import VisionError
    from vision.frames import open_source

    try:
        return open_source(spec, **options)
    except VisionError as exc:
        raise CompanionError(str(exc)) from None


def _reason(exc: Exception, name: str) -> str:
    """The error's text without the file's path in front (the line starts with the name)."""
    text = str(exc)
    head, sep, rest = text.partition(": ")
    return rest if sep and Path(head).name == name else text


def load_board_profile(path: str):
    """The board profile at ``path`` (corners set once), or a CompanionError saying what is wrong."""
    from vision.errors import VisionError
    from vision.locate import load_profile

    try:
        return load_profile(path)
    except VisionError as exc:
        raise CompanionError(f"the board profile cannot be used: {exc}") from None


def load_set_profile(path: str, letters: str, code: str):
    """The tile-set profile at ``path`` for a game with ``letters``, or a CompanionError."""
    from calibration.set_profile import SetProfile
    from vision.errors import VisionError

    try:
        profile = SetProfile.load(path)
    except VisionError as exc:
        raise CompanionError(f"the tile-set profile cannot be used: {exc}") from None
    missing = "".join(ch for ch in letters if ch not in profile.letters)
    if missing:
        raise CompanionError(f"the tile-set profile {path} was made for the letters {profile.letters}, and this game's "
                             f"'{code}' set also has {missing}: calibrate this set "
                             f"(companion vision calibrate SHEET_PHOTO --tileset {code} --profile FILE)")
    return profile


def replay_folder(folder: str, players: list[str], tileset: str = "en", lexicon=None, reference: str | None = None,
                  out: TextIO = sys.stdout, min_confidence: float = 0.8, *, board_profile: str | None = None,
                  set_profile: str | None = None, store=None, game_id: int | None = None,
                  repeat_photos: bool = False, mid_game: MidGame | None = None) -> int:
    """Score the photos in ``folder`` (sorted by name) as the moves of a game from an empty board
    (or, with ``game_id``, the next moves of that saved game); ``store``: saved there as it goes
    (see :class:`CameraTable`).  ``repeat_photos``: the players may take several photos a move,
    so a photo with no new tile is not a pass (a pass or an exchange is then not seen).
    ``mid_game``: the first photo with tiles is the board as found (:class:`MidGame`)."""
    from vision.errors import VisionError

    if not Path(folder).is_dir():
        raise CompanionError(f"{folder} is not a folder of photos")
    table = CameraTable(players, tileset, lexicon, reference, out, min_confidence, photos=True,
                        board_profile=board_profile, set_profile=set_profile, store=store, game_id=game_id,
                        mid_game=mid_game)
    # a damaged photo is named and left out; the game's other photos are still scored
    with _open(folder, on_unreadable=lambda name, exc: table.error(name, _reason(exc, name))) as source:
        for frame in source:
            rect = table.rectified(frame)
            if rect is None:
                continue
            try:
                reading = table.read(rect)
            except VisionError as exc:     # found but not readable (shaken, too dark): taken again
                table.error(frame.name, str(exc))
                continue
            table.take(reading, frame.name, empty_is_pass=True, picture=rect, repeat_photos=repeat_photos)
    table.totals()
    return 0 if not table.problems else 1


def watch(source_spec, players: list[str], tileset: str = "en", lexicon=None, reference: str | None = None,
          out: TextIO = sys.stdout, frames: int = 4, min_confidence: float = 0.8, *,
          board_profile: str | None = None, set_profile: str | None = None, store=None,
          game_id: int | None = None, mid_game: MidGame | None = None, typed=None) -> int:
    """Score moves from a video or a live camera: each new stable board is the next player's move
    (``store``, ``game_id``: saved, or a saved game carried on; ``mid_game``: the first stable
    board with tiles is the board as found; see :class:`CameraTable`).  ``typed``: where the
    players' typed lines come from (a :class:`TypedLines`, or anything with ``pending()``), each
    taken by :meth:`CameraTable.command` between frames; ``quit`` stops watching."""
    from vision.read import Stabiliser

    table = CameraTable(players, tileset, lexicon, reference, out, min_confidence,
                        board_profile=board_profile, set_profile=set_profile, store=store, game_id=game_id,
                        mid_game=mid_game)
    # a still picture with a covered square is the engine's to judge: a hand resting on a
    # corner of the board does not hold up a play made elsewhere
    stabiliser = Stabiliser(table.reader, frames=frames, require_clear=False)

    def talk() -> bool:
        """Every line typed since the last frame, in order; False once one is ``quit``."""
        return all(table.command(line) for line in (typed.pending() if typed is not None else ()))

    with _open(source_spec) as source:
        for note in getattr(source, "notes", ()):
            table.say(f"{source.description}\tnote: {note}")
        for frame in source:
            if not talk():
                break
            rect = table.rectified(frame)
            if rect is None:
                continue
            reading = stabiliser.feed(rect)
            if reading is not None:
                reading = table.checked(reading, rect)
                table.take(reading, frame.name, empty_is_pass=False, wait_when_covered=True, picture=rect)
        else:
            talk()              # what was typed as the video ended
    table.totals()
    return 0 if not table.problems else 1
