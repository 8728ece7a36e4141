"""The saved-game store: every game is its list of events, kept in one SQLite file.

A game is saved as the ordered list of events the engine produced (the engine
decides what an event holds; to the store an event is an opaque dict with a str
``"type"``). Replaying the events rebuilds the game, so the store never keeps a
board or a score of its own.

Guarantees:

* Each ``append`` and each ``create_game`` (the game row together with its first
  event) is one SQLite transaction: after a crash, a killed process or a power
  cut the event is either wholly there or not there at all, and a game never
  exists without its first event.
* An event is confirmed when ``append`` returns. The file runs in WAL mode with
  ``synchronous=FULL``, so a confirmed event has been flushed to the disk and
  survives a power cut, not only a killed process.
* Events come back equal to what was stored: ``append`` only accepts dicts made
  of dict (with str keys), list, str, int, float (finite), bool and None.
  Anything that JSON would silently change or refuse (tuples, sets, number keys,
  NaN, objects) is refused with a StoreError that names the field.
* Every failure is reported as a :class:`StoreError` whose message names the
  file and says what is wrong in words fit for the players, never as a raw
  ``sqlite3`` exception.

The file layout (schema version :data:`SCHEMA_VERSION`, kept in
``PRAGMA user_version``; ``PRAGMA application_id`` marks the file as ours):

* ``games(id, name, variant, created, updated)``: ``created`` and ``updated``
  are ISO-8601 UTC times; ``updated`` is when the latest event was recorded.
* ``events(game_id, seq, event, recorded)``: ``seq`` counts 1, 2, 3... within a
  game with no gaps, ``event`` is the event as JSON text, ``recorded`` the
  ISO-8601 UTC time it was stored.

A ``GameStore`` is one connection and, like ``sqlite3`` connections, is meant to
be used from the thread that opened it. Several programs (or several stores)
may open the same file; writers take turns, waiting up to ``timeout`` seconds.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from companion.errors import CompanionError

__all__ = ["SCHEMA_VERSION", "GameStore", "GameSummary", "StoreError"]

SCHEMA_VERSION = 1
"""Version of the file layout this code writes and reads (``PRAGMA user_version``)."""

APPLICATION_ID = 0x54436F6D
"""``PRAGMA application_id`` of a saved-games file (ASCII "TCom"), to tell it from
another program's SQLite file."""

DEFAULT_TIMEOUT = 5.0
"""Seconds to wait for another program that is writing the file before giving up."""

_SCHEMA = """
CREATE TABLE games (
    -- AUTOINCREMENT so that the id of a deleted game is never handed out again:
    -- "game 7" must not silently become a different game.
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    name    TEXT NOT NULL,
    variant TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE events (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    event    TEXT NOT NULL,
    recorded TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

# Primary SQLite result codes (the low byte of an extended code); spelled out
# because the sqlite3 module only names them from Python 3.11 on.
_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_READONLY = 8
_SQLITE_IOERR = 10
_SQLITE_CORRUPT = 11
_SQLITE_FULL = 13
_SQLITE_CANTOPEN = 14
_SQLITE_NOTADB = 26


class StoreError(CompanionError):
    """The saved-games file cannot be read or written, or a request to it is wrong.

    The message names the file (or the game) and what is wrong.
    """


@dataclass(frozen=True)
class GameSummary:
    """One saved game as listed: no events, only their count.

    ``created`` and ``updated`` are ISO-8601 UTC times (``updated`` is when the
    latest event was stored).
    """

    id: int
    name: str
    variant: str
    created: str
    updated: str
    event_count: int


def _now() -> str:
    """The current time as ISO-8601 UTC text, e.g. ``2024-05-01T18:30:00.123456+00:00``."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _check_value(value: Any, field: str, kind: str, path: list[int]) -> None:
    """Raise StoreError unless ``value`` comes back from JSON exactly as it is.

    ``field`` names the value for the message (``'tiles'[2]``) and ``kind`` is
    the event's type; ``path`` holds the ids of the containers being checked,
    to catch a container that contains itself (JSON would recurse for ever).
    """
    where = f"field {field} of the {kind!r} event"
    # bool and int subclasses (IntEnum) are fine: JSON writes them as numbers or
    # true/false and they compare equal to what comes back.
    if value is None or isinstance(value, (bool, int, str)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise StoreError(f"{where} is {value!r}, which a saved game cannot hold (only finite numbers)")
        return
    if isinstance(value, (dict, list)):
        if id(value) in path:
            raise StoreError(f"{where} contains itself, so it cannot be saved")
        path.append(id(value))
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise StoreError(
                        f"{where} has the key {key!r}, which is not text; a saved game only keeps text keys"
                    )
                _check_value(item, f"{field}[{key!r}]", kind, path)
        else:
            for index, item in enumerate(value):
                _check_value(item, f"{field}[{index}]", kind, path)
        path.pop()
        return
    hint = " (use a list)" if isinstance(value, (tuple, set, frozenset)) else ""
    raise StoreError(f"{where} is a {type(value).__name__}, which a saved game cannot hold{hint}")


def _encode_event(event: Any) -> str:
    """Check ``event`` and return it as JSON text; raise StoreError naming what is wrong.

    Done before any transaction starts, so a refused event leaves the file as it was.
    """
    if not isinstance(event, dict):
        raise StoreError(f"an event must be a dict, not a {type(event).__name__}")
    kind = event.get("type")
    if not isinstance(kind, str):
        if "type" not in event:
            raise StoreError("the event has no 'type'")
        raise StoreError(f"the event's 'type' must be text, not a {type(kind).__name__}")
    for key, value in event.items():
        if not isinstance(key, str):
            raise StoreError(f"the {kind!r} event has the key {key!r}, which is not text")
        _check_value(value, repr(key), kind, [id(event)])
    # ensure_ascii=False keeps letters such as Ñ readable in the file; the UTF-8
    # check refuses lone surrogates here rather than halfway through a transaction.
    text = json.dumps(event, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise StoreError(f"the {kind!r} event holds text that is not valid Unicode: {exc}") from None
    return text


def _check_text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise StoreError(f"the game's {what} must be text, not a {type(value).__name__}")
    return value


def _check_id(game_id: Any) -> int:
    # bool is an int, but True is no game id; a str '7' would match row 7 through
    # SQLite's type affinity and hide a caller's mistake.
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        raise StoreError(f"a saved game's id is a whole number, not {game_id!r}")
    return game_id


class GameStore:
    """The saved games in one SQLite file; see the module docstring for the guarantees.

    ``GameStore(path)`` opens the file, creating it (and its folder) when missing.
    Use it as a context manager, or call :meth:`close` when done. ``timeout`` is
    how many seconds to wait for another program writing the same file before
    reporting that the file is in use.

    Raises StoreError when the file cannot be opened: not a saved-games file or
    damaged, written by a newer version, in use, read-only, or its folder cannot
    be made.
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._conn: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot make the folder {self.path.parent} for the saved-games file: {exc.strerror or exc}"
            ) from exc
        try:
            # isolation_level=None: the module must not open transactions on its
            # own; every write below is an explicit BEGIN IMMEDIATE ... COMMIT.
            # timeout is SQLite's busy timeout: how long to wait for a lock.
            conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._translate(exc, "opened") from exc
        self._conn = conn
        try:
            self._prepare(conn)
        except BaseException:
            self._conn = None
            conn.close()
            raise

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Set the connection's safety settings and create or check the schema."""
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            # WAL: a commit appends to the log, so a write cut short never
            # touches the events already saved; readers do not block the writer.
            (mode,) = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            # FULL: in WAL mode the log is flushed to the disk at every commit,
            # so an append that returned survives a power cut (NORMAL would not).
            conn.execute("PRAGMA synchronous = FULL")
            app_id, version, tables = self._header(conn)
            if (app_id, version, tables) == (0, 0, 0):
                self._create_schema(conn)
                app_id, version, tables = self._header(conn)
        except sqlite3.Error as exc:
            raise self._translate(exc, "opened") from exc
        if app_id != APPLICATION_ID:
            raise StoreError(
                f"{self.path} is not a Table Companion saved-games file or is damaged: "
                "it is a database of another program"
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the saved-games file {self.path} was written by a newer version of Table Companion "
                f"(file version {version}, this version reads up to {SCHEMA_VERSION}); please update"
            )
        if version < SCHEMA_VERSION:
            # No older layout exists yet; a future version migrates here.
            raise StoreError(
                f"{self.path} is not a Table Companion saved-games file or is damaged: "
                f"unknown file version {version}"
            )
        if str(mode).lower() != "wal":
            raise StoreError(
                f"the saved-games file {self.path} cannot be kept safely in this folder "
                f"(SQLite refused write-ahead logging and uses {mode!r}); choose a folder on a local disk"
            )

    @staticmethod
    def _header(conn: sqlite3.Connection) -> tuple[int, int, int]:
        """The file's application id, schema version and number of tables."""
        (app_id,) = conn.execute("PRAGMA application_id").fetchone()
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        (tables,) = conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return app_id, version, tables

    def _create_schema(self, conn: sqlite3.Connection) -> None:
        """Create the tables in an empty file, in one transaction.

        Two programs may create the same new file at once: IMMEDIATE makes the
        second wait, and the check inside the transaction makes it do nothing.
        """
        conn.execute("BEGIN IMMEDIATE")
        try:
            if self._header(conn) == (0, 0, 0):
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                # PRAGMAs take no parameters; both values are our own integers.
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    # -- error handling ----------------------------------------------------

    def _translate(self, exc: sqlite3.Error, doing: str) -> StoreError:
        """A StoreError for ``exc`` naming the file; ``doing`` is 'opened', 'read' or 'written'."""
        code = getattr(exc, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        text = str(exc)
        lowered = text.lower()
        path = self.path
        if primary in (_SQLITE_BUSY, _SQLITE_LOCKED) or "locked" in lowered:
            return StoreError(
                f"the saved-games file {path} is in use by another program "
                f"(still busy after {self.timeout:g} seconds); close the other program and try again"
            )
        if primary in (_SQLITE_NOTADB, _SQLITE_CORRUPT) or "not a database" in lowered or "malformed" in lowered:
            return StoreError(f"{path} is not a Table Companion saved-games file or is damaged: {text}")
        if primary == _SQLITE_READONLY or "readonly" in lowered or "read-only" in lowered:
            return StoreError(
                f"the saved-games file {path} cannot be changed because the file or its folder is read-only: {text}"
            )
        if primary == _SQLITE_CANTOPEN or "unable to open" in lowered:
            return StoreError(
                f"the saved-games file {path} cannot be opened (is it a folder, or is its folder "
                f"not allowed to be written?): {text}"
            )
        if primary == _SQLITE_FULL or "disk is full" in lowered:
            return StoreError(f"there is no room left on the disk for the saved-games file {path}: {text}")
        if primary == _SQLITE_IOERR or "i/o error" in lowered:
            return StoreError(f"the disk failed while the saved-games file {path} was {doing}: {text}")
        return StoreError(f"the saved-games file {path} could not be {doing}: {text}")

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"the saved-games file {self.path} has been closed")
        return self._conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed when the block ends, rolled back on any exception.

        IMMEDIATE takes the write lock at the start, so two writers cannot both
        read the same next seq; a StoreError raised inside the block (no such
        game) also rolls back, leaving nothing half-written.
        """
        conn = self._connection()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._translate(exc, "written") from exc
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            # SQLite may already have rolled back by itself (disk full, I/O error).
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the original error is the one worth reporting
            if isinstance(exc, sqlite3.Error):
                raise self._translate(exc, "written") from exc
            raise

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._connection().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._translate(exc, "read") from exc

    @staticmethod
    def _missing(game_id: int) -> StoreError:
        return StoreError(f"no saved game with id {game_id}")

    # -- the API -----------------------------------------------------------

    def create_game(self, name: str, variant: str, first_event: dict[str, Any], *later_events: dict[str, Any]) -> int:
        """Create a game holding ``first_event`` as its event 1 and return the game's id.

        The game and its first event (and ``later_events`` as events 2, 3, ..., for an
        imported game) are stored in one transaction: if anything fails, none is
        stored, so an import is never left half-written. Raises StoreError when an
        event is not storable (see :meth:`append`) or the file cannot be written.
        """
        _check_text(name, "name")
        _check_text(variant, "variant")
        text = _encode_event(first_event)
        later = [_encode_event(e) for e in later_events]
        now = _now()
        with self._write() as conn:
            cursor = conn.execute(
                "INSERT INTO games (name, variant, created, updated) VALUES (?, ?, ?, ?)",
                (name, variant, now, now),
            )
            game_id = cursor.lastrowid
            conn.executemany(
                "INSERT INTO events (game_id, seq, event, recorded) VALUES (?, ?, ?, ?)",
                [(game_id, seq, t, now) for seq, t in enumerate([text, *later], start=1)],
            )
        assert game_id is not None  # an INSERT into a rowid table always sets it
        return game_id

    def append(self, game_id: int, event: dict[str, Any]) -> int:
        """Store ``event`` as the next event of the game and return its seq (1, 2, 3...).

        The event must be a dict with a str ``"type"`` whose values are dicts
        with text keys, lists, text, whole or finite numbers, True/False or None,
        so that :meth:`events` gives back an equal dict. Otherwise, or when there
        is no such game, raises StoreError and stores nothing. When this returns
        the event is on the disk.
        """
        _check_id(game_id)
        text = _encode_event(event)
        now = _now()
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise self._missing(game_id)
            (seq,) = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            conn.execute(
                "INSERT INTO events (game_id, seq, event, recorded) VALUES (?, ?, ?, ?)",
                (game_id, seq, text, now),
            )
            conn.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        return seq

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The game's events in the order they were stored (seq 1 first).

        Raises StoreError when there is no such game, or when a stored event is
        not readable JSON (the file was damaged or edited by hand).
        """
        _check_id(game_id)
        # One query, so the existence check and the events come from the same
        # snapshot even while another program appends: a game always has its
        # event 1, so a game that exists has at least one row here.
        rows = self._read(
            "SELECT e.seq, e.event FROM games g LEFT JOIN events e ON e.game_id = g.id"
            " WHERE g.id = ? ORDER BY e.seq",
            (game_id,),
        )
        if not rows:
            raise self._missing(game_id)
        result = []
        for seq, text in rows:
            if seq is None:  # a game without events: only a hand-edited file has one
                continue
            try:
                event = json.loads(text)
            except (TypeError, ValueError) as exc:
                raise StoreError(
                    f"event {seq} of saved game {game_id} in {self.path} is damaged: {exc}"
                ) from exc
            if not isinstance(event, dict):
                raise StoreError(f"event {seq} of saved game {game_id} in {self.path} is damaged: not an event")
            result.append(event)
        return result

    def list_games(self) -> list[GameSummary]:
        """Every saved game, oldest first (by id)."""
        rows = self._read(
            "SELECT g.id, g.name, g.variant, g.created, g.updated,"
            " (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id)"
            " FROM games g ORDER BY g.id"
        )
        return [GameSummary(*row) for row in rows]

    def get_game(self, game_id: int) -> GameSummary:
        """The summary of one game; StoreError ``no saved game with id 7`` when there is none."""
        _check_id(game_id)
        rows = self._read(
            "SELECT g.id, g.name, g.variant, g.created, g.updated,"
            " (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id)"
            " FROM games g WHERE g.id = ?",
            (game_id,),
        )
        if not rows:
            raise self._missing(game_id)
        return GameSummary(*rows[0])

    def delete_game(self, game_id: int) -> None:
        """Delete the game and all its events (one transaction); StoreError when there is none."""
        _check_id(game_id)
        with self._write() as conn:
            # The events go with the game through ON DELETE CASCADE.
            if conn.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 0:
                raise self._missing(game_id)

    def close(self) -> None:
        """Close the file; calling it again does nothing. Later calls raise StoreError."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else "open"
        return f"GameStore({str(self.path)!r}, {state})"
