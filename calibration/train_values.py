"""Train the point-value model: reads the small number printed beside a tile's letter.

    .venv/bin/python calibration/train_values.py                      # numpy only
    .venv/bin/python calibration/train_values.py --engine torch       # faster, with PyTorch installed

The value confirms the letter when the letter model hesitates between letters worth different
points (O 1 / Q 10, E 1 / F 4, D 2 / B 3).  Material: rendered boards (``vision/render.py``,
the same tiles, fonts and camera as the letter model) where every letter gets a random value from
1 to 10 on each board, so the model learns digits, not which letter carries which value.  The
value window is cut exactly as the reader cuts it (:func:`vision.letters.value_glyph_of` on the
reader's square crops); tiles printed without a value teach "no value" (``~``).  The model is
the letter model's small CNN (``vision.letters.cnn_forward``), narrower, over the classes
``123456789T~`` (``T`` = 10).  Output: ``vision/models/values.npz``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.train_letters import (ALPHABET, Pool, cached_data, pack, scene_rect, train_cnn,  # noqa: E402
                                       true_polarity)
from vision import letters as L  # noqa: E402
from vision import read as R  # noqa: E402
from vision.render import font_paths  # noqa: E402


def _value_job(args):
    seed, n_boards, role = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    fonts = font_paths(role)
    X, y = [], []
    for _ in range(n_boards):
        values = {ch: str(int(rng.integers(1, 11))) for ch in ALPHABET}
        sc, rect, _ = scene_rect(rng, fonts, n_tiles=int(rng.integers(40, 140)), hands=0, values=values)
        pol = true_polarity(sc.tile_style)
        printed = sc.tile_style.value_size > 0
        an = R.Analysis(rect)
        for r in range(15):
            for c in range(15):
                ch = sc.labels[r][c]
                if ch == "." or sc.covered[r, c] > 0.02:
                    continue
                g = L.value_glyph_of(an.crop_gray(r, c), pol)
                if g is None:
                    continue
                X.append(g)
                y.append(L.value_class(int(values[ch])) if printed and ch != "?" else L.NONE)
    return pack(X, y, L.VALUE_CLASSES)


def value_data(n_boards: int, seed: int, role: str = "train", jobs: int = 2):
    per = max(1, n_boards // (jobs * 4))
    tasks = [(seed * 1000 + i, per, role) for i in range(max(1, n_boards // per))]
    with Pool(jobs) as p:
        parts = p.map(_value_job, tasks)
    return (np.concatenate([a for a, _, _ in parts]), np.concatenate([b for _, b, _ in parts]),
            np.concatenate([c for _, _, c in parts]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=1600)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--engine", choices=["numpy", "torch"], default="numpy")
    ap.add_argument("--widths", default="12,24,96", help="conv1, conv2, hidden (the torch engine only)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache", default="", help="folder to keep the rendered value glyphs between runs")
    ap.add_argument("--out", default=str(L.MODEL_PATH.parent))
    a = ap.parse_args(argv)
    t0 = time.time()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    cache = Path(a.cache) / f"values_{a.boards}_{a.seed}.npz" if a.cache else None
    ims, meta, y = cached_data(cache, lambda: value_data(a.boards, a.seed, "train", a.jobs),
                               f"rendering {a.boards} boards ...")
    print(f"  {len(ims)} value glyphs, {time.time() - t0:.0f} s; per class {np.bincount(y, minlength=len(L.VALUE_CLASSES)).tolist()}",
          flush=True)
    print("rendering validation boards (fonts never trained on) ...", flush=True)
    vi, vm, yv = value_data(max(8, a.boards // 8), a.seed + 77, "heldout", a.jobs)
    val = (vi.astype(np.float32) / 255, vm, yv.astype(np.int64))
    n = len(L.VALUE_CLASSES)
    if a.engine == "torch":
        from calibration import torch_cnn
        widths = tuple(int(v) for v in a.widths.split(","))
        P = torch_cnn.train(ims, meta, y.astype(np.int64), n, a.epochs, widths, seed=a.seed, val=val, log=print)
    else:
        P = train_cnn(ims, meta, y.astype(np.int64), n, a.epochs, seed=a.seed, val=val, log=print)
    model = L.LetterModel(L.VALUE_CLASSES, P, "cnn", {"trained_on": f"{len(ims)} value glyphs from {a.boards} boards",
                                                      "seed": a.seed, "engine": a.engine})
    pv = model.forward(vi.astype(np.float32) / 255, vm)[0].argmax(1)
    print(f"held-out fonts: {float((pv == yv).mean()):.4f} of {len(yv)} value glyphs", flush=True)
    model.save(out / "values.npz")
    print(f"saved {out / 'values.npz'} ({(out / 'values.npz').stat().st_size / 1024:.0f} KiB), "
          f"{time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
