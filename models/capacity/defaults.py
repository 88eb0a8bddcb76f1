"""The values the engines use for a system's settings left at their default (``None``), for views to show.

An editor that shows "default" for an empty field should say which value that is ("default (23)"); this module
resolves each default the way the engines do, from the same rules: software and nodes from the catalog record
(capacity and performance engines), the RAID group size from the drive's RAID rule (ONTAP, ``ontap.py``) or from
the drives left after spares (E-Series / generic volume groups, ``array.py``), the ADP root partition from the
controller's table (``ontap.py``), the WAFL reserve from the ONTAP rule for each data aggregate, and vSAN slack
space from the HCI host's catalog record (``hci.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models.catalog import Catalog, CatalogError, Controller, Drive, HciNode
from models.project import ControllerNode, Scenario

from . import rules
from .engine import controller_shelves
from .ontap import entry_internal_drives, is_all_flash_ontap, even_split, ontap_capacity


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
    counts: dict[str, list] = {}
    for shelf in shelves.get(controller_id, []):
        try:
            drive = catalog.get(shelf.drive, Drive)
        except CatalogError:
            continue
        if shelf.drive_count > 0:
            counts.setdefault(drive.id, [drive, 0])[1] += shelf.drive_count
    return [(d, n) for d, n in counts.values()]


def _distinct(values) -> tuple:
    return tuple(dict.fromkeys(values))


def _group_rules(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]],
                 nodes: int) -> tuple[GroupSizeRule, ...]:
    if controller.family == "ONTAP":
        raid = node.raid_type if node.raid_type in rules.ONTAP_RAID_TYPES else "raid_dp"
        out = []
        for drive, _ in drives:
            rule = rules.ontap_group_rule(drive, raid)
            out.append(GroupSizeRule(drive, rule.default, rule.max, rule.source))
        return tuple(out)
    if node.raid_type not in rules.PARITY_PER_GROUP:
        return ()
    out = []
    for drive, total in drives:
        members = total - min(node.spares_per_node * nodes, total)
        if members > 0:
            limit = rules.ARRAY_MAX_GROUP if node.raid_type in ("raid5", "raid6") else None
            out.append(GroupSizeRule(drive, min(members, rules.ARRAY_MAX_GROUP), limit,
                                     f"all {members} drives after spares, at most {rules.ARRAY_MAX_GROUP} per volume group "
                                     f"({rules.SANTRICITY_DOCS})"))
    return tuple(out)


def _root_partitions(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]],
                     nodes: int) -> tuple[tuple[int, ...], str]:
    if node.adp == "none" or node.adp not in rules.ADP_MAX_PARTITIONED:
        return (), ""
    limit = rules.ADP_MAX_PARTITIONED[node.adp]
    per_node_counts: list[int] = []  # partitioned drives per node, one entry per node (ADPv1) or HA pair (ADPv2)
    for _, total in drives:
        per_node = even_split(total, nodes)
        if node.adp == "root-data":
            for count in per_node:
                usable = count - min(node.spares_per_node, count)
                if usable > 0:
                    per_node_counts.append(min(usable, limit))
        else:
            pairs = [(k, k + 1) for k in range(0, nodes - 1, 2)] + ([(nodes - 1,)] if nodes % 2 else [])
            for pair in pairs:
                count = sum(per_node[k] for k in pair)
                partitioned = min(count - min(node.spares_per_node, count), limit)
                if partitioned > 0:
                    per_node_counts.append(partitioned // len(pair))
    sizes, sources = [], []
    for count in per_node_counts:
        value, key = rules.root_partition_lookup(controller.adp_root_partition_bytes, count)
        if value is None:
            sizes.append(rules.ADP_FALLBACK_ROOT_BYTES)
            sources.append(f"assumed (no catalog size for {controller.name}; seed 000 Table 3)")
        else:
            sizes.append(value)
            sources.append(f"catalog {controller.name} ADP root partition at {key}")
    return _distinct(sizes), "; ".join(_distinct(sources))


def controller_defaults(scenario: Scenario, catalog: Catalog, node: ControllerNode,
                        controller: Controller) -> ControllerDefaults:
    """What the engines use for ``node``'s fields left at None, given the drives linked to it."""
    nodes = node.nodes or controller.nodes
    software = node.software or controller.default_software or None
    drives = controller_drives(scenario, catalog, node.id)
    groups = _group_rules(node, controller, drives, nodes)
    if controller.family != "ONTAP":
        return ControllerDefaults(controller.default_software or None, controller.nodes, groups)
    roots, root_source = _root_partitions(node, controller, drives, nodes)
    wafl: list[float] = []
    why: list[str] = []
    if drives:
        linked = controller_shelves(scenario)[0].get(node.id, [])
        physical = ontap_capacity(node, controller, drives, "", entry_internal_drives(controller, linked, catalog))
        for aggregate in physical.aggregates:
            fraction, reason = rules.wafl_reserve_fraction(software, is_all_flash_ontap(controller), aggregate.data_bytes)
            wafl.append(round(fraction * 100.0, 6))
            why.append(reason)
    return ControllerDefaults(controller.default_software or None, controller.nodes, groups, roots, root_source,
                              _distinct(wafl), "; ".join(_distinct(why)))


def hci_slack_default(host: HciNode) -> tuple[float, str]:
    """The vSAN slack space (percent) used when the cluster gives none, and its source (as ``hci.py``)."""
    if host.slack_space_pct:
        return host.slack_space_pct, f"catalog {host.name} slack space ({host.cited('slack_space_pct')})"
    return rules.VSAN_SLACK_PCT, f"{rules.VSAN_DOCS}: keep 25-30% free"
