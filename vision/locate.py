"""Find the 15x15 playing grid in a photo: automatically, from a saved profile, or from markers.

Three ways in, one answer (:class:`BoardLocation`: the grid's four corners in image pixels,
TL, TR, BR, BL as they appear on screen, a confidence in 0..1 and the method used):

* ``locate_auto(image)`` -- no help from the players.  It works on every common board because it
  uses two things every standard board has: a lattice of equal squares separated by lines (found
  as many small uniform patches whose centres form a projective grid) and the premium-square
  colour pattern (blue letter premiums and red/pink word premiums at the standard positions),
  which pins down which 15x15 part of the lattice is the playing grid.  Tilt, rotation, tiles
  covering squares and the board's colour scheme do not matter.  See docs/vision-locate.md.
* ``locate_from_profile(profile, image)`` -- four corners clicked once and saved in a small JSON
  "board profile" (:func:`save_profile` / :func:`load_profile`), for a camera that never moves.
* ``locate_markers(image)`` -- four printed ArUco cards (``calibration/make_marker_sheet.py``)
  laid outside the grid corners, each with one card corner touching a grid corner.

And once the board has been found, ``locate_by_look(image, board_look(earlier, corners))`` finds
it again by how it looked (its tiles and prints at their squares) where the premium pattern
cannot place it (:class:`vision.track.BoardTracker` asks it).

:func:`locate_board` tries them in that spirit: the profile if given, otherwise automatic, and
the markers when the automatic locator cannot decide (or when asked for).  Every failure is a
:class:`~vision.errors.VisionError` with a reason a
player can act on (too dark, too blurred, no board, board partly outside the picture).

The module knows no game rules: the premium layout is used only as a picture.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from vision.errors import VisionError
from vision.geometry import (GRID, PREMIUM_LAYOUT, apply_h, as_corners, cell_size, corner_error, corners_from_h,
                             grid_to_image, is_convex_quad, order_corners, rectify, rotate_corners)
from vision.pixels import colourless, percentiles_u8

__all__ = ["BoardLocation", "BoardProfile", "locate_board", "locate_auto", "locate_markers",
           "locate_from_profile", "refine_corners", "save_profile", "load_profile",
           "check_picture", "rectify", "rotate_corners", "MARKER_LAYOUT_PATH", "load_marker_layout",
           "board_look", "look_match", "locate_by_look"]

#: Long side of the working image is brought near this by an integer factor (fast INTER_AREA).
WORK_SIDE = 1100
#: Confidence under which the automatic locator says "no board".
MIN_CONFIDENCE = 0.35
FAINT_T, FAINT_SMOOTH = 4, 1.0     # the last tries: a pale board's faint lines (locate_auto)
# A refining look whose squares fit the grid looser than this (rms, squares) is looked at again in
# the view smoothed by NOISE_SMOOTH px (:func:`_place`).  Real photos fit within 0.08 (172 quanyuan
# and jheidel frames: median 0.035); the same frames under a sensor's noise (sigma 12 levels) saw
# 29-36 squares in the plain view, fitted 0.17 apart, and the grid moved from 0.2 of a square off
# to 0.52-0.71, shown at confidence 1.0; smoothed, 108-123 squares fit 0.04 and the grid stays.
# A try none of whose plain looks fits is looked at smoothed too, and so is a look that saw fewer
# than FEW_SEEN of the lattice's squares (under heavier noise, sigma 16: 35-43 squares of 133-158,
# fitted tightly, 0.06, but all on one part of the board, and the grid moved 0.56-0.63 off;
# smoothed, 141-161 squares and the grid stays).  Real frames see 0.73 or more of them.
LOOSE_FIT = 0.12
FEW_SEEN = 0.4
FEW_REFINED = 40     # a grid refined on fewer squares is held in doubt (:func:`_place`)
NOISE_SMOOTH = 1.0
GREY_AGREE = 0.5   # squares: two tries on a picture without colour agree (:func:`_agreed`)
GREY_SURE = 0.5    # ... each at least this confident (lightness alone: a floor's tiles, a chessboard)
HUELESS_SURE = 0.7  # a colour picture no try found, scored by lightness (:func:`locate_auto`)

MARKER_LAYOUT_PATH = Path(__file__).resolve().parents[1] / "calibration" / "markers" / "layout.json"


# --------------------------------------------------------------------------------------------
# Result type
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class BoardLocation:
    """Where the playing grid is in one picture.

    ``corners``: (4, 2) float array, image pixels, TL, TR, BR, BL of the 15x15 grid as seen on
    screen (turn with :meth:`rotated` once the upright side is known).  ``confidence``: 0..1.
    ``method``: "auto", "markers", "profile", "tracked" (also "still", "kept") or "look"
    (:func:`locate_by_look`).  ``image_size``: (width, height).
    ``details``: figures for logs and benchmarks (cells found, pattern score, timings...).
    """

    corners: np.ndarray
    confidence: float
    method: str
    image_size: tuple[int, int]
    details: dict[str, Any] = field(default_factory=dict)

    def homography(self) -> np.ndarray:
        """Grid coordinates (squares, 0..15) -> image pixels."""
        return grid_to_image(self.corners)

    @property
    def cell_px(self) -> float:
        """Mean size of one square in image pixels."""
        return cell_size(self.corners)

    def rotated(self, k: int) -> "BoardLocation":
        """The same grid with the corner order turned by k quarter turns (see rotate_corners)."""
        return BoardLocation(rotate_corners(self.corners, k), self.confidence, self.method,
                             self.image_size, dict(self.details))

    def rectify(self, image: np.ndarray, cell_px: int = 40, margin_cells: float = 0.0) -> np.ndarray:
        """The grid warped to a square picture, ``15 * cell_px`` pixels a side."""
        return rectify(image, self.corners, cell_px, margin_cells)

    def as_list(self, ndigits: int = 1) -> list[list[float]]:
        """Corners as ``[[x, y], ...]`` rounded to ``ndigits`` (for JSON and the CLI)."""
        return [[round(float(x), ndigits), round(float(y), ndigits)] for x, y in self.corners]

    def to_dict(self) -> dict[str, Any]:
        return {"corners": self.as_list(2), "confidence": round(float(self.confidence), 3),
                "method": self.method, "image_size": list(self.image_size)}


# --------------------------------------------------------------------------------------------
# Picture checks
# --------------------------------------------------------------------------------------------

def _as_bgr(image: Any, name: str = "picture") -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise VisionError(f"{name}: not a picture (empty or unreadable image data)", "unreadable")
    if image.dtype != np.uint8:
        if np.issubdtype(image.dtype, np.floating) and image.max(initial=0) <= 1.0:
            image = (image * 255).clip(0, 255).astype(np.uint8)
        else:
            image = image.clip(0, 255).astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    raise VisionError(f"{name}: not a picture (array of shape {image.shape})", "unreadable")


def check_picture(image: np.ndarray, name: str = "picture") -> np.ndarray:
    """Raise VisionError for pictures nobody could read a board from (empty, tiny, too dark)."""
    img = _as_bgr(image, name)
    h, w = img.shape[:2]
    if min(h, w) < 64:
        raise VisionError(f"{name}: picture too small ({w}x{h} pixels); the board needs at least ~300 pixels",
                          "bad-input")
    small = cv2.resize(img, (max(8, w // 8), max(8, h // 8)), interpolation=cv2.INTER_NEAREST)
    b, g, r = cv2.split(small)
    bright = cv2.max(cv2.max(b, g), r)
    p95, = percentiles_u8(bright, (95,))
    if p95 < 45:
        raise VisionError(f"{name}: picture too dark (brightest parts at {p95:.0f}/255); "
                          "turn on a light or point the camera at the board", "dark")
    if percentiles_u8(cv2.min(cv2.min(b, g), r), (5,))[0] > 245:
        raise VisionError(f"{name}: picture is washed out (almost all white); lower the exposure or move the light",
                          "bright")
    return img


def _sharpness(gray: np.ndarray) -> float:
    """Variance of the Laplacian on the working-size picture: sharp photos of boards give
    several hundred, under ~40 means badly blurred (or nothing but smooth surfaces)."""
    return float(cv2.Laplacian(gray, cv2.CV_32F).var())


# A picture with no edges (too blurred to find a board in) is a blurred board only if its lightness
# varies: a board's squares, tiles and table part it. Real photos of boards, however blurred
# (jheidel, quanyuan; one of them under a blur of 8 px): 96-195 grey levels between the 5th and
# 95th percentiles; an even wall, cloth or covered lens a few levels, its noise.
PLAIN_SPREAD = 24


def _lightness_spread(gray: np.ndarray) -> float:
    """Grey levels between the picture's 5th and 95th percentile of lightness."""
    lo, hi = np.percentile(gray, (5, 95))
    return float(hi - lo)


# --------------------------------------------------------------------------------------------
# Automatic: lattice of uniform squares + premium colour pattern
# --------------------------------------------------------------------------------------------

_K3 = np.ones((3, 3), np.uint8)


def _downscale(image: np.ndarray, f: int) -> np.ndarray:
    """Shrink by an integer factor with area averaging: halvings first (OpenCV's fast path),
    then the odd rest.  The picture is cropped to a multiple of ``f`` (at most f-1 pixels)."""
    if f <= 1:
        return image
    h, w = image.shape[:2]
    out = image[:(h // f) * f, :(w // f) * f]
    while f % 2 == 0:
        hh, ww = out.shape[:2]
        out = cv2.resize(out, (ww // 2, hh // 2), interpolation=cv2.INTER_AREA)
        f //= 2
    if f > 1:
        hh, ww = out.shape[:2]
        out = cv2.resize(out, (ww // f, hh // f), interpolation=cv2.INTER_AREA)
    return out


def _working(image: np.ndarray, side: int = WORK_SIDE, factor: int | None = None) -> tuple[np.ndarray, int]:
    """Downscale by an integer factor so the long side is at most about ``side``."""
    h, w = image.shape[:2]
    f = factor if factor is not None else max(1, math.ceil(max(h, w) / side))
    return _downscale(image, f), f


def _cell_blobs(small: np.ndarray, t: int = 14, k: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """Centres and sizes (sqrt area, in pixels) of small uniform patches: candidate grid squares.

    ``t > 0``: a pixel is "uniform" when its colour is within ``t`` (sum over B, G, R) of the
    local ``k`` x ``k`` mean (sensitive to faint and blurred lines).  ``t < 0``: when the colour
    range in its 3x3 neighbourhood is under ``-t`` (max over channels; keeps squares whole next
    to strong lines).  Grid lines, letters and texture cut the uniform regions into squares.
    """
    if t > 0:
        d = cv2.absdiff(small, cv2.blur(small, (k, k)))
        dev = d[:, :, 0].astype(np.uint16) + d[:, :, 1] + d[:, :, 2]
        uniform = dev < t
    else:
        # every channel's range under -t: one inRange over the three channels (0 / 255), the
        # same mask as the channels' maximum compared, without splitting them
        grad = cv2.morphologyEx(cv2.GaussianBlur(small, (3, 3), 0), cv2.MORPH_GRADIENT, _K3)
        top = -t - 1
        uniform = cv2.inRange(grad, (0, 0, 0), (top, top, top))
    mask = cv2.erode(uniform.view(np.uint8), _K3)  # erosion cuts thin bridges and specks
    n, _, st, cen = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    area, bw, bh = st[:, 4], st[:, 2], st[:, 3]
    ok = ((area >= 12) & (area <= mask.size / 150) & (area >= 0.5 * bw * bh)
          & (np.maximum(bw, bh) <= 2.5 * np.minimum(bw, bh)))
    ok[0] = False
    idx = np.nonzero(ok)[0]
    if len(idx) > 1500:  # textured scenes: keep the biggest patches (squares are not specks)
        idx = idx[np.argsort(-area[idx], kind="stable")[:1500]]
    return cen[idx].astype(np.float64), np.sqrt(area[idx].astype(np.float64)) + 2.0


def _neighbour_lists(P: np.ndarray, S: np.ndarray) -> tuple[list[list[int]], list[list[int]]]:
    """For each patch, the patches near enough to be a direct, diagonal or two-step neighbour
    (0.5 to 4.5 patch sizes away), in index order; the lattice test in :func:`_components`
    decides which.  And the same lists keeping only the neighbours of about the patch's size
    (0.65 to 1.55 times it), the only ones a lattice grows through.  Made as Python lists in
    one go: a thousand patches' rows one by one cost more in calls than in work."""
    n = len(P)
    Pf = P.astype(np.float32)
    sq = (Pf ** 2).sum(1)
    D2 = sq[:, None] + sq[None, :] - 2.0 * (Pf @ Pf.T)
    Sf = S.astype(np.float32)[:, None]
    near = (D2 > (0.5 * Sf) ** 2) & (D2 < (4.5 * Sf) ** 2)
    rows, cols = np.nonzero(near)
    ratio = S[cols] / S[rows]
    alike = (ratio > 0.65) & (ratio < 1.55)
    ends = np.cumsum(np.bincount(rows, minlength=n)).tolist()
    ends_alike = np.cumsum(np.bincount(rows[alike], minlength=n)).tolist()
    flat, flat_alike = cols.tolist(), cols[alike].tolist()
    starts, starts_alike = [0] + ends[:-1], [0] + ends_alike[:-1]
    return ([flat[a:b] for a, b in zip(starts, ends)],
            [flat_alike[a:b] for a, b in zip(starts_alike, ends_alike)])


def _components(P: np.ndarray, S: np.ndarray) -> tuple[list[list[int]], np.ndarray]:
    """Group patches into lattice components by single steps; integer coordinates per patch.

    Plain Python over lists: each step looks at a handful of neighbours, and numpy on arrays
    that small cost more in calls than in arithmetic (the same float64 arithmetic, in the same
    order, so the same components)."""
    n = len(P)
    nbr, alike = _neighbour_lists(P, S)
    px, py, sz = P[:, 0].tolist(), P[:, 1].tolist(), S.tolist()
    comp = [-1] * n
    coords = [(0, 0)] * n
    comps: list[list[int]] = []
    for seed in np.argsort([-len(x) for x in nbr], kind="stable").tolist():
        near = nbr[seed]
        if comp[seed] >= 0 or len(near) < 2:
            continue
        vecs = [(px[j] - px[seed], py[j] - py[seed]) for j in near]
        lens = [math.sqrt(a * a + b * b) for a, b in vecs]
        u = vecs[lens.index(min(lens))]
        lu = math.sqrt(u[0] * u[0] + u[1] * u[1])
        cross = [abs(a * u[1] - b * u[0]) / (ln * lu) for (a, b), ln in zip(vecs, lens)]
        okv = [cr > 0.8 and 0.7 * lu < ln < 1.45 * lu for cr, ln in zip(cross, lens)]
        if not any(okv) or sum(ln < 1.3 * lu for ln in lens) < 3 or lu > 3.2 * sz[seed]:
            continue
        score = [cr if ok else -1.0 for cr, ok in zip(cross, okv)]
        v = vecs[score.index(max(score))]
        cid = len(comps)
        comp[seed] = cid
        basis = {seed: (u, v)}
        stack, members = [seed], [seed]
        while stack:
            i = stack.pop()
            bu, bv = basis[i]
            (ux, uy), (vx, vy) = bu, bv
            det = ux * vy - vx * uy
            if abs(det) < 1e-6:
                continue
            xi, yi = px[i], py[i]
            for j in alike[i]:
                if comp[j] >= 0:
                    continue
                dx, dy = px[j] - xi, py[j] - yi
                al = (dx * vy - dy * vx) / det
                be = (ux * dy - uy * dx) / det
                ra, rb = round(al), round(be)
                steps = abs(ra) + abs(rb)
                err = max(abs(al - ra), abs(be - rb))
                # one step along a side (0.2 tolerance), or two steps / one diagonal step over a
                # covered square (0.15): premium squares and tiles interrupt runs of plain squares
                if not ((steps == 1 and err <= 0.2) or (steps == 2 and (abs(ra) < 2 or abs(rb) < 2) and err <= 0.15)):
                    continue
                comp[j] = cid
                coords[j] = (coords[i][0] + ra, coords[i][1] + rb)
                if ra and rb:
                    basis[j] = (bu, bv)
                else:
                    basis[j] = ((dx / ra, dy / ra), bv) if ra else (bu, (dx / rb, dy / rb))
                stack.append(j)
                members.append(j)
        comps.append(members)
        if len(members) >= 0.5 * n:
            break  # no other component can be bigger
    comps.sort(key=len, reverse=True)
    return comps, np.array(coords, int).reshape(n, 2)


def _homography_ls(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """Least-squares homography src -> dst (normalised DLT); None when degenerate."""
    def norm(p):
        m = p.mean(0)
        s = np.sqrt(2) / max(np.sqrt(((p - m) ** 2).sum(1)).mean(), 1e-9)
        return np.array([[s, 0, -s * m[0]], [0, s, -s * m[1]], [0, 0, 1.0]])
    ts, td = norm(src), norm(dst)
    a = apply_h(ts, src)
    b = apply_h(td, dst)
    n = len(a)
    m = np.zeros((2 * n, 9))
    m[0::2, 0:2] = a
    m[0::2, 2] = 1
    m[0::2, 6:8] = -a * b[:, :1]
    m[0::2, 8] = -b[:, 0]
    m[1::2, 3:5] = a
    m[1::2, 5] = 1
    m[1::2, 6:8] = -a * b[:, 1:]
    m[1::2, 8] = -b[:, 1]
    try:
        _, sv, vt = np.linalg.svd(m, full_matrices=False)
    except np.linalg.LinAlgError:
        return None
    h = vt[-1].reshape(3, 3)
    h = np.linalg.solve(td, h @ ts) if abs(np.linalg.det(td)) > 1e-12 else None
    if h is None or abs(h[2, 2]) < 1e-12 or not np.all(np.isfinite(h)):
        return None
    return h / h[2, 2]


def _fit_lattice(C: np.ndarray, X: np.ndarray) -> np.ndarray | None:
    """Homography from lattice square centres to image (affine while the set is too thin)."""
    span = C.max(0) - C.min(0)
    if len(C) >= 8 and span.min() >= 3:
        h = _homography_ls((C + 0.5).astype(np.float64), X.astype(np.float64))
        if h is not None:
            return h
    if len(C) < 3:
        return None
    a, _ = cv2.estimateAffine2D((C + 0.5).astype(np.float64), X.astype(np.float64), method=cv2.LMEDS)
    if a is None:
        return None
    return np.vstack([a, [0.0, 0.0, 1.0]])


def _local_side(h: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Side (pixels) of lattice square ``r`` (integer coords) under ``h``: sqrt of its area."""
    c = np.stack([r, r + (1, 0), r + (1, 1), r + (0, 1)], axis=1).reshape(-1, 2)
    q = apply_h(h, c).reshape(-1, 4, 2)
    x, y = q[..., 0], q[..., 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, 1) - np.roll(x, -1, 1) * y).sum(1))
    return np.sqrt(area)


def _snap(P: np.ndarray, h: np.ndarray, lo=None, hi=None, tol: float = 0.22, iters: int = 12,
          S: np.ndarray | None = None):
    """ICP on the lattice: snap patches to the nearest square centre, refit, repeat.

    ``lo``/``hi`` bound the lattice box that may be extended by 4 squares per round (growth from
    a local start); with None every patch may join at once (tracking / refinement).  With patch
    sizes ``S``, a patch joins only if its size suits the square it lands on (texture specks on
    the table next to the board do not).  Returns (h, inliers, integer coords) or None.
    """
    inl = None
    r = None
    ref_ratio = None
    for _ in range(iters):
        try:
            hi_ = np.linalg.inv(h)
        except np.linalg.LinAlgError:
            return None
        g = apply_h(hi_, P) - 0.5
        if not np.all(np.isfinite(g)):
            return None
        r = np.round(g)
        res = np.linalg.norm(g - r, axis=1)
        new = res < tol
        if lo is not None:
            new &= ((r >= lo - 4) & (r <= hi + 4)).all(1)
        if S is not None and new.sum() >= 6:
            ratio = S / np.maximum(_local_side(h, r), 1e-6)
            if ref_ratio is None:
                ref_ratio = float(np.median(ratio[new]))
            new &= (ratio > 0.6 * ref_ratio) & (ratio < 1.6 * ref_ratio)
        if new.sum() < 6:
            return None
        h2 = _fit_lattice(r[new], P[new])
        if h2 is None:
            break
        h = h2
        done = inl is not None and np.array_equal(new, inl)
        inl = new
        if lo is not None:
            lo2, hi2 = r[new].min(0), r[new].max(0)
            done = done and np.array_equal(lo2, lo) and np.array_equal(hi2, hi)
            lo, hi = lo2, hi2
        if done:
            break
    if inl is None:  # no lattice could be fitted to the first snap (the patches all on one line)
        return None
    return h, inl, r


def _undiagonal(P: np.ndarray, S: np.ndarray, res):
    """Switch to the true lattice when the one found runs along the squares' diagonals.

    Where every direct neighbour of the seed is covered, its diagonal neighbours make a
    consistent lattice of their own (rotated 45 degrees, 1.41 squares apart); the squares
    between them then sit at half-integer positions.  Many such patches: re-base and re-snap.
    """
    h, inl, r = res
    try:
        g = apply_h(np.linalg.inv(h), P) - 0.5
    except np.linalg.LinAlgError:
        return res
    lo, hi = r[inl].min(0), r[inl].max(0)
    frac = g - np.floor(g)
    half = (np.abs(frac - 0.5) < 0.2).all(1) & ((g >= lo - 1) & (g <= hi + 1)).all(1)
    if half.sum() < max(6, 0.25 * inl.sum()):
        return res
    a = np.array([[0.5, 0.5], [0.5, -0.5]])
    q0 = r[np.nonzero(inl)[0][0]] + 0.5
    t = q0 - a @ np.array([0.5, 0.5])
    base = np.array([[a[0, 0], a[0, 1], t[0]], [a[1, 0], a[1, 1], t[1]], [0, 0, 1.0]])
    res2 = _snap(P, h @ base, tol=0.22, S=S)
    if res2 is not None and res2[1].sum() > inl.sum():
        return res2
    return res


#: A lattice's patches agree with one homography within this share of a square
#: (:func:`_unaliased`): more than a snapped patch's usual residual, less than half a square.
CONSENSUS_CELLS = 0.2
#: ... and a lattice snapped again from the patches that agree replaces it only when this many
#: more patches (a share of its own, at least ALIAS_GAIN_MIN) join it.
ALIAS_GAIN = 0.25
ALIAS_GAIN_MIN = 4
#: A lattice is snapped again only where this share of its patches (and ALIAS_OFF_MIN) do not
#: agree: a patch or two near the snap's tolerance disagree on most lattices, and the snap costs
#: 2-7 ms a lattice (a row grown off carries several: 7 of 47 on the scene it was found on).
ALIAS_OFF = 0.1
ALIAS_OFF_MIN = 3


def _unaliased(P: np.ndarray, S: np.ndarray, res):
    """Mend a lattice that grew one square off over part of the board.

    The lattice grows from a seed a few squares at a time (:func:`_snap`), each round snapping
    the patches near its edge to the squares its fit so far predicts.  Under a strong slant the
    prediction a few squares out can be off by a whole square: the patches there snap to their
    neighbours' squares with residuals under the snap's tolerance, and the least-squares refit
    bends to carry them -- a grid shown whole but a row off in one corner (a hard-camera scene
    seen at 47 lattice squares, found 2.1 squares off at one corner with confidence 0.88).  Such
    a lattice's patches do not agree with one homography: the largest set that does (RANSAC,
    within :data:`CONSENSUS_CELLS` of a square) is the board's true part, and snapped again from
    its fit the board's other squares join -- 106 patches there instead of 47, none a square off.
    A lattice whose patches all agree but a few (:data:`ALIAS_OFF`) is kept as it is; one
    snapped again replaces it only where many more patches join (:data:`ALIAS_GAIN`), so a sound
    lattice is not refitted for the few edge patches an unbounded snap may add.
    """
    h, inl, r = res
    n = int(inl.sum())
    if n < 8:
        return res
    side = float(np.median(_local_side(h, r[inl])))
    fit, agree = cv2.findHomography((r[inl] + 0.5).astype(np.float64), P[inl].astype(np.float64),
                                    cv2.RANSAC, CONSENSUS_CELLS * side, maxIters=2000, confidence=0.999)
    if fit is None or agree is None or n - int(agree.sum()) < max(ALIAS_OFF_MIN, ALIAS_OFF * n):
        return res
    again = _snap(P, fit, tol=0.22, S=S)
    if again is None or again[1].sum() < n + max(ALIAS_GAIN_MIN, ALIAS_GAIN * n):
        return res
    return again


def _lattice(P: np.ndarray, S: np.ndarray, tries: int = 3):
    """The biggest consistent lattice among the patches: (h lattice->image, inliers, coords)."""
    if len(P) < 8:
        return None
    comps, coords = _components(P, S)
    best = None
    for members in comps[:tries]:
        if len(members) < 5:
            break
        idx = np.array(members)
        h = _fit_lattice(coords[idx].astype(np.float64), P[idx])
        if h is None:
            continue
        res = _snap(P, h, coords[idx].min(0), coords[idx].max(0), S=S)
        if res is None:
            continue
        res = _undiagonal(P, S, res)
        grown = res
        res = _unaliased(P, S, res)
        if best is None or res[1].sum() > best[1].sum():
            best, best_grown = res, int(grown[1].sum())
        # enough squares end the search -- counted as the lattice grew, not as it was snapped
        # again: a lattice mended so may still be bent (a grainy photo's 38 squares snapped again
        # to 53, 0.75 of a square off at a corner, where the next seed grows 74, right)
        if best_grown >= max(40, 0.4 * len(P)):
            break
    return best


def _cell_colours(small: np.ndarray, h: np.ndarray, a0: int, b0: int, na: int, nb: int, px: int = 6):
    """Mean Lab colour of the middle of each lattice square in a window; and which are in view."""
    t = np.array([[1.0 / px, 0, a0], [0, 1.0 / px, b0], [0, 0, 1]])
    view = cv2.warpPerspective(small, h @ t, (na * px, nb * px),
                               flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    v = view.reshape(nb, px, na, px, 3)
    mid = v[:, 1:px - 1, :, 1:px - 1].astype(np.float32).mean(axis=(1, 3)) / 255.0
    valid = v.min(axis=(1, 3)).max(axis=2) > 0  # every pixel of the square came from the picture
    lab = bgr_to_lab(mid)
    return lab, valid


_SRGB_TO_XYZ = np.array([[0.412453, 0.357580, 0.180423],
                         [0.212671, 0.715160, 0.072169],
                         [0.019334, 0.119193, 0.950227]]) / np.array([[0.950456], [1.0], [1.088754]])


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0-100) of float BGR colours in 0..1, as ``cv2.cvtColor(..., COLOR_BGR2Lab)``
    computes it (sRGB, D65), for a handful of colours: OpenCV's float path spends about 10 ms
    per call building its tables, far more than the colours take."""
    c = np.clip(np.asarray(bgr, np.float64)[..., ::-1], 0.0, 1.0)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = lin @ _SRGB_TO_XYZ.T
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16.0 / 116.0)
    y = xyz[..., 1]
    L = np.where(y > 0.008856, 116.0 * f[..., 1] - 16.0, 903.3 * y)
    return np.stack([L, 500.0 * (f[..., 0] - f[..., 1]), 200.0 * (f[..., 1] - f[..., 2])], axis=-1).astype(np.float32)


def _densest(cells: np.ndarray, size: int) -> np.ndarray:
    """The lattice squares inside the ``size`` x ``size`` window holding most of them (a lattice
    that also snapped texture or decorations far from the board is cut back to the board)."""
    lo, hi = cells.min(0).astype(int), cells.max(0).astype(int)
    if (hi - lo).max() < size:
        return cells
    occ = np.zeros((hi[1] - lo[1] + 1, hi[0] - lo[0] + 1), np.float32)
    occ[(cells[:, 1] - lo[1]).astype(int), (cells[:, 0] - lo[0]).astype(int)] = 1
    kh, kw = min(size, occ.shape[0]), min(size, occ.shape[1])
    counts = cv2.boxFilter(occ, -1, (kw, kh), anchor=(0, 0), normalize=False, borderType=cv2.BORDER_CONSTANT)
    counts = counts[:occ.shape[0] - kh + 1, :occ.shape[1] - kw + 1]
    oy, ox = np.unravel_index(int(np.argmax(counts)), counts.shape)
    a0, b0 = lo[0] + ox, lo[1] + oy
    keep = (cells[:, 0] >= a0) & (cells[:, 0] < a0 + kw) & (cells[:, 1] >= b0) & (cells[:, 1] < b0 + kh)
    return cells[keep]


def _premium_fit(small: np.ndarray, h: np.ndarray, cells: np.ndarray, grey: bool = False):
    """Which 15x15 window of the lattice carries the premium pattern (``grey``: the picture
    has no colour, see :func:`_pattern_score`).

    Returns a list of (score, ox, oy) best first, plus the per-square colours (for debugging).
    """
    cells = _densest(cells, 21)
    amin, bmin = cells.min(0).astype(int)
    amax, bmax = cells.max(0).astype(int)
    a0 = min(amin, amax - (GRID - 1)) - 1
    b0 = min(bmin, bmax - (GRID - 1)) - 1
    na = max(amax, amin + GRID - 1) + 2 - a0
    nb = max(bmax, bmin + GRID - 1) + 2 - b0
    if na * nb > 60 * 60:
        return [], None
    lab, valid = _cell_colours(small, h, a0, b0, na, nb)
    ia = (cells[:, 0] - a0).astype(int)
    ib = (cells[:, 1] - b0).astype(int)
    occupied = np.zeros((nb, na), np.float32)
    occupied[ib, ia] = 1
    outside = occupied.sum() - cv2.matchTemplate(occupied, np.ones((GRID, GRID), np.float32), cv2.TM_CCORR)
    lab = np.where(valid[..., None], lab, np.nan)
    # all 15x15 windows: (ny, nx, 225, 3)
    win = np.lib.stride_tricks.sliding_window_view(lab, (GRID, GRID), axis=(0, 1))
    ny, nx = win.shape[:2]
    X = win.transpose(0, 1, 3, 4, 2).reshape(ny * nx, GRID * GRID, 3)
    score = _pattern_score(X, grey) - 0.02 * outside.reshape(-1)
    order = np.argsort(-score)
    out = []
    for flat in order[:6]:
        oy, ox = divmod(int(flat), nx)
        out.append((float(score[flat]), int(ox + a0), int(oy + b0)))
    return out, lab


# class of each square of the layout: 0 plain, 1 T, 2 D, 3 t, 4 d
_CLASS = np.array([" TDtd".index(ch) if ch != "." else 0 for row in PREMIUM_LAYOUT for ch in row])
_FAMILY = np.array([0, 1, 1, 2, 2])          # plain, red, red, blue, blue
_WEIGHT = np.array([0.0, 0.7, 0.7, 1.0, 1.0])  # blue prints are the surer cue (red ~ some tiles)
# a black-and-white picture (a grey camera mode, a night camera) shows each print as a lightness
# only: a dark red and a dark blue print look alike, so the two families are one there -- the
# premium squares, wherever they are, against the plain ones (the layout alone still places the
# window: 61 premium squares in a pattern no shifted window repeats)
_GREY_FAMILY = np.array([0, 1, 1, 1, 1])
_GREY_WEIGHT = np.array([0.0, 1.0, 1.0, 1.0, 1.0])


def _nan_median(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel (lower) median over axis 1 ignoring NaN, and the number of finite rows.

    ``a``: (K, N, C).  Much faster than np.nanmedian for these small arrays."""
    srt = np.sort(a, axis=1)                       # NaN sort last
    n = np.isfinite(a[..., 0]).sum(1)              # (K,)
    idx = np.clip((n - 1) // 2, 0, a.shape[1] - 1)
    med = np.take_along_axis(srt, idx[:, None, None].repeat(a.shape[2], 2), axis=1)[:, 0]
    med[n == 0] = np.nan
    return med, n


def _pattern_score(X: np.ndarray, grey: bool = False) -> np.ndarray:
    """Score per candidate window: do the squares at each premium position share a colour
    that differs from the plain squares', and do other squares keep away from it?

    ``X``: (K, 225, 3) Lab colour per square (NaN where out of view).  The class colours are
    learnt from the window itself (median over the positions of each class; a sixth class,
    "other", is the median of the odd-looking squares on plain positions: mostly tiles), so
    the board's colour scheme, the tiles, the light and the white balance do not matter.
    ``grey``: a picture with no colour, where a red and a blue print can look alike: any premium
    print on any premium position counts (:data:`_GREY_FAMILY`).
    """
    families, weights = (_GREY_FAMILY, _GREY_WEIGHT) if grey else (_FAMILY, _WEIGHT)
    import warnings

    k = X.shape[0]
    centres = np.full((k, 6, 3), np.nan, np.float32)
    counts = np.zeros((k, 6))
    plain = _CLASS == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NaN comparisons
        for c in range(5):
            sel = X[:, _CLASS == c, :]
            centres[:, c], counts[:, c] = _nan_median(sel)
        xp = X[:, plain, :]
        far = np.linalg.norm(xp - centres[:, None, 0, :], axis=2) > 15
        odd = np.where(far[..., None], xp, np.nan)
        centres[:, 5], counts[:, 5] = _nan_median(odd)
    sep = np.linalg.norm(centres - centres[:, :1], axis=2)            # (K, 6) distance to plain
    sep_other = np.linalg.norm(centres - centres[:, 5:6], axis=2)     # distance to "other"
    has_other = (counts[:, 5] >= 3) & np.isfinite(centres[:, 5, 0])
    # a premium kind the colour of the odd squares on plain positions (mostly tiles) is not taken
    # for a print -- in colour.  In grey a board's dark triple prints can be the tiles' very
    # lightness while its double prints are as light as its squares (printed words only): the
    # dark kinds are then all there is to place the window by, and the positions, with the
    # kinds that show up off their positions dropped below, still part prints from tiles
    active = (sep >= 12) & (counts >= 3) & ~(has_other[:, None] & (sep_other < 10) & (not grey))
    active[:, 0] = np.isfinite(centres[:, 0, 0])
    active[:, 5] = has_other
    d_all = np.linalg.norm(X[:, :, None, :] - centres[:, None, :, :], axis=3)  # (K, 225, 6)
    fam_pos = families[_CLASS][None, :]                               # (1, 225)
    family = np.append(families, -1)                                  # class 5: not a premium
    weight = np.append(weights, 0.0)
    for _ in range(3):
        d = np.where(np.isfinite(d_all) & active[:, None, :], d_all, np.inf)
        label = np.argmin(d, axis=2)                                  # (K, 225)
        dmin = np.take_along_axis(d, label[..., None], axis=2)[..., 0]
        tol = np.maximum(10.0, 0.4 * np.take_along_axis(sep, label, axis=1))
        prem = (label >= 1) & (label <= 4)
        label = np.where(np.isfinite(dmin) & (~prem | (dmin <= tol)), label, 5)
        fam_lab = np.where(np.isfinite(dmin), family[label], -1)
        hit = (fam_lab > 0) & (fam_lab == fam_pos)
        miss = (fam_lab > 0) & (fam_lab != fam_pos)
        # a class whose colour shows up more often off its positions than on them is not a
        # premium print but something else (tiles covering most of those squares): drop it
        bad = np.zeros_like(active)
        for c in range(1, 5):
            is_c = label == c
            bad[:, c] = active[:, c] & ((is_c & miss).sum(1) > (is_c & hit).sum(1))
        if not bad.any():
            break
        active &= ~bad
    w = weight[label]
    # a red-looking square on a plain position costs less (many tile colours are reddish)
    miss_w = np.where((fam_lab == 1) & (fam_pos == 0), 0.3, 1.0) * w
    return (hit * w).sum(1) - (miss * miss_w).sum(1)


def _largest_move(a: np.ndarray, b: np.ndarray) -> float:
    """How far (pixels) the corners ``a`` lie from ``b`` at the corner that moved most."""
    return float(np.linalg.norm(np.asarray(a) - np.asarray(b), axis=1).max())


def _refine_in_view(img: np.ndarray, corners: np.ndarray, t: int = 14, rounds: int = 2,
                    small: np.ndarray | None = None, f: int = 1, box: tuple | None = None,
                    smooth: float = 0.0):
    """Snap the grid onto the squares seen in a rectified view of about 24 px per square.

    Normalising the square size makes the patch finder's scale right whatever the distance,
    and works at (nearly) full resolution for precision.  ``box`` ((lo, hi) square coords): where
    the guess is known to be good; snapping starts there and grows outwards (a guess fitted on a
    small part of the board can be off by more than half a square far from it).  ``smooth``: the
    view blurred this much (sigma, pixels) before patches are looked for, as the try that found
    the lattice blurred its working picture (:func:`_lattice_try`).  A faint try's lattice is
    refined both ways (and by the colour range) and the best fit kept (:func:`_place`): in a
    blurred hand-held photo of a pale board the unsmoothed view's noise hid all but 20 squares,
    fitted 0.18 of a square apart, and the grid came out 0.69 of a square off at a corner
    (smoothed: 125 squares, 0.06, the grid within 0.03); on a sharper pale board the colour
    range sees the premium squares alone, 60 of them, and fits them tighter (0.01 against 0.05:
    the grid within 0.01 of a square against 0.04).
    Returns (corners, info) or None.
    """
    info: dict[str, Any] = {}
    if small is None:
        f = max(1, int(cell_size(corners) // 20))
        small = _downscale(img, f) if f > 1 else None
    for _ in range(rounds):
        cell_full = cell_size(corners)
        src, sf = img, 1
        if small is not None and f > 1 and cell_full / f >= 18:
            src, sf = small, f
        cpx = float(np.clip(cell_full / sf, 14, 28))
        margin = 0.6
        side = int(round((GRID + 2 * margin) * cpx))
        g2i = grid_to_image((corners - (sf - 1) / 2.0) / sf)
        v2g = np.array([[1 / cpx, 0, -margin], [0, 1 / cpx, -margin], [0, 0, 1.0]])
        v2i = g2i @ v2g
        view = cv2.warpPerspective(src, v2i, (side, side), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        P, S = _cell_blobs(cv2.GaussianBlur(view, (0, 0), smooth) if smooth else view, t, k=9)
        if len(P) < 12:
            return None
        g = P / cpx - margin
        keep = ((g > 0) & (g < GRID)).all(1)
        P, S = P[keep], S[keep]
        if len(P) < 12:
            return None
        h = np.linalg.inv(v2g)  # grid -> view, identity guess
        if box is not None:
            res = _snap(P, h, np.asarray(box[0], float), np.asarray(box[1], float), tol=0.3, iters=8, S=S)
            box = None  # the next round starts from a good guess everywhere
        else:
            res = _snap(P, h, tol=0.3, iters=4, S=S)
        if res is None:
            return None
        h, inl, r = res
        if inl.sum() < 12:
            return None
        g2v = h
        new_g2i = v2i @ g2v
        new = corners_from_h(new_g2i) * sf + (sf - 1) / 2.0
        if not np.all(np.isfinite(new)) or not is_convex_quad(new, 8):
            return None
        resid = apply_h(np.linalg.inv(g2v), P[inl]) - 0.5 - r[inl]
        info = {"view_cells": int(inl.sum()), "rms_cells": round(float(np.sqrt((resid ** 2).sum(1).mean())), 3)}
        step = _largest_move(new, corners) / cell_full
        corners = new
        if step < 0.02:
            break
    return corners, info


def _confidence(best: float, second: float) -> float:
    """Map the premium-pattern score and its lead over the next window to 0..1."""
    strength = min(1.0, max(0.0, (best - 4.0) / 14.0))
    lead = min(1.0, max(0.0, (best - second) / 5.0))
    return round(strength * (0.4 + 0.6 * lead), 3)


def _lattice_try(img: np.ndarray, factor: int | None, t: int, side: int, smooth: float = 0.0):
    """The first half of one try at the grid: patches and their lattice, ((small, f, h, inliers,
    coordinates) or None, info).  ``smooth``: the working picture blurred this much (sigma,
    working pixels) before patches are looked for, so that a very low ``t`` sees faint lines."""
    small, f = _working(img, side, factor)
    P, S = _cell_blobs(cv2.GaussianBlur(small, (0, 0), smooth) if smooth else small, t)
    info: dict[str, Any] = {"factor": f, "threshold": t, "patches": int(len(P))}
    if smooth:
        info["smooth"] = smooth
    lat = _lattice(P, S)
    if lat is None:
        info["why"] = "no grid of squares"
        return None, info
    info["cells"] = int(lat[1].sum())
    return (small, f) + tuple(lat), info


def _place(img: np.ndarray, lat, t: int, info: dict, grey: bool = False,
           refine: bool = True) -> BoardLocation | None:
    """The second half of a try: which window of the lattice the premium pattern marks, the
    grid's corners from it, refined.  ``grey``: scored by lightness alone (a picture without
    colour, :func:`vision.pixels.colourless`).  ``info`` is filled in; None: no grid."""
    small, f, h, inl, r = lat
    fits, _ = _premium_fit(small, h, r[inl], grey)
    if not fits:
        info["why"] = "grid too large"
        return None
    best = fits[0]
    second = fits[1][0] if len(fits) > 1 else 0.0
    info.update(score=round(best[0], 2), second=round(second, 2))
    conf = _confidence(best[0], second)
    shift = np.array([[1, 0, best[1]], [0, 1, best[2]], [0, 0, 1.0]])
    hg = h @ shift
    seen = r[inl] - (best[1], best[2])
    box = (np.clip(seen.min(0), 0, GRID - 1), np.clip(seen.max(0), 0, GRID - 1))
    corners = corners_from_h(hg) * f + (f - 1) / 2.0  # working pixel centres -> full-size pixels
    if not np.all(np.isfinite(corners)) or not is_convex_quad(corners, 8):
        info["why"] = "degenerate grid"
        return None
    if refine and conf >= MIN_CONFIDENCE:
        smooth = info.get("smooth", 0.0)
        looks = [(t, 0.0), (-12 if t > 0 else 14, 0.0)]
        if smooth:
            # a try that smoothed its picture: its view is looked at smoothed too, and of the
            # three looks the one whose squares fit the grid best is kept (see _refine_in_view)
            looks.insert(1, (t, smooth))
        reach = 0.8 * cell_size(corners)        # a look moving a corner further is not a refinement

        def near(look) -> bool:
            return look is not None and _largest_move(look[0], corners) < reach

        kept, doubt = None, False
        for tt, sm in looks:
            ref = _refine_in_view(img, corners, tt, small=small, f=f, box=box, smooth=sm)
            if not near(ref):
                continue
            if kept is None or ref[1]["rms_cells"] < kept[1]["rms_cells"]:
                kept = ref
            if not smooth:
                if ref[1]["rms_cells"] > LOOSE_FIT or ref[1]["view_cells"] < FEW_SEEN * info["cells"]:
                    # a grainy photo's noise hides most squares in the plain view and leaves the rest
                    # scattered: the same look at the view smoothed, the better fit kept -- and where
                    # that fits tighter but elsewhere, the lattice itself is in doubt (bent by the
                    # noise: 1.7 squares off at a corner, the plain look fitting it 0.14 apart, the
                    # smoothed one 0.03 apart on a grid 1.5 squares away, the right one)
                    again = _refine_in_view(img, corners, tt, small=small, f=f, box=box, smooth=NOISE_SMOOTH)
                    if again is not None and again[1]["rms_cells"] < ref[1]["rms_cells"]:
                        if near(again):
                            kept = again
                        else:
                            doubt = True
                break                   # the first look that fits, as every other try takes
        if kept is None and not smooth:
            # no look fits in the plain view: the view smoothed, as above (under heavier noise the
            # plain view's squares fit no grid at all, and the lattice's own corners can be 0.5-0.8
            # of a square off)
            again = _refine_in_view(img, corners, looks[0][0], small=small, f=f, box=box, smooth=NOISE_SMOOTH)
            if near(again):
                kept = again
        if kept is not None:
            corners = kept[0]
            info.update(kept[1])
            # a grid refined on few squares is extrapolated far past them: on a white-on-white
            # board 33 squares on one part, fitted 0.03 apart, carried a far corner 0.53 of a
            # square off, where the next try saw 42 squares and placed it within 0.12
            doubt |= kept[1]["view_cells"] < FEW_REFINED and not smooth
            # a faint try's best look still loose: its squares do not make one grid (seed 38100
            # board 77: 45 squares 0.16 apart, the grid 1.27 squares off at confidence 0.37)
            doubt |= kept[1]["rms_cells"] > LOOSE_FIT and bool(smooth)
        if doubt or (kept is None and (info["cells"] < 40 or not smooth)):
            # geometry uncertain: few squares seen and no look fits; or a lattice bent by a grainy
            # photo's noise (47 squares, 1.7 squares off at a corner, every look -- the smoothed
            # one fitting 113 squares 0.04 apart -- moving it further than a look may); or looks
            # that disagree (above): the later tries are made, and a surer one is taken
            conf = round(conf * 0.6, 3)
    corners = order_corners(corners)
    return BoardLocation(corners, conf, "auto", (img.shape[1], img.shape[0]), info)


def _attempts(f0: int, grey: bool) -> list[tuple]:
    """The tries at a lattice, in order: (working factor, patch threshold[, smoothing]).

    The patch finder's colour range (t < 0) first, then deviation from the local mean (t > 0,
    better for faint or blurred lines); then a coarser and a finer working picture."""
    attempts: list[tuple] = [(f0, -12), (f0, 14), (f0 + 1, -12)]
    if f0 > 1:
        attempts.append((f0 - 1, -12))
    attempts.append((f0 + 1, 14))
    if f0 > 1:
        attempts.append((f0 - 1, 14))
    attempts.append((f0, -20))
    if not grey:
        # wide colour ranges, for squares with a grain or a shading of their own (a wooden board far
        # off, turned 40-50 degrees: its squares' grain passes no 12- or 20-level range at 11 px a
        # square).  Not on a picture without colour, where every try is made and two agreeing
        # decide: there they let a real photo made grey agree on a grid a square off
        attempts += [(f0, -30), (f0 - 1, -20)] if f0 > 1 else [(f0, -30)]
    # last, for a pale board whose faint light lines a noisy or blurred photo hides (cream
    # squares, white lines): the picture smoothed, and patches of nearly one colour
    attempts += [(f0, FAINT_T, FAINT_SMOOTH), (f0 + 1, FAINT_T, FAINT_SMOOTH)]
    return attempts


def locate_auto(image: np.ndarray, name: str = "picture", *, allow_outside: bool = False,
                min_confidence: float = MIN_CONFIDENCE, _upscaled: bool = False) -> BoardLocation:
    """Find the grid with no help: lattice of squares + premium pattern.  Raises VisionError.

    A colour picture under :data:`UPSCALE_BELOW` px on its long side where no board is found is
    tried once more at twice its size (:func:`_locate_upscaled`)."""
    t0 = time.perf_counter()
    img = check_picture(image, name)
    h, w = img.shape[:2]
    f0 = max(1, math.ceil(max(h, w) / WORK_SIDE))
    grey = colourless(img[::4 * f0, ::4 * f0])
    attempts = _attempts(f0, grey)
    tried = []
    # prints with no hue of their own (greys, wood tones) on a colour picture: a dark and a light
    # print may not part into the red and blue families; a try whose colour score places no board
    # is scored by lightness too, as a black-and-white picture (on the lattice already found)
    by_lightness: list[BoardLocation] = []
    found: list[BoardLocation] = []
    for f, t, *smooth in attempts:
        lat, info = _lattice_try(img, f, t, WORK_SIDE, smooth[0] if smooth else 0.0)
        tried.append(info)
        loc = None if lat is None else _place(img, lat, t, info, grey)
        if loc is not None:
            found.append(loc)
            if loc.confidence >= 0.8 and not grey:
                break
        if lat is not None and not grey and (loc is None or loc.confidence < min_confidence):
            again = _place(img, lat, t, dict(info), grey=True)
            if again is not None:
                by_lightness.append(again)
    if grey:
        best = _agreed(found, max(min_confidence, GREY_SURE))
    else:
        best = max(found, key=lambda loc: loc.confidence, default=None)
        if best is None or best.confidence < min_confidence:
            # taken only where two tries agree, each HUELESS_SURE sure (at the grey floor, 5 of 30
            # random coloured floors without a board were taken for one)
            hueless = _agreed(by_lightness, HUELESS_SURE)
            if hueless is not None and best is not None and _colour_places_it_elsewhere(best, hueless):
                hueless = None
            best = hueless or best
    if best is None or best.confidence < min_confidence:
        small, _ = _working(img, WORK_SIDE, f0)
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        if _sharpness(gray) < 40:
            if _lightness_spread(gray) < PLAIN_SPREAD:
                raise VisionError(f"{name}: no Scrabble board found: the picture shows one even surface, "
                                  "nothing in it (a wall, a cloth, the lens covered?); point the camera at "
                                  "the board", "no-board")
            raise VisionError(f"{name}: picture too blurred to find the board "
                              "(hold the camera still and focus on the board)", "blurred")
        if not grey and not _upscaled and max(h, w) < UPSCALE_BELOW:
            again = _locate_upscaled(img, name, min_confidence)
            if again is not None:
                again.details["ms"] = round((time.perf_counter() - t0) * 1000, 1)
                if not allow_outside:
                    _check_inside(again, name)
                return again
        if grey:
            raise VisionError(f"{name}: no Scrabble board found: the picture has no colour (black and white), "
                              "and the board is found best by the colours of its premium squares; take the "
                              "picture in colour, or set the board's corners once (a board profile or corner "
                              "markers)", "no-board")
        advice = _low_resolution(w, h) + _overexposed(small)
        if best is None:
            raise VisionError(f"{name}: no Scrabble board found "
                              f"(no grid of squares with the premium-square pattern){advice}", "no-board")
        raise VisionError(f"{name}: no Scrabble board found for sure "
                          f"(best guess only {best.confidence:.2f} confident){advice}", "no-board")
    details = dict(best.details)
    details["attempts"] = len(tried)
    details["ms"] = round((time.perf_counter() - t0) * 1000, 1)
    best = BoardLocation(best.corners, best.confidence, "auto", best.image_size, details)
    if not allow_outside:
        _check_inside(best, name)
    return best


#: A colour picture whose long side is under this many pixels, where no board is found, is looked at
#: again at twice its size.  At 640x480 and 1280x720 a board filling the picture has squares of
#: 20-35 px, and a board with grid lines a twentieth of a square wide, light on light squares,
#: shows them under a pixel or two wide: at the picture's own size (or the working size of a
#: 1280x720 one, halved) the picture's noise breaks its squares up and no lattice of patches forms.
#: Doubled (linear), the lines are two pixels and the noise smoother: of the boards not found on
#: the ``--only sizes`` rows (report seed; those partly out of the frame aside), 4 of 8 at 640x480
#: and 3 of 6 at 1280x720 are found, every one within half a square; 280 low-resolution pictures
#: without a board (tables, floors, chessboards) give no false board, each costing ~160 ms more
#: (at most ~310 ms).
UPSCALE_BELOW = 1400


def _locate_upscaled(img: np.ndarray, name: str, min_confidence: float) -> BoardLocation | None:
    """:func:`locate_auto` on ``img`` at twice its size, its corners taken back to ``img``'s
    pixels; None where no board is found there either."""
    big = cv2.resize(img, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    try:
        # a lattice fitted on the doubled picture's texture can be degenerate (points at
        # infinity): such fits are refused, without numpy's warnings on the players' screen
        with np.errstate(divide="ignore", invalid="ignore"):
            loc = locate_auto(big, name, allow_outside=True, min_confidence=min_confidence, _upscaled=True)
    except VisionError:
        return None
    corners = (loc.corners + 0.5) / 2.0 - 0.5          # pixel centres of the doubled picture -> img's
    return BoardLocation(corners, loc.confidence, "auto", (img.shape[1], img.shape[0]), dict(loc.details, upscaled=2))


#: A picture whose long side is under this many pixels is a low-resolution one (a camera left at
#: OpenCV's 640x480): a board that fills it has squares of about 25 px and grid lines under a
#: pixel wide, which noise and blur hide -- of 100 hand-held renders of 640x480, 4 boards are not
#: found even at twice the size, against 3 at 1280x720 and 2 at 1920x1080 (``bench_read.py
#: --only sizes``, seed 5000; boards partly out of the frame aside).  Its "no board" says so.
LOW_RESOLUTION_SIDE = 1000


#: A colour try's best window leading the next by this much (premium-score units; a lead of 5
#: is a full lead to :func:`_confidence`) is an unambiguous choice of window, however weak its
#: score (:func:`_colour_places_it_elsewhere`).
COLOUR_LEAD_CLEAR = 5.0


def _colour_places_it_elsewhere(by_colour: BoardLocation, by_lightness: BoardLocation) -> bool:
    """Whether the colour tries' best grid, too weak to take but its window unambiguous, is
    more than half a square from the grid the lightness scorings agreed on.

    Then the lightness grid is not taken: a board whose prints have a hue scores by colour,
    however weakly, and lightness alone can take a frame round the grid of the squares' own
    lightness for a column of them.  On a hard-camera scene (`random_scene` seed 35100, board
    197: a hand over the right edge, maroon tiles the colour of the triple-word squares, a frame
    of the plain squares' colour) every colour try placed the grid right at 0.29, under the
    floor, its window 7 ahead of the next, and two lightness scorings agreed on a grid a column
    off at 0.82: it was shown as the board.  A board whose prints have no hue gives the colour
    tries no such lead."""
    lead = by_colour.details.get("score", 0.0) - by_colour.details.get("second", 0.0)
    return lead >= COLOUR_LEAD_CLEAR and corner_error(by_lightness.corners, by_colour.corners) > 0.5


# A picture a quarter or more of whose pixels are pure white (every channel 250 or more) is
# overexposed: a white or cream board's squares clip and the lines between them fade.  Real photos
# of boards: at most 11 % (jheidel, quanyuan: median 0, 99th percentile 9.5 %); the quanyuan
# frames brightened (x1.6 + 30 levels) clip 16-39 %, and the locator refuses 48 of 351 of them.
OVEREXPOSED_SHARE = 0.25


def _overexposed(small: np.ndarray) -> str:
    """The advice a "no board" error ends with on an overexposed picture; '' otherwise."""
    if float((small.min(axis=2) >= 250).mean()) < OVEREXPOSED_SHARE:
        return ""
    return ("; much of the picture is pure white (overexposed): lower the camera's exposure "
            "or turn the lamp away from the board")


def _low_resolution(w: int, h: int) -> str:
    """The advice a "no board" error ends with on a low-resolution picture; '' otherwise."""
    if max(w, h) >= LOW_RESOLUTION_SIDE:
        return ""
    return (f"; the picture is only {w}x{h} px: set the camera to a higher resolution (1920x1080) "
            "or bring it closer to the board")


def _agreed(found: list[BoardLocation], min_confidence: float) -> BoardLocation | None:
    """The most confident of ``found`` (one try each) that another try found too, its corners
    within half a square (GREY_AGREE); None when no two agree.

    For a picture without colour: the premium pattern seen in lightness alone places the window
    less surely, and a try that fitted a slightly wrong lattice on few squares can still score
    well there (a real photo made grey: two squares off at one corner, 0.9 confident, where
    six other tries agreed on the right grid at 0.71-0.79)."""
    ok = sorted((x for x in found if x.confidence >= min_confidence), key=lambda x: -x.confidence)
    for i, loc in enumerate(ok):
        if any(corner_error(other.corners, loc.corners) <= GREY_AGREE for j, other in enumerate(ok) if j != i):
            return loc
    return None


#: Pixels a square of a board's look (:func:`board_look`): enough for grid lines, prints and
#: letters' blobs, small enough that a hundred windows are compared in milliseconds.
LOOK_PX = 8


def _grey_at(image: np.ndarray, corners: np.ndarray, px: int) -> tuple[np.ndarray, np.ndarray]:
    """A grey copy of ``image`` shrunk (area averaging) to about two ``px`` a square of the grid
    at ``corners``, and the corners in it: a warp to ``px`` a square from there does not alias."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    f = max(1, int(cell_size(corners) // (2 * px)))
    return _downscale(grey, f), (as_corners(corners) - (f - 1) / 2.0) / f


#: The look softened this much (pixels of it): the picture it was taken from was placed a
#: quarter of a square off at times (a board followed by optical flow), and its sharp detail
#: then matches its own board hardly better than another window (tried: 0, 1 and 2 px).
LOOK_SOFT = 1.0


def _look_at(grey: np.ndarray, corners: np.ndarray) -> np.ndarray:
    rect = cv2.GaussianBlur(rectify(grey, corners, LOOK_PX).astype(np.float32), (0, 0), LOOK_SOFT)
    # only the detail (lines, prints' edges, letters): a glare or a shadow that moved between
    # two photos shifts the lightness of whole regions, which this takes away
    detail = rect - cv2.GaussianBlur(rect, (0, 0), 1.5 * LOOK_PX)
    norm = float(np.sqrt((detail ** 2).sum()))
    return detail / norm if norm > 0 else detail


def board_look(image: np.ndarray, corners) -> np.ndarray:
    """The board as it looks at ``corners`` in ``image``: its grid straightened in the corners'
    order, grey, ``LOOK_PX`` pixels a square, its detail only, scaled to unit length -- what
    :func:`locate_by_look` finds again in a later picture of the same board."""
    grey, c = _grey_at(image, np.asarray(corners, np.float64), LOOK_PX)
    return _look_at(grey, c)


def look_match(image: np.ndarray, corners, look: np.ndarray) -> float:
    """How much the board at ``corners`` in ``image`` looks like ``look`` (:func:`board_look`):
    1 for the same picture, about 0.7 for another board of the same kind whose tiles lie
    elsewhere, near 0 for a grid placed squares off."""
    return float((board_look(image, corners) * look).sum())


def locate_by_look(image: np.ndarray, look: np.ndarray, name: str = "picture", *,
                   min_match: float = 0.0, min_lead: float = 0.0) -> BoardLocation:
    """Find a board seen before (``look``, :func:`board_look` of an earlier picture) again in
    ``image``: the lattice of squares as :func:`locate_auto` finds it, and the 15x15 window of
    it, and which side up, that looks most like the board did.

    For a picture the premium pattern cannot place (a black-and-white camera, where a board's
    prints can be about as light as its squares), once the board has been found in an earlier
    one: the tiles laid so far and the board's own prints, seen at the same squares, place the
    window where the pattern alone cannot.  The corners come back in the order of the look's
    (the same side up as before).  Raises VisionError when no window matches ``min_match`` with
    a lead of ``min_lead`` over every other window or turn (the board was not seen before, or
    too much of it changed)."""
    t0 = time.perf_counter()
    side = GRID * LOOK_PX
    if np.shape(look) != (side, side):
        raise ValueError(f"a board's look is {side}x{side} (board_look), not {'x'.join(map(str, np.shape(look)))}")
    img = check_picture(image, name)
    h_, w_ = img.shape[:2]
    f0 = max(1, math.ceil(max(h_, w_) / WORK_SIDE))
    scores: list[tuple[float, np.ndarray, dict]] = []
    tried = 0
    for f, t, *smooth in _attempts(f0, grey=True):
        lat, info = _lattice_try(img, f, t, WORK_SIDE, smooth[0] if smooth else 0.0)
        tried += 1
        if lat is None:
            continue
        small, f, h, inl, r = lat
        found = _windows_by_look(small, h, r[inl], look)
        for score, corners in found:
            scores.append((score, corners * f + (f - 1) / 2.0, dict(info)))
        best = max(scores, key=lambda s: s[0], default=None)
        if best is not None and _lead(scores, best) >= min_lead and best[0] >= min_match:
            break
    best = max(scores, key=lambda s: s[0], default=None)
    if best is None or best[0] < min_match or _lead(scores, best) < min_lead:
        raise VisionError(f"{name}: the board was not found again (it does not look as it did; "
                          "take the picture again with the whole board in view)", "no-board")
    score, corners, info = best
    ref = _refine_in_view(img, corners, info["threshold"] if info["threshold"] > 0 else 14)
    if ref is not None and _largest_move(ref[0], corners) < 0.5 * cell_size(corners):
        corners = ref[0]
        info.update(ref[1])
    info.update(match=round(score, 3), lead=round(_lead(scores, best), 3), attempts=tried,
                ms=round((time.perf_counter() - t0) * 1000, 1))
    loc = BoardLocation(as_corners(corners), round(float(min(1.0, score / 0.6)), 3), "look", (w_, h_), info)
    _check_inside(loc, name)
    return loc


def _lead(scores: list, best: tuple) -> float:
    """How far the best window's match stands above any window placed elsewhere (the same
    window turned is not counted: a board with few tiles looks nearly alike either way up, and
    which side is up is the reader's to decide, by the letters)."""
    others = [s for s, c, _ in scores if corner_error(c, best[1]) > GREY_AGREE]
    return best[0] - max(others, default=0.0)


def _windows_by_look(small: np.ndarray, h: np.ndarray, cells: np.ndarray, look: np.ndarray):
    """(match, corners in ``small``'s pixels) of every 15x15 window of the lattice ``h`` that
    holds the squares seen, give or take a row or a column (a square of the board's border can
    pass for one), each in the turn (corner order) that matches ``look`` best."""
    cells = _densest(cells, 21)
    amin, bmin = cells.min(0).astype(int)
    amax, bmax = cells.max(0).astype(int)
    if amax - amin > GRID + 1 or bmax - bmin > GRID + 1:
        return []
    first = None
    out = []
    for a0 in range(amax - GRID, amin + 2):
        for b0 in range(bmax - GRID, bmin + 2):
            shift = np.array([[1, 0, a0], [0, 1, b0], [0, 0, 1.0]])
            c = corners_from_h(h @ shift)
            if not np.all(np.isfinite(c)) or not is_convex_quad(c, 8):
                continue
            c = order_corners(c)
            if first is None:
                first = _grey_at(small, c, LOOK_PX)[0], max(1, int(cell_size(c) // (2 * LOOK_PX)))
            grey, f = first
            best = None
            for k in range(4):
                ck = np.roll(c, -k, axis=0)
                m = float((_look_at(grey, (ck - (f - 1) / 2.0) / f) * look).sum())
                if best is None or m > best[0]:
                    best = (m, ck)
            out.append(best)
    return out


def _check_inside(loc: BoardLocation, name: str, tolerance_cells: float = 0.35) -> None:
    w, h = loc.image_size
    tol = tolerance_cells * loc.cell_px
    c = loc.corners
    out = (c[:, 0] < -tol) | (c[:, 0] > w - 1 + tol) | (c[:, 1] < -tol) | (c[:, 1] > h - 1 + tol)
    if out.any():
        raise VisionError(f"{name}: the board is partly outside the picture ({int(out.sum())} of 4 grid corners "
                          "out of view); move the camera back or centre the board", "outside")


# --------------------------------------------------------------------------------------------
# Refinement from a close guess (tracking, markers, profiles)
# --------------------------------------------------------------------------------------------

def premium_offset(image: np.ndarray, corners, reach: int = 2) -> tuple[int, int] | None:
    """Which way, if any, the premium pattern says a guessed grid is off by whole squares.

    The squares' colours under ``corners`` and ``reach`` squares round it are scored as the
    locator scores a window (:func:`_pattern_score`) for every shift up to ``reach`` squares;
    returns the (columns, rows) shift of the best window, (0, 0) when the guess is as good as
    any, or None when no window shows the pattern (too few premium squares in view).  A snap
    onto the squares seen cannot tell this: the lattice is the same one square further on."""
    img = _as_bgr(image)
    h = grid_to_image(corners)
    side = GRID + 2 * reach
    lab, valid = _cell_colours(img, h, -reach, -reach, side, side)
    lab = np.where(valid[..., None], lab, np.nan)
    win = np.lib.stride_tricks.sliding_window_view(lab, (GRID, GRID), axis=(0, 1))
    n = win.shape[0]
    score = _pattern_score(win.transpose(0, 1, 3, 4, 2).reshape(n * n, GRID * GRID, 3),
                           colourless(img[::8, ::8]))
    best = float(score.max())
    if not np.isfinite(best) or best < 4.0:        # the locator's own floor for "a board here"
        return None
    here = float(score[reach * n + reach])
    if here >= best - 1e-6:
        return (0, 0)
    oy, ox = divmod(int(np.argmax(score)), n)
    return ox - reach, oy - reach


def refine_corners(image: np.ndarray, corners, *, max_shift_cells: float = 0.6) -> tuple[np.ndarray, dict] | None:
    """Snap a close guess (within ~0.4 square everywhere) onto the squares actually seen.

    Used after markers, profiles and tracking.  Returns (corners in the same order, info) or
    None when too few squares agree (board covered, guess too far off...).  It does not
    re-decide which 15x15 window is the grid: the guess must already be right to within half
    a square, and a result that moves a corner by more than ``max_shift_cells`` is refused.
    A snap whose squares fit looser than LOOSE_FIT (or none) is looked for again in the view
    smoothed (a grainy photo); one still that loose is refused too.
    """
    img = _as_bgr(image)
    guess = as_corners(corners)
    cs = cell_size(guess)

    def near(look) -> bool:
        return look is not None and _largest_move(look[0], guess) <= max_shift_cells * cs

    def tight(look) -> bool:
        return near(look) and look[1]["rms_cells"] <= LOOSE_FIT

    found = None
    for t in (-12, 14):
        ref = _refine_in_view(img, guess, t)
        if near(ref):
            found = ref
            break
    if not tight(found):
        # a grainy photo (see _place): a loose look, or none, is made again in the view smoothed,
        # and a snap still that loose is not taken -- a tracked board's corners were carried off
        # by the noise a little more each frame (snaps fitted 0.18-0.19 of a square apart)
        again = _refine_in_view(img, guess, t if found is not None else -12, smooth=NOISE_SMOOTH)
        found = again if tight(again) else None
    if found is None:
        return None
    info = dict(found[1])
    info["moved_cells"] = round(_largest_move(found[0], guess) / cs, 3)
    return as_corners(found[0]), info


# --------------------------------------------------------------------------------------------
# Markers (ArUco DICT_4X4_50, four cards outside the grid corners)
# --------------------------------------------------------------------------------------------

_DEFAULT_LAYOUT = {"dictionary": "DICT_4X4_50", "ids": [0, 1, 2, 3], "card_margin": 0.25}


def load_marker_layout(path: str | Path | None = None) -> dict[str, Any]:
    """The marker card layout (calibration/markers/layout.json, or built-in defaults)."""
    p = Path(path) if path is not None else MARKER_LAYOUT_PATH
    if not p.exists():
        if path is not None:
            raise VisionError(f"{p}: marker layout file not found", "not-found")
        return dict(_DEFAULT_LAYOUT)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise VisionError(f"{p}: marker layout file unreadable ({exc})", "bad-input") from exc
    layout = dict(_DEFAULT_LAYOUT)
    layout.update({k: data[k] for k in ("dictionary", "ids", "card_margin") if k in data})
    return layout


_DETECTORS: dict[str, Any] = {}


def _aruco_detector(dictionary: str):
    det = _DETECTORS.get(dictionary)
    if det is None:
        if not hasattr(cv2, "aruco"):
            raise VisionError("this OpenCV has no ArUco module (install opencv-python-headless >= 4.7)", "no-markers")
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        det = cv2.aruco.ArucoDetector(d, params)
        _DETECTORS[dictionary] = det
    return det


def find_markers(image: np.ndarray, layout: dict | None = None) -> dict[int, np.ndarray]:
    """ArUco markers of the layout's ids in view: id -> (4, 2) marker corners (own order).

    Large pictures are searched at half size (4-5 times faster) and the corners then refined
    on the full picture; if that finds fewer than four, the full picture is searched too.
    """
    lay = layout or load_marker_layout()
    img = _as_bgr(image)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    det = _aruco_detector(lay["dictionary"])
    wanted = set(int(i) for i in lay["ids"])

    def detect(g: np.ndarray, scale: float) -> dict[int, np.ndarray]:
        corners, ids, _ = det.detectMarkers(g)
        found: dict[int, np.ndarray] = {}
        if ids is None:
            return found
        for c, i in zip(corners, ids.ravel()):
            i = int(i)
            if i in wanted and i not in found:
                found[i] = c.reshape(4, 2).astype(np.float64) * scale
        return found

    found: dict[int, np.ndarray] = {}
    if max(gray.shape) > 1400:
        half = _downscale(gray, 2)
        found = detect(half, 2.0)
        if found:
            pts = np.concatenate([c for c in found.values()]).astype(np.float32).reshape(-1, 1, 2) + 0.5
            crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 0.01)
            pts = cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1), crit).reshape(-1, 4, 2)
            found = {k: pts[j].astype(np.float64) for j, k in enumerate(found)}
    if len(found) < len(wanted):
        full = detect(gray, 1.0)
        if len(full) > len(found):
            found = full
    return found


def locate_markers(image: np.ndarray, name: str = "picture", *, layout: dict | None = None,
                   refine: bool = True, allow_outside: bool = False) -> BoardLocation:
    """Grid corners from the four marker cards (each card touches one grid corner)."""
    img = check_picture(image, name)
    lay = layout or load_marker_layout()
    found = find_markers(img, lay)
    if len(found) < 4:
        missing = sorted(set(int(i) for i in lay["ids"]) - set(found))
        raise VisionError(f"{name}: only {len(found)} of 4 corner markers in view (missing card(s) {missing}); "
                          "make sure all four cards are visible and not covered", "no-markers")
    q = float(lay["card_margin"])
    card = np.array([[-q, -q], [1 + q, -q], [1 + q, 1 + q], [-q, 1 + q]])
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    centres = np.array([c.mean(axis=0) for c in found.values()])
    middle = centres.mean(axis=0)
    pts = []
    for c in found.values():
        hm = cv2.getPerspectiveTransform(unit, c.astype(np.float32))
        cc = apply_h(hm, card)
        pts.append(cc[np.argmin(np.linalg.norm(cc - middle, axis=1))])
    corners = order_corners(np.array(pts))
    marker_side = float(np.mean([np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1).mean() for c in found.values()]))
    if cell_size(corners) * GRID < 3 * marker_side:  # a real grid is 6-10 cards wide
        raise VisionError(f"{name}: the four corner markers are too close together to mark a board "
                          "(lay them at the four corners of the playing grid)", "no-markers")
    if not is_convex_quad(corners, 8):
        raise VisionError(f"{name}: the four corner markers do not make a square "
                          "(is one card in the wrong place?)", "no-markers")
    info: dict[str, Any] = {"markers": sorted(found)}
    conf = 0.95
    if refine:
        ref = refine_corners(img, corners)
        if ref is not None:
            corners, rinfo = order_corners(ref[0]), ref[1]
            info.update(refined=rinfo)
            conf = 0.99
    loc = BoardLocation(corners, conf, "markers", (img.shape[1], img.shape[0]), info)
    if not allow_outside:
        _check_inside(loc, name)
    return loc


# --------------------------------------------------------------------------------------------
# Board profiles (corners set by hand once and kept)
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class BoardProfile:
    """Four grid corners (TL, TR, BR, BL, pixels) for pictures of ``image_size`` (width, height)."""

    corners: np.ndarray
    image_size: tuple[int, int]
    name: str = "board"
    note: str = ""

    def corners_for(self, width: int, height: int) -> np.ndarray:
        """Corners for a picture of another size with the same shape (scaled); else VisionError."""
        w0, h0 = self.image_size
        if (width, height) == (w0, h0):
            return self.corners.copy()
        sx, sy = width / w0, height / h0
        if abs(sx - sy) > 0.01 * max(sx, sy):
            raise VisionError(f"board profile {self.name!r} was made for {w0}x{h0} pictures, this one is "
                              f"{width}x{height} (another shape): set the corners again", "bad-profile")
        return self.corners * np.array([sx, sy])


def save_profile(path: str | Path, corners, image_size: Sequence[int], name: str = "board",
                 note: str = "") -> BoardProfile:
    """Write a board profile JSON (corners TL, TR, BR, BL in pixels, image width/height)."""
    c = as_corners(corners)
    if not is_convex_quad(c, 4):
        raise VisionError(f"{path}: the four corners do not make a quadrilateral "
                          "(give them in order TL, TR, BR, BL)", "bad-profile")
    w, h = (int(image_size[0]), int(image_size[1]))
    prof = BoardProfile(c, (w, h), name, note)
    data = {"kind": "table-companion board profile", "version": 1, "name": name,
            "image_size": [w, h], "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in c],
            "corner_order": "TL, TR, BR, BL of the 15x15 playing grid, image pixels",
            "note": note, "saved": time.strftime("%Y-%m-%dT%H:%M:%S")}
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return prof


def load_profile(path: str | Path) -> BoardProfile:
    """Read a board profile written by :func:`save_profile`; VisionError names what is wrong."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise VisionError(f"{p}: board profile not found", "not-found") from None
    except (OSError, ValueError) as exc:
        raise VisionError(f"{p}: board profile unreadable ({exc})", "bad-profile") from exc
    try:
        corners = as_corners(data["corners"])
        w, h = (int(v) for v in data["image_size"])
    except (KeyError, TypeError, ValueError) as exc:
        raise VisionError(f"{p}: board profile needs 'corners' (four [x, y]) and 'image_size' ([w, h])",
                          "bad-profile") from exc
    if w <= 0 or h <= 0 or not is_convex_quad(corners, 4):
        raise VisionError(f"{p}: board profile has an impossible image size or corners", "bad-profile")
    return BoardProfile(corners, (w, h), str(data.get("name", "board")), str(data.get("note", "")))


def locate_from_profile(profile: BoardProfile | str | Path, image: np.ndarray, name: str = "picture", *,
                        refine: bool = False) -> BoardLocation:
    """Grid corners from a saved profile (optionally snapped onto the squares seen)."""
    prof = profile if isinstance(profile, BoardProfile) else load_profile(profile)
    img = _as_bgr(image, name)
    corners = prof.corners_for(img.shape[1], img.shape[0])
    conf, info = 0.9, {"profile": prof.name}
    if refine:
        ref = refine_corners(img, corners)
        if ref is not None:
            corners, conf = order_corners(ref[0]), 0.95
            info["refined"] = ref[1]
    return BoardLocation(as_corners(corners), conf, "profile", (img.shape[1], img.shape[0]), info)


# --------------------------------------------------------------------------------------------
# One entry point
# --------------------------------------------------------------------------------------------

def locate_board(image: np.ndarray, name: str = "picture", *, profile: BoardProfile | str | Path | None = None,
                 method: str = "any", allow_outside: bool = False) -> BoardLocation:
    """Find the grid: ``method`` "any" (the profile if given; else automatic, and the four
    corner markers when the automatic locator cannot decide), "auto", "markers" or "profile".
    Raises VisionError with a clear reason."""
    if method not in ("any", "auto", "markers", "profile"):
        raise ValueError(f"unknown method {method!r}")
    if method == "profile" or (method == "any" and profile is not None):
        if profile is None:
            raise VisionError(f"{name}: no board profile given", "bad-profile")
        return locate_from_profile(profile, image, name)
    if method == "markers":
        return locate_markers(image, name, allow_outside=allow_outside)
    img = check_picture(image, name)
    if method == "auto":
        return locate_auto(img, name, allow_outside=allow_outside)
    # "any": the automatic locator first (fast, needs nothing); markers when it cannot decide
    try:
        return locate_auto(img, name, allow_outside=allow_outside)
    except VisionError as auto_error:
        try:
            if len(find_markers(img)) == 4:
                return locate_markers(img, name, allow_outside=allow_outside)
        except VisionError:
            pass
        raise auto_error
