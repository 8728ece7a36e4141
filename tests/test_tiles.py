"""Tile sets: how many tiles of each letter an edition has and what each is worth."""

from __future__ import annotations

import json
import unicodedata

import pytest

from companion.errors import CompanionError, UnknownLetter
from companion.tiles import BLANK, TileSetError, available_tilesets, get_tileset, load_tileset_file


# ----------------------------------------------------------------- the bundled sets
def test_english_set_has_100_tiles_two_of_them_blank():
    en = get_tileset("en")
    assert en.total_tiles == 100
    assert en.blanks == 2
    assert sum(en.counts.values()) == 98


@pytest.mark.parametrize("letter, count, value", [
    ("E", 12, 1), ("A", 9, 1), ("D", 4, 2), ("B", 2, 3), ("F", 2, 4), ("K", 1, 5),
    ("J", 1, 8), ("X", 1, 8), ("Q", 1, 10), ("Z", 1, 10),
])
def test_english_letter_counts_and_values(letter, count, value):
    en = get_tileset("en")
    assert en.counts[letter] == count
    assert en.value(letter) == value


def test_every_bundled_set_loads_and_has_two_blanks():
    codes = available_tilesets()
    assert {"en", "da", "de"} <= set(codes)
    for code in codes:
        ts = get_tileset(code)
        assert ts.blanks == 2
        assert ts.total_tiles >= 100
        assert all(len(letter) == 1 and letter == letter.upper() for letter in ts.alphabet)
        assert all(unicodedata.is_normalized("NFC", letter) for letter in ts.alphabet)


@pytest.mark.parametrize("letter", ["Æ", "Ø", "Å"])
def test_danish_set_has_ae_oe_aa_worth_four(letter):
    da = get_tileset("da")
    assert da.counts[letter] == 2
    assert da.value(letter) == 4


def test_danish_set_values_differ_from_english():
    # C is a rare letter in Danish (8 points) but a common one in English (3 points).
    assert get_tileset("da").value("C") == 8
    assert get_tileset("en").value("C") == 3
    assert get_tileset("da").total_tiles == 100


@pytest.mark.parametrize("letter, value", [("Ä", 6), ("Ö", 8), ("Ü", 6)])
def test_german_set_has_umlauts_with_their_values(letter, value):
    assert get_tileset("de").value(letter) == value


def test_german_set_has_102_tiles():
    assert get_tileset("de").total_tiles == 102


# ----------------------------------------------------------------- letters
def test_normalize_upper_cases_a_letter():
    assert get_tileset("da").normalize("æ") == "Æ"
    assert get_tileset("en").normalize("q") == "Q"


def test_normalize_composes_a_decomposed_letter():
    decomposed = unicodedata.normalize("NFD", "Å")  # A + combining ring
    assert len(decomposed) == 2
    assert get_tileset("da").normalize(decomposed) == "Å"


def test_unknown_letter_for_tileset():
    en = get_tileset("en")
    with pytest.raises(UnknownLetter) as err:
        en.normalize("Æ")
    assert "'Æ'" in str(err.value) and "English" in str(err.value)
    with pytest.raises(UnknownLetter):
        en.value("Ø")


def test_unknown_letter_is_a_companion_error():
    assert issubclass(UnknownLetter, CompanionError)


def test_blank_is_not_a_letter_of_the_set():
    en = get_tileset("en")
    assert BLANK not in en.counts
    with pytest.raises(UnknownLetter):
        en.value(BLANK)


# ----------------------------------------------------------------- rack values
def test_rack_value_of_the_seed_racks():
    # Seed: B holds Z (10) and C (3) = 13, C holds A (1) and K (5) = 6.
    en = get_tileset("en")
    assert en.rack_value("ZC") == 13
    assert en.rack_value("AK") == 6


def test_rack_value_counts_a_blank_as_zero():
    assert get_tileset("en").rack_value("Q?") == 10


def test_rack_value_accepts_lower_case_and_danish_letters():
    assert get_tileset("da").rack_value("æøå") == 12


def test_rack_value_of_an_empty_rack_is_zero():
    assert get_tileset("en").rack_value("") == 0


def test_rack_value_rejects_letters_outside_the_set():
    with pytest.raises(UnknownLetter):
        get_tileset("en").rack_value("AÆ")


# ----------------------------------------------------------------- tile set files
def test_unknown_tileset_code_lists_the_choices():
    with pytest.raises(TileSetError) as err:
        get_tileset("klingon")
    assert "klingon" in str(err.value) and "en" in str(err.value)


def test_tileset_file_by_path(tileset_file):
    path = tileset_file({"A": (5, 1), "Z": (1, 10)}, blanks=1)
    ts = get_tileset(path)
    assert ts.total_tiles == 7
    assert ts.value("Z") == 10


def test_tileset_file_letters_are_normalized(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"code": "x", "letters": {"æ": {"count": 2, "value": 4}}}), encoding="utf-8")
    ts = load_tileset_file(path)
    assert ts.counts == {"Æ": 2}
    assert ts.blanks == 2  # default
    assert ts.name == "x"  # default: the code


def test_tileset_file_with_a_non_letter_is_rejected(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"code": "bad", "letters": {"AB": {"count": 1, "value": 1}}}), encoding="utf-8")
    with pytest.raises(TileSetError) as err:
        load_tileset_file(path)
    assert "'AB'" in str(err.value)


@pytest.mark.parametrize("content", ["not json", "{}", '{"code": "x", "letters": {"A": {"count": 1}}}'])
def test_unreadable_tileset_file_is_a_tileset_error(tmp_path, content):
    path = tmp_path / "broken.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(TileSetError) as err:
        load_tileset_file(path)
    assert str(path) in str(err.value)


def test_missing_tileset_file_is_a_tileset_error(tmp_path):
    with pytest.raises(TileSetError):
        load_tileset_file(tmp_path / "nowhere.json")
