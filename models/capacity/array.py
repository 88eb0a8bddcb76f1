"""E-Series / EF-Series and generic arrays: volume groups (RAID 0, 1/10, 5, 6, ...) or a Dynamic Disk Pool.

Rules (SANtricity documentation, public_facts.md "E-Series / EF-Series"; seed 003 checks: EF550 24 x 800GB at
744 GiB, no RAID -> 17.4 TiB; 192 x 300GB in RAID5 3+1 sets -> data = 3/4 of raw):

- the drives of each type form one volume group (or pool) shared by the controllers;
- spares: ``spares_per_node x nodes`` whole hot-spare drives (the project's field is per controller node);
- RAID0 / none: every drive holds data; RAID1 / RAID10: half (an odd drive is left unused);
- RAID5 / RAID6 (and RAID4 / DP / TEC on a generic array): groups of ``raid_group_size`` drives, else at most 30
  (E-Series' volume-group limit), split as evenly as possible; parity 1 / 2 / 1 / 2 / 3 per group;
- DDP: at least 11 drives; preservation capacity = ``ddp_preservation_drives`` drives' worth (at most 10; a note
  names SANtricity's default of one for every six drives when the project keeps another); the rest in RAID 6
  stripes of 8 data + 2 parity (80%); a pool holds at most 6 PB of drives (12 PB of drives over 23 TB), SANtricity
  11.90 (``rules.SANTRICITY_POOLS_DOC``, ``rules.DDP_MAX_POOL_BYTES``).
There is no file-system reserve on these arrays.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.catalog import Controller, Drive
from models.project import ControllerNode

from . import rules
from .physical import Physical, Waterfall, build_groups, describe_groups, fmt, plural
from .results import Aggregate, CapacityStep, frozen_inputs

ARRAY_RAID = ("none", "raid0", "raid10", "raid5", "raid6", "ddp")


def array_capacity(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]], where: str) -> Physical:
    """The physical side of an E-Series or generic array with its drives (see the module docstring)."""
    problems: list[str] = []
    notes: list[str] = []
    layout: list[str] = []
    aggregates: list[Aggregate] = []
    raid = node.raid_type
    label = rules.RAID_LABEL.get(raid, raid)
    if controller.family == "E-Series" and raid not in ARRAY_RAID:
        problems.append(f"{where}: E-Series offers RAID 0, 1/10, 5, 6 and DDP, not {label}; computed with its parity count.")
    nodes = node.nodes or controller.nodes
    source = rules.SANTRICITY_DOCS if controller.family == "E-Series" else f"generic array RAID arithmetic ({rules.SANTRICITY_DOCS})"

    raw = sum(d.marketed_bytes * n for d, n in drives)
    right_sized = sum(d.right_sized_bytes * n for d, n in drives)
    first = [
        CapacityStep("Raw (marketed)", raw, raw, "catalog drive marketed capacity (decimal)",
                     " + ".join(f"{n} x {d.marketed_bytes / 1e9:,.0f} GB" for d, n in drives) or "no drives",
                     frozen_inputs({"drives": str(sum(n for _, n in drives))})),
        CapacityStep("Right-sized", raw, right_sized, "catalog drive right-sized capacity",
                     " + ".join(f"{n} x {fmt(d.right_sized_bytes)}" for d, n in drives) or "no drives",
                     frozen_inputs({d.name: fmt(d.right_sized_bytes) for d, _ in drives})),
    ]
    fall = Waterfall()
    if not drives or sum(n for _, n in drives) == 0:
        problems.append(f"{where}: no drives are linked to this controller (link shelves with drives to it).")

    for drive, total in drives:
        rs = float(drive.right_sized_bytes)
        spares = min(node.spares_per_node * nodes, total)
        if node.spares_per_node * nodes > total:
            problems.append(f"{where}: {total} {drive.name} drive(s) cannot give {node.spares_per_node * nodes} spare(s).")
        if spares:
            fall.deduct("Spares", spares * rs, f"project: spares per node x {nodes} controllers ({source})",
                        f"{plural(spares, 'hot spare drive')} x {fmt(rs)}")
        members = total - spares
        minimum = rules.ARRAY_MIN_DRIVES.get(raid, 1)
        if 0 < members < minimum:
            problems.append(f"{where}: {members} {drive.name} drive(s) are fewer than the {minimum} {label} needs ({rules.SANTRICITY_DOCS}).")
        data = 0.0
        groups: tuple[int, ...] = ()
        parity = 0
        if members <= 0:
            pass
        elif raid in ("none", "raid0"):
            data = members * rs
            groups = (members,)
            if raid == "none":
                notes.append("No RAID: every drive holds data and none protects it (seed 003: EF550 'No RAID stripe').")
        elif raid == "raid10":
            pairs = members // 2
            data = pairs * rs
            groups = (2,) * pairs
            parity = 1
            if members < 2:
                problems.append(f"{where}: RAID10 needs at least 2 drives.")
                fall.deduct("Unusable (too few members)", members * rs, source, f"{members} drive x {fmt(rs)}")
            else:
                fall.deduct("RAID10 mirror", pairs * rs, source, f"{pairs} mirror drives x {fmt(rs)}")
                if members % 2:
                    notes.append(f"RAID10 uses an even number of drives; 1 {drive.name} drive is left unused.")
                    fall.deduct("Unusable (odd drive)", rs, source, f"1 drive x {fmt(rs)}")
        elif raid == "ddp":
            if members < rules.DDP_MIN_DRIVES:
                problems.append(f"{where}: a Dynamic Disk Pool needs at least {rules.DDP_MIN_DRIVES} drives; {members} given.")
                fall.deduct("Unusable (too few members)", members * rs, source, f"{members} drives x {fmt(rs)}")
            else:
                preserve = min(node.ddp_preservation_drives, members)
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
                fall.deduct("DDP preservation capacity", preserve * rs, f"project ddp_preservation_drives ({rules.SANTRICITY_DOCS})",
                            f"{plural(preserve, 'drive')}' worth x {fmt(rs)}")
                pool = (members - preserve) * rs
                par = pool * rules.DDP_PARITY / (rules.DDP_DATA + rules.DDP_PARITY)
                fall.deduct("DDP RAID 6 (8+2) parity", par, rules.SANTRICITY_DOCS, f"2/10 of {fmt(pool)}")
                data = pool - par
                groups = (members,)
        else:
            parity = rules.PARITY_PER_GROUP.get(raid, 1)
            size = node.raid_group_size or min(members, rules.ARRAY_MAX_GROUP)
            if node.raid_group_size and node.raid_group_size > members:
                problems.append(f"{where}: RAID group size {node.raid_group_size} is larger than the {members} {drive.name} drives; one smaller group is built.")
            if raid in ("raid5", "raid6") and size > rules.ARRAY_MAX_GROUP:
                problems.append(f"{where}: {label} volume groups hold at most {rules.ARRAY_MAX_GROUP} drives ({rules.SANTRICITY_DOCS}); {size} asked.")
            gs = build_groups(members, size, parity, rs)
            groups = gs.groups
            if gs.idle_members:
                fall.deduct("Spares", gs.idle_bytes, source, f"{gs.idle_members} drive(s) left out of {label} groups")
                notes.append(f"{gs.idle_members} drive(s) left out of the {label} groups as extra spares (a new group would cost {parity} parity).")
            data = gs.data_bytes
            fall.deduct(f"{label} parity", gs.parity_bytes, f"{source}; group size {size}",
                        f"{gs.parity_members} parity drives x {fmt(rs)} ({describe_groups(gs.groups, parity)})",
                        {"RAID group size": str(size), "groups": str(len(gs.groups))})
            if gs.unusable_bytes:
                problems.append(f"{where}: a {label} group of {min(gs.groups)} drives cannot hold its parity; its drives are unused.")
                fall.deduct("Unusable (too few members)", gs.unusable_bytes, source, fmt(gs.unusable_bytes))
        if members > 0:
            shape = describe_groups(groups, parity) if raid in rules.PARITY_PER_GROUP else (
                f"{len(groups)} mirror pairs" if raid == "raid10" else f"{members} drives")
            layout.append(f"{'pool' if raid == 'ddp' else 'volume group'} {label} {shape} of {drive.name} ({fmt(rs)}), "
                          f"{plural(spares, 'spare drive')}: {fmt(data)} usable")
            aggregates.append(Aggregate(0, f"{'pool' if raid == 'ddp' else 'vg'}_{drive.id}", drive.id, raid, groups, parity, rs, data, data))

    steps, usable = fall.steps(first)
    return Physical(steps, raw, right_sized, usable, aggregates, layout, list(dict.fromkeys(notes)), list(dict.fromkeys(problems)))


