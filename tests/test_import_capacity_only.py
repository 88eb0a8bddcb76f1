"""Imports without performance data (review 53a items 1, 2, 8, 9, 12, 14): through ``storplan import-env``, evaluate
and size on the real samples, the measured capacity counts as stored data, a design is sized on capacity alone (an
HA pair is never "partnerless" for want of a load), an ONTAP import without capacity says the capacity is unknown,
and the notes say what was not measured. Every expected figure is read from the sample files themselves (openpyxl)
or the bundled presets' TOML, not from the importer."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import openpyxl
import pytest

from app.cli import main
from models.project.edits import CAPACITY_ONLY_SUFFIX, apply_preset_profile
from models.project.model import CAPACITY_ONLY, Workload, growth_unmeasured
from models.project.textformat import load
from models.resources import workloads_dir
from models.sizing import NO_LOAD_NOTE, UNKNOWN_CAPACITY_NOTE, capacity_only_notes

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[2] / "shared" / "samples")
KUBEV2V = SAMPLES / "rvtools" / "kubev2v-example1.xlsx"
AZURE = SAMPLES / "azure-migrate" / "AzureMigrate_Assessment_Core_Report.xlsx"
POLLS = [SAMPLES / "ontap" / "harvest-keyperf-volume-poll-1.json",
         SAMPLES / "ontap" / "harvest-keyperf-volume-poll-2.json"]
MIB, GIB = 2**20, 2**30


def _sheet_rows(path: Path, sheet: str, key: str) -> list[dict]:
    """The rows of ``sheet`` with a value in column ``key``, as header -> value (read with openpyxl, apart from
    StorPlan's readers)."""
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        rows = book[sheet].iter_rows(values_only=True)
        header = next(rows)
        out = []
        for row in rows:
            record = dict(zip(header, row, strict=False))
            if record.get(key) not in (None, ""):
                out.append(record)
        return out
    finally:
        book.close()


def _run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _import(capsys, tmp_path: Path, *files: Path, options: tuple[str, ...] = ()) -> tuple[Path, str]:
    out = tmp_path / "imported.toml"
    text = _run(capsys, "import-env", *map(str, files), "-o", str(out), *options)
    return out, text


@pytest.fixture(scope="module")
def kubev2v_rows() -> list[dict]:
    return _sheet_rows(KUBEV2V, "vInfo", "VM")


def test_rvtools_without_performance_counts_its_capacity_and_sizes_on_it(capsys, tmp_path, kubev2v_rows) -> None:
    consumed = {}  # review 55 item 5: an empty In Use cell is filled from the guest's vPartition Consumed
    for r in _sheet_rows(KUBEV2V, "vPartition", "VM"):
        consumed[r["VM"]] = consumed.get(r["VM"], 0) + int(r["Consumed MiB"])
    used = sum(int(r["In Use MiB"]) if r["In Use MiB"] not in (None, "") else consumed.get(r["VM"], 0)
               for r in kubev2v_rows) * MIB
    off = sum(1 for r in kubev2v_rows if str(r["Powerstate"]).casefold() == "poweredoff")
    assert used > 0 and off > 0
    path, text = _import(capsys, tmp_path, KUBEV2V)
    project = load(path)
    workloads = project.scenario.workloads
    assert workloads and all(w.enabled and w.capacity_only and not w.performance_enabled for w in workloads)
    assert all(w.preset == CAPACITY_ONLY and not w.name.endswith(CAPACITY_ONLY_SUFFIX) for w in workloads)
    assert sum(w.dataset_bytes for w in workloads) == used
    # 12: powered-off machines are counted for capacity, and the note says how many of how many
    assert f"{off:,} powered-off machine(s) of {len(kubev2v_rows):,} counted for capacity" in text
    # 8: growth is not measured, and the note says so
    assert "growth is not measured by any source: 0%/yr" in text
    assert growth_unmeasured(workloads)
    # 14: a machine without a cluster joins a group that says so, never "(none)"
    assert "(none)" not in text and "machines without a cluster" in text and "(no cluster value)" not in text

    evaluated = json.loads(_run(capsys, "evaluate", "--json", str(path)))
    assert evaluated["capacity"]["logical_used_bytes"] == pytest.approx(used)  # 2: stored data, not 0
    assert not evaluated["workloads"]  # no placeholder mix evaluated as a load (no "saturation 1.60M IOPS")
    words = _run(capsys, "evaluate", str(path))
    assert "months until full: growth not measured (0%/yr applied)" in words and "no growth" not in words

    sized = json.loads(_run(capsys, "size", "--json", "--top", "3", str(path)))
    assert NO_LOAD_NOTE in sized["notes"]
    assert sized["needed_effective_bytes"] == pytest.approx(used)
    assert sized["candidates"] and all(c["meets"] for c in sized["candidates"])  # 1: sized on capacity alone
    assert not any("no HA partner" in r for c in sized["candidates"] for r in c["reasons"])
    assert all(c["effective_bytes"] >= used for c in sized["candidates"])


def test_azure_migrate_capacity_is_stored_and_the_nameless_group_suggests_tags(capsys, tmp_path) -> None:
    rows = _sheet_rows(AZURE, "All_VM_IaaS_Server_Rehost_Perf", "Machine Name")
    storage = sum(round(float(r["Storage (in GB)"]) * GIB) for r in rows)
    environments = {r["Environment"] for r in rows if r.get("Environment")}
    path, text = _import(capsys, tmp_path, AZURE)  # review 55 item 7: grouped by the Environment tag by default
    workloads = load(path).scenario.workloads
    assert sum(w.dataset_bytes for w in workloads) == pytest.approx(storage, rel=1e-9)
    assert len(workloads) == len(environments) == 2 and all(w.name.startswith("tag-") for w in workloads)
    path, text = _import(capsys, tmp_path, AZURE, options=("--group-by", "cluster"))
    workloads = load(path).scenario.workloads
    assert [w.name for w in workloads] == ["machines without a cluster (294 machines)"]  # no instruction in the name
    assert "--group-by tag" in text
    evaluated = json.loads(_run(capsys, "evaluate", "--json", str(path)))
    assert evaluated["capacity"]["logical_used_bytes"] == pytest.approx(storage, rel=1e-9)


def test_ontap_counters_without_capacity_say_it_is_unknown(capsys, tmp_path) -> None:
    path, text = _import(capsys, tmp_path, *POLLS, options=("--source", "ontap"))
    assert "capacity unknown: the files give no capacity" in text
    project = load(path)
    assert project.requirements.effective_capacity_bytes == 0
    assert sum(w.dataset_bytes for w in project.scenario.workloads) == 0
    assert capacity_only_notes(project.scenario, 0.0) == [UNKNOWN_CAPACITY_NOTE]
    out = _run(capsys, "size", "--top", "1", str(path))
    assert "effective capacity needed unknown (none stated)" in out and "0.00 TiB" not in out.splitlines()[0]
    assert f"note: {UNKNOWN_CAPACITY_NOTE}" in out


def test_a_preset_profile_makes_a_capacity_only_workload_an_ordinary_one() -> None:
    presets = {p["id"]: p for p in tomllib.loads((workloads_dir() / "presets.toml").read_text())["preset"]}
    tpce = presets["tpce-oltp"]
    fields = {k: v for k, v in tpce.items() if k not in ("id", "name", "sources")}
    from models.project.model import Scenario

    data = 2 * 10**12
    workload = Workload(id="imported-1", name=f"cluster-x{CAPACITY_ONLY_SUFFIX}", preset=CAPACITY_ONLY, target="c",
                        block_kib=0.5, read_pct=0, random_pct=0, dataset_bytes=data, growth_pct_per_year=0)
    scenario = Scenario(name="s", workloads=[workload])
    after = apply_preset_profile(scenario, "imported-1", tpce["id"], tpce["name"], fields).workloads[0]
    assert after.performance_enabled and not after.capacity_only and after.preset == "tpce-oltp"
    assert (after.block_kib, after.read_pct, after.random_pct) == (tpce["block_kib"], tpce["read_pct"],
                                                                   tpce["random_pct"])
    assert after.target_iops == pytest.approx(tpce["target_iops"] / tpce["dataset_bytes"] * data)
    assert after.dataset_bytes == data and after.growth_pct_per_year == 0  # the data stays the workload's own
    assert after.name == f"cluster-x ({tpce['name']})"
    ramp = presets["slob-select"]  # no rate in the preset: a ramp, not an invented target
    fields = {k: v for k, v in ramp.items() if k not in ("id", "name", "sources")}
    got = apply_preset_profile(scenario, "imported-1", ramp["id"], ramp["name"], fields).workloads[0]
    assert got.target_iops is None and got.target_mbps is None and got.concurrency == ramp["concurrency"]
    with pytest.raises(ValueError, match="no workload"):
        apply_preset_profile(scenario, "nope", ramp["id"], ramp["name"], fields)


def test_the_report_of_an_import_without_performance_sizes_it_and_says_growth_is_not_measured(capsys,
                                                                                               tmp_path) -> None:
    from pypdf import PdfReader

    path, _ = _import(capsys, tmp_path, KUBEV2V)
    pdf = tmp_path / "imported.pdf"
    _run(capsys, "report", str(path), "-o", str(pdf))
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    assert "The design meets every stated requirement" in text
    assert "None of the catalog's configurations meets" not in text  # 1: sized on capacity alone
    assert "no HA partner" not in text
    assert " ".join(NO_LOAD_NOTE.split()) in text
    assert "growth not measured" in text and "no growth planned" not in text  # 8
    assert "no enabled workload" not in text and "count for capacity only" in text
