"""``companion replay FOLDER``: score a game from photos, one taken after each move.

Camera to vision to engine, in one direction: every photo is located and read by ``vision``
(labels and confidences per square, nothing about rules); ``companion.camera`` turns the reading
into the tiles added since the last confirmed board; the referee checks and scores the play. The
players are taken in turn; a photo with no new tile is a pass (or an exchange: the camera cannot
tell them apart).

Questions the camera cannot settle are printed, never silently decided as fact: a blank tile's
letter is taken from the word list when exactly one letter makes every word acceptable (and said
so), otherwise left unnamed (it scores 0 either way); a letter read with low confidence is used
and flagged.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from companion.board import Placement, Tile, square_name
from companion.camera import blank_letters, read_move
from companion.errors import CompanionError
from companion.game import tiles_spec
from companion.referee import Referee
from companion.tiles import BLANK, get_tileset


#: Below this, a square the reader was unsure of stays unreadable (the picture must be taken again)
#: rather than becoming a question: too weak a guess to put to the players.
MIN_GUESS = 0.5


def reading_for_engine(reading) -> tuple[list[str], list[list[float]]]:
    """Labels and confidences from a ``vision.read.BoardReading``: a square the reader was unsure
    of carries its best guess with its (low) confidence, so the engine can ask about it, unless the
    guess is too weak; a covered square stays covered."""
    labels, conf = [], []
    for r, row in enumerate(reading.labels):
        out = []
        for c, ch in enumerate(row):
            kind = str(reading.kinds[r][c])
            guess = reading.guesses[r][c]
            if ch == "#" and kind == "unsure" and guess not in (".", "#") and reading.confidence[r][c] >= MIN_GUESS:
                ch = guess
            out.append(ch)
        labels.append("".join(out))
        conf.append([float(x) for x in reading.confidence[r]])
    return labels, conf


def replay_folder(folder: str, players: list[str], tileset: str = "en", lexicon=None, reference: str | None = None,
                  out: TextIO = sys.stdout, min_confidence: float = 0.8) -> int:
    """Score the photos in ``folder`` (sorted by name) as the moves of a game from an empty board."""
    import cv2

    from vision.errors import VisionError
    from vision.frames import load_image, open_source
    from vision.read import BoardReader
    from vision.track import BoardTracker

    tiles = get_tileset(tileset)
    if not Path(folder).is_dir():
        raise CompanionError(f"{folder} is not a folder of photos")
    referee = Referee.start({"players": players, "tileset": tiles.code, "challenge_rule": "single",
                             "lexicon": "default" if lexicon is None else lexicon.name}, lexicon)
    letters = "".join(tiles.alphabet)
    tracker = BoardTracker()
    reference_rect = None
    if reference:
        try:
            ref_image = load_image(reference)
            ref_loc = tracker.update(ref_image, reference)
            reference_rect = ref_loc.rectify(ref_image)
        except VisionError as exc:
            raise CompanionError(f"the empty-board photo cannot be used: {exc}") from None
    reader = BoardReader(letters, reference_rect)
    problems = 0
    try:
        source = open_source(folder)
    except VisionError as exc:
        raise CompanionError(str(exc)) from None
    with source:
        for frame in source:
            state = referee.state
            player = state.players[state.to_move]
            try:
                loc = tracker.update(frame.image, frame.name)
                reading = reader.read(loc.rectify(frame.image))
            except VisionError as exc:
                problems += 1
                out.write(f"{frame.name}\tERROR {exc}\n")
                continue
            labels, conf = reading_for_engine(reading)
            move = read_move(state.board, labels, conf, tiles, min_confidence)
            for note in move.misread:
                out.write(f"{frame.name}\tnote: {note}\n")
            if not move.ready:
                problems += 1
                out.write(f"{frame.name}\tERROR squares covered or unreadable: {', '.join(square_name(s) for s in move.covered)}; take the photo again\n")
                continue
            if not move.placements:
                referee.submit({"type": "pass", "player": player})
                out.write(f"{player}\tpass (no new tile in {frame.name})\t0\n")
                continue
            placements = list(move.placements)
            for q in move.questions:
                if q.kind == "unsure":
                    out.write(f"{frame.name}\tquestion: {q.text}\n")
            if any(p.tile.blank for p in placements):
                options = blank_letters(state.board, placements, tiles, referee.lexicon)
                for i, p in enumerate(placements):
                    if p.square in options:
                        choice = options[p.square]
                        if len(choice) == 1:
                            placements[i] = Placement(p.square, Tile(choice[0], True))
                            out.write(f"{frame.name}\tnote: the blank on {square_name(p.square)} is taken as {choice[0]}, the only letter the word list allows there\n")
                        else:
                            out.write(f"{frame.name}\tquestion: which letter does the blank on {square_name(p.square)} stand for?"
                                      f"{' (the word list allows ' + ', '.join(choice) + ')' if choice else ''}\n")
            try:
                referee.submit({"type": "play", "player": player, "tiles": tiles_spec(placements)})
            except CompanionError as exc:
                problems += 1
                out.write(f"{frame.name}\tERROR the tiles read are not a legal play: {exc}\n")
                continue
            turn, play = referee.state.turns[-1], referee.state.pending.play
            out.write(f"{player}\t{square_name(play.main_word.start)}\t{play.direction}\t{' '.join(w.display for w in play.words)}\t{turn.score}\n")
    totals = " ".join(f"{name}={score}" for name, score in zip(referee.state.players, referee.state.scores))
    out.write(f"totals: {totals}\n")
    return 0 if not problems else 1
