"""Train the letter model (``vision/models/letters.npz``) and the square model (``squares.npz``).

Only rendered material is used (``vision/render.py``: Debian fonts, tile and board styles,
camera effects).  The real crops in ``../shared/crops/jheidel`` are never trained on: they
are the held-out check printed at the end (and by ``scripts/bench_read.py``).

    .venv/bin/python calibration/train_letters.py            # about 10 minutes on 2 cores
    .venv/bin/python calibration/train_letters.py --quick    # a small model for a smoke test

Steps: (1) render boards, cut every square like the reader does, isolate the glyphs, add
turned copies (class ROT) and non-letter ink (class NONE); (2) train a 2-layer perceptron
(numpy, Adam, label smoothing) on HOG+pixel features; (3) render fresh boards, with and
without an empty-board reference, and train the square model (empty / letter tile / blank
tile / covered) on per-square features that include the letter model's answer.

Needs Pillow (already a dependency of pytesseract) and the fonts listed in ``vision/render.py``
(all installed by ``./tc setup``: fonts-dejavu-core fonts-dejavu-extra fonts-liberation
fonts-freefont-ttf fonts-urw-base35 fonts-open-sans fonts-roboto-unhinted fonts-cantarell
fonts-comfortaa fonts-lato fonts-quicksand fonts-league-spartan fonts-jura fonts-oxygen); the run
says which of the training fonts are missing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import multiprocessing
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import letters as L  # noqa: E402
from vision import read as R  # noqa: E402
from vision.geometry import rectify  # noqa: E402
from vision.pixels import black_and_white  # noqa: E402
from vision.render import font_paths, random_scene  # noqa: E402

SHARED = ROOT.parent / "shared"


def Pool(jobs: int):
    """Worker processes started fresh ("spawn"): a forked child of a process that has already run
    OpenCV's or the BLAS's thread pools can hang forever on their locks (seen here)."""
    return multiprocessing.get_context("spawn").Pool(jobs)


# every letter of the bundled tile sets (en de da fr nl pl), plus Ñ
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜÆØÅÑĄĆĘŁŃÓŚŹŻ"
CLASSES = ALPHABET + L.ROT + L.NONE
# (letter, quarter turns) that look like an upright letter: never labelled ROT.
_AMBIGUOUS_ROT = {2: set("HINOSXZMWØ"), 1: set("HINOSXZCUEMWØÅ"), 3: set("HINOSXZCUEMWØÅ")}
SIZES = [((1920, 1080), 0.5), ((1280, 720), 0.35), ((960, 540), 0.15)]


def _size(rng):
    i = rng.choice(len(SIZES), p=[w for _, w in SIZES])
    return SIZES[i][0]


def scene_rect(rng, fonts, alphabet=ALPHABET, with_reference=False, n_tiles=None, corner_noise=0.08, **kw):
    """Render one scene and rectify it (with noisy corners, like a real locator)."""
    size = _size(rng)
    sc = random_scene(rng, alphabet, fonts, n_tiles=n_tiles, size=size, cell=56, with_reference=with_reference, **kw)
    cellpx = np.linalg.norm(sc.corners[1] - sc.corners[0]) / 15
    corners = sc.corners + rng.normal(0, corner_noise * cellpx, (4, 2))
    rect = rectify(sc.frame, corners, R.CELL)
    ref = rectify(sc.empty_frame, corners, R.CELL) if sc.empty_frame is not None else None
    return sc, rect, ref


# --------------------------------------------------------------------------- glyph data


def true_polarity(style) -> int:
    """+1 when the tile's ink is darker than its face."""
    from vision.render import _lum
    return 1 if _lum(style.ink) < _lum(style.face) else -1


def _glyph_job(args):
    seed, n_boards, role = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    fonts = font_paths(role)
    X, y = [], []

    def add(crop, pol, label):
        g = L.glyph_of(crop, pol, board=True)
        if g is not None:
            X.append(g)
            y.append(label)

    for _ in range(n_boards):
        sc, rect, _ = scene_rect(rng, fonts, n_tiles=int(rng.integers(50, 150)),
                                 hands=int(rng.random() < 0.3))
        pol = true_polarity(sc.tile_style)
        crops = R.cell_crops(rect)
        for r in range(15):
            for c in range(15):
                lab, cov = sc.labels[r][c], sc.covered[r, c]
                if 0.02 < cov < 0.3:
                    continue
                crop = crops[r, c]
                if cov >= 0.3 or lab in ".?":
                    if lab == "." and cov < 0.3:
                        # premium print ("TW", "DOUBLE LETTER SCORE") is made of letters: the
                        # square model, not the letter model, tells it from a tile
                        kind = sc.board_style.layout[r][c]
                        if (kind in "TDtd" and sc.board_style.text and (r, c) != (7, 7)) or rng.random() > 0.4:
                            continue
                    add(crop, pol if rng.random() < 0.5 else -pol, L.NONE)
                    continue
                crop = _augment(crop, rng)
                add(crop, pol, lab)
                if rng.random() < 0.25:
                    add(crop, -pol, L.NONE)
                if rng.random() < 0.3:
                    k = int(rng.integers(1, 4))
                    if lab not in _AMBIGUOUS_ROT[k]:
                        add(np.ascontiguousarray(np.rot90(crop, k)), pol, L.ROT)
    return pack(X, y)


def pack(glyphs, labels, classes: str = CLASSES):
    """(images uint8 (n,28,28), meta float32 (n,5), class indices int16 (n,)) of labelled glyphs."""
    if not glyphs:
        return np.zeros((0, L.GLYPH, L.GLYPH), np.uint8), np.zeros((0, 5), np.float32), np.zeros(0, np.int16)
    ims = np.stack([np.round(g.image * 255).astype(np.uint8) for g in glyphs])
    meta = np.array([L.glyph_meta(g) for g in glyphs], np.float32)
    return ims, meta, np.array([classes.index(v) for v in labels], np.int16)


def _real_look(g: np.ndarray, rng) -> np.ndarray:
    """Look of real binarised camera crops: low-resolution down-up sampling, a hard threshold
    at a random level, and sometimes a 1-pixel erosion or dilation of the binary strokes."""
    n, g0 = L.GLYPH, g
    if rng.random() < 0.7:
        s = int(rng.integers(11, 20))
        g = cv2.resize(cv2.resize(g, (s, s), interpolation=cv2.INTER_AREA), (n, n),
                       interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        g = cv2.GaussianBlur(g, (3, 3), rng.uniform(0.4, 1.0))
    g = (g > rng.uniform(0.3, 0.7)).astype(np.float32)
    q = rng.random()
    if q < 0.2:
        g = cv2.erode(g, np.ones((2, 2), np.uint8))
    elif q < 0.4:
        g = cv2.dilate(g, np.ones((2, 2), np.uint8))
    if g.max() == 0:            # erased the glyph: keep something rather than an empty image
        return g0
    return g


def augment_glyphs(ims: np.ndarray, rng, real_p: float = 0.0) -> np.ndarray:
    """Random affine warps and stroke-weight changes of normalised glyphs (float 0..1 out).

    ``real_p``: share of glyphs given the look of binarised low-resolution camera crops."""
    out = np.empty(ims.shape, np.float32)
    c = L.GLYPH / 2
    for i in range(len(ims)):
        g = ims[i].astype(np.float32) / 255
        if rng.random() < 0.8:
            a = np.radians(rng.normal(0, 4))
            sx, sy = rng.uniform(0.86, 1.12, 2)
            sh = rng.normal(0, 0.15)
            A = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ np.array([[sx, sh], [0, sy]])
            t = np.array([c, c]) - A @ np.array([c, c]) + rng.normal(0, 0.8, 2)
            g = cv2.warpAffine(g, np.hstack([A, t[:, None]]).astype(np.float32), (L.GLYPH, L.GLYPH),
                               flags=cv2.INTER_LINEAR)
        if rng.random() < 0.3:          # elastic: a smooth random displacement field
            d = [cv2.GaussianBlur(rng.uniform(-1, 1, (L.GLYPH, L.GLYPH)).astype(np.float32), (0, 0), 4) * 25
                 for _ in range(2)]
            gx, gy = np.meshgrid(np.arange(L.GLYPH, dtype=np.float32), np.arange(L.GLYPH, dtype=np.float32))
            g = cv2.remap(g, gx + d[0], gy + d[1], cv2.INTER_LINEAR)
        r = rng.random()
        if r < 0.15:
            g = (cv2.GaussianBlur(g, (3, 3), 0.7) > 0.25).astype(np.float32)     # bolder
        elif r < 0.3:
            g = (cv2.GaussianBlur(g, (3, 3), 0.7) > 0.7).astype(np.float32)      # thinner
        elif r < 0.3 + real_p:
            g = _real_look(g, rng)
        out[i] = g
    return out


def _augment(crop, rng):
    """Extra variety the camera model does not give: stroke weight, shear, tight crops."""
    h, w = crop.shape[:2]
    if rng.random() < 0.3:
        k = np.ones((2, 2), np.uint8)
        crop = cv2.erode(crop, k) if rng.random() < 0.5 else cv2.dilate(crop, k)
    if rng.random() < 0.4:
        sh = rng.uniform(-0.25, 0.25)
        sx, sy = rng.uniform(0.9, 1.12), rng.uniform(0.9, 1.12)
        M = np.float32([[sx, sh, -sh * h / 2 + (1 - sx) * w / 2], [0, sy, (1 - sy) * h / 2]])
        crop = cv2.warpAffine(crop, M, (w, h), borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.25:      # tight crop, as other programs cut tiles (letter fills it)
        z = rng.uniform(1.15, 1.6)
        cw, ch = int(w / z), int(h / z)
        x0 = int((w - cw) / 2 + rng.normal(0, 1))
        y0 = int((h - ch) / 2 + rng.normal(0, 1))
        x0, y0 = min(max(0, x0), w - cw), min(max(0, y0), h - ch)
        crop = cv2.resize(crop[y0:y0 + ch, x0:x0 + cw], (w, h), interpolation=cv2.INTER_LINEAR)
    return crop


def cached_data(cache: Path | None, make, say: str):
    """(ims, meta, y) from the ``cache`` file when it exists, else from ``make()`` (announced by
    ``say``) and kept there: a second training run on the same boards skips the rendering."""
    if cache and cache.exists():
        z = np.load(cache)
        return z["ims"], z["meta"], z["y"]
    print(say, flush=True)
    ims, meta, y = make()
    if cache:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, ims=ims, meta=meta, y=y)
    return ims, meta, y


def q_with_inner_tail(ims, meta, y, share: float, seed: int):
    """Extra Q glyphs made from O glyphs, a share of them: a short thick stroke from the bowl's
    lower right into it.  Some faces draw the Q's tail as a notch inside the bowl rather than a
    tail outside it, and no training font does; without them such a Q reads as O."""
    rng = np.random.default_rng(seed)
    o = np.nonzero(y == CLASSES.index("O"))[0]
    pick = rng.choice(o, int(share * len(o)), replace=False)
    new_ims, new_meta = ims[pick].copy(), meta[pick].copy()
    for k in range(len(pick)):
        img = new_ims[k]
        ys, xs = np.nonzero(img > 127)
        if len(xs) < 10:
            continue
        x0, x1, y0, y1 = xs.min(), xs.max(), ys.min(), ys.max()
        wid, hei = x1 - x0, y1 - y0
        a = rng.uniform(0.78, 0.9)                       # where the notch leaves the ring
        b = rng.uniform(0.55, 0.66)                      # how far in it reaches
        start = (int(round(x0 + a * wid)), int(round(y0 + a * hei)))
        end = (int(round(x0 + b * wid)), int(round(y0 + b * hei)))
        before = float(img.sum())
        cv2.line(img, start, end, 255, max(2, int(round(rng.uniform(0.12, 0.2) * hei))), cv2.LINE_AA)
        new_meta[k, 2] *= float(img.sum()) / max(before, 1.0)      # the ink share grows with it
    return (np.concatenate([ims, new_ims]), np.concatenate([meta, new_meta]),
            np.concatenate([y, np.full(len(pick), CLASSES.index("Q"), y.dtype)]))


def glyph_data(n_boards, seed, role="train", jobs=2):
    per = max(1, n_boards // (jobs * 4))
    tasks = [(seed * 1000 + i, per, role) for i in range(max(1, n_boards // per))]
    with Pool(jobs) as p:
        parts = p.map(_glyph_job, tasks)
    ims = np.concatenate([a for a, _, _ in parts])
    meta = np.concatenate([b for _, b, _ in parts])
    y = np.concatenate([c for _, _, c in parts])
    return ims, meta, y


# --------------------------------------------------------------------------- perceptron


def train_mlp(make_X, y, n_classes, hidden=256, epochs=30, lr=2e-3, wd=1e-4, smooth=0.05, seed=0,
              Xv=None, yv=None, log=print, dropout=0.3):
    """Two-layer ReLU perceptron, softmax, Adam; returns (mean, std, w1, b1, w2, b2).

    ``make_X(epoch)`` gives the (augmented) feature matrix for each epoch.
    """
    rng = np.random.default_rng(seed)
    X = make_X(-1)
    mean = X.mean(axis=0)
    std = X.std(axis=0) + 1e-3
    d = X.shape[1]
    w1 = (rng.normal(0, np.sqrt(2 / d), (d, hidden))).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.normal(0, np.sqrt(1 / hidden), (hidden, n_classes))).astype(np.float32)
    b2 = np.zeros(n_classes, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    T = np.full((n_classes,), smooth / n_classes, np.float32)
    bs, step = 256, 0
    for ep in range(epochs):
        if ep > 0:
            X = make_X(ep)
        Z = ((X - mean) / std).astype(np.float32)
        n = len(Z)
        order = rng.permutation(n)
        rate = lr * 0.5 * (1 + np.cos(np.pi * ep / epochs))
        tot = 0.0
        for i in range(0, n, bs):
            idx = order[i:i + bs]
            xb = Z[idx] + rng.normal(0, 0.1, (len(idx), d)).astype(np.float32)
            h = np.maximum(xb @ w1 + b1, 0)
            keep = (rng.random(h.shape) > dropout).astype(np.float32) / (1 - dropout)
            hd = h * keep
            lg = hd @ w2 + b2
            lg -= lg.max(axis=1, keepdims=True)
            p = np.exp(lg)
            p /= p.sum(axis=1, keepdims=True)
            t = np.tile(T, (len(idx), 1))
            t[np.arange(len(idx)), y[idx]] += 1 - smooth
            tot += float(-(t * np.log(p + 1e-9)).sum())
            g2 = (p - t) / len(idx)
            gw2 = hd.T @ g2 + wd * w2
            gb2 = g2.sum(axis=0)
            gh = (g2 @ w2.T) * keep
            gh[h <= 0] = 0
            gw1 = xb.T @ gh + wd * w1
            gb1 = gh.sum(axis=0)
            step += 1
            for k, (prm, g) in enumerate(zip(params, (gw1, gb1, gw2, gb2))):
                m[k] = 0.9 * m[k] + 0.1 * g
                v[k] = 0.999 * v[k] + 0.001 * g * g
                mh = m[k] / (1 - 0.9 ** step)
                vh = v[k] / (1 - 0.999 ** step)
                prm -= rate * mh / (np.sqrt(vh) + 1e-8)
        msg = f"  epoch {ep + 1}/{epochs} loss {tot / n:.4f}"
        if Xv is not None:
            pv = _predict((mean, std, w1, b1, w2, b2), Xv)
            msg += f" val acc {np.mean(pv.argmax(1) == yv):.4f}"
        log(msg)
    return mean, std, w1, b1, w2, b2


def train_cnn(ims, meta, y, n_classes, epochs=12, lr=2e-3, wd=5e-5, smooth=0.05, seed=0,
              val=None, log=print, dropout=0.3, bs=128, real_p=0.0):
    """Train the small CNN of ``vision.letters`` with Adam; returns its parameter dict.

    ``ims`` uint8 (n, 28, 28), re-augmented every epoch (``augment_glyphs``).
    """
    C1, C2, FC = L.C1, L.C2, L.FC
    rng = np.random.default_rng(seed)
    d3 = 49 * C2 + 5

    def he(shape, fan):
        return (rng.normal(0, np.sqrt(2 / fan), shape)).astype(np.float32)

    P = {"k1": he((25, C1), 25), "b1": np.zeros(C1, np.float32),
         "k2": he((9 * C1, C2), 9 * C1), "b2": np.zeros(C2, np.float32),
         "w3": he((d3, FC), d3), "b3": np.zeros(FC, np.float32),
         "w4": he((FC, n_classes), FC) * 0.5, "b4": np.zeros(n_classes, np.float32),
         "mmean": meta.mean(axis=0).astype(np.float32), "mstd": (meta.std(axis=0) + 1e-3).astype(np.float32)}
    train_keys = ["k1", "b1", "k2", "b2", "w3", "b3", "w4", "b4"]
    M = {k: np.zeros_like(P[k]) for k in train_keys}
    V = {k: np.zeros_like(P[k]) for k in train_keys}
    T = np.full((n_classes,), smooth / n_classes, np.float32)
    step = 0
    n = len(ims)
    for ep in range(epochs):
        t_ep = time.time()
        X = augment_glyphs(ims, rng, real_p)
        order = rng.permutation(n)
        rate = lr * 0.5 * (1 + np.cos(np.pi * ep / epochs))
        tot = 0.0
        for i in range(0, n, bs):
            idx = order[i:i + bs]
            B = len(idx)
            logits, c = L.cnn_forward(P, X[idx], meta[idx], cache=True)
            h = c["h"]
            keep = (rng.random(h.shape) > dropout).astype(np.float32) / (1 - dropout)
            hd = h * keep
            lg = hd @ P["w4"] + P["b4"]
            lg -= lg.max(axis=1, keepdims=True)
            pr = np.exp(lg)
            pr /= pr.sum(axis=1, keepdims=True)
            t = np.tile(T, (B, 1))
            t[np.arange(B), y[idx]] += 1 - smooth
            tot += float(-(t * np.log(pr + 1e-9)).sum())
            g = (pr - t) / B
            G = {"w4": hd.T @ g, "b4": g.sum(0)}
            gh = (g @ P["w4"].T) * keep
            gh[h <= 0] = 0
            G["w3"], G["b3"] = c["f"].T @ gh, gh.sum(0)
            gp2 = (gh @ P["w3"].T)[:, :49 * C2].reshape(B, 7, 7, C2)
            ga2 = _unpool(gp2, c["a2"], c["p2"])
            ga2 = ga2.reshape(-1, C2)
            G["k2"], G["b2"] = c["c2"].T @ ga2, ga2.sum(0)
            gc2 = (ga2 @ P["k2"].T).reshape(B, 14, 14, 3, 3, C1)
            gpp = np.zeros((B, 16, 16, C1), np.float32)
            for dy in range(3):
                for dx in range(3):
                    gpp[:, dy:dy + 14, dx:dx + 14] += gc2[:, :, :, dy, dx, :]
            ga1 = _unpool(gpp[:, 1:-1, 1:-1], c["a1"], c["p1"]).reshape(-1, C1)
            G["k1"], G["b1"] = c["c1"].T @ ga1, ga1.sum(0)
            step += 1
            for k in train_keys:
                gk = G[k] + (wd * P[k] if P[k].ndim == 2 else 0)
                M[k] = 0.9 * M[k] + 0.1 * gk
                V[k] = 0.999 * V[k] + 0.001 * gk * gk
                P[k] -= rate * (M[k] / (1 - 0.9 ** step)) / (np.sqrt(V[k] / (1 - 0.999 ** step)) + 1e-8)
        msg = f"  epoch {ep + 1}/{epochs} loss {tot / n:.4f} ({time.time() - t_ep:.0f} s)"
        if val is not None:
            vi, vm, vy = val
            pv = np.concatenate([L.cnn_forward(P, vi[j:j + 1024], vm[j:j + 1024])[0].argmax(1)
                                 for j in range(0, len(vi), 1024)])
            let = vy < n_classes - 2
            msg += f" val acc {np.mean(pv == vy):.4f} letters {np.mean(pv[let] == vy[let]):.4f}"
        log(msg, flush=True)
    return P


def _unpool(g, a, p):
    """Backward of 2x2 max-pool followed by ReLU: route g to the max of each window."""
    B, h, w, C = a.shape
    ar = a.reshape(B, h // 2, 2, w // 2, 2, C)
    mask = (ar == p[:, :, None, :, None, :]) & (ar > 0)
    return (mask * g[:, :, None, :, None, :]).reshape(B, h, w, C)


def _predict(params, X):
    mean, std, w1, b1, w2, b2 = params
    h = np.maximum(((X - mean) / std) @ w1 + b1, 0)
    lg = h @ w2 + b2
    lg -= lg.max(axis=1, keepdims=True)
    p = np.exp(lg)
    return p / p.sum(axis=1, keepdims=True)


# --------------------------------------------------------------------------- real-crop check


def jheidel_crops():
    """[(path, label)] for the held-out real crops (label '.' for the centre star)."""
    base = SHARED / "crops" / "jheidel"
    out = []
    if base.is_dir():
        for d in sorted(base.iterdir()):
            if d.is_dir():
                lab = "." if d.name.lower() == "star" else d.name.upper()
                out += [(str(f), lab) for f in sorted(d.glob("*.png"))]
    return out


def jheidel_accuracy(model, letters="ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
    items = jheidel_crops()
    if not items:
        return None
    ok = 0
    for f, lab in items:
        gu = L.classify_crop(cv2.imread(f, cv2.IMREAD_GRAYSCALE), letters, model)
        got = gu.label if gu.label not in (L.NONE, L.ROT, "") else "."
        ok += got == lab
    return ok / len(items), len(items)


# --------------------------------------------------------------------------- main


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=600, help="rendered boards for the letter model")
    ap.add_argument("--square-boards", type=int, default=300, help="rendered boards for the square model")
    ap.add_argument("--square-hidden", type=int, default=128, help="hidden units of the square model")
    ap.add_argument("--square-epochs", type=int, default=30, help="epochs of the square model")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--kind", choices=["cnn", "mlp"], default="cnn")
    ap.add_argument("--engine", choices=["numpy", "torch"], default="numpy",
                    help="fit the CNN with numpy (no extra install) or PyTorch (faster; calibration/torch_cnn.py)")
    ap.add_argument("--widths", default="12,24,128",
                    help="CNN conv1 channels, conv2 channels, hidden units (the torch engine only)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fit-seed", type=int, default=None,
                    help="seed of the letter network's start and shuffling only (default --seed); "
                         "another fit of the same rendered glyphs, so the glyph cache is kept")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--real-aug", type=float, default=0.0,
                    help="share of glyphs per epoch given a binarised low-resolution look (e.g. 0.35)")
    ap.add_argument("--q-inner-tail", type=float, default=0.0,
                    help="add this share of the O glyphs again as Q with a notch inside the bowl (e.g. 0.3)")
    ap.add_argument("--thin-strokes", type=float, default=0.0,
                    help="share of glyphs per epoch with the strokes across a band made thin (torch engine; "
                         "e.g. 0.2: a bold serif's hairlines under blur)")
    ap.add_argument("--second-opinion", action="store_true",
                    help="join this fit to the letter model already in --out as its second opinion "
                         "(read with it on the glyphs it doubts; give another --fit-seed)")
    ap.add_argument("--deluxe-blanks", type=float, default=0.25,
                    help="share of the square model's tile sets whose blanks have a face of their own (a deluxe "
                         "set's white blank in a border of the tile's colour; 0: none, as before this option)")
    ap.add_argument("--cache", default="", help="folder to keep rendered features between runs")
    ap.add_argument("--only", choices=["letters", "squares", "both", "grey-squares"], default="both",
                    help="grey-squares: only the square model's nets for black-and-white pictures, added "
                         "to the square model in --out (or the committed one)")
    ap.add_argument("--out", default=None, help="folder for the models (default vision/models; "
                    "with --quick a temporary folder, so the committed models are not replaced)")
    a = ap.parse_args(argv)
    if a.quick:
        a.boards, a.square_boards, a.epochs, a.square_epochs = 40, 20, 8, 4
    fit_seed = a.seed if a.fit_seed is None else a.fit_seed
    if a.out is None:
        import tempfile
        a.out = str(Path(tempfile.gettempdir()) / "tc_quick_models") if a.quick else str(L.MODEL_PATH.parent)
    print(f"models go to {a.out}", flush=True)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from vision.render import TRAIN_FONTS
    found = {Path(f).name for f in font_paths("train")}
    missing = [f for f in TRAIN_FONTS if f not in found]
    print(f"{len(found)} of {len(TRAIN_FONTS)} training fonts installed"
          + (f"; missing {', '.join(missing)} (see the apt packages at the top of this script)" if missing else ""),
          flush=True)
    if not found:
        raise SystemExit("no training fonts are installed (apt-get install fonts-dejavu-core ...)")
    from vision.render import faces_lacking
    lacking = faces_lacking(font_paths("train"), ALPHABET)
    if lacking:     # their missing-glyph boxes would be learnt as those letters
        raise SystemExit("these faces lack letters of the alphabet; take them out of vision/render.py: "
                         + "; ".join(f"{k}: {v}" for k, v in lacking.items()))
    t0 = time.time()
    if a.only in ("letters", "both"):
        cache = Path(a.cache) / f"glyphs_{a.boards}_{a.seed}.npz" if a.cache else None
        ims, meta, y = cached_data(cache, lambda: glyph_data(a.boards, a.seed, "train", a.jobs),
                                   f"rendering {a.boards} boards for letters ...")
        if a.q_inner_tail > 0:
            ims, meta, y = q_with_inner_tail(ims, meta, y, a.q_inner_tail, a.seed + 31)
        print(f"  {len(ims)} glyphs, {time.time() - t0:.0f} s; per class min {np.bincount(y).min()}", flush=True)
        print("rendering validation boards (fonts never trained on) ...", flush=True)
        vi, vm, yv = glyph_data(max(8, a.boards // 10), a.seed + 77, "heldout", a.jobs)
        if a.kind == "cnn" and a.engine == "torch":
            from calibration import torch_cnn
            widths = tuple(int(v) for v in a.widths.split(","))
            P = torch_cnn.train(ims, meta, y.astype(np.int64), len(CLASSES), a.epochs, widths, seed=fit_seed,
                                val=(vi.astype(np.float32) / 255, vm, yv.astype(np.int64)), log=print,
                                thin=a.thin_strokes, real=a.real_aug)
        elif a.kind == "cnn":
            P = train_cnn(ims, meta, y.astype(np.int64), len(CLASSES), a.epochs, seed=fit_seed,
                          val=(vi.astype(np.float32) / 255, vm, yv.astype(np.int64)), log=print,
                          real_p=a.real_aug)
        else:
            Xv = L.features_from(vi.astype(np.float32) / 255, vm)
            arng = np.random.default_rng(a.seed + 5)

            def make_X(ep):
                g = ims.astype(np.float32) / 255 if ep < 0 else augment_glyphs(ims, arng)
                return L.features_from(g, meta)

            mean, std, w1, b1, w2, b2 = train_mlp(make_X, y.astype(np.int64), len(CLASSES), a.hidden, a.epochs,
                                                  seed=fit_seed, Xv=Xv, yv=yv)
            P = dict(mean=mean, std=std, w1=w1, b1=b1, w2=w2, b2=b2)
        model = L.LetterModel(CLASSES, P, a.kind,
                              {"trained_on": f"{len(ims)} rendered glyphs from {a.boards} boards",
                               "seed": a.seed, "fit_seed": fit_seed, "real_aug": a.real_aug, "engine": a.engine,
                               "widths": a.widths, "q_inner_tail": a.q_inner_tail,
                               "thin_strokes": a.thin_strokes})
        acc = jheidel_accuracy(model)
        if acc:
            print(f"held-out real crops (jheidel): {acc[0]:.4f} of {acc[1]}")
        if a.second_opinion:
            first = L.LetterModel.load(out / "letters.npz")
            model = L.LetterModel(first.classes, first.params, first.kind, first.info, model)
            acc = jheidel_accuracy(model)
            if acc:
                print(f"  the two fits together, held-out real crops: {acc[0]:.4f} of {acc[1]}")
        model.save(out / "letters.npz")
        print(f"saved {out / 'letters.npz'} ({(out / 'letters.npz').stat().st_size / 1024:.0f} KiB"
              f"{', with the second opinion' if a.second_opinion else ''}), {time.time() - t0:.0f} s", flush=True)
    if a.only in ("squares", "both"):
        train_squares(a, out, t0)
    if a.only == "grey-squares":
        train_squares(a, out, t0, grey=True)


# --------------------------------------------------------------------------- square model


def _square_job(args):
    """Per-square features (cold and against a reference) and kinds from rendered boards
    (``grey``: photographed by a black-and-white camera)."""
    seed, n_boards, role, model_path, *rest = args
    grey = bool(rest and rest[0])
    deluxe = float(rest[1]) if len(rest) > 1 else 0.0
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    fonts = font_paths(role)
    model = L.LetterModel.load(model_path)
    letters = "".join(c for c in model.classes if c not in (L.ROT, L.NONE))     # all the model knows
    dummy = R.SquareModel({})
    Xc, Xr, y = [], [], []
    for _ in range(n_boards):
        sc, rect, ref = scene_rect(rng, fonts, letters, with_reference=True, n_tiles=int(rng.integers(0, 120)),
                                   hands=int(rng.integers(0, 3)) if rng.random() < 0.4 else 0, blank_rate=0.12,
                                   deluxe_blanks=deluxe)
        if grey:
            rect, ref = (black_and_white(x) for x in (rect, ref))
        try:
            an = R.Analysis(rect)
            R._check_picture(an)
        except Exception:
            continue
        cells, lab = [], []
        for r in range(15):
            for c in range(15):
                cov, ch = sc.covered[r, c], sc.labels[r][c]
                if 0.02 < cov < 0.3:
                    continue
                k = 3 if cov >= 0.3 else (0 if ch == "." else 2 if ch == "?" else 1)
                if k == 0 and rng.random() > 0.5:
                    continue
                cells.append((r, c))
                lab.append(k)
        cold = R.BoardReader(letters, model=model, squares=dummy)
        pol = cold.decide_polarity(an)
        cold.polarity = pol
        Xc.append(cold._features(an, pol, cells)[0])
        warm = R.BoardReader(letters, reference=ref, model=model, squares=dummy)
        warm.polarity = pol
        Xr.append(warm._features(R.Analysis(rect), pol, cells)[0])
        y += lab
    return np.vstack(Xc), np.vstack(Xr), np.array(y, np.int64)


def train_squares(a, out: Path, t0: float, grey: bool = False) -> None:
    """The square model's two nets (cold, against a reference); ``grey``: its nets for pictures
    without colour instead (R.SquareModel.GREY).  Written into the square model already in
    ``out`` (or the committed one), whose other nets stay as they are.  ``a.deluxe_blanks``: the
    share of tile sets whose blanks have a face of their own."""
    # the letter model the features come from: the one just trained into ``out``, else the committed one
    model_path = out / "letters.npz"
    if not model_path.exists():
        model_path = ROOT / "vision" / "models" / "letters.npz"
        print(f"no letter model in {out}: the square model is trained over the committed one ({model_path})")
    n = a.square_boards
    per = max(1, n // (a.jobs * 4))
    deluxe = getattr(a, "deluxe_blanks", 0.0)
    tasks = [(a.seed * 7000 + i, per, "train", str(model_path), grey, deluxe) for i in range(max(1, n // per))]
    print(f"rendering {n} boards for the square model ...", flush=True)
    with Pool(a.jobs) as p:
        parts = p.map(_square_job, tasks)
    Xc = np.vstack([q[0] for q in parts])
    Xr = np.vstack([q[1] for q in parts])
    y = np.concatenate([q[2] for q in parts])
    print(f"  {len(y)} squares {np.bincount(y, minlength=4).tolist()}, {time.time() - t0:.0f} s", flush=True)
    vt = [(a.seed * 9000 + i, max(1, per // 3), "heldout", str(model_path), grey, deluxe) for i in range(a.jobs * 2)]
    with Pool(a.jobs) as p:
        vparts = p.map(_square_job, vt)
    vXc = np.vstack([q[0] for q in vparts])
    vXr = np.vstack([q[1] for q in vparts])
    vy = np.concatenate([q[2] for q in vparts])
    # rarer kinds repeated so the perceptron sees them often enough
    counts = np.bincount(y, minlength=4).astype(float)
    reps = np.clip(np.round(counts.max() / np.maximum(counts, 1) / 3), 1, 8).astype(int)
    idx = np.concatenate([np.repeat(np.nonzero(y == k)[0], reps[k]) for k in range(4)])
    nets = {}
    names = R.SquareModel.GREY if grey else ("cold", "ref")
    for name, X, vX in ((names[0], Xc, vXc), (names[1], Xr, vXr)):
        print(f"square model ({name}):", flush=True)
        Xi = X[idx]
        mean, std, w1, b1, w2, b2 = train_mlp(lambda ep: Xi, y[idx], 4, hidden=a.square_hidden, epochs=a.square_epochs,
                                              lr=2e-3, smooth=0.02, seed=a.seed, Xv=vX, yv=vy, dropout=0.1)
        # undo the oversampling at reading time, but only half of it for "covered": a hand over
        # a tile read as an empty square is a wrong fact, a doubt read as covered only waits
        # (undoing none of it turned premium squares "covered" on the tests' boards)
        prior = (1.0 / reps).astype(np.float32)
        prior[3] = min(1.0, 2.0 * prior[3])
        nets[name] = dict(mean=mean, std=std, w1=w1, b1=b1, w2=w2, b2=b2, prior=prior)
        pv = (_predict((mean, std, w1, b1, w2, b2), vX) * prior).argmax(1)
        cm = np.zeros((4, 4), int)
        np.add.at(cm, (vy, pv), 1)
        print("  confusion (rows truth empty/tile/blank/covered):\n" + str(cm), flush=True)
    # the model's other nets kept (grey: the colour nets; colour: the grey nets and the second
    # look), those of this folder's square model or the committed one
    base = out / "squares.npz" if (out / "squares.npz").exists() else R.SQUARES_PATH
    nets = {**R.SquareModel.load(base).nets, **nets}
    if not grey and "look" in nets:
        print("the second look kept was trained on the old first look's answers: retrain it "
              "(calibration/train_square_look.py) and measure both", flush=True)
    R.SquareModel(nets).save(out / "squares.npz")
    print(f"saved {out / 'squares.npz'} ({(out / 'squares.npz').stat().st_size / 1024:.0f} KiB), "
          f"{time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
