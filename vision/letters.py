"""Letter recognition on tile crops: binarise, isolate the glyph, normalise, classify.

Pipeline for one square (a colour or grey crop of about one cell, any size >= 16 px):

1. ``glyph_of(crop)`` finds the letter: Otsu threshold, polarity from the crop's middle
   (the tile face is the majority there), connected components; the letter is the largest
   component near the middle plus accents above it (Ä Ö Ü Å Ñ); the small point value in the
   lower right and pieces of neighbouring tiles or grid lines are left out.  Returns ``None``
   when there is no ink (an empty square, a blank tile).
2. The glyph is scaled (aspect kept) into a 28x28 box; ``features`` = HOG + 14x14 pixels +
   shape numbers (aspect, size in the cell, components).
3. A small CNN (numpy, weights in ``vision/models/letters.npz``, trained by
   ``calibration/train_letters.py`` on rendered tiles only; a two-layer perceptron on the
   features above can be trained instead) gives a probability for every letter of the trained
   alphabet and for two "not a letter" classes: ``ROT`` (a letter on its side or upside down:
   used to find which side of the board is up) and ``NONE`` (ink that is not a letter:
   premium-square print, the centre star, grain, a hand's edge).  The file holds a second fit
   of the network, asked about the letters the first doubts (``LetterModel.second``).
4. Optional per-set prototypes (``vision/models`` is generic; a :class:`Prototypes` set comes
   from the players' own tiles, see ``calibration/set_profile.py``) are mixed in by nearest
   neighbour in the perceptron's hidden space.

The alphabet is a parameter: ``LetterModel.classify(..., letters="ABC...ÄÖÜ")`` restricts the
answer to the letters of the tile set in play.  Letters the model was not trained on can only
come from prototypes (or tesseract, see ``tesseract_classify``).  Nothing here knows game rules.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision import onnx_cnn
from vision.errors import VisionError

GLYPH = 28          # normalised glyph side
BOX = 20            # the glyph's larger side inside the 28x28 square
ROT = "^"           # class: a letter that is not upright
NONE = "~"          # class: ink that is not a letter
MODEL_PATH = Path(__file__).resolve().parent / "models" / "letters.npz"
# A glyph whose best class the model gives less than this is read by the second fit too (see
# LetterModel.second): where one fit is sure the two nearly always agree, and asking only about
# the doubtful glyphs keeps a first frame's cost (a full second pass costs ~10 ms a board).
SECOND_OPINION_BELOW = 0.9
VALUE_MODEL_PATH = Path(__file__).resolve().parent / "models" / "values.npz"
MARK_GROW = 1.35      # a twin's mark window: its letter's box grown this much (mark_window)
MARKS_MODEL_PATH = Path(__file__).resolve().parent / "models" / "marks.npz"
VALUE_CLASSES = "123456789T" + NONE     # point values 1-10 (T = 10), and "no value there"

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
    """Grey version of a crop that keeps the letter's contrast.

    Luma, unless the middle of the crop is nearly flat in luma and one colour channel shows
    much more contrast there (a red letter on a green tile, say).
    """
    if crop.ndim == 2:
        return crop if crop.dtype == np.uint8 else np.clip(crop, 0, 255).astype(np.uint8)
    if crop.shape[2] == 4:
        crop = crop[:, :, :3]
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    y0, x0 = int(h * _MID), int(w * _MID)
    spread = _spread(gray[y0:h - y0, x0:w - x0])
    if spread >= 60:
        return gray
    best = gray
    for ch in cv2.split(crop):
        s = _spread(ch[y0:h - y0, x0:w - x0])
        if s > spread * 1.4:
            best, spread = ch, s
    return best


FLAT_WIDE, FLAT_LOW = 0.6, 0.35   # a component this wide and this low (of the crop) is no letter
SHIFTED_INSIDE = 0.4               # share inside the square enough for a component centred in it
THRESHOLD_AT = 0.25   # ink threshold, as a fraction of the strongest ink in the crop's middle
_MID = 0.26   # the "middle" of a crop: this fraction is cut from each side


def _spread(a: np.ndarray) -> float:
    lo, hi = np.percentile(a, (5, 95))
    return float(hi - lo)


def ink_image(gray: np.ndarray, polarity: int, k: int) -> np.ndarray:
    """Ink strength: black-hat (dark ink, ``polarity`` +1) or top-hat (light ink, -1).

    With a disc of ``k`` px (about a third of a crop): strokes narrower than that stand out
    from their own surroundings, so thin or blurred strokes survive and uneven light does not
    matter.  Works on a single crop or on a whole rectified board at once.
    """
    k |= 1
    if gray.shape[0] * gray.shape[1] < _BY_RECTANGLES_FROM:
        return cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT if polarity > 0 else cv2.MORPH_TOPHAT, _disc(k))
    if polarity > 0:       # black-hat: the closing less the picture
        return cv2.subtract(_by_disc(_by_disc(gray, k, cv2.dilate), k, cv2.erode), gray)
    return cv2.subtract(gray, _by_disc(_by_disc(gray, k, cv2.erode), k, cv2.dilate))


# A whole board's top/black-hat (a 610 px picture, a 19 px disc) is 3-4 times faster through the
# disc's rectangles than through OpenCV's morphology with the disc itself, the same to the last
# pixel; a single crop's is not worth the extra calls
_BY_RECTANGLES_FROM = 200 * 200


@lru_cache(maxsize=64)
def _disc_rectangles(k: int) -> tuple[np.ndarray, ...]:
    """Kernels of the rectangles whose union is :func:`_disc` ``(k)``: for each half-width a row
    of the disc has, the rows at least that wide (a band about the middle, the disc being convex
    and symmetric)."""
    d = _disc(k)
    r = k // 2
    half = [int(np.nonzero(d[y])[0][-1]) - r for y in range(k)]
    out = []
    for w in sorted(set(half)):
        h = max(abs(y - r) for y in range(k) if half[y] >= w)
        out.append(np.ones((2 * h + 1, 2 * w + 1), np.uint8))
    return tuple(out)


def _by_disc(img: np.ndarray, k: int, op) -> np.ndarray:
    """``op`` (cv2.dilate or cv2.erode) of ``img`` by the disc of ``k`` px: dilating by a union of
    shapes is the largest of dilating by each (eroding, the smallest), and OpenCV dilates by a
    rectangle in two fast one-dimensional passes.  Pixels past the picture's edge are left out,
    as OpenCV's own morphology leaves them."""
    keep = np.maximum if op is cv2.dilate else np.minimum
    out = None
    for kernel in _disc_rectangles(k):
        a = op(img, kernel)
        out = a if out is None else keep(out, a, out=out)
    return out


def disc_size(crop_side: int) -> int:
    return max(5, int(round(0.36 * crop_side)) | 1)


def binarise(gray: np.ndarray, min_contrast: float = 28.0,
             polarity: int | None = None) -> tuple[np.ndarray | None, float]:
    """Ink mask (uint8 0/1) and ink strength; ``None`` when the crop is flat (no ink).

    The threshold is a fraction of the strongest ink in the middle of the crop (where the
    letter is).  ``polarity``: +1 dark ink on a light face, -1 light ink, None = guess.
    """
    h, w = gray.shape
    if polarity is None:
        polarity = guess_polarity(gray)
    return ink_mask(ink_image(gray, polarity, disc_size(min(h, w))), min_contrast)


def ink_mask(ink: np.ndarray, min_contrast: float = 28.0) -> tuple[np.ndarray | None, float]:
    h, w = ink.shape
    y0, x0 = int(h * _MID), int(w * _MID)
    mid = ink[y0:h - y0, x0:w - x0].ravel()
    k = min(len(mid) - 1, int(round(0.98 * (len(mid) - 1))))
    strong = float(np.partition(mid, k)[k])          # 98th percentile
    if strong < min_contrast:
        return None, strong
    return (ink > THRESHOLD_AT * strong).astype(np.uint8), strong


def guess_polarity(gray: np.ndarray) -> int:
    """+1 (dark ink) or -1 (light ink) for a lone crop, from an Otsu split (see _polarity)."""
    h, w = gray.shape
    y0, x0 = int(h * _MID), int(w * _MID)
    t, _ = cv2.threshold(gray[y0:h - y0, x0:w - x0], 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return _polarity((gray > t).astype(np.uint8))


@lru_cache(maxsize=64)
def _disc(k: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def _polarity(mask: np.ndarray) -> int:
    """+1 if the ink is darker than the face, -1 if lighter, from a 0/1 mask (1 = light).

    A guess for a lone crop: the face is the majority of the crop's outer ring and of its
    middle; the ring counts more, since a bold letter can fill half of a tight crop's middle.
    Board reading does not rely on it: it tries both and keeps the one that reads better.
    """
    h, w = mask.shape
    r = max(1, min(h, w) // 8)
    ring = np.concatenate([mask[:r].ravel(), mask[-r:].ravel(), mask[r:-r, :r].ravel(), mask[r:-r, -r:].ravel()])
    m0, m1 = h // 5, w // 5
    light = 0.6 * ring.mean() + 0.4 * mask[m0:h - m0, m1:w - m1].mean()
    return 1 if light > 0.5 else -1


def glyph_of(crop: np.ndarray, polarity: int | None = None, min_contrast: float = 28.0,
             gray: np.ndarray | None = None, board: bool = False) -> Glyph | None:
    """The normalised letter of a crop, or ``None`` when there is no letter-sized ink.

    ``board=True`` for crops cut by the reader (a square plus a margin): long straight lines
    near the crop's sides (tile edges, grid lines) are removed first.  Leave it False for
    tight crops of a single tile, where the letter itself may run along a side.
    """
    if gray is None:
        gray = to_gray(crop)
    mask, contrast = _crop_mask(gray, polarity, min_contrast, board)
    return None if mask is None else _glyph_from_mask(mask, contrast, marks_at_edge=not board)


MIN_CROP_SIDE = 12      # px: a crop smaller either way is refused as too small to read


def _crop_mask(gray: np.ndarray, polarity: int | None, min_contrast: float, board: bool) -> tuple[np.ndarray | None, float]:
    """:func:`glyph_of`'s ink mask of a crop (less a board crop's edge lines) and ink strength."""
    h, w = gray.shape[:2]
    if h < MIN_CROP_SIDE or w < MIN_CROP_SIDE:
        raise VisionError("The picture of the tile is too small to read.", "bad-input")
    mask, contrast = binarise(gray, min_contrast, polarity)
    if mask is not None and board:
        mask = _drop_edge_lines(mask)
    return mask, contrast


# A crop already in black and white (a scan thresholded by someone else: the real crops in
# ../shared have 6 grey levels, 0/64/127/128/191/255) has lost a high-contrast face's hairlines
# for good: a Times-like L's foot comes apart from its stem, a G's jaw from its bowl, an X's thin
# stroke from its thick one.  In a colour crop those hairlines are faint ink that the usual cut
# keeps; here they are gaps, and the letter model reads the stem alone as I.
BW_LEVELS = 8           # a crop of at most this many grey levels is taken as black and white
BRIDGE = 0.1            # the closing that bridges a hairline's gap: this share of the crop's side


def is_black_and_white(gray: np.ndarray) -> bool:
    """Whether a crop is already thresholded (at most BW_LEVELS grey levels): a photo or a
    rendered picture has dozens."""
    return len(np.unique(gray)) <= BW_LEVELS


def bridged_glyph(mask: np.ndarray, contrast: float, board: bool = False) -> Glyph | None:
    """The glyph of a black-and-white crop's ink ``mask`` (:func:`_crop_mask`) with the gaps of
    lost hairlines bridged: the mask closed by a disc of BRIDGE of the crop's side (5 px on a
    36 px crop) before the letter's components are chosen.  None where the closing changes
    nothing (the usual glyph is the same)."""
    h, w = mask.shape[:2]
    k = max(3, int(round(BRIDGE * min(h, w))) | 1)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(k))
    if np.array_equal(closed, mask):
        return None
    return _glyph_from_mask(closed, contrast, marks_at_edge=not board)


def _cut_mask(ink: np.ndarray, min_contrast: float, board: bool) -> tuple[np.ndarray | None, float]:
    """The ink mask letters are cut from (:func:`ink_mask`), less a board crop's edge lines."""
    mask, contrast = ink_mask(ink, min_contrast)
    if mask is not None and board:
        mask = _drop_edge_lines(mask)
    return mask, contrast


def glyph_from_ink(ink: np.ndarray, min_contrast: float = 28.0, board: bool = True) -> Glyph | None:
    """Like :func:`glyph_of`, from an ink-strength crop (see :func:`ink_image`)."""
    mask, contrast = _cut_mask(ink, min_contrast, board)
    return None if mask is None else _glyph_from_mask(mask, contrast)


def other_glyphs(ink: np.ndarray, min_contrast: float = 28.0, board: bool = True, most: int = 2) -> list[Glyph]:
    """The glyphs built around the components that scored next after the letter's (ranks 1 to
    ``most``), from the same ink as :func:`glyph_from_ink`: when a tile sits off its square, its
    edge (and the point value on it) can outscore the letter, which is then one of these."""
    mask, contrast = _cut_mask(ink, min_contrast, board)
    if mask is None:
        return []
    out = []
    labelled = _labelled(mask)           # one labelling for every rank
    for rank in range(1, most + 1):
        found = _parts_of(*labelled, rank)
        if found is None:
            break
        labels, comps, keep, _ = found
        out.append(_normalise(labels, comps, keep, mask.shape, contrast))
    return out


def glyph_cuts(ink: np.ndarray, min_contrast: float = 28.0, board: bool = True,
               most: int = 2, marks: bool = True) -> list[tuple[int, Glyph]]:
    """Other ways to cut the letter from an ink-strength crop, for a letter in doubt, each as
    (rank, glyph): rank 0, the letter's component without the pieces joined to it
    (:func:`_pieces`), when any were; ranks 1 to ``most``, the glyphs built around the
    components that scored next (:func:`other_glyphs`), each also without its pieces.
    ``marks``: the alphabet has letters with separate marks (Ä, Å, Ś): the marks found above
    a letter stay with it; without such letters a mark there is a stray piece and goes too.

    In a crowded corner of a board a big letter's neighbours reach into its crop: the next
    tile's letter, level with this one and a gap away, passes for a piece of a broken letter (an
    H joined to a W's first stroke), and the square's own letter can lose to a neighbour's edge."""
    mask, contrast = _cut_mask(ink, min_contrast, board)
    if mask is None:
        return []
    out: list[tuple[int, Glyph]] = []
    labelled = _labelled(mask)           # one labelling for every rank and cut
    for rank in range(most + 1):
        whole = _parts_of(*labelled, rank)
        if whole is None:
            break
        labels, comps, keep, _ = whole
        if rank:
            out.append((rank, _normalise(labels, comps, keep, mask.shape, contrast)))
        core = _parts_of(*labelled, rank, pieces=False)[2] if marks else keep[:1]
        if len(core) < len(keep):
            out.append((rank, _normalise(labels, comps, core, mask.shape, contrast)))
    return out


def glyph_variants(ink: np.ndarray, thresholds, min_contrast: float = 28.0, board: bool = True,
                   pieces: bool = True) -> list[Glyph]:
    """The letter cut again from an ink-strength crop at other thresholds (fractions of the
    strongest ink, :data:`THRESHOLD_AT` being the usual one): thinner and bolder versions of the
    same strokes, for a second look at a letter in doubt.  ``pieces`` False: the letter's main
    component and its accents only, no broken-off pieces joined (:func:`_pieces`)."""
    _, strong = ink_mask(ink, min_contrast)
    if strong < min_contrast:
        return []
    out = []
    for t in thresholds:
        mask = (ink > t * strong).astype(np.uint8)
        g = _glyph_from_mask(_drop_edge_lines(mask) if board else mask, strong, pieces=pieces)
        if g is not None:
            out.append(g)
    return out


# Board crops cut in one go (:func:`glyphs_from_inks`) from this many: fewer are cut one by one.
BATCH_MIN = 4


def glyph_variants_of(inks: list[np.ndarray], thresholds, min_contrast: float = 28.0) -> list[list[Glyph]]:
    """``[glyph_variants(ink, thresholds, min_contrast) for ink in inks]`` (board crops), the
    same glyphs in the same order, each threshold's cut made for all the crops in one go
    (:func:`glyphs_from_inks`): fewer, larger OpenCV and numpy calls for the reader's second
    looks at the letters in doubt (five thresholds each); ~1 % of a first frame on the speed
    frames, where such letters are few."""
    out: list[list[Glyph]] = [[] for _ in inks]
    if not inks:
        return out
    for t in thresholds:
        for cuts, g in zip(out, glyphs_from_inks(inks, min_contrast, t)):
            if g is not None:
                cuts.append(g)
    return out


def glyphs_from_inks(inks: list[np.ndarray], min_contrast: float = 28.0,
                     threshold: float = THRESHOLD_AT, pieces: bool = True) -> list[Glyph | None]:
    """``[glyph_from_ink(ink, min_contrast) for ink in inks]`` (board crops, all of one square
    size), the same glyphs to the bit, made in one go; with another ``threshold`` (a fraction of
    each crop's strongest ink) or ``pieces`` False, the glyph :func:`glyph_variants` cuts so, or
    None.

    A board's first picture cuts some 70 letters; one by one, most of each crop's ~0.2 ms went
    on a dozen small OpenCV and numpy calls, each with its fixed cost (and caches gone cold
    between them in the reader: ~0.3 ms a crop there).  Here the crops are stacked into one
    tall picture, a blank band between them, and
    each step (threshold, edge lines, the face's regions and hull, the components) is one call
    over the stack; only the choice of the letter's components is made crop by crop, as before.
    The bands are an even number of rows apart, so OpenCV's labelling (which works on 2x2
    blocks) numbers each crop's components in the order it numbers them in the crop alone:
    ties are broken the same way."""
    if len(inks) < BATCH_MIN or len({x.shape for x in inks}) > 1 or inks[0].shape[0] != inks[0].shape[1]:
        if threshold == THRESHOLD_AT and pieces:
            return [glyph_from_ink(x, min_contrast) for x in inks]
        return [next(iter(glyph_variants(x, (threshold,), min_contrast=min_contrast, pieces=pieces)), None)
                for x in inks]
    stack = np.stack(inks)
    n, h, w = stack.shape
    y0, x0 = int(h * _MID), int(w * _MID)
    mid = stack[:, y0:h - y0, x0:w - x0].reshape(n, -1)
    k = min(mid.shape[1] - 1, int(round(0.98 * (mid.shape[1] - 1))))
    strong = np.partition(mid, k, axis=1)[:, k].astype(np.float64)          # as ink_mask, crop by crop
    out: list[Glyph | None] = [None] * n
    live = np.flatnonzero(strong >= min_contrast)
    if not len(live):
        return out
    at = threshold * strong[live]
    if stack.dtype.kind == "f":       # compared in the ink's own precision, as ink_mask compares
        at = at.astype(stack.dtype)
    masks = (stack[live] > at[:, None, None]).astype(np.uint8)
    masks = _drop_edge_lines_stacked(masks)
    m = len(masks)
    pitch = h + (2 if h % 2 == 0 else 1)            # an even step: 2x2 blocks fall alike in every crop
    faces = _face_hulls_stacked(masks, pitch)
    cut = masks & faces
    has_face = faces.reshape(m, -1).max(axis=1) > 0
    in_mid = masks[:, y0:h - y0, x0:w - x0].reshape(m, -1).sum(axis=1)
    cut_mid = cut[:, y0:h - y0, x0:w - x0].reshape(m, -1).sum(axis=1)
    # a tight crop (letter touching the sides) has no face around the letter: keep all
    masks = np.where((has_face & (cut_mid >= 0.8 * in_mid))[:, None, None], cut, masks)
    tall = np.zeros((m, pitch, w), np.uint8)
    tall[:, :h] = masks
    _, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(tall.reshape(-1, w), 8, cv2.CV_32S,
                                                                         cv2.CCL_DEFAULT)
    labels = labels.reshape(m, pitch, w)
    rows = stats.tolist()
    band = max(1, int(round(0.1 * min(h, w))))
    in_counts = np.bincount(labels[:, band:h - band, band:w - band].ravel(), minlength=len(rows)).tolist()
    # each crop's components are numbered one after another: crop j holds labels first[j]..first[j+1]-1
    first = np.searchsorted(stats[1:, cv2.CC_STAT_TOP] // pitch, np.arange(m + 1)) + 1
    for j in range(m):
        a, b = int(first[j]), int(first[j + 1])
        if b == a:
            continue
        top = j * pitch
        comps = [[0, 0, 0, 0, 0]] + [[x, y - top, bw, bh, area] for x, y, bw, bh, area in rows[a:b]]
        local = np.maximum(labels[j, :h] - (a - 1), 0)
        found = _parts_of(local, comps, pieces=pieces, in_count=[0] + in_counts[a:b])
        if found is not None:
            lab, comps, keep, _ = found
            out[int(live[j])] = _normalise(lab, comps, keep, (h, w), float(strong[live[j]]))
    return out


def _drop_edge_lines_stacked(masks: np.ndarray) -> np.ndarray:
    """:func:`_drop_edge_lines` of each of ``masks`` (n, side, side), in one go: an opening by
    a line one pixel high works row by row, so the bands' rows and (turned) columns of every
    crop are opened in one call, eroded first (most crops have no line: done there)."""
    n, h, w = masks.shape
    lh, bh = max(3, int(0.6 * w)), int(0.35 * h)
    turned = masks.transpose(0, 2, 1)
    bands = np.concatenate([masks[:, :bh], masks[:, h - bh:], turned[:, :bh], turned[:, w - bh:]], axis=1)
    kernel = _line(lh)
    eroded = cv2.erode(bands.reshape(-1, w), kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    eroded = eroded.reshape(n, 4 * bh, w)
    lined = np.flatnonzero(eroded.reshape(n, -1).max(axis=1))
    if not len(lined):
        return masks
    opened = cv2.dilate(eroded[lined].reshape(-1, w), kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    opened = opened.reshape(len(lined), 4 * bh, w)
    lines = np.zeros((len(lined), h + 1, w), np.uint8)        # a blank row apart: grown alone
    lines[:, :bh], lines[:, h - bh:h] = opened[:, :bh], opened[:, bh:2 * bh]
    lines[:, :h, :bh] |= opened[:, 2 * bh:3 * bh].transpose(0, 2, 1)
    lines[:, :h, w - bh:] |= opened[:, 3 * bh:].transpose(0, 2, 1)
    grown = cv2.dilate(lines.reshape(-1, w), _K3).reshape(len(lined), h + 1, w)[:, :h]
    masks = masks.copy()
    masks[lined] &= grown ^ 1
    return masks


def _face_hulls_stacked(masks: np.ndarray, pitch: int) -> np.ndarray:
    """:func:`_face_hull` of each of ``masks`` (n, h, w), in one go: zeros where it has none."""
    n, h, w = masks.shape
    inv = np.zeros((n, pitch, w), np.uint8)
    inv[:, :h] = masks ^ 1
    count, lab = cv2.connectedComponentsWithAlgorithm(inv.reshape(-1, w), 4, cv2.CV_32S, cv2.CCL_DEFAULT)
    lab3 = lab.reshape(n, pitch, w)
    area = np.bincount(lab.ravel(), minlength=count)
    # labels run crop after crop: each crop owns those up to its largest
    last = np.maximum.accumulate(lab3[:, :h].reshape(n, -1).max(axis=1))
    owner = np.r_[n, np.repeat(np.arange(n), np.diff(np.r_[0, last]))]      # label 0: no crop's
    y0, x0 = int(h * _MID), int(w * _MID)
    reaches = np.zeros(count, bool)
    reaches[lab3[:, y0:h - y0, x0:w - x0]] = True
    reaches[0] = False
    cand = np.flatnonzero(reaches)
    hulls = np.zeros((n * pitch, w), np.uint8)
    if not len(cand):
        return hulls.reshape(n, pitch, w)[:, :h]
    # each crop's face: the largest region reaching its middle, the first label on a tie
    order = cand[np.lexsort((cand, -area[cand], owner[cand]))]
    whose = owner[order]
    faces = order[np.r_[True, whose[1:] != whose[:-1]]]
    is_face = np.zeros(count, np.uint8)
    is_face[faces] = 1
    contours, _ = cv2.findContours(is_face[lab], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    by_crop: dict[int, list] = {}
    for c in contours:
        by_crop.setdefault(int(c[0, 0, 1]) // pitch, []).append(c)
    for cs in by_crop.values():
        cv2.fillConvexPoly(hulls, cv2.convexHull(cs[0] if len(cs) == 1 else np.vstack(cs)), 1)
    return hulls.reshape(n, pitch, w)[:, :h]


def _drop_edge_lines(mask: np.ndarray) -> np.ndarray:
    """Clear horizontal/vertical runs longer than 0.6 of the crop in its outer 35% bands.

    A run counts only the pixels inside the crop: with OpenCV's default border an opening
    counts everything past the crop's side as ink, so a letter's stroke reaching the side (a
    tile sitting off its square, a large font) was taken for a line and cut away."""
    h, w = mask.shape
    lh, lw = max(3, int(0.6 * w)), max(3, int(0.6 * h))
    bh, bw = int(0.35 * h), int(0.35 * w)
    if h == w:                   # a board square: as the stacked crops are (one opening for both ways)
        return _drop_edge_lines_stacked(mask[None])[0]
    hor = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _line(lh), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    ver = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _line(lw).T.copy(), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    hor[bh:h - bh] = 0
    ver[:, bw:w - bw] = 0
    if not hor.any() and not ver.any():
        return mask
    # dilate by one pixel so the anti-aliased fringe of the line goes too
    return cv2.subtract(mask, cv2.dilate(hor | ver, _K3))


@lru_cache(maxsize=64)
def _line(k: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1))


_K3 = np.ones((3, 3), np.uint8)


def _face_hull(mask: np.ndarray) -> np.ndarray | None:
    """Convex hull (0/1) of the face: the largest non-ink region in the middle of the crop.

    Ink outside it (grid lines, the gap and shadow around a tile, neighbours) is not the letter.
    """
    h, w = mask.shape
    # labels alone, areas counted from them: OpenCV's statistics cost twice the labelling
    n, lab = cv2.connectedComponentsWithAlgorithm(mask ^ 1, 4, cv2.CV_16U, cv2.CCL_DEFAULT)
    if n <= 1:
        return None
    y0, x0 = int(h * _MID), int(w * _MID)
    counts = np.bincount(lab[y0:h - y0, x0:w - x0].ravel(), minlength=n).tolist()
    area = np.bincount(lab.ravel(), minlength=n).tolist()
    # the face reaches the middle and is the largest such region (not a letter's counter)
    face, face_area = 0, 0
    for i in range(1, n):
        if counts[i] > 0 and area[i] > face_area:
            face, face_area = i, area[i]
    if face == 0:
        return None
    cs, _ = cv2.findContours((lab == face).view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(cs[0] if len(cs) == 1 else np.vstack(cs))
    out = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(out, hull, 1)
    return out


def _glyph_from_mask(mask: np.ndarray, contrast: float, marks_at_edge: bool = False,
                     pieces: bool = True) -> Glyph | None:
    found = _letter_parts(mask, pieces=pieces, marks_at_edge=marks_at_edge)
    if found is None:
        return None
    labels, comps, keep, _ = found
    return _normalise(labels, comps, keep, mask.shape, contrast)


def _letter_parts(mask: np.ndarray, rank: int = 0, pieces: bool = True, marks_at_edge: bool = False):
    """(labels, component stats as lists, the letter's components, in-middle counts), or None.

    The letter is the largest central component, plus accents above it and the pieces of a
    broken letter (:func:`_pieces`; not with ``pieces`` False).  ``rank`` 1, 2, ...: built
    around the component that scored next instead (see :func:`other_glyphs`); None when there
    is no such component."""
    return _parts_of(*_labelled(mask), rank, pieces, marks_at_edge)


def _labelled(mask: np.ndarray) -> tuple[np.ndarray, list]:
    """(labels, OpenCV's statistics rows as lists) of the mask's ink within the face's hull
    (:func:`_face_hull`), what :func:`_parts_of` chooses the letter's components from."""
    h, w = mask.shape
    hull = _face_hull(mask)
    if hull is not None:
        y0, x0 = int(h * _MID), int(w * _MID)
        cut = mask & hull
        # a tight crop (letter touching the sides) has no face around the letter: keep all
        if cv2.countNonZero(cut[y0:h - y0, x0:w - x0]) >= 0.8 * cv2.countNonZero(mask[y0:h - y0, x0:w - x0]):
            mask = cut
    # 16-bit labels: OpenCV's statistics come twice as fast with them (a crop has a handful)
    n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_16U, cv2.CCL_DEFAULT)
    return labels, stats.tolist()


def _parts_of(labels: np.ndarray, comps: list, rank: int = 0, pieces: bool = True, marks_at_edge: bool = False,
              in_count: list | None = None):
    """:func:`_letter_parts` from the crop's labelled components (``comps``: OpenCV's statistics
    rows as lists, the background's first; ``in_count``: each one's pixels inside the crop's
    outer tenth, counted here when not given)."""
    n = len(comps)
    if n <= 1:
        return None
    h, w = labels.shape
    band = max(1, int(round(0.1 * min(h, w))))
    if in_count is None:
        in_count = np.bincount(labels[band:h - band, band:w - band].ravel(), minlength=n).tolist()
    # a crop has a handful of components: plain Python over them is several times faster than
    # numpy on arrays this small (same float64 arithmetic, same choice).  Only those of an
    # accent's size or more are looked at (most are specks): each test below asks at least that
    speck = 0.0025 * h * w
    sized = [i for i in range(1, n) if comps[i][4] >= speck]
    side = min(h, w)
    thin = [False] * n
    scores = []
    for i in sized:
        X, Y, BW, BH, A = comps[i]
        thin[i] = min(BW, BH) < 0.1 * side and max(BW, BH) > 0.6 * side and BH < 0.5 * h
        # mostly inside the square, or (a tile sitting off its square) centred in it with a fair part
        inside = in_count[i] >= 0.55 * A or (in_count[i] >= SHIFTED_INSIDE * A and band <= X + BW / 2 <= w - band
                                              and band <= Y + BH / 2 <= h - band)
        if not (A >= 0.012 * h * w and BH >= 0.2 * h and inside) \
                or (BW > 0.92 * w and BH > 0.92 * h and A < 0.45 * BW * BH):   # not a frame around the tile
            continue
        d = math.hypot((X + BW / 2 - w / 2.0) / w, (Y + BH / 2 - h / 2.0) / h)
        # a thin line, or a flat one (wider than any letter, lower than one: a shifted tile's
        # edge with the point value on it), is a letter only when nothing else is
        flat = BW > FLAT_WIDE * w and BH < FLAT_LOW * h
        score = in_count[i] * max(0.05, 1.0 - 1.8 * d) * (0.3 if thin[i] or flat else 1.0)
        if score > 0:
            scores.append((score, -i))
    if len(scores) <= rank:
        return None
    # the highest score, the first component on a tie (as a running maximum would keep)
    best = -sorted(scores, reverse=True)[rank][1] if rank else -max(scores)[1]
    x, y, bw, bh, _ = comps[best]
    keep = [best]
    # accents: above the letter (or over its top third), horizontally inside it
    for i in sized:
        X, Y, BW, BH, A = comps[i]
        icx = X + BW / 2
        if i != best and A >= 0.0025 * h * w and (marks_at_edge or in_count[i] >= 0.9 * A) and x - 0.1 * bw <= icx <= x + 1.1 * bw \
                and y - 0.45 * bh <= Y + BH <= y + 0.3 * bh and BH < 0.6 * bh and BW < 0.85 * bw and BW < 3.5 * BH:
            keep.append(i)
    if pieces:
        keep += _pieces(labels, comps, in_count, best, h, w, thin, sized)
    return labels, comps, keep, in_count


def _box(comps, keep) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) around the components ``keep`` (stats rows as lists)."""
    if len(keep) == 1:
        x, y, bw, bh = comps[keep[0]][:4]
        return x, y, x + bw, y + bh
    return (min(comps[i][0] for i in keep), min(comps[i][1] for i in keep),
            max(comps[i][0] + comps[i][2] for i in keep), max(comps[i][1] + comps[i][3] for i in keep))


def _normalise(labels, comps, keep, shape, contrast: float) -> Glyph:
    """The components ``keep`` of ``labels`` scaled (aspect kept) into the GLYPH box."""
    h, w = shape
    x0, y0, x1, y1 = _box(comps, keep)
    sub = labels[y0:y1, x0:x1]
    if len(keep) == 1:
        sel = sub == keep[0]
    else:
        lut = np.zeros(len(comps), bool)
        lut[keep] = True
        sel = lut[sub]
    gh, gw = sel.shape
    # the ink share as numpy's float32 mean of the 0/1 picture made it: the components' areas
    # (all inside their box; an accent can be kept twice, as a piece too) over the box,
    # rounded to float32 (through float64: exact here)
    ink = float(np.float32(sum(comps[i][4] for i in set(keep)) / (gh * gw)))
    s = BOX / max(gh, gw)
    nw, nh = max(1, int(round(gw * s))), max(1, int(round(gh * s)))
    small = cv2.resize(sel.view(np.uint8).astype(np.float32), (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((GLYPH, GLYPH), np.float32)
    ox, oy = (GLYPH - nw) // 2, (GLYPH - nh) // 2
    out[oy:oy + nh, ox:ox + nw] = small
    return Glyph(out, gw / gh, gh / h, ink, len(keep), contrast,
                 ((x0 + x1) / 2 / w, (y0 + y1) / 2 / h))


def value_glyph_of(gray: np.ndarray, polarity: int, min_contrast: float = 28.0, board: bool = True,
                   letter: Glyph | None = None, ink: np.ndarray | None = None) -> Glyph | None:
    """The ink where a tile's point value is printed, for the value model; None without a letter.

    A fixed window beside and below the letter's lower-right corner (half a letter height
    right and down from its centre, 0.8 x 0.6 letter heights), in grey ink, scaled into the
    GLYPH square.  Not the digits' own components: the digits are a few pixels tall and often
    run into the letter's strokes, so cutting them out loses half of them; the model learns to
    read them in their window, strokes and all.

    ``letter``: the letter's glyph already found in this crop (:func:`glyph_of`, same polarity
    and contrast floor): its box is taken from it instead of finding the letter again, which is
    most of the cost; the window is the same.  ``ink``: the crop's :func:`ink_image`, when
    already made for the letter.
    """
    h, w = gray.shape[:2]
    if ink is None:
        ink = ink_image(gray, polarity, disc_size(min(h, w)))
    if letter is not None:
        contrast = letter.contrast
        # the glyph keeps its box as fractions of the crop: back to the same whole pixels
        lh = max(1, int(round(letter.height * h)))
        mx, my = round(2 * letter.centre[0] * w) / 2, round(2 * letter.centre[1] * h) / 2
    else:
        mask, contrast = ink_mask(ink, min_contrast)
        if mask is None:
            return None
        if board:
            mask = _drop_edge_lines(mask)
        found = _letter_parts(mask)
        if found is None:
            return None
        _, comps, keep, _ = found
        lx0, ly0, lx1, ly1 = _box(comps, keep)
        lh = max(1, ly1 - ly0)
        mx, my = (lx0 + lx1) / 2, (ly0 + ly1) / 2
    cx, cy = mx + 0.5 * lh, my + 0.5 * lh
    x0, x1 = int(round(cx - 0.4 * lh)), int(round(cx + 0.4 * lh))
    y0, y1 = int(round(cy - 0.3 * lh)), int(round(cy + 0.3 * lh))
    win = np.zeros((y1 - y0, x1 - x0), np.float32)
    sx0, sy0, sx1, sy1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if sx1 - sx0 < 2 or sy1 - sy0 < 2:
        return None
    win[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = np.clip(ink[sy0:sy1, sx0:sx1].astype(np.float32) / max(contrast, 1.0), 0, 1)
    out = np.zeros((GLYPH, GLYPH), np.float32)
    out[4:24, 1:27] = cv2.resize(win, (26, 20), interpolation=cv2.INTER_AREA)
    return Glyph(out, (x1 - x0) / (y1 - y0), lh / h, float(win.mean()), 1, contrast, (cx / w, cy / h))


def _pieces(labels, comps, in_count, best, h, w, thin, sized) -> list[int]:
    """Other components that belong to the letter ``best``: worn or thinly printed letters
    break when binarised (a W into two Vs, an N into its strokes, a Q's tail off its bowl).

    Two kinds are joined, growing from the main part:
    - side pieces: nearly as tall as the letter, level with it, a small gap beside it;
    - touching pieces: within about a pixel of the letter's ink and starting inside its box
      (a tail, a serif).
    A point value is neither: it is short and sits apart from the letter's strokes.
    """
    n = len(comps)
    side = min(h, w)
    # a tight crop cuts a broken letter's outer strokes at its sides: pieces may lie
    # mostly in the outer band (a stray mark must still be mostly inside it)
    cands = [i for i in sized if i != best and comps[i][4] >= 0.003 * h * w
             and in_count[i] >= 0.15 * comps[i][4] and not thin[i]
             and not (comps[i][2] > 0.92 * w and comps[i][3] > 0.92 * h)]
    if not cands:
        return []
    r = max(1, int(round(0.025 * side)))
    keep: list[int] = []
    x0, y0, bw, bh = comps[best][:4]
    x1, y1 = x0 + bw, y0 + bh
    for _ in range(3):
        grown = list(keep)          # "near" is measured from the letter as it was at this pass
        near = None
        added = False
        for i in cands:
            if i in keep:
                continue
            Xi, Yi, BWi, BHi, Ai = comps[i]
            gap_x = max(0.0, max(Xi - x1, x0 - (Xi + BWi)))
            ov_y = min(y1, Yi + BHi) - max(y0, Yi)
            is_side = (BHi >= 0.7 * bh) and (ov_y >= 0.8 * BHi) and (gap_x <= 0.12 * side) \
                and (Ai >= 0.01 * h * w)
            # a touching piece starts inside the letter's box (a tail, a serif); a point value
            # printed close by sits outside it
            ov_x = min(x1, Xi + BWi) - max(x0, Xi)
            inside = max(0.0, ov_x) * max(0.0, ov_y) >= 0.3 * BWi * BHi
            if not is_side:
                if not (inside and in_count[i] >= 0.55 * Ai):
                    continue
                if near is None:       # components within r px of the letter's ink (computed once)
                    if grown:
                        lut = np.zeros(n, np.uint8)
                        lut[[best] + grown] = 1
                        base = lut[labels]
                    else:
                        base = (labels == best).view(np.uint8)
                    near = np.bincount(labels[cv2.dilate(base, _disc(2 * r + 1)) > 0], minlength=n) > 0
                if not near[i]:
                    continue
            nx0, ny0 = min(x0, Xi), min(y0, Yi)
            nx1, ny1 = max(x1, Xi + BWi), max(y1, Yi + BHi)
            if ny1 - ny0 > 1.35 * bh and not is_side:     # not a long way above or below it
                continue
            keep.append(i)
            x0, y0, x1, y1 = nx0, ny0, nx1, ny1
            added = True
        if not added:
            break
    return keep


_ORIENT = np.stack([np.cos(np.arange(9) * np.pi / 9), np.sin(np.arange(9) * np.pi / 9)], axis=1).astype(np.float32)
_POOL = np.zeros((GLYPH * GLYPH, 16), np.float32)          # pixel -> 7x7 cell
for _y in range(GLYPH):
    for _x in range(GLYPH):
        _POOL[_y * GLYPH + _x, (_y // 7) * 4 + _x // 7] = 1.0


def hog(images: np.ndarray) -> np.ndarray:
    """HOG-like descriptor of a batch (n, 28, 28): 7-px cells, 2x2-cell blocks, 9 orientations.

    Orientation "bins" are soft: a gradient adds ``|g| cos^4(angle - bin)`` to every bin (two
    small matrix products instead of arctan and scatter); blocks are L2-Hys normalised.
    """
    n = images.shape[0]
    im = images.astype(np.float32, copy=False).reshape(n, GLYPH, GLYPH)
    g = np.zeros((2, n, GLYPH, GLYPH), np.float32)
    g[0, :, :, 1:-1] = im[:, :, 2:] - im[:, :, :-2]
    g[1, :, 1:-1, :] = im[:, 2:, :] - im[:, :-2, :]
    g = g.reshape(2, -1)
    proj = _ORIENT @ g                                     # (9, n*784) = |g| cos(angle - bin)
    m2 = (g * g).sum(axis=0) + 1e-6
    proj *= proj
    proj *= proj
    proj /= m2 * np.sqrt(m2)                               # |g| cos^4
    hist = (proj.reshape(9 * n, GLYPH * GLYPH) @ _POOL).reshape(9, n, 4, 4).transpose(1, 2, 3, 0)
    blocks = np.concatenate([hist[:, :-1, :-1], hist[:, :-1, 1:], hist[:, 1:, :-1], hist[:, 1:, 1:]], axis=3)
    blocks = blocks.reshape(n, 9, 36)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-3
    np.minimum(blocks, 0.2, out=blocks)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-3
    return blocks.reshape(n, _HOG_DIM)


FEATURE_DIM = _HOG_DIM + 196 + 5


def glyph_meta(g: Glyph) -> tuple[float, float, float, float, float]:
    """The shape numbers that go with the image into the features."""
    return (np.log(g.aspect), g.height * 2, g.ink, (g.parts - 1) * 0.5,
            np.hypot(g.centre[0] - 0.5, g.centre[1] - 0.5) * 2)


def features_from(images: np.ndarray, meta: np.ndarray) -> np.ndarray:
    """Feature matrix from stacked glyph images (n, 28, 28) and meta rows (n, 5)."""
    n = len(images)
    out = np.empty((n, FEATURE_DIM), np.float32)
    if n == 0:
        return out
    out[:, :_HOG_DIM] = hog(images)
    out[:, _HOG_DIM:_HOG_DIM + 196] = images.reshape(-1, 14, 2, 14, 2).mean(axis=(2, 4)).reshape(-1, 196)
    out[:, -5:] = meta
    return out


def features(glyphs: list[Glyph]) -> np.ndarray:
    """Feature matrix (n, FEATURE_DIM) float32 for a list of glyphs."""
    if not glyphs:
        return np.zeros((0, FEATURE_DIM), np.float32)
    return features_from(np.stack([g.image for g in glyphs]), np.array([glyph_meta(g) for g in glyphs], np.float32))


# --------------------------------------------------------------------------- small CNN

C1, C2, FC = 12, 24, 128      # default conv channels and hidden width (a model's own are in its weights)


def im2col(x: np.ndarray, k: int) -> np.ndarray:
    """(B, H, W, C) -> (B*H*W, k*k*C) patches ordered (ky, kx, c), 'same' zero padding."""
    b, h, w, c = x.shape
    p = k // 2
    xp = np.zeros((b, h + 2 * p, w + 2 * p, c), np.float32)
    xp[:, p:p + h, p:p + w] = x
    if c > 1:   # one strided copy (about twice as fast as k*k slices for many channels)
        v = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(1, 2))     # (b, h, w, c, k, k)
        return np.ascontiguousarray(v.transpose(0, 1, 2, 4, 5, 3)).reshape(b * h * w, k * k * c)
    cols = np.concatenate([xp[:, dy:dy + h, dx:dx + w] for dy in range(k) for dx in range(k)], axis=3)
    return cols.reshape(b * h * w, k * k * c)


def maxpool2(x: np.ndarray) -> np.ndarray:
    return np.maximum(np.maximum(x[:, 0::2, 0::2], x[:, 1::2, 0::2]), np.maximum(x[:, 0::2, 1::2], x[:, 1::2, 1::2]))


def cnn_forward(params: dict, images: np.ndarray, meta: np.ndarray, cache: bool = False):
    """Logits (B, classes) of the CNN and its hidden layer; with ``cache`` the activations
    for training instead (glyph-major layout, what the numpy trainer's backward pass reads)."""
    if not cache:
        return _cnn_infer(params, images, meta)
    b = len(images)
    x = images.reshape(b, GLYPH, GLYPH, 1).astype(np.float32, copy=False)
    c1 = im2col(x, 5)
    c1n, c2n = params["k1"].shape[1], params["k2"].shape[1]
    a1 = np.maximum(c1 @ params["k1"] + params["b1"], 0).reshape(b, GLYPH, GLYPH, c1n)
    p1 = maxpool2(a1)                                          # (B,14,14,C1)
    c2 = im2col(p1, 3)
    a2 = np.maximum(c2 @ params["k2"] + params["b2"], 0).reshape(b, 14, 14, c2n)
    p2 = maxpool2(a2)                                          # (B,7,7,C2)
    f = np.concatenate([p2.reshape(b, -1), (meta - params["mmean"]) / params["mstd"]], axis=1)
    h = np.maximum(f @ params["w3"] + params["b3"], 0)
    logits = h @ params["w4"] + params["b4"]
    if cache:
        return logits, dict(c1=c1, a1=a1, p1=p1, c2=c2, a2=a2, p2=p2, f=f, h=h)
    return logits, h


def _cnn_infer(params: dict, images: np.ndarray, meta: np.ndarray):
    """The same network as :func:`cnn_forward`, laid out channel-major for reading: each
    convolution is one (out x k*k*in) @ (k*k*in x pixels) product whose patch rows are
    filled by whole-block copies.  About 2-3x faster than the glyph-major layout on one core
    (fewer, larger, contiguous copies); the same numbers.  (OpenCV's filter2D for the first
    layer, one call per channel, was slower on a first frame's small batches.)"""
    b, g = len(images), GLYPH
    k1t, k2t = params["k1"].T, params["k2"].T                  # (C1, 25), (C2, 9*C1)
    c1n, c2n = k1t.shape[0], k2t.shape[0]
    xp = np.zeros((b, g + 4, g + 4), np.float32)
    xp[:, 2:2 + g, 2:2 + g] = images.reshape(b, g, g)
    c1 = np.empty((25, b, g, g), np.float32)
    for dy in range(5):
        for dx in range(5):
            c1[dy * 5 + dx] = xp[:, dy:dy + g, dx:dx + g]
    a1 = (k1t @ c1.reshape(25, -1)).reshape(c1n, b, g, g)
    # pooled before the bias and ReLU: both are monotonic and the bias is one number a channel,
    # so max(relu(x + b)) = relu(max(x) + b) exactly, on a quarter of the values
    h2 = g // 2
    pp = np.zeros((c1n, b, h2 + 2, h2 + 2), np.float32)
    p1 = pp[:, :, 1:1 + h2, 1:1 + h2]
    np.maximum(np.maximum(a1[:, :, 0::2, 0::2], a1[:, :, 1::2, 0::2]),
               np.maximum(a1[:, :, 0::2, 1::2], a1[:, :, 1::2, 1::2]), out=p1)
    p1 += params["b1"][:, None, None, None]
    np.maximum(p1, 0, out=p1)
    c2 = np.empty((9, c1n, b, h2, h2), np.float32)
    for dy in range(3):
        for dx in range(3):
            c2[dy * 3 + dx] = pp[:, :, dy:dy + h2, dx:dx + h2]
    a2 = (k2t @ c2.reshape(9 * c1n, -1)).reshape(c2n, b, h2, h2)
    p2 = np.maximum(np.maximum(a2[:, :, 0::2, 0::2], a2[:, :, 1::2, 0::2]),
                    np.maximum(a2[:, :, 0::2, 1::2], a2[:, :, 1::2, 1::2]))     # (C2, B, 7, 7)
    p2 += params["b2"][:, None, None, None]
    np.maximum(p2, 0, out=p2)
    f = np.concatenate([p2.transpose(1, 2, 3, 0).reshape(b, -1), (meta - params["mmean"]) / params["mstd"]], axis=1)
    h = np.maximum(f @ params["w3"] + params["b3"], 0)
    return h @ params["w4"] + params["b4"], h


# --------------------------------------------------------------------------- model


_CHUNK = 16        # glyphs per CNN batch when reading


class LetterModel:
    """The trained classifier: ``classes`` (letters + ROT + NONE) and its weights.

    ``kind`` "cnn" (the default model: two conv layers on the 28x28 glyph plus the shape
    numbers) or "mlp" (a perceptron on HOG + pixel features).
    """

    def __init__(self, classes: str, params: dict, kind: str = "cnn", info: dict | None = None,
                 second: "LetterModel | None" = None):
        self.classes = classes
        self.kind = kind
        self.params = {k: np.asarray(v, np.float32) for k, v in params.items()}
        self.info = info or {}
        self.index = {c: i for i, c in enumerate(classes)}
        if second is not None and second.classes != classes:
            raise VisionError("The letter model's second opinion was trained on other letters; "
                              "train both again with calibration/train_letters.py.", "no-model")
        # another fit of the same network (other start, glyphs augmented otherwise): its
        # log-probabilities are averaged with this one's for the glyphs this one doubts.  Two
        # fits err on different glyphs; together they read the real crops better than either
        self.second = second
        # the network in onnxruntime (vision.onnx_cnn): None until the process has read enough
        # glyphs for its start to pay, False where it is not available
        self._onnx = None

    # -- persistence
    @classmethod
    def load(cls, path: str | Path = MODEL_PATH) -> "LetterModel":
        try:
            z = np.load(path, allow_pickle=False)
            info = {k[5:]: z[k].item() for k in z.files if k.startswith("info_")}
            params = {k[2:]: z[k] for k in z.files if k.startswith("p_")}
            classes, kind = str(z["classes"]), str(z["kind"])
            second = None
            if any(k.startswith("s_") for k in z.files):
                second = cls(classes, {k[2:]: z[k] for k in z.files if k.startswith("s_")}, kind,
                             {k[6:]: z[k].item() for k in z.files if k.startswith("sinfo_")})
            return cls(classes, params, kind, info, second)
        except (OSError, ValueError, KeyError) as e:
            raise VisionError(f"The letter model {path} is missing or damaged; "
                              "run calibration/train_letters.py to make it.", "no-model") from e

    def save(self, path: str | Path = MODEL_PATH) -> None:
        extra = {f"info_{k}": np.asarray(v) for k, v in self.info.items()}
        ps = {f"p_{k}": (v.astype(np.float16) if v.size > 4096 else v) for k, v in self.params.items()}
        if self.second is not None:             # the second fit travels in the same file
            extra.update({f"sinfo_{k}": np.asarray(v) for k, v in self.second.info.items()})
            ps.update({f"s_{k}": (v.astype(np.float16) if v.size > 4096 else v)
                       for k, v in self.second.params.items()})
        np.savez_compressed(path, classes=np.asarray(self.classes), kind=np.asarray(self.kind), **ps, **extra)

    # -- inference
    def forward(self, images: np.ndarray, meta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(logits, hidden-layer embedding) for glyph images (n, 28, 28) and meta rows (n, 5).

        With a :attr:`second` fit, a glyph this fit takes for a letter (ROT and NONE together
        under a half) but whose best class is under ``SECOND_OPINION_BELOW`` gets the mean of
        the two fits' log-probabilities as its logits (their softmax is the two fits'
        normalised geometric mean); the embedding is always this fit's, so per-set prototypes
        do not depend on the second fit.
        """
        logits, hidden = self._forward(images, meta)
        if self.second is None or not len(logits):
            return logits, hidden
        own = log_softmax(logits)
        # a doubtful *letter* only: whether ink is a letter at all (ROT, NONE: the last two
        # classes) stays this fit's call, which the square model was trained on
        not_letter = np.exp(own[:, -2:]).sum(axis=1)
        doubt = (own.max(axis=1) < math.log(SECOND_OPINION_BELOW)) & (not_letter < 0.5)
        if doubt.any():
            other = log_softmax(self.second._forward(images[doubt], meta[doubt])[0])
            own[doubt] = 0.5 * (own[doubt] + other)
        return own, hidden

    def start_fast_reader(self) -> None:
        """Read with onnxruntime from now on where it is available (:mod:`vision.onnx_cnn`),
        without waiting for the glyph count that starts it: for a caller that knows many small
        reads are coming (a batch of crops read in eight poses)."""
        if self.kind == "cnn" and self._onnx is None and onnx_cnn.available():
            self._onnx = onnx_cnn.session_for(self.params) or False
        if self.second is not None:
            self.second.start_fast_reader()

    def _forward(self, images: np.ndarray, meta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.params
        if self.kind == "cnn":
            if self._onnx is None and onnx_cnn.worth_starting(len(images)):
                self._onnx = onnx_cnn.session_for(p) or False
            if self._onnx and len(images):
                return self._onnx(images, meta)
            if len(images) <= _CHUNK:
                return cnn_forward(p, images, meta)
            # in small batches: the im2col matrices of a big one (tens of MB) cost more in fresh
            # memory than in arithmetic (about 35 % slower for 125 glyphs)
            parts = [cnn_forward(p, images[i:i + _CHUNK], meta[i:i + _CHUNK]) for i in range(0, len(images), _CHUNK)]
            return np.concatenate([a for a, _ in parts]), np.concatenate([h for _, h in parts])
        x = features_from(images, meta)
        h = np.maximum(((x - p["mean"]) / p["std"]) @ p["w1"] + p["b1"], 0.0)
        return h @ p["w2"] + p["b2"], h

    def probabilities(self, images: np.ndarray, meta: np.ndarray, letters: str | None = None,
                      logits: np.ndarray | None = None, upright: bool = True) -> tuple[np.ndarray, str]:
        """Softmax over the classes allowed by ``letters`` plus ROT and NONE (last two columns).

        ``upright=True`` (reading, once the board's orientation is known): a tile is not turned,
        so the ROT class is given no weight and the rest renormalised; ROT stays in the returned
        classes with probability 0.  ``upright=False`` for scoring orientations.
        """
        lg = self.forward(images, meta)[0] if logits is None else logits
        classes = self.classes
        if letters is not None:
            cols = [self.index[c] for c in _allowed(letters, self.classes)]
            lg = lg[:, cols]
            classes = "".join(self.classes[i] for i in cols)
        lg = lg - lg.max(axis=1, keepdims=True)
        p = np.exp(lg)
        if upright:
            p[:, classes.index(ROT)] = 0.0
        return p / p.sum(axis=1, keepdims=True), classes


def log_softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise log of the softmax of logits ``z`` (n, classes), without overflow."""
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


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


def value_class(value: int) -> str | None:
    """The value model's class for a point value (1-10), None for values it cannot read."""
    return {10: "T"}.get(value, str(value) if 1 <= value <= 9 else None)


@lru_cache(maxsize=1)
def default_value_model() -> LetterModel | None:
    """The committed point-value model (``calibration/train_values.py``), or None when absent:
    values then simply are not read."""
    try:
        return LetterModel.load(VALUE_MODEL_PATH)
    except VisionError:
        return None


@lru_cache(maxsize=1)
def default_marks_model() -> LetterModel | None:
    """The committed twins' mark model (``calibration/train_marks.py``), or None when absent:
    twins are then told apart by the letter model and their values alone."""
    try:
        return LetterModel.load(MARKS_MODEL_PATH)
    except VisionError:
        return None


def mark_window(ink: np.ndarray, g: Glyph, grow: float = MARK_GROW) -> np.ndarray:
    """GLYPH x GLYPH float32 in [0, 1]: the grey ink of a square's crop (``ink``:
    :meth:`vision.read.Analysis.ink_crop`) over the square round its letter ``g``'s box,
    ``grow`` times the box's longer side, scaled by its 98th percentile -- not cut at a
    threshold, so a mark the cut runs into its letter (an ogonek into a bold foot) or drops
    (a faint dot) still shows as the grey it is."""
    s = ink.shape[0]
    h = g.height * s
    side = max(h, g.aspect * h) * grow
    cx, cy = g.centre[0] * s, g.centre[1] * s
    src = np.float32([[cx - side / 2, cy - side / 2], [cx + side / 2, cy - side / 2], [cx - side / 2, cy + side / 2]])
    m = cv2.getAffineTransform(src, np.float32([[0, 0], [GLYPH, 0], [0, GLYPH]]))
    win = cv2.warpAffine(ink.astype(np.float32), m, (GLYPH, GLYPH),
                         flags=cv2.INTER_AREA if side > GLYPH else cv2.INTER_LINEAR, borderValue=0)
    top = float(np.percentile(win, 98))
    return np.clip(win / max(top, 1.0), 0, 1).astype(np.float32)


def mark_probabilities(windows: list[np.ndarray], glyphs: list[Glyph], model: LetterModel) -> np.ndarray:
    """(n, len(model.classes)) probabilities of each twin letter for :func:`mark_window` windows
    and their letters' glyphs (whose shape numbers go with them)."""
    if not windows:
        return np.zeros((0, len(model.classes)), np.float32)
    return np.exp(log_softmax(model.forward(np.stack(windows), np.array([glyph_meta(g) for g in glyphs], np.float32))[0]))


def value_probabilities(glyphs: list[Glyph], model: LetterModel) -> np.ndarray:
    """(n, len(VALUE_CLASSES)) probabilities of each point value (and of "no value")."""
    if not glyphs:
        return np.zeros((0, len(VALUE_CLASSES)), np.float32)
    ims, meta = stack(glyphs)
    z = model.forward(ims, meta)[0]
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def _pix(ims: np.ndarray) -> np.ndarray:
    """Blurred 14x14 glyph pixels, unit length: a font-agnostic shape vector."""
    n = len(ims)
    small = ims.reshape(n, 14, 2, 14, 2).mean(axis=(2, 4))
    small = np.stack([cv2.GaussianBlur(a, (3, 3), 0.8) for a in small]).reshape(n, -1)
    small -= small.mean(axis=1, keepdims=True)
    return small / (np.linalg.norm(small, axis=1, keepdims=True) + 1e-6)


@dataclass
class Prototypes:
    """Per-set examples of the players' own tiles: model embeddings and glyph shapes, with labels.

    Similarity of a glyph to a prototype = mean of the cosine in the model's hidden layer and
    the correlation of blurred glyph pixels (the latter still works for a font the model has
    never seen).
    """

    labels: list[str] = field(default_factory=list)
    vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    pixels: np.ndarray = field(default_factory=lambda: np.zeros((0, 196), np.float32))

    @classmethod
    def of(cls, labels: list[str], hidden: np.ndarray, images: np.ndarray) -> "Prototypes":
        """Prototypes of glyphs already read: their labels, hidden-layer vectors and images."""
        v = np.asarray(hidden, np.float32)
        return cls(list(labels), v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-6),
                   _pix(np.asarray(images, np.float32)))

    def add(self, label: str, hidden: np.ndarray, image: np.ndarray) -> None:
        v = np.asarray(hidden, np.float32).reshape(1, -1)
        v = v / (np.linalg.norm(v) + 1e-6)
        px = _pix(np.asarray(image, np.float32).reshape(1, GLYPH, GLYPH))
        self.vectors = v if self.vectors.size == 0 else np.vstack([self.vectors, v])
        self.pixels = px if len(self.labels) == 0 else np.vstack([self.pixels, px])
        self.labels.append(label)

    def similarity(self, hidden: np.ndarray, images: np.ndarray) -> np.ndarray:
        h = hidden / (np.linalg.norm(hidden, axis=1, keepdims=True) + 1e-6)
        return 0.5 * (h @ self.vectors.T) + 0.5 * (_pix(images) @ self.pixels.T)

    def __len__(self) -> int:
        return len(self.labels)


@dataclass
class LetterGuess:
    """What a crop shows: ``label`` is a letter, ROT, NONE, or '' (no ink at all)."""

    label: str
    confidence: float
    glyph: Glyph | None = None
    top: list[tuple[str, float]] = field(default_factory=list)
    # (the grey crop the glyph was cut from, the ink's polarity, cut as a board square): where
    # the tile's printed value is looked for (:func:`value_glyph_of`)
    cut: tuple | None = None


def stack(glyphs: list[Glyph]) -> tuple[np.ndarray, np.ndarray]:
    """Glyph images (n, 28, 28) float32 and meta rows (n, 5)."""
    if not glyphs:
        return np.zeros((0, GLYPH, GLYPH), np.float32), np.zeros((0, 5), np.float32)
    return np.stack([g.image for g in glyphs]), np.array([glyph_meta(g) for g in glyphs], np.float32)


def classify_glyphs(glyphs: list[Glyph], letters: str, model: LetterModel | None = None,
                    prototypes: Prototypes | None = None, proto_weight: float = 0.7) -> list[LetterGuess]:
    """Classify normalised glyphs; probabilities restricted to ``letters`` + ROT + NONE."""
    if not glyphs:
        return []
    p, classes = glyph_probabilities(glyphs, letters, model, prototypes, proto_weight)
    out = []
    for k, g in enumerate(glyphs):
        order = np.argsort(-p[k])[:3]
        top = [(classes[i], float(p[k, i])) for i in order]
        out.append(LetterGuess(top[0][0], top[0][1], g, top))
    return out


def glyph_probabilities(glyphs: list[Glyph], letters: str, model: LetterModel | None = None,
                        prototypes: Prototypes | None = None, proto_weight: float = 0.7) -> tuple[np.ndarray, str]:
    """(probabilities (n, classes), classes) of glyphs, as :func:`classify_glyphs` reads them:
    the classes are ``letters`` (and any letter known only from the prototypes), ROT, NONE."""
    model = model or default_model()
    ims, meta = stack(glyphs)
    logits, hid = model.forward(ims, meta)
    p, classes = model.probabilities(ims, meta, letters, logits=logits)
    if prototypes is not None and len(prototypes):
        p, classes = _mix_prototypes(prototypes.similarity(hid, ims), p, classes, prototypes, proto_weight)
    return p, classes


def embed(glyphs: list[Glyph], model: LetterModel | None = None) -> np.ndarray:
    """Hidden-layer vectors of glyphs (what per-set prototypes are compared in)."""
    model = model or default_model()
    ims, meta = stack(glyphs)
    return model.forward(ims, meta)[1]


def _mix_prototypes(sim, p, classes, protos: "Prototypes", weight: float):
    """Blend model probabilities with a nearest-prototype distribution (``sim``: (n, m))."""
    labels = list(dict.fromkeys(protos.labels))
    extra = [l for l in labels if l not in classes]
    if extra:                                      # letters known only from prototypes
        classes = classes[:-2] + "".join(extra) + classes[-2:]
        p = np.hstack([p[:, :-2], np.zeros((len(p), len(extra)), p.dtype), p[:, -2:]])
    best = np.full((len(sim), len(classes)), -1.0, np.float32)
    col = {c: i for i, c in enumerate(classes)}
    for j, lab in enumerate(protos.labels):
        i = col.get(lab)
        if i is not None:
            best[:, i] = np.maximum(best[:, i], sim[:, j])
    # similarity -> distribution (sharp); classes without prototypes get nothing
    q = np.where(best > -1, np.exp((best - best.max(axis=1, keepdims=True)) * 30.0), 0.0)
    q /= q.sum(axis=1, keepdims=True) + 1e-9
    top_sim = best.max(axis=1, keepdims=True)
    # trust prototypes in proportion to how close the nearest one is
    w = weight * np.clip((top_sim - 0.6) / 0.3, 0.0, 1.0)
    mixed = (1 - w) * p + w * q
    return mixed / mixed.sum(axis=1, keepdims=True), classes


def classify_crop(crop: np.ndarray, letters: str, model: LetterModel | None = None,
                  prototypes: Prototypes | None = None, polarity: int | None = None,
                  board: bool = False, bridge: bool = False) -> LetterGuess:
    """One crop -> LetterGuess (label '' when the crop has no ink).

    Without ``polarity`` both (dark ink, light ink) are tried and the reading with the more
    confident letter is kept: a wrong polarity gives a blob the model calls NONE.

    ``bridge`` (a black-and-white crop, :func:`is_black_and_white`): each polarity's letter is
    also read with its lost hairlines' gaps bridged (:func:`bridged_glyph`), and that reading
    is kept where it is a surer letter -- but only in a polarity whose usual cut reads a
    letter: bridged, the print of an empty square and the grid round it close into blobs that
    read as letters (on rendered crops, empty squares read as a letter 2.5 -> 6.0 % when the
    bridged cut could stand alone).
    """
    gray = to_gray(crop)
    glyphs, pols, bridged = [], [], []
    for pol in ((polarity,) if polarity else (1, -1)):
        mask, contrast = _crop_mask(gray, pol, 28.0, board)
        g = None if mask is None else _glyph_from_mask(mask, contrast, marks_at_edge=not board)
        if g is not None:
            glyphs.append(g)
            pols.append(pol)
            joined = bridged_glyph(mask, contrast, board) if bridge else None
            if joined is not None:
                bridged.append((len(glyphs) - 1, joined))
    if not glyphs:
        return LetterGuess("", 1.0, None, [])
    read = classify_glyphs(glyphs + [g for _, g in bridged], letters, model, prototypes)
    guesses = read[:len(glyphs)]
    if len(guesses) == 2 and all(q.label in (ROT, NONE) for q in guesses):
        # no letter either way (a star, print): keep the ink of the polarity the crop's
        # face suggests, not the blob between the strokes of the other
        return guesses[pols.index(guess_polarity(gray))]
    for q, pol in zip(read, pols + [pols[i] for i, _ in bridged]):
        q.cut = (gray, pol, board)
    best = max(guesses, key=lambda q: (q.label not in (ROT, NONE), q.confidence))
    for (i, _), q in zip(bridged, read[len(glyphs):]):
        if guesses[i].label not in (ROT, NONE) and q.label not in (ROT, NONE) and q.confidence > best.confidence:
            best = q
    return best


# A lone crop's framing is not known: a tight cut of the tile, the square with some board round
# it, or a wider cut with the neighbours' edges and letters at its sides.  The letter model
# learnt letters as the board reader cuts them (a square and 12 % past its sides, BOARD_CROP px),
# so a crop framed otherwise is also read as such crops: given that margin (a tight cut), as it
# is but with the board's lines dropped (a square with a margin), and cut to its middle (a wider
# cut).  Read only as cut, a square with 15 % of the board round it read 78-80 % of rendered
# letters (the tile's edges and the board passed for the letter), with 30 % 63-71 %.  A cut with
# half a square of board each way shows the neighbours' letters in every framing but the
# narrowest, so its one right framing had no second (90-94 % of rendered letters read): the
# crop's middle half is read too where a framed letter lacks only that (99 %).  Read always, it
# made the print of more empty squares into letters (tuning seeds 44440-44450).
BOARD_CROP = 50                                 # = vision.read.crop_size(): the reader's crops
LONE_FRAMINGS = (1.24, 1.0, 0.8, 0.65)          # >1: margin added (x side); <=1: middle kept
NARROWEST = 0.5         # ... and this middle, read only to second a framed letter no other framing reads
AS_CUT_LEAD = 0.2       # the crop read as cut wins unless another framing is this much surer
FRAMINGS_AGREE = 2      # ... and at least this many framings read that other letter
FRAMED_FLOOR = 0.5      # ... and it reads at least this surely (a premium square's print did not)
MARKS_SURE = 0.95       # both middle framings read the as-cut letter with marks this surely: that letter


def framed(crop: np.ndarray, framing: float, side: int = BOARD_CROP) -> np.ndarray:
    """The crop seen as the board reader frames a square, ``side`` px: ``framing`` > 1 adds
    a margin (replicated edge) of (framing - 1) / 2 of the crop's side each way, <= 1 keeps
    that fraction of its middle."""
    h, w = crop.shape[:2]
    if framing > 1:
        p = int(round((framing - 1) / 2 * max(h, w)))
        crop = cv2.copyMakeBorder(crop, p, p, p, p, cv2.BORDER_REPLICATE)
    elif framing < 1:
        ch, cw = max(1, int(round(framing * h))), max(1, int(round(framing * w)))
        y0, x0 = (h - ch) // 2, (w - cw) // 2
        crop = crop[y0:y0 + ch, x0:x0 + cw]
    shrink = crop.shape[0] > side
    return cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


# A lone crop may be a phone's photo of one tile, thousands of pixels wide.  Its letter is read at
# a few dozen pixels either way (the glyph at 28, the framings at BOARD_CROP), but the ink picture
# (a top-hat with a disc a third of the crop wide) grows with the square of its side and more: 0.14
# s at 500 px, 1.8 s at 1,000, a minute for a 3,000 px photo read in its eight poses.  Larger crops
# are shrunk to this first (every crop the benchmarks cut is smaller: their figures are unchanged).
LONE_MAX_SIDE = 256


def at_most(img: np.ndarray, side: int) -> np.ndarray:
    """``img`` shrunk (area average, aspect kept) so that its longer side is at most ``side``."""
    h, w = img.shape[:2]
    if max(h, w) <= side:
        return img
    f = side / max(h, w)
    return cv2.resize(img, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)


def classify_lone_crop(crop: np.ndarray, letters: str, model: LetterModel | None = None,
                       prototypes: Prototypes | None = None, polarity: int | None = None) -> LetterGuess:
    """:func:`classify_crop` for a crop whose framing and tilt are unknown (``companion vision
    classify``): read as it is (:func:`_read_framed`), and where the crop's edges say it is tilted
    (:func:`tilt_of`: a box cut round a tile in a photo not square to the board), turned upright
    (:func:`turned_upright`) and read again.  The turned reading is kept when it is a letter and
    the tilt was measured surely (TILT_SURE) or it reads TURNED_LEAD surer; where the crop as it is
    reads no letter, when the turned one reads a letter TURNED_FLOOR surely (an empty square's
    print, turned upright, reads as letters).  A dim crop (:func:`stretched`) is read with its
    levels stretched first, kept by the same rule (:func:`_other_reading_kept`); where that is not
    kept and could still be replaced, stretched and smoothed (a 3 px median: a very dim crop's
    stretched noise)."""
    model = model or default_model()
    crop = at_most(crop, LONE_MAX_SIDE)
    gray = to_gray(crop)
    bridge = is_black_and_white(gray)
    as_is = _read_framed(crop, letters, model, prototypes, polarity, bridge)
    brighter = stretched(crop)
    if brighter is not None and _replaceable(as_is, sure=False, lead=TURNED_LEAD):
        lit = _read_framed(brighter, letters, model, prototypes, polarity, bridge)
        if _other_reading_kept(as_is, lit, sure=False, lead=TURNED_LEAD):
            crop, gray, as_is = brighter, to_gray(brighter), lit
        else:
            # stretched, a very dim crop's sensor noise is stretched too, and speckles the face
            # into ink the letter's cut cannot part from its strokes: the same, smoothed
            smooth = cv2.medianBlur(brighter, 3)
            calm = _read_framed(smooth, letters, model, prototypes, polarity, bridge)
            if _other_reading_kept(as_is, calm, sure=False, lead=TURNED_LEAD):
                crop, gray, as_is = smooth, to_gray(smooth), calm
    angle, sureness = tilt_of(gray)
    # a letter turned 15 degrees or more, as it is, reads whatever it reads at 0.85-0.88 as often
    # as not: there the turned letter needs no lead, only to be surer
    sure, lead = sureness >= TILT_SURE, (0.0 if abs(angle) >= TILT_BIG and sureness >= TILT_FAIR else TURNED_LEAD)
    if abs(angle) < TILT_MIN or not _replaceable(as_is, sure, lead):
        return as_is
    upright = turned_upright(crop, angle)    # a black-and-white crop turns grey at its edges: still bridged
    if min(upright.shape[:2]) < MIN_CROP_SIDE:
        return as_is                  # a crop just big enough to read: turned, it is not
    turned = _read_framed(upright, letters, model, prototypes, polarity, bridge)
    return turned if _other_reading_kept(as_is, turned, sure, lead) else as_is


# Crops handed over together (a folder cut from one photo, one camera's pictures) lie in one pose:
# cut from a picture of a board turned a quarter turn in it (the quanyuan frames show their board
# so), or from a mirroring camera's, every letter lies turned or mirrored alike.  The letter model
# learnt upright letters (turned ones it calls ROT); read as they are, such crops are mostly
# another letter or none.  One crop's surest pose is no guide (an upright O, H or S reads as
# surely turned, an A or a W mirrored: the surest of the eight poses is another on 29-43 % of
# upright crops), but a batch's is: the pose in which its letters read surest on average, by a
# clear lead over reading them as they are.  Chosen on tuning crops (the jheidel crops and
# rendered tiles of seeds 46000 / 46010, each read in its eight poses, then random batches of
# them laid in each pose): upright batches of 5 crops or more never taken for another pose;
# batches laid otherwise found 96-99 % of the time from 8 crops, 99.7-100 % from 24 (74-91 % at 5).
POSES = 8               # four quarter turns, each as it is and mirrored (pose = mirrored * 4 + turns)
POSE_MIN_CROPS = 5      # fewer crops than this are read as they are: too few to tell a pose
POSE_SAMPLE = 24        # at most this many crops (spread through the batch) vote on its pose
POSE_LEAD = 0.1         # mean sureness a pose must add to the crops as they are, 8 crops or more
POSE_LEAD_FEW = 0.2     # ... under 8 crops
POSE_VOTER = 0.5        # a crop votes where it reads a letter this surely in some pose (not an empty square)


def in_pose(crop: np.ndarray, pose: int) -> np.ndarray:
    """``crop`` mirrored left to right where ``pose`` >= 4, then turned ``pose % 4`` quarter
    turns anticlockwise (``np.rot90``): a letter lying a quarter turn clockwise in the crop
    reads upright in pose 1."""
    if not 0 <= pose < POSES:
        raise ValueError(f"no such pose: {pose}")
    if pose >= 4:
        crop = crop[:, ::-1]
    return np.ascontiguousarray(np.rot90(crop, pose % 4))


def pose_sureness(crop: np.ndarray, letters: str, model: LetterModel | None = None,
                  prototypes: Prototypes | None = None, polarity: int | None = None,
                  poses=range(POSES)) -> np.ndarray:
    """(POSES,) how surely ``crop`` reads as a letter in each of ``poses`` (:func:`in_pose`; the
    rest 0): the letter's confidence (:func:`classify_lone_crop`), 0 where it reads no letter."""
    out = np.zeros(POSES)
    crop = at_most(crop, LONE_MAX_SIDE)          # shrunk once, not in each pose
    for p in poses:
        gu = classify_lone_crop(in_pose(crop, p), letters, model, prototypes, polarity)
        out[p] = gu.confidence if gu.label not in ("", ROT, NONE) else 0.0
    return out


def no_pose_can_lead(as_they_are: np.ndarray) -> bool:
    """Whether, from the crops' sureness as they are (pose 0) alone, no pose can be
    :func:`common_pose`'s, whatever the other poses read: even were every crop under POSE_VOTER
    a voter reading 1.0 in one other pose, and every voter too, that pose could not lead by
    :func:`pose_lead` (upright crops of letters alone, reading 0.95-0.98: the other seven poses
    need not be read)."""
    s0 = np.asarray(as_they_are, np.float64)
    gain = 1.0 - s0                       # the most another pose could add to each crop
    voting = s0 >= POSE_VOTER             # voters already; each other crop may or may not be one
    sure, maybe = gain[voting], np.sort(gain[~voting])[::-1]
    if len(sure) + len(maybe) < POSE_MIN_CROPS:
        return True
    # the voters with any number of the maybes, the largest gains first (for each count the most)
    total, n = float(sure.sum()), len(sure)
    for k in range(len(maybe) + 1):
        if k:
            total, n = total + float(maybe[k - 1]), n + 1
        if n >= POSE_MIN_CROPS and total / n >= pose_lead(n):
            return False
    return True


def pose_lead(n: int) -> float:
    """The mean sureness a pose must add to ``n`` crops as they are to be theirs."""
    return POSE_LEAD if n >= 8 else POSE_LEAD_FEW


def common_pose(sureness: np.ndarray) -> int:
    """The pose a batch of crops lies in, from each one's :func:`pose_sureness` (rows): over the
    crops that read a letter POSE_VOTER surely in some pose (an empty square's crop, reading
    none, would only thin the lead), the pose whose mean sureness leads the crops' as they are
    (pose 0) by :func:`pose_lead`; 0 for fewer than POSE_MIN_CROPS such crops or no such lead."""
    s = np.asarray(sureness, np.float64).reshape(-1, POSES)
    s = s[s.max(axis=1) >= POSE_VOTER]
    if len(s) < POSE_MIN_CROPS:
        return 0
    mean = s.mean(axis=0)
    best = int(np.argmax(mean))
    return best if mean[best] >= mean[0] + pose_lead(len(s)) else 0


def pose_words(pose: int) -> str:
    """How the letters lie in crops of ``pose`` (what is done to read them), for messages."""
    turn = ("", "turned a quarter turn clockwise", "upside down", "turned a quarter turn anticlockwise")[pose % 4]
    if pose < 4:
        return turn or "upright"
    return f"{turn}, then mirrored left to right" if turn else "mirrored left to right"


def _other_reading_kept(as_is: LetterGuess, other: LetterGuess, sure: bool, lead: float) -> bool:
    """Whether ``other`` (the crop turned upright, or its levels stretched) replaces ``as_is``:
    it reads a letter, and ``sure`` (a tilt measured surely) or ``lead`` surer; where the crop as
    it is reads no letter, a letter TURNED_FLOOR sure (an empty square's print, turned or
    stretched, reads as letters)."""
    if other.label in ("", ROT, NONE):
        return False
    if as_is.label in ("", ROT, NONE):
        return other.confidence >= TURNED_FLOOR
    return sure or other.confidence > as_is.confidence + lead


def _replaceable(as_is: LetterGuess, sure: bool, lead: float) -> bool:
    """Whether any other reading could replace ``as_is`` (:func:`_other_reading_kept`): not a
    letter ``lead`` short of certain unless ``sure`` -- the other crop is not read for nothing
    (most upright crops read 0.8 or surer; 58 % of the jheidel crops measure tilted)."""
    return sure or as_is.label in ("", ROT, NONE) or as_is.confidence + lead < 1.0


# A crop from a dim photo, or of a washed-out tile: its ink's contrast under the 28 grey levels
# every cut asks (ink_mask's min_contrast), nothing is read (a tile at a quarter of its light:
# 91-99 % of rendered letters read; at an eighth 14-27 %).  Such a crop is also read with its
# grey levels stretched (the 1st to the 99th percentile to DIM_SPREAD levels, at most DIM_GAIN
# times), its reading kept as a turned crop's is.  At an eighth of the light the sensor's noise
# (2 levels) is stretched 4 times with the letter and speckles the face; where the stretched crop
# reads no letter worth keeping it is also read smoothed by a 3 px median (tuning seeds
# 46190-46230, 20 boards each: an eighth of the light 86-94 -> 93-100 %, a sixteenth 57-64 ->
# 80-87 %; a quarter the same; empty squares read as letters +0-2 of 240).  Smoothed always, it
# cost a quarter-light row 1.4 points (hairlines) -- hence only as a last try.
DIM_RANGE = 90          # grey levels: a crop whose 1st-99th percentile spread is under this is dim
DIM_SPREAD = 200.0      # ... stretched to about this spread
DIM_GAIN = 4.0          # ... by at most this gain (the noise of a flat crop is stretched too)
DIM_FLOOR = 4           # a crop flatter than this is left alone: nothing there to stretch


def stretched(crop: np.ndarray) -> np.ndarray | None:
    """``crop`` with its grey levels stretched (DIM_SPREAD, DIM_GAIN) where it is dim (spread
    under DIM_RANGE, over DIM_FLOOR); None otherwise."""
    lo, hi = (float(v) for v in np.percentile(to_gray(crop), (1, 99)))
    if not DIM_FLOOR <= hi - lo < DIM_RANGE:
        return None
    gain = min(DIM_GAIN, DIM_SPREAD / (hi - lo))
    return np.clip((crop.astype(np.float32) - lo) * gain, 0, 255).astype(np.uint8)


# A lone crop may be a box cut round a tile in a photo that was not square to the board: the
# tile's edges, the board's lines round it, tilted.  The letter model learnt upright letters
# (on rendered tiles cut so, a tilt of 10 degrees already costs 1-4 % of the letters, 20 degrees
# 9-20 %).  The tilt is measured on the crop's outer ring, where those edges run and the letter
# mostly does not: the gradients' orientations taken modulo a quarter turn (a square's four sides
# agree) and averaged, weighted by strength; how well they agree is the measure's sureness.  A
# letter's own strokes have orientations too (an A's legs, a W's), so an upright crop with no
# edges in view can measure tilted (the real jheidel crops, tight and upright: 3 degrees or more
# on 58 % of them): the turned crop is read, never trusted blindly (see classify_lone_crop).
TILT_MIN = 3.0          # degrees: a crop measured less tilted is read only as it is
TILT_RING = 0.3         # the ring the tilt is measured on: this share of the side from each edge
TILT_SURE = 0.55        # a tilt measured this surely (0..1) is trusted: the turned letter is kept
TURNED_LEAD = 0.2       # ... else the turned reading must be a letter this much surer
TURNED_FLOOR = 0.85     # a turned letter where the crop as it is reads none: at least this sure
TILT_BIG, TILT_FAIR = 15.0, 0.25    # a tilt this big, measured this surely: the turned letter needs no lead


def tilt_of(gray: np.ndarray) -> tuple[float, float]:
    """(tilt in degrees in (-45, 45], sureness 0..1) of the straight edges in ``gray``'s outer
    ring (TILT_RING): the angle to turn the crop by (:func:`turned_upright`) to set them square.
    A flat crop: (0, 0)."""
    g = gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    h, w = g.shape
    ring = np.zeros((h, w), bool)
    ring[1:h - 1, 1:w - 1] = True              # Sobel's replicated border says nothing
    ry, rx = int(h * TILT_RING), int(w * TILT_RING)
    ring[ry:h - ry, rx:w - rx] = False
    strength = (gx * gx + gy * gy)[ring]
    total = float(strength.sum())
    if total <= 0:
        return 0.0, 0.0
    # orientations x 4: a square's sides, and both directions across each, fall on one angle
    z = np.sum(strength * np.exp(4j * np.arctan2(gy[ring], gx[ring])))
    return float(np.degrees(np.angle(z)) / 4), float(abs(z) / total)


def turned_upright(crop: np.ndarray, angle: float) -> np.ndarray:
    """``crop`` turned by ``angle`` degrees (:func:`tilt_of`) about its middle and cut to the
    square a tile filling the tilted box fills once upright (the box's side / (|cos| + |sin|)).
    A black-and-white crop comes out with grey edges and is left so (thresholded again, binarised
    crops turned 15-20 degrees read 0.3-2.8 % fewer letters: fresh seeds 44300-44330); whether its
    lost hairlines are bridged is asked of the crop as it came."""
    h, w = crop.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    turned = cv2.warpAffine(crop, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    k = 1.0 / (abs(np.cos(np.radians(angle))) + abs(np.sin(np.radians(angle))))
    ch, cw = max(1, int(round(h * k))), max(1, int(round(w * k)))
    y0, x0 = (h - ch) // 2, (w - cw) // 2
    return turned[y0:y0 + ch, x0:x0 + cw]


def _read_framed(crop: np.ndarray, letters: str, model: LetterModel, prototypes: Prototypes | None,
                 polarity: int | None, bridge: bool) -> LetterGuess:
    """:func:`classify_lone_crop` of a crop as it is: its framing unknown.

    The crop is read as cut (a tight tile: the reading so far), and as the board reader would
    frame it in each of :data:`LONE_FRAMINGS` (:func:`framed`).  Another framing's letter is
    kept only when it is surer than the reading as cut by AS_CUT_LEAD, at least FRAMED_FLOOR
    sure, and FRAMINGS_AGREE framings read that letter: each framing alone reads some squares
    without a tile as a letter (a premium square's print, a neighbour's edge), and a tight cut
    cut again to its middle clips its letter (an R read H).  When no framing reads a letter,
    the reading as cut is returned (no ink, the star, ink that is no letter).  A crop that is
    not square is framed square (its letter a little squeezed: read as well on rendered crops).
    A crop in black and white is read with its letters' lost hairlines bridged too
    (:func:`classify_crop`'s ``bridge``).  Where the tile set has the letter read as cut with
    marks (Ä for A), the crop is framed however sure that letter, and where both middle framings
    read the same marked letter MARKS_SURE or more surely, that is the letter.  Where a framed
    letter lacks only a second framing's agreement, the crop's middle half (NARROWEST) is read
    too and seconds it when it reads the same (a crop with the neighbours' letters at its sides)."""
    as_cut = classify_crop(crop, letters, model, prototypes, polarity, bridge=bridge)
    marked = marked_forms(as_cut.label, letters)
    if as_cut.label not in ("", ROT, NONE) and as_cut.confidence + AS_CUT_LEAD >= 1.0 and not marked:
        return as_cut                 # no framing can be AS_CUT_LEAD surer: the same answer, 5x sooner
    read = [as_cut] + [classify_crop(framed(crop, f), letters, model, prototypes, polarity, board=True,
                                     bridge=bridge) for f in LONE_FRAMINGS]
    letters_read = [g for g in read if g.label not in ("", ROT, NONE)]
    if not letters_read:
        return as_cut
    best = max(letters_read, key=lambda g: g.confidence + (AS_CUT_LEAD if g is as_cut else 0.0))
    if best is not as_cut and best.confidence >= FRAMED_FLOOR \
            and sum(g.label == best.label for g in letters_read) == FRAMINGS_AGREE - 1:
        narrow = classify_crop(framed(crop, NARROWEST), letters, model, prototypes, polarity, board=True, bridge=bridge)
        if narrow.label == best.label:
            letters_read.append(narrow)
    if best is not as_cut and (best.confidence < FRAMED_FLOOR
                               or sum(g.label == best.label for g in letters_read) < FRAMINGS_AGREE):
        best = as_cut
    if best is as_cut and marked:
        # a letter read as cut without the marks its middle shows: with board round the tile the
        # crop as cut keeps a mark only where it lies in the crop's middle, and the dots of a Ü
        # cut with 30 % of board round it were lost (read U at 0.86-0.88 while the crop's middle
        # read Ü at 0.99); the middle framings hold no neighbour's ink to pass for a mark
        middles = [g for g, f in zip(read[1:], LONE_FRAMINGS) if f < 1.0]
        if middles and all(g.label in marked and g.label == middles[0].label and g.confidence >= MARKS_SURE
                           for g in middles):
            return max(middles, key=lambda g: g.confidence)
    return best


def marked_forms(letter: str, letters: str) -> str:
    """The letters of ``letters`` that are ``letter`` with marks (A: Ä Å Ą), by Unicode decomposition."""
    if len(letter) != 1 or not letter.isalpha():
        return ""
    return "".join(ch for ch in letters if ch != letter and unicodedata.normalize("NFD", ch)[0] == letter)


# --------------------------------------------------------------------------- tesseract


def tesseract_classify(crop: np.ndarray, letters: str) -> tuple[str, float]:
    """Second opinion from tesseract (single-character mode, whitelist, Otsu).

    Returns ``(letter, confidence 0..1)`` or ``("", 0.0)``; slow (a process per call, ~0.15 s).
    The crop is binarised like the letter model sees it, enlarged 3x, smoothed and
    re-thresholded (Otsu), black on white with a white border.
    """
    import pytesseract

    gray = to_gray(crop)
    best_mask = None
    for pol in (1, -1):               # keep the polarity whose glyph looks most like a letter
        g = glyph_of(crop, pol, gray=gray)
        if g is not None and (best_mask is None or g.height > best_mask[1]):
            m, _ = binarise(gray, 28.0, pol)
            best_mask = (m, g.height)
    if best_mask is None:
        return "", 0.0
    img = np.where(best_mask[0] > 0, 0, 255).astype(np.uint8)
    img = cv2.resize(img, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    _, img = cv2.threshold(cv2.GaussianBlur(img, (3, 3), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    img = cv2.copyMakeBorder(img, 30, 30, 30, 30, cv2.BORDER_CONSTANT, value=255)
    wl = "".join(dict.fromkeys(letters.upper()))
    cfg = f"--psm 10 -c tessedit_char_whitelist={wl}"
    try:
        d = pytesseract.image_to_data(img, config=cfg, output_type=pytesseract.Output.DICT)
    except Exception:  # tesseract missing or failing: no opinion
        return "", 0.0
    best = ("", 0.0)
    for t, c in zip(d.get("text", []), d.get("conf", [])):
        t = (t or "").strip().upper()
        try:
            c = float(c)
        except (TypeError, ValueError):
            continue
        if t and t[0] in wl and max(c, 1.0) / 100 > best[1]:
            best = (t[0], max(c, 1.0) / 100)
    return best
