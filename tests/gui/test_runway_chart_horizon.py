"""The screen's runway chart reaches the AFF A70 example's events (full at 96 months, SLO breach and saturation at
103): its x axis and lines run to 108 months, not 60 (REVIEW45 #5)."""

from __future__ import annotations

from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any


def test_the_runway_dialog_draws_past_the_latest_event(qtbot):
    from app.gui.results.runway_chart import RunwayDialog

    project = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    evaluation = evaluate(project, resilience=True)
    res = evaluation.resilience
    latest = max(m for m in (res.months_until_full, res.months_until_slo_breach, res.months_until_saturation)
                 if m is not None)
    dialog = RunwayDialog(evaluation)
    qtbot.addWidget(dialog)
    assert latest > 60 and dialog.months >= latest
    (low, high), _ = dialog.plot.getViewBox().viewRange()
    assert high >= latest
    for item in dialog.plot.listDataItems():
        xs, _ys = item.getData()
        assert xs[-1] == dialog.months
