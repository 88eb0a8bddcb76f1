"""status_summary: the status bar's strings, never nan or inf."""

from __future__ import annotations

from app.gui.results import status_summary
from app.gui.results.samples import sample_evaluation, sample_performance, sample_workload
from models.evaluate import Evaluation


def test_summary_formats_totals_and_performance():
    evaluation = sample_evaluation(performance=sample_performance(sample_workload()))
    summary = status_summary(evaluation, "TiB")
    total = evaluation.capacity.total
    assert summary["usable"] == f"{total.usable_bytes / 2**40:,.2f} TiB"
    assert summary["effective"] == f"{total.effective_bytes / 2**40:,.2f} TiB"
    workload = evaluation.performance.workloads[0]
    assert summary["max_iops_at_slo"] == f"{workload.max_iops_at_slo / 1e3:.0f}K"
    assert summary["bottleneck"] == "node 1 CPU"
    assert status_summary(evaluation, "TB")["usable"] == f"{total.usable_bytes / 1e12:,.2f} TB"


def test_summary_of_missing_results_says_so():
    summary = status_summary(Evaluation("Base", None, None, ()), "TiB")
    assert summary == {"usable": "n/a", "effective": "n/a", "max_iops_at_slo": "n/a", "bottleneck": "n/a",
                       "verdict": "n/a"}
    missed = sample_evaluation(performance=sample_performance(sample_workload(slo_met=False)))
    assert status_summary(missed, "TiB")["max_iops_at_slo"] == "not met"
    several = status_summary(sample_evaluation(), "TiB")["max_iops_at_slo"]
    assert "SQL Server OLTP" in several and "Log writes" in several
    assert not any(word in " ".join(status_summary(missed).values()) for word in ("nan", "inf"))


def test_status_bar_says_the_example_misses_its_required_takeover_state(example_window, qtbot):
    """The AFF8080 example requires its SLO in takeover and misses it there: the status bar names the workload and
    the state, in the colour of a failure; without the requirement (an undoable edit) it says met."""
    win = example_window
    win.resize(1366, 768)  # a laptop: on a narrower window the verdict gives way to the figures (its tooltip has it)
    label = win.status_labels["verdict"]
    qtbot.waitUntil(lambda: "missed" in label.text(), timeout=5000)
    assert "TPC-E-like OLTP (SQL Server) in takeover" in label.text() and "#d64545" in label.text()
    assert "TPC-E-like OLTP (SQL Server) in takeover" in label.toolTip()
    doc = win.document
    relaxed = doc.project.requirements.with_changes(meet_slo_in_takeover=False)
    assert doc.push(doc.project.model_copy(update={"requirements": relaxed}), "Change requirement")
    win.worker.force_sync()
    qtbot.waitUntil(lambda: "missed" not in label.text(), timeout=5000)
    assert "Requirements: <b>met</b>" in label.text()
