"""Train the twins' mark model (``vision/models/marks.npz``): which of a letter's twins a tile shows.

    .venv/bin/pip install torch                         # once: training only, not the product's
    .venv/bin/python calibration/train_marks.py         # about 25 minutes on 2 cores

Twins are a letter and its marked forms (A Ą Ä Å, Z Ż Ź, N Ń Ñ, ...).  The letter model reads the
glyph the reader cuts at a threshold, where a thin or blurred mark (Ż's dot, Ń's acute) falls
under the cut or runs into its letter; this model reads the same square's grey ink round the
letter (:func:`vision.letters.mark_window`), uncut, and only tells twins apart.  The reader asks a
twin it shows where this model gives another twin nearly all of the twins' probability
(``vision.read.MARK_SURE``).

Material: rendered boards (``vision/render.py``: the letter model's training fonts, tiles and
camera) of twin letters only, each letter a random value from 1 to 10 on each board, so the
model learns the mark, not the printed value beside it (the reader weighs the value on its own).
Validation: boards of the fonts never trained on, each twin group's accuracy printed.  The network
is the letter model's small CNN (``vision.letters.cnn_forward``) over the classes ``TWINS``,
fitted with PyTorch (:mod:`calibration.torch_cnn`) on grey windows: warped, their contrast and
noise varied, never cut at a threshold.
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

from calibration.train_letters import Pool, cached_data, scene_rect, true_polarity  # noqa: E402
from vision import letters as L  # noqa: E402
from vision import read as R  # noqa: E402
from vision.render import font_paths  # noqa: E402

# every twin of the bundled tile sets (en de da fr nl pl) and of Spanish Ñ, grouped by letter
GROUPS = ("AĄÄÅ", "EĘ", "OÓÖØ", "ZŻŹ", "NŃÑ", "CĆ", "SŚ", "LŁ", "UÜ")
TWINS = "".join(GROUPS)


def _mark_job(args):
    seed, n_boards, role = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    fonts = font_paths(role)
    X, meta, y = [], [], []
    for _ in range(n_boards):
        values = {ch: str(int(rng.integers(1, 11))) for ch in TWINS}
        sc, rect, _ = scene_rect(rng, fonts, alphabet=TWINS, n_tiles=int(rng.integers(50, 130)), hands=0,
                                 values=values)
        pol = true_polarity(sc.tile_style)
        an = R.Analysis(rect)
        squares = [(r, c) for r in range(15) for c in range(15)
                   if sc.labels[r][c] in TWINS and sc.covered[r, c] <= 0.02]
        an.cut_glyphs(pol, squares)          # the glyphs as the reader cuts them
        for rc in squares:
            g = an.glyphs[pol].get(rc)
            if g is None:
                continue
            X.append(np.round(L.mark_window(an.ink_crop(pol, *rc), g) * 255).astype(np.uint8))
            meta.append(L.glyph_meta(g))
            y.append(TWINS.index(sc.labels[rc[0]][rc[1]]))
    return (np.array(X, np.uint8).reshape(-1, L.GLYPH, L.GLYPH), np.array(meta, np.float32).reshape(-1, 5),
            np.array(y, np.int16))


def mark_data(n_boards: int, seed: int, role: str = "train", jobs: int = 2):
    """(windows uint8 (n, 28, 28), shape numbers (n, 5), class indices (n,)) of ``n_boards``
    boards of twin letters in the fonts of ``role``."""
    per = 10
    with Pool(jobs) as p:
        parts = p.map(_mark_job, [(seed * 1000 + i, per, role) for i in range(max(1, n_boards // per))])
    return tuple(np.concatenate([part[k] for part in parts]) for k in range(3))


def augment(torch, x, gen):
    """Random warps (turn ~4 degrees, scale 0.88-1.12, shear ~0.1, shift ~0.8 px), contrast
    (a random gamma) and noise of a batch of grey windows (B, 1, 28, 28) in [0, 1]; never a
    threshold, which would cut away the grey a faint mark is."""
    from calibration.torch_cnn import affine_grid
    f = torch.nn.functional
    b = len(x)
    grid = affine_grid(torch, x, gen, (0.88, 1.12), 0.1)
    x = f.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    x = x.clamp(0, 1) ** torch.exp(torch.randn(b, 1, 1, 1, generator=gen) * 0.25)
    return (x + torch.randn(x.shape, generator=gen) * torch.rand(b, 1, 1, 1, generator=gen) * 0.06).clamp(0, 1)


def group_accuracy(P: np.ndarray, y: np.ndarray) -> dict[str, tuple[float, int]]:
    """Each twin group's share of windows read as the right twin (the likeliest of its group's
    classes, as the reader compares them), and its count."""
    out = {}
    for g in GROUPS:
        idx = [TWINS.index(ch) for ch in g]
        sel = np.isin(y, idx)
        if sel.any():
            pick = np.array(idx)[P[sel][:, idx].argmax(1)]
            out[g] = (float((pick == y[sel]).mean()), int(sel.sum()))
    return out


def fit(ims, meta, y, epochs: int, widths: tuple[int, int, int], seed: int, val, log=print) -> dict:
    """The CNN fitted with PyTorch on grey windows; numpy parameters (``vision.letters`` layout)."""
    from calibration import torch_cnn
    torch = torch_cnn._torch()
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = torch_cnn.build(len(TWINS), *widths, 0.3)
    mmean, mstd = meta.mean(axis=0), meta.std(axis=0) + 1e-3
    X = torch.from_numpy(ims).float().div_(255).unsqueeze(1)
    M = torch.from_numpy(((meta - mmean) / mstd).astype(np.float32))
    Y = torch.from_numpy(y.astype(np.int64))
    bs, lr = 256, 3e-3
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * ((len(X) + bs - 1) // bs),
                                                pct_start=0.1)
    lossf = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    for ep in range(epochs):
        t0 = time.time()
        net.train()
        order = torch.randperm(len(X), generator=gen)
        tot = 0.0
        for i in range(0, len(X), bs):
            idx = order[i:i + bs]
            loss = lossf(net(augment(torch, X[idx], gen), M[idx]), Y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item() * len(idx)
        log(f"  epoch {ep + 1}/{epochs} loss {tot / len(X):.4f} ({time.time() - t0:.0f} s)", flush=True)
    P = torch_cnn.export(net, mmean, mstd)
    err = torch_cnn.check_export(net, P, ims[:256].astype(np.float32) / 255, meta[:256])
    if err > 1e-3:
        raise SystemExit(f"the exported weights do not reproduce the torch model (difference {err})")
    vi, vm, vy = val
    log(f"held-out fonts, each twin group read right: {group_accuracy(L.cnn_forward(P, vi, vm)[0], vy)}", flush=True)
    return P


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=1500)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--widths", default="16,32,128", help="conv1, conv2, hidden")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--cache", default="", help="folder to keep the rendered windows between runs")
    ap.add_argument("--out", default=str(L.MARKS_MODEL_PATH.parent))
    a = ap.parse_args(argv)
    t0 = time.time()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    cache = Path(a.cache) / f"marks_{a.boards}_{a.seed}.npz" if a.cache else None
    ims, meta, y = cached_data(cache, lambda: mark_data(a.boards, a.seed, "train", a.jobs),
                               f"rendering {a.boards} boards of twin letters ...")
    print(f"  {len(ims)} windows, {time.time() - t0:.0f} s", flush=True)
    print("rendering validation boards (fonts never trained on) ...", flush=True)
    vi, vm, vy = mark_data(max(20, a.boards // 5), a.seed + 1, "heldout", a.jobs)
    P = fit(ims, meta, y, a.epochs, tuple(int(v) for v in a.widths.split(",")), a.seed,
            (vi.astype(np.float32) / 255, vm, vy.astype(np.int64)))
    model = L.LetterModel(TWINS, P, "cnn", {"trained_on": f"{len(ims)} twin windows from {a.boards} boards",
                                            "seed": a.seed, "engine": "torch"})
    model.save(out / "marks.npz")
    print(f"saved {out / 'marks.npz'} ({(out / 'marks.npz').stat().st_size / 1024:.0f} KiB), "
          f"{time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
