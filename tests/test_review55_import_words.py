"""Review 55 (revgui55 items 1, 3, 13, 15, 16): what the measured record, the report and the screen's one line per
workload say about an import.

* #1: an Azure Migrate report gives no used capacity: its provisioned disk sizes are counted as the data, and the
  record says so in "What was measured" and under "What was assumed" (the customer read "34.566 TiB used").
* #3: two keyperf polls 141 s apart give one interval: the record, the wizard's notes and the report call it one
  141 s sample, never a peak.
* #13: the "Bad day" line says what its answers answer ("SLO met in takeover (0.106 ms, ...)"), no bare yes / no.
* #15: the report's cover names where the workloads were measured.
* #16: the record's TiB as the summary prints them (3.56, not 3.556); the group of machines without a cluster is
  called so, never "(no cluster value)".
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path

import pytest
from openpyxl import load_workbook

from app.cli import main
from models.evaluate import evaluate, evaluate_resilience
from models.importers.azure_migrate import read_azure_migrate
from models.importers.liveoptics import read_liveoptics
from models.importers.measured import measured_import
from models.importers.ontap import read_ontap
from models.importers.rvtools import read_rvtools
from models.importers.workloads import import_environment
from models.present.resilience import compact_states
from models.project import load
from models.resources import examples_dir
from models.store import load_project_file

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[2] / "shared" / "samples")
AZURE = SAMPLES / "azure-migrate" / "AzureMigrate_Assessment_Core_Report.xlsx"
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
KUBE = SAMPLES / "rvtools" / "kubev2v-example1.xlsx"
POLLS = [SAMPLES / "ontap" / "harvest-keyperf-volume-poll-1.json",
         SAMPLES / "ontap" / "harvest-keyperf-volume-poll-2.json"]
TIB = 2**40


def _azure_storage_bytes() -> float:
    """The sum of the report's "Storage (in GB)" column (GB read as 2^30 bytes, as the reader takes them), read
    from the workbook itself."""
    sheet = load_workbook(AZURE, read_only=True, data_only=True)["All_VM_IaaS_Server_Rehost_Perf"]
    rows = sheet.iter_rows(values_only=True)
    header = next(r for r in rows if r and "Storage (in GB)" in r)
    col = header.index("Storage (in GB)")
    return sum(float(r[col]) * 2**30 for r in rows if r and r[col] is not None)


def test_azure_provisioned_capacity_is_said_to_be_counted_as_used_and_assumed() -> None:
    total = _azure_storage_bytes()
    assert f"{total / TIB:,.2f}" == "34.57"  # the review's 34.566 TiB, as the summary prints it
    inv = read_azure_migrate(AZURE)
    result = import_environment([inv], "c", group_by="tag")
    record = measured_import([inv], result, "tag")
    assert "34.57 TiB provisioned (counted as used: the files give no used capacity)" in record.measured
    assert "TiB used" not in record.measured
    assumed = " ".join(record.assumptions)
    assert "the provisioned disk sizes (34.57 TiB) are counted as the data to store (thin disks hold less)" in assumed


def test_one_pair_of_polls_is_one_141_s_sample_not_a_peak() -> None:
    stamps = [dt.datetime.fromisoformat(json.loads(p.read_text())["records"][0]["statistics"]["timestamp"]
                                        .replace("Z", "+00:00")) for p in POLLS]
    seconds = (stamps[1] - stamps[0]).total_seconds()
    assert seconds == 141
    inv = read_ontap(*POLLS)
    result = import_environment([inv], "c")
    expected = (f"one {seconds:.0f} s sample (from {stamps[0]:%Y-%m-%d %H:%M} to {stamps[1]:%H:%M} UTC), "
                "not a peak")
    assert expected == "one 141 s sample (from 2024-07-29 16:14 to 16:17 UTC), not a peak"
    measured = [g for g in result.groups if not g.needs_preset]
    assert measured and all(g.method == expected for g in measured)
    assert not any("peak of sums" in g.method for g in result.groups)
    assert any(expected in n and "collect at least a working day" in n for n in result.notes)  # the wizard's notes
    record = measured_import([inv], result, "cluster")
    assert record.method == expected and "busiest" not in record.method
    assert any("one 141 s sample" in a and "working day" in a for a in record.assumptions)


def test_a_day_of_intervals_is_still_a_peak() -> None:
    from models.importers.inventory import PerfSample
    from models.importers.workloads import series_method

    day = [PerfSample(time_s=1.7e9 + 300 * k, interval_s=300, read_iops=1, write_iops=1) for k in range(1, 289)]
    assert series_method(day) == ("peak of sums over time (288 intervals)", False)
    hour = day[:11]  # 55 minutes
    assert series_method(hour)[0].startswith("the busiest of 11 intervals in 55 min (from ") and series_method(hour)[1]


def test_machines_without_a_cluster_are_named_so() -> None:
    result = import_environment([read_rvtools(KUBE)], "c")
    names = [g.name for g in result.groups]
    assert "machines without a cluster" in names and not any("(no " in n for n in names)
    assert any(w.name.startswith("machines without a cluster (") for w in result.workloads)


def test_the_record_prints_tib_as_the_summary_does() -> None:
    inv = read_liveoptics(LIVE)
    result = import_environment([inv], "c")
    record = measured_import([inv], result, "cluster")
    assert f"{result.capacity_bytes / TIB:,.2f} TiB allocated on the datastore" in record.measured  # 3.56, the
    # summary's figure (review 57 #2: Live Optics' sized figure is the virtual disks' on the datastore)
    assert f"{result.capacity_bytes / TIB:,.3f}" not in record.measured


def test_the_bad_day_line_says_what_each_answer_answers() -> None:
    project = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    evaluation = evaluate(project)
    normal = evaluation.performance.workloads[0]
    states = evaluate_resilience(project, evaluation).states[normal.workload_id]
    line = compact_states(states, normal)
    takeover = next(s for s in states if s.state == "takeover")
    assert takeover.meets_slo and takeover.performance.slo_bounded_at_target_ms < normal.slo_bounded_at_target_ms
    ms = f"{takeover.performance.slo_bounded_at_target_ms:.3f} ms"
    assert ms == "0.106 ms"  # the review's figure
    assert line.startswith(f"SLO met in takeover ({ms}, faster than normal: no NVRAM mirroring to the partner)")
    assert "yes" not in line and ": no," not in line
    assert "((" not in line and "))" not in line
    assert len(line) <= 140  # one line of the 1366-wide results (the GUI test checks it on screen)


@pytest.mark.parametrize("example", ["aff-a70-ns224-oracle-nvmetcp.toml"])
def test_a_missed_state_reads_slo_missed(example) -> None:
    project = load(examples_dir() / example)
    bigger = project.scenario.workloads[0].model_copy(update={"target_iops": 1.55e6})
    project = project.with_scenario(project.scenario.with_changes(workloads=[bigger]))
    evaluation = evaluate(project)
    normal = evaluation.performance.workloads[0]
    states = evaluate_resilience(project, evaluation).states[normal.workload_id]
    line = compact_states(states, normal)
    missed = [s for s in states if not s.meets_slo]
    assert missed and "SLO missed in " in line
    assert all(f"{s.state.replace('_', ' ')} (" in line.split("SLO missed in ", 1)[1] for s in missed
               if s.state == "takeover")


def test_the_cover_names_where_the_workloads_were_measured(tmp_path: Path) -> None:
    pytest.importorskip("reportlab")
    from app.report import write_report

    out = tmp_path / "env.storplan"
    assert main(["import-env", str(LIVE), "-o", str(out)]) == 0
    loaded = load_project_file(out)
    pdf = tmp_path / "r.pdf"
    write_report(loaded.project, pdf, paper="A4", catalog=loaded.catalog)
    text = subprocess.run(["pdftotext", "-layout", "-l", "1", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    row = " ".join(text[text.index("Workloads measured by"):].split()[:12])
    assert row.startswith("Workloads measured by A Live Optics (Optical Prime) export, collected 2022/11/14"), row


def test_live_optics_latency_is_said_not_available_not_measured_no_latency() -> None:
    """Review 55 #7: "at 6,779 IOPS measured no latency" read as a measurement; Live Optics gives per-machine
    latencies, which do not combine into a group's."""
    from app.cli import load_project_file as load_example
    from models.importers.workloads import IMPORT_BASE_EXAMPLE
    from models.installed import compare_measured, comparison_lines, installed_design

    base = load_example(IMPORT_BASE_EXAMPLE, read_only=True).project
    target = next(n.id for n in base.scenario.nodes if n.kind == "controller")
    result = import_environment([read_liveoptics(LIVE)], target)
    project = base.with_scenario(base.scenario.with_changes(workloads=list(result.workloads)))
    from models.evaluate import project_catalog

    design = installed_design(project, "netapp-aff-a400", project_catalog(project), groups=result.groups)
    lines = comparison_lines(compare_measured(project.with_scenario(design.scenario), result.groups))
    assert len(lines) == 2 and sorted(round(g.iops) for g in result.groups) == [6779, 25161]  # the file's peaks
    for line in lines:
        assert "measured no latency" not in line and "only a series" not in line
        assert line.endswith("; measured latency: not available (per-machine latencies cannot be combined)"), line
        assert " predicted " in line
