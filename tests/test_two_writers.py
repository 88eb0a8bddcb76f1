"""Two writers, one file: of two processes that opened one project and save it at the same moment, exactly one
succeeds and the other is told the file changed on disk (``FileChangedOnDiskError``), for ``.storplan`` and TOML;
the file on disk is then the winner's project, whole.

The race is real: two long-lived worker processes each read the project, meet at a barrier and save at once,
100 rounds per format. What makes it hold is the content check just before the rename, under the folder's
``flock`` (``models.atomic.replace_lock``); the in-process tests below show the lock and the late check each
doing their part.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_store_faults import SMALL

from models import atomic
from models.project import textformat
from models.store import (
    FileChangedOnDiskError,
    FileFingerprint,
    open_project,
    save_project,
    save_project_tracked,
    save_toml_tracked,
)

ROUNDS = 100
NAMES = ("alice", "bob")


def _load(fmt: str, path: str) -> tuple[Any, FileFingerprint | None]:
    """The project and its fingerprint as a StorPlan opening it records them (the GUI's read_project_file)."""
    if fmt == "storplan":
        opened = open_project(path)
        return opened.project, opened.fingerprint
    fingerprint = FileFingerprint.of(path)  # before reading, as the app does
    return textformat.load(path), fingerprint


def _save(fmt: str, project: Any, path: str, expected: FileFingerprint | None) -> None:
    if fmt == "storplan":
        save_project_tracked(project, path, expected_fingerprint=expected)
    else:
        save_toml_tracked(project, path, expected_fingerprint=expected)


def _user_record(name: str, round_no: int):
    from models.catalog import bundled_catalog

    return bundled_catalog().find("netapp-ds2246").model_copy(update={"id": f"{name}-shelf-{round_no}"})


def _worker(name: str, tasks: Any, results: Any, barrier: Any) -> None:
    """One StorPlan: for each (format, path, round) read the file, wait for the other at the barrier, save its
    own edit, report "saved", "refused" or the unexpected error. The user catalog: add a record of its own."""
    for fmt, path, round_no in iter(tasks.get, None):
        try:
            if fmt == "user catalog":
                from models.user_catalog import save_user_record

                record = _user_record(name, round_no)
                barrier.wait(timeout=30)
                save_user_record(record, Path(path))
                results.put((name, round_no, "saved"))
                continue
            project, expected = _load(fmt, path)
            mine = project.with_changes(info={"name": f"{name} {round_no}"})
            barrier.wait(timeout=30)
            try:
                _save(fmt, mine, path, expected)
                results.put((name, round_no, "saved"))
            except FileChangedOnDiskError:
                results.put((name, round_no, "refused"))
        except Exception as exc:  # noqa: BLE001 - reported to the test, which fails on it
            results.put((name, round_no, f"error: {exc!r}"))
            barrier.abort()


@pytest.fixture(scope="module")
def workers():
    ctx = multiprocessing.get_context("spawn")  # no fork of a process that may hold threads
    barrier = ctx.Barrier(2)
    results = ctx.Queue()
    queues = {name: ctx.Queue() for name in NAMES}
    procs = [ctx.Process(target=_worker, args=(name, queues[name], results, barrier), daemon=True) for name in NAMES]
    for proc in procs:
        proc.start()
    yield queues, results, barrier
    for name in NAMES:
        queues[name].put(None)
    for proc in procs:
        proc.join(timeout=10)
        if proc.is_alive():
            proc.kill()


@pytest.mark.parametrize("fmt", ["storplan", "toml"])
def test_two_processes_saving_at_once_exactly_one_wins(tmp_path: Path, workers, fmt: str):
    queues, results, barrier = workers
    path = tmp_path / f"shared.{fmt}"
    outcomes: list[dict[str, str]] = []
    for round_no in range(ROUNDS):
        original = SMALL.with_changes(info={"name": f"original {round_no}"})
        if fmt == "storplan":
            save_project(original, path)
        else:
            textformat.dump(original, path)
        barrier.reset()
        for name in NAMES:
            queues[name].put((fmt, str(path), round_no))
        got = {}
        for _ in NAMES:
            name, got_round, outcome = results.get(timeout=60)
            assert got_round == round_no
            got[name] = outcome
        assert sorted(got.values()) == ["refused", "saved"], f"round {round_no}: {got}"
        winner = next(name for name, outcome in got.items() if outcome == "saved")
        project, _ = _load(fmt, str(path))
        assert project.info.name == f"{winner} {round_no}"  # the file is the winner's, whole
        assert project.scenarios == SMALL.scenarios
        assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left
        outcomes.append(got)
    assert len(outcomes) == ROUNDS
    wins = {name: sum(o[name] == "saved" for o in outcomes) for name in NAMES}
    assert sum(wins.values()) == ROUNDS


@pytest.mark.parametrize("fmt", ["storplan", "toml"])
def test_the_late_check_waits_for_the_folder_lock(tmp_path: Path, fmt: str):
    """A saver whose data is on disk waits at the folder lock while another holds it; the other's file lands
    meanwhile, so when the lock is free the waiting save is refused and the other's file stays."""
    path = tmp_path / f"shared.{fmt}"
    _save(fmt, SMALL.with_changes(info={"name": "original"}), str(path), None)
    _, expected = _load(fmt, str(path))
    outcome: list[str] = []

    def save_mine() -> None:
        try:
            _save(fmt, SMALL.with_changes(info={"name": "mine"}), str(path), expected)
            outcome.append("saved")
        except FileChangedOnDiskError:
            outcome.append("refused")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    theirs = elsewhere / path.name  # the other writer's finished temporary file
    _save(fmt, SMALL.with_changes(info={"name": "theirs"}), str(theirs), None)
    with atomic.replace_lock(tmp_path):  # another process in the middle of its own check and rename
        thread = threading.Thread(target=save_mine)
        thread.start()
        time.sleep(0.5)
        assert outcome == [] and thread.is_alive()  # written, waiting for the lock
        theirs.replace(path)  # the other writer's rename, while it holds the lock
    thread.join(timeout=30)
    assert outcome == ["refused"]
    assert _load(fmt, str(path))[0].info.name == "theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, "elsewhere"])


def test_the_refusal_names_the_file_and_says_what_happened(tmp_path: Path):
    path = tmp_path / "shared.toml"
    first = save_toml_tracked(SMALL, path)
    textformat.dump(SMALL.with_changes(info={"name": "someone else"}), path)
    with pytest.raises(FileChangedOnDiskError) as info:
        save_toml_tracked(SMALL.with_changes(info={"name": "mine"}), path, expected_fingerprint=first.fingerprint)
    message = str(info.value)
    assert str(path) in message and "changed on disk" in message and "since you opened it" in message
    assert info.value.reason == "changed_on_disk"
    assert textformat.load(path).info.name == "someone else"
    forced = save_toml_tracked(SMALL.with_changes(info={"name": "mine"}), path,
                               expected_fingerprint=first.fingerprint, force=True)
    assert textformat.load(path).info.name == "mine"
    assert forced.fingerprint == FileFingerprint.of(path)


@pytest.mark.parametrize("suffix", [".toml", ".storplan"])
def test_import_prices_in_place_refuses_a_file_changed_while_it_ran(tmp_path: Path, monkeypatch, capsys, suffix):
    """``storplan import-prices P CSV -o P`` rewrites P: a save by someone else while it runs is not lost."""
    import app.cli as cli
    from models.project import textformat as text

    example = text.load(Path(__file__).resolve().parents[1] / "resources" / "examples" / "aff8080-sqlserver-tpce.toml")
    path = tmp_path / f"p{suffix}"
    _save(suffix[1:], example, str(path), None)
    prices = tmp_path / "prices.csv"
    prices.write_text("catalog_id,unit_price,part_number,currency\nnetapp-aff8080a-ex,1000,P-1,USD\n")
    real = cli._with_prices

    def someone_saves_meanwhile(*args, **kwargs):
        _save(suffix[1:], example.with_changes(info={"name": "theirs"}), str(path), None)
        return real(*args, **kwargs)

    monkeypatch.setattr(cli, "_with_prices", someone_saves_meanwhile)
    assert cli.main(["import-prices", str(path), str(prices), "-o", str(path)]) == 2
    assert "changed on disk" in capsys.readouterr().err
    assert _load(suffix[1:], str(path))[0].info.name == "theirs" and not _load(suffix[1:], str(path))[0].price_book
    monkeypatch.setattr(cli, "_with_prices", real)
    assert cli.main(["import-prices", str(path), str(prices), "-o", str(path)]) == 0  # nothing meanwhile: saved
    assert _load(suffix[1:], str(path))[0].price_book[0].part_number == "P-1"


def test_two_processes_adding_user_records_at_once_keep_both(tmp_path: Path, workers):
    """The user catalog is read, changed and written by each saver: one that finds the file changed at its rename
    reads it again, so both records are kept, every round."""
    import tomllib

    from models.user_catalog import save_user_record

    queues, results, barrier = workers
    path = tmp_path / "user.toml"
    save_user_record(_user_record("first", 0), path)
    rounds = 30
    for round_no in range(rounds):
        barrier.reset()
        for name in NAMES:
            queues[name].put(("user catalog", str(path), round_no))
        got = sorted(results.get(timeout=60)[2] for _ in NAMES)
        assert got == ["saved", "saved"], f"round {round_no}: {got}"
    ids = {r["id"] for r in tomllib.loads(path.read_text())["shelf"]}
    assert ids == {"first-shelf-0"} | {f"{n}-shelf-{k}" for n in NAMES for k in range(rounds)}
