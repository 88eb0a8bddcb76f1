"""The screen's runway chart draws the DR copy's line, labelled in the legend, and its caption gives the DR copy's
months until full, as the report does."""

from __future__ import annotations

from models.evaluate import evaluate, evaluate_resilience, with_resilience
from models.present.dr_copy import dr_copies
from models.resources import examples_dir
from models.store import load_any


def test_the_runway_dialog_draws_and_labels_the_dr_copy(qtbot):
    from PySide6.QtWidgets import QLabel

    from app.gui.results.runway_chart import RunwayDialog

    project = load_any(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    result = evaluate(project)
    evaluation = with_resilience(result, evaluate_resilience(project, result))
    dialog = RunwayDialog(evaluation)
    qtbot.addWidget(dialog)
    name = "DR copy on Cloud Volumes ONTAP DR (Azure): used / usable"
    series = dict(dialog.series)
    runway = next(iter(dr_copies(evaluation.protection).values())).runway_months
    assert next(m for m, v in series[name] if v > 100.0) == runway == 18
    drawn = {item.name(): item for item in dialog.plot.listDataItems() if item.name()}
    assert name in drawn
    xs, ys = drawn[name].getData()
    assert ys[0] == series[name][0][1] and ys[int(runway)] > 100.0 > ys[int(runway) - 1]
    legend = [label.text for _, label in dialog.plot.plotItem.legend.items]
    assert name in legend
    caption = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert "Months until the DR copy on Cloud Volumes ONTAP DR (Azure) is full: 18 months" in caption
    assert "Months until full (the systems serving workloads):" in caption
