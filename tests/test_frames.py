"""Frame sources: still picture, folder of photos, video, camera, Pi camera, arrays, synthetic."""

from __future__ import annotations

import importlib.util

import cv2
import numpy as np
import pytest

from vision.errors import VisionError
from vision.frames import (ArraySource, CameraSource, Frame, FolderSource, ImageSource, SyntheticSource,
                           VideoSource, load_image, open_source, render_board)


def _pic(value: int, size=(48, 64)) -> np.ndarray:
    img = np.full((*size, 3), value, np.uint8)
    cv2.putText(img, str(value), (5, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    return img


def test_single_picture(tmp_path):
    p = tmp_path / "move.png"
    cv2.imwrite(str(p), _pic(10))
    with open_source(str(p)) as src:
        assert isinstance(src, ImageSource) and src.count == 1 and len(src) == 1
        frames = list(src)
    assert len(frames) == 1
    f = frames[0]
    assert isinstance(f, Frame) and f.name == "move.png" and f.index == 0 and f.timestamp > 0
    assert f.image.shape == (48, 64, 3) and f.image.dtype == np.uint8


def test_folder_in_name_order_one_per_move(tmp_path):
    for n in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"move{n}.jpg"), _pic(n * 20))
    (tmp_path / "notes.txt").write_text("not a picture")
    (tmp_path / ".hidden.png").write_bytes(b"")
    src = open_source(tmp_path)
    assert isinstance(src, FolderSource) and src.count == 3
    frames = list(src)
    assert [f.name for f in frames] == ["move1.jpg", "move2.jpg", "move10.jpg"]
    assert [f.index for f in frames] == [0, 1, 2]
    assert abs(int(frames[1].image[0, 0, 0]) - 40) <= 3


def test_folder_problems(tmp_path):
    with pytest.raises(VisionError, match="no such folder|no such file"):
        open_source(tmp_path / "nope")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(VisionError, match="no pictures"):
        open_source(empty)
    cv2.imwrite(str(tmp_path / "a1.png"), _pic(50))
    (tmp_path / "a2.png").write_bytes(b"\x89PNG broken")
    cv2.imwrite(str(tmp_path / "a3.png"), _pic(90))
    src = FolderSource(tmp_path)
    assert src.read().name == "a1.png"
    with pytest.raises(VisionError, match="a2.png"):
        src.read()
    names = [f.name for f in FolderSource(tmp_path, skip_unreadable=True)]
    assert names == ["a1.png", "a3.png"]


def test_unreadable_picture_named(tmp_path):
    bad = tmp_path / "photo.jpg"
    bad.write_text("hello")
    with pytest.raises(VisionError, match=r"photo\.jpg: .*not a picture|photo\.jpg: neither"):
        open_source(bad)
    with pytest.raises(VisionError, match="no such file"):
        load_image(tmp_path / "gone.jpg")
    with pytest.raises(VisionError, match="folder"):
        load_image(tmp_path)
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    with pytest.raises(VisionError, match="empty|not a picture"):
        load_image(empty)


def _write_video(path, n=6, size=(96, 64)):
    fourcc = cv2.VideoWriter_fourcc(*"MJPG")
    vw = cv2.VideoWriter(str(path), fourcc, 10.0, size)
    if not vw.isOpened():
        pytest.skip("this OpenCV cannot write MJPG video")
    for i in range(n):
        vw.write(np.full((size[1], size[0], 3), 20 + 30 * i, np.uint8))
    vw.release()


def test_video_frames(tmp_path):
    p = tmp_path / "game.avi"
    _write_video(p, n=6)
    src = open_source(str(p))
    assert isinstance(src, VideoSource)
    frames = list(src)
    src.close()
    assert len(frames) == 6 and frames[0].name == "game.avi#0" and frames[-1].index == 5
    levels = [int(f.image.mean()) for f in frames]
    assert levels == sorted(levels)
    every2 = list(VideoSource(p, every=2))
    assert len(every2) == 3
    assert len(list(VideoSource(p, max_frames=2))) == 2
    assert frames[1].timestamp >= frames[0].timestamp


def test_broken_video(tmp_path):
    p = tmp_path / "broken.mp4"
    p.write_bytes(b"\x00" * 100)
    with pytest.raises(VisionError, match="broken.mp4"):
        open_source(p)


def test_camera_that_does_not_exist():
    with pytest.raises(VisionError, match="camera 97"):
        open_source("camera:97")
    with pytest.raises(VisionError, match="camera 98"):
        CameraSource(98)


class _Webcam640:
    """cv2.VideoCapture as a webcam that stays at 640x480 whatever it is asked for."""

    def __init__(self, *args):
        self.asked = {}

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.asked[prop] = value
        return True

    def get(self, prop):
        return {cv2.CAP_PROP_FRAME_WIDTH: 640.0, cv2.CAP_PROP_FRAME_HEIGHT: 480.0}.get(prop, 0.0)

    def read(self):
        return True, np.zeros((480, 640, 3), np.uint8)

    def release(self):
        pass


def test_a_camera_giving_smaller_pictures_than_asked_for_says_so(monkeypatch):
    monkeypatch.setattr(cv2, "VideoCapture", _Webcam640)
    with CameraSource(0) as cam:
        assert cam.size == (640, 480)
        assert cam.notes == ["gives 640x480 pictures, not the 1920x1080 asked for: keep the board large in the "
                             "picture (the camera close, the board filling most of it)"]
    with CameraSource(0, width=640, height=480) as cam:
        assert cam.notes == []


def test_smaller_than_asked_only_when_both_sizes_are_known():
    from vision.frames import smaller_than_asked

    assert smaller_than_asked((1920, 1080), (1920, 1080)) == ""
    assert smaller_than_asked((0, 0), (1920, 1080)) == ""             # a backend that does not say
    assert smaller_than_asked((1280, 720), (None, None)) == ""         # nothing asked for
    assert smaller_than_asked((1280, 720), (1920, 1080)).startswith("gives 1280x720 pictures")


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="picamera2 installed here")
def test_picamera_without_picamera2():
    with pytest.raises(VisionError, match="picamera2"):
        open_source("picamera")


def test_arrays_and_synthetic():
    imgs = [_pic(30), _pic(60)]
    frames = list(open_source(imgs))
    assert [f.name for f in frames] == ["picture 0", "picture 1"]
    assert len(list(ArraySource(_pic(5)))) == 1
    gray = list(ArraySource([np.zeros((10, 10), np.uint8)]))[0]
    assert gray.image.shape == (10, 10, 3)
    syn = open_source("synthetic:mattel", count=2, size=(320, 240))
    assert isinstance(syn, SyntheticSource)
    frames = list(syn)
    assert len(frames) == 2 and frames[0].image.shape == (240, 320, 3) and len(syn.truths) == 2
    with pytest.raises(VisionError, match="unknown board style"):
        open_source("synthetic:plaid")
    with pytest.raises(VisionError):
        ArraySource([])


def test_nonsense_specs():
    for spec in ("", None, 3.5, True):
        with pytest.raises(VisionError):
            open_source(spec)


def test_render_board_truth_is_the_grid():
    rng = np.random.default_rng(1)
    img, corners = render_board("classic", rng=rng, tilt_deg=0, rotation_deg=0, tiles=0.0, offset=(0, 0))
    assert img.shape == (720, 1280, 3)
    # straight above, unrotated: an axis-aligned square centred in the picture
    assert corners[0, 1] == pytest.approx(corners[1, 1], abs=0.5)
    assert corners[:, 0].mean() == pytest.approx(640, abs=2)


# --- phone formats and damaged files --------------------------------------------------------

def _photo() -> np.ndarray:
    """A small picture with a distinct colour in each quarter, to tell rotations and channels apart."""
    img = np.zeros((60, 90, 3), np.uint8)
    img[:30, :45] = (0, 0, 255)     # red top-left (BGR)
    img[:30, 45:] = (0, 255, 0)     # green top-right
    img[30:, :45] = (255, 0, 0)     # blue bottom-left
    img[30:, 45:] = (255, 255, 255)
    return img


def _save_with_pillow(bgr: np.ndarray, path, **kw) -> None:
    from PIL import Image
    if kw.get("format") == "HEIF":
        import pillow_heif
        pillow_heif.register_heif_opener()
    Image.fromarray(np.ascontiguousarray(bgr[:, :, ::-1])).save(str(path), **kw)


def test_an_iphone_heic_photo_is_read_in_its_colours(tmp_path):
    pytest.importorskip("pillow_heif")
    p = tmp_path / "IMG_0001.HEIC"
    _save_with_pillow(_photo(), p, format="HEIF", quality=95)
    img = load_image(p)
    assert img.shape == (60, 90, 3) and img.dtype == np.uint8
    assert np.abs(img[10, 10].astype(int) - (0, 0, 255)).max() < 40      # still red, BGR order
    assert np.abs(img[50, 80].astype(int) - (255, 255, 255)).max() < 40


def test_a_heic_photo_turned_by_its_orientation_tag_is_read_upright(tmp_path):
    pytest.importorskip("pillow_heif")
    from PIL import Image
    p = tmp_path / "turned.heic"
    exif = Image.Exif()
    exif[0x0112] = 6  # "turn 90 degrees clockwise to show": how a phone held upright saves
    _save_with_pillow(_photo(), p, format="HEIF", quality=95, exif=exif.tobytes())
    img = load_image(p)
    assert img.shape == (90, 60, 3)
    assert np.abs(img[10, 50].astype(int) - (0, 0, 255)).max() < 40      # red now top-right


def test_an_avif_photo_is_read(tmp_path):
    from PIL import features
    if not features.check("avif"):
        pytest.skip("this Pillow has no AVIF support")
    p = tmp_path / "photo.avif"
    _save_with_pillow(_photo(), p, quality=95)
    img = load_image(p)
    assert img.shape == (60, 90, 3)
    assert np.abs(img[50, 10].astype(int) - (255, 0, 0)).max() < 50      # blue bottom-left


def test_a_gif_is_read_in_its_colours_without_heic_support(tmp_path, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_heif(name, *args, **kwargs):      # a GIF needs Pillow alone, not the HEIC plug-in
        if name == "pillow_heif":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_heif)
    p = tmp_path / "tile_K.gif"
    _save_with_pillow(_photo(), p)
    img = load_image(p)
    assert img.shape == (60, 90, 3) and img.dtype == np.uint8
    assert np.abs(img[10, 10].astype(int) - (0, 0, 255)).max() < 40      # red, BGR order


def test_a_folder_of_gif_crops_is_searched_like_any_other(tmp_path):
    from vision.read import _expand          # what `vision classify FOLDER` reads
    (tmp_path / "A").mkdir()
    _save_with_pillow(_photo(), tmp_path / "A" / "a1.gif")
    cv2.imwrite(str(tmp_path / "A" / "a2.png"), _photo())
    assert [q.name for q in _expand([tmp_path])] == ["a1.gif", "a2.png"]


def test_a_folder_of_heic_photos_is_a_game_in_name_order(tmp_path):
    pytest.importorskip("pillow_heif")
    for n in (2, 1):
        _save_with_pillow(_pic(n * 60), tmp_path / f"IMG_{n:04d}.HEIC", format="HEIF", quality=95)
    names = [f.name for f in open_source(tmp_path)]
    assert names == ["IMG_0001.HEIC", "IMG_0002.HEIC"]


def test_a_heic_photo_without_heic_support_says_how_to_get_it(tmp_path, monkeypatch):
    import builtins
    p = tmp_path / "IMG_0002.heic"
    p.write_bytes(b"\x00\x00\x00\x18ftypheic" + b"\x00" * 64)
    real_import = builtins.__import__

    def no_heif(name, *args, **kwargs):
        if name == "pillow_heif":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_heif)
    with pytest.raises(VisionError, match=r"IMG_0002\.heic: a HEIC photo.*tc setup.*JPEG"):
        load_image(p)


def test_a_damaged_heic_file_is_named_not_a_traceback(tmp_path):
    p = tmp_path / "broken.heic"
    p.write_bytes(b"\x00\x00\x00\x18ftypheic" + b"\x00" * 64)
    with pytest.raises(VisionError, match=r"broken\.heic: (not a picture|a HEIC photo)"):
        load_image(p)


def test_a_jpeg_cut_short_is_refused_not_read_half_grey(tmp_path):
    ok, buf = cv2.imencode(".jpg", cv2.resize(_photo(), (640, 480), interpolation=cv2.INTER_NEAREST))
    p = tmp_path / "move7.jpg"
    p.write_bytes(buf.tobytes()[: len(buf) // 2])  # a copy that stopped half way
    with pytest.raises(VisionError, match=r"move7\.jpg: the picture is cut short"):
        load_image(p)
    src = FolderSource(tmp_path, skip_unreadable=True)
    assert src.read() is None  # left out where the caller asked to skip damaged files


def test_a_jpeg_with_data_after_its_end_marker_is_read(tmp_path):
    """Motion Photos (some Android phones) append a video after the picture's end marker."""
    ok, buf = cv2.imencode(".jpg", _photo())
    p = tmp_path / "motion.jpg"
    p.write_bytes(buf.tobytes() + b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 8)
    img = load_image(p)
    assert img.shape == (60, 90, 3)


def test_a_picture_named_with_accents_is_read(tmp_path):
    p = tmp_path / "trække-ø.png"
    ok, buf = cv2.imencode(".png", _photo())
    p.write_bytes(buf.tobytes())
    assert load_image(p).shape == (60, 90, 3)
