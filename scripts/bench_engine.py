"""Engine benchmark: figures for the README (a script, not a test: these machines are shared and noisy).

    .venv/bin/python scripts/bench_engine.py

Measures, each as the median of several repeats:
- validate + score one play on a mid-game board (target at most 0.2 ms);
- loading a word list of about 270,000 words (target at most 0.5 s) and one lookup (at most 5 us);
- GCG verify throughput on ../shared/gcg (moves per second), when that folder is there.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared"

from companion.board import Board, Placement, Tile  # noqa: E402
from companion.layout import standard_layout  # noqa: E402
from companion.lexicon import Lexicon, default_lexicon  # noqa: E402
from companion.play import score_play, validate_play  # noqa: E402
from companion.tiles import get_tileset  # noqa: E402


def median_time(fn, repeat: int = 7, number: int = 1) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def bench_play() -> float:
    board = Board.from_rows([
        "...............",
        "...............",
        "...............",
        "......CHARIOTS.",
        "......O......T.",
        "......B......O.",
        "......R......N.",
        "...WIZARD...HEX",
        "...A...........",
        "...G...........",
        "...O...........",
        "...N...........",
        "...............",
        "...............",
        "...............",
    ])
    layout, tiles = standard_layout(), get_tileset("en")
    # A 7-tile bingo hooking under WAGON's N, making cross words: row 13, columns D..J.
    placements = [Placement((12, c), Tile(ch)) for c, ch in zip(range(3, 10), "SEATING")]
    play = validate_play(board, placements, layout)
    assert score_play(play, layout, tiles).total > 50

    def once():
        score_play(validate_play(board, placements, layout), layout, tiles)

    return median_time(once, number=2000)


def bench_lexicon() -> tuple[int, float, float]:
    base = sorted(default_lexicon().words)
    words = list(base)
    seen = set(base)
    # Pad to about 270,000 words (the size of Collins) with plausible inflections.
    for suffix in ("S", "ED", "ING", "ER"):
        for w in base:
            if len(words) >= 270_000:
                break
            if w + suffix not in seen:
                seen.add(w + suffix)
                words.append(w + suffix)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.txt"
        path.write_text("\n".join(w.lower() for w in words) + "\n", encoding="utf-8")
        load = median_time(lambda: Lexicon.from_file(path), repeat=5)
        lex = Lexicon.from_file(path)
    probe = words[::97] + ["XQZW", "NOTAWORDATALL"]
    lookup = median_time(lambda: [w in lex for w in probe], repeat=7) / len(probe)
    return len(lex), load, lookup


def bench_gcg() -> tuple[int, int, float] | None:
    folder = SHARED / "gcg"
    if not folder.is_dir():
        return None
    try:
        from companion.gcg import verify
    except ImportError:
        return None
    files = sorted(folder.glob("*.gcg"))
    start = time.perf_counter()
    report = verify(files)
    elapsed = time.perf_counter() - start
    return report.moves, report.games, elapsed


def main() -> None:
    per_play = bench_play()
    print(f"validate + score a 7-tile play on a mid-game board: {per_play * 1e3:.3f} ms (target <= 0.2 ms)")
    n, load, lookup = bench_lexicon()
    print(f"load a {n:,}-word list: {load:.3f} s (target <= 0.5 s); lookup: {lookup * 1e6:.2f} us (target <= 5 us)")
    gcg = bench_gcg()
    if gcg:
        moves, games, elapsed = gcg
        print(f"gcg verify: {moves} moves in {games} games in {elapsed:.2f} s = {moves / elapsed:,.0f} moves/s")


if __name__ == "__main__":
    main()
