"""Benchmark of square and letter reading (a script, not a test).

    .venv/bin/python scripts/bench_read.py                 # everything, ~10 minutes
    .venv/bin/python scripts/bench_read.py --boards 50 --skip-photos --skip-tesseract
    .venv/bin/python scripts/bench_read.py --models /tmp/run1     # models from a training run

Parts:
* rendered boards (``vision/render.py``: every tile and board style, perspective, blur, glare,
  noise, hands), read cold and with an empty-board reference, from the true corners with
  locator-sized noise; "hard camera" = the full range the training uses, "standard camera" =
  half the tilt, blur, noise and shading (a tablet on a stand); fonts never trained on are
  reported separately; every tile carries a random point value;
* ``--only mirrored``: the values rows' boards (cold, values read) seen by a camera that mirrors
  its picture;
* ``--only turned``: the same boards seen from another side of the table (a random quarter turn);
* ``--only engines``: the speed frames read with the letter CNN in onnxruntime and in numpy, in
  turn, frame by frame in one process;
* ``--only calibrated``: the values rows' cold boards read with the set calibrated from its tile
  sheet, photographed by the same camera and under another light;
* ``--only games``: which way the board is seen, decided on a first move of a few letters and
  decided again after the next words (turned and mirrored at random);
* ``--only deluxe``: the values rows' boards with every set's blanks drawn with a face of their
  own inside the tile's border (deluxe sets), cold and with a reference; blanks counted apart;
* ``--only sizes``: the values rows' kinds of boards (cold, values read) in smaller frames --
  1280x720 and 640x480 -- read at their true corners, and their grid also found with no help;
* ``--only focus``: pictures out of focus (a further Gaussian blur), read with the picture check
  and with its focus limit lifted, and the blur width of the real photos in ../shared;
* ``--only values``: the same kinds of boards with every tile printed with the English set's
  values, read without and with the values (the reader reads the printed value where it
  doubts a letter, as ``companion vision read`` does);
* locate + rectify + read time on 1920x1080 frames (one core), and re-read time with the board
  tracked and unchanged squares reused;
* ``--only value-windows`` (asked for only): the point-value model alone on rendered value
  windows, training fonts and fonts never seen, by class;
* ``--only crops``: ``vision classify`` on lone crops of rendered tiles, cut tight, with some
  board round the square, small, binarised, boxed round the tile in a photo turned 15 or 30
  degrees to the board, from a dim photo (how crops cut by hand from photos may look);
* ``--only sets``: boards of the other tile sets the product ships (German, Danish, French,
  Dutch, Polish), hard camera, cold, each set's values printed and read;
* ``--only marked-crops``: the same for the letters with marks of the German, Danish and Polish
  sets (and the plain letters they could be taken for), cut tight and with 15 % and 30 % of board
  round the square;
* the held-out real crops ../shared/crops/jheidel (never trained on) with the letter model and
  with tesseract (single-character mode, whitelist, Otsu) for comparison;
* what it reads on a few ../shared/photos/jheidel photos (corners marked by hand below);
* ``--only real-blanks``: the quanyuan frames read at their marked corners (a deluxe set whose
  blanks have a face): squares read as blanks, letters, ``#``;
* ``--only grey-photos``: the jheidel photos made black and white, located and read, against the
  same photos in colour.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared"

from vision import letters as L  # noqa: E402
from vision import read as R  # noqa: E402
from vision.geometry import rectify  # noqa: E402
from vision.pixels import black_and_white  # noqa: E402
from vision.render import font_paths, random_scene  # noqa: E402

ENGLISH = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# Photos read by the automatic locator (vision.locate).  The tiles on them were read by eye from
# the rectified pictures (row 0 = top, column 0 = left, '?' = blank tile) to score the reader.
# If the locator is not available, the corners below (found by it and checked by eye on the
# rectified pictures) are used instead.
def _rows(marks: dict[int, str]) -> list[str]:
    return [marks.get(r, "." * 15) for r in range(15)]


PHOTOS = {
    "IMG_20141025_163920.jpg": dict(
        corners=[[245.4, 401.4], [1016.5, 376.8], [1147.9, 1244.6], [195.6, 1274.6]],
        truth=_rows({7: "....RIEA.......", 8: "....S..........", 9: "....S..........", 10: "....E..........",
                     11: "....V..........", 12: "....D.........."})),
    "IMG_20141025_164052.jpg": dict(
        corners=[[250.4, 392.8], [967.5, 392.5], [997.1, 1201.8], [189.1, 1180.2]],
        truth=_rows({6: "...........P...", 7: "....RIEA...?AN.", 8: "....S......O...", 9: "....S......Z...",
                     10: "....E......A...", 11: "....V.....RENH.", 12: "....D........?."})),
    "IMG_20151016_165517.jpg": dict(
        corners=[[247.5, 484.1], [864.3, 366.7], [1126.7, 1007.4], [381.6, 1194.5]],
        truth=_rows({5: "......W........", 6: "......I........", 7: "...BENDS.......", 8: "......E........",
                     9: "......R........"})),
}


def score_board(truth: list[str], covered: np.ndarray, got: list[str]) -> dict:
    """Counts for one board: tiles right/abstained/wrong, empties, covered squares."""
    c = dict(tiles=0, tiles_right=0, tiles_unread=0, tiles_wrong=0, empty=0, empty_right=0, empty_unread=0,
             empty_wrong=0, covered=0, covered_ok=0, covered_wrong=0, blanks=0, blanks_right=0, blanks_empty=0)
    for r in range(15):
        for k in range(15):
            t, g, cov = truth[r][k], got[r][k], covered[r, k]
            if cov >= 0.3:
                c["covered"] += 1
                if g in (R.COVERED, t):
                    c["covered_ok"] += 1
                else:
                    c["covered_wrong"] += 1
                continue
            if cov > 0.02:
                if g not in (R.COVERED, t):
                    c["covered_wrong"] += 1
                continue
            if t == ".":
                c["empty"] += 1
                c["empty_right" if g == "." else "empty_unread" if g == R.COVERED else "empty_wrong"] += 1
            else:
                c["tiles"] += 1
                c["tiles_right" if g == t else "tiles_unread" if g == R.COVERED else "tiles_wrong"] += 1
                if t == "?":
                    c["blanks"] += 1
                    c["blanks_right"] += g == t
                    c["blanks_empty"] += g == "."
    return c


# the English set's point values: printed on the tiles of the "values" runs, and handed to the reader
EN_VALUES = dict(A=1, B=3, C=3, D=2, E=1, F=4, G=2, H=4, I=1, J=8, K=5, L=1, M=3, N=1, O=1, P=3, Q=10, R=1, S=1,
                 T=1, U=1, V=4, W=4, X=8, Y=4, Z=10)


def bench_renders(n: int, seed: int, role: str, reference: bool, alphabet: str = ENGLISH,
                  corner_noise: float = 0.08, show_errors: int = 0, hard: bool = True,
                  printed: dict | None = None, read_values: bool = False, mirrored: bool = False,
                  turned: bool = False, grey: bool = False, deluxe: float = 0.0,
                  size: tuple[int, int] = (1920, 1080), locate: bool = False) -> dict:
    """``printed``: the point values printed on the tiles (default: a random value per tile);
    ``read_values``: the reader is given them (and reads the printed value when unsure);
    ``mirrored``: the camera mirrors its picture (the frame flipped left to right);
    ``turned``: the camera sees the board from another side of the table (the grid's corners
    taken from a random one of the other three sides; the boards are the same as unturned);
    ``grey``: a black-and-white camera (the frame, and the reference, made grey);
    ``deluxe``: the share of tile sets whose blanks have a face of their own (``vision.render``;
    drawn without touching the boards' own draws: the boards are the same as without);
    ``size``: the camera's frame (other sizes draw other boards from the same seed);
    ``locate``: the grid also found in the frame with no help (``located``: found within half a
    square at every corner, ``locate_ms``: each search's time); the squares are read at the true
    corners with locator-sized noise either way."""
    if locate:
        from vision.locate import locate_board
    rng = np.random.default_rng(seed)
    turns = np.random.default_rng(seed + 7919)       # its own draws: the boards stay the same
    fonts = font_paths(role)
    tot: dict = {}
    boards = boards_clean = boards_full = 0
    ms = []
    errors = []
    for i in range(n):
        sc = random_scene(rng, alphabet, fonts, size=size, cell=56, with_reference=reference, hard=hard,
                          values=None if printed is None else {k: str(v) for k, v in printed.items()},
                          deluxe_blanks=deluxe)
        cellpx = np.linalg.norm(sc.corners[1] - sc.corners[0]) / 15
        tot.setdefault("cell_px", []).append(cellpx)
        if locate:
            t0 = time.perf_counter()
            try:
                found = locate_board(sc.frame).corners
                tot["located"] = tot.get("located", 0) + bool(
                    (np.linalg.norm(found - sc.corners, axis=1) < 0.5 * cellpx).all())
            except Exception:
                pass
            tot.setdefault("locate_ms", []).append((time.perf_counter() - t0) * 1000)
        corners = sc.corners + rng.normal(0, corner_noise * cellpx, (4, 2))
        frame = sc.frame
        if grey:
            frame = black_and_white(frame)
        if mirrored:         # the grid's corners as seen in the mirrored frame, TL TR BR BL on screen
            frame = np.ascontiguousarray(frame[:, ::-1])
            corners = np.array([[frame.shape[1] - 1 - x, y] for x, y in corners[[1, 0, 3, 2]]])
        if turned:
            corners = np.roll(corners, int(turns.integers(1, 4)), axis=0)
        rect = R.rectify_board(frame, corners)
        empty = sc.empty_frame
        if reference and grey:
            empty = black_and_white(empty)
        ref = rectify(empty, corners, R.CELL) if reference else None
        reader = R.BoardReader(alphabet, reference=ref, values=printed if read_values else None)
        try:
            rd = reader.read(rect)
            got = rd.labels
            ms.append(rd.ms)
            tot["mirrored_found"] = tot.get("mirrored_found", 0) + bool(rd.mirrored)
        except Exception as e:  # a refused picture counts as every square unread
            got = ["#" * 15] * 15
            errors.append((i, f"refused: {e}"))
        c = score_board(sc.labels, sc.covered, got)
        for k, v in c.items():
            tot[k] = tot.get(k, 0) + v
        mistakes = tot.setdefault("mistakes", {})        # "truth->shown" of squares shown wrong
        for r in range(15):
            for k in range(15):
                if sc.covered[r, k] <= 0.02 and got[r][k] not in (sc.labels[r][k], "#"):
                    key = f"{sc.labels[r][k]}->{got[r][k]}"
                    mistakes[key] = mistakes.get(key, 0) + 1
        boards += 1
        wrong = c["tiles_wrong"] + c["empty_wrong"] + c["covered_wrong"]
        boards_clean += wrong == 0
        boards_full += wrong == 0 and c["tiles_unread"] == 0 and c["empty_unread"] == 0
        if wrong and len(errors) < show_errors:
            diffs = [(r, k, sc.labels[r][k], got[r][k]) for r in range(15) for k in range(15)
                     if got[r][k] not in (sc.labels[r][k], "#") and sc.covered[r, k] <= 0.02]
            errors.append((i, diffs[:8]))
    tot.update(boards=boards, boards_no_error=boards_clean, boards_all_read=boards_full,
               ms_median=float(np.median(ms)) if ms else float("nan"), errors=errors)
    return tot


# The tile sets the product ships besides English (companion/data/tilesets): their own letters
# (German Ä Ö Ü, Danish Æ Ø Å, Polish Ą Ć Ę Ł Ń Ó Ś Ź Ż) and point values
OTHER_SETS = ("de", "da", "fr", "nl", "pl")


def bench_other_sets(n: int, seed: int, show_errors: int = 0) -> None:
    """Boards of each of OTHER_SETS as `vision read --tileset CODE` reads them: the hard camera,
    cold, the set's values printed on its tiles and handed to the reader; training fonts and
    fonts never seen, ``n`` boards each (seeds ``seed + 20 i`` and ``+ 10``)."""
    from companion.tiles import get_tileset
    for i, code in enumerate(OTHER_SETS):
        ts = get_tileset(code)
        for role in ("train", "heldout"):
            t = bench_renders(n, seed + 20 * i + (10 if role == "heldout" else 0), role, False,
                              alphabet="".join(ts.alphabet), hard=True, printed=dict(ts.values), read_values=True,
                              show_errors=show_errors)
            tiles = max(1, t["tiles"])
            top = sorted(t["mistakes"].items(), key=lambda kv: -kv[1])[:6]
            lines = [f"{ts.name} set ({code}), hard camera, {'training fonts' if role == 'train' else 'fonts never seen'}, "
                         f"cold, values read: {t['boards']} boards, {t['tiles']} tiles: right {t['tiles_right'] / tiles:.4f}, "
                         f"'#' {t['tiles_unread'] / tiles:.4f}, wrong {t['tiles_wrong'] / tiles:.4f}; boards with no wrong "
                         f"square {t['boards_no_error'] / t['boards']:.4f}; commonest wrong "
                         + (", ".join(f"{k} {v}" for k, v in top) or "none")]
            lines += [f"    board {e[0]}: {e[1]}" for e in t["errors"][:show_errors]]
            print("\n".join(lines), flush=True)          # a set's row as soon as it is read


def report_renders(name: str, t: dict) -> str:
    tiles = max(1, t["tiles"])
    lines = [f"{name}: {t['boards']} boards, {t['tiles']} tiles, {t['empty']} empty squares, {t['covered']} covered",
             f"  tiles read right {t['tiles_right'] / tiles:.4f}, unread '#' {t['tiles_unread'] / tiles:.4f}, "
             f"wrong {t['tiles_wrong'] / tiles:.4f} ({t['tiles_right']} / {t['tiles_unread']} / {t['tiles_wrong']})",
             f"  empty squares right {t['empty_right'] / max(1, t['empty']):.4f}, '#' "
             f"{t['empty_unread'] / max(1, t['empty']):.4f}, wrong {t['empty_wrong'] / max(1, t['empty']):.4f}",
             f"  covered squares reported '#' (or right) {t['covered_ok'] / max(1, t['covered']):.4f}, "
             f"guessed wrong (incl. partly covered) {t['covered_wrong']}",
             f"  boards with no wrong square {t['boards_no_error'] / t['boards']:.4f}, "
             f"all squares read {t['boards_all_read'] / t['boards']:.4f}; read {t['ms_median']:.1f} ms median"]
    for e in t["errors"][:10]:
        lines.append(f"    board {e[0]}: {e[1]}")
    return "\n".join(lines)


def bench_first_moves(n: int, seed: int, values: bool = False) -> str:
    """Which way the board is seen, decided on a first move of 2-4 letters across the centre and
    decided again once three more words are down: random tile and board styles, the picture
    turned by a random quarter turn and mirrored half the time (one reader per game).
    ``values``: the tiles carry the English set's point values and the reader knows them (as in
    a game: the tile set is given); else each tile a random value, the reader not told."""
    from vision.render import random_board_style, random_tile_style, render_board

    rng = np.random.default_rng(seed)
    fonts = font_paths("train")
    right = [0, 0]
    for _ in range(n):
        tile, board = random_tile_style(rng, fonts), random_board_style(rng)
        grid = [["."] * 15 for _ in range(15)]
        size = int(rng.integers(2, 5))
        for j in range(size):
            grid[7][7 - size // 2 + j] = ENGLISH[int(rng.integers(26))]
        first = ["".join(row) for row in grid]
        for _w in range(3):                       # three more words anywhere they fit
            for _t in range(50):
                length, r, c = int(rng.integers(3, 6)), int(rng.integers(0, 15)), int(rng.integers(0, 11))
                down = rng.random() < 0.5
                cells = [(c + i, r) if down else (r, c + i) for i in range(length)]
                if all(grid[a][b] == "." for a, b in cells):
                    for a, b in cells:
                        grid[a][b] = ENGLISH[int(rng.integers(26))]
                    break
        later = ["".join(row) for row in grid]
        k, mirrored = int(rng.integers(4)), bool(rng.random() < 0.5)
        reader = R.BoardReader(ENGLISH, values=EN_VALUES if values else None)
        printed = {ch: str(v) for ch, v in EN_VALUES.items()} if values else None
        for i, labels in enumerate((first, later)):
            img, corners, _ = render_board(labels, board, tile, rng, cell=40, placement_jitter=0.03, values=printed)
            pic = rectify(img, corners, R.CELL)
            pic = np.ascontiguousarray(np.rot90(pic[:, ::-1] if mirrored else pic, k))
            rd = reader.read(pic)
            right[i] += (rd.orientation, rd.mirrored) == ((k if mirrored else -k) % 4, mirrored)
    return (f"first moves ({n} games: 2-4 letters, then three words; turned and mirrored at random; "
            f"{'the set' if values else 'random'} values printed{', the reader told them' if values else ''}): "
            f"seen the right way {right[0]}/{n} after the first picture, {right[1]}/{n} after the second")


def speed_frames(n: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The speed benchmarks' 1920x1080 frames (20-90 tiles, a stand's camera): each as (frame,
    the grid's true corners, the frame again with a little noise: the next frame of a still board)."""
    rng = np.random.default_rng(seed)
    frames = []
    for _ in range(n):
        sc = random_scene(rng, ENGLISH, font_paths("train"), size=(1920, 1080), cell=56, hands=0,
                          n_tiles=int(rng.integers(20, 90)), hard=False,
                          values={k: str(v) for k, v in EN_VALUES.items()})
        noisy = np.clip(sc.frame.astype(np.int16) + rng.integers(-2, 3, sc.frame.shape), 0, 255).astype(np.uint8)
        frames.append((sc.frame, sc.corners, noisy))
    return frames


def bench_speed(n: int, seed: int, repeats: int = 3) -> str:
    """locate + rectify + read on 1920x1080 frames; re-read with the board tracked.

    The frames are rendered first and then timed, so the renderer's work does not sit between
    the timings.  Each frame is read ``repeats`` times, each time by a new reader (a first
    frame every time): the median of the first reads, and the median of each frame's best
    (the steadier figure on a shared machine)."""
    cv2.setNumThreads(1)
    try:
        from vision.locate import locate_board
    except ImportError:
        locate_board = None
    frames = speed_frames(n, seed)
    # warmed, as a camera game is after its first frames: every frame read once untimed (this
    # also starts onnxruntime for the letter CNN, which a process starts once it has read a
    # couple of thousand glyphs, see vision/onnx_cnn.py)
    for frame, true_corners, _ in frames:
        R.BoardReader(ENGLISH, values=EN_VALUES).read(R.rectify_board(frame, true_corners))
    first, best, loc_ms, reread, afresh, located = [], [], [], [], [], 0
    for frame, true_corners, noisy in frames:
        times = []
        for rep in range(repeats):
            reader = R.BoardReader(ENGLISH, values=EN_VALUES)          # as the CLI and the camera game read
            t0 = time.perf_counter()
            corners = true_corners
            if locate_board is not None:
                try:
                    corners = locate_board(frame).corners
                    located += rep == 0
                except Exception:
                    corners = true_corners
            t1 = time.perf_counter()
            rect = R.rectify_board(frame, corners)
            reader.read(rect)
            t2 = time.perf_counter()
            times.append((t2 - t0) * 1000)
            if rep == 0:
                loc_ms.append((t1 - t0) * 1000)
                # tracked: same corners, new frame with a little noise -> rectify + read again
                t3 = time.perf_counter()
                reader.read(R.rectify_board(noisy, corners))
                reread.append((time.perf_counter() - t3) * 1000)
                # mid-game, the board lost (a nudged tablet, a new session on a game in progress):
                # located afresh and every square read again by a reader that knows the game's
                # way up and polarity (nothing reused from the last picture)
                reader._prev = None
                t4 = time.perf_counter()
                c2 = locate_board(noisy).corners if locate_board is not None else corners
                reader.read(R.rectify_board(noisy, c2))
                afresh.append((time.perf_counter() - t4) * 1000)
        first.append(times[0])
        best.append(min(times))
    return (f"speed (one core, {n} frames 1920x1080; locator found {located}/{n}): "
            f"locate {np.median(loc_ms):.1f} ms, locate+rectify+read {np.median(first):.1f} ms median "
            f"(p90 {np.percentile(first, 90):.1f}; best of {repeats} a frame {np.median(best):.1f}); "
            f"tracked re-read (rectify+read) {np.median(reread):.1f} ms median; located afresh mid-game "
            f"(the reader knowing the way up, all 225 squares read again) {np.median(afresh):.1f} ms median")


# How someone might cut tile crops by hand from photos (``companion vision classify`` does not
# know): name -> (board round the square, x its side each way; side in px; binarised by Otsu;
# the photo turned by that many degrees to the board, the crop the upright box round the square;
# and, where given, the share of its light a dim photo kept)
LONE_CROP_CUTS = {"tight 64 px": (0.0, 64, False, 0), "tight 32 px": (0.0, 32, False, 0),
                  "square + 10 %, 40 px": (0.10, 40, False, 0), "square + 15 %, 64 px": (0.15, 64, False, 0),
                  "square + 30 %, 96 px": (0.30, 96, False, 0), "square + 50 %, 96 px": (0.50, 96, False, 0),
                  "binarised, square + 5 %, 36 px": (0.05, 36, True, 0),     # at Otsu's threshold of its middle
                  "turned 15 deg, square + 15 %, 64 px": (0.15, 64, False, 15),
                  "turned 30 deg, tight, 64 px": (0.0, 64, False, 30),
                  "turned 15 deg, binarised, + 5 %, 36 px": (0.05, 36, True, 15),
                  "dim photo (1/4 of the light), + 10 %, 64 px": (0.10, 64, False, 0, 0.25),
                  "dim photo (1/8 of the light), + 10 %, 64 px": (0.10, 64, False, 0, 0.125)}


def _lone_crop_board(rng: np.random.Generator, role: str, hard: bool):
    """One rendered board the lone-crop rows cut from (no hands; the English values printed):
    (scene, its grid rectified at 64 px a square with a square of photo round it, 64, up to 12
    uncovered tiles, 12 uncovered empty squares drawn at random)."""
    sc = random_scene(rng, ENGLISH, font_paths(role), size=(1920, 1080), cell=56, hard=hard, hands=0,
                      values={k: str(v) for k, v in EN_VALUES.items()})
    cell = 64
    rect = rectify(sc.frame, sc.corners, cell, margin_cells=1.0)
    clear = [(r, c) for r in range(15) for c in range(15) if sc.covered[r, c] <= 0.02]
    tiles = [rc for rc in clear if sc.labels[rc[0]][rc[1]] in ENGLISH][:12]
    empty = [rc for rc in clear if sc.labels[rc[0]][rc[1]] == "."]
    return sc, rect, cell, tiles, [empty[i] for i in rng.permutation(len(empty))[:12]]


def bench_lone_crops(boards: int, seed: int) -> str:
    """`vision classify` on lone crops of rendered boards' tiles, cut in each of LONE_CROP_CUTS:
    the best letter (right / wrong), with the reader's abstention (right / '#' / wrong), and on
    crops of empty squares the share read as a letter; training fonts and fonts never seen
    (hard and standard cameras alternating, 12 tiles and 12 empty squares a board)."""
    model = L.default_model()
    lines = []
    for role in ("train", "heldout"):
        rng = np.random.default_rng(seed + (10 if role == "heldout" else 0))
        noise = np.random.default_rng(seed + 1)       # its own draws: the boards stay the same
        got = {k: [] for k in LONE_CROP_CUTS}         # (truth, best, abstained) per crop
        for b in range(boards):
            sc, rect, cell, tiles, empty = _lone_crop_board(rng, role, hard=bool(b % 2))
            for r, c in tiles + empty:
                for k, (pad, side, binarised, turn, *light) in LONE_CROP_CUTS.items():
                    p = int(pad * cell)
                    if turn:        # one way, then the other, tile after tile
                        a = turn if (r * 15 + c) % 2 else -turn
                        cy, cx = (r + 1.5) * cell, (c + 1.5) * cell
                        m = cv2.getRotationMatrix2D((cx, cy), a, 1.0)
                        half = (cell / 2 + p) * (abs(np.cos(np.radians(a))) + abs(np.sin(np.radians(a))))
                        y0, x0 = int(cy - half), int(cx - half)
                        m[:, 2] -= (x0, y0)             # only the box round the square is warped
                        box = cv2.warpAffine(rect, m, (int(cx + half) - x0, int(cy + half) - y0),
                                             borderMode=cv2.BORDER_REPLICATE)
                    else:
                        y0, x0 = (r + 1) * cell - p, (c + 1) * cell - p
                        box = rect[y0:y0 + cell + 2 * p, x0:x0 + cell + 2 * p]
                    crop = cv2.resize(box, (side, side), interpolation=cv2.INTER_AREA)
                    if light:           # the sensor's noise stays as the light goes
                        crop = np.clip(crop * light[0] + noise.normal(0, 2, crop.shape), 0, 255).astype(np.uint8)
                    if binarised:      # Otsu's threshold of the middle (the tile's face and letter)
                        g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
                        q = side // 4
                        t, _ = cv2.threshold(g[q:side - q, q:side - q], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
                        crop = cv2.cvtColor(np.where(g > t, 255, 0).astype(np.uint8), cv2.COLOR_GRAY2BGR)
                    best, _ = R.classify_tile(crop, ENGLISH, None, model, min_letter=0.0, min_margin=0.0, values=EN_VALUES)
                    sure, _ = R.classify_tile(crop, ENGLISH, None, model, values=EN_VALUES)
                    got[k].append((sc.labels[r][c], best, sure))
        lines.append(f"lone crops of rendered tiles, {'training fonts' if role == 'train' else 'fonts never seen'} "
                     f"({boards} boards):")
        for k, rows in got.items():
            t = [x for x in rows if x[0] != "."]
            e = [x for x in rows if x[0] == "."]
            right = sum(b == tr for tr, b, _ in t) / len(t)
            s_right = sum(s == tr for tr, _, s in t) / len(t)
            s_unread = sum(s == R.COVERED for _, _, s in t) / len(t)
            e_letter = sum(b in ENGLISH for _, b, _ in e) / max(1, len(e))
            e_sure = sum(s in ENGLISH for _, _, s in e) / max(1, len(e))
            lines.append(f"  {k:32s} best letter right {right:.4f} ({len(t)} tiles); with --abstain right "
                         f"{s_right:.4f}, '#' {s_unread:.4f}, wrong {max(0.0, 1 - s_right - s_unread):.4f}; empty squares "
                         f"read a letter {e_letter:.4f} (--abstain {e_sure:.4f}, {len(e)})")
    return "\n".join(lines)


# How a batch of crops handed to `vision classify` together may lie (vision.letters.in_pose): the
# poses a board's picture turned in the photo, or a mirroring camera, gives every crop cut from it
POSE_CUTS = {"tight 64 px": (0.0, 64), "square + 15 %, 64 px": (0.15, 64)}


def _pose_rows(crops: list[np.ndarray], model) -> np.ndarray:
    """Each crop's sureness in the eight poses (vision.letters.pose_sureness), (n, 8)."""
    return np.array([L.pose_sureness(c, ENGLISH, model) for c in crops]).reshape(-1, L.POSES)


def _batch_pose(rows: np.ndarray, laid: int) -> int:
    """The product's vote (vision.letters.common_pose; a batch of POSE_SAMPLE or fewer crops: all
    vote) on a batch whose upright crops' pose sureness rows are ``rows``, each crop laid as
    ``in_pose(crop, laid)``: reading a laid crop in pose p reads the upright one in
    ``_compose(p, laid)``.  Returns the pose the batch is then read in, seen from the upright
    crops: 0 is the pose found, any other the batch read wrong."""
    seen = [_compose(p, laid) for p in range(L.POSES)]
    return seen[L.common_pose(rows[:, seen])]


def _compose(p: int, t: int) -> int:
    """The pose q with ``in_pose(in_pose(x, t), p) == in_pose(x, q)``."""
    m, k = divmod(p, 4)
    mt, kt = divmod(t, 4)
    return (m ^ mt) * 4 + (kt * (-1) ** m + k) % 4


def _quanyuan_marked() -> list[tuple[Path, np.ndarray]]:
    """(picture, annotated grid corners) of every ../shared/corners/quanyuan frame, train then test,
    in the annotations' order; none where the folder is missing."""
    base = SHARED / "corners" / "quanyuan"
    frames = []
    for split in ("train", "test"):
        ann = base / split / "_annotations.coco.json"
        if ann.exists():
            data = json.loads(ann.read_text())
            names = {im["id"]: im["file_name"] for im in data["images"]}
            frames += [(base / split / names[a["image_id"]], np.array(a["keypoints"], float).reshape(-1, 3)[:, :2])
                       for a in data["annotations"]]
    return frames


def _quanyuan_poses(model, every: int = 3) -> list[str]:
    """Real crops lying alike: every ``every``-th quanyuan frame rectified at its marked corners in
    the annotation's order (the frames are mirrored and the board turned in them), each square the
    board reader reads as a letter 0.9 surely cut from that picture as it is; a frame's crops one
    batch (and random batches of 5 and 8 of them).  With no letters marked on these frames, the
    board reader's sure letters -- it decides a board's way up from all its letters -- are the
    measure: how many of the crops `vision classify` reads the same, in the voted pose and as they
    are."""
    frames = _quanyuan_marked()
    if not frames:
        return ["quanyuan frames: ../shared/corners/quanyuan not found (skipped)"]
    t = {"frames": 0, "crops": 0, "same": 0, "same_as_is": 0, "found": 0, "found5": 0, "found8": 0}
    poses: dict = {}
    rng = np.random.default_rng(0)
    for path, corners in frames[::every]:
        rect = R.rectify_board(cv2.imread(str(path)), corners)
        rd = R.BoardReader(ENGLISH).read(rect)
        grid = R.split_surround(rect)[0]
        cell = grid.shape[0] / 15
        # the picture's square under each square of the reading (the reader mirrors, then turns)
        where = np.arange(225).reshape(15, 15)
        where = np.rot90(where[:, ::-1] if rd.mirrored else where, rd.orientation)
        crops, truth = [], []
        for r in range(15):
            for c in range(15):
                if rd.labels[r][c] in ENGLISH and rd.confidence[r, c] >= 0.9:
                    pr, pc = divmod(int(where[r, c]), 15)
                    crops.append(grid[int(pr * cell):int((pr + 1) * cell), int(pc * cell):int((pc + 1) * cell)].copy())
                    truth.append(rd.labels[r][c])
        if len(crops) < L.POSE_MIN_CROPS:
            continue
        pose = R.crops_pose(crops, ENGLISH, model)
        t["frames"] += 1
        t["crops"] += len(crops)
        poses[pose] = poses.get(pose, 0) + 1
        for crop, letter in zip(crops, truth):
            t["same"] += R.classify_tile(L.in_pose(crop, pose), ENGLISH, None, model, min_letter=0.0, min_margin=0.0)[0] == letter
            t["same_as_is"] += R.classify_tile(crop, ENGLISH, None, model, min_letter=0.0, min_margin=0.0)[0] == letter
        for n in (5, 8):
            few = [crops[i] for i in rng.choice(len(crops), n, replace=False)] if len(crops) >= n else crops
            t[f"found{n}"] += R.crops_pose(few, ENGLISH, model) == pose
    n = max(1, t["frames"])
    return [f"real quanyuan frames cut at their marked corners as annotated (one in {every}, {t['frames']} frames, "
            f"{t['crops']} crops of letters the board reader reads 0.9 surely): poses voted "
            + ", ".join(f"{L.pose_words(p)} {k}" for p, k in sorted(poses.items()))
            + f"; read as the board reader reads them {t['same'] / max(1, t['crops']):.4f} in the voted pose, "
            f"{t['same_as_is'] / max(1, t['crops']):.4f} as they are; random batches of 5 / 8 of a frame's crops "
            f"voted the frame's pose {t['found5'] / n:.3f} / {t['found8'] / n:.3f}"]


def bench_crop_poses(boards: int, seed: int, batches: int = 200) -> str:
    """`vision classify` on batches of crops whose letters all lie in one pose: the real jheidel
    crops and rendered boards' tiles and empty squares (POSE_CUTS), each batch laid in every pose
    (quarter turns, mirrored): how often its pose is found, and the letters then read right;
    random batches of a few crops from the real ones (the product's vote, vision.read.crops_pose,
    on each crop's eight sureness figures read once)."""
    model = L.default_model()
    lines = []
    base = SHARED / "crops" / "jheidel"
    if base.is_dir():
        crops, truth = [], []
        for d in sorted(base.iterdir()):
            if d.is_dir():
                for f in sorted(d.glob("*.png")):
                    crops.append(cv2.imread(str(f)))
                    truth.append("." if d.name.lower() == "star" else d.name.upper())
        rows = _pose_rows(crops, model)
        rng = np.random.default_rng(seed)
        step = max(1.0, len(crops) / L.POSE_SAMPLE)           # as crops_pose samples a whole folder
        voters = rows[[int(i * step) for i in range(min(len(crops), L.POSE_SAMPLE))]]
        found = [_batch_pose(voters, t) == 0 for t in range(L.POSES)]
        lines.append(f"real jheidel crops ({len(crops)}) as one folder laid in each of the 8 poses: pose found "
                     f"{sum(found)}/8" + ("" if all(found) else f" (missed: laid {[t for t in range(8) if not found[t]]})"))
        for n in (5, 8, 12, 24):
            up = turned = 0
            for _ in range(batches):
                idx = rng.choice(len(crops), n, replace=False)
                up += _batch_pose(rows[idx], 0) == 0
                turned += sum(_batch_pose(rows[idx], t) == 0 for t in range(1, L.POSES))
            lines.append(f"  random batches of {n:2d} real crops ({batches} each way): upright read upright "
                         f"{up / batches:.4f}; laid in the 7 other poses, pose found {turned / (7 * batches):.4f}")
    lines += _quanyuan_poses(model)
    for role in ("train", "heldout"):
        rng = np.random.default_rng(seed + (10 if role == "heldout" else 0))
        tally = {k: [0, 0, 0, 0, 0] for k in POSE_CUTS}   # batches, pose found, tiles, right so, right upright
        for b in range(boards):
            sc, rect, cell, tiles, empty = _lone_crop_board(rng, role, hard=bool(b % 2))
            laid = int(rng.integers(1, L.POSES))              # the board's picture: one pose for all its crops
            for k, (pad, side) in POSE_CUTS.items():
                p = int(pad * cell)
                crops = []
                for r, c in tiles + empty:
                    y0, x0 = (r + 1) * cell - p, (c + 1) * cell - p
                    crops.append(cv2.resize(rect[y0:y0 + cell + 2 * p, x0:x0 + cell + 2 * p], (side, side),
                                            interpolation=cv2.INTER_AREA))
                batch = [L.in_pose(c, laid) for c in crops]
                pose = R.crops_pose(batch, ENGLISH, model)          # the product's own path
                t = tally[k]
                t[0] += 1
                t[1] += _compose(pose, laid) == 0
                for (r, c), crop, upright in zip(tiles, batch, crops):
                    label, _ = R.classify_tile(L.in_pose(crop, pose), ENGLISH, None, model, min_letter=0.0,
                                               min_margin=0.0, values=EN_VALUES)
                    t[2] += 1
                    t[3] += label == sc.labels[r][c]
                    t[4] += R.classify_tile(upright, ENGLISH, None, model, min_letter=0.0, min_margin=0.0,
                                            values=EN_VALUES)[0] == sc.labels[r][c]
        lines.append(f"rendered boards' crops, {'training fonts' if role == 'train' else 'fonts never seen'} "
                     f"({boards} boards: each board's 12 tiles and 12 empty squares one batch, laid in a random pose "
                     "other than upright):")
        for k, (n, ok, tiles_n, right, right_up) in tally.items():
            lines.append(f"  {k:22s} pose found {ok}/{n}; best letter right {right / max(1, tiles_n):.4f} ({tiles_n} tiles; "
                         f"the same crops handed upright {right_up / max(1, tiles_n):.4f})")
    return "\n".join(lines)


# The sets with letters drawn with marks, each as (its marked letters, the plain ones they could be
# read as): the letters counted by ``bench_marked_crops``
MARKED_SETS = {"German": ("de", "ÄÖÜ", "AOU"), "Danish": ("da", "ÆØÅ", "AO"), "Polish": ("pl", "ĄĆĘŃÓŚŹŻ", "ACENOSZ")}
MARKED_CUTS = {"tight": (0.0, 64), "square + 15 %": (0.15, 64), "square + 30 %": (0.30, 96)}


def bench_marked_crops(boards: int, seed: int, role: str = "train") -> str:
    """`vision classify` on lone crops of the marked letters of MARKED_SETS (and their plain
    look-alikes) on rendered boards of each set (the set's alphabet drawn, its point values
    printed and handed to the reader as ``--tileset`` does; hard and standard cameras
    alternating), cut as MARKED_CUTS: the best letter right, marked and plain apart."""
    from companion.tiles import get_tileset

    model = L.default_model()
    lines = []
    for k, (name, (code, marked, plain)) in enumerate(MARKED_SETS.items()):
        alphabet = ENGLISH + marked
        values = dict(get_tileset(code).values)
        rng = np.random.default_rng(seed + k)
        got = {cut: {"marked": [0, 0], "plain": [0, 0]} for cut in MARKED_CUTS}   # [crops, right]
        mistakes: dict = {}
        for b in range(boards):
            sc = random_scene(rng, alphabet, font_paths(role), size=(1920, 1080), cell=56, hard=bool(b % 2), hands=0,
                              values={ch: str(v) for ch, v in values.items()})
            cell = 64
            rect = rectify(sc.frame, sc.corners, cell, margin_cells=1.0)
            for r in range(15):
                for c in range(15):
                    t = sc.labels[r][c]
                    if t not in marked + plain or sc.covered[r, c] > 0.02:
                        continue
                    for cut, (pad, side) in MARKED_CUTS.items():
                        p = int(pad * cell)
                        y0, x0 = (r + 1) * cell - p, (c + 1) * cell - p
                        crop = cv2.resize(rect[y0:y0 + cell + 2 * p, x0:x0 + cell + 2 * p], (side, side),
                                          interpolation=cv2.INTER_AREA)
                        label, _ = R.classify_tile(crop, alphabet, None, model, min_letter=0.0, min_margin=0.0,
                                                   values=values)
                        tally = got[cut]["marked" if t in marked else "plain"]
                        tally[0] += 1
                        tally[1] += label == t
                        if label != t:
                            mistakes[(t, label)] = mistakes.get((t, label), 0) + 1
        lines.append(f"marked letters of the {name} set, lone crops, {'training fonts' if role == 'train' else 'fonts never seen'} "
                     f"({boards} boards):")
        for cut, tallies in got.items():
            lines.append(f"  {cut:16s} " + "; ".join(
                f"{kind} {v[1] / max(1, v[0]):.4f} ({v[1]}/{v[0]})" for kind, v in tallies.items()))
        top = sorted(mistakes.items(), key=lambda kv: -kv[1])[:8]
        lines.append("  commonest mistakes " + ", ".join(f"{t}->{g or 'nothing'} {n}" for (t, g), n in top))
    return "\n".join(lines)


def bench_jheidel(tesseract: bool, limit: int = 0) -> str:
    base = SHARED / "crops" / "jheidel"
    if not base.is_dir():
        return "jheidel crops: ../shared/crops/jheidel not found (skipped)"
    items = []
    for d in sorted(base.iterdir()):
        if d.is_dir():
            lab = "." if d.name.lower() == "star" else d.name.upper()
            items += [(f, lab) for f in sorted(d.glob("*.png"))]
    model = L.default_model()
    ok = unread = best_ok = 0
    t0 = time.perf_counter()
    confusions: dict = {}
    for f, lab in items:
        img = cv2.imread(str(f))
        got, conf = R.classify_tile(img, ENGLISH, None, model, values=EN_VALUES)    # the board reader's rule
        ok += got == lab
        unread += got == R.COVERED
        best, _ = R.classify_tile(img, ENGLISH, None, model, min_letter=0.0, min_margin=0.0, values=EN_VALUES)
        best_ok += best == lab                                           # `vision classify`
        if best != lab:
            confusions[(lab, best)] = confusions.get((lab, best), 0) + 1
    ms = (time.perf_counter() - t0) * 1000 / len(items) / 2
    top = sorted(confusions.items(), key=lambda kv: -kv[1])[:8]
    out = [f"jheidel real crops (held out, {len(items)}): `vision classify` (best letter and its confidence) "
           f"right {best_ok / len(items):.4f}; with the board reader's abstention (`--abstain`) right "
           f"{ok / len(items):.4f}, '#' (unsure) {unread / len(items):.4f}, "
           f"wrong {(len(items) - ok - unread) / len(items):.4f}; {ms:.2f} ms per crop; commonest mistakes {top}"]
    # per-set calibration (`companion vision calibrate FOLDER`): one crop of each letter -- the
    # first of its folder -- is the players' "photo of each tile"; the other crops are read with it
    from calibration.set_profile import calibrate_crops
    first = {}
    for f, lab in items:
        if lab != "." and lab not in first:
            first[lab] = f
    profile = calibrate_crops([(lab, cv2.imread(str(f))) for lab, f in first.items()], ENGLISH, model)
    rest = [(f, lab) for f, lab in items if f not in set(first.values())]
    c_ok = c_best = c_unread = 0
    for f, lab in rest:
        img = cv2.imread(str(f))
        got, _ = R.classify_tile(img, ENGLISH, profile, model, values=EN_VALUES)
        c_ok += got == lab
        c_unread += got == R.COVERED
        c_best += R.classify_tile(img, ENGLISH, profile, model, min_letter=0.0, min_margin=0.0, values=EN_VALUES)[0] == lab
    out.append(f"  calibrated from one crop per letter ({len(first)} crops), read on the other {len(rest)}: "
               f"best letter right {c_best / len(rest):.4f}; with abstention right {c_ok / len(rest):.4f}, "
               f"'#' {c_unread / len(rest):.4f}, wrong {(len(rest) - c_ok - c_unread) / len(rest):.4f}")
    if tesseract:
        sub = items if not limit else items[::max(1, len(items) // limit)]
        tok = 0
        t0 = time.perf_counter()
        for f, lab in sub:
            got, _ = L.tesseract_classify(cv2.imread(str(f)), ENGLISH)
            tok += (got or ".") == lab
        tms = (time.perf_counter() - t0) * 1000 / len(sub)
        out.append(f"tesseract on the same crops ({len(sub)}): right {tok / len(sub):.4f}, {tms:.0f} ms per crop")
    return "\n".join(out)


def bench_photos() -> str:
    base = SHARED / "photos" / "jheidel"
    if not base.is_dir():
        return "jheidel photos: not found (skipped)"
    try:
        import vision.locate  # noqa: F401
        auto = True
    except ImportError:
        auto = False
    out = []
    for name, info in PHOTOS.items():
        p = base / name
        if not p.exists():
            continue
        img0 = cv2.imread(str(p))
        how = "automatic locator" if auto else "stored corners"
        # as taken, turned, and mirrored (a camera that mirrors its picture)
        for turn in (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, "mirrored"):
            if turn is not None and not auto:
                continue
            img = img0 if turn is None else cv2.flip(img0, 1) if turn == "mirrored" else cv2.rotate(img0, turn)
            label = name + ("" if turn is None else " (photo mirrored)" if turn == "mirrored" else
                            f" (photo turned {'90' if turn == cv2.ROTATE_90_CLOCKWISE else '180'})")
            try:
                rd = R.read_image(img, ENGLISH, corners=None if auto else info["corners"], name=name,
                                  values=EN_VALUES)       # as `companion vision read --tileset en` does
                c = score_board(info["truth"], np.zeros((15, 15)), rd.labels)
                out.append(f"{label} ({how}, read {'mirrored and ' if rd.mirrored else ''}turned by {rd.orientation}, "
                           f"{rd.ms:.0f} ms): tiles right "
                           f"{c['tiles_right']}/{c['tiles']}, unread {c['tiles_unread']}, wrong {c['tiles_wrong']}; "
                           f"empty squares right {c['empty_right']}/{c['empty']}, '#' {c['empty_unread']}, "
                           f"wrong {c['empty_wrong']}")
                if turn is None:
                    out += ["    " + row + "   " + t for row, t in zip(rd.labels, info["truth"])]
            except Exception as e:
                out.append(f"{label} ({how}): ERROR {e}")
    return "\n".join(out)


def bench_game_photos() -> str:
    """Real photos with no ground truth, read against themselves: the jheidel photos taken on one
    day are of one game (several photos a move, from a hand-held phone), and a tile once laid
    stays, so a square whose tile is read as two different things on different photos was read
    wrong on one of them.  Counts the readings that differ from the square's commonest one (an
    upper bound on wrong tiles shown: the commonest reading may itself be the wrong one)."""
    from collections import Counter, defaultdict

    from vision.frames import load_image
    from vision.track import BoardTracker

    base = SHARED / "photos" / "jheidel"
    if not base.is_dir():
        return "jheidel photo games: not found (skipped)"
    games = defaultdict(list)
    for p in sorted(base.glob("IMG_*_*.jpg")):
        games[p.name.split("_")[1]].append(p)
    out = []
    for day, files in sorted(games.items()):
        seen, read, refused = defaultdict(Counter), 0, []
        for p in files:
            img = load_image(str(p))
            try:
                rect = R.rectify_board(img, BoardTracker().update(img, p.name).corners)
            except Exception:
                continue
            try:
                rd = R.BoardReader(ENGLISH, values=EN_VALUES).read(rect)
            except R.VisionError as e:    # refused (a shaken photo): nothing shown, nothing to compare
                refused.append(f"{p.name} ({e.reason})")
                continue
            read += 1
            for r, row in enumerate(rd.labels):
                for c, ch in enumerate(row):
                    if ch not in ".#":
                        seen[(r, c)][ch] += 1
        shown = sum(sum(v.values()) for v in seen.values())
        odd = {k: v for k, v in seen.items() if len(v) > 1}
        minority = sum(sum(v.values()) - max(v.values()) for v in odd.values())
        detail = "; ".join(f"{chr(65 + c)}{r + 1} {dict(v)}" for (r, c), v in sorted(odd.items()))
        out.append(f"jheidel game of {day}: {read} photos read, {len(seen)} squares with a tile, {shown} tile "
                   f"readings, {minority} unlike their square's commonest reading ({100 * minority / max(1, shown):.2f} %)"
                   + (f": {detail}" if detail else "")
                   + (f"; refused: {', '.join(refused)}" if refused else ""))
    return "\n".join(out)


def bench_real_blanks() -> str:
    """The quanyuan frames (a deluxe set: white-faced blanks in maroon borders) each read afresh at
    its marked corners, the English values read: how many squares read as blanks, letters, ``#``
    and empty (no truth per square: the README keeps the counts, a change shows as a count moved)."""
    from collections import Counter

    frames = _quanyuan_marked()
    if not frames:
        return "quanyuan blanks: ../shared/corners/quanyuan not found (skipped)"
    shown, refused = Counter(), 0
    for picture, corners in frames:
        try:
            rd = R.BoardReader(ENGLISH, values=EN_VALUES).read(R.rectify_board(cv2.imread(str(picture)), corners))
        except R.VisionError:
            refused += 1
            continue
        shown.update("letter" if ch not in ".#?" else ch for row in rd.labels for ch in row)
    return (f"quanyuan frames read at their marked corners: {len(frames)} frames, {refused} refused; squares read "
            f"'?' {shown['?']}, letters {shown['letter']}, '#' {shown['#']}, empty {shown['.']}")


def bench_grey_photos() -> str:
    """The jheidel photos made black and white (a grey camera mode), each located and read afresh,
    against the same photo in colour: squares read alike, and the letters read as other letters
    (no truth per square: a square read two ways is read wrong in one of them, or asked)."""
    from vision.locate import locate_auto

    base = SHARED / "photos" / "jheidel"
    if not base.is_dir():
        return "jheidel photos in grey: ../shared/photos/jheidel not found (skipped)"
    read = alike = squares = 0
    other = []
    for p in sorted(base.glob("*.jpg")):
        img = cv2.imread(str(p))
        grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        try:
            colour = R.BoardReader(ENGLISH, values=EN_VALUES).read(R.rectify_board(img, locate_auto(img, p.name).corners))
            in_grey = R.BoardReader(ENGLISH, values=EN_VALUES).read(R.rectify_board(grey, locate_auto(grey, p.name).corners))
        except R.VisionError:            # not found, or refused (a smeared photo): not compared
            continue
        read += 1
        for r in range(15):
            for c in range(15):
                a, b = colour.labels[r][c], in_grey.labels[r][c]
                squares += 1
                alike += a == b
                if a != b and a not in ".#?" and b not in ".#?":
                    other.append(f"{p.name} {chr(65 + c)}{r + 1} {a} as {b}")
    return (f"jheidel photos read in grey and in colour: {read} read both ways, {alike} of {squares} squares "
            f"alike; letters read as another: {len(other)}" + (f" ({'; '.join(other)})" if other else ""))


#: A letter shown under this confidence is a question to the players in a camera game
#: (``companion replay``'s ``min_confidence``), not a fact.
ASKED_UNDER = 0.8


def shown_as_fact(truth: list[str], covered: np.ndarray, rd) -> list[tuple[int, int]]:
    """The squares of a reading that are wrong and shown as fact: what a camera game would take
    without asking.  Not counted: a square shown ``#`` (unread, never a guess), a letter shown
    under ASKED_UNDER (asked), a blank shown (its letter is always asked) where a tile is, and a
    square shown empty that the reader lists as maybe a blank (``maybe_blank``: asked where a
    play touches it).  Squares partly under a hand are left out, as :func:`score_board` does."""
    out = []
    for r in range(15):
        for k in range(15):
            t, g = truth[r][k], rd.labels[r][k]
            if covered[r, k] > 0.02 or g in (t, R.COVERED):
                continue
            if g not in ".?" and rd.confidence[r, k] < ASKED_UNDER:
                continue
            if g == "?" and t != ".":
                continue
            if g == "." and (r, k) in rd.maybe_blank:
                continue
            out.append((r, k))
    return out


def bench_focus(n: int, seed: int) -> str:
    """Pictures out of focus: rendered boards (training fonts, hard and standard cameras) under a
    further Gaussian blur of 0-4 px of the 1920x1080 frame, read with the picture check and with
    its focus limit lifted (what the reader showed before it); and the blur width of real photos
    (``../shared``: the jheidel photos where the locator finds them, the quanyuan frames at their
    marked corners), none of which may be refused."""
    from vision.locate import locate_auto

    sigmas = (0.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0)
    t = dict(pictures=0, focus=0, sharpness=0, other=0, read=0, tiles=0, right=0, wrong=0,
             before_read=0, before_tiles=0, before_right=0, before_wrong=0, refused_clean=0, fact=0, before_fact=0,
             fact_unblurred=0)
    widths = []
    for hard in (True, False):
        rng = np.random.default_rng(seed + (0 if hard else 1))
        fonts = font_paths("train")
        for _ in range(n):
            sc = random_scene(rng, ENGLISH, fonts, size=(1920, 1080), cell=56, hard=hard,
                              values={k: str(v) for k, v in EN_VALUES.items()})
            for sigma in sigmas:
                frame = sc.frame if sigma == 0 else cv2.GaussianBlur(sc.frame, (0, 0), sigma)
                rect = R.rectify_board(frame, sc.corners)
                t["pictures"] += 1
                if sigma == 0:
                    widths.append(R.blur_width(R.Analysis(rect).gray))
                results = {}
                for check in (True, False):
                    limit, R.FOCUS_LIMIT = R.FOCUS_LIMIT, (R.FOCUS_LIMIT if check else float("inf"))
                    try:
                        rd = R.BoardReader(ENGLISH, values=EN_VALUES).read(rect)
                        results[check] = score_board(sc.labels, sc.covered, rd.labels)
                        results[check]["fact"] = len(shown_as_fact(sc.labels, sc.covered, rd))
                    except R.VisionError as e:
                        results[check] = e.reason
                    finally:
                        R.FOCUS_LIMIT = limit
                now, before = results[True], results[False]
                if isinstance(before, dict):
                    t["before_read"] += 1
                    t["before_tiles"] += before["tiles"]
                    t["before_right"] += before["tiles_right"]
                    t["before_wrong"] += before["tiles_wrong"] + before["empty_wrong"] + before["covered_wrong"]
                    t["before_fact"] += before["fact"]
                if isinstance(now, dict):
                    t["read"] += 1
                    t["tiles"] += now["tiles"]
                    t["right"] += now["tiles_right"]
                    t["wrong"] += now["tiles_wrong"] + now["empty_wrong"] + now["covered_wrong"]
                    t["fact"] += now["fact"]
                    t["fact_unblurred"] += now["fact"] if sigma == 0 else 0
                elif now == "out-of-focus":
                    t["focus"] += 1
                    t["refused_clean"] += isinstance(before, dict) and (
                        before["tiles_wrong"] + before["empty_wrong"] + before["covered_wrong"]) == 0
                elif now in ("blurred", "smeared"):      # the sharpness and smear checks
                    t["sharpness"] += 1
                else:
                    t["other"] += 1
    real = {}
    jheidel = SHARED / "photos" / "jheidel"
    for p in sorted(jheidel.glob("*.jpg")) if jheidel.is_dir() else []:
        img = cv2.imread(str(p))
        try:
            rect = R.rectify_board(img, locate_auto(img, p.name).corners)
        except Exception:
            continue
        real.setdefault("jheidel", []).append(R.blur_width(R.Analysis(rect).gray))
    for picture, corners in _quanyuan_marked():
        img = cv2.imread(str(picture))
        real.setdefault("quanyuan", []).append(R.blur_width(R.Analysis(R.rectify_board(img, corners)).gray))
    lines = [f"pictures out of focus ({n} boards a camera, hard and standard, a further blur of "
             f"{', '.join(f'{s:g}' for s in sigmas)} px): {t['pictures']} pictures; refused out of focus {t['focus']} "
             f"({t['refused_clean']} of them read with no wrong square with the check lifted), refused by the sharpness "
             f"check {t['sharpness']}, otherwise {t['other']}",
             f"  read: {t['read']} pictures, tiles right {t['right'] / max(1, t['tiles']):.4f}, wrong squares {t['wrong']} "
             f"(shown as fact, asked about nothing: {t['fact']}, {t['fact_unblurred']} of them on the pictures not "
             f"blurred further); "
             f"with the focus limit lifted: {t['before_read']} pictures, tiles right "
             f"{t['before_right'] / max(1, t['before_tiles']):.4f}, wrong squares {t['before_wrong']} "
             f"(as fact {t['before_fact']})",
             f"  blur width (px of a {R.CELL} px square, limit {R.FOCUS_LIMIT}) of the boards as rendered: "
             f"median {np.median(widths):.2f}, highest {max(widths):.2f}"]
    for name, w in real.items():
        lines.append(f"  real {name}: {len(w)} pictures, blur width median {np.median(w):.2f}, highest {max(w):.2f}, "
                     f"over the limit {sum(x > R.FOCUS_LIMIT for x in w)}")
    return "\n".join(lines)


def bench_engines(n: int, seed: int, repeats: int = 3) -> str:
    """The letter CNN in onnxruntime against numpy, frame by frame in one process (separate runs
    overlap on a shared machine): the same frames as ``--only speed``, each located, rectified and
    read ``repeats`` times by each engine in turn; the median over frames of each one's best."""
    from vision import onnx_cnn
    from vision.locate import locate_board

    if not onnx_cnn.available():
        return "engines: onnxruntime is not installed here (or TC_NUMPY_CNN is set): nothing to compare"
    cv2.setNumThreads(1)
    frames = [frame for frame, _, _ in speed_frames(n, seed)]
    onnx_cnn._rows_read = onnx_cnn.START_AFTER_ROWS          # started at once, as after a game's first frames

    def first_frame(frame) -> float:
        t0 = time.perf_counter()
        R.BoardReader(ENGLISH, values=EN_VALUES).read(R.rectify_board(frame, locate_board(frame).corners))
        return (time.perf_counter() - t0) * 1000

    for frame in frames[:3]:                                  # the sessions made, the caches warm
        first_frame(frame)
    models = [m for m in (L.default_model(), L.default_model().second, L.default_value_model()) if m is not None]
    sessions = [m._onnx for m in models]
    best = {"onnxruntime": [], "numpy": []}
    for frame in frames:
        times = {k: [] for k in best}
        for _ in range(repeats):
            for engine in best:
                for m, sess in zip(models, sessions):
                    m._onnx = sess if engine == "onnxruntime" else False
                times[engine].append(first_frame(frame))
        for k in best:
            best[k].append(min(times[k]))
    for m, sess in zip(models, sessions):
        m._onnx = sess
    return (f"engines (one core, {n} frames 1920x1080, locate + rectify + read, best of {repeats} a frame, "
            f"the engines in turn): onnxruntime {np.median(best['onnxruntime']):.1f} ms median, "
            f"numpy {np.median(best['numpy']):.1f} ms median")


def bench_calibrated(n: int, seed: int, role: str, hard: bool) -> dict:
    """The values rows' cold boards (the same seeds and boards as :func:`bench_renders`), read
    without a set profile and with one calibrated from the set's tile sheet
    (``calibration/tile_sheet.md``: one tile of each letter and a blank, on the same board),
    photographed by the same camera -- as the players would, from where it stays -- and by
    another (another light, white balance, tilt and blur).  Figures per reading: tiles, tiles
    right, wrong squares, boards with no wrong square; and sheets refused."""
    from calibration.set_profile import calibrate_rectified, sheet_layout
    from vision.render import photograph, random_background, random_camera, render_board

    rng = np.random.default_rng(seed)
    sheets = np.random.default_rng(seed + 4242)          # its own draws: the boards stay the same
    fonts = font_paths(role)
    values = {k: str(v) for k, v in EN_VALUES.items()}
    layout = sheet_layout(ENGLISH)
    sheet_labels = ["".join(layout.get((r, c), ".") for c in range(15)) for r in range(15)]
    tot = {k: [0, 0, 0, 0] for k in ("cold", "same camera", "another light")}
    refused = 0
    for _ in range(n):
        sc = random_scene(rng, ENGLISH, fonts, size=(1920, 1080), cell=56, hard=hard, values=values)
        cellpx = np.linalg.norm(sc.corners[1] - sc.corners[0]) / 15
        corners = sc.corners + rng.normal(0, 0.08 * cellpx, (4, 2))
        rect = R.rectify_board(sc.frame, corners)
        sheet, sheet_corners, _ = render_board(sheet_labels, sc.board_style, sc.tile_style,
                                               np.random.default_rng(int(sheets.integers(1 << 30))), cell=56,
                                               values=values)
        profiles = {"cold": None}
        for key, cam in (("same camera", sc.camera), ("another light", random_camera(sheets, (1920, 1080), hard))):
            pic, pic_corners = photograph(sheet, sheet_corners, cam, np.random.default_rng(int(sheets.integers(1 << 30))),
                                          random_background(sheets, (1080, 1920)))
            try:
                profiles[key] = calibrate_rectified(rectify(pic, pic_corners, R.CELL), ENGLISH)
            except Exception:  # a refused sheet: the players would be asked to photograph it again
                profiles[key] = None
                refused += 1
        for key, profile in profiles.items():
            got = R.BoardReader(ENGLISH, profile=profile, values=EN_VALUES).read(rect).labels
            c = score_board(sc.labels, sc.covered, got)
            wrong = c["tiles_wrong"] + c["empty_wrong"] + c["covered_wrong"]
            t = tot[key]
            t[0] += c["tiles"]
            t[1] += c["tiles_right"]
            t[2] += wrong
            t[3] += wrong == 0
    tot["boards"], tot["refused"] = n, refused
    return tot


def bench_value_windows(n: int, seed: int) -> str:
    """The point-value model alone on rendered value windows, cut as the reader cuts them
    (``calibration/train_values.value_data``: hard-camera boards, every letter a random value
    from 1 to 10 a board, tiles printed without a value teaching "no value"): the share read
    right, for the training fonts and the fonts never seen, and by class.  The reader weighs
    these readings into a letter in doubt (``read.letter_by_value``), so a letter the letter
    model doubts is helped only as far as its value window reads."""
    from calibration.train_values import value_data

    model = L.default_value_model()
    if model is None:
        return "value windows: no value model here"
    lines = []
    for role, name in (("train", "training fonts"), ("heldout", "fonts never seen")):
        ims, meta, y = value_data(n, seed, role, 2)
        pred = model.forward(ims.astype(np.float32) / 255, meta)[0].argmax(axis=1)
        by_class = ", ".join(f"{c} {float((pred[y == i] == i).mean()):.2f}"
                             for i, c in enumerate(L.VALUE_CLASSES) if (y == i).any())
        lines.append(f"value windows, {name} ({n} boards): {float((pred == y).mean()):.4f} read right of {len(y)}; "
                     f"by class (T = 10, ~ = no value): {by_class}")
    return "\n".join(lines)


def use_models(folder: Path) -> None:
    """Read with the models in ``folder`` (a training run's ``--out``): each of letters.npz,
    squares.npz and values.npz found there replaces the committed one in this process."""
    if (folder / "letters.npz").exists():
        L._DEFAULT = L.LetterModel.load(folder / "letters.npz")
    if (folder / "squares.npz").exists():
        R._SQUARES = R.SquareModel.load(folder / "squares.npz")
    if (folder / "values.npz").exists():
        values_model = L.LetterModel.load(folder / "values.npz")
        L.default_value_model = lambda: values_model


def _values_seed(a, role: str, hard: bool, reference: bool = False) -> int:
    """The seed of a values row's boards: every part drawn from the values rows (mirrored, turned,
    grey, calibrated, deluxe) reads the same boards."""
    return a.seed + 100 + (1 if reference else 0) + (10 if role == "heldout" else 0) + (20 if not hard else 0)


def _cold_values_rows(a, runs, **camera):
    """(name, figures) for each row of ``runs``: the values rows' boards (the same seeds), read
    cold with the values, as ``camera`` (mirrored, turned or grey, see :func:`bench_renders`)
    sees them."""
    for role, hard, n, name in runs:
        yield name, bench_renders(n, _values_seed(a, role, hard), role, False, show_errors=a.show_errors, hard=hard,
                                  printed=EN_VALUES, read_values=True, **camera)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--speed-frames", type=int, default=20)
    ap.add_argument("--skip-photos", action="store_true")
    ap.add_argument("--skip-tesseract", action="store_true")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--only", choices=["renders", "values", "mirrored", "turned", "grey", "games", "jheidel", "crops", "speed", "engines", "calibrated",
                                       "photos", "photo-games", "deluxe", "focus", "sizes", "hard-cold", "value-windows",
                                       "marked-crops", "sets", "poses", "real-blanks", "grey-photos"],
                    default=None)
    ap.add_argument("--show-errors", type=int, default=5)
    ap.add_argument("--values-read-only", action="store_true", help="the values rows only as the product reads "
                    "them (values read), not also without the values: half the time, for a larger --boards")
    ap.add_argument("--tesseract-crops", type=int, default=270, help="every n-th crop so that about this many are "
                    "run through tesseract (0 = all 1,080; ~0.15 s each)")
    ap.add_argument("--models", default=None, help="a folder with letters.npz, squares.npz and/or values.npz to "
                    "measure instead of the committed models (e.g. a training run's --out)")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if a.models:
        use_models(Path(a.models))
        print(f"models from {a.models}: {sorted(p.name for p in Path(a.models).glob('*.npz'))}", flush=True)
    runs = [("train", True, a.boards, "training fonts, hard camera"),
            ("train", False, a.boards // 2, "training fonts, standard camera"),
            ("heldout", True, max(20, a.boards // 3), "fonts never seen, hard camera")]
    if a.only in (None, "renders"):
        for role, hard, n, name in runs:
            for ref in (False, True):
                seed = a.seed + (1 if ref else 0) + (10 if role == "heldout" else 0) + (20 if not hard else 0)
                t = bench_renders(n, seed, role, ref, show_errors=a.show_errors, hard=hard)
                print(report_renders(f"rendered boards, {name}, {'with reference' if ref else 'cold'}", t),
                      flush=True)
    if a.only == "hard-cold":
        # the rows furthest from the targets, on more boards than the values rows hold: the hard
        # camera, cold, values read, training fonts and fonts never seen; ``--boards`` boards a
        # row drawn from ``--seed`` itself (not in the full run: ~10 minutes a row for 300 boards)
        for role, name in (("train", "training fonts"), ("heldout", "fonts never seen")):
            t = bench_renders(a.boards, a.seed, role, False, show_errors=a.show_errors, hard=True,
                              printed=EN_VALUES, read_values=True)
            print(report_renders(f"set's values printed, {name}, hard camera, cold, values read, seed {a.seed}", t),
                  flush=True)
    if a.only in (None, "values"):
        # the same kinds of boards, every tile printed with the English set's values, read without
        # and with the values (the reader reads the printed value where it hesitates)
        for role, hard, n, name in runs:
            for ref in (False, True):
                for use in ((True,) if a.values_read_only else (False, True)):
                    t = bench_renders(n, _values_seed(a, role, hard, ref), role, ref, show_errors=a.show_errors,
                                      hard=hard, printed=EN_VALUES, read_values=use)
                    print(report_renders(f"set's values printed, {name}, {'with reference' if ref else 'cold'}, "
                                         f"{'values read' if use else 'values not read'}", t), flush=True)
    # the values rows' boards (same seeds, cold, values read) seen by another camera:
    if a.only in (None, "mirrored"):
        # one that mirrors its picture (phone-as-webcam apps, front cameras): every frame
        # flipped left to right
        for name, t in _cold_values_rows(a, runs, mirrored=True):
            print(report_renders(f"mirrored camera, {name}, cold, values read", t)
                  + f"; found mirrored on {t.get('mirrored_found', 0)}/{t['boards']}", flush=True)
    if a.only in (None, "turned"):
        # one at another side of the table: each board seen from a random one of the other three
        for name, t in _cold_values_rows(a, runs, turned=True):
            print(report_renders(f"board seen from another side, {name}, cold, values read", t), flush=True)
    if a.only in (None, "deluxe"):
        # every set's blanks with a face of their own (deluxe sets: a white face in a maroon
        # tile's border), the values rows' boards otherwise, cold and with a reference
        for role, hard, n, name in runs:
            for ref in (False, True):
                t = bench_renders(n, _values_seed(a, role, hard, ref), role, ref, show_errors=a.show_errors, hard=hard,
                                  printed=EN_VALUES, read_values=True, deluxe=1.0)
                print(report_renders(f"blanks with a face of their own, {name}, {'with reference' if ref else 'cold'}, "
                                     f"values read", t) + f"; blanks {t['blanks']}, read right {t['blanks_right']}, "
                      f"read empty {t['blanks_empty']}", flush=True)
    if a.only in (None, "grey"):
        # a black-and-white camera (a grey camera mode, a night camera): every frame made grey
        for name, t in _cold_values_rows(a, runs, grey=True):
            print(report_renders(f"black-and-white camera, {name}, cold, values read", t), flush=True)
    if a.only in (None, "sizes"):
        # smaller frames: a webcam at 720p, a camera left at OpenCV's 640x480 (the live source
        # asks for 1920x1080; not every camera gives it); each also located with no help
        for size in ((1280, 720), (640, 480)):
            for role, hard, n, name in runs:
                t = bench_renders(n, _values_seed(a, role, hard), role, False, show_errors=a.show_errors, hard=hard,
                                  printed=EN_VALUES, read_values=True, size=size, locate=True)
                print(report_renders(f"{size[0]}x{size[1]} frames, {name}, cold, values read", t)
                      + f"\n  squares {np.median(t['cell_px']):.0f} px median in the frame "
                      f"({min(t['cell_px']):.0f}-{max(t['cell_px']):.0f}); grid found within half a square "
                      f"{t.get('located', 0)}/{t['boards']}, {np.median(t['locate_ms']):.1f} ms median", flush=True)
    if a.only in (None, "sets"):
        bench_other_sets(max(10, a.boards // 7), a.seed + 800, a.show_errors)
    if a.only in (None, "focus"):
        print(bench_focus(max(10, a.boards // 10), a.seed + 400), flush=True)
    if a.only in (None, "engines") and not a.skip_speed:
        print(bench_engines(a.speed_frames, a.seed + 99), flush=True)
    if a.only in (None, "calibrated"):
        # the values rows' cold boards read with the set calibrated from its tile sheet
        for role, hard, n, name in runs:
            t = bench_calibrated(n, _values_seed(a, role, hard), role, hard)
            print(f"set calibrated from its tile sheet, {name}, cold, values read: {t['boards']} boards, "
                  f"{t['refused']} sheets refused; " + "; ".join(
                      f"{k}: tiles right {v[1] / max(1, v[0]):.4f}, wrong squares {v[2]}, boards with no wrong square "
                      f"{v[3] / t['boards']:.4f}" for k, v in t.items() if k not in ("boards", "refused")), flush=True)
    if a.only in (None, "games"):
        print(bench_first_moves(max(40, a.boards * 3), a.seed + 300), flush=True)
        print(bench_first_moves(max(40, a.boards * 3), a.seed + 300, values=True), flush=True)
    if a.only in (None, "jheidel"):
        print(bench_jheidel(not a.skip_tesseract, limit=a.tesseract_crops), flush=True)
    if a.only == "value-windows":          # asked for only: ~2 minutes of rendering
        print(bench_value_windows(max(8, a.boards // 7), a.seed + 600), flush=True)
    if a.only in (None, "crops"):
        print(bench_lone_crops(max(10, a.boards // 7), a.seed + 500), flush=True)
    if a.only in (None, "poses"):
        print(bench_crop_poses(max(10, a.boards // 7), a.seed + 900), flush=True)
    if a.only in (None, "marked-crops"):
        for role in ("train", "heldout"):
            print(bench_marked_crops(max(10, a.boards // 10), a.seed + 700 + (10 if role == "heldout" else 0), role),
                  flush=True)
    if a.only in (None, "speed") and not a.skip_speed:
        print(bench_speed(a.speed_frames, a.seed + 99), flush=True)
    if a.only in (None, "photos") and not a.skip_photos:
        print(bench_photos(), flush=True)
    if a.only in (None, "photo-games") and not a.skip_photos:
        print(bench_game_photos(), flush=True)
    if a.only in (None, "real-blanks") and not a.skip_photos:
        print(bench_real_blanks(), flush=True)
    if a.only in (None, "grey-photos") and not a.skip_photos:
        print(bench_grey_photos(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
