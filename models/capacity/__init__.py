"""The capacity (efficiency) engine: raw -> right-sized -> partitions, spares, RAID / FTT -> reserves = usable;
usable x data reduction with Snapshot, clone and thin-provisioning lines = effective. Each system's RAID layout
(groups, spares, partitions) is built once by :func:`raid_layouts` and read by every engine.

Pure functions and frozen dataclasses: no Qt, no I/O. Entry point: :func:`evaluate_capacity`.
"""

from typing import TYPE_CHECKING

from models.lazy import lazy_exports

if TYPE_CHECKING:  # the names this package offers, for the type checker; at run time each loads on first use
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

_EXPORTS = {
    "effective_side": "efficiency", "snapshot_copies": "efficiency",
    "evaluate_capacity": "engine", "totals": "engine",
    "RaidGroup": "layout", "RaidLayout": "layout", "raid_layouts": "layout",
    "Aggregate": "results", "CapacityResult": "results", "CapacityStep": "results", "CapacityTotals": "results",
    "EfficiencyDetail": "results", "ScenarioCapacity": "results",
    "split_groups": "rules", "vsan_policy_factor": "rules", "wafl_reserve_fraction": "rules",
}
"""Each offered name -> the module of this package it comes from. Importing the package (or one of its light
modules, such as :mod:`.rules` for the RAID names the inspector and the labels read) loads none of the engines:
the desktop app's first window shows none of their results (issue 27)."""

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

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
