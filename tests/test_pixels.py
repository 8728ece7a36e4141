"""Picture statistics shared by the locator and the reader (vision.pixels)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.pixels import percentile_linear, percentiles_u8


@pytest.mark.parametrize("seed", range(20))
def test_percentiles_of_a_picture_are_numpys_linear_percentiles(seed):
    rng = np.random.default_rng(seed)
    h, w = rng.integers(1, 60, 2)
    img = rng.integers(0, rng.integers(1, 257), (h, w)).astype(np.uint8)
    qs = (0, 5, 37.5, 50, 95, 100)
    assert percentiles_u8(img, qs) == pytest.approx([float(np.percentile(img, q)) for q in qs], abs=1e-9)


def test_percentiles_of_a_single_grey_level_are_that_level():
    assert percentiles_u8(np.full((3, 4), 200, np.uint8), (5, 95)) == [200, 200]


def test_percentiles_refuse_what_is_not_an_8_bit_picture():
    with pytest.raises(ValueError, match="uint8"):
        percentiles_u8(np.zeros((4, 4), np.float32), (50,))
    with pytest.raises(ValueError, match="non-empty"):
        percentiles_u8(np.zeros((0, 4), np.uint8), (50,))


@pytest.mark.parametrize("seed", range(40))
def test_percentile_of_floats_is_numpys_linear_percentile_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    a = (rng.random(n) * rng.choice([1.0, 300.0, 1e4])).astype(rng.choice([np.float32, np.float64]))
    if seed % 3 == 0:
        a = np.round(a)                                  # ties
    if seed % 4 == 0:
        a = a.reshape(-1, 1)[::2]                        # a strided view, as blur_width passes
    for q in (0.0, 5.0, 25.0, 50.0, 95.0, 99.5, 100.0, float(rng.random() * 100)):
        assert percentile_linear(a, q) == float(np.percentile(a, q))


def test_percentile_of_nothing_or_outside_0_to_100_is_refused():
    with pytest.raises(ValueError, match="non-empty"):
        percentile_linear(np.zeros(0, np.float32), 50)
    with pytest.raises(ValueError, match="within 0 and 100"):
        percentile_linear(np.ones(4, np.float32), 101)
