"""The first screen a customer sees: a current system with no warning badge, examples listed by title, drive and
link menus in natural order, link labels that say what the link carries."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QMessageBox

from app.gui.document import ProjectDocument
from app.gui.inspector import Inspector
from app.gui.main_window import read_project
from models.formatting import fmt_months, natural_key
from models.resources import examples_dir


def _numbers(texts: list[str], pattern: str) -> list[float]:
    return [float(m.group(1)) for t in texts if (m := re.search(pattern, t))]


def test_the_default_start_is_a_current_system_with_no_badge(qtbot):
    from app.gui.main_window import DEFAULT_EXAMPLE, MainWindow

    win = MainWindow(read_project(examples_dir() / DEFAULT_EXAMPLE))
    win.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.show()
    outcome = win.worker.force_sync()
    assert outcome is not None and outcome.evaluation is not None
    qtbot.waitUntil(lambda: win.results.last_good is not None, timeout=10_000)
    assert win.document.project.info.name == "AFF A70 + NS224 + Oracle OLTP (NVMe/TCP 100GbE)"
    assert [n.catalog_id for n in win.document.scenario.nodes] == [
        "dell-poweredge-r760", "netapp-aff-a70", "netapp-ns224"]
    assert not outcome.evaluation.problems
    assert all(item.problems == [] for item in win.scene.node_items.values())
    assert all(item._problems == [] for item in win.scene.link_items.values())
    # the A70 runs on no fitted profile of its own: said beside max IOPS at the SLO in the status bar and the
    # summary table
    status = win.status_labels["max_iops_at_slo"].text()
    from models.units import format_iops

    shown = format_iops(outcome.evaluation.performance.workloads[0].max_iops_at_slo)
    assert shown == "1.60M"  # 25,000 per core (the AFF A90's published 2.4M over its 96 cores) on the A70's 64
    assert f"Max IOPS @ SLO: <b>{shown}</b>" in status and "(hardware relation only)" in status
    win.results.setCurrentIndex(1)
    qtbot.waitUntil(lambda: hasattr(win.results.performance_view, "summary_model")
                    and win.results.performance_view.summary_model.rowCount() == 1, timeout=10_000)
    view = win.results.performance_view
    row = {name: view.summary_model.item(0, k).text() for k, name in enumerate(view.SUMMARY_COLUMNS)}
    assert row["Max IOPS @ SLO"] == f"{shown} (capped)" and row["Profile"] == "hardware relation only"  # r2 #8
    k = view.SUMMARY_COLUMNS.index("Profile")
    assert "pooled ONTAP software costs on 32 cores per node" in view.summary_model.item(0, k).toolTip()
    from app.gui.results._common import WARNING

    assert view.summary_model.item(0, k).foreground().color().name().lower() == WARNING.lower()  # the widest band
    assert view.SUMMARY_COLUMNS.index("Profile") == view.SUMMARY_COLUMNS.index("Max IOPS @ SLO") + 1
    # the runway shows its three months (the example grows its data and its IOPS target 30 % a year)
    qtbot.waitUntil(lambda: "Runway" in view.resilience_label.text(), timeout=20_000)
    runway = view.resilience_label.text()
    assert "not within ten years" not in runway, runway
    assert all(f"{part}: {fmt_months(m)}" in runway for part, m in (
        # 30 % a year from 2.4M down to the A70's own 1.6M bound: 12 x ln(1.5) / ln(1.3) = 18.55 months earlier
        ("full", 96.2778), ("SLO breach at the growing target", 84.88), ("saturation", 84.90))), runway
    win.worker.shutdown()
    win.compare_worker.shutdown()
    win.document.undo_stack.setClean()
    win.close()


def test_open_example_lists_the_projects_titles_in_natural_order(window):
    titles = [a.text() for a in window.examples_menu.actions()]
    assert len(titles) == len(list(examples_dir().glob("*.toml")))
    assert "AFF A70 + NS224 + Oracle OLTP (NVMe/TCP 100GbE)" in titles and "AFF8080A EX + SQL Server" in titles
    assert not [t for t in titles if t.endswith(".toml") or re.fullmatch(r"[a-z0-9 ]+", t)]  # no file slugs
    assert titles == sorted(titles, key=natural_key)
    assert titles.index("CVO Azure DS4_v2 HA pair") < titles.index("CVO Azure DS14_v2 HA pair")


def test_the_examples_menu_is_listed_when_first_opened(window):
    """The first window does not read the example files for their titles: File -> Open Example is enabled and
    empty until it is first opened (its aboutToShow), then lists every example once, opening each."""
    menu = window._examples_menu
    assert menu.isEnabled() and menu.isEmpty()
    menu.aboutToShow.emit()
    titles = [a.text() for a in menu.actions()]
    assert len(titles) == len(list(examples_dir().glob("*.toml")))
    menu.aboutToShow.emit()
    assert [a.text() for a in window.examples_menu.actions()] == titles  # never listed twice
    opened = []
    window.open_example = opened.append
    menu.actions()[0].trigger()
    assert len(opened) == 1 and opened[0].name == menu.actions()[0].toolTip()


def test_the_drive_menu_sorts_sizes_by_value(qtbot):
    inspector = Inspector(ProjectDocument(read_project(examples_dir() / "aff-a50-ns224-oracle-nvmefc64.toml")))
    qtbot.addWidget(inspector)
    inspector.show()
    shelf = next(n.id for n in inspector.document.scenario.nodes if n.kind == "shelf")
    inspector.show_selection([shelf], [])
    combo = inspector.form.editors["drive"].combo
    items = [combo.itemText(i) for i in range(combo.count())]
    tlc = _numbers([t for t in items if "NVMe SSD (TLC)" in t], r"NetApp ([\d.]+)TB")
    assert tlc == [1.9, 3.8, 7.6, 15.3, 30.6]  # not 1.9, 15.3, 3.8, 30.6, 7.6


def test_the_link_menu_sorts_speeds_by_value(qtbot):
    inspector = Inspector(ProjectDocument(read_project(examples_dir() / "aff8080-sqlserver-tpce.toml")))
    qtbot.addWidget(inspector)
    inspector.show()
    inspector.show_selection([], ["l-targets"])
    combo = inspector.form.editors["link_type"].combo
    items = [combo.itemText(i) for i in range(combo.count())]
    fc = _numbers([t for t in items if t.endswith("Fibre Channel (FCP)")], r"^(\d+)Gb")
    assert fc == sorted(fc) and len(fc) >= 3 and fc[0] < 16 < fc[-1]


def test_the_nfs_examples_label_their_host_links_nfs(qtbot):
    from app.gui.canvas.scene import TopologyScene

    for name, speed in (("aff8080-nfs-file-services.toml", 10), ("fas70-ds460c-nlsas-nfs.toml", 10)):
        document = ProjectDocument(read_project(examples_dir() / name))
        scene = TopologyScene(document)
        ethernet = [item.label for item in scene.link_items.values() if "SAS" not in item.label]
        assert ethernet and all(label.startswith(f"NFS {speed}G") for label in ethernet), (name, ethernet)
        assert not [label for label in ethernet if "iSCSI" in label]
    # the rule: a link type that carries several protocols is named by the one its workloads run over it
    from models.catalog import bundled_catalog
    from models.present.labels import link_tag

    catalog = bundled_catalog()
    assert link_tag(catalog, "iscsi-10g", "NFS") == "NFS 10G" and link_tag(catalog, "iscsi-25g", "NFS") == "NFS 25G"
    assert link_tag(catalog, "iscsi-10g", "iSCSI") == link_tag(catalog, "iscsi-10g") == "iSCSI 10G"
    assert link_tag(catalog, "fc-16g", "NFS") == link_tag(catalog, "fc-16g")  # not a protocol the type carries


def test_a_calibrated_design_says_calibrated_beside_its_figures(example_window, qtbot):
    win = example_window
    qtbot.waitUntil(lambda: win.results.last_good is not None, timeout=10_000)
    win.results.setCurrentIndex(1)
    status = win.status_labels["max_iops_at_slo"].text()
    assert "(calibrated)" in status and "uncalibrated default" not in status
    view = win.results.performance_view
    qtbot.waitUntil(lambda: hasattr(view, "summary_model") and view.summary_model.rowCount() >= 1, timeout=10_000)
    k = view.SUMMARY_COLUMNS.index("Profile")
    assert [view.summary_model.item(r, k).text() for r in range(view.summary_model.rowCount())] == ["calibrated"]


def test_the_validation_tab_opens_on_the_headline_with_the_ramps_counted(qtbot):
    """The real run: the tab opens on validate's headline (the verdict as information with its counts, since two
    fitted ramp levels fail and prediction summaries miss their targets; then one count per category above the
    table), every failing check comes first, the measured ramps counted and red like any check."""
    from app.gui.results import ValidationView
    from app.gui.results._common import FAIL
    from models.validation import RAMP_SECTIONS

    view = ValidationView()
    qtbot.addWidget(view)
    view.resize(1300, 700)
    view.show()
    qtbot.waitUntil(lambda: not view.running and view.model.rowCount() > 0, timeout=120_000)
    assert view.headline is not None and view.headline.exit_status == 1
    summaries = [part for part in view.headline.verdict().split("; ") if "summar" in part]
    assert view.summary.text().startswith(f"Model accuracy: {view.passed} of {view.total} table checks pass, "
                                          f"{view.total - view.passed} fail (")
    assert view.summary.text().endswith(" \u00b7 ".join(["", *summaries]))
    assert FAIL.lower() not in view.summary.styleSheet().lower()  # the counts as information (REVIEW45 #3)
    lines = view.error_summary.text().splitlines()
    assert [line.split(" (")[0].split(":")[0] for line in lines if not line.startswith("  ")] == [
        "In-sample", "Definitional arithmetic", "Yes / no", "Out-of-sample", "Never-fitted predictions"]
    # the headline sits above the table, whole (not scrolling) when the view is this tall
    assert view.error_summary.isVisible() and view.headline_area.isVisible()
    assert view.headline_area.geometry().bottom() < view.splitter.geometry().top()
    assert view.headline_area.verticalScrollBar().maximum() == 0
    rows = [view.row_at(r) for r in range(view.model.rowCount())]
    failing = [r for r, (_, c) in enumerate(rows) if c is None or not c.passed]
    assert failing == list(range(len(failing))) and failing  # every failure first
    assert len(failing) == view.total - view.passed
    results = [view.model.item(r, 5).text() for r in range(view.model.rowCount())]
    ramp_fails = [r for r in failing if rows[r][0].section in RAMP_SECTIONS]
    assert ramp_fails and all(results[r] == "fail" for r in ramp_fails)  # a ramp is counted like any check
    # the first view: the first row (a failure) is current, its details say fail and give the tolerance's reason
    details = view.details.toPlainText()
    assert view.table.currentIndex().row() == 0 and "fail" in details and "Tolerance:" in details


def test_the_validation_headline_wraps_instead_of_widening_the_results(qtbot):
    """The headline's longest line is wider than a laptop's results dock; it wraps, so the Validation tab (and with
    it every results tab, which share one minimum width) fits 900 pixels without a horizontal scroll bar, and every
    line stays above the table."""
    from app.gui.results import ValidationView

    view = ValidationView()
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    qtbot.waitUntil(lambda: not view.running and view.model.rowCount() > 0, timeout=120_000)
    longest = max(view.error_summary.fontMetrics().horizontalAdvance(line)
                  for line in view.error_summary.text().splitlines())
    assert longest > 900  # the case this test is about: a line longer than the view
    assert view.minimumSizeHint().width() <= 900
    label = view.error_summary
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()) > 2 * label.fontMetrics().height(),
                    timeout=5_000)  # every wrapped line shown (the layout settles after the run's text arrives)
    assert label.geometry().bottom() < view.splitter.geometry().top()
