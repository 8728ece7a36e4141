"""``companion vision locate IMAGE...``: print where the playing grid is in each picture.

One line per picture::

    path<TAB>[[x,y],[x,y],[x,y],[x,y]]      corners TL, TR, BR, BL (as seen on screen), 0.1 px
    path<TAB>ERROR reason                   no board, unreadable file, board partly outside...

A folder stands for the pictures in it (name order).  Never a traceback: every problem is one
ERROR line.  Exit status 0 when every picture was located, 1 when some were not, 2 when no
picture was given.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from vision.errors import VisionError

__all__ = ["locate_main", "format_corners", "corners_main", "parse_corners"]


def format_corners(corners) -> str:
    """``[[x,y],[x,y],[x,y],[x,y]]`` with one decimal."""
    return "[" + ",".join(f"[{float(x):.1f},{float(y):.1f}]" for x, y in corners) + "]"


def _reason(exc: BaseException, path: str) -> str:
    msg = str(exc).strip() or type(exc).__name__
    for prefix in (f"{path}: ", f"{Path(path)}: "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
            break
    return " ".join(msg.split())  # one line, whatever the message holds


def _expand(paths: list[str]) -> list[str]:
    from vision.frames import IMAGE_EXTENSIONS, _natural_key

    out: list[str] = []
    for p in paths:
        pp = Path(p)
        if pp.is_dir():
            pics = sorted((q for q in pp.iterdir() if q.is_file() and q.suffix.lower() in IMAGE_EXTENSIONS),
                          key=lambda q: _natural_key(q.name))
            if pics:
                out.extend(str(q) for q in pics)
                continue
        out.append(p)
    return out


def locate_main(paths: list[str], out: TextIO = sys.stdout, *, profile: str | None = None,
                method: str = "any") -> int:
    """Locate the grid in each picture and print one line per picture (see module docstring)."""
    if not paths:
        out.write("ERROR no picture given (usage: companion vision locate IMAGE...)\n")
        return 2
    from vision.frames import load_image
    from vision.locate import locate_board

    failures = 0
    for path in _expand(list(paths)):
        try:
            if Path(path).is_dir():
                raise VisionError(f"{path}: folder without pictures", "unreadable")
            image = load_image(path)
            loc = locate_board(image, path, profile=profile, method=method)
            line = f"{path}\t{format_corners(loc.corners)}"
        except VisionError as exc:
            failures += 1
            line = f"{path}\tERROR {_reason(exc, path)}"
        except MemoryError:
            failures += 1
            line = f"{path}\tERROR picture too large for the memory available"
        except Exception as exc:  # never a traceback at the table
            failures += 1
            line = f"{path}\tERROR internal error ({type(exc).__name__}: {_reason(exc, path)})"
        out.write(line + "\n")
        if hasattr(out, "flush"):
            out.flush()
    return 1 if failures else 0


if __name__ == "__main__":  # python -m vision.locate_cli IMAGE...
    raise SystemExit(locate_main(sys.argv[1:]))


def parse_corners(texts: list[str]) -> list[list[float]]:
    """Four ``x,y`` texts (TL TR BR BL, image pixels) -> [[x, y], ...]; VisionError names what
    is wrong."""
    if len(texts) != 4:
        raise VisionError(f"give the grid's four corners, top-left, top-right, bottom-right, bottom-left, each as "
                          f"x,y (got {len(texts)})", "bad-input")
    out = []
    for name, t in zip(("top-left", "top-right", "bottom-right", "bottom-left"), texts):
        try:
            x, y = (float(v) for v in t.replace(";", ",").split(","))
        except ValueError:
            raise VisionError(f"the {name} corner {t!r} is not x,y in pixels (e.g. 412,188)", "bad-input") from None
        out.append([x, y])
    return out


def corners_main(image_path: str, profile_path: str, corner_texts: list[str] | None = None,
                 preview: str | None = None, out: TextIO = sys.stdout) -> int:
    """``companion vision corners IMAGE --save PROFILE.json [--at TL TR BR BL] [--preview PNG]``:
    keep where the grid is for a camera that stays put (a board profile, used by ``replay`` and
    ``watch`` with ``--board-profile``).  With ``--at`` the corners are the ones given (read off
    an image viewer: the outer corners of the 15x15 playing grid, not the board's edge);
    without, the ones the locator finds (automatic, or the corner markers).  ``--preview``
    writes the grid as the profile straightens it, to check by eye.  Exit 0 saved, 1 not."""
    import cv2

    from vision.frames import load_image
    from vision.geometry import rectify
    from vision.locate import locate_board, save_profile

    try:
        image = load_image(image_path)
        h, w = image.shape[:2]
        if corner_texts:
            corners = parse_corners(corner_texts)
            for name, (x, y) in zip(("top-left", "top-right", "bottom-right", "bottom-left"), corners):
                if not (-0.25 * w <= x <= 1.25 * w and -0.25 * h <= y <= 1.25 * h):
                    raise VisionError(f"the {name} corner ({x:g}, {y:g}) lies far outside the {w}x{h} picture",
                                      "bad-input")
            how = "as given"
        else:
            loc = locate_board(image, image_path)
            corners, how = loc.corners.tolist(), f"found ({loc.method})"
        save_profile(profile_path, corners, (w, h), name=Path(image_path).stem,
                     note=f"corners {how} on {Path(image_path).name}")
        if preview:
            if not cv2.imwrite(preview, rectify(image, corners, 40, margin_cells=0.5)):
                raise VisionError(f"{preview}: cannot write the preview there (a .png or .jpg name in a folder "
                                  "that exists)", "bad-input")
    except VisionError as exc:
        out.write(f"{image_path}\tERROR {_reason(exc, image_path)}\n")
        return 1
    out.write(f"{image_path}\t{format_corners(corners)}\tsaved to {profile_path} ({how})"
              + (f"; the grid straightened: {preview}" if preview else "") + "\n")
    return 0
