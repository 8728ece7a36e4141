"""Every reading row measured in one go (scripts/reading_rows.py): runs compared without their times."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("reading_rows", ROOT / "scripts" / "reading_rows.py")
rows = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rows)


def _logs(folder: Path, **text: str) -> Path:
    folder.mkdir()
    for name, _, _ in rows.ROWS:
        (folder / f"{name}.log").write_text(text.get(name, f"{name}: tiles read right 0.9986; read 51.4 ms median\n"))
    return folder


def test_two_runs_differing_only_in_their_times_are_the_same(tmp_path, capsys):
    old = _logs(tmp_path / "old")
    new = _logs(tmp_path / "new", values="values: tiles read right 0.9986; read 63.0 ms median\n",
                replay_stand="replay_stand: right 792, (289 ms a photo)\n")
    (old / "replay_stand.log").write_text("replay_stand: right 792, (312 ms a photo)\n")
    assert rows.compare(old, new) == 0
    assert "values: the same" in capsys.readouterr().out


def test_a_row_whose_figures_moved_is_shown_line_by_line(tmp_path, capsys):
    old = _logs(tmp_path / "old")
    new = _logs(tmp_path / "new", grey="grey: tiles read right 0.9913; read 95.0 ms median\n")
    assert rows.compare(old, new) == 1
    out = capsys.readouterr().out
    assert "-grey: tiles read right 0.9986" in out and "+grey: tiles read right 0.9913" in out


def test_a_row_missing_from_a_run_is_named(tmp_path, capsys):
    old, new = _logs(tmp_path / "old"), _logs(tmp_path / "new")
    (new / "focus.log").unlink()
    assert rows.compare(old, new) == 1
    assert re.search(r"focus: missing in .*new", capsys.readouterr().out)


def test_an_unknown_row_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(SystemExit, match="no such row: valuez"):
        rows.run(tmp_path / "out", ROOT, 1, ["valuez"])
    assert not any((tmp_path / "out").glob("*.log"))


def test_every_row_names_a_benchmark_option_the_script_has():
    read = (ROOT / "scripts" / "bench_read.py").read_text()
    for name, script, args in rows.ROWS:
        assert (ROOT / script).exists()
        if "--only" in args:
            assert f'"{args[args.index("--only") + 1]}"' in read, name
