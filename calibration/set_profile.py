"""Per-set calibration: learn the players' own tiles from one photo of the tile sheet
(or from pictures of single tiles, :func:`calibrate_crops`).

The players lay one tile of every letter (and a blank) on the board as described in
``calibration/tile_sheet.md`` and take one photo from where the camera will stay.  From it we
keep, in a small ``.npz`` "set profile":

* the letters' own shapes as prototypes (model embedding + glyph pixels, a few small
  distortions each) -- nearest-prototype votes are mixed into the letter model's answer, so
  an unusual font is read right, and letters the model was never trained on become readable;
* the ink polarity (dark letters on light tiles, or light on dark);
* the tile colour (Lab), which tells blank tiles from empty squares and helps tile/empty.

    from calibration.set_profile import calibrate, SetProfile
    profile = calibrate(photo, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")     # or calibrate_rectified(rect, ...)
    profile.save("my-set.npz"); profile = SetProfile.load("my-set.npz")
    BoardReader(letters, profile=profile)          # vision.read

Nothing here knows game rules; the letters are whatever the set has.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import cv2
import numpy as np

from vision import letters as L
from vision import read as R
from vision.errors import VisionError

GRID = 15
SHEET_ROWS = (1, 3, 5, 7, 9, 11, 13)    # 0-based rows used, top to bottom (2nd, 4th, 6th... row)
SHEET_COLS = tuple(range(1, 14))        # 0-based columns used, left to right (2nd ... 14th)


def sheet_positions(n: int) -> list[tuple[int, int]]:
    """The first ``n`` sheet squares in reading order (row, col), 0-based."""
    slots = [(r, c) for r in SHEET_ROWS for c in SHEET_COLS]
    if n > len(slots):
        raise VisionError(f"The tile sheet has room for {len(slots)} tiles, not {n}.", "bad-input")
    return slots[:n]


def sheet_layout(letters: str, blanks: int = 1) -> dict[tuple[int, int], str]:
    """Square -> tile ('?' for a blank) of the sheet for ``letters`` (in the order given)."""
    seq = list(dict.fromkeys(letters.upper().replace("?", ""))) + ["?"] * blanks
    return dict(zip(sheet_positions(len(seq)), seq))


def _model_id(model: L.LetterModel) -> str:
    h = hashlib.sha1()
    for k in sorted(model.params):
        h.update(np.ascontiguousarray(model.params[k]).tobytes()[:4096])
    return h.hexdigest()[:12]


@dataclass
class SetProfile:
    """What was learnt about one tile set."""

    letters: str
    polarity: int
    tile_lab: np.ndarray | None
    prototypes: L.Prototypes = field(default_factory=L.Prototypes)
    model_id: str = ""
    details: dict = field(default_factory=dict)

    def save(self, path: str | Path) -> None:
        p = self.prototypes
        np.savez_compressed(path, letters=np.asarray(self.letters), polarity=np.asarray(self.polarity),
                            tile_lab=np.asarray(self.tile_lab if self.tile_lab is not None else [np.nan] * 3,
                                                np.float32),
                            labels=np.asarray("".join(p.labels)), vectors=p.vectors.astype(np.float16),
                            pixels=p.pixels.astype(np.float16), model_id=np.asarray(self.model_id))

    @classmethod
    def load(cls, path: str | Path, model: L.LetterModel | None = None) -> "SetProfile":
        if not Path(path).is_file():
            raise VisionError(f"{path}: tile-set profile not found (make one with companion vision calibrate).",
                              "not-found")
        try:
            z = np.load(path, allow_pickle=False)
            tl = z["tile_lab"].astype(np.float32)
            protos = L.Prototypes(list(str(z["labels"])), z["vectors"].astype(np.float32),
                                  z["pixels"].astype(np.float32))
            prof = cls(str(z["letters"]), int(z["polarity"]), None if np.isnan(tl).any() else tl, protos,
                       str(z["model_id"]))
        except (OSError, ValueError, KeyError) as e:
            raise VisionError(f"{path}: not a tile-set profile (made by calibration/set_profile.py).",
                              "bad-input") from e
        model = model or L.default_model()
        if prof.model_id and prof.model_id != _model_id(model):
            raise VisionError(f"{path}: this set profile was made with another letter model; "
                              "photograph the tile sheet again.", "stale-profile")
        return prof


def _variants(g: L.Glyph, rng: np.random.Generator, n: int) -> list[L.Glyph]:
    """The glyph and ``n`` small distortions of it (turn, scale, shift, stroke weight)."""
    out = [g]
    c = L.GLYPH / 2
    for _ in range(n):
        a = np.radians(rng.normal(0, 4))
        sx, sy = rng.uniform(0.9, 1.08, 2)
        A = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ np.diag([sx, sy])
        t = np.array([c, c]) - A @ np.array([c, c]) + rng.normal(0, 0.6, 2)
        img = cv2.warpAffine(g.image, np.hstack([A, t[:, None]]).astype(np.float32), (L.GLYPH, L.GLYPH))
        if rng.random() < 0.3:
            img = (cv2.GaussianBlur(img, (3, 3), 0.7) > (0.3 if rng.random() < 0.5 else 0.65)).astype(np.float32)
        out.append(L.Glyph(img, g.aspect * sx / sy, g.height * sy, g.ink, g.parts, g.contrast, g.centre))
    return out


def _prototypes(examples: list[tuple[str, L.Glyph]], model: L.LetterModel, variants: int,
                seed: int) -> L.Prototypes:
    """Prototypes of labelled glyphs, each with ``variants`` small distortions."""
    rng = np.random.default_rng(seed)
    protos = L.Prototypes()
    for label, g in examples:
        vs = _variants(g, rng, variants)
        ims, meta = L.stack(vs)
        hid = model.forward(ims, meta)[1]
        for v, h in zip(vs, hid):
            protos.add(label, h, v.image)
    return protos


def calibrate_rectified(rect: np.ndarray, letters: str, blanks: int = 1, model: L.LetterModel | None = None,
                        variants: int = 6, seed: int = 0) -> SetProfile:
    """Learn a set from a rectified picture of its tile sheet (any quarter turn, mirrored or not:
    a camera that mirrors its picture shows the sheet's rows running backwards, and its letters
    would be learnt as their neighbours').

    Which way the sheet is seen (turn, mirror, dark or light ink) is the way its squares read as
    the letters the sheet puts there (the sum of the letter model's probability for each square's
    own letter); only where the model knows none of the set's letters does the count of letter-sized
    glyphs decide (less those on squares the sheet leaves empty).  That count alone was not enough:
    the sheet's letters are found either way round and in either polarity -- a mirrored letter, or
    a white tile's face between its letter's strokes, is ink of a letter's size too -- and on a
    board darker than the tiles the shadows beside them counted as stray ink for dark letters,
    so white tiles with black letters were learnt as light ink (a third of random rendered sets
    were learnt in the wrong polarity or mirrored, and their boards then read 51-72 % of their
    tiles right instead of 98-99 %: ``scripts/bench_read.py --only calibrated``)."""
    model = model or L.default_model()
    layout = sheet_layout(letters, blanks)
    reader = R.BoardReader(letters, model=model)
    rect = R.as_board(rect)
    best = None
    for k, mirrored in [(k, m) for m in (False, True) for k in range(4)]:
        an = R.Analysis(np.ascontiguousarray(np.rot90(rect[:, ::-1] if mirrored else rect, k)))
        for pol in (1, -1):
            gl = {rc: an.glyph(pol, *rc) for rc in layout if layout[rc] != "?"}
            big = {rc: g for rc, g in gl.items() if g is not None and g.height >= 0.25}
            # squares that should be empty but hold a big glyph count against this reading
            others = [an.glyph(pol, r, c) for r in range(GRID) for c in range(GRID)
                      if (r, c) not in layout and an.peak(pol)[r, c] >= R.PEAK_MIN]
            stray = sum(1 for g in others if g is not None and g.height >= 0.3)
            found = len(big) - stray
            as_laid = 0.0
            if big:
                p, classes = reader._classify(list(big.values()))
                found += 0.5 * float(p[:, :-2].max(axis=1).mean())
                col = {ch: i for i, ch in enumerate(classes[:-2])}
                as_laid = sum(float(p[i, col[layout[rc]]]) for i, rc in enumerate(big) if layout[rc] in col)
            fit = (as_laid, found)
            if best is None or fit > best[0]:
                best = (fit, k, pol, an, big, mirrored)
    fit, k, pol, an, big, mirrored = best
    wanted = sum(1 for v in layout.values() if v != "?")
    if len(big) < 0.8 * wanted:
        raise VisionError(f"Only {len(big)} of the {wanted} letters of the tile sheet were found; lay them out as "
                          "calibration/tile_sheet.md shows and take the photo again.", "bad-sheet")
    examples = [(layout[rc], g) for rc, g in big.items()] + _cleaner_cuts(an, pol, big, layout, reader)
    protos = _prototypes(examples, model, variants, seed)
    face = an.face_lab(pol)
    tiles = [face[rc] for rc in layout if rc in big or layout[rc] == "?"]
    tile_lab = np.median(np.array(tiles), axis=0).astype(np.float32) if tiles else None
    return SetProfile("".join(dict.fromkeys(letters.upper().replace("?", ""))), pol, tile_lab, protos,
                      _model_id(model), {"orientation": k, "mirrored": mirrored, "found": len(big), "wanted": wanted})


CLEANER_BY = 0.05      # how much surer another cut must read the sheet's letter to be kept too


def _cleaner_cuts(an, pol: int, big: dict, layout: dict, reader) -> list[tuple[str, L.Glyph]]:
    """For each sheet letter, the other cut of its square (:func:`vision.letters.glyph_cuts`: without
    the pieces joined to it, around the next components) that the model reads as that letter
    CLEANER_BY or more surer than the usual cut, when there is one: a second prototype, without
    the tile's edge or point value the usual cut may hold."""
    out = []
    for rc, g in big.items():
        cuts = [c for _, c in L.glyph_cuts(an.ink_crop(pol, *rc))]
        if not cuts:
            continue
        p, classes = reader._classify([g] + cuts)
        if layout[rc] not in classes:
            continue
        col = classes.index(layout[rc])
        i = int(np.argmax(p[1:, col]))
        if p[1 + i, col] > p[0, col] + CLEANER_BY:
            out.append((layout[rc], cuts[i]))
    return out


def crop_letter(path: str | Path, letters: str) -> str | None:
    """The letter a crop file shows, from its name: the folder (``A/0001.png``) when it is named
    by one of the set's letters, else the file name up to the first ``_``, ``-`` or ``.``
    (``A.png``, ``Ä_2.jpg``); None when neither is one of ``letters``."""
    p = Path(path)
    for name in (p.parent.name, p.name.split(".")[0].replace("-", "_").split("_")[0]):
        if len(name) == 1 and name.upper() in letters.upper():
            return name.upper()
    return None


def _labelled_glyph(img: np.ndarray, gray: np.ndarray, label: str, pol: int, letters: str,
                    model: L.LetterModel) -> tuple[L.Glyph | None, float | None]:
    """The glyph of a single tile's picture whose letter is ``label``, however the picture was
    cut (see :func:`vision.letters.classify_lone_crop`): cut as it is, and framed as the board
    reader frames a square (:data:`vision.letters.LONE_FRAMINGS`), the cut the letter model reads
    as ``label`` most surely.  Cut only as it is, a picture with some board round the tile gave
    the board's edge as the letter, and such prototypes then misread the set's letters (rendered
    sets cut with 15 % of board round each square: 100 % read without the profile, 67 % with).
    A letter the model does not know (a set's own letter) is the cut it reads most surely as
    some letter, the cut as it is unless another is 0.2 surer.  A picture whose edges measure
    tilted (:func:`vision.letters.tilt_of`: a tile photographed askew) is cut turned upright too
    (:func:`vision.letters.turned_upright`), so the set is learnt from upright letters -- only
    on a tilt measured surely (TILT_SURE): upright crops whose letters' strokes measure tilted
    gave prototypes cut from a turned letter (jheidel calibrated from one crop a letter: a crop
    more wrong).  A dim picture (:func:`vision.letters.stretched`) is cut with its grey levels
    stretched too.  Returns the glyph and how surely it reads as its letter (None: no ink in that
    polarity)."""
    pictures = [img]
    brighter = L.stretched(img)          # a picture taken in a dim room: its levels stretched too
    if brighter is not None:
        pictures.append(brighter)
    angle, sureness = L.tilt_of(gray)
    if abs(angle) >= L.TILT_MIN and sureness >= L.TILT_SURE:
        upright = L.turned_upright(img, angle)
        if min(upright.shape[:2]) >= L.MIN_CROP_SIDE:
            pictures.append(upright)
    cuts = []
    for picture in pictures:
        cuts.append(L.glyph_of(picture, pol, gray=gray if picture is img else None))
        cuts += [L.glyph_of(L.framed(picture, f), pol, board=True) for f in L.LONE_FRAMINGS]
    found = [g for g in cuts if g is not None]
    if not found:
        return None, None
    ims, meta = L.stack(found)
    known = label in model.index and label not in (L.ROT, L.NONE)
    p, classes = model.probabilities(ims, meta, letters + (label if known else ""))
    if known:
        score = p[:, classes.index(label)]
    else:
        score = 1.0 - p[:, classes.index(L.NONE)] + np.where(np.array([g is cuts[0] for g in found]), L.AS_CUT_LEAD, 0.0)
    i = int(np.argmax(score))
    return found[i], float(min(1.0, score[i]))


def calibrate_crops(crops: list[tuple[str, np.ndarray]], letters: str, model: L.LetterModel | None = None,
                    variants: int = 6, seed: int = 0) -> SetProfile:
    """Learn a set from pictures of single tiles, each with its letter (one or more per letter).

    For players who would rather photograph their tiles one by one (or already have crops) than
    lay out the tile sheet.  However the pictures were cut (tight, or with board round the
    tile), each letter is learnt from the cut the model reads as it (:func:`_labelled_glyph`),
    and the polarity is the one the letters read in best (the crops' majority look on a tie);
    the tile colour is kept only when the crops are in colour (grey or binarised crops say
    nothing about it).  Pictures whose letters all lie turned or mirrored alike (a phone held
    sideways; :func:`vision.read.crops_pose`) are turned back first, so the set is learnt from
    upright letters (``details["pose"]`` says how they lay).
    """
    model = model or L.default_model()
    if not crops:
        raise VisionError("No tile pictures to learn from.", "bad-input")
    crops = [(label, L.at_most(img, L.LONE_MAX_SIDE)) for label, img in crops]     # a phone's photo of a tile
    pose = R.crops_pose([img for _, img in crops], letters, model)
    if pose:
        crops = [(label, L.in_pose(img, pose)) for label, img in crops]
    grays = [L.to_gray(img) for _, img in crops]
    # the polarity the letters read best in (each its own letter), not the crops' look: a crop
    # with the board round the tile has the board in its outer ring, where a lone crop's guess looks
    votes = sum(L.guess_polarity(g) for g in grays)
    found = {p: [_labelled_glyph(img, gray, label, p, letters, model) for (label, img), gray in zip(crops, grays)]
             for p in (1, -1)}
    score = {p: sum(s for _, s in found[p] if s is not None) for p in (1, -1)}
    pol = (1 if votes >= 0 else -1) if abs(score[1] - score[-1]) < 1e-6 else max((1, -1), key=score.get)
    examples, unread = [], []
    for (label, _), (g, _) in zip(crops, found[pol]):
        if g is None:
            unread.append(label)
        else:
            examples.append((label, g))
    if not examples:
        raise VisionError("No letter could be found on any of the tile pictures; photograph the tiles "
                          "closer, one tile per picture.", "bad-sheet")
    tile_lab = None
    colour = [img for _, img in crops if img.ndim == 3 and not (np.array_equal(img[..., 0], img[..., 1])
                                                                and np.array_equal(img[..., 1], img[..., 2]))]
    if colour:
        faces = []
        for img in colour:
            lab = cv2.cvtColor(np.ascontiguousarray(img[:, :, :3]), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
            med = np.median(lab[:, 0])
            faces.append(lab[lab[:, 0] >= med if pol > 0 else lab[:, 0] <= med].mean(axis=0))
        tile_lab = np.median(np.array(faces), axis=0).astype(np.float32)
    set_letters = "".join(dict.fromkeys(letters.upper().replace("?", "")))
    learnt = sorted({lab for lab, _ in examples})
    return SetProfile(set_letters, pol, tile_lab, _prototypes(examples, model, variants, seed), _model_id(model),
                      {"found": len(learnt), "wanted": len(set_letters), "pictures": len(examples),
                       "unread": unread, "missing": [ch for ch in set_letters if ch not in learnt],
                       "pose": L.pose_words(pose) if pose else None})


def calibrate(image: np.ndarray, letters: str, blanks: int = 1, corners=None, **kw) -> SetProfile:
    """Learn a set from a photo of its tile sheet (board located automatically, or ``corners``)."""
    return calibrate_rectified(R.split_surround(R.rectify_photo(image, "tile sheet", corners))[0], letters, blanks, **kw)


def calibrate_main(image_path, letters: str, profile_path, out: TextIO = sys.stdout, *, blanks: int = 1,
                   corners=None, board_profile=None) -> int:
    """CLI: photo of the tile sheet (or a folder of single-tile pictures named by their letters,
    see :func:`crop_letter`) -> profile file.  ``board_profile``: the grid's corners kept for the
    camera (``companion vision corners``), instead of finding them.  Prints a summary or an
    ERROR line."""
    try:
        skipped: list[str] = []
        if Path(image_path).is_dir():
            crops = []
            for f in R._expand([image_path]):
                lab = crop_letter(f, letters)
                if lab is None:
                    continue
                try:
                    crops.append((lab, R._load(f)))
                except VisionError as e:          # one damaged file does not spoil the others
                    skipped.append(str(e))
            if not crops:
                raise VisionError(f"{image_path}: no tile pictures named by a letter of the set "
                                  "(folders A/, B/ ... or files A.png, B_2.png ...).", "bad-input")
            prof = calibrate_crops(crops, letters)
        else:
            image = R._load(image_path)
            if board_profile is not None and corners is None:
                from vision.locate import locate_from_profile
                corners = locate_from_profile(board_profile, image, str(image_path)).corners
            prof = calibrate(image, letters, blanks, corners)
        prof.save(profile_path)
    except VisionError as e:
        print(f"ERROR: {e}", file=out)
        return 1
    print(f"saved {profile_path}: {prof.details['found']} of {prof.details['wanted']} letters learnt, "
          f"{'dark' if prof.polarity > 0 else 'light'} letters"
          + ("; the photo is mirrored (a camera that mirrors its picture): read flipped back"
             if prof.details.get("mirrored") else "")
          + (f"; the pictures' letters lie {prof.details['pose']}: learnt turned back"
             if prof.details.get("pose") else ""), file=out)
    for why in skipped:
        print(f"left out: {why}", file=out)
    if prof.details.get("missing"):
        print(f"not learnt (no picture of them): {' '.join(prof.details['missing'])}", file=out)
    if prof.details.get("unread"):
        print(f"no letter found on {len(prof.details['unread'])} picture(s) of: "
              f"{' '.join(sorted(set(prof.details['unread'])))}", file=out)
    return 0
