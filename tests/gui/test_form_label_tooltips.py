"""A form's label never shows the field's code name as its tooltip (REVIEW43 finding 2): hovering "Model:" in the
Inspector showed ``catalog_id``, "Electricity price source:" on the Cost tab ``electricity_price_source``. A label
with a model description shows it; a ``*_source`` field says what it is for; an abbreviation is spelled out; any
other label has no tooltip."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QLabel

from app.gui.document import ProjectDocument
from app.gui.inspector import Inspector
from app.gui.labels import ABBREVIATIONS
from app.gui.main_window import read_project
from models.resources import examples_dir

CODE_NAME = re.compile(r"[a-z][a-z0-9_]*")
"""A tooltip that is nothing but a field's code name (``catalog_id``, ``customer``); a description may quote an
ONTAP option such as ``raid.reconstruct.perf_impact``."""


def _label_tips(widget) -> dict[str, str]:
    """Each visible form label's text (without its colon) -> its tooltip."""
    return {label.text().rstrip(":"): label.toolTip() for label in widget.findChildren(QLabel)
            if label.text().endswith(":") and label.isVisibleTo(widget)}


def test_the_inspectors_labels_never_show_code_names(qtbot):
    project = read_project(examples_dir() / "aff8080-nfs-file-services.toml")
    inspector = Inspector(ProjectDocument(project))
    qtbot.addWidget(inspector)
    inspector.resize(400, 700)
    inspector.show()
    seen: dict[str, str] = {}
    nodes = inspector.document.scenario.nodes
    assert {n.kind for n in nodes} >= {"host", "switch", "controller", "shelf"}
    for node in nodes:
        inspector.show_selection([node.id], [])
        assert inspector.form is not None
        tips = _label_tips(inspector.form)
        for text, tip in tips.items():
            assert not CODE_NAME.fullmatch(tip), (node.kind, text, tip)
        seen.update(tips)
    inspector.show_target("project", "")  # nothing selected: the project's information and settings
    tips = {label.text().rstrip(":"): label.toolTip() for label in inspector.findChildren(QLabel)
            if label.text() in ("Customer:", "Default SLO:", "Capacity unit:", "Paper:", "Curve points:")}
    for text, tip in tips.items():
        assert not CODE_NAME.fullmatch(tip), ("project", text, tip)
    seen.update(tips)
    assert {"Model", "ADP", "RAID type", "Drive count", "Default SLO", "Customer"} <= set(seen), sorted(seen)
    assert seen["Model"] == "" and seen["Drive count"] == ""  # nothing to explain: no tooltip
    assert seen["ADP"] == f"ADP: {ABBREVIATIONS['ADP']}" and "Advanced Drive Partitioning" in seen["ADP"]
    assert seen["Default SLO"].startswith("SLO: service-level objective")


def test_the_cost_tabs_source_fields_say_what_they_are_for(qtbot, example_window):
    results = example_window.results
    results.setCurrentWidget(results.cost_tab)
    view = results.cost_view
    assert view is not None
    tips = {label.text().rstrip(":"): label.toolTip() for label in view.form.findChildren(QLabel)}
    sources = {text: tip for text, tip in tips.items() if text.endswith("source")}
    assert len(sources) == 5, sources  # electricity price, PUE, grid carbon, rack unit cost, support
    for text, tip in sources.items():
        assert not CODE_NAME.fullmatch(tip) and "_source" not in tip, (text, tip)
        assert "comes from" in tip and "report" in tip, (text, tip)
    assert tips["PUE"].startswith("power usage effectiveness")  # the model's own description is kept
