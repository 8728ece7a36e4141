"""Tests of companion.store: saved games survive crashes whole, and every failure is a StoreError."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import store as store_module
from companion.errors import CompanionError
from companion.store import SCHEMA_VERSION, GameStore, GameSummary, StoreError

REPO_ROOT = Path(__file__).resolve().parents[1]

START = {"type": "start", "players": ["Ann", "Bob"], "seed": 42}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def store(db_path: Path):
    with GameStore(db_path) as opened:
        yield opened


def raw(path: Path) -> sqlite3.Connection:
    """A plain sqlite3 connection to look at (or tamper with) the file behind the store's back."""
    return sqlite3.connect(path, isolation_level=None)


# -- round trips --------------------------------------------------------------


def test_events_come_back_in_order_with_seqs_counting_from_one(store: GameStore) -> None:
    game = store.create_game("Friday", "classic", START)
    plays = [{"type": "play", "word": w, "score": i} for i, w in enumerate(["CAT", "AXE", "ÑU"])]
    seqs = [store.append(game, play) for play in plays]
    assert seqs == [2, 3, 4]
    assert store.events(game) == [START, *plays]


def test_games_keep_their_events_apart(store: GameStore) -> None:
    one = store.create_game("one", "classic", {"type": "start", "game": 1})
    two = store.create_game("two", "wordfeud", {"type": "start", "game": 2})
    assert store.append(two, {"type": "pass"}) == 2
    assert store.append(one, {"type": "pass"}) == 2
    assert store.events(one) == [{"type": "start", "game": 1}, {"type": "pass"}]
    assert store.events(two) == [{"type": "start", "game": 2}, {"type": "pass"}]


def test_saved_games_are_there_after_reopening(db_path: Path) -> None:
    with GameStore(db_path) as first:
        game = first.create_game("kept", "classic", START)
        first.append(game, {"type": "pass"})
    with GameStore(db_path) as again:
        assert again.events(game) == [START, {"type": "pass"}]
        assert again.append(game, {"type": "pass"}) == 3


def test_two_stores_on_one_file_take_turns_without_gaps(db_path: Path) -> None:
    with GameStore(db_path) as a, GameStore(db_path) as b:
        game = a.create_game("shared", "classic", START)
        seqs = [(a if i % 2 else b).append(game, {"type": "tick", "i": i}) for i in range(6)]
        assert seqs == [2, 3, 4, 5, 6, 7]
        assert [e.get("i") for e in a.events(game)[1:]] == list(range(6))


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
json_events = st.builds(
    lambda kind, fields: {**fields, "type": kind},
    st.text(max_size=10),
    st.dictionaries(st.text(max_size=6), json_values, max_size=5),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(events=st.lists(json_events, min_size=1, max_size=6))
def test_any_json_like_events_come_back_equal(store: GameStore, events: list[dict]) -> None:
    # One store for all examples (a fresh file each time would be slow); each
    # example is its own game, so the examples cannot see each other.
    game = store.create_game("property", "classic", events[0])
    assert [store.append(game, event) for event in events[1:]] == list(range(2, len(events) + 1))
    assert store.events(game) == events


# -- summaries and deletion ---------------------------------------------------


def test_list_games_summarises_every_game_oldest_first(store: GameStore) -> None:
    one = store.create_game("one", "classic", START)
    two = store.create_game("two", "wordfeud", START)
    store.append(two, {"type": "pass"})
    listed = store.list_games()
    assert [(g.id, g.name, g.variant, g.event_count) for g in listed] == [
        (one, "one", "classic", 1),
        (two, "two", "wordfeud", 2),
    ]
    assert isinstance(listed[0], GameSummary)
    assert store.get_game(two) == listed[1]


def test_created_and_updated_are_iso_utc_and_updated_follows_appends(store: GameStore) -> None:
    game = store.create_game("times", "classic", START)
    before = store.get_game(game)
    assert before.created == before.updated
    created = datetime.fromisoformat(before.created)
    assert created.utcoffset() == timedelta(0)
    store.append(game, {"type": "pass"})
    after = store.get_game(game)
    assert after.created == before.created
    assert datetime.fromisoformat(after.updated) >= created


def test_get_game_of_a_missing_id_names_the_id(store: GameStore) -> None:
    with pytest.raises(StoreError, match=r"^no saved game with id 7$"):
        store.get_game(7)


@pytest.mark.parametrize("call", ["events", "append", "delete_game"])
def test_other_calls_on_a_missing_game_raise_store_error(store: GameStore, call: str) -> None:
    args = (7, {"type": "pass"}) if call == "append" else (7,)
    with pytest.raises(StoreError, match="no saved game with id 7"):
        getattr(store, call)(*args)
    assert store.list_games() == []


def test_delete_game_removes_the_game_and_its_events(store: GameStore, db_path: Path) -> None:
    gone = store.create_game("gone", "classic", START)
    kept = store.create_game("kept", "classic", START)
    store.append(gone, {"type": "pass"})
    store.delete_game(gone)
    assert [g.id for g in store.list_games()] == [kept]
    with pytest.raises(StoreError, match=f"no saved game with id {gone}"):
        store.events(gone)
    (left,) = raw(db_path).execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (gone,)).fetchone()
    assert left == 0


def test_a_deleted_games_id_is_never_given_to_a_new_game(store: GameStore) -> None:
    first = store.create_game("first", "classic", START)
    store.delete_game(first)
    assert store.create_game("second", "classic", START) != first


@pytest.mark.parametrize("bad_id", ["1", 1.0, True, None])
def test_a_game_id_that_is_not_a_whole_number_is_refused(store: GameStore, bad_id: object) -> None:
    store.create_game("one", "classic", START)
    with pytest.raises(StoreError, match="whole number"):
        store.get_game(bad_id)  # type: ignore[arg-type]


# -- refused events store nothing ---------------------------------------------


class NotJson:
    pass


@pytest.mark.parametrize(
    ("event", "named"),
    [
        (["type", "play"], "must be a dict"),
        ({"word": "CAT"}, "no 'type'"),
        ({"type": 3}, "'type' must be text"),
        ({"type": "play", "at": NotJson()}, "field 'at' of the 'play' event is a NotJson"),
        (
            {"type": "play", "tiles": [{"at": (7, 7)}]},
            r"field 'tiles'\[0\]\['at'\] of the 'play' event is a tuple.*use a list",
        ),
        ({"type": "play", "letters": {"A", "B"}}, "set"),
        ({"type": "play", "scores": {1: 10}}, "key 1, which is not text"),
        ({"type": "play", "score": float("nan")}, "finite"),
        ({"type": "play", "score": float("inf")}, "finite"),
        ({"type": "play", 5: "x"}, "key 5"),
        ({"type": "play", "word": "\ud800"}, "not valid Unicode"),
    ],
)
def test_append_of_an_unstorable_event_stores_nothing_and_says_why(
    store: GameStore, event: object, named: str
) -> None:
    game = store.create_game("g", "classic", START)
    before = store.get_game(game)
    with pytest.raises(StoreError, match=named):
        store.append(game, event)  # type: ignore[arg-type]
    assert store.events(game) == [START]
    assert store.get_game(game) == before
    assert store.append(game, {"type": "pass"}) == 2


def test_an_event_that_contains_itself_is_refused(store: GameStore) -> None:
    game = store.create_game("g", "classic", START)
    looped: dict = {"type": "play", "tiles": []}
    looped["tiles"].append(looped)
    with pytest.raises(StoreError, match="contains itself"):
        store.append(game, looped)
    assert store.events(game) == [START]


def test_create_game_with_an_unstorable_first_event_stores_no_game(store: GameStore) -> None:
    with pytest.raises(StoreError, match="tuple"):
        store.create_game("g", "classic", {"type": "start", "players": ("Ann", "Bob")})
    with pytest.raises(StoreError, match="name must be text"):
        store.create_game(None, "classic", START)  # type: ignore[arg-type]
    assert store.list_games() == []


def test_store_error_is_a_companion_error() -> None:
    assert issubclass(StoreError, CompanionError)


# -- atomic transactions ------------------------------------------------------


def test_create_game_is_atomic_when_storing_the_first_event_fails(store: GameStore, db_path: Path) -> None:
    # A trigger makes SQLite itself fail the event's INSERT, after the game's
    # row was written in the same transaction: that row must vanish too.
    tamper = raw(db_path)
    tamper.execute(
        "CREATE TRIGGER fail_event BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'simulated failure'); END"
    )
    with pytest.raises(StoreError, match=f"{re.escape(str(db_path))}.*simulated failure"):
        store.create_game("half", "classic", START)
    assert store.list_games() == []
    assert tamper.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
    tamper.execute("DROP TRIGGER fail_event")
    game = store.create_game("whole", "classic", START)
    assert store.events(game) == [START]


def test_append_is_atomic_when_its_transaction_fails_after_the_insert(store: GameStore, db_path: Path) -> None:
    game = store.create_game("g", "classic", START)
    before = store.get_game(game)
    tamper = raw(db_path)
    # Fails the UPDATE of games.updated, which comes after the event's INSERT.
    tamper.execute(
        "CREATE TRIGGER fail_update BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'simulated failure'); END"
    )
    with pytest.raises(StoreError, match="simulated failure"):
        store.append(game, {"type": "pass"})
    assert store.events(game) == [START]
    assert store.get_game(game) == before
    tamper.execute("DROP TRIGGER fail_update")
    assert store.append(game, {"type": "pass"}) == 2


CHILD = r"""
import sys
from companion.store import GameStore

path, confirmed_path = sys.argv[1], sys.argv[2]
with GameStore(path, timeout=30) as store, open(confirmed_path, "a", encoding="utf-8") as confirmed:
    n = 0
    while True:
        # Sizes from a few bytes to over two 4 KiB pages, so that some writes
        # are cut off in the middle of a page and some across pages.
        pad = "x" * ((n * 397) % 9000)
        if n % 20 == 0:
            game = store.create_game(f"game {n}", "classic", {"type": "start", "n": n, "pad": pad})
            seq = 1
        else:
            seq = store.append(game, {"type": "tick", "n": n, "pad": pad, "list": list(range(n % 7))})
        # Written only after the store returned: every line is a confirmed event.
        confirmed.write(f"{game} {seq} {n}\n")
        confirmed.flush()
        n += 1
"""


def run_child_and_kill(db_path: Path, confirmed_path: Path, after: float) -> None:
    """Start a child that writes games as fast as it can; SIGKILL it ``after`` seconds into writing."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]))
    confirmed_path.write_text("")
    with open(confirmed_path.with_suffix(".err"), "w") as err:
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db_path), str(confirmed_path)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        deadline = time.monotonic() + 15
        # Start the clock once it writes, so interpreter start-up time does not count.
        while confirmed_path.stat().st_size == 0:
            if child.poll() is not None:
                pytest.fail(f"writer child exited early: {confirmed_path.with_suffix('.err').read_text()}")
            if time.monotonic() > deadline:
                pytest.fail("writer child wrote nothing in 15 s")
            time.sleep(0.01)
        time.sleep(after)
    finally:
        child.kill()  # SIGKILL on POSIX: no cleanup, no atexit, no closing the file
        child.wait()


def test_a_process_killed_mid_write_leaves_every_saved_game_whole(tmp_path: Path) -> None:
    db_path = tmp_path / "games.db"
    confirmed_path = tmp_path / "confirmed.txt"
    for round_ in range(3):
        run_child_and_kill(db_path, confirmed_path, after=0.25 + 0.05 * round_)

        # Look at the raw rows first: the store must not be what hides damage.
        with raw(db_path) as conn:
            rows = conn.execute("SELECT game_id, seq, event FROM events ORDER BY game_id, seq").fetchall()
            game_ids = [g for (g,) in conn.execute("SELECT id FROM games ORDER BY id")]
        by_game: dict[int, list[tuple[int, dict]]] = {g: [] for g in game_ids}
        for game_id, seq, text in rows:
            event = json.loads(text)  # every stored event is complete JSON
            by_game[game_id].append((seq, event))
        for game_id, stored in by_game.items():
            # seqs 1..N with no gaps, and the game began with its first event.
            assert [seq for seq, _ in stored] == list(range(1, len(stored) + 1)), game_id
            assert stored[0][1]["type"] == "start"
            for _, event in stored:
                if event["type"] == "resumed":
                    continue  # appended by this test after an earlier round
                assert event["pad"] == "x" * ((event["n"] * 397) % 9000)  # not cut short

        # Every event the child was told was stored is there (a torn last line
        # was being written when the child died and proves nothing).
        lines = confirmed_path.read_text().split("\n")[:-1]
        assert lines, "the child confirmed no event before it was killed"
        events_by_key = {(g, seq): e for g, stored in by_game.items() for seq, e in stored}
        for line in lines:
            game_id, seq, n = map(int, line.split())
            assert events_by_key[(game_id, seq)]["n"] == n

        # The store opens it, sees the same, and carries on.
        with GameStore(db_path) as store:
            last = store.list_games()[-1]
            assert last.event_count == len(by_game[last.id])
            assert store.events(last.id) == [e for _, e in by_game[last.id]]
            assert store.append(last.id, {"type": "resumed"}) == last.event_count + 1
            store.create_game("after the crash", "classic", {"type": "start", "n": 0, "pad": ""})


# -- files that cannot be used ------------------------------------------------


def test_opening_creates_the_file_and_its_folders(tmp_path: Path) -> None:
    path = tmp_path / "new" / "deeper" / "games.db"
    with GameStore(path) as store:
        assert store.list_games() == []
    assert path.is_file()


def test_an_empty_file_becomes_a_saved_games_file(db_path: Path) -> None:
    db_path.write_bytes(b"")
    with GameStore(db_path) as store:
        assert store.list_games() == []


def test_the_file_is_kept_in_wal_mode_with_full_sync_and_foreign_keys(store: GameStore, db_path: Path) -> None:
    conn = store._conn
    assert conn is not None
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert raw(db_path).execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_a_file_that_is_not_a_database_gives_store_error_naming_the_path(db_path: Path) -> None:
    db_path.write_bytes(b"Dear diary, today we played Scrabble. " * 200)
    with pytest.raises(StoreError) as caught:
        GameStore(db_path)
    assert str(caught.value).startswith(f"{db_path} is not a Table Companion saved-games file or is damaged: ")


def test_a_saved_games_file_with_a_damaged_header_gives_store_error(db_path: Path) -> None:
    with GameStore(db_path) as store:
        store.create_game("g", "classic", START)
    with open(db_path, "r+b") as f:
        f.write(b"\xff" * 100)  # the 100-byte header that says "SQLite format 3"
    damaged = f"^{re.escape(str(db_path))} is not a Table Companion saved-games file or is damaged"
    with pytest.raises(StoreError, match=damaged):
        GameStore(db_path)


def test_another_programs_database_is_not_taken_for_a_saved_games_file(db_path: Path) -> None:
    with raw(db_path) as other:
        other.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(StoreError, match="is not a Table Companion saved-games file"):
        GameStore(db_path)
    with raw(db_path) as other:  # and it was left alone
        assert [r for (r,) in other.execute("SELECT name FROM sqlite_master")] == ["recipes"]


def test_a_file_from_a_newer_version_is_refused(db_path: Path) -> None:
    GameStore(db_path).close()
    with raw(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=f"{re.escape(str(db_path))} was written by a newer version"):
        GameStore(db_path)


def test_a_folder_in_place_of_the_file_gives_store_error(tmp_path: Path) -> None:
    (tmp_path / "games.db").mkdir()
    with pytest.raises(StoreError, match="cannot be opened"):
        GameStore(tmp_path / "games.db")


def test_a_locked_database_gives_store_error_after_the_timeout(store: GameStore, db_path: Path) -> None:
    game = store.create_game("g", "classic", START)
    other = raw(db_path)
    other.execute("BEGIN IMMEDIATE")  # another program is writing and does not let go
    with GameStore(db_path, timeout=0.2) as waiting:
        assert waiting.events(game) == [START]  # WAL: reading is still fine
        started = time.monotonic()
        in_use = f"saved-games file {re.escape(str(db_path))} is in use by another program"
        with pytest.raises(StoreError, match=in_use):
            waiting.append(game, {"type": "pass"})
        assert time.monotonic() - started < 2
        other.execute("ROLLBACK")
        assert waiting.append(game, {"type": "pass"}) == 2


def test_a_database_held_exclusively_cannot_be_opened_and_says_so(db_path: Path) -> None:
    GameStore(db_path).close()
    other = raw(db_path)
    # EXCLUSIVE locking mode shuts out readers as well, even in WAL mode.
    other.execute("PRAGMA locking_mode = EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("INSERT INTO games (name, variant, created, updated) VALUES ('x', 'y', 'z', 'z')")
    with pytest.raises(StoreError, match="in use by another program"):
        GameStore(db_path, timeout=0.2)
    other.close()


def test_a_read_only_file_gives_store_error_when_writing(db_path: Path, monkeypatch) -> None:
    # Opened through SQLite's read-only mode, which refuses writes even to root
    # (chmod does not stop root, and the tests may run as root).
    with GameStore(db_path) as store:
        game = store.create_game("g", "classic", START)
    real_connect = sqlite3.connect

    def read_only_connect(path, **kwargs):
        return real_connect(f"{Path(path).as_uri()}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(store_module.sqlite3, "connect", read_only_connect)
    with GameStore(db_path) as store:
        assert store.events(game) == [START]
        read_only = f"{re.escape(str(db_path))} cannot be changed because the file or its folder is read-only"
        with pytest.raises(StoreError, match=read_only):
            store.append(game, {"type": "pass"})


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write read-only files")
def test_a_read_only_folder_gives_store_error(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(StoreError, match=re.escape(str(folder))):
            GameStore(folder / "games.db")
    finally:
        folder.chmod(stat.S_IRWXU)


def test_a_closed_store_raises_store_error(db_path: Path) -> None:
    with GameStore(db_path) as store:
        pass
    store.close()  # closing twice is harmless
    with pytest.raises(StoreError, match="has been closed"):
        store.list_games()


def test_an_imported_game_is_stored_whole_or_not_at_all(tmp_path):
    with GameStore(tmp_path / "games.db") as store:
        first = {"type": "game_started", "players": ["A", "B"]}
        game_id = store.create_game("import", "standard", first, {"type": "pass", "player": "A"}, {"type": "pass", "player": "B"})
        assert [e["type"] for e in store.events(game_id)] == ["game_started", "pass", "pass"]
        with pytest.raises(StoreError):
            store.create_game("bad import", "standard", first, {"type": "pass", "player": "A"}, {"type": "pass", "when": (1, 2)})
        assert [g.name for g in store.list_games()] == ["import"]
