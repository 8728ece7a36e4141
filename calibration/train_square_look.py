"""Train the square model's second look (the ``look`` net in ``vision/models/squares.npz``).

The square model's first look is a perceptron on summary numbers per square (colours against the
board's and the tiles', ink, the letter model's answer).  Where it is in doubt -- mostly "a blank
tile or an empty square of about its colour?" -- the reader looks again with a small CNN over the
square's picture (``vision.read.SquareModel.look``): a tile's edge, the gap round it, its shadow,
the square's print under a thin glare, which summary numbers lose.  It is given the first look's
numbers too, so it only has to add what the picture shows.

Steps: (1) render boards (``vision/render.py``, the training fonts, 12 % blanks, a quarter of the
tile sets with blanks of a face of their own -- deluxe sets: a white face in a maroon tile's
border, ``--deluxe-blanks`` --, hands on some),
read each cold and against its empty-board reference with the committed models, keep the squares
the second look will be asked about (first look gives a blank 0.02 or more, or no kind 0.9), every
blank tile and 3 % of the other squares, with their crops, colours, feature rows and first-look probabilities; (2) fit
the CNN with PyTorch (quarter turns, mirror and a pixel's shift as augmentation); (3) check it on
boards of fonts never trained on, against the first look; (4) write it into ``squares.npz`` beside
the square model's other nets (numpy reads it: PyTorch is only for training).

    .venv/bin/pip install torch==2.13.0                      # CPU build, not part of the set-up
    .venv/bin/python calibration/train_square_look.py        # ~20 min rendering + ~6 min fitting, 2 cores
    .venv/bin/python calibration/train_square_look.py --quick --out /tmp/look   # smoke test
    .venv/bin/python calibration/train_square_look.py --grey     # the look for a black-and-white camera

The committed colour look is a pair (forty-first session of 2026-12-07): the look of the default
run above and, joined with it by the reader, a wider fit on twice the boards, saved beside it as
``look_wide``::

    .venv/bin/python calibration/train_square_look.py --boards 7200 --seed 21 --widths 24,48,128 --pair
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import read as R  # noqa: E402
from vision.render import font_paths  # noqa: E402
from vision.pixels import black_and_white  # noqa: E402
from calibration.train_letters import Pool, scene_rect  # noqa: E402

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# the English set's point values, printed on the tiles of most training boards and given to the reader
EN_VALUES = dict(A=1, B=3, C=3, D=2, E=1, F=4, G=2, H=4, I=1, J=8, K=5, L=1, M=3, N=1, O=1, P=3, Q=10, R=1, S=1,
                 T=1, U=1, V=4, W=4, X=8, Y=4, Z=10)
OTHERS = 0.03     # share of the squares the second look is not asked about kept for training


def kind_of(label: str, covered: float) -> int:
    """Index into ``R.KINDS`` of a rendered square."""
    return 3 if covered >= 0.3 else (0 if label == "." else 2 if label == "?" else 1)


def _look_job(args):
    """Squares the second look is asked about on ``n`` rendered boards, read cold and with a reference."""
    seed, n, role, deluxe, first, grey = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    fonts = font_paths(role)
    squares = R.SquareModel.load(first)          # the first look the second is asked after
    out = {k: [] for k in ("crop", "refcrop", "board_lab", "tile_lab", "meta", "y")}
    for _ in range(n):
        hard = rng.random() < 0.7
        values = {k: str(v) for k, v in EN_VALUES.items()} if rng.random() < 0.6 else None
        sc, rect, ref = scene_rect(rng, fonts, LETTERS, with_reference=True, n_tiles=int(rng.integers(0, 120)),
                                   hands=int(rng.integers(0, 3)) if rng.random() < 0.4 else 0, blank_rate=0.12,
                                   hard=hard, values=values, deluxe_blanks=deluxe)
        if grey:                                 # a black-and-white camera: the frame's lightness
            rect, ref = black_and_white(rect), black_and_white(ref)
        try:
            an = R.Analysis(rect)
            R._check_picture(an)
        except R.VisionError:
            continue
        cells = [(r, c) for r in range(R.GRID) for c in range(R.GRID) if not 0.02 < sc.covered[r, c] < 0.3]
        crops = R.look_crops(an.rect, [(r, c) for r in range(R.GRID) for c in range(R.GRID)])
        ref_crops = R.look_crops(R.as_board(ref), [(r, c) for r in range(R.GRID) for c in range(R.GRID)])
        for with_ref in (False, True):
            reader = R.BoardReader(LETTERS, reference=ref if with_ref else None,
                                   values=EN_VALUES if values else None)
            pol = reader.decide_polarity(an)
            reader.polarity = pol
            X = reader._features(R.Analysis(rect) if with_ref else an, pol, cells)[0]
            P = squares.probabilities(X, with_ref, grey)
            T = reader.tile_lab
            meta = R.look_meta(X, P, with_ref, T is not None)
            for i, (r, c) in enumerate(cells):
                kind = kind_of(sc.labels[r][c], sc.covered[r, c])
                asked = P[i, R._BLANK_KIND] >= R.LOOK_BLANK or P[i].max() < R.LOOK_UNSURE
                if not asked and kind != R._BLANK_KIND and rng.random() >= OTHERS:
                    continue       # (every blank is kept: the rarest kind, and the one asked about)
                out["crop"].append(crops[r * R.GRID + c])
                out["refcrop"].append(ref_crops[r * R.GRID + c] if with_ref else np.zeros_like(crops[0]))
                out["board_lab"].append(reader._board_lab)
                out["tile_lab"].append(np.full(3, np.nan, np.float32) if T is None else T)
                out["meta"].append(meta[i])
                out["y"].append(kind)
    return {k: np.array(v) for k, v in out.items()}


def look_data(n_boards: int, seed: int, role: str, jobs: int, deluxe: float = 0.0, first: Path | None = None,
              grey: bool = False) -> dict:
    """``first``: the square model whose first look decides what the second is asked about (the
    committed one by default).  ``grey``: the boards seen by a black-and-white camera, the first
    look's own nets for pictures without colour deciding."""
    per = max(1, n_boards // jobs)
    first = first or R.SQUARES_PATH
    with Pool(jobs) as p:
        parts = p.map(_look_job, [(seed + i, per, role, deluxe, str(first), grey) for i in range(jobs)])
    return {k: np.concatenate([q[k] for q in parts]) for k in parts[0]}


def load_data(path: Path) -> tuple[dict, dict]:
    """The training and check squares kept by ``--data``."""
    z = np.load(path)
    return ({k[2:]: z[k] for k in z.files if k.startswith("d_")},
            {k[2:]: z[k] for k in z.files if k.startswith("v_")})


def first_look(meta: np.ndarray) -> np.ndarray:
    """The first look's probabilities of each kind (``R.KINDS``), as :func:`vision.read.look_meta`
    put them in a meta row."""
    width = len(R.FEATURES) + len(R.REF_FEATURES)
    return meta[:, width:width + len(R.KINDS)]


def asked_only(d: dict, blank_from: float) -> dict:
    """The rows of ``d`` whose first look gives a blank ``blank_from`` or more."""
    keep = first_look(d["meta"])[:, R._BLANK_KIND] >= blank_from
    return {k: x[keep] for k, x in d.items()}


def channels(d: dict) -> np.ndarray:
    """(n, 9, h, h) network input of the data: ``vision.read.look_channels`` of each row, as the
    reader makes it (tile colour known or not, with a reference or not)."""
    known = ~np.isnan(d["tile_lab"][:, 0])
    with_ref = d["meta"][:, -2] > 0.5
    x = np.empty(d["crop"].shape[:3] + (9,), np.float32)
    for k in (False, True):
        for r in (False, True):
            rows = (known == k) & (with_ref == r)
            if rows.any():
                x[rows] = R.look_channels(d["crop"][rows], d["board_lab"][rows], d["tile_lab"][rows] if k else None,
                                          d["refcrop"][rows] if r else None)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def _torch():
    try:
        import torch
    except ImportError as e:                      # a clear message, not a traceback
        raise SystemExit("PyTorch is not installed: .venv/bin/pip install torch==2.13.0") from e
    return torch


def fit(x, meta, y, vx, vmeta, vy, epochs: int, seed: int, widths=(16, 32, 64), log=print) -> dict:
    """Fit the CNN; returns its weights in the numpy layout of ``SquareModel.look``."""
    torch = _torch()
    nn, F = torch.nn, torch.nn.functional
    c1, c2, fc = widths
    n_meta = meta.shape[1]
    side = R.LOOK // 4

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(9, c1, 5, padding=2)
            self.conv2 = nn.Conv2d(c1, c2, 3, padding=1)
            self.fc1 = nn.Linear(side * side * c2 + n_meta, fc)
            self.fc2 = nn.Linear(fc, len(R.KINDS))
            self.drop = nn.Dropout(0.2)

        def forward(self, a, m):
            a = F.max_pool2d(F.relu(self.conv1(a)), 2)
            a = F.max_pool2d(F.relu(self.conv2(a)), 2)
            a = a.permute(0, 2, 3, 1).reshape(len(a), -1)            # (y, x, c) as numpy reads it
            return self.fc2(self.drop(F.relu(self.fc1(torch.cat([a, m], 1)))))

    def augment(a, gen):
        # a square reads the same turned and mirrored; a pixel's shift stands for the corners' noise
        a = torch.rot90(a, int(torch.randint(4, (1,), generator=gen)), (2, 3))
        if torch.rand(1, generator=gen) < 0.5:
            a = torch.flip(a, (3,))
        dy, dx = (int(v) for v in torch.randint(0, 2, (2,), generator=gen))
        return a[:, :, dy:dy + R.LOOK, dx:dx + R.LOOK]

    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    mmean, mstd = meta.mean(axis=0), meta.std(axis=0) + 1e-3
    X = torch.from_numpy(x)
    M = torch.from_numpy(((meta - mmean) / mstd).astype(np.float32))
    Y = torch.from_numpy(y.astype(np.int64))
    VX = torch.from_numpy(vx[:, :, :R.LOOK, :R.LOOK].copy())
    VM = torch.from_numpy(((vmeta - mmean) / mstd).astype(np.float32))
    net = Net()
    bs = 256
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=epochs * ((len(Y) + bs - 1) // bs),
                                                pct_start=0.1)
    lossf = nn.CrossEntropyLoss(label_smoothing=0.02)
    for ep in range(epochs):
        t0 = time.time()
        net.train()
        order = torch.randperm(len(Y), generator=gen)
        tot = 0.0
        for i in range(0, len(Y), bs):
            idx = order[i:i + bs]
            loss = lossf(net(augment(X[idx], gen), M[idx]), Y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item() * len(idx)
        net.eval()
        with torch.no_grad():
            pv = net(VX, VM).argmax(1).numpy()
        log(f"  epoch {ep + 1}/{epochs} loss {tot / len(Y):.4f} held-out squares right {np.mean(pv == vy):.4f} "
            f"({time.time() - t0:.0f} s)", flush=True)
    with torch.no_grad():
        check = torch.softmax(net(VX[:256], VM[:256]), 1).numpy()
    sd = {k: v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    return check, {"k1": np.ascontiguousarray(sd["conv1.weight"].transpose(2, 3, 1, 0).reshape(-1, c1)), "b1": sd["conv1.bias"],
            "k2": np.ascontiguousarray(sd["conv2.weight"].transpose(2, 3, 1, 0).reshape(-1, c2)), "b2": sd["conv2.bias"],
            "w3": np.ascontiguousarray(sd["fc1.weight"].T), "b3": sd["fc1.bias"],
            "w4": np.ascontiguousarray(sd["fc2.weight"].T), "b4": sd["fc2.bias"],
            "mmean": mmean.astype(np.float32), "mstd": mstd.astype(np.float32)}


def report(first: np.ndarray, second: np.ndarray, y: np.ndarray, log=print) -> None:
    """Blank tiles and empty squares shown right / wrong by each look, as the reader shows them."""
    for name, Q in (("first look ", first), ("second look", second)):
        k, pk = Q.argmax(1), Q.max(1)
        shown = pk >= R.BLANK_SURE
        parts = []
        for c in (0, 2):
            m = y == c
            parts.append(f"{R.KINDS[c]}: {np.mean(shown[m] & (k[m] == c)):.1%} right, "
                         f"{np.mean(shown[m] & (k[m] != c)):.2%} wrong")
        log(f"  {name} (shown from {R.BLANK_SURE}): " + "; ".join(parts), flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=3600, help="rendered boards to learn from")
    ap.add_argument("--check-boards", type=int, default=400, help="rendered boards (fonts never trained on) to check on")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--widths", default="16,32,64", help="the net's two conv layers' and its hidden layer's widths")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--deluxe-blanks", type=float, default=0.25,
                    help="the share of tile sets whose blanks have a face of their own (vision/render.py)")
    ap.add_argument("--out", type=Path, default=R.SQUARES_PATH.parent,
                    help="folder of the squares.npz to add the second look to (default: the committed one)")
    ap.add_argument("--quick", action="store_true", help="a few boards and one epoch (a smoke test)")
    ap.add_argument("--grey", action="store_true", help="the second look for pictures without colour (a "
                    "black-and-white camera): boards made grey, saved as the net look_grey")
    ap.add_argument("--pair", action="store_true",
                    help="save the fit as the colour look's pair (the net look_wide: the reader joins the two "
                         "looks' readings), keeping the look already in the model")
    ap.add_argument("--asked-from", type=float, default=None, metavar="BLANK",
                    help="learn (and check) only on the squares whose first look gives a blank this much or more: "
                         "where the reader asks the look (the grey look: vision.read.GREY_LOOK_FROM)")
    ap.add_argument("--data", type=Path, default=None,
                    help="an .npz of rendered squares: read from it when it exists, else rendered and kept there "
                         "(fit again, another --asked-from, without rendering again)")
    a = ap.parse_args(argv)
    if a.quick:
        a.boards, a.check_boards, a.epochs = 8, 4, 1
    _torch()                                      # before twenty minutes of rendering
    t0 = time.time()
    # the square model the look goes into (its first look decides what the look is asked about)
    base = a.out / "squares.npz" if (a.out / "squares.npz").exists() else R.SQUARES_PATH
    if a.data is not None and a.data.exists():
        d, v = load_data(a.data)
        print(f"squares rendered before read from {a.data}", flush=True)
    else:
        print(f"rendering {a.boards} boards (first look of {base}) ...", flush=True)
        d = look_data(a.boards, a.seed, "train", a.jobs, a.deluxe_blanks, base, a.grey)
        v = look_data(a.check_boards, a.seed + 10, "heldout", a.jobs, a.deluxe_blanks, base, a.grey)
        if a.data is not None:
            np.savez(a.data, **{f"d_{k}": x for k, x in d.items()}, **{f"v_{k}": x for k, x in v.items()})
    if a.asked_from is not None:
        d, v = asked_only(d, a.asked_from), asked_only(v, a.asked_from)
    print(f"  {len(d['y'])} squares {np.bincount(d['y'], minlength=4).tolist()} (empty/tile/blank/covered), "
          f"{len(v['y'])} to check, {time.time() - t0:.0f} s", flush=True)
    x, vx = channels(d), channels(v)
    check, net = fit(x, d["meta"], d["y"], vx, v["meta"], v["y"], a.epochs, a.seed,
                     tuple(int(w) for w in a.widths.split(",")))
    first = first_look(v["meta"])
    if a.pair and a.grey:
        raise SystemExit("--pair is for the colour look only")
    name = R.LOOK_PAIR if a.pair else R.LOOK_NETS[a.grey]
    model = R.SquareModel({**R.SquareModel.load(base).nets, name: net})
    # this fit alone, as numpy reads it (the reader joins a pair; the check is of the fit)
    second = model.look_alone(np.ascontiguousarray(vx.transpose(0, 2, 3, 1)[:, :R.LOOK, :R.LOOK]), v["meta"], name)
    err = float(np.abs(second[:len(check)] - check).max())
    print(f"  numpy reads as PyTorch did: largest probability difference {err:.1e}", flush=True)
    if err > 1e-3:
        raise SystemExit(f"the exported second look does not reproduce the trained one (difference {err})")
    report(first, second, v["y"])
    a.out.mkdir(parents=True, exist_ok=True)
    model.save(a.out / "squares.npz")
    print(f"saved {a.out / 'squares.npz'} ({(a.out / 'squares.npz').stat().st_size / 1024:.0f} KiB), "
          f"{time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
