"""Replication relationships of a scenario: SnapMirror asynchronous, SnapVault and SnapMirror active sync between
two storage systems, with the workloads they protect and the network between the sites.

The records only say what the user drew and typed; ``models.replication`` computes what it means (transfer sizes,
RPO achieved, bandwidth, baseline time, destination capacity) and whether the two ends can replicate at all.
Units as in the rest of the project: bytes, minutes / hours / days named in the field, the network's bandwidth in
megabits per second (10^6 bit/s, as links are sold), round-trip time in milliseconds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from models.project.model import ID, MAX_BYTES, MAX_LABEL, Record

ReplicationKind = Literal["snapmirror", "snapvault", "active-sync"]
"""snapmirror: SnapMirror asynchronous (a mirror updated on a schedule; the destination keeps the source's Snapshot
copies); snapvault: SnapMirror with a vault policy (the destination keeps its own, longer retention); active-sync:
SnapMirror active sync (synchronous, zero RPO, writes wait for the partner site)."""

REPLICATION_KIND_LABELS: dict[str, str] = {
    "snapmirror": "SnapMirror asynchronous",
    "snapvault": "SnapVault",
    "active-sync": "SnapMirror active sync",
}
"""Kind -> its name in a sentence or a table."""

MAX_PROTECTED = 100
"""Workloads one relationship names (as :data:`models.project.model.MAX_WORKLOADS_PER_TARGET`)."""


class ChangeRate(Record):
    """How much of one protected workload's data changes per day, and when in the day.

    Attributes:
        workload: the workload's id.
        bytes_per_day: unique bytes changed per day (logical, before data reduction); None: the default from the
            workload's write rate (``models.replication.change``), which the results say is a default.
        hourly_profile: 24 relative weights, hour 0 to 23 (local time), of when the change happens; empty: spread
            evenly over the day. Only their shares matter ([1, 1, ...] and [2, 2, ...] are the same profile).
    """

    workload: ID
    bytes_per_day: int | None = Field(default=None, ge=0, le=MAX_BYTES)
    hourly_profile: list[float] = Field(default_factory=list, max_length=24)

    @field_validator("hourly_profile")
    @classmethod
    def _profile_shape(cls, value: list[float]) -> list[float]:
        if value and len(value) != 24:
            raise ValueError(f"hourly_profile: 24 weights (hours 0 to 23), got {len(value)}")
        if any(v < 0 for v in value):
            raise ValueError("hourly_profile: a weight is negative")
        if value and sum(value) <= 0:
            raise ValueError("hourly_profile: every weight is 0")
        return value


class Replication(Record):
    """One replication relationship from ``source`` to ``target`` (node ids of two storage systems).

    Attributes:
        kind: :data:`ReplicationKind`.
        label: a name for it ("DR to Azure").
        workloads: ids of the protected workloads (each served by ``source``); empty: every workload ``source``
            serves.
        schedule_minutes: minutes between scheduled transfers (SnapMirror / SnapVault; ONTAP's schedules: 5min,
            hourly, daily...); active sync ignores it.
        rpo_minutes: the recovery point objective required, minutes (0: none stated).
        retention_days: SnapVault: days of daily copies the destination keeps; SnapMirror: ignored (the mirror
            keeps the source's copies).
        bandwidth_mbit_s: the network between the sites, megabits per second.
        rtt_ms: its round-trip time, milliseconds (active sync adds it to every write).
        replication_share_pct: the share of that bandwidth available to replication, percent.
        overwrite_pct: of the bytes a workload writes in a day, the share that overwrites blocks already changed
            that day (so is sent once): the default change rate is writes x (1 - overwrite share).
        change: per-workload change rates; a protected workload without a row takes the default.
    """

    id: ID
    source: str = Field(min_length=1, max_length=MAX_LABEL)
    target: str = Field(min_length=1, max_length=MAX_LABEL)
    kind: ReplicationKind = "snapmirror"
    label: str = Field(default="", max_length=MAX_LABEL)
    workloads: list[ID] = Field(default_factory=list, max_length=MAX_PROTECTED)
    schedule_minutes: float = Field(default=60.0, gt=0, le=7 * 24 * 60)
    rpo_minutes: float = Field(default=0.0, ge=0, le=30 * 24 * 60)
    retention_days: float = Field(default=0.0, ge=0, le=100 * 365)
    bandwidth_mbit_s: float = Field(default=1000.0, gt=0, le=10_000_000)
    rtt_ms: float = Field(default=0.0, ge=0, le=2_000)
    replication_share_pct: float = Field(default=100.0, gt=0, le=100)
    overwrite_pct: float = Field(default=90.0, ge=0, lt=100)
    change: list[ChangeRate] = Field(default_factory=list, max_length=MAX_PROTECTED)

    @model_validator(mode="after")
    def _ends_differ(self) -> Replication:
        if self.source == self.target:
            raise ValueError("a replication relationship cannot protect a system to itself")
        ids = [c.workload for c in self.change]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"change: workload '{twice[0]}' has two change rates")
        return self


__all__ = ["MAX_PROTECTED", "REPLICATION_KIND_LABELS", "ChangeRate", "Replication", "ReplicationKind"]
