"""Write a printable sheet of the four board-corner marker cards (PNG and PDF).

    python calibration/make_marker_sheet.py                 # A4, 30 mm markers, into calibration/markers/
    python calibration/make_marker_sheet.py --paper letter --marker-mm 25 --out-dir /tmp

Four ArUco markers (DICT_4X4_50, ids 0-3), each on a square card with a white margin of a quarter
of the marker's side (calibration/markers/layout.json), dashed cutting lines, a 50 mm bar to
check the print scale, and the instructions.  The locator (vision.locate.locate_markers) takes
the corner of each card that points at the middle of the board as a grid corner, so cards may be
swapped and turned freely.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
LAYOUT = HERE / "markers" / "layout.json"
PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

INSTRUCTIONS = [
    "1. Print at 100 % (no 'fit to page'). The bar below must measure 50 mm.",
    "2. Cut out the four cards along the dashed lines (keep the white border!).",
    "3. Lay one card at each corner of the 15 x 15 playing grid, OUTSIDE the grid:",
    "   one corner of the card touches the corner of the grid, and the card's",
    "   edges continue the grid's outer lines. Which card goes where, and how it",
    "   is turned, does not matter.",
    "4. Keep all four cards flat, uncovered and in view of the camera.",
]


def _layout() -> dict:
    try:
        return json.loads(LAYOUT.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"dictionary": "DICT_4X4_50", "ids": [0, 1, 2, 3], "card_margin": 0.25}


def _dashed_rect(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, dash: int, thick: int) -> None:
    for (ax, ay, bx, by) in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)):
        length = int(max(abs(bx - ax), abs(by - ay)))
        for s in range(0, length, 2 * dash):
            e = min(length, s + dash)
            p = (int(ax + (bx - ax) * s / length), int(ay + (by - ay) * s / length))
            q = (int(ax + (bx - ax) * e / length), int(ay + (by - ay) * e / length))
            cv2.line(img, p, q, 120, thick)


def make_sheet(marker_mm: float = 30.0, dpi: int = 300, paper: str = "a4") -> np.ndarray:
    """The sheet as a greyscale image (white paper, black ink)."""
    lay = _layout()
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r} (a4 or letter)")
    wmm, hmm = PAPERS_MM[paper]
    px = dpi / 25.4
    w, h = int(round(wmm * px)), int(round(hmm * px))
    sheet = np.full((h, w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, lay["dictionary"]))
    q = float(lay["card_margin"])
    mside = int(round(marker_mm * px))
    card = int(round(mside * (1 + 2 * q)))
    gap = int(round(12 * px))
    total = 2 * card + gap
    x_start = (w - total) // 2
    y_start = int(round(62 * px))
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = px / 11.0
    thick = max(1, int(round(px / 5)))
    cv2.putText(sheet, "Table Companion - board corner markers", (int(15 * px), int(18 * px)), font,
                scale * 1.3, 0, thick + 1, cv2.LINE_AA)
    for i, line in enumerate(INSTRUCTIONS):
        cv2.putText(sheet, line, (int(15 * px), int((27 + 5 * i) * px)), font, scale * 0.85, 0, thick, cv2.LINE_AA)
    for k, marker_id in enumerate(lay["ids"][:4]):
        r, c = divmod(k, 2)
        x0 = x_start + c * (card + gap)
        y0 = y_start + r * (card + gap + int(8 * px))
        marker = cv2.aruco.generateImageMarker(dictionary, int(marker_id), mside)
        off = int(round(mside * q))
        sheet[y0 + off:y0 + off + mside, x0 + off:x0 + off + mside] = marker
        _dashed_rect(sheet, x0, y0, x0 + card, y0 + card, dash=int(3 * px), thick=thick)
        cv2.putText(sheet, f"corner card {marker_id}", (x0, y0 + card + int(5 * px)), font, scale * 0.8, 90,
                    thick, cv2.LINE_AA)
    # 50 mm scale bar
    by = y_start + 2 * card + 2 * gap + int(22 * px)
    bx = int(15 * px)
    cv2.rectangle(sheet, (bx, by), (bx + int(round(50 * px)), by + int(2 * px)), 0, -1)
    cv2.putText(sheet, "50 mm", (bx + int(round(52 * px)), by + int(2 * px)), font, scale * 0.8, 0, thick, cv2.LINE_AA)
    cv2.putText(sheet, f"ArUco {lay['dictionary']}, ids {lay['ids']}, marker {marker_mm:g} mm, "
                       f"card margin {q:g} x marker", (bx, by + int(10 * px)), font, scale * 0.7, 90, thick, cv2.LINE_AA)
    _diagram(sheet, int(120 * px), by - int(6 * px), px, font, scale, thick)
    return sheet


def _diagram(sheet: np.ndarray, x: int, y: int, px: float, font: int, scale: float, thick: int) -> None:
    """A small picture of where the cards go: outside the grid, one corner touching each corner."""
    g = int(55 * px)            # the playing grid, drawn 55 mm wide
    c = int(12 * px)            # a card, drawn 12 mm wide
    x0, y0 = x + c, y + c
    for i in range(16):
        t = x0 + i * g // 15
        cv2.line(sheet, (t, y0), (t, y0 + g), 170, max(1, thick // 2))
        t = y0 + i * g // 15
        cv2.line(sheet, (x0, t), (x0 + g, t), 170, max(1, thick // 2))
    cv2.rectangle(sheet, (x0, y0), (x0 + g, y0 + g), 60, thick)
    for cx, cy in ((x0 - c, y0 - c), (x0 + g, y0 - c), (x0 + g, y0 + g), (x0 - c, y0 + g)):
        cv2.rectangle(sheet, (cx, cy), (cx + c, cy + c), 0, thick)
        m = c // 4
        cv2.rectangle(sheet, (cx + m, cy + m), (cx + c - m, cy + c - m), 0, -1)
    cv2.putText(sheet, "playing grid", (x0 + g // 4, y0 + g // 2), font, scale * 0.8, 0, thick, cv2.LINE_AA)
    cv2.putText(sheet, "cards touch the grid corners from outside", (x, y0 + g + c + int(6 * px)), font,
                scale * 0.7, 0, thick, cv2.LINE_AA)


def write_pdf(path: Path, gray: np.ndarray, paper: str = "a4") -> None:
    """A one-page PDF showing ``gray`` over the whole page (no extra library needed)."""
    wmm, hmm = PAPERS_MM[paper]
    wpt, hpt = wmm / 25.4 * 72, hmm / 25.4 * 72
    h, w = gray.shape
    data = zlib.compress(np.ascontiguousarray(gray).tobytes(), 9)
    content = f"q {wpt:.2f} 0 0 {hpt:.2f} 0 0 cm /Im0 Do Q".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {wpt:.2f} {hpt:.2f}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", default=str(HERE / "markers"), help="folder for the PNG and PDF")
    ap.add_argument("--marker-mm", type=float, default=30.0, help="marker side in mm (card = 1.5 x this)")
    ap.add_argument("--dpi", type=int, default=300)
    ap.add_argument("--paper", choices=sorted(PAPERS_MM), default="a4")
    ap.add_argument("--no-pdf", action="store_true", help="write only the PNG")
    args = ap.parse_args(argv)
    if not 10 <= args.marker_mm <= 80:
        print("ERROR --marker-mm must be between 10 and 80", file=sys.stderr)
        return 2
    sheet = make_sheet(args.marker_mm, args.dpi, args.paper)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    png = out / f"marker-sheet-{args.paper}.png"
    ok, buf = cv2.imencode(".png", sheet, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        print(f"ERROR could not encode {png}", file=sys.stderr)
        return 1
    png.write_bytes(buf.tobytes())
    print(png)
    if not args.no_pdf:
        pdf = out / f"marker-sheet-{args.paper}.pdf"
        write_pdf(pdf, sheet, args.paper)
        print(pdf)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
