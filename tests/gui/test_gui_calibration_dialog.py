"""Tools → Calibrate from Lab Data: a CSV is previewed, fitted on the dialog's runner through the CLI's engine,
shown with the residual of every point, and saved as hardware of the user's own; a bad file is refused with its
line named."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from PySide6.QtCore import Qt

from app.gui.palette import MY_HARDWARE
from models.catalog import Controller, bundled_catalog, load_user_catalog
from models.evaluate import evaluate
from models.project import load
from models.resources import examples_dir


def _lab_csv(tmp_path: Path) -> Path:
    """Six points of the AFF8080 example's own curve with 10% more latency: a lab that measured slower."""
    wp = evaluate(load(examples_dir() / "aff8080-sqlserver-tpce.toml")).performance.workloads[0]
    points = wp.curve[:: len(wp.curve) // 6][:6]
    path = tmp_path / "lab.csv"
    path.write_text("iops,latency_ms\n" + "".join(f"{p.iops:.1f},{p.latency_ms * 1.1:.5f}\n" for p in points))
    return path


def test_fit_shows_residuals_and_saves(qtbot, example_window, tmp_path):
    win = example_window
    dialog = win.show_calibration()
    qtbot.addWidget(dialog)
    assert dialog.load(_lab_csv(tmp_path)) and dialog.fit_button.isEnabled()
    dialog.fit()
    qtbot.waitUntil(lambda: dialog.save_button.isEnabled(), timeout=60_000)
    assert dialog.residuals.rowCount() == 6
    residuals = [float(dialog.residuals.item(r, 3).text().rstrip("%")) for r in range(6)]
    assert max(abs(r) for r in residuals) < 5.0  # the model fits its own curve shape within a few percent
    assert "Fitted 9.0 FCP" in dialog.message.text()
    stock = bundled_catalog().get("netapp-aff8080a-ex", Controller)
    dialog.save()
    qtbot.waitUntil(lambda: "Saved to your catalog" in dialog.message.text(), timeout=10_000)
    today = date.today()
    new_id = f"netapp-aff8080a-ex-lab-{today:%Y%m%d}"
    record = load_user_catalog().get(new_id, Controller)  # its own id and name, never the stock one's
    assert record.name == f"{stock.name} (lab fit {today.isoformat()})" and record.based_on == stock.id
    assert any("lab.csv" in p.source for p in record.performance)
    assert load_user_catalog().get("netapp-aff8080a-ex", Controller) == stock  # the stock record is unchanged
    assert f"“{record.name}” ({new_id}), under My hardware" in dialog.message.text()
    mine = win.palette_widget.groups[MY_HARDWARE]  # the palette lists it under My hardware
    assert mine.text(0).startswith("My hardware")
    assert [mine.child(i).data(0, Qt.ItemDataRole.UserRole) for i in range(mine.childCount())] == [new_id]
    assert [mine.child(i).text(0) for i in range(mine.childCount())] == [record.name]
    doc = win.document
    assert doc.scenario.node("aff8080").catalog_id == new_id  # the project says which record it uses
    assert any("lab.csv" in note for note in evaluate(doc.project).performance.workloads[0].notes)
    doc.undo_stack.undo()
    assert doc.scenario.node("aff8080").catalog_id == "netapp-aff8080a-ex"
    assert not any("lab.csv" in note for note in evaluate(doc.project).performance.workloads[0].notes)


def test_a_bad_csv_is_refused_with_its_line(qtbot, example_window, tmp_path):
    dialog = example_window.show_calibration()
    qtbot.addWidget(dialog)
    bad = tmp_path / "bad.csv"
    bad.write_text("iops,latency_ms\n1000,0.3\n2000,fast\n")
    assert dialog.load(bad) is False
    assert "bad.csv: line 3: latency_ms" in dialog.message.text() and not dialog.fit_button.isEnabled()


def test_band_is_drawn_and_message_is_in_words(qtbot, example_window, tmp_path):
    """The fitted curve's band is filled (a brush with colour) and the message names no module or code."""
    dialog = example_window.show_calibration()
    qtbot.addWidget(dialog)
    assert dialog.load(_lab_csv(tmp_path))
    dialog.fit()
    qtbot.waitUntil(lambda: dialog.save_button.isEnabled(), timeout=60_000)
    band = dialog.band
    assert band is not None and band in dialog.plot.getPlotItem().items
    brush = band.brush()
    assert brush.style() != Qt.BrushStyle.NoBrush and brush.color().alpha() > 0
    assert band.pen().style() != Qt.PenStyle.NoPen and band.pen().color().alpha() > 0
    text = dialog.message.text()
    assert "models." not in text and "least_squares" not in text and "_us" not in text
    assert "to 6 points of lab.csv" in text and "CPU per read" in text and "within" in text
