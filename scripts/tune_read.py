"""Tuning rows for a reading change: every board's result kept, two runs compared board by board.

    .venv/bin/python scripts/tune_read.py run base                       # this tree, the usual seeds
    .venv/bin/python scripts/tune_read.py run new --root /tmp/wt_change  # a worktree with the change
    .venv/bin/python scripts/tune_read.py run fit2 --models /tmp/run1    # models from a training run
    .venv/bin/python scripts/tune_read.py compare base new               # totals a row, then each board that moved
    .venv/bin/python scripts/tune_read.py faces new                      # a run's rows by tile face
    .venv/bin/python scripts/tune_read.py confusions new                 # a run's misreadings by kind
    .venv/bin/python scripts/tune_read.py steps new                      # ... and by the reader's steps behind them
    .venv/bin/python scripts/tune_read.py show 47000 unseen_ref 36       # one board of a run: pictures, squares

A reading rule is set on boards the README's figures are not measured on.  ``run`` reads the six
values rows of ``bench_read.py`` (hard camera with training fonts, standard camera, hard camera
with fonts never seen; each cold and with an empty-board reference; the English set's values
printed and read) for each tuning seed, ``--boards`` boards a row, and keeps each board's tally,
the squares it read otherwise than the truth (with the reader's guess and confidence for those
shown ``#``) and the tile face, as JSON in ``--out`` (one file a tag and seed).  The seeds run in
``--jobs`` processes (one core each, as the benchmark).  ``compare`` prints, for each row, tiles
right, tiles ``#``, tiles and empty squares wrong and boards with no wrong square, then every board
whose squares read otherwise between the two runs: what the second run mended and what it broke.

The report's seeds (``bench_read.py --seed 5000``: 5000-5199; the larger check ``--seed 6000``:
6000-6199; the seeds that would draw the boards of ``--only hard-cold --seed 31000`` and ``32000``)
are refused: a rule tuned on them would make their figures a measure of the tuning.
About 5.5 minutes for the four default seeds (960 boards) on two cores.  ``show SEED ROW BOARD``
reads one board of a row again (as ``compare`` and the runs' JSON name it), prints the truth, the
reading and the reader's guesses side by side and every square read otherwise (kind, confidence,
the steps that touched it), and writes the board's picture (and its reference) and those squares
enlarged to ``--pictures``: what a look at one board needs, drawn by the benchmark itself.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROWS = (("hard", "train", True), ("std", "train", False), ("unseen", "heldout", True))
ROW_ORDER = [f"{name}_{ref}" for name, _, _ in ROWS for ref in ("cold", "ref")] + [f"grey_{name}" for name, _, _ in ROWS]
DEFAULT_SEEDS = (7500, 7700, 8100, 8300)
# the report's values rows (bench_read.py --seed 5000 and 6000: tuning seed S reads bench seeds
# S+100 to S+121) and its large check of the hard-camera cold rows (--only hard-cold --seed 31000
# and 32000, read from those seeds themselves)
REPORT_SEEDS = (range(5000, 5200), range(6000, 6200), range(30850, 31001), range(31850, 32001))
DEFAULT_OUT = Path(os.environ.get("TMPDIR", "/tmp")) / "tc_tune"
# The reader's steps after its first reading (vision/read.py), each returning the squares it
# changes -- letters in doubt shown (_board_letters, _sharpened), letters or blanks asked (the
# rest) -- or, for _glared, the squares glare clips.  A run notes which of them touched each
# square it reads otherwise than the truth; a name the reader no longer has is left out.
READER_STEPS = ("_board_letters", "_sharpened", "_cut_where_the_tiles_sit", "_bar_beside_a_letter",
                "_faint_stroke_lost", "_sharpened_reads_another", "_letter_its_print_reads")
MODULE_STEPS = ("_partly_under_a_hand", "_blanks_past_any_set", "_in_soft_glare", "_emptied_with_a_tiles_border",
                "_print_read_as_letters", "_kind_read_as_one_letter", "_unread_tiles", "_blanks_by_border", "_glared")


def check_seed(seed: int) -> None:
    """Refuse a seed the README's reading figures are measured on."""
    for span in REPORT_SEEDS:
        if seed in span:
            raise SystemExit(f"seed {seed} draws the report's boards (seeds {span.start}-{span.stop - 1}): "
                             "tune on other seeds, e.g. 7500, 7700, 8100, 8300")


class _Seeded:
    """What ``bench_read._values_seed`` reads of its command line: the seed."""

    def __init__(self, seed: int):
        self.seed = seed


def read_rows(root: Path, seed: int, boards: int, models: Path | None, grey: bool = False) -> list[dict]:
    """Each board of the six values rows of ``seed``, read by the code under ``root``; with
    ``grey``, the three cold rows made grey instead (as ``bench_read.py --only grey``: a
    black-and-white camera), rows ``grey_hard``, ``grey_std`` and ``grey_unseen``."""
    sys.path[:0] = [str(root), str(root / "scripts")]
    import cv2
    cv2.setNumThreads(1)
    import bench_read as B
    from vision import read as R
    if models is not None:          # as bench_read.py --models
        if not hasattr(B, "use_models"):
            raise SystemExit(f"{root}/scripts/bench_read.py predates use_models: --models needs a newer tree")
        B.use_models(models)
    out: list[dict] = []
    now: dict = {}
    read, score, scene = R.BoardReader.read, B.score_board, B.random_scene
    touched = watch_steps(R)          # the reader's steps, each noting the squares it touched

    def reading(self, rect, *a, **k):
        touched.clear()
        now["reading"] = read(self, rect, *a, **k)
        return now["reading"]

    def scoring(labels, covered, got):
        c = score(labels, covered, got)
        rd = now.pop("reading", None)

        def square(r: int, k: int) -> list:
            """[row, column, truth, shown, the reader's guess, its confidence]"""
            return [r, k, labels[r][k], got[r][k], rd.guesses[r][k] if rd is not None else "",
                    round(float(rd.confidence[r, k]), 3) if rd is not None else 0.0]

        everywhere = [(r, k) for r in range(15) for k in range(15)]
        moved = [square(r, k) for r, k in everywhere if got[r][k] != labels[r][k] and covered[r, k] <= 0.02]
        # squares partly under a hand shown as something they are not (the tally's covered_wrong:
        # a board with one has a wrong square), with how much of them the hand covers
        hand = [square(r, k) + [round(float(covered[r, k]), 3)] for r, k in everywhere
                if covered[r, k] > 0.02 and got[r][k] not in (R.COVERED, labels[r][k])]
        noted = {f"{r},{k}": touched[(r, k)] for r, k, *_ in moved + hand if (r, k) in touched}
        out.append({"row": now["row"], "board": now["board"], "face": now.get("face"), "tally": c, "squares": moved,
                    "under_hand": hand, "steps": noted})
        now["board"] += 1
        return c

    def drawing(*a, **k):
        sc = scene(*a, **k)
        now["face"] = Path(sc.tile_style.font).name
        return sc

    R.BoardReader.read, B.score_board, B.random_scene = reading, scoring, drawing

    for name, role, hard in ROWS:
        for ref in ((False,) if grey else (False, True)):
            now.update(row=f"grey_{name}" if grey else f"{name}_{'ref' if ref else 'cold'}", board=0)
            B.bench_renders(boards, B._values_seed(_Seeded(seed), role, hard, ref), role, ref, hard=hard,
                            printed=B.EN_VALUES, read_values=True, **({"grey": True} if grey else {}))
    return out


class _Skipped(Exception):
    """A board before the one :func:`show_board` is after: not read."""


def row_camera(row: str) -> tuple[str, str, bool, bool, bool]:
    """(name, font role, hard camera, with a reference, grey) of a row of :data:`ROW_ORDER`."""
    grey = row.startswith("grey_")
    name = row[len("grey_"):] if grey else row.rsplit("_", 1)[0]
    cameras = {n: (role, hard) for n, role, hard in ROWS}
    if name not in cameras or (not grey and not row.endswith(("_cold", "_ref"))):
        raise SystemExit(f"no row called {row!r}: one of {', '.join(ROW_ORDER)}")
    role, hard = cameras[name]
    return name, role, hard, row.endswith("_ref"), grey


def show_board(root: Path, seed: int, row: str, board: int) -> dict:
    """Board ``board`` (from 0) of ``row`` of tuning seed ``seed`` read again by the code under
    ``root``, drawn by ``bench_read.bench_renders`` itself (the boards before it drawn, not read):
    {"truth", "read", "guess": 15 strings each, "covered": 15 x 15 shares under a hand,
    "squares": [(r, c, truth, shown, kind, confidence, steps)] read otherwise, "face", "picture",
    "reference" (or None), "tally": the benchmark's tally of the board}."""
    check_seed(seed)
    _, role, hard, ref, grey = row_camera(row)
    sys.path[:0] = [str(root), str(root / "scripts")]
    import cv2
    cv2.setNumThreads(1)
    import bench_read as B
    from vision import read as R
    steps_before = ([(R.BoardReader, n, getattr(R.BoardReader, n)) for n in READER_STEPS if hasattr(R.BoardReader, n)]
                    + [(R, n, getattr(R, n)) for n in MODULE_STEPS if hasattr(R, n)])
    touched = watch_steps(R)
    seen = {"n": -1}
    read, score, scene, warp = R.BoardReader.read, B.score_board, B.random_scene, B.rectify

    def drawing(*a, **k):
        seen["n"] += 1
        seen["scene"] = scene(*a, **k)
        return seen["scene"]

    def warping(*a, **k):
        seen["reference"] = warp(*a, **k)
        return seen["reference"]

    def reading(self, rect, *a, **k):
        if seen["n"] != board:
            raise _Skipped
        touched.clear()
        seen["picture"], seen["reading"] = rect, read(self, rect, *a, **k)
        return seen["reading"]

    def scoring(labels, covered, got):
        c = score(labels, covered, got)
        if seen["n"] == board:
            seen["tally"] = c
        return c

    R.BoardReader.read, B.score_board, B.random_scene, B.rectify = reading, scoring, drawing, warping
    try:
        B.bench_renders(board + 1, B._values_seed(_Seeded(seed), role, hard, ref), role, ref, hard=hard,
                        printed=B.EN_VALUES, read_values=True, **({"grey": True} if grey else {}))
    finally:
        R.BoardReader.read, B.score_board, B.random_scene, B.rectify = read, score, scene, warp
        for owner, name, step in steps_before:          # the reader as it was, unwatched
            setattr(owner, name, step)
    if "reading" not in seen:
        raise SystemExit(f"board {board} of {row}, seed {seed}, was refused by the reader")
    sc, rd = seen["scene"], seen["reading"]
    truth = ["".join(r) for r in sc.labels]
    squares = [(r, c, truth[r][c], rd.labels[r][c], str(rd.kinds[r, c]), round(float(rd.confidence[r, c]), 3),
                touched.get((r, c), [])) for r in range(15) for c in range(15)
               if rd.labels[r][c] != truth[r][c] and sc.covered[r, c] <= 0.02]
    return {"truth": truth, "read": list(rd.labels), "guess": ["".join(g or " " for g in row) for row in rd.guesses],
            "covered": sc.covered, "squares": squares, "face": Path(sc.tile_style.font).name,
            "picture": seen["picture"], "reference": seen.get("reference") if ref else None, "tally": seen["tally"]}


def show_lines(shown: dict) -> list[str]:
    """What ``show`` prints of :func:`show_board`'s answer."""
    lines = [f"face {shown['face']}; truth, read, guesses:"]
    lines += [f"{a}   {b}   {c}" for a, b, c in zip(shown["truth"], shown["read"], shown["guess"])]
    lines += [f"  {r},{c}: {t} shown {s} ({kind}, {conf}){' ' + '+'.join(st) if st else ''}"
              for r, c, t, s, kind, conf, st in shown["squares"]]
    return lines


def save_pictures(shown: dict, out: Path, stem: str) -> list[Path]:
    """The board's picture (and reference) and its squares read otherwise, enlarged, under ``out``."""
    import cv2
    import numpy as np
    out.mkdir(parents=True, exist_ok=True)
    saved = [out / f"{stem}_picture.png"]
    cv2.imwrite(str(saved[0]), shown["picture"])
    if shown["reference"] is not None:
        saved.append(out / f"{stem}_reference.png")
        cv2.imwrite(str(saved[-1]), shown["reference"])
    from vision.read import CELL as side

    pic = shown["picture"]
    m = (pic.shape[0] - 15 * side) // 2                # the photo kept round the grid (MARGIN)
    # each square with the margin round it, as the reader cuts it (the values rows are not turned:
    # the picture's squares are the reading's)
    tiles = [cv2.resize(pic[r * side:(r + 1) * side + 2 * m, c * side:(c + 1) * side + 2 * m], (150, 150),
                        interpolation=cv2.INTER_NEAREST) for r, c, *_ in shown["squares"][:12]]
    if tiles:
        saved.append(out / f"{stem}_squares.png")
        cv2.imwrite(str(saved[-1]), np.hstack(tiles))
    return saved


def watch_steps(R) -> dict:
    """Wrap the reader's steps (READER_STEPS on ``R.BoardReader``, MODULE_STEPS in ``R``, the
    module vision.read) so that each notes the squares it returned (for ``_glared``, those it
    marks) in the dict returned: (row, column) -> step names, in the order they ran; the caller
    clears it before each reading."""
    touched: dict[tuple[int, int], list[str]] = {}

    def note(name, squares):
        for rc in squares:
            names = touched.setdefault((int(rc[0]), int(rc[1])), [])
            if name not in names:
                names.append(name)

    def wrapped(f, name):
        def step(*a, **k):
            out = f(*a, **k)
            if name == "_glared":
                note(name, zip(*out.nonzero()))
            else:
                note(name, list(out))
            return out
        return step

    for name in READER_STEPS:
        if hasattr(R.BoardReader, name):
            setattr(R.BoardReader, name, wrapped(getattr(R.BoardReader, name), name))
    for name in MODULE_STEPS:
        if hasattr(R, name):
            setattr(R, name, wrapped(getattr(R, name), name))
    return touched


def load(out: Path, tag: str) -> dict[str, list[tuple[int, dict]]]:
    """{row: [(seed, board record)]} of the run ``tag`` in ``out``."""
    # the tag, then the seed alone: run "rc" is not also run "rc_54"'s files
    files = sorted(f for f in out.glob(f"{tag}_*.json") if f.stem[len(tag) + 1:].isdigit())
    if not files:
        raise SystemExit(f"no run called {tag!r} in {out} (tune_read.py run {tag} first)")
    rows: dict[str, list[tuple[int, dict]]] = {}
    for f in files:
        seed = int(f.stem.rsplit("_", 1)[1])
        for rec in json.loads(f.read_text()):
            rows.setdefault(rec["row"], []).append((seed, rec))
    return rows


def totals(records: list[dict]) -> dict:
    """Tiles, tiles right / '#' / wrong, empty squares wrong and boards with no wrong square."""
    t = {k: sum(r["tally"][k] for r in records) for k in ("tiles", "tiles_right", "tiles_unread", "tiles_wrong",
                                                         "empty_wrong")}
    t["boards"] = len(records)
    t["clean"] = sum(r["tally"]["tiles_wrong"] + r["tally"]["empty_wrong"] + r["tally"]["covered_wrong"] == 0
                     for r in records)
    return t


def compare(a: dict, b: dict) -> list[str]:
    """The lines ``compare`` prints for the runs ``a`` and ``b`` (as :func:`load` returns them)."""
    lines = [f"{'row':12s} {'tiles right':>22s} {'#':>11s} {'wrong':>9s} {'empty wrong':>11s} {'boards clean':>16s}"]
    # only the seeds both runs read: a run with more seeds than the other would count boards the
    # other never saw
    seeds = {s for rows in a.values() for s, _ in rows} & {s for rows in b.values() for s, _ in rows}
    a = {row: [(s, r) for s, r in rows if s in seeds] for row, rows in a.items()}
    b = {row: [(s, r) for s, r in rows if s in seeds] for row, rows in b.items()}
    for row in ROW_ORDER:
        if not a.get(row) or not b.get(row):
            continue
        ta, tb = totals([r for _, r in a[row]]), totals([r for _, r in b[row]])
        pa = 100 * ta["tiles_right"] / max(1, ta["tiles"])
        pb = 100 * tb["tiles_right"] / max(1, tb["tiles"])
        lines.append(f"{row:12s} {pa:9.2f} -> {pb:6.2f} % {ta['tiles_unread']:4d} -> {tb['tiles_unread']:3d} "
                     f"{ta['tiles_wrong']:3d} -> {tb['tiles_wrong']:2d} {ta['empty_wrong']:5d} -> {tb['empty_wrong']:2d} "
                     f"{ta['clean']:4d} -> {tb['clean']:3d} of {tb['boards']}")
    for row in ROW_ORDER:
        before = {(s, r["board"]): r for s, r in a.get(row, [])}
        for seed, rb in b.get(row, []):
            ra = before.get((seed, rb["board"]))
            if ra is None:
                continue
            sa = {tuple(x[:4]) for x in ra["squares"]}
            sb = {tuple(x[:4]) for x in rb["squares"]}
            if sa != sb:
                lines.append(f"  {row} seed {seed} board {rb['board']} ({rb.get('face')}): mended {sorted(sa - sb)} "
                             f"broke {sorted(sb - sa)}")
            if "under_hand" in ra and "under_hand" in rb:      # runs from before the field have none
                ha = {tuple(x[:4]) for x in ra["under_hand"]}
                hb = {tuple(x[:4]) for x in rb["under_hand"]}
                if ha != hb:
                    lines.append(f"  {row} seed {seed} board {rb['board']} ({rb.get('face')}), under a hand: "
                                 f"mended {sorted(ha - hb)} broke {sorted(hb - ha)}")
    return lines


def faces(runs: dict) -> list[str]:
    """Tiles right, wrong and '#' by tile face, for each row of a run (as :func:`load` returns it):
    the fonts never seen differ far more from one another than the rows' totals show."""
    lines = []
    for row in ROW_ORDER:
        by_face: dict[str, list[dict]] = {}
        for _, rec in runs.get(row, []):
            by_face.setdefault(rec.get("face") or "?", []).append(rec)
        for face, recs in sorted(by_face.items()):
            t = totals(recs)
            lines.append(f"{row:12s} {face:34s} boards {t['boards']:3d} tiles {t['tiles']:5d} "
                         f"right {100 * t['tiles_right'] / max(1, t['tiles']):6.2f} % wrong {t['tiles_wrong']:3d} "
                         f"# {t['tiles_unread']:3d}")
    return lines


def mistake(truth: str, shown: str, guess: str) -> str:
    """The kind of one square read otherwise than the truth: "empty -> blank", "letter -> letter",
    ... for a square shown as fact; for a tile shown ``#``, what the reader guessed ("# blank" for
    a blank tile, "# guessed right", "# guessed a blank", "# guessed empty", "# guessed another")."""
    def kind(x: str) -> str:
        return "empty" if x == "." else "blank" if x == "?" else "letter"
    if shown == "#":
        if truth == "?":
            return "# blank"
        return ("# guessed right" if guess == truth else "# guessed a blank" if guess == "?"
                else "# guessed empty" if guess == "." else "# guessed another")
    return f"{kind(truth)} -> {kind(shown)}"


def confusions(runs: dict) -> list[str]:
    """For each row of a run (as :func:`load` returns it), how many squares were read otherwise
    than the truth, by kind of mistake (:func:`mistake`), commonest first: which of the reader's
    faults a change should aim at.  Empty squares shown ``#`` are not listed (not kept)."""
    lines = []
    for row in ROW_ORDER:
        counts: dict[str, int] = {}
        for _, rec in runs.get(row, []):
            for r, c, truth, shown, guess, _ in rec["squares"]:
                if truth == "." and shown == "#":
                    continue
                k = mistake(truth, shown, guess)
                counts[k] = counts.get(k, 0) + 1
        if counts:
            parts = ", ".join(f"{k} {n}" for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
            lines.append(f"{row:12s} {parts}")
    return lines


def steps(runs: dict) -> list[str]:
    """For each row of a run and each kind of mistake (:func:`mistake`), the reader's steps that
    touched those squares (READER_STEPS, MODULE_STEPS; "first reading" where none did: the square
    and letter models, and the checks written into ``_read`` itself -- a letter beside a hand
    asked, a square between covered ones), commonest first: which step asks right letters, which one
    lets a wrong one through.  Runs made before the steps were noted have none."""
    lines = []
    for row in ROW_ORDER:
        counts: dict[str, dict[str, int]] = {}
        for _, rec in runs.get(row, []):
            noted = rec.get("steps", {})
            for r, c, truth, shown, guess, _ in rec["squares"]:
                if truth == "." and shown == "#":
                    continue
                by = "+".join(noted.get(f"{r},{c}", [])) or "first reading"
                kind = counts.setdefault(mistake(truth, shown, guess), {})
                kind[by] = kind.get(by, 0) + 1
        for k, by in sorted(counts.items(), key=lambda kv: -sum(kv[1].values())):
            parts = ", ".join(f"{n} {s}" for s, n in sorted(by.items(), key=lambda sn: (-sn[1], sn[0])))
            lines.append(f"{row:12s} {k} ({sum(by.values())}): {parts}")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    run = sub.add_parser("run", help="read the tuning rows and keep every board's result")
    run.add_argument("tag")
    run.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                     help="the tree whose code reads (default: this one)")
    run.add_argument("--seeds", type=int, nargs="+", default=list(DEFAULT_SEEDS))
    run.add_argument("--boards", type=int, default=40, help="boards a row and seed")
    run.add_argument("--models", type=Path, default=None, help="a folder of models to read with instead")
    run.add_argument("--jobs", type=int, default=2)
    run.add_argument("--grey", action="store_true", help="the three cold rows made grey (a black-and-white "
                     "camera) instead of the six colour rows")
    run.add_argument("--out", type=Path, default=DEFAULT_OUT)
    run.add_argument("--one-seed", type=int, default=None, help=argparse.SUPPRESS)   # a worker's own seed
    cmp = sub.add_parser("compare", help="compare two runs board by board")
    cmp.add_argument("first")
    cmp.add_argument("second")
    cmp.add_argument("--out", type=Path, default=DEFAULT_OUT)
    by_face = sub.add_parser("faces", help="one run's rows by tile face")
    by_face.add_argument("tag")
    by_face.add_argument("--out", type=Path, default=DEFAULT_OUT)
    mistakes = sub.add_parser("confusions", help="one run's misread squares by kind of mistake")
    mistakes.add_argument("tag")
    mistakes.add_argument("--out", type=Path, default=DEFAULT_OUT)
    by_step = sub.add_parser("steps", help="one run's misread squares by the reader's steps that touched them")
    by_step.add_argument("tag")
    by_step.add_argument("--out", type=Path, default=DEFAULT_OUT)
    one = sub.add_parser("show", help="one board of a run read again: its squares and pictures")
    one.add_argument("seed", type=int)
    one.add_argument("row", choices=ROW_ORDER)
    one.add_argument("board", type=int, help="the board's number in its row (from 0, as compare names it)")
    one.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                     help="the tree whose code reads (default: this one)")
    one.add_argument("--pictures", type=Path, default=DEFAULT_OUT / "show", help="where the pictures go")
    a = ap.parse_args(argv)
    if a.what == "show":
        shown = show_board(a.root.resolve(), a.seed, a.row, a.board)
        print("\n".join(show_lines(shown)))
        for path in save_pictures(shown, a.pictures, f"{a.seed}_{a.row}_{a.board}"):
            print(f"wrote {path}")
        return 0
    if a.what == "steps":
        print("\n".join(steps(load(a.out, a.tag))))
        return 0
    if a.what == "confusions":
        print("\n".join(confusions(load(a.out, a.tag))))
        return 0
    if a.what == "faces":
        print("\n".join(faces(load(a.out, a.tag))))
        return 0
    if a.what == "compare":
        print("\n".join(compare(load(a.out, a.first), load(a.out, a.second))))
        return 0
    for seed in a.seeds:
        check_seed(seed)
    if not (a.root / "vision" / "read.py").exists():
        raise SystemExit(f"{a.root} holds no vision/read.py: give --root the top folder of a checkout")
    a.out.mkdir(parents=True, exist_ok=True)
    if a.one_seed is not None:
        os.chdir(a.root)
        records = read_rows(a.root.resolve(), a.one_seed, a.boards, a.models, a.grey)
        (a.out / f"{a.tag}_{a.one_seed}.json").write_text(json.dumps(records))
        return 0
    # each seed in a process of its own (the code under --root is imported there), --jobs at a time
    pending = list(a.seeds)
    running: list[subprocess.Popen] = []
    while pending or running:
        while pending and len(running) < a.jobs:
            seed = pending.pop(0)
            cmd = [sys.executable, __file__, "run", a.tag, "--root", str(a.root), "--boards", str(a.boards),
                   "--out", str(a.out), "--one-seed", str(seed)] + (["--models", str(a.models)] if a.models else [])
            cmd += ["--grey"] if a.grey else []
            running.append(subprocess.Popen(cmd))
        done = running.pop(0)
        if done.wait() != 0:
            raise SystemExit(f"a tuning run failed (exit {done.returncode}): {' '.join(done.args)}")
    print(f"run {a.tag}: seeds {', '.join(map(str, a.seeds))}, {a.boards} boards a row, in {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
