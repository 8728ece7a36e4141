"""Synthetic pictures of boards and tiles, for training the letter model and for benchmarks.

Everything is drawn from fonts installed by Debian packages (``fonts-dejavu-core``,
``fonts-dejavu-extra``, ``fonts-liberation``, ``fonts-freefont-ttf``, ``fonts-urw-base35``;
missing ones are skipped) with Pillow (a dependency of pytesseract), in many tile and board
styles, then photographed by a simulated camera: perspective, blur, glare, shading, noise,
JPEG.  Hands and arms can be drawn over the board.

Main entry points:

* :func:`random_scene` -> :class:`Scene`: a whole board with tiles (labels 15x15), hands, and
  a camera frame with the true grid corners.
* :func:`render_board` (top-down board picture) and :func:`photograph` (frame from it).
* :func:`font_paths` with the train / held-out / odd split used by the training script and
  the benchmark.

``labels`` use '.' for an empty square, an upper-case letter for a tile, '?' for a blank
tile.  ``covered`` marks squares hidden by a hand (fraction of the square hidden).
The premium-square pattern is drawn from ``vision.geometry.PREMIUM_LAYOUT`` (a picture only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import GRID, PREMIUM_LAYOUT

FONT_ROOT = "/usr/share/fonts"

# Fonts used for training.  Tile letters are nearly always a sans or a sturdy serif.
TRAIN_FONTS = [
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSansMono-Bold.ttf",
    "DejaVuSansMono.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerifCondensed-Bold.ttf",
    "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "LiberationSansNarrow-Bold.ttf",
    "LiberationSerif-Bold.ttf", "LiberationSerif-Regular.ttf", "LiberationMono-Bold.ttf",
    "NimbusSans-Regular.otf", "NimbusSans-Bold.otf", "NimbusSansNarrow-Bold.otf", "NimbusSansNarrow-Regular.otf",
    "NimbusRoman-Bold.otf", "URWGothic-Book.otf", "URWGothic-Demi.otf", "P052-Bold.otf", "P052-Roman.otf",
    "URWBookman-Light.otf", "C059-Roman.otf", "NimbusMonoPS-Bold.otf", "FreeMonoBold.ttf",
    # fonts-open-sans fonts-roboto-unhinted fonts-cantarell fonts-comfortaa fonts-lato fonts-quicksand
    # fonts-league-spartan fonts-jura fonts-oxygen
    "OpenSans-Bold.ttf", "OpenSans-Semibold.ttf", "OpenSans-CondBold.ttf", "OpenSans-BoldItalic.ttf",
    "Roboto-Medium.ttf", "Roboto-Bold.ttf", "RobotoCondensed-Bold.ttf", "Cantarell-Bold.otf",
    "Cantarell-Regular.otf", "Comfortaa-Bold.ttf", "Comfortaa-Regular.ttf", "Lato-Bold.ttf", "Lato-Black.ttf",
    "Lato-BoldItalic.ttf", "Quicksand-Bold.ttf", "LeagueSpartan-Bold.otf", "LeagueSpartan-SemiBold.otf",
    "Jura-Bold.otf", "Jura-Medium.otf", "Oxygen-Sans-Bold.ttf",
]
# Never used for training: the benchmark reports them separately ("fonts never seen").
HELDOUT_FONTS = ["FreeSans.ttf", "FreeSansBold.ttf", "FreeSerifBold.ttf", "C059-Bold.otf",
                 "URWBookman-Demi.otf", "DejaVuSansCondensed.ttf", "LiberationSansNarrow-Regular.ttf"]
# A deliberately odd face (calligraphic italic) for the per-set calibration test.
ODD_FONTS = ["Z003-MediumItalic.otf"]


def font_paths(role: str = "train") -> list[str]:
    """Installed font files for ``role`` in {"train", "heldout", "odd", "all", "basic"}.

    "basic" = the DejaVu faces of fonts-dejavu-core (present wherever the project runs).
    """
    names = {"train": TRAIN_FONTS, "heldout": HELDOUT_FONTS, "odd": ODD_FONTS,
             "all": TRAIN_FONTS + HELDOUT_FONTS,
             "basic": ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansMono-Bold.ttf"]}[role]
    index = _font_index()
    return [index[n] for n in names if n in index]


def missing_letters(font_path: str, letters: str) -> str:
    """The letters of ``letters`` the face at ``font_path`` has no glyph for.

    Pillow draws a missing letter as the face's "missing glyph" (a box, or nothing), which a
    training run would label as that letter: such a letter draws the same as a private-use
    character no face has, or draws no ink at all."""
    f = _font(font_path, 48)

    def drawn(ch: str):
        m = f.getmask(ch)
        return m.size, bytes(m)

    def inkless(ch: str) -> bool:
        left, _, right, _ = f.getbbox(ch)
        return right <= left

    box = {drawn("\ue000"), drawn("\U0010fffd")}
    return "".join(ch for ch in letters if drawn(ch) in box or inkless(ch))


def faces_lacking(font_paths_: list[str], letters: str) -> dict[str, str]:
    """File name -> the letters it lacks (:func:`missing_letters`), for the faces lacking any."""
    lacking = {Path(f).name: missing_letters(f, letters) for f in font_paths_}
    return {name: gap for name, gap in lacking.items() if gap}


@lru_cache(maxsize=1)
def _font_index() -> dict[str, str]:
    """File name -> path of every font under /usr/share/fonts."""
    out: dict[str, str] = {}
    root = Path(FONT_ROOT)
    if root.is_dir():
        for p in sorted(root.rglob("*")):
            if p.suffix.lower() in (".ttf", ".otf") and p.name not in out:
                out[p.name] = str(p)
    return out


@lru_cache(maxsize=512)
def _font(path: str, size: int):
    from PIL import ImageFont
    return ImageFont.truetype(path, size)


# --------------------------------------------------------------------------- styles


@dataclass
class TileStyle:
    face: tuple[int, int, int]            # BGR
    ink: tuple[int, int, int]             # BGR
    font: str
    letter_size: float = 0.62             # cap height / tile side
    letter_dx: float = 0.0                # letter centre offset (tile sides)
    letter_dy: float = 0.0
    value_size: float = 0.22              # digit height / tile side (0 = no value printed)
    value_pos: tuple[float, float] = (0.8, 0.8)
    value_font: str | None = None
    radius: float = 0.08                  # corner radius / tile side
    bevel: float = 0.5                    # 0..1 strength of the lit/shaded edges
    grain: float = 0.0                    # 0..1 wood grain
    scale: float = 0.93                   # tile side / square side
    gloss: float = 0.0                    # 0..1 chance-weighted specular strength (plastic)
    # a blank's face of its own (deluxe sets: a white face inside a maroon tile's border): its BGR
    # inside a border of ``face`` this wide (a share of the tile's side); None: a plain blank
    blank_face: tuple[int, int, int] | None = None
    blank_border: float = 0.12


@dataclass
class BoardStyle:
    square: tuple[int, int, int]
    line: tuple[int, int, int]
    line_w: float                          # line width / square side
    premium: dict                          # 'T','D','t','d' -> BGR
    text: bool                             # premium squares carry small print
    text_ink: tuple[int, int, int]
    star: bool
    frame: tuple[int, int, int]
    layout: tuple[str, ...] = PREMIUM_LAYOUT
    texts: dict = field(default_factory=dict)


def _bgr(rgb):
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _jitter(rng, rgb, amount=18):
    return tuple(int(np.clip(v + rng.normal(0, amount), 0, 255)) for v in rgb)


def _lum(bgr):
    b, g, r = bgr
    return 0.114 * b + 0.587 * g + 0.299 * r


# (face RGB, ink RGB, weight, grain, gloss)
_TILE_PALETTES = [
    ((232, 208, 160), (20, 15, 10), 4, 0.7, 0.0),      # classic maple
    ((214, 170, 115), (25, 15, 10), 2, 0.9, 0.0),      # darker wood
    ((170, 95, 60), (20, 10, 5), 2, 0.8, 0.0),         # vintage reddish-brown wood
    ((242, 236, 220), (10, 10, 10), 3, 0.0, 0.6),      # ivory plastic
    ((250, 250, 248), (20, 20, 90), 1, 0.0, 0.6),      # white, blue ink
    ((250, 250, 245), (170, 20, 25), 1, 0.0, 0.6),     # white, red ink
    ((115, 25, 35), (245, 240, 225), 2, 0.0, 0.5),     # deluxe maroon, white ink
    ((25, 25, 28), (245, 245, 240), 1, 0.0, 0.6),      # black, white ink
    ((240, 200, 40), (15, 15, 15), 1, 0.0, 0.5),       # yellow plastic
    ((30, 70, 140), (250, 250, 250), 1, 0.0, 0.5),     # blue, white ink
    ((200, 225, 205), (20, 40, 30), 1, 0.0, 0.4),      # pale green
]

# (square RGB, line RGB, {premium RGB}, text ink RGB, frame RGB, weight)
_BOARD_PALETTES = [
    ((205, 195, 170), (245, 245, 240), {"T": (215, 55, 55), "D": (240, 170, 175), "t": (40, 130, 200), "d": (160, 210, 230)},
     (30, 30, 30), (180, 30, 35), 4),                                            # classic beige
    ((150, 130, 100), (235, 230, 215), {"T": (205, 55, 60), "D": (225, 140, 150), "t": (50, 120, 190), "d": (140, 190, 215)},
     (30, 30, 30), (160, 40, 40), 2),                                            # vintage brown
    ((25, 100, 75), (220, 220, 200), {"T": (200, 40, 40), "D": (235, 150, 150), "t": (30, 80, 170), "d": (120, 180, 220)},
     (240, 240, 240), (20, 60, 45), 2),                                          # green
    ((200, 215, 200), (250, 250, 250), {"T": (230, 90, 60), "D": (245, 180, 160), "t": (60, 140, 210), "d": (170, 215, 235)},
     (30, 30, 30), (40, 90, 60), 2),                                             # pale green
    ((60, 60, 65), (120, 120, 125), {"T": (200, 50, 60), "D": (210, 110, 140), "t": (40, 110, 180), "d": (80, 160, 190)},
     (240, 240, 240), (20, 20, 20), 1),                                          # dark
    ((235, 230, 220), (190, 185, 175), {"T": (235, 90, 70), "D": (250, 190, 175), "t": (70, 150, 220), "d": (180, 220, 240)},
     (40, 40, 40), (200, 200, 195), 2),                                          # light
]

_PREMIUM_TEXT = [
    {"T": "TRIPLE\nWORD\nSCORE", "D": "DOUBLE\nWORD\nSCORE", "t": "TRIPLE\nLETTER\nSCORE", "d": "DOUBLE\nLETTER\nSCORE"},
    {"T": "TW", "D": "DW", "t": "TL", "d": "DL"},
    {"T": "3W", "D": "2W", "t": "3L", "d": "2L"},
    {"T": "MOT\nCOMPTE\nTRIPLE", "D": "MOT\nCOMPTE\nDOUBLE", "t": "LETTRE\nCOMPTE\nTRIPLE", "d": "LETTRE\nCOMPTE\nDOUBLE"},
    {"T": "DREIFACHER\nWORTWERT", "D": "DOPPELTER\nWORTWERT", "t": "DREIFACHER\nBUCHST.", "d": "DOPPELTER\nBUCHST."},
]


def _pick(rng, items, weights):
    w = np.asarray(weights, float)
    return items[int(rng.choice(len(items), p=w / w.sum()))]


def random_tile_style(rng: np.random.Generator, fonts: list[str], deluxe_blanks: float = 0.0) -> TileStyle:
    """A random tile set's look.  ``deluxe_blanks``: the chance that its blanks have a face of
    their own (:attr:`TileStyle.blank_face`), drawn from a generator seeded by the style itself,
    so that ``rng`` gives every other style and scene as it did without them."""
    face, ink, _, grain, gloss = _pick(rng, _TILE_PALETTES, [p[2] for p in _TILE_PALETTES])
    face, ink = _jitter(rng, face, 14), _jitter(rng, ink, 10)
    if rng.random() < 0.15:  # any colours with enough contrast
        for _ in range(20):
            face = tuple(int(v) for v in rng.integers(0, 256, 3))
            ink = tuple(int(v) for v in rng.integers(0, 256, 3))
            if abs(_lum(_bgr(face)) - _lum(_bgr(ink))) > 90:
                break
    font = fonts[int(rng.integers(len(fonts)))]
    centred = rng.random() < 0.6
    style = TileStyle(
        face=_bgr(face), ink=_bgr(ink), font=font,
        letter_size=float(rng.uniform(0.46, 0.68)),
        letter_dx=0.0 if centred else float(rng.uniform(-0.07, 0.0)),
        letter_dy=0.0 if centred else float(rng.uniform(-0.07, 0.0)),
        value_size=0.0 if rng.random() < 0.1 else float(rng.uniform(0.15, 0.28)),
        value_pos=(float(rng.uniform(0.74, 0.86)), float(rng.uniform(0.72, 0.86))),
        value_font=font if rng.random() < 0.7 else fonts[int(rng.integers(len(fonts)))],
        radius=float(rng.uniform(0.0, 0.16)), bevel=float(rng.uniform(0.0, 1.0)),
        grain=grain * float(rng.uniform(0.3, 1.0)), scale=float(rng.uniform(0.86, 0.98)),
        gloss=gloss * float(rng.uniform(0, 1)))
    if deluxe_blanks > 0:
        _deluxe_blank(style, deluxe_blanks)
    return style


def _deluxe_blank(style: TileStyle, chance: float) -> None:
    """Give ``style``'s blanks a face of their own with ``chance``: mostly the letters' colour
    (the maroon set's white blank), else any colour apart from the face; its border 7-20 %."""
    own = np.random.default_rng([*style.face, *style.ink, int(style.letter_size * 1e6)])
    if own.random() >= chance:
        return
    colour = _jitter(own, style.ink[::-1], 10)
    if own.random() < 0.3:
        for _ in range(20):
            colour = tuple(int(v) for v in own.integers(0, 256, 3))
            if abs(_lum(_bgr(colour)) - _lum(style.face)) > 60:
                break
    style.blank_face = _bgr(colour)
    style.blank_border = float(own.uniform(0.07, 0.2))


def random_board_style(rng: np.random.Generator) -> BoardStyle:
    sq, line, prem, tink, frame, _ = _pick(rng, _BOARD_PALETTES, [p[5] for p in _BOARD_PALETTES])
    texts = _PREMIUM_TEXT[int(rng.integers(len(_PREMIUM_TEXT)))]
    return BoardStyle(square=_bgr(_jitter(rng, sq)), line=_bgr(_jitter(rng, line, 10)),
                      line_w=float(rng.uniform(0.02, 0.09)),
                      premium={k: _bgr(_jitter(rng, v, 15)) for k, v in prem.items()},
                      text=rng.random() < 0.75, text_ink=_bgr(_jitter(rng, tink, 10)),
                      star=rng.random() < 0.8, frame=_bgr(_jitter(rng, frame, 15)), texts=texts)


# --------------------------------------------------------------------------- tiles


def tile_face(letter: str, value: str, style: TileStyle, side: int, rng: np.random.Generator) -> np.ndarray:
    """A tile's top face, BGRA uint8 ``side`` x ``side`` (alpha = the tile's rounded square).

    ``letter`` '' or '?' draws a blank tile.
    """
    from PIL import Image, ImageDraw

    ss = 2 if side < 96 else 1                      # supersample small tiles
    S = side * ss
    img = np.empty((S, S, 3), np.float32)
    img[:] = style.face
    if style.grain > 0:                             # wood grain: wavy stripes along one axis
        y = np.arange(S, dtype=np.float32)[:, None] / S
        x = np.arange(S, dtype=np.float32)[None, :] / S
        f = rng.uniform(6, 18)
        ph = rng.uniform(0, 6.3)
        wav = np.sin((y + 0.04 * np.sin(x * rng.uniform(2, 7) + ph)) * f * 6.28 + ph)
        stripes = wav * 0.6 + rng.normal(0, 0.4, (S, 1))
        if rng.random() < 0.5:
            stripes = stripes.T
        img *= (1 + style.grain * 0.07 * stripes)[:, :, None]
    if letter in ("", "?") and style.blank_face is not None:
        m = Image.fromarray(np.zeros((S, S), np.uint8))
        b = int(round(style.blank_border * S))
        ImageDraw.Draw(m).rounded_rectangle([b, b, S - 1 - b, S - 1 - b], radius=int(style.radius * (S - 2 * b)),
                                            fill=255)
        inner = np.asarray(m, np.float32)[:, :, None] / 255.0
        img = img * (1 - inner) + np.asarray(style.blank_face, np.float32) * inner
    # letter and value
    pil = Image.fromarray(np.zeros((S, S), np.uint8))
    d = ImageDraw.Draw(pil)
    if letter and letter != "?":
        _draw_centered(d, letter, style.font, style.letter_size * S,
                       (0.5 + style.letter_dx) * S, (0.5 + style.letter_dy) * S, S)
    if letter and letter != "?" and style.value_size > 0 and value:
        vf = style.value_font or style.font
        _draw_centered(d, value, vf, style.value_size * S, style.value_pos[0] * S, style.value_pos[1] * S, S,
                       align_right=True)
    ink = np.asarray(pil, np.float32)[:, :, None] / 255.0
    img = img * (1 - ink) + np.asarray(style.ink, np.float32) * ink
    # bevel: lit top-left edge, shaded bottom-right edge
    if style.bevel > 0:
        e = max(1, int(0.06 * S))
        ramp = np.clip(np.minimum.reduce([np.arange(S)[None, :].repeat(S, 0), np.arange(S)[:, None].repeat(S, 1)]) / e, 0, 1)
        ramp2 = np.clip(np.minimum.reduce([S - 1 - np.arange(S)[None, :].repeat(S, 0),
                                           S - 1 - np.arange(S)[:, None].repeat(S, 1)]) / e, 0, 1)
        img *= (1 + style.bevel * 0.12 * (1 - ramp))[:, :, None]
        img *= (1 - style.bevel * 0.25 * (1 - ramp2))[:, :, None]
    # rounded-square alpha
    a = Image.fromarray(np.zeros((S, S), np.uint8))
    ImageDraw.Draw(a).rounded_rectangle([0, 0, S - 1, S - 1], radius=int(style.radius * S), fill=255)
    out = np.dstack([np.clip(img, 0, 255), np.asarray(a, np.float32)]).astype(np.uint8)
    if ss > 1:
        out = cv2.resize(out, (side, side), interpolation=cv2.INTER_AREA)
    return out


def _draw_centered(d, text: str, font_path: str, cap_px: float, cx: float, cy: float, S: int,
                   align_right: bool = False) -> None:
    """Draw ``text`` so that its ink box has height ``cap_px`` and is centred on (cx, cy)."""
    size = max(6, int(cap_px * 1.4))
    f = _font(font_path, size)
    l, t, r, b = f.getbbox(text)
    h = max(1, b - t)
    size = max(6, int(size * cap_px / h))
    f = _font(font_path, size)
    l, t, r, b = f.getbbox(text)
    x = cx - (l + r) / 2
    if align_right and (r - l) > 0.3 * S:            # wide "10": keep it inside the tile
        x = min(x, 0.97 * S - r)
    d.text((x, cy - (t + b) / 2), text, font=f, fill=255)


# --------------------------------------------------------------------------- board


def render_board(labels, board: BoardStyle, tile: TileStyle, rng: np.random.Generator, cell: int = 48,
                 margin: float = 1.0, hands: int = 0, placement_jitter: float = 0.06,
                 values: dict | None = None, shift: tuple[float, float] = (0.0, 0.0)
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top-down picture of the board (BGR), the grid corners in it, and the covered fraction.

    ``labels`` is 15 strings of 15 characters.  Returns ``(image, corners (4,2), covered
    (15,15) float)``; the grid spans ``[m, m + 15*cell]`` with ``m = margin * cell``.
    ``shift`` (in squares) moves every tile the same way: raised tiles seen by a tilted camera.
    """
    m = int(round(margin * cell))
    side = 2 * m + GRID * cell
    img = np.empty((side, side, 3), np.uint8)
    img[:] = board.frame
    g0, g1 = m, m + GRID * cell
    img[g0:g1, g0:g1] = board.line
    lw = max(1, int(round(board.line_w * cell)))
    from PIL import Image, ImageDraw
    text_font = font_paths("basic")[1] if font_paths("basic") else None
    for r in range(GRID):
        for c in range(GRID):
            kind = board.layout[r][c] if board.layout else "."
            col = board.premium.get(kind, board.square)
            y0, x0 = g0 + r * cell + lw // 2 + (lw % 2), g0 + c * cell + lw // 2 + (lw % 2)
            y1, x1 = g0 + (r + 1) * cell - lw // 2, g0 + (c + 1) * cell - lw // 2
            img[y0:y1, x0:x1] = col
            if kind in "TDtd" and kind != "." and board.text and text_font and not (r == 7 and c == 7 and board.star):
                txt = board.texts.get(kind, "")
                if txt:
                    pil = Image.fromarray(np.zeros((y1 - y0, x1 - x0), np.uint8))
                    dd = ImageDraw.Draw(pil)
                    lines = txt.split("\n")
                    fs = max(5, int((y1 - y0) / (len(lines) * 1.5 + 0.8)))
                    f = _font(text_font, fs)
                    wmax = max(f.getbbox(ln)[2] for ln in lines)
                    if wmax > (x1 - x0) * 0.92:
                        fs = max(4, int(fs * (x1 - x0) * 0.92 / wmax))
                        f = _font(text_font, fs)
                    dd.multiline_text(((x1 - x0) / 2, (y1 - y0) / 2), txt, font=f, fill=255, anchor="mm",
                                      align="center", spacing=max(1, fs // 5))
                    a = np.asarray(pil, np.float32)[:, :, None] / 255
                    patch = img[y0:y1, x0:x1].astype(np.float32)
                    img[y0:y1, x0:x1] = (patch * (1 - a) + np.asarray(board.text_ink, np.float32) * a).astype(np.uint8)
            if r == 7 and c == 7 and board.star:
                _star(img, (x0 + x1) / 2, (y0 + y1) / 2, 0.36 * cell, board.text_ink)
    # tiles
    for r in range(GRID):
        for c in range(GRID):
            ch = labels[r][c]
            if ch == ".":
                continue
            val = (values or {}).get(ch) or str(int(rng.choice([1, 1, 1, 2, 3, 4, 5, 8, 10])))
            _place_tile(img, ch, val, tile, rng, g0 + (c + 0.5 + shift[0]) * cell, g0 + (r + 0.5 + shift[1]) * cell,
                        cell, placement_jitter)
    covered = np.zeros((GRID, GRID), np.float32)
    for _ in range(hands):
        mask = _hand(img, rng, g0, g1)
        cm = mask[g0:g1, g0:g1].reshape(GRID, cell, GRID, cell).mean(axis=(1, 3))
        covered = np.maximum(covered, cm)
    corners = np.array([[g0, g0], [g1, g0], [g1, g1], [g0, g1]], np.float64)
    return img, corners, covered


def _star(img, cx, cy, r, color):
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.42
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    cv2.fillPoly(img, [np.round(np.array(pts) * 16).astype(np.int32)], color, cv2.LINE_AA, shift=4)


def _place_tile(img, ch, value, style: TileStyle, rng, cx, cy, cell, jitter):
    side = max(8, int(round(cell * style.scale * rng.uniform(0.98, 1.02))))
    face = tile_face("" if ch == "?" else ch, value, style, side, rng)
    ang = rng.normal(0, 2.5)
    dx, dy = rng.normal(0, jitter * cell, 2)
    cx, cy = cx + dx, cy + dy
    big = int(side * 1.5) + 4
    canvas = np.zeros((big, big, 4), np.uint8)
    o = (big - side) // 2
    canvas[o:o + side, o:o + side] = face
    M = cv2.getRotationMatrix2D((big / 2, big / 2), ang, 1.0)
    M[:, 2] += (cx - big / 2, cy - big / 2)
    H, W = img.shape[:2]
    x0, y0 = int(max(0, cx - big)), int(max(0, cy - big))
    x1, y1 = int(min(W, cx + big)), int(min(H, cy + big))
    M[:, 2] -= (x0, y0)
    warped = cv2.warpAffine(canvas, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:].astype(np.float32) / 255
    region = img[y0:y1, x0:x1].astype(np.float32)
    # soft drop shadow (down-right)
    sh = cv2.GaussianBlur(a, (0, 0), max(0.6, cell * 0.05))
    shift = np.float32([[1, 0, cell * 0.05], [0, 1, cell * 0.06]])
    sh = cv2.warpAffine(sh, shift, (x1 - x0, y1 - y0))[:, :, None] if sh.ndim == 2 else \
        cv2.warpAffine(sh, shift, (x1 - x0, y1 - y0))
    if sh.ndim == 2:
        sh = sh[:, :, None]
    region *= 1 - 0.35 * sh
    region = region * (1 - a) + warped[:, :, :3].astype(np.float32) * a
    img[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)


_SKIN = [(255, 219, 172), (241, 194, 125), (224, 172, 105), (198, 134, 66), (141, 85, 36), (92, 56, 30)]


def _hand(img, rng, g0, g1) -> np.ndarray:
    """Draw an arm reaching in from one side with a hand at its end; returns the mask (float)."""
    H, W = img.shape[:2]
    side = int(rng.integers(4))
    span = g1 - g0
    t = rng.uniform(0.1, 0.9)
    edge = [(g0 + t * span, 0), (W, g0 + t * span), (g0 + t * span, H), (0, g0 + t * span)][side]
    reach = rng.uniform(0.15, 0.6) * span
    inward = [(0, 1), (-1, 0), (0, -1), (1, 0)][side]
    ang = math.atan2(inward[1], inward[0]) + rng.normal(0, 0.35)
    start = np.array(edge, float)
    border = [g0, W - g1, H - g1, g0][side]
    tip = start + (border + reach) * np.array([math.cos(ang), math.sin(ang)])
    width = rng.uniform(0.09, 0.16) * span
    mask = np.zeros((H, W), np.uint8)
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in tip), 255, int(width), cv2.LINE_AA)
    # palm and fingers
    cv2.ellipse(mask, (int(tip[0]), int(tip[1])), (int(width * 0.75), int(width * 0.6)),
                math.degrees(ang), 0, 360, 255, -1, cv2.LINE_AA)
    for k in range(int(rng.integers(2, 5))):
        fa = ang + rng.uniform(-0.6, 0.6)
        f_end = tip + width * rng.uniform(0.7, 1.2) * np.array([math.cos(fa), math.sin(fa)])
        cv2.line(mask, (int(tip[0]), int(tip[1])), (int(f_end[0]), int(f_end[1])), 255,
                 max(2, int(width * 0.22)), cv2.LINE_AA)
    m = mask.astype(np.float32) / 255
    skin = _SKIN[int(rng.integers(len(_SKIN)))]
    if rng.random() < 0.3:  # a sleeve over part of the arm
        skin = tuple(int(v) for v in rng.integers(20, 230, 3))
    col = np.asarray(_bgr(_jitter(rng, skin, 10)), np.float32)
    # shading across the arm + a little texture
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    dirv = np.array([-math.sin(ang), math.cos(ang)])
    shade = 1 + 0.18 * np.sin(((xx - tip[0]) * dirv[0] + (yy - tip[1]) * dirv[1]) / width * 3)
    tex = cv2.GaussianBlur(rng.normal(0, 6, (H, W)).astype(np.float32), (0, 0), 2)
    arm = col[None, None, :] * shade[:, :, None] + tex[:, :, None]
    # shadow beside the arm
    sh = cv2.GaussianBlur(m, (0, 0), width * 0.25)
    sh = np.roll(sh, (int(width * 0.25), int(width * 0.2)), axis=(0, 1))
    out = img.astype(np.float32) * (1 - 0.45 * sh[:, :, None])
    out = out * (1 - m[:, :, None]) + arm * m[:, :, None]
    img[:] = np.clip(out, 0, 255).astype(np.uint8)
    return m


# --------------------------------------------------------------------------- camera


@dataclass
class Camera:
    """How the simulated photo is taken and spoiled (all optional)."""

    size: tuple[int, int] = (1920, 1080)
    board_frac: float = 0.85      # grid height / frame height
    tilt: float = 0.15            # perspective strength (0 = straight down)
    turn: float = 0.0             # in-plane rotation, degrees
    blur: float = 0.0             # Gaussian sigma, px (frame)
    motion: float = 0.0           # motion blur length, px
    noise: float = 0.0            # Gaussian noise sigma
    glare: int = 0                # number of glare spots
    glare_strength: float = 0.6
    shading: float = 0.0          # 0..1 strength of uneven light
    gain: tuple[float, float, float] = (1.0, 1.0, 1.0)   # per-channel colour cast (BGR)
    brightness: float = 1.0
    jpeg: int = 0                 # JPEG quality (0 = none)


def random_camera(rng: np.random.Generator, size=(1920, 1080), hard: bool = True) -> Camera:
    """A random but legible camera: at least 24 px per square, blur in proportion to that."""
    k = 1.0 if hard else 0.5
    W, H = size
    frac = float(rng.uniform(max(0.55, 24 * GRID / H), 0.95))
    cellpx = frac * H / GRID
    return Camera(size=size, board_frac=frac, tilt=float(rng.uniform(0, 0.3 * k)),
                  turn=float(rng.normal(0, 4)),
                  blur=float(rng.uniform(0, 0.035 * cellpx * k)),
                  motion=float(rng.uniform(0, 0.08 * cellpx) if rng.random() < 0.2 * k else 0),
                  noise=float(rng.uniform(0, 7 * k)), glare=int(rng.integers(0, 3)) if rng.random() < 0.5 else 0,
                  glare_strength=float(rng.uniform(0.2, 0.7 * k + 0.1)), shading=float(rng.uniform(0, 0.5 * k)),
                  gain=tuple(float(v) for v in rng.uniform(0.85, 1.15, 3)), brightness=float(rng.uniform(0.7, 1.15)),
                  jpeg=int(rng.integers(55, 96)) if rng.random() < 0.7 else 0)


def photograph(board_img: np.ndarray, corners: np.ndarray, cam: Camera, rng: np.random.Generator,
               background: np.ndarray | None = None, placement: np.random.Generator | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """Put the top-down board into a camera frame; returns ``(frame, grid corners in frame)``.

    ``placement``: where the board lands in the frame, and where the glare falls, are drawn from
    this generator instead of ``rng`` -- the same seed every photo is a camera on a stand under a
    lamp (the board and the glare stay put; the light's level, the noise and the JPEG change)."""
    W, H = cam.size
    where = rng if placement is None else placement
    gh = cam.board_frac * H
    # grid quad in the frame: a square of side gh, tilted (top edge shorter), turned, placed
    half = gh / 2
    t = cam.tilt
    quad = np.array([[-half * (1 - t), -half * (1 - t * 0.3)], [half * (1 - t), -half * (1 - t * 0.3)],
                     [half * (1 + t * 0.2), half], [-half * (1 + t * 0.2), half]])
    quad[:, 0] += where.normal(0, t * half * 0.15, 4)
    a = math.radians(cam.turn)
    R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    quad = quad @ R.T
    span = quad.max(0) - quad.min(0)
    room = np.maximum(np.array([W, H]) - span, 0)
    centre = np.array([W, H]) / 2 + (where.uniform(-0.45, 0.45, 2) * room)
    quad += centre - (quad.max(0) + quad.min(0)) / 2
    Hm = cv2.getPerspectiveTransform(corners.astype(np.float32), quad.astype(np.float32))
    if background is None:
        background = random_background(rng, (H, W))
    frame = cv2.warpPerspective(board_img, Hm, (W, H), dst=background.copy(), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_TRANSPARENT)
    f = frame.astype(np.float32)
    if cam.shading > 0:
        yy, xx = np.mgrid[0:H:8, 0:W:8].astype(np.float32)
        d = rng.normal(0, 1, 2)
        field_ = ((xx / W - 0.5) * d[0] + (yy / H - 0.5) * d[1])
        field_ = cv2.resize(field_, (W, H))
        f *= (1 + cam.shading * field_ / (np.abs(field_).max() + 1e-6) * 0.5)[:, :, None]
    f *= np.asarray(cam.gain, np.float32) * cam.brightness
    for _ in range(cam.glare):  # a lamp fixed with the camera: the glare stays put with the board
        cx, cy = quad[:, 0].min() + where.random() * span[0], quad[:, 1].min() + where.random() * span[1]
        sx, sy = where.uniform(0.03, 0.15) * gh, where.uniform(0.03, 0.12) * gh
        x0, x1 = int(max(0, cx - 3 * sx)), int(min(W, cx + 3 * sx))
        y0, y1 = int(max(0, cy - 3 * sy)), int(min(H, cy + 3 * sy))
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        blob = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) / 2) * 255 * cam.glare_strength
        f[y0:y1, x0:x1] += blob[:, :, None]
    if cam.blur > 0.2:
        f = cv2.GaussianBlur(f, (0, 0), cam.blur)
    if cam.motion > 1:
        L = int(cam.motion) | 1
        k = np.zeros((L, L), np.float32)
        k[L // 2] = 1
        M = cv2.getRotationMatrix2D((L / 2 - 0.5, L / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        k = cv2.warpAffine(k, M, (L, L))
        f = cv2.filter2D(f, -1, k / max(k.sum(), 1e-6))
    if cam.noise > 0:
        f += rng.normal(0, cam.noise, f.shape).astype(np.float32)
    frame = np.clip(f, 0, 255).astype(np.uint8)
    if cam.jpeg:
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, cam.jpeg])
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return frame, quad


def random_background(rng, shape) -> np.ndarray:
    H, W = shape
    base = rng.integers(40, 220, 3).astype(np.float32)
    small = rng.normal(0, 1, (H // 16 + 1, W // 16 + 1)).astype(np.float32)
    tex = cv2.resize(small, (W, H)) * rng.uniform(5, 25) + rng.normal(0, rng.uniform(2, 10), (H, W)).astype(np.float32)
    return np.clip(base[None, None, :] + tex[:, :, None], 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- scenes


def random_labels(rng: np.random.Generator, alphabet: str, n_tiles: int, blank_rate: float = 0.03,
                  words: bool = True) -> list[str]:
    """15 strings of 15 chars with about ``n_tiles`` tiles, in word-like runs or scattered."""
    grid = [["."] * GRID for _ in range(GRID)]
    placed = 0
    tries = 0
    while placed < n_tiles and tries < 500:
        tries += 1
        if words:
            L = int(rng.integers(2, 8))
            horiz = rng.random() < 0.5
            r, c = int(rng.integers(GRID)), int(rng.integers(GRID))
            cells = [(r, c + k) if horiz else (r + k, c) for k in range(L)]
            cells = [(a, b) for a, b in cells if a < GRID and b < GRID]
        else:
            cells = [(int(rng.integers(GRID)), int(rng.integers(GRID)))]
        for a, b in cells:
            if grid[a][b] == "." and placed < n_tiles:
                grid[a][b] = "?" if rng.random() < blank_rate else alphabet[int(rng.integers(len(alphabet)))]
                placed += 1
    return ["".join(row) for row in grid]


@dataclass
class Scene:
    labels: list[str]             # truth, 15 x 15
    covered: np.ndarray           # (15, 15) fraction hidden by a hand
    frame: np.ndarray             # camera picture (BGR)
    corners: np.ndarray           # grid corners in the frame, TL TR BR BL
    board: np.ndarray             # top-down picture before the camera
    board_corners: np.ndarray
    empty_frame: np.ndarray | None = None   # the same view with no tiles (reference)
    tile_style: TileStyle | None = None
    board_style: BoardStyle | None = None
    camera: "Camera | None" = None          # the camera that took ``frame`` (its light, blur, glare)


def random_scene(rng: np.random.Generator, alphabet: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                 fonts: list[str] | None = None, n_tiles: int | None = None, hands: int | None = None,
                 size=(1920, 1080), cell: int = 48, with_reference: bool = False, hard: bool = True,
                 tile_style: TileStyle | None = None, board_style: BoardStyle | None = None,
                 blank_rate: float = 0.03, values: dict | None = None, deluxe_blanks: float = 0.0) -> Scene:
    """A random board photographed by a random camera (and optionally its empty reference).

    ``values``: letter -> the point value printed on its tiles (default: a random value per tile);
    ``deluxe_blanks``: the chance that the set's blanks have a face of their own
    (:func:`random_tile_style`; 0 draws every scene as before the option existed).
    """
    fonts = fonts or font_paths("train")
    ts = tile_style or random_tile_style(rng, fonts, deluxe_blanks)
    bs = board_style or random_board_style(rng)
    if n_tiles is None:
        n_tiles = int(rng.integers(5, 110))
    labels = random_labels(rng, alphabet, n_tiles, blank_rate, words=rng.random() < 0.8)
    if hands is None:
        hands = int(rng.random() < 0.25)
    seed = int(rng.integers(1 << 30))
    shift = tuple(float(v) for v in np.clip(rng.normal(0, 0.07, 2), -0.2, 0.2))
    board, bc, covered = render_board(labels, bs, ts, np.random.default_rng(seed), cell=cell, hands=hands,
                                      shift=shift, values=values)
    cam = random_camera(rng, size, hard)
    bg = random_background(rng, (size[1], size[0]))
    cam_seed = int(rng.integers(1 << 30))
    frame, corners = photograph(board, bc, cam, np.random.default_rng(cam_seed), bg)
    empty = None
    if with_reference:
        eb, _, _ = render_board(["." * GRID] * GRID, bs, ts, np.random.default_rng(seed), cell=cell, hands=0)
        cam2 = Camera(**{**cam.__dict__, "glare": 0, "gain": tuple(g * float(rng.uniform(0.9, 1.1)) for g in cam.gain),
                         "brightness": cam.brightness * float(rng.uniform(0.85, 1.15))})
        empty, _ = photograph(eb, bc, cam2, np.random.default_rng(cam_seed), bg)
    return Scene(labels, covered, frame, corners, board, bc, empty, ts, bs, cam)
