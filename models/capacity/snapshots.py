"""Snapshot copies kept by a schedule (one job: the count both the efficiency step and FabricPool's snapshot-only
tiering read, in a module neither of them owns so that they do not import each other)."""

from __future__ import annotations

import math


def snapshot_copies(interval_h: float, retention_h: float) -> int:
    """Snapshot copies kept: floor(retention / interval) (24 h kept, every 2 h -> 12); 0 for a non-positive
    interval. Args in hours. Never raises."""
    if interval_h <= 0:
        return 0
    return int(math.floor(retention_h / interval_h + 1e-9))
