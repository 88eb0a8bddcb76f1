"""What the Inspector shows for a selected replication relationship: its header (the two systems, its kind, the
figures it gives now) and which of its fields the form leaves out."""

from __future__ import annotations

import math

from models.catalog import Catalog
from models.project.model import Scenario
from models.project.names import node_name
from models.project.replication import REPLICATION_KIND_LABELS, Replication
from models.replication.endpoints import endpoint_problem
from models.replication.figures import replication_figures

REPLICATION_EXCLUDE = {"id", "source", "target", "workloads", "change"}
"""Fields the form does not edit: the ends (drawn on the canvas) and the per-workload lists (the protected-workloads
table below the form: ``app.gui.replication_workloads``)."""


def replication_header(rep: Replication, scenario: Scenario, catalog: Catalog
                       ) -> tuple[str, str, str, list[tuple[str, str]]]:
    """(title, subtitle, tooltip, problems) for the Inspector: "A70 → CVO", "SnapMirror asynchronous · RPO 63 min
    of 90 required · baseline 17.8 h", the ids, and why the ends cannot replicate (an error) when they cannot.
    The figures are the relationship's arithmetic alone (``models.replication.figures``: no engine runs); the
    destination's capacity is in the results."""
    ends = [scenario.node(i) for i in (rep.source, rep.target)]
    names = [node_name(n, catalog) if n is not None else "(removed item)" for n in ends]
    title = f"{names[0]} → {names[1]}"
    parts = [REPLICATION_KIND_LABELS[rep.kind]]
    problems: list[tuple[str, str]] = []
    reason = endpoint_problem(scenario, catalog, rep.source, rep.target, rep.kind)
    if reason:
        problems.append(("error", reason[0].upper() + reason[1:]))
    else:
        f = replication_figures(scenario, rep)
        if rep.kind == "active-sync":
            parts.append(f"writes wait {rep.rtt_ms:g} ms more")
        elif math.isinf(f.rpo_achieved_minutes):
            parts.append("transfers fall behind")
        else:
            required = f" of {rep.rpo_minutes:g} required" if rep.rpo_minutes else ""
            parts.append(f"RPO {f.rpo_achieved_minutes:,.0f} min{required}")
        parts.append(f"baseline {f.baseline_seconds / 3600:,.1f} h")
        if f.rpo_met is False:
            problems.append(("warning", f.text))
        for c in f.workloads:
            if c.is_default:
                problems.append(("warning", f"{c.name}: change per day {c.bytes_per_day / 1e9:,.0f} GB is a "
                                            f"{c.basis}"))
    tooltip = f"Replication id: {rep.id}\nFrom {rep.source} to {rep.target}"
    return title, " · ".join(parts), tooltip, problems


__all__ = ["REPLICATION_EXCLUDE", "replication_header"]
