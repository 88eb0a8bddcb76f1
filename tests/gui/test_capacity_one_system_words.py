"""The Capacity tab says one system's figures at a time (GUI review r1 #2 and #5): the SnapMirror-to-CVO DR copy
shows the data reduction replication keeps (its Effective, Data reduction, waterfall and sentences agree with each
other and with the engine), 'All systems' names whose runway is the first to end, and logical data incl. Snapshot
copies is never the headline of a design that misses its capacity."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QApplication

from models.formatting import fmt_months, fmt_ratio
from models.units import CapacityUnit, format_capacity

DR = "aff-a70-snapmirror-cvo-dr.toml"


def _tib(value: float) -> str:
    return format_capacity(value, CapacityUnit.TIB)


def _select(view, text: str) -> None:
    index = next(i for i in range(view.system_combo.count()) if view.system_combo.itemText(i).startswith(text))
    view.system_combo.setCurrentIndex(index)
    QApplication.processEvents()


def test_the_dr_copy_shows_the_reduction_replication_keeps(qtbot, sized_example):
    win = sized_example(DR, 1366, 768)
    win.results.setCurrentIndex(0)
    view = win.results.capacity_view
    evaluation = win.last_outcome.evaluation
    dr = evaluation.capacity.system("cvo-dr")
    (workload,) = win.document.scenario.workloads
    kept = workload.compression_ratio * workload.compaction_ratio * workload.dedupe_ratio  # 2:1, kept in transfer
    _select(view, "Cloud Volumes ONTAP DR")
    kpis = {key: (kpi.caption.text(), kpi.value.text()) for key, kpi in view._kpis.items()}
    assert kpis["usable"][1] == _tib(dr.usable_bytes) == "5.40 TiB"
    assert kpis["effective"][1] == _tib(dr.usable_bytes * kept) == "10.80 TiB"
    # the engine's own figure for the copies' logical capacity: the same number
    assert kpis["effective"][1] == _tib(dr.effective_with_snapshots_bytes)
    assert kpis["reduction"][1] == fmt_ratio(kept) == fmt_ratio(dr.efficiency_ratio) == "2.00:1"
    assert kpis["months"][1] == fmt_months(dr.months_until_full) == "18 months"
    labels = [b.label for b in view.bars]
    assert "Data reduction kept in transfer" in labels
    effective = next(b for b in view.bars if b.label == "Effective")
    assert _tib(effective.after) == "10.80 TiB" and effective.band is None  # no spread of the primary's
    band = view.band_label.text()
    assert "10.80 TiB" in band and "18 months" in band
    primary = evaluation.capacity.system("a70")
    assert _tib(primary.effective_bytes) not in band and "P50" not in band  # not the primary's paragraph


def test_all_systems_names_the_first_runway_to_end(qtbot, sized_example):
    win = sized_example(DR, 1366, 768)
    view = win.results.capacity_view
    _select(view, "All systems")
    months = view._kpis["months"]
    runways = [s.months_until_full for s in win.last_outcome.evaluation.capacity.systems]
    assert months.value.text() == fmt_months(min(m for m in runways if m is not None)) == "18 months"
    assert "DR copy on Cloud" in months.caption.text() and "18 months" in months.toolTip()
    assert "128 months" in months.toolTip()  # the primary's runway, named there
    assert view.band_label.text().startswith("Systems serving workloads:")


def test_a_design_full_now_shows_no_logical_figure_in_the_headline(qtbot, sized_example):
    win = sized_example("aff8080-sqlserver-tpce.toml", 1366, 768)
    view = win.results.capacity_view
    kpi = view._kpis["with_snapshots"]
    assert kpi.isVisible() and kpi.caption.text() == "Effective incl. Snapshot copies"
    assert not kpi.value.font().bold()  # grey and plain beside the bold Effective
    next(a for a in win.workloads.preset_menu.actions() if a.text() == "TPC-E-like OLTP (SQL Server)").trigger()
    win.document.set_node_field("shelf-1", "drive_count", 12)
    win.document.set_node_field("shelf-2", "drive_count", 12)
    win.worker.force_sync()
    qtbot.waitUntil(lambda: view._kpis["months"].value.text() == "full now", timeout=20_000)
    QApplication.processEvents()
    assert not kpi.isVisible() and view._kpis["effective"].isVisible()
    # the waterfall keeps the figure as its last bar
    assert view.bars[-1].label == "Effective incl. Snapshot copies"
    assert re.match(r"[\d.,]+ TiB", view._kpis["effective"].value.text())
