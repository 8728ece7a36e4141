"""Reading the squares of a rectified board: empty, a tile and its letter, a blank, or covered.

Input is a *rectified* board: a square picture of the 15x15 grid (``vision.geometry.rectify``
or ``BoardLocation.rectify``), any size (it is brought to 40 px per square) -- or, better,
:func:`rectify_board`'s picture of the grid with 5 px of the photo round it, from which the
edge squares are cut (a tile hanging over the board's edge keeps its letter).  Output per
square: ``.`` empty, an upper-case letter, ``?`` a blank tile, ``#`` cannot be read now
(covered by a hand or an object, or too unsure to say) -- never a guess shown as fact; the
best guess and a confidence are kept beside it.

How a square is decided (see docs/vision-read.md):

1. Ink: black-hat / top-hat of the whole board picks out strokes (letters, print, edges).
2. Polarity (dark letters on light tiles or the reverse) and orientation (which side is up)
   are decided once per board, by which choice makes the letters read most confidently.
3. Letters: every square with ink gets its glyph isolated and classified by the letter model
   (``vision.letters``), restricted to the tile set's letters, optionally helped by per-set
   prototypes (``calibration/set_profile.py``).  A letter in doubt gets a second look (cut again
   at other ink thresholds, the answers averaged), and, given the tile set's values, the point
   value printed beside it weighs in where the letters still in the running differ in value.
4. Square model (``vision/models/squares.npz``): a small perceptron on per-square numbers --
   colours relative to the board's commonest square colour and to the tile colour found from
   confident letters, texture, the letter model's answer, and, when an empty-board reference
   picture is given, the change against it -- says empty / letter tile / blank tile / covered.
5. Checks on what it says: premium print read as a letter on a square of its kind's colour is
   empty; a plain square called empty with ink on it and the tiles' colour is a tile; several
   squares of one premium kind called blanks, all of one colour, are that kind's colour (empty);
   a square clipped white by glare is unknown, not empty; a square held between covered
   squares is covered too (a hand is one piece).

``BoardReader`` keeps what a game needs between frames (reference, polarity, orientation,
tile colour, unchanged squares); ``Stabiliser`` turns a stream of readings into moves: a
reading is released only when the picture is still and every square agrees over N frames.

Nothing here knows game rules; the alphabet is a parameter.
"""

from __future__ import annotations

import math
import sys
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, TextIO

import cv2
import numpy as np

from vision import letters as L
from vision import onnx_cnn
from vision.errors import VisionError
from vision.geometry import PREMIUM_LAYOUT, mirror_rectified, square_sizes, turn_rectified
from vision.pixels import colourless, percentile_linear, percentiles_u8

#: Squares printed plain on standard boards (a picture, like the locator uses it): premium
#: squares carry print ("TRIPLE WORD SCORE", "DL", a star) that can look like letters, so only
#: plain squares vote on polarity, orientation and tile colour when there are enough of them.
PLAIN = np.array([[ch == "." for ch in row] for row in PREMIUM_LAYOUT], bool)

GRID = 15
CELL = 40            # px per square in the rectified board the reader works on
CROP_MARGIN = 0.12   # the crop read for one square reaches this far (x cell) past its sides
MARGIN = int(round(CROP_MARGIN * CELL))   # px: the crops' reach past the grid, 5 at 40 px a square
# A picture of this side is the grid plus MARGIN px of the photo round it (:func:`rectify_board`):
# edge squares are then cut with what lies round the grid (a tile hanging over the board's edge
# keeps its letter) instead of the grid's outermost pixels repeated.
SURROUNDED = GRID * CELL + 2 * MARGIN
EMPTY, BLANK, COVERED = ".", "?", "#"
KINDS = ("empty", "tile", "blank", "covered")
SQUARES_PATH = Path(__file__).resolve().parent / "models" / "squares.npz"
MIN_LETTER = 0.7     # letter probability under which a tile's letter is reported as unknown
MIN_SQUARE = 0.6     # square-kind probability under which the square is reported as unknown
BLANK_DOUBT = 0.25   # an "empty" square the square model gives a blank tile this much: maybe a blank
_BLANK_KIND = KINDS.index("blank")
_EMPTY_KIND = KINDS.index("empty")
BLANK_SURE = 0.65    # ... and for a blank tile: the square model's blanks at 0.60-0.65 on 600 tuning
                     # boards: 11 real, 11 empty squares of nearly the tiles' colour
# ... read cold (no empty-board reference), where the square's own empty picture is not known:
# on 800 tuning boards a row (seeds 7500-13600, 40 boards each of 20 seeds; hard camera, standard
# camera, fonts never seen) the blanks shown at 0.65-0.75 were 17 blanks and 18 empty squares
# (every row alike); at 0.75-0.8, 7 blanks and 4 empty squares.  With a reference, under 0.75: 4
# blanks, a letter tile and no empty square on the same boards.  Not on a picture without colour,
# read by the square model's own nets: there (the README's grey row, report boards) it asked 11
# right blanks for 2 boards more with no wrong square, and it was set on colour pictures only.
BLANK_SURE_COLD = 0.75
# ... unless the best letter leads the second-best letter by this much (a clear margin).  Chosen
# on rendered boards only (seed 2024: 30 hard, 15 standard, 20 unseen-font boards, cold and with
# a reference) for the current letter model: against 0.6 / 0.45, wrong letters fell from
# 0.10-0.55 % to 0.10-0.47 % of tiles (0.43 -> 0.17 % on unseen fonts with a reference) and boards
# with no wrong square rose (e.g. 70 -> 80 %), for 0.1-1.0 % more tiles shown '#'; 0.7 / 0.6
# cut wrong letters a little more but showed '#' on 0.5-1.5 % more tiles.
MIN_MARGIN = 0.5


def crop_size(cell: int = CELL) -> int:
    return cell + 2 * int(round(CROP_MARGIN * cell))


def cell_crops(rect: np.ndarray, cell: int | None = None) -> np.ndarray:
    """(15, 15, s, s, ch) crops around every square (s = crop_size(cell)), edges replicated."""
    cell = cell or rect.shape[0] // GRID
    m = int(round(CROP_MARGIN * cell))
    pad = cv2.copyMakeBorder(rect, m, m, m, m, cv2.BORDER_REPLICATE)
    s = cell + 2 * m
    out = np.empty((GRID, GRID, s, s) + rect.shape[2:], rect.dtype)
    for r in range(GRID):
        for c in range(GRID):
            out[r, c] = pad[r * cell:r * cell + s, c * cell:c * cell + s]
    return out


def as_board(rect: np.ndarray) -> np.ndarray:
    """The rectified board as BGR uint8 at CELL px per square (VisionError if not a board)."""
    if not isinstance(rect, np.ndarray) or rect.ndim not in (2, 3) or rect.size == 0:
        raise VisionError("The board picture is empty or not a picture.", "bad-input")
    h, w = rect.shape[:2]
    if min(h, w) < GRID * 12:
        raise VisionError(f"The board picture is too small ({w}x{h} px): each square needs at least 12 px.",
                          "bad-input")
    if abs(h - w) > 0.02 * max(h, w):
        raise VisionError(f"The board picture must be square (rectified), not {w}x{h} px.", "bad-input")
    if rect.dtype != np.uint8:
        rect = np.clip(rect, 0, 255).astype(np.uint8)
    if rect.ndim == 2:
        rect = cv2.cvtColor(rect, cv2.COLOR_GRAY2BGR)
    elif rect.shape[2] == 4:
        rect = cv2.cvtColor(rect, cv2.COLOR_BGRA2BGR)
    side = GRID * CELL
    if rect.shape[0] != side or rect.shape[1] != side:
        rect = cv2.resize(rect, (side, side), interpolation=cv2.INTER_AREA if h > side else cv2.INTER_LINEAR)
    return np.ascontiguousarray(rect)


# --------------------------------------------------------------------------- results


@dataclass
class Square:
    label: str            # '.', a letter, '?', '#'
    confidence: float     # 0..1 for the label shown
    guess: str            # best guess even when the label is '#'
    kind: str             # 'empty', 'tile', 'blank', 'covered', 'unsure'


@dataclass(frozen=True, eq=False)
class WayUp:
    """A :class:`BoardReader`'s way up and what it keeps of the last picture
    (:meth:`BoardReader.way_up`, :meth:`BoardReader.keep_way_up`)."""

    orientation: int | None
    mirrored: bool
    polarity: int | None
    open_since: np.ndarray | None
    prev: tuple | None


@dataclass
class BoardReading:
    """What one picture shows.  ``labels[r][c]`` row r (top = row 0 after orientation)."""

    labels: list[str]
    confidence: np.ndarray                       # (15, 15) for the labels shown
    guesses: list[str]                           # best guesses ('#' replaced by the guess)
    kinds: np.ndarray                            # (15, 15) object: KINDS or 'unsure'
    orientation: int = 0                         # quarter turns applied (np.rot90 k)
    polarity: int = 0                            # +1 dark letters, -1 light letters
    ms: float = 0.0
    details: dict = field(default_factory=dict)
    mirrored: bool = False                       # the picture was mirrored back first (then turned)
    # squares shown empty that the square model gives a blank tile BLANK_DOUBT or more: a blank of
    # nearly the board's colour, or the board; for the engine to ask about where a play touches
    # them (shown '#' instead they would hold up every such move: about 20 for each blank)
    maybe_blank: frozenset = frozenset()
    # squares shown '#' because light washes them out (a lamp's glare, its halo, a softer bright
    # patch): what hides them moves with the camera or the lamp, not with the players
    glared: frozenset = frozenset()

    def text(self) -> str:
        return "\n".join(self.labels)

    __str__ = text

    def square(self, r: int, c: int) -> Square:
        return Square(self.labels[r][c], float(self.confidence[r, c]), self.guesses[r][c], str(self.kinds[r, c]))

    @property
    def covered(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(GRID) for c in range(GRID) if self.labels[r][c] == COVERED]

    def tiles(self) -> dict[tuple[int, int], str]:
        """Squares holding a readable tile: letter or '?' (blank)."""
        return {(r, c): ch for r, row in enumerate(self.labels) for c, ch in enumerate(row) if ch not in ".#"}


# --------------------------------------------------------------------------- square model


class SquareModel:
    """Perceptron: per-square numbers -> (empty, tile, blank, covered); one for cold reading,
    one for reading against an empty-board reference; and, where trained, the same two for
    pictures without colour (:data:`GREY`: a black-and-white camera, where a blank and an empty
    square differ in lightness and texture only)."""

    GREY = ("grey", "grey_ref")

    def __init__(self, nets: dict):
        self.nets = {k: {n: np.asarray(a, np.float32) for n, a in v.items()} for k, v in nets.items()}
        # each second look's onnxruntime session (vision.onnx_cnn), by net, started with the
        # letter CNN's: absent until then, False where onnxruntime is not available
        self._sessions: dict = {}

    @classmethod
    def load(cls, path: str | Path = SQUARES_PATH) -> "SquareModel":
        try:
            z = np.load(path, allow_pickle=False)
            nets: dict = {}
            for k in z.files:
                which, name = k.split("__", 1)
                nets.setdefault(which, {})[name] = z[k]
            return cls(nets)
        except (OSError, ValueError) as e:
            raise VisionError(f"The square model {path} is missing or damaged; "
                              "run calibration/train_letters.py to make it.", "no-model") from e

    def save(self, path: str | Path = SQUARES_PATH) -> None:
        np.savez_compressed(path, **{f"{k}__{n}": a for k, v in self.nets.items() for n, a in v.items()})

    def probabilities(self, x: np.ndarray, with_reference: bool, grey: bool = False) -> np.ndarray:
        """(n, 4) for the feature rows ``x``; ``grey``: the picture has no colour (its own nets
        where the model has them, else the colour ones)."""
        name = "ref" if with_reference else "cold"
        if grey and self.GREY[with_reference] in self.nets:
            name = self.GREY[with_reference]
        p = self.nets[name]
        z = (x - p["mean"]) / p["std"]
        h = np.maximum(z @ p["w1"] + p["b1"], 0)
        lg = h @ p["w2"] + p["b2"]
        lg -= lg.max(axis=1, keepdims=True)
        e = np.exp(lg)
        if "prior" in p:       # undo the oversampling of rare kinds used in training
            e = e * p["prior"]
        return e / e.sum(axis=1, keepdims=True)

    @property
    def has_look(self) -> bool:
        return "look" in self.nets

    @property
    def has_grey_look(self) -> bool:
        """A second look learnt on pictures without colour (:data:`LOOK_NETS`)."""
        return LOOK_NETS[True] in self.nets

    def look(self, pictures: np.ndarray, meta: np.ndarray, net: str = "look") -> np.ndarray:
        """(n, 4) from the square model's second look: a small CNN over the squares' pictures
        (:func:`look_channels`' top-left LOOK x LOOK, (n, LOOK, LOOK, 9)) and their meta rows (feature row padded to
        the reference width, the first look's four probabilities, with-reference, tile colour
        known).  What a perceptron on summary numbers cannot see, it can: a tile's edge and the
        gap round it, the shadow it casts, the square's print under a thin glare.  ``net``: which
        look (:data:`LOOK_NETS`: the one for pictures without colour is ``look_grey``).

        Where the model holds a second fit of the colour look (``look_wide``: wider, fitted on
        more boards), the two are joined -- the normalised geometric mean of their readings: the
        wide fit alone read rendered boards a little better but asked more squares of a real
        board's print and a real blank; the pair keeps the real board's readings and most of
        the gain (reading doc, forty-first session)."""
        if net == LOOK_NETS[False] and LOOK_PAIR in self.nets:
            lg = 0.5 * (L.log_softmax(self._logits_of(pictures, meta, net))
                        + L.log_softmax(self._logits_of(pictures, meta, LOOK_PAIR)))
        else:
            lg = self._logits_of(pictures, meta, net)
        return np.exp(L.log_softmax(lg))

    def _logits_of(self, pictures: np.ndarray, meta: np.ndarray, net: str) -> np.ndarray:
        """One second-look net's logits (:meth:`look`): through onnxruntime once the process has
        read enough (a session a net), else numpy."""
        p = self.nets[net]
        b = len(pictures)
        if net not in self._sessions and onnx_cnn.worth_starting(b):
            self._sessions[net] = onnx_cnn.session_for(p, look=(LOOK, pictures.shape[-1])) or False
        sess = self._sessions.get(net)
        return sess(pictures, meta) if sess and b else self.look_logits(pictures, meta, net)

    def look_alone(self, pictures: np.ndarray, meta: np.ndarray, net: str) -> np.ndarray:
        """(n, 4) from one second-look net alone, not joined with its pair (a fit checked on its own)."""
        return np.exp(L.log_softmax(self._logits_of(pictures, meta, net)))

    def look_logits(self, pictures: np.ndarray, meta: np.ndarray, net: str = "look") -> np.ndarray:
        """The second look's logits in numpy (where onnxruntime is not started or not here)."""
        p = self.nets[net]
        b = len(pictures)
        a1 = np.maximum(L.im2col(pictures, 5) @ p["k1"] + p["b1"], 0).reshape(b, LOOK, LOOK, -1)
        p1 = L.maxpool2(a1)
        a2 = np.maximum(L.im2col(p1, 3) @ p["k2"] + p["b2"], 0).reshape(b, LOOK // 2, LOOK // 2, -1)
        p2 = L.maxpool2(a2)
        f = np.concatenate([p2.reshape(b, -1), (meta - p["mmean"]) / p["mstd"]], axis=1)
        return np.maximum(f @ p["w3"] + p["b3"], 0) @ p["w4"] + p["b4"]


LOOK = 24            # px a side of a square's picture in the second look (its crop at half size)
# the second look's net for colour pictures and for pictures without colour (a black-and-white
# camera: a blank and an empty square of its lightness differ only in the tile's edge, its
# shadow, the grid line it hides, which the colour look, never shown a grey picture, misjudges)
LOOK_NETS = {False: "look", True: "look_grey"}
LOOK_PAIR = "look_wide"   # a second fit of the colour look, joined with it where present (SquareModel.look)
LOOK_BLANK = 0.02    # squares the first look gives a blank tile this much, or ...
LOOK_UNSURE = 0.9    # ... no kind this much, are looked at again (what the second look learnt on)
LOOK_LETTER = 0.5    # a square whose letter reads this much keeps the first look where the second says empty or blank
LOOK_SOME_LETTER = 0.25   # ... and one whose letter reads this much, where the second says blank under
LOOK_SURE_BLANK = 0.8     # ... this much
GREY_LOOK_FROM = 0.3      # the grey look is asked only where the first look gives a blank this much


def look_crops(rect: np.ndarray, cells) -> np.ndarray:
    """(n, h, h, 3) BGR uint8: ``cells``' crops (CROP_MARGIN past their sides, the picture's
    edges repeated) at half size, h = LOOK + 1 (the second look reads the top-left LOOK x LOOK;
    its training shifts by a pixel)."""
    m = MARGIN
    s = CELL + 2 * m
    h = (s + 1) // 2
    pad = cv2.copyMakeBorder(rect, m, m, m, m, cv2.BORDER_REPLICATE)
    out = np.empty((len(cells), h, h, 3), np.uint8)
    for i, (r, c) in enumerate(cells):
        out[i] = cv2.resize(pad[r * CELL:r * CELL + s, c * CELL:c * CELL + s], (h, h), interpolation=cv2.INTER_AREA)
    return out


def _lab_of(crops: np.ndarray) -> np.ndarray:
    """(n, h, h, 3) BGR uint8 crops -> Lab float32 (OpenCV's 8-bit scale, as the reader's colours)."""
    h = crops.shape[1]
    return cv2.cvtColor(crops.reshape(-1, h, 3), cv2.COLOR_BGR2LAB).reshape(crops.shape).astype(np.float32)


def look_channels(crops: np.ndarray, board_lab: np.ndarray, tile_lab: np.ndarray | None,
                  reference: np.ndarray | None = None) -> np.ndarray:
    """(n, h, h, 9) float32 from :func:`look_crops`: each crop in Lab less the board's square
    colour; less the letter tiles' colour (zeros where not known); less the empty board's same
    crop (``reference``, its :func:`look_crops`; zeros without one); all over 50.
    ``board_lab`` and ``tile_lab``: one colour (3,) or one a crop (n, 3)."""
    cur = _lab_of(crops)
    x = np.zeros(crops.shape[:3] + (9,), np.float32)
    x[..., 0:3] = (cur - np.asarray(board_lab, np.float32).reshape(-1, 1, 1, 3)) / 50
    if tile_lab is not None:
        x[..., 3:6] = (cur - np.asarray(tile_lab, np.float32).reshape(-1, 1, 1, 3)) / 50
    if reference is not None:
        x[..., 6:9] = (cur - _lab_of(reference)) / 50
    return x


def look_meta(X: np.ndarray, P: np.ndarray, with_reference: bool, tile_known: bool) -> np.ndarray:
    """(n, 37) meta rows of the second look: the square model's feature rows (cold rows padded
    with zeros to the reference width), its four probabilities, with-reference, tile colour known."""
    width = len(FEATURES) + len(REF_FEATURES)
    meta = np.zeros((len(X), width + 6), np.float32)
    meta[:, :X.shape[1]] = X
    meta[:, width:width + 4] = P
    meta[:, width + 4] = with_reference
    meta[:, width + 5] = tile_known
    return meta


_SQUARES: SquareModel | None = None


def default_square_model() -> SquareModel:
    global _SQUARES
    if _SQUARES is None:
        _SQUARES = SquareModel.load()
    return _SQUARES


# --------------------------------------------------------------------------- per-board analysis


def _cells(a: np.ndarray, cell: int = CELL) -> np.ndarray:
    """(15*cell, 15*cell, ...) -> (15, 15, cell, cell, ...) view."""
    sh = a.shape[2:]
    return a.reshape((GRID, cell, GRID, cell) + sh).swapaxes(1, 2)


SMALL = 10   # px per square of the colour statistics picture
HALF = 20    # px per square of the texture / ink-peak picture


def square_middles(small_bgr: np.ndarray) -> np.ndarray:
    """(15, 15, 6, 6, 3) float32: the middle 6x6 of each square of the board at SMALL px a
    square (no grid line, little of a neighbour's tile): what colour statistics are taken on."""
    return _cells(small_bgr.astype(np.float32), SMALL)[:, :, 2:SMALL - 2, 2:SMALL - 2]


class Analysis:
    """Everything computed once per rectified board picture (a few ms).

    Colours come from a 10 px/square copy (middle 6x6 of each square), texture and change from
    a 20 px/square grey copy (middle 12x12), ink peaks from a top/black-hat of the latter.
    Glyphs are cut per square from one black-hat (or top-hat) of the whole full-size picture
    (:meth:`ink_crop`), made once per polarity when the first glyph is asked for.  The training
    made the ink crop by crop; the two agree except within a disc's width of the crop's sides,
    where the neighbouring square now counts (about one glyph in ten differs a little there).
    Measured on the tuning boards the readings are as good either way, and one whole-board
    black-hat costs ~2 ms where one per crop cost ~0.08 ms each, 50-100 of them on a first frame.
    """

    def __init__(self, rect: np.ndarray, surround: np.ndarray | None = None, grey: np.ndarray | None = None,
                 small: np.ndarray | None = None):
        """``surround``: the same board with MARGIN px of the photo round the grid (side
        SURROUNDED), what edge squares' crops are cut from; without it the grid's edge is
        repeated.  ``grey``: how the grey picture is made from the colours
        (:func:`grey_weights`); None for the usual lightness.  ``small``: ``rect`` already
        shrunk to SMALL px a square (as here), when the caller has it."""
        self.rect = as_board(rect)
        self.surround = surround
        self.grey = grey
        self._light_mid: np.ndarray | None = None
        self._strokes: np.ndarray | None = None
        self._pad: np.ndarray | None = None
        if surround is not None and self.rect.shape[0] + 2 * MARGIN == surround.shape[0]:
            # one grey conversion for both (it is pixel by pixel: the same numbers)
            self._pad = _to_gray(surround, grey)
            self.gray = np.ascontiguousarray(self._pad[MARGIN:-MARGIN, MARGIN:-MARGIN])
        else:
            self.gray = _to_gray(self.rect, grey)
        if small is None:
            small = cv2.resize(self.rect, (GRID * SMALL, GRID * SMALL), interpolation=cv2.INTER_AREA)
        self.small_bgr = small
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
        self.small_lab = lab
        v = _cells(lab, SMALL)
        self.mid_lab = v[:, :, 2:SMALL - 2, 2:SMALL - 2]                       # (15,15,6,6,3)
        self.mean_lab = self.mid_lab.mean(axis=(2, 3))
        self.mean_bgr = square_middles(small).mean(axis=(2, 3))
        tot = v.sum(axis=(2, 3))
        inner = v[:, :, 1:SMALL - 1, 1:SMALL - 1].sum(axis=(2, 3))
        self.ring_lab = (tot - inner) / (SMALL * SMALL - (SMALL - 2) ** 2)
        self.half = cv2.resize(self.gray, (GRID * HALF, GRID * HALF), interpolation=cv2.INTER_AREA)
        g = _cells(self.half.astype(np.float32), HALF)[:, :, 4:HALF - 4, 4:HALF - 4]
        self.mid_gray = g
        self.std = g.std(axis=(2, 3))
        self.m = MARGIN
        self.s = CELL + 2 * self.m
        self._peak: dict[int, np.ndarray] = {}
        self._face: dict[int, np.ndarray] = {}
        self._ink: dict[int, np.ndarray] = {}          # whole-board ink (padded like crop_gray)
        self._own_ink: dict[tuple[int, int, int], np.ndarray] = {}   # (polarity, r, c): a crop's own
        self.glyphs: dict[int, dict[tuple[int, int], L.Glyph | None]] = {1: {}, -1: {}}
        self.logits: dict[int, dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]] = {1: {}, -1: {}}
        self.sharpness = float(cv2.Laplacian(self.half, cv2.CV_32F).var())

    def peak(self, polarity: int) -> np.ndarray:
        """(15, 15) strongest ink in each square's middle (half-size top/black-hat), 0..255."""
        if polarity not in self._peak:
            ink = L.ink_image(self.half, polarity, L.disc_size(crop_size(HALF)))
            a = int(round(0.2 * HALF))
            self._peak[polarity] = _cells(ink, HALF)[:, :, a:HALF - a, a:HALF - a].max(axis=(2, 3)).astype(np.float32)
        return self._peak[polarity]

    quick_peak = peak

    def crop_gray(self, r: int, c: int, dx: int = 0, dy: int = 0) -> np.ndarray:
        """Square (r, c)'s crop of the grey picture (the square and the margin round it), or the
        crop moved ``dx``, ``dy`` px (right, down) off it, which must stay within the padded
        picture (:meth:`ink_moved` says where it does)."""
        if self._pad is None:
            m = self.m
            self._pad = cv2.copyMakeBorder(self.gray, m, m, m, m, cv2.BORDER_REPLICATE)
        y0, x0 = r * CELL + dy, c * CELL + dx
        return self._pad[y0:y0 + self.s, x0:x0 + self.s]

    def ink_crop(self, polarity: int, r: int, c: int) -> np.ndarray:
        """The ink strength (:func:`letters.ink_image`) over the crop :meth:`crop_gray` cuts, from
        one top/black-hat of the whole padded picture with the disc a crop would use (or the
        crop's own, where :meth:`glyph` needed it)."""
        own = self._own_ink.get((polarity, r, c))
        if own is not None:
            return own
        return self._whole_ink(polarity)[r * CELL:r * CELL + self.s, c * CELL:c * CELL + self.s]

    def ink_moved(self, polarity: int, r: int, c: int, dx: int, dy: int) -> np.ndarray | None:
        """The ink of :meth:`ink_crop`'s crop moved ``dx``, ``dy`` px (right, down) off the square,
        from the whole picture's ink; None where the moved crop would leave the picture (the grid
        and the MARGIN px round it, which an edge square's crop already reaches: moved outwards it
        would hold less of its tile, not more)."""
        ink = self._whole_ink(polarity)
        y0, x0 = r * CELL + dy, c * CELL + dx
        if y0 < 0 or x0 < 0 or y0 + self.s > ink.shape[0] or x0 + self.s > ink.shape[1]:
            return None
        return ink[y0:y0 + self.s, x0:x0 + self.s]

    def _whole_ink(self, polarity: int) -> np.ndarray:
        """The ink of the whole padded picture (one top/black-hat, made once a polarity)."""
        if polarity not in self._ink:
            self.crop_gray(0, 0)                       # makes the padded picture
            self._ink[polarity] = L.ink_image(self._pad, polarity, L.disc_size(self.s))
        return self._ink[polarity]

    def glyph(self, polarity: int, r: int, c: int, min_contrast: float = 28.0) -> L.Glyph | None:
        d = self.glyphs[polarity]
        if (r, c) not in d:
            self.cut_glyphs(polarity, [(r, c)], min_contrast)
        return d[(r, c)]

    def cut_glyphs(self, polarity: int, squares, min_contrast: float = 28.0) -> None:
        """Cut the letters of ``squares`` not cut yet (:meth:`glyph`), all in one go
        (:func:`letters.glyphs_from_inks`)."""
        d = self.glyphs[polarity]
        peak = self.peak(polarity)
        todo = []
        for rc in dict.fromkeys(squares):
            if rc not in d:
                if peak[rc] < PEAK_MIN:
                    d[rc] = None
                else:
                    todo.append(rc)
        if not todo:
            return
        cut = L.glyphs_from_inks([self.ink_crop(polarity, r, c) for r, c in todo], min_contrast)
        for (r, c), g in zip(todo, cut):
            if g is not None and _touches_side(g, self.s):
                # ink reaching the crop's side: the board-wide ink there holds the neighbours'
                # edges too (a tile outline's corner cut as a J or an L); the crop's own ink,
                # as the training made it, does not see past the side
                gray = self.crop_gray(r, c)
                own = L.ink_image(gray, polarity, L.disc_size(min(gray.shape)))
                self._own_ink[(polarity, r, c)] = own
                g = L.glyph_from_ink(own, min_contrast, board=True)
            d[(r, c)] = g

    def light_mid(self) -> np.ndarray:
        """:attr:`mid_gray` in plain lightness, whatever :attr:`grey` makes the grey picture
        (how light a square is, for glare: a stretched or hue-axis grey is not)."""
        if self.grey is None:
            return self.mid_gray
        if self._light_mid is None:
            half = cv2.resize(cv2.cvtColor(self.rect, cv2.COLOR_BGR2GRAY), (GRID * HALF, GRID * HALF),
                              interpolation=cv2.INTER_AREA)
            self._light_mid = _cells(half.astype(np.float32), HALF)[:, :, 4:HALF - 4, 4:HALF - 4]
        return self._light_mid

    def strokes(self) -> np.ndarray:
        """:attr:`half` less its blur, padded by PRINT_SHIFT: strokes, not blobs (under blur a
        tile's dark letter and the print are both a dark blob in a light square, and would
        match as such).  What print is matched on (:func:`_print_match`)."""
        if self._strokes is None:
            g = self.half.astype(np.float32)
            self._strokes = cv2.copyMakeBorder(g - cv2.GaussianBlur(g, (0, 0), PRINT_STROKES), PRINT_SHIFT,
                                               PRINT_SHIFT, PRINT_SHIFT, PRINT_SHIFT, cv2.BORDER_REPLICATE)
        return self._strokes

    def face_lab(self, polarity: int) -> np.ndarray:
        """(15, 15, 3) mean Lab of each square's middle on the face side of its median."""
        if polarity not in self._face:
            mid = self.mid_lab
            Lc = mid[..., 0]
            med = np.median(Lc.reshape(GRID, GRID, -1), axis=2)[:, :, None, None]
            sel = (Lc >= med) if polarity > 0 else (Lc <= med)
            w = sel.astype(np.float32)[..., None]
            self._face[polarity] = (mid * w).sum(axis=(2, 3)) / np.maximum(w.sum(axis=(2, 3)), 1)
        return self._face[polarity]

    def far_face_lab(self, polarity: int) -> np.ndarray:
        """(15, 15, 3) mean Lab of each square's middle on the face side of its FAR_FACE quantile
        of lightness (the lightest quarter, for dark letters): the face clear of a letter whose
        ink (a W, an M, blurred) covers half the middle and darkens :meth:`face_lab`."""
        mid = self.mid_lab
        Lc = np.sort(mid[..., 0].reshape(GRID, GRID, -1), axis=2)
        # the quantile interpolated as np.quantile does, from one sort (np.quantile: 8x slower)
        pos = (FAR_FACE if polarity > 0 else 1.0 - FAR_FACE) * (Lc.shape[2] - 1)
        lo = min(int(pos), Lc.shape[2] - 2)
        q = (Lc[..., lo] * (lo + 1 - pos) + Lc[..., lo + 1] * (pos - lo))[:, :, None, None]
        sel = (mid[..., 0] >= q) if polarity > 0 else (mid[..., 0] <= q)
        w = sel.astype(np.float32)[..., None]
        return (mid * w).sum(axis=(2, 3)) / np.maximum(w.sum(axis=(2, 3)), 1)


def _to_gray(picture: np.ndarray, grey: np.ndarray | None) -> np.ndarray:
    """The grey picture letters are read from: lightness, or ``grey`` = (B, G, R weights,
    offset) from :func:`grey_weights`."""
    if grey is None:
        return cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    return cv2.transform(picture, grey.reshape(1, 4).astype(np.float32))


# Luma's share of the board's strongest colour contrast inside its squares under which letters
# are read along that contrast's colour axis instead (:func:`grey_weights`).  Letters differ from
# their tiles in lightness on nearly every set (luma holds 40-100 % of the contrast on the
# tuning boards: dark or light ink, coloured or not); ink of another hue but the same lightness
# as its face (pink on lime) leaves the grey picture blank and every tile unread.
INK_AXIS_SHARE = 0.25
_LUMA_BGR = np.array([0.114, 0.587, 0.299])       # OpenCV's BGR -> grey weights
_LUMA = _LUMA_BGR / np.linalg.norm(_LUMA_BGR)
# A dim board (the brightest 1 % of it under DIM_TOP) is read with its lightness stretched so
# that those reach DIM_TARGET (at most DIM_GAIN times): the ink thresholds are in grey levels,
# and dark letters on a dim red tile under a weak lamp fell under them (read as blank tiles).
DIM_TOP, DIM_TARGET, DIM_GAIN = 140, 200, 2.5


def grey_weights(small_bgr: np.ndarray) -> np.ndarray | None:
    """(B, G, R weights, offset) of the grey picture letters are read from, or None for plain
    lightness (nearly every board).  ``small_bgr``: the board at SMALL px a square
    (:attr:`Analysis.small_bgr`).

    The colour spread inside each square's middle (its own mean taken off, so the board's and
    the premium squares' colours do not count; the grid lines lie outside it) is summed over the
    board: on tiles it is ink against face.  When luma holds under INK_AXIS_SHARE of the spread
    along its main axis, letters are read along that axis (unit weights, the sign that keeps
    light things light, the board's mean colour at mid-grey).  Otherwise a dim board's lightness
    is stretched (DIM_TOP).
    """
    v = square_middles(small_bgr).reshape(GRID * GRID, -1, 3)
    d = (v - v.mean(axis=1, keepdims=True)).reshape(-1, 3)
    cov = d.T @ d
    w, vecs = np.linalg.eigh(cov)
    if w[-1] > 0 and float(_LUMA @ cov @ _LUMA) < INK_AXIS_SHARE * w[-1]:
        e = vecs[:, -1] if vecs[:, -1] @ _LUMA >= 0 else -vecs[:, -1]
        return np.append(e, 128.0 - float(e @ v.reshape(-1, 3).mean(axis=0)))
    top = percentiles_u8(cv2.cvtColor(small_bgr, cv2.COLOR_BGR2GRAY), (99,))[0]
    if top < DIM_TOP:
        return np.append(min(DIM_GAIN, DIM_TARGET / max(top, 1.0)) * _LUMA_BGR, 0.0)
    return None


# Ink that differs from its face mostly in hue on a few squares only (a first move of blue tiles
# with brown letters about as light) is drowned, board-wide, by the premium squares' dark print:
# grey_weights keeps plain lightness.  Squares whose own colour spread is strong (HUE_STRONG,
# summed over a square's 6x6 middle at SMALL px: a spread of ~13 levels) and lies mostly off
# luma (under HUE_SHARE of it) are such ink, or a hand's edge, a tile's edge on a coloured square;
# from HUE_SQUARES of them on one colour axis the board is also read along that axis, and the
# reading with more letters read surely is kept (BoardReader.read, on the frame that decides).
HUE_STRONG = 6000.0
HUE_SHARE = 0.15
HUE_SQUARES = 2
HUE_AGREE = 0.9      # |cos| between a square's own axis and their common one
HUE_BETTER = 2       # the axis's reading must hold this many more sure letters (and a quarter more)


def ink_hue_axis(small_bgr: np.ndarray) -> np.ndarray | None:
    """(B, G, R weights, offset) along the colour axis of squares whose inside differs mostly in
    hue (see HUE_STRONG), or None when there are fewer than HUE_SQUARES of them on one axis.
    A candidate only: :class:`BoardReader` reads the frame both ways and keeps the better."""
    v = square_middles(small_bgr).reshape(GRID * GRID, -1, 3)
    d = v - v.mean(axis=1, keepdims=True)
    # first what is cheap: the spread (the trace) bounds the main axis's from above, so a square
    # under HUE_STRONG of it, or with luma over HUE_SHARE of it, cannot qualify (nearly all)
    total = (d * d).sum(axis=(1, 2))
    luma = np.square(d @ _LUMA.astype(np.float32)).sum(axis=1)
    maybe = np.flatnonzero((total >= HUE_STRONG) & (luma < HUE_SHARE * total))
    if len(maybe) < HUE_SQUARES:
        return None
    covs = np.einsum("nki,nkj->nij", d[maybe], d[maybe])
    ev, vecs = np.linalg.eigh(covs)
    top = ev[:, -1]
    keep = (top >= HUE_STRONG) & (luma[maybe] < HUE_SHARE * np.maximum(top, 1e-6))
    hue, covs, vecs = maybe[keep], covs[keep], vecs[keep]
    if len(hue) < HUE_SQUARES:
        return None
    w, V = np.linalg.eigh(covs.sum(axis=0))
    e = V[:, -1]
    agree = np.abs(vecs[:, :, -1] @ e) >= HUE_AGREE
    if agree.sum() < HUE_SQUARES:
        return None
    total = covs[agree].sum(axis=0)
    w, V = np.linalg.eigh(total)
    e = V[:, -1] if V[:, -1] @ _LUMA >= 0 else -V[:, -1]
    if float(_LUMA @ total @ _LUMA) >= INK_AXIS_SHARE * w[-1]:
        return None
    return np.append(e, 128.0 - float(e @ v.reshape(-1, 3).mean(axis=0)))


def _letters_read_surely(reading: "BoardReading", min_letter: float) -> int:
    return sum(1 for r, row in enumerate(reading.labels) for c, ch in enumerate(row)
               if ch not in (EMPTY, COVERED, BLANK) and reading.confidence[r, c] >= min_letter)


def _squares_seen(reading: "BoardReading") -> int:
    """Squares a reading shows as anything but empty: tiles, blanks, squares asked."""
    return sum(ch != EMPTY for row in reading.labels for ch in row)


def split_surround(picture):
    """(the grid, the picture with its surround or None): a SURROUNDED-px picture is the grid
    plus MARGIN px round it (:func:`rectify_board`)."""
    if isinstance(picture, np.ndarray) and picture.ndim == 3 and picture.shape[:2] == (SURROUNDED, SURROUNDED) \
            and picture.shape[2] == 3 and picture.dtype == np.uint8:
        surround = np.ascontiguousarray(picture)
        return surround[MARGIN:-MARGIN, MARGIN:-MARGIN], surround
    return picture, None


def _touches_side(g: L.Glyph, side: int) -> bool:
    """Whether the glyph's box reaches the edge of its ``side`` x ``side`` crop (within a pixel)."""
    gh = g.height * side
    gw = g.aspect * gh
    x0, y0 = g.centre[0] * side - gw / 2, g.centre[1] * side - gh / 2
    return x0 < 1 or y0 < 1 or x0 + gw > side - 1 or y0 + gh > side - 1


PEAK_MIN = 20.0   # half-size ink peak under which a square is taken to have no ink
ORIENT_VOTERS = 30   # squares (strongest ink, plain) that vote on which side is up
ORIENT_STAGES = (6, 12)   # ... the strongest 6 vote first, then up to 12, then all; enough
ORIENT_CLEAR = 4.0   # when one turn leads by this much (about four letters' worth of confidence)
BORDER_NEAR = 15.0   # a plain "empty" square with the letter tiles' border (Lab, within this)
BORDER_APART = 55.0  # ... where tiles' and empty squares' borders lie this far apart, and its own this far
BORDER_FACE = 20.0   # ... from the empty squares', and a face this far from theirs: a blank (_blanks_by_border)
BORDER_BLANK = 0.7   # the confidence it is shown with
# More blanks than this on one board are no set's (four at most) nor the benchmark's (ten at
# most on 3,840 tuning boards, which draw 3 % of the tiles blank): they are all asked about
BLANKS_PAST_ANY_SET = 10
OPEN_CHANGE = 12.0   # an orientation decided without a clear lead is asked again once squares change
OPEN_SQUARES = 2     # ... by this many grey levels on average, this many of them (new tiles)
OPEN_TILES = 5       # ... and one decided on fewer tiles than this, whatever the lead
MIRROR_TRY = 0.93    # the mirrored board is tried when the best turn's voters read under this each
MIRROR_SQUARES = 12  # ... on the strongest this many squares, as they are and mirrored
MIRROR_READS = 0.6   # ... and chosen when mirrored they read at least this a voter
MIRROR_LEAD = 0.1    # ... and this much a voter better (see docs/vision-read.md, step 4)
MIRROR_VOTERS = 2    # ... with at least this many voters (a first move of two tiles)
# where the printed values sit (docs/vision-read.md, step 4), with the set's values known:
VALUE_CORNER_VOTERS = 12   # once the way up is decided, the surest tiles' value windows are read flipped:
VALUE_FLIP_READS = 0.4     # ... the picture is mirrored when, flipped, their own letters' values read this a voter
VALUE_FLIP_LEAD = 0.3      # ... and this much a voter better than as they are
VALUE_FLIP_VOTERS = 2      # ... with at least this many voters
POSE_SQUARES = 8     # an orientation without a clear lead: the strongest this many squares vote on
POSE_LEAD = 0.5      # ... how their letters and values read together in each pose; one leading by this
POL_VOTERS = 10      # squares (strongest ink) per polarity that vote on dark vs light letters
POL_MIN_SCORE = 1.0  # ... squares asked past those decide only when they read this much (a letter's worth)
# ... asked at most, while fewer than POL_VOTERS of them hold a glyph: the small print of a board's
# premium squares (three lines of "MOT COMPTE TRIPLE") can be stronger ink than a tile's letter
# and holds no glyph; with a few tiles down their letters were past the 30th square, and light
# letters won on noise (a board of five tiles read as nothing)
POL_ASK_MOST = 80
POL_SURE = 0.9       # when all of the first way's voters' best 3/4 read over this, stop there
POL_SURE_READS = 2   # voters reading a letter POL_SURE or more one way, none the other: that way wins


def _likely_polarities(an: Analysis, cells) -> tuple[int, int]:
    """(+1, -1) or (-1, +1): dark letters first when, over the squares with ink (``cells``),
    the middles' median lightness lies nearer their lightest than their darkest pixels -- a
    letter covers less of its tile than the face does, so the median is the face's."""
    if not cells:
        return 1, -1
    mid = an.mid_gray[tuple(np.array(cells).T)].reshape(len(cells), -1)
    lo, med, hi = np.percentile(mid, (5, 50, 95), axis=1)
    return (1, -1) if float(((med - lo) - (hi - med)).sum()) >= 0 else (-1, 1)


def _polarity_vote(scores: np.ndarray) -> np.ndarray:
    """The best three quarters of POL_VOTERS glyphs' letter scores."""
    return np.sort(scores)[-(3 * POL_VOTERS // 4):]


def _letter_score(p: np.ndarray, classes: str) -> np.ndarray:
    """Probability that the glyph is some letter (not ROT/NONE) and the best letter's prob."""
    return p[:, :-2].max(axis=1)


def _mirror_glyph(g: L.Glyph) -> L.Glyph:
    """The glyph as it would be found in the crop mirrored left to right."""
    return L.Glyph(np.ascontiguousarray(g.image[:, ::-1]), g.aspect, g.height, g.ink, g.parts, g.contrast,
                   (1 - g.centre[0], g.centre[1]))


def _rot_glyph(g: L.Glyph, k: int) -> L.Glyph:
    """The glyph as it would be found in the crop turned by k quarter turns (np.rot90)."""
    k %= 4
    if k == 0:
        return g
    img = np.ascontiguousarray(np.rot90(g.image, k))
    if k % 2:
        return L.Glyph(img, 1.0 / g.aspect, g.height * g.aspect, g.ink, g.parts, g.contrast,
                       (g.centre[1], 1 - g.centre[0]) if k == 1 else (1 - g.centre[1], g.centre[0]))
    return L.Glyph(img, g.aspect, g.height, g.ink, g.parts, g.contrast, (1 - g.centre[0], 1 - g.centre[1]))


# a pose of a picture: (mirrored left to right first, then quarter turns, np.rot90)
POSES = tuple((m, j) for m in (False, True) for j in range(4))     # pose index m * 4 + j
AS_IS, TOP_TO_BOTTOM, LEFT_TO_RIGHT = (False, 0), (True, 2), (True, 0)


def _posed(gray: np.ndarray, ink: np.ndarray, g: L.Glyph, mirrored: bool, k: int):
    """A square's crop, its ink and its glyph as they are found in the picture mirrored left to
    right (``mirrored``) and then turned by ``k`` quarter turns: nothing cut again."""
    if mirrored:
        gray, ink, g = gray[:, ::-1], ink[:, ::-1], _mirror_glyph(g)
    return np.ascontiguousarray(np.rot90(gray, k)), np.ascontiguousarray(np.rot90(ink, k)), _rot_glyph(g, k)


# --------------------------------------------------------------------------- features

FEATURES = ["dB_L", "dB_a", "dB_b", "dB", "dT_L", "dT_a", "dT_b", "dT", "T_known", "TB",
            "std", "peak", "peak_other", "has_glyph", "g_height", "g_aspect", "g_centre", "g_ink", "g_parts",
            "p_letter", "p_none", "p_rot", "ring_diff", "sym", "common"]
REF_FEATURES = ["dR", "dR_L", "gdiff", "ncc", "peak_ref", "ring_dR"]


_KIND_SQUARES = {k: np.array([[ch == k for ch in row] for row in PREMIUM_LAYOUT], bool) for k in "TDtd"}
_KIND_SQUARES["D"][7, 7] = False            # the centre star: the first move's square, always read
PRINT_SAME = 12.0     # Lab distance within which a premium square "looks like the rest of its kind"
PRINT_APART = 25.0    # ... and how far that kind's colour must be from the tiles' and the board's
FAR_FACE = 0.75       # a square's face clear of its ink: its middle's lightest quarter (_printed_only)
TILE_NEAR = 30.0      # Lab distance from the tiles' colour of a square taken for a missed tile
KIND_BLANKS = 3       # squares of one premium kind read as blanks, alike, that are its colour
LIGHT_SAME = 0.08     # log colour (about 8 % in each channel) within which squares under uneven light are alike
LIGHT_SQUARES = 20    # plain squares surely empty needed to fit the board's light
PRINT_MATCH = 0.8     # normalised match with an empty square of its kind over which a "letter" is that print
PRINT_TILE_MATCH = 0.6   # ... and under which a letter shown on a square of its kind's colour is no print
PRINT_MATES = 6       # ... against at most this many of them
PRINT_NEAR = 20.0     # ... for a square whose face is within this (Lab) of its kind's colour
PRINT_FAR, PRINT_SURE_MATCH = 40.0, 0.85  # ... or within this, matched this well (light falls off
#                       across a real board: the deluxe set's "TRIPLE WORD SCORE" squares 24-28
#                       apart, matched 0.88-0.94; the tiles beside them 0.25-0.42; rendered tiles at
#                       most 0.71.  0.9 left 17 of those squares '#' on 176 real frames and a "DW"
#                       beside a tile read W at 0.88 on a tuning board: 0.85 reads them empty, and
#                       nothing else changed on 1,000 tuning boards)
PRINT_SHIFT = 2       # ... allowing this many pixels' shift (of HALF per square) either way
PRINT_STROKES = 2.0   # ... on the picture less its blur by this sigma (pixels of HALF per square)
PRINT_INK = 12.0      # ... where that shows strokes (its standard deviation over the square's middle)
# A premium square shown, unsurely, as the letter its kind's print reads as is asked about
# (_letter_its_print_reads): the W of "TW", "DW" or "3W", the D of "DL", a "3" read E.  Where
# the print is too blurred to match (PRINT_INK) and the kind's colour too near the tiles' to
# tell a tile by colour, or glare washes the square to the tiles' colour, the print rules
# cannot tell; its letter can.  The print's cut reads mostly "no letter"; of what letter it
# holds (its squares' letter probabilities summed, PRINT_LETTER_INK or more in all) the print's
# letter takes PRINT_LETTER_SHARE or more.  The square is asked where that share times the
# reader's doubt (1 - its confidence) comes to PRINT_LETTER_ODDS.  On 1,920 tuning boards (seeds
# 24000-25600) the rule without the odds asked 10 squares: 2 of them print (a W at 0.66 on a
# "TW" square whose kind's print read W 0.76 of its letter, a "3L" read E at 0.80, 0.90: odds
# 0.26 and 0.18), 8 right letters on their premium squares (the print reading their letter
# 0.21-0.77 of it, shown at 0.70-0.85: odds 0.03-0.13); on other seeds a "DW" read W at 0.43
# (0.29 of the print's letter) and a "3W" read W at 0.57 (0.36): 0.16 each.
PRINT_LETTER_INK, PRINT_LETTER_SHARE, PRINT_LETTER_ODDS = 0.25, 0.2, 0.15
STAR_ARMS = 4         # deep notches a star shows (five arms, one notch may be lost to blur)
# The board's colour is the commonest of the squares with no letter read where this many are
# (else of all squares); of those with no ink either, where no tile colour is known
MODAL_FREE = 20
INKED_TILES = 8       # inked plain squares of one face colour, far from the board's: the tiles' colour
UNREAD_APART = 25.0   # cold, no tile colour known: plain "empty" squares this far from the board's colour
UNREAD_AROUND = 3     # ... and from the plain squares round them (this many at least)
UNREAD_TILES = 4      # ... this many alike, are tiles whose letters were not seen: '#'
HALO_SLOPE = 1.0      # Lab L per small pixel: a "blank" whose light runs this steeply across it ...
SOFT_SURE = 0.8       # ... unless the square model is this sure of the blank
HALO_LIFT = 15.0      # ... beside an empty square this much lighter than its kind's: a glare spot's light
NEAR_HAND_SURE = 0.8  # confidence under which a letter beside a covered square is '#'
# ... but beside one square read covered on its own (no other among its eight neighbours) a letter
# needs only this: a lone "covered" square is seldom a hand, mostly an empty premium square of about
# the tiles' colour that the square model could not place.  Tuning boards (seeds 7500, 7700: 12
# rows, 480 boards, hands among them): tiles right up on 7 rows (+0.03 to +0.12 %), no more wrong
# squares, none under a hand; independent boards (8100, 8300): up on 3 rows of 12, none down.
NEAR_ODD_SURE = 0.7
NEAR_HAND_EMPTY = 0.9  # ... and an empty square beside a hand (two or more covered squares together)
# A blank beside a covered square is '#' (it may be part of the hand) -- but beside lone covered
# squares only, no hand piece, it is shown when the square model is this sure of it.  Tuning boards
# (seeds 7500-8500, standard and hard cameras, training fonts, cold and with a reference; ~900
# boards): 8 blanks read right that were '#', no square more read wrong (every letter read as a
# blank there, and every hand read as one, was beside a piece of hand)
NEAR_ODD_BLANK = 0.9
# ... and a blank the square model is this sure of is shown beside a hand piece, in a glare spot
# and beside one too: on 1,440 tuning boards (every camera and font row, cold on seeds 7500-9300,
# with a reference on 7500-8300) the 40 blanks read there at 0.95 or more were all blanks; under it, parts
# of hands, covered squares, a letter tile and an empty square were read as blanks (0.65-0.92)
BLANK_KEPT = 0.95
# A letter beside a hand piece under this confidence whose square shows the hand's own colour on
# HAND_SHARE or more of it, and on HAND_EDGE_SHARE or more of the strip along a side the hand
# touches (pixels within HAND_NEAR of the hand's colour and nearer it than the tiles' colour and
# the square's own face), is partly under the hand: '#'.  A B whose bowls an arm hides reads R at
# 0.885, a Y whose fork a finger hides reads V at 0.90 -- over NEAR_HAND_SURE, so the confidence
# alone does not tell (at 0.92 it would ask 112 right letters on the 960 boards where the rule was
# set, seeds 19000-19600, for the 7 wrong ones).  There the rule asks 5 of those 7; on 960 boards
# never looked at (seeds 20000-20600) 3 boards more read with no wrong square, and 3 right letters
# clear of a hand are asked.  The share of the whole square alone would ask ink or a shadow of
# about the hand's colour; the strip by the hand is where a hand coming over the square must show.
HAND_SHARE_SURE = 0.92
HAND_SHARE = 0.15
HAND_EDGE_SHARE = 0.4
HAND_NEAR = 20.0
# Where a hand goes on over a square beside it, the square's edge strip is the hand: along the side
# a hand piece touches, the strip HAND_RUN_STRIP px inside the square matches (within HAND_RUN_NEAR
# Lab) the strip just inside the piece's square across the line, where that is of the hand's colour
# (:func:`_hand_runs_in`).  A hand stopping at the line leaves the tile's face and the grid line or
# gap there instead.  A letter beside a hand piece whose square the hand runs into on HAND_RUNS_IN
# or more of a side is asked under HAND_IN_SURE: what is left of a letter the hand half hides reads
# as another at 0.86-0.94 (a W as V, a U as J, a B as R, an X under a finger as Y), over
# NEAR_HAND_SURE and, on a hand of about the tiles' colour or a shaded finger, past the colour
# share of :func:`_partly_under_a_hand`.  And a letter whose square the hand clearly stops short of
# (under HAND_CLEAR of every side), the hand's colour HAND_APART or more from the tiles' face (so
# that the match means something), needs only NEAR_ODD_SURE, as beside a lone covered square:
# NEAR_HAND_SURE asked right I's, K's and X's clear of any hand at 0.71-0.80.  A piece with a
# square clipped white is a glare spot's, not a hand, and is left out; and a picture without colour
# keeps the lines as they were (a hand and a tile of one grey match: on the report's black-and-white
# rows the rule asked 2-6 right letters a row more).  Set on tuning seeds 50000, 51000 and
# 54000-55000 (1,920 boards; 2,212 letters shown or asked beside hand pieces logged, 12 of them
# shown wrong): through the reader, boards with no wrong square 1,842 -> 1,852, tiles right +4 (22
# asked letters shown -- I's, K's and X's -- and 18 right ones and 3 empty squares asked, most
# beside a hand's edge that the grid's own error puts over the line).  Fresh seeds 55200-55800
# (960 boards): a wash -- 6 right letters shown, 5 and an empty square asked, boards the same
# (their 3 letters shown wrong beside hands, under a fingertip on a W and a V and an O read C at
# 0.97, are out of the rule's reach).  The match for asking was made stricter in the fortieth
# session (within HAND_RUN_NEAR 8 Lab on HAND_RUNS_IN 0.4 of a side, was 12 Lab on half a side),
# "clear of the hand" still judged within HAND_CLEAR_NEAR 12 Lab: on the 2,212 logged letters it
# asked the same 10 wrong letters for 5 right ones fewer.  Through the reader: seeds 50000-55000
# tiles `#` 338 -> 333 (2 letters, 3 empty squares now read), fresh seeds 55200-56600 (1,920
# boards) +2 tiles, boards the same on both; every report row the same or a tile or a few up.
HAND_RUN_STRIP = (1, 4)
HAND_RUN_NEAR = 8.0
HAND_CLEAR_NEAR = 12.0
HAND_RUNS_IN = 0.4
HAND_IN_SURE = 0.95
HAND_CLEAR = 0.2
HAND_APART = 25.0


def _print_candidates(face: np.ndarray) -> np.ndarray:
    """(15, 15) premium squares whose colour is that of most squares of their kind (TW, DW, TL,
    DL), when that colour is not the board's plain colour: most likely empty, their ink the
    print.  Only candidates: see :func:`_printed_only`."""
    out = np.zeros((GRID, GRID), bool)
    plain = np.median(face[PLAIN], axis=0)
    for sel in _KIND_SQUARES.values():
        med = np.median(face[sel], axis=0)
        close = np.linalg.norm(face - med, axis=2) < PRINT_SAME
        if close[sel].mean() >= 0.75 and np.linalg.norm(med - plain) >= PRINT_APART:
            out |= sel & close
    return out


# ... nor one whose other side (the lightest quarter of its middle for light letters, the darkest
# for dark ones) lies this far from its kind's: a pink double-word square's light side is pink, a
# maroon tile's is its white letter, though their darker halves (tile and letter, pink and print)
# had come out alike and two tiles were shown empty, never read (tuning seed 16200)
PRINT_OTHER = 25.0


def _printed_only(face: np.ndarray, cand: np.ndarray, tile_lab, far: np.ndarray | None = None,
                  other: np.ndarray | None = None) -> np.ndarray:
    """The candidates that can be called empty without reading their ink: their kind's colour is
    far from the tiles' colour (known from this board's confident letters or the set profile), so a
    square that close to it cannot be a tile.  None when the tile colour is not known yet.

    ``far``: the squares' faces clear of their ink (:meth:`Analysis.far_face_lab`).  A candidate
    whose clear face is nearer the tiles' colour than its kind's clear face is read all the same:
    a tile whose letter's ink darkens half its middle (a blurred W of a white tile on a light-blue
    double-letter square) has a face near its kind's colour, but not a clear face."""
    out = np.zeros((GRID, GRID), bool)
    if tile_lab is None:
        return out
    for sel in _KIND_SQUARES.values():
        if (cand & sel).any():
            med = np.median(face[sel], axis=0)
            if np.linalg.norm(med - np.asarray(tile_lab)) >= PRINT_APART:
                out |= cand & sel
                if far is not None:
                    kind_far = np.median(far[sel], axis=0)
                    out &= ~(sel & (np.linalg.norm(far - np.asarray(tile_lab), axis=2)
                                    < np.linalg.norm(far - kind_far, axis=2)))
                if other is not None:
                    kind_other = np.median(other[sel], axis=0)
                    out &= ~(sel & (np.linalg.norm(other - kind_other, axis=2) >= PRINT_OTHER))
    return out


def _symmetry_match(face: np.ndarray) -> np.ndarray:
    """(15, 15): smallest colour distance to the square's 7 mirror images on the board.

    Board print (premium squares) is the same under the 8 symmetries of the square; a hand, a
    shadow or a single tile usually is not.
    """
    d = np.stack([np.linalg.norm(face - _mirror(face, i), axis=2) for i in range(7)])
    # a square on a diagonal or a middle line is its own mirror image under some symmetries:
    # comparing it with itself would call every tile there "board print"
    d[_SELF_MIRROR] = np.inf
    d = d.min(axis=0)
    return np.where(np.isfinite(d), d, 0.0)     # the centre square is its own image 7 times


def _mirror(a: np.ndarray, i: int) -> np.ndarray:
    """The i-th (0..6) of the 7 symmetries of the square other than the identity."""
    if i < 3:
        return np.rot90(a, i + 1)
    return np.rot90(a.transpose(1, 0, *range(2, a.ndim)), i - 3)


_POS = np.stack(np.meshgrid(np.arange(GRID), np.arange(GRID), indexing="ij"), axis=-1)   # (15, 15, 2)
_SELF_MIRROR = np.stack([(_mirror(_POS, i) == _POS).all(axis=2) for i in range(7)])    # (7, 15, 15)


def _close_pairs(flat: np.ndarray, radius: float) -> np.ndarray:
    """(n, n) bool: which pairs of the colours ``flat`` (n, 3) lie within ``radius`` of each other.
    Squared distances summed channel by channel (what the norm sums, in the same order), compared
    with the squared radius: no (n, n, 3) array and no square roots, about 10x faster."""
    d2 = None
    for k in range(flat.shape[1]):
        col = flat[:, k]
        diff = col[:, None] - col[None, :]
        diff *= diff
        d2 = diff if d2 is None else d2 + diff
    return d2 < radius * radius


def _commonness(face: np.ndarray, radius: float = 12.0) -> np.ndarray:
    """(15, 15): fraction of the board's squares within ``radius`` of this square's colour."""
    return _close_pairs(face.reshape(-1, 3), radius).mean(axis=1).reshape(GRID, GRID)


def _modal_colour(cols: np.ndarray, radius: float = 10.0) -> np.ndarray:
    """The colour most squares share (mean of the densest ball of ``radius`` Lab units)."""
    flat = cols.reshape(-1, 3)
    near = _close_pairs(flat, radius)
    best = int(np.argmax(near.sum(axis=1)))
    return flat[near[best]].mean(axis=0)


@lru_cache(maxsize=1)
def warm_up() -> None:
    """Pay OpenCV's one-time costs now (its colour tables for Lab take ~90 ms to build on first
    use), when a reader is made at the start of a game, not on the first move's picture."""
    cv2.cvtColor(np.zeros((2, 2, 3), np.uint8), cv2.COLOR_BGR2LAB)


def unreadable_letters(letters: str, model: L.LetterModel, profile=None) -> list[str]:
    """The tile set's letters that neither the letter model nor the set's profile can read."""
    protos = getattr(profile, "prototypes", None)
    known = set(model.classes) | set(getattr(protos, "labels", []) or [])
    return [ch for ch in dict.fromkeys(letters.upper()) if ch not in known and ch != BLANK]


def check_letters(letters: str, model: L.LetterModel, profile=None) -> None:
    """Refuse a tile set with letters nothing can read: its tiles would show as other letters."""
    unknown = unreadable_letters(letters, model, profile)
    if unknown:
        raise VisionError(f"The letter model cannot read {' '.join(unknown)} (not among the letters it "
                          "was trained on). Photograph your tiles as calibration/tile_sheet.md describes "
                          "and use that profile (companion vision calibrate), then these letters can "
                          "be read.", "unknown-letters")


def weigh_by_value(p: np.ndarray, letters: str, values: dict[str, int], q: np.ndarray) -> np.ndarray:
    """Letter probabilities ``p`` (one per letter of ``letters``) once a read point value is
    weighed in: each is multiplied by the probability that the printed value is that letter's
    (``q`` over ``VALUE_CLASSES``, "no value" last), and the total is kept.  Letters whose value
    the value model cannot read (0, over 10, unknown) are neither lifted nor lowered."""
    digits = q[:-1] / max(float(q[:-1].sum()), 1e-9)
    index = {cls: i for i, cls in enumerate(L.VALUE_CLASSES[:-1])}
    w = np.array([digits[index[cls]] if (cls := L.value_class(values.get(ch, 0))) in index else 1.0 / len(index)
                  for ch in letters])
    out = p * w
    if out.sum() <= 0:
        return p.copy()
    return out * (p.sum() / out.sum())


# The value model's probabilities are softened (raised to this power) before they weigh on the
# letters: unsoftened, its sure-looking misreadings turned 2-3 more doubtful tiles per 120 tuning
# boards into wrong letters; at 0.7 as many wrong letters as without values, most of the gain kept.
VALUE_SOFTEN = 0.7


# Letters that are one letter but for a mark (A and Ą, Z Ż Ź; German A and Ä, Danish A and Å) and
# are worth other points (:func:`twins_by_value`): the mark is a few pixels of a square, which blur,
# glare and a face never trained on lose or mistake (an ogonek run into the printed 5, an acute
# read as a dot), and the letter model then splits the twins' probability surely and wrongly -- on
# tuning seeds 53000 / 53010 (100 Polish boards a row, hard camera, cold; training fonts / fonts
# never seen) 16 and 35 tiles of some 5,700 a row shown as the wrong twin -- where the printed
# value tells twins apart.  So a twin's value is always read, and where the value model reads some
# digit TWIN_VALUE_SURE or more surely, the letter model's split of the twins' probability is
# evened out (each twin's share raised to TWIN_EVEN) before the value is weighed in: the value
# decides between the twins, the letter model between them and every other letter.  Evened
# whatever the value model read (its windows read right 95-97 % between twins), the training
# fonts' row had 9 wrong tiles fewer but 17 right ones fewer.
TWIN_EVEN = 0.25
TWIN_VALUE_SURE = 0.7
# A twin left in doubt is not then shown by a likeness, neither to the board's sure tiles
# (_board_letters) nor to its own sharpened ink (_sharpened), where the letter model gives its
# twins TWIN_ASKED or more: the likeness weighs the letter's whole shape, the mark a few pixels of
# it (an Ź matched a sure Ż at 0.97 and was shown Ż, an Ą a sure A).  It stays asked.
TWIN_ASKED = 0.05
# A twin shown where its other twins keep TWIN_LOW_USUAL or more of the twins' probability at the
# usual cut is cut again at TWIN_LOW_CUT; where that reads another twin with TWIN_LOW_SURE or more
# of the twins' share, it is asked, the other twin its guess (:meth:`_twin_at_a_low_cut`).  A mark
# printed thin or washed out by blur (Ż's dot, Ń's and Ź's acute) falls under the usual cut and
# the letter reads as its plain twin; cut lower, the mark shows.  Set on tuning seeds 59640 /
# 59660 (400 Polish boards, hard camera, cold; of 9,996 twins shown, 53 wrong), the cuts read
# apart from the reader: 11 of those caught for 1 right one (0.85: 12 for 10).  Measured on seeds
# 59600 / 59620 (800 Polish boards): 8 tiles shown wrong fewer (Ż shown Z 7 -> 2, Ń shown N 5 -> 3,
# Ź shown Z 5 -> 4), 3 right ones asked, boards with no wrong square 712 -> 715; German (300
# boards) 2 right ones asked, Danish none.  The Ą shown as A, its ogonek run into a bold foot at
# every cut, stays (24 on those seeds).
TWIN_LOW_CUT, TWIN_LOW_USUAL, TWIN_LOW_SURE = 0.15, 0.1, 0.95
# A twin shown where the mark model (vision/models/marks.npz: calibration/train_marks.py), reading the
# letter's grey ink uncut (letters.mark_window), gives one other twin MARK_SURE or more of the twins'
# probability is asked, that twin its guess (:meth:`_mark_reads_another_twin`): a mark the cut runs
# into its letter or drops, which the letter model, reading the cut, cannot see -- Ż read Ź, Ń read
# N, A read Ä.  Set on tuning seeds 60600-60780 (900 boards: Polish, German, Danish; training fonts
# and fonts never seen; the hard camera, cold, values read): 6 wrong twins caught for 1 right one
# asked at 0.95, 9 for 6 at 0.85.  Measured on seeds no rule was set on: see the reading doc.
MARK_SURE = 0.95
# ... and a twin asked, on a tile the square model is sure of, whose letter the letter model doubts
# only between its twins (MARK_GROUP or more of its letters' probability on them), is shown as the
# twin the mark model gives MARK_SHOW or more (:meth:`_mark_shows_a_twin_asked`).  On the tuning
# seeds 60760 / 60780 (300 Polish boards) 133 twins were so asked: at 0.99, 32 shown, all right; at
# 0.98, 39 and 1 wrong (an F asked as E or Ę); at 0.9, 74 and 8 wrong (Ą read A by the mark model).
MARK_GROUP, MARK_SHOW = 0.9, 0.99


def twins_by_value(letters: str, values: dict[str, int]) -> dict[str, str]:
    """letter -> its twins: a letter of ``letters`` and those that are it with a mark
    (:func:`letters.marked_forms`), itself among them (A: "AĄ", Ż: "ZŹŻ"),
    for the letters whose twins are not all worth the same ``values``, each a value the value
    model reads (1-10: a twin worth 0 or unknown could not be told by it).  Empty for a set
    without marked letters (English) or without values."""
    groups = twin_groups(letters)

    def told_by_value(twins: str) -> bool:
        read = [L.value_class(values.get(t, 0)) for t in twins]
        return None not in read and len(set(read)) > 1

    return {ch: twins for twins in groups if told_by_value(twins) for ch in twins}


def twin_groups(letters: str) -> list[str]:
    """Each letter of ``letters`` that has marked forms among them, followed by those forms
    (:func:`letters.marked_forms`): "AĄ", "ZŹŻ"; none for English."""
    return [ch + marked for ch in letters if (marked := L.marked_forms(ch, letters))]


def mark_twins(letters: str, model) -> dict[str, str]:
    """letter -> its twins (itself among them) for the letters of ``letters`` with marked forms
    in ``letters`` that the mark model (``model``) knows, all of them; empty without the model."""
    if model is None:
        return {}
    groups = twin_groups(letters)
    return {ch: g2 for g in groups if len(g2 := "".join(t for t in g if t in model.classes)) > 1 for ch in g2}


def twins_in_doubt(letter: str, p: np.ndarray | None, classes: str, twins: dict[str, str]) -> bool:
    """Whether the letter model's reading ``p`` (over ``classes``) gives ``letter``'s other twins
    (``twins``: :func:`twins_by_value`) TWIN_ASKED or more together: a doubt the mark decides,
    which a likeness to other tiles does not see."""
    mine = twins.get(letter, "")
    if p is None or len(mine) < 2:
        return False
    return sum(float(p[classes.index(t)]) for t in mine if t != letter and t in classes) >= TWIN_ASKED


def twin_share(letter: str, p: np.ndarray, classes: str, twins: dict[str, str]) -> tuple[float, str]:
    """(the share of ``letter``'s twins' probability in ``p`` (over ``classes``) that its other
    twins hold, the likeliest of those); (0.0, "") for a letter without twins.  Unlike
    :func:`twins_in_doubt` a share, not a sum: the twins' split whatever else the model doubts."""
    at = [(classes.index(ch), ch) for ch in twins.get(letter, "") if ch in classes]
    total = sum(float(p[i]) for i, _ in at)
    others = [(float(p[i]), ch) for i, ch in at if ch != letter]
    if not others or total <= 0:
        return 0.0, ""
    return sum(q for q, _ in others) / total, max(others)[1]


def _twins_evened(p: np.ndarray, letters: str, twins: str) -> np.ndarray:
    """``p`` (over ``letters``) with the ``twins``' total shared out among them more evenly: each
    share raised to TWIN_EVEN, the total kept."""
    at = [letters.index(ch) for ch in twins if ch in letters]
    out = p.copy()
    share = p[at] ** TWIN_EVEN
    out[at] = p[at].sum() * share / max(float(share.sum()), 1e-12)
    return out


def letter_by_value(p: np.ndarray, letters: str, values: dict[str, int],
                    q: np.ndarray, twins: dict[str, str] | None = None) -> tuple[str, float, float] | None:
    """(letter, its probability, the runner-up's) once the value model's reading ``q`` of the
    printed value (over ``VALUE_CLASSES``, "no value" last) is weighed in, softened by
    VALUE_SOFTEN (:func:`weigh_by_value`); None where the value model most likely sees no
    value there.  That is asked of its own reading, before softening: softening spreads a
    "no value" of 0.7 (a tile style whose values a blurred picture loses) to under a half, and
    the rest, a tile's border read as a 9, then pulled sure letters under the line (three Q's
    of one board read 0.80-0.84, their windows "no value" 0.67-0.70, shown '#').  Where the
    best letter has ``twins`` (:func:`twins_by_value`) and a digit reads TWIN_VALUE_SURE or
    more, the twins' split is evened first (TWIN_EVEN): their value decides between them."""
    if q[-1] >= 0.5:
        return None
    mine = (twins or {}).get(letters[int(np.argmax(p))])
    if mine and float(q[:-1].max()) >= TWIN_VALUE_SURE:
        p = _twins_evened(p, letters, mine)
    soft = q ** VALUE_SOFTEN
    weighed = weigh_by_value(p, letters, values, soft / soft.sum())
    order = np.argsort(-weighed)
    return (letters[order[0]], float(weighed[order[0]]), float(weighed[order[1]]) if len(order) > 1 else 0.0)


# Tiles whose best letter is under this probability have their printed value read (when the set's
# values are known): not only the doubtful ones, because a letter the model likes can still
# disagree with a value that is plainly printed (Q read as O beside a clear "10").
VALUE_CHECK = 0.98
VALUE_RIVAL = 0.01    # ... and a runner-up letter this likely is worth other points
# A square whose middle is clipped white (glare) shows nothing to read: unless a letter was read on
# it for sure it is unknown, not empty.  Clipped: at least GLARE_SHARE of the middle at GLARE_LEVEL
# or more; a board with more than GLARE_SPOT of its squares clipped is a white board, not a glare.
# Only when reading cold: the empty-board reference, taken from the same place under the same
# lamp, has the glare too, and comparing with it already tells (the rule there only turned 1.4 %
# of rightly read empty squares into '#' on the tuning boards).
GLARE_LEVEL, GLARE_SHARE, GLARE_SPOT = 250, 0.6, 0.25
# ... but when the letter tiles' faces clip too (white tiles under a bright lamp), a clipped
# square the square model calls a blank with WHITE_BLANK or more is a blank tile
WHITE_BLANK = 0.9
REF_GLARE_SURE = 0.9   # with a reference: a glared square read under this is asked (empty or blank)
NEW_INK = 25.0         # ink this much stronger than the reference's is new: the square is read (_new_ink)
SAME_MOST = 12.0       # grey difference from the reference past which no square counts as its (_same_as_reference)
# A letter in doubt is cut again at these ink thresholds (fractions of its strongest ink; the
# usual cut is at letters.THRESHOLD_AT = 0.25) and read again.  On the tuning boards (seeds 7200,
# 7210; hard camera, cold) tiles read right rose 97.0 -> 97.5 % (unseen fonts) and 98.1 -> 98.5 %
# with no more wrong letters; two cuts (0.18, 0.34) gave about half of that.
# The readings are joined by their geometric mean (LOOK_FLOOR keeps a zero from vetoing), and the
# letter's lead over the next one makes it sure only where every cut reads it first: a bold serif
# face gone soft closes R's bowl at the low cuts (read B) and opens it at the high ones (0.5
# added), so only the letter every cut allows stays likely.  The arithmetic mean left most of
# those in doubt.  On the 2,500 doubtful squares of 1,280 tuning boards (seeds 7500-8300, eight
# rows): letters right and sure 351 -> 541, wrong 1 -> 1 (empty squares and blanks given a sure
# letter 13 -> 18, which the square model mostly calls empty); with the lead always counting, a J
# blurred past the focus limit read I; with it never counting, bar I's were left in doubt.
# Through the whole reader (its later rules rescue many): tiles right +22 of 73,000, wrong the same.
SECOND_LOOK = (0.15, 0.2, 0.31, 0.4, 0.5)
LOOK_FLOOR = 1e-4
# ... for ink the letter model gives at least this to letters (not print, not the star): at 0.3
# twice the squares were looked at again (~2 ms more a first frame) for 2 more tiles in 1,637
SECOND_LOOK_LETTER = 0.5
# Ink the letter model gives OTHER_NONE or more to "no letter", with a peak of OTHER_PEAK or more,
# is cut again around the next OTHER_RANKS components; one read as a letter with OTHER_SURE wins
OTHER_NONE, OTHER_PEAK, OTHER_RANKS, OTHER_SURE = 0.5, 60.0, 2, 0.8
# ... and failing those, the letter's component alone (_letter_alone), read with ALONE_SURE or
# more and as tall as the board's sure letters (within ALONE_HEIGHT), where ALONE_TILES sure
# letters tell that height
ALONE_SURE, ALONE_HEIGHT, ALONE_TILES = 0.75, 0.1, 3
# a letter read this surely on a premium square read empty, as tall as the board's, on the tiles'
# colour: a tile (_tile_on_premium)
PREMIUM_TILE_SURE = 0.9
# ... and cut higher, at BLUR_CUTS of its strongest ink: read as one letter by every cut, with
# BLUR_SURE or more on average, it is that letter (a blurred I, a fat bar at the usual cut)
BLUR_CUTS, BLUR_SURE = (0.5, 0.6, 0.7), 0.8
# ... or, failing that, cut at BLUR_JOINED and read by their geometric mean (join_cuts), without
# the usual cut, with BLUR_SURE or more (a bold face gone soft: an S whose bowls fill in reads as
# a blob, no letter, at the usual cut and S at 0.5 of its ink, but not at 0.7).  On the 3,141
# such squares of 1,280 tuning boards (seeds 7500-8300, eight rows; 621 of them letters):
# 29 more letters right, none wrong, no empty square or blank given a letter; (0.4, 0.5, 0.6):
# 44 right but 3 empty squares given a letter; at 0.7, 62 right, 1 wrong, 4.  Through the whole
# reader: tiles right +7 of 73,000 on the same boards, wrong the same.
BLUR_JOINED = (0.31, 0.4, 0.5, 0.6)
JOIN_FROM = 0.5   # ... asked only where the 0.6 cut reads a letter at this or more (see _blur_cuts)
# A lone bar the letter model half takes for no letter at all, on a square the square model
# reads as a letter tile: an I.  The letter model's "no letter" class learnt bars (grid lines,
# the gap beside a tile sitting off its square), and gives a plain sans-serif I 0.4-0.6 of it,
# the I 0.2-0.4 and every other letter a few hundredths -- on two tuning seeds (480 boards, six
# rows) the I was the letter most often asked, 16 of its 1,005 tiles against 1-6 of the
# others'.  Such a glyph (one piece, at most BAR_I_ASPECT as wide as tall, as tall as the
# board's letters cut alone within BAR_I_HEIGHT, the I read with BAR_I_LEAST or more and no
# other letter with BAR_I_RIVAL) is read as an I with its probability and "no letter"'s
# together (_bar_read_as_i).  A letter that lost a stroke reads I surely, not "no letter"
# (_faint_stroke_lost asks about those), and the two checks of a shown I below still run.  Not
# on a square clipped white by glare (_glared): glare washes the arms off an E, an R, a J and
# leaves a bar (a hand-held camera game: an E in glare shown I so, where it had been asked).
# Tuning seeds 26000-26600 (960 boards, six rows): 14 I's asked before now shown, nothing else
# moved.
BAR_I_ASPECT, BAR_I_HEIGHT, BAR_I_LEAST, BAR_I_RIVAL = 0.4, (0.85, 1.06), 0.2, 0.08
# a bar letter (shown with under BAR_CHECK) with another letter this likely in its crop is '#'
BAR_LETTERS, BAR_CHECK, BAR_RIVAL = "I", 0.9, 0.7
FAINT_FULLER = {"I": "LJT", "F": "E"}     # letters that are these less a stroke (_faint_stroke_lost)
FAINT_CUT, FAINT_SURE = 0.1, 0.9           # ... whose ink cut this low reads the fuller one this surely: '#'
# ... and any letter shown with under FAINT_DOUBT whose ink cut that low reads another letter that
# surely: a serif U's hairline stem, a light K's arms faded under blur leave a stem read I or J.
# Tuning boards (seeds 7500-9700, 1,440 boards, six rows): 2 wrong letters asked (U read I at
# 0.61, H read J at 0.58), no right one; asked of every letter, 1 wrong more (a Q read G at 0.96)
# for 33 right letters (0.81-0.99: cut that low a sure S or R fills in to a B, a P to an R).
# Checked on 1,440 more (seeds 10000-11800): 3 wrong letters asked (G read C, Y read V, N read L,
# 0.68-0.74), one right (a P at 0.71).  Cut also at 0.2 and 0.15: a Y read J more, a P more asked
FAINT_DOUBT = 0.75
FAINT_CUT_FULLER = 0.2   # the letters a stroke short cut again here (see _faint_stroke_lost)
# A face of thick stems and hairlines (FreeSerif Bold, a Times-like bold never trained on) under a
# hard camera's blur keeps its stems and loses its hairlines at the usual cut (letters.THRESHOLD_AT,
# a quarter of the strongest ink): an F or an L a bare stem (read H, I), a Z its diagonal alone, an
# M its thin legs.  The whole board is in one face, so where fewer than LOW_CUT_DOUBT of a
# picture's letters on plain squares (LOW_CUT_LEAST or more) read surely (0.9) cut as usual, its
# letters are all cut again at LOW_CUT; where that cut reads LOW_CUT_GAIN of the plain ones (and at
# least LOW_CUT_MORE) more surely than the usual one, the picture's letters are read from it
# (_cut_low_where_it_reads_better).  Half: a FreeSans Bold board with 13 of 21 read surely gained
# 3 sure letters cut low and lost an I; the FreeSerif Bold board of tuning seed 50800 read 19 of 56.
LOW_CUT, LOW_CUT_DOUBT, LOW_CUT_GAIN, LOW_CUT_LEAST, LOW_CUT_MORE = 0.15, 0.5, 0.1, 8, 3
# A tile still in doubt whose ink, sharpened (the ink plus SHARPEN_GAIN times its difference from
# itself blurred by SHARPEN_SIGMA px, at CELL px a square), cut as usual reads the letter already
# guessed this surely is shown as that letter (_sharpened).  Stronger sharpening (2.0, 1.5)
# confirmed wrong guesses; 0.6 as sure added 2 tiles right for a covered square read wrong.
SHARPEN_SIGMA, SHARPEN_GAIN, SHARPEN_SURE = 1.5, 1.0, 0.7
# ... but not a square the square model gives SHARPEN_KIND_DOUBT or more to being empty or a
# blank whose usual cut already read a letter's shape ("no letter" under SHARPEN_SHAPED)
SHARPEN_KIND_DOUBT, SHARPEN_SHAPED = 0.1, 0.1
# A letter in doubt on a board whose tiles sit off their squares is cut again from a crop moved
# to where they sit (_cut_where_the_tiles_sit): the offset is the median of the board's sure
# letters' centres less their crops' centres (tiles_offset), from OFFSET_LETTERS sure letters and
# only when OFFSET_MIN_PX or more; the moved cut is shown where it reads a letter OFFSET_SURE or more
# and OFFSET_LEAD ahead of the next.  Tuning seeds 50000 / 51000 (480 boards): 11 letters asked
# before now right, none wrong; 0.75 as sure 2 more right there, but on fresh seeds (54000-54600,
# 960 boards, 18 letters more right at 0.9, none wrong) a Q shown O.  OFFSET_MIN_PX 1.0 read the same.
OFFSET_LETTERS, OFFSET_MIN_PX, OFFSET_SURE, OFFSET_LEAD = 5, 2.5, 0.9, 0.5
# A letter shown with under OTHER_BELOW whose ink sharpened harder (OTHER_SIGMA, OTHER_GAIN) reads
# another letter OTHER_SURE or more is asked about (_sharpened_reads_another)
OTHER_SIGMA, OTHER_GAIN, OTHER_SURE, OTHER_BELOW = 1.0, 2.0, 0.8, 0.97
# A letter in doubt is first cut otherwise (letters.glyph_cuts: without the pieces joined to it,
# or around the next components); a cut read with CUT_SURE or more (CUT_RANK_SURE around another
# component: a neighbour's edge can read as an L or a J) replaces it.  On the tuning boards (seeds
# 7500, 7700: 12 rows, 480 boards) tiles right rose on 11 rows (+0.03 to +0.26 %), the same on 1,
# with no more wrong squares; at 0.8 for both, a tile edge beside a G read as a J.
CUT_SURE, CUT_RANK_SURE = 0.8, 0.95
# Letters that are their own half turn: laid upside down, their tiles read the same but for the
# point value, at the upper left (real frames: O tiles so laid read at 0.3-0.4, turned back 0.98)
HALF_TURN_SAME = "HINOSXZ"
HALF_TURN = -1        # the "rank" of that cut
HAND_NEIGHBOURS = 2   # covered neighbours that put an empty-looking square under the hand
# The board's own letters: a tile whose letter stays in doubt is shown as its best guess when a
# tile of the same picture read as that letter with OWN_SURE or more looks just like it (the
# same set, the same font: similarity, as a set profile's prototypes measure it, of OWN_MATCH or
# more) and no tile read surely as another letter comes within OWN_APART of that.  Mostly a font
# the letter model never saw, whose doubtful letters have sure twins elsewhere on the board.  On
# the tuning boards' doubtful letters (~650 boards, six rows): 33 of 202 confirmed, none wrong;
# from a match of 0.85, 37 and 2 wrong (an E with the set's F, an empty square with a V).
# Twins shown with 0.9 or more (first 0.95): +16 tiles on 1,920 tuning boards, none wrong; from
# 0.8, +33 but 5 wrong (twins themselves misread: a J read I taught another J to be an I).
OWN_SURE, OWN_MATCH, OWN_APART = 0.9, 0.9, 0.1
# ... or when one of its cuts at the second look's other ink thresholds matches such a twin at
# OWN_MATCH_CUT or more (four more tries when chosen, five now, so a closer match: at 0.9 a Q
# cut without its tail matched a sure O, 1 wrong for 42 more tiles on 1,440 tuning boards; at
# 0.93 none wrong)
OWN_MATCH_CUT = 0.93
# ... and a tile in doubt is shown as another letter than its best guess when the board's sure
# tiles of that letter are the ones it looks just like (the same two thresholds, every cut that
# matches at all agreeing): a font the letter model never saw misleads its guess, not its twins.
# Tuning boards (1,440: seeds 7500-8900, six rows): 51 such tiles, 49 right; the 2 wrong were Q's
# whose tails the twins' likeness hardly weighs, taken for O's.  Letters told apart by a small
# mark only are not switched between: the guess stays in doubt.
OWN_SMALL_MARK = {frozenset(pair) for pair in ("OQ", "EF", "PR", "CG")}
# ... nor on a picture whose edges are blurred over more than this (px of a CELL square,
# blur_width): blurred letters of a font look alike, and the twins' choice read 2 more squares
# wrong on the out-of-focus pictures (further blurred 1.5-2 px) the focus check lets through
# (boards as the benchmark renders them 0.6-1.3, real photos 0.6-1.6)
OWN_SWITCH_BLUR = 1.4


class BoardReader:
    """Reads boards of one game: keeps polarity, orientation, tile colour, reference.

    A camera that mirrors its picture (phone-as-webcam apps, front cameras) is found with the
    orientation: when no quarter turn reads the letters well and the mirrored board reads them
    clearly better, or where the tiles' printed values sit says so (:meth:`_values_flipped`),
    every picture is mirrored back before it is read (:attr:`mirrored`).  An orientation the
    letters leave open (a first move of a few letters) is taken from how letters and values read
    together in each pose (:meth:`_pose_by_values`), where the set's values are known, and is
    decided again once the board has changed (:meth:`_orientation_open`).

    ``letters``: the tile set's letters (e.g. "ABCDEFGHIJKLMNOPQRSTUVWXYZ" or with "ÄÖÜ").
    ``reference``: rectified picture of the empty board from the same camera position (better
    empty/tile decisions); can be set later with :meth:`set_reference`.
    ``profile``: a :class:`calibration.set_profile.SetProfile` of the players' own tiles.
    ``values``: letter -> the point value printed on its tiles (the tile set's values).  When the
    letter model hesitates between letters worth different points, the printed value is read
    (``vision/models/values.npz``) and weighs in; without it nothing changes.
    """

    def __init__(self, letters: str, reference: np.ndarray | None = None, profile=None,
                 model: L.LetterModel | None = None, squares: SquareModel | None = None,
                 min_letter: float = MIN_LETTER, min_square: float = MIN_SQUARE,
                 min_margin: float = MIN_MARGIN, values: dict[str, int] | None = None,
                 value_model: L.LetterModel | None = None):
        if not letters or not isinstance(letters, str):
            raise VisionError("The tile set's letters are missing.", "bad-input")
        self.letters = "".join(dict.fromkeys(letters.upper().replace("?", "")))
        # letters drawn with separate marks (Ä Å Ś, not Ø Ł): marks above a letter belong to it
        self._marks = any(unicodedata.decomposition(ch) for ch in self.letters)
        self._half_turn_same = set(self.letters) & set(HALF_TURN_SAME)
        self.model = model or L.default_model()
        check_letters(self.letters, self.model, profile)
        self.squares = squares or default_square_model()
        self._board_lab = np.zeros(3, np.float32)   # the board's square colour, set by _features
        self._inked_lab = None      # ... and the tiles' told by their ink where no letter read surely
        self._looked_empty: set = set()              # squares the second look emptied (_look_again)
        warm_up()
        self.profile = profile
        self.values = {ch.upper(): int(v) for ch, v in (values or {}).items()}
        self.value_model = (value_model or L.default_value_model()) if self.values else None
        self._twins = twins_by_value(self.letters, self.values)   # letters whose value is always read
        # loaded only for a set with twins: English never needs it
        self.marks_model = L.default_marks_model() if twin_groups(self.letters) else None
        self._mark_twins = mark_twins(self.letters, self.marks_model)
        self.min_letter = min_letter
        self.min_margin = min_margin
        self.min_square = min_square
        self.polarity: int | None = getattr(profile, "polarity", None) or None
        self.orientation: int | None = None
        self.mirrored = False                         # pictures mirrored back before reading
        # orientation and mirror decided without a clear lead (a first move of a few letters):
        # the squares' middles then (grey, before turning); decided again once they change
        self._open_since: np.ndarray | None = None
        self.tile_lab: np.ndarray | None = None if profile is None else getattr(profile, "tile_lab", None)
        # the set profile's tile colour stands in only until a picture shows the tiles' own (the
        # tile sheet may have been photographed under another light)
        self._tile_lab_seen = False
        self.grey: np.ndarray | None = None          # how letters' grey picture is made (grey_weights)
        self._grey_known = False
        self.reference: Analysis | None = None
        self._ref_raw: np.ndarray | None = None
        self._ref_k: tuple[int, bool] | None = None
        self._prev: tuple[Analysis, BoardReading] | None = None
        self._focus: FocusSeen | None = None          # the last picture whose focus was measured
        if reference is not None:
            self.set_reference(reference)

    # -- setup
    def set_reference(self, rect_empty: np.ndarray | None) -> None:
        """Picture of the empty board, rectified like the frames to come (same corners).

        It is turned together with the frames once the reader knows which side is up.
        """
        self._ref_raw = None if rect_empty is None else as_board(split_surround(rect_empty)[0])
        self._ref_k = None
        self.reference = None
        self._turn_reference(0)
        self._prev = None

    def _turn_reference(self, k: int) -> None:
        """The reference seen as the frames are: mirrored back when they are, turned by k."""
        if self._ref_raw is not None and self._ref_k != (k, self.mirrored):
            raw = mirror_rectified(self._ref_raw) if self.mirrored else self._ref_raw
            self.reference = Analysis(turn_rectified(raw, k), grey=self.grey)
            self._ref_k = (k, self.mirrored)

    def _set_grey(self, grey: np.ndarray | None) -> None:
        """Make the letters' grey picture with ``grey`` from now on (the reference too)."""
        changed = (grey is None) != (self.grey is None) or (grey is not None and not np.allclose(grey, self.grey))
        self.grey, self._grey_known = grey, True
        if changed:
            k, self._ref_k = (self._ref_k or (0, False))[0], None
            self._turn_reference(k)   # the reference seen again the new way
            self._prev = None

    def reset(self) -> None:
        """Forget polarity, orientation, tile colour and the previous frame (new game, new set)."""
        self.polarity = getattr(self.profile, "polarity", None) or None
        self.orientation = None
        self.mirrored = False
        self._open_since = None
        self.tile_lab = None if self.profile is None else getattr(self.profile, "tile_lab", None)
        self._tile_lab_seen = False
        self._set_grey(None)
        self._grey_known = False
        self._prev = None
        self._turn_reference(0)

    def way_up(self) -> "WayUp":
        """Which way round the reader now reads the board, and what it keeps of the last
        picture, to be put back with :meth:`keep_way_up` (``orientation`` None: not decided)."""
        return WayUp(self.orientation, self.mirrored, self.polarity, self._open_since, self._prev)

    def decide_way_up_again(self) -> None:
        """Decide which side is up afresh on the next picture, from its letters, keeping the
        polarity, the tiles' colour and the grey picture: that picture is framed otherwise (a
        phone turned, or moved to another side of the table), so the corners' order, and with it
        the way up kept from the pictures before, says nothing of it.  (The last picture is kept:
        a picture read another way round than the last one does not use it.)"""
        self.orientation = None
        self._open_since = None

    def keep_way_up(self, way_up: "WayUp") -> None:
        """Read the next pictures as before a :meth:`decide_way_up_again` whose picture read no
        better: ``way_up`` is what :meth:`way_up` said then."""
        self.orientation, self.mirrored, self.polarity = way_up.orientation, way_up.mirrored, way_up.polarity
        self._open_since, self._prev = way_up.open_since, way_up.prev

    # -- letters
    def _classify(self, glyphs: list[L.Glyph], upright: bool = True,
                  cached: list | None = None) -> tuple[np.ndarray, str]:
        """Letter probabilities (columns: the set's letters, ROT, NONE) for glyphs.

        ``cached``: per glyph ``(logits, hidden)`` already computed, or None entries.
        """
        protos = getattr(self.profile, "prototypes", None)
        if not glyphs:
            return np.zeros((0, len(self.letters) + 2), np.float32), self.letters + L.ROT + L.NONE
        ims, meta = L.stack(glyphs)
        if cached is not None and all(c is not None for c in cached):
            logits = np.stack([c[0] for c in cached])
            hid = np.stack([c[1] for c in cached])
        else:
            logits, hid = self.model.forward(ims, meta)
        p, classes = self.model.probabilities(ims, meta, self.letters, logits=logits, upright=upright)
        if protos is not None and len(protos):
            p, classes = L._mix_prototypes(protos.similarity(hid, ims), p, classes, protos, 0.7)
        return p, classes

    def _glyphs_read(self, an: "Analysis", pol: int, cells) -> tuple[list, list]:
        """(the squares of ``cells`` with a glyph, their glyphs) as this picture cuts them, each
        one's logits and hidden layer in the picture's cache (the model asked only for those not
        there yet)."""
        where, gl = [], []
        an.cut_glyphs(pol, cells)
        for rc in cells:
            g = an.glyph(pol, *rc)
            if g is not None:
                where.append(rc)
                gl.append(g)
        cache = an.logits[pol]
        todo = [i for i, rc in enumerate(where) if rc not in cache]
        if todo:
            ims, meta = L.stack([gl[i] for i in todo])
            lg, hid = self.model.forward(ims, meta)
            for j, i in enumerate(todo):
                cache[where[i]] = (lg[j], hid[j])
        return where, gl

    def _glyph_probs(self, an: "Analysis", pol: int, cells, upright: bool = True):
        """(glyph cells, glyphs, probabilities, classes) for squares, using the logits cache."""
        where, gl = self._glyphs_read(an, pol, cells)
        p, classes = self._classify(gl, upright, [an.logits[pol][rc] for rc in where])
        return where, gl, p, classes

    def _candidates(self, an: Analysis, polarity: int, min_contrast: float = PEAK_MIN) -> list[tuple[int, int]]:
        """Squares with ink that may vote on polarity/orientation: plain squares (no print),
        or every square when fewer than three plain ones have ink."""
        peak = an.peak(polarity)
        cells = [(r, c) for r in range(GRID) for c in range(GRID) if peak[r, c] >= min_contrast]
        if self.reference is not None:          # only what changed since the empty board
            if getattr(an, "_same", None) is None:
                an._same = self._same_as_reference(an)
            cells = [rc for rc in cells if not an._same[rc]]
        plain = [rc for rc in cells if PLAIN[rc]]
        return plain if len(plain) >= 3 else cells

    def _strongest(self, an: Analysis, polarity: int, most: int) -> list[tuple[int, int]]:
        """The ``most`` :meth:`_candidates` with the strongest ink, strongest first: the voters
        on the way up (:meth:`orientation_scores`, :meth:`_pose_by_values`)."""
        peak = an.peak(polarity)
        return sorted(self._candidates(an, polarity), key=lambda rc: -peak[rc])[:most]

    def decide_polarity(self, an: Analysis) -> int:
        """+1 or -1: which way the letters read best over the whole board.

        The likelier way (:func:`_likely_polarities`) is tried first: when its letters read
        surely the other is not tried, which saves a board-wide ink picture and ten glyphs
        (~6 ms) on light letters too, not only on dark ones.  Each way's POL_VOTERS squares of
        strongest ink vote; squares among them holding no glyph make way for the next strongest
        (up to POL_ASK_MOST asked).  That wider vote decides when its winner reads at least
        POL_MIN_SCORE; otherwise (nothing reads as a letter either way: an empty board) the
        strongest squares' own vote does, dark letters when neither way had a glyph."""
        best, score = 1, -1.0
        first_best, first_score = 1, -1.0          # the vote of the strongest POL_VOTERS squares only
        sure_reads = {}                            # polarity -> its voters reading a letter surely
        dark = self._candidates(an, 1)
        for pol in _likely_polarities(an, dark):
            peak = an.peak(pol)
            ranked = sorted(dark if pol == 1 else self._candidates(an, pol), key=lambda rc: -peak[rc])
            _, gl, p, _ = self._glyph_probs(an, pol, ranked[:POL_VOTERS])
            scores = self._turn_free(gl, p)               # each voter's, read once
            strongest = float(_polarity_vote(scores).sum()) if gl else -1.0
            if strongest > first_score:
                first_best, first_score = pol, strongest
            # the strongest ink may hold no glyph (the gaps and shadows of tiles sitting off
            # their squares, dark on a dark board): the next squares vote instead
            asked = POL_VOTERS
            while len(scores) < POL_VOTERS and asked < min(len(ranked), POL_ASK_MOST):
                more = ranked[asked:asked + POL_VOTERS - len(scores)]
                asked += len(more)
                _, g2, p2, _ = self._glyph_probs(an, pol, more)
                if g2:
                    scores = np.concatenate([scores, self._turn_free(g2, p2)])
            if not len(scores):
                continue
            top = _polarity_vote(scores)
            sure_reads[pol] = int((scores >= POL_SURE).sum())
            s = float(top.sum())
            if s > score:
                best, score = pol, s
            if len(top) == 3 * POL_VOTERS // 4 and top.min() >= POL_SURE:
                break          # letters that read this clearly: the other way is not tried
        # letters read surely one way and none the other: that way, whatever the sums -- a sum
        # over more voters can add up the wrong way's weak reads (a first move of five light
        # tiles on a dark board, with a reference: two letters read 0.97 and 0.99 dark, the
        # other way ten squares' pale premium prints 0.01-0.63 summed higher)
        surely = [pol for pol, n in sure_reads.items() if n >= POL_SURE_READS]
        if len(surely) == 1 and sure_reads.get(-surely[0]) == 0:        # the other way tried, none sure
            return surely[0]
        # the squares asked past the strongest decide only when they read letters (a letter's
        # worth or more); otherwise the strongest squares' vote stands, as on an empty board
        return best if score >= POL_MIN_SCORE else first_best

    def _turn_free(self, glyphs: list, p: np.ndarray) -> np.ndarray:
        """Each glyph's letter score (``p``: its upright probabilities) at the quarter turn that
        reads it best.  Polarity is decided before the way up, and a board seen from another side
        of the table shows every letter turned: read upright only, its letters read as letters
        barely more than the tile face's gaps read the other way round, and the wrong polarity
        could win (then no turn reads and the board reads as nothing).  The other turns are read
        only for glyphs that do not read surely upright (a board seen upright is not slowed)."""
        up = _letter_score(p, "")
        ask = [i for i in range(len(glyphs)) if up[i] < POL_SURE]
        if not ask:
            return up
        turned, _ = self._classify([_rot_glyph(glyphs[i], k) for k in (1, 2, 3) for i in ask], upright=False)
        best = _letter_score(turned, "").reshape(3, len(ask)).max(axis=0)
        out = up.copy()
        out[ask] = np.maximum(up[ask], best)
        return out

    def _polarity_again(self, an: Analysis) -> int:
        """The polarity decided afresh on ``an`` -- or the set profile's, which fixes it."""
        return getattr(self.profile, "polarity", None) or self.decide_polarity(an)

    def orientation_scores(self, an: Analysis, polarity: int, mirror: bool = False,
                           squares: int | None = None) -> np.ndarray:
        """Total letter confidence of the board turned by k = 0..3 quarter turns.

        The strongest squares vote first (ORIENT_STAGES); as soon as one turn leads every other
        by ORIENT_CLEAR the rest are not asked (most boards: saves glyphs and CNN passes).
        ``mirror``: of the board mirrored left to right first (its glyphs mirrored: a camera that
        mirrors its picture).  ``squares``: exactly the strongest that many squares vote, none
        stops early (two votes on the same squares can be compared).  :attr:`_voters` is how
        many glyphs voted, :attr:`_asked` how many of the strongest squares were asked.
        """
        ranked = self._strongest(an, polarity, ORIENT_VOTERS)
        scores = np.zeros(4)
        self._voters = self._asked = 0
        bounds = (0,) + ORIENT_STAGES + (ORIENT_VOTERS,) if squares is None else (0, squares)
        for lo, hi in zip(bounds, bounds[1:]):
            if lo >= len(ranked):
                break
            where, gl, _, _ = self._glyph_probs(an, polarity, ranked[lo:hi], upright=False)
            self._voters += len(gl)
            self._asked = min(hi, len(ranked))
            if mirror:
                gl = [_mirror_glyph(g) for g in gl]
                where = [(r, GRID - 1 - c) for r, c in where]
            if gl:
                # the three other turns in one pass of the CNN (onnxruntime reads a glyph the same in
                # any batch, numpy to float rounding: no reading changed on the tuning boards)
                turned, _ = self._classify([_rot_glyph(g, k) for k in (1, 2, 3) for g in gl], upright=False)
                for k in range(4):
                    if k == 0 and mirror:
                        p, _ = self._classify(gl, False)
                    elif k == 0:
                        p, _ = self._classify(gl, False, [an.logits[polarity][rc] for rc in where])
                    else:
                        p = turned[(k - 1) * len(gl):k * len(gl)]
                    scores[k] += float(_letter_score(p, "").sum())
            top = np.sort(scores)
            if top[-1] - top[-2] >= ORIENT_CLEAR and squares is None:
                break
        return scores

    def _orientation_open(self, an: Analysis) -> bool:
        """Whether to decide the orientation (and mirror) again: it was decided without one turn
        leading by ORIENT_CLEAR (too few letters -- a first move of two or three tiles, most of
        them their own mirror image -- to be sure), and since then OPEN_SQUARES squares or more
        have changed (by OPEN_CHANGE grey levels on average: new tiles, or a hand passing)."""
        if self._open_since is None:
            return False
        changed = np.abs(an.mid_gray - self._open_since).mean(axis=(2, 3)) >= OPEN_CHANGE
        return int(changed.sum()) >= OPEN_SQUARES

    def _mirror_reads_better(self, an: Analysis, scores: np.ndarray) -> bool:
        """Whether the board reads clearly better mirrored (a camera that mirrors its picture),
        given :meth:`orientation_scores` of the picture as it is (``scores``).  In a mirrored
        picture only the letters that are their own mirror image read (A, H, M, O...; turned
        upside down, B, C, D, E, K...), so it is asked only when no turn reads the voters well
        (under MIRROR_TRY a voter).  Then the strongest MIRROR_SQUARES squares (or all that
        voted) vote as they are and mirrored, the same squares both ways: mirrored, they must
        read MIRROR_READS a voter and MIRROR_LEAD a voter better."""
        n = self._voters
        if n < MIRROR_VOTERS or scores.max() >= MIRROR_TRY * n:
            return False
        kept = self._voters, self._asked      # what the reading goes on with
        upto = max(self._asked, MIRROR_SQUARES)
        as_is = scores if upto == self._asked else self.orientation_scores(an, self.polarity, squares=upto)
        m = self._voters
        mirrored = self.orientation_scores(an, self.polarity, mirror=True, squares=upto)
        self._voters, self._asked = kept
        return (m >= MIRROR_VOTERS and mirrored.max() >= MIRROR_READS * m
                and mirrored.max() - as_is.max() >= MIRROR_LEAD * m)

    def _value_voters(self, reading: BoardReading) -> list[tuple[tuple[int, int], int]]:
        """The surest tiles (VALUE_CORNER_VOTERS at most) whose letters' values the value model
        can read, each with its value's class (an index into ``letters.VALUE_CLASSES``)."""
        sure = [(float(reading.confidence[r, c]), (r, c)) for r in range(GRID) for c in range(GRID)
                if reading.kinds[r, c] == "tile" and reading.labels[r][c] in self.values
                and reading.confidence[r, c] >= self.min_letter
                and L.value_class(self.values[reading.labels[r][c]]) is not None]
        return [(rc, L.VALUE_CLASSES.index(L.value_class(self.values[reading.labels[rc[0]][rc[1]]])))
                for _, rc in sorted(sure, reverse=True)[:VALUE_CORNER_VOTERS]]

    def _value_reads(self, an: Analysis, pol: int, voters, poses: tuple[tuple[bool, int], ...]) -> np.ndarray:
        """(len(poses),) summed probability that the value model reads each voter's own value in
        its window (below and right of its letter) with its crop in each pose (mirrored, quarter
        turns: :func:`_posed`; nothing cut again).  A window that falls outside the crop reads
        nothing."""
        wins, at = [], []
        for i, (rc, _) in enumerate(voters):
            g = an.glyph(pol, *rc)
            if g is None:
                continue
            for j, pose in enumerate(poses):
                gray, ink, gp = _posed(an.crop_gray(*rc), an.ink_crop(pol, *rc), g, *pose)
                w = L.value_glyph_of(gray, pol, letter=gp, ink=ink)
                if w is not None:
                    wins.append(w)
                    at.append((i, j))
        out = np.zeros(len(poses))
        if wins:
            Q = L.value_probabilities(wins, self.value_model)
            for q, (i, j) in zip(Q, at):
                out[j] += q[voters[i][1]]
        return out

    def _pose_votes(self, an: Analysis, polarity: int, cells) -> tuple[np.ndarray, int]:
        """How well each square's letter and printed value read together in each of the 8 poses
        (pose ``m * 4 + j``: the crop mirrored left to right when m, then turned by j quarter
        turns, as :meth:`orientation_scores` turns glyphs): (8,) summed over the squares of
        sum over letters of P(letter) * P(the value beside it is that letter's); and how many
        squares voted (those with a letter and room for a value window every way)."""
        where, gl = self._glyphs_read(an, polarity, cells)
        glyphs, wins, keep = [], [], []
        for rc, g in zip(where, gl):
            gray, ink = an.crop_gray(*rc), an.ink_crop(polarity, *rc)
            ways_g, ways_w = [], []
            for pose in POSES:
                a, i, gp = _posed(gray, ink, g, *pose)
                ways_g.append(gp)
                ways_w.append(L.value_glyph_of(a, polarity, letter=gp, ink=i))
            if any(w is None for w in ways_w):
                continue
            glyphs += ways_g
            wins += ways_w
            keep.append(rc)
        n = len(keep)
        if not n:
            return np.zeros(8), 0
        p, classes = self._classify(glyphs, upright=False)
        Q = L.value_probabilities(wins, self.value_model)
        # each letter's value's column of Q (-1: a letter without a readable value)
        col = np.array([L.VALUE_CLASSES.index(L.value_class(self.values[ch]))
                        if ch in self.values and L.value_class(self.values[ch]) else -1 for ch in classes[:-2]])
        known = col >= 0
        joint = (p[:, :-2][:, known] * Q[:, col[known]]).sum(axis=1)
        return joint.reshape(n, 8).sum(axis=0), n

    def _pose_by_values(self, an: Analysis) -> tuple[int, bool] | None:
        """(quarter turns, mirrored) of the pose in which the strongest squares' letters and
        printed values read together clearly best (:meth:`_pose_votes`, leading the next pose by
        POSE_LEAD), or None when none does."""
        joint, n = self._pose_votes(an, self.polarity, self._strongest(an, self.polarity, POSE_SQUARES))
        order = np.argsort(-joint)
        if not n or joint[order[0]] - joint[order[1]] < POSE_LEAD:
            return None
        mirrored, k = POSES[int(order[0])]
        return k, mirrored

    def _values_flipped(self, an: Analysis, reading: BoardReading) -> bool:
        """Whether the surest tiles' printed values read clearly better with the crops flipped
        (top to bottom or left to right) than as they are: the picture is mirrored.

        A mirrored picture turned so that the letters symmetric about their middle line (B C D
        E H I K O X; or, not turned, A H I M O T U V W X Y) read well reads those surely and every
        other letter wrong, and its no-turn-reads-well check (:meth:`_mirror_reads_better`) is
        never asked.  But the value, printed below and right of an upright tile's letter, is then
        above it or left of it."""
        voters = self._value_voters(reading)
        n, pol = len(voters), reading.polarity or 1
        if n < VALUE_FLIP_VOTERS:
            return False
        as_is = float(self._value_reads(an, pol, voters, (AS_IS,))[0])
        if as_is > (1.0 - VALUE_FLIP_LEAD) * n:
            return False                         # no flip could lead it (most boards: one pass)
        flipped = float(self._value_reads(an, pol, voters, (TOP_TO_BOTTOM, LEFT_TO_RIGHT)).max())
        return flipped >= VALUE_FLIP_READS * n and flipped - as_is >= VALUE_FLIP_LEAD * n

    def _turned_analysis(self, rect: np.ndarray, an: "Analysis", k: int) -> "Analysis":
        """Analysis of the board turned by k, afresh: nothing found while deciding the way up is
        reused.  Neither the glyphs (cutting a letter is not the same at every turn: marks are
        looked for above it, a flat piece is a tile edge when it lies across the crop; and the
        letter model learnt from letters cut upright) nor the ink (its disc, OpenCV's ellipse, is
        not its own quarter turn: wider at its sides than at its top and bottom).  So a board
        reads the same, square for square and to every confidence, whichever way round the
        camera sees it; a glyph reused turned read a letter at 0.59 that reads 0.96 upright."""
        return Analysis(turn_rectified(rect, k), turn_rectified(an.surround, k), an.grey)

    # -- reading
    def read(self, rect: np.ndarray, orient: bool = True) -> BoardReading:
        """Read one rectified board picture (mirrored back when the camera mirrors, see
        :attr:`mirrored`; turned upright when ``orient``).

        A picture SURROUNDED px a side (:func:`rectify_board`) is the grid plus MARGIN px of
        the photo round it; any other size is the grid alone."""
        if self._grey_known:
            return self._read_frame(rect, orient)
        t0 = time.perf_counter()
        grid = as_board(split_surround(rect)[0])
        small = cv2.resize(mirror_rectified(grid) if self.mirrored else grid, (GRID * SMALL, GRID * SMALL),
                           interpolation=cv2.INTER_AREA)
        plain_grey = grey_weights(small)
        axis = ink_hue_axis(small) if plain_grey is None else None
        if axis is None:
            return self._read_frame(rect, orient, plain_grey, small)
        # the frame that decides how letters are seen, with a few squares of hue-only ink: read
        # it in lightness and along that hue, and go on with the way that reads more letters
        before = dict(self.__dict__)
        plain = self._read_frame(rect, orient, None, small)
        after_plain = dict(self.__dict__)
        self.__dict__.update(before)
        self._set_grey(axis)
        try:
            hued = self._read_frame(rect, orient, small=small)
        except VisionError:
            hued = None
        n_plain = _letters_read_surely(plain, self.min_letter)
        n_hued = _letters_read_surely(hued, self.min_letter) if hued is not None else 0
        # where neither way reads letters (heavy blur, ink close to its tile's colour) the one
        # that sees more tiles: its tiles are asked, not shown as empty squares.  Whatever the
        # grey's state -- a reading that sees no tile resets it (tuning seed 45600: cyan ink on
        # cyan tiles read a quarter turned in lightness, its 20 letters shown empty)
        no_letters = n_plain < HUE_BETTER and n_hued < HUE_BETTER
        if hued is not None and ((self._grey_known and n_hued >= max(n_plain + HUE_BETTER, 1.25 * n_plain))
                                 or (no_letters and _squares_seen(hued) > _squares_seen(plain))):
            hued.ms = (time.perf_counter() - t0) * 1000
            return hued
        self.__dict__.clear()
        self.__dict__.update(after_plain)
        plain.ms = (time.perf_counter() - t0) * 1000
        return plain

    def _read_frame(self, rect: np.ndarray, orient: bool = True, grey: np.ndarray | None | str = "decide",
                    small: np.ndarray | None = None, corner_check: bool = True) -> BoardReading:
        """:meth:`read`, with ``grey`` the grey picture's weights when :meth:`read` has already
        worked them out from this picture (the same numbers), "decide" to work them out here;
        ``small``: the grid (mirrored where the camera mirrors) as :class:`Analysis` shrinks it,
        when :meth:`read` has made it.  ``corner_check``: whether a new orientation is checked
        against where the printed values sit (:meth:`_values_flipped`)."""
        t0 = time.perf_counter()
        raw = rect
        rect, surround = split_surround(rect)
        rect = as_board(rect)
        decided = False
        if self.mirrored:
            rect, surround = mirror_rectified(rect), mirror_rectified(surround)
        an = Analysis(rect, surround, self.grey, small)
        # too dark (judged in plain lightness), washed out, blurred or out of focus: refused
        self._focus = _check_picture(an, self._focus)
        if not self._grey_known:
            self._set_grey(grey_weights(an.small_bgr) if isinstance(grey, str) else grey)
            if self.grey is not None:
                an = Analysis(rect, surround, self.grey, an.small_bgr)
                self._focus = _check_picture(an, self._focus)
        if self.polarity is None:
            self.polarity = self.decide_polarity(an)
        k = 0
        if orient:
            if self.orientation is not None and self._orientation_open(an):
                self.orientation = None          # decided on too few letters: asked again with more,
                self.polarity = self._polarity_again(an)     # and so was the polarity
            if self.orientation is None:
                decided = True
                sc = self.orientation_scores(an, self.polarity)
                if self._mirror_reads_better(an, sc):
                    self.mirrored = not self.mirrored
                    rect, surround = mirror_rectified(rect), mirror_rectified(surround)
                    an = Analysis(rect, surround, self.grey)
                    self.polarity = self._polarity_again(an)
                    sc = self.orientation_scores(an, self.polarity)
                # keep 0 unless another turn reads clearly better (an empty board has no say)
                self.orientation = int(np.argmax(sc)) if sc.max() > sc[0] + 1.0 else 0
                top = np.sort(sc)
                clear = top[-1] - top[-2] >= ORIENT_CLEAR
                an_unturned = an
                pose = self._pose_by_values(an) if not clear and self.value_model is not None else None
                if pose is not None and pose != (self.orientation, False):
                    # the letters could not tell (a first move of a few): letters and values can
                    self.orientation, flip = pose
                    if flip:
                        self.mirrored = not self.mirrored
                        rect, surround = mirror_rectified(rect), mirror_rectified(surround)
                        an = Analysis(rect, surround, self.grey)
                    an_unturned = an
            k = self.orientation
            if k:
                an = self._turned_analysis(rect, an, k)
        self._turn_reference(k)
        if self._prev is not None and (self._prev[1].orientation, self._prev[1].mirrored) != (k, self.mirrored):
            self._prev = None                    # the last picture was read another way round
        reading = self._read(an)
        reading.orientation = k
        reading.mirrored = self.mirrored
        if decided and corner_check and self.value_model is not None and self._values_flipped(an, reading):
            # the printed values sit where a mirrored tile has them: the letters that read well
            # were those that are their own mirror image -- read again, mirrored back
            self.mirrored = not self.mirrored
            self.orientation = None
            again = self._read_frame(raw, orient, corner_check=False)
            again.ms = (time.perf_counter() - t0) * 1000
            return again
        if decided:
            # a lead over few letters is no lead: the other voters are empty squares' grain, which
            # can read as letters one way round -- asked again once the next move is down
            sure = clear and len(reading.tiles()) >= OPEN_TILES
            self._open_since = None if sure else an_unturned.mid_gray
        if not reading.tiles():
            # A board with no tile on it (the start of a game) says nothing about which way the
            # letters read: decide polarity and orientation afresh on the next picture.
            self.polarity = getattr(self.profile, "polarity", None) or None
            self.orientation = None
            self.mirrored = False
            self._open_since = None
            self._grey_known = False
        if self._focus is not None:
            reading.details["blur_px"] = self._focus.blur       # how wide its edges are (blur_width)
        reading.ms = (time.perf_counter() - t0) * 1000
        return reading

    def _read(self, an: Analysis) -> BoardReading:
        pol = self.polarity or 1
        self._looked_empty = set()          # this picture's (_look_again)
        ref = self.reference
        prev = self._prev
        # squares unchanged since the previous frame keep their answer -- but not a '#': that may
        # be the neighbours' doing (a hand beside it, a glare spot), and kept it would outlive
        # them, and spread: a square held between two kept '#' squares became '#' in its turn
        reuse = np.zeros((GRID, GRID), bool)
        if prev is not None:
            d = np.abs(an.mid_gray - prev[0].mid_gray).mean(axis=(2, 3))
            reuse = (d < 2.5) & (np.array([list(row) for row in prev[1].labels]) != COVERED)
        # squares just like the reference's are empty, unread -- those with ink (a premium square's
        # print) at least: a blank tile of about the board's colour can pass for its empty square
        # as closely as the board's own squares do under a hand-held camera's noise (tuning seeds
        # 21200-21800, 480 boards with a reference: 7 blanks so shown empty at 0.99, 4 on one
        # board); the square model, which sees a tile's edges, reads 5 of them right and asks 1
        same = (self._same_as_reference(an) & ~reuse & (an.peak(pol) >= PEAK_MIN)
                & ~_new_ink(an.peak(pol), ref.peak(pol))) if ref is not None else np.zeros((GRID, GRID), bool)
        cells = [(r, c) for r in range(GRID) for c in range(GRID) if not reuse[r, c] and not same[r, c]]
        # premium squares that look just like the rest of their kind are read last: the others
        # teach the tile colour, then those whose kind is far from the tiles are not read at all
        printed = np.zeros((GRID, GRID), bool)
        cand = _print_candidates(an.face_lab(pol)) if ref is None and cells else printed
        first = [rc for rc in cells if not cand[rc]]
        X, glyph_p, best = self._features(an, pol, first) if first else (None, {}, {})
        board_lab = [self._board_lab] * len(first)
        todo = [rc for rc in cells if cand[rc]]
        if todo:
            second = dict(self._second) if first else {}
            printed = _printed_only(an.face_lab(pol), cand, self.tile_lab, an.far_face_lab(pol),
                                    an.far_face_lab(-pol))
            rest = [rc for rc in todo if not printed[rc]]
            if rest:
                X2, g2, b2 = self._features(an, pol, rest)
                X = X2 if X is None else np.vstack([X, X2])
                board_lab += [self._board_lab] * len(rest)
                glyph_p, best = {**glyph_p, **g2}, {**best, **b2}
                second.update(self._second)
            self._second = second
            first += rest
        cells = first
        out_labels = [[EMPTY] * GRID for _ in range(GRID)]
        out_guess = [[EMPTY] * GRID for _ in range(GRID)]
        conf = np.ones((GRID, GRID), np.float32)
        kinds = np.full((GRID, GRID), "empty", object)
        doubted: set = set()
        in_doubt: dict = {}          # tiles whose letter is in doubt: square -> best letter
        tile_doubt: dict = {}        # ... those the square model is sure are letter tiles: square ->
                                     # its weight on the square being empty or a blank all the same
        if prev is not None:
            pr = prev[1]
            doubted = {rc for rc in pr.maybe_blank if reuse[rc]}     # kept with their squares
            for r, c in zip(*np.nonzero(reuse)):
                out_labels[r][c] = pr.labels[r][c]
                out_guess[r][c] = pr.guesses[r][c]
                conf[r, c] = pr.confidence[r, c]
                kinds[r, c] = pr.kinds[r, c]
        for r, c in zip(*np.nonzero(same)):       # clearly the empty square of the reference
            conf[r, c] = 0.99
        for r, c in zip(*np.nonzero(printed)):    # clearly an empty premium square (its print)
            conf[r, c] = 0.95
        if cells:
            grey = colourless(an.small_bgr[::2, ::2])
            P = self.squares.probabilities(X, ref is not None, grey)
            if self.squares.has_grey_look if grey else self.squares.has_look:
                self._look_again(an, cells, X, P, np.array(board_lab, np.float32), grey)
            bar = None           # (the board's letter height, squares glare clips): once an I needs them
            weighed = {}
            if self.value_model is not None:      # tiles whose letter is in doubt: read their values
                doubt = [rc for i, rc in enumerate(cells) if KINDS[int(np.argmax(P[i]))] == "tile" and rc in glyph_p
                         and (not self._sure(best[rc][1], self._second.get(rc, 1.0))
                              or best[rc][1] < VALUE_CHECK and self._values_differ(glyph_p[rc])
                              or best[rc][0] in self._twins)]
                weighed = self._weigh_by_value(an, pol, doubt, glyph_p) if doubt else {}
            for i, (r, c) in enumerate(cells):
                k = int(np.argmax(P[i]))
                pk = float(P[i, k])
                kind = KINDS[k]
                letter, pl = best.get((r, c), ("", 0.0))
                if P[i, _BLANK_KIND] >= BLANK_DOUBT:
                    doubted.add((r, c))        # listed if it ends up shown empty, by the model or a rule
                if kind == "empty":
                    lab, guess, cf = EMPTY, EMPTY, pk
                elif kind == "blank":
                    lab, guess, cf = BLANK, BLANK, pk
                    if pk < (BLANK_SURE if ref is not None or grey else BLANK_SURE_COLD):
                        lab = COVERED          # a blank tile, or an empty square of about its colour
                elif kind == "covered":
                    lab, guess, cf = COVERED, COVERED, pk
                else:
                    guess = letter or BLANK
                    cf = pk * (pl if letter else 1.0)
                    sure = self._sure(pl, self._second.get((r, c), 1.0))
                    if letter and (r, c) in weighed:
                        letter, pl, second = weighed[(r, c)]
                        guess, cf = letter, pk * pl
                        sure = self._sure(pl, second)
                    if letter == "I" and not sure and pk >= self.min_square:     # see BAR_I_ASPECT
                        if bar is None:
                            bar = (_sure_letter_height(an, pol, best), _glared(an))
                        height, clipped = bar
                        p_bar = None if not height or clipped[r, c] else \
                            _bar_read_as_i(an.glyphs[pol].get((r, c)), glyph_p[(r, c)], self._classes, height)
                        if p_bar:
                            pl, cf, sure = p_bar, pk * p_bar, True
                    lab = letter if letter and sure else COVERED
                    if not letter:
                        lab = COVERED
                if pk < self.min_square and lab != COVERED:
                    lab, kind = COVERED, "unsure"
                if lab == COVERED and letter and (kind == "tile" or pk < self.min_square):
                    in_doubt[(r, c)] = letter
                    if kind == "tile" and pk >= self.min_square:
                        tile_doubt[(r, c)] = float(P[i, _EMPTY_KIND] + P[i, _BLANK_KIND])
                if lab == COVERED and kind in ("tile", "blank"):
                    kind = "unsure"
                out_labels[r][c], out_guess[r][c], conf[r, c], kinds[r, c] = lab, guess, cf, kind
        # twins in doubt between themselves: asked, not shown by a likeness (TWIN_ASKED)
        by_mark = {rc for rc, g in in_doubt.items() if twins_in_doubt(g, glyph_p.get(rc), self._classes, self._twins)}
        alike = {rc: g for rc, g in in_doubt.items() if rc not in by_mark}
        if in_doubt:
            for (r, c), (letter, cf) in self._board_letters(an, pol, alike, out_labels, conf).items():
                out_labels[r][c], out_guess[r][c], conf[r, c], kinds[r, c] = letter, letter, cf, "tile"
            left = {rc: g for rc, g in alike.items() if rc in tile_doubt and out_labels[rc[0]][rc[1]] == COVERED}
            for (r, c), (letter, cf) in self._sharpened(an, pol, left, tile_doubt, glyph_p).items():
                out_labels[r][c], out_guess[r][c], conf[r, c], kinds[r, c] = letter, letter, cf, "tile"
            # every letter still in doubt, the square model sure of its tile or not: a tile off its
            # square is what the square model is least sure of (_cut_where_the_tiles_sit)
            still = {rc: g for rc, g in in_doubt.items() if out_labels[rc[0]][rc[1]] == COVERED}
            for (r, c), (letter, cf) in self._cut_where_the_tiles_sit(an, pol, still, out_labels, conf).items():
                out_labels[r][c], out_guess[r][c], conf[r, c], kinds[r, c] = letter, letter, cf, "tile"
        fresh = np.zeros((GRID, GRID), bool)          # squares kept from the previous frame were seen to
        if cells:                                     # already; the checks below look at the rest
            fresh[tuple(np.array(cells).T)] = True
        if cells:
            for r, c in self._bar_beside_a_letter(an, pol, fresh, out_labels, conf):
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
            for (r, c), fuller in self._faint_stroke_lost(an, pol, fresh, out_labels, conf).items():
                out_labels[r][c], out_guess[r][c], kinds[r, c] = COVERED, fuller, "unsure"
            for (r, c), other in self._sharpened_reads_another(an, pol, fresh, out_labels, conf).items():
                out_labels[r][c], out_guess[r][c], kinds[r, c] = COVERED, other, "unsure"
            for (r, c), other in self._twin_at_a_low_cut(an, pol, fresh, out_labels, glyph_p).items():
                out_labels[r][c], out_guess[r][c], kinds[r, c] = COVERED, other, "unsure"
            for (r, c), other in self._mark_reads_another_twin(an, pol, fresh, out_labels).items():
                out_labels[r][c], out_guess[r][c], kinds[r, c] = COVERED, other, "unsure"
            for (r, c), twin in self._mark_shows_a_twin_asked(an, pol, tile_doubt, out_labels, out_guess,
                                                              glyph_p).items():
                out_labels[r][c], out_guess[r][c], kinds[r, c] = twin, twin, "tile"
        learnt = self.tile_lab is not None
        if ref is None and not learnt and cells:
            for r, c in _unread_tiles(an.mean_lab, out_labels):
                out_labels[r][c], out_guess[r][c], kinds[r, c] = COVERED, BLANK, "unsure"
        # the tiles' colour learnt from their letters or, where none read surely, told by their ink
        tile = self.tile_lab if learnt else self._inked_lab
        if ref is None and tile is not None and cells:
            if learnt and (fresh & ~PLAIN & np.isin(kinds, ("tile", "unsure"))).any():
                self._print_is_not_a_tile(an, an.face_lab(pol), fresh, out_labels, out_guess, conf, kinds)
            inked_empty = [rc for rc in best if fresh[rc] and PLAIN[rc] and kinds[rc] == "empty"]
            if inked_empty:
                self._tile_is_not_empty(an.face_lab(pol), inked_empty, best, out_labels, out_guess, conf, kinds, tile)
            inked_premium = [rc for rc in best if fresh[rc] and not PLAIN[rc] and kinds[rc] == "empty"]
            if learnt and inked_premium:
                self._tile_on_premium(an, pol, inked_premium, best, out_labels, out_guess, conf, kinds)
        if ref is None and cells:
            for r, c in _blanks_by_border(an, an.face_lab(pol), fresh, out_labels, conf, kinds):
                out_labels[r][c], out_guess[r][c], kinds[r, c], conf[r, c] = BLANK, BLANK, "blank", BORDER_BLANK
        if self._looked_empty:
            for r, c in _emptied_with_a_tiles_border(an, self._looked_empty, out_labels, conf, kinds):
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
        if cells:
            _kind_taken_for_blanks(lambda: an.face_lab(pol), out_labels, out_guess, conf, kinds,
                                   lambda: _colour_under_light(an.mean_bgr, kinds, conf))
            for r, c in _kind_read_as_one_letter(lambda: an.face_lab(pol), self.tile_lab, out_labels):
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
            for r, c in _print_read_as_letters(an, pol, fresh, out_labels, out_guess, conf, kinds):
                out_labels[r][c], out_guess[r][c], kinds[r, c], conf[r, c] = EMPTY, EMPTY, "empty", 0.9
            for r, c in self._letter_its_print_reads(an, pol, fresh, out_labels, conf, kinds):
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
        c7 = GRID // 2
        if (out_labels[c7][c7] == BLANK and fresh[c7, c7]
                and _shows_a_star(an.crop_gray(c7, c7)[an.m:-an.m, an.m:-an.m])):
            # the centre star, light on its square, taken for a blank tile's plain face
            out_labels[c7][c7], out_guess[c7][c7], kinds[c7, c7], conf[c7, c7] = EMPTY, EMPTY, "empty", 0.9
        glared = _glared(an, out_labels)
        clipped = glared.copy()          # before the reference narrows it: what glare clips white
        if ref is not None:
            # with a reference the square model compares each square with its empty self, and
            # is mostly right in glare too; but a clipped square, unlike the reference's, can
            # make a washed-out blank look empty or an empty square a blank: those it is not
            # sure of are asked (tuning boards: 14 -> 9 of 260 hard-camera boards with a wrong
            # square, for 6 right blanks asked); squares matching the reference are not glared
            glared &= fresh & ~same & (conf < REF_GLARE_SURE)
            sure_white = conf >= REF_GLARE_SURE
        else:
            # a blank the square model is all but certain of stands (BLANK_KEPT); and on a set
            # whose tiles are white enough to clip, one it is sure of: the letter tiles round it
            # clip as well
            sure_white = (conf >= BLANK_KEPT) | ((conf >= WHITE_BLANK) & _white_tiles(an, glared, out_labels))
        in_glare = set()
        for r, c in zip(*np.nonzero(glared)):
            if out_labels[r][c] == EMPTY or (out_labels[r][c] == BLANK and not sure_white[r, c]):
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
                in_glare.add((int(r), int(c)))
        # a "blank" beside a glare spot may be the spot's halo, light washed over an empty
        # square (tuning boards: 6 of the 12 blanks read there); its guess stays a blank
        for r, c in zip(*np.nonzero(_beside(glared))):
            if out_labels[r][c] == BLANK and not sure_white[r, c]:
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
                in_glare.add((int(r), int(c)))
        # ... and a softer spot, clipping nothing, does the same: a "blank" whose light
        # slopes across it beside an empty square much brighter than its kind's
        for r, c in _in_soft_glare(an, pol, out_labels, kinds, conf):
            if conf[r, c] < SOFT_SURE:
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
                in_glare.add((int(r), int(c)))
        for r, c in zip(*np.nonzero(_between_covered(kinds))):
            if out_labels[r][c] in (EMPTY, BLANK):
                out_labels[r][c], kinds[r, c] = COVERED, "covered"
        # a "blank tile" touching a covered square may well be part of the hand; a letter not
        # read surely beside one may be partly under it (an R that is a B's top), and an "empty"
        # not read surely may be under an arm of the board's colour: do not guess (an empty
        # square needs more beside a hand -- two or more covered squares together -- than
        # beside one odd square read covered, a tile the model could not place)
        covered = kinds == "covered"
        n, part, size, _ = cv2.connectedComponentsWithStats(covered.astype(np.uint8), connectivity=4)
        hand = covered & (size[part, cv2.CC_STAT_AREA] >= 2)
        by_hand = _beside(hand)
        hand_pieces = covered & ~_lone(covered)                   # hands, arms along a diagonal too
        by_piece = _beside(hand_pieces)
        runs_in = apart = touches = None
        if self.tile_lab is not None and hand_pieces.any() and not colourless(an.small_bgr[::2, ::2]):
            # a piece with a square clipped white is a glare spot's, not a hand: its light runs
            # over the line into the letters beside it as a hand's colour would
            _, part = cv2.connectedComponents(hand_pieces.astype(np.uint8), connectivity=8)
            for r, c in in_glare:                   # asked for glare, beside a spot or in a softer one
                clipped[r, c] = True
            glare_free = hand_pieces & ~np.isin(part, np.unique(part[clipped & hand_pieces]))
            runs_in, apart, touches = _hand_runs_in(an, glare_free, np.asarray(self.tile_lab, np.float32))
        for r, c in zip(*np.nonzero(_beside(covered))):
            lab = out_labels[r][c]
            if lab == EMPTY:
                sure = NEAR_HAND_EMPTY if by_hand[r, c] else NEAR_HAND_SURE
            else:
                sure = NEAR_HAND_SURE if by_piece[r, c] else NEAR_ODD_SURE
                if by_piece[r, c] and runs_in is not None and lab not in (BLANK, COVERED):
                    if runs_in[r, c] >= HAND_RUNS_IN:
                        sure = HAND_IN_SURE
                    elif touches[r, c] < HAND_CLEAR and apart[r, c] >= HAND_APART:
                        sure = NEAR_ODD_SURE
            if lab == BLANK:
                hide = conf[r, c] < (BLANK_KEPT if by_piece[r, c] else NEAR_ODD_BLANK)
            else:
                hide = lab != COVERED and conf[r, c] < sure
            if hide:
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
        if self.tile_lab is not None:
            for r, c in _partly_under_a_hand(an, hand_pieces, np.asarray(self.tile_lab, np.float32), out_labels, conf):
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
        if hand.any():
            # an arm of a colour of its own read as empty squares: one piece with the hand
            # (through squares covered, unsure or of that foreign colour), it is the arm
            odd = _foreign_empty(an.mean_lab, out_labels, conf, kinds)
            piece = hand | np.isin(kinds, ("covered", "unsure")) | odd
            n, part = cv2.connectedComponents(piece.astype(np.uint8), connectivity=4)
            with_hand = np.unique(part[hand])
            for r, c in zip(*np.nonzero(odd & np.isin(part, with_hand))):
                out_labels[r][c], kinds[r, c] = COVERED, "unsure"
        for r, c in _blanks_past_any_set(out_labels):
            out_labels[r][c], kinds[r, c] = COVERED, "unsure"
        reading = BoardReading(["".join(x) for x in out_labels], conf, ["".join(x) for x in out_guess], kinds,
                               polarity=pol,
                               maybe_blank=frozenset((int(r), int(c)) for r, c in doubted if out_labels[r][c] == EMPTY),
                               glared=frozenset(sq for sq in in_glare if out_labels[sq[0]][sq[1]] == COVERED))
        self._prev = (an, reading)
        return reading

    def _letter_its_print_reads(self, an: Analysis, pol: int, fresh: np.ndarray, labels, conf: np.ndarray,
                                kinds: np.ndarray) -> list[tuple[int, int]]:
        """Fresh premium squares shown as a letter that their kind's print reads as, unsurely:
        the squares of the kind surely read empty (at most PRINT_MATES) are cut as letters are;
        a letter that takes PRINT_LETTER_SHARE or more of what letter they hold, pooled, is the
        print's, and a square shown as it is asked about (its letter the guess) where that share
        times the square's doubt, 1 - its confidence, comes to PRINT_LETTER_ODDS: the surer the
        print reads as the letter, the surer the letter must be read to stand."""
        out = []
        for sel in _KIND_SQUARES.values():
            cand = [(r, c) for r, c in zip(*np.nonzero(sel & fresh))
                    if labels[r][c] not in (EMPTY, BLANK, COVERED) and conf[r, c] < 1 - PRINT_LETTER_ODDS]
            if not cand:
                continue
            mates = _print_mates(sel, kinds, conf)
            an.cut_glyphs(pol, mates)
            glyphs = [g for g in (an.glyphs[pol][rc] for rc in mates) if g is not None]
            if not glyphs:
                continue
            P, classes = self._classify(glyphs, True)
            n = len(self.letters)
            held = P[:, :n].sum(axis=0)          # what letter the print holds, pooled
            if held.sum() < PRINT_LETTER_INK:
                continue
            share = held / held.sum()
            read = {classes[j]: float(share[j]) for j in np.flatnonzero(share >= PRINT_LETTER_SHARE)}
            out += [rc for rc in cand if read.get(labels[rc[0]][rc[1]], 0.0) * (1 - conf[rc]) >= PRINT_LETTER_ODDS]
        return out

    def _look_again(self, an: Analysis, cells, X: np.ndarray, P: np.ndarray, board_lab: np.ndarray,
                    grey: bool = False) -> None:
        """The square model's second look (:meth:`SquareModel.look`) at the squares its first
        is in doubt about -- a blank tile or an empty square? -- replacing their rows of ``P``.
        ``grey``: a picture without colour, looked at by the look learnt on such pictures."""
        sel = np.nonzero((P[:, _BLANK_KIND] >= LOOK_BLANK) | (P.max(axis=1) < LOOK_UNSURE))[0]
        if grey:
            # the grey look learnt on rendered boards only; on real photos made grey (the jheidel
            # board) it took the texture of empty squares the first look was sure of for a tile's
            # edge: 77 more empty squares shown as blanks, 350 more asked, on 53 photos.  It is
            # asked only where the first look gives a blank GREY_LOOK_FROM or more (as did 84 of
            # the 140 rendered blanks it made sure of on two tuning seeds)
            sel = sel[P[sel, _BLANK_KIND] >= GREY_LOOK_FROM]
        if not len(sel):
            return
        ref = self.reference
        which = [cells[i] for i in sel]
        crops = look_crops(an.rect, which)
        pics = look_channels(crops, board_lab[sel], self.tile_lab,
                             None if ref is None else look_crops(ref.rect, which))[:, :LOOK, :LOOK]
        meta = look_meta(X[sel], P[sel], ref is not None, self.tile_lab is not None)
        Q = self.squares.look(pics, meta, net=LOOK_NETS[grey])
        # a letter read on the square is not emptied by its picture alone: a tile set of colours
        # the look never saw (pink letters on lime tiles, read along a colour axis, with a
        # reference) had a J read at 0.89 called an empty square at 0.79.  Nor made a blank, which
        # shows no letter: the look that learnt deluxe blanks (a face of their own inside the
        # tile's border, which is what a letter of another colour looks like to it) called the
        # same J a blank at 0.70, and one read 0.99 cold another (on 240 boards of deluxe sets
        # only, the guard at 0.5 instead of 0.9 cost 17 of 14,000 tiles).  Where some letter is
        # read, a blank only when the look is sure of it: a thin I under a lamp read 0.32, the
        # look saying blank 0.49-0.58, was scored as a blank in a recorded game
        letter = X[sel, FEATURES.index("p_letter")]
        answer = Q.argmax(axis=1)
        emptied, blanked = answer == _EMPTY_KIND, answer == _BLANK_KIND
        unsure_blank = blanked & (Q[:, _BLANK_KIND] < LOOK_SURE_BLANK)
        take = ~((letter >= LOOK_LETTER) & (emptied | blanked) | (letter >= LOOK_SOME_LETTER) & unsure_blank)
        # squares it empties that the first look would not have shown empty: checked once the
        # board's sure letters are known (_emptied_with_a_tiles_border)
        self._looked_empty = {which[j] for j in np.nonzero(take & emptied & (P[sel, _EMPTY_KIND] < self.min_square))[0]}
        P[sel[take]] = Q[take]

    def _print_is_not_a_tile(self, an: Analysis, face: np.ndarray, fresh: np.ndarray, labels, guesses,
                             conf: np.ndarray, kinds: np.ndarray) -> None:
        """Cold: a "tile" on a premium square whose face has the colour of the empty squares of
        its kind (within PRINT_SAME of their median), where that colour is at least PRINT_APART
        from the tiles' colour, is the square's print read as a letter: it is empty.  A tile
        there shows its own face, the tiles' colour.  (The print rule of :func:`_printed_only`
        needs most squares of the kind alike; this one needs only two sure empty ones.)  Light
        varies over a board (glare, a lamp to one side): a square whose face is at least as near
        the faces of the sure tiles around it (:func:`_tiles_around`) as its kind's colour stays
        a tile.  Nor is a letter shown there called print on colour alone: its strokes must not
        be unlike those of its kind's empty squares (:func:`_print_match` under PRINT_TILE_MATCH;
        a maroon tile on a red corner square and a light blue tile on a light blue square had
        been shown empty)."""
        sure_tiles = None
        for sel in _KIND_SQUARES.values():
            med = self._empty_colour_apart(face, sel, kinds, conf)
            if med is None:
                continue
            for r, c in zip(*np.nonzero(sel & fresh & np.isin(kinds, ("tile", "unsure")))):
                d = np.linalg.norm(face[r, c] - med)
                if d >= PRINT_SAME:
                    continue
                if sure_tiles is None:
                    sure_tiles = _sure_letters(labels, kinds, conf)
                around = _tiles_around(sure_tiles, r, c)
                if around and np.linalg.norm(face[r, c] - np.median(face[tuple(np.array(around).T)], axis=0)) <= d:
                    continue
                if labels[r][c] != COVERED:
                    mates = _print_mates(sel, kinds, conf)
                    match = _print_match(an.strokes(), mates, (r, c)) if mates else None
                    if match is not None and match < PRINT_TILE_MATCH:
                        continue
                labels[r][c], guesses[r][c], kinds[r, c] = EMPTY, EMPTY, "empty"
                conf[r, c] = 0.9

    def _empty_colour_apart(self, face: np.ndarray, sel: np.ndarray, kinds: np.ndarray,
                            conf: np.ndarray, tile: np.ndarray | None = None) -> np.ndarray | None:
        """The median face colour of the squares of ``sel`` surely read empty (two at least),
        when it is PRINT_APART or more from the tiles' colour (``tile``, else the one learnt);
        else None (too few, or too like the tiles for colour to tell a tile from an empty square
        there)."""
        med = _sure_empty_median(face, sel, kinds, conf)
        tile = self.tile_lab if tile is None else tile
        return None if med is None or np.linalg.norm(med - np.asarray(tile)) < PRINT_APART else med

    def _tile_is_not_empty(self, face: np.ndarray, inked_empty: list, best: dict, labels, guesses,
                           conf: np.ndarray, kinds: np.ndarray, tile: np.ndarray) -> None:
        """Cold, the print rule turned round: a plain square read "empty" this frame that has ink
        on it (``inked_empty``) and the tiles' colour -- at least twice as near it as the
        sure-empty plain squares' colour, where those are at least PRINT_APART from the tiles'
        -- is a tile the square model missed
        (a shifted tile, a strong colour cast).  Its letter is shown when surely read; otherwise,
        within TILE_NEAR of the tiles' colour, the square is unknown ('#').  Premium squares are
        left alone: their print and light colours made as many empty squares look like tiles
        as it found tiles on them (tuning boards: 3 tiles, 9 empty squares).  ``tile``: the
        tiles' colour (learnt from their letters, or this picture's faces round strong ink)."""
        tile = np.asarray(tile)
        med = self._empty_colour_apart(face, PLAIN, kinds, conf, tile)
        if med is None:
            return
        for r, c in inked_empty:
            near = np.linalg.norm(face[r, c] - tile)
            letter, pl = best[(r, c)]
            if 2 * near >= np.linalg.norm(face[r, c] - med):
                continue
            if self._sure(pl, self._second.get((r, c), 1.0)):
                labels[r][c], guesses[r][c], kinds[r, c], conf[r, c] = letter, letter, "tile", pl
            elif near < TILE_NEAR:
                labels[r][c], guesses[r][c], kinds[r, c], conf[r, c] = COVERED, letter, "unsure", pl

    def _tile_on_premium(self, an: Analysis, pol: int, inked: list, best: dict, labels, guesses,
                         conf: np.ndarray, kinds: np.ndarray) -> None:
        """Cold, :meth:`_tile_is_not_empty` on premium squares, where a letter must say more: a
        premium square read "empty" this frame whose letter is read with PREMIUM_TILE_SURE or
        more, as tall as the board's sure letters (within ALONE_HEIGHT: the print's letters are
        smaller), on a face nearer the tiles' colour than its kind's sure-empty squares' colour
        (PRINT_APART or more from the tiles'), is a tile the square model missed:
        a tile sitting off its square at the board's edge, the premium colour showing beside it.
        The print check (:func:`_print_read_as_letters`) still asks whether it is the print."""
        # most premium squares read empty show their print's ink, read as no sure letter: the
        # rest of the work only for those whose letter is sure (this runs on every first frame)
        inked = [rc for rc in inked if best[rc][1] >= PREMIUM_TILE_SURE and an.glyphs[pol].get(rc) is not None]
        if not inked:
            return
        face = an.face_lab(pol)
        tile = np.asarray(self.tile_lab)
        heights = [g.height for (r, c), g in an.glyphs[pol].items()
                   if g is not None and labels[r][c] not in (EMPTY, BLANK, COVERED) and conf[r, c] >= 0.9]
        if len(heights) < ALONE_TILES:
            return
        height = float(np.median(heights))
        for sel in _KIND_SQUARES.values():
            cand = [rc for rc in inked if sel[rc]]
            if not cand:
                continue
            med = self._empty_colour_apart(face, sel, kinds, conf)
            if med is None:
                continue
            for r, c in cand:
                letter, pl = best[(r, c)]
                if abs(an.glyphs[pol][(r, c)].height / height - 1) > ALONE_HEIGHT:
                    continue
                if np.linalg.norm(face[r, c] - tile) >= np.linalg.norm(face[r, c] - med):
                    continue
                labels[r][c], guesses[r][c], kinds[r, c], conf[r, c] = letter, letter, "tile", pl

    def _sure(self, p: float, second: float) -> bool:
        """A letter is shown when likely enough, or clearly ahead of the next one."""
        return p >= self.min_letter or p - second >= self.min_margin

    def _values_differ(self, p: np.ndarray) -> bool:
        """Whether the letters still in the running (probability VALUE_RIVAL or more) are worth
        different points: only then can the printed value tell them apart."""
        vals = {self.values.get(ch, 0) for ch, pi in zip(self._classes[:-2], p[:-2].tolist()) if pi >= VALUE_RIVAL}
        return len(vals) > 1

    def _weigh_by_value(self, an: Analysis, pol: int, cells: list[tuple[int, int]], glyph_p: dict) -> dict:
        """{square: (letter, probability, runner-up's probability)} once the printed point
        value is weighed in (:func:`weigh_by_value`), for the squares where a value is seen."""
        return self._weighed_by_windows(pol, [(rc, an.crop_gray(*rc), an.glyphs[pol].get(rc), an.ink_crop(pol, *rc),
                                               glyph_p[rc]) for rc in cells], self._classes)

    def _weighed_by_windows(self, pol: int, cuts: list, classes: str) -> dict:
        """{square: (letter, probability, runner-up's)} for ``cuts`` -- (square, its grey crop, the
        letter's glyph cut from it, the crop's ink, the letter probabilities over ``classes``) --
        once the value printed beside the letter in that crop is weighed in
        (:func:`letter_by_value`), for the cuts where a value window is found."""
        where, windows = [], []
        for rc, gray, glyph, ink, p in cuts:
            w = L.value_glyph_of(gray, pol, letter=glyph, ink=ink)
            if w is not None:
                where.append((rc, p))
                windows.append(w)
        if not windows:
            return {}
        out = {}
        for (rc, p), q in zip(where, L.value_probabilities(windows, self.value_model)):
            weighed = letter_by_value(p[:-2], classes[:-2], self.values, q, self._twins)
            if weighed is not None:
                out[rc] = weighed
        return out

    def _same_as_reference(self, an: Analysis) -> np.ndarray:
        """(15, 15) squares that match the empty-board reference closely (light change allowed):
        deliberately strict.  Those with ink are empty and skip the letter model (:meth:`_read`)."""
        ref = self.reference
        gain = _gain_field(an.mean_bgr, ref.mean_bgr, an.mean_lab, ref.mean_lab)
        gg = gain.mean(axis=2)
        gdiff = np.abs(an.mid_gray - ref.mid_gray * gg[:, :, None, None]).mean(axis=(2, 3))
        dcol = np.abs(an.mean_bgr - ref.mean_bgr * gain).max(axis=2)
        ring = np.linalg.norm(an.ring_lab - ref.ring_lab, axis=2)
        # noise level from the quietest quarter of the board (camera noise, JPEG, light flicker)
        lim = [2.0 * float(np.percentile(a, 25)) + base for a, base in ((gdiff, 2.0), (dcol, 3.0), (ring, 3.0))]
        # ... but where even the quietest squares differ that much from the reference (a strong
        # light change, another blur) pale letters pass as noise: past SAME_MOST the picture is
        # read instead
        lim[0] = min(lim[0], SAME_MOST)
        return (gdiff < lim[0]) & (dcol < lim[1]) & (ring < lim[2])

    def _cut_low_where_it_reads_better(self, an: Analysis, pol: int, where: list[tuple[int, int]],
                                       P: np.ndarray) -> bool:
        """Once a picture (and polarity), given the squares ``where`` holding a glyph and their
        letter probabilities ``P`` as cut usually: where the letters on plain squares read surely
        too seldom so and far more often cut at LOW_CUT (see LOW_CUT), the cut of all the letters
        of ``where`` becomes the low one (their glyphs and logits in ``an``'s caches: every later
        step reads them so) and True is returned; squares read later in the picture (premium
        squares that look like their kind's print, :meth:`_read`) keep the usual cut.  A board in
        one face of hairlines loses them at the usual cut; on any other the usual cut reads as
        well or better, and nothing changes.  Plain squares only decide: a premium square's
        print, read unsurely as some letter, says nothing of the tiles' face."""
        done = an.__dict__.setdefault("_low_cut_tried", set())
        if pol in done or not len(P):
            return False
        done.add(pol)
        letter = P[:, :-2].sum(axis=1) >= 0.5
        n = int((letter & _plain(where)).sum())
        sure = _sure_plain_letters(where, P)
        if n < LOW_CUT_LEAST or sure >= LOW_CUT_DOUBT * n:
            return False
        cut = [rc for rc, k in zip(where, letter) if k]
        low = [(rc, g) for rc, g in zip(cut, L.glyphs_from_inks([an.ink_crop(pol, *rc) for rc in cut],
                                                                  threshold=LOW_CUT)) if g is not None]
        if not low:
            return False
        ims, meta = L.stack([g for _, g in low])
        logits, hid = self.model.forward(ims, meta)
        P_low, _ = self._classify([g for _, g in low], True, list(zip(logits, hid)))
        if _sure_plain_letters([rc for rc, _ in low], P_low) < sure + max(LOW_CUT_MORE, LOW_CUT_GAIN * n):
            return False
        for j, (rc, g) in enumerate(low):
            an.glyphs[pol][rc] = g
            an.logits[pol][rc] = (logits[j], hid[j])
        return True

    def _features(self, an: Analysis, pol: int, cells: list[tuple[int, int]]):
        """Feature matrix for ``cells`` and the letter guesses {(r, c): (letter, p)}."""
        face = an.face_lab(pol)
        peak = an.peak(pol)
        peak_o = an.peak(-pol)
        # glyphs and letters for the squares asked for (the tile colour is learnt from them)
        ink_cells = [(r, c) for r, c in cells if peak[r, c] >= PEAK_MIN]
        where, gl, P, classes = self._glyph_probs(an, pol, ink_cells)
        if self._cut_low_where_it_reads_better(an, pol, where, P):
            where, gl, P, classes = self._glyph_probs(an, pol, ink_cells)
        self._classes = classes
        probs = {rc: P[i] for i, rc in enumerate(where)}
        gmap = dict(zip(where, gl))
        best, second = {}, {}
        for rc, p in probs.items():
            _note_best(rc, p, classes, best, second)
        # the board's own square colour: commonest colour among squares without a letter
        # (on a crowded board the tiles' colour would win otherwise)
        lettered = np.zeros((GRID, GRID), bool)
        for rc, (ch, pl) in best.items():
            lettered[rc] = pl >= 0.5
        if self._prev is not None:
            asked = np.zeros((GRID, GRID), bool)
            for rc in cells:
                asked[rc] = True
            prev_lab = np.array([list(row) for row in self._prev[1].labels])
            lettered |= ~asked & ~np.isin(prev_lab, [EMPTY])
        free = face[~lettered]
        # tile colour: faces of squares with a confident, tile-sized letter
        conf_cells = _sure_letter_cells(best, gmap)
        if self.tile_lab is None and len(conf_cells) < 2:
            # no letter read surely, so none tells the tiles' colour, and few letters read at all
            # (a crowded board out of focus): the tiles' colour may be the commonest of the squares
            # with no letter read (105 cream tiles on a beige board were read empty or '#'); of
            # those, the squares without ink show the board's own
            bare = face[~lettered & (peak < PEAK_MIN)]
            free = bare if len(bare) >= MODAL_FREE else free
        B = _modal_colour(free if len(free) >= MODAL_FREE else face.reshape(-1, 3))
        self._board_lab = B
        T = None
        if len(conf_cells) >= 2:
            T = np.median(np.array([face[rc] for rc in conf_cells]), axis=0)
            # the first picture's own colour replaces a set profile's: on rendered sets of fonts never
            # seen whose tile sheet was photographed under another light, blended in at 0.7 it made
            # 2 % of the tiles '#' or wrong
            self.tile_lab = T if self.tile_lab is None or not self._tile_lab_seen else 0.7 * self.tile_lab + 0.3 * T
            self._tile_lab_seen = True
        T = self.tile_lab
        if T is None:
            # ... and the tiles' colour is that of the faces round strong ink, for this picture's
            # features only
            T = _inked_faces_colour(face, peak, B)
        self._inked_lab = T if self.tile_lab is None else None
        # strong ink the model calls no letter on a square of the tiles' colour: a tile sitting
        # off its square, whose edge outscored its letter?  (before the features, which describe
        # the glyph kept)
        if T is not None:
            odd = [rc for rc, p in probs.items() if p[-1] >= OTHER_NONE and peak[rc] >= OTHER_PEAK
                   and np.linalg.norm(face[rc] - T) < TILE_NEAR]
            changed = self._other_components(an, pol, odd, probs, gmap) if odd else []
            blurred = [rc for rc in odd if rc not in changed]
            changed += self._blur_cuts(an, pol, blurred, probs, gmap) if blurred else []
            alone = [rc for rc in odd if rc not in changed]
            heights = [gmap[rc].height for rc in conf_cells]
            if alone and len(heights) >= ALONE_TILES:
                changed += self._letter_alone(an, pol, alone, probs, gmap, float(np.median(heights)))
            for rc in changed:
                _note_best(rc, probs[rc], classes, best, second)
        # ring (square border) vs middle; board-context colour numbers
        ring = an.ring_lab
        sym = _symmetry_match(face)
        common = _commonness(face)
        ref = self.reference
        if ref is not None:
            gain = _gain_field(an.mean_bgr, ref.mean_bgr, an.mean_lab, ref.mean_lab)
            ref_lab = cv2.cvtColor(np.clip(ref.mean_bgr * gain, 0, 255).astype(np.uint8)[None].reshape(1, -1, 3),
                                   cv2.COLOR_BGR2LAB).reshape(GRID, GRID, 3).astype(np.float32)
            gg = gain.mean(axis=2)[:, :, None, None]
            gdiff = np.abs(an.mid_gray - ref.mid_gray * gg).mean(axis=(2, 3))
            scale = float(np.median(gdiff)) + 2.0
            a = an.mid_gray - an.mid_gray.mean(axis=(2, 3), keepdims=True)
            b = ref.mid_gray - ref.mid_gray.mean(axis=(2, 3), keepdims=True)
            ncc = (a * b).sum(axis=(2, 3)) / (np.sqrt((a * a).sum(axis=(2, 3)) * (b * b).sum(axis=(2, 3))) + 12.5)
            ref_ring = ref.ring_lab
            ref_peak = ref.peak(pol)
        idx = tuple(np.array(cells).T)
        n = len(cells)
        F = face[idx]                                     # (n, 3)
        dB = F - B
        cols = [dB / 50, np.linalg.norm(dB, axis=1, keepdims=True) / 50]
        if T is not None:
            dT = F - T
            cols += [dT / 50, np.linalg.norm(dT, axis=1, keepdims=True) / 50, np.ones((n, 1)),
                     np.full((n, 1), np.linalg.norm(T - B) / 50)]
        else:
            cols += [np.zeros((n, 3)), np.full((n, 1), 2.0), np.zeros((n, 2))]
        cols += [an.std[idx][:, None] / 50, peak[idx][:, None] / 100, peak_o[idx][:, None] / 100]
        G = np.zeros((n, 9), np.float32)
        for i, rc in enumerate(cells):
            g = gmap.get(rc)
            if g is not None:
                p = probs[rc]
                G[i] = (1.0, g.height, np.log(g.aspect), np.hypot(g.centre[0] - 0.5, g.centre[1] - 0.5), g.ink,
                        (g.parts - 1) / 2, float(p[:-2].max()), float(p[-1]), float(p[-2]))
        cols += [G, np.linalg.norm(ring[idx] - an.mean_lab[idx], axis=1, keepdims=True) / 50,
                 sym[idx][:, None] / 50, common[idx][:, None]]
        if ref is not None:
            dR = an.mean_lab[idx] - ref_lab[idx]
            cols += [np.linalg.norm(dR, axis=1, keepdims=True) / 50, dR[:, :1] / 50,
                     gdiff[idx][:, None] / scale / 10, ncc[idx][:, None], ref_peak[idx][:, None] / 100,
                     np.linalg.norm(ring[idx] - ref_ring[idx], axis=1, keepdims=True) / 50]
        X = np.hstack(cols).astype(np.float32)
        # letters in doubt get a second look (after the features: those describe the usual cut);
        # not ink the model takes for no letter at all (print, the star): the square model has that
        doubtful = [rc for rc, (ch, pl) in best.items()
                    if not self._sure(pl, second[rc]) and float(probs[rc][:-2].sum()) >= SECOND_LOOK_LETTER]
        if doubtful:
            doubtful = self._other_cuts(an, pol, doubtful, probs, best, second, gmap)
        if doubtful:
            self._second_look(an, pol, doubtful, probs, best, second)
            # still in doubt: a blurred letter may read surely cut higher (as ink read as no letter)
            still = [rc for rc in doubtful if not self._sure(best[rc][1], second[rc])]
            for rc in self._blur_cuts(an, pol, still, probs, gmap) if still else ():
                _note_best(rc, probs[rc], classes, best, second)
        self._second = second
        return X, probs, best

    def _board_letters(self, an: Analysis, pol: int, in_doubt: dict, labels, conf: np.ndarray) -> dict:
        """{square: (letter, confidence)} for the tiles of ``in_doubt`` (square -> best letter)
        whose letter the board's own sure letters tell.  The best guess is confirmed when
        a tile shown as that letter with OWN_SURE or more, in this picture, looks like it
        (:meth:`letters.Prototypes.similarity` OWN_MATCH or more; OWN_MATCH_CUT for the letter
        cut at the second look's other ink thresholds) and none shown as another letter comes
        within OWN_APART of that cut.  Shown as sure as the match.  Where the best guess is not
        confirmed so, the one other letter whose sure tiles every matching cut looks like so is
        shown instead, unless the two differ by a small mark only (OWN_SMALL_MARK) or the picture
        is blurred (OWN_SWITCH_BLUR)."""
        sure = [(r, c) for r in range(GRID) for c in range(GRID)
                if labels[r][c] not in (EMPTY, BLANK, COVERED) and conf[r, c] >= OWN_SURE]
        if not sure:
            return {}
        sure, hid_s, ims_s = self._hidden_of(an, pol, sure)
        asked, hid_a, ims_a = self._hidden_of(an, pol, list(in_doubt))
        if not sure or not asked:
            return {}
        own = L.Prototypes.of([labels[r][c] for r, c in sure], hid_s, ims_s)
        rows: dict = {rc: [row] for rc, row in zip(asked, own.similarity(hid_a, ims_a))}
        # the same squares cut at the second look's other ink thresholds: a letter cut badly at
        # the usual one (blur, glare) may match its twins cut otherwise
        extra, owner = [], []
        for rc, cuts in zip(asked, L.glyph_variants_of([an.ink_crop(pol, *rc) for rc in asked], SECOND_LOOK)):
            extra += cuts
            owner += [rc] * len(cuts)
        if extra:
            ims_e, meta_e = L.stack(extra)
            for rc, row in zip(owner, own.similarity(self.model.forward(ims_e, meta_e)[1], ims_e)):
                rows[rc].append(row)
        labels_own = np.array(own.labels)
        twins = {lab: labels_own == lab for lab in set(own.labels)}      # each letter's sure tiles
        sharp = self._focus is not None and self._focus.blur <= OWN_SWITCH_BLUR
        out = {}
        for rc in asked:
            # each cut's letter: the one whose twins it matches best, when it matches them well
            # enough and no other letter's twins come within OWN_APART
            said: dict = {}
            for k, row in enumerate(rows[rc]):
                best = sorted(((float(row[mask].max()), lab) for lab, mask in twins.items()), reverse=True)
                m, lab = best[0]
                runner = best[1][0] if len(best) > 1 else -1.0
                if m >= (OWN_MATCH if k == 0 else OWN_MATCH_CUT) and m - runner >= OWN_APART:
                    said[lab] = max(said.get(lab, 0.0), m)
            guess = in_doubt[rc]
            if guess in said:                  # the best guess confirmed by its twins
                out[rc] = (guess, said[guess])
            elif len(said) == 1:               # another letter, on whichever cuts match at all
                (lab, m), = said.items()
                if frozenset((guess, lab)) not in OWN_SMALL_MARK and sharp:
                    out[rc] = (lab, m)
        return out

    def _sharpened(self, an: Analysis, pol: int, in_doubt: dict, not_tile: dict, glyph_p: dict) -> dict:
        """{square: (letter, confidence)} for the tiles of ``in_doubt`` (square -> best letter)
        whose ink, sharpened (SHARPEN_SIGMA, SHARPEN_GAIN), cut at the usual threshold reads that
        best letter with SHARPEN_SURE or more.  Blur fills a bold face's notches (a K's, an X's)
        and lowers a thin stroke's peak below the cut; sharpening lifts a thin stroke's peak more
        than a thick stem's plateau and deepens a notch, so the letter is cut more as it would be
        from a sharp picture.  Only the letter already guessed is confirmed: a sharpened cut that
        reads another letter is not trusted to switch it (on the tuning rows such switches were
        right 3 times and wrong once).

        ``not_tile``: square -> the square model's weight on its being empty or a blank;
        ``glyph_p``: square -> the letter probabilities of its usual cut.  A square the square
        model gives SHARPEN_KIND_DOUBT or more to being no letter tile, whose usual cut already
        read a letter's shape (under SHARPEN_SHAPED to "no letter"), is left in doubt: its doubt
        is whether it is a tile at all, and a sharpened cut of the same mark -- a premium square's
        print, a shadow's edge -- reads the same letter again and says nothing of that.  The
        tiles the rule reads right are mostly ones whose usual cut read no letter (tuning rows:
        such a square was an empty one 5 times of 5, no right tile among them)."""
        out = {}
        for rc, letter, p in self._read_sharpened(an, pol, list(in_doubt), SHARPEN_SIGMA, SHARPEN_GAIN):
            if letter != in_doubt[rc] or p < SHARPEN_SURE:
                continue
            usual = glyph_p.get(rc)
            if usual is not None and not_tile.get(rc, 0.0) >= SHARPEN_KIND_DOUBT and usual[-1] < SHARPEN_SHAPED:
                continue
            out[rc] = (letter, p)
        return out

    def _cut_where_the_tiles_sit(self, an: Analysis, pol: int, in_doubt: dict, labels, conf: np.ndarray) -> dict:
        """{square: (letter, confidence)} for the squares of ``in_doubt`` (square -> best letter;
        a tile the square model is sure of or not) whose letter, cut again from a crop moved to
        where the board's tiles sit (:func:`tiles_offset`), reads some letter OFFSET_SURE or more
        and OFFSET_LEAD ahead of the next, once its printed value is weighed in where the set's
        values can tell its rivals apart (:meth:`_moved_by_value`).

        Raised tiles seen by a tilted camera, or tiles pushed together, all sit off their squares
        the same way: a square's crop then holds its letter near one side, with the tile's edge,
        the next tile's or the board's frame beside it, and the cut takes a piece of that for a
        stroke (a W's side and a tile's edge read I); the square model, seeing a piece of the
        next tile too, may be unsure the square holds a tile at all.  Moved, the crop holds the
        tile as the letter model saw tiles in training.  Unlike the sharpened cut this may show
        another letter than the one guessed: the guess was made from the crop that cut the letter
        short -- which is why the value beside it is weighed in (a Q read R from the moved crop)."""
        if not in_doubt:
            return {}
        sure = [(r, c) for r in range(GRID) for c in range(GRID)
                if labels[r][c] not in (EMPTY, BLANK, COVERED) and conf[r, c] >= OFFSET_SURE and (r, c) not in in_doubt]
        offset = tiles_offset([an.glyphs[pol].get(rc) for rc in sure], an.s)
        if offset is None:
            return {}
        # not where the moved crop would leave the picture: a tile hanging past the grid's edge by
        # more than the MARGIN px of photo kept round it has its letter cut short that way too
        # (a Q in a corner, its tail past the picture, read O at 0.9 on the large check's boards)
        moved = {rc: ink for rc in in_doubt if (ink := an.ink_moved(pol, *rc, *offset)) is not None}
        owner, glyphs = [], []
        for rc, g in zip(moved, L.glyphs_from_inks(list(moved.values()), threshold=L.THRESHOLD_AT)):
            if g is not None:
                owner.append(rc)
                glyphs.append(g)
        if not glyphs:
            return {}
        P, classes = self._classify(glyphs, True)
        n = len(self.letters)
        weighed = self._moved_by_value(an, pol, owner, glyphs, moved, P, classes, offset)
        out = {}
        for rc, p in zip(owner, P[:, :n]):
            j = int(np.argmax(p))
            letter, pl, second = classes[j], float(p[j]), float(np.partition(p, -2)[-2])
            if rc in weighed:
                letter, pl, second = weighed[rc]
            if pl >= OFFSET_SURE and pl - second >= OFFSET_LEAD:
                out[rc] = (letter, pl)
        return out

    def _moved_by_value(self, an: Analysis, pol: int, owner: list, glyphs: list, moved: dict,
                        P: np.ndarray, classes: str, offset: tuple[int, int]) -> dict:
        """{square: (letter, probability, runner-up's)} for the moved cuts of
        :meth:`_cut_where_the_tiles_sit` read under VALUE_CHECK between letters worth other
        points, once the value printed beside the letter, cut from the same moved crop, is
        weighed in (:func:`letter_by_value`), as the reader weighs a square's own cut
        (:meth:`_weighed_by_windows`)."""
        if self.value_model is None:
            return {}
        n = len(self.letters)
        return self._weighed_by_windows(pol, [(rc, an.crop_gray(*rc, *offset), g, moved[rc], p)
                                              for rc, g, p in zip(owner, glyphs, P)
                                              if float(p[:n].max()) < VALUE_CHECK and self._values_differ(p)], classes)

    def _sharpened_reads_another(self, an: Analysis, pol: int, fresh: np.ndarray, labels, conf: np.ndarray) -> dict:
        """{square: the other letter} for fresh squares shown as a letter with under OTHER_BELOW
        whose ink sharpened harder than :meth:`_sharpened`'s (OTHER_SIGMA, OTHER_GAIN) reads
        another letter with OTHER_SURE or more.  Blur closes a bold serif S's or R's counters into
        a B's, an O's gap into a Q's tail: the letter then reads wrong at 0.7-0.9, and sharpened it
        reads as itself.  Such squares are asked about, the sharpened letter their guess; on the
        tuning rows (1,920 boards) 9 wrong letters were caught so and 7 right ones asked."""
        cand = {(r, c): labels[r][c] for r in range(GRID) for c in range(GRID)
                if fresh[r, c] and labels[r][c] not in (EMPTY, BLANK, COVERED) and conf[r, c] < OTHER_BELOW}
        out = {}
        for rc, letter, p in self._read_sharpened(an, pol, list(cand), OTHER_SIGMA, OTHER_GAIN):
            if letter != cand[rc] and p >= OTHER_SURE:
                out[rc] = letter
        return out

    def _mark_reads_another_twin(self, an: Analysis, pol: int, fresh: np.ndarray, labels) -> dict:
        """{square: the other twin} for fresh squares shown as a letter with twins where the mark
        model (:func:`letters.mark_window` of its grey ink) gives one other twin MARK_SURE or more
        of the twins' probability."""
        if not self._mark_twins:
            return {}
        shown = {(int(r), int(c)): labels[r][c] for r, c in zip(*np.nonzero(fresh)) if labels[r][c] in self._mark_twins}
        out = {}
        for rc, share in self._twin_shares_by_mark(an, pol, shown).items():
            other = max((ch for ch in share if ch != shown[rc]), key=share.get)
            if share[other] >= MARK_SURE:
                out[rc] = other
        return out

    def _twin_shares_by_mark(self, an: Analysis, pol: int, letters: dict) -> dict:
        """{square: {twin: its share of the twins' probability}} by the mark model, for the squares
        of ``letters`` (square -> a letter with twins, :attr:`_mark_twins`) with a glyph cut."""
        cand = [rc for rc in letters if an.glyphs[pol].get(rc) is not None]
        if not cand:
            return {}
        glyphs = [an.glyphs[pol][rc] for rc in cand]
        P = L.mark_probabilities([L.mark_window(an.ink_crop(pol, *rc), g) for rc, g in zip(cand, glyphs)], glyphs,
                                 self.marks_model)
        classes = self.marks_model.classes
        out = {}
        for rc, p in zip(cand, P):
            q = {ch: float(p[classes.index(ch)]) for ch in self._mark_twins[letters[rc]]}
            total = sum(q.values())
            if total > 0:
                out[rc] = {ch: v / total for ch, v in q.items()}
        return out

    def _mark_shows_a_twin_asked(self, an: Analysis, pol: int, tiles: dict, labels, guesses, glyph_p: dict) -> dict:
        """{square: twin} for the squares of ``tiles`` (those the square model is sure are letter
        tiles) asked with a twin guessed, whose letter the letter model (``glyph_p``) doubts only
        between that guess's twins (MARK_GROUP or more of its letters' probability on them), and
        where the mark model gives one twin MARK_SHOW or more of the twins' probability."""
        if not self._mark_twins:
            return {}
        n = len(self.letters)
        asked = {}
        for rc in tiles:
            g, p = guesses[rc[0]][rc[1]], glyph_p.get(rc)
            if labels[rc[0]][rc[1]] != COVERED or g not in self._mark_twins or p is None:
                continue
            group = sum(float(p[self._classes.index(t)]) for t in self._mark_twins[g] if t in self._classes)
            if group >= MARK_GROUP * max(float(p[:n].sum()), 1e-9):
                asked[rc] = g
        out = {}
        for rc, share in self._twin_shares_by_mark(an, pol, asked).items():
            best = max(share, key=share.get)
            if share[best] >= MARK_SHOW:
                out[rc] = best
        return out

    def _twin_at_a_low_cut(self, an: Analysis, pol: int, fresh: np.ndarray, labels, glyph_p: dict) -> dict:
        """{square: the other twin} for fresh squares shown as a letter with twins whose others
        hold TWIN_LOW_USUAL or more of the twins' probability as usually cut, and TWIN_LOW_SURE
        or more cut at TWIN_LOW_CUT: a mark the usual cut lost (see TWIN_LOW_CUT)."""
        if not self._twins:
            return {}
        cand = {}
        for r, c in zip(*np.nonzero(fresh)):
            rc, letter = (int(r), int(c)), labels[r][c]
            if rc in glyph_p and twin_share(letter, glyph_p[rc], self._classes, self._twins)[0] >= TWIN_LOW_USUAL:
                cand[rc] = letter
        if not cand:
            return {}
        owner, glyphs = _cut_at(an, pol, list(cand), TWIN_LOW_CUT)
        if not glyphs:
            return {}
        P, _ = self._classify(glyphs, True)
        out = {}
        for rc, p in zip(owner, P):
            share, other = twin_share(cand[rc], p, self._classes, self._twins)
            if share >= TWIN_LOW_SURE:
                out[rc] = other
        return out

    def _read_sharpened(self, an: Analysis, pol: int, cells: list, sigma: float, gain: float) -> list:
        """[(square, best letter, its probability)] for the squares of ``cells`` whose ink,
        sharpened (the ink plus ``gain`` times its difference from itself blurred by ``sigma``
        px), leaves a letter at the usual cut."""
        owner, glyphs = _cut_at(an, pol, cells, L.THRESHOLD_AT, sharpen=(sigma, gain))
        if not glyphs:
            return []
        P, classes = self._classify(glyphs, True)
        best = np.argmax(P[:, :len(self.letters)], axis=1)
        return [(rc, classes[j], float(p[j])) for rc, p, j in zip(owner, P, best)]

    def _hidden_of(self, an: Analysis, pol: int, cells: list) -> tuple[list, np.ndarray, np.ndarray]:
        """(the squares of ``cells`` with a glyph, the letter model's hidden layer for each, their
        glyph images), the glyphs as this picture cuts them (:meth:`_glyphs_read`)."""
        cells, glyphs = self._glyphs_read(an, pol, cells)
        if not cells:
            return [], np.zeros((0, 0), np.float32), np.zeros((0, L.GLYPH, L.GLYPH), np.float32)
        return cells, np.stack([an.logits[pol][rc][1] for rc in cells]), L.stack(glyphs)[0]

    def _read_other_components(self, an: Analysis, pol: int, cells, most: int):
        """(glyphs, their squares, letter probabilities, classes) of the glyphs built around the
        ``most`` ink components that scored next in each square's crop (:func:`letters.other_glyphs`)."""
        glyphs, owner = [], []
        for rc in cells:
            for g in L.other_glyphs(an.ink_crop(pol, *rc), most=most):
                glyphs.append(g)
                owner.append(rc)
        P, classes = self._classify(glyphs, True)
        return glyphs, owner, P, classes

    def _faint_stroke_lost(self, an: Analysis, pol: int, fresh: np.ndarray, labels, conf: np.ndarray) -> dict:
        """{square: the fuller letter} for squares shown as a letter that is another less a stroke
        (FAINT_FULLER: I an L, J or T; F an E) whose ink cut at FAINT_CUT of its strongest reads
        that fuller letter with FAINT_SURE or more.  A face of thick stems and thin horizontals
        (FreeSerif Bold) loses an L's foot and an E's bottom bar at the usual cut under blur, and
        the stem alone reads I surely; cut lower, the faint stroke comes back.  Such squares are
        asked about (their guess the fuller letter), not shown either way: a right I cut that low
        can pick up a neighbour's edge.  Those the low cut does not ask are cut again at
        FAINT_CUT_FULLER: cut at 0.1 a FreeSerif Bold E's bottom bar ran into the value printed
        beside it and read neither E nor F; at 0.2 it read E (0.99), where the usual cut read F.
        At each of the two cuts a letter the cut joined other components to is also read on its
        own component alone: cut low, the next tile's letter close beside it can come up as a
        side piece of a broken letter (:func:`letters._pieces`) and spoil the read.

        The same for any letter shown with under FAINT_DOUBT whose cut that low reads another
        letter of the set with FAINT_SURE or more (a serif U's hairline stem or a light K's arms
        lost under blur: the other stem alone is read I or J, not surely).  Not for letters
        shown surer: cut that low the counters of a sure S, R or P fill in and read B or R."""
        cand = [(r, c) for r in range(GRID) for c in range(GRID)
                if fresh[r, c] and labels[r][c] not in (EMPTY, COVERED, BLANK)
                and (labels[r][c] in FAINT_FULLER or conf[r, c] < FAINT_DOUBT)]
        owner, glyphs = _cut_at(an, pol, cand, FAINT_CUT)
        if not glyphs:
            return {}
        P, classes = self._classify(glyphs, True)
        # the squares whose letter this cut joined other components to (pieces, accents): only
        # there can the letter's own component alone read otherwise
        joined = {rc: g.parts > 1 for rc, g in zip(owner, glyphs)}
        out = {}
        for rc, p in zip(owner, P):
            shown = labels[rc[0]][rc[1]]
            fuller = _fuller_read(shown, p, classes)
            if fuller:
                out[rc] = fuller
                continue
            if conf[rc] < FAINT_DOUBT:
                j = int(np.argmax(p))
                if classes[j] in self.letters and classes[j] != shown and float(p[j]) >= FAINT_SURE:
                    out[rc] = classes[j]
        # cut that low a faint bar can run into the value printed beside it or the tile's edge
        # and read as neither letter: the letters a stroke short are cut once more, a little
        # higher; and at each of the two cuts without the pieces a broken letter is joined from,
        # the letter's own component alone: cut that low the next tile's letter, close beside
        # it, comes up as a "side piece" of the letter (a FreeSerif Bold L, its foot back,
        # joined to the round side of the G beside it read as no letter; alone, L 0.93)
        for cut, pieces in ((FAINT_CUT, False), (FAINT_CUT_FULLER, True), (FAINT_CUT_FULLER, False)):
            again = [rc for rc in cand if rc not in out and labels[rc[0]][rc[1]] in FAINT_FULLER
                     and (pieces or joined.get(rc))]
            owner, glyphs = _cut_at(an, pol, again, cut, pieces=pieces) if again else ([], [])
            if pieces:
                joined = {rc: g.parts > 1 for rc, g in zip(owner, glyphs)}
            if glyphs:
                P, classes = self._classify(glyphs, True)
                for rc, p in zip(owner, P):
                    fuller = _fuller_read(labels[rc[0]][rc[1]], p, classes)
                    if fuller:
                        out[rc] = fuller
        return out

    def _bar_beside_a_letter(self, an: Analysis, pol: int, fresh: np.ndarray, labels, conf: np.ndarray) -> list:
        """Squares read as a bar letter (BAR_LETTERS, shown with under BAR_CHECK) whose crop
        holds another letter: the ink component that scored next (:func:`letters.other_glyphs`)
        reads as a different letter with BAR_RIVAL or more.  A tile sitting off its square shows the board in the gap beside
        it as a bar, more central than its own letter (an X, a G read as I); a real I has no
        rival letter in its crop.  Such squares are asked about, not guessed."""
        cand = [(r, c) for r in range(GRID) for c in range(GRID)
                if fresh[r, c] and labels[r][c] in BAR_LETTERS and conf[r, c] < BAR_CHECK]
        _, owner, P, classes = self._read_other_components(an, pol, cand, 1)
        out = []
        for rc, p in zip(owner, P):
            j = int(np.argmax(p[:-2]))
            if classes[j] != labels[rc[0]][rc[1]] and float(p[j]) >= BAR_RIVAL:
                out.append(rc)
        return out

    def _other_components(self, an: Analysis, pol: int, cells, probs: dict, gmap: dict) -> list:
        """For ``cells``, glyphs built around the ink components that scored next after the one
        kept (:func:`letters.other_glyphs`); one the model reads as a letter with OTHER_SURE or
        more replaces the square's glyph and probabilities.  Returns the squares changed."""
        glyphs, owner, P, _ = self._read_other_components(an, pol, cells, OTHER_RANKS)
        return _take_surer(an, pol, glyphs, owner, P, OTHER_SURE, probs, gmap)

    def _letter_alone(self, an: Analysis, pol: int, cells, probs: dict, gmap: dict, height: float) -> list:
        """For ``cells`` (strong ink the model calls no letter, on a square of the tiles' colour),
        the letter's component alone (:func:`letters.glyph_cuts`, rank 0: without the pieces and
        stray marks joined to it): a tile sitting off a premium square keeps a speck of the
        square's print in its crop, beside or above the letter, and the letter with the speck is
        no letter.  Read with ALONE_SURE or more, and as tall as the board's sure letters
        (``height``, within ALONE_HEIGHT of it: the print's own letters, a "2W" read W, are
        smaller), it replaces the square's glyph and probabilities.  Returns the squares changed."""
        glyphs, owner = [], []
        for rc in cells:
            for _, g in L.glyph_cuts(an.ink_crop(pol, *rc), most=0, marks=self._marks):
                if abs(g.height / height - 1) <= ALONE_HEIGHT:
                    glyphs.append(g)
                    owner.append(rc)
        if not glyphs:
            return []
        P, _ = self._classify(glyphs, True)
        return _take_surer(an, pol, glyphs, owner, P, ALONE_SURE, probs, gmap)

    def _blur_cuts(self, an: Analysis, pol: int, cells, probs: dict, gmap: dict) -> list:
        """For ``cells`` (strong ink the model calls no letter), the ink cut higher (BLUR_CUTS of
        its strongest, the usual cut being 0.25): blur spreads a thin stroke into a fat bar the
        model takes for no letter (a blurred I, its strokes half as wide as high), and a higher
        cut gives the stroke back.  When every cut reads the same letter and their average gives
        it BLUR_SURE or more, the middle cut and the average replace the square's glyph and
        probabilities; the rest whose middle cut reads a letter at JOIN_FROM or more are cut again
        otherwise (:meth:`_joined_cuts`).  Returns the squares changed.

        The middle cut is read first, alone: unless its letter reaches what the average needs
        (BLUR_SURE less the others' most, 1 each), the others cannot make it -- most such ink is
        print or a tile's edge, and one cut instead of three saves ~2/3 of the work."""
        n = len(BLUR_CUTS)
        mid = BLUR_CUTS[n // 2]
        owner, glyphs = _cut_at(an, pol, cells, mid)
        if not glyphs:
            return []
        P, _ = self._classify(glyphs, True)
        need = n * BLUR_SURE - (n - 1)
        hopeful = [(rc, g, p) for rc, g, p in zip(owner, glyphs, P) if float(p[:-2].max()) >= need]
        changed = []
        others = L.glyph_variants_of([an.ink_crop(pol, *rc) for rc, _, _ in hopeful],
                                     BLUR_CUTS[:n // 2] + BLUR_CUTS[n // 2 + 1:])
        for (rc, g_mid, p_mid), cuts in zip(hopeful, others):
            if len(cuts) != n - 1:
                continue
            P2, _ = self._classify(cuts, True)
            ps = np.vstack([p_mid[None], P2])
            mean = ps.mean(axis=0)
            j = int(np.argmax(mean[:-2]))
            if (np.argmax(ps[:, :-2], axis=1) == j).all() and float(mean[j]) >= BLUR_SURE \
                    and float(mean[j]) > float(probs[rc][:-2].max()):
                _take_glyph(an, pol, rc, g_mid, mean, probs, gmap)
                changed.append(rc)
        # the rest whose middle cut (one of BLUR_JOINED) reads a letter at JOIN_FROM or more: on
        # the tuning boards' squares no other could pass, and 88 % of them are not cut again
        rest = [rc for rc, p in zip(owner, P) if rc not in changed and float(p[:-2].max()) >= JOIN_FROM]
        return changed + (self._joined_cuts(an, pol, rest, probs, gmap) if rest else [])

    def _joined_cuts(self, an: Analysis, pol: int, cells, probs: dict, gmap: dict) -> list:
        """For ``cells`` the higher cuts did not settle, the ink cut at BLUR_JOINED and read by
        the cuts' geometric mean (:func:`join_cuts`): a letter that reaches BLUR_SURE, and more
        than the square's reading so far, replaces it (glyph: the middle cut).  Returns the
        squares changed."""
        read, _ = self._read_cuts(an, pol, cells, BLUR_JOINED, every=True)
        changed = []
        for rc, (glyphs, P) in read.items():
            p = join_cuts(P)
            j = int(np.argmax(p[:-2]))
            if float(p[j]) >= BLUR_SURE and float(p[j]) > float(probs[rc][:-2].max()):
                _take_glyph(an, pol, rc, glyphs[len(glyphs) // 2], p, probs, gmap)
                changed.append(rc)
        return changed

    def _other_cuts(self, an: Analysis, pol: int, cells, probs: dict, best: dict, second: dict,
                    gmap: dict) -> list:
        """The letters of ``cells`` cut otherwise (:func:`letters.glyph_cuts`): one the model
        reads as a letter with CUT_SURE or more (CUT_RANK_SURE for a cut around another
        component), and likelier than the usual cut's letter, replaces the square's glyph and
        probabilities.  So does the glyph turned by half a turn when it reads, with
        CUT_RANK_SURE or more, a letter that is its own half turn (HALF_TURN_SAME): a tile laid
        upside down (an O, whose tile shows no way up but its point value, now at the upper
        left, where the letter model never saw one).  Returns the squares still in doubt."""
        glyphs, owner, ranks = [], [], []
        for rc in cells:
            for rank, g in L.glyph_cuts(an.ink_crop(pol, *rc), marks=self._marks):
                glyphs.append(g)
                owner.append(rc)
                ranks.append(rank)
            if self._half_turn_same and gmap.get(rc) is not None:
                glyphs.append(_rot_glyph(gmap[rc], 2))
                owner.append(rc)
                ranks.append(HALF_TURN)
        if not glyphs:
            return cells
        P, classes = self._classify(glyphs, True)
        done = set()
        for g, rc, p, rank in zip(glyphs, owner, P, ranks):
            j = int(np.argmax(p[:-2]))
            if rank == HALF_TURN and classes[j] not in self._half_turn_same:
                continue
            if float(p[j]) >= (CUT_RANK_SURE if rank else CUT_SURE) and float(p[j]) > float(probs[rc][:-2].max()):
                _take_glyph(an, pol, rc, g, p, probs, gmap)
                _note_best(rc, p, classes, best, second)
                done.add(rc)
        return [rc for rc in cells if rc not in done]

    def _read_cuts(self, an: Analysis, pol: int, cells, thresholds, every: bool = False) -> tuple[dict, str]:
        """({square: (its letter cut again at ``thresholds`` of its ink, the letter model's
        readings of those cuts)}, the readings' classes), the cuts of all ``cells`` read in one
        batch.  Squares no cut left a letter in are left out, and with ``every`` those some cut
        left none in."""
        cut = dict(zip(cells, L.glyph_variants_of([an.ink_crop(pol, *rc) for rc in cells], thresholds)))
        cut = {rc: gs for rc, gs in cut.items() if gs and (not every or len(gs) == len(thresholds))}
        if not cut:
            return {}, ""
        P, classes = self._classify([g for gs in cut.values() for g in gs], True)
        out, i = {}, 0
        for rc, gs in cut.items():
            out[rc] = (gs, P[i:i + len(gs)])
            i += len(gs)
        return out, classes

    def _second_look(self, an: Analysis, pol: int, cells, probs: dict, best: dict, second: dict) -> None:
        """The letters of ``cells`` cut again at the SECOND_LOOK ink thresholds and read again;
        the letter model's answers over all the cuts are joined by their geometric mean into
        ``probs`` and ``best``; the letter's lead over the next counts (``second``) only where
        every cut reads it first.  Blur, glare, worn print and a bold face move the threshold that
        gives the cleanest strokes; a letter that every cut allows is a letter the model is surer
        of, rightly, and one that some cut rules out is not."""
        read, classes = self._read_cuts(an, pol, cells, SECOND_LOOK)
        for rc, (_, P) in read.items():
            ps = np.vstack([probs[rc][None], P])
            probs[rc] = p = join_cuts(ps)
            # its lead counts only where every cut reads that letter first
            agree = bool((np.argmax(ps[:, :-2], axis=1) == np.argmax(p[:-2])).all())
            _note_best(rc, p, classes, best, second, lead=agree)


def tiles_offset(glyphs, side: int) -> tuple[int, int] | None:
    """(dx, dy) whole px: where a board's tiles sit off their squares -- the median centre of
    ``glyphs`` (the sure letters' glyphs, None where a square has none) less their crops'
    centre, crops ``side`` px a side -- or None from fewer than OFFSET_LETTERS letters or when
    under OFFSET_MIN_PX.  The median, not the mean: a letter's own jitter, or a glyph that kept a
    neighbour's piece, does not move it."""
    centres = [g.centre for g in glyphs if g is not None]
    if len(centres) < OFFSET_LETTERS:
        return None
    dx, dy = (np.median(np.array(centres, np.float64), axis=0) - 0.5) * side
    if math.hypot(dx, dy) < OFFSET_MIN_PX:
        return None
    return int(round(dx)), int(round(dy))


def join_cuts(P: np.ndarray) -> np.ndarray:
    """One reading of a letter from its readings ``P`` (cuts x classes) at several ink thresholds:
    their geometric mean, normalised (LOOK_FLOOR keeps one cut's zero from vetoing a letter).  A
    letter that one cut rules out loses to one that every cut allows."""
    mean = np.log(P + LOOK_FLOOR).mean(axis=0)
    p = np.exp(mean - mean.max())
    return p / p.sum()


def _note_best(rc, p: np.ndarray, classes: str, best: dict, second: dict, lead: bool = True) -> None:
    """Square ``rc``'s likeliest letter and its probability into ``best``, the runner-up's
    probability into ``second``, from letter probabilities ``p`` (last two columns ROT, NONE).
    ``lead=False``: the letter's lead over the runner-up does not make it sure (``second`` holds
    its own probability), only its probability does (:meth:`BoardReader._sure`)."""
    j = int(np.argmax(p[:-2]))
    best[rc] = (classes[j], float(p[j]))
    if not lead:
        second[rc] = float(p[j])
    else:
        second[rc] = float(np.partition(p[:-2], -2)[-2]) if len(p) > 3 else 0.0


def _fuller_read(shown: str, p: np.ndarray, classes) -> str | None:
    """The letter of which ``shown`` is a stroke short (FAINT_FULLER) that ``p`` (a glyph's
    probabilities over ``classes``) reads with FAINT_SURE or more -- the likeliest such; else None."""
    fuller = [ch for ch in FAINT_FULLER.get(shown, "") if ch in classes]
    if not fuller:
        return None
    best = max(fuller, key=lambda ch: float(p[classes.index(ch)]))
    return best if float(p[classes.index(best)]) >= FAINT_SURE else None


def _cut_at(an: Analysis, pol: int, cells, threshold: float,
            sharpen: tuple[float, float] | None = None, pieces: bool = True) -> tuple[list, list]:
    """(the squares of ``cells`` whose ink leaves a letter cut at ``threshold`` of its strongest,
    those glyphs) (:func:`letters.glyph_variants`).  ``sharpen``: (sigma, gain), the ink first
    sharpened -- plus ``gain`` times its difference from itself blurred by ``sigma`` px.
    ``pieces`` False: each letter's own component (and accents) only, no broken-off pieces."""
    owner, glyphs = [], []
    inks = []
    for rc in cells:
        ink = an.ink_crop(pol, *rc)
        if sharpen is not None:
            sigma, gain = sharpen
            ink = ink.astype(np.float32)
            ink = np.clip(ink + gain * (ink - cv2.GaussianBlur(ink, (0, 0), sigma)), 0, 255)
        inks.append(ink)
    # all the squares' crops in one go (letters.glyphs_from_inks, the same glyphs as one by one
    # in fewer calls; the usual cut of the sharpened ink so since the fifth session, the other
    # thresholds -- the faint strokes' lower cuts, the blur cuts -- since the twenty-fifth)
    for rc, g in zip(cells, L.glyphs_from_inks(inks, threshold=threshold, pieces=pieces)):
        if g is not None:
            glyphs.append(g)
            owner.append(rc)
    return owner, glyphs


def _take_glyph(an: Analysis, pol: int, rc, g: L.Glyph, p: np.ndarray, probs: dict, gmap: dict) -> None:
    """Square ``rc``'s glyph is ``g``, read ``p``, from now on: for the features, the value window
    and later reads of this frame."""
    probs[rc], gmap[rc] = p, g
    an.glyphs[pol][rc] = g
    an.logits[pol].pop(rc, None)


def _take_surer(an: Analysis, pol: int, glyphs, owner, P: np.ndarray, sure: float, probs: dict,
                gmap: dict) -> list:
    """Each glyph of ``glyphs`` (cut from the square ``owner`` names, read ``P``) whose letter is
    read with ``sure`` or more, and more surely than its square's letter so far, becomes that
    square's glyph (:func:`_take_glyph`).  Returns the squares changed."""
    changed = []
    for g, rc, p in zip(glyphs, owner, P):
        if float(p[:-2].max()) >= sure and float(p[:-2].max()) > float(probs[rc][:-2].max()):
            _take_glyph(an, pol, rc, g, p, probs, gmap)
            changed.append(rc)
    return changed


def _sure_letter_height(an: Analysis, pol: int, best: dict) -> float | None:
    """The height of a letter cut alone on this picture: the lower quartile of the heights of
    the letters read 0.9 or more surely on plain squares (those the tiles' colour is learnt
    from), or None where fewer than ALONE_TILES tell it.  Not their median: a point value
    printed close to its letter is cut with it where blur joins them, lower than the letter, and
    on some boards most letters are so cut (one of fonts never seen: an I, an F, a T 18 px tall,
    an M, an R, a C with their values 23)."""
    heights = [an.glyphs[pol][rc].height for rc in _sure_letter_cells(best, an.glyphs[pol])]
    return float(np.percentile(heights, 25)) if len(heights) >= ALONE_TILES else None


def _sure_letter_cells(best: dict, glyphs: dict) -> list[tuple[int, int]]:
    """The plain squares whose letter (``best``: square -> (letter, probability)) is read 0.9 or
    more surely from a tile-sized glyph (``glyphs``: square -> its glyph): what the tiles' colour
    and the height of the board's letters are learnt from."""
    return [rc for rc, (_, pl) in best.items() if pl >= 0.9 and PLAIN[rc]
            and (g := glyphs.get(rc)) is not None and g.height >= 0.3 and g.parts <= 3]


def _bar_read_as_i(g: L.Glyph | None, p: np.ndarray, classes: str, height: float) -> float | None:
    """The probability of an I for glyph ``g`` read ``p`` (over ``classes``, "no letter" last),
    where it is a lone bar as tall as the board's letters cut alone (``height``) that the letter
    model reads as an I or as no letter at all, nothing else (BAR_I_ASPECT, BAR_I_HEIGHT,
    BAR_I_LEAST, BAR_I_RIVAL): the I's probability and "no letter"'s together.  None otherwise."""
    if g is None or g.parts != 1 or g.aspect > BAR_I_ASPECT:
        return None
    if not BAR_I_HEIGHT[0] <= g.height / height <= BAR_I_HEIGHT[1]:
        return None
    i = classes.index("I")
    others = np.delete(p[:-2], i)
    if float(p[i]) < BAR_I_LEAST or (len(others) and float(others.max()) > BAR_I_RIVAL):
        return None
    return float(p[i] + p[-1])


def _lone(covered: np.ndarray) -> np.ndarray:
    """(15, 15): squares of ``covered`` with no other among their eight neighbours.  A hand is one
    piece (an arm along a diagonal too, its squares touching corner to corner); a square read
    covered on its own is mostly a premium square the square model could not place."""
    around = cv2.filter2D(covered.astype(np.float32), -1, np.ones((3, 3), np.float32),
                          borderType=cv2.BORDER_CONSTANT)
    return covered & (around < 1.5)


def _tiles_around(tiles: np.ndarray, r: int, c: int, most: int = 6, reach: int = 4) -> list[tuple[int, int]]:
    """Up to ``most`` squares of ``tiles`` nearest (r, c), at most ``reach`` steps away (not (r, c))."""
    near = [(abs(i - r) + abs(j - c), i, j) for i, j in zip(*np.nonzero(tiles)) if (i, j) != (r, c)]
    return [(i, j) for d, i, j in sorted(near) if d <= reach][:most]


def _print_mates(sel: np.ndarray, kinds: np.ndarray, conf: np.ndarray) -> list[tuple[int, int]]:
    """The squares of ``sel`` (one premium kind) surely read empty, at most PRINT_MATES, in
    reading order: what that kind's print looks like on this picture."""
    return [(r, c) for r, c in zip(*np.nonzero(sel & (kinds == "empty") & (conf >= 0.9)))][:PRINT_MATES]


def _print_match(strokes: np.ndarray, mates, rc) -> float | None:
    """How well square ``rc``'s strokes match those of the squares ``mates`` (empty squares of
    its kind): the best normalised match over PRINT_SHIFT pixels' shift either way and the four
    quarter turns (some boards turn the print towards each side).  None when the square is too
    blurred to show strokes (PRINT_INK): a blob matches a blob."""
    r, c = rc
    w = HALF + 2 * PRINT_SHIFT
    # the mates' windows side by side in one strip: one template match per turn
    strip = np.hstack([strokes[i * HALF:i * HALF + w, j * HALF:j * HALF + w] for i, j in mates])
    inside = np.arange(strip.shape[1] - (HALF - 2 * PRINT_SHIFT) + 1) % w <= 2 * PRINT_SHIFT   # not across two
    t = strokes[r * HALF + 2 * PRINT_SHIFT:(r + 1) * HALF, c * HALF + 2 * PRINT_SHIFT:(c + 1) * HALF]
    if t.std() < PRINT_INK:
        return None
    return max(float(cv2.matchTemplate(strip, np.ascontiguousarray(np.rot90(t, k)),
                                       cv2.TM_CCOEFF_NORMED)[:, inside].max()) for k in range(4))


def _print_read_as_letters(an: Analysis, pol: int, fresh: np.ndarray, labels, guesses, conf: np.ndarray,
                           kinds: np.ndarray) -> list:
    """Premium squares read as a letter (shown, or '#' with a letter guessed), or read covered on
    their own, whose picture is the picture of an empty square of the same kind: the print
    ("2L", "DOUBLE WORD SCORE") read as a letter or as something covering the square.  Every
    square of a kind carries the same print, so the square's middle (grey, normalised) is matched against the squares of its kind surely read empty (where none is, those read empty), allowing a few
    pixels' shift and the four quarter turns (some boards turn the print towards each side), on
    the picture less its blur (strokes, not blobs); a tile covers the print with its own face and
    letter, which match it far less (tuning boards: tiles at most 0.71, print read as a letter
    0.84-0.90); a square too blurred to show strokes (PRINT_INK) is not matched.  Colour cannot
    tell where the kind is about the tiles' colour, which is where this is needed; a square
    whose face is not within PRINT_NEAR of its kind's colour is a tile and is not matched, unless
    it is within PRINT_FAR and matches PRINT_SURE_MATCH or more."""
    out = []
    face = None
    # a square read covered on its own (:func:`_lone`) is matched as well: a premium square whose
    # print the square model could not place (a dark "TRIPLE WORD SCORE" square on the deluxe
    # set) is no hand, and a tile or a finger there does not match the print
    covered = kinds == "covered"
    lone = _lone(covered)
    # ... and so is a square the square model could not place at all ('#', unsure between empty,
    # tile and blank), away from anything read covered: the deluxe set's maroon "TRIPLE WORD
    # SCORE" squares, of the tiles' colour, on 442 of the 2,808 on the real frames
    clear = cv2.filter2D(covered.astype(np.float32), -1, np.ones((3, 3), np.float32),
                         borderType=cv2.BORDER_CONSTANT) < 0.5
    unplaced = (kinds == "unsure") & clear
    for sel in _KIND_SQUARES.values():
        cand = [(r, c) for r, c in zip(*np.nonzero(sel & fresh))
                if guesses[r][c] not in (EMPTY, BLANK, COVERED) and labels[r][c] != EMPTY or lone[r, c]
                or unplaced[r, c] and labels[r][c] == COVERED]
        if not cand:
            continue
        empty = sel & (kinds == "empty")
        mates = _print_mates(sel, kinds, conf)
        if not mates:
            # none read surely: those read empty at all, likeliest first
            mates = sorted(zip(*np.nonzero(empty)), key=lambda rc: -conf[rc])[:PRINT_MATES]
        if not mates:
            continue
        if face is None:
            face = an.face_lab(pol)
        kind_colour = np.median(face[tuple(np.array(mates).T)], axis=0)
        apart = {rc: float(np.linalg.norm(face[rc] - kind_colour)) for rc in cand}
        cand = [rc for rc in cand if apart[rc] < PRINT_FAR]
        if not cand:
            continue
        for rc in cand:
            best = _print_match(an.strokes(), mates, rc)
            if best is not None and best >= (PRINT_MATCH if apart[rc] < PRINT_NEAR else PRINT_SURE_MATCH):
                out.append(rc)
    return out


def _inked_faces_colour(face: np.ndarray, peak: np.ndarray, board: np.ndarray) -> np.ndarray | None:
    """The colour most plain squares with ink (``peak``, PEAK_MIN or more) share, whose face
    (``face``) lies UNREAD_APART or more from the board's colour (``board``): the tiles', where
    INKED_TILES or more lie within PRINT_SAME of it; else None."""
    sel = PLAIN & (peak >= PEAK_MIN) & (np.linalg.norm(face - board, axis=2) >= UNREAD_APART)
    if sel.sum() < INKED_TILES:
        return None
    cols = face[sel]
    centre = _modal_colour(cols, PRINT_SAME)
    return centre if int((np.linalg.norm(cols - centre, axis=1) < PRINT_SAME).sum()) >= INKED_TILES else None


def _unread_tiles(colour: np.ndarray, labels) -> list:
    """Cold, while no letter has been read surely enough to know the tiles' colour: plain squares
    read empty that are tiles whose letters could not be seen (ink about as light as the face,
    blur).  Such a square's colour (``colour``: each square's mean, as which side of it is the
    face is not known when no letter shows) is far (UNREAD_APART) from the board's -- the colour
    most plain squares share -- and as far from the plain squares round it (within two steps,
    UNREAD_AROUND or more of them not far from the board's); and UNREAD_TILES or more such
    squares share one colour (within PRINT_SAME of their commonest).  Light falling off over a
    board (a lamp to one side) also takes squares far from the board's commonest colour, and
    alike; but smoothly, so they are near the squares round them."""
    shown = _shown(labels)
    empty = PLAIN & (shown == EMPTY)
    board = _modal_colour(colour[PLAIN])
    far = empty & (np.linalg.norm(colour - board, axis=2) >= UNREAD_APART)
    if far.sum() < UNREAD_TILES:
        return []
    plain_board = empty & ~far
    apart = np.zeros((GRID, GRID), bool)
    for r, c in zip(*np.nonzero(far)):
        window = (slice(max(r - 2, 0), r + 3), slice(max(c - 2, 0), c + 3))
        near = colour[window][plain_board[window]]
        if len(near) >= UNREAD_AROUND:
            apart[r, c] = np.linalg.norm(colour[r, c] - np.median(near, axis=0)) >= UNREAD_APART
    if apart.sum() < UNREAD_TILES:
        return []
    centre = _modal_colour(colour[apart], PRINT_SAME)
    alike = apart & (np.linalg.norm(colour - centre, axis=2) < PRINT_SAME)
    return list(zip(*np.nonzero(alike))) if alike.sum() >= UNREAD_TILES else []


def _foreign_empty(colour: np.ndarray, labels, conf: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """(15, 15): squares read empty whose mean colour is UNREAD_APART or more from the squares of
    their kind surely read empty (their median): beside a hand, that is the hand or a sleeve
    (an arm of another colour read as empty squares), not the board."""
    shown = _shown(labels)
    out = np.zeros((GRID, GRID), bool)
    for sel in [PLAIN, *_KIND_SQUARES.values()]:
        med = _sure_empty_median(colour, sel, kinds, conf)
        if med is not None:
            out |= sel & (shown == EMPTY) & (np.linalg.norm(colour - med, axis=2) >= UNREAD_APART)
    return out


def _kind_taken_for_blanks(face_of, labels, guesses, conf: np.ndarray, kinds: np.ndarray,
                           colour_of=None) -> None:
    """Premium squares of one kind read as blank tiles (or '#', guessed blanks), KIND_BLANKS or
    more of them with one colour (within PRINT_SAME of their median), are that kind's own colour -- a kind printed in
    about the tiles' colour, without print --, not blanks: a set has two or three blanks, and
    they would not all land on one kind.  They are empty -- unless two or more squares of the
    kind are surely empty and of another colour: then the kind's colour is known, and these
    are blanks (a rendered board with many blanks has three on one kind).  ``face_of()`` gives
    the face colours, made only when a kind has that many blanks (not on most re-reads).

    "Another colour" is asked under the board's light too (``colour_of()``: each square's colour
    over the light where it lies, :func:`_colour_under_light`): a lamp to one side can make the
    kind's squares at the far end as much darker as a blank's face would be, and three squares
    of a kind on the dim side were shown as blanks while two on the lit side were empty."""
    # a blank the square model is unsure of ('#', guessed a blank) counts too: a kind of the dim
    # tiles' colour is as likely a blank as an empty square to the model, square after square
    shown = _shown(labels)
    blank = (shown == BLANK) | ((shown == COVERED) & (_shown(guesses) == BLANK) & (kinds == "unsure"))
    for sel in _KIND_SQUARES.values():
        read = sel & blank
        if read.sum() < KIND_BLANKS:
            continue
        face = face_of()
        alike, med = _of_one_colour(face, read)
        if alike.sum() < KIND_BLANKS:
            continue
        empty = sel & (kinds == "empty") & (conf >= 0.9)
        if empty.sum() >= 2 and np.linalg.norm(np.median(face[empty], axis=0) - med) >= PRINT_SAME:
            lit = colour_of() if colour_of is not None else None
            if lit is None or np.abs(np.median(lit[empty], axis=0) - np.median(lit[alike], axis=0)).max() >= LIGHT_SAME:
                continue                  # the kind's empty squares look otherwise: these are blanks
        for r, c in zip(*np.nonzero(alike)):
            labels[r][c], guesses[r][c], kinds[r, c] = EMPTY, EMPTY, "empty"
            conf[r, c] = 0.6


def _colour_under_light(mean_bgr: np.ndarray, kinds: np.ndarray, conf: np.ndarray) -> np.ndarray | None:
    """(15, 15, 3) each square's colour over the light where it lies: the log of its mean BGR
    less a smooth surface (quadratic in the square's place) fitted, channel by channel, to the
    plain squares surely read empty (the board's own colour, everywhere the same but for the
    light on it), refitted once on those within LIGHT_SAME of the first fit.  A change of light
    scales every channel alike, so squares of one colour under uneven light come out alike.  None
    with fewer than LIGHT_SQUARES such squares."""
    sel = PLAIN & (kinds == "empty") & (conf >= 0.9)
    if sel.sum() < LIGHT_SQUARES:
        return None
    logc = np.log(mean_bgr.astype(np.float64) + 1.0)
    yy, xx = (np.mgrid[0:GRID, 0:GRID].astype(np.float64) / GRID - 0.5).reshape(2, -1)
    A = np.stack([np.ones(GRID * GRID), xx, yy, xx * xx, yy * yy, xx * yy], axis=1)
    flat = logc.reshape(-1, 3)
    use = sel.ravel()
    for _ in range(2):
        coef, *_ = np.linalg.lstsq(A[use], flat[use], rcond=None)
        fit = A @ coef
        near = use & (np.abs(flat - fit).max(axis=1) < LIGHT_SAME)
        if near.sum() < LIGHT_SQUARES:
            break
        use = near
    return (flat - fit).reshape(GRID, GRID, 3)


def _kind_read_as_one_letter(face_of, tile_lab, labels) -> list[tuple[int, int]]:
    """Premium squares of one kind showing one and the same letter, KIND_BLANKS or more of them
    with one colour (within PRINT_SAME of their median) -- and, where the tiles' colour is
    known, PRINT_APART from it: the kind's print read as that letter (a word printed sideways
    reads I), not tiles; to be asked ('#').  The print rule (step 5e) needs a square of the kind
    read empty to match against; on a first picture whose few tiles were not seen, every
    triple-word square read I.  Real tiles on a kind's squares would carry the tiles' colour,
    and seldom one letter on three of them."""
    found: list[tuple[int, int]] = []
    shown = _shown(labels)
    lettered = ~np.isin(shown, (EMPTY, BLANK, COVERED))
    for sel in _KIND_SQUARES.values():
        read = sel & lettered
        if read.sum() < KIND_BLANKS:
            continue
        letter, n = Counter(shown[read].tolist()).most_common(1)[0]
        if n < KIND_BLANKS:
            continue
        alike, med = _of_one_colour(face_of(), read & (shown == letter))
        if alike.sum() < KIND_BLANKS or (tile_lab is not None and np.linalg.norm(med - tile_lab) < PRINT_APART):
            continue
        found += [(int(r), int(c)) for r, c in zip(*np.nonzero(alike))]
    return found


def _of_one_colour(face: np.ndarray, read: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of the squares ``read`` (a (15, 15) mask), those within PRINT_SAME of their median face
    colour, and that median."""
    med = np.median(face[read], axis=0)
    return read & (np.linalg.norm(face - med, axis=2) < PRINT_SAME), med


def _glared(an: Analysis, labels=None) -> np.ndarray:
    """(15, 15): squares whose middle is clipped white (GLARE_SHARE of it at GLARE_LEVEL or
    more), unless so many are that the board itself is white: more than GLARE_SPOT of the
    squares that could show the board (``labels``: not those showing a letter; a board full of
    tiles shows its white squares between them only)."""
    clipped = (an.light_mid() >= GLARE_LEVEL).mean(axis=(2, 3)) >= GLARE_SHARE
    open_ = np.ones_like(clipped) if labels is None else np.isin(_shown(labels), (EMPTY, BLANK, COVERED))
    share = float(clipped[open_].sum()) / max(1, int(open_.sum()))
    return clipped if share <= GLARE_SPOT else np.zeros_like(clipped)


def _white_tiles(an: Analysis, glared: np.ndarray, labels) -> bool:
    """Whether the set's tiles clip white themselves: on most squares showing a letter (at
    least three), the lightest tenth of the middle -- the face, not the ink -- is at
    GLARE_LEVEL.  A glare spot clips the few tiles under it, not the set's tiles all over."""
    if not glared.any():
        return False
    letters = ~np.isin(_shown(labels), (EMPTY, BLANK, COVERED))
    if letters.sum() < 3:
        return False
    mid = an.light_mid()[letters].reshape(int(letters.sum()), -1)
    k = int(0.9 * (mid.shape[1] - 1))
    return float(np.median(np.partition(mid, k, axis=1)[:, k])) >= GLARE_LEVEL


def _light_slope(an: Analysis) -> np.ndarray:
    """(15, 15): how steeply the lightness runs across each square's middle (Lab L per small
    pixel, the gradient of a plane fitted to it).  A tile's face is evenly lit unless a light
    spot falls on it."""
    n = SMALL - 4
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) - (n - 1) / 2
    L = an.mid_lab[..., 0]
    gx = (L * xx).sum(axis=(2, 3)) / (xx * xx).sum()
    gy = (L * yy).sum(axis=(2, 3)) / (yy * yy).sum()
    return np.hypot(gx, gy)


def _in_soft_glare(an: Analysis, pol: int, labels, kinds: np.ndarray, conf: np.ndarray) -> list:
    """Squares read as blank tiles that may be a glare spot's light on an empty square: their
    light slopes across them (HALO_SLOPE or more) and an empty neighbour (of eight) is
    HALO_LIFT or more lighter than the sure-empty squares of its kind.  A spot too soft to clip
    anything (:func:`_glared`) still washes empty squares towards the tiles' colour; an evenly
    lit blank among normally lit empty squares is left alone."""
    shown = _shown(labels)
    cand = list(zip(*np.nonzero(shown == BLANK)))
    if not cand:
        return []
    slope = _light_slope(an)
    cand = [rc for rc in cand if slope[rc] >= HALO_SLOPE]
    if not cand:
        return []
    light = an.face_lab(pol)[..., 0]
    lift = np.full((GRID, GRID), -np.inf, np.float32)
    for sel in [PLAIN, *_KIND_SQUARES.values()]:
        med = _sure_empty_median(light, sel, kinds, conf)
        if med is not None:
            lift[sel & (shown == EMPTY)] = light[sel & (shown == EMPTY)] - med
    out = []
    for r, c in cand:
        near = lift[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2]
        if near.max() >= HALO_LIFT:
            out.append((r, c))
    return out


def _blanks_past_any_set(labels) -> list[tuple[int, int]]:
    """The squares shown as blanks when there are more than BLANKS_PAST_ANY_SET of them: every
    one then, for none of them can be told from the rest.  No tile set holds more than four blank
    tiles (Super Scrabble; two in the usual sets), so a picture showing a dozen reads empty squares
    as blanks: white tiles on a white board, whose plain squares look like a blank's face.  Asked
    about, they are the players' to settle, not twenty wrong squares shown as fact."""
    blanks = [(r, c) for r in range(GRID) for c in range(GRID) if labels[r][c] == BLANK]
    return blanks if len(blanks) > BLANKS_PAST_ANY_SET else []


def _shown(labels) -> np.ndarray:
    """(15, 15) array of the labels being built (a list of 15 lists of 15 characters)."""
    return np.array([list(row) for row in labels])


def _sure_letters(labels, kinds: np.ndarray, conf: np.ndarray) -> np.ndarray:
    """(15, 15): tiles whose letter is shown, read with 0.9 or more."""
    return (kinds == "tile") & (conf >= 0.9) & ~np.isin(_shown(labels), (EMPTY, BLANK, COVERED))


def _border_rings(an: Analysis, labels, conf: np.ndarray, kinds: np.ndarray):
    """(tile ring, empty ring): the median border colour of the surely read letters (three at
    least) and of the plain squares surely read empty; None where either is missing or they lie
    under BORDER_APART apart."""
    ring = an.ring_lab
    letters = _sure_letters(labels, kinds, conf)
    empty = PLAIN & (kinds == "empty") & (conf >= 0.9)
    if letters.sum() < 3 or empty.sum() < 3:
        return None
    tile_ring, empty_ring = np.median(ring[letters], axis=0), np.median(ring[empty], axis=0)
    if np.linalg.norm(tile_ring - empty_ring) < BORDER_APART:
        return None
    return tile_ring, empty_ring


def _blanks_by_border(an: Analysis, face: np.ndarray, fresh: np.ndarray, labels, conf: np.ndarray,
                      kinds: np.ndarray) -> list[tuple[int, int]]:
    """Plain squares read empty that are blank tiles of a face of their own (a deluxe set's white
    blanks among maroon letter tiles, on a cream board): the square model, which learnt blanks
    with their set's face, sees no letter and no tile colour there.  Their border is the tiles'
    own, though -- the tile's sides round the face.  So: where the letter tiles' border colour
    lies BORDER_APART or more from the empty squares' (:func:`_border_rings`), a plain square read
    empty whose border lies within BORDER_NEAR of the tiles' and BORDER_APART from the empty
    squares', each of its four sides within 2 BORDER_NEAR of the tiles' (dark tiles sitting off
    their squares darken an empty square's border on the sides they lean over: 2 of 240 tuning
    boards), and whose face is BORDER_FACE or more from theirs, is a tile with no letter."""
    rings = _border_rings(an, labels, conf, kinds)
    if rings is None:
        return []
    tile_ring, empty_ring = rings
    ring = an.ring_lab
    empty = PLAIN & (kinds == "empty") & (conf >= 0.9)
    empty_face = np.median(face[empty], axis=0)
    cand = (fresh & PLAIN & (kinds == "empty") & (np.linalg.norm(ring - tile_ring, axis=2) < BORDER_NEAR)
            & (np.linalg.norm(ring - empty_ring, axis=2) >= BORDER_APART)
            & (np.linalg.norm(face - empty_face, axis=2) >= BORDER_FACE))
    out = []
    for r, c in zip(*np.nonzero(cand)):
        cell = _cells(an.small_lab, SMALL)[r, c]
        sides = np.stack([cell[0].mean(axis=0), cell[-1].mean(axis=0), cell[:, 0].mean(axis=0), cell[:, -1].mean(axis=0)])
        if np.linalg.norm(sides - tile_ring, axis=1).max() < 2 * BORDER_NEAR:
            out.append((r, c))
    return out


def _emptied_with_a_tiles_border(an: Analysis, looked_empty: set, labels, conf: np.ndarray,
                                 kinds: np.ndarray) -> list[tuple[int, int]]:
    """Squares the second look called empty against the first look's doubt (``looked_empty``),
    shown empty, whose border is nearer the surely read letters' border than the sure empty
    squares' (the two BORDER_APART apart, :func:`_border_rings`): a blank with a face of its own,
    which the second look -- trained on renders whose blanks wear their set's face -- takes for
    the board (the real quanyuan deluxe set's white blanks among maroon tiles).  Asked about,
    not shown as blanks: the border alone is not that sure."""
    shown_empty = [rc for rc in looked_empty if labels[rc[0]][rc[1]] == EMPTY]
    if not shown_empty:
        return []
    rings = _border_rings(an, labels, conf, kinds)
    if rings is None:
        return []
    tile_ring, empty_ring = rings
    ring = an.ring_lab
    # only asked about, not shown as a blank: a border nearer the tiles' than the empty squares'
    return [rc for rc in shown_empty if np.linalg.norm(ring[rc] - tile_ring) < np.linalg.norm(ring[rc] - empty_ring)]


def _plain(squares: list[tuple[int, int]]) -> np.ndarray:
    """Which of ``squares`` are plain (no premium print)."""
    return np.array([PLAIN[rc] for rc in squares], bool)


def _sure_plain_letters(squares: list[tuple[int, int]], P: np.ndarray) -> int:
    """How many of ``squares`` (letter probabilities ``P``, the set's letters, ROT, NONE) are plain
    squares holding a letter (0.5 or more) read surely (0.9 or more): :data:`LOW_CUT`'s count."""
    return int(((P[:, :-2].sum(axis=1) >= 0.5) & (P[:, :-2].max(axis=1) >= 0.9) & _plain(squares)).sum())


def _new_ink(peak: np.ndarray, ref_peak: np.ndarray) -> np.ndarray:
    """(15, 15) squares whose ink is not the empty board's: NEW_INK stronger than the reference's
    own ink there, and half as strong again.  Such a square is read, however closely it passes for
    its empty square in the grey as a whole (:meth:`BoardReader._same_as_reference`): a narrow
    face's I or L is a thin stroke, and on a picture much lighter than its reference (tiles and
    board both washed white) the mean grey difference stays under the noise allowed -- tuning
    seed 47000, fonts never seen with a reference, four such letters shown as empty squares at
    0.99 (ink 66-82, the reference's 3-4)."""
    return (peak - ref_peak >= NEW_INK) & (peak >= 1.5 * ref_peak)


def _sure_empty_median(values: np.ndarray, sel: np.ndarray, kinds: np.ndarray, conf: np.ndarray):
    """The median of ``values`` over the squares of ``sel`` surely read empty (kind "empty",
    confidence 0.9 or more), or None when fewer than two are."""
    empty = sel & (kinds == "empty") & (conf >= 0.9)
    return np.median(values[empty], axis=0) if empty.sum() >= 2 else None


def _partly_under_a_hand(an: Analysis, piece: np.ndarray, tile_lab: np.ndarray, labels,
                         conf: np.ndarray) -> list[tuple[int, int]]:
    """Squares showing a letter under HAND_SHARE_SURE beside ``piece`` (a hand: covered squares
    together) that show the hand's colour -- the median colour of the piece's squares among
    their eight neighbours -- on HAND_SHARE or more of their pixels and on HAND_EDGE_SHARE or
    more of the strip along a side the piece touches (:func:`_like`: within HAND_NEAR of it and
    nearer it than ``tile_lab``, the tiles' face, and than the square's own face): the hand
    covers part of the letter, and what is left of it can read as another letter (a B's top
    as R)."""
    out = []
    cand = _beside(piece)
    if not cand.any():
        return out
    px = _cells(an.small_lab, SMALL)
    for r, c in zip(*np.nonzero(cand)):
        if labels[r][c] in (EMPTY, BLANK, COVERED) or conf[r, c] >= HAND_SHARE_SURE:
            continue
        hand = np.median(np.concatenate([px[x].reshape(-1, 3) for x in _piece_round(piece, r, c)]), axis=0)
        # nearer the hand than the tiles' face and than this square's own (the tiles' colour
        # is learnt from many squares, ink and shadows in it: a light face can lie nearer a
        # hand of the board's colour than it); its own face is the median of the ring just
        # inside the grid line, clear of the letter, of which a hand coming over one side
        # covers less than half
        own = px[r, c]
        ring = np.concatenate([own[1, 1:-1], own[-2, 1:-1], own[2:-2, 1], own[2:-2, -2]])
        like_hand = _like(own, hand, tile_lab, np.median(ring, axis=0))   # (SMALL, SMALL) bool
        if like_hand.mean() < HAND_SHARE:
            continue
        # the strip one pixel in from each side a piece of the hand touches (the outer pixel
        # is the grid line or the gap between tiles)
        edges = [like_hand[1:3, :] if dr < 0 else like_hand[-3:-1, :] if dr > 0 else
                 like_hand[:, 1:3] if dc < 0 else like_hand[:, -3:-1]
                 for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                 if 0 <= r + dr < GRID and 0 <= c + dc < GRID and piece[r + dr, c + dc]]
        if max(float(e.mean()) for e in edges) >= HAND_EDGE_SHARE:
            out.append((int(r), int(c)))
    return out


def _piece_round(piece: np.ndarray, r: int, c: int) -> list[tuple[int, int]]:
    """The squares of ``piece`` among the eight round (r, c): where a hand beside it takes its colour
    from."""
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < GRID and 0 <= c + dc < GRID and piece[r + dr, c + dc]]


def _hand_runs_in(an: Analysis, piece: np.ndarray, tile_lab: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(runs, apart, touches), each (15, 15), for the squares beside ``piece`` (a hand: covered
    squares together), zero elsewhere.  ``runs``: the largest share, over the sides the piece touches, of
    the places along that side where the square's strip HAND_RUN_STRIP px in matches the piece
    square's strip 2-5 px in across the line (within HAND_RUN_NEAR Lab, the mean of each strip's
    few pixels at that place) and that piece strip is nearer the hand's colour than ``tile_lab``,
    the tiles' face: the hand goes on over the line into the square.  ``touches``: the same
    share within HAND_CLEAR_NEAR Lab, the looser match by which a hand is clear of the square
    (under HAND_CLEAR on every side).  ``apart``: how far the hand's colour -- the median of the
    middles of the piece's squares among the square's eight neighbours -- lies from the tiles'
    face (a hand of the tiles' colour matches any tile)."""
    runs = np.zeros((GRID, GRID), np.float32)
    apart = np.zeros((GRID, GRID), np.float32)
    touches = np.zeros((GRID, GRID), np.float32)
    cand = _beside(piece)
    if not cand.any():
        return runs, apart, touches
    lo, hi = HAND_RUN_STRIP
    q = CELL // 4                  # a square's middle, for the hand's colour: clear of its edges
    labs: dict[tuple[int, int], np.ndarray] = {}

    def lab_of(r: int, c: int) -> np.ndarray:
        if (r, c) not in labs:
            block = an.rect[r * CELL:(r + 1) * CELL, c * CELL:(c + 1) * CELL]
            labs[r, c] = cv2.cvtColor(np.ascontiguousarray(block), cv2.COLOR_BGR2LAB).astype(np.float32)
        return labs[r, c]

    def strip(a: np.ndarray, dr: int, dc: int, first: int, stop: int) -> np.ndarray:
        """(CELL, 3): the mean of the pixels first..stop-1 in from the side facing (dr, dc), place by
        place along it."""
        if dr:
            return (a[first:stop] if dr < 0 else a[CELL - stop:CELL - first]).mean(axis=0)
        return (a[:, first:stop] if dc < 0 else a[:, CELL - stop:CELL - first]).mean(axis=1)

    for r, c in zip(*np.nonzero(cand)):
        r, c = int(r), int(c)
        hand = np.median(np.concatenate([lab_of(*x)[q:CELL - q, q:CELL - q].reshape(-1, 3)
                                         for x in _piece_round(piece, r, c)]), axis=0)
        apart[r, c] = float(np.linalg.norm(hand - tile_lab))
        own = lab_of(r, c)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if not (0 <= r + dr < GRID and 0 <= c + dc < GRID and piece[r + dr, c + dc]):
                continue
            mine = strip(own, dr, dc, lo, hi)
            theirs = strip(lab_of(r + dr, c + dc), -dr, -dc, 2, 6)
            handish = np.linalg.norm(theirs - hand, axis=1) < np.linalg.norm(theirs - tile_lab, axis=1)
            d = np.linalg.norm(mine - theirs, axis=1)
            runs[r, c] = max(runs[r, c], float(((d < HAND_RUN_NEAR) & handish).mean()))
            touches[r, c] = max(touches[r, c], float(((d < HAND_CLEAR_NEAR) & handish).mean()))
    return runs, apart, touches


def _like(pixels: np.ndarray, colour: np.ndarray, *others: np.ndarray) -> np.ndarray:
    """Which of ``pixels`` (Lab, (..., 3)) are within HAND_NEAR of ``colour`` and nearer it
    than every one of ``others``."""
    to_colour = np.linalg.norm(pixels - colour, axis=-1)
    out = to_colour < HAND_NEAR
    for other in others:
        out &= to_colour < np.linalg.norm(pixels - other, axis=-1)
    return out


def _beside(mask: np.ndarray) -> np.ndarray:
    """(15, 15): squares not in ``mask`` with one of their four neighbours in it."""
    m = np.pad(mask, 1)
    return (m[:-2, 1:-1] | m[2:, 1:-1] | m[1:-1, :-2] | m[1:-1, 2:]) & ~mask


def _between_covered(kinds: np.ndarray) -> np.ndarray:
    """(15, 15): squares with HAND_NEIGHBOURS or more covered neighbours (of four).  A hand is one
    piece, so an empty-looking square held between covered ones is under it too; counted once
    from the covered squares as read, so that a hand's diagonal edge does not spread."""
    hand = np.pad(kinds == "covered", 1)
    around = hand[:-2, 1:-1].astype(int) + hand[2:, 1:-1] + hand[1:-1, :-2] + hand[1:-1, 2:]
    return around >= HAND_NEIGHBOURS


def _gain_field(cur: np.ndarray, ref: np.ndarray, cur_lab: np.ndarray | None = None,
                ref_lab: np.ndarray | None = None) -> np.ndarray:
    """Per-square, per-channel light change (cur / ref): a robust plane over the board.

    Empty squares all share the light change (whatever their colour), tiles give a ratio that
    depends on the square under them: the seed is the densest cluster of per-square colour
    ratios, then a plane per channel is fitted to the squares that agree with it.  So a
    crowded board or a new colour cast does not fool the fit.
    """
    ratio = np.log((cur + 4) / (ref + 4))                  # (15,15,3)
    flat = ratio.reshape(-1, 3)
    d = np.abs(flat[:, None, :] - flat[None, :, :]).max(axis=2)
    near = d < 0.08
    seed = int(np.argmax(near.sum(axis=1)))
    base = d[seed] < 0.15
    yy, xx = np.mgrid[0:GRID, 0:GRID].astype(np.float32) / GRID - 0.5
    A = np.stack([np.ones(GRID * GRID), xx.ravel(), yy.ravel()], axis=1)
    out = np.empty_like(ratio)
    keep_all = base.copy()
    coefs = []
    for ch in range(3):
        y = flat[:, ch]
        coef = np.array([np.median(y[base]), 0.0, 0.0])
        if base.sum() >= 10:
            coef, *_ = np.linalg.lstsq(A[base], y[base], rcond=None)
        coefs.append(coef)
    # grow: every square close to the plane in all channels, then refit
    res = np.abs(flat - np.stack([A @ c for c in coefs], axis=1)).max(axis=1)
    keep_all = res < 0.1
    for ch in range(3):
        coef = coefs[ch]
        if keep_all.sum() >= 10:
            coef, *_ = np.linalg.lstsq(A[keep_all], flat[keep_all, ch], rcond=None)
        out[:, :, ch] = (A @ coef).reshape(GRID, GRID)
    return np.exp(out)


@dataclass(frozen=True)
class FocusSeen:
    """A picture whose focus was measured (:func:`blur_width`): its squares' middles, its
    sharpness and the blur found, so that the next pictures of the same still board need not be
    measured again (:func:`_focus_still`)."""

    mid_gray: np.ndarray
    sharpness: float
    blur: float


# A tracked board's next picture keeps the focus measured on an earlier one when it is the same
# picture: no square's middle moved by FOCUS_SAME_SQUARE grey levels on average (the reader's own
# "unchanged square"), and it is at least FOCUS_SAME_SHARP as sharp.  Rendered boards under a
# further blur (8 boards, both cameras): a blur of 0.5 px lowers the sharpness to 0.78-0.91 and
# widens the edges by 0.03-0.08 px; from 0.8 px a square's middle moves by 2.8 grey levels or more
# and the sharpness falls to 0.49-0.76.  So a picture let through so is at most ~0.1 px blurrier
# than the one measured, and only one measured FOCUS_MARGIN inside the limit is kept.
FOCUS_SAME_SQUARE = 2.5
FOCUS_SAME_SHARP = 0.85
FOCUS_MARGIN = 0.25


def _focus_still(an: Analysis, seen: FocusSeen | None) -> bool:
    """True when ``an`` shows the board ``seen`` was measured on, unchanged and as sharp (see
    FOCUS_SAME_SQUARE): its focus is the one measured then."""
    if seen is None or seen.blur > FOCUS_LIMIT - FOCUS_MARGIN or an.mid_gray.shape != seen.mid_gray.shape:
        return False
    if an.sharpness < FOCUS_SAME_SHARP * seen.sharpness:
        return False
    return bool((np.abs(an.mid_gray - seen.mid_gray).mean(axis=(2, 3)) < FOCUS_SAME_SQUARE).all())


def _check_picture(an: Analysis, seen: FocusSeen | None = None) -> FocusSeen | None:
    """Refuse boards nobody could read: too dark, washed out, blurred, smeared or out of focus.

    ``seen``: the last picture of this board whose focus was measured; when ``an`` is that
    picture again (:func:`_focus_still`) the focus is not measured again.  Returns the picture
    whose focus now stands: ``seen`` or ``an`` measured (None where it has too few edges)."""
    # how light the picture is, however the letters' grey picture is made
    g = an.gray if an.grey is None else cv2.cvtColor(an.small_bgr, cv2.COLOR_BGR2GRAY)
    hi, lo = percentiles_u8(g, (95, 5))
    if hi < 40:
        raise VisionError(f"The board is too dark to read (brightest parts at {hi:.0f}/255); "
                          "add light or open the camera's exposure.", "dark")
    if lo > 245:
        raise VisionError("The board picture is washed out (almost all white); lower the exposure.", "bright")
    sharp = an.sharpness
    if sharp < BLUR_LIMIT:
        raise VisionError(f"The board picture is too blurred to read (sharpness {sharp:.0f}, needs {BLUR_LIMIT:.0f}); "
                          "hold the camera still and focus on the board.", "blurred")
    smear = smear_ratio(an.half)
    if smear < SMEAR_LIMIT:
        raise VisionError(f"The board picture is smeared: the camera or the board moved while it was taken "
                          f"(edges across the smear {smear:.2f} as strong as along it, needs {SMEAR_LIMIT:.2f}); "
                          "hold the camera still and take it again.", "smeared")
    if _focus_still(an, seen):
        return seen
    blur = blur_width(an.gray)
    if blur > FOCUS_LIMIT:
        raise VisionError(f"The board picture is out of focus (its edges blurred over {blur:.1f} px of a square's "
                          f"{CELL}, at most {FOCUS_LIMIT:.1f} can be read); focus the camera on the board "
                          "(on a phone or tablet, tap the board on the screen) and take it again.", "out-of-focus")
    return FocusSeen(an.mid_gray, an.sharpness, blur) if blur > 0 else None


BLUR_LIMIT = 25.0   # Laplacian variance of the 20 px/square grey picture (sharp boards: 250-5000)
# A board's grid, premium print and letters have edges every way, so the weaker of the picture's
# two principal edge strengths (smear_ratio) is over half the stronger on a still picture; a
# shake smears every edge across its direction.  Real photos a phone shook: 0.33 (a motion blur
# of about a third of a square, letters read as blank tiles) and 0.37 (an S read empty, a B read
# H); still ones 0.53-1.00 (jheidel, quanyuan); rendered boards down to 0.48 of 1,350 pictures
# (heavy tilt and a soft camera: the rectified far rows are stretched one way).
SMEAR_LIMIT = 0.42


# Out of focus: a blur the same every way passes the smear check, and the sharpness check passes
# a crowded board blurred past reading (its many letters' edges keep the Laplacian up).  What
# tells is how wide the edges themselves are (blur_width, px at CELL px a square): rendered boards
# 0.6-1.3 (450 boards of the benchmark's cameras), real photos 0.6-1.6 (jheidel, quanyuan); the
# same rendered boards under a further Gaussian blur read wrong squares from about 1.5 and many
# from 2 (224 pictures: 66 wrong squares on the 159 read up to 2.0, 212 on the 50 over it).
# The limit was 2.0 until the twentieth session of 2026-12-05; between 1.7 and 2.0 a picture reads
# badly all the same (tuning seeds 21000/21100, 61 such pictures: 88.5 % of tiles right, 10 % '#',
# 35 wrong squares shown as fact, against 97 % and 11 on the 80 pictures at 1.5-1.7), while no
# board as rendered (540 of every camera and frame size, highest 1.63) nor real photo (406,
# highest 1.57) comes near it: refused, the players told to focus, rather than read with a wrong
# square every other picture.
FOCUS_LIMIT = 1.7
FOCUS_REBLUR = 1.5    # px: the known blur added to see how much flatter the edges get


def blur_width(gray: np.ndarray) -> float:
    """How blurred ``gray`` is: the standard deviation, in pixels, of the Gaussian blur its
    strongest edges show (median over the gradient's local peaks).  Blurring a step edge of blur
    s further by b lowers its gradient peak by r = s / sqrt(s^2 + b^2), whatever its contrast,
    so s = b r / sqrt(1 - r^2) (re-blur estimate).  0 where the picture has too few edges to
    tell (the sharpness check refuses such a picture).

    Measured with OpenCV's IPP off (a thread-local switch, set back after): IPP's float Sobel and
    Gaussian are not bit-stable -- one picture measured 1.77671 or 1.77498 in one process,
    depending on what it had done before, and a rendered picture at the focus limit was read on
    one run and refused on the next (the thirty-third session of 2026-12-06).  Without it the
    same number every time, for ~0.25 ms more a measure."""
    g = gray.astype(np.float32)
    ipp = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(False)
    try:
        return _blur_width(g)
    finally:
        cv2.ipp.setUseIPP(ipp)


def _blur_width(g: np.ndarray) -> float:
    """:func:`blur_width` of a float32 grey picture."""

    def gradient(x):
        return cv2.magnitude(cv2.Sobel(x, cv2.CV_32F, 1, 0), cv2.Sobel(x, cv2.CV_32F, 0, 1))

    m0 = gradient(g)
    # edges worth measuring: local peaks of the gradient, at least 0.3 of the strongest (99.5th
    # percentile: a few glints aside) and 40 (Sobel units: a 10-level step) however faint the picture
    floor = max(40.0, 0.3 * percentile_linear(m0[::4, ::4], 99.5))
    peaks = np.flatnonzero((m0 > floor) & (m0 >= cv2.dilate(m0, np.ones((3, 3), np.uint8))))
    if len(peaks) < 50:
        return 0.0
    m1 = gradient(cv2.GaussianBlur(g, (0, 0), FOCUS_REBLUR))
    r = np.clip(m1.ravel()[peaks] / m0.ravel()[peaks], 0.01, 0.99)
    return float(np.median(FOCUS_REBLUR * r / np.sqrt(1 - r * r)))


def smear_ratio(gray: np.ndarray) -> float:
    """The weaker principal edge strength of ``gray`` over the stronger (eigenvalues of the
    mean gradient structure tensor): 1 when edges run every way alike, near 0 when the picture
    is smeared in one direction (motion blur)."""
    g = gray.astype(np.float32)
    gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1)
    a, b, c = float((gx * gx).mean()), float((gy * gy).mean()), float((gx * gy).mean())
    half_trace, root = (a + b) / 2, np.sqrt(max(((a - b) / 2) ** 2 + c * c, 0.0))
    strong = half_trace + root
    return (half_trace - root) / strong if strong > 0 else 1.0


# --------------------------------------------------------------------------- one-shot API


def read_board(rect: np.ndarray, letters: str, reference: np.ndarray | None = None, profile=None,
               orient: bool = True, **kw) -> BoardReading:
    """Read a rectified board once (a fresh :class:`BoardReader`)."""
    return BoardReader(letters, reference, profile, **kw).read(rect, orient=orient)


def orient(rect: np.ndarray, letters: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", model: L.LetterModel | None = None) -> int:
    """Quarter turns k such that ``apply_orientation(rect, k)`` reads upright (0 when it cannot tell).
    A mirrored picture has no such turn: :class:`BoardReader` finds it."""
    rd = BoardReader(letters, model=model)
    an = Analysis(rect)
    pol = rd.decide_polarity(an)
    sc = rd.orientation_scores(an, pol)
    return int(np.argmax(sc)) if sc.max() > sc[0] + 1.0 else 0


def apply_orientation(rect: np.ndarray, k: int) -> np.ndarray:
    return turn_rectified(rect, k)


# --------------------------------------------------------------------------- stabiliser


class Stabiliser:
    """Releases a reading only when the picture is still and every square agrees.

    Feed it rectified frames (:meth:`feed`, it reads them with ``reader``) or readings you
    made yourself with the frame they came from (:meth:`feed_reading`).  It returns ``None``
    until the last ``frames`` frames were all still (mean grey change under ``motion``) and
    gave the same label on every square -- and, with ``require_clear``, no square is '#'.
    ``status`` says why nothing was released ("moving", "settling", "covered", "unreadable"
    -- then ``error`` holds the VisionError --, or "stable").
    A released reading is returned once; :attr:`last` keeps it.
    """

    def __init__(self, reader: BoardReader | None = None, frames: int = 4, motion: float = 3.0,
                 require_clear: bool = True):
        if frames < 1:
            raise ValueError("frames must be at least 1")
        self.reader = reader
        self.frames = frames
        self.motion = motion
        self.require_clear = require_clear
        self.history: list[BoardReading] = []
        self._small: np.ndarray | None = None
        self.status = "settling"
        self.error: VisionError | None = None
        self.last: BoardReading | None = None

    def feed(self, rect: np.ndarray) -> BoardReading | None:
        if self.reader is None:
            raise ValueError("Stabiliser.feed needs a reader; use feed_reading")
        if self._moving(rect):
            return None
        try:
            reading = self.reader.read(rect)
        except VisionError as e:          # too dark, blurred...: nothing to agree on
            self.history.clear()
            self.status, self.error = "unreadable", e
            return None
        return self._add(reading)

    def feed_reading(self, reading: BoardReading, rect: np.ndarray | None = None) -> BoardReading | None:
        if rect is not None and self._moving(rect):
            return None
        return self._add(reading)

    def _moving(self, rect: np.ndarray) -> bool:
        small = cv2.resize(cv2.cvtColor(as_board(split_surround(rect)[0]), cv2.COLOR_BGR2GRAY), (75, 75),
                           interpolation=cv2.INTER_AREA).astype(np.float32)
        prev, self._small = self._small, small
        if prev is not None and float(np.abs(small - prev).mean()) > self.motion:
            self.history.clear()
            self.status = "moving"
            return True
        return False

    def _add(self, reading: BoardReading) -> BoardReading | None:
        self.history.append(reading)
        if len(self.history) > self.frames:
            self.history.pop(0)
        if len(self.history) < self.frames or any(h.labels != reading.labels for h in self.history):
            self.status = "settling"
            return None
        if self.require_clear and reading.covered:
            self.status = "covered"
            return None
        if self.last is not None and self.last.labels == reading.labels:
            self.status = "stable"
            return None
        conf = np.min(np.stack([h.confidence for h in self.history]), axis=0)
        out = BoardReading(list(reading.labels), conf, list(reading.guesses), reading.kinds,
                           reading.orientation, reading.polarity, reading.ms,
                           {"frames": self.frames, "blur_px": reading.details.get("blur_px")},
                           reading.mirrored, reading.maybe_blank, reading.glared)
        self.last = out
        self.status = "stable"
        return out


# --------------------------------------------------------------------------- CLI functions


def _load(path) -> np.ndarray:
    from vision.frames import load_image

    return load_image(path)


def rectify_board(image: np.ndarray, corners) -> np.ndarray:
    """The grid (TL TR BR BL corners in ``image``) warped to CELL px a square with MARGIN px of
    the photo round it: what :meth:`BoardReader.read` reads best."""
    from vision.geometry import rectify

    return rectify(image, np.asarray(corners, np.float64).reshape(4, 2), CELL, margin_cells=MARGIN / CELL)


def grid_corners(image: np.ndarray, name: str = "picture", corners=None) -> np.ndarray:
    """The grid's corners (TL TR BR BL) in a photo: ``corners`` as given, or found."""
    if corners is not None:
        return np.asarray(corners, np.float64)
    try:
        from vision.locate import locate_board
    except ImportError as e:  # pragma: no cover
        raise VisionError("The board locator is not available.", "no-board") from e
    return locate_board(image, name).corners


def rectify_photo(image: np.ndarray, name: str = "picture", corners=None) -> np.ndarray:
    """Find the board in a photo (or use ``corners``: TL TR BR BL grid corners) and rectify it
    as :func:`rectify_board` does (the grid and MARGIN px round it)."""
    return rectify_board(image, grid_corners(image, name, corners))


#: A board whose squares are smaller than this in the photo (px: the grid's mean side / 15; for one
#: square, its side along the direction the view shrinks it most, ``geometry.square_sizes``) is
#: read less well: its letters are a few pixels high before they are straightened, and blur,
#: noise and JPEG take more of them.  Measured (``bench_read.py --only sizes``, report seed, cold,
#: values read): frames of 1280x720 (squares 29-33 px median) read as 1920x1080 ones do; frames
#: of 640x480 (22-25 px), hand-held, 0.7 % of tiles unread and 0.2 % wrong against 0.3 % and
#: 0.05 % at 720p.  By square size (120 boards of 640x480, both cameras, tuning seed 900): tiles
#: unread 1.4 % at 21-24 px, 0.8 % at 24-27, 0.25 % at 27-30 (the 1920x1080 report rows: 0.1-0.7 %).
#: Where squares that small leave squares unread, the players are told why.
SMALL_SQUARE_PX = 27.0


#: A picture whose edges are this blurred or more (``blur_width``, px of a 40 px square) leaves
#: more tiles unread, well before the focus limit refuses it: rendered boards under a further blur
#: (480 pictures of 80 boards, tuning seeds 17000/17100), tiles shown `#` 0.2 % under 1.0 px,
#: 0.5 % at 1.0-1.3, 2.4 % at 1.3-1.5, 4.5 % at 1.5-1.7, 9 % from 1.7 (wrong 0.07 -> 0.8 %).
BLUR_HINT_PX = 1.3


def blurred_note(blur_px: float | None) -> str:
    """What to tell the players when the picture is blurred enough to leave tiles unread (its
    edges :data:`BLUR_HINT_PX` wide or more); '' otherwise (or when not measured)."""
    if not blur_px or blur_px < BLUR_HINT_PX:
        return ""
    return (f"the picture is a little out of focus, its edges {blur_px:.1f} px wide: hold the camera still and "
            "let it focus on the board")


def glare_note(squares) -> str:
    """What to tell the players about ``squares`` (the reading's) left unread because light washes
    them out (:attr:`BoardReading.glared`): a photo retaken from the same place under the same lamp
    would be washed out again.  '' for none."""
    squares = sorted(squares)
    if not squares:
        return ""
    return f"light washes out {', '.join(_square_name(rc) for rc in squares)}: move the lamp or the camera a little"


def small_board_note(square_px: float | None) -> str:
    """What to tell the players when the board's squares are small in the picture (under
    :data:`SMALL_SQUARE_PX`); '' otherwise (or when the size is not known)."""
    if not square_px or square_px >= SMALL_SQUARE_PX:
        return ""
    return (f"the board is small in the picture: {int(square_px)} px a square, letters read best from "
            f"{SMALL_SQUARE_PX:.0f}; move the camera closer or set it to a higher resolution")


def read_image(image: np.ndarray, letters: str, reference: np.ndarray | None = None, corners=None,
               reference_corners=None, profile=None, name: str = "picture",
               values: dict[str, int] | None = None) -> BoardReading:
    """Locate, rectify, orient and read one photo (``reference``: photo of the empty board;
    ``values``: the tile set's point values, see :class:`BoardReader`).  The reading's
    ``details["square_px"]`` is each square's size in the photo (15 x 15, the reading's squares:
    :func:`vision.geometry.square_sizes` turned as the board was read)."""
    found = grid_corners(image, name, corners)
    ref = None
    if reference is not None:
        ref = rectify_photo(reference, "reference picture", reference_corners if reference_corners is not None
                            else corners)
    reading = BoardReader(letters, ref, profile, values=values).read(rectify_board(image, found))
    from vision.change import as_read          # (vision.change reads squares with this module)

    reading.details["square_px"] = as_read(square_sizes(found), reading.orientation, reading.mirrored)
    return reading


def read_main(image_path, tileset_letters: str, reference=None, out: TextIO = sys.stdout, *,
              corners=None, profile=None, confidences: bool = False, values: dict[str, int] | None = None,
              board_profile=None) -> int:
    """CLI: print 15 lines of 15 characters (``.`` empty, letter, ``?`` blank, ``#`` unreadable).

    ``reference``: path of a photo of the empty board (same camera position).  ``board_profile``:
    the grid's corners kept for this camera (``companion vision corners``), instead of finding
    them.  Returns 0, or 1 with one ``ERROR: ...`` line when the picture cannot be read.
    """
    try:
        img = _load(image_path)
        if board_profile is not None and corners is None:
            from vision.locate import locate_from_profile
            corners = locate_from_profile(board_profile, img, str(image_path)).corners
        ref = _load(reference) if reference is not None else None
        prof = profile
        if isinstance(profile, (str, Path)):
            from calibration.set_profile import SetProfile
            prof = SetProfile.load(profile)
        reading = read_image(img, tileset_letters, ref, corners=corners, profile=prof, name=str(image_path),
                             values=values)
    except VisionError as e:
        print(f"ERROR: {e}", file=out)
        return 1
    if reading.mirrored:       # the photo and the 15 lines would look like mirror images: say why
        print(f"{image_path}: note: the picture is mirrored (a phone used as a webcam, a front camera); "
              "the board is read as it lies on the table", file=sys.stderr)
    if reading.covered:        # squares left unread: why, where it can be told, and what would help
        sizes = reading.details.get("square_px")
        for note in (small_board_note(None if sizes is None else min(sizes[rc] for rc in reading.covered)),
                     blurred_note(reading.details.get("blur_px")), glare_note(reading.glared)):
            if note:
                print(f"{image_path}: note: {note}", file=sys.stderr)
    for r, row in enumerate(reading.labels):
        if confidences:
            print(row + "  " + " ".join(f"{int(round(99 * v)):02d}" for v in reading.confidence[r]), file=out)
        else:
            print(row, file=out)
    return 0


def _square_name(rc: tuple[int, int]) -> str:
    """A square as players name it: column letter, row number (H8 the centre)."""
    return f"{chr(ord('A') + rc[1])}{rc[0] + 1}"


def _expand(paths: Iterable) -> list[Path]:
    from vision.frames import IMAGE_EXTENSIONS

    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in IMAGE_EXTENSIONS)
        else:
            out.append(p)
    return out


def classify_tile(crop: np.ndarray, letters: str, profile=None, model: L.LetterModel | None = None,
                  min_letter: float = MIN_LETTER, min_margin: float = MIN_MARGIN, values: dict | None = None,
                  value_model: L.LetterModel | None = None) -> tuple[str, float]:
    """One tile crop -> (label, confidence): a letter, '?' blank tile, '.' empty square,
    '#' not a tile or too unsure (a hand, a smudge).

    ``values`` (the set's point values, letter -> points): a letter under VALUE_CHECK is weighed
    by the value printed beside it, as the board reader weighs a square's (:func:`letter_by_value`):
    a Polish Ą's ogonek runs into the value printed beside it and the pair reads A, but its 5 is
    not the A's 1."""
    model = model or L.default_model()
    protos = getattr(profile, "prototypes", None)
    crop = L.at_most(crop, L.LONE_MAX_SIDE)           # a phone's photo of one tile: read at a crop's size
    gu = L.classify_lone_crop(crop, letters, model, protos, getattr(profile, "polarity", None))
    if values and gu.label not in ("", L.NONE, L.ROT):
        gu = _lone_letter_by_value(gu, letters, model, protos, values, value_model)
    if gu.label == "":
        # no ink: a blank tile or an empty square; colour alone cannot tell them apart
        tile = getattr(profile, "tile_lab", None)
        if tile is not None:
            lab = cv2.cvtColor(crop if crop.ndim == 3 else cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR),
                               cv2.COLOR_BGR2LAB).reshape(-1, 3).mean(axis=0)
            d = float(np.linalg.norm(lab - tile))
            return (BLANK, float(np.clip(1 - d / 40, 0, 1))) if d < 20 else (EMPTY, float(np.clip(d / 40, 0, 1)))
        # without the set's tile colour a lone crop cannot tell a blank from an empty square
        return COVERED, 0.5
    if gu.label == L.NONE:
        # ink that is no letter: the centre star, print, a hand's edge
        return EMPTY if _star_like(crop) else COVERED, gu.confidence
    if gu.label == L.ROT:
        return COVERED, gu.confidence
    if gu.confidence < min_letter:
        # shown only with a clear lead over the next letter (see MIN_MARGIN)
        others = [p for ch, p in gu.top[1:] if ch not in (L.ROT, L.NONE)]
        second = others[0] if others else (gu.top[-1][1] if len(gu.top) > 1 else 0.0)
        if gu.confidence - second < min_margin:
            return COVERED, gu.confidence
    return gu.label, gu.confidence


def _lone_letter_by_value(gu: L.LetterGuess, letters: str, model: L.LetterModel, protos, values: dict,
                          value_model: L.LetterModel | None) -> L.LetterGuess:
    """``gu`` (a lone crop's letter) weighed by the point value printed beside it where under
    VALUE_CHECK and a value is seen (the window cut where ``gu.cut`` says its glyph was found);
    its ``top`` the weighed letter and the runner-up's probability (which letter that is, the
    margin test in :func:`classify_tile` does not need).  Without a value model, ``gu``."""
    value_model = value_model or L.default_value_model()
    if value_model is None or gu.confidence >= VALUE_CHECK or gu.cut is None or gu.glyph is None:
        return gu
    gray, pol, board = gu.cut
    window = L.value_glyph_of(gray, pol, board=board, letter=gu.glyph)
    if window is None:
        return gu
    q = L.value_probabilities([window], value_model)[0]
    p, classes = L.glyph_probabilities([gu.glyph], letters, model, protos)
    # (twins are not decided by their values here, as the board reader decides them
    # (TWIN_EVEN): tried on the report's lone crops, eight Danish Å's of training fonts cut with
    # 15 or 30 % of board round the square read A, 100 / 99.0 -> 98.5 / 97.0 %, for one Polish
    # Ą more right)
    weighed = letter_by_value(p[0][:-2], classes[:-2], values, q)
    if weighed is None:
        return gu
    label, conf, second = weighed
    return L.LetterGuess(label, conf, gu.glyph, [(label, conf), ("", second)], gu.cut)


def _star_like(crop: np.ndarray) -> bool:
    """The centre star (or a similar printed mark) on a lone crop: the crop's ink, split from its
    face by Otsu, is one central blob about as wide as high with pointed arms (it fills 40-88 % of
    its convex hull: a binarised star has fat arms; a disc or a square fills more).  Asked only
    when the letter model has already said the ink is no letter."""
    gray = L.to_gray(crop)
    h, w = gray.shape
    _, m = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if L.guess_polarity(gray) > 0:
        m = 1 - m                                   # ink = 1
    n, lab, st, _ = cv2.connectedComponentsWithStats(m.astype(np.uint8), connectivity=8)
    if n <= 1:
        return False
    i = 1 + int(np.argmax(st[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh, area = st[i]
    if not (0.8 < bw / bh < 1.25 and bh > 0.35 * h and abs(x + bw / 2 - w / 2) < 0.2 * w
            and abs(y + bh / 2 - h / 2) < 0.2 * h):
        return False
    cs, _ = cv2.findContours((lab == i).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.contourArea(cv2.convexHull(np.vstack(cs)))
    return hull > 0 and 0.4 < area / hull < 0.88


def _shows_a_star(gray: np.ndarray) -> bool:
    """Whether a square's picture (no margin) shows a star: split by Otsu, the largest piece of
    one side or the other is centred, about as wide as high, 35-90 % of the square's height, and
    has STAR_ARMS or more deep notches between its arms (each at least 12 % of its size deep).
    Stricter than :func:`_star_like`, which a lone crop's letter model has already narrowed: on
    a board it is asked of a square read as a blank tile, whose edge and the strip of board
    beside a shifted tile are no star."""
    h, w = gray.shape
    _, m = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    for side in (m, 1 - m):
        n, lab, st, _ = cv2.connectedComponentsWithStats(side.astype(np.uint8), connectivity=8)
        if n <= 1:
            continue
        i = 1 + int(np.argmax(st[1:, cv2.CC_STAT_AREA]))
        x, y, bw, bh, _ = st[i]
        if not (0.8 < bw / bh < 1.25 and 0.35 * h < bh < 0.9 * h and abs(x + bw / 2 - w / 2) < 0.2 * w
                and abs(y + bh / 2 - h / 2) < 0.2 * h):
            continue
        cs, _ = cv2.findContours((lab == i).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        c = max(cs, key=cv2.contourArea)
        try:
            notches = cv2.convexityDefects(c, cv2.convexHull(c, returnPoints=False))
        except cv2.error:                 # a self-touching outline
            continue
        if notches is not None and (notches.reshape(-1, 4)[:, 3] / 256.0 >= 0.12 * max(bw, bh)).sum() >= STAR_ARMS:
            return True
    return False


def classify_main(paths, letters: str, out: TextIO = sys.stdout, *, profile=None, abstain: bool = False,
                  values: dict | None = None, as_is: bool = False, note: TextIO | None = None) -> int:
    """CLI: one line per tile crop: ``path<TAB>label<TAB>confidence`` (folders searched).
    ``values``: the tile set's point values, which weigh a letter in doubt (:func:`classify_tile`).

    The label is the most likely letter and the confidence says how likely (the caller decides
    what is sure enough: the board reader asks the players below 0.7 unless the letter leads the
    next by 0.5); ``#`` is ink that is not an upright letter (a hand, a turned tile) or, with
    ``abstain``, a letter the board reader would not show.  Unreadable files get
    ``path<TAB>ERROR<TAB>reason``; returns 1 if any file failed.

    The crops are taken to lie in one pose (:func:`letters.common_pose`: cut from one picture,
    or one camera's): where they read clearly surer turned or mirrored, every one is read so and
    ``note`` (the CLI's stderr) is told; ``as_is``: each read as it is."""
    files = _expand(paths)
    if not files:
        print("ERROR: no pictures found", file=out)
        return 1
    prof = profile
    if isinstance(profile, (str, Path)):
        from calibration.set_profile import SetProfile
        try:
            prof = SetProfile.load(profile)
        except VisionError as e:
            print(f"ERROR: {e}", file=out)
            return 1
    try:
        model = L.default_model()
        check_letters(letters, model, prof)
    except VisionError as e:
        print(f"ERROR: {e}", file=out)
        return 1
    # the pose voted on a sample of the files, each then loaded (again) as it is read: a folder of
    # thousands of photos is never held in memory at once
    pose = 0 if as_is else crops_pose(list(_loaded(_spread(files, L.POSE_SAMPLE))), letters, model, prof)
    if pose and note is not None:
        print(f"note: the letters in these crops lie {L.pose_words(pose)}; each is read turned back "
              "(--as-is reads them as they are)", file=note)
    rc = 0
    for f in files:
        try:
            img = L.at_most(_load(f), L.LONE_MAX_SIDE)
            img = L.in_pose(img, pose) if pose else img
            label, conf = (classify_tile(img, letters, prof, model, values=values) if abstain
                           else classify_tile(img, letters, prof, model, min_letter=0.0, min_margin=0.0, values=values))
            print(f"{f}\t{label}\t{conf:.2f}", file=out)
        except VisionError as e:
            print(f"{f}\tERROR\t{e}", file=out)
            rc = 1
    return rc


def _spread(items: list, most: int) -> list:
    """At most ``most`` of ``items``, spread evenly through the list (all of them if no more)."""
    step = max(1.0, len(items) / most)
    return [items[int(i * step)] for i in range(min(len(items), most))]


def _loaded(paths) -> Iterable[np.ndarray]:
    """The pictures of ``paths`` that can be read (the others are reported when read in turn)."""
    for p in paths:
        try:
            yield _load(p)
        except VisionError:
            continue


def crops_pose(crops: list[np.ndarray], letters: str, model: L.LetterModel | None = None, profile=None) -> int:
    """The pose (:func:`letters.in_pose`) crops handed over together lie in
    (:func:`letters.common_pose`), voted by at most POSE_SAMPLE of them spread through the list.
    Read as they are first: where they read so surely that no pose could lead
    (:func:`letters.no_pose_can_lead`: upright crops of letters alone), that is the answer, and the
    other seven poses (~40 ms a crop) are not read."""
    if len(crops) < L.POSE_MIN_CROPS:
        return 0
    model = model or L.default_model()
    voters = _spread(crops, L.POSE_SAMPLE)
    protos, pol = getattr(profile, "prototypes", None), getattr(profile, "polarity", None)
    read, sureness = [], []
    for c in voters:
        try:
            sureness.append(L.pose_sureness(c, letters, model, protos, pol, poses=(0,)))
            read.append(c)
        except VisionError:            # too small to read: no vote
            continue
    s = np.array(sureness).reshape(-1, L.POSES)
    if L.no_pose_can_lead(s[:, 0]):
        return 0
    model.start_fast_reader()
    for c, row in zip(read, s):
        row[1:] = L.pose_sureness(c, letters, model, protos, pol, poses=range(1, L.POSES))[1:]
    return L.common_pose(s)
