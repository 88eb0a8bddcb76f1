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


def _column_ink(image, x: int, y_from: int, y_to: int, background) -> int:
    """How many pixels of column ``x`` between ``y_from`` and ``y_to`` differ from ``background``."""
    def far(c) -> bool:
        return abs(c.red() - background.red()) + abs(c.green() - background.green()) + abs(
            c.blue() - background.blue()) > 24

    return sum(far(image.pixelColor(x, y)) for y in range(max(0, y_from), min(image.height(), y_to)))


def test_a_band_with_no_width_still_shows_and_the_legend_names_it(qtbot, example_window, tmp_path):
    """A fit whose band is as narrow as its curve (a tiny standard error) still draws the band at least
    BAND_MIN_PX pixels wide, and the legend says what it is; the profile's source is in words too."""
    import dataclasses

    from app.gui.calibration_dialog import BAND_LABEL, BAND_MIN_PX

    dialog = example_window.show_calibration()
    qtbot.addWidget(dialog)
    dialog.resize(900, 620)
    dialog.show()
    assert dialog.load(_lab_csv(tmp_path))
    dialog.fit()
    qtbot.waitUntil(lambda: dialog.save_button.isEnabled(), timeout=60_000)
    profile, record, wp = dialog.result
    for text in (profile.source, *(p.source for p in record.performance)):
        assert "models." not in text and "least_squares" not in text, text
    assert f"fitted to your lab measurements (6 points of lab.csv, {date.today().isoformat()}" in profile.source
    assert "least-squares fit of the service demands to 6 points" in profile.source
    # the same fit with no band at all (P10 = P90 = the curve): what a tiny standard error looks like
    flat = [dataclasses.replace(p, latency_band_p10_ms=p.latency_ms, latency_band_p90_ms=p.latency_ms)
            for p in wp.curve]
    flat_open = [dataclasses.replace(p, latency_band_p10_ms=p.latency_ms, latency_band_p90_ms=p.latency_ms)
                 for p in wp.open_curve]
    dialog.load(dialog.path)
    dialog._fitted(True, (profile, record, dataclasses.replace(wp, curve=flat, open_curve=flat_open)))
    assert [label.text for _sample, label in dialog.legend.items][-1] == BAND_LABEL
    qtbot.wait(200)
    dialog.plot.getViewBox().autoRange()
    (x_low, _x_high), (y_low, y_high) = dialog.plot.getViewBox().viewRange()
    top = max(p.latency_ms for p in (*flat, *flat_open))
    assert -0.1 * top <= y_low <= min(p.latency_ms for p in flat) and top <= y_high <= 1.2 * top  # the curve's range
    assert x_low >= -0.1 * max(p.iops for p in flat)
    # the band alone (the curve and points hidden) on the screen: its ink across the curve is BAND_MIN_PX wide
    for item in dialog.plot.getPlotItem().items:
        if item is not dialog.band:
            item.setVisible(False)
    dialog.legend.setVisible(False)
    qtbot.wait(100)
    image = dialog.plot.grab().toImage()
    vb = dialog.plot.getViewBox()
    middle = flat[len(flat) // 2]
    at = dialog.plot.mapFromScene(vb.mapViewToScene(pg_point(middle.iops, middle.latency_ms)))
    background = image.pixelColor(image.width() - 5, 5)
    ink = _column_ink(image, at.x(), at.y() - 20, at.y() + 20, background)
    assert BAND_MIN_PX - 1 <= ink <= BAND_MIN_PX + 4, ink
    dialog.band.setVisible(False)  # and the ink was the band's
    qtbot.wait(100)
    assert _column_ink(dialog.plot.grab().toImage(), at.x(), at.y() - 20, at.y() + 20, background) == 0


def pg_point(x: float, y: float):
    from PySide6.QtCore import QPointF

    return QPointF(x, y)


CODE_WORDS = ("models.", "least_squares", "calibration (")


def test_fitted_sources_read_in_words_on_screen_in_the_report_and_the_editor(qtbot, example_window, tmp_path):
    """A lab fit and every stock fitted profile say how they were fitted in words a customer reads: the hardware
    editor's record text and the report's sources table, for the stock record and for the saved lab fit."""
    from app.gui.hardware_editor import HardwareEditor
    from app.report.sources import catalog_numbers
    from models.units import CapacityUnit

    win = example_window
    stock = bundled_catalog()
    fitted = [p.source for record in stock for profile in getattr(record, "performance", ()) or ()
              for p in (profile, *profile.provenance.values()) if hasattr(p, "source")]
    assert len(fitted) > 50
    assert all(not any(word in text for word in CODE_WORDS) for text in fitted), [
        t for t in fitted if any(w in t for w in CODE_WORDS)][:3]
    assert sum("least-squares fit of the service demands to" in text for text in fitted) > 20
    dialog = win.show_calibration()
    qtbot.addWidget(dialog)
    assert dialog.load(_lab_csv(tmp_path))
    dialog.fit()
    qtbot.waitUntil(lambda: dialog.save_button.isEnabled(), timeout=60_000)
    dialog.save()
    qtbot.waitUntil(lambda: "Saved to your catalog" in dialog.message.text(), timeout=10_000)
    new_id = dialog.saved_record.id
    for record_id in ("netapp-aff8080a-ex", new_id):
        editor = HardwareEditor(win.document.catalog, start_id=record_id, parent=win)
        qtbot.addWidget(editor)
        text = editor.text.toPlainText()
        assert "least-squares fit of the service demands to" in text, record_id
        assert not any(word in text for word in CODE_WORDS), record_id
    assert "fitted to your lab measurements (6 points of lab.csv" in text
    rows = catalog_numbers(win.document.scenario, win.document.catalog, CapacityUnit.TIB)
    fit_rows = [row for row in rows if "performance" in row.field]
    assert fit_rows and any("fitted to your lab measurements" in row.source for row in fit_rows)
    assert not any(word in row.source for row in rows for word in CODE_WORDS)
