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
  ADP root-data-data (ADPv2): the drives of an HA pair (up to 48) each give one root and two equal data partitions
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
  Snapshot reserve (a project parameter).

Without ADP the root aggregates are assumed to sit on drives outside the shelves counted here (a note says so).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from models.catalog import Catalog, Controller, Drive
from models.project import ControllerNode, ShelfNode

from . import rules
from .physical import GroupSet, Physical, Waterfall, build_groups, describe_groups, fmt, plural
from .results import Aggregate, CapacityStep, frozen_inputs


def even_split(total: int, parts: int) -> list[int]:
    """``total`` split over ``parts`` as evenly as possible, larger shares first: even_split(5, 2) -> [3, 2].

    Negative ``total`` counts as 0 and ``parts`` < 1 as 1, so the result always has max(parts, 1) items.
    """
    base, extra = divmod(max(total, 0), max(parts, 1))
    return [base + 1 if i < extra else base for i in range(max(parts, 1))]


def is_all_flash_ontap(controller: Controller) -> bool:
    """True for an all-flash ONTAP system (AFF / ASA), whose WAFL reserve rule differs from FAS (its id or name
    says AFF, or ASA as a word)."""
    text = f"{controller.id} {controller.name}".lower()
    return "aff" in text or "asa" in text.split()


def entry_internal_drives(
    controller: Controller, shelves: Sequence[ShelfNode], catalog: Catalog
) -> dict[str, int] | None:
    """For an entry-level FAS (a FAS record whose catalog shelves include internal bays, e.g. FAS2750 / FAS2820):
    the drives per drive id in the internal bays linked to it, the only drives ADP root-data partitions there
    ("For entry-level platforms, only the internal drives are partitioned": NetAppDocs ontap
    'concepts/root-data-partitioning-concept.adoc'). None for every other platform (AFF, and FAS with only SSDs
    attached, partition up to 24 drives per node wherever they sit).

    Args:
        controller: the catalog record; shelves: the project's shelf nodes linked to it; catalog: to read them.
    """
    if is_all_flash_ontap(controller):
        return None
    if not any(getattr(catalog.find(sid), "internal", False) for sid in controller.shelves):
        return None
    counts: dict[str, int] = {}
    for shelf in shelves:
        record = catalog.find(shelf.catalog_id)
        if getattr(record, "internal", False) and shelf.drive_count > 0:
            counts[shelf.drive] = counts.get(shelf.drive, 0) + shelf.drive_count
    return counts


def ontap_capacity(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]], where: str,
                   internal_drives: dict[str, int] | None = None) -> Physical:
    """The physical side of an ONTAP controller with its drives.

    Args:
        node: the project's controller node (RAID type, group size, spares, ADP, reserves).
        controller: its catalog record.
        drives: (drive record, count) per drive type linked to the controller.
        where: how problems name the node (e.g. ``"controller 'AFF8080A EX' (ctl1)"``).
        internal_drives: on an entry-level FAS (:func:`entry_internal_drives`), the drives per drive id in its
            internal bays: ADP root-data partitions only these (split evenly over the nodes); None: any drive.
    """
    problems: list[str] = []
    notes: list[str] = []
    layout: list[str] = []
    aggregates: list[Aggregate] = []
    nodes = node.nodes or controller.nodes
    software = node.software or controller.default_software or None
    raid = node.raid_type
    if raid not in rules.ONTAP_RAID_TYPES:
        problems.append(f"{where}: ONTAP builds aggregates with RAID 4, RAID DP or RAID-TEC, not {rules.RAID_LABEL.get(raid, raid)}; computed as RAID DP.")
        raid = "raid_dp"
    parity = rules.PARITY_PER_GROUP[raid]
    raid_label = rules.RAID_LABEL[raid]
    adp = node.adp
    if adp != "none" and adp not in controller.adp:
        supported = ", ".join(controller.adp) or "none"
        problems.append(f"{where}: the catalog does not list ADP {adp} for {controller.name} (supported: {supported}); computed as asked.")
    aff = is_all_flash_ontap(controller)

    raw = sum(d.marketed_bytes * n for d, n in drives)
    right_sized = sum(d.right_sized_bytes * n for d, n in drives)
    first = [
        CapacityStep("Raw (marketed)", raw, raw, "catalog drive marketed capacity (decimal)",
                     " + ".join(f"{n} x {d.marketed_bytes / 1e9:,.0f} GB" for d, n in drives) or "no drives",
                     frozen_inputs({"drives": str(sum(n for _, n in drives))})),
        CapacityStep("Right-sized", raw, right_sized, TR_SOURCE,
                     " + ".join(f"{n} x {fmt(d.right_sized_bytes)}" for d, n in drives) or "no drives",
                     frozen_inputs({d.name: fmt(d.right_sized_bytes) for d, _ in drives})),
    ]
    fall = Waterfall()
    if not drives or sum(n for _, n in drives) == 0:
        problems.append(f"{where}: no drives are linked to this controller (link shelves with drives to it).")
    if adp == "none" and drives:
        notes.append("ADP off: each node's root aggregate is assumed to sit on drives not counted here "
                     "(add them to the spares per node if they are in these shelves).")

    layouts = list(node.node_layouts)
    if layouts and len(layouts) != nodes:
        problems.append(f"{where}: {len(layouts)} node layouts for {nodes} nodes; they are ignored (give one per node, "
                        "in node order).")
        layouts = []
    if layouts and len(drives) > 1 and any(l.drives is not None or l.data_partitions is not None for l in layouts):
        problems.append(f"{where}: per-node drive or partition counts apply to one drive type; {len(drives)} types are "
                        "linked, so each type is split evenly (the layouts' spares and RAID group sizes still apply).")
    counts_apply = bool(layouts) and len(drives) == 1
    mirrored = node.metrocluster != "none"

    def spares_of(k: int) -> int:
        """Node k's spares: its layout's, else the controller's spares_per_node."""
        if layouts and (spares := layouts[k].spares) is not None:
            return spares
        return node.spares_per_node

    for drive, total in drives:
        suffix = f" ({drive.name})" if len(drives) > 1 else ""
        rule = rules.ontap_group_rule(drive, raid)
        rs = float(drive.right_sized_bytes)
        if adp == "root-data-data" and drive.media != "SSD":
            problems.append(f"{where}: ADP root-data-data is for SSD only; {drive.name} is {drive.media}.")
        if mirrored:
            # SyncMirror: pool 0 (this site) and pool 1 (the partner site) each hold one plex of every aggregate,
            # root aggregates included, with its own RAID groups, spares and root partitions; the drives counted
            # here are both pools, so one half is the mirror copy
            plex = total // 2
            if total % 2:
                problems.append(f"{where}: MetroCluster mirrors pool 0 and pool 1 drive for drive; {total} {drive.name} "
                                "drives is odd, so one is left unused.")
                fall.deduct("Unusable (odd drive)", rs, METROCLUSTER_SOURCE, f"1 drive x {fmt(rs)}")
            fall.deduct("SyncMirror mirror plex (MetroCluster)", plex * rs, METROCLUSTER_SOURCE,
                        f"{plex} {drive.name} drives x {fmt(rs)} in pool 1: the second plex of every aggregate (its own "
                        "RAID groups, spares and root partitions mirror pool 0's)",
                        {"MetroCluster": node.metrocluster.upper(), "pool 0 drives": str(plex)})
            total = plex
        per_node = even_split(total, nodes)
        if counts_apply and adp != "root-data-data" and any(l.drives is not None for l in layouts):
            given = [l.drives for l in layouts]
            fixed = sum(g for g in given if g is not None)
            free = [k for k, g in enumerate(given) if g is None]
            if fixed > total or (not free and fixed != total):
                problems.append(f"{where}: the node layouts give {fixed} {drive.name} drives but "
                                f"{total} {'are in pool 0' if mirrored else 'are linked'}; split evenly instead.")
            else:
                rest = even_split(total - fixed, len(free)) if free else []
                per_node = [g if g is not None else rest[free.index(k)] for k, g in enumerate(given)]
        # members per node: list of (label, count, member bytes, at_least_two)
        node_members: list[list[tuple[str, int, float, bool]]] = [[] for _ in range(nodes)]
        node_spares: list[str] = ["" for _ in range(nodes)]

        def root_size(partitioned_per_node: int) -> float:
            if node.root_partition_bytes:
                return float(node.root_partition_bytes)
            value, key = rules.root_partition_lookup(controller.adp_root_partition_bytes, partitioned_per_node)
            if value is None:
                problems.append(f"{where}: no ADP root partition size for {controller.name} with {partitioned_per_node} "
                                f"partitioned drives per node in the catalog; {fmt(rules.ADP_FALLBACK_ROOT_BYTES)} "
                                "assumed (seed 000 Table 3): set the node's root partition size from the Hardware "
                                "Universe or System Manager for an exact figure.")
                return float(rules.ADP_FALLBACK_ROOT_BYTES)
            notes.append(f"Root partition {fmt(value)}: catalog {controller.name} ADP root partition size at {key}.")
            return float(value)

        def spare_deduct(k: int, count: float, member: float, what: str) -> None:
            if count:
                fall.deduct("Spares", count * member, "project: spares per node; ONTAP documentation (hot spares)",
                            f"{plural(count, what)} x {fmt(member)} on node {k + 1}",
                            {"spares per node": str(node.spares_per_node)})

        if adp == "root-data-data":
            # ADPv2 (NetApp KB "What are the rules for Advanced Disk Partitioning?"): every partitioned drive has
            # one root and two equal data partitions; a RAID group never holds both data partitions of one drive;
            # "(1) whole spare per HA pair" when every RAID group is partitioned: one spare data partition per node
            pairs = [(k, k + 1) for k in range(0, nodes - 1, 2)] + ([(nodes - 1,)] if nodes % 2 else [])
            for pair in pairs:
                count = sum(per_node[k] for k in pair)
                partitioned = min(count, rules.ADP_MAX_PARTITIONED[adp])
                whole = count - partitioned
                if whole:
                    notes.append(f"ADPv2 partitions at most {rules.ADP_MAX_PARTITIONED[adp]} drives per HA pair; "
                                 f"{whole} drive(s) are used whole.")
                root = root_size(partitioned // len(pair) if partitioned else 0) if partitioned else 0.0
                if root >= rs:
                    problems.append(f"{where}: root partition {fmt(root)} is not smaller than the drive ({fmt(rs)}).")
                    root = rs
                data_part = (rs - root) / 2
                if partitioned:
                    fall.deduct("ADP root partitions", partitioned * root, ROOT_SOURCE,
                                f"{partitioned} root partitions x {fmt(root)}", {"root partition": fmt(root), "ADP": "root-data-data"})
                # data partitions each node owns: one per drive (each drive gives one to each node), or the layouts'
                parts = [partitioned] * len(pair) if len(pair) == 2 else [2 * partitioned]
                if counts_apply and len(pair) == 2 and any(layouts[k].data_partitions is not None for k in pair):
                    layout_parts = [layouts[k].data_partitions for k in pair]
                    other = 2 * partitioned - sum(g for g in layout_parts if g is not None)
                    node_parts = [g if g is not None else other for g in layout_parts]
                    if min(node_parts) < 0 or sum(node_parts) != 2 * partitioned:
                        problems.append(f"{where}: the node layouts give {sum(g for g in node_parts if g >= 0)} "
                                        f"data partitions but the {partitioned} partitioned drives of the pair have "
                                        f"{2 * partitioned}; one per drive to each node used instead.")
                    else:
                        parts = node_parts
                whole_split = even_split(whole, len(pair))
                for i, k in enumerate(pair):
                    spares = spares_of(k) if len(pair) == 2 else 2 * spares_of(k)
                    if spares > parts[i]:
                        problems.append(f"{where}: node {k + 1} owns {parts[i]} data partitions, fewer than its "
                                        f"{spares} spare(s).")
                        spares = parts[i]
                    spare_deduct(k, spares, data_part, "spare data partition")
                    node_spares[k] = plural(spares, "spare data partition")
                    # a node with more data partitions than drives holds both partitions of some drive: at least
                    # two RAID groups (rules.build_groups at_least_two)
                    both = parts[i] > partitioned
                    node_members[k].append(("data partitions", parts[i] - spares, data_part, both))
                    if whole_split[i]:
                        node_members[k].append(("drives", whole_split[i], rs, False))
        else:
            for k in range(nodes):
                count = per_node[k]
                wanted = spares_of(k)
                spares = min(wanted, count)
                if count < wanted:
                    problems.append(f"{where}: node {k + 1} has {count} {drive.name} drive(s), fewer than its {wanted} spare(s).")
                spare_deduct(k, spares, rs, "spare drive")
                node_spares[k] = plural(spares, "spare drive")
                usable_drives = count - spares
                if adp == "root-data" and usable_drives > 0:
                    partitioned = min(usable_drives, rules.ADP_MAX_PARTITIONED[adp])
                    if internal_drives is not None:
                        # entry-level FAS: only the internal drives are partitioned (entry_internal_drives)
                        inside = even_split(internal_drives.get(drive.id, 0), nodes)[k]
                        if inside < partitioned:
                            notes.append(f"ADP root-data on {controller.name}: only the internal drives are "
                                         f"partitioned (ONTAP documentation); node {k + 1}: {inside} of its "
                                         f"{usable_drives} {drive.name} drives, the rest used whole.")
                        partitioned = min(partitioned, inside)
                    whole = usable_drives - partitioned
                    root = root_size(partitioned) if partitioned else 0.0
                    if root >= rs:
                        problems.append(f"{where}: root partition {fmt(root)} is not smaller than the drive ({fmt(rs)}).")
                        root = rs
                    if partitioned:
                        fall.deduct("ADP root partitions", partitioned * root, ROOT_SOURCE,
                                    f"{partitioned} root partitions x {fmt(root)} on node {k + 1}",
                                    {"root partition": fmt(root), "ADP": "root-data"})
                        node_members[k].append(("data partitions", partitioned, rs - root, False))
                    if whole:
                        if internal_drives is None:
                            notes.append(f"ADPv1 partitions at most {rules.ADP_MAX_PARTITIONED[adp]} drives per node; {whole} drive(s) on node {k + 1} are used whole.")
                        node_members[k].append(("drives", whole, rs, False))
                elif usable_drives > 0:
                    node_members[k].append(("drives", usable_drives, rs, False))

        for k in range(nodes):
            asked = (layouts[k].raid_group_size if layouts and layouts[k].raid_group_size else None) or node.raid_group_size
            size = asked or rule.default
            if asked and asked > rule.max:
                problems.append(f"{where}: RAID group size {asked} exceeds the maximum {rule.max} for "
                                f"{raid_label} on {drive.name}; capped at {rule.max}.")
                size = rule.max
            sets: list[tuple[str, GroupSet]] = []
            total_members = sum(m[1] for m in node_members[k])
            if asked and total_members and asked > total_members:
                problems.append(f"{where}: node {k + 1}: RAID group size {asked} is larger than the "
                                f"{total_members} {drive.name} members available; one smaller group is built.")
            if 0 < total_members < rules.ONTAP_MIN_DRIVES[raid]:
                problems.append(f"{where}: node {k + 1} has {total_members} {drive.name} members for its aggregate, fewer than "
                                f"the {rules.ONTAP_MIN_DRIVES[raid]} {raid_label} needs (ONTAP documentation).")
            for label, count, member, two in node_members[k]:
                if count <= 0:
                    continue
                gs = build_groups(count, size, parity, member, at_least_two=two)
                sets.append((label, gs))
                if gs.idle_members:
                    fall.deduct("Spares", gs.idle_bytes, "project: spares per node; ONTAP documentation (hot spares)",
                                f"{gs.idle_members} {label} left out of RAID groups on node {k + 1}")
                    notes.append(f"Node {k + 1}: {gs.idle_members} {label} left out of the RAID groups as extra spares "
                                 f"(a new {raid_label} group for them would cost {parity} parity).")
                if gs.parity_bytes:
                    fall.deduct(f"{raid_label} parity", gs.parity_bytes, f"{rules.ONTAP_DOCS}; group size {size} ({rule.source})",
                                f"{gs.parity_members} parity {label[:-1] if label.endswith('s') else label}s x {fmt(member)} on node {k + 1}",
                                {"RAID group size": str(size), "parity per group": str(parity)})
                if gs.unusable_bytes:
                    problems.append(f"{where}: node {k + 1}: a RAID group of {min(gs.groups)} members cannot hold {raid_label}'s {parity} parity; its members are unused.")
                    fall.deduct("Unusable (too few members)", gs.unusable_bytes, rules.ONTAP_DOCS,
                                f"{fmt(gs.unusable_bytes)} on node {k + 1}")
            data = sum(gs.data_bytes for _, gs in sets)
            if not sets:
                layout.append(f"node {k + 1}: no data aggregate{suffix} ({node_spares[k] or 'no drives'})")
                continue
            frac, why = rules.wafl_reserve_fraction(software, aff, data)
            if node.wafl_reserve_pct is not None:
                frac, why = node.wafl_reserve_pct / 100.0, f"{node.wafl_reserve_pct:g}% (project override)"
            wafl = data * frac
            fall.deduct("WAFL reserve", wafl, rules.ONTAP_DOCS if node.wafl_reserve_pct is None else "project wafl_reserve_pct",
                        f"{frac:.0%} x {fmt(data)} on node {k + 1}", {"rule": why})
            snap = (data - wafl) * node.snapshot_reserve_pct / 100.0
            if snap:
                fall.deduct("Aggregate Snapshot reserve", snap, "project snapshot_reserve_pct (ONTAP documentation: per-aggregate setting)",
                            f"{node.snapshot_reserve_pct:g}% x {fmt(data - wafl)} on node {k + 1}")
            usable = data - wafl - snap
            name = f"aggr_data_node{k + 1}" + (f"_{drive.id}" if len(drives) > 1 else "")
            groups_text = "; ".join(f"{describe_groups(gs.groups, parity)} {label} of {fmt(gs.member_bytes)}" for label, gs in sets)
            layout.append(f"node {k + 1}: aggregate {raid_label} {groups_text}, {node_spares[k]}{suffix}: "
                          f"{fmt(data)} after parity, {fmt(usable)} usable")
            main = sets[0][1]
            aggregates.append(Aggregate(k + 1, name, drive.id, raid, tuple(g for _, s in sets for g in s.groups), parity,
                                        main.member_bytes, data, usable))

    if mirrored:
        notes.append("MetroCluster: every aggregate (root aggregates too) is SyncMirror-mirrored into two plexes, pool 0 "
                     "at this site and pool 1 at the partner site, each with its own RAID groups and spares; the drives "
                     "counted here are both pools, half of them the mirror plex.")
    steps, usable_total = fall.steps(first)
    if raid == "raid_tec" and any(d.media == "SSD" for d, _ in drives):
        notes.append("RAID-TEC on SSD: ONTAP's default is RAID DP for SSD and RAID-TEC for capacity HDD of 6 TB and more.")
    return Physical(steps, raw, right_sized, usable_total, aggregates, layout, list(dict.fromkeys(notes)), list(dict.fromkeys(problems)))


TR_SOURCE = "catalog drive right-sized capacity (TR-3838 right-sized capacities)"
METROCLUSTER_SOURCE = ("ONTAP MetroCluster documentation (docs.netapp.com/us-en/ontap-metrocluster): aggregates are "
                       "mirrored with SyncMirror into a local plex (pool 0) and a remote plex (pool 1, the partner "
                       "site), root aggregates included ('Mirroring the root aggregates'); MetroCluster IP with ADP: "
                       "'Considerations for automatic drive assignment and ADP systems', each plex with its own parity "
                       "and spare partitions")
ROOT_SOURCE = ("ONTAP documentation: ADP root partition per drive; size from the project, else the catalog's "
               "ADP root partition size (Hardware Universe), else assumed 55 GiB (seed 000 Table 3)")
