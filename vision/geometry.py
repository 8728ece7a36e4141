"""Plane geometry of the playing grid: corner order, homographies, rectification.

Conventions used throughout ``vision``:

* Corners are a float array of shape (4, 2), image pixels ``(x, y)``, in the order
  TL, TR, BR, BL of the *grid* (the 15x15 playing squares, not the board's outer edge).
  The automatic locator cannot know which side of the board is "up" (the premium-square
  layout is symmetric), so it returns the corners in the order they appear in the image
  (TL = the corner nearest the picture's top-left, then clockwise on screen).  Whoever
  decides which way the board reads (from the letters) turns the order with
  :func:`rotate_corners`.
* Grid coordinates are in squares: ``(0, 0)`` is the grid's TL corner, ``(15, 15)`` its BR
  corner, the centre of square (row r, column c) is ``(c + 0.5, r + 0.5)``.

Nothing here knows game rules; the premium layout below is only a visual cue (where the
coloured squares are printed on every standard 15x15 board).
"""

from __future__ import annotations

import numpy as np
import cv2

GRID = 15

# Standard premium-square layout, used only as a picture: T = triple word (red), D = double
# word (pink/red), t = triple letter (dark blue), d = double letter (light blue).  The centre
# square is printed as a double word (often with a star).  The pattern is symmetric under all
# eight rotations/reflections of the square, so it fixes the grid but not which side is up.
_HALF = ["T..d...T...d..T",
         ".D...t...t...D.",
         "..D...d.d...D..",
         "d..D...d...D..d",
         "....D.....D....",
         ".t...t...t...t.",
         "..d...d.d...d..",
         "T..d...D...d..T"]
PREMIUM_LAYOUT: tuple[str, ...] = tuple(_HALF + _HALF[:7][::-1])

#: Square (row, col) lists per colour family: "red" (word premiums) and "blue" (letter premiums).
RED_SQUARES = tuple((r, c) for r in range(GRID) for c in range(GRID) if PREMIUM_LAYOUT[r][c] in "TD")
BLUE_SQUARES = tuple((r, c) for r in range(GRID) for c in range(GRID) if PREMIUM_LAYOUT[r][c] in "td")

#: Unit square in grid coordinates, TL, TR, BR, BL.
GRID_CORNERS = np.array([[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]], dtype=np.float64)


def as_corners(corners) -> np.ndarray:
    """Corners as a (4, 2) float64 array; raises ValueError for anything else."""
    arr = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
    if arr.shape != (4, 2) or not np.all(np.isfinite(arr)):
        raise ValueError(f"expected four (x, y) corners, got {np.asarray(corners).tolist()!r}")
    return arr


def order_corners(points) -> np.ndarray:
    """Four points of a convex quadrilateral in screen order TL, TR, BR, BL.

    Clockwise as seen on screen (y down), starting with the point that has the smallest
    ``x + y`` (the one nearest the picture's top-left).
    """
    pts = as_corners(points)
    centre = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(ang)]  # increasing angle = clockwise on screen
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def rotate_corners(corners, k: int = 1) -> np.ndarray:
    """Relabel the corners for a board turned by ``k`` quarter turns.

    ``rectify(img, rotate_corners(c, k))`` equals ``turn_rectified(rectify(img, c), k)``
    (counter-clockwise quarter turns, as numpy's rot90): use it when the letters read upright only
    after turning the rectified picture.  ``k`` may be any integer; the quadrilateral is unchanged.
    """
    return np.roll(as_corners(corners), -int(k) % 4, axis=0)


# rectify puts the grid's edges on pixel centres 0 and n, so the board's middle lies at n/2, half a
# pixel past the middle of the n-pixel array that np.rot90 and cv2.flip turn about: turned or
# mirrored as an array, a rectified board comes out a pixel off along the axes the turn reverses
# (a board seen from another side of the table then reads other squares than the same board seen
# upright).  These turn and mirror it about the board's own middle instead.


def _keep_middle(picture: np.ndarray, down: int, right: int) -> np.ndarray:
    """``picture`` moved ``down`` rows and ``right`` columns (0 or 1), its first ones repeated."""
    if not down and not right:
        return np.ascontiguousarray(picture)
    out = np.empty_like(picture)
    h, w = picture.shape[:2]
    out[down:, right:] = picture[:h - down, :w - right]
    if down:
        out[0, right:] = picture[0, :w - right]
    if right:
        out[:, 0] = out[:, 1]
    return out


def turn_rectified(picture: np.ndarray | None, k: int) -> np.ndarray | None:
    """A rectified picture (:func:`rectify`) turned by k quarter turns (as np.rot90) about the
    board's middle: what rectifying from the corners :func:`rotate_corners` gives (None stays None)."""
    if picture is None:
        return None
    k %= 4
    return _keep_middle(np.rot90(picture, k), int(k in (1, 2)), int(k in (2, 3)))


def mirror_rectified(picture: np.ndarray | None) -> np.ndarray | None:
    """A rectified picture mirrored left to right about the board's middle (None stays None).
    (cv2.flip: ~0.1 ms for a board, a numpy copy of the reversed view ~1.7 ms.)"""
    return None if picture is None else _keep_middle(cv2.flip(picture, 1), 0, 1)


def grid_to_image(corners) -> np.ndarray:
    """3x3 homography taking grid coordinates (squares, 0..15) to image pixels."""
    return cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), as_corners(corners).astype(np.float32))


def image_to_grid(corners) -> np.ndarray:
    """3x3 homography taking image pixels to grid coordinates (squares, 0..15)."""
    return cv2.getPerspectiveTransform(as_corners(corners).astype(np.float32), GRID_CORNERS.astype(np.float32))


def apply_h(h: np.ndarray, pts) -> np.ndarray:
    """Apply a homography to an (N, 2) array of points."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.hstack([p, np.ones((len(p), 1))]) @ np.asarray(h, dtype=np.float64).T
    return q[:, :2] / q[:, 2:3]


def corners_from_h(h_grid_to_image: np.ndarray) -> np.ndarray:
    """The four grid corners (TL, TR, BR, BL in grid order) under a grid->image homography."""
    return apply_h(h_grid_to_image, GRID_CORNERS)


def square_centres(corners) -> np.ndarray:
    """(15, 15, 2) image positions of the 225 square centres, indexed [row, col]."""
    g = np.stack(np.meshgrid(np.arange(GRID) + 0.5, np.arange(GRID) + 0.5), axis=-1).reshape(-1, 2)
    return apply_h(grid_to_image(corners), g).reshape(GRID, GRID, 2)


def rectify(image: np.ndarray, corners, cell_px: int = 40, margin_cells: float = 0.0,
            interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    """Warp the grid to a square picture of ``15 * cell_px`` pixels (plus an optional margin).

    Square (row r, col c) then occupies ``[r*cell_px, (r+1)*cell_px) x [c*cell_px, (c+1)*cell_px)``
    (shifted by ``margin_cells * cell_px`` when a margin is asked for).
    """
    if cell_px < 1:
        raise ValueError("cell_px must be at least 1")
    m = float(margin_cells) * cell_px
    side = int(round(GRID * cell_px + 2 * m))
    dst = (GRID_CORNERS * cell_px + m).astype(np.float32)
    h = cv2.getPerspectiveTransform(as_corners(corners).astype(np.float32), dst)
    return cv2.warpPerspective(image, h, (side, side), flags=interpolation, borderMode=cv2.BORDER_REPLICATE)


def cell_size(corners) -> float:
    """Mean side of one square in pixels (mean grid side / 15)."""
    c = as_corners(corners)
    sides = np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)
    return float(sides.mean() / GRID)


def square_sizes(corners) -> np.ndarray:
    """(15, 15): each square's size in the picture, in pixels, along the direction the view
    shrinks it most (the smaller singular value of the grid-to-picture map at its centre).  On a
    board seen at a slant the far rows' squares are flattened: wide, but few pixels high."""
    h = grid_to_image(corners)
    ys, xs = np.mgrid[0:GRID, 0:GRID] + 0.5
    p = np.stack([xs.ravel(), ys.ravel(), np.ones(GRID * GRID)])          # (3, 225), x = column
    q = h @ p
    w = q[2]
    # d(q[:2] / w) / d(x, y) = (H[:2, :2] w - q[:2] H[2, :2]) / w^2, for each square
    jac = (h[None, :2, :2] * w[:, None, None] - q[:2].T[:, :, None] * h[None, 2, :2][:, None, :]) / (w ** 2)[:, None, None]
    return np.linalg.svd(jac, compute_uv=False)[:, -1].reshape(GRID, GRID)


def local_cell_sizes(corners) -> np.ndarray:
    """Per corner, the square size there: mean of the two grid sides meeting at it, / 15."""
    c = as_corners(corners)
    nxt = np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)   # side i -> i+1
    prv = np.roll(nxt, 1)                                      # side i-1 -> i
    return (nxt + prv) / 2 / GRID


def corner_error(found, truth, up_to_rotation: bool = True) -> float:
    """Largest corner distance divided by the local square size, in squares.

    With ``up_to_rotation`` the best of the four cyclic relabellings is taken (the automatic
    locator does not decide which side is up).  Below 0.5 means every corner is within half a
    square of the truth.
    """
    f, t = as_corners(found), as_corners(truth)
    size = local_cell_sizes(t)
    shifts = range(4) if up_to_rotation else (0,)
    best = np.inf
    for k in shifts:
        for cand in (np.roll(f, -k, axis=0), np.roll(f[::-1], -k, axis=0)):
            e = float(np.max(np.linalg.norm(cand - t, axis=1) / size))
            best = min(best, e)
    return best


def is_convex_quad(corners, min_side: float = 1.0) -> bool:
    """True when the four corners form a convex, non-degenerate quadrilateral."""
    c = as_corners(corners)
    d = np.roll(c, -1, axis=0) - c
    cross = d[:, 0] * np.roll(d, -1, axis=0)[:, 1] - d[:, 1] * np.roll(d, -1, axis=0)[:, 0]
    return bool((np.all(cross > 0) or np.all(cross < 0)) and np.all(np.linalg.norm(d, axis=1) >= min_side))
