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
