"""The sizer's results as a customer reads them: a chart with a legend, rank labels at their own points and axis
titles with units; a table of distinct platform designs whose drive variants are listed in the configuration's
tooltip; names, never catalog ids, in every cell and chart label."""

from __future__ import annotations

import re

import pytest


@pytest.fixture
def sized(qtbot, example_window):
    """The sizer dialog of the example window after a finished search."""
    dialog = example_window.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    assert dialog.result.candidates
    return dialog


def _cells(dialog) -> list[str]:
    """Every table cell's text and tooltip."""
    out = []
    for r in range(dialog.table.rowCount()):
        for k in range(dialog.table.columnCount()):
            item = dialog.table.item(r, k)
            if item is not None:
                out += [item.text(), item.toolTip()]
    return out


def test_the_chart_has_a_legend_rank_labels_at_their_points_and_axis_titles_with_units(sized):
    dialog = sized
    result = dialog.result
    labels = [label.text for _sample, label in dialog.legend.items]
    assert labels == ["Designs that meet", "Pareto front", "Ranked (number: rank)"]
    plot = dialog.chart.getPlotItem()
    assert plot.getAxis("bottom").labelText == "Rack units (U)"
    # the long title where the axis is as tall as it, else the short one (REVIEW54 #18), whole either way
    assert plot.getAxis("left").labelText in ("Headroom over the grown targets (%)", "Headroom (%)")
    assert plot.getAxis("left").label.boundingRect().width() <= plot.getAxis("left").height()
    positions = [(label.pos().x(), label.pos().y()) for label in dialog.rank_labels]
    assert len(positions) == len(set(positions))  # one label per point, never stacked on one spot
    shown = sorted(int(r) for label in dialog.rank_labels for r in label.toPlainText().split(", "))
    assert shown == list(range(1, len(result.candidates) + 1))
    for label in dialog.rank_labels:
        for rank in label.toPlainText().split(", "):
            c = result.candidates[int(rank) - 1]
            assert (label.pos().x(), label.pos().y()) == pytest.approx((float(c.rack_units), c.headroom_pct))
    assert len(positions) > 1


def test_the_table_shows_distinct_platform_designs_with_their_drive_variants(sized):
    from models.sizing import platform_key

    dialog = sized
    result = dialog.result
    keys = [platform_key(c) for c in result.candidates]
    assert len(keys) == len(set(keys))
    configs = [dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())]
    assert len(configs) == len(set(configs))
    assert dialog.table.wordWrap()
    with_alternatives = [r for r, c in enumerate(result.candidates) if c.alternatives]
    assert with_alternatives
    for r in with_alternatives:
        import html

        tip = html.unescape(dialog.table.item(r, 1).toolTip())  # a plain-text tooltip is escaped rich text
        assert "Also meets with:" in tip
        from app.gui.sizer_dialog import TOOLTIP_ALTERNATIVES

        _lists_whole_lines(tip, result.candidates[r].alternatives, TOOLTIP_ALTERNATIVES)


def _lists_whole_lines(tip: str, alternatives, most: int) -> None:
    """The tooltip lists the first alternatives, each on a whole line (a shelf-added layout's words are long: as
    many as fit the tooltip's length, at most ``most``), and counts the others."""
    listed = [a for a in alternatives if f"  {a.variant}: effective" in tip]
    assert listed and listed == list(alternatives[:len(listed)]) and len(listed) <= most
    more = len(alternatives) - len(listed)
    assert (f"and {more} more variant" in tip) == (more > 0)
    assert "more characters)" not in tip  # never cut at the tooltip's length (plain_text.shorten)


def test_no_catalog_id_in_any_table_cell_or_chart_label(sized):
    from models.evaluate import project_catalog

    dialog = sized
    catalog = project_catalog(dialog._document.project)
    ids = [e.id for e in catalog if "-" in e.id]
    texts = _cells(dialog) + [label.toPlainText() for label in dialog.rank_labels]
    texts += [label.text for _sample, label in dialog.legend.items]
    plot = dialog.chart.getPlotItem()
    texts += [plot.getAxis(a).labelText for a in ("left", "bottom")]
    assert texts
    for text in texts:
        for rid in ids:
            assert not re.search(rf"(?<![\w.-]){re.escape(rid)}(?![\w.-])", text), (rid, text)
    deployment = [dialog.table.item(r, 2).text() for r in range(dialog.table.rowCount())]
    assert "on-prem" not in deployment and set(deployment) <= {"On-premises", "HCI (vSAN)", "Cloud"}


def test_an_absurd_target_is_named_in_the_dialogs_message(qtbot, example_window):
    """A workload target of 1e15 IOPS: the search finds nothing, and the dialog says the target is beyond every
    design (with the fastest design's bound) rather than only listing failing designs."""
    doc = example_window.document
    scenario = doc.project.scenario
    workloads = [w.model_copy(update={"target_iops": 1e15}) for w in scenario.workloads]
    doc.push(doc.project.with_scenario(scenario.model_copy(update={"workloads": workloads})), "absurd target")
    dialog = example_window.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    assert dialog.result.candidates == ()
    text = dialog.message.text()
    assert "None meets them" in text and "beyond every design" in text and "1,000,000,000,000,000 IOPS" in text


def test_a_short_chart_keeps_its_y_axis_title_whole(qtbot, sized):
    """REVIEW54 #18: on an 800 px screen the chart's y-axis title was cut to "eadroom…": where the axis is shorter
    than the long title the short one ("Headroom (%)") is shown whole, the long words in the axis' tooltip; tall
    again, the long title is back."""
    from app.gui.sizer_dialog import HEADROOM_AXIS, HEADROOM_AXIS_SHORT

    dialog = sized
    axis = dialog.chart.getPlotItem().getAxis("left")
    for height, title in ((260, HEADROOM_AXIS_SHORT), (700, HEADROOM_AXIS)):
        dialog.chart.setFixedHeight(height)
        qtbot.waitUntil(lambda title=title: axis.labelText == title, timeout=3000)
        qtbot.wait(50)
        assert axis.label.boundingRect().width() <= axis.height(), (title, axis.height())
    assert axis.toolTip() == HEADROOM_AXIS
