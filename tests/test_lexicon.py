"""The lexicon: the challenge reference of acceptable words."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import lexicon as lexicon_module
from companion.errors import CompanionError
from companion.lexicon import (
    JunkLine,
    Lexicon,
    LexiconError,
    build_default_lexicon,
    check_words,
    coverage,
    default_lexicon,
    default_lexicon_path,
)

ENABLE = Path(__file__).resolve().parents[1].parent / "shared" / "lexicons" / "enable1.txt"


def write(tmp_path: Path, content: str | bytes, name: str = "words.txt") -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8", newline="")
    else:
        path.write_bytes(content)
    return path


# ------------------------------------------------------------------- lookups
def test_lookup_ignores_case(tmp_path):
    lex = Lexicon.from_file(write(tmp_path, "Quixotic\nqi\nZA\n"))
    for word in ("QUIXOTIC", "quixotic", "QuIxOtIc", "qi", "Qi", "za"):
        assert word in lex
    assert "QIS" not in lex
    assert "" not in lex


def test_words_are_stored_upper_case(tmp_path):
    lex = Lexicon.from_file(write(tmp_path, "cat\nDog\n"))
    assert lex.words == frozenset({"CAT", "DOG"})
    assert len(lex) == 2


def test_non_strings_are_never_words():
    lex = Lexicon.from_words(["cat"], "t")
    assert 3 not in lex
    assert None not in lex


def test_danish_and_german_letters_are_letters(tmp_path):
    lex = Lexicon.from_file(write(tmp_path, "blåbærgrød\nØL\nÅen\nmädchen\nÜBER\nschön\nżółć\n"))
    assert lex.junk == ()
    for word in ("BLÅBÆRGRØD", "blåbærgrød", "øl", "ÅEN", "MÄDCHEN", "über", "SCHÖN", "ŻÓŁĆ"):
        assert word in lex


def test_decomposed_input_matches_composed_words(tmp_path):
    decomposed = unicodedata.normalize("NFD", "blåbærgrød")
    assert decomposed != "blåbærgrød"
    lex = Lexicon.from_file(write(tmp_path, decomposed + "\n"))
    assert "BLÅBÆRGRØD" in lex.words  # stored composed
    assert decomposed in lex
    assert "blåbærgrød" in lex


@given(st.lists(st.text(alphabet="abcxyzæøåäöüßąćęłńóśźżABCÆØÅÄÖÜĄŁŻ", min_size=1, max_size=12),
                min_size=1, max_size=20))
def test_every_word_given_is_found_in_any_case(words):
    lex = Lexicon.from_words(words, "generated")
    assert lex.junk == ()
    for word in words:
        assert word in lex
        assert word.lower() in lex
        assert word.upper() in lex
        assert unicodedata.normalize("NFD", word) in lex


def test_lexicon_is_immutable():
    lex = Lexicon.from_words(["cat"], "t")
    with pytest.raises(AttributeError):
        lex._words = frozenset()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        lex.name = "other"  # type: ignore[misc]


# ------------------------------------------------------------------- files
def test_name_defaults_to_file_stem_and_source_is_the_path(tmp_path):
    path = write(tmp_path, "cat\n", "collins.txt")
    lex = Lexicon.from_file(path)
    assert lex.name == "collins"
    assert lex.source == path
    assert Lexicon.from_file(path, name="Collins 2019").name == "Collins 2019"


def test_junk_lines_are_reported_with_line_numbers_not_fatal(tmp_path):
    path = write(tmp_path, "cat\ndog\nrock 'n' roll\n\nR2D2\nisn't\nco-op\nhouse\nmouse\ntree\nbird\n")
    lex = Lexicon.from_file(path)
    assert lex.words == frozenset({"CAT", "DOG", "HOUSE", "MOUSE", "TREE", "BIRD"})
    assert [j.line for j in lex.junk] == [3, 5, 6, 7]
    assert [j.text for j in lex.junk] == ["rock 'n' roll", "R2D2", "isn't", "co-op"]
    assert all(isinstance(j, JunkLine) for j in lex.junk)
    reasons = [j.reason for j in lex.junk]
    assert "space" in reasons[0]
    assert "digit" in reasons[1]
    assert "apostrophe" in reasons[2]
    assert "'-'" in reasons[3]


def test_blank_lines_and_surrounding_spaces_are_ignored(tmp_path):
    lex = Lexicon.from_file(write(tmp_path, "\n\n  cat  \n\t dog\n\n"))
    assert lex.words == frozenset({"CAT", "DOG"})
    assert lex.junk == ()


def test_crlf_and_bom_are_tolerated(tmp_path):
    path = write(tmp_path, "\ufeffcat\r\ndog\r\nrøv\r\n".encode("utf-8"))
    lex = Lexicon.from_file(path)
    assert lex.words == frozenset({"CAT", "DOG", "RØV"})
    assert lex.junk == ()


def test_old_mac_line_ends_are_tolerated(tmp_path):
    lex = Lexicon.from_file(write(tmp_path, b"cat\rdog\r"))
    assert lex.words == frozenset({"CAT", "DOG"})


def test_mostly_junk_file_is_an_error_naming_the_file(tmp_path):
    path = write(tmp_path, "cat\n1 2 3\nhello world\n42\n", "notes.txt")
    with pytest.raises(LexiconError) as info:
        Lexicon.from_file(path)
    message = str(info.value)
    assert str(path) in message
    assert "line 2" in message


def test_half_junk_is_still_accepted(tmp_path):
    lex = Lexicon.from_file(write(tmp_path, "cat\ndog\n42\nx y\n"))
    assert len(lex) == 2 and len(lex.junk) == 2


def test_file_without_words_is_an_error(tmp_path):
    for content in ("", "\n\n\n", "123\n"):
        path = write(tmp_path, content, "empty.txt")
        with pytest.raises(LexiconError, match="no valid words"):
            Lexicon.from_file(path)


def test_missing_file_is_an_error_naming_it(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(LexiconError, match="nope.txt"):
        Lexicon.from_file(path)


def test_folder_is_an_error(tmp_path):
    with pytest.raises(LexiconError, match="folder"):
        Lexicon.from_file(tmp_path)


def test_non_utf8_file_is_an_error_naming_line_and_byte(tmp_path):
    path = write(tmp_path, "cat\ndog\nbl\u00e5b\u00e6r\n".encode("latin-1"), "danish.txt")
    with pytest.raises(LexiconError) as info:
        Lexicon.from_file(path)
    message = str(info.value)
    assert str(path) in message
    assert "not UTF-8" in message
    assert "line 3" in message
    assert "byte 3" in message


def test_lexicon_errors_are_companion_errors():
    assert issubclass(LexiconError, CompanionError)


def test_check_words_reports_each_word_upper_case():
    lex = Lexicon.from_words(["qi", "za"], "t")
    assert check_words(["qi", " Za ", "qzx"], lex) == [("QI", True), ("ZA", True), ("QZX", False)]


def test_from_words_records_junk_by_position():
    lex = Lexicon.from_words(["cat", "dog", "two words", "bird"], "t")
    assert lex.junk == (JunkLine(3, "two words", "more than one word (contains a space)"),)
    assert lex.source is None


def test_from_words_rejects_a_single_string():
    with pytest.raises(TypeError):
        Lexicon.from_words("cat", "t")  # type: ignore[arg-type]


def test_coverage_counts_covered_and_beyond():
    cov = coverage(Lexicon.from_words(["a", "b", "c", "d"], "mine"), ["A", "B", "E"])
    assert (cov.reference_total, cov.covered, cov.beyond, cov.missing) == (3, 2, 2, 1)
    assert cov.percent == pytest.approx(200 / 3)


# ------------------------------------------------------------ default lexicon
def test_default_lexicon_path_follows_the_data_folder_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLE_COMPANION_DATA", str(tmp_path))
    assert default_lexicon_path() == tmp_path / "lexicons" / "scowl-80.txt"


def test_default_lexicon_without_file_or_scowl_tells_to_run_setup(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLE_COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(lexicon_module, "SCOWL_DIR", tmp_path / "no-scowl")
    with pytest.raises(LexiconError, match=r"\./tc setup"):
        default_lexicon()


def test_default_lexicon_loads_the_built_file(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLE_COMPANION_DATA", str(tmp_path))
    monkeypatch.setattr(lexicon_module, "SCOWL_DIR", tmp_path / "no-scowl")
    path = default_lexicon_path()
    path.parent.mkdir(parents=True)
    path.write_text("AA\nQI\nZA\n", encoding="utf-8")
    lex = default_lexicon()
    assert "qi" in lex and len(lex) == 3
    assert default_lexicon() is lex  # loaded once


def test_default_lexicon_is_built_from_fake_scowl_when_missing(monkeypatch, tmp_path):
    scowl = tmp_path / "scowl"
    scowl.mkdir()
    (scowl / "english-words.10").write_bytes(b"cat\nDog\nisn't\na\ncaf\xe9\n")  # ISO-8859-1
    (scowl / "american-words.80").write_bytes("color\nnaïve\n".encode("utf-8"))
    (scowl / "british-words.95").write_bytes(b"colourful\n")  # size 95: left out
    (scowl / "english-upper.10").write_bytes(b"London\n")  # not a words category
    monkeypatch.setenv("TABLE_COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(lexicon_module, "SCOWL_DIR", scowl)
    lex = default_lexicon()
    assert lex.words == frozenset({"CAT", "COLOR"})
    assert default_lexicon_path().read_text(encoding="utf-8") == "CAT\nCOLOR\n"


def test_default_lexicon_covers_at_least_99_percent_of_enable(tmp_path):
    if not ENABLE.is_file():
        pytest.skip(f"ENABLE word list not found at {ENABLE} (../shared is not checked out)")
    if lexicon_module.scowl_installed():
        lex = Lexicon.from_file(build_default_lexicon(tmp_path / "scowl-80.txt"))
    elif default_lexicon_path().is_file():
        lex = Lexicon.from_file(default_lexicon_path())
    else:
        pytest.skip("scowl is not installed and no default lexicon is built (run ./tc setup)")
    cov = coverage(lex, Lexicon.from_file(ENABLE))
    assert cov.percent >= 99.0, f"default lexicon covers only {cov.percent:.2f}% of ENABLE"
    assert lex.junk == ()
