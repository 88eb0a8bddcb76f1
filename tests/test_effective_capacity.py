"""Effective capacity as customers are sold it: the headline is usable x data reduction (compression, compaction,
deduplication); the total with Snapshot copies and clones is beside it, labelled. Numbers computed here from the
example's workload alone (its ratios and Snapshot schedule), not read back from the engine's own ratios."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys

import pytest
from pypdf import PdfReader

from app.report import render_report_bytes
from app.report.workbook import sizing_sheets
from models.evaluate import evaluate
from models.present import scenario_waterfall, status_summary
from models.project import load
from models.resources import examples_dir
from models.units import TIB, format_capacity

EXAMPLE = examples_dir() / "aff8080-sqlserver-tpce.toml"


@pytest.fixture(scope="module")
def expected():
    """(usable, effective, with Snapshot copies) bytes of the AFF8080 example from its one workload: data reduction
    = compression x compaction x dedupe (1.5 x 1.067 x 1.0 = 1.6005); Snapshot copies every 2 h kept 24 h, each
    counting the data set's logical size and holding the blocks changed in its interval."""
    project = load(EXAMPLE)
    (w,) = project.scenario.workloads
    reduction = w.compression_ratio * w.compaction_ratio * w.dedupe_ratio
    assert reduction == pytest.approx(1.6005)
    copies = math.floor(w.snapshots.retention_h / w.snapshots.interval_h)
    physical = w.dataset_bytes / reduction
    delta = min(1.0, w.snapshots.change_pct_per_h / 100 * w.snapshots.interval_h) * physical
    total_ratio = w.dataset_bytes * (1 + copies + w.clones) / (physical + copies * delta)
    usable = evaluate(project).capacity.total.usable_bytes
    assert usable / TIB == pytest.approx(25.47, abs=0.005)  # the waterfall's usable (tested elsewhere)
    return usable, usable * reduction, usable * total_ratio


def test_the_totals(expected):
    usable, effective, with_snapshots = expected
    total = evaluate(load(EXAMPLE)).capacity.total
    assert total.effective_bytes == pytest.approx(effective)
    assert total.effective_with_snapshots_bytes == pytest.approx(with_snapshots)
    assert effective / TIB == pytest.approx(40.76, abs=0.005)  # not the 240.88 TiB shown before
    assert with_snapshots / TIB == pytest.approx(240.88, abs=0.005)


def test_evaluate_json_and_text(expected):
    usable, effective, with_snapshots = expected
    data = json.loads(subprocess.run([sys.executable, "-m", "app", "evaluate", str(EXAMPLE), "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    cap = data["capacity"]
    assert cap["effective_bytes"] == pytest.approx(effective)
    assert cap["efficiency_ratio"] == pytest.approx(effective / usable)
    assert cap["effective_with_snapshots_bytes"] == pytest.approx(with_snapshots)
    assert cap["efficiency_ratio_with_snapshots"] == pytest.approx(with_snapshots / usable)
    text = subprocess.run([sys.executable, "-m", "app", "evaluate", str(EXAMPLE)], capture_output=True, text=True,
                          check=True).stdout
    lines = {line.split("  ")[1]: line.split() for line in text.splitlines() if line.startswith("  ")}
    assert " ".join(lines["Effective"][1:6]) == f"{format_capacity(effective, 'TiB')} data reduction 1.60:1"
    assert " ".join(lines["Effective incl. Snapshot copies"][4:9]) == (
        f"{format_capacity(with_snapshots, 'TiB')} total efficiency 9.46:1")


def test_status_bar_and_waterfall(expected):
    usable, effective, with_snapshots = expected
    evaluation = evaluate(load(EXAMPLE))
    assert status_summary(evaluation, "TiB")["effective"] == format_capacity(effective, "TiB")
    totals = {b.label: b.after for b in scenario_waterfall(evaluation.capacity) if b.kind == "total"}
    assert list(totals) == ["Raw (marketed)", "Usable", "Effective", "Effective incl. Snapshot copies"]
    assert totals["Effective"] == pytest.approx(effective)
    assert totals["Effective incl. Snapshot copies"] == pytest.approx(with_snapshots)


def test_pdf_and_xlsx(expected):
    usable, effective, with_snapshots = expected
    project = load(EXAMPLE)
    pdf = render_report_bytes(project, validation=[])
    summary = " ".join(PdfReader(io.BytesIO(pdf)).pages[1].extract_text().split())
    assert (f"effective {format_capacity(effective, 'TiB')} (data reduction 1.60:1: compression, compaction, "
            f"deduplication); effective incl. Snapshot copies {format_capacity(with_snapshots, 'TiB')} (ONTAP's total "
            "efficiency ratio 9.46:1: each Snapshot copy and clone counted at its full size, not space for more "
            "data)") in summary
    rows = {r[0]: r[1] for r in sizing_sheets(project)["Summary"][1:]}
    assert rows["Effective capacity"] == pytest.approx(effective / TIB, abs=1e-4)
    assert rows["Effective incl. Snapshot copies"] == pytest.approx(with_snapshots / TIB, abs=1e-4)
    assert rows["Data-reduction ratio (compression, compaction, deduplication)"] == pytest.approx(1.6005, abs=1e-4)
