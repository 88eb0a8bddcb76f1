"""FabricPool on premises in figures, per controller with a capacity tier: what each tier holds, the cold reads'
latency and its source, and the network bytes the cold reads fetch from the object store (the ``fabricpool`` list
of ``storplan evaluate --json``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from models.capacity.fabricpool import (
    CAPACITY_TIER_LABELS,
    TIERING_POLICY_LABELS,
    TIERING_POLICY_SOURCE,
    cold_read_bytes_per_s,
    cold_read_share,
    object_store_protection,
    tiered_bytes,
)
from models.project.model import ControllerNode, Scenario

if TYPE_CHECKING:
    from models.capacity.results import ScenarioCapacity


@dataclass(frozen=True)
class TierWorkload:
    """One workload on a FabricPool controller: id, name, bytes in the capacity tier, share of its reads served
    there (0..1) and the network bytes/s those reads fetch at its target."""

    workload_id: str
    name: str
    cold_bytes: float
    cold_read_share: float
    cold_read_bytes_per_s: float


@dataclass(frozen=True)
class FabricPoolSystem:
    """One controller's FabricPool.

    Attributes:
        system_id, system_name: the controller; tier: "storagegrid" or "cloud-bucket"; tier_label, tier_name: in
            words and the user's name for it; policy: "auto" or "snapshot-only".
        hot_bytes: the performance tier's physical used (the capacity engine's, after tiering; None unknown);
            cold_bytes: what the capacity tier holds (sum over the workloads).
        protection_factor, protection_scheme, protection_source: the object store's raw bytes per byte tiered, its
            protection in words and the source (``models.capacity.fabricpool.object_store_protection``);
            raw_bytes: cold_bytes x protection_factor, the object store's raw capacity needed.
        cold_read_latency_us, latency_source: one cold read's time and where it comes from.
        cold_read_bytes_per_s: the cold reads' network bytes per second at the targets (sum).
        workloads: per workload (:class:`TierWorkload`). notes: assumptions in words.
    """

    system_id: str
    system_name: str
    tier: str
    tier_label: str
    tier_name: str
    policy: str
    hot_bytes: float | None
    cold_bytes: float
    cold_read_latency_us: float
    latency_source: str
    cold_read_bytes_per_s: float
    workloads: tuple[TierWorkload, ...]
    notes: tuple[str, ...]
    protection_factor: float = 1.0
    protection_scheme: str = ""
    protection_source: str = ""

    @property
    def raw_bytes(self) -> float:
        """The object store's raw capacity needed for the capacity tier, bytes (cold bytes x protection factor)."""
        return self.cold_bytes * self.protection_factor


def fabricpool_systems(scenario: Scenario, capacity: ScenarioCapacity | None) -> tuple[FabricPoolSystem, ...]:
    """Every controller of ``scenario`` with a capacity tier, in node order; () without any."""
    from models.performance.paths import capacity_tier_latency

    out: list[FabricPoolSystem] = []
    for node in scenario.nodes:
        if not isinstance(node, ControllerNode) or node.capacity_tier == "none":
            continue
        rows = tuple(TierWorkload(w.id, w.name, tiered_bytes(w, node.tiering_policy), cold_read_share(w, node),
                                  cold_read_bytes_per_s(w, node))
                     for w in scenario.workloads if w.enabled and w.target == node.id)
        latency, source = capacity_tier_latency(node)
        result = capacity.system(node.id) if capacity is not None else None
        factor, scheme, why = object_store_protection(node)
        notes = ["Each cold read fetches its block whole from the object store (assumed).",
                 f"The object store's own protection: {scheme}, x {factor:.3g} raw per byte tiered; {why}."]
        if node.tiering_policy == "snapshot-only":
            notes.append("Snapshot copies only: the active data and its reads stay on the drives; "
                         f"{TIERING_POLICY_SOURCE}.")
        out.append(FabricPoolSystem(
            node.id, node.label or node.catalog_id, node.capacity_tier, CAPACITY_TIER_LABELS[node.capacity_tier],
            node.capacity_tier_name, node.tiering_policy,
            result.physical_used_bytes if result is not None else None, sum(r.cold_bytes for r in rows), latency,
            source, sum(r.cold_read_bytes_per_s for r in rows), rows, tuple(notes), factor, scheme, why))
    return tuple(out)


def fabricpool_to_dict(systems: tuple[FabricPoolSystem, ...]) -> list[dict[str, Any]]:
    """The ``fabricpool`` list of ``evaluate --json``: per system its tiers (hot / cold bytes; the object store's
    protection, its factor and the raw bytes it needs), policy, cold-read
    latency (us) and its source, the cold reads' network bytes/s, each workload's figures and the notes."""
    return [{
        "system": s.system_id, "system_name": s.system_name, "capacity_tier": s.tier,
        "capacity_tier_label": s.tier_label, "capacity_tier_name": s.tier_name, "tiering_policy": s.policy,
        "tiering_policy_label": TIERING_POLICY_LABELS[s.policy], "hot_bytes": s.hot_bytes, "cold_bytes": s.cold_bytes,
        "object_store_protection": s.protection_scheme, "object_store_protection_factor": s.protection_factor,
        "object_store_raw_bytes": s.raw_bytes, "object_store_protection_source": s.protection_source,
        "cold_read_latency_us": s.cold_read_latency_us, "cold_read_latency_source": s.latency_source,
        "cold_read_network_bytes_per_s": s.cold_read_bytes_per_s,
        "workloads": [{"id": w.workload_id, "name": w.name, "cold_bytes": w.cold_bytes,
                       "cold_read_share": w.cold_read_share, "cold_read_network_bytes_per_s": w.cold_read_bytes_per_s}
                      for w in s.workloads],
        "notes": list(s.notes)} for s in systems]


__all__ = ["FabricPoolSystem", "TierWorkload", "fabricpool_systems", "fabricpool_to_dict"]
