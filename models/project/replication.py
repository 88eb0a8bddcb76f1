"""Replication relationships of a scenario: SnapMirror asynchronous, SnapVault and SnapMirror active sync between
two storage systems, with the workloads they protect and the network between the sites.

The records only say what the user drew and typed; ``models.replication`` computes what it means (transfer sizes,
RPO achieved, bandwidth, baseline time, destination capacity) and whether the two ends can replicate at all.
Units as in the rest of the project: bytes, minutes / hours / days named in the field, the network's bandwidth in
megabits per second (10^6 bit/s, as links are sold), round-trip time in milliseconds.

The records are defined in ``models.project.model`` beside the scenario that holds them (one module: no import
cycle); this module names them for the rest of StorPlan.
"""

from __future__ import annotations

from models.project.model import (
    MAX_PROTECTED,
    REPLICATION_KIND_LABELS,
    ChangeRate,
    Replication,
    ReplicationKind,
)

__all__ = ["MAX_PROTECTED", "REPLICATION_KIND_LABELS", "ChangeRate", "Replication", "ReplicationKind"]
