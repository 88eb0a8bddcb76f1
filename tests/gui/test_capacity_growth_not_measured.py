"""Review 56 (model56, still open, seen on screen): an import measures no growth (one snapshot), so its workloads'
0%/yr is applied, not measured. The Capacity tab's "Months until full" read "no growth" as if none were planned; the
report's key figure and the verdicts already say "growth not measured". With a growth set it is a month figure."""

from __future__ import annotations

from pathlib import Path

from app.cli import main
from models.formatting import fmt_months
from models.present.key_figures import GROWTH_NOT_MEASURED
from models.project.model import growth_unmeasured
from models.store import load_project_file

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"


def test_the_months_until_full_of_an_import_say_growth_not_measured(open_window, qtbot, tmp_path) -> None:
    out = tmp_path / "live.storplan"
    assert main(["import-env", str(LIVE), "-o", str(out)]) == 0
    project = load_project_file(out).project
    assert growth_unmeasured(project.scenario.workloads)
    win = open_window(project)
    win.results.setCurrentIndex(0)
    months = win.results.capacity_view._kpis["months"].value
    qtbot.waitUntil(lambda: months.text() not in ("", "—"), timeout=20_000)
    assert GROWTH_NOT_MEASURED == "growth not measured"
    qtbot.waitUntil(lambda: months.text() == GROWTH_NOT_MEASURED, timeout=20_000)
    doc = win.document
    scenario = doc.project.scenario
    grown = [w.with_changes(growth_pct_per_year=40.0) for w in scenario.workloads]
    assert doc.push(doc.project.with_scenario(scenario.with_changes(workloads=grown)), "Change growth")
    win.worker.force_sync()
    qtbot.waitUntil(lambda: months.text() != GROWTH_NOT_MEASURED, timeout=20_000)
    capacity = win.last_outcome.evaluation.capacity
    assert months.text() == fmt_months(min(s.months_until_full for s in capacity.systems))
