"""Every README figure the board reader is behind, measured in one go; two runs compared.

    .venv/bin/python scripts/reading_rows.py run /tmp/rows_new                      # this tree
    .venv/bin/python scripts/reading_rows.py run /tmp/rows_old --root /tmp/wt_start  # a worktree
    .venv/bin/python scripts/reading_rows.py compare /tmp/rows_old /tmp/rows_new     # what moved

A change to the board reader (``vision/read.py``'s ``BoardReader`` and what it calls) can move
any of the README's reading rows and its eight camera-game rows.  Measuring only the rows a
change seems to concern left five README figures stale for sessions (found in the thirty-third
session of 2026-12-06: the black-and-white row, the smaller frames, which way a game's board is
seen, the jheidel photo game, the jheidel photos in grey).  ``run`` runs each of :data:`ROWS`
(the commands the README names, ``bench_read.py`` and ``bench_replay.py``) in ``--jobs``
processes, one core each as the benchmarks are timed, each row's output to ``OUT/NAME.log``;
about 50 minutes on two cores.  ``compare`` prints, row by row, the lines that differ between
two runs, times left out (a run's milliseconds are the machine's hour, not the code).

The rows the reader is not behind are not here: the locator's (``bench_locate.py``), the lone
crops' (``bench_read.py --only crops / poses / marked-crops / jheidel``, ``vision classify``'s
path), the point-value model alone, and the speed rows (timed: measure them on a quiet machine,
alternated with the code before the change).
"""

from __future__ import annotations

import argparse
import difflib
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

READ = "scripts/bench_read.py"
REPLAY = "scripts/bench_replay.py"
#: (name, script, arguments): the README's reading rows and camera-game rows, longest first so
#: that two jobs end together
ROWS = (
    ("replay_greyhard", REPLAY, ["--grey", "--hard"]),
    ("replay_hard", REPLAY, ["--hard"]),
    ("replay_grey", REPLAY, ["--grey"]),
    ("replay_stand", REPLAY, []),
    ("sets", READ, ["--only", "sets", "--boards", "700", "--seed", "5000"]),
    ("larger", READ, ["--only", "values", "--boards", "200", "--seed", "6000", "--values-read-only"]),
    ("hardcold31", READ, ["--only", "hard-cold", "--boards", "300", "--seed", "31000"]),
    ("hardcold32", READ, ["--only", "hard-cold", "--boards", "300", "--seed", "32000"]),
    ("values", READ, ["--only", "values", "--boards", "45", "--seed", "5000"]),
    ("calibrated", READ, ["--only", "calibrated", "--boards", "45", "--seed", "5000"]),
    ("sizes", READ, ["--only", "sizes", "--boards", "100", "--seed", "5000"]),
    ("deluxe", READ, ["--only", "deluxe", "--boards", "45", "--seed", "5000"]),
    ("focus", READ, ["--only", "focus", "--boards", "200", "--seed", "5000"]),
    ("grey", READ, ["--only", "grey", "--boards", "45", "--seed", "5000"]),
    ("games", READ, ["--only", "games", "--boards", "45", "--seed", "5000"]),
    ("mirrored", READ, ["--only", "mirrored", "--boards", "45", "--seed", "5000"]),
    ("turned", READ, ["--only", "turned", "--boards", "45", "--seed", "5000"]),
    ("photos", READ, ["--only", "photos"]),
    ("photo_games", READ, ["--only", "photo-games"]),
    ("real_blanks", READ, ["--only", "real-blanks"]),
    ("grey_photos", READ, ["--only", "grey-photos"]),
)

#: a time in a benchmark's output ("51.4 ms median", "289 ms a photo", "(58 ms)")
_TIME = re.compile(r"\d+(\.\d+)? ms")


def run_row(root: Path, out: Path, name: str, script: str, args: list[str]) -> str:
    """One row's command in ``root``, its output (stdout and stderr) to ``out/NAME.log``."""
    t0 = time.time()
    with open(out / f"{name}.log", "w") as log:
        rc = subprocess.call([sys.executable, str(root / script), *args], cwd=root, stdout=log,
                             stderr=subprocess.STDOUT)
    return f"{name}: {'ok' if rc == 0 else f'FAILED (exit {rc})'} in {time.time() - t0:.0f} s"


def run(out: Path, root: Path, jobs: int, only: list[str] | None = None) -> int:
    out.mkdir(parents=True, exist_ok=True)
    rows = [r for r in ROWS if not only or r[0] in only]
    unknown = set(only or ()) - {r[0] for r in ROWS}
    if unknown:
        raise SystemExit(f"no such row: {', '.join(sorted(unknown))} (rows: {', '.join(r[0] for r in ROWS)})")
    print(f"{len(rows)} rows of {root} in {jobs} jobs, logs in {out}", flush=True)
    with ThreadPoolExecutor(jobs) as pool:
        for line in pool.map(lambda r: run_row(root, out, *r), rows):
            print(line, flush=True)
    return 0


def comparable(text: str) -> list[str]:
    """A row's output without its times."""
    return [_TIME.sub("_ ms", line) for line in text.splitlines()]


def compare(first: Path, second: Path) -> int:
    """The lines that differ, row by row; 1 where any row differs or is missing from either run."""
    moved = 0
    for name, _, _ in ROWS:
        a, b = first / f"{name}.log", second / f"{name}.log"
        if not (a.exists() and b.exists()):
            print(f"{name}: missing in {first if not a.exists() else second}")
            moved += 1
            continue
        diff = list(difflib.unified_diff(comparable(a.read_text()), comparable(b.read_text()), str(a), str(b),
                                         lineterm="", n=0))
        if diff:
            moved += 1
            print("\n".join(diff))
        else:
            print(f"{name}: the same")
    return 1 if moved else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="measure every row into OUT")
    r.add_argument("out", type=Path)
    r.add_argument("--root", type=Path, default=ROOT, help="the tree to measure (a worktree of another commit)")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--only", nargs="+", metavar="ROW", help="these rows only (names as in ROWS)")
    c = sub.add_parser("compare", help="the lines two runs differ on, times left out")
    c.add_argument("first", type=Path)
    c.add_argument("second", type=Path)
    a = ap.parse_args(argv)
    if a.cmd == "run":
        return run(a.out, a.root.resolve(), a.jobs, a.only)
    return compare(a.first, a.second)


if __name__ == "__main__":
    raise SystemExit(main())
