"""Letter recognition on tile crops: binarise, isolate the glyph, normalise, classify.

Pipeline for one square (a colour or grey crop of about one cell, any size >= 16 px):

1. ``glyph_of(crop)`` finds the letter: Otsu threshold, polarity from the crop's middle
   (the tile face is the majority there), connected components; the letter is the largest
   component near the middle plus accents above it (Ä Ö Ü Å Ñ); the small point value in the
   lower right and pieces of neighbouring tiles or grid lines are left out.  Returns ``None``
   when there is no ink (an empty square, a blank tile).
2. The glyph is scaled (aspect kept) into a 28x28 box; ``features`` = HOG + 14x14 pixels +
   shape numbers (aspect, size in the cell, components).
3. A small two-layer perceptron (numpy, weights in ``vision/models/letters.npz``, trained by
   ``calibration/train_letters.py`` on rendered tiles only) gives a probability for every
   letter of the trained alphabet and for two "not a letter" classes: ``ROT`` (a letter on
   its side or upside down: used to find which side of the board is up) and ``NONE`` (ink
   that is not a letter: premium-square print, the centre star, grain, a hand's edge).
4. Optional per-set prototypes (``vision/models`` is generic; a :class:`Prototypes` set comes
   from the players' own tiles, see ``calibration/set_profile.py``) are mixed in by nearest
   neighbour in the perceptron's hidden space.

The alphabet is a parameter: ``LetterModel.classify(..., letters="ABC...ÄÖÜ")`` restricts the
answer to the letters of the tile set in play.  Letters the model was not trained on can only
come from prototypes (or tesseract, see ``tesseract_classify``).  Nothing here knows game rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError

GLYPH = 28          # normalised glyph side
BOX = 20            # the glyph's larger side inside the 28x28 square
ROT = "^"           # class: a letter that is not upright
NONE = "~"          # class: ink that is not a letter
MODEL_PATH = Path(__file__).resolve().parent / "models" / "letters.npz"

_HOG_DIM = 324      # 4x4 cells of 7 px, 2x2-cell blocks (3x3 of them), 9 orientation bins


@dataclass
class Glyph:
    """The letter found in one crop, normalised."""

    image: np.ndarray          # GLYPH x GLYPH float32 in [0, 1], 1 = ink
    aspect: float              # bbox width / height
    height: float              # bbox height / crop side
    ink: float                 # ink fraction inside the bbox
    parts: int                 # components kept (1, or 2-3 with accents)
    contrast: float            # grey-level distance between face and ink (0..255)
    centre: tuple[float, float] = (0.5, 0.5)   # bbox centre in crop units (x, y)


def to_gray(crop: np.ndarray) -> np.ndarray:
    """Grey version of a crop that keeps letter contrast on coloured tiles.

    Uses the channel mix (luma, or the single channel with the largest spread) with the larger
    inter-quartile spread, so a dark red letter on a wooden tile still stands out.
    """
    if crop.ndim == 2:
        return crop if crop.dtype == np.uint8 else np.clip(crop, 0, 255).astype(np.uint8)
    if crop.shape[2] == 4:
        crop = crop[:, :, :3]
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    best, spread = gray, _spread(gray)
    for ch in cv2.split(crop):
        s = _spread(ch)
        if s > spread * 1.25:
            best, spread = ch, s
    return best


def _spread(a: np.ndarray) -> float:
    lo, hi = np.percentile(a, (5, 95))
    return float(hi - lo)


def binarise(gray: np.ndarray, min_contrast: float = 28.0,
             polarity: int | None = None) -> tuple[np.ndarray | None, float]:
    """Ink mask (uint8 0/1) and contrast; ``None`` when the crop is flat (no ink).

    ``polarity``: +1 dark ink on a light face, -1 light ink on a dark face, None = guess.
    """
    h, w = gray.shape
    lo, hi = np.percentile(gray, (3, 97))
    contrast = float(hi - lo)
    if contrast < min_contrast:
        return None, contrast
    t, mask = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if polarity is None:
        polarity = _polarity(mask)
    if polarity > 0:            # dark ink: the ink is the dark (0) class
        mask = 1 - mask
    return mask.astype(np.uint8), contrast


def _polarity(mask: np.ndarray) -> int:
    """+1 if the ink is darker than the face, -1 if lighter, from a 0/1 Otsu mask (1 = light).

    The face is the majority of the crop's outer ring and of its middle; the ring counts more,
    since a bold letter can fill half of the middle of a tight crop.
    """
    h, w = mask.shape
    r = max(1, min(h, w) // 8)
    ring = np.concatenate([mask[:r].ravel(), mask[-r:].ravel(), mask[r:-r, :r].ravel(), mask[r:-r, -r:].ravel()])
    m0, m1 = h // 5, w // 5
    light = 0.6 * ring.mean() + 0.4 * mask[m0:h - m0, m1:w - m1].mean()
    return 1 if light > 0.5 else -1


def glyph_of(crop: np.ndarray, min_contrast: float = 28.0, polarity: int | None = None) -> Glyph | None:
    """The normalised letter of a crop, or ``None`` when there is no letter-sized ink."""
    gray = to_gray(crop)
    h, w = gray.shape[:2]
    if h < 12 or w < 12:
        raise VisionError("The picture of the tile is too small to read.", "bad-input")
    mask, contrast = binarise(gray, min_contrast, polarity)
    if mask is None:
        return None
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return None
    area_min = 0.012 * h * w
    best, best_score = -1, 0.0
    cx0, cy0 = w / 2.0, h / 2.0
    for i in range(1, n):
        x, y, bw, bh, a = stats[i]
        if a < area_min or bh < 0.22 * h:
            continue
        # distance of the bbox centre from the crop centre, in crop units
        d = np.hypot((x + bw / 2 - cx0) / w, (y + bh / 2 - cy0) / h)
        touches = (x == 0) + (y == 0) + (x + bw == w) + (y + bh == h)
        thin = min(bw, bh) < 0.12 * min(h, w) and max(bw, bh) > 0.7 * min(h, w)
        score = a * max(0.05, 1.0 - 1.6 * d) * (0.35 if thin else 1.0) * (0.6 ** max(0, touches - 1))
        if score > best_score:
            best, best_score = i, score
    if best < 0:
        return None
    x, y, bw, bh, _ = stats[best]
    keep = [best]
    x0, y0, x1, y1 = x, y, x + bw, y + bh
    for i in range(1, n):
        if i == best:
            continue
        ix, iy, iw, ih, a = stats[i]
        if a < 0.0025 * h * w:
            continue
        icx = ix + iw / 2
        # accents: above the letter (or overlapping its top third), horizontally inside it
        if x - 0.1 * bw <= icx <= x + 1.1 * bw and iy + ih <= y + 0.3 * bh and iy + ih >= y - 0.45 * bh:
            keep.append(i)
            x0, y0, x1, y1 = min(x0, ix), min(y0, iy), max(x1, ix + iw), max(y1, iy + ih)
    sel = np.isin(labels[y0:y1, x0:x1], keep).astype(np.float32)
    gh, gw = sel.shape
    s = BOX / max(gh, gw)
    nw, nh = max(1, int(round(gw * s))), max(1, int(round(gh * s)))
    small = cv2.resize(sel, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((GLYPH, GLYPH), np.float32)
    ox, oy = (GLYPH - nw) // 2, (GLYPH - nh) // 2
    out[oy:oy + nh, ox:ox + nw] = small
    return Glyph(out, gw / gh, gh / h, float(sel.mean()), len(keep), contrast,
                 ((x0 + x1) / 2 / w, (y0 + y1) / 2 / h))


def hog(images: np.ndarray) -> np.ndarray:
    """HOG of a batch (n, 28, 28) float: 7-px cells, 2x2-cell blocks, 9 unsigned bins, L2-Hys."""
    n = images.shape[0]
    im = images.astype(np.float32)
    gx = np.zeros_like(im)
    gy = np.zeros_like(im)
    gx[:, :, 1:-1] = im[:, :, 2:] - im[:, :, :-2]
    gy[:, 1:-1, :] = im[:, 2:, :] - im[:, :-2, :]
    mag = np.hypot(gx, gy)
    ang = (np.arctan2(gy, gx) % np.pi) * (9 / np.pi) - 0.5       # bin coordinate
    b0 = np.floor(ang).astype(np.int64)
    f = ang - b0
    b0 %= 9
    b1 = (b0 + 1) % 9
    hist = np.zeros((n, 4, 4, 9), np.float32)
    cell = (np.arange(GLYPH) // 7)
    cy = np.broadcast_to(cell[None, :, None], im.shape)
    cx = np.broadcast_to(cell[None, None, :], im.shape)
    idx = np.broadcast_to(np.arange(n)[:, None, None], im.shape)
    flat = hist.reshape(-1)
    base = ((idx * 4 + cy) * 4 + cx) * 9
    np.add.at(flat, (base + b0).ravel(), (mag * (1 - f)).ravel())
    np.add.at(flat, (base + b1).ravel(), (mag * f).ravel())
    blocks = np.concatenate([hist[:, :-1, :-1], hist[:, :-1, 1:], hist[:, 1:, :-1], hist[:, 1:, 1:]], axis=3)
    blocks = blocks.reshape(n, 9, 36)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-3
    np.minimum(blocks, 0.2, out=blocks)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-3
    return blocks.reshape(n, _HOG_DIM)


FEATURE_DIM = _HOG_DIM + 196 + 5


def features(glyphs: list[Glyph]) -> np.ndarray:
    """Feature matrix (n, FEATURE_DIM) float32 for a list of glyphs."""
    if not glyphs:
        return np.zeros((0, FEATURE_DIM), np.float32)
    ims = np.stack([g.image for g in glyphs])
    out = np.empty((len(glyphs), FEATURE_DIM), np.float32)
    out[:, :_HOG_DIM] = hog(ims)
    out[:, _HOG_DIM:_HOG_DIM + 196] = ims.reshape(-1, 14, 2, 14, 2).mean(axis=(2, 4)).reshape(-1, 196)
    out[:, -5:] = [(np.log(g.aspect), g.height * 2, g.ink, (g.parts - 1) * 0.5,
                    np.hypot(g.centre[0] - 0.5, g.centre[1] - 0.5) * 2) for g in glyphs]
    return out


# --------------------------------------------------------------------------- model


class LetterModel:
    """The trained perceptron: ``classes`` (letters + ROT + NONE), normalisation, weights."""

    def __init__(self, classes: str, mean, std, w1, b1, w2, b2, info: dict | None = None):
        self.classes = classes
        self.mean = np.asarray(mean, np.float32)
        self.std = np.asarray(std, np.float32)
        self.w1, self.b1 = np.asarray(w1, np.float32), np.asarray(b1, np.float32)
        self.w2, self.b2 = np.asarray(w2, np.float32), np.asarray(b2, np.float32)
        self.info = info or {}
        self.index = {c: i for i, c in enumerate(classes)}

    # -- persistence
    @classmethod
    def load(cls, path: str | Path = MODEL_PATH) -> "LetterModel":
        try:
            z = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise VisionError(f"The letter model {path} is missing or damaged; "
                              "run calibration/train_letters.py to make it.", "no-model") from e
        info = {k[5:]: z[k].item() for k in z.files if k.startswith("info_")}
        return cls(str(z["classes"]), z["mean"], z["std"], z["w1"], z["b1"], z["w2"], z["b2"], info)

    def save(self, path: str | Path = MODEL_PATH) -> None:
        extra = {f"info_{k}": np.asarray(v) for k, v in self.info.items()}
        np.savez_compressed(path, classes=np.asarray(self.classes), mean=self.mean, std=self.std,
                            w1=self.w1.astype(np.float16), b1=self.b1, w2=self.w2.astype(np.float16),
                            b2=self.b2, **extra)

    # -- inference
    def hidden(self, x: np.ndarray) -> np.ndarray:
        z = (x - self.mean) / self.std
        return np.maximum(z @ self.w1 + self.b1, 0.0)

    def logits(self, x: np.ndarray) -> np.ndarray:
        return self.hidden(x) @ self.w2 + self.b2

    def probabilities(self, x: np.ndarray, letters: str | None = None) -> tuple[np.ndarray, str]:
        """Softmax over the classes allowed by ``letters`` (plus ROT and NONE)."""
        lg = self.logits(x)
        classes = self.classes
        if letters is not None:
            cols = [self.index[c] for c in _allowed(letters, self.classes)]
            lg = lg[:, cols]
            classes = "".join(self.classes[i] for i in cols)
        lg = lg - lg.max(axis=1, keepdims=True)
        p = np.exp(lg)
        return p / p.sum(axis=1, keepdims=True), classes


def _allowed(letters: str, classes: str) -> list[str]:
    ls = [c for c in dict.fromkeys(letters.upper()) if c in classes and c not in (ROT, NONE)]
    return ls + [ROT, NONE]


_DEFAULT: LetterModel | None = None


def default_model() -> LetterModel:
    """The committed model, loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = LetterModel.load()
    return _DEFAULT


@dataclass
class Prototypes:
    """Per-set examples: hidden-layer embeddings of the players' own tiles, with labels."""

    labels: list[str] = field(default_factory=list)
    vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))

    def add(self, label: str, vec: np.ndarray) -> None:
        v = np.asarray(vec, np.float32).reshape(1, -1)
        v = v / (np.linalg.norm(v) + 1e-6)
        self.vectors = v if self.vectors.size == 0 else np.vstack([self.vectors, v])
        self.labels.append(label)

    def __len__(self) -> int:
        return len(self.labels)


@dataclass
class LetterGuess:
    """What a crop shows: ``label`` is a letter, ROT, NONE, or '' (no ink at all)."""

    label: str
    confidence: float
    glyph: Glyph | None = None
    top: list[tuple[str, float]] = field(default_factory=list)


def classify_glyphs(glyphs: list[Glyph], letters: str, model: LetterModel | None = None,
                    prototypes: Prototypes | None = None, proto_weight: float = 0.6,
                    upright_only: bool = False) -> list[LetterGuess]:
    """Classify normalised glyphs; probabilities restricted to ``letters`` + ROT + NONE."""
    if not glyphs:
        return []
    model = model or default_model()
    x = features(glyphs)
    p, classes = model.probabilities(x, letters)
    if prototypes is not None and len(prototypes):
        p, classes = _mix_prototypes(model, x, p, classes, letters, prototypes, proto_weight)
    out = []
    for k, g in enumerate(glyphs):
        order = np.argsort(-p[k])[:3]
        top = [(classes[i], float(p[k, i])) for i in order]
        out.append(LetterGuess(top[0][0], top[0][1], g, top))
    return out


def _mix_prototypes(model, x, p, classes, letters, protos: Prototypes, weight: float):
    """Blend model probabilities with a nearest-prototype distribution (cosine, hidden space)."""
    h = model.hidden(x)
    h = h / (np.linalg.norm(h, axis=1, keepdims=True) + 1e-6)
    sim = h @ protos.vectors.T                      # (n, m)
    labels = list(dict.fromkeys(l for l in protos.labels))
    extra = [l for l in labels if l not in classes]
    if extra:                                      # letters known only from prototypes
        classes = classes[:-2] + "".join(extra) + classes[-2:]
        p = np.hstack([p[:, :-2], np.zeros((len(p), len(extra)), p.dtype), p[:, -2:]])
    best = np.full((len(x), len(classes)), -1.0, np.float32)
    col = {c: i for i, c in enumerate(classes)}
    for j, lab in enumerate(protos.labels):
        i = col.get(lab)
        if i is not None:
            best[:, i] = np.maximum(best[:, i], sim[:, j])
    # similarity -> distribution (sharp); classes without prototypes get nothing
    q = np.where(best > -1, np.exp((best - best.max(axis=1, keepdims=True)) * 25.0), 0.0)
    q /= q.sum(axis=1, keepdims=True) + 1e-9
    top_sim = best.max(axis=1, keepdims=True)
    # trust prototypes in proportion to how close the nearest one is
    w = weight * np.clip((top_sim - 0.5) / 0.4, 0.0, 1.0)
    mixed = (1 - w) * p + w * q
    return mixed / mixed.sum(axis=1, keepdims=True), classes


def classify_crop(crop: np.ndarray, letters: str, model: LetterModel | None = None,
                  prototypes: Prototypes | None = None) -> LetterGuess:
    """One crop -> LetterGuess (label '' when the crop has no ink)."""
    g = glyph_of(crop)
    if g is None:
        return LetterGuess("", 1.0, None, [])
    return classify_glyphs([g], letters, model, prototypes)[0]


# --------------------------------------------------------------------------- tesseract


def tesseract_classify(crop: np.ndarray, letters: str) -> tuple[str, float]:
    """Second opinion from tesseract (single-character mode, whitelist, Otsu).

    Returns ``(letter, confidence 0..1)`` or ``("", 0.0)``; slow (a process per call, ~0.1 s).
    """
    import pytesseract

    gray = to_gray(crop)
    mask, _ = binarise(gray)
    if mask is None:
        return "", 0.0
    img = np.where(mask > 0, 0, 255).astype(np.uint8)          # black ink on white
    img = cv2.copyMakeBorder(cv2.resize(img, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST),
                             16, 16, 16, 16, cv2.BORDER_CONSTANT, value=255)
    wl = "".join(dict.fromkeys(letters.upper()))
    cfg = f"--psm 10 --oem 1 -c tessedit_char_whitelist={wl}"
    try:
        d = pytesseract.image_to_data(img, config=cfg, lang="eng", output_type=pytesseract.Output.DICT)
    except Exception:  # tesseract missing or failing: no opinion
        return "", 0.0
    best = ("", 0.0)
    for t, c in zip(d.get("text", []), d.get("conf", [])):
        t = (t or "").strip().upper()
        try:
            c = float(c)
        except (TypeError, ValueError):
            continue
        if len(t) == 1 and t in wl and c / 100 > best[1]:
            best = (t, c / 100)
    return best
