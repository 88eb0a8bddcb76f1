"""CapacityView: the waterfall's table and bars show the engine's steps in the user's unit, and explain them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.gui.results import CapacityView
from app.gui.results.capacity_view import ALL_SYSTEMS, EMPTY_MESSAGE
from app.gui.results.samples import sample_capacity, sample_evaluation, sample_system
from models.evaluate import Evaluation
from models.problems import Problem


def _tib(value: float) -> str:
    return f"{value / 2**40:,.2f} TiB"


def _tb(value: float) -> str:
    return f"{value / 10**12:,.2f} TB"


def _row(view: CapacityView, label: str) -> list[str]:
    model = view.model
    for row in range(model.rowCount()):
        if model.item(row, 0).text() == label:
            return [model.item(row, c).text() for c in range(model.columnCount())]
    raise AssertionError(f"no row {label!r}")


@pytest.fixture
def view(qtbot):
    widget = CapacityView()
    qtbot.addWidget(widget)
    widget.resize(1200, 500)
    return widget


def test_table_shows_each_step_in_the_chosen_unit_and_the_toggle_switches_it(view, qtbot):
    evaluation = sample_evaluation()
    system = evaluation.capacity.systems[0]
    view.set_evaluation(evaluation, "TiB")
    parity = system.step("RAID DP parity")
    assert _row(view, "RAID DP parity")[1:4] == [
        _tib(parity.bytes_before), _tib(parity.bytes_after), "\u2212" + _tib(parity.bytes_before - parity.bytes_after)]
    assert _row(view, "Usable")[2] == _tib(system.usable_bytes)
    assert _row(view, "Effective")[2] == _tib(system.effective_bytes)
    assert _row(view, "Compression")[3] == "+" + _tib(system.step("Compression").delta_bytes)

    with qtbot.waitSignal(view.sig_unit_changed) as signal:
        view.unit_buttons.button(0).click()  # TB
    assert signal.args == ["TB"]
    assert _row(view, "RAID DP parity")[1:3] == [_tb(parity.bytes_before), _tb(parity.bytes_after)]
    assert _row(view, "Usable")[2] == _tb(system.usable_bytes)
    assert view.plot.getAxis("bottom").labelText == "TB"


def test_bars_follow_the_waterfall(view):
    evaluation = sample_evaluation()
    system = evaluation.capacity.systems[0]
    view.set_evaluation(evaluation, "TiB")
    labels = [bar.label for bar in view.bars]
    # the engine's raw step becomes the raw total; usable sits between the reserves and the efficiency gains
    assert labels[0] == "Raw (marketed)" and labels[-1] == "Effective"
    assert labels.index("Usable") == labels.index("WAFL reserve") + 1
    assert labels.index("Usable") == labels.index("Compression") - 1
    opts = view._bar_item.opts
    parity = labels.index("RAID DP parity")
    step = system.step("RAID DP parity")
    assert opts["x0"][parity] == pytest.approx(step.bytes_after / 2**40)
    assert opts["width"][parity] == pytest.approx((step.bytes_before - step.bytes_after) / 2**40)
    kinds = {bar.label: bar.kind for bar in view.bars}
    assert kinds["RAID DP parity"] == "drop" and kinds["Compression"] == "gain" and kinds["Usable"] == "total"
    brushes = opts["brushes"]
    assert brushes[parity].color() != brushes[labels.index("Compression")].color()
    assert brushes[labels.index("Usable")].color() == brushes[0].color()
    ticks = view.plot.getAxis("left")._tickLevels[0]
    assert [text for _, text in ticks] == labels


def test_each_step_explains_itself(view):
    evaluation = sample_evaluation()
    view.set_evaluation(evaluation, "TiB")
    step = evaluation.capacity.systems[0].step("RAID DP parity")
    row = [bar.label for bar in view.bars].index("RAID DP parity")
    tooltip = view.model.item(row, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert step.source in tooltip and step.formula in tooltip and "group size = 23" in tooltip
    assert view.bar_tooltip(row) == tooltip
    view.select_step(row)
    assert step.source in view.details.toPlainText()


def test_several_systems_offer_all_and_each(view):
    capacity = sample_capacity(sample_system(), sample_system("c2", "FAS8300 HA pair", 60.0, None))
    view.set_evaluation(sample_evaluation(capacity=capacity), "TiB")
    assert view.system_combo.isVisibleTo(view)
    assert [view.system_combo.itemText(i) for i in range(3)] == [ALL_SYSTEMS, "AFF A800 HA pair", "FAS8300 HA pair"]
    assert _row(view, "Usable")[2] == _tib(capacity.total.usable_bytes)
    assert _row(view, "Effective")[2] == _tib(capacity.total.effective_bytes)
    parity = sum(s.step("RAID DP parity").delta_bytes for s in capacity.systems)
    assert _row(view, "RAID DP parity")[3] == "\u2212" + _tib(-parity)
    view.select_system("FAS8300 HA pair")
    assert _row(view, "Usable")[2] == _tib(capacity.systems[1].usable_bytes)
    assert view._kpis["months"].value.text() == "no growth"  # the words of the report and the verdicts


def test_key_figures(view):
    evaluation = sample_evaluation()
    system = evaluation.capacity.systems[0]
    view.set_evaluation(evaluation, "TiB")
    assert view._kpis["with_snapshots"].value.text().endswith(f"({system.efficiency_ratio:.2f}:1)")
    # the inline data-reduction ratio stands beside the total (which also counts Snapshot copies)
    assert view._kpis["reduction"].value.text() == f"{system.data_reduction_ratio:.2f}:1"
    assert view._kpis["reduction"].caption.text() == "Data reduction"
    assert "Inline data reduction" in view._kpis["reduction"].toolTip()
    assert view._kpis["months"].value.text() == "27 months"
    assert view._kpis["usable"].value.text() == _tib(system.usable_bytes)


def test_missing_capacity_shows_the_problem_and_stale_keeps_the_result(view):
    view.set_evaluation(None, "TiB")
    assert view.stack.currentWidget() is view.message and EMPTY_MESSAGE in view.message.text()
    failed = Evaluation("Base", None, None, (Problem("error", "capacity engine failed: ValueError: boom"),))
    view.set_evaluation(failed, "TiB")
    assert "capacity engine failed: ValueError: boom" in view.message.text()
    view.set_evaluation(sample_evaluation(), "TiB")
    view.set_stale(True, "ctrl2 has no shelves")
    assert view.banner.isVisibleTo(view)
    assert view.banner.text() == "Results out of date: ctrl2 has no shelves"
    assert view.stack.currentIndex() == 0 and view.model.rowCount() > 0
    view.set_stale(False)
    assert not view.banner.isVisibleTo(view)


def test_unit_toggle_is_the_projects_capacity_unit(example_window, qtbot):
    """Clicking TB in the Capacity tab changes the project's setting (one undo step): the status bar follows."""
    from models.units import CapacityUnit

    win = example_window
    view = win.results.capacity_view
    assert win.document.project.settings.capacity_unit == CapacityUnit.TIB
    button = view.unit_buttons.button(list(CapacityUnit).index(CapacityUnit.TB))
    button.click()
    assert win.document.project.settings.capacity_unit == CapacityUnit.TB
    assert win.document.undo_stack.undoText() == "Change capacity unit"
    win.worker.force_sync()
    qtbot.waitUntil(lambda: " TB" in win.status_labels["usable"].text(), timeout=3000)
    win.document.undo_stack.undo()
    assert win.document.project.settings.capacity_unit == CapacityUnit.TIB
    assert view.capacity_unit == CapacityUnit.TIB


def test_the_waterfall_exports_as_svg_and_png(view, tmp_path):
    """The waterfall's SVG is well-formed XML with one filled shape per bar at least and its step labels as text;
    the PNG is an image at least 800 px wide."""
    import xml.etree.ElementTree as ET

    from PySide6.QtGui import QImage

    view.set_evaluation(sample_evaluation(), "TiB")
    view.show()
    svg = tmp_path / "waterfall.svg"
    view.export_waterfall(svg)
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    texts = " ".join((e.text or "") for e in root.iter() if e.tag.endswith("text"))
    assert "Usable" in texts and "Effective" in texts
    assert len([e for e in root.iter() if e.tag.endswith(("path", "rect", "polygon"))]) >= len(view.bars)
    png = tmp_path / "waterfall.png"
    view.export_waterfall(png)
    assert QImage(str(png)).width() >= 800


def test_the_waterfall_exports_as_csv_in_the_unit_shown(view, qtbot, tmp_path, monkeypatch):
    """The CSV button writes the steps of the system shown, in the unit shown (named in the headers), on the
    view's runner: usable and effective equal the engine's bytes over 2^40 or 10^12."""
    import csv

    from PySide6.QtWidgets import QFileDialog

    capacity = sample_capacity(sample_system(), sample_system("c2", "FAS8300 HA pair", 60.0, None))
    view.set_evaluation(sample_evaluation(capacity=capacity), "TiB")
    view.select_system("FAS8300 HA pair")
    target = tmp_path / "steps"  # the suffix is added
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "CSV (*.csv)")))
    with qtbot.waitSignal(view.sig_csv_written, timeout=10_000) as written:
        view.export_csv_button.click()
    assert written.args == [str(target) + ".csv"]
    with open(written.args[0], newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0][:5] == ["Step", "Kind", "Before (TiB)", "After (TiB)", "Change (TiB)"]
    after = {r[0]: float(r[3]) for r in rows[1:]}
    system = capacity.systems[1]
    # the workbook's 4 decimals, a CSV being for re-computation (review cons57 #6; review 53b: no 0.36379788 TiB)
    assert after["Usable"] == round(system.usable_bytes / 2**40, 4)
    assert after["Effective"] == round(system.effective_bytes / 2**40, 4)
    assert len(rows) - 1 == len(view.bars)
    from models.units import CapacityUnit

    view.unit_buttons.button(list(CapacityUnit).index(CapacityUnit.TB)).click()
    assert view.capacity_unit.value == "TB"
    with qtbot.waitSignal(view.sig_csv_written, timeout=10_000) as written:
        assert view.export_waterfall_csv(tmp_path / "tb.csv")
    with open(written.args[0], newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0][3] == "After (TB)"
    assert {r[0]: float(r[3]) for r in rows[1:]}["Usable"] == round(system.usable_bytes / 1e12, 4)


def test_a_waterfall_csv_that_cannot_be_written_says_where(view, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a: shown.append(a[2])))
    view.set_evaluation(sample_evaluation(), "TiB")
    with qtbot.waitSignal(view.sig_csv_failed, timeout=10_000) as failed:
        view.export_waterfall_csv(tmp_path / "missing" / "w.csv")
    assert "missing" in failed.args[0] and shown == failed.args


def test_effective_is_data_reduction_and_the_total_with_snapshots_stands_beside_it(view):
    """The AFF8080 example: effective = usable x 1.5 x 1.067 (its workload's compression and compaction), the total
    with Snapshot copies beside it, labelled, as a key figure and as the waterfall's last total."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    evaluation = evaluate(project)
    (w,) = project.scenario.workloads
    system = evaluation.capacity.systems[0]
    effective = system.usable_bytes * w.compression_ratio * w.compaction_ratio * w.dedupe_ratio
    view.set_evaluation(evaluation, "TiB")
    assert view._kpis["effective"].value.text() == _tib(effective) == "40.76 TiB"
    assert view._kpis["with_snapshots"].caption.text() == "Effective incl. Snapshot copies"
    assert view._kpis["with_snapshots"].value.text() == (f"{_tib(system.usable_bytes * system.efficiency_ratio)} "
                                                         f"({system.efficiency_ratio:.2f}:1)")
    assert _row(view, "Effective")[2] == _tib(effective)
    labels = [view.model.item(r, 0).text() for r in range(view.model.rowCount())]
    assert labels[-1] == "Effective incl. Snapshot copies"
    assert labels.index("Effective") == labels.index("Deduplication") + 1 < labels.index("Snapshot copies")


def test_a_replication_only_destination_is_labelled_and_left_out_of_all_systems(view):
    """A system that only receives replication is picked as "... (DR copy, not in the totals)"; "All systems"
    shows the serving system's figures; picking the destination shows its own."""
    from dataclasses import replace

    from app.gui.results.capacity_view import DR_COPY_SUFFIX
    from models.capacity.engine import totals

    primary, copy = sample_system(), sample_system("dr", "DR system", 60.0, None)
    capacity = replace(sample_capacity(primary, copy), total=totals([primary]), replica_only=("dr",))
    view.set_evaluation(sample_evaluation(capacity=capacity), "TiB")
    assert [view.system_combo.itemText(i) for i in range(3)] == [ALL_SYSTEMS, "AFF A800 HA pair",
                                                                 "DR system" + DR_COPY_SUFFIX]
    assert _row(view, "Usable")[2] == _tib(primary.usable_bytes)
    view.select_system("DR system")
    assert _row(view, "Usable")[2] == _tib(copy.usable_bytes)
    assert copy.usable_bytes != primary.usable_bytes


def test_the_dr_system_shows_the_copies_it_holds_and_their_miss(view):
    """The SnapMirror example's DR system (evaluated, not a sample): picking it shows the month its copies fill it,
    the relationship's runway computed by hand (4 TB x 1.3^(m / 12) + the held transfer past its usable capacity,
    month 18), and the verdict beside the waterfall names the miss as the summary does."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    evaluation = evaluate(project)
    usable = evaluation.capacity.system("cvo-dr").usable_bytes
    month = next(m for m in range(1, 241) if 4e12 * 1.3 ** (m / 12) + 200e9 * 2 / 34 > usable)
    view.set_evaluation(evaluation, "TiB")
    view.select_system("Cloud Volumes ONTAP DR (Azure)")
    assert view._kpis["months"].value.text() == f"{month} months" == "18 months"
    assert (f"DR copy on Cloud Volumes ONTAP DR (Azure) full in {month} months, within the 36-month horizon"
            in view.verdict_label.text())


def test_a_step_explains_itself_in_the_chosen_unit(view, qtbot):
    """The engine writes its formulas in binary units; in TB they read as their decimal equals, from the exact
    bytes (as the report prints them), and the TiB view keeps the engine's own text."""
    from models.evaluate import evaluate
    from models.project import load
    from models.resources import examples_dir

    evaluation = evaluate(load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"))
    system = evaluation.capacity.systems[0]
    step = system.step("Right-sized")
    assert "TiB" in step.formula
    view.set_evaluation(evaluation, "TiB")
    row = [bar.label for bar in view.bars].index("Right-sized")
    # the engine's text, its operand marked approximate (24 x 3.49 TiB reads 83.76, the step 83.81 TiB)
    assert step.formula == "24 x 3.49 TiB" and "<b>Formula:</b> 24 x ~3.49 TiB<" in view.bar_tooltip(row)
    view.unit_buttons.button(0).click()  # TB
    tooltip = view.bar_tooltip(row)
    explained = tooltip[:tooltip.index("<b>Source:</b>")]  # a cited source keeps its own words
    assert "TiB" not in explained and "GiB" not in explained, explained
    drives = next(n for n in load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml").scenario.nodes
                  if getattr(n, "drive", None))
    from models.catalog import bundled_catalog

    right_sized_tb = bundled_catalog().get(drives.drive).right_sized_bytes / 10**12
    assert f"x ~{right_sized_tb:.2f} TB" in tooltip  # the drive as the report prints it; 24 x 3.84 is not 92.15
    assert view.model.item(row, 1).data(Qt.ItemDataRole.ToolTipRole) == tooltip
