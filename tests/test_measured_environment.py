"""Where the imported workloads were measured (``Project.measured``, review revimp55 items 2, 4 and 8): a structured
record kept by the store (schema 10; a version-9 file opens without one), set by ``storplan import-env``, printed
in the report as its own section (tool, date, method, assumptions, per workload; never a file name), capacity-only
workloads named without an instruction and no workload of nothing; an import without capacity reads
"not measured" in the Summary, never "Fits Yes" or "meets every stated requirement"."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.cli import main
from models.project import Project, dumps, loads
from models.project.model import MeasuredImport, MeasuredSource, MeasuredWorkload
from models.store import load_project_file, open_project, save_project
from models.store.schema import DDL_V9, SCHEMA_VERSION, migrate

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[2] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
KUBE = SAMPLES / "rvtools" / "kubev2v-example1.xlsx"
POLLS = [SAMPLES / "ontap" / "harvest-keyperf-volume-poll-1.json",
         SAMPLES / "ontap" / "harvest-keyperf-volume-poll-2.json"]

RECORD = MeasuredImport(imported="2026-12-01T00:00:00+00:00",
                        sources=[MeasuredSource(tool="a Live Optics (Optical Prime) export",
                                                collected="collected 2022/11/14")],
                        grouped_by="cluster", measured="6 machines", method="sum of per-machine peak",
                        assumptions=["100% random I/O assumed."],
                        workloads=[MeasuredWorkload(workload="imported-1", sources=[0], members=2,
                                                    method="sum of per-machine peak")])


def test_the_record_survives_the_store_and_the_toml_form_and_a_v9_file_opens_without_one(tmp_path: Path):
    project = Project(measured=[RECORD])
    assert open_project(save_project(project, tmp_path / "m.storplan")).project.measured == [RECORD]
    assert loads(dumps(project)).measured == [RECORD]
    assert "measured" not in dumps(Project())  # a project without an import writes no table
    conn = sqlite3.connect(":memory:")
    conn.executescript(DDL_V9)
    migrate(conn, 9)
    assert conn.execute("SELECT count(*) FROM measured").fetchone() == (0,)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 10


def test_a_workload_naming_a_missing_source_is_refused():
    with pytest.raises(ValueError, match="source 1 is not one of"):
        RECORD.model_copy(update={}).model_validate(
            {**RECORD.model_dump(), "workloads": [{"workload": "imported-1", "sources": [1]}]})


def _import(tmp_path: Path, *files: Path, extra: tuple[str, ...] = ()) -> Project:
    out = tmp_path / "env.storplan"
    assert main(["import-env", *map(str, files), "-o", str(out), *extra]) == 0
    return load_project_file(out).project


def test_import_env_records_tool_date_method_and_each_workloads_source(tmp_path: Path):
    project = _import(tmp_path, LIVE)
    (record,) = project.measured
    assert [(s.tool, s.collected) for s in record.sources] == [("a Live Optics (Optical Prime) export",
                                                                "collected 2022/11/14")]
    assert record.measured.startswith(  # as the summary; review 57 #2: the datastore's figure and the guests'
        "6 machines grouped by cluster into 2 workloads, 3.56 TiB allocated on the datastore")
    assert "31,940 IOPS" in record.measured  # 6,779 + 25,161 (the review's own sums of Peak IOPS)
    assert "sum of per-machine peak" in record.method
    assert any("100% random" in a for a in record.assumptions)
    assert any("measured average mix, within what its own read and write peaks allow" in a for a in record.assumptions)
    ids = {w.id for w in project.scenario.workloads}
    assert {w.workload for w in record.workloads} == ids
    assert sorted(w.members for w in record.workloads) == [2, 4] and all(w.sources == [0] for w in record.workloads)


def test_capacity_only_workloads_carry_no_instruction_and_no_empty_group(tmp_path: Path):
    project = _import(tmp_path, KUBE)
    names = [w.name for w in project.scenario.workloads]
    assert not any("apply a preset" in n or "capacity only" in n for n in names), names
    assert all(w.capacity_only for w in project.scenario.workloads)
    assert all(w.dataset_bytes > 0 or (w.provisioned_bytes or 0) > 0 for w in project.scenario.workloads), names


def test_report_prints_the_section_and_no_fits_yes_without_capacity(tmp_path: Path):
    pytest.importorskip("reportlab")
    import subprocess

    from app.report import write_report

    project = _import(tmp_path, *POLLS, extra=("--source", "ontap"))
    pdf = tmp_path / "r.pdf"
    write_report(project, pdf, paper="A4", catalog=load_project_file(tmp_path / "env.storplan").catalog)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    section = text[text.index("Measured environment\n"):text.index("Topology")]
    assert "ONTAP performance counters" in section and "measured 2024-07-29 16:14 to 16:17 UTC" in section
    assert "How the load was" in section and "What was assumed" in section
    assert ".json" not in text and "poll-1" not in text
    summary = text[text.index("Summary"):text.index("Measured environment\n")]
    assert "meets every stated requirement" not in text  # nor in the Recommendation's "(Summary)" sentence
    assert "capacity not measured" in summary
    row = next(line for line in summary.splitlines() if line.startswith("AFF"))
    assert "not measured" in row and "Yes" not in row and "0.00 TiB" not in row


def test_each_workload_names_its_own_file_and_a_file_that_gave_no_workload_is_no_source():
    from models.importers.liveoptics import read_liveoptics
    from models.importers.measured import measured_import
    from models.importers.ontap import read_ontap
    from models.importers.workloads import import_environment

    live, polls = read_liveoptics(LIVE), read_ontap(*POLLS)
    result = import_environment([polls, live], "ctrl")
    record = measured_import([polls, live], result, "cluster")
    assert [s.tool for s in record.sources] == [
        "ONTAP performance counters (as NetApp Harvest or ONTAP statistics collect them)",
        "a Live Optics (Optical Prime) export"]
    # the ONTAP SVM's 4 volumes from file 0, Live Optics' clusters of 2 and 4 machines from file 1
    assert sorted((w.members, w.sources) for w in record.workloads) == [(2, [1]), (4, [0]), (4, [1])]
    for group, item in zip(result.groups, record.workloads, strict=True):
        assert item.sources == list(group.sources) and item.members == group.members
    restperf = read_ontap(SAMPLES / "ontap" / "harvest-restperf-volume-poll-1.json",
                          SAMPLES / "ontap" / "harvest-restperf-volume-poll-2.json",
                          SAMPLES / "ontap" / "harvest-restperf-volume-counters-1.json")  # no interval: no rates
    result = import_environment([restperf, live], "ctrl")
    record = measured_import([restperf, live], result, "cluster")
    assert [s.tool for s in record.sources] == ["a Live Optics (Optical Prime) export"]
    assert all(w.sources == [0] for w in record.workloads)
