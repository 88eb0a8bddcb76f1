"""Whose figure a workload's "node N IOPS bound" is, in words (REVIEW44 #6): the station is a rate cap on a
controller's block operations (``models.performance.hardware_relation.iops_ceiling``: its own published "up to" figure,
or its family's published rate per core times its own cores), split over the nodes, so "node 1 IOPS bound" alone reads
as a per-node figure of the system's own. The path builder notes the cap as "<system>: at most <N> block operations per
second, <whose bound it is>" (``models.performance.paths``); this module turns that note into the words the summary
sentences, the CLI and the report print beside the bottleneck."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from models.formatting import fmt_iops

if TYPE_CHECKING:
    from models.performance.results import WorkloadPerformance

__all__ = ["iops_bound_words"]

_CAP_NOTE = re.compile(r"^(?P<system>.+?): at most (?P<iops>[\d,]+) block operations per second, (?P<whose>.+)$")
"""The path's note of an IOPS cap: the system it caps, the cap in operations per second, whose bound it is."""


def iops_bound_words(wp: WorkloadPerformance) -> str:
    """``bound at 2.40M IOPS per HA pair: the NetApp AFF A90 HA pair's bound from NetApp's published 'up to'
    figure, which ...`` when ``wp``'s (a ``WorkloadPerformance``) bottleneck is an IOPS bound station (role
    "iops_bound") and its path notes the cap; the cap is for the whole system the note names ("per HA pair" for an
    HA pair, else "for the <system>"), not per node. "" otherwise."""
    station = next((s for s in wp.stations if s.name == wp.bottleneck), None)
    if station is None or station.ident.role != "iops_bound":
        return ""
    found = [m for m in (_CAP_NOTE.match(note) for note in wp.notes) if m is not None]
    if not found:
        return ""
    cap = found[-1]
    system = cap["system"]
    where = "per HA pair" if system.endswith("HA pair") else f"for the {system}"
    return f"bound at {fmt_iops(float(cap['iops'].replace(',', '')))} IOPS {where}: {cap['whose']}"
