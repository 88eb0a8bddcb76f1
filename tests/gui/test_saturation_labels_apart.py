"""Two workloads on one system each get a "saturation" label beside their saturation line: the two labels never lie
over each other (the AFF A800 with a TPC-E-like workload added: "saturation 1.51M" and "saturation 1.17M" overlapped
at 1366 x 768, the placement having counted the first label where it stood before it moved; on the AFF8080 both
workloads saturate at 28K and the two labels lay on each other at 1920 x 1080). Both read whole, inside the chart."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF


@pytest.mark.parametrize(("example", "size"), [("a800-oracle-slob-fcp.toml", (1366, 768)),
                                                ("aff8080-sqlserver-tpce.toml", (1920, 1080))])
def test_two_saturation_labels_do_not_overlap(two_workload_chart, example, size) -> None:
    win, view = two_workload_chart(example, *size)
    labels = [line.label for line in view._saturation_lines.values()]
    assert len(labels) == 2 and all(label.isVisible() for label in labels)
    view.grab()  # painted: each label's anchor applied, so its rect is where it is drawn
    rects = [label.sceneBoundingRect() for label in labels]
    assert all(r.width() > 0 and r.height() > 0 for r in rects)
    assert not rects[0].intersects(rects[1]), rects
    box = view.plot.getViewBox().sceneBoundingRect().adjusted(-1, -1, 1, 1)
    assert all(box.contains(QRectF(r)) for r in rects), (rects, box)  # whole, inside the chart
    assert all(label.toPlainText().startswith("saturation ") for label in labels)
