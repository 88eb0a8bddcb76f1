"""The command line on a project another StorPlan has open: the read commands read it as last saved and say so
on stderr (exit 0, the lock untouched, no file beside the project); a command that writes the project refuses."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import example_paths, main
from models.store import import_toml, read_lock

ROOT = Path(__file__).resolve().parents[1]
NOTE = "is open in StorPlan elsewhere"


@pytest.fixture
def held(tmp_path):
    """A .storplan project whose lock a second process holds (a real ProjectLock) while the test runs."""
    project = tmp_path / "held.storplan"
    import_toml(example_paths()["aff8080-sqlserver-tpce"], project)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from models.store import ProjectLock; ProjectLock(sys.argv[1]).acquire(); "
         "print('held', flush=True); sys.stdin.read()", str(project)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        lock = read_lock(project)
        assert lock is not None and lock.pid == holder.pid
        yield project, holder.pid
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


def _beside(project: Path) -> set[str]:
    return {p.name for p in project.parent.iterdir()}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv, output",
    [
        (["evaluate", "{p}"], None),
        (["evaluate", "{p}", "--json"], None),
        (["curve", "{p}", "--workload", "tpce"], None),
        (["size", "{p}", "--top", "2"], None),
        (["export", "{p}", "-o", "{out}"], "out.toml"),
        (["export-xlsx", "{p}", "-o", "{out}"], "out.xlsx"),
        (["export-csv", "{p}", "-o", "{out}"], "csv"),
        (["report", "{p}", "-o", "{out}"], "out.pdf"),
    ],
)
def test_read_commands_read_a_held_project(capsys, held, tmp_path, argv, output):
    project, pid = held
    out_dir = tmp_path / "outputs"
    out_dir.mkdir()
    out = out_dir / output if output else None
    before = _beside(project)
    assert before == {"held.storplan", "held.storplan.lock", "outputs"}
    lock_before = project.with_name("held.storplan.lock").read_bytes()
    data_before = project.read_bytes()
    code, stdout, err = run(capsys, *(a.format(p=project, out=out) for a in argv))
    assert code == 0, err
    notes = [line for line in err.splitlines() if NOTE in line]
    assert len(notes) == 1 and "read as last saved" in notes[0] and f"process {pid}" in notes[0]
    assert "close it there" not in err.lower()
    assert _beside(project) == before  # no -wal, -shm or -journal, no temporary file
    assert project.with_name("held.storplan.lock").read_bytes() == lock_before
    assert project.read_bytes() == data_before
    assert read_lock(project).pid == pid
    if out is not None:
        assert out.exists()
    if "--json" in argv:
        assert json.loads(stdout)["capacity"]["raw_bytes"] > 0


def test_unlocked_project_reads_without_note(capsys, tmp_path):
    project = tmp_path / "free.storplan"
    import_toml(example_paths()["aff8080-sqlserver-tpce"], project)
    code, _, err = run(capsys, "evaluate", project)
    assert code == 0 and NOTE not in err


def test_import_prices_onto_the_held_project_refused(capsys, held, tmp_path):
    project, pid = held
    prices = tmp_path / "prices.csv"
    prices.write_text("catalog_id,unit_price\n", encoding="utf-8")
    data_before = project.read_bytes()
    before = _beside(project)
    code, _, err = run(capsys, "import-prices", project, prices, "-o", project)
    assert code == 2
    assert "cannot write" in err and "open in StorPlan elsewhere" in err
    assert f"process {pid}" in err and "unchanged" in err
    assert project.read_bytes() == data_before and _beside(project) == before
    assert read_lock(project).pid == pid


@pytest.mark.parametrize("command", ["report", "export-xlsx", "export"])
def test_output_onto_the_held_project_refused(capsys, held, command):
    project, pid = held
    data_before = project.read_bytes()
    code, _, err = run(capsys, command, project, "-o", project)
    assert code == 2 and ("cannot write" in err.lower())
    assert project.read_bytes() == data_before
    assert read_lock(project).pid == pid
