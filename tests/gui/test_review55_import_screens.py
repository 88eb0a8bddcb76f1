"""Review 55 (revgui55 items 2, 7, 8, 13) on screen, with real widgets.

* #2: an imported target of 4,742.425531914893 IOPS reads "4,742 IOPS" in the Workloads form (exact when clicked).
* #7: the wizard's "today" block of an import without a load says there is nothing to compare, not a heading over
  an empty line.
* #8: the Performance tab of capacity-only workloads says they are capacity-only and how to give them a load, not
  "Add a workload assigned to ...".
* #13: the "Bad day" line of two imported workloads names each "for cluster-... (2 machines, measured)" (no brackets
  in brackets), says "SLO met in", and each line takes at most two lines of the results at 1366 x 768.
"""

from __future__ import annotations

import os
import re
from html import unescape
from pathlib import Path

from PySide6.QtCore import QSize

from app.cli import main
from app.gui.main_window import read_project

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
KUBE = SAMPLES / "rvtools" / "kubev2v-example1.xlsx"
AZURE = SAMPLES / "azure-migrate" / "AzureMigrate_Assessment_Core_Report.xlsx"
SHOTS = os.environ.get("STORPLAN_SHOTS")


def _imported(tmp_path: Path, source: Path) -> Path:
    out = tmp_path / f"{source.stem}.storplan"
    assert main(["import-env", str(source), "-o", str(out)]) == 0
    return out



def test_an_imported_target_reads_as_a_whole_rate(qtbot, us_locale):
    from app.gui.document import ProjectDocument
    from app.gui.workloads_panel import WorkloadsPanel
    from models.resources import examples_dir

    document = ProjectDocument(read_project(examples_dir() / "aff8080-sqlserver-tpce.toml"))
    panel = WorkloadsPanel(document)
    qtbot.addWidget(panel)
    panel.show()
    rate = 4742.425531914893  # the keyperf import's summed rate (review 55 #2)
    assert document.set_workload_field(panel.current_id(), "target_iops", rate) is None
    editor = panel.form.editors["target_iops"].spin
    assert editor.text() == f"{rate:,.0f} IOPS" == "4,742 IOPS"
    assert document.scenario.workloads[0].target_iops == rate  # only the showing is rounded
    assert document.set_workload_field(panel.current_id(), "target_iops", 0.42123) is None
    assert editor.text() == "0.42 IOPS"  # a trickle never reads 0


def test_capacity_only_workloads_say_so_on_the_performance_tab(qtbot, tmp_path):
    from app.gui.results.performance_view import CAPACITY_ONLY_MESSAGE, EMPTY_MESSAGE, PerformanceView
    from models.evaluate import evaluate
    from models.store import load_project_file

    loaded = load_project_file(_imported(tmp_path, KUBE))
    workloads = loaded.project.scenario.workloads
    assert len(workloads) == 2 and all(w.capacity_only and w.enabled for w in workloads)
    view = PerformanceView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluate(loaded.project, catalog=loaded.catalog))
    assert view.message.text().startswith(CAPACITY_ONLY_MESSAGE)
    assert "Add a workload" not in view.message.text() and "Apply preset" in view.message.text()
    empty = loaded.project.with_scenario(loaded.project.scenario.with_changes(workloads=[]))
    view.set_evaluation(evaluate(empty, catalog=loaded.catalog))
    assert view.message.text().startswith(EMPTY_MESSAGE)


def test_the_wizard_says_there_is_no_load_to_compare(window, qtbot, wizard_at_grouping):
    wizard = wizard_at_grouping(window, [KUBE])
    page = wizard.grouping_page
    index = page.installed.findData("netapp-aff-a400")
    assert index > 0
    page.installed.setCurrentIndex(index)
    qtbot.waitUntil(lambda: page.today.text().startswith("Your system today: NetApp AFF A400"), timeout=60_000)
    assert wizard.runner.wait(60)
    shown = page.today.text()
    assert "No measured load to compare: the files carry no I/O figures" in shown
    assert "Measured against predicted latency" not in shown
    wizard.reject()


def test_the_wizard_total_of_azure_says_provisioned_counted_as_used(window, qtbot, wizard_at_grouping):
    from models.importers.azure_migrate import read_azure_migrate

    total = sum(m.provisioned_bytes or 0 for m in read_azure_migrate(AZURE).machines)
    wizard = wizard_at_grouping(window, [AZURE])
    text = wizard.grouping_page.totals.text()
    assert f"{total / 2**40:,.2f} TiB provisioned, counted as used (the files give no used capacity)" in text, text
    assert "TiB used" not in text
    wizard.reject()


def test_the_bad_day_line_of_imported_workloads_fits_and_nests_no_brackets(qtbot, open_window, tmp_path):
    win = open_window(read_project(_imported(tmp_path, LIVE)))
    size = QSize(1366, 768)
    win.resize(size)
    qtbot.waitUntil(lambda: win.size() == size, timeout=3000)
    win.apply_default_layout()
    win.results.setCurrentIndex(1)
    view = win.results.currentWidget()
    qtbot.waitUntil(lambda: view.summary_model.rowCount() >= 2 and view.resilience_label.isVisible(),
                    timeout=30_000)
    qtbot.wait(300)
    names = [w.name for w in win.document.scenario.workloads]
    assert len(names) == 2 and all(n.endswith(" machines, measured)") for n in names)
    lines = view.resilience_label.text().split("<br>")
    bad = [unescape(re.sub(r"<[^>]+>", "", line)) for line in lines if line.startswith("<b>Bad day</b>")]
    assert [line.split(":", 1)[0] for line in bad] == [f"Bad day for {n}" for n in names]
    metrics = view.resilience_label.fontMetrics()
    for line in bad:
        answer = line.split("):", 1)[1]
        assert answer.lstrip().startswith("SLO met in ") or "SLO missed in " in answer, line
        assert "yes" not in answer and "((" not in line
        # at most two lines of the 1366-wide results each (the old words took as many)
        assert metrics.horizontalAdvance(line) <= 2 * view.resilience_label.width() - metrics.averageCharWidth() * 12, (
            line, view.resilience_label.width())
    if SHOTS:
        win.grab().save(str(Path(SHOTS) / "review55_bad_day_1366.png"))
        view.resilience_label.grab().save(str(Path(SHOTS) / "review55_bad_day_label_1366.png"))
