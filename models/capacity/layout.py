"""RAID layouts: each system's RAID groups, spares and partitions, built once by the capacity rules and read by
every engine (the capacity waterfall's spares / partition / parity steps, the performance path's drive stations
and RAID write penalty, the drive-rebuild state's reconstruction reads).

:func:`raid_layouts` maps a scenario's systems (node id) to a :class:`RaidLayout`:

- ONTAP controllers (:func:`ontap_layout`, the rules of ``ontap.py``'s docstring): per node and drive type, whole
  spare drives (or ADPv2 spare data partitions), ADP root-data / root-data-data partitions, RAID groups of the
  project's or the drive's group size split as evenly as possible (``rules.split_groups``, ``physical.build_groups``),
  MetroCluster's pool 0 (pool 1 mirrors it);
- E-Series and generic arrays (:func:`array_layout`, ``array.py``'s rules): one volume group or Dynamic Disk Pool
  per drive type, whole spare drives, groups of ``raid_group_size`` else all the drives up to 30, DDP's 8 + 2
  stripes with its preservation capacity;
- vSAN clusters (:func:`hci_layout`): the storage policy's stripe (RAID1 n + 1 copies, RAID5 3+1, ESA 2+1 / 4+1,
  RAID6 4+2; ``rules.VSAN_POLICIES``, ``rules.vsan_policy_rule``) over the cluster's capacity devices;
- Cloud Volumes ONTAP (:func:`cloud_layout`): RAID0 over the node's cloud disks, an HA pair mirroring it.

Managed services have no layout. The functions are pure; user mistakes become the layout's ``problems`` (the
capacity engine reports them), never exceptions.
"""


from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from models import topology
from models.capacity import rules
from models.capacity.physical import GroupSet, build_groups, fmt, plural
from models.catalog import Catalog, CatalogError, CloudDisk, CloudVm, Controller, Drive, HciNode
from models.project import CloudVmNode, ControllerNode, HciClusterNode, Scenario, ShelfNode

ARRAY_RAID = ("none", "raid0", "raid10", "raid5", "raid6", "ddp")
ROOT_AGGREGATE_SOURCE = (
    "ONTAP documentation, 'Root-data partitioning' (docs.netapp.com/us-en/ontap/concepts/"
    "root-data-partitioning-concept.html): every node has a root aggregate, which without partitioning takes whole "
    "drives, a RAID DP one typically one data and two parity drives; 'system node migrate-root': the root "
    "aggregate's drives must be spares of the node when it is made, and its default RAID type is RAID DP")
"""Where the root aggregate's whole drives (ADP off) come from."""
"""The RAID types E-Series offers (SANtricity documentation): RAID 0, 1/10, 5, 6 and DDP; "none" is the seeds'
"No RAID stripe"."""


@dataclass(frozen=True)
class RaidGroup:
    """One RAID group (or pool, or vSAN stripe) as built.

    Attributes:
        node: the 1-based controller node that owns it; 0 = the whole system (an E-Series volume group or pool,
            a vSAN datastore).
        drive_id: the catalog id of its drives (a CVO node: its cloud disk).
        members: drives or partitions in the group, parity included (a DDP pool or vSAN datastore: every drive
            its stripes are spread over).
        data: data members of one stripe (a group too small to hold its parity: 0).
        parity: parity (or mirror copy) members of one stripe (RAID DP 2, RAID-TEC 3, RAID 10 1, vSAN FTT=1
            RAID1 1).
        partitioned: True when the members are ADP data partitions, False for whole drives.
        member_bytes: bytes of one member (a drive's right-sized capacity, a data partition).
        member: what one member is, in words ("drive", "data partition", "capacity device", "cloud disk").
    """

    node: int
    drive_id: str
    members: int
    data: int
    parity: int
    partitioned: bool = False
    member_bytes: float = 0.0
    member: str = "drive"

    @property
    def width(self) -> int:
        """Members one stripe spans: data + parity (a classic group: all its members; DDP 10; vSAN RAID5 3+1 4)."""
        return self.data + self.parity

    @property
    def stripe_factor(self) -> float:
        """Bytes written per data byte by a full-stripe write, width / data (RAID DP 21+2: 23/21; RAID 10: 2;
        vSAN RAID5 3+1: 4/3, the policy factor of ``rules.VSAN_POLICIES``); 1.0 for a group holding no data."""
        return self.width / self.data if self.data > 0 else 1.0


@dataclass(frozen=True)
class SpareSet:
    """Hot spares one node (0: the whole array) keeps of one drive type.

    ``count`` spares of ``member_bytes`` each; ``member`` says what they are ("spare drive", "spare data
    partition", DDP's "drive' worth of preservation capacity")."""

    node: int
    drive_id: str
    count: int
    member_bytes: float
    member: str = "spare drive"


@dataclass(frozen=True)
class Partitioning:
    """ADP partitioning of one node's (ADPv1 root-data) or one HA pair's (ADPv2 root-data-data) drives.

    Attributes:
        nodes: the 1-based nodes sharing the partitioned drives (one for ADPv1, the pair for ADPv2).
        drive_id: their catalog id; drives: how many are partitioned (0 when none).
        root_bytes: one root partition; data_partition_bytes: one data partition ((right-sized - root) / 2 for
            ADPv2, right-sized - root for ADPv1); adp: "root-data" or "root-data-data".
        root_source: where the root partition size comes from (the project, the catalog's table, or assumed).
    """

    nodes: tuple[int, ...]
    drive_id: str
    drives: int
    root_bytes: float
    data_partition_bytes: float
    adp: str
    root_source: str = ""


@dataclass(frozen=True)
class MemberSet:
    """Members of one kind ("drives" or "data partitions") of one node built into RAID groups (``groups``:
    ``physical.GroupSet``, with the members left out of the groups as extra spares)."""

    label: str
    groups: GroupSet


@dataclass(frozen=True)
class NodeRaid:
    """One node's (0: the whole array's) share of one drive type: its spares, ADPv1 partitioning, member sets and
    the group size used.

    Attributes:
        node: 1-based controller node, 0 for an array's shared volume group or pool.
        drive_id: the drive type.
        spares: spares kept (count, member size, kind); spares_text: them in words ("1 spare drive").
        partitioning: ADPv1's partitioning of this node's drives (None without it).
        sets: the RAID group member sets (whole drives, data partitions).
        group_size: members per group asked of the split (the project's, the drive's default, or the array's
            rule); group_source: where that size comes from.
        preserved: a Dynamic Disk Pool's preservation capacity, drives' worth; unusable: members that hold
            nothing (too few for the RAID type: a DDP under 11 drives, RAID 10 under 2); unused: members left
            over (RAID 10's odd drive).
        root_drives: ONTAP without ADP: the whole drives of this type holding the node's root aggregate
            (``ControllerNode.root_aggregate_drives``), outside its data aggregate and its spares.
    """

    node: int
    drive_id: str
    spares: SpareSet
    spares_text: str
    partitioning: Partitioning | None = None
    sets: tuple[MemberSet, ...] = ()
    group_size: int = 0
    group_source: str = ""
    preserved: int = 0
    unusable: int = 0
    unused: int = 0
    root_drives: int = 0


@dataclass(frozen=True)
class DriveRaid:
    """How one drive type of a system is laid out.

    Attributes:
        drive_id: the drive type; members: drives that reach the RAID rules (MetroCluster: pool 0's).
        mirror_plex_drives: MetroCluster's pool 1 drives (the second plex of every aggregate), 0 otherwise;
        odd_drive: MetroCluster's one drive left unused when the count is odd.
        pairs / pair_partitions: ADPv2's HA pairs (1-based node tuples) and each one's partitioning.
        nodes: each node's share (ONTAP: one per node; arrays: one, node 0).
    """

    drive_id: str
    members: int
    nodes: tuple[NodeRaid, ...]
    mirror_plex_drives: int = 0
    odd_drive: bool = False
    pairs: tuple[tuple[int, ...], ...] = ()
    pair_partitions: tuple[Partitioning, ...] = ()


@dataclass(frozen=True)
class RaidLayout:
    """A system's RAID layout: its groups, spares and partitions, and the RAID type they were built with.

    Attributes:
        system_id: the node id of the controller, HCI cluster or cloud VM.
        family: "ONTAP", "E-Series", "generic", "vSAN" or "Cloud Volumes ONTAP".
        raid_type: the RAID type built (an ONTAP node asking for another type is built as "raid_dp"; a vSAN
            cluster: its storage policy id, "ftt1-raid5"; CVO: "raid0").
        groups: every RAID group, in node and drive-type order.
        spares: every node's hot spares.
        partitions: the ADP partitionings (empty without ADP).
        adp: the ADP mode ("none", "root-data", "root-data-data").
        mirror_copies: copies of every group (2 for MetroCluster's SyncMirror plexes and a CVO HA pair, else 1).
        drives: per drive type, the detail the capacity waterfall is written from.
        problems / notes: what the rules found, in words naming the node (the capacity engine reports them).
    """

    system_id: str
    family: str
    raid_type: str
    groups: tuple[RaidGroup, ...] = ()
    spares: tuple[SpareSet, ...] = ()
    partitions: tuple[Partitioning, ...] = ()
    adp: str = "none"
    mirror_copies: int = 1
    drives: tuple[DriveRaid, ...] = ()
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def groups_of(self, drive_id: str) -> tuple[RaidGroup, ...]:
        """The groups built of one drive type (by catalog id), in node order."""
        return tuple(g for g in self.groups if g.drive_id == drive_id)


def describe_raid_groups(groups: Iterable[RaidGroup]) -> str:
    """Groups in words, counted by shape: two RAID DP groups of 23 -> "2 x (21+2)"; a DDP pool of 24 drives ->
    "1 x 24 in 8+2 stripes"; "no groups" for none."""
    shapes = Counter((g.members, g.data, g.parity) for g in groups)
    if not shapes:
        return "no groups"
    parts = []
    for (members, data, parity), n in sorted(shapes.items(), reverse=True):
        if data + parity == members:
            parts.append(f"{n} x ({data}+{parity})")
        else:
            parts.append(f"{n} x {members} in {data}+{parity} stripes")
    return ", ".join(parts)


def where_text(kind: str, node_id: str, label: str) -> str:
    """How problems name a node: ``controller 'AFF8080A EX'``, by its label only (a message a user reads, in the
    GUI's Problems tab and the report, never names the project's node id: r2 review #5); the id stays in the
    problem's ``node_id``, which selects the node. ``node_id`` names it only when it has no label."""
    return f"{kind} '{label or node_id}'"


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


def entry_internal_drives(controller: Controller, shelves: Sequence[ShelfNode],
                          catalog: Catalog) -> dict[str, int] | None:
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


def _groups_of(node: int, drive_id: str, label: str, gs: GroupSet) -> list[RaidGroup]:
    """The RaidGroup records of one member set (a group too small for its parity holds 0 data)."""
    parity = gs.parity_per_group
    member = "data partition" if label == "data partitions" else "drive"
    return [RaidGroup(node, drive_id, g, g - parity if g > parity else 0, parity if g > parity else g,
                      label == "data partitions", gs.member_bytes, member) for g in gs.groups]


# ----------------------------------------------------------------------------------------------- ONTAP


def ontap_layout(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]], where: str,
                 internal_drives: dict[str, int] | None = None) -> RaidLayout:
    """An ONTAP controller's layout (the rules of ``models.capacity.ontap``'s docstring).

    Args:
        node: the project's controller node (RAID type, group size, spares, ADP, node layouts, MetroCluster).
        controller: its catalog record.
        drives: (drive record, count) per drive type linked to the controller.
        where: how problems name the node (:func:`where_text`).
        internal_drives: on an entry-level FAS (:func:`entry_internal_drives`), the drives per drive id in its
            internal bays: ADP root-data partitions only these; None: any drive.
    """
    problems: list[str] = []
    notes: list[str] = []
    nodes = node.nodes or controller.nodes
    raid = node.raid_type
    if raid not in rules.ONTAP_RAID_TYPES:
        problems.append(f"{where}: ONTAP builds aggregates with RAID 4, RAID DP or RAID-TEC, not "
                        f"{rules.RAID_LABEL.get(raid, raid)}; computed as RAID DP.")
        raid = "raid_dp"
    parity = rules.PARITY_PER_GROUP[raid]
    raid_label = rules.RAID_LABEL[raid]
    adp = node.adp
    if adp != "none" and adp not in controller.adp:
        supported = ", ".join(controller.adp) or "none"
        problems.append(f"{where}: the catalog does not list ADP {adp} for {controller.name} (supported: {supported}); "
                        "computed as asked.")
    if not drives or sum(n for _, n in drives) == 0:
        problems.append(f"{where}: no drives are linked to this controller (link shelves with drives to it).")
    root_wanted = node.root_aggregate_drives if adp == "none" else 0
    if adp == "none" and drives and not root_wanted:
        notes.append("ADP off: each node's root aggregate is assumed to sit on drives not counted here "
                     "(give the root aggregate's drives per node if they are in these shelves).")
    elif root_wanted and drives:
        notes.append(f"ADP off: each node's root aggregate takes {plural(root_wanted, 'whole drive')} of these "
                     f"shelves, outside the data aggregate and the spares ({ROOT_AGGREGATE_SOURCE}).")
    if node.root_aggregate_drives and adp != "none":
        notes.append(f"ADP {adp}: the root aggregates are on root partitions; the {node.root_aggregate_drives} root "
                     "aggregate drives per node given are not used.")

    layouts = list(node.node_layouts)
    if layouts and len(layouts) != nodes:
        problems.append(f"{where}: {len(layouts)} node layouts for {nodes} nodes; they are ignored (give one per node, "
                        "in node order).")
        layouts = []
    if layouts and len(drives) > 1 and any(lay.drives is not None or lay.data_partitions is not None
                                           for lay in layouts):
        problems.append(f"{where}: per-node drive or partition counts apply to one drive type; {len(drives)} types are "
                        "linked, so each type is split evenly (the layouts' spares and RAID group sizes still apply).")
    counts_apply = bool(layouts) and len(drives) == 1
    mirrored = node.metrocluster != "none"

    def spares_of(k: int) -> int:
        """Node k's spares: its layout's, else the controller's spares_per_node."""
        own = layouts[k].spares if layouts else None
        return own if own is not None else node.spares_per_node

    out: list[DriveRaid] = []
    for drive_index, (drive, total) in enumerate(drives):
        rule = rules.ontap_group_rule(drive, raid)
        rs = float(drive.right_sized_bytes)
        if adp == "root-data-data" and drive.media != "SSD":
            problems.append(f"{where}: ADP root-data-data is for SSD only; {drive.name} is {drive.media}.")
        plex = 0
        odd = False
        if mirrored:
            # SyncMirror: pool 0 (this site) and pool 1 (the partner site) each hold one plex of every aggregate,
            # root aggregates included, with its own RAID groups, spares and root partitions; the drives counted
            # here are both pools, so one half is the mirror copy
            plex = total // 2
            if total % 2:
                problems.append(f"{where}: MetroCluster mirrors pool 0 and pool 1 drive for drive; {total} "
                                f"{drive.name} drives is odd, so one is left unused.")
                odd = True
            total = plex
        per_node = even_split(total, nodes)
        if counts_apply and adp != "root-data-data" and any(lay.drives is not None for lay in layouts):
            given = [lay.drives for lay in layouts]
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
        node_spares: list[SpareSet | None] = [None] * nodes
        root_drives = [0] * nodes
        node_parts: list[Partitioning | None] = [None] * nodes
        pairs: list[tuple[int, ...]] = []
        pair_parts: list[Partitioning] = []

        def root_size(partitioned_per_node: int) -> tuple[float, str]:
            """The root partition size (project, catalog table, else the assumed fallback with a problem) and its
            source in words."""
            if node.root_partition_bytes:
                return float(node.root_partition_bytes), "project root partition size"
            value, key = rules.root_partition_lookup(controller.adp_root_partition_bytes, partitioned_per_node)
            if value is None:
                # one warning per design (the problems are de-duplicated): no count or drive in the text
                problems.append(f"{where}: no ADP root partition size for {controller.name} in the catalog (none "
                                f"published); {fmt(rules.ADP_FALLBACK_ROOT_BYTES)} assumed per partitioned drive: set "
                                "the node's root partition size from the Hardware Universe or System Manager for an "
                                "exact figure.")
                return (float(rules.ADP_FALLBACK_ROOT_BYTES),
                        f"assumed (no catalog size for {controller.name}; seed 000 Table 3)")
            notes.append(f"Root partition {fmt(value)}: catalog {controller.name} ADP root partition size at {key}.")
            # the document the catalog's size was read from, not "catalog <record>": a customer can look it up (review
            # 57 #14); a record without one says the size is assumed
            cited = controller.source_of("adp_root_partition_bytes")
            return float(value), (cited if key in cited else f"{cited or 'assumed'} ({key})")

        if adp == "root-data-data":
            # ADPv2 (NetApp KB "What are the rules for Advanced Disk Partitioning?"): every partitioned drive has
            # one root and two equal data partitions; a RAID group never holds both data partitions of one drive;
            # "(1) whole spare per HA pair" when every RAID group is partitioned: one spare data partition per node
            for pair in [(k, k + 1) for k in range(0, nodes - 1, 2)] + ([(nodes - 1,)] if nodes % 2 else []):
                count = sum(per_node[k] for k in pair)
                limit, limit_rule = rules.adpv2_partition_limit(node.software or controller.default_software or None)
                partitioned = min(count, limit)
                whole = count - partitioned
                if whole:
                    notes.append(f"ADPv2 partitions at most {limit_rule}; {whole} drive(s) are used whole "
                                 f"({rules.ADP_RULES_SOURCE}).")
                root, root_source = root_size(partitioned // len(pair)) if partitioned else (0.0, "")
                if root >= rs:
                    problems.append(f"{where}: root partition {fmt(root)} is not smaller than the drive ({fmt(rs)}).")
                    root = rs
                data_part = (rs - root) / 2
                pairs.append(tuple(k + 1 for k in pair))
                pair_parts.append(Partitioning(tuple(k + 1 for k in pair), drive.id, partitioned, root, data_part, adp,
                                               root_source))
                # data partitions each node owns: one per drive (each drive gives one to each node), or the layouts'
                parts = [partitioned] * len(pair) if len(pair) == 2 else [2 * partitioned]
                if counts_apply and len(pair) == 2 and any(layouts[k].data_partitions is not None for k in pair):
                    asked_parts = [layouts[k].data_partitions for k in pair]
                    other = 2 * partitioned - sum(g for g in asked_parts if g is not None)
                    given_parts = [g if g is not None else other for g in asked_parts]
                    if min(given_parts) < 0 or sum(given_parts) != 2 * partitioned:
                        problems.append(f"{where}: the node layouts give {sum(g for g in given_parts if g >= 0)} "
                                        f"data partitions but the {partitioned} partitioned drives of the pair have "
                                        f"{2 * partitioned}; one per drive to each node used instead.")
                    else:
                        parts = given_parts
                whole_split = even_split(whole, len(pair))
                for i, k in enumerate(pair):
                    spares = spares_of(k) if len(pair) == 2 else 2 * spares_of(k)
                    if spares > parts[i]:
                        problems.append(f"{where}: node {k + 1} owns {parts[i]} data partitions, fewer than its "
                                        f"{plural(spares, 'spare')}.")
                        spares = parts[i]
                    node_spares[k] = SpareSet(k + 1, drive.id, spares, data_part, "spare data partition")
                    # a node with more data partitions than drives holds both partitions of some drive: at least
                    # two RAID groups (physical.build_groups at_least_two)
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
                    problems.append(f"{where}: node {k + 1} has {count} {drive.name} drive(s), fewer than its "
                                    f"{plural(wanted, 'spare')}.")
                node_spares[k] = SpareSet(k + 1, drive.id, spares, rs, "spare drive")
                # the root aggregate's whole drives (ADP off), on the node's first drive type only
                root_drives[k] = min(root_wanted, count - spares) if drive_index == 0 else 0
                usable_drives = count - spares - root_drives[k]
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
                    root, root_source = root_size(partitioned) if partitioned else (0.0, "")
                    if root >= rs:
                        problems.append(f"{where}: root partition {fmt(root)} is not smaller than the drive "
                                        f"({fmt(rs)}).")
                        root = rs
                    if partitioned:
                        node_parts[k] = Partitioning((k + 1,), drive.id, partitioned, root, rs - root, adp, root_source)
                        node_members[k].append(("data partitions", partitioned, rs - root, False))
                    if whole:
                        if internal_drives is None:
                            notes.append(f"ADPv1 partitions at most {rules.ADP_MAX_PARTITIONED[adp]} drives per node; "
                                         f"{whole} drive(s) on node {k + 1} are used whole.")
                        node_members[k].append(("drives", whole, rs, False))
                elif usable_drives > 0:
                    node_members[k].append(("drives", usable_drives, rs, False))

        node_raids: list[NodeRaid] = []
        for k in range(nodes):
            asked = (layouts[k].raid_group_size
                     if layouts and layouts[k].raid_group_size else None) or node.raid_group_size
            size = asked or rule.default
            if asked and asked > rule.max:
                problems.append(f"{where}: RAID group size {asked} exceeds the maximum {rule.max} for "
                                f"{raid_label} on {drive.name}; capped at {rule.max}.")
                size = rule.max
            total_members = sum(m[1] for m in node_members[k])
            if asked and total_members and asked > total_members:
                problems.append(f"{where}: node {k + 1}: RAID group size {asked} is larger than the "
                                f"{total_members} {drive.name} members available; one smaller group is built.")
            if 0 < total_members < rules.ONTAP_MIN_DRIVES[raid]:
                problems.append(f"{where}: node {k + 1} has {total_members} {drive.name} members for its aggregate, "
                                f"fewer than the {rules.ONTAP_MIN_DRIVES[raid]} {raid_label} needs "
                                "(ONTAP documentation).")
            sets: list[MemberSet] = []
            for label, count, member, two in node_members[k]:
                if count <= 0:
                    continue
                gs = build_groups(count, size, parity, member, at_least_two=two)
                sets.append(MemberSet(label, gs))
                if gs.idle_members:
                    notes.append(f"Node {k + 1}: {gs.idle_members} {label} left out of the RAID groups as extra spares "
                                 f"(a new {raid_label} group for them would cost {parity} parity).")
                if gs.unusable_bytes:
                    problems.append(f"{where}: node {k + 1}: a RAID group of {min(gs.groups)} members cannot hold "
                                    f"{raid_label}'s {parity} parity; its members are unused.")
            spare = node_spares[k] or SpareSet(k + 1, drive.id, 0, rs)
            node_raids.append(NodeRaid(k + 1, drive.id, spare, plural(spare.count, spare.member), node_parts[k],
                                       tuple(sets), size, rule.source, root_drives=root_drives[k]))
        out.append(DriveRaid(drive.id, total, tuple(node_raids), plex, odd, tuple(pairs), tuple(pair_parts)))

    return _assemble(node.id, "ONTAP", raid, out, adp, 2 if mirrored else 1, problems, notes)


def _assemble(system_id: str, family: str, raid: str, drives: Sequence[DriveRaid], adp: str, copies: int,
              problems: Sequence[str], notes: Sequence[str]) -> RaidLayout:
    """A RaidLayout from its per-drive detail: groups, spares and partitions gathered in node order."""
    groups: list[RaidGroup] = []
    spares: list[SpareSet] = []
    partitions: list[Partitioning] = []
    for dr in drives:
        partitions.extend(p for p in dr.pair_partitions if p.drives)
        for nr in dr.nodes:
            for s in nr.sets:
                groups.extend(_groups_of(nr.node, dr.drive_id, s.label, s.groups))
            if nr.spares.count:
                spares.append(nr.spares)
            if nr.partitioning is not None:
                partitions.append(nr.partitioning)
    return RaidLayout(system_id, family, raid, tuple(groups), tuple(spares), tuple(partitions), adp, copies,
                      tuple(drives), tuple(dict.fromkeys(problems)), tuple(dict.fromkeys(notes)))


# ----------------------------------------------------------------------------------------------- arrays


def array_layout(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]],
                 where: str) -> RaidLayout:
    """An E-Series or generic array's layout (the rules of ``models.capacity.array``'s docstring): per drive
    type one volume group or pool shared by the controllers (node 0), ``spares_per_node x nodes`` whole hot
    spares, then RAID 0 / none (every drive data), RAID 10 mirror pairs, DDP (8 + 2 stripes over the pool, the
    preservation capacity kept) or groups of ``raid_group_size``, else all the drives up to 30 per group.

    Args:
        node: the controller node; controller: its catalog record; drives: (drive record, count) per drive type;
        where: how problems name the node (:func:`where_text`).
    """
    problems: list[str] = []
    notes: list[str] = []
    raid = node.raid_type
    label = rules.RAID_LABEL.get(raid, raid)
    if controller.family == "E-Series" and raid not in ARRAY_RAID:
        problems.append(f"{where}: E-Series offers RAID 0, 1/10, 5, 6 and DDP, not {label}; computed with its "
                        "parity count.")
    nodes = node.nodes or controller.nodes
    if not drives or sum(n for _, n in drives) == 0:
        problems.append(f"{where}: no drives are linked to this controller (link shelves with drives to it).")
    out: list[DriveRaid] = []
    groups: list[RaidGroup] = []
    spare_sets: list[SpareSet] = []
    for drive, total in drives:
        rs = float(drive.right_sized_bytes)
        extra: list[RaidGroup] = []
        spares = min(node.spares_per_node * nodes, total)
        if node.spares_per_node * nodes > total:
            problems.append(f"{where}: {total} {drive.name} drive(s) cannot give "
                            f"{plural(node.spares_per_node * nodes, 'spare')}.")
        members = total - spares
        minimum = rules.ARRAY_MIN_DRIVES.get(raid, 1)
        if 0 < members < minimum:
            problems.append(f"{where}: {members} {drive.name} drive(s) are fewer than the {minimum} {label} needs "
                            f"({rules.SANTRICITY_DOCS}).")
        spare = SpareSet(0, drive.id, spares, rs, "hot spare drive")
        sets: tuple[MemberSet, ...] = ()
        size = preserved = unusable = unused = 0
        size_source = ""
        if members <= 0:
            pass
        elif raid in ("none", "raid0"):
            extra.append(RaidGroup(0, drive.id, members, members, 0, False, rs))
            if raid == "none":
                notes.append("No RAID: every drive holds data and none protects it (seed 003: EF550 'No RAID stripe').")
        elif raid == "raid10":
            if members < 2:
                problems.append(f"{where}: RAID10 needs at least 2 drives.")
                unusable = members
            else:
                extra.extend(RaidGroup(0, drive.id, 2, 1, 1, False, rs) for _ in range(members // 2))
                if members % 2:
                    notes.append(f"RAID10 uses an even number of drives; 1 {drive.name} drive is left unused.")
                    unused = 1
        elif raid == "ddp":
            if members < rules.DDP_MIN_DRIVES:
                problems.append(f"{where}: a Dynamic Disk Pool needs at least {rules.DDP_MIN_DRIVES} drives; "
                                f"{members} given.")
                unusable = members
            else:
                preserved = min(node.ddp_preservation_drives, members)
                if node.ddp_preservation_drives > rules.DDP_MAX_PRESERVATION_DRIVES:
                    problems.append(f"{where}: a Dynamic Disk Pool keeps at most {rules.DDP_MAX_PRESERVATION_DRIVES} "
                                    f"drives' worth of preservation capacity; {node.ddp_preservation_drives} asked "
                                    f"({rules.SANTRICITY_POOLS_DOC}).")
                default = rules.ddp_default_preservation(members)
                if node.ddp_preservation_drives != default:
                    notes.append(f"DDP preservation capacity: {plural(node.ddp_preservation_drives, 'drive')}' worth "
                                 f"kept; SANtricity's default for a {members}-drive pool is {default} (one for every "
                                 f"{rules.DDP_DRIVES_PER_PRESERVED} drives).")
                limit = rules.ddp_max_pool_bytes(drive.marketed_bytes)
                if members * drive.marketed_bytes > limit:
                    problems.append(f"{where}: a Dynamic Disk Pool holds at most {limit / 1e15:g} PB of "
                                    f"{'drives over' if limit > rules.DDP_MAX_POOL_BYTES else 'drives under'} "
                                    f"{rules.DDP_LARGE_DRIVE_BYTES / 1e12:g} TB; {members} x {drive.name} is "
                                    f"{members * drive.marketed_bytes / 1e15:.2f} PB: build two pools (computed here "
                                    "as one).")
                extra.append(RaidGroup(0, drive.id, members, rules.DDP_DATA, rules.DDP_PARITY, False, rs))
        else:
            parity = rules.PARITY_PER_GROUP.get(raid, 1)
            size = node.raid_group_size or min(members, rules.ARRAY_MAX_GROUP)
            size_source = ("project raid_group_size" if node.raid_group_size else
                           f"all {members} drives after spares, at most {rules.ARRAY_MAX_GROUP} per volume group "
                           f"({rules.SANTRICITY_DOCS})")
            if node.raid_group_size and node.raid_group_size > members:
                problems.append(f"{where}: RAID group size {node.raid_group_size} is larger than the {members} "
                                f"{drive.name} drives; one smaller group is built.")
            if raid in ("raid5", "raid6") and size > rules.ARRAY_MAX_GROUP:
                problems.append(f"{where}: {label} volume groups hold at most {rules.ARRAY_MAX_GROUP} drives "
                                f"({rules.SANTRICITY_DOCS}); {size} asked.")
            gs = build_groups(members, size, parity, rs)
            sets = (MemberSet("drives", gs),)
            if gs.idle_members:
                notes.append(f"{gs.idle_members} drive(s) left out of the {label} groups as extra spares (a new group "
                             f"would cost {parity} parity).")
            if gs.unusable_bytes:
                problems.append(f"{where}: a {label} group of {min(gs.groups)} drives cannot hold its parity; its "
                                "drives are unused.")
        nr = NodeRaid(0, drive.id, spare, plural(spares, "spare drive"), None, sets, size, size_source, preserved,
                      unusable, unused)
        out.append(DriveRaid(drive.id, members, (nr,)))
        groups.extend(extra)
        for s in sets:
            groups.extend(_groups_of(0, drive.id, s.label, s.groups))
        if spares:
            spare_sets.append(spare)
    return RaidLayout(node.id, controller.family, raid, tuple(groups), tuple(spare_sets), (), "none", 1, tuple(out),
                      tuple(dict.fromkeys(problems)), tuple(dict.fromkeys(notes)))


# ----------------------------------------------------------------------------------------------- vSAN, CVO


VSAN_STRIPES = {"ftt0": (1, 0), "ftt1-raid1": (1, 1), "ftt2-raid1": (1, 2), "ftt3-raid1": (1, 3),
                "ftt1-raid5": (3, 1), "ftt2-raid6": (4, 2)}
"""vSAN OSA storage policies as stripes of (data, parity or mirror copies) components (vSAN documentation: RAID1
FTT=n keeps n + 1 copies, RAID5 is 3+1, RAID6 4+2; ``rules.VSAN_POLICIES``): width / data is the policy's factor."""


def vsan_stripe(policy: str, architecture: str = "osa", hosts: int = 0) -> tuple[int, int]:
    """(data, parity) components of one stripe of a storage policy: :data:`VSAN_STRIPES`; ESA's adaptive RAID-5 is
    2+1 on 3-5 hosts and 4+1 on 6 or more (``rules.VSAN_ESA_DOCS``, as ``rules.vsan_policy_rule``).

    Raises:
        KeyError: an unknown policy.
    """
    data, parity = VSAN_STRIPES[policy]
    if architecture == "esa" and policy == "ftt1-raid5":
        return (4, 1) if hosts >= 6 else (2, 1)
    return data, parity


def hci_layout(node: HciClusterNode, capacity: Drive) -> RaidLayout:
    """A vSAN cluster's layout: one stripe shape (:func:`vsan_stripe`) over every capacity device of the
    cluster (hosts x disk groups x devices), node 0; a stretched cluster's stripe is laid out inside one data site
    (``models.capacity.stretched.site_hosts``)."""
    from models.capacity.stretched import site_hosts

    data, parity = vsan_stripe(node.policy, node.architecture, site_hosts(node))
    devices = node.hosts * node.disk_groups_per_host * node.capacity_drives_per_group
    group = RaidGroup(0, capacity.id, devices, data, parity, False, float(capacity.right_sized_bytes),
                      "capacity device")
    return RaidLayout(node.id, "vSAN", node.policy, (group,))


def cloud_layout(node: CloudVmNode, disk: CloudDisk) -> RaidLayout:
    """A Cloud Volumes ONTAP node's layout: one RAID0 aggregate over its data disks (node 1), which the cloud
    protects; an HA pair mirrors it (``mirror_copies`` 2). NetApp CVO documentation (``rules.CVO_DOCS``)."""
    group = RaidGroup(1, disk.id, node.disk_count, node.disk_count, 0, False, float(disk.size_bytes), "cloud disk")
    return RaidLayout(node.id, "Cloud Volumes ONTAP", "raid0", (group,), mirror_copies=2 if node.ha else 1)


# ----------------------------------------------------------------------------------------------- scenario


def linked_drives(shelves: Sequence[ShelfNode], catalog: Catalog) -> list[tuple[Drive, int]]:
    """(drive record, count) per drive type in ``shelves``, in first-seen order: shelves whose drive id is not in
    the catalog or that hold no drives are left out (the capacity engine names them as problems)."""
    counts: dict[str, tuple[Drive, int]] = {}
    for shelf in shelves:
        try:
            drive = catalog.get(shelf.drive, Drive)
        except CatalogError:
            continue
        if shelf.drive_count <= 0:
            continue
        record, n = counts.get(drive.id, (drive, 0))
        counts[drive.id] = (record, n + shelf.drive_count)
    return list(counts.values())


def controller_layout(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]], where: str,
                      internal_drives: dict[str, int] | None = None) -> RaidLayout:
    """The layout of a controller by its family: :func:`ontap_layout` for ONTAP, :func:`array_layout` otherwise
    (arguments as those)."""
    if controller.family == "ONTAP":
        return ontap_layout(node, controller, drives, where, internal_drives)
    return array_layout(node, controller, drives, where)


def system_layout(scenario: Scenario, catalog: Catalog, node_id: str) -> RaidLayout | None:
    """The layout of one system of ``scenario`` (a controller with the shelves it reaches, an HCI cluster or a
    cloud VM); None for another node kind, a missing node, or a catalog id the catalog lacks (the engines report
    those)."""
    node = topology.of(scenario).node(node_id)
    try:
        if isinstance(node, ControllerNode):
            controller = catalog.get(node.catalog_id, Controller)
            shelves = topology.of(scenario).shelves_of(node.id)
            where = where_text("controller", node.id, node.label or controller.name)
            return controller_layout(node, controller, linked_drives(shelves, catalog), where,
                                     entry_internal_drives(controller, shelves, catalog))
        if isinstance(node, HciClusterNode):
            host = catalog.get(node.catalog_id, HciNode)
            return hci_layout(node, catalog.get(host.capacity_drive, Drive))
        if isinstance(node, CloudVmNode):
            catalog.get(node.catalog_id, CloudVm)
            return cloud_layout(node, catalog.get(node.disk, CloudDisk))
    except CatalogError:
        return None
    return None


def raid_layouts(scenario: Scenario, catalog: Catalog) -> Mapping[str, RaidLayout]:
    """Every system's RAID layout: system node id -> :class:`RaidLayout` (controllers, HCI clusters, cloud VMs;
    managed services and systems whose catalog records are missing have none). Pure; a read-only mapping."""
    out: dict[str, RaidLayout] = {}
    topo = topology.of(scenario)
    alike: dict[tuple[Any, ...], tuple[RaidLayout, str]] = {}  # controllers built alike share one computation
    several = sum(isinstance(node, ControllerNode) for node in topo.systems) > 1  # a lone one shares with none
    for node in topo.systems:
        key = _controller_key(node, topo) if several and isinstance(node, ControllerNode) else None
        if key is not None and isinstance(node, ControllerNode) and key in alike:
            first, where = alike[key]
            out[node.id] = _renamed(first, where, _controller_where(node, catalog), node.id)
            continue
        layout = system_layout(scenario, catalog, node.id)
        if layout is not None:
            out[node.id] = layout
            if key is not None and isinstance(node, ControllerNode):
                alike[key] = (layout, _controller_where(node, catalog))
    return MappingProxyType(out)


def _controller_key(node: ControllerNode, topo: topology.Topology) -> tuple[Any, ...] | None:
    """What a controller's layout depends on (its settings and its shelves' drives, not its id, label or place);
    None when a value cannot be a key."""
    fields = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in node.__dict__.items()
                   if k not in ("id", "label", "x", "y"))
    shelves = tuple((s.catalog_id, s.drive, s.drive_count) for s in topo.shelves_of(node.id))
    key = (fields, shelves)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _controller_where(node: ControllerNode, catalog: Catalog) -> str:
    """How a controller's problems name it (:func:`where_text`, as :func:`system_layout` builds it)."""
    record = catalog.find(node.catalog_id)
    return where_text("controller", node.id, node.label or (record.name if record is not None else node.id))


def _renamed(layout: RaidLayout, where: str, new_where: str, system_id: str) -> RaidLayout:
    """A layout computed for a controller built alike, for another: its id, and its problems and notes naming
    it."""
    return replace(layout, system_id=system_id,
                   problems=tuple(p.replace(where, new_where) for p in layout.problems),
                   notes=tuple(n.replace(where, new_where) for n in layout.notes))
