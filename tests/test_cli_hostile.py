"""Hostile and damaged project files on the command line: `storplan evaluate`, `import`, `export` and `report` each
answer with one clear line and exit status 2, before any of their work (evaluation, sizing, fitting, report, workbook:
:func:`work_done`), never a traceback, and leave the file as it was."""

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


COMMAND_WORK = [("models.evaluate", "evaluate"), ("models.design", "resolve"), ("models.sizing", "size"),
                ("models.calibration", "fit_from_csv"), ("app.report", "write_report"),
                ("app.report.workbook", "sizing_sheets")]
"""What the commands do once the project is loaded (imported by each command when it runs, so a patched module
attribute is what the command calls)."""


@pytest.fixture
def work_done(monkeypatch) -> list[str]:
    """The names of :data:`COMMAND_WORK` functions called, each still doing its work: a refused file leaves it empty
    (refused before the engines ran, not after; deterministic where a clock is not)."""
    import importlib

    calls: list[str] = []
    for module_name, name in COMMAND_WORK:
        module = importlib.import_module(module_name)
        real = getattr(module, name)

        def spy(*args, _real=real, _name=f"{module_name}.{name}", **kwargs):
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)
    return calls


def _commands(path: Path, tmp: Path) -> list[list[str]]:
    commands = [["evaluate", str(path)], ["evaluate", str(path), "--json"],
                ["report", str(path), "-o", str(tmp / "out.pdf")]]  # fmt: skip
    if path.suffix == ".toml":
        commands.append(["import", str(path), "-o", str(tmp / "out.storplan")])
    else:
        commands.append(["export", str(path), "-o", str(tmp / "out.toml")])
    return commands


def test_work_done_sees_the_work_of_every_command(tmp_path: Path, capsys, work_done):
    """The spies are wired: on a sound project every command of :func:`_all_commands` calls one of them (``import``
    loads and writes, no more: its work is the output the refusal tests find absent)."""
    out = tmp_path / "out"
    out.mkdir()
    for argv in _all_commands(EXAMPLE, out):
        work_done.clear()
        assert main(argv) == 0, capsys.readouterr().err
        assert work_done or argv[0] == "import", f"{argv[0]}: no work seen"
    capsys.readouterr()


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_file_gets_one_line_and_exit_2_before_any_work(case: str, tmp_path: Path, capsys, work_done):
    make, words = HOSTILE[case]
    path = make(tmp_path)
    before = hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns
    for argv in _commands(path, tmp_path):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 2, (argv, out, err)
        assert out == "", "nothing on stdout for a refused file"
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith(f"storplan: {path}"), err
        for word in words:
            assert word in lines[0], err
        assert work_done == [], f"{argv[0]} worked on a refused file"
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
    assert elapsed < 30, "a hang watchdog (the whole process, interpreter start included; about 1 s when quiet)"


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


# --- a project's own catalog records and the limits on project content (every command, one answer) ------------------

def _with_record(tmp: Path, name: str, example: str, record_id: str, changes: dict) -> Path:
    """``example`` with a copy of catalog record ``record_id`` under its own id in the project's ``[catalog]``,
    ``changes`` applied (each changed number given a provenance)."""
    import tomllib

    import tomli_w

    from models.store import default_catalog

    entry = default_catalog().get(record_id)

    def clean(value):
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if v is not None}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    record = clean(entry.model_dump(mode="json", exclude_unset=True))
    for key, value in changes.items():
        record[key] = value
        record["provenance"].setdefault(key, {"kind": "sourced", "source": "test"})
    data = tomllib.loads((examples_dir() / f"{example}.toml").read_text(encoding="utf-8"))
    data.setdefault("catalog", {}).setdefault(entry.kind, []).append(record)
    path = tmp / name
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def _all_commands(path: Path, out: Path) -> list[list[str]]:
    lab = out / "lab.csv"
    lab.write_text("iops,latency_ms\n20000,0.35\n60000,0.42\n120000,0.61\n")
    commands = [["evaluate", str(path), "--json"], ["report", str(path), "-o", str(out / "o.pdf")],
                ["export-xlsx", str(path), "-o", str(out / "o.xlsx")], ["export-csv", str(path), "-o", str(out / "c")],
                ["size", str(path)], ["calibrate", "--csv", str(lab), "--project", str(path)]]  # fmt: skip
    if path.suffix == ".toml":
        commands.append(["import", str(path), "-o", str(out / "o.storplan")])
    return commands


def _refused_alike(path: Path, tmp: Path, capsys, words: list[str], work_done: list[str]) -> str:
    """Every command refuses ``path`` with one identical line naming ``words``, exit 2, before any of its work
    (``work_done`` stays empty), writing nothing and leaving nothing beside the input; returns the line."""
    out = tmp / "out"
    out.mkdir(exist_ok=True)
    beside = sorted(os.listdir(path.parent))
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    said = set()
    for argv in _all_commands(path, out):
        code = main(argv)
        stdout, err = capsys.readouterr()
        assert code == 2, (argv[0], stdout[:300], err[:300])
        assert stdout == "" and len(err.strip().splitlines()) == 1, (argv[0], err[:500])
        assert err.startswith("storplan: ") and "Traceback" not in err
        for word in words:
            assert word in err, (argv[0], err)
        assert work_done == [], f"{argv[0]} worked on a refused file"
        assert sorted(p.name for p in out.iterdir()) == ["lab.csv"], f"{argv[0]} wrote output"
        said.add(err)
    assert len(said) == 1, said  # one message, word for word, from every command
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(os.listdir(path.parent)) == beside
    return said.pop()


ABSURD_RECORDS = {
    "rack_units = 0.001": ("aff8080-sqlserver-tpce", "netapp-aff8080a-ex", {"rack_units": 0.001}, "rack_units"),
    "speed_gbps = 2^63-1": ("aff8080-sqlserver-tpce", "qlogic-qle2562", {"speed_gbps": 2**63 - 1}, "speed_gbps"),
    "capacity_cap_bytes = 5e-324": ("cvo-azure-ds4-ha-oltp", "cvo-standard", {"capacity_cap_bytes": 5e-324},
                                    "capacity_cap_bytes"),
    "ports = 1e300": ("aff8080-sqlserver-tpce", "qlogic-qle2562", {"ports": 1e300}, "ports"),
    "cloud disk mbps = 1e300": ("cvo-azure-ds4-ha-oltp", "azure-premium-lrs-p30", {"mbps": 1e300}, "mbps"),
    "nodes = 10^6": ("aff8080-sqlserver-tpce", "netapp-aff8080a-ex", {"nodes": 10**6}, "nodes"),
    "drive service time 5e-324": ("aff8080-sqlserver-tpce", "netapp-x447a-800gb-ssd",
                                  {"read_service_time_us": 5e-324}, "read_service_time_us"),
    "NUL in a record's name": ("aff8080-sqlserver-tpce", "brocade-6510", {"name": "Bro\x00cade"}, "name"),
}


@pytest.mark.parametrize("case", list(ABSURD_RECORDS))
def test_absurd_project_catalog_record_is_refused_by_every_command_alike(case: str, tmp_path: Path, capsys,
                                                                         work_done):
    example, record_id, changes, field = ABSURD_RECORDS[case]
    path = _with_record(tmp_path, "record.toml", example, record_id, changes)
    line = _refused_alike(path, tmp_path, capsys, [f"'{record_id}'", f"'{field}'"], work_done)
    assert line.startswith(f"storplan: {path}: catalog: ")


def _example_text() -> str:
    return EXAMPLE.read_text(encoding="utf-8")


LIMITS = {
    "block_kib = 1e-300": (lambda: _example_text().replace("block_kib = 8.0", "block_kib = 1e-300"),
                           ["workload 'tpce' > block_kib", "0.5"]),
    "5,000-digit integer": (lambda: _example_text().replace("clones = 0", "clones = " + "9" * 5000),
                            ["more than 4,300 digits"]),
    "scenario = [1, 2]": (lambda: _example_text().replace('scenario_name = "Base"', "scenario = [1, 2]"),
                          ["'scenario' must be"]),
    "node = 5": (lambda: _example_text().replace('scenario_name = "Base"', 'scenario_name = "Base"\nnode = 5')
                 .replace("[[node]]", "[[other]]"), ["'node' must be an array of tables"]),
    "max_candidates = 2^63-1": (
        lambda: _example_text().replace("meet_slo_in_takeover = true", "max_candidates = 9223372036854775807"),
        ["requirements > max_candidates", "100000000"]),
    "NUL in a node label": (lambda: _example_text().replace('label = "Brocade 6510"', 'label = "Bro\\u0000cade"'),
                            ["node 'fabric'", "'label'", "U+0000"]),
    "escape in a workload name": (
        lambda: _example_text().replace('name = "TPC-E-like OLTP (SQL Server)"', 'name = "\\u001b[2J"'),
        ["workload 'tpce'", "'name'", "U+001B"]),
    "201-character software release": (lambda: _example_text().replace('software = "9.0"', f'software = "{"A" * 201}"'),
                                       ["node 'aff8080' > software", "At most 200 characters"]),
    "1M unknown keys": (lambda: _example_text() + "\n[extra]\n" + "".join(f"k{i} = 1\n" for i in range(10**6)),
                        ["the limit is 400,000"]),
}


@pytest.mark.parametrize("case", list(LIMITS))
def test_content_past_a_limit_is_refused_by_every_command_alike(case: str, tmp_path: Path, capsys, work_done):
    make, words = LIMITS[case]
    path = tmp_path / "limit.toml"
    path.write_text(make(), encoding="utf-8")
    line = _refused_alike(path, tmp_path, capsys, words, work_done)
    assert len(line) < 400, "a short message, whatever the file holds"


def test_unknown_keys_in_a_record_give_a_short_message(tmp_path: Path, capsys):
    """300,000 unknown keys inside one record (under the value limit): one message, the first problems listed."""
    text = _example_text().replace('[project]\n', "[project]\n" + "".join(f"k{i} = 1\n" for i in range(300_000)))
    path = tmp_path / "keys.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["evaluate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "300,000 problems" in err and "... and 299,980 more problems" in err
    assert len(err) < 4_000


def test_a_10_mb_label_is_refused_naming_the_limit(tmp_path: Path, capsys):
    path = tmp_path / "label.toml"
    path.write_text(_example_text().replace('label = "Brocade 6510"', f'label = "{"A" * 10_000_000}"'),
                    encoding="utf-8")
    start = time.monotonic()
    assert main(["report", str(path), "-o", str(tmp_path / "o.pdf")]) == 2
    assert time.monotonic() - start < 30
    err = capsys.readouterr().err
    assert "node 'fabric' > label: At most 200 characters" in err
    assert not (tmp_path / "o.pdf").exists()


def test_300_workloads_on_one_controller_are_refused_before_any_work(tmp_path: Path, capsys, work_done):
    text = _example_text()
    block = text[text.index("[[workload]]"):]
    text += "".join(block.replace('id = "tpce"', f'id = "w{i}"') for i in range(300))
    path = tmp_path / "crowded.toml"
    path.write_text(text, encoding="utf-8")
    _refused_alike(path, tmp_path, capsys, ["'aff8080' serves 301 workloads", "the limit is 100"], work_done)


@pytest.mark.parametrize("top", ["0", "-1"])
def test_size_top_below_1_is_refused(top: str, capsys):
    assert main(["size", "aff8080-sqlserver-tpce", "--top", top]) == 2
    err = capsys.readouterr().err
    assert err == f"storplan: --top {top}: give how many candidates to list, at least 1\n"


def test_unknown_power_never_meets_a_power_limit(tmp_path: Path, capsys):
    """max_power_w = 1 W: a design whose power the catalog does not give fails the limit, named, like one over it
    (arrays and their shelves and drives carry their power; the catalog's vSAN hosts do not)."""
    import json

    rows = []
    for deployments in ('["on-prem"]', '["hci"]'):  # arrays carry their power; the catalog's vSAN hosts do not
        path = tmp_path / "power.toml"
        path.write_text(_example_text().replace("meet_slo_in_takeover = true", "max_power_w = 1")
                        .replace('deployments = ["on-prem"]', f"deployments = {deployments}")
                        .replace('families = ["ONTAP"]', "families = []"), encoding="utf-8")
        assert main(["size", str(path), "--json", "--top", "20"]) == 0
        found = json.loads(capsys.readouterr().out)["candidates"]
        assert found and not any(r["meets"] for r in found)
        rows += found
    unknown = [r for r in rows if r["power_w"] is None]
    assert unknown, "the nearest include designs of unknown power (a real test of the rule)"
    assert all(any("power unknown against the limit of 1 W" in why for why in r["reasons"]) for r in unknown)
    known = [r for r in rows if r["power_w"] is not None]
    assert all(any("over the limit of 1 W" in why for why in r["reasons"]) for r in known)


def test_a_wal_storplan_opens_without_files_beside_it(tmp_path: Path, capsys):
    """A .storplan another program switched to WAL: reading it creates no -wal or -shm file (opened immutable)."""
    path = _storplan(tmp_path, "wal.storplan")
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
    conn.close()
    assert sorted(os.listdir(tmp_path)) == ["wal.storplan"]
    assert path.read_bytes()[18:20] == b"\x02\x02"
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    assert main(["evaluate", str(path), "--json"]) == 0
    assert main(["export", str(path), "-o", str(tmp_path / "out.toml")]) == 0
    capsys.readouterr()
    assert sorted(os.listdir(tmp_path)) == ["out.toml", "wal.storplan"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_mixture_scv_never_divides_by_zero():
    """A vanishing or unbounded mean (a hostile record's rate) gives the exponential default, finite either way;
    an ordinary mixture keeps its value: reads of 1 ms (cs² 0) and writes of 3 ms (cs² 0), half each: E[S] = 2 ms,
    E[S²] = (1 + 9) / 2 = 5 ms², cs² = 5 / 4 - 1 = 0.25."""
    from models.performance.variability import EXPONENTIAL_SCV, mixture_scv

    assert mixture_scv([1.0], [1e-300], [0.0]) == EXPONENTIAL_SCV
    assert mixture_scv([0.5, 0.5], [1e300, 1e300], [0.0, 1.0]) == EXPONENTIAL_SCV
    assert mixture_scv([1.0], [float("inf")], [0.0]) == EXPONENTIAL_SCV
    assert mixture_scv([0.5, 0.5], [1e-3, 3e-3], [0.0, 0.0]) == pytest.approx(0.25)


def test_node_count_past_the_limit_is_refused_before_validating_nodes():
    """20,001 nodes in one scenario: refused naming the limit before any node is validated. The first and the last
    node are invalid: had the nodes been validated, their errors would be reported beside the count's (pydantic
    collects every error), so the one error proves the count refused the list first."""
    from pydantic import ValidationError

    from models.project.model import MAX_NODES, Project

    nodes = [{"id": f"s{i}", "kind": "switch", "catalog_id": "brocade-6510"} for i in range(MAX_NODES + 1)]
    bad = [{"id": "bad-first", "kind": "no-such-kind"}] + nodes[1:-1] + [{"id": "bad-last", "kind": "no-such-kind"}]
    with pytest.raises(ValidationError, match="at most 20000 items") as info:
        Project.model_validate({"scenarios": [{"name": "Base", "nodes": bad}]})
    assert [(e["type"], e["loc"]) for e in info.value.errors()] == [("too_long", ("scenarios", 0, "nodes"))]
    with pytest.raises(ValidationError) as info:  # within the limit, both bad nodes are found
        Project.model_validate({"scenarios": [{"name": "Base", "nodes": bad[:2] + bad[-1:]}]})
    assert [e["loc"] for e in info.value.errors()] == [("scenarios", 0, "nodes", 0), ("scenarios", 0, "nodes", 2)]
    Project.model_validate({"scenarios": [{"name": "Base", "nodes": nodes[:MAX_NODES]}]})  # the limit itself is fine


def test_a_long_word_in_a_cited_text_is_rewritten_in_linear_time():
    """Fuzz case hostile-41 (seed 20261124): a 300,000-character software release was echoed into a profile note,
    and the customer's citation of it (``evaluate --json``) took 224 s of CPU: a leftover-file pattern
    (``\\S*\\.(?:toml|...)``) read each long word to its end from every character of it, and other patterns did
    likewise in a run of blanks, a dotted or a hyphenated word. Five 40,000-character words (about 20 s on the old
    patterns) now take well under a second; the words are kept, nothing in them being a file or a code name."""
    from models.present.citations import customer_citation

    words = ["A" * 40_000, "a." * 20_000 + "a", "a-" * 20_000 + "a", "(" + " " * 40_000 + "x", "a_" * 20_000 + "a"]
    text = "no calibrated profile for software " + " , ".join(words) + " / FCP; using 9.0 / FCP"
    start = time.process_time()
    out = customer_citation(text)
    assert time.process_time() - start < 1.5
    assert out.startswith("no calibrated profile for software " + "A" * 40_000 + ", " + "a." * 20_000 + "a, ")
    assert out.endswith("/ FCP; using 9.0 / FCP")
