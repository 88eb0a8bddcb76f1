"""The capacity (efficiency) engine: raw -> right-sized -> partitions, spares, RAID / FTT -> reserves = usable;
usable x data reduction with Snapshot, clone and thin-provisioning lines = effective.

Pure functions and frozen dataclasses: no Qt, no I/O. Entry point: :func:`evaluate_capacity`.
"""

from .efficiency import effective_side, snapshot_copies
from .engine import evaluate_capacity, totals
from .results import Aggregate, CapacityResult, CapacityStep, CapacityTotals, EfficiencyDetail, ScenarioCapacity
from .rules import split_groups, vsan_policy_factor, wafl_reserve_fraction

__all__ = [
    "Aggregate",
    "CapacityResult",
    "CapacityStep",
    "CapacityTotals",
    "EfficiencyDetail",
    "ScenarioCapacity",
    "effective_side",
    "evaluate_capacity",
    "snapshot_copies",
    "split_groups",
    "totals",
    "vsan_policy_factor",
    "wafl_reserve_fraction",
]
