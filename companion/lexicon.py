"""The lexicon: the list of acceptable words that challenges are judged against.

A lexicon file is plain UTF-8 text, one word per line, in any case.  Lines
that are not a single word of letters (digits, inner spaces, punctuation,
apostrophes) are skipped and reported as junk; they are not fatal unless they
are most of the file.  Words are stored upper-case in Unicode NFC, so Danish
ÆØÅ, German ÄÖÜ, Polish ĄĆĘŁŃÓŚŹŻ and the like work as well as A-Z.

The default lexicon is built once, by the setup step (``./tc setup``), from
Debian's ``scowl`` word lists (size 80) into
``~/.local/share/table-companion/lexicons/scowl-80.txt`` (the data folder can
be moved with the ``TABLE_COMPANION_DATA`` environment variable).
"""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from companion.errors import CompanionError

__all__ = [
    "Coverage",
    "JunkLine",
    "Lexicon",
    "LexiconError",
    "SCOWL_CATEGORIES",
    "SCOWL_DIR",
    "SCOWL_MAX_SIZE",
    "build_default_lexicon",
    "check_words",
    "coverage",
    "default_lexicon",
    "default_lexicon_path",
    "scowl_words",
]

#: Where Debian's ``scowl`` package puts its word lists (``<category>.<size>``).
SCOWL_DIR = Path("/usr/share/dict/scowl")
#: The scowl word-list categories that make up the default lexicon.  Spelling
#: variants (variant_1/2) are included: Scrabble lexicons accept both
#: "color" and "colour", "judgment" and "judgement".
SCOWL_CATEGORIES = (
    "english-words",
    "american-words",
    "british-words",
    "canadian-words",
    "variant_1-words",
    "variant_2-words",
)
#: Largest scowl size included (80 is "large"; 95 holds many oddities).
SCOWL_MAX_SIZE = 80
DEFAULT_LEXICON_NAME = f"scowl-{SCOWL_MAX_SIZE}"
SETUP_COMMAND = "./tc setup"

# Only plain lower-case a-z lines of two letters or more: no capitals (proper
# nouns, abbreviations), no apostrophes, no accents.  Works on raw bytes, so
# the file encoding (older scowl releases are ISO-8859-1, newer UTF-8) does
# not matter.
_SCOWL_WORD = re.compile(rb"^([a-z]{2,})\r?$", re.MULTILINE)
# More than this share of the non-blank lines being junk makes a file unusable.
_MAX_JUNK_SHARE = 0.5
_JUNK_EXAMPLES = 3


class LexiconError(CompanionError):
    """A lexicon that cannot be used: missing, unreadable, not UTF-8, or not a word list."""


@dataclass(frozen=True)
class JunkLine:
    """A line of a lexicon file that is not a single word and was skipped."""

    line: int
    text: str
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text!r} ({self.reason})"


@dataclass(frozen=True)
class Coverage:
    """How much of a reference word list a lexicon holds."""

    reference_total: int
    covered: int
    beyond: int  # words of the lexicon that the reference does not have

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.reference_total if self.reference_total else 100.0

    @property
    def missing(self) -> int:
        return self.reference_total - self.covered


def _normalise(word: str) -> str:
    """The stored form of a word: NFC, upper-case, NFC again (upper-casing may decompose)."""
    up = unicodedata.normalize("NFC", word).upper()
    if not up.isascii():
        up = unicodedata.normalize("NFC", up)
    return up


def _junk_reason(text: str) -> str:
    if any(ch.isspace() for ch in text):
        return "more than one word (contains a space)"
    if any(ch in "'\u2019\u02bc`" for ch in text):
        return "contains an apostrophe"
    if any(ch.isdigit() for ch in text):
        return "contains a digit"
    for ch in text:
        if not ch.isalpha():
            name = unicodedata.name(ch, f"U+{ord(ch):04X}")
            return f"contains {ch!r} ({name}), which is not a letter"
    return "not a word of letters"  # pragma: no cover - every non-alpha text has a non-letter


class Lexicon:
    """An immutable set of words; ``word in lexicon`` ignores case."""

    __slots__ = ("_words", "_name", "_source", "_junk")

    def __init__(
        self,
        words: frozenset[str],
        name: str,
        source: Path | None = None,
        junk: tuple[JunkLine, ...] = (),
    ) -> None:
        """Wrap already-normalised words; use :meth:`from_file` or :meth:`from_words`."""
        object.__setattr__(self, "_words", frozenset(words))
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_source", source)
        object.__setattr__(self, "_junk", tuple(junk))

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    # ----------------------------------------------------------------- lookup
    def __contains__(self, word: object) -> bool:
        try:
            up = word.upper()  # type: ignore[attr-defined]
        except AttributeError:
            return False
        if up in self._words:
            return True
        if up.isascii():
            return False
        # Slow path, only for non-ASCII words given in decomposed form.
        return unicodedata.normalize("NFC", up) in self._words

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __repr__(self) -> str:
        return f"<Lexicon {self._name!r}: {len(self._words)} words>"

    @property
    def name(self) -> str:
        return self._name

    @property
    def source(self) -> Path | None:
        """The file the words came from (None for :meth:`from_words`)."""
        return self._source

    @property
    def junk(self) -> tuple[JunkLine, ...]:
        """Lines that were skipped because they are not a single word."""
        return self._junk

    @property
    def words(self) -> frozenset[str]:
        """All words, upper-case NFC."""
        return self._words

    # --------------------------------------------------------------- building
    @classmethod
    def from_file(cls, path: str | os.PathLike[str], name: str | None = None) -> Lexicon:
        """Load a word list: one word per line, UTF-8 (BOM and CRLF tolerated)."""
        path = Path(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise LexiconError(f"Lexicon file {path} does not exist.") from None
        except IsADirectoryError:
            raise LexiconError(f"Lexicon {path} is a folder, not a word-list file.") from None
        except OSError as exc:
            raise LexiconError(f"Cannot read lexicon file {path}: {exc.strerror or exc}.") from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            bad = data[exc.start : exc.start + 1]
            raise LexiconError(
                f"Lexicon file {path} is not UTF-8 text: line {line}, byte {column} of the line "
                f"(offset {exc.start} in the file) is {bad!r}. Save the word list as UTF-8."
            ) from None
        return cls._from_text(text, name or path.stem, path, f"Lexicon file {path}")

    @classmethod
    def from_words(cls, words: Iterable[str], name: str) -> Lexicon:
        """Build a lexicon from words in any case; junk entries are numbered from 1."""
        if isinstance(words, (str, bytes)):
            raise TypeError("from_words takes an iterable of words, not a single string")
        # An entry with a line break in it stays one (junk) entry.
        items = [str(w).replace("\r", " ").replace("\n", " ") for w in words]
        return cls._from_lines(items, name, None, f"Word list {name!r}")

    @classmethod
    def _from_text(cls, text: str, name: str, source: Path | None, what: str) -> Lexicon:
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        return cls._from_lines(text.split("\n"), name, source, what)

    @classmethod
    def _from_lines(cls, lines: list[str], name: str, source: Path | None, what: str) -> Lexicon:
        joined = "\n".join(lines)
        if not unicodedata.is_normalized("NFC", joined):
            joined = unicodedata.normalize("NFC", joined)
        # Case mapping never produces or removes a line break, so the upper-cased
        # lines stay aligned with the original ones (used for the junk report).
        upper = joined.upper()
        if not upper.isascii() and not unicodedata.is_normalized("NFC", upper):
            upper = unicodedata.normalize("NFC", upper)
        up_lines = [s.strip() for s in upper.split("\n")]
        good = [s for s in up_lines if s.isalpha()]
        blank = up_lines.count("")
        junk: tuple[JunkLine, ...] = ()
        if len(good) + blank != len(up_lines):
            orig_lines = joined.split("\n")
            junk = tuple(
                JunkLine(i, orig_lines[i - 1].strip(), _junk_reason(orig_lines[i - 1].strip()))
                for i, s in enumerate(up_lines, start=1)
                if s and not s.isalpha()
            )
        if not good:
            detail = f"; e.g. {', '.join(map(str, junk[:_JUNK_EXAMPLES]))}" if junk else ""
            raise LexiconError(f"{what} has no valid words (one word of letters per line){detail}.")
        nonblank = len(up_lines) - blank
        if len(junk) > _MAX_JUNK_SHARE * nonblank:
            examples = "; ".join(map(str, junk[:_JUNK_EXAMPLES]))
            raise LexiconError(
                f"{what} does not look like a word list: {len(junk)} of its {nonblank} lines are "
                f"not single words ({examples})."
            )
        return cls(frozenset(good), name, source, junk)


def check_words(words: Iterable[str], lexicon: Lexicon) -> list[tuple[str, bool]]:
    """Each word (normalised to upper-case NFC) and whether the lexicon accepts it."""
    return [(_normalise(w.strip()), w.strip() in lexicon) for w in words]


def coverage(lexicon: Lexicon | Iterable[str], reference: Lexicon | Iterable[str]) -> Coverage:
    """How many words of ``reference`` the lexicon holds, and how many it has beyond it."""
    mine = lexicon.words if isinstance(lexicon, Lexicon) else frozenset(map(_normalise, lexicon))
    ref = reference.words if isinstance(reference, Lexicon) else frozenset(map(_normalise, reference))
    covered = len(mine & ref)
    return Coverage(reference_total=len(ref), covered=covered, beyond=len(mine) - covered)


# ------------------------------------------------------------- default lexicon
def data_dir() -> Path:
    """The folder for Table Companion's built data (``TABLE_COMPANION_DATA`` overrides)."""
    override = os.environ.get("TABLE_COMPANION_DATA")
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "table-companion"


def default_lexicon_path() -> Path:
    """Where the setup step writes the default lexicon."""
    return data_dir() / "lexicons" / f"{DEFAULT_LEXICON_NAME}.txt"


def _scowl_files(scowl_dir: Path, max_size: int) -> list[Path]:
    files = []
    for category in SCOWL_CATEGORIES:
        for f in sorted(scowl_dir.glob(f"{category}.*")):
            if f.suffix[1:].isdigit() and int(f.suffix[1:]) <= max_size:
                files.append(f)
    return files


def scowl_installed(scowl_dir: Path | None = None) -> bool:
    return bool(_scowl_files(scowl_dir or SCOWL_DIR, SCOWL_MAX_SIZE))


def scowl_words(scowl_dir: Path | None = None, max_size: int = SCOWL_MAX_SIZE) -> set[str]:
    """The default lexicon's words (upper-case) from the scowl lists of size ≤ ``max_size``."""
    scowl_dir = scowl_dir or SCOWL_DIR
    files = _scowl_files(scowl_dir, max_size)
    if not files:
        raise LexiconError(
            f"The scowl word lists are not installed (nothing in {scowl_dir}). "
            f"Run {SETUP_COMMAND} (it installs the Debian package 'scowl')."
        )
    words: set[str] = set()
    for f in files:
        words.update(_SCOWL_WORD.findall(f.read_bytes()))
    return {w.decode("ascii").upper() for w in words}


def build_default_lexicon(
    dest: str | os.PathLike[str] | None = None, scowl_dir: Path | None = None
) -> Path:
    """Write the default lexicon (sorted, upper-case, UTF-8, one word a line) to ``dest``."""
    dest = Path(dest) if dest is not None else default_lexicon_path()
    words = sorted(scowl_words(scowl_dir))
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", dir=dest.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write("\n".join(words))
            out.write("\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return dest


_default_cache: dict[tuple[Path, int, int], Lexicon] = {}


def default_lexicon() -> Lexicon:
    """The default lexicon, loaded once; built from scowl first if the file is missing."""
    path = default_lexicon_path()
    if not path.exists():
        if not scowl_installed():
            raise LexiconError(
                f"The default lexicon {path} has not been built and the scowl word lists "
                f"are not installed. Run {SETUP_COMMAND} first."
            )
        try:
            build_default_lexicon(path)
        except OSError:
            # Data folder not writable: use the words without saving them.
            return Lexicon.from_words(sorted(scowl_words()), DEFAULT_LEXICON_NAME)
    stat = path.stat()
    key = (path, stat.st_mtime_ns, stat.st_size)
    lexicon = _default_cache.get(key)
    if lexicon is None:
        lexicon = Lexicon.from_file(path, DEFAULT_LEXICON_NAME)
        _default_cache.clear()
        _default_cache[key] = lexicon
    return lexicon
