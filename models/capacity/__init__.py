"""The capacity (efficiency) engine: raw -> right-sized -> partitions, spares, RAID / FTT -> reserves = usable;
usable x data reduction with Snapshot, clone and thin-provisioning lines = effective. Each system's RAID layout
(groups, spares, partitions) is built once by :func:`raid_layouts` and read by every engine.

Pure functions and frozen dataclasses: no Qt, no I/O. Entry point: :func:`evaluate_capacity`.
"""

from models.capacity.efficiency import effective_side, snapshot_copies
from models.capacity.engine import evaluate_capacity, totals
from models.capacity.layout import RaidGroup, RaidLayout, raid_layouts
from models.capacity.results import (
    Aggregate,
    CapacityResult,
    CapacityStep,
    CapacityTotals,
    EfficiencyDetail,
    ScenarioCapacity,
)
from models.capacity.rules import split_groups, vsan_policy_factor, wafl_reserve_fraction

__all__ = [
    "Aggregate",
    "CapacityResult",
    "CapacityStep",
    "CapacityTotals",
    "EfficiencyDetail",
    "RaidGroup",
    "RaidLayout",
    "ScenarioCapacity",
    "effective_side",
    "evaluate_capacity",
    "raid_layouts",
    "snapshot_copies",
    "split_groups",
    "totals",
    "vsan_policy_factor",
    "wafl_reserve_fraction",
]
