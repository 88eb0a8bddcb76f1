"""The report's capacity requirement table agrees with its summary about a vSAN cluster that misses its required N+1
capacity: its Fits column says "No (N+1)" with a note that the data fits with every host up (the row's figures)
and the N+1 sentence, never "Yes" below a verdict box that names the miss (REVIEW45 #1 fixed the summary and the
Capacity tab; the table still read "Yes").

This module must not import PySide6: the report runs without a display.
"""

from __future__ import annotations

import io

from pypdf import PdfReader

from app.report import render_report_bytes
from models.evaluate import evaluate
from models.formatting import fmt_capacity
from models.resources import examples_dir
from models.store import load_any


def _capacity_table(name: str) -> tuple[str, object, object]:
    """The text of example ``name``'s report from the capacity requirement table's header to the next heading,
    with the project and its evaluation (every host up, and the failure states)."""
    project = load_any(examples_dir() / f"{name}.toml")
    data = render_report_bytes(project, validation=[])
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())
    start = text.index("Capacity requirement System")
    return text[start:text.index("Performance requirement", start)], project, evaluate(project, resilience=True)


def test_hybrid_cluster_missing_n_plus_one_does_not_fit():
    table, project, ev = _capacity_table("vsan8-osa-hybrid-4host-oltp")
    # the premise, from the evaluation: every host up the data fits; one host down it misses N+1 (required)
    (system,) = ev.capacity.systems
    missed = [c for c in ev.resilience.requirement_checks if c.requirement == "n_plus" and not c.subject]
    assert len(missed) == 1 and not missed[0].met
    assert system.physical_used_bytes < system.usable_bytes
    assert "Yes" not in table
    assert "No (N+1)*" in table
    unit = project.settings.capacity_unit
    used, usable = (fmt_capacity(b, unit, fixed=True) for b in (system.physical_used_bytes, system.usable_bytes))
    assert (f"* {system.system_label}: the data fits with every host up ({used} of {usable} usable, the row's "
            f"figures); {missed[0].text}.") in table


def test_clusters_that_hold_n_plus_one_still_fit():
    for name in ("vsan8-esa-6host-sqlserver-oltp", "vsan-sqlserver-raid1"):
        table, _, ev = _capacity_table(name)
        assert all(c.met for c in ev.resilience.requirement_checks if c.requirement == "n_plus")
        assert " Yes " in table and "N+1" not in table, name
