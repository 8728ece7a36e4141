"""GCG game records (the Poslfit GCG format, spec v1.2): read them, replay them on the engine, check
every recorded score, and write saved games back out as GCG.

Reading (``parse_gcg``) is purely textual: pragmas (``#player1 nick Full Name``, ``#title``,
``#lexicon``, ``#note`` with continuation lines, ``#rack1``, unknown ones kept), and one
``GcgMove`` per ``>`` line. Every kind of line the spec and the older writers use is read:

==========================================  ==============================================
``>joe: ABCDEFG 8D WORD +20 120``           a play (``8D`` row first: across; ``D8``: down)
``>joe: ABCDEFG 8D WO.D +20 120``           ``.`` marks a tile already on the board
``>joe: ABCDEFG 8D W(OR)D +20 120``         ... and so do letters in parentheses
``>joe: ABCDEFG 8d WORD +20 120 WE, OD``    the older layout: whole words, cross words after the total
``>joe: ABCDEFG - +0 120``                  a pass
``>joe: ABCDEFG -ABC +0 120`` / ``-3``      an exchange (letters or a count)
``>joe: ABCDEFG -- -20 100``                the last play taken back (``-- +0``: older form)
``>joe: ABCDEFG (challenge) +5 125``        challenge bonus for a valid play
``>joe: ABCDEFG (time) -10 110``            time penalty
``>joe: (XYZ) +26 146``                     end of game: points for the tiles left on the others' racks
``>ann: XYZ (XYZ) -13 200``                 end of game: a player losing their own leftover
==========================================  ==============================================

Text comes as ``str`` or ``bytes``: bytes are decoded as the ``#character-encoding`` pragma says
(UTF-8 or ISO-8859-1, the only two the spec allows); without the pragma as UTF-8, falling back to
ISO-8859-1 (the spec's default) with a remark when the bytes are not UTF-8. CRLF line ends are fine.

Each line belongs to the player its nickname names. When two players share a nickname (quackle writes
``NoName`` for both when none is given), their lines are told apart by turn order, each confirmed by
the running totals (a line's total must continue that player's total by its score); where turn order
and totals disagree the totals decide, and a line whose total continues no candidate's is rejected.
The engine then knows the players by their full names, and a remark says how the lines were given out.

The tile set comes from a ``#tile-set`` pragma, else the ``#lexicon`` (``OSPS..`` is Polish, ``NWL..``
and ``CSW..`` English, ...), else from the letters the record uses (``en`` when plain A-Z).

Replaying (``gcg_to_events``, ``verify``) turns each line into the engine's own events
(``companion.game``) and pushes them through ``companion.events.Replay`` with ``strict_turns``
off: the placements of a play come from its position and word read against the current board
(``companion.notation``, the same reading as the referee's ``8D WORD`` moves), and the engine's
``validate_play``/``score_play`` score it. A recorded game does not end by itself on passes: it goes
on (six scoreless turns, or more) until its end-of-game lines. ``verify`` compares every recorded score and
running total (per player) with the engine's.

End-of-game lines become one ``end_racks`` event, settled by the engine under the game's
``end_rule``, which the record's lines show (``GcgGame.end_rule``): the spec's one ``(RACK) +2N`` line
for the player who went out is ``double`` (twice the leftover, the others keep their scores); the
older two-line form (the out player's ``(RACK) +N`` and each other player's ``RACK (RACK) -N``) is
``transfer``. A record that shows neither (nobody went out, or it stops early) is taken as ``double``,
the tournament convention GCG records are kept under. Each line is checked against the engine's
change to that player's score.

The events are the engine's own (``game_started`` with ``strict_turns`` false, the ``end_rule`` above
and the challenge rule the record implies: ``bonus5``/``bonus10`` when it has challenge bonuses, else
``double``). What only
the record knows rides along in fields the engine does not read: ``gcg`` on ``game_started`` (players'
nicknames and full names, pragmas, notes before the first move), ``note`` (the ``#note`` lines after
a move), ``gcg_rack`` (a rack the engine cannot check: records often show part of a rack; a play whose
rack is complete and consistent carries it as the engine's ``rack``) and ``exchanged`` (the letters of
an exchange). A pass
after the game-ending play, or a pass with ``#note #unsuccessful-challenge``, is a failed challenge.

Writing (``events_to_gcg``) replays a saved game's events (undo included) and writes what the engine
decided, end-of-game lines in the form of the game's ``end_rule`` (see ``_end_lines``), each player
under a nickname of their own; reading that back gives the same events.

Every problem is a ``GcgError`` (a ``CompanionError``) whose message starts ``FILE:LINE:``.
"""

from __future__ import annotations

import re
import sys
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from companion.board import COLUMNS, Placement, Tile, square_name
from companion.errors import CompanionError, IllegalPlay
from companion.events import Replay
from companion.game import AWAITING_RACKS, ENDED, tiles_spec
from companion.layout import get_layout
from companion.notation import parse_position, read_notation
from companion.play import ACROSS
from companion.tiles import BLANK, TileSet, available_tilesets, get_tileset

__all__ = [
    "GcgError", "GcgPlayer", "GcgMove", "GcgGame", "parse_gcg", "read_gcg", "gcg_to_events", "events_to_gcg",
    "Mismatch", "FileResult", "VerifyReport", "verify", "verify_game", "cli_verify", "cli_import", "cli_export",
    "PLAY", "EXCHANGE", "PASS", "WITHDRAWN", "CHALLENGE_BONUS", "END_RACK", "TIME_PENALTY",
]

# Kinds of move line.
PLAY = "play"
EXCHANGE = "exchange"
PASS = "pass"
WITHDRAWN = "withdrawn"  # ``--``: the previous play was challenged off
CHALLENGE_BONUS = "challenge_bonus"  # ``(challenge)``
END_RACK = "end_rack"  # ``(RACK)``: points for tiles left at the end (positive: gained, negative: own rack lost)
TIME_PENALTY = "time_penalty"  # ``(time)``

#: The note macondo writes under a pass that was really a failed challenge (double challenge).
UNSUCCESSFUL_CHALLENGE = "#unsuccessful-challenge"

_LAYOUT = "standard15"
_BOARD_SIZE = get_layout(_LAYOUT).size

_POSITION = re.compile(r"^(?:([0-9]{1,2})([^\W\d_])|([^\W\d_])([0-9]{1,2}))$")
_SCORE = re.compile(r"^[+-][0-9]+$")
_TOTAL = re.compile(r"^-?[0-9]+$")
_CROSS_WORD = re.compile(r"^[^\W\d_]+,?$")
_PRAGMA = re.compile(r"^#(\S*)\s*(.*?)\s*$")
_ENCODING_PRAGMA = re.compile(rb"^\s*#character-encoding\s+(\S+)", re.IGNORECASE)

_UTF8_NAMES = {"utf-8", "utf8"}
_LATIN1_NAMES = {"iso-8859-1", "iso8859-1", "iso_8859-1", "iso-8859-1:1987", "latin-1", "latin1", "l1", "cp819"}

#: ``#lexicon`` prefixes and the tile set their games are played with.
_LEXICON_TILESETS = (
    ("NWL", "en"), ("TWL", "en"), ("OWL", "en"), ("OTCWL", "en"), ("CSW", "en"), ("SOWPODS", "en"), ("ECWL", "en"),
    ("CEL", "en"), ("WOW", "en"), ("COLLINS", "en"), ("ENABLE", "en"),
    ("OSPS", "pl"), ("OSW", "pl"),
    ("RD", "de"), ("DSW", "de"), ("DEUTSCH", "de"), ("GERMAN", "de"),
    ("FRA", "fr"), ("ODS", "fr"), ("FRENCH", "fr"),
    ("NL", "nl"), ("OPENTAAL", "nl"), ("DUTCH", "nl"),
    ("DSO", "da"), ("DANISH", "da"),
)
_DISTRIBUTION_NAMES = {"english": "en", "polish": "pl", "german": "de", "french": "fr", "dutch": "nl", "danish": "da"}


class GcgError(CompanionError):
    """A GCG record that cannot be read or replayed; the message starts with ``FILE:LINE:``."""

    def __init__(self, source: str, line: int, reason: str):
        self.source = source
        self.line = line
        self.reason = reason
        super().__init__(f"{source}:{line}: {reason}" if line else f"{source}: {reason}")

    @property
    def where_reason(self) -> str:
        """``line 7: REASON`` (or just the reason when no line is concerned)."""
        return f"line {self.line}: {self.reason}" if self.line else self.reason


# ---------------------------------------------------------------------------------------------
# The record


@dataclass(frozen=True)
class GcgPlayer:
    """A ``#playerN nick Full Name`` line."""

    number: int
    nick: str
    name: str


@dataclass(frozen=True)
class _Cell:
    """One square of a written play: the letter (upper case) or None for ``.``, whether it is a blank,
    whether the record marks it as played through, and the character(s) as written."""

    letter: str | None
    blank: bool
    through: bool
    written: str


@dataclass
class GcgMove:
    """One ``>`` line of a record."""

    line: int
    player: str  # the nickname
    kind: str  # PLAY, EXCHANGE, PASS, WITHDRAWN, CHALLENGE_BONUS, END_RACK, TIME_PENALTY
    score: int  # as recorded, with its sign
    total: int  # the player's recorded running total after the line
    rack: str = ""  # the rack as written ("" when the line has none)
    position: str = ""  # a play's position as written (8D across, D8 down)
    word: str = ""  # a play's word as written
    exchanged: str = ""  # the letters put back by an exchange, when written
    exchange_count: int = 0
    end_rack: str = ""  # the letters in parentheses of an end-of-game line
    cross_words: tuple[str, ...] = ()  # the older layout's cross words after the total
    notes: list[str] = field(default_factory=list)  # #note lines after the move
    text: str = ""  # the line as written (runs of spaces folded)
    #: False for the older ``-- +0`` form, whose points taken back show only in the running total.
    score_given: bool = True
    #: the player, as an index into ``GcgGame.players`` (by nickname; by turn order and running totals
    #: when players share a nickname)
    seat: int = -1
    square: tuple[int, int] | None = field(default=None, compare=False, repr=False)
    across: bool = field(default=True, compare=False, repr=False)
    cells: tuple[_Cell, ...] = field(default=(), compare=False, repr=False)


@dataclass
class GcgGame:
    """A whole record: players, pragmas, notes and moves, plus what the reader decided."""

    source: str
    players: list[GcgPlayer]
    #: keyword -> value of every pragma other than player, note and rack (the last one wins)
    pragmas: dict[str, str]
    #: the same pragmas in file order, as (line, keyword, value), so that nothing is lost on export
    pragma_lines: list[tuple[int, str, str]]
    notes: list[str]  # notes before the first move
    moves: list[GcgMove]
    #: ``#rackN`` lines: (line, seat (index into ``players``), letters, number of moves before it)
    racks: list[tuple[int, int, str, int]]
    tileset: str  # the tile set code the record is played with
    encoding: str  # how the bytes were decoded ("utf-8", "iso-8859-1", or "text" for str input)
    remarks: list[tuple[int, str]] = field(default_factory=list)  # what the reader noticed, by line

    @property
    def lexicon(self) -> str | None:
        return self.pragmas.get("lexicon")

    @property
    def title(self) -> str | None:
        return self.pragmas.get("title")

    @property
    def description(self) -> str | None:
        return self.pragmas.get("description")

    @property
    def character_encoding(self) -> str | None:
        return self.pragmas.get("character-encoding")

    @property
    def incomplete(self) -> bool:
        return "incomplete" in self.pragmas

    @property
    def nicks(self) -> list[str]:
        return [p.nick for p in self.players]

    @property
    def shared_nicks(self) -> bool:
        """Whether two players have the same nickname (their lines are then told apart by turn order)."""
        return len(set(self.nicks)) != len(self.nicks)

    @property
    def labels(self) -> list[str]:
        """What to call each player in reports: the nickname, or the engine's name when nicknames are shared."""
        return _engine_names(self.players) if self.shared_nicks else self.nicks

    @property
    def end_rule(self) -> str:
        """How going out is settled, as the end-of-game lines show it (the engine's ``end_rule``):
        ``transfer`` for the older form (the player who went out has a ``(RACK) +N`` line and another
        player a ``RACK (RACK) -N`` line after it); otherwise ``double``: the spec's one ``(RACK) +2N``
        line, and the tournament convention GCG records are kept under when the lines do not say
        (no one went out, or the record stops before the end)."""
        for block in _end_blocks(self.moves):
            gains = [m for m in block if _is_gain(m)]
            if any(m.seat != g.seat for g in gains for m in block if not _is_gain(m)):
                return "transfer"
        return "double"

    @property
    def challenge_rule(self) -> str:
        """``bonus5``/``bonus10`` when the record has challenge bonuses, otherwise ``double``."""
        for m in self.moves:
            if m.kind == CHALLENGE_BONUS:
                return "bonus10" if m.score == 10 else "bonus5"
        return "double"


# ---------------------------------------------------------------------------------------------
# Reading


def _fold_spaces(text: str) -> str:
    return " ".join(text.split())


def _decode(data: bytes, source: str) -> tuple[str, str, list[tuple[int, str]]]:
    """Bytes to text as the record says; returns (text, encoding used, remarks)."""
    remarks: list[tuple[int, str]] = []
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data[:nul].count(b"\n") + 1
        raise GcgError(source, line, f"binary data (a NUL byte at offset {nul}): this is not a GCG text file")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    declared, declared_line, first_line = None, 0, 0
    for n, raw in enumerate(re.split(rb"\r\n|\r|\n", data), start=1):
        if raw.strip() and not first_line:
            first_line = n
        m = _ENCODING_PRAGMA.match(raw)
        if m:
            declared, declared_line = m.group(1).decode("ascii", "replace"), n
            break
    if declared is not None:
        if declared_line != first_line:
            remarks.append((declared_line, "#character-encoding should be the first line of the file"))
        name = declared.lower()
        if name in _UTF8_NAMES:
            try:
                return data.decode("utf-8"), "utf-8", remarks
            except UnicodeDecodeError as exc:
                line = data[: exc.start].count(b"\n") + 1
                raise GcgError(source, line, f"the bytes are not valid UTF-8 (0x{data[exc.start]:02X}), though line {declared_line} says #character-encoding {declared}") from None
        if name in _LATIN1_NAMES:
            return data.decode("latin-1"), "iso-8859-1", remarks
        raise GcgError(source, declared_line, f"unsupported #character-encoding {declared!r}: a GCG file is UTF-8 or ISO-8859-1")
    try:
        return data.decode("utf-8"), "utf-8", remarks
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        remarks.append((line, f"not valid UTF-8 (byte 0x{data[exc.start]:02X}) and no #character-encoding line: read as ISO-8859-1, the GCG default"))
        return data.decode("latin-1"), "iso-8859-1", remarks


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def _check_text(text: str, source: str) -> None:
    """Refuse binary junk: control characters have no place in a GCG record."""
    m = _CONTROL.search(text)
    if m:
        line = len(_split_lines(text[: m.start()] + "x"))
        raise GcgError(source, line, f"binary data (control character 0x{ord(m.group()):02X}): this is not a GCG text file")


def _split_lines(text: str) -> list[str]:
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _parse_cells(word: str) -> tuple[_Cell, ...] | None:
    """The squares of a written play, or None when the word is not written with tiles."""
    cells: list[_Cell] = []
    inside = False
    for ch in unicodedata.normalize("NFC", word):
        if ch == "(":
            if inside:
                return None
            inside = True
        elif ch == ")":
            if not inside:
                return None
            inside = False
        elif ch == ".":
            if inside:
                return None
            cells.append(_Cell(None, False, True, ch))
        elif ch.isalpha():
            upper = ch.upper()
            if len(upper) != 1:
                return None
            cells.append(_Cell(upper, ch != upper and not inside, inside, ch))
        else:
            return None
    if inside or not cells:
        return None
    return tuple(cells)


def _parse_position(text: str) -> tuple[tuple[int, int], bool] | None:
    """``8D`` -> ((7, 3), True: across); ``D8`` -> ((7, 3), False: down); None if it is not a position
    on the board. ``companion.notation`` reads it; ``_POSITION`` first keeps the digits ASCII."""
    if not _POSITION.match(text):
        return None
    try:
        square, direction = parse_position(text, _BOARD_SIZE)
    except IllegalPlay:
        return None
    return square, direction == ACROSS


def _looks_like_position(text: str) -> bool:
    return bool(_POSITION.match(text))


def _bad_coordinate(text: str) -> str:
    last = COLUMNS[_BOARD_SIZE - 1]
    return (f"bad coordinate {text!r}: write the row (1-{_BOARD_SIZE}) then the column (A-{last}) for a word across, "
            f"like 8D, or the column then the row for a word down, like D8")


def _parse_move(line_no: int, raw: str, source: str) -> GcgMove:
    text = _fold_spaces(raw)

    def fail(why: str) -> GcgError:
        return GcgError(source, line_no, f"{text!r} {why}")

    body = raw.strip()[1:]
    tokens = body.split()
    if not tokens:
        raise fail("has no player name")
    first = tokens.pop(0)
    if first.endswith(":"):
        nick = first[:-1]
    elif ":" in first:
        nick, after = first.split(":", 1)
        tokens.insert(0, after)
    else:
        nick = first
    if not nick:
        raise fail("has no player name")

    # The score and the running total: the first signed number followed by a plain one.
    at = None
    for i in range(len(tokens) - 1):
        if _SCORE.match(tokens[i]) and _TOTAL.match(tokens[i + 1]):
            at = i
            break
    if at is None:
        if tokens and _SCORE.match(tokens[-1]) and not tokens[-1].startswith("-"):
            raise fail("has no running total after its score")
        raise fail("has no score (a move ends with its score and the running total, like +24 136)")
    pre, score, total, extra = tokens[:at], int(tokens[at]), int(tokens[at + 1]), tokens[at + 2:]
    cross = []
    for tok in extra:
        if not _CROSS_WORD.match(tok):
            raise fail(f"has {tok!r} after its running total (only cross words may follow it)")
        cross.append(tok.rstrip(","))
    if not pre:
        raise fail("has no move (a rack and then a position and word, '-', '--', '-TILES', '(challenge)', '(time)' or '(TILES)')")

    move = GcgMove(line=line_no, player=nick, kind=PLAY, score=score, total=total, text=text, cross_words=tuple(cross))
    last = pre[-1]
    lower = last.lower()
    rack_tokens = pre[:-1]
    if last == "--":
        move.kind = WITHDRAWN
        move.score_given = not (score == 0 and tokens[at].startswith("+"))
    elif last == "-":
        move.kind = PASS
    elif lower == "(challenge)":
        move.kind = CHALLENGE_BONUS
    elif lower == "(time)":
        move.kind = TIME_PENALTY
        if score > 0:
            raise fail("has a time penalty with a positive score (write it as a loss, like -10)")
    elif len(last) >= 2 and last.startswith("(") and last.endswith(")"):
        move.kind = END_RACK
        move.end_rack = unicodedata.normalize("NFC", last[1:-1])
        if not all(ch.isalpha() or ch == BLANK for ch in move.end_rack):
            raise fail(f"has {last!r}, which is not a set of tiles")
    elif last.startswith("-"):
        what = last[1:]
        if what.isascii() and what.isdigit():
            count = int(what)
            if count == 0:
                move.kind = PASS
            else:
                move.kind, move.exchange_count = EXCHANGE, count
        elif all(ch.isalpha() or ch == BLANK for ch in what):
            move.kind = EXCHANGE
            move.exchanged = unicodedata.normalize("NFC", what)
            move.exchange_count = len(move.exchanged)
        else:
            raise fail(f"has {last!r}, which is neither an exchange of tiles (-ABC or -3) nor a pass (-)")
    else:
        # A play: [rack] position word.
        if len(pre) >= 3:
            if len(pre) > 3:
                raise fail(f"has too many fields before its score ({' '.join(pre[:-3])!r} is extra)")
            rack, pos, word = pre
            rack_tokens = [rack]
        elif len(pre) == 2:
            if _looks_like_position(pre[0]) and not _looks_like_position(pre[1]):
                pos, word = pre
                rack_tokens = []
            elif _looks_like_position(pre[1]):
                raise fail("has no word after its position")
            else:
                raise fail(f"has no position ({_bad_coordinate(pre[1])})")
        else:
            if _looks_like_position(last):
                raise fail("has no word after its position")
            raise fail(f"has {last!r} where a move should be: {_bad_coordinate(last)}")
        where = _parse_position(pos)
        if where is None:
            raise fail(f"has a {_bad_coordinate(pos)}")
        cells = _parse_cells(word)
        if cells is None:
            raise fail(f"has {word!r}, which is not a word of tiles (letters, lower case for a blank; '.' or letters in parentheses for tiles already on the board)")
        (r, c), across = where
        end = (c if across else r) + len(cells) - 1
        if end >= _BOARD_SIZE:
            edge = f"column {COLUMNS[_BOARD_SIZE - 1]}" if across else f"row {_BOARD_SIZE}"
            raise fail(f"has the word {word!r} at {pos}, which does not fit on the board (it runs past {edge})")
        move.position, move.word = pos, unicodedata.normalize("NFC", word)
        move.square, move.across, move.cells = (r, c), across, cells
    if len(rack_tokens) > 1:
        raise fail(f"has too many fields before its move ({' '.join(rack_tokens)!r})")
    if rack_tokens:
        rack = unicodedata.normalize("NFC", rack_tokens[0])
        if move.kind == END_RACK and rack.startswith("(") and rack.endswith(")"):
            rack = rack[1:-1]
        if not all(ch.isalpha() or ch == BLANK for ch in rack):
            raise fail(f"has {rack_tokens[0]!r} where its rack should be (letters and ? for a blank)")
        move.rack = rack
    return move


def parse_gcg(data: str | bytes, source: str = "<gcg>") -> GcgGame:
    """Read a GCG record (text or raw bytes). Raises GcgError naming the file and line."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        text, encoding, remarks = _decode(bytes(data), source)
    elif isinstance(data, str):
        text, encoding, remarks = data.lstrip("\ufeff"), "text", []
    else:
        raise GcgError(source, 0, f"a GCG record is text or bytes, not {type(data).__name__}")
    _check_text(text, source)
    lines = _split_lines(text)
    if not any(line.strip() for line in lines):
        raise GcgError(source, 0, "empty file: no #player lines and no moves")

    players: dict[int, GcgPlayer] = {}
    player_lines: dict[int, int] = {}
    pragmas: dict[str, str] = {}
    pragma_lines: list[tuple[int, str, str]] = []
    notes: list[str] = []
    moves: list[GcgMove] = []
    rack_lines: list[tuple[int, int, str, int]] = []  # (line, player number, letters, moves before)
    last_note: list[str] | None = None  # the list whose last entry continuation lines extend

    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = _PRAGMA.match(line)
            key, value = m.group(1).lower(), m.group(2)
            last_note = None
            pm = re.fullmatch(r"player(\d+)", key)
            rm = re.fullmatch(r"rack(\d+)", key)
            if pm:
                number = int(pm.group(1))
                parts = value.split(None, 1)
                if not parts:
                    raise GcgError(source, n, f"{line!r} has no nickname (write #player{number} NICK Full Name)")
                nick = unicodedata.normalize("NFC", parts[0])
                name = _fold_spaces(parts[1]) if len(parts) > 1 else nick
                if number in players:
                    raise GcgError(source, n, f"#player{number} is given twice (first on line {player_lines[number]})")
                players[number] = GcgPlayer(number, nick, name)
                player_lines[number] = n
            elif key == "note":
                target = moves[-1].notes if moves else notes
                target.append(value)
                last_note = target
            elif rm:
                letters = unicodedata.normalize("NFC", value.split()[0]) if value.split() else ""
                if not all(ch.isalpha() or ch == BLANK for ch in letters):
                    raise GcgError(source, n, f"{line!r}: {letters!r} is not a rack (letters and ? for a blank)")
                rack_lines.append((n, int(rm.group(1)), letters, len(moves)))
            else:
                pragmas[key] = value
                pragma_lines.append((n, key, value))
        elif line.startswith(">"):
            last_note = None
            moves.append(_parse_move(n, raw, source))
        elif last_note is not None and last_note:
            last_note[-1] += "\n" + raw.rstrip()
        else:
            raise GcgError(source, n, f"{_fold_spaces(line)!r} is not a GCG line (pragmas start with '#', moves with '>')")

    ordered = [players[k] for k in sorted(players)]
    by_nick: dict[str, list[int]] = {}
    for seat, p in enumerate(ordered):
        by_nick.setdefault(p.nick, []).append(seat)
    seat_of_number = {p.number: seat for seat, p in enumerate(ordered)}
    if moves and not ordered:
        raise GcgError(source, moves[0].line, f"{moves[0].text!r} comes before any #player line: the record names no players")
    for m in moves:
        if m.player not in by_nick:
            nm = unicodedata.normalize("NFC", m.player)
            if nm in by_nick:
                m.player = nm
            else:
                known = ", ".join(dict.fromkeys(p.nick for p in ordered))
                raise GcgError(source, m.line, f"{m.text!r}: {m.player!r} is not a player of this game ({known})")
    remarks += _attribute(ordered, by_nick, moves, player_lines, source)
    racks = []
    for line_no, number, letters, before in rack_lines:
        if number not in seat_of_number:
            raise GcgError(source, line_no, f"#rack{number} names no player (there is no #player{number})")
        racks.append((line_no, seat_of_number[number], letters, before))

    game = GcgGame(source, ordered, pragmas, pragma_lines, notes, moves, racks, "en", encoding, remarks)
    game.tileset = _choose_tileset(game)
    _check_letters(game)
    return game


def _is_gain(m: GcgMove) -> bool:
    """An end-of-game line for the player who went out (``(RACK) +N``), not one losing their own rack."""
    return m.kind == END_RACK and (m.score > 0 or (m.score == 0 and not m.rack))


def _end_blocks(moves: Sequence[GcgMove]) -> Iterator[list[GcgMove]]:
    """Runs of consecutive end-of-game lines."""
    block: list[GcgMove] = []
    for m in moves:
        if m.kind == END_RACK:
            block.append(m)
        elif block:
            yield block
            block = []
    if block:
        yield block


def _attribute(players: Sequence[GcgPlayer], by_nick: Mapping[str, list[int]], moves: Sequence[GcgMove],
               player_lines: Mapping[int, int], source: str) -> list[tuple[int, str]]:
    """Give every move its ``seat``; returns remarks on how lines of shared nicknames were attributed.

    A nickname of one player names that player. When players share a nickname, a line is theirs by
    turn order (a play, pass or exchange: the player after the one who last took a turn; a ``--`` or
    ``(challenge)`` line: the player of the play before it; ``(RACK) +N``: the player of the last play,
    who went out; ``RACK (RACK) -N``: the player after the previous line's), confirmed by the running
    totals: the line's total must continue that player's recorded total by the line's score. When turn
    order and totals disagree the totals decide; when the totals fit none of them the record cannot be read."""
    n = len(players)
    shared = {nick: seats for nick, seats in by_nick.items() if len(seats) > 1}
    if not shared:
        for m in moves:
            m.seat = by_nick[m.player][0]
        return []
    engine = _engine_names(players)
    remarks: list[tuple[int, str]] = []
    for nick, seats in shared.items():
        who = " and ".join(f"#player{players[s].number}" for s in seats)
        names = ", ".join(f"#player{players[s].number} as {engine[s]!r}" for s in seats)
        remarks.append((player_lines[players[seats[-1]].number],
                        f"{who} share the nickname {nick!r}: their lines are told apart by turn order, each checked "
                        f"against that player's running total ({names})"))
    totals = [0] * n
    last_turn: int | None = None  # who made the last play, pass or exchange
    last_play: int | None = None
    previous: int | None = None  # whose was the line before
    for m in moves:
        seats = by_nick[m.player]
        if len(seats) == 1:
            seat = seats[0]
        else:
            if m.kind in (PLAY, PASS, EXCHANGE):
                expected = 0 if last_turn is None else (last_turn + 1) % n
            elif m.kind in (WITHDRAWN, CHALLENGE_BONUS) or _is_gain(m):
                expected = last_play
            elif m.kind == END_RACK:
                expected = None if previous is None else (previous + 1) % n
            else:  # a time penalty: anyone's
                expected = None
            if m.score_given:
                fits = [s for s in seats if totals[s] + m.score == m.total]
            else:  # the older '-- +0': only the total says what was taken back
                fits = [s for s in seats if m.total <= totals[s]]
            if not fits:
                have = ", ".join(f"{engine[s]} {totals[s]}" for s in seats)
                raise GcgError(source, m.line, f"{m.text!r}: {m.player!r} is the nickname of {len(seats)} players, and the "
                                               f"running total {m.total} continues none of their totals ({have}) by "
                                               f"{m.score:+d}: the line cannot be given to a player")
            if expected in fits:
                seat = expected
            else:
                # The first that fits in turn order, from the expected player (or the one after the last line's).
                start = expected if expected is not None else 0 if previous is None else previous + 1
                seat = min(fits, key=lambda s: (s - start) % n)
                if expected in seats:
                    remarks.append((m.line, f"turn order gives this line to {engine[expected]}, the running totals to "
                                            f"{engine[seat]}: it is {engine[seat]}'s"))
        m.seat = seat
        totals[seat] = m.total
        previous = seat
        if m.kind in (PLAY, PASS, EXCHANGE):
            last_turn = seat
        if m.kind == PLAY:
            last_play = seat
    return remarks


def read_gcg(path: str | Path) -> GcgGame:
    """Read a GCG file (raw bytes, decoded as the record says)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GcgError(str(path), 0, f"cannot read the file: {exc.strerror or exc}") from None
    return parse_gcg(data, str(path))


# ----- tile sets


def _letter_uses(game: GcgGame) -> Iterator[tuple[int, str, str]]:
    """(line, what, letters) for everything in the record that is made of tiles."""
    for m in game.moves:
        if m.rack:
            yield m.line, m.text, m.rack
        if m.kind == PLAY:
            yield m.line, m.text, "".join(c.letter for c in m.cells if c.letter)
        if m.exchanged:
            yield m.line, m.text, m.exchanged
        if m.end_rack:
            yield m.line, m.text, m.end_rack
    for line, nick, letters, _ in game.racks:
        yield line, f"#rack {letters}", letters


def _tileset_by_name(name: str) -> str | None:
    key = name.strip().lower()
    if key in _DISTRIBUTION_NAMES:
        return _DISTRIBUTION_NAMES[key]
    if key in available_tilesets():
        return key
    try:
        get_tileset(name.strip())
    except CompanionError:
        return None
    return name.strip()


def _choose_tileset(game: GcgGame) -> str:
    for line, key, value in game.pragma_lines:
        if key in ("tile-set", "tileset", "letter-distribution", "tile-distribution"):
            code = _tileset_by_name(value)
            if code is None:
                raise GcgError(game.source, line, f"unknown tile set {value!r} (known: {', '.join(available_tilesets())})")
            return code
    for note in game.notes:  # macondo's "#note LetterDistribution: polish"
        m = re.match(r"\s*LetterDistribution\s*:\s*(\S+)", note)
        if m and _tileset_by_name(m.group(1)):
            return _tileset_by_name(m.group(1))
    lexicon = (game.lexicon or "").strip().upper()
    if lexicon:
        for prefix, code in _LEXICON_TILESETS:
            if lexicon.startswith(prefix) and code in available_tilesets():
                return code
    used = {unicodedata.normalize("NFC", ch).upper() for _, _, letters in _letter_uses(game) for ch in letters if ch != BLANK}
    order = ["en"] + [c for c in ("pl", "de", "fr", "nl", "da") if c in available_tilesets()]
    order += [c for c in available_tilesets() if c not in order]
    for code in order:
        if used <= set(get_tileset(code).counts):
            return code
    return "en"  # _check_letters names the first letter that does not fit


def _check_letters(game: GcgGame) -> None:
    tiles = get_tileset(game.tileset)
    how = f" (lexicon {game.lexicon})" if game.lexicon else ""
    for line, what, letters in _letter_uses(game):
        for ch in letters:
            if ch == BLANK:
                continue
            if unicodedata.normalize("NFC", ch).upper() not in tiles.counts:
                others = [c for c in available_tilesets() if c != game.tileset]
                if not how and not any(unicodedata.normalize("NFC", ch).upper() in get_tileset(c).counts for c in others):
                    how = f", nor of any other tile set ({', '.join(others)})"
                raise GcgError(game.source, line, f"{what!r}: {ch!r} is not a letter of the {tiles.name} tile set{how}")


# ---------------------------------------------------------------------------------------------
# Replaying on the engine


@dataclass
class _Step:
    """What one record line did on the engine."""

    move: GcgMove | None  # None for a #rack line
    events: list[dict]
    engine_score: int = 0  # what the line changed the player's score by on the engine


def _engine_names(players: Sequence[GcgPlayer]) -> list[str]:
    """Engine player names (each its own): the nickname, or the full name when the nickname is just the
    full name with underscores for spaces (``Peter_Armstrong`` -> ``Peter Armstrong``); players who share
    a nickname go by their full names (and a number, if even those are the same)."""
    names = [p.name if p.name != p.nick and re.sub(r"\s+", "_", p.name) == p.nick else p.nick for p in players]
    if len(set(names)) == len(names):
        return names
    nicks = Counter(p.nick for p in players)
    names = [p.name if nicks[p.nick] > 1 else p.nick for p in players]
    if len(set(names)) != len(names):
        names = [f"{name} ({p.number})" if names.count(name) > 1 else name for name, p in zip(names, players)]
    return names


class _Walk:
    """Replays a record on the engine, line by line."""

    def __init__(self, game: GcgGame):
        self.game = game
        self.source = game.source
        if len(game.players) < 2:
            line = game.moves[0].line if game.moves else 0
            raise GcgError(self.source, line, f"a game needs at least two #player lines; this record has {len(game.players)}")
        self.tiles: TileSet = get_tileset(game.tileset)
        self.names = _engine_names(game.players)
        self.rule = game.challenge_rule
        meta: dict[str, Any] = {
            "players": [{"nick": p.nick, "name": p.name} for p in game.players],
            "pragmas": [[k, v] for _, k, v in game.pragma_lines],
        }
        if game.notes:
            meta["notes"] = list(game.notes)
        self.start = {
            "type": "game_started", "players": list(self.names), "tileset": game.tileset, "layout": _LAYOUT,
            "challenge_rule": self.rule, "end_rule": game.end_rule, "strict_turns": False, "gcg": meta,
        }
        try:
            self.replay = Replay(self.start)
        except CompanionError as exc:
            raise GcgError(self.source, 0, f"the engine cannot start this game: {exc}") from None
        self.remarks: list[tuple[int, str]] = list(game.remarks)

    # ----- helpers
    def _fail(self, move: GcgMove, why: str) -> GcgError:
        return GcgError(self.source, move.line, f"{move.text!r} {why}")

    def _push(self, move: GcgMove, event: dict) -> None:
        try:
            self.replay.push(event)
        except CompanionError as exc:
            raise self._fail(move, f"cannot be replayed: {exc}") from None

    def _base(self, move: GcgMove, event: dict, shown: bool = False) -> dict:
        """Add the record's rack and notes. The rack goes in the engine's ``rack`` field only when
        ``shown`` (a play whose rack the engine can check); otherwise it is kept as ``gcg_rack``."""
        if move.rack:
            event["rack" if shown else "gcg_rack"] = move.rack
        notes = [n for n in move.notes if n.strip() != UNSUCCESSFUL_CHALLENGE]
        if notes:
            event["note"] = "\n".join(notes)
        return event

    def _placements(self, move: GcgMove) -> tuple[Placement, ...]:
        """The new tiles of a play, its position and word read against the board (``companion.notation``),
        with the record's own checks: a tile marked as already there must be there, and be that letter."""
        board = self.replay.state.board
        out = []
        try:
            for sq, ch, through, tile in read_notation(board, move.position, move.word):
                name = square_name(sq)
                if through:
                    if tile is None:
                        if ch == ".":
                            raise self._fail(move, f"plays through {name} with '.', but {name} is empty")
                        raise self._fail(move, f"writes ({ch}) for a tile already on {name}, but {name} is empty")
                    if ch != "." and tile.letter != self.tiles.normalize(ch):
                        raise self._fail(move, f"plays through ({ch}) on {name}, but {name} holds {tile}")
                    continue
                letter = self.tiles.normalize(ch)
                if tile is not None:
                    if tile.letter != letter:
                        raise self._fail(move, f"puts {ch} on {name}, which already holds {tile}")
                    continue  # the older layout writes letters already on the board in full
                out.append(Placement(sq, Tile(letter, ch != letter)))
        except CompanionError as exc:
            if isinstance(exc, GcgError):
                raise
            raise self._fail(move, f"cannot be replayed: {exc}") from None
        if not out:
            raise self._fail(move, "puts no new tile on the board")
        (r, c), dr, dc = move.square, *((0, 1) if move.across else (1, 0))
        for sq in ((r - dr, c - dc), (r + dr * len(move.cells), c + dc * len(move.cells))):
            if board.occupied(sq):
                self.remarks.append((move.line, f"the word {move.word} runs on: {square_name(sq)}, next to it, already holds a tile"))
        return tuple(out)

    def _delta(self, who: int, before) -> int:
        return self.replay.state.scores[who] - before.scores[who]

    # ----- the walk
    def steps(self) -> Iterator[_Step]:
        moves = self.game.moves
        racks = list(self.game.racks)
        yield from self._racks(racks, 0)
        i = 0
        while i < len(moves):
            if moves[i].kind == END_RACK:
                j = i
                while j < len(moves) and moves[j].kind == END_RACK:
                    j += 1
                yield from self._end_block(moves[i:j])
                for k in range(i + 1, j + 1):
                    yield from self._racks(racks, k)
                i = j
                continue
            yield self._step(moves[i])
            i += 1
            yield from self._racks(racks, i)

    def _racks(self, racks: list, after: int) -> Iterator[_Step]:
        for line, seat, letters, before in racks:
            if before != after:
                continue
            event = {"type": "rack", "player": self.names[seat], "rack": letters}
            try:
                self.replay.push(event)
            except CompanionError as exc:
                self.remarks.append((line, f"#rack for {self.names[seat]} is left out: {exc}"))
                continue
            yield _Step(None, [event])

    def _step(self, move: GcgMove) -> _Step:
        st = self.replay.state
        who = move.seat
        name = self.names[who]
        n = len(self.names)
        kind = move.kind
        if kind == PLAY:
            if st.phase == ENDED:
                raise self._fail(move, "comes after the end of the game")
            placements = self._placements(move)
            shown = False
            if move.rack:
                used = Counter(BLANK if p.tile.blank else p.tile.letter for p in placements)
                missing = used - Counter(BLANK if ch == BLANK else ch.upper() for ch in move.rack)
                if missing:
                    self.remarks.append((move.line, f"the recorded rack {move.rack} lacks {''.join(sorted(missing.elements()))}, "
                                                    f"which the play puts down"))
                # A rack the engine can check: every tile the player holds (records often show fewer).
                shown = not missing and len(move.rack) == st.rack_counts[who]
            event = self._base(move, {"type": "play", "player": name, "tiles": tiles_spec(placements)}, shown)
            self._push(move, event)
            return _Step(move, [event], self._delta(who, st))
        if kind == PASS:
            marked = any(note.strip() == UNSUCCESSFUL_CHALLENGE for note in move.notes)
            pending = st.pending
            open_play = pending is not None and not pending.challenged and pending.player != who
            if st.phase == AWAITING_RACKS and st.went_out is not None and st.went_out != who:
                # A scoreless turn after the last play: a failed challenge of it (double challenge).
                if open_play and self.rule in ("double", "single"):
                    event = self._base(move, {"type": "challenge", "challenger": name, "verdict": "valid"})
                    self._push(move, event)
                    return _Step(move, [event], self._delta(who, st))
                self.remarks.append((move.line, "a pass after the game-ending play changes nothing on the engine"))
                return _Step(move, [], 0)
            if marked and open_play:
                event = self._base(move, {"type": "challenge", "challenger": name, "verdict": "valid"})
                self._push(move, event)
                return _Step(move, [event], self._delta(who, st))
            event = self._base(move, {"type": "pass", "player": name})
            self._push(move, event)
            return _Step(move, [event], self._delta(who, st))
        if kind == EXCHANGE:
            event = self._base(move, {"type": "exchange", "player": name, "count": move.exchange_count})
            if move.exchanged:
                event["exchanged"] = move.exchanged
            self._push(move, event)
            return _Step(move, [event], self._delta(who, st))
        if kind in (WITHDRAWN, CHALLENGE_BONUS):
            pending = st.pending
            what = "takes back a play (--)" if kind == WITHDRAWN else "claims a challenge bonus"
            if pending is None:
                raise self._fail(move, f"{what}, but there is no play open to a challenge before it")
            if pending.player != who:
                raise self._fail(move, f"{what}, but the play before it is {self.game.labels[pending.player]}'s")
            if not move.score_given:
                self.remarks.append((move.line, "'-- +0' is the older form: the points taken back show only in the running total"))
            event = self._base(move, {"type": "challenge", "challenger": self.names[(who + 1) % n],
                                      "verdict": "invalid" if kind == WITHDRAWN else "valid"})
            self._push(move, event)
            return _Step(move, [event], self._delta(who, st))
        if kind == TIME_PENALTY:
            event = self._base(move, {"type": "time_penalty", "player": name, "points": -move.score})
            self._push(move, event)
            return _Step(move, [event], self._delta(who, st))
        raise self._fail(move, f"is a {kind} line the replay does not know")  # pragma: no cover

    def _end_block(self, block: list[GcgMove]) -> Iterator[_Step]:
        """Consecutive end-of-game lines: one ``end_racks`` event, settled by the engine under the game's
        ``end_rule``; each line is checked against the engine's change to that player's score."""
        n = len(self.names)
        racks: dict[str, str] = {}
        for m in block:
            if not _is_gain(m):  # a player's own leftover
                racks[self.names[m.seat]] = racks.get(self.names[m.seat], "") + m.end_rack
        gains = [m for m in block if _is_gain(m)]
        if self.start["end_rule"] == "double":
            # The one line of the player who went out shows the others' tiles, not whose they are.
            for g in gains:
                others = [i for i in range(1, n) if self.names[(g.seat + i) % n] not in racks]
                if others:
                    key = self.names[(g.seat + others[0]) % n]
                    racks[key] = racks.get(key, "") + g.end_rack
                    if n > 2:
                        self.remarks.append((g.line, f"the tiles ({g.end_rack}) are counted as {key}'s: the record does not say whose they are"))
        st = self.replay.state
        events: list[dict] = []
        if gains and st.went_out != gains[0].seat:
            engine_out = f"nobody going out ({st.bag} tiles still in the bag)" if st.went_out is None else f"{self.names[st.went_out]} going out"
            self.remarks.append((gains[0].line, f"the record says {self.names[gains[0].seat]} went out, the engine has {engine_out}"))
        if st.phase == ENDED:
            self.remarks.append((block[0].line, "the racks were already counted: these end-of-game lines change nothing on the engine"))
        elif racks:
            event: dict = {"type": "end_racks", "racks": racks}
            notes = [note for m in block for note in m.notes]
            if notes:
                event["note"] = "\n".join(notes)
            self._push(block[0], event)
            events.append(event)
        after = self.replay.state
        changed = {i: after.scores[i] - st.scores[i] for i in range(n)}
        for k, m in enumerate(block):
            yield _Step(m, events if k == 0 else [], changed.pop(m.seat, 0))


def gcg_to_events(game: GcgGame) -> list[dict]:
    """The engine events of a record (``game_started`` first), replayed to check they apply.

    Raises GcgError (with the line) when a line cannot be replayed on the board."""
    walk = _Walk(game)
    events = [walk.start]
    for step in walk.steps():
        events.extend(step.events)
    return events


# ---------------------------------------------------------------------------------------------
# Writing


def _nick(name: str) -> str:
    nick = re.sub(r"\s+", "_", name.strip())
    return nick or "player"


def _written_play(play) -> tuple[str, str]:
    """Position and word of an engine Play, the GCG way (``.`` for tiles already on the board)."""
    word = play.main_word
    r, c = word.start
    position = f"{r + 1}{COLUMNS[c]}" if word.direction == "across" else f"{COLUMNS[c]}{r + 1}"
    letters = []
    for sq, tile, new in zip(word.squares, word.tiles, word.new):
        if not new:
            letters.append(".")
        elif tile.letter == BLANK:
            raise CompanionError(f"the blank on {square_name(sq)} has no letter: a GCG record cannot show it")
        else:
            letters.append(str(tile))
    return position, "".join(letters)


def events_to_gcg(events: Iterable[Mapping[str, Any]]) -> str:
    """A saved game (its event log, undo events included) as a GCG record, scores as the engine
    decided them. The output reads back with ``parse_gcg`` to the same events."""
    events = [dict(e) for e in events]
    source = "<events>"
    if not events:
        raise GcgError(source, 0, "there are no events to write")
    first = events[0]
    try:
        replay = Replay(first)
    except CompanionError as exc:
        raise GcgError(source, 1, f"the game cannot start: {exc}") from None
    players = list(replay.state.players)
    meta = first.get("gcg") if isinstance(first.get("gcg"), Mapping) else {}
    meta_players = meta.get("players") if isinstance(meta.get("players"), list) else None
    if meta_players and len(meta_players) == len(players) and all(isinstance(p, Mapping) for p in meta_players):
        nicks = [str(p.get("nick") or _nick(name)) for p, name in zip(meta_players, players)]
        full = [str(p.get("name") or name) for p, name in zip(meta_players, players)]
    else:
        nicks = [_nick(name) for name in players]
        full = list(players)
    if len(set(nicks)) != len(nicks):  # a record read by turn order (shared nicknames) is written with its own
        shared = Counter(nicks)
        nicks = [_nick(name) if shared[nick] > 1 else nick for nick, name in zip(nicks, full)]
    if len(set(nicks)) != len(nicks):
        nicks = [f"{nick}_{i + 1}" for i, nick in enumerate(nicks)]
    head = ["#character-encoding UTF-8"]
    head += [f"#player{i + 1} {nick} {name}" for i, (nick, name) in enumerate(zip(nicks, full))]
    pragmas = meta.get("pragmas") if isinstance(meta.get("pragmas"), list) else []
    keys = set()
    for item in pragmas:
        if isinstance(item, (list, tuple)) and len(item) == 2 and str(item[0]) != "character-encoding":
            head.append(f"#{item[0]} {item[1]}".rstrip())
            keys.add(str(item[0]))
    tileset = str(first.get("tileset", "en"))
    if tileset != "en" and not keys & {"tile-set", "tileset", "letter-distribution", "tile-distribution"}:
        head.append(f"#tile-set {tileset}")
    for note in meta.get("notes", []) if isinstance(meta.get("notes"), list) else []:
        head += _note_lines(str(note))

    blocks: list[list[str]] = []  # lines per event still in force (undo pops)
    for n, event in enumerate(events[1:], start=2):
        before = replay.state
        try:
            after = replay.push(event)
        except CompanionError as exc:
            raise GcgError(source, n, f"event {n} ({event.get('type')}) cannot be replayed: {exc}") from None
        if event.get("type") == "undo":
            blocks.pop()
            continue
        try:
            lines = _event_lines(event, before, after, nicks)
        except CompanionError as exc:
            raise GcgError(source, n, f"event {n} ({event.get('type')}) cannot be written as GCG: {exc}") from None
        note = event.get("note")
        if isinstance(note, str) and note and lines and not lines[-1].startswith("#rack"):
            lines += _note_lines(note)
        blocks.append(lines)
    return "\n".join(head + [line for block in blocks for line in block]) + "\n"


def _note_lines(note: str) -> list[str]:
    return [f"#note {part}".rstrip() for part in note.split("\n")]


def _event_lines(event: Mapping[str, Any], before, after, nicks: list[str]) -> list[str]:
    kind = event.get("type")
    rack = str(event.get("rack") or event.get("gcg_rack") or "")
    new_turns = after.turns[len(before.turns):]
    lines: list[str] = []

    def total(turn) -> int:
        return turn.total

    def move(player: int, body: str) -> str:
        return f">{nicks[player]}: {rack + ' ' if rack else ''}{body}"

    if kind == "rack":
        who = after.player_index(event.get("player"))
        return [f"#rack{who + 1} {event.get('rack', '')}"]
    if kind == "end_racks":
        return _end_lines(event, before, after, nicks)
    if kind == "position":
        raise CompanionError("the game was joined mid-way (the board as found), and a GCG record starts from an "
                             "empty board: export it as its event log (--format jsonl)")
    for turn in new_turns:
        if turn.kind == "play":
            position, word = _written_play(after.pending.play)
            lines.append(move(turn.player, f"{position} {word} +{turn.score} {total(turn)}"))
        elif turn.kind == "pass":
            lines.append(move(turn.player, f"- +0 {total(turn)}"))
        elif turn.kind == "exchange":
            count = int(event.get("count", 0))
            letters = str(event.get("exchanged") or "")
            shown = letters if len(letters) == count and letters else str(count)
            lines.append(move(turn.player, f"-{shown} +0 {total(turn)}"))
        elif turn.kind == "withdrawn":
            lines.append(move(turn.player, f"-- -{-turn.score} {total(turn)}"))
        elif turn.kind == "challenge_bonus":
            lines.append(move(turn.player, f"(challenge) +{turn.score} {total(turn)}"))
        elif turn.kind == "failed_challenge":
            lines.append(move(turn.player, f"- +0 {total(turn)}"))
            lines.append(f"#note {UNSUCCESSFUL_CHALLENGE}")
        elif turn.kind == "time_penalty":
            lines.append(move(turn.player, f"(time) -{-turn.score} {total(turn)}"))
        elif turn.kind == "lost_turn":
            continue  # implied by the failed challenge line
        else:
            raise CompanionError(f"a {turn.kind} turn has no GCG form")
    return lines


def _end_lines(event: Mapping[str, Any], before, after, nicks: list[str]) -> list[str]:
    """The end-of-game lines, with the points and totals the engine gave under the game's ``end_rule``.

    ``double``: the spec's own line, ``>out: (OTHERS' TILES) +2N TOTAL``, and no line for the others
    (they keep their scores). ``transfer`` has no line of its own in the spec (v1.2); it is written
    the way the older records (quackle's fivepoint.gcg) write it, out of two kinds of line the spec
    does have: the player who went out gains the value once, ``>out: (TILES) +N TOTAL``, and each other
    player loses their own, ``>other: TILES (TILES) -V TOTAL`` (the spec's line for tiles left on a
    player's own rack). Reading either form back gives the same end_rule. When nobody went out, each
    player with tiles left has their ``TILES (TILES) -V`` line."""
    racks = event.get("racks") or {}
    by_player = {after.player_index(name): str(letters) for name, letters in racks.items()}
    turns = after.turns[len(before.turns):]
    out = before.went_out
    lines: list[str] = []
    for turn in turns:
        if turn.player == out:
            letters = "".join(letters for i, letters in sorted(by_player.items()) if i != out)
            lines.append(f">{nicks[out]}: ({letters}) +{turn.score} {turn.total}")
    for turn in turns:
        letters = by_player.get(turn.player, "")
        if turn.player != out and letters:
            lines.append(f">{nicks[turn.player]}: {letters} ({letters}) -{-turn.score} {turn.total}")
    return lines


# ---------------------------------------------------------------------------------------------
# Verifying


@dataclass(frozen=True)
class Mismatch:
    """A recorded score or running total that the engine does not agree with."""

    path: str
    line: int
    expected_score: int
    expected_total: int
    engine_score: int
    engine_total: int
    text: str

    def __str__(self) -> str:
        return (f"{self.path}:{self.line}: expected {self.expected_score:+d} (total {self.expected_total}), "
                f"engine scored {self.engine_score:+d} (total {self.engine_total}): {self.text}")


@dataclass
class FileResult:
    """The outcome for one file: moves checked and mismatches, or why it was rejected."""

    path: str
    moves: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    rejected: str | None = None  # "line 7: REASON" when the file is not a valid, replayable GCG record
    remarks: list[tuple[int, str]] = field(default_factory=list)
    #: per player (nickname, or the engine's name when nicknames are shared), as the engine tracked them
    final_scores: dict[str, int] = field(default_factory=dict)

    def lines(self, remarks: bool = True) -> list[str]:
        if self.rejected is not None:
            return [f"{self.path}: rejected: {self.rejected}"]
        out = [str(m) for m in self.mismatches]
        if remarks:
            out += [f"{self.path}:{line}: note: {text}" for line, text in self.remarks]
        return out


@dataclass
class VerifyReport:
    files: list[FileResult]
    seconds: float = 0.0

    @property
    def moves_checked(self) -> int:
        return sum(f.moves for f in self.files if f.rejected is None)

    @property
    def games_checked(self) -> int:
        return sum(1 for f in self.files if f.rejected is None)

    moves = moves_checked  # the names scripts/bench_engine.py reads
    games = games_checked

    @property
    def mismatch_count(self) -> int:
        return sum(len(f.mismatches) for f in self.files if f.rejected is None)

    @property
    def mismatches(self) -> list[Mismatch]:
        return [m for f in self.files if f.rejected is None for m in f.mismatches]

    @property
    def rejected(self) -> list[FileResult]:
        return [f for f in self.files if f.rejected is not None]

    @property
    def moves_per_second(self) -> float:
        return self.moves_checked / self.seconds if self.seconds > 0 else float("inf")

    @property
    def summary(self) -> str:
        text = f"checked {self.moves_checked} moves in {self.games_checked} games: {self.mismatch_count} mismatches"
        if self.rejected:
            text += f" ({len(self.rejected)} files rejected)"
        return text

    def lines(self, remarks: bool = True) -> list[str]:
        out = [line for f in self.files for line in f.lines(remarks)]
        out.append(self.summary)
        return out

    @property
    def exit_status(self) -> int:
        """0 all good; 1 a recorded score the engine disagrees with; 2 only files rejected."""
        if self.mismatch_count:
            return 1
        return 2 if self.rejected else 0


def verify_game(game: GcgGame, path: str | None = None) -> FileResult:
    """Replay one record on the engine and compare every recorded score and running total.

    After a mismatch the check goes on from the record's own total, so one error is reported once."""
    path = path or game.source
    result = FileResult(path)
    walk = _Walk(game)
    totals = [0] * len(game.players)
    for step in walk.steps():
        m = step.move
        if m is None:
            continue
        result.moves += 1
        engine_total = totals[m.seat] + step.engine_score
        score_ok = (not m.score_given) or m.score == step.engine_score
        if not score_ok or m.total != engine_total:
            result.mismatches.append(Mismatch(path, m.line, m.score, m.total, step.engine_score, engine_total, m.text))
            totals[m.seat] = m.total
        else:
            totals[m.seat] = engine_total
    result.remarks = sorted(set(walk.remarks))
    result.final_scores = dict(zip(game.labels, totals))
    return result


def _expand(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += sorted(q for q in p.iterdir() if q.suffix.lower() == ".gcg" and q.is_file())
        else:
            out.append(p)
    return out


def verify(paths: Iterable[str | Path]) -> VerifyReport:
    """Check every recorded score of each file (a folder stands for its ``*.gcg`` files)."""
    started = time.perf_counter()
    files = []
    for path in _expand(paths):
        try:
            game = read_gcg(path)
            files.append(verify_game(game, str(path)))
        except GcgError as exc:
            files.append(FileResult(str(path), rejected=exc.where_reason))
        except CompanionError as exc:  # pragma: no cover - every engine error is turned into GcgError above
            files.append(FileResult(str(path), rejected=str(exc)))
    return VerifyReport(files, time.perf_counter() - started)


def cli_verify(argv_paths: Sequence[str], out=None, notes: bool = True) -> int:
    """``companion gcg verify FILE...``: print the report (mismatches, rejected files, with ``notes``
    what the replay noticed, then the summary); exit 0, 1 (mismatches) or 2 (only rejections)."""
    out = out or sys.stdout
    report = verify(argv_paths)
    for line in report.lines(remarks=notes):
        print(line, file=out)
    return report.exit_status


def cli_import(path: str | Path, err=None) -> list[dict]:
    """``companion gcg import FILE``: the record's events, replayed on the engine as they are (the walk
    pushes every event through the engine's own ``Replay``). What the reader and the replay noticed
    (how lines of a shared nickname were attributed, ...) goes to ``err`` as ``FILE:LINE: note:`` lines."""
    game = read_gcg(path)
    walk = _Walk(game)
    events = [walk.start]
    for step in walk.steps():
        events.extend(step.events)
    err = err or sys.stderr
    for line, text in sorted(set(walk.remarks)):
        print(f"{path}:{line}: note: {text}", file=err)
    return events


def cli_export(events: Iterable[Mapping[str, Any]]) -> str:
    """``companion game export --format gcg``: the GCG text of a saved game."""
    return events_to_gcg(events)
