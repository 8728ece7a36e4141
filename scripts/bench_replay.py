"""Benchmark: real recorded games replayed through the camera (a script, not a test).

    .venv/bin/python scripts/bench_replay.py                  # every English game in ../shared/gcg
    .venv/bin/python scripts/bench_replay.py --games 6 --seed 1 --hard
    .venv/bin/python scripts/bench_replay.py --fonts train --size 640x480   # a camera left at 640x480
    .venv/bin/python scripts/bench_replay.py --real                    # the real photos of ../shared/photos/jheidel

Each game of ``../shared/gcg`` (tournament and engine games: real words, real blanks, exchanges,
passes, withdrawn phonies) is played out on a rendered board (``vision/render.py``: one random
board and tile set a game, the English set's point values printed on the tiles, a random camera
on a stand -- the same camera every photo, the board where it was, fresh noise, glare and JPEG each
time; ``--hard``: a hand-held phone, the hard camera of the reading benchmark, the board framed
anew each photo).  After each
turn a photo is taken and handed to the same table ``companion replay`` runs
(:class:`companion.replay.CameraTable`: locate, read, compare with the last board, score).  A
photo it refuses ("take the photo again") is taken again, up to three photos a turn.

Each turn is then one of:

* **right**: the camera's board holds exactly the recorded tiles (a blank as a blank) and the
  turn scored what the record says (a play its points, a pass, an exchange or a withdrawn
  phony 0: the camera sees no new tile);
* **right, asked**: the same, with a question put to the players on the way (an unsure tile, a
  blank's letter, a square that may be a blank);
* **retaken**: right, but only from the second or third photo;
* **refused**: three photos refused;
* **wrong**: scored or placed otherwise than the record -- the fault that matters.

A refused or wrong turn is then put right on the table (undone, and the recorded play entered as
the players would), so one fault does not spoil the rest of the game.  The turn is the unit the
players see: one line of the scoresheet.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared"

from companion.board import Board  # noqa: E402
from companion.errors import CompanionError  # noqa: E402
from companion.events import Replay  # noqa: E402
from companion.gcg import gcg_to_events, read_gcg  # noqa: E402
from companion.replay import CameraTable  # noqa: E402
from companion.tiles import get_tileset  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.frames import Frame  # noqa: E402
from vision.pixels import black_and_white  # noqa: E402
from vision.render import (font_paths, photograph, random_background, random_board_style, random_camera,  # noqa: E402
                           random_tile_style, render_board)

#: Turns the camera sees as a turn (the next player's photo); the rest (a withdrawn phony, a
#: challenge bonus, racks at the end) change no tile on the board or happen off it.
TURN_KINDS = ("play", "pass", "exchange", "lost_turn")
#: Turn lines whose points are points of the board (what the camera can score).
BOARD_POINTS = ("play", "withdrawn")


@dataclass
class TrueTurn:
    player: int
    board: Board
    score: int
    events: list = field(default_factory=list)     # the record's events of this turn


def true_turns(events: list[dict]) -> list[TrueTurn]:
    """The recorded game cut into the turns a camera sees, each with the board after it."""
    replay = Replay(events[0])
    turns: list[TrueTurn] = []
    for ev in events[1:]:
        seen = len(replay.state.turns)
        replay.push(ev)
        new = replay.state.turns[seen:]
        for t in new:
            if t.kind in TURN_KINDS:
                turns.append(TrueTurn(t.player, replay.state.board, 0))
            if turns and t.kind in BOARD_POINTS:
                turns[-1].score += t.score
        if turns:
            turns[-1].board = replay.state.board
            turns[-1].events.append(ev)
    return turns


def board_labels(board: Board) -> list[str]:
    rows = [["."] * 15 for _ in range(15)]
    for (r, c), tile in board.tiles():
        rows[r][c] = "?" if tile.blank else tile.letter
    return ["".join(r) for r in rows]


def _faces(board: Board) -> dict:
    return {sq: ("?" if t.blank else t.letter) for sq, t in board.tiles()}


def same_tiles(camera: Board, truth: Board) -> bool:
    """The same tiles on the same squares, a blank as a blank (its letter is the players' word)."""
    return _faces(camera) == _faces(truth)


@dataclass
class Tally:
    turns: int = 0
    right: int = 0
    asked: int = 0
    retaken: int = 0
    refused: int = 0
    wrong: int = 0
    games: int = 0
    games_clean: int = 0
    photos: int = 0
    seconds: float = 0.0
    faults: list = field(default_factory=list)
    questions: Counter = field(default_factory=Counter)   # kind of question -> how many

    def add(self, other: "Tally") -> None:
        for f in fields(self):      # numbers add up, lists join, counters merge
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def play_game(path: Path, seed: int, role: str, hard: bool, retakes: int = 3, keep: Path | None = None,
              grey: bool = False, size: tuple[int, int] = (1920, 1080)) -> Tally:
    game = read_gcg(path)
    events = gcg_to_events(game)
    turns = true_turns(events)
    tiles = get_tileset(game.tileset)
    names = list(events[0]["players"])
    rng = np.random.default_rng(seed)
    fonts = font_paths(role)
    ts, bs = random_tile_style(rng, fonts), random_board_style(rng)
    cam = random_camera(rng, size, hard)
    background = random_background(rng, (size[1], size[0]))
    shift = tuple(float(v) for v in np.clip(rng.normal(0, 0.07, 2), -0.2, 0.2))
    layout_seed = int(rng.integers(1 << 30))
    stand_seed = int(rng.integers(1 << 30))   # a camera on a stand: the board stays where it is
    values = {k: str(v) for k, v in tiles.values.items()}
    out = io.StringIO()
    table = CameraTable(names, tiles.code, None, None, out, photos=True)   # as `companion replay` sets it
    tally = Tally(games=1)
    t0 = time.perf_counter()
    for i, truth in enumerate(turns):
        if table.referee.state.phase == "ended":
            break
        tally.turns += 1
        labels = board_labels(truth.board)
        top, corners, _ = render_board(labels, bs, ts, np.random.default_rng(layout_seed), shift=shift, values=values)
        done = False
        asked = False
        for attempt in range(retakes):
            stand = None if hard else np.random.default_rng(stand_seed)
            frame, _ = photograph(top, corners, cam, np.random.default_rng(int(rng.integers(1 << 30))), background,
                                  placement=stand)
            if grey:     # a black-and-white camera
                frame = black_and_white(frame)
            tally.photos += 1
            if keep is not None:
                (keep / path.stem).mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(keep / path.stem / f"turn{i + 1:02d}-{attempt + 1}.jpg"), frame)
            before = (len(table.referee.state.turns), table.problems, len(out.getvalue()))
            name = f"turn{i + 1:02d}-{attempt + 1}.jpg"
            rect = table.rectified(Frame(frame, name, i, float(i)))
            if rect is not None:
                try:
                    reading = table.read(rect)
                except VisionError as exc:     # found but not readable (shaken): taken again, as `replay` does
                    table.error(name, str(exc))
                else:
                    table.take(reading, name, empty_is_pass=True, picture=rect)
            said = out.getvalue()[before[2]:]
            asked |= "\tquestion:" in said
            for line in said.splitlines():
                if "\tquestion:" in line:
                    tally.questions[_question_kind(line)] += 1
            if table.problems == before[1] and len(table.referee.state.turns) > before[0]:
                done = True
                break
        state = table.referee.state
        if done:
            new = state.turns[before[0]:]
            score = sum(t.score for t in new if t.kind in BOARD_POINTS)
            if same_tiles(state.board, truth.board) and score == truth.score:
                if attempt:
                    tally.retaken += 1
                elif asked:
                    tally.asked += 1
                else:
                    tally.right += 1
                continue
            tally.wrong += 1
            tally.faults.append(f"{path.name} turn {i + 1}: scored {score}, recorded {truth.score}: "
                                + " | ".join(line for line in said.splitlines() if line))
            for _ in new:
                table.referee.undo()
        else:
            tally.refused += 1
            tally.faults.append(f"{path.name} turn {i + 1}: refused: "
                                + " | ".join(line for line in said.splitlines() if line))
        _enter_by_hand(table, truth, names)
    tally.seconds = time.perf_counter() - t0
    tally.games_clean = int(tally.wrong == 0 and tally.refused == 0)
    return tally


def _question_kind(line: str) -> str:
    if "which letter does the blank" in line:
        return "a blank's letter"
    if "is there a blank tile" in line:
        return "a square that may be a blank"
    if "could hardly read it" in line:
        return "an unread tile, the camera's guess"
    return "an unsure tile"


def _enter_by_hand(table: CameraTable, truth: TrueTurn, names: list[str]) -> None:
    """What the players do after a fault: the recorded turn entered on the table."""
    state = table.referee.state
    player = names[state.to_move]
    before = {sq for sq, _ in state.board.tiles()}
    new = {sq: t for sq, t in truth.board.tiles() if sq not in before}
    try:
        if new:
            spec = {f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}": (t.letter.lower() if t.blank else t.letter)
                    for (r, c), t in new.items()}
            table.referee.submit({"type": "play", "player": player, "tiles": spec})
        else:
            table.referee.submit({"type": "pass", "player": player})
    except CompanionError as exc:  # the table can no longer follow this record
        raise SystemExit(f"cannot enter the recorded turn by hand: {exc}")


def bench_real(folder: Path) -> int:
    """``companion replay --repeat-photos --mid-game`` on each day's photos of ``folder`` (named
    IMG_YYYYMMDD_HHMMSS.jpg: a day's photos are one game, several photos a move; a day whose first
    photo shows tiles is joined mid-way, the board as found): what it took."""
    import re
    import tempfile

    from companion.referee import load_lexicon
    from companion.replay import MidGame, replay_folder

    days: dict[str, list[Path]] = {}
    for p in sorted(folder.glob("*.jpg")):
        m = re.match(r"IMG_(\d{8})_", p.name)
        if m:
            days.setdefault(m.group(1), []).append(p)
    if not days:
        print(f"{folder}: no photos named IMG_YYYYMMDD_*.jpg")
        return 1
    lexicon = load_lexicon("default")
    for day, photos in days.items():
        with tempfile.TemporaryDirectory() as tmp:
            for p in photos:
                os.symlink(p, Path(tmp) / p.name)
            out = io.StringIO()
            replay_folder(tmp, ["Ann", "Ben"], "en", lexicon, None, out, repeat_photos=True, mid_game=MidGame())
        lines = out.getvalue().splitlines()
        plays = [ln for ln in lines if ln.startswith(("Ann\t", "Ben\t")) and "\tpass (" not in ln]
        refused = sorted({ln.split("\t")[0] for ln in lines if "\tERROR " in ln})
        missed = sum("plays, not one" in ln for ln in lines)
        turned = sum("another way round now" in ln for ln in lines)
        found = [ln.split("\t")[1] for ln in lines if "\tboard as found: " in ln]
        odd = [ln.split("lacks: ")[1].split(" (")[0] for ln in lines if "the word list lacks: " in ln]
        print(f"{day}: {len(photos)} photos; " + (f"joined mid-way ({found[0]}" + (f"; words the word list lacks: "
              f"{odd[0]}" if odd else "") + "); " if found else "from an empty board; ") + f"plays taken {len(plays)} "
              f"({', '.join(ln.split(chr(9))[3] + ' ' + ln.split(chr(9))[4] for ln in plays) or 'none'}); "
              f"photos with missed plays {missed}; board seen another way round {turned}; photos refused "
              f"{len(refused)}" + (f", the first {refused[0]}" if refused else "") + f"; {lines[-1]}")
    return 0


def _frame_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a frame size is WIDTHxHEIGHT, like 1280x720, not {text!r}") from None
    if w < 320 or h < 240:
        raise argparse.ArgumentTypeError(f"{text}: frames under 320x240 hold no readable board")
    return w, h


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=0, help="at most this many games (0: all)")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--hard", action="store_true", help="the hard camera (hand-held, blur, glare) instead of a stand")
    ap.add_argument("--show", type=int, default=10, help="print this many faults")
    ap.add_argument("--only-game", default="", help="only the games whose file name holds this")
    ap.add_argument("--keep", type=Path, help="keep every photo here, a folder a game (to look at them)")
    ap.add_argument("--grey", action="store_true", help="a black-and-white camera (every photo made grey)")
    ap.add_argument("--size", type=_frame_size, default=(1920, 1080), metavar="WxH",
                    help="the camera's frame (default 1920x1080; e.g. 1280x720, 640x480: other draws of the same seed)")
    ap.add_argument("--fonts", choices=["both", "train", "heldout"], default="both",
                    help="the training fonts' games, the unseen fonts' games, or both (the default)")
    ap.add_argument("--real", action="store_true", help="instead: companion replay on the real photos of "
                    "../shared/photos/jheidel, a day's photos a game")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if args.real:
        return bench_real(SHARED / "photos" / "jheidel")
    folder = SHARED / "gcg"
    if not folder.is_dir():
        print(f"{folder} not found: nothing to replay")
        return 1
    paths = []
    for p in sorted(folder.glob("*.gcg")):
        try:
            game = read_gcg(p)
            if game.tileset != "en":
                continue
            gcg_to_events(game)
        except CompanionError:
            continue
        paths.append(p)
    seeds = {p: args.seed + 7 * k for k, p in enumerate(paths)}
    if args.games:
        paths = paths[:args.games]
    if args.only_game:
        paths = [p for p in paths if args.only_game in p.name]
    rows = {}
    for role in ("train", "heldout") if args.fonts == "both" else (args.fonts,):
        total = Tally()
        for p in paths:
            keep = args.keep / role if args.keep else None
            total.add(play_game(p, seeds[p] + (1000 if role == "heldout" else 0), role, args.hard, keep=keep,
                                grey=args.grey, size=args.size))
        rows[role] = total
    cam = ("hard camera (hand-held)" if args.hard else "standard camera (on a stand)") + (", black and white" if args.grey else "")
    cam += f", {args.size[0]}x{args.size[1]} frames"
    print(f"{len(paths)} recorded games of ../shared/gcg replayed through the camera, {cam}, seed {args.seed}:")
    for role, t in rows.items():
        fonts = "training fonts" if role == "train" else "fonts never seen"
        n = max(1, t.turns)
        print(f"  {fonts}: {t.turns} turns ({t.photos} photos, {1000 * t.seconds / max(1, t.photos):.0f} ms a photo "
              f"with rendering): right {t.right} ({t.right / n:.1%}), right with a question {t.asked} "
              f"({t.asked / n:.1%}), right on a photo taken again {t.retaken} ({t.retaken / n:.1%}), "
              f"refused three times {t.refused} ({t.refused / n:.1%}), wrong {t.wrong} ({t.wrong / n:.1%}); "
              f"games with no turn wrong or refused {t.games_clean} of {t.games}; questions: "
              + (", ".join(f"{k} {v}" for k, v in sorted(t.questions.items(), key=lambda kv: -kv[1])) or "none"))
        for f in t.faults[:args.show]:
            print(f"    {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
