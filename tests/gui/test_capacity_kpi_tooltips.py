"""Every key figure over the Capacity tab says what it is when hovered (REVIEW43 finding 14): Raw and Usable had no
tooltip, beside Effective, Data reduction and With Snapshot copies, which had one."""

from __future__ import annotations

from app.gui.results import CapacityView
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit


def test_every_key_figure_has_a_tooltip(qtbot):
    view = CapacityView()
    qtbot.addWidget(view)
    view.set_evaluation(evaluate(load_any(examples_dir() / "aff8080-nfs-file-services.toml")), CapacityUnit.TIB)
    tips = {key: kpi.toolTip() for key, kpi in view._kpis.items()}
    assert set(tips) == {"raw", "usable", "effective", "reduction", "with_snapshots", "months"}
    assert all(len(tip) > 30 for tip in tips.values()), tips
    assert "marketed" in tips["raw"] and "first bar" in tips["raw"]
    assert "before data reduction" in tips["usable"] and "Usable bar" in tips["usable"]
    # the waterfall the tooltips point at has those bars
    labels = [bar.label for bar in view.bars]
    assert labels[0] == "Raw (marketed)" and "Usable" in labels
