"""Frame sources: one interface for a still photo, a folder of photos, a video, a camera, a Pi camera.

``open_source(spec)`` turns what a player typed or configured into a :class:`FrameSource`; the
rest of the program only iterates over :class:`Frame` objects (BGR image, name, index, time)::

    with open_source("game-photos/") as source:      # or "move.jpg", "game.mp4", 0, "picamera"
        for frame in source:
            location = tracker.update(frame.image, frame.name)

Spec forms: an ``int`` or "0", "camera", "camera:1" (OpenCV camera), "picamera" / "pi" (Raspberry
Pi camera through picamera2), a folder (its pictures sorted by name, numbers in names counted as
numbers, one picture per move), a picture file, a video file, a numpy image or a list of them,
and "synthetic[:style]" (a rendered board, for demos and tests; see :func:`render_board`).

Every problem (missing file, unreadable picture, folder without pictures, camera that does not
open, video without frames) is a :class:`~vision.errors.VisionError` naming the file and reason.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import cv2
import numpy as np

from vision.errors import VisionError

__all__ = ["Frame", "FrameSource", "ImageSource", "FolderSource", "VideoSource", "CameraSource",
           "PiCameraSource", "ArraySource", "SyntheticSource", "open_source", "load_image",
           "IMAGE_EXTENSIONS", "VIDEO_EXTENSIONS", "render_board", "BOARD_STYLES"]

IMAGE_EXTENSIONS = frozenset({".jpg", ".jpeg", ".jfif", ".png", ".bmp", ".tif", ".tiff", ".webp", ".jp2", ".pgm",
                              ".ppm", ".heic", ".heif", ".avif", ".gif"})
#: Formats OpenCV cannot decode (or, GIF, decodes only in some builds): read through Pillow.
#: Phone formats: HEIC/HEIF with pillow-heif, which set-up installs (an iPhone saves its photos
#: as HEIC unless set to "Most Compatible"); GIF: tile crops saved from a web page.
PILLOW_EXTENSIONS = frozenset({".heic", ".heif", ".avif", ".gif"})
VIDEO_EXTENSIONS = frozenset({".mp4", ".avi", ".mov", ".mkv", ".m4v", ".webm", ".mpg", ".mpeg", ".wmv", ".3gp",
                              ".h264"})


@dataclass(frozen=True)
class Frame:
    """One picture: ``image`` (H x W x 3 uint8, BGR), ``name`` (file name or "camera 0 #12"),
    ``index`` (0, 1, 2... in this source) and ``timestamp`` (seconds: file time for photos,
    position in the video, clock time for cameras)."""

    image: np.ndarray
    name: str
    index: int
    timestamp: float


def load_image(path: str | os.PathLike) -> np.ndarray:
    """Read a picture as BGR uint8 (phone rotation applied); VisionError names file and reason.

    JPEG, PNG, TIFF, WebP... through OpenCV; HEIC / HEIF / AVIF (phones) through Pillow.  A JPEG
    cut short (a copy that stopped half way, a photo still being written into the folder) is
    refused: the decoder would fill its missing part with grey and the board would be read
    from half a picture."""
    p = Path(path)
    if not p.exists():
        raise VisionError(f"{p}: no such file", "not-found")
    if p.is_dir():
        raise VisionError(f"{p}: is a folder, not a picture", "unreadable")
    try:
        data = np.fromfile(str(p), dtype=np.uint8)  # bytes, not the path: any file name works
    except OSError as exc:
        raise VisionError(f"{p}: cannot be read ({exc.strerror or exc})", "unreadable") from exc
    if data.size == 0:
        raise VisionError(f"{p}: empty file, not a picture", "unreadable")
    head = data[:16].tobytes()
    if _is_heif(head) or p.suffix.lower() in PILLOW_EXTENSIONS:
        return _load_with_pillow(p, head)
    if head[:2] == b"\xff\xd8":
        _check_jpeg_complete(p, data)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise VisionError(f"{p}: not a picture OpenCV can read (damaged, or not an image file)", "unreadable")
    return img


def _is_heif(head: bytes) -> bool:
    """An ISO media file of the HEIF family (HEIC, HEIF, AVIF): 'ftyp' at byte 4."""
    return head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1",
                                                    b"msf1", b"avif", b"avis")


def _check_jpeg_complete(p: Path, data: np.ndarray) -> None:
    """Refuse a JPEG whose picture data stops before its end marker.

    The end marker (FF D9) normally closes the file; some phones append data after it (a Motion
    Photo's video), so only when it is missing at the end is the whole file checked."""
    tail = data[-64:].tobytes().rstrip(b"\x00\r\n ")
    if tail.endswith(b"\xff\xd9"):
        return
    from PIL import Image

    try:
        with Image.open(str(p)) as im:
            im.load()
    except (OSError, SyntaxError, ValueError) as exc:
        raise VisionError(f"{p}: the picture is cut short (the file is damaged, or was still being copied); "
                          f"copy it again", "unreadable") from exc


def _load_with_pillow(p: Path, head: bytes) -> np.ndarray:
    """HEIC / HEIF / AVIF / GIF through Pillow (a dependency; HEIC with pillow-heif where
    installed), rotation applied; a GIF's first frame."""
    from PIL import Image, ImageOps

    heif = ((_is_heif(head) or p.suffix.lower() in (".heic", ".heif")) and head[8:12] not in (b"avif", b"avis")
            and p.suffix.lower() != ".avif")
    if heif:
        try:
            import pillow_heif
            pillow_heif.register_heif_opener()
        except ImportError:
            raise VisionError(f"{p}: a HEIC photo, and HEIC support (pillow-heif) is not installed here: run "
                              "./tc setup, or set the phone's camera to save JPEG ('Most Compatible')",
                              "unreadable") from None
    try:
        with Image.open(str(p)) as im:
            im = ImageOps.exif_transpose(im)
            rgb = np.asarray(im.convert("RGB"))
    except (OSError, SyntaxError, ValueError) as exc:
        raise VisionError(f"{p}: not a picture that can be read (damaged, or not an image file)",
                          "unreadable") from exc
    if rgb.size == 0:
        raise VisionError(f"{p}: empty picture", "unreadable")
    return np.ascontiguousarray(rgb[:, :, ::-1])


def _natural_key(name: str):
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", name)]


class FrameSource:
    """Iterable of :class:`Frame`.  ``live`` sources (cameras) never end by themselves.

    Use as a context manager or call :meth:`close`.  :meth:`read` returns the next frame or
    None at the end; iteration stops at the end.
    """

    live: bool = False
    description: str = "frames"

    def __init__(self) -> None:
        self._index = 0
        self._closed = False
        # what the players should know about this source before the first frame (a camera that
        # gives smaller pictures than asked for); said by whoever watches it
        self.notes: list[str] = []

    def read(self) -> Frame | None:
        if self._closed:
            return None
        item = self._next()
        if item is None:
            return None
        image, name, ts = item
        frame = Frame(image, name, self._index, ts)
        self._index += 1
        return frame

    def _next(self) -> tuple[np.ndarray, str, float] | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame

    def __len__(self) -> int:
        n = self.count
        if n is None:
            raise TypeError(f"{self.description}: a live source has no length")
        return n

    @property
    def count(self) -> int | None:
        """Number of frames when known in advance (None for live sources and most videos)."""
        return None

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.description}>"


class ImageSource(FrameSource):
    """A single picture file (one frame)."""

    def __init__(self, path: str | os.PathLike) -> None:
        super().__init__()
        self.path = Path(path)
        self.description = str(self.path)
        self._image = load_image(self.path)  # fail early with a clear reason
        self._done = False

    @property
    def count(self) -> int:
        return 1

    def _next(self):
        if self._done:
            return None
        self._done = True
        return self._image, self.path.name, _mtime(self.path)


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except OSError:
        return 0.0


class FolderSource(FrameSource):
    """The pictures of a folder in name order ("move 2" before "move 10"), one per move.

    ``skip_unreadable``: leave out damaged files instead of stopping with a VisionError.
    ``on_unreadable(name, error)``: leave them out and say so (a game's other photos go on).
    """

    def __init__(self, folder: str | os.PathLike, *, skip_unreadable: bool = False,
                 pattern: str | None = None, on_unreadable=None) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.description = str(self.folder)
        if not self.folder.exists():
            raise VisionError(f"{self.folder}: no such folder", "not-found")
        if not self.folder.is_dir():
            raise VisionError(f"{self.folder}: not a folder", "not-found")
        files = [p for p in self.folder.iterdir()
                 if p.is_file() and p.suffix.lower() in IMAGE_EXTENSIONS and not p.name.startswith(".")]
        if pattern:
            files = [p for p in files if p.match(pattern)]
        if not files:
            raise VisionError(f"{self.folder}: no pictures in this folder "
                              f"(looked for {', '.join(sorted(IMAGE_EXTENSIONS))})", "unreadable")
        self.files = sorted(files, key=lambda p: _natural_key(p.name))
        self.skip_unreadable = skip_unreadable or on_unreadable is not None
        self.on_unreadable = on_unreadable
        self._pos = 0

    @property
    def count(self) -> int:
        return len(self.files)

    def _next(self):
        while self._pos < len(self.files):
            p = self.files[self._pos]
            self._pos += 1
            try:
                return load_image(p), p.name, _mtime(p)
            except VisionError as exc:
                if not self.skip_unreadable:
                    raise
                if self.on_unreadable is not None:
                    self.on_unreadable(p.name, exc)
        return None


class VideoSource(FrameSource):
    """Frames of a video file; ``every`` keeps one frame in ``every``; ``max_frames`` stops early."""

    def __init__(self, path: str | os.PathLike, *, every: int = 1, max_frames: int | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.description = str(self.path)
        if not self.path.exists():
            raise VisionError(f"{self.path}: no such file", "not-found")
        self.every = max(1, int(every))
        self.max_frames = max_frames
        self._cap = cv2.VideoCapture(str(self.path))
        if not self._cap.isOpened():
            self._cap.release()
            raise VisionError(f"{self.path}: not a video OpenCV can open (damaged, or an unsupported format)",
                              "unreadable")
        ok, first = self._cap.read()
        if not ok or first is None:
            self._cap.release()
            raise VisionError(f"{self.path}: video has no frames", "unreadable")
        self._pending: np.ndarray | None = first
        self._pending_ts = 0.0
        self._read_count = 1
        self._given = 0

    @property
    def count(self) -> int | None:
        n = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0) if self._cap is not None else 0
        if n <= 0:
            return None
        n = (n + self.every - 1) // self.every
        return min(n, self.max_frames) if self.max_frames is not None else n

    def _next(self):
        if self._cap is None or (self.max_frames is not None and self._given >= self.max_frames):
            return None
        if self._pending is not None:
            img, ts = self._pending, self._pending_ts
            self._pending = None
        else:
            img = None
            for _ in range(self.every):
                ok, img = self._cap.read()
                if not ok:
                    return None
                self._read_count += 1
            ts = (self._cap.get(cv2.CAP_PROP_POS_MSEC) or 0.0) / 1000.0
        self._given += 1
        return img, f"{self.path.name}#{self._read_count - 1}", ts

    def close(self) -> None:
        super().close()
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def smaller_than_asked(size: tuple[int, int], asked: tuple[int | None, int | None]) -> str:
    """'gives WxH pictures, not ...' where a camera's pictures are smaller than asked for ('' where
    not, or where either size is unknown): a board far off may then be too small in them to
    find or read (squares under ~27 px, see ``vision.read.SMALL_SQUARE_PX``)."""
    (w, h), (aw, ah) = size, asked
    if not (w and h and aw and ah) or (w >= aw and h >= ah):
        return ""
    return (f"gives {w}x{h} pictures, not the {aw}x{ah} asked for: keep the board large in the picture "
            "(the camera close, the board filling most of it)")


class CameraSource(FrameSource):
    """A live camera through OpenCV (``cv2.VideoCapture(index)``): webcams, USB cameras, tablets
    exposed as cameras.  ``width``/``height`` ask for a resolution (the camera may pick another);
    ``warmup`` frames are dropped so exposure settles."""

    live = True

    def __init__(self, index: int = 0, *, width: int | None = 1920, height: int | None = 1080,
                 warmup: int = 3, backend: int | None = None) -> None:
        super().__init__()
        self.index = int(index)
        self.description = f"camera {self.index}"
        self._cap = cv2.VideoCapture(self.index) if backend is None else cv2.VideoCapture(self.index, backend)
        if not self._cap.isOpened():
            self._cap.release()
            raise VisionError(f"camera {self.index}: cannot be opened (not connected, or used by another program)",
                              "no-camera")
        if width:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, int(width))
        if height:
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, int(height))
        self.size = (int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0), int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0))
        note = smaller_than_asked(self.size, (width, height))
        if note:
            self.notes.append(note)
        for _ in range(max(0, warmup)):
            self._cap.read()

    def _next(self):
        if self._cap is None:
            return None
        ok, img = self._cap.read()
        if not ok or img is None:
            raise VisionError(f"camera {self.index}: gave no picture (unplugged?)", "no-camera")
        return img, f"camera {self.index} #{self._index}", time.time()

    def close(self) -> None:
        super().close()
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera through picamera2 (Raspberry Pi OS: ``sudo apt install python3-picamera2``)."""

    live = True

    def __init__(self, size: tuple[int, int] = (1920, 1080), camera_num: int = 0) -> None:
        super().__init__()
        self.description = f"picamera {camera_num}"
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise VisionError("picamera: the picamera2 library is not installed (it exists on Raspberry Pi OS: "
                              "sudo apt install python3-picamera2); use a camera number instead", "no-camera") from exc
        try:
            self._cam = Picamera2(camera_num)
            # "RGB888" in picamera2 is laid out B, G, R in memory: exactly OpenCV's BGR.
            config = self._cam.create_still_configuration(main={"size": tuple(size), "format": "RGB888"})
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:  # picamera2 raises many kinds; all mean "no camera"
            raise VisionError(f"picamera {camera_num}: cannot be started ({exc})", "no-camera") from exc

    def _next(self):
        if self._cam is None:
            return None
        try:
            img = self._cam.capture_array("main")
        except Exception as exc:
            raise VisionError(f"{self.description}: gave no picture ({exc})", "no-camera") from exc
        if img.ndim == 3 and img.shape[2] == 4:
            img = img[:, :, :3]
        return np.ascontiguousarray(img), f"{self.description} #{self._index}", time.time()

    def close(self) -> None:
        super().close()
        cam, self._cam = getattr(self, "_cam", None), None
        if cam is not None:
            try:
                cam.stop()
                cam.close()
            except Exception:
                pass


class ArraySource(FrameSource):
    """Pictures already in memory (numpy BGR arrays), e.g. from a UI or a test."""

    def __init__(self, images: Sequence[np.ndarray] | np.ndarray, names: Sequence[str] | None = None) -> None:
        super().__init__()
        if isinstance(images, np.ndarray) and images.ndim in (2, 3) and images.dtype == np.uint8 \
                and (images.ndim == 2 or images.shape[-1] in (3, 4)):
            images = [images]
        self.images = list(images)
        if not self.images:
            raise VisionError("no pictures given", "unreadable")
        for i, img in enumerate(self.images):
            if not isinstance(img, np.ndarray) or img.size == 0:
                raise VisionError(f"picture {i}: not an image array", "unreadable")
        self.names = list(names) if names is not None else [f"picture {i}" for i in range(len(self.images))]
        self.description = f"{len(self.images)} picture(s) in memory"
        self._pos = 0

    @property
    def count(self) -> int:
        return len(self.images)

    def _next(self):
        if self._pos >= len(self.images):
            return None
        img = self.images[self._pos]
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        elif img.shape[2] == 4:
            img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
        name = self.names[self._pos]
        self._pos += 1
        return img, name, float(self._pos - 1)


class SyntheticSource(FrameSource):
    """Rendered boards (see :func:`render_board`): ``count`` frames, a fresh random view each."""

    def __init__(self, style: str = "classic", count: int = 10, seed: int = 0, **render_opts: Any) -> None:
        super().__init__()
        if style not in BOARD_STYLES:
            raise VisionError(f"synthetic: unknown board style {style!r} (known: {', '.join(BOARD_STYLES)})",
                              "bad-input")
        self.style, self.n, self.seed, self.opts = style, int(count), int(seed), render_opts
        self.description = f"synthetic {style} x{count}"
        self.truths: list[np.ndarray] = []

    @property
    def count(self) -> int:
        return self.n

    def _next(self):
        if self._index >= self.n:
            return None
        rng = np.random.default_rng(self.seed + self._index)
        img, corners = render_board(self.style, rng=rng, **self.opts)
        self.truths.append(corners)
        return img, f"synthetic-{self.style}-{self._index}", float(self._index)


def open_source(spec: Any, **options: Any) -> FrameSource:
    """A :class:`FrameSource` for ``spec`` (see the module docstring for the forms)."""
    if isinstance(spec, FrameSource):
        return spec
    if isinstance(spec, np.ndarray) or (isinstance(spec, (list, tuple)) and spec and isinstance(spec[0], np.ndarray)):
        return ArraySource(spec, **options)
    if isinstance(spec, bool):
        raise VisionError(f"{spec!r}: not a picture, folder, video or camera", "bad-input")
    if isinstance(spec, int):
        return CameraSource(spec, **options)
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)
    if not isinstance(spec, str) or not spec.strip():
        raise VisionError(f"{spec!r}: not a picture, folder, video or camera", "bad-input")
    text = spec.strip()
    low = text.lower()
    m = re.fullmatch(r"(?:camera|cam|webcam)(?::(\d+))?|(\d{1,2})", low)
    if m and not Path(text).exists():
        return CameraSource(int(m.group(1) or m.group(2) or 0), **options)
    m = re.fullmatch(r"(?:picamera|picam|pi)(?::(\d+))?", low)
    if m and not Path(text).exists():
        return PiCameraSource(camera_num=int(m.group(1) or 0), **options)
    m = re.fullmatch(r"synthetic(?::(\w+))?", low)
    if m and not Path(text).exists():
        return SyntheticSource(m.group(1) or "classic", **options)
    p = Path(text).expanduser()
    if not p.exists():
        raise VisionError(f"{p}: no such file or folder", "not-found")
    if p.is_dir():
        return FolderSource(p, **options)
    ext = p.suffix.lower()
    if ext in VIDEO_EXTENSIONS:
        return VideoSource(p, **options)
    if ext in IMAGE_EXTENSIONS:
        return ImageSource(p)
    # unknown extension: a picture if OpenCV can decode it, else try it as a video
    try:
        return ImageSource(p)
    except VisionError:
        pass
    try:
        return VideoSource(p, **options)
    except VisionError:
        raise VisionError(f"{p}: neither a picture nor a video OpenCV can read", "unreadable") from None


# --------------------------------------------------------------------------------------------
# Synthetic boards (demo camera, tests, benchmarks)
# --------------------------------------------------------------------------------------------

_LAYOUT_HALF = ["T..d...T...d..T", ".D...t...t...D.", "..D...d.d...D..", "d..D...d...D..d",
                "....D.....D....", ".t...t...t...t.", "..d...d.d...d..", "T..d...*...d..T"]
_LAYOUT = _LAYOUT_HALF + _LAYOUT_HALF[:7][::-1]

#: Colours (BGR) of common boards: plain square, line, border, premiums T/D/t/d, tile, letter.
BOARD_STYLES: dict[str, dict[str, Any]] = {
    "classic": dict(plain=(178, 200, 214), line=(235, 240, 240), border=(150, 180, 200), line_w=0.08,
                    T=(60, 50, 210), D=(160, 150, 240), t=(190, 120, 40), d=(225, 200, 140),
                    tile=(170, 215, 235), letter=(30, 30, 30), frame=(40, 40, 180)),
    "mattel": dict(plain=(70, 125, 40), line=(225, 230, 230), border=(50, 95, 30), line_w=0.07,
                   T=(50, 60, 215), D=(150, 160, 245), t=(165, 95, 30), d=(225, 195, 120),
                   tile=(200, 230, 245), letter=(25, 25, 25), frame=(40, 70, 25)),
    "deluxe": dict(plain=(238, 242, 244), line=(90, 165, 200), border=(120, 60, 20), line_w=0.06,
                   T=(60, 40, 120), D=(80, 60, 200), t=(110, 50, 20), d=(215, 180, 140),
                   tile=(60, 70, 130), letter=(235, 235, 235), frame=(30, 60, 120), inset=0.12),
    "wood": dict(plain=(95, 150, 200), line=(40, 70, 100), border=(60, 100, 140), line_w=0.07,
                 T=(45, 45, 170), D=(120, 110, 215), t=(150, 90, 40), d=(200, 170, 120),
                 tile=(150, 190, 215), letter=(20, 20, 20), frame=(40, 70, 110), grain=True),
    "hasbro": dict(plain=(190, 205, 215), line=(245, 245, 245), border=(40, 30, 200), line_w=0.09,
                   T=(55, 45, 215), D=(185, 160, 245), t=(200, 130, 20), d=(225, 200, 90),
                   tile=(160, 205, 230), letter=(20, 20, 20), frame=(40, 30, 200)),
}


def _flat_board(style: dict[str, Any], cell: int, rng: np.random.Generator, tiles: float,
                border_cells: float, markers: bool = False, card_margin: float = 0.25) -> tuple[np.ndarray, float]:
    """The board seen from straight above: returns (image, offset of the grid in pixels)."""
    off = border_cells * cell
    side = int(round(15 * cell + 2 * off))
    img = np.zeros((side, side, 3), np.uint8)
    img[:] = style["border"]
    g0 = int(round(off))
    gsz = 15 * cell
    grid = np.zeros((gsz, gsz, 3), np.uint8)
    grid[:] = style["plain"]
    if style.get("grain"):
        yy = np.arange(gsz)[:, None]
        xx = np.arange(gsz)[None, :]
        wave = (np.sin(xx / 7.0 + 3 * np.sin(yy / 40.0)) * 12 + rng.normal(0, 3, (gsz, gsz))).astype(np.float32)
        grid = np.clip(grid.astype(np.float32) + wave[..., None], 0, 255).astype(np.uint8)
    inset = int(round(style.get("inset", 0.0) * cell))
    for r in range(15):
        for c in range(15):
            k = _LAYOUT[r][c]
            y, x = r * cell, c * cell
            if k == ".":
                continue
            col = style["D" if k == "*" else k]
            cv2.rectangle(grid, (x + inset, y + inset), (x + cell - 1 - inset, y + cell - 1 - inset), col, -1)
            if k == "*":
                cx, cy = x + cell // 2, y + cell // 2
                pts = []
                for i in range(10):
                    rad = cell * (0.35 if i % 2 == 0 else 0.15)
                    a = -np.pi / 2 + i * np.pi / 5
                    pts.append((cx + rad * np.cos(a), cy + rad * np.sin(a)))
                cv2.fillPoly(grid, [np.array(pts, np.int32)], (20, 20, 20))
            else:  # a few lines of "print" like DOUBLE LETTER SCORE
                ink = (255, 255, 255) if sum(col) < 400 else (40, 40, 40)
                for j in range(3):
                    yy = y + int(cell * (0.32 + 0.18 * j))
                    cv2.line(grid, (x + int(cell * 0.25), yy), (x + int(cell * 0.75), yy), ink, max(1, cell // 16))
    lw = max(1, int(round(style["line_w"] * cell)))
    for i in range(16):
        p = min(gsz - 1, i * cell)
        cv2.line(grid, (p, 0), (p, gsz - 1), style["line"], lw)
        cv2.line(grid, (0, p), (gsz - 1, p), style["line"], lw)
    # tiles: random words across and down
    n_tiles = int(tiles * 225)
    occupied = np.zeros((15, 15), bool)
    letters = "ABCDEFGHIJKLMNOPRSTUWY"
    guard = 0
    while occupied.sum() < n_tiles and guard < 500:
        guard += 1
        length = int(rng.integers(2, 8))
        across = bool(rng.integers(0, 2))
        r0, c0 = int(rng.integers(0, 15)), int(rng.integers(0, 15))
        for i in range(length):
            r, c = (r0, c0 + i) if across else (r0 + i, c0)
            if r < 15 and c < 15:
                occupied[r, c] = True
    ts = int(cell * 0.08)
    for r, c in zip(*np.nonzero(occupied)):
        y, x = r * cell, c * cell
        jitter = rng.normal(0, cell * 0.02, 2).astype(int)
        x0, y0 = x + ts + jitter[0], y + ts + jitter[1]
        cv2.rectangle(grid, (x0, y0), (x0 + cell - 2 * ts, y0 + cell - 2 * ts), style["tile"], -1)
        cv2.putText(grid, letters[int(rng.integers(0, len(letters)))], (x0 + int(cell * 0.2), y0 + int(cell * 0.7)),
                    cv2.FONT_HERSHEY_SIMPLEX, cell / 40.0, style["letter"], max(1, cell // 18), cv2.LINE_AA)
    img[g0:g0 + gsz, g0:g0 + gsz] = grid
    cv2.rectangle(img, (0, 0), (side - 1, side - 1), style["frame"], max(2, cell // 3))
    if markers:  # the four printed cards of calibration/make_marker_sheet.py, outside the corners
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        card = int(off * 0.95)
        m = int(round(card / (1 + 2 * card_margin)))
        card = int(round(m * (1 + 2 * card_margin)))
        q = (card - m) // 2
        spots = [(g0 - card, g0 - card), (g0 + gsz, g0 - card), (g0 + gsz, g0 + gsz), (g0 - card, g0 + gsz)]
        for k, (x, y) in enumerate(spots):
            tile = np.full((card, card), 255, np.uint8)
            tile[q:q + m, q:q + m] = cv2.aruco.generateImageMarker(dictionary, k, m)
            tile = np.rot90(tile, int(rng.integers(0, 4)))  # cards may lie turned any way
            img[y:y + card, x:x + card] = tile[..., None]
    return img, float(g0)


def _table(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    h, w = shape
    kind = int(rng.integers(0, 3))
    base = rng.integers(40, 200, 3).astype(np.float32)
    if kind == 0:  # wood-like table
        xx = np.arange(w, dtype=np.float32)[None, :]
        yy = np.arange(h, dtype=np.float32)[:, None]
        grain = np.sin(yy / rng.uniform(3, 9) + 2 * np.sin(xx / rng.uniform(50, 150))) * 18
        img = base[None, None, :] * 0.6 + grain[..., None] + np.array([10, 40, 80], np.float32)
    elif kind == 1:  # carpet / cloth noise
        small = rng.normal(0, 25, (h // 4 + 1, w // 4 + 1, 1)).astype(np.float32)
        img = base[None, None, :] + cv2.resize(small, (w, h))[..., None]
    else:  # plain with a lighting gradient
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32)
    grad = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.9, 1.15), w, dtype=np.float32)[None, :, None]
    out = img * grad + rng.normal(0, 4, (h, w, 3)).astype(np.float32)
    return np.ascontiguousarray(np.clip(out, 0, 255).astype(np.uint8))


def tiled_floor(rng: np.random.Generator, shape: tuple[int, int] = (720, 1280)) -> np.ndarray:
    """A picture without a board that has a board's look: a floor of 12-19 x 12-19 square tiles,
    four random colours (one commonest, like plain squares and prints), grout lines between."""
    sq, n = int(rng.integers(25, 50)), int(rng.integers(12, 20))
    palette = rng.integers(0, 256, (4, 3)).astype(np.uint8)
    floor = cv2.resize(palette[rng.choice(4, size=(n, n), p=[0.6, 0.15, 0.15, 0.1])], (n * sq, n * sq),
                       interpolation=cv2.INTER_NEAREST)
    floor[::sq] = rng.integers(40, 220)
    floor[:, ::sq] = rng.integers(40, 220)
    img = np.full(shape + (3,), int(rng.integers(60, 200)), np.uint8)
    side = min(shape[0] - 20, n * sq)
    img[10:10 + side, 100:100 + side] = floor[:side, :side]
    return img


def chessboard(rng: np.random.Generator, shape: tuple[int, int] = (720, 1280)) -> np.ndarray:
    """A picture without a board: a 15 x 15 chequer of two random colours, 40 px squares."""
    a, b = rng.integers(0, 256, 3), rng.integers(0, 256, 3)
    squares = (np.indices((600, 600)) // 40).sum(0) % 2
    img = np.full(shape + (3,), 120, np.uint8)
    img[60:660, 340:940] = np.where(squares[..., None] == 1, a, b).astype(np.uint8)
    return img


def render_board(style: str = "classic", *, rng: np.random.Generator | None = None, size=(1280, 720),
                 tilt_deg: float | None = None, rotation_deg: float | None = None, tiles: float | None = None,
                 fill: float | None = None, offset: tuple[float, float] | None = None, blur: float = 0.0,
                 noise: float = 3.0, cell: int = 40, border_cells: float = 1.2, markers: bool = False,
                 flat: tuple[np.ndarray, float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A photo-like picture of a board on a table, and the true grid corners (TL, TR, BR, BL,
    in the board's own order: TL is the board's top-left, wherever it ends up in the picture).

    ``tilt_deg``: camera tilt away from straight above (0..60), ``rotation_deg``: board turned
    on the table, ``tiles``: fraction of squares covered, ``fill``: board width / picture height,
    ``offset``: board centre shift in picture-height units.  Random where None.  ``markers``:
    lay the four corner cards (calibration/make_marker_sheet.py) outside the grid corners
    (use ``border_cells`` of 2 or more so they fit on the board).
    """
    if style not in BOARD_STYLES:
        raise ValueError(f"unknown style {style!r}")
    rng = rng if rng is not None else np.random.default_rng()
    tilt = float(rng.uniform(0, 45)) if tilt_deg is None else float(tilt_deg)
    rot = float(rng.uniform(0, 360)) if rotation_deg is None else float(rotation_deg)
    cover = float(rng.uniform(0, 0.35)) if tiles is None else float(tiles)
    fill_ = float(rng.uniform(0.55, 0.85)) if fill is None else float(fill)
    w, h = size
    board, g0 = flat if flat is not None else _flat_board(BOARD_STYLES[style], cell, rng, cover, border_cells, markers)
    side = board.shape[0]
    # 3D: board in plane z=0 centred at origin (units: board sides), rotated in plane, tilted about x
    half = 0.5
    pts = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    a = np.radians(rot)
    rz = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    p2 = pts @ rz.T
    t = np.radians(tilt)
    dist = 2.2
    f_px = fill_ * h * dist  # so that an untilted board spans ~fill * h
    X, Y = p2[:, 0], p2[:, 1] * np.cos(t)
    Z = dist + p2[:, 1] * np.sin(t)
    dx, dy = (rng.uniform(-0.08, 0.08, 2) if offset is None else np.asarray(offset, float))
    u = w / 2 + f_px * X / Z + dx * h
    v = h / 2 + f_px * Y / Z + dy * h
    dst = np.stack([u, v], 1).astype(np.float32)
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    hmat = cv2.getPerspectiveTransform(src, dst)
    img = _table((h, w), rng)
    warped = cv2.warpPerspective(board, hmat, (w, h), flags=cv2.INTER_AREA if fill_ * h < side else cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((side, side), 255, np.uint8), hmat, (w, h))
    img[mask > 127] = warped[mask > 127]
    gx = np.array([[g0, g0], [g0 + 15 * cell, g0], [g0 + 15 * cell, g0 + 15 * cell], [g0, g0 + 15 * cell]], np.float64)
    q = np.hstack([gx, np.ones((4, 1))]) @ hmat.T
    corners = q[:, :2] / q[:, 2:]
    # lighting, blur, noise
    light = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.95, 1.1), h, dtype=np.float32)[:, None, None]
    out = img.astype(np.float32) * light
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise > 0:
        out += rng.normal(0, noise, out.shape).astype(np.float32)
    return np.ascontiguousarray(np.clip(out, 0, 255).astype(np.uint8)), corners
