"""The report paginates any size: a generated 1,000-node project (host groups on switches, HA pairs with their
shelves, many workloads) renders, opens with pypdf, shows the topology as a grouped overview and orders its
bill of materials by model with quantities.

This module must not import PySide6: the report runs without a display.
"""

from __future__ import annotations

import io
import math

from pypdf import PdfReader
from scale_project import CELLS_PER_SWITCH, large_project

from app.report import render_report_bytes
from models.catalog import bundled_catalog
from models.present import bill_of_materials

WORKLOADS = 60
"""Enough workloads that the summary's verdict (two lines per workload) runs over a page."""


def _squash(text: str) -> str:
    return " ".join(text.split())


def test_a_1000_node_project_renders_with_bom_quantities():
    project = large_project(1000, WORKLOADS)
    scenario = project.scenario
    assert len(scenario.nodes) >= 1000
    cells = sum(1 for n in scenario.nodes if n.kind == "controller")
    data = render_report_bytes(project, validation=[])
    reader = PdfReader(io.BytesIO(data))
    text = _squash("\n".join(page.extract_text() or "" for page in reader.pages))
    assert f"Page {len(reader.pages)} of {len(reader.pages)}" in text
    assert "Topology" in text and "An overview" in text
    assert f"{cells:,} × NetApp AFF8080A EX HA" in text  # one box for all HA pairs, with its count

    # Quantities, counted independently of the bill-of-materials code: 4 servers x 2 HBAs, 2 shelves of 24 SSD
    # per HA pair, one switch per CELLS_PER_SWITCH pairs; link ports 4 (hosts), 2 (targets), 2 x 4 SAS per cell.
    expected = {"Hosts": 4 * cells, "Host adapters": 8 * cells, "Controller system": cells, "Shelf": 2 * cells,
                "Drives": 48 * cells, "Switch": math.ceil(cells / CELLS_PER_SWITCH)}
    rows = bill_of_materials(scenario, bundled_catalog(), project.settings.capacity_unit)
    assert {r.category: r.quantity for r in rows if r.category in expected} == expected
    assert sorted(r.quantity for r in rows if r.category == "Link ports") == sorted([4 * cells, 2 * cells, 8 * cells])
    assert len(rows) == 9  # grouped by model: not one row per node
    for row in rows:
        assert _squash(f"{row.category} {row.used_by_text()} {row.quantity:,} {row.model}") in text, row
    verdicts = sum(text.count(mark) for mark in ("✓", "✗"))
    assert verdicts >= 2 * WORKLOADS  # the long verdict split over pages instead of failing
