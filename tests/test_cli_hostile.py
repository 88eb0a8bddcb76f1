"""Hostile and damaged project files on the command line: `storplan evaluate`, `import`, `export` and `report` each
answer with one clear line and exit status 2, within 2 s, never a traceback, and leave the file as it was."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli import main
from models.resources import examples_dir
from models.store import save_project

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = examples_dir() / "aff8080-sqlserver-tpce.toml"


def _storplan(tmp: Path, name: str = "p.storplan") -> Path:
    from models.project import load

    return save_project(load(EXAMPLE), tmp / name)


def _alter(path: Path, script: str) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(script)
    conn.close()
    return path


def _toml_with(tmp: Path, name: str, old: str, new: str) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert old in text
    path = tmp / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _recursive_view(tmp: Path) -> Path:
    return _alter(_storplan(tmp, "recursive.storplan"),
                  "ALTER TABLE setting RENAME TO s2; CREATE VIEW setting AS WITH RECURSIVE r(i) AS "
                  "(SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT 'k'||i AS key,'1' AS value FROM r;")  # fmt: skip


def _cross_join_view(tmp: Path) -> Path:
    return _alter(_storplan(tmp, "crossjoin.storplan"),
                  "ALTER TABLE node RENAME TO n2; CREATE VIEW node AS SELECT a.* FROM n2 a, n2 b, n2 c, n2 d, n2 e, "
                  "n2 f, n2 g, n2 h;")  # fmt: skip


def _damaged_header(tmp: Path) -> Path:
    path = _storplan(tmp, "header.storplan")
    data = bytearray(path.read_bytes())
    data[0:16] = os.urandom(16)
    path.write_bytes(bytes(data))
    return path


def _deep_toml(tmp: Path) -> Path:
    path = tmp / "deep.toml"
    path.write_text("foo = " + "[" * 1000 + "]" * 1000 + "\n")
    return path


def _deep_toml_named_storplan(tmp: Path) -> Path:
    path = tmp / "deep-text.storplan"
    path.write_text("foo = " + "[" * 1000 + "]" * 1000 + "\n")
    return path


def _inf_row(tmp: Path) -> Path:
    return _alter(_storplan(tmp, "inf.storplan"), "UPDATE node SET x = 9e999 WHERE id = 'fabric';")


HOSTILE = {
    "recursive view": (_recursive_view, ["view 'setting'"]),
    "cross-join view": (_cross_join_view, ["view 'node'"]),
    "damaged header": (_damaged_header, ["damaged"]),
    "deep toml": (_deep_toml, ["nested too deeply"]),
    "deep toml named .storplan": (_deep_toml_named_storplan, ["not a StorPlan project"]),
    "x = inf": (lambda t: _toml_with(t, "xinf.toml", "x = 0.0", "x = inf"), ["node 'sql-servers' > x", "finite"]),
    "x = nan": (lambda t: _toml_with(t, "xnan.toml", "y = 120.0", "y = nan"), ["node 'sql-servers' > y", "finite"]),
    "think_time_ms = inf": (
        lambda t: _toml_with(t, "think.toml", "think_time_ms = 0.0", "think_time_ms = inf"),
        ["workload 'tpce' > think_time_ms", "finite"],
    ),
    "x = inf in a .storplan row": (_inf_row, ["node 'fabric' > x", "finite"]),
}


def _commands(path: Path, tmp: Path) -> list[list[str]]:
    commands = [["evaluate", str(path)], ["evaluate", str(path), "--json"],
                ["report", str(path), "-o", str(tmp / "out.pdf")]]  # fmt: skip
    if path.suffix == ".toml":
        commands.append(["import", str(path), "-o", str(tmp / "out.storplan")])
    else:
        commands.append(["export", str(path), "-o", str(tmp / "out.toml")])
    return commands


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_file_gets_one_line_and_exit_2_quickly(case: str, tmp_path: Path, capsys):
    make, words = HOSTILE[case]
    path = make(tmp_path)
    before = hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns
    for argv in _commands(path, tmp_path):
        start = time.monotonic()
        code = main(argv)
        elapsed = time.monotonic() - start
        out, err = capsys.readouterr()
        assert code == 2, (argv, out, err)
        assert out == "", "nothing on stdout for a refused file"
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith(f"storplan: {path}"), err
        for word in words:
            assert word in lines[0], err
        assert elapsed < 2.0, f"{argv[0]} took {elapsed:.2f} s"
        assert not (tmp_path / "out.pdf").exists() and not (tmp_path / "out.storplan").exists()
        assert not (tmp_path / "out.toml").exists()
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns) == before


def test_same_words_from_the_command_line_and_the_app_path(tmp_path: Path, capsys):
    """The app opens a .storplan through models.store.open_project and shows str(StoreError): the command line says
    the very same sentence."""
    from models.store import StoreError, open_project

    path = _damaged_header(tmp_path)
    with pytest.raises(StoreError) as info:
        open_project(path)
    assert main(["evaluate", str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"storplan: {info.value}"
    assert "not a text file" not in str(info.value)


@pytest.mark.skipif(os.name == "nt", reason="FIFOs are POSIX")
def test_a_pipe_does_not_hang_the_command_line(tmp_path: Path, capsys):
    for name in ("pipe.toml", "pipe.storplan"):
        fifo = tmp_path / name
        os.mkfifo(fifo)
        assert main(["evaluate", str(fifo)]) == 2
        assert "pipe" in capsys.readouterr().err


def test_recursive_view_in_a_real_process(tmp_path: Path):
    path = _recursive_view(tmp_path)
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "app", "evaluate", str(path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    elapsed = time.monotonic() - start
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "view 'setting'" in result.stderr
    assert "Traceback" not in result.stderr
    assert elapsed < 10, "the whole process, interpreter start included"


def test_infinite_number_in_a_project_catalog_record_is_named(tmp_path: Path, capsys):
    """Catalog records a project carries are held to the same rule: the engine never sees an infinite service time."""
    text = EXAMPLE.read_text(encoding="utf-8").replace('drive = "netapp-x447a-800gb-ssd"', 'drive = "lab-ssd"')
    text += (
        '\n[[catalog.drive]]\nid = "lab-ssd"\nname = "lab SSD"\nmedia = "SSD"\ninterface = "SAS"\n'
        "marketed_bytes = 3_840_000_000_000\nright_sized_bytes = 3_650_000_000_000\nread_service_time_us = inf\n"
        "write_service_time_us = 60\nmax_read_mbps = 1000\nmax_write_mbps = 800\n[catalog.drive.sources]\n"
        'marketed_bytes = "a"\nright_sized_bytes = "a"\nread_service_time_us = "a"\nwrite_service_time_us = "a"\n'
        'max_read_mbps = "a"\nmax_write_mbps = "a"\n'
    )
    path = tmp_path / "catalog-inf.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["evaluate", str(path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert "drive 'lab-ssd': field 'read_service_time_us': Input should be a finite number" in err
    assert "engine failed" not in err and "engine failed" not in out
