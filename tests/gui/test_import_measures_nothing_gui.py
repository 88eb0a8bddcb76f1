"""An import without capacity reads in the app as in the PDF report (meas55):

- The Capacity tab of a project imported from ONTAP counters (no capacity in them) says "capacity not measured"
  where the report's Summary does, and its Months until full is n/a as the report's: never a 0-byte data set that
  fits, nor "no growth" runway. Stating the effective capacity needed takes the caution away.
- The Inspector's project section gives the measured record in the report's labels and words.
- File > Import Environment refuses an import that measures nothing (one statperf poll: no rate, no capacity) as
  ``storplan import-env`` does: the finish page cannot be completed and says why, in the command's words."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from app.cli import main
from models.store import load_project_file

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
KEYPERF = [SAMPLES / "ontap" / f"harvest-keyperf-volume-poll-{n}.json" for n in (1, 2)]
STATPERF_POLL = SAMPLES / "ontap" / "harvest-statperf-lun_data.txt"
CAUTION = ("capacity not measured: the measured files give no capacity (performance counters only); state the "
           "effective capacity needed (Requirements) to judge whether the data fits")
WHY = "(5 volume(s) or LUN(s) with one poll only: cumulative counters give no rate without a second poll)"


def test_the_capacity_tab_says_not_measured_where_the_report_does(open_window, qtbot, tmp_path) -> None:
    out = tmp_path / "kp.storplan"
    assert main(["import-env", *map(str, KEYPERF), "-o", str(out)]) == 0
    project = load_project_file(out).project
    assert all(w.dataset_bytes == 0 for w in project.scenario.workloads)  # the counters give no capacity
    win = open_window(project)
    win.resize(1366, 768)
    win.results.setCurrentIndex(0)
    view = win.results.capacity_view
    qtbot.waitUntil(lambda: view.verdict_label.isVisible(), timeout=10_000)
    text = view.verdict_label.text()
    assert CAUTION in text  # the report's summary caution, word for word
    assert "\u2713" not in text and "fits" not in text.replace("whether the data fits", "")
    assert view._kpis["months"].value.text() == "n/a"  # the report's Months until full cell: n/a, not "no growth"
    # the Inspector's project section gives the record in the report's labels and words (its Measured environment)
    win.inspector.show_target("project", "")
    shown = win.inspector.measured.text()
    for label in ("What was measured:", "By what tool, and when:", "How the load was taken:", "What was assumed:"):
        assert f"<b>{label}</b>" in shown
    assert "capacity not measured (the files give none)" in shown
    assert "ONTAP performance counters (as NetApp Harvest or ONTAP statistics collect them), measured 2024-07-29 " \
           "16:14 to 16:17 UTC" in shown
    doc = win.document
    stated = doc.project.requirements.with_changes(effective_capacity_bytes=2**40)
    assert doc.push(doc.project.model_copy(update={"requirements": stated}), "Change requirement")
    win.worker.force_sync()
    qtbot.waitUntil(lambda: CAUTION not in view.verdict_label.text(), timeout=10_000)
    assert view._kpis["months"].value.text() != "n/a"


def test_the_wizard_refuses_an_import_that_measures_nothing_as_the_command_does(example_window, qtbot,
                                                                                capsys, tmp_path) -> None:
    assert main(["import-env", str(STATPERF_POLL), "-o", str(tmp_path / "none.storplan")]) == 2
    command = capsys.readouterr().err.strip().removeprefix("storplan: ")
    assert command == ("nothing measured: the files give neither a load (IOPS, MB/s) nor a capacity, so no project is "
                       f"written {WHY}")
    window = example_window
    before = window.document.project
    window.act_import_env.trigger()
    wizard = window._import_wizard
    wizard.resize(980, 640)
    wizard.add_files([STATPERF_POLL])
    assert wizard.runner.wait(30)
    next_button = wizard.button(wizard.WizardButton.NextButton)
    qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
    assert wizard.currentPage() is wizard.grouping_page
    assert wizard.runner.wait(30)
    qtbot.waitUntil(lambda: wizard.grouping_page.isComplete(), timeout=10_000)
    refusal = ("Nothing measured: the files give neither a load (IOPS, MB/s) nor a capacity, so there is nothing "
               f"to import {WHY}.")
    assert wizard.grouping_page.totals.text() == refusal  # said before Next, not "0 IOPS ... 0.00 TiB used"
    qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
    page = wizard.finish_page
    assert wizard.currentPage() is page
    assert not page.isComplete()
    assert not wizard.button(wizard.WizardButton.FinishButton).isEnabled()
    assert page.summary.text() == refusal
    page.replace.setChecked(False)  # adding to the design's workloads is refused alike
    assert not page.isComplete() and page.summary.text().startswith("Nothing measured")
    wizard.accept()  # even if asked: nothing is pushed
    assert window.document.project == before


def test_the_capacity_tab_names_the_workloads_whose_capacity_is_not_measured(open_window, qtbot, tmp_path) -> None:
    """Live Optics machines (capacity measured) with ONTAP volumes (none): the Capacity tab gives the report's
    caution naming the volumes' workload, beside the capacity judged on the machines' data."""
    from models.present.verdicts import partly_unmeasured_caution
    from models.project.model import capacity_partly_unmeasured

    out = tmp_path / "mix.storplan"
    live = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
    assert main(["import-env", str(live), *map(str, KEYPERF), "-o", str(out)]) == 0
    project = load_project_file(out).project
    caution = partly_unmeasured_caution(capacity_partly_unmeasured(project.scenario.workloads))
    assert caution is not None and "svm-" in caution.text
    win = open_window(project)
    win.resize(1366, 768)
    win.results.setCurrentIndex(0)
    view = win.results.capacity_view
    qtbot.waitUntil(lambda: view.verdict_label.isVisible(), timeout=10_000)
    assert caution.text in view.verdict_label.text()
