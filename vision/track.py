"""Keep the board from frame to frame, so a nudged tablet does not lose it.

:class:`BoardTracker` finds the grid once (automatically, from markers or from a profile) and
then follows it cheaply:

1. optical flow (pyramidal Lucas-Kanade) of corner features on and around the grid, in a small
   grey copy of the frame, gives the frame-to-frame motion as a homography (RANSAC, so hands and
   newly laid tiles do not fool it);
2. if the board did not move (all grid corners within 3% of a square), the previous corners are
   kept as they are -- the common case between two moves, costs a few milliseconds;
3. if it moved, the predicted corners are snapped onto the squares actually seen
   (:func:`vision.locate.refine_corners`-style, in a rectified view), which removes drift;
4. only when tracking fails (too few features followed, a wild jump, nothing to snap to) is the
   board located again from scratch;
5. and where that fails too (a black-and-white picture whose prints are as light as its squares),
   the board is found again by how it looked in the last picture it was found in
   (:func:`vision.locate.locate_by_look`); photos, one a move, also have a board followed from
   the last photo checked against that look.

``update(image)`` returns a :class:`~vision.locate.BoardLocation` whose ``method`` says what
happened ("tracked", "still", "kept", "look", or the locator's own method after a relocation) and raises
VisionError when the board cannot be found at all (hand over the whole board, camera knocked
away...).  The corner order stays consistent between frames (a relocation is matched back to
the previous order), so a reader's upright decision survives -- except where the picture's shape
changed (a phone turned from portrait to landscape between two photos): then the location's
``details["framed_anew"]`` is True and the reader must decide the way up again
(:meth:`vision.read.BoardReader.decide_way_up_again`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

import cv2
import numpy as np

from vision.errors import VisionError
from vision.geometry import apply_h, as_corners, cell_size, corner_error, is_convex_quad
from vision import locate as _loc
from vision.locate import BoardLocation

__all__ = ["BoardTracker", "TrackerStats"]

_FLOW_SIDE = 480            # long side of the grey picture the flow runs on
_STILL_CELLS = 0.03         # corners moving less than this (in squares) = board did not move
_MAX_JUMP_CELLS = 4.0       # larger frame-to-frame motion is not trusted: relocate
_DOUBT_CELLS = 0.5          # a flow motion under this may be no motion at all (see _track)
_STAYED_CELLS = 0.15        # ... and a snap from the old corners moving them less says it was none
_LOOK_MATCH, _LOOK_LEAD = 0.5, 0.15   # a board found again by its look: how alike, how far ahead
_KEPT_CELLS = 0.3           # the last frame's board, snapped onto this frame's squares, may move this much


@dataclass
class TrackerStats:
    frames: int = 0
    still: int = 0
    tracked: int = 0
    relocated: int = 0
    lost: int = 0
    by_look: int = 0
    ms: list[float] = field(default_factory=list)


class BoardTracker:
    """Follow the board across frames.

    ``locator``: how to find the board from scratch (default :func:`vision.locate.locate_board`
    with the given ``profile``); any callable ``(image, name) -> BoardLocation``.
    ``verify_every``: also snap the corners onto the squares every N "still" frames (0 = never),
    which catches a slow creep the flow cannot see.
    ``photos``: the frames are photos, one a move, not video: a small motion the flow sees
    between two of them is checked with a snap from where the board was (see :meth:`_track`;
    ~2-15 ms a moved frame, which video does not need).
    """

    def __init__(self, locator: Callable[[np.ndarray, str], BoardLocation] | None = None, *,
                 profile: Any = None, verify_every: int = 0, photos: bool = False) -> None:
        if locator is None:
            def locator(image: np.ndarray, name: str) -> BoardLocation:
                return _loc.locate_board(image, name, profile=profile)
        self.locator = locator
        self.verify_every = int(verify_every)
        self.photos = bool(photos)
        self.location: BoardLocation | None = None
        self.stats = TrackerStats()
        self._prev_gray: np.ndarray | None = None
        self._prev_pts: np.ndarray | None = None
        self._scale = 1.0
        self._since_verify = 0
        self._kept_pts: np.ndarray | None = None
        self._look_source: tuple[np.ndarray, np.ndarray] | None = None   # last picture found, and where

    # ----------------------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget the board (the next update locates it from scratch)."""
        self.location = None
        self._prev_gray = None
        self._prev_pts = None
        self._look_source = None

    def _by_look(self, img: np.ndarray, name: str, look: np.ndarray | None = None) -> BoardLocation | None:
        """The board found again by how it looked when last found (:func:`vision.locate.locate_by_look`):
        where the locator could not find it from scratch (a black-and-white picture, or a hand-held
        photo framed anew, whose premium prints cannot place the grid), or where a photo's board
        followed from the last one does not look as it did.  None when it does not match surely.
        The last look is kept when a picture is lost (a hand over the board)."""
        if look is None:
            if self._look_source is None:
                return None
            look = _loc.board_look(*self._look_source)
        try:
            return _loc.locate_by_look(img, look, name, min_match=_LOOK_MATCH, min_lead=_LOOK_LEAD)
        except VisionError:
            return None

    def _checked_by_look(self, img: np.ndarray, loc: BoardLocation, name: str) -> BoardLocation:
        """Photos: a board followed from the last photo (by the flow, or snapped where it was)
        that does not look as it did there is looked for by its look; where it is found surely
        elsewhere, that is where it is.  Between two hand-held photos framed anew the flow can
        follow the wrong points and snap the grid onto squares several squares off, and every
        later photo then follows from there (seen: six squares off, three photos of one turn)."""
        if self._look_source is None:
            return loc
        look = _loc.board_look(*self._look_source)
        if _loc.look_match(img, loc.corners, look) >= _LOOK_MATCH:
            return loc
        found = self._by_look(img, name, look)
        if found is None or corner_error(found.corners, loc.corners) < 0.5:
            return loc
        self.stats.by_look += 1
        return found

    def update(self, image: np.ndarray, name: str = "frame") -> BoardLocation:
        """The board in this frame (tracked when possible, else located again)."""
        t0 = time.perf_counter()
        img = _loc._as_bgr(image, name)
        gray, scale = self._small_gray(img)
        self.stats.frames += 1
        loc = None
        if self.location is not None and self._prev_gray is not None \
                and self.location.image_size == (img.shape[1], img.shape[0]):
            loc = self._track(img, gray, scale, name)
        unsure = None
        if loc is None and self.location is not None and self.location.image_size == (img.shape[1], img.shape[0]):
            here, offset = self._where_it_was(img)
            if here is not None and offset == (0, 0):
                loc = here
                self.stats.tracked += 1
            elif here is not None and offset is None:
                unsure = here           # the pattern cannot tell: used if locating afresh fails
        if loc is None:
            try:
                found = self.locator(img, name)
            except VisionError:
                found = self._by_look(img, name)
                self.stats.by_look += found is not None
                found = found or unsure
                if found is None:
                    self.stats.lost += 1
                    self.location, self._prev_gray, self._prev_pts = None, None, None   # the look stays
                    raise
            if self.location is not None and found.method != "look":
                if found.image_size == self.location.image_size:
                    found = _match_order(found, self.location.corners)
                else:
                    # a picture of another shape (a phone turned from portrait to landscape):
                    # where the corners were in the last one says nothing of which is which now
                    found.details["framed_anew"] = True
            loc = found
            self.stats.relocated += 1
        if self.photos and loc.method in ("tracked", "kept"):
            loc = self._checked_by_look(img, loc, name)
        self.location = loc
        self._look_source = (gray, loc.corners * scale)
        kept = self._kept_pts
        self._kept_pts = None
        if loc.method == "still" and kept is not None and len(kept) >= 40:
            self._prev_gray, self._prev_pts = gray, kept   # nothing moved: keep following the same points
        else:
            self._remember(gray, scale, loc)
        self.stats.ms.append((time.perf_counter() - t0) * 1000)
        return loc

    # ----------------------------------------------------------------------------------------
    def _small_gray(self, img: np.ndarray) -> tuple[np.ndarray, float]:
        h, w = img.shape[:2]
        f = max(1, int(np.ceil(max(h, w) / _FLOW_SIDE)))
        if f % 2 == 0:  # halve in colour (fast path), then grey, then the rest
            small = cv2.cvtColor(_loc._downscale(img, 2), cv2.COLOR_BGR2GRAY)
            return _loc._downscale(small, f // 2), 1.0 / f
        return _loc._downscale(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), f), 1.0 / f

    def _remember(self, gray: np.ndarray, scale: float, loc: BoardLocation) -> None:
        """Pick features to follow: on the grid and a little around it (board edge, tiles)."""
        self._prev_gray = gray
        self._scale = scale
        c = loc.corners * scale
        centre = c.mean(axis=0)
        grown = centre + (c - centre) * 1.12
        mask = np.zeros(gray.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 255)
        cs = max(3.0, cell_size(c))
        pts = cv2.goodFeaturesToTrack(gray, maxCorners=120, qualityLevel=0.01,
                                      minDistance=max(4.0, cs * 0.6), mask=mask, blockSize=5)
        self._prev_pts = pts.reshape(-1, 2).astype(np.float32) if pts is not None else None

    def _where_it_was(self, img: np.ndarray) -> tuple[BoardLocation | None, tuple[int, int] | None]:
        """The board where it was in the last frame, snapped onto the squares seen, when the flow
        cannot follow it (a photo per move: new tiles, other light, a glare spot elsewhere).

        A camera on a stand has not moved; locating from scratch instead can latch onto the
        lattice of the tiles themselves on a crowded board, which a tilted camera sees shifted
        off their squares (late in a game, the premium squares that fix the grid are covered).
        But a camera that did move by about a whole number of squares snaps onto the same
        lattice one square further on: the premium pattern says whether the squares it holds
        are the grid's (``vision.locate.premium_offset``: (0, 0) yes, another shift no, None
        cannot tell).  Returns (location or None, that offset)."""
        prev = self.location
        assert prev is not None
        ref = _loc.refine_corners(img, prev.corners, max_shift_cells=_KEPT_CELLS)
        if ref is None:
            return None, None
        corners, info = ref
        corners = as_corners(corners)
        offset = _loc.premium_offset(img, corners)
        size = (img.shape[1], img.shape[0])
        return BoardLocation(corners, prev.confidence, "kept", size, dict(info, premium_offset=offset)), offset

    def _track(self, img: np.ndarray, gray: np.ndarray, scale: float, name: str) -> BoardLocation | None:
        prev = self.location
        assert prev is not None
        if self._prev_pts is None or len(self._prev_pts) < 8:
            return None
        p0 = self._prev_pts.reshape(-1, 1, 2)
        lk = dict(winSize=(21, 21), maxLevel=3,
                  criteria=(cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20, 0.03))
        p1, st, _ = cv2.calcOpticalFlowPyrLK(self._prev_gray, gray, p0, None, **lk)
        if p1 is None:
            return None
        p0r, st_b, _ = cv2.calcOpticalFlowPyrLK(gray, self._prev_gray, p1, None, **lk)
        back = np.linalg.norm((p0r - p0).reshape(-1, 2), axis=1)
        good = (st.ravel() == 1) & (st_b.ravel() == 1) & (back < 1.0)
        if good.sum() < 8:
            return None
        a, b = p0.reshape(-1, 2)[good], p1.reshape(-1, 2)[good]
        hmat, inl = cv2.findHomography(a, b, cv2.RANSAC, 1.5)
        if hmat is None or inl is None or inl.sum() < max(8, 0.4 * good.sum()):
            return None
        self._kept_pts = b[inl.ravel() > 0].astype(np.float32)
        old = prev.corners
        new = apply_h(hmat, old * scale) / scale
        cs = cell_size(old)
        move = float(np.linalg.norm(new - old, axis=1).max() / cs)
        if not np.all(np.isfinite(new)) or move > _MAX_JUMP_CELLS or not is_convex_quad(new, 8):
            return None
        size = (img.shape[1], img.shape[0])
        if move < _STILL_CELLS:
            self._since_verify += 1
            if not self.verify_every or self._since_verify < self.verify_every:
                self.stats.still += 1
                return BoardLocation(old, prev.confidence, "still", size,
                                     {"moved_cells": round(move, 3), "features": int(inl.sum())})
        self._since_verify = 0
        # moved (or time to verify): snap onto the squares actually seen
        ref = None
        if self.photos and move < _DOUBT_CELLS:
            # the flow between two photos (new tiles, other light) can see a small motion that
            # is not there, and a snap from that guess drifts onto the tiles' own lattice, which
            # a tilted camera sees shifted off the squares: where a snap from the old corners
            # finds the board (nearly) where it was, it was not moved
            stay = _loc.refine_corners(img, old, max_shift_cells=_KEPT_CELLS)
            if stay is not None and stay[1].get("moved_cells", 1.0) < _STAYED_CELLS:
                ref = stay
        if ref is None:
            ref = _loc.refine_corners(img, new)
        if ref is not None:
            corners, info = ref
            conf = min(prev.confidence, 0.99)
        elif move < 0.5:
            corners, info, conf = new, {}, prev.confidence * 0.9  # flow only: fine for small moves
        else:
            return None
        corners = as_corners(corners)
        if not _inside(corners, size, cs):
            raise VisionError(f"{name}: the board is partly outside the picture; "
                              "move the camera back or centre the board", "outside")
        self.stats.tracked += 1
        info = dict(info, moved_cells=round(move, 3), features=int(inl.sum()))
        return BoardLocation(corners, round(float(conf), 3), "tracked", size, info)


def _inside(c: np.ndarray, size: tuple[int, int], cs: float) -> bool:
    w, h = size
    tol = 0.35 * cs
    return bool(((c[:, 0] >= -tol) & (c[:, 0] <= w - 1 + tol) & (c[:, 1] >= -tol) & (c[:, 1] <= h - 1 + tol)).all())


def _match_order(loc: BoardLocation, previous: np.ndarray) -> BoardLocation:
    """Relabel a fresh location's corners to follow the previous frame's order (upright kept)."""
    best_k, best_d = 0, np.inf
    for k in range(4):
        d = float(np.linalg.norm(np.roll(loc.corners, -k, axis=0) - previous, axis=1).sum())
        if d < best_d:
            best_k, best_d = k, d
    return loc.rotated(best_k) if best_k else loc
