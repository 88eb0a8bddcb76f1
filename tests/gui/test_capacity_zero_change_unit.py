"""A waterfall step that changes nothing reads "0 TiB" (or "0 TB"), with the unit every other bar's label has, on
the chart and in the table's Change column (REVIEW43 finding 13: the AFF A90 example's Right-sized, Compression,
Compaction and Deduplication bars read a bare "0" beside "−13.97 TiB")."""

from __future__ import annotations

import pytest

from app.gui.results import CapacityView
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit


@pytest.mark.parametrize("unit", [CapacityUnit.TIB, CapacityUnit.TB])
def test_a_step_of_no_change_reads_zero_with_the_unit(qtbot, unit):
    view = CapacityView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluate(load_any(examples_dir() / "aff-a90-oracle-nvmefc64.toml")), unit)
    bars = view.bars
    zero = [i for i, bar in enumerate(bars) if bar.kind != "total" and bar.change == 0]
    assert zero  # the example has steps that change nothing (data reduction 1:1, drives at their right size)
    change = view.COLUMNS.index("Change")
    labels = [item.toPlainText() for item in view._value_labels]
    assert len(labels) == len(bars)
    for i in zero:
        assert view.model.item(i, change).text() == f"0 {unit.value}"
        assert labels[i] == f"0 {unit.value}"
    steps = [labels[i] for i, bar in enumerate(bars) if bar.kind != "total"]
    assert all(text.endswith(f" {unit.value}") for text in steps), steps  # every bar's label has the unit
