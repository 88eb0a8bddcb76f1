"""ONTAP (FAS / AFF) physical capacity: right-sizing, ADP, spares, RAID groups, WAFL and Snapshot reserves.

Rules (sources in rules.py; seed 000 §3.2-3.6 is the check: 48 x 800GB SSD AFF8080A EX, ADP root-data, 23
partitioned drives + 1 spare per node, RAID DP 21+2 -> 25.5 TiB usable, 12.7 TiB data aggregate per node):

- MetroCluster (IP or FC): the drives counted are both SyncMirror pools of the HA pair; half (pool 1, the partner
  site's plex of every aggregate, root aggregates included) is deducted first, and the rules below build pool 0,
  whose own RAID groups, spares and root partitions the mirror plex repeats;
- drives of each type are split evenly over the controller's nodes (a shelf linked to the controller as a whole
  belongs to the HA pair; the project model has no per-node shelf links, so shelves are spread evenly), unless the
  node's ``node_layouts`` give each node's drives (one drive type), ADPv2 data partitions, spares or group size;
- per node and drive type: ``spares_per_node`` whole spare drives; then one data aggregate;
- ADP root-data (ADPv1): each partitioned drive (up to 24 per node) gives one root and one data partition; on an
  entry-level FAS (FAS2750 / FAS2820: a FAS whose catalog shelves include internal bays) only the drives in the
  internal bays are partitioned, the rest used whole (NetAppDocs ontap 'root-data-partitioning-concept': "For
  entry-level platforms, only the internal drives are partitioned"; :func:`entry_internal_drives`);
  ADP root-data-data (ADPv2): the drives of an HA pair (up to 240, 480 from ONTAP 9.14.1:
  rules.adpv2_partition_limit) each give one root and two equal data partitions
  of (right-sized - root) / 2, one to each node (or as the node layouts assign them; a node holding both partitions
  of a drive builds at least two RAID groups, so the two never share one); RAID groups count in data partitions;
  ``spares_per_node`` is then the spare data partitions per node, i.e. whole spare drives per HA pair ("one whole
  spare per HA pair where all RAID groups are partitioned", NetApp KB "What are the rules for Advanced Disk
  Partitioning?"); drives beyond the partitioning limit are used whole, in RAID groups of their own;
- root partition: the project's ``root_partition_bytes``, else the controller's ``adp_root_partition_bytes`` for
  the partitioned drives per node (nearest key at or below, else the smallest), else 55 GiB (assumed, seed 000);
- RAID groups: size = the project's raid_group_size, else the drive's default for the RAID type, capped at its
  maximum; n members in ceil(n / size) groups as even as possible; parity RAID4 1, RAID DP 2, RAID-TEC 3;
- WAFL reserve 10% (5% for large aggregates on recent ONTAP, rules.wafl_reserve_fraction), then the aggregate
  Snapshot reserve: the project's, else 5% on a MetroCluster (SyncMirror) aggregate and 0% otherwise
  (rules.aggregate_snapshot_reserve).

Without ADP each node's root aggregate takes the project's ``root_aggregate_drives`` whole drives of its first drive
type (a step of their own, neither spares nor data); with none given it is assumed to sit on drives outside the
shelves counted here (a note says so).
"""

from __future__ import annotations

from collections.abc import Sequence

from models.capacity import rules
from models.capacity.layout import (
    ROOT_AGGREGATE_SOURCE,
    RaidLayout,
    entry_internal_drives,
    even_split,
    is_all_flash_ontap,
    ontap_layout,
)
from models.capacity.physical import GroupSet, Physical, Waterfall, describe_groups, fmt, plural
from models.capacity.results import Aggregate, CapacityStep, frozen_inputs
from models.capacity.step_sources import marketed_source, right_sized_source
from models.catalog import Controller, Drive
from models.project import ControllerNode

__all__ = ["entry_internal_drives", "even_split", "is_all_flash_ontap", "ontap_capacity"]


def ontap_capacity(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]], where: str,
                   internal_drives: dict[str, int] | None = None, layout: RaidLayout | None = None) -> Physical:
    """The physical side of an ONTAP controller with its drives: the waterfall written from its RAID layout
    (MetroCluster plex, spares, ADP root partitions, parity, from ``layout``), then the WAFL and aggregate
    Snapshot reserves per data aggregate.

    Args:
        node: the project's controller node (RAID type, group size, spares, ADP, reserves).
        controller: its catalog record.
        drives: (drive record, count) per drive type linked to the controller.
        where: how problems name the node (e.g. ``"controller 'AFF8080A EX' (ctl1)"``).
        internal_drives: on an entry-level FAS (:func:`entry_internal_drives`), the drives per drive id in its
            internal bays: ADP root-data partitions only these (split evenly over the nodes); None: any drive.
        layout: the controller's layout (``models.capacity.layout.ontap_layout`` of the same arguments, as
            ``raid_layouts`` builds it); None: built here.
    """
    if layout is None:
        layout = ontap_layout(node, controller, drives, where, internal_drives)
    problems: list[str] = list(layout.problems)
    notes: list[str] = list(layout.notes)
    lines: list[str] = []
    aggregates: list[Aggregate] = []
    software = node.software or controller.default_software or None
    raid = layout.raid_type
    parity = rules.PARITY_PER_GROUP[raid]
    raid_label = rules.RAID_LABEL[raid]
    adp = node.adp
    aff = is_all_flash_ontap(controller)

    raw = sum(d.marketed_bytes * n for d, n in drives)
    right_sized = sum(d.right_sized_bytes * n for d, n in drives)
    first = [
        CapacityStep("Raw (marketed)", raw, raw, marketed_source(d for d, _ in drives),
                     " + ".join(f"{n} x {d.marketed_bytes / 1e9:,.0f} GB" for d, n in drives) or "no drives",
                     frozen_inputs({"drives": str(sum(n for _, n in drives))})),
        CapacityStep("Right-sized", raw, right_sized, right_sized_source((d for d, _ in drives), TR_SOURCE),
                     " + ".join(f"{n} x {fmt(d.right_sized_bytes)}" for d, n in drives) or "no drives",
                     frozen_inputs({d.name: fmt(d.right_sized_bytes) for d, _ in drives})),
    ]
    fall = Waterfall()
    mirrored = node.metrocluster != "none"
    records = {d.id: d for d, _ in drives}

    def spare_deduct(k: int, count: float, member: float, what: str) -> None:
        """Node k's (0-based) spares into the Spares step."""
        if count:
            fall.deduct("Spares", count * member, rules.SPARES_SOURCE,
                        f"{plural(count, what)} x {fmt(member)} on node {k + 1}",
                        {"spares per node": str(node.spares_per_node)})

    def root_deduct(drives_partitioned: int, root: float, on: str, mode: str, size_source: str) -> None:
        """A partitioning's root partitions into the ADP root partitions step."""
        if drives_partitioned:
            fall.deduct("ADP root partitions", drives_partitioned * root,
                        f"{rules.ADP_RULES_SOURCE}; root partition size: {size_source or 'assumed'}",
                        f"{drives_partitioned} root partitions x {fmt(root)}{on}",
                        {"root partition": fmt(root), "ADP": mode})

    for dr in layout.drives:
        drive = records[dr.drive_id]
        suffix = f" ({drive.name})" if len(drives) > 1 else ""
        rs = float(drive.right_sized_bytes)
        if mirrored:
            if dr.odd_drive:
                fall.deduct("Unusable (odd drive)", rs, METROCLUSTER_SOURCE, f"1 drive x {fmt(rs)}")
            plex = dr.mirror_plex_drives
            fall.deduct("SyncMirror mirror plex (MetroCluster)", plex * rs, METROCLUSTER_SOURCE,
                        f"{plex} {drive.name} drives x {fmt(rs)} in pool 1: the second plex of every aggregate (its "
                        "own RAID groups, spares and root partitions mirror pool 0's)",
                        {"MetroCluster": node.metrocluster.upper(), "pool 0 drives": str(plex)})
        if adp == "root-data-data":
            for pair, part in zip(dr.pairs, dr.pair_partitions):
                root_deduct(part.drives, part.root_bytes, "", "root-data-data", part.root_source)
                for n in pair:
                    spare = dr.nodes[n - 1].spares
                    spare_deduct(n - 1, spare.count, spare.member_bytes, spare.member)
        else:
            for nr in dr.nodes:
                spare_deduct(nr.node - 1, nr.spares.count, nr.spares.member_bytes, nr.spares.member)
                if nr.root_drives:
                    fall.deduct("Root aggregates", nr.root_drives * rs,
                                f"root aggregate drives per node as this design sets them; {ROOT_AGGREGATE_SOURCE}",
                                f"{plural(nr.root_drives, 'drive')} x {fmt(rs)} on node "
                                f"{nr.node}", {"root aggregate drives per node": str(node.root_aggregate_drives)})
                if nr.partitioning is not None:
                    root_deduct(nr.partitioning.drives, nr.partitioning.root_bytes, f" on node {nr.node}", "root-data",
                                nr.partitioning.root_source)

        for nr in dr.nodes:
            k = nr.node - 1
            size = nr.group_size
            sets: list[tuple[str, GroupSet]] = [(s.label, s.groups) for s in nr.sets]
            for label, gs in sets:
                member = gs.member_bytes
                if gs.idle_members:
                    fall.deduct("Spares", gs.idle_bytes, rules.SPARES_SOURCE,
                                f"{gs.idle_members} {label} left out of RAID groups on node {k + 1}")
                if gs.parity_bytes:
                    fall.deduct(f"{raid_label} parity", gs.parity_bytes,
                                f"{rules.ONTAP_DOCS}; group size {size} ({nr.group_source})",
                                f"{gs.parity_members} parity {label[:-1] if label.endswith('s') else label}s x "
                                f"{fmt(member)} on node {k + 1}",
                                {"RAID group size": str(size), "parity per group": str(parity)})
                if gs.unusable_bytes:
                    fall.deduct("Unusable (too few members)", gs.unusable_bytes, rules.ONTAP_DOCS,
                                f"{fmt(gs.unusable_bytes)} on node {k + 1}")
            data = sum(gs.data_bytes for _, gs in sets)
            if not sets:
                lines.append(f"node {k + 1}: no data aggregate{suffix} ({nr.spares_text or 'no drives'})")
                continue
            frac, why = rules.wafl_reserve_fraction(software, aff, data)
            if node.wafl_reserve_pct is not None:
                frac, why = node.wafl_reserve_pct / 100.0, f"{node.wafl_reserve_pct:g}% (project override)"
            wafl = data * frac
            fall.deduct("WAFL reserve", wafl,
                        rules.WAFL_RESERVE_SOURCE if node.wafl_reserve_pct is None else "project wafl_reserve_pct",
                        f"{frac:.0%} x {fmt(data)} on node {k + 1}", {"rule": why})
            snap_pct, snap_source = rules.aggregate_snapshot_reserve(node.snapshot_reserve_pct, mirrored)
            snap = (data - wafl) * snap_pct / 100.0
            if snap:
                fall.deduct("Aggregate Snapshot reserve", snap, snap_source,
                            f"{snap_pct:g}% x {fmt(data - wafl)} on node {k + 1}",
                            {"rule": "project" if node.snapshot_reserve_pct is not None else "SyncMirror default"})
            usable = data - wafl - snap
            name = f"aggr_data_node{k + 1}" + (f"_{drive.id}" if len(drives) > 1 else "")
            groups_text = "; ".join(f"{describe_groups(gs.groups, parity)} {label} of {fmt(gs.member_bytes)}"
                                    for label, gs in sets)
            lines.append(f"node {k + 1}: aggregate {raid_label} {groups_text}, {nr.spares_text}{suffix}: "
                         f"{fmt(data)} after parity, {fmt(usable)} usable")
            main = sets[0][1]
            aggregates.append(Aggregate(k + 1, name, drive.id, raid, tuple(g for _, s in sets for g in s.groups),
                                        parity, main.member_bytes, data, usable))

    if mirrored:
        notes.append("MetroCluster: every aggregate (root aggregates too) is SyncMirror-mirrored into two plexes, pool "
                     "0 at this site and pool 1 at the partner site, each with its own RAID groups and spares; the "
                     "drives counted here are both pools, half of them the mirror plex.")
    steps, usable_total = fall.steps(first)
    if raid == "raid_tec" and any(d.media == "SSD" for d, _ in drives):
        notes.append("RAID-TEC on SSD: ONTAP's default is RAID DP for SSD and RAID-TEC for capacity HDD of "
                     "6 TB and more.")
    return Physical(steps, raw, right_sized, usable_total, aggregates, lines, list(dict.fromkeys(notes)),
                    list(dict.fromkeys(problems)))


TR_SOURCE = ("NetApp TR-3838 Storage Subsystem Configuration Guide: ONTAP uses each drive at its right-sized, not its "
             "marketed, capacity")
METROCLUSTER_SOURCE = ("ONTAP MetroCluster documentation (docs.netapp.com/us-en/ontap-metrocluster): aggregates are "
                       "mirrored with SyncMirror into a local plex (pool 0) and a remote plex (pool 1, the partner "
                       "site), root aggregates included ('Mirroring the root aggregates'); MetroCluster IP with ADP: "
                       "'Considerations for automatic drive assignment and ADP systems', each plex with its own parity "
                       "and spare partitions")
