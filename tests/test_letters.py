"""Letter recognition on tile crops (vision.letters): rendered tiles, real crops, alphabets,
per-set prototypes, tesseract.  Uses the committed model; no training here."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import letters as L
from vision import onnx_cnn
from vision import read as R
from vision.render import TileStyle, font_paths, tile_face

ENGLISH = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
EN_VALUES = (1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10)   # A..Z
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
FONTS = font_paths("basic")
pytestmark = pytest.mark.skipif(not FONTS, reason="DejaVu fonts (fonts-dejavu-core) not installed")


def tile_crop(letter: str, face=(160, 208, 232), ink=(10, 15, 20), font=None, value="1", side=40,
              board=(170, 195, 205), rng=None) -> np.ndarray:
    """A tile as the reader crops it: the square plus a margin of board around it."""
    rng = rng or np.random.default_rng(0)
    style = TileStyle(face=face, ink=ink, font=font or FONTS[1], value_size=0.22 if value else 0.0)
    t = tile_face(letter, value, style, int(side * style.scale), rng)
    s = R.crop_size(side)
    crop = np.empty((s, s, 3), np.uint8)
    crop[:] = board
    o = (s - t.shape[0]) // 2
    a = t[:, :, 3:].astype(np.float32) / 255
    crop[o:o + t.shape[0], o:o + t.shape[1]] = (t[:, :, :3] * a + crop[o:o + t.shape[0], o:o + t.shape[1]] * (1 - a))
    return crop


@pytest.mark.parametrize("side,k", [(610, 19), (300, 9), (250, 13), (40, 15)])
@pytest.mark.parametrize("polarity", [1, -1])
def test_the_ink_of_a_whole_board_is_the_same_as_opencvs_top_and_black_hat(side, k, polarity):
    # a board's ink is taken through the disc's rectangles, for speed: to the last pixel what
    # OpenCV's morphology with the disc gives, edges included
    rng = np.random.default_rng(side + k)
    gray = cv2.GaussianBlur((rng.random((side, side + 7)) * 255).astype(np.uint8), (7, 7), 2)
    gray[side // 3:side // 2, 10:60] = 0 if polarity > 0 else 255      # a stroke of ink at the edge
    want = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT if polarity > 0 else cv2.MORPH_TOPHAT,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    assert np.array_equal(L.ink_image(gray, polarity, k), want)


def test_glyph_found_and_normalised():
    g = L.glyph_of(tile_crop("A"), 1, board=True)
    assert g is not None
    assert g.image.shape == (L.GLYPH, L.GLYPH)
    assert 0.3 < g.height < 0.9 and g.parts == 1
    # the point value in the corner is not part of the letter: the glyph is about as wide as an A
    assert 0.6 < g.aspect < 1.4


def test_flat_crop_has_no_glyph():
    flat = np.full((48, 48, 3), 180, np.uint8)
    assert L.glyph_of(flat) is None
    assert L.classify_crop(flat, ENGLISH).label == ""


def test_accents_are_part_of_the_letter():
    g_a = L.glyph_of(tile_crop("A"), 1, board=True)
    g_ae = L.glyph_of(tile_crop("Ä"), 1, board=True)
    assert g_ae.parts == 3 and g_a.parts == 1
    assert L.classify_glyphs([g_ae], ENGLISH + "ÄÖÜ")[0].label == "Ä"


def _broken(crop: np.ndarray, x: int, width: int = 2) -> np.ndarray:
    """The crop with a vertical strip of the tile's face painted over the letter at column x
    (worn print, or a stroke lost when a real photo is binarised)."""
    out = crop.copy()
    mid = out.shape[0] // 2
    out[:, x:x + width] = out[mid - 12, x + width + 3]          # the face colour beside it
    return out


def test_broken_letter_is_kept_whole():
    crop = tile_crop("W", value="", side=48)
    g_whole = L.glyph_of(crop, 1, board=True)
    split = _broken(crop, crop.shape[1] // 2 - 1)
    mask, _ = L.binarise(L.to_gray(split), polarity=1)
    assert cv2.connectedComponents(mask)[0] - 1 >= 2, "the test crop must really be in pieces"
    g = L.glyph_of(split, 1, board=True)
    assert g.parts >= 2
    # both halves are in the glyph: as wide as the whole W, not half of it
    assert abs(g.aspect - g_whole.aspect) < 0.25


def test_point_value_is_not_a_piece_of_the_letter():
    for letter, value in (("O", "1"), ("Q", "10"), ("W", "4"), ("E", "1"), ("I", "1")):
        for side in (32, 48, 64):
            g = L.glyph_of(tile_crop(letter, value=value, side=side), 1, board=True)
            assert g.parts == 1, (letter, side)


def value_tile(letter: str, value: str, side: int) -> np.ndarray:
    """A grey square crop: a tile face, a big letter, the value small in the lower-right corner."""
    s = R.crop_size(side)
    m = (s - side) // 2
    img = np.full((s, s), 150, np.uint8)
    img[m + 1:s - m - 1, m + 1:s - m - 1] = 225
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(img, letter, (m + int(0.22 * side), m + int(0.72 * side)), font, side / 48, 20, max(2, side // 14),
                cv2.LINE_AA)
    cv2.putText(img, value, (m + int(0.66 * side), m + int(0.92 * side)), font, side / 150, 20, max(1, side // 40),
                cv2.LINE_AA)
    return img


def test_the_point_value_window_lies_below_right_of_the_letter_and_holds_the_digits():
    for side in (32, 48, 64):
        letter = L.glyph_of(value_tile("O", "10", side), 1, board=True)
        ten = L.value_glyph_of(value_tile("O", "10", side), 1)
        one = L.value_glyph_of(value_tile("O", "1", side), 1)
        none = L.value_glyph_of(value_tile("O", "", side), 1)
        assert ten.centre[0] > letter.centre[0] and ten.centre[1] > letter.centre[1], side
        assert ten.ink > one.ink > none.ink, side          # "10" has more ink than "1", no value the least
        assert ten.image.shape == (L.GLYPH, L.GLYPH)


def test_the_value_window_cut_from_the_letters_glyph_is_the_window_found_afresh():
    for letter, value in (("O", "10"), ("W", "4"), ("I", "1")):
        for side in (32, 40, 48, 64):
            crop = value_tile(letter, value, side)
            g = L.glyph_of(crop, 1, board=True)
            fresh, quick = L.value_glyph_of(crop, 1), L.value_glyph_of(crop, 1, letter=g)
            assert np.array_equal(fresh.image, quick.image) and fresh.centre == quick.centre, (letter, side)


def test_a_letter_cut_again_at_a_lower_threshold_is_bolder():
    crop = cv2.GaussianBlur(value_tile("E", "1", 48), (0, 0), 1.5)      # soft edges, as a camera sees them
    ink = L.ink_image(crop, 1, L.disc_size(min(crop.shape)))
    bold, usual, thin = L.glyph_variants(ink, (0.15, L.THRESHOLD_AT, 0.4))
    assert bold.ink > usual.ink > thin.ink
    assert np.array_equal(usual.image, L.glyph_of(crop, 1, board=True).image)    # the usual cut is the glyph
    assert L.glyph_variants(np.zeros((48, 48), np.uint8), (0.2, 0.3)) == []       # no ink, no letter


def test_a_shifted_tiles_edge_line_is_not_taken_for_its_letter():
    # the tile sits high in its square: its letter near the crop's top, its lower edge (a dark
    # line with the point value on it) across the middle -- bigger and more central than the letter
    crop = np.full((50, 50), 215, np.uint8)
    cv2.rectangle(crop, (0, 31), (49, 49), 120, -1)
    cv2.putText(crop, "J", (16, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 20, 3, cv2.LINE_AA)
    cv2.line(crop, (6, 29), (42, 29), 30, 2)
    cv2.putText(crop, "8", (30, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.35, 20, 1, cv2.LINE_AA)
    g = L.glyph_of(crop, 1, board=True)
    assert g.centre[1] < 0.4 and g.aspect < 1.5      # the J, not the flat line (aspect ~4)


def test_the_letter_of_a_tile_sitting_low_in_its_square_is_found_though_its_foot_is_in_the_margin():
    # the tile sits a fifth of a square low: the gap above it is a dark band across the crop's
    # top, and the L's foot runs through the crop's outer band (the margin round the square)
    crop = np.full((50, 50), 215, np.uint8)
    cv2.rectangle(crop, (0, 6), (49, 13), 60, -1)
    cv2.line(crop, (17, 27), (17, 47), 20, 4)
    cv2.line(crop, (17, 47), (32, 47), 20, 4)
    g = L.glyph_of(crop, 1, board=True)
    assert g is not None and g.centre[1] > 0.6 and g.aspect < 1.0     # the L, low in the crop


def test_a_letters_stroke_reaching_the_crops_side_is_not_taken_for_a_tile_edge():
    # the tile sits a quarter of a square high: its L's stem runs from the crop's top edge
    # half-way down (25 of 50 px, shorter than the 0.6 of the crop a tile edge runs), and the
    # tile's right and lower edges run the length of the crop
    mask = np.zeros((50, 50), np.uint8)
    mask[0:25, 12:18] = 1                      # the L's stem, touching the top side
    mask[19:25, 12:32] = 1                     # its foot
    mask[:, 40:43] = 1                         # the tile's right edge, top to bottom
    mask[32:34, :] = 1                         # its lower edge, side to side
    kept = L._drop_edge_lines(mask)
    assert kept[0:25, 12:18].all() and kept[19:25, 18:32].all()    # the whole L stays
    assert not kept[:, 41].any() and not kept[33, :10].any()       # the edges go


def test_the_components_that_scored_next_give_the_other_glyphs_in_order():
    # a dark blob in the middle outscores the T beside it; the T is the first of the others
    crop = np.full((50, 50), 215, np.uint8)
    cv2.fillPoly(crop, [np.array([[10, 12], [27, 10], [25, 35], [12, 39]])], 30)
    cv2.putText(crop, "T", (30, 33), cv2.FONT_HERSHEY_SIMPLEX, 0.6, 20, 2, cv2.LINE_AA)
    ink = L.ink_image(crop, 1, L.disc_size(50))
    kept = L.glyph_from_ink(ink)
    others = L.other_glyphs(ink, most=2)
    assert kept.centre[0] < 0.5                        # the blob
    assert len(others) == 1 and others[0].centre[0] > 0.6 and others[0].aspect < 1.2     # the T
    assert L.other_glyphs(L.ink_image(np.full((50, 50), 215, np.uint8), 1, L.disc_size(50))) == []


def _letter_with_a_neighbours_stroke(accent: bool = False) -> np.ndarray:
    """Ink crop: a big H, and level with it a gap away the first stroke of the next tile's W
    (as tall as the H: it passes for a piece of a broken letter); with ``accent``, two dots
    above the H as on an Ä."""
    crop = np.full((50, 50), 215, np.uint8)
    cv2.line(crop, (10, 14), (10, 38), 20, 4)
    cv2.line(crop, (28, 14), (28, 38), 20, 4)
    cv2.line(crop, (10, 26), (28, 26), 20, 4)
    cv2.line(crop, (36, 14), (41, 38), 20, 4)            # the W's first stroke beside it
    if accent:
        cv2.circle(crop, (14, 8), 2, 20, -1)
        cv2.circle(crop, (24, 8), 2, 20, -1)
    return L.ink_image(crop, 1, L.disc_size(50))


def test_a_neighbours_stroke_joined_to_a_letter_is_left_out_of_its_other_cut():
    ink = _letter_with_a_neighbours_stroke()
    joined = L.glyph_from_ink(ink)
    assert joined.parts == 2                              # the usual cut takes the stroke in
    cuts = L.glyph_cuts(ink)
    alone = [g for rank, g in cuts if rank == 0]
    assert len(alone) == 1 and alone[0].parts == 1 and alone[0].aspect < joined.aspect
    flat = L.ink_image(np.full((50, 50), 215, np.uint8), 1, L.disc_size(50))
    assert L.glyph_cuts(flat) == []                       # no ink, no cuts


def test_a_letters_marks_stay_in_its_other_cut_when_the_alphabet_has_marked_letters():
    ink = _letter_with_a_neighbours_stroke(accent=True)
    assert L.glyph_from_ink(ink).parts == 4               # H, two marks, the neighbour's stroke
    with_marks = [g for rank, g in L.glyph_cuts(ink, marks=True) if rank == 0]
    without = [g for rank, g in L.glyph_cuts(ink, marks=False) if rank == 0]
    assert with_marks[0].parts == 3                       # an Ä stays an Ä
    assert without[0].parts == 1                          # no marked letters: dots are stray ink


def test_a_letter_with_nothing_joined_has_no_other_cut_of_its_own():
    crop = np.full((50, 50), 215, np.uint8)
    cv2.putText(crop, "T", (14, 36), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 20, 3, cv2.LINE_AA)
    ink = L.ink_image(crop, 1, L.disc_size(50))
    assert [rank for rank, g in L.glyph_cuts(ink)] == []


def _glyph_fields(g):
    return None if g is None else (g.image.tobytes(), g.aspect, g.height, g.ink, g.parts, g.contrast, g.centre)


def _board_inks(seed: int):
    """(polarity, the 225 squares' ink crops) of two rendered boards, a standard camera's and a
    hand-held one's with hands: empty squares, print, letters with edge lines and neighbours."""
    from vision.render import random_scene

    rng = np.random.default_rng(seed)
    for b in range(2):
        sc = random_scene(rng, ENGLISH, FONTS, size=(1280, 720), cell=40, hands=b, hard=bool(b),
                          values={ch: str(v) for ch, v in zip(ENGLISH, EN_VALUES)})
        an = R.Analysis(R.rectify_board(sc.frame, sc.corners))
        for pol in (1, -1):
            yield pol, [an.ink_crop(pol, r, c) for r in range(15) for c in range(15)]


def test_sharpened_letters_cut_in_one_go_are_the_letters_cut_one_by_one():
    """The sharpened ink of letters in doubt (float, not 8-bit: read.py's _cut_at) is cut in one
    go too: the same glyphs, to the bit, as each crop cut alone at the usual threshold."""
    checked = 0
    for _, crops in _board_inks(12):
        inks = []
        for ink in crops:
            ink = ink.astype(np.float32)
            inks.append(np.clip(ink + 2.0 * (ink - cv2.GaussianBlur(ink, (0, 0), 1.0)), 0, 255))
        one_by_one = [_glyph_fields((L.glyph_variants(x, (L.THRESHOLD_AT,)) or [None])[0]) for x in inks]
        assert [_glyph_fields(g) for g in L.glyphs_from_inks(inks)] == one_by_one
        checked += sum(g is not None for g in one_by_one)
    assert checked > 100


@pytest.mark.parametrize("side", [50, 49, 36])
def test_letters_cut_in_one_go_are_the_letters_cut_one_by_one(side):
    """The board reader cuts a picture's letters in one go (one call over the crops stacked):
    the same glyphs, to the bit, as cutting each crop alone -- empty squares, print, letters
    with edge lines and neighbours, light ink and dark, and squares of even and odd size."""
    checked = 0
    for _, inks in _board_inks(11):
        if side != inks[0].shape[0]:
            inks = [cv2.resize(x, (side, side), interpolation=cv2.INTER_AREA) for x in inks]
        one_by_one = [_glyph_fields(L.glyph_from_ink(x)) for x in inks]
        assert [_glyph_fields(g) for g in L.glyphs_from_inks(inks)] == one_by_one
        assert [_glyph_fields(g) for g in L.glyphs_from_inks(inks[::7])] == one_by_one[::7]
        checked += sum(g is not None for g in one_by_one)
    assert checked > 100


@pytest.mark.parametrize("sharpened", [False, True])
def test_letters_cut_again_at_other_thresholds_in_one_go_are_the_cuts_one_by_one(sharpened):
    """A letter in doubt is cut again at other shares of its ink (the second look's, the faint
    strokes' and the blur cuts' thresholds), for all the squares in doubt in one go: the same
    glyphs, to the bit and in the same order, as :func:`letters.glyph_variants` crop by crop."""
    thresholds = (0.1, 0.15, 0.2, 0.31, 0.4, 0.5, 0.6, 0.7)
    checked = 0
    for _, inks in _board_inks(13):
        if sharpened:
            inks = [np.clip(x.astype(np.float32) + (x.astype(np.float32) - cv2.GaussianBlur(
                x.astype(np.float32), (0, 0), 1.5)), 0, 255) for x in inks]
        one_by_one = [[_glyph_fields(g) for g in L.glyph_variants(x, thresholds)] for x in inks]
        in_one_go = [[_glyph_fields(g) for g in gs] for gs in L.glyph_variants_of(inks, thresholds)]
        assert in_one_go == one_by_one
        for t in (0.1, 0.6):
            alone = [_glyph_fields((L.glyph_variants(x, (t,)) or [None])[0]) for x in inks[:3]]
            assert [_glyph_fields(g) for g in L.glyphs_from_inks(inks[:3], threshold=t)] == alone
        # the letter's own component alone (the faint-stroke check's second reading), both ways
        for t in (0.1, 0.2):
            alone = [_glyph_fields((L.glyph_variants(x, (t,), pieces=False) or [None])[0]) for x in inks]
            assert [_glyph_fields(g) for g in L.glyphs_from_inks(inks, threshold=t, pieces=False)] == alone
            assert [_glyph_fields(g) for g in L.glyphs_from_inks(inks[:3], threshold=t, pieces=False)] == alone[:3]
        checked += sum(len(gs) for gs in one_by_one)
    assert checked > 800


def test_a_letter_cut_without_its_pieces_keeps_only_its_own_component():
    # a broken letter's side piece (the second stroke of a W cut in two) is joined by default,
    # left out with pieces=False
    ink = np.zeros((50, 50), np.uint8)
    ink[14:38, 14:20] = 200          # a stem
    ink[14:38, 24:30] = 200          # a second stem, as tall, a small gap beside it
    ink[14:20, 14:20] = 255          # the strongest ink in the middle
    joined = L.glyph_variants(ink, (0.25,))[0]
    alone = L.glyph_variants(ink, (0.25,), pieces=False)[0]
    assert joined.parts == 2 and alone.parts == 1
    assert alone.aspect < joined.aspect


def test_no_letter_no_value_window():
    flat = np.full((48, 48), 200, np.uint8)
    assert L.value_glyph_of(flat, 1) is None


@pytest.mark.parametrize("face,ink", [((160, 208, 232), (10, 15, 20)), ((40, 30, 115), (225, 240, 245))],
                         ids=["dark-on-light", "light-on-dark"])
def test_rendered_tiles_read_right(face, ink):
    rng = np.random.default_rng(1)
    right = 0
    for ch in ENGLISH:
        gu = L.classify_crop(tile_crop(ch, face, ink, rng=rng), ENGLISH, board=True)
        right += gu.label == ch
    assert right >= 25, f"{right}/26"



def _lone_crops(pad: float, side: int, boards: int = 3, seed: int = 21, turn: float = 0.0) -> list[tuple[str, np.ndarray]]:
    """(letter, crop) for the uncovered letter tiles of rendered boards, each cut as someone
    cutting crops by hand might: the square and ``pad`` of its side of board round it (the
    neighbours' edges, grid lines, premium colours), scaled to ``side`` px; ``turn``: the photo
    turned by that many degrees (one way, then the other) and the crop the upright box round the
    turned square."""
    from vision.geometry import rectify
    from vision.render import random_scene

    rng = np.random.default_rng(seed)
    out = []
    for b in range(boards):
        sc = random_scene(rng, ENGLISH, FONTS, size=(1920, 1080), cell=56, hands=0, hard=bool(b % 2),
                          values={ch: str(v) for ch, v in zip(ENGLISH, EN_VALUES)})
        cell = 64
        rect = rectify(sc.frame, sc.corners, cell, margin_cells=1.0)
        p = int(pad * cell)
        for r, c in [(r, c) for r in range(15) for c in range(15)
                     if sc.labels[r][c] in ENGLISH and sc.covered[r, c] <= 0.02][:10]:
            if turn:
                a = turn if len(out) % 2 else -turn
                cy, cx = (r + 1.5) * cell, (c + 1.5) * cell
                m = cv2.getRotationMatrix2D((cx, cy), a, 1.0)
                turned = cv2.warpAffine(rect, m, rect.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)
                half = (cell / 2 + p) * (abs(np.cos(np.radians(a))) + abs(np.sin(np.radians(a))))
                crop = turned[int(cy - half):int(cy + half), int(cx - half):int(cx + half)]
            else:
                y0, x0 = (r + 1) * cell - p, (c + 1) * cell - p
                crop = rect[y0:y0 + cell + 2 * p, x0:x0 + cell + 2 * p]
            out.append((sc.labels[r][c], cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)))
    return out


@pytest.mark.parametrize("pad,side", [(0.0, 64), (0.15, 64), (0.3, 96)], ids=["tight", "margin-15%", "margin-30%"])
def test_a_lone_crop_reads_its_letter_however_it_was_framed(pad, side):
    """`vision classify` does not know how a crop was cut: a tight cut of the tile and a cut
    with the board round it both read (read only as cut, the margins read 63-80 %)."""
    crops = _lone_crops(pad, side)
    right = sum(L.classify_lone_crop(crop, ENGLISH).label == ch for ch, crop in crops)
    assert right >= 0.93 * len(crops), f"{right}/{len(crops)}"


def test_a_crop_with_half_a_square_of_board_round_it_reads_its_letter():
    """Boxed loosely, with the neighbours' letters at its sides: only the middle framings read
    the letter, and the narrowest seconds the other (28 of 30 read without it)."""
    crops = _lone_crops(0.5, 96)
    right = sum(L.classify_lone_crop(crop, ENGLISH).label == ch for ch, crop in crops)
    assert right >= len(crops) - 1, f"{right}/{len(crops)}"

@pytest.mark.parametrize("pad", [0.0, 0.15], ids=["tight", "margin-15%"])
def test_a_tile_cut_from_a_turned_photo_is_read_turned_upright(pad):
    """A box cut round a tile in a photo turned 30 degrees to the board: read as it is, half the
    letters were lost (15-16 of 30); turned upright by the tilt of its edges, they read."""
    crops = _lone_crops(pad, 64, turn=30)
    right = sum(L.classify_lone_crop(crop, ENGLISH).label == ch for ch, crop in crops)
    assert right >= 0.93 * len(crops), f"{right}/{len(crops)}"


def _turned_square(angle: float, side: int = 64, tile: int = 40) -> np.ndarray:
    """A light square ``tile`` px wide turned by ``angle`` degrees on a dark ``side`` px crop."""
    crop = np.full((side, side, 3), 70, np.uint8)
    corners = cv2.boxPoints(((side / 2, side / 2), (tile, tile), angle))
    cv2.fillConvexPoly(crop, np.round(corners).astype(np.int32), (200, 210, 220), lineType=cv2.LINE_AA)
    return crop


@pytest.mark.parametrize("angle", [-25, -12, 8, 20])
def test_a_turned_squares_tilt_is_measured_from_its_edges(angle):
    crop = _turned_square(angle)
    tilt, sureness = L.tilt_of(L.to_gray(crop))
    assert abs(abs(tilt) - abs(angle)) < 1.5 and sureness > L.TILT_SURE
    upright = L.turned_upright(crop, tilt)
    again, _ = L.tilt_of(L.to_gray(upright))
    assert abs(again) < 1.5
    # cut to the square the tile fills once upright: its side over |cos| + |sin|
    k = abs(np.cos(np.radians(angle))) + abs(np.sin(np.radians(angle)))
    assert abs(upright.shape[0] - 64 / k) <= 1


def test_a_tilted_crop_too_small_to_turn_is_read_as_it_is():
    """Turned upright a box keeps only the square inside it: a 14 px crop tilted 25 degrees would
    be 10 px, under what is read at all -- the crop as it is is read, nothing is refused."""
    crop = cv2.resize(_turned_square(25), (14, 14), interpolation=cv2.INTER_AREA)
    assert abs(L.tilt_of(L.to_gray(crop))[0]) >= L.TILT_MIN
    assert min(L.turned_upright(crop, 25.0).shape[:2]) < L.MIN_CROP_SIDE
    L.classify_lone_crop(crop, ENGLISH)


def test_a_crop_from_a_dim_photo_is_read_with_its_levels_stretched(monkeypatch):
    """A tile photographed in a dim room: at an eighth of its light its ink is under the 28 grey
    levels a cut asks, and nothing is read; stretched, the letters read."""
    letters = "AEKMRSW"
    dim = [(ch, (tile_crop(ch) * 0.12).astype(np.uint8)) for ch in letters]
    assert all(L.stretched(crop) is not None for _, crop in dim)
    right = sum(L.classify_lone_crop(crop, ENGLISH).label == ch for ch, crop in dim)
    assert right >= len(letters) - 1
    monkeypatch.setattr(L, "DIM_RANGE", 0)                      # not stretched
    assert sum(L.classify_lone_crop(crop, ENGLISH).label == ch for ch, crop in dim) <= 2


def test_a_crop_from_a_very_dim_photo_is_also_read_smoothed_once_stretched(monkeypatch):
    """At an eighth of the light the sensor's noise, stretched with the letter, speckles the
    face into ink the cut cannot part from the strokes; the stretched crop smoothed (a 3 px
    median) reads them (rendered tiles: 25 of 30 stretched alone)."""
    rng = np.random.default_rng(1)
    dim = [(ch, np.clip(c * 0.125 + rng.normal(0, 2, c.shape), 0, 255).astype(np.uint8))
           for ch, c in _lone_crops(0.10, 64, boards=3)]
    assert sum(L.classify_lone_crop(c, ENGLISH).label == ch for ch, c in dim) >= len(dim) - 1
    monkeypatch.setattr(L.cv2, "medianBlur", lambda img, k: img)     # not smoothed
    assert sum(L.classify_lone_crop(c, ENGLISH).label == ch for ch, c in dim) <= len(dim) - 4


def test_only_a_dim_crop_is_stretched():
    assert L.stretched(np.full((40, 40, 3), 30, np.uint8)) is None            # flat: nothing to stretch
    assert L.stretched(tile_crop("A")) is None                                 # spread enough
    dim = (tile_crop("A") * 0.2).astype(np.uint8)
    lo, hi = np.percentile(L.to_gray(L.stretched(dim)), (1, 99))
    assert hi - lo > 120


def test_a_flat_crop_has_no_tilt():
    assert L.tilt_of(np.full((40, 40), 128, np.uint8)) == (0.0, 0.0)


def test_a_black_and_white_crop_turned_is_still_read_with_its_hairlines_bridged(monkeypatch):
    """Turned, a black-and-white crop's strokes get grey edges; it is read bridged all the same
    (is_black_and_white asked of the crop as it came)."""
    crop = np.where(_turned_square(15)[:, :, 0] > 128, 255, 0).astype(np.uint8)
    assert L.is_black_and_white(crop) and not L.is_black_and_white(L.turned_upright(crop, 15.0))
    bridged = []
    monkeypatch.setattr(L, "_read_framed", lambda c, letters, model, protos, pol, bridge:
                        bridged.append(bridge) or L.LetterGuess(L.NONE, 0.9, None, []))
    L.classify_lone_crop(crop, ENGLISH)
    assert bridged == [True, True]


def test_the_turned_reading_is_kept_where_the_tilt_or_its_letter_is_sure(monkeypatch):
    """Upright crops with no edges in view can measure tilted (a letter's own diagonal strokes):
    the crop turned is read, and its letter kept only on a sure tilt, a reading TURNED_LEAD
    surer (any surer on a tilt of TILT_BIG measured TILT_FAIR surely), or -- where the crop as it
    is reads no letter -- TURNED_FLOOR sure."""
    crop = np.full((40, 40, 3), 200, np.uint8)

    def case(tilt, as_is, turned):
        monkeypatch.setattr(L, "tilt_of", lambda gray: tilt)
        reads = iter([as_is, turned])
        monkeypatch.setattr(L, "_read_framed", lambda *a: L.LetterGuess(*next(reads), None, []))
        return L.classify_lone_crop(crop, ENGLISH).label

    assert case((2.0, 0.9), ("V", 0.6), ("U", 0.99)) == "V"            # under TILT_MIN: not turned
    assert case((12.0, 0.7), ("V", 0.9), ("U", 0.8)) == "U"            # a sure tilt
    assert case((12.0, 0.4), ("V", 0.7), ("U", 0.8)) == "V"            # unsure tilt, not 0.2 surer
    assert case((12.0, 0.4), ("V", 0.7), ("U", 0.95)) == "U"           # unsure tilt, 0.2 surer
    assert case((20.0, 0.3), ("V", 0.88), ("U", 0.95)) == "U"          # a big tilt, fairly sure: surer is enough
    assert case((20.0, 0.2), ("V", 0.88), ("U", 0.95)) == "V"          # ... not on a tilt measured unsurely
    assert case((12.0, 0.7), ("V", 0.7), (L.NONE, 0.99)) == "V"        # turned: no letter
    assert case((12.0, 0.7), (L.NONE, 0.9), ("W", 0.9)) == "W"         # as it is no letter
    assert case((12.0, 0.7), (L.NONE, 0.9), ("W", 0.6)) == L.NONE      # ... the turned one unsure



@pytest.mark.parametrize("font", FONTS)
def test_a_tight_crop_keeps_the_marks_at_its_top_edge(font):
    """A tile cut tight at the top (a shifted tile, a hand-drawn box): the dots of an Ä two pixels
    from the crop's edge are the letter's (on a square cut with a margin they lie in the middle),
    and an A cut the same way stays an A."""
    german = ENGLISH + "ÄÖÜ"
    read = []
    for ch in "ÄÖÜAOU":
        style = TileStyle(face=(160, 208, 232), ink=(10, 15, 20), font=font, value_size=0.22)
        tile = np.ascontiguousarray(tile_face(ch, "1", style, 48, np.random.default_rng(0))[:, :, :3])
        ink_rows = np.nonzero((cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY) < 100).any(axis=1))[0]
        read.append(L.classify_lone_crop(tile[max(0, ink_rows[0] - 2):], german).label)
    assert "".join(read) == "ÄÖÜAOU"

def test_a_lone_crop_is_framed_as_the_reader_cuts_a_square():
    crop = np.zeros((40, 40, 3), np.uint8)
    crop[10:30, 10:30] = 255
    wide = L.framed(crop, 1.5)                   # 10 px of replicated edge each way, then scaled
    assert wide.shape == (L.BOARD_CROP, L.BOARD_CROP, 3)
    assert wide[25, 25].tolist() == [255, 255, 255] and wide[5, 5].tolist() == [0, 0, 0]
    middle = L.framed(crop, 0.5)                 # the middle 20 px: all white
    assert middle.shape == (L.BOARD_CROP, L.BOARD_CROP, 3) and middle.min() == 255
    assert L.BOARD_CROP == R.crop_size()


def test_another_framings_letter_needs_a_lead_and_a_second_framing(monkeypatch):
    """The crop as cut keeps its letter unless another framing is AS_CUT_LEAD surer, at least
    FRAMED_FLOOR sure, and a second framing reads that letter too: one framing alone can read a neighbour's edge or a
    clipped letter (an R cut to its middle reads H).  Where only one framing reads it, the crop's
    narrowest middle (NARROWEST) may second it: a cut with half a square of board round the tile
    shows the neighbours' letters in every framing but the narrowest two."""
    crop = np.full((40, 40, 3), 200, np.uint8)

    def readings(*labels):
        seq = iter(labels)
        return lambda *a, **k: L.LetterGuess(*next(seq), None, [])

    n = len(L.LONE_FRAMINGS)
    # the last reading is the narrowest middle's (NARROWEST), asked only to second a lone framing
    monkeypatch.setattr(L, "classify_crop", readings(("R", 0.7), ("H", 0.99), *[(L.NONE, 0.9)] * (n - 1), (L.NONE, 0.9)))
    assert L.classify_lone_crop(crop, ENGLISH).label == "R"
    monkeypatch.setattr(L, "classify_crop", readings(("R", 0.7), *[(L.NONE, 0.9)] * (n - 1), ("H", 0.99), ("H", 0.9)))
    assert L.classify_lone_crop(crop, ENGLISH).label == "H"           # seconded by the narrowest middle
    monkeypatch.setattr(L, "classify_crop", readings(("R", 0.7), ("H", 0.99), ("H", 0.95), *[(L.NONE, 0.9)] * (n - 2)))
    assert L.classify_lone_crop(crop, ENGLISH).label == "H"
    monkeypatch.setattr(L, "classify_crop", readings(("R", 0.8), ("H", 0.95), ("H", 0.95), *[(L.NONE, 0.9)] * (n - 2)))
    assert L.classify_lone_crop(crop, ENGLISH).label == "R"           # not 0.2 surer
    monkeypatch.setattr(L, "classify_crop", readings((L.NONE, 0.9), ("W", 0.6), ("W", 0.5), *[(L.NONE, 0.9)] * (n - 2)))
    assert L.classify_lone_crop(crop, ENGLISH).label == "W"           # no letter as cut
    monkeypatch.setattr(L, "classify_crop", readings((L.NONE, 0.9), ("W", 0.45), ("W", 0.45), *[(L.NONE, 0.9)] * (n - 2)))
    assert L.classify_lone_crop(crop, ENGLISH).label == L.NONE         # under FRAMED_FLOOR: print, no letter
    monkeypatch.setattr(L, "classify_crop", readings(("", 1.0), *[(L.NONE, 0.9)] * n))
    assert L.classify_lone_crop(crop, ENGLISH).label == ""            # no letter anywhere: as cut

def test_alphabet_is_a_parameter():
    crop = tile_crop("Ö")
    assert L.classify_crop(crop, ENGLISH + "ÄÖÜ", board=True).label == "Ö"
    # an English set has no Ö: the answer is restricted to the set's letters (or not-a-letter)
    assert L.classify_crop(crop, ENGLISH, board=True).label in ENGLISH + L.ROT + L.NONE
    assert L.classify_crop(tile_crop("Æ"), "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ", board=True).label == "Æ"


def test_turned_letter_is_not_upright():
    crop = np.ascontiguousarray(np.rot90(tile_crop("F"), 1))
    gu = L.classify_crop(crop, ENGLISH, board=True)
    assert gu.label != "F" or gu.confidence < 0.5


def test_features_and_hog_shapes():
    g = L.glyph_of(tile_crop("K"), 1, board=True)
    x = L.features([g, g])
    assert x.shape == (2, L.FEATURE_DIM) and np.isfinite(x).all()
    h = L.hog(np.zeros((3, 28, 28), np.float32))
    assert h.shape == (3, 324)


def test_model_roundtrip(tmp_path):
    m = L.default_model()
    m.save(tmp_path / "m.npz")
    m2 = L.LetterModel.load(tmp_path / "m.npz")
    g = L.glyph_of(tile_crop("R"), 1, board=True)
    ims, meta = L.stack([g])
    assert np.allclose(m.forward(ims, meta)[0], m2.forward(ims, meta)[0], atol=1e-2)


def _constant_model(logits, second=None, classes="AB" + L.ROT + L.NONE):
    """A letter model whose answer is ``logits`` whatever the glyph (a perceptron with no
    weights into its one hidden unit): what the second-opinion rules are tested with."""
    d = L.FEATURE_DIM
    params = dict(mean=np.zeros(d), std=np.ones(d), w1=np.zeros((d, 1)), b1=np.ones(1),
                  w2=np.array([logits], np.float32), b2=np.zeros(len(logits)))
    return L.LetterModel(classes, params, "mlp", {"name": "constant"}, second)


class _NeverAsked(L.LetterModel):
    def _forward(self, images, meta):
        raise AssertionError("the second fit was asked about a glyph the first is sure of")


def _one_glyph():
    return L.stack([L.glyph_of(tile_crop("R"), 1, board=True)])


def test_a_glyph_the_first_fit_is_sure_of_is_not_read_by_the_second():
    never = _constant_model([0.0, 9.0, 0.0, 0.0])
    never.__class__ = _NeverAsked
    sure = _constant_model([6.0, 0.0, 0.0, 0.0], second=never)       # A at 0.99
    p, classes = sure.probabilities(*_one_glyph(), "AB")
    alone, _ = _constant_model([6.0, 0.0, 0.0, 0.0]).probabilities(*_one_glyph(), "AB")
    assert np.allclose(p, alone)


def test_a_doubtful_glyph_is_read_as_the_mean_of_both_fits_log_probabilities():
    first, second = np.array([1.0, 0.0, 0.0, 0.0]), np.array([0.0, 3.0, 0.0, 0.0])     # A at 0.48
    model = _constant_model(first, second=_constant_model(second))
    p, classes = model.probabilities(*_one_glyph(), "AB", upright=False)

    def log_p(z):
        return z - np.log(np.exp(z).sum())
    want = np.exp(0.5 * (log_p(first) + log_p(second)))
    assert np.allclose(p[0], want / want.sum(), atol=1e-5)
    assert classes[int(np.argmax(p[0]))] == "B"


def test_the_second_fit_leaves_the_embedding_to_the_first():
    """Per-set prototypes live in the first fit's hidden space, whatever the second says."""
    first = _constant_model([1.0, 0.0, 0.0, 0.0])
    both = _constant_model([1.0, 0.0, 0.0, 0.0], second=_constant_model([0.0, 3.0, 0.0, 0.0]))
    assert np.array_equal(both.forward(*_one_glyph())[1], first.forward(*_one_glyph())[1])


def test_the_second_fit_is_saved_and_loaded_with_the_model(tmp_path):
    model = _constant_model([1.0, 0.0, 0.0, 0.0], second=_constant_model([0.0, 3.0, 0.0, 0.0]))
    model.save(tmp_path / "m.npz")
    again = L.LetterModel.load(tmp_path / "m.npz")
    assert again.second is not None and again.second.info == {"name": "constant"}
    assert np.allclose(again.forward(*_one_glyph())[0], model.forward(*_one_glyph())[0])
    alone = L.LetterModel.load(tmp_path / "m.npz")
    alone.second = None
    assert not np.allclose(alone.probabilities(*_one_glyph())[0], again.probabilities(*_one_glyph())[0])


def test_a_second_fit_trained_on_other_letters_is_refused():
    with pytest.raises(L.VisionError, match="other letters"):
        _constant_model([1.0, 0.0, 0.0, 0.0], second=_constant_model([0.0, 0.0, 0.0], classes="A" + L.ROT + L.NONE))


def test_the_committed_model_carries_its_second_opinion():
    m = L.default_model()
    assert m.second is not None and m.second.classes == m.classes


def test_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(L.VisionError, match="train_letters"):
        L.LetterModel.load(tmp_path / "nope.npz")


def test_prototypes_teach_an_unknown_letter():
    # "Ω" is not in the trained alphabet: a prototype makes it readable
    proto = L.Prototypes()
    g = L.glyph_of(tile_crop("Ω"), 1, board=True)
    m = L.default_model()
    ims, meta = L.stack([g])
    proto.add("Ω", m.forward(ims, meta)[1][0], g.image)
    g2 = L.glyph_of(tile_crop("Ω", rng=np.random.default_rng(5)), 1, board=True)
    gu = L.classify_glyphs([g2], ENGLISH + "Ω", m, proto)[0]
    assert gu.label == "Ω"


@pytest.mark.skipif(not (SHARED / "crops" / "jheidel").is_dir(), reason="../shared/crops/jheidel absent")
def test_real_crops_sample():
    """Every 8th of the held-out real crops (never trained on): most read right."""
    base = SHARED / "crops" / "jheidel"
    items = [(f, d.name) for d in sorted(base.iterdir()) if d.is_dir() for f in sorted(d.glob("*.png"))][::8]
    right = 0
    for f, name in items:
        got, _ = R.classify_tile(cv2.imread(str(f)), ENGLISH)
        right += got == ("." if name.lower() == "star" else name.upper())
    assert right / len(items) >= 0.9


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed")
def test_tesseract_second_opinion():
    big = cv2.resize(tile_crop("E", value=""), None, fx=2, fy=2)
    letter, conf = L.tesseract_classify(big, ENGLISH)
    assert letter in ("E", "")   # tesseract may decline; it must not crash
    assert 0.0 <= conf <= 1.0


def test_the_committed_model_reads_every_bundled_tile_set():
    from companion.tiles import available_tilesets, get_tileset

    m = L.default_model()
    for code in available_tilesets():
        letters = "".join(get_tileset(code).alphabet)
        assert R.unreadable_letters(letters, m) == [], code


@pytest.mark.parametrize("letter", list("ĄĆĘŁŃÓŚŹŻ"))
def test_polish_letters_read_right(letter):
    polish = "AIEONZRSWYCDKLMPTBGHJŁUĄĘFÓŚŻĆŃŹ"
    for font in FONTS[:2]:
        crop = tile_crop(letter, font=font, side=48)
        assert L.classify_crop(crop, polish, polarity=1).label == letter, font


def test_the_reading_network_gives_the_training_networks_numbers():
    # the reader runs the CNN in a faster channel-major layout; the trainer's layout is the reference
    model = L.default_model()
    rng = np.random.default_rng(3)
    ims = (rng.random((19, L.GLYPH, L.GLYPH)) < 0.3).astype(np.float32)
    meta = rng.random((19, 5)).astype(np.float32)
    fast, hidden = L.cnn_forward(model.params, ims, meta)
    ref, cache = L.cnn_forward(model.params, ims, meta, cache=True)
    assert np.allclose(fast, ref, atol=1e-4)
    assert np.allclose(hidden, cache["h"], atol=1e-4)


@pytest.mark.skipif(not onnx_cnn.available(), reason="onnxruntime is not installed here")
@pytest.mark.parametrize("path", ["letters", "values"])
def test_onnxruntime_gives_the_numpy_networks_numbers(path):
    # the same weights written as an ONNX graph (vision/onnx_cnn.py): the letter model and the
    # value model (a narrower network), for batches of one glyph and of many
    model = L.LetterModel.load(L.MODEL_PATH.parent / f"{path}.npz")
    session = onnx_cnn.OnnxCNN(model.params)
    rng = np.random.default_rng(4)
    for n in (1, 23):
        ims = (rng.random((n, L.GLYPH, L.GLYPH)) < 0.3).astype(np.float32)
        meta = rng.random((n, 5)).astype(np.float32)
        logits, hidden = session(ims, meta)
        ref, ref_hidden = L.cnn_forward(model.params, ims, meta)
        assert np.allclose(logits, ref, atol=1e-4) and np.allclose(hidden, ref_hidden, atol=1e-4)


@pytest.mark.skipif(not onnx_cnn.available(), reason="onnxruntime is not installed here")
@pytest.mark.parametrize("net", ["look", "look_grey", "look_wide"])
def test_onnxruntime_gives_the_square_models_second_look_its_numpy_numbers(monkeypatch, net):
    # the second look (a square's 9-channel picture, vision.read.SquareModel.look; the colour
    # pictures' and the grey ones') is the same network over more channels: written as an ONNX
    # graph it gives the numpy numbers, and the square model switches to it once the process
    # has read enough (as the letter CNN does), each look with a session of its own
    squares = R.SquareModel.load()
    p = squares.nets[net]
    rng = np.random.default_rng(6)
    session = onnx_cnn.OnnxLook(p, R.LOOK, 9)
    for n in (1, 17):
        pictures = rng.random((n, R.LOOK, R.LOOK, 9)).astype(np.float32)
        meta = (rng.normal(size=(n, p["mmean"].size)) * p["mstd"] + p["mmean"]).astype(np.float32)
        assert np.allclose(session(pictures, meta), squares.look_logits(pictures, meta, net), atol=1e-4)
    # (the look's own fit: the colour look's pair, look_wide, has sessions of its own)
    started = R.SquareModel({k: v for k, v in squares.nets.items() if k != R.LOOK_PAIR or net == R.LOOK_PAIR})
    monkeypatch.setattr(onnx_cnn, "_rows_read", onnx_cnn.START_AFTER_ROWS)
    q = started.look(pictures, meta, net=net)
    lg = squares.look_logits(pictures, meta, net)
    e = np.exp(lg - lg.max(axis=1, keepdims=True))
    assert np.allclose(q, e / e.sum(axis=1, keepdims=True), atol=1e-5)
    assert set(started._sessions) == {net} and started._sessions[net]    # the other look's not started


@pytest.mark.parametrize("engine", ["numpy", "onnxruntime"])
def test_a_glyph_reads_the_same_in_any_batch(engine):
    # the reader batches glyphs as suits it (the orientation vote reads three turns in one pass):
    # a glyph's numbers do not depend on what else is in its batch -- exactly in onnxruntime, to
    # float rounding in numpy (its matrix products are blocked by the batch's size)
    if engine == "onnxruntime" and not onnx_cnn.available():
        pytest.skip("onnxruntime is not installed here")
    model = L.default_model()
    run = onnx_cnn.OnnxCNN(model.params) if engine == "onnxruntime" else (lambda i, m: L.cnn_forward(model.params, i, m))
    rng = np.random.default_rng(9)
    ims = (rng.random((75, L.GLYPH, L.GLYPH)) < 0.3).astype(np.float32)
    meta = rng.random((75, 5)).astype(np.float32)
    whole = run(ims, meta)[0]
    for size in (1, 7, 25):
        parts = np.concatenate([run(ims[i:i + size], meta[i:i + size])[0] for i in range(0, 75, size)])
        if engine == "onnxruntime":
            assert np.array_equal(parts, whole)
        else:
            assert np.allclose(parts, whole, rtol=0, atol=1e-4)


def test_the_numpy_network_reads_where_onnxruntime_is_switched_off(monkeypatch):
    monkeypatch.setenv("TC_NUMPY_CNN", "1")
    monkeypatch.setattr(onnx_cnn, "_rows_read", onnx_cnn.START_AFTER_ROWS)
    assert not onnx_cnn.available() and onnx_cnn.session_for({}) is None
    model = L.LetterModel.load()
    ims = np.zeros((2, L.GLYPH, L.GLYPH), np.float32)
    logits, _ = model.forward(ims, np.zeros((2, 5), np.float32))
    assert model._onnx is False and logits.shape == (2, len(model.classes))


def test_an_onnxruntime_that_cannot_start_leaves_the_reading_to_numpy(monkeypatch):
    def broken(params):
        raise ImportError("libonnxruntime.so: cannot open shared object file")

    monkeypatch.setattr(onnx_cnn, "_rows_read", onnx_cnn.START_AFTER_ROWS)
    monkeypatch.setattr(onnx_cnn, "available", lambda: True)
    monkeypatch.setattr(onnx_cnn, "OnnxCNN", broken)
    model = L.LetterModel.load()
    ims = (np.random.default_rng(5).random((3, L.GLYPH, L.GLYPH)) < 0.3).astype(np.float32)
    meta = np.zeros((3, 5), np.float32)
    logits, _ = model.forward(ims, meta)
    assert model._onnx is False
    assert np.allclose(logits, model.forward(ims, meta)[0])


def test_onnxruntime_starts_only_once_the_process_has_read_enough_glyphs(monkeypatch):
    # its import costs what ~1,700 glyphs save: a one-shot read of one photo stays with numpy
    monkeypatch.setattr(onnx_cnn, "_rows_read", 0)
    model = L.LetterModel.load()
    ims = np.zeros((150, L.GLYPH, L.GLYPH), np.float32)
    meta = np.zeros((150, 5), np.float32)
    first, _ = model.forward(ims, meta)
    assert model._onnx is None
    monkeypatch.setattr(onnx_cnn, "_rows_read", onnx_cnn.START_AFTER_ROWS)
    later, _ = model.forward(ims, meta)
    assert (model._onnx is not False) == onnx_cnn.available()
    assert np.allclose(first, later, atol=1e-4)


def test_the_value_training_script_makes_a_model_the_reader_loads(tmp_path):
    from calibration import train_values

    train_values.main(["--boards", "4", "--epochs", "1", "--jobs", "1", "--out", str(tmp_path)])
    model = L.LetterModel.load(tmp_path / "values.npz")
    assert model.classes == L.VALUE_CLASSES
    q = L.value_probabilities([L.value_glyph_of(value_tile("O", "10", 48), 1)], model)
    assert q.shape == (1, len(L.VALUE_CLASSES)) and abs(float(q.sum()) - 1) < 1e-5


def test_training_adds_qs_with_a_notch_inside_the_bowl_made_from_os():
    from calibration.train_letters import CLASSES, q_with_inner_tail
    o = L.glyph_of(tile_crop("O"), 1, board=True)
    ims = np.stack([(o.image * 255).astype(np.uint8)] * 10)
    meta = np.array([L.glyph_meta(o)] * 10, np.float32)
    y = np.full(10, CLASSES.index("O"), np.int16)
    ims2, meta2, y2 = q_with_inner_tail(ims, meta, y, 0.5, seed=0)
    assert len(y2) == 15 and (y2[10:] == CLASSES.index("Q")).all() and (y2[:10] == y).all()
    assert (ims2[10:].astype(int).sum(axis=(1, 2)) > ims[0].astype(int).sum()).all()   # the notch is ink
    assert (meta2[10:, 2] > meta[0, 2]).all()
    # the notch lies inside the O's box, at its lower right
    extra = ims2[10].astype(int) - ims[0].astype(int)
    ys, xs = np.nonzero(extra > 60)
    assert xs.mean() > 14 and ys.mean() > 14


def test_the_binarised_look_for_training_is_black_and_white_and_keeps_every_glyph():
    torch = pytest.importorskip("torch")
    from calibration.torch_cnn import augment, real_look
    # soft glyphs, as the ink cut and the warps leave them: an O ring and a faint hairline bar
    yy, xx = torch.meshgrid(torch.arange(28.0), torch.arange(28.0), indexing="ij")
    ring = ((((yy - 14) ** 2 + (xx - 14) ** 2).sqrt() - 8).abs() < 2).float()
    faint = torch.zeros(28, 28)
    faint[13, 4:24] = 0.35                                   # a hairline the threshold may drop
    faint[4:24, 6:9] = 1.0                                   # beside a stem it keeps
    x = torch.stack([ring, faint]).repeat(32, 1, 1)[:, None] * 0.9
    out = real_look(torch, x, torch.Generator().manual_seed(5), 1.0)
    assert out.shape == x.shape
    binary = ((out == 0) | (out == 1)).flatten(1).all(1)
    kept = (out == x).flatten(1).all(1)
    assert (binary | kept).all()          # black and white, as a binarised crop; or, erased, kept as it was
    assert binary.float().mean() > 0.7
    assert (out.flatten(1).amax(1) > 0).all()                 # no glyph erased
    hairline_lost = [float(out[k, 0, 13, 12:20].sum()) == 0 for k in range(1, 64, 2)]
    assert any(hairline_lost) and not all(hairline_lost)      # sometimes the hairline goes, as Otsu drops it
    # share 0 leaves the batch alone; a share of it changes about that share of the glyphs
    assert (real_look(torch, x, torch.Generator().manual_seed(5), 0.0) == x).all()
    some = real_look(torch, x, torch.Generator().manual_seed(6), 0.3)
    changed = (some != x).flatten(1).any(1).float().mean()
    assert 0.1 < float(changed) < 0.5
    # a glyph the threshold would erase is kept as it was
    pale = torch.full((4, 1, 28, 28), 0.0)
    pale[:, :, 10:18, 10:18] = 0.2
    assert (real_look(torch, pale, torch.Generator().manual_seed(1), 1.0).flatten(1).amax(1) > 0).all()
    assert augment(torch, x, torch.Generator().manual_seed(2), real=0.5).shape == x.shape


def test_thin_stroke_training_thins_the_bars_across_a_band_and_adds_no_ink():
    torch = pytest.importorskip("torch")
    from calibration.torch_cnn import thin_band
    # an E: a stem three pixels wide, three bars three pixels tall
    e = torch.zeros(1, 1, 28, 28)
    e[..., 4:24, 6:9] = 1
    for y in (4, 12, 21):
        e[..., y:y + 3, 6:20] = 1
    x = e.repeat(64, 1, 1, 1)
    out = thin_band(torch, x, torch.Generator().manual_seed(3), 1.0)
    assert (out <= x + 1e-6).all()                                 # thinning never draws ink
    lost = (x - out).sum(dim=(1, 2, 3))
    assert (lost > 0).float().mean() > 0.5          # most glyphs thinned (a band may miss the ink)
    # across its band a glyph keeps some ink of each bar it thinned: a hairline, not a gap
    bars_left = [float(out[k, 0, y:y + 3, 12:20].sum()) for k in range(64) for y in (4, 12, 21)]
    assert min(bars_left) > 0
    assert (thin_band(torch, x, torch.Generator().manual_seed(3), 0.0) == x).all()


# Two rendered tiles of a Times-like bold face (NimbusRoman-Bold, a training face), cut with 5 %
# of board round them at 36 px and thresholded at Otsu's level as a scan would be: the L's foot
# and the X's thin stroke lost their hairlines and came apart from the thick strokes; the point
# values sit at their lower right.
_BW_L = """
.............................####...
....................................
....................................
....................................
..............................#.....
..............................##....
..............................#.....
........###...................##....
.......#####..................##....
.......#####..................##....
.......#####..................##....
.......#####...................#....
.......#####...................#....
.......#####..................##....
.......#####..................##....
.......#####...................#....
.......#####...................#....
.......#####...................#....
.......#####...................#....
........####......##...........#....
.......######....###...........#....
.......######...####...##......#....
........#####...###....##......#....
.......................##......#....
.......................##......#....
.......................###.....#....
........................#......##...
...............................#....
..............................##....
.............................###....
..........................######....
........#####.#################.....
....########################........
....................................
....................................
....................................
"""

_BW_X = """
....................................
....................................
....................................
....................................
.......######.....###..........#....
.......######.....##..........###...
.......#######....#...........###...
........######................###...
.........########..............##...
.........########..............##...
..........#######..............##...
...........######..............##...
............######.............##...
............#######............##...
............#######............##...
............########...........##...
..............#######..........##...
...............######..........##...
.........##.....######.........##...
........###.....#######........##...
........###......##########....##...
.........#..............####...##...
........................####...##...
........................####...##...
.........................###...##...
.........................###..###...
..............................###...
..........................#######...
..................###############...
.....############################...
....############################....
....############################....
.....................######..##.....
....................................
....................................
....................................
"""


def _bw_crop(art: str) -> np.ndarray:
    rows = art.strip().splitlines()
    return np.array([[0 if ch == "#" else 255 for ch in row] for row in rows], np.uint8)


@pytest.mark.parametrize("letter,art", [("L", _BW_L), ("X", _BW_X)], ids=["L", "X"])
def test_a_black_and_white_crop_whose_hairlines_came_apart_reads_its_letter(letter, art, monkeypatch):
    """Thresholded, a high-contrast face loses its hairlines: read with its gaps as they are,
    the L's stem alone reads I and the X's thick stroke alone no letter surely; with the gaps
    bridged both read right."""
    crop = _bw_crop(art)
    assert L.is_black_and_white(crop)
    assert L.classify_lone_crop(crop, ENGLISH).label == letter
    monkeypatch.setattr(L, "BW_LEVELS", 0)                  # taken for a photo: no bridging
    assert L.classify_lone_crop(crop, ENGLISH).label != letter


def test_a_crop_in_colour_is_not_taken_for_black_and_white():
    style = TileStyle(face=(160, 208, 232), ink=(10, 15, 20), font=font_paths("train")[0], value_size=0.22)
    tile = np.ascontiguousarray(tile_face("L", "1", style, 48, np.random.default_rng(0))[:, :, :3])
    assert not L.is_black_and_white(L.to_gray(tile))
    assert L.is_black_and_white(np.where(L.to_gray(tile) > 128, 255, 0).astype(np.uint8))


def test_bridging_never_makes_a_letter_of_ink_read_as_no_letter():
    """An empty square's print or the centre star, thresholded, closes into a blob that can read
    as a letter: bridged readings count only where the usual cut already reads a letter."""
    crop = np.full((36, 36), 255, np.uint8)
    star = np.array([[18 + r * np.sin(a), 18 - r * np.cos(a)]
                     for k in range(10) for a, r in [(k * np.pi / 5, 13 if k % 2 == 0 else 5)]], np.int32)
    cv2.fillPoly(crop, [star], 0)
    crop[17:19, 4:32] = 255                     # a gap across it for the closing to bridge
    plain = L.classify_crop(crop, ENGLISH)
    assert plain.label in (L.ROT, L.NONE)
    assert L.bridged_glyph(*L._crop_mask(crop, 1, 28.0, False)) is not None
    assert L.classify_crop(crop, ENGLISH, bridge=True).label == plain.label


def _framings_read(monkeypatch, as_cut, framed_reads):
    """classify_crop gives ``as_cut`` for the crop as cut and ``framed_reads[i]`` for the crop in
    LONE_FRAMINGS[i] (each a (label, confidence))."""
    assert len(framed_reads) == len(L.LONE_FRAMINGS)
    calls = iter([as_cut] + list(framed_reads))

    def fake(crop, letters, model=None, prototypes=None, polarity=None, board=False, bridge=False):
        label, p = next(calls)
        return L.LetterGuess(label, p, None, [(label, p)])
    monkeypatch.setattr(L, "classify_crop", fake)


def test_a_letter_read_without_the_marks_the_crops_middle_shows_is_read_with_them(monkeypatch):
    """Cut with 30 % of board round the tile, a Ü read as cut lost its dots (U at 0.87) while the
    crop's middle read Ü surely: the middle holds no neighbour's ink to pass for a mark."""
    german = ENGLISH + "ÄÖÜ"
    crop = np.full((96, 96, 3), 200, np.uint8)
    _framings_read(monkeypatch, ("U", 0.87), [("U", 0.9), ("U", 0.88), ("Ü", 0.99), ("Ü", 1.0)])
    assert L.classify_lone_crop(crop, german).label == "Ü"
    _framings_read(monkeypatch, ("U", 0.87), [("U", 0.9), ("U", 0.88), ("Ü", 0.99), ("Ü", 1.0)])
    assert L.classify_lone_crop(crop, ENGLISH).label == "U"               # no Ü in the set
    _framings_read(monkeypatch, ("U", 0.87), [("U", 0.9), ("U", 0.88), ("Ü", 0.99), ("U", 0.97)])
    assert L.classify_lone_crop(crop, german).label == "U"                # the middles disagree
    _framings_read(monkeypatch, ("U", 0.87), [("U", 0.9), ("U", 0.88), ("Ü", 0.99), ("Ü", 0.9)])
    assert L.classify_lone_crop(crop, german).label == "U"                # one middle not sure
    assert L.marked_forms("A", ENGLISH + "ÄÅĄ") == "ÄÅĄ" and L.marked_forms("Ä", german) == ""


# --- crops handed over together lie in one pose -------------------------------------------------

def _laid(upright: np.ndarray, pose: int) -> np.ndarray:
    """A crop whose letter lies in ``pose``: the one :func:`L.in_pose` turns back upright."""
    crop = np.rot90(upright, -(pose % 4))
    return np.ascontiguousarray(crop[:, ::-1] if pose >= 4 else crop)


def test_each_pose_is_turned_back_upright_by_in_pose():
    picture = np.arange(5 * 7 * 3, dtype=np.uint8).reshape(5, 7, 3)
    for pose in range(L.POSES):
        assert np.array_equal(L.in_pose(_laid(picture, pose), pose), picture), pose


def test_a_quarter_turn_clockwise_is_pose_one():
    letter_l = np.zeros((5, 5), np.uint8)
    letter_l[:, 1] = letter_l[4, 1:4] = 1           # an L: its foot to the right
    lying = np.rot90(letter_l, -1)                  # turned a quarter turn clockwise
    assert np.array_equal(L.in_pose(lying, 1), letter_l)
    assert L.pose_words(1) == "turned a quarter turn clockwise"
    assert L.pose_words(4) == "mirrored left to right"


def test_a_batch_takes_the_pose_its_letters_read_surest_in_by_a_clear_lead():
    s = np.zeros((10, L.POSES))
    s[:, 0], s[:, 1] = 0.6, 0.95                     # clearly surer turned back a quarter
    assert L.common_pose(s) == 1
    s[:, 1] = 0.6 + L.POSE_LEAD - 0.01               # a lead short of POSE_LEAD: as they are
    assert L.common_pose(s) == 0


def test_a_few_crops_need_a_wider_lead_and_under_five_none_is_taken():
    s = np.zeros((6, L.POSES))
    s[:, 0], s[:, 2] = 0.7, 0.7 + (L.POSE_LEAD + L.POSE_LEAD_FEW) / 2
    assert L.common_pose(s) == 0                     # enough for 8 crops, not for 6
    s[:, 2] = 0.7 + L.POSE_LEAD_FEW + 0.01
    assert L.common_pose(s) == 2
    assert L.common_pose(s[:L.POSE_MIN_CROPS - 1]) == 0


def test_rendered_crops_turned_or_mirrored_alike_read_as_upright_ones():
    """Crops cut from a picture of a board turned in it (or a mirroring camera's) lie alike: the
    batch's pose is found and every crop read turned back -- letter for letter as upright."""
    crops = _lone_crops(0.15, 64, boards=2)[:12]
    upright = [R.classify_tile(c, ENGLISH, min_letter=0.0, min_margin=0.0)[0] for _, c in crops]
    assert sum(u == t for u, (t, _) in zip(upright, crops)) >= 11
    for pose in (1, 2, 6):
        laid = [_laid(c, pose) for _, c in crops]
        assert R.crops_pose(laid, ENGLISH) == pose
        assert [R.classify_tile(L.in_pose(c, pose), ENGLISH, min_letter=0.0, min_margin=0.0)[0]
                for c in laid] == upright


def test_upright_crops_are_read_as_they_are_without_reading_the_other_poses(monkeypatch):
    crops = [c for _, c in _lone_crops(0.0, 64, boards=1)][:8]
    asked = []
    real = L.pose_sureness
    monkeypatch.setattr(L, "pose_sureness", lambda *a, **k: asked.append(tuple(k.get("poses", ()))) or real(*a, **k))
    assert R.crops_pose(crops, ENGLISH) == 0
    assert set(asked) == {(0,)}                      # read as they are, and that settled it


def test_empty_squares_in_a_batch_do_not_vote_on_its_pose():
    s = np.zeros((24, L.POSES))
    s[:12, 0], s[:12, 4] = 0.8, 0.99                 # 12 letters read surer mirrored back
    assert L.common_pose(s) == 4                     # the 12 empty squares, reading none, left out


def test_the_other_poses_are_read_only_where_one_could_lead():
    assert L.no_pose_can_lead(np.full(24, 0.97))     # letters read surely as they are
    assert not L.no_pose_can_lead(np.full(24, 0.6))
    mixed = np.r_[np.full(12, 0.97), np.zeros(12)]   # empty squares might be letters turned
    assert not L.no_pose_can_lead(mixed)
    assert L.no_pose_can_lead(np.full(L.POSE_MIN_CROPS - 1, 0.0))


def test_a_phones_photo_of_one_tile_is_read_at_a_crops_size(monkeypatch):
    """A photo of one tile 2,000 px wide: read shrunk to LONE_MAX_SIDE (its ink picture at full
    size took seconds, growing with the square of the side), the same letter as the crop."""
    crop = tile_crop("K", side=64)
    photo = cv2.resize(crop, (2000, 2000), interpolation=cv2.INTER_CUBIC)
    sides = []
    real = L.ink_image
    monkeypatch.setattr(L, "ink_image", lambda gray, *a, **k: sides.append(max(gray.shape[:2])) or real(gray, *a, **k))
    assert R.classify_tile(photo, ENGLISH)[0] == "K" == R.classify_tile(crop, ENGLISH)[0]
    assert sides and max(sides) <= 1.3 * L.LONE_MAX_SIDE
