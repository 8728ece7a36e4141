"""Training the letter CNN with PyTorch (optional; ``calibration/train_letters.py --engine torch``).

The product reads letters with numpy only (``vision.letters.cnn_forward``); PyTorch is a faster way
to fit the same network on this machine's CPU, so a wider model and more epochs fit in the time.
The weights are exported in the numpy layout (conv kernels as ``(ky, kx, c_in) x c_out``, the
pooled map flattened as ``(y, x, c)``), and :func:`check_export` proves the two forwards agree.

Install (CPU build, not part of the product's set-up)::

    .venv/bin/pip install torch==2.13.0          # or any recent CPU build

Augmentation is done per batch on tensors, like ``train_letters.augment_glyphs``: small affine
warps (turn, scale, shear, shift), a smooth elastic field, and bolder or thinner strokes.
"""

from __future__ import annotations

import time

import numpy as np

from vision import letters as L


def _torch():
    try:
        import torch
    except ImportError as e:                      # a clear message, not a traceback
        raise SystemExit("PyTorch is not installed: .venv/bin/pip install torch  (or use --engine numpy)") from e
    return torch


def build(n_classes: int, c1: int, c2: int, fc: int, dropout: float):
    torch = _torch()
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, c1, 5, padding=2)
            self.conv2 = nn.Conv2d(c1, c2, 3, padding=1)
            self.fc1 = nn.Linear(49 * c2 + 5, fc)
            self.fc2 = nn.Linear(fc, n_classes)
            self.drop = nn.Dropout(dropout)

        def forward(self, x, meta):
            f = torch.nn.functional
            a = f.max_pool2d(f.relu(self.conv1(x)), 2)
            a = f.max_pool2d(f.relu(self.conv2(a)), 2)
            a = a.permute(0, 2, 3, 1).reshape(len(x), -1)           # (y, x, c) as in numpy
            h = f.relu(self.fc1(torch.cat([a, meta], 1)))
            return self.fc2(self.drop(h))

    return Net()


def augment(torch, x, gen, thin: float = 0.0, real: float = 0.0):
    """Random warps and stroke changes of a batch (B, 1, 28, 28) in [0, 1].

    ``thin``: the share of glyphs given thin strokes across one band of the glyph (see
    :func:`thin_band`); ``real``: the share given the look of binarised low-resolution crops
    (:func:`real_look`)."""
    f = torch.nn.functional
    b = len(x)
    # affine (80 %): turn ~4 degrees, scale 0.86-1.12, shear ~0.15, shift ~0.8 px
    grid = affine_grid(torch, x, gen, (0.86, 1.12), 0.15, 0.8)
    # elastic (30 %): a smooth random displacement of about a pixel
    el = (torch.rand(b, generator=gen) < 0.3).float()[:, None, None, None]
    field = f.interpolate(torch.randn(b, 2, 4, 4, generator=gen), size=(L.GLYPH, L.GLYPH), mode="bicubic",
                          align_corners=False) * (1.2 * 2 / L.GLYPH)
    grid = grid + el * field.permute(0, 2, 3, 1)
    x = f.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    # stroke weight: bolder 15 %, thinner 15 %
    k = torch.tensor([[0.0625, 0.125, 0.0625], [0.125, 0.25, 0.125], [0.0625, 0.125, 0.0625]])[None, None]
    blur = f.conv2d(x, k, padding=1)
    r = torch.rand(b, generator=gen)[:, None, None, None]
    x = torch.where(r < 0.15, (blur > 0.25).float(), torch.where(r < 0.3, (blur > 0.7).float(), x))
    if thin > 0:
        x = thin_band(torch, x, gen, thin)
    if real > 0:
        x = real_look(torch, x, gen, real)
    return x


def affine_grid(torch, x, gen, scale: tuple[float, float], shear: float, share: float | None = None):
    """The sampling grid of random affine warps of a batch ``x`` (B, 1, 28, 28): a turn of ~4
    degrees, each axis scaled within ``scale``, sheared ~``shear``, shifted ~0.8 px; with
    ``share``, only that share of the batch warped (the rest kept as it is)."""
    f = torch.nn.functional
    b = len(x)
    ang = torch.randn(b, generator=gen) * np.radians(4)
    sx = torch.empty(b).uniform_(*scale, generator=gen)
    sy = torch.empty(b).uniform_(*scale, generator=gen)
    sh = torch.randn(b, generator=gen) * shear
    c, s = torch.cos(ang), torch.sin(ang)
    A = torch.stack([torch.stack([c * sx, c * sh - s * sy], 1), torch.stack([s * sx, s * sh + c * sy], 1)], 1)
    on = torch.ones(b, 1, 1)
    if share is not None:
        on = (torch.rand(b, generator=gen) < share).float()[:, None, None]
        A = on * A + (1 - on) * torch.eye(2)[None]
    Ainv = torch.linalg.inv(A)                     # the grid maps output to input
    t = torch.randn(b, 2, generator=gen) * 0.8 * (2 / L.GLYPH) * on[:, :, 0]
    return f.affine_grid(torch.cat([Ainv, (-Ainv @ t[:, :, None])], 2), list(x.shape), align_corners=False)


def real_look(torch, x, gen, share: float):
    """A ``share`` of the batch given the look of real binarised camera crops, as
    ``train_letters._real_look`` gives it glyph by glyph for the numpy engine: down to 11-19 px
    and back up (70 %), a slight blur (50 %), a hard threshold at a random level (0.3-0.7), and
    the binary strokes one pixel thinner (20 %) or bolder (20 %).  The real crops are binarised
    36 px crops, where Otsu's threshold drops a face's hairlines; a glyph the threshold erases
    is kept as it was."""
    return _to_a_share(torch, x, gen, share, lambda xs: _binarised(torch, xs, gen))


def _binarised(torch, xs, gen):
    """:func:`real_look` of every glyph of ``xs``."""
    f = torch.nn.functional
    n, g = len(xs), xs.shape[-1]
    small = (torch.rand(n, generator=gen) < 0.7)[:, None, None, None]
    side = int(torch.randint(11, 20, (1,), generator=gen))       # one size a batch: interpolate takes one
    low = f.interpolate(f.interpolate(xs, size=(side, side), mode="area"), size=(g, g), mode="bilinear",
                        align_corners=False)
    y = torch.where(small, low, xs)
    sigma = torch.empty(n).uniform_(0.4, 1.0, generator=gen)
    d = torch.tensor([-1.0, 0.0, 1.0])
    k1 = torch.exp(-d[None, :] ** 2 / (2 * sigma[:, None] ** 2))
    k1 = k1 / k1.sum(1, keepdim=True)
    k = (k1[:, :, None] * k1[:, None, :])[:, None]                  # (n, 1, 3, 3), each its own
    blurred = f.conv2d(y.transpose(0, 1), k, padding=1, groups=n).transpose(0, 1)
    y = torch.where((torch.rand(n, generator=gen) < 0.5)[:, None, None, None], blurred, y)
    level = torch.empty(n, 1, 1, 1).uniform_(0.3, 0.7, generator=gen)
    y = (y > level).float()
    q = torch.rand(n, generator=gen)[:, None, None, None]
    # 2x2 erosion / dilation, anchored as OpenCV anchors a 2x2 kernel (at its lower right)
    padded = f.pad(y, (1, 0, 1, 0))
    dil = f.max_pool2d(padded, 2, stride=1)
    ero = -f.max_pool2d(f.pad(-y, (1, 0, 1, 0), value=-1.0), 2, stride=1)
    y = torch.where(q < 0.2, ero, torch.where(q < 0.4, dil, y))
    kept = y.flatten(1).amax(1) > 0
    return torch.where(kept[:, None, None, None], y, xs)


def _to_a_share(torch, x, gen, share: float, change):
    """The batch ``x`` with ``change`` applied to a ``share`` of its glyphs, drawn from ``gen``
    (``change`` takes and returns those glyphs, (n, 1, 28, 28))."""
    on = torch.rand(len(x), generator=gen) < share
    if not on.any():
        return x
    x = x.clone()
    x[on] = change(x[on])
    return x


def thin_band(torch, x, gen, share: float):
    """Strokes across one band of the glyph made thin, in a ``share`` of the batch.

    Faces of thick stems and thin bars (a bold serif) lose the bars first under blur: what the
    ink cut leaves of an E is a stem, two bars and a hairline at the foot, of an L a stem and a
    hairline.  Trained only on even strokes the network reads those as F and I, surely.  Here
    a band of rows (or, for a fifth of them, of columns) across a random part of the glyph is
    eroded across its strokes by one or two pixels, faded in part: the bars in it become
    hairlines or faint traces while the stems running through it keep their width.
    """
    return _to_a_share(torch, x, gen, share, lambda xs: _thinned_band(torch, xs, gen))


def _thinned_band(torch, xs, gen):
    """:func:`thin_band` of every glyph of ``xs``."""
    f = torch.nn.functional
    n = len(xs)
    across = torch.rand(n, generator=gen) < 0.2                     # thin the upright strokes instead
    xs = torch.where(across[:, None, None, None], xs.transpose(2, 3), xs)
    # erosion along the rows' axis: a horizontal stroke loses a pixel (two: 30 %)
    e1 = torch.minimum(xs, f.pad(xs, (0, 0, 1, 0))[:, :, :-1])
    e2 = torch.minimum(e1, f.pad(xs, (0, 0, 0, 1))[:, :, 1:])
    two = (torch.rand(n, generator=gen) < 0.3)[:, None, None, None]
    er = torch.where(two, e2, e1)
    fade = torch.empty(n, 1, 1, 1).uniform_(0.6, 1.0, generator=gen)
    thinned = xs * (1 - fade) + er * fade
    # the band: a third to two thirds of the glyph's height, anywhere
    g = xs.shape[2]
    h = (torch.empty(n).uniform_(0.33, 0.67, generator=gen) * g).long()
    y0 = (torch.rand(n, generator=gen) * (g - h + 1)).long()
    rows = torch.arange(g)[None, :]
    band = ((rows >= y0[:, None]) & (rows < (y0 + h)[:, None])).float()[:, None, :, None]
    xs = band * thinned + (1 - band) * xs
    return torch.where(across[:, None, None, None], xs.transpose(2, 3), xs)


def export(net, mmean, mstd) -> dict:
    """The network's weights in the numpy layout of ``vision.letters.cnn_forward``."""
    sd = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    k1 = sd["conv1.weight"].transpose(2, 3, 1, 0).reshape(-1, sd["conv1.weight"].shape[0])
    k2 = sd["conv2.weight"].transpose(2, 3, 1, 0).reshape(-1, sd["conv2.weight"].shape[0])
    return {"k1": np.ascontiguousarray(k1), "b1": sd["conv1.bias"], "k2": np.ascontiguousarray(k2),
            "b2": sd["conv2.bias"], "w3": np.ascontiguousarray(sd["fc1.weight"].T), "b3": sd["fc1.bias"],
            "w4": np.ascontiguousarray(sd["fc2.weight"].T), "b4": sd["fc2.bias"],
            "mmean": mmean.astype(np.float32), "mstd": mstd.astype(np.float32)}


def check_export(net, P, ims, meta) -> float:
    """Largest difference between the torch and the numpy logits on some glyphs (should be ~1e-5)."""
    torch = _torch()
    net.eval()
    with torch.no_grad():
        x = torch.from_numpy(ims[:, None].astype(np.float32))
        m = torch.from_numpy(((meta - P["mmean"]) / P["mstd"]).astype(np.float32))
        a = net(x, m).numpy()
    b = L.cnn_forward(P, ims.astype(np.float32), meta)[0]
    return float(np.abs(a - b).max())


def train(ims, meta, y, n_classes, epochs=40, widths=(16, 32, 160), lr=3e-3, wd=1e-4, smooth=0.05,
          dropout=0.3, bs=256, seed=0, val=None, log=print, thin: float = 0.0, real: float = 0.0) -> dict:
    """Fit the CNN on uint8 glyphs (n, 28, 28) and meta rows; returns numpy parameters.
    ``thin``, ``real``: shares of each batch given thin bars or a binarised look (:func:`augment`)."""
    torch = _torch()
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = build(n_classes, *widths, dropout)
    mmean = meta.mean(axis=0)
    mstd = meta.std(axis=0) + 1e-3
    X = torch.from_numpy(ims).float().div_(255).unsqueeze(1)
    M = torch.from_numpy(((meta - mmean) / mstd).astype(np.float32))
    Y = torch.from_numpy(y.astype(np.int64))
    decay = [p for n, p in net.named_parameters() if p.ndim > 1]
    rest = [p for n, p in net.named_parameters() if p.ndim <= 1]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": wd}, {"params": rest, "weight_decay": 0.0}], lr=lr)
    steps = epochs * ((len(X) + bs - 1) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    lossf = torch.nn.CrossEntropyLoss(label_smoothing=smooth)
    if val is not None:
        vi, vm, vy = val
        VX = torch.from_numpy(vi.astype(np.float32)).unsqueeze(1)
        VM = torch.from_numpy(((vm - mmean) / mstd).astype(np.float32))
    for ep in range(epochs):
        t0 = time.time()
        net.train()
        order = torch.randperm(len(X), generator=gen)
        tot = 0.0
        for i in range(0, len(X), bs):
            idx = order[i:i + bs]
            xb = augment(torch, X[idx], gen, thin, real)
            out = net(xb, M[idx])
            loss = lossf(out, Y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item() * len(idx)
        msg = f"  epoch {ep + 1}/{epochs} loss {tot / len(X):.4f} ({time.time() - t0:.0f} s)"
        if val is not None:
            net.eval()
            with torch.no_grad():
                pv = torch.cat([net(VX[j:j + 2048], VM[j:j + 2048]).argmax(1) for j in range(0, len(VX), 2048)]).numpy()
            let = vy < n_classes - 2
            msg += f" val acc {np.mean(pv == vy):.4f} letters {np.mean(pv[let] == vy[let]):.4f}"
        log(msg, flush=True)
    P = export(net, mmean, mstd)
    err = check_export(net, P, ims[:256].astype(np.float32) / 255, meta[:256])
    log(f"  numpy export checked: largest logit difference {err:.2e}", flush=True)
    if err > 1e-3:
        raise SystemExit(f"the exported weights do not reproduce the torch model (difference {err})")
    return P
