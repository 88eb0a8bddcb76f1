"""A replication relationship's label where a drawing shows it: the canvas's line and the report's topology figure
say the same words ("SnapMirror asynchronous · hourly"); the report adds the RPO the project requires."""

from __future__ import annotations

from models.project.replication import REPLICATION_KIND_LABELS, Replication

__all__ = ["relationship_label", "schedule_text", "topology_label"]


def schedule_text(rep: Replication) -> str:
    """``hourly``, ``every 15 min``, ``daily``, ``every 4 h``, ``synchronous`` (active sync): how often the
    relationship transfers (``rep.schedule_minutes``, minutes)."""
    if rep.kind == "active-sync":
        return "synchronous"
    minutes = rep.schedule_minutes
    if minutes == 60:
        return "hourly"
    if minutes == 1440:
        return "daily"
    return f"every {minutes:g} min" if minutes < 120 else f"every {minutes / 60:g} h"


def relationship_label(rep: Replication) -> str:
    """"<kind> · <schedule>": ``SnapMirror asynchronous · hourly`` (the canvas's label of the relationship)."""
    return f"{REPLICATION_KIND_LABELS[rep.kind]} · {schedule_text(rep)}"


def topology_label(rep: Replication) -> str:
    """:func:`relationship_label` with the recovery point objective required, when the project states one:
    ``SnapMirror asynchronous · hourly · RPO 90 min`` (``rep.rpo_minutes``; above 120 minutes in hours)."""
    if not rep.rpo_minutes:
        return relationship_label(rep)
    rpo = rep.rpo_minutes
    text = f"{rpo:g} min" if rpo < 120 else f"{rpo / 60:g} h"
    return f"{relationship_label(rep)} · RPO {text}"
