"""File > Import Environment into an existing design keeps where the numbers were measured (review revimp55
items 2 and 11): the project's measured record (tool, collection date, method, assumptions, per workload under
its id in the project) is set when workloads are added to a design, survives saving, and the Inspector's project
section shows it; the wizard's hint wraps, a file without P95 offers no P95, "Load from" is never elided and the
notes speak of the wizard's own choices, not of command-line options."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from models.store import open_project, save_project

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
AZURE = SAMPLES / "azure-migrate" / "AzureMigrate_Assessment_Core_Report.xlsx"


def _to_grouping(qtbot, window, files: list[Path]):
    window.act_import_env.trigger()
    wizard = window._import_wizard
    wizard.resize(980, 640)
    wizard.add_files(files)
    assert wizard.runner.wait(30)
    qtbot.mouseClick(wizard.button(wizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(wizard.button(wizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    assert wizard.currentPage() is wizard.grouping_page
    assert wizard.runner.wait(30)
    qtbot.waitUntil(lambda: wizard.grouping_page.isComplete(), timeout=10_000)
    return wizard


def test_adding_to_a_design_records_the_measured_source_and_the_inspector_shows_it(example_window, qtbot,
                                                                                   tmp_path) -> None:
    window = example_window
    before = len(window.document.project.scenario.workloads)
    assert not window.document.project.measured
    wizard = _to_grouping(qtbot, window, [LIVE])
    page = wizard.grouping_page
    # Live Optics gives peaks only: P95 is not offered, the peak is summed, and "Load from" says so unclipped
    p95 = page.stat.model().item(page.stat.findData("p95"))
    assert not p95.isEnabled() and page.stat.currentData() == "peak"
    table = page.table
    for row in range(table.rowCount()):
        text = table.item(row, 2).text()
        assert text == "sum of per-machine peak"
        lines = -(-table.fontMetrics().horizontalAdvance(text) // max(1, table.columnWidth(2) - 8))
        assert table.rowHeight(row) >= lines * table.fontMetrics().height()  # wrapped rows grow: no "..."
    qtbot.mouseClick(wizard.button(wizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    wizard.finish_page.replace.setChecked(False)  # add to the design's own workloads
    assert wizard.finish_page.isComplete()
    wizard.accept()
    project = window.document.project
    added = project.scenario.workloads[before:]
    (record,) = project.measured
    assert record.sources[0].tool == "a Live Optics (Optical Prime) export"
    assert record.sources[0].collected == "collected 2022/11/14"
    assert [w.workload for w in record.workloads] == [w.id for w in added]  # under their ids in the project
    assert "sum of per-machine peak" in record.method and "31,940 IOPS" in record.measured
    reopened = open_project(save_project(project, tmp_path / "p.storplan")).project
    assert reopened.measured == project.measured
    window.inspector.show_target("project", "")
    shown = window.inspector.measured
    assert shown.isVisibleTo(window.inspector)
    assert "Live Optics (Optical Prime) export, collected 2022/11/14" in shown.text()
    assert f"{len(added)} of its {len(added)} workload(s) in this scenario" in shown.text()
    window.document.undo_stack.undo()
    assert not window.document.project.measured


def test_the_files_hint_wraps_and_the_notes_use_the_wizards_words(example_window, qtbot) -> None:
    window = example_window
    wizard = _to_grouping(qtbot, window, [AZURE])
    hint = wizard.files_page.interval_hint
    assert hint.wordWrap()
    page = wizard.grouping_page
    assert page.group_by.currentData() == "tag"  # an Azure Migrate report starts grouped by its Environment tag
    page.group_by.setCurrentIndex(page.group_by.findData("cluster"))  # one nameless group: the note names the tag
    assert wizard.runner.wait(30)
    qtbot.waitUntil(lambda: "Group by: Tag" in page.notes.text(), timeout=10_000)
    notes = page.notes.text()
    assert "--group-by" not in notes and "Group by: Tag" in notes
    p95 = wizard.grouping_page.stat
    assert p95.currentData() in ("p95", "peak")


def test_the_status_bar_never_says_plainly_met_when_the_import_has_no_capacity(open_window, qtbot,
                                                                                tmp_path) -> None:
    """ONTAP counters give no capacity (revimp55 item 8): 0 bytes "fit" any design, so the requirements verdict
    reads "met, capacity not measured"; with the effective capacity stated it is judged again."""
    from app.cli import main
    from models.store import load_project_file

    polls = [SAMPLES / "ontap" / "harvest-keyperf-volume-poll-1.json",
             SAMPLES / "ontap" / "harvest-keyperf-volume-poll-2.json"]
    out = tmp_path / "kp.storplan"
    assert main(["import-env", *map(str, polls), "-o", str(out), "--source", "ontap"]) == 0
    win = open_window(load_project_file(out).project)
    win.resize(1600, 900)
    label = win.status_labels["verdict"]
    qtbot.waitUntil(lambda: "capacity not measured" in label.toolTip(), timeout=10_000)
    doc = win.document
    stated = doc.project.requirements.with_changes(effective_capacity_bytes=2**40)
    assert doc.push(doc.project.model_copy(update={"requirements": stated}), "Change requirement")
    win.worker.force_sync()
    qtbot.waitUntil(lambda: "capacity not measured" not in label.toolTip(), timeout=10_000)


def test_a_capacity_only_import_says_its_load_is_not_measured(example_window, qtbot) -> None:
    """RVTools carries no I/O figures: the grouping page's total says "load not measured", not "0 IOPS, 0.0 MB/s"
    (a measured zero), beside the capacity the file does give; Live Optics, which measures a load, gives its IOPS."""
    rvtools = SAMPLES / "rvtools" / "rvtools-small-complete.xlsx"
    wizard = _to_grouping(qtbot, example_window, [rvtools])
    totals = wizard.grouping_page.totals.text()
    assert "load not measured" in totals and "0 IOPS" not in totals and " used" in totals
    assert all(g.needs_preset for g in wizard.imported.groups)
    wizard.reject()
    live = _to_grouping(qtbot, example_window, [SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"])
    assert "31,940 IOPS" in live.grouping_page.totals.text()
