"""Help → Guide and About: F1 opens the guide at the focused panel's section; About names the versions and the
bundled libraries' licences."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.gui import help as guide_help


def test_f1_opens_the_guide_at_the_focused_panel(qtbot, example_window):
    win = example_window
    view = win.results.performance_view
    win.results.setCurrentWidget(view)
    view.setFocus()
    qtbot.waitUntil(lambda: guide_help.focused_section() == "performance", timeout=5_000)
    qtbot.keyClick(view, Qt.Key.Key_F1)
    guide = win.guide
    assert guide is not None and guide.isVisible()
    assert guide.browser.source().fragment() == "performance"
    assert "Saturation IOPS" in guide.browser.toPlainText()
    assert "not a percentile of individual I/O latencies" in " ".join(guide.browser.toPlainText().split())


def test_the_section_follows_the_widget_hierarchy(qtbot, example_window):
    assert guide_help.section_for(example_window.inspector_dock.widget()) in ("inspector", "")
    assert guide_help.section_for(example_window.results.capacity_view) in ("capacity", "")
    assert guide_help.section_for(None) == ""


def test_about_names_versions_and_licences(qtbot, example_window):
    box = guide_help.show_about(example_window)
    qtbot.addWidget(box)
    text = box.text()
    assert "StorPlan" in text and "Hardware catalog 2026" in text
    for library in ("PySide6", "pyqtgraph", "numpy", "scipy", "openpyxl"):
        assert library in text
    assert "not installed" not in text  # every bundled library is found under its distribution name
    for name, _use in guide_help.BUNDLED:
        version, licence = guide_help.licence_of(name)
        assert version == __import__("importlib.metadata").metadata.version(name) and licence, name
    assert "LGPL-3.0" in text  # Qt for Python's licence
    assert "DejaVu" in text and "DejaVuSans.ttf" in text


def test_the_guide_names_every_result_figure_with_its_formula():
    """Each figure the results show has its entry in the guide (with the formula's key terms), and every panel
    F1 can open has its section anchor."""
    from PySide6.QtGui import QTextDocument

    html = guide_help.guide_path().read_text(encoding="utf-8")
    doc = QTextDocument()
    doc.setHtml(html)
    text = " ".join(doc.toPlainText().split())
    for term in ("Raw", "Right-sized", "Usable", "Effective", "efficiency ratio", "Data-reduction ratio",
                 "Saturation IOPS", "Max IOPS at the SLO", "Latency at target", "Utilisation U = X · D",
                 "Residence time", "Bottleneck", "headroom = (saturation − target) / target", "Months until full",
                 "Uncertainty band (P10–P90)", "not a percentile of individual I/O latencies", "knee note",
                 "calibrated", "derived", "assumed", "Presentation Mode", "Theme", "Calibrate from Lab Data"):
        assert term in text, term
    for section in set(guide_help.PANEL_SECTIONS.values()):
        assert f'name="{section}"' in html, section


def test_help_about_opens_from_the_menu(qtbot, example_window):
    """Help -> About StorPlan (its module loads on first use, not with the first window) opens the About box."""
    example_window.act_about.trigger()
    boxes = [w for w in example_window.findChildren(guide_help.AboutDialog) if w.isVisible()]
    assert len(boxes) == 1 and "StorPlan" in boxes[0].text()
    qtbot.addWidget(boxes[0])


def test_f1_in_the_calibration_dialog_opens_its_section(qtbot, example_window):
    dialog = example_window.show_calibration()
    qtbot.addWidget(dialog)
    dialog.activateWindow()
    dialog.choose.setFocus()
    qtbot.waitUntil(lambda: guide_help.focused_section() == "calibration", timeout=5_000)
    example_window.act_guide.trigger()
    assert example_window.guide.browser.source().fragment() == "calibration"
    assert "iops and latency_ms" in example_window.guide.browser.toPlainText()


def test_the_frozen_bundle_ships_the_guide_and_the_about_boxs_metadata():
    """packaging/storplan.spec bundles resources/ whole (the guide is under it) and copies the metadata of every
    library the About box lists, so the frozen app's About box names their versions and licences too."""
    import ast
    import re

    from models.resources import resources_dir

    spec = (resources_dir().parent / "packaging" / "storplan.spec").read_text(encoding="utf-8")
    assert 'datas = [(str(ROOT / "resources"), "resources")]' in spec
    assert guide_help.guide_path().is_relative_to(resources_dir()) and guide_help.guide_path().is_file()
    listed = ast.literal_eval(re.search(r"ABOUT_METADATA = (\[[^\]]*\])", spec).group(1))
    assert sorted(listed) == sorted(name for name, _use in guide_help.BUNDLED)
