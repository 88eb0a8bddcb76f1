"""The Capacity tab's key figure "With Snapshot copies 278.74 TiB (10.94:1)" says on screen which ratio is in its
brackets, the total efficiency ratio (REVIEW43 finding 9: beside "Data reduction 1.65:1" the 10.94:1 explained
itself only in a tooltip), and the caption and figure are whole at a 1366x768 laptop's results page (about
1060 px wide), with the system selector of a design with a DR copy in the row too."""

from __future__ import annotations

import pytest

from app.gui.results import CapacityView
from models.evaluate import evaluate
from models.formatting import fmt_ratio
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit


@pytest.mark.parametrize("example", ["aff8080-nfs-file-services.toml", "aff-a70-snapmirror-cvo-dr.toml"])
def test_the_ratio_in_brackets_is_named_on_screen_and_not_clipped(qtbot, example):
    evaluation = evaluate(load_any(examples_dir() / example))
    view = CapacityView()
    qtbot.addWidget(view)
    view.resize(1060, 420)
    view.show()
    view.set_evaluation(evaluation, CapacityUnit.TIB)
    qtbot.wait(50)  # the layout settles
    kpi = view._kpis["with_snapshots"]
    assert "total efficiency" in kpi.caption.text().lower() and "Snapshot copies" in kpi.toolTip()
    system = evaluation.capacity.systems[0] if len(evaluation.capacity.systems) == 1 else evaluation.capacity.total
    assert kpi.value.text().endswith(f"({fmt_ratio(system.efficiency_ratio)})")  # the ratio the caption names
    for label in (kpi.caption, kpi.value):
        assert label.isVisible()
        assert label.width() >= label.fontMetrics().horizontalAdvance(label.text()), label.text()
        right = label.mapTo(view, label.rect().topRight()).x()
        assert right <= view.width(), (label.text(), right)
    months = view._kpis["months"]  # the next figure in the row starts after it
    assert months.mapTo(view, months.rect().topLeft()).x() >= kpi.mapTo(view, kpi.rect().topRight()).x()
