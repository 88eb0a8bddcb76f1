"""An import of Live Optics machines (capacity measured) with ONTAP volumes (performance counters only: no capacity)
meets its requirements on the machines' data only. The PDF, the workbook and the Capacity tab say so with a caution;
the main window's status bar said a plain "met". Its verdict now reads "met, capacity partly not measured" and its
tooltip carries the whole caution (``partly_unmeasured_caution``); an import whose every workload's capacity is
measured keeps a plain "met"."""

from __future__ import annotations

from pathlib import Path

from app.cli import main
from app.gui.main_window import ASSUMED_COLOR
from models.present.summary import PARTLY_UNMEASURED_STATUS, UNMEASURED_STATUS
from models.present.verdicts import partly_unmeasured_caution
from models.project.model import capacity_partly_unmeasured
from models.store import load_project_file

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
KEYPERF = [SAMPLES / "ontap" / f"harvest-keyperf-volume-poll-{n}.json" for n in (1, 2)]


def _verdict(open_window, qtbot, files, path):
    assert main(["import-env", *map(str, files), "-o", str(path)]) == 0
    project = load_project_file(path).project
    win = open_window(project)
    win.resize(1366, 768)
    win.apply_default_layout()
    label = win.status_labels["verdict"]
    qtbot.waitUntil(lambda: "Requirements:" in label.text(), timeout=20_000)
    return project, win, label


def test_the_status_bar_says_the_capacity_is_partly_not_measured(open_window, qtbot, tmp_path) -> None:
    project, win, label = _verdict(open_window, qtbot, [LIVE, *KEYPERF], tmp_path / "mix.storplan")
    caution = partly_unmeasured_caution(capacity_partly_unmeasured(project.scenario.workloads))
    assert caution is not None and "svm-" in caution.text  # the premise: the ONTAP volumes' workload
    assert PARTLY_UNMEASURED_STATUS == "met, capacity partly not measured"
    assert f"Requirements: <b>{_amber(PARTLY_UNMEASURED_STATUS)}</b>" in label.text()  # a caution's colour
    tip = label.toolTip()
    assert PARTLY_UNMEASURED_STATUS in tip
    assert caution.text.replace("(", "").replace(")", "") in tip.replace("(", "").replace(")", "")  # the sentence
    # the whole status bar shows it at 1366 x 768: the label inside the bar, not cut off
    bar = win.statusBar()
    qtbot.waitUntil(label.isVisible, timeout=5_000)
    assert label.geometry().right() <= bar.width()
    assert label.width() >= label.sizeHint().width()


def test_an_import_whose_capacity_is_all_measured_says_plainly_met(open_window, qtbot, tmp_path) -> None:
    project, _win, label = _verdict(open_window, qtbot, [LIVE], tmp_path / "live.storplan")
    assert capacity_partly_unmeasured(project.scenario.workloads) == []
    assert "Requirements: <b>met</b>" in label.text() and "partly" not in label.toolTip()
    assert ASSUMED_COLOR not in label.text()  # a plain met in the status bar's own colour


def test_the_status_bar_says_an_unmeasured_capacity_in_amber(open_window, qtbot, tmp_path) -> None:
    """Review 56 (gui56, left over): "met, capacity not measured" (ONTAP counters alone, no capacity: 0 bytes fit
    anywhere) and "met, capacity partly not measured" were plain bold, like a plain "met"; they are cautions, so
    they read in the app's caution amber (the colour of figures on an assumed profile, the result views' WARNING;
    red stays for a miss)."""
    _project, _win, label = _verdict(open_window, qtbot, KEYPERF, tmp_path / "ontap.storplan")
    qtbot.waitUntil(lambda: UNMEASURED_STATUS in label.text(), timeout=20_000)
    assert f"Requirements: <b>{_amber(UNMEASURED_STATUS)}</b>" in label.text()
    assert "#d64545" not in label.text()


def _amber(text: str) -> str:
    from app.gui.results._common import WARNING

    assert ASSUMED_COLOR == WARNING == "#E69F00"  # one caution colour: the status bar's and the result views'
    return f"<span style='color:{ASSUMED_COLOR}'>{text}</span>"
