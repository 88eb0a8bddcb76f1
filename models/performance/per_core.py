"""A controller profile's software costs on one core: how the hardware relation and the pooled fit compare the
fitted profiles of platforms with different core counts (``models.performance.hardware_relation``,
``models.performance.pooled_fit``)."""

from __future__ import annotations

from models.catalog import PerfProfile

CPU_FIELDS = ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us")
"""The per-operation CPU costs of a profile (microseconds per I/O or per KiB on one of its servers)."""

AFFINITY_FIELDS = ("affinity_hold_us", "affinity_hold_scv", "affinities_per_node")
"""The WAFL affinity fields of a profile (meaningful only where its hold time is above zero)."""


def per_core_value(profile: PerfProfile, cores_per_node: int, field: str) -> float | None:
    """``profile``'s ``field`` on one core of a controller with ``cores_per_node`` cores: a CPU cost (a field of
    :data:`CPU_FIELDS`, microseconds on one of the profile's ``servers_per_node`` servers) x cores / servers; the
    affinity count divided by the cores; any other field as it is. None for an affinity field of a profile without
    affinities (hold time 0). The rule both the hardware relation and the pooled fit apply: CPU cost scales with
    the cores a profile's servers stand for."""
    if field in AFFINITY_FIELDS and profile.affinity_hold_us <= 0:
        return None
    value = float(getattr(profile, field))
    if field in CPU_FIELDS:
        return value * cores_per_node / profile.servers_per_node
    if field == "affinities_per_node":
        return value / cores_per_node
    return value


__all__ = ["AFFINITY_FIELDS", "CPU_FIELDS", "per_core_value"]
