"""The values the engines use for a system's settings left at their default (``None``), for views to show.

An editor that shows "default" for an empty field should say which value that is ("default (23)"); this module
resolves each default the way the engines do, from the same rules: software and nodes from the catalog record
(capacity and performance engines), the RAID group size from the drive's RAID rule (ONTAP, ``ontap.py``) or from
the RAID layout built with no group size (E-Series / generic volume groups, ``layout.array_layout``), the ADP root
partition from the RAID layout's partitions built with no root size (``layout.ontap_layout``), the WAFL reserve
from the ONTAP rule for each data aggregate, and vSAN slack
space from the HCI host's catalog record (``hci.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from models.capacity import rules
from models.capacity.engine import controller_shelves
from models.capacity.layout import array_layout, linked_drives, ontap_layout
from models.capacity.ontap import entry_internal_drives, is_all_flash_ontap, ontap_capacity
from models.catalog import Catalog, Controller, Drive, HciNode
from models.project import ControllerNode, Scenario


@dataclass(frozen=True)
class GroupSizeRule:
    """The RAID group size used for one drive type when the project gives none, and the largest allowed.

    ``maximum`` is None when the engine sets no limit; ``source`` says where the numbers come from.
    """

    drive: Drive
    default: int
    maximum: int | None
    source: str


@dataclass(frozen=True)
class ControllerDefaults:
    """What a controller's empty (``None``) fields stand for.

    Attributes:
        software: the catalog's default software version (None when the catalog names none).
        nodes: the catalog's controller nodes.
        raid_groups: the group-size rule per drive type linked to the controller; empty when there are no drives
            or the RAID type builds no groups (DDP, RAID0, RAID10, no RAID).
        root_partition_bytes: the ADP root partition sizes the engine would use (distinct, in node order); empty
            when ADP is off or nothing is partitioned.
        root_partition_source: where that size comes from.
        wafl_reserve_pct: the WAFL reserve of each data aggregate (distinct, in node order), ONTAP only.
        wafl_reserve_rule: the rule applied, in words.
    """

    software: str | None
    nodes: int
    raid_groups: tuple[GroupSizeRule, ...] = ()
    root_partition_bytes: tuple[int, ...] = ()
    root_partition_source: str = ""
    wafl_reserve_pct: tuple[float, ...] = ()
    wafl_reserve_rule: str = ""


def controller_drives(scenario: Scenario, catalog: Catalog, controller_id: str) -> list[tuple[Drive, int]]:
    """(drive record, count) per drive type in the shelves the capacity engine counts for this controller
    (linked directly or through a shelf chain; unknown drives and empty shelves left out)."""
    shelves, _ = controller_shelves(scenario)
    return linked_drives(shelves.get(controller_id, []), catalog)


T = TypeVar("T")


def _distinct(values: Iterable[T]) -> tuple[T, ...]:
    return tuple(dict.fromkeys(values))


def _group_rules(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]]
                 ) -> tuple[GroupSizeRule, ...]:
    """The group-size rule per drive type: ONTAP's drive rule (``rules.ontap_group_rule``); an array's from its
    RAID layout with no group size asked (``layout.array_layout``: the drives after spares, at most 30)."""
    if controller.family == "ONTAP":
        raid = node.raid_type if node.raid_type in rules.ONTAP_RAID_TYPES else "raid_dp"
        out = []
        for drive, _ in drives:
            rule = rules.ontap_group_rule(drive, raid)
            out.append(GroupSizeRule(drive, rule.default, rule.max, rule.source))
        return tuple(out)
    if node.raid_type not in rules.PARITY_PER_GROUP:
        return ()
    records = {d.id: d for d, _ in drives}
    limit = rules.ARRAY_MAX_GROUP if node.raid_type in ("raid5", "raid6") else None
    layout = array_layout(node.with_changes(raid_group_size=None), controller, drives, "")
    return tuple(GroupSizeRule(records[dr.drive_id], nr.group_size, limit, nr.group_source)
                 for dr in layout.drives for nr in dr.nodes if nr.group_size)


def _root_partitions(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]],
                     internal: dict[str, int] | None) -> tuple[tuple[int, ...], str]:
    """The ADP root partition sizes the engine uses when the project gives none (distinct, in node order) and
    their sources: the partitions of the controller's RAID layout (``layout.ontap_layout``) with no root
    partition size asked."""
    if node.adp == "none" or node.adp not in rules.ADP_MAX_PARTITIONED:
        return (), ""
    layout = ontap_layout(node.with_changes(root_partition_bytes=None), controller, drives, "", internal)
    parts = [p for p in layout.partitions if p.drives]
    return _distinct(int(p.root_bytes) for p in parts), "; ".join(_distinct(p.root_source for p in parts))


def controller_defaults(scenario: Scenario, catalog: Catalog, node: ControllerNode,
                        controller: Controller) -> ControllerDefaults:
    """What the engines use for ``node``'s fields left at None, given the drives linked to it."""
    software = node.software or controller.default_software or None
    drives = controller_drives(scenario, catalog, node.id)
    groups = _group_rules(node, controller, drives)
    if controller.family != "ONTAP":
        return ControllerDefaults(controller.default_software or None, controller.nodes, groups)
    linked = controller_shelves(scenario)[0].get(node.id, [])
    internal = entry_internal_drives(controller, linked, catalog)
    roots, root_source = _root_partitions(node, controller, drives, internal)
    wafl: list[float] = []
    why: list[str] = []
    if drives:
        physical = ontap_capacity(node, controller, drives, "", internal)
        for aggregate in physical.aggregates:
            fraction, reason = rules.wafl_reserve_fraction(software, is_all_flash_ontap(controller),
                                                           aggregate.data_bytes)
            wafl.append(round(fraction * 100.0, 6))
            why.append(reason)
    return ControllerDefaults(controller.default_software or None, controller.nodes, groups, roots, root_source,
                              _distinct(wafl), "; ".join(_distinct(why)))


def hci_slack_default(host: HciNode) -> tuple[float, str]:
    """The vSAN slack space (percent) used when the cluster gives none, and its source (as ``hci.py``)."""
    if host.slack_space_pct:
        return host.slack_space_pct, f"catalog {host.name} slack space ({host.cited('slack_space_pct')})"
    return rules.VSAN_SLACK_PCT, f"{rules.VSAN_DOCS}: keep 25-30% free"
