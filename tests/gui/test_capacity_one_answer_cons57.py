"""The Capacity and Performance tabs give the answers every export gives (review cons57): the DR example's "Months
until full" key figure names the DR copy in full (its caption was cut to "Months until full: DR copy on Cloud …")
and shows the JSON's first_to_fill; the Performance tab's runway line says both the serving systems' 128 months and
the DR copy's 18 (it said only 128); and the logical data incl. Snapshot copies, under its one name, is greyed in
the waterfall where the design misses its capacity (the bar read as a 278.74 TiB capacity beside "full in 8.8
months"), as the key figure is hidden."""

from __future__ import annotations

import json

from app import cli
from app.gui.results import CapacityView
from app.gui.results._common import muted_color
from models.evaluate import evaluate
from models.formatting import fmt_months
from models.present.logical_data import LOGICAL_DATA_WITH_SNAPSHOTS
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit

DR = "aff-a70-snapmirror-cvo-dr"


def _json(capsys, example: str) -> dict:
    assert cli.main(["evaluate", example, "--json"]) in (0, 1)
    return json.loads(capsys.readouterr().out)


def _view(qtbot, example: str) -> CapacityView:
    view = CapacityView()
    qtbot.addWidget(view)
    view.resize(1060, 520)
    view.show()
    view.set_evaluation(evaluate(load_any(examples_dir() / f"{example}.toml")), CapacityUnit.TIB)
    qtbot.wait(50)  # the layout settles
    return view


def test_the_months_caption_names_the_dr_copy_whole(qtbot, capsys):
    first = _json(capsys, DR)["runway"]["first_to_fill"]
    view = _view(qtbot, DR)
    months = view._kpis["months"]
    assert months.value.text() == fmt_months(first["months_until_full"]) == "18 months"
    caption = months.caption.text()
    assert "\u2026" not in caption and first["system_label"] in caption  # never cut
    assert caption.replace("\n", " ") == f"Months until full: DR copy on {first['system_label']}"
    for line in caption.split("\n"):  # each line drawn whole
        assert months.caption.width() >= months.caption.fontMetrics().horizontalAdvance(line), line
    assert "128 months" in months.toolTip()  # the serving systems' months beside it


def test_the_performance_runway_line_names_the_dr_copy(qtbot, capsys, sized_example):
    runway = _json(capsys, DR)["runway"]
    win = sized_example(f"{DR}.toml", 1366, 768)
    win.results.setCurrentIndex(1)
    view = win.results.performance_view
    qtbot.waitUntil(lambda: "Runway" in view.resilience_label.text(), timeout=20_000)
    text = view.resilience_label.text()
    (copy,) = runway["dr_copies"]
    assert f"full (systems serving workloads): {fmt_months(runway['months_until_full'])}" in text
    assert f"DR copy on {copy['system_label']} full: {fmt_months(copy['months_until_full'])}" in text
    assert "DR copy on Cloud Volumes ONTAP DR (Azure) full: 18 months" in text
    tip = view.resilience_label.toolTip()
    assert "months until the DR copy on Cloud Volumes ONTAP DR (Azure) is full: 18 months" in tip
    assert (f"in takeover at the growing target (required): "
            f"{fmt_months(runway['months_until_slo_breach_in_takeover'])}") in tip


def test_logical_data_greyed_where_capacity_is_missed(qtbot, capsys):
    missed = _json(capsys, "aff8080-nfs-file-services")
    view = _view(qtbot, "aff8080-nfs-file-services")
    assert not view._kpis["with_snapshots"].isVisible()
    last = len(view.bars) - 1
    assert view.bars[last].label == LOGICAL_DATA_WITH_SNAPSHOTS and view.bar_greyed(last)
    assert view.bars[last].after == missed["capacity"]["effective_with_snapshots_bytes"]
    row = [view.model.item(last, c) for c in range(3)]
    assert row[0].text() == LOGICAL_DATA_WITH_SNAPSHOTS and row[2].text() == "278.74 TiB"
    assert all(not item.font().bold() and item.foreground().color() == muted_color(view) for item in row)
    assert view.bar_tooltip(last).startswith("<i>Not capacity to sell or to fill")
    assert view._bar_item.opts["brushes"][last].color() == muted_color(view)  # the chart's bar, not a total's
    label = view._value_labels[last]
    assert label.textItem.toPlainText() == "278.74 TiB" and not label.textItem.font().bold()
    met = _view(qtbot, "aff8080-sqlserver-tpce")  # capacity met: shown, and its bar a total
    last = len(met.bars) - 1
    assert met._kpis["with_snapshots"].isVisible() and met.bars[last].label == LOGICAL_DATA_WITH_SNAPSHOTS
    assert not met.bar_greyed(last) and met.model.item(last, 0).font().bold()
    assert met._kpis["with_snapshots"].caption.text() == LOGICAL_DATA_WITH_SNAPSHOTS
