"""The Capacity tab's sentences beside the waterfall are never clipped (REVIEW43 finding 3): at a laptop's results
dock (1366x768: the Capacity page about 1080 x 300 px) the capacity-band sentences lost their last lines, and on
the NFS example their first line was cut through under the red verdict. Each label now gets the height its text
needs at its width; the column beside the waterfall scrolls on its own when the dock is too short, so the page
(and with it every other tab: a QTabWidget is as tall as its tallest page) still fits a laptop's dock."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QScrollArea

from app.gui.results import CapacityView
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit


@pytest.mark.parametrize("example", ["aff8080-nfs-file-services.toml", "aff-a90-oracle-nvmefc64.toml"])
def test_the_verdict_and_band_sentences_are_whole_at_a_laptops_dock(qtbot, example):
    evaluation = evaluate(load_any(examples_dir() / example))
    view = CapacityView()
    area = QScrollArea()  # the results dock scrolls its page when the page's minimum height is more than it has
    area.setWidgetResizable(True)
    area.setWidget(view)
    qtbot.addWidget(area)
    area.resize(1080, 300)
    area.show()
    view.set_evaluation(evaluation, CapacityUnit.TIB)
    verdict, band = view.verdict_label, view.band_label
    qtbot.waitUntil(lambda: band.isVisible() and verdict.isVisible(), timeout=3_000)
    qtbot.wait(50)  # the layout settles
    assert band.heightForWidth(band.width()) > 3 * band.fontMetrics().height()  # several lines: the clipped case
    for label in (verdict, band):
        needed = label.heightForWidth(label.width())
        assert label.height() >= needed, (label.objectName(), label.height(), needed)
    # one under the other, never overlapping
    top_of_band = band.mapTo(view, band.rect().topLeft()).y()
    bottom_of_verdict = verdict.mapTo(view, verdict.rect().bottomLeft()).y()
    assert bottom_of_verdict < top_of_band
    # the page's minimum height (the results dock's, for every tab) does not grow with the sentences: their height
    # stays inside the column's own scroll area
    readings = []  # settled: the same minimum height twice in a row (the header's first relayout may change it)
    while len(readings) < 20 and (len(readings) < 2 or readings[-1] != readings[-2]):
        qtbot.wait(25)
        readings.append(view.minimumSizeHint().height())
    page_minimum = readings[-1]
    band.setText(" ".join([band.text()] * 4))
    qtbot.wait(20)
    assert view.minimumSizeHint().height() == page_minimum
    band.setText(band.text()[: len(band.text()) // 4])
    # the table keeps at least its header and a row
    table = view.table
    assert table.height() >= table.horizontalHeader().height() + table.verticalHeader().defaultSectionSize()
