"""The renderer the models are trained on (vision.render): its faces."""

from __future__ import annotations

import pytest

from calibration.train_letters import ALPHABET
from vision.render import HELDOUT_FONTS, TRAIN_FONTS, faces_lacking, font_paths, missing_letters


def test_a_missing_letter_is_found_missing():
    faces = font_paths("basic")
    if not faces:
        pytest.skip("DejaVu fonts (fonts-dejavu-core) not installed")
    # DejaVu has every Latin letter, and no glyph in the private-use area
    assert missing_letters(faces[0], ALPHABET) == ""
    assert missing_letters(faces[0], "A\ue123B") == "\ue123"


@pytest.mark.parametrize("role", ["train", "heldout"])
def test_every_training_and_held_out_face_draws_every_letter(role):
    """A face without a letter draws its missing-glyph box, which training would learn as it."""
    faces = font_paths(role)
    if not faces:
        pytest.skip("no fonts installed (./tc setup installs them)")
    assert faces_lacking(faces, ALPHABET) == {}


def test_no_face_is_both_trained_on_and_held_out():
    assert not set(TRAIN_FONTS) & set(HELDOUT_FONTS)


def _style(**kw):
    from vision.render import TileStyle
    return TileStyle(face=(60, 40, 130), ink=(240, 240, 240), font=font_paths("basic")[0], bevel=0.0, radius=0.0, **kw)


def test_a_deluxe_blank_shows_its_own_face_inside_a_border_of_the_tiles_face():
    import numpy as np
    from vision.render import tile_face
    face = tile_face("?", "", _style(blank_face=(235, 235, 235), blank_border=0.15), 60, np.random.default_rng(0))
    assert np.abs(face[30, 30, :3].astype(int) - 235).max() <= 2          # the middle: the blank's own face
    assert np.abs(face[30, 3, :3].astype(int) - (60, 40, 130)).max() <= 2  # the border: the tile's face


def test_a_plain_blank_is_the_tiles_face_all_over():
    import numpy as np
    from vision.render import tile_face
    face = tile_face("?", "", _style(), 60, np.random.default_rng(0))
    assert np.abs(face[5:55, 5:55, :3].astype(int) - (60, 40, 130)).max() <= 2


def test_a_letter_tile_of_a_deluxe_set_is_drawn_as_without_it():
    import numpy as np
    from vision.render import tile_face
    plain = tile_face("A", "1", _style(), 60, np.random.default_rng(0))
    deluxe = tile_face("A", "1", _style(blank_face=(235, 235, 235)), 60, np.random.default_rng(0))
    assert np.array_equal(plain, deluxe)


def test_scenes_without_deluxe_blanks_are_drawn_as_before_they_existed():
    # the deluxe draw comes from a generator of the style's own: the benchmarks' boards and games
    # stay the boards and games their figures were measured on
    import numpy as np
    from vision.render import random_tile_style
    fonts = font_paths("basic")
    for seed in range(30):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        plain, deluxe = random_tile_style(a, fonts), random_tile_style(b, fonts, deluxe_blanks=1.0)
        assert plain.blank_face is None and deluxe.blank_face is not None
        assert a.random() == b.random()                     # the same draws from the caller's generator
        deluxe.blank_face, deluxe.blank_border = None, plain.blank_border
        assert deluxe == plain
