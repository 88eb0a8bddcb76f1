"""The Capacity tab's step tooltip gives a step's formula as the report does, its operands with the decimals the
product needs to read as the step's result (REVIEW43-PDF #15: "24 x 3.49 TiB" beside 83.81 TiB)."""

from __future__ import annotations

import re

import pytest

from app.gui.results import CapacityView
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit


@pytest.mark.parametrize("unit", [CapacityUnit.TIB, CapacityUnit.TB])
def test_the_right_sized_steps_formula_multiplies_to_its_after(qtbot, unit):
    view = CapacityView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluate(load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")), unit)
    row = next(i for i, bar in enumerate(view.bars) if bar.label == "Right-sized")
    bar = view.bars[row]
    tip = view.model.item(row, 0).toolTip()
    operand = re.search(rf"<b>Formula:</b> 24 x (\d\.\d+) {unit.value}", tip)
    assert operand, tip
    after = f"{bar.after / unit.large_bytes:.2f}"
    assert f"{24 * float(operand.group(1)):.2f}" == after  # 24 x 3.49 = 83.76 read 83.81 before
    assert len(operand.group(1).partition(".")[2]) > 2
