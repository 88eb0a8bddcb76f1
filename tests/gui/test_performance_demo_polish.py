"""Performance tab defects a presales engineer hit in a live demo: the saturation label sat over the
curves; the verdict lines were built twice per results update."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QApplication

EXAMPLES = ("aff-a70-ns224-oracle-nvmetcp", "aff8080-nfs-file-services")
SIZES = ((1366, 768), (1920, 1080))


def _performance_view(qtbot, win):
    """The window's Performance tab, with its failure states drawn (they are computed once the tab shows)."""
    win.results.setCurrentIndex(1)
    view = win.results.performance_view
    qtbot.waitUntil(lambda: view._resilience() is not None and bool(view._saturation_lines), timeout=20_000)
    QApplication.processEvents()
    return view


def _drawn_points(view, item) -> list[QPointF]:
    """A drawn line's points in scene coordinates, one every pixel or so along each segment (found here from the
    item's data and the view's mapping, not from the placement code's stroked paths)."""
    vb = view.plot.getViewBox()
    xs, ys = item.getData()
    if xs is None or len(xs) < 2:
        return []
    scene = [vb.mapViewToScene(QPointF(float(x), float(y))) for x, y in zip(xs, ys)]
    out = []
    for a, b in zip(scene, scene[1:]):
        steps = max(1, int(max(abs(b.x() - a.x()), abs(b.y() - a.y()))))
        out += [a + (b - a) * (k / steps) for k in range(steps + 1)]
    return out


def _covered(view, rect: QRectF) -> list[str]:
    """The names of the drawn lines and markers with a point inside ``rect``."""
    vb = view.plot.getViewBox()
    inside = rect.adjusted(1, 1, -1, -1)
    names = []
    for item in view.plot.listDataItems():
        if not item.isVisible():
            continue  # the band's hidden edges
        xs, ys = item.getData()
        if item.opts.get("pen") is not None and any(inside.contains(p) for p in _drawn_points(view, item)):
            names.append(item.name() or "line")
        if item.opts.get("symbol") is not None and xs is not None:
            half = item.opts.get("symbolSize", 10) / 2
            for x, y in zip(xs, ys):
                centre = vb.mapViewToScene(QPointF(float(x), float(y)))
                if inside.intersects(QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half)):
                    names.append(f"marker {item.opts.get('symbol')}")
    return names


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_saturation_label_covers_no_curve_nor_marker(qtbot, sized_example, example):
    """At a laptop's 1366 x 768 and at 1920 x 1080 the label of the saturation line lies inside the chart, covers
    no curve (normal, p99, failure states, open model) and no marker, and sits beside its line (at most a label's
    width away). It sat at the bottom left of the line, over the flat part of the curves."""
    win = sized_example(f"{example}.toml", *SIZES[0])
    view = _performance_view(qtbot, win)
    for width, height in SIZES:
        if (width, height) != SIZES[0]:
            win.resize(width, height)
            qtbot.waitUntil(lambda size=(width, height): (win.width(), win.height()) == size, timeout=3000)
            win.apply_default_layout()
            QApplication.processEvents()
        vb = view.plot.getViewBox()
        assert len(view._state_items) >= 1  # the failure states' curves are drawn, and checked below
        for line in view._saturation_lines.values():
            rect = line.label.sceneBoundingRect()
            assert rect.width() > 20 and vb.sceneBoundingRect().contains(rect), (width, rect)
            assert _covered(view, rect) == [], (width, line.label.toPlainText())
            x = vb.mapViewToScene(QPointF(line.value(), 0)).x()
            assert min(abs(rect.left() - x), abs(rect.right() - x)) <= rect.width(), (width, rect, x)


def test_a_results_update_builds_the_verdicts_once(qtbot, example_window, monkeypatch):
    """Each results update found every workload's SLO miss and cautions twice (the screen's short verdicts, then
    the tooltip's whole ones, in two calls); now once."""
    import importlib

    verdicts = importlib.import_module("models.present.verdicts")  # the package exports a function of that name

    view = _performance_view(qtbot, example_window)
    evaluation = view._evaluation
    workloads = len(evaluation.performance.workloads)
    calls = []
    original = verdicts.workload_miss
    monkeypatch.setattr(verdicts, "workload_miss", lambda wp: calls.append(wp.workload_id) or original(wp))
    view.set_evaluation(evaluation)
    assert len(calls) == workloads >= 1, calls
    # the screen shows the short verdicts, the tooltip the whole ones: both from that one pass
    assert view.verdict_label.text() and view.verdict_label.toolTip()
    assert verdicts.workload_verdicts(evaluation.performance, compact=True) == \
        verdicts.workload_verdict_pair(evaluation.performance)[0]
