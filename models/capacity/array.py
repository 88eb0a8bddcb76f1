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
  11.90 (``rules.SANTRICITY_POOLS_DOC``, ``rules.DDP_MAX_POOL_BYTES``);
- EF300 / EF600 SSD pools: the additional optimization capacity the project gives (% of the pool's usable), else
  a note that SANtricity keeps a recommended amount it does not publish (``rules.SANTRICITY_OPTIMIZATION_DOC``).
There is no file-system reserve on these arrays.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.capacity import rules
from models.capacity.layout import ARRAY_RAID, RaidLayout, array_layout
from models.capacity.physical import Physical, Waterfall, describe_groups, fmt, plural
from models.capacity.results import Aggregate, CapacityStep, frozen_inputs
from models.capacity.step_sources import marketed_source, right_sized_source
from models.catalog import Controller, Drive
from models.project import ControllerNode

__all__ = ["ARRAY_RAID", "array_capacity"]


def array_capacity(node: ControllerNode, controller: Controller, drives: Sequence[tuple[Drive, int]], where: str,
                   layout: RaidLayout | None = None) -> Physical:
    """The physical side of an E-Series or generic array with its drives (see the module docstring): the waterfall
    written from its RAID layout (``models.capacity.layout.array_layout`` of the same arguments, as
    ``raid_layouts`` builds it; None: built here)."""
    if layout is None:
        layout = array_layout(node, controller, drives, where)
    notes: list[str] = list(layout.notes)
    lines: list[str] = []
    aggregates: list[Aggregate] = []
    raid = layout.raid_type
    label = rules.RAID_LABEL.get(raid, raid)
    nodes = node.nodes or controller.nodes
    source = (rules.SANTRICITY_DOCS if controller.family == "E-Series"
              else f"generic array RAID arithmetic ({rules.SANTRICITY_DOCS})")

    raw = sum(d.marketed_bytes * n for d, n in drives)
    right_sized = sum(d.right_sized_bytes * n for d, n in drives)
    first = [
        CapacityStep("Raw (marketed)", raw, raw, marketed_source(d for d, _ in drives),
                     " + ".join(f"{n} x {d.marketed_bytes / 1e9:,.0f} GB" for d, n in drives) or "no drives",
                     frozen_inputs({"drives": str(sum(n for _, n in drives))})),
        CapacityStep("Right-sized", raw, right_sized, right_sized_source(d for d, _ in drives),
                     " + ".join(f"{n} x {fmt(d.right_sized_bytes)}" for d, n in drives) or "no drives",
                     frozen_inputs({d.name: fmt(d.right_sized_bytes) for d, _ in drives})),
    ]
    fall = Waterfall()
    records = {d.id: d for d, _ in drives}

    for dr in layout.drives:
        drive = records[dr.drive_id]
        nr = dr.nodes[0]
        rs = float(drive.right_sized_bytes)
        spares = nr.spares.count
        if spares:
            fall.deduct("Spares", spares * rs,
                        f"hot spares per controller as the design sets them, x {nodes} controllers ({source})",
                        f"{plural(spares, 'hot spare drive')} x {fmt(rs)}")
        members = dr.members
        shaped = layout.groups_of(drive.id)
        data = 0.0
        groups: tuple[int, ...] = tuple(g.members for g in shaped)
        parity = shaped[0].parity if shaped else 0
        if members <= 0:
            pass
        elif raid in ("none", "raid0"):
            data = members * rs
        elif raid == "raid10":
            pairs = len(shaped)
            data = pairs * rs
            parity = 1
            if nr.unusable:
                fall.deduct("Unusable (too few members)", members * rs, source, f"{members} drive x {fmt(rs)}")
            else:
                fall.deduct("RAID10 mirror", pairs * rs, source, f"{pairs} mirror drives x {fmt(rs)}")
                if nr.unused:
                    fall.deduct("Unusable (odd drive)", rs, source, f"1 drive x {fmt(rs)}")
        elif raid == "ddp":
            if nr.unusable:
                fall.deduct("Unusable (too few members)", members * rs, source, f"{members} drives x {fmt(rs)}")
            else:
                preserve = nr.preserved
                fall.deduct("DDP preservation capacity", preserve * rs,
                            f"the design's DDP preservation drives ({rules.SANTRICITY_DOCS})",
                            f"{plural(preserve, 'drive')}' worth x {fmt(rs)}")
                pool = (members - preserve) * rs
                stripe = shaped[0]
                par = pool * stripe.parity / stripe.width
                fall.deduct(f"DDP RAID 6 ({stripe.data}+{stripe.parity}) parity", par, rules.SANTRICITY_DOCS,
                            f"{stripe.parity}/{stripe.width} of {fmt(pool)}")
                data = pool - par
                if rules.has_optimization_capacity(controller.name, drive.media):
                    pct = node.optimization_capacity_pct
                    if pct:
                        fall.deduct("Additional optimization capacity", data * pct / 100.0,
                                    f"project optimization_capacity_pct; {rules.SANTRICITY_OPTIMIZATION_DOC}",
                                    f"{pct:g}% x {fmt(data)}", {"optimization capacity": f"{pct:g}%"})
                        data -= data * pct / 100.0
                    elif pct is None:
                        notes.append(f"{controller.name}: SANtricity sets aside a recommended additional "
                                     "optimization capacity in SSD pools, by a rule it does not publish; not counted "
                                     "here: give the pool's optimization capacity (%) to count it "
                                     f"({rules.SANTRICITY_OPTIMIZATION_DOC}).")
        else:
            gs = nr.sets[0].groups
            parity = gs.parity_per_group
            size = nr.group_size
            groups = gs.groups
            if gs.idle_members:
                fall.deduct("Spares", gs.idle_bytes, source, f"{gs.idle_members} drive(s) left out of {label} groups")
            data = gs.data_bytes
            fall.deduct(f"{label} parity", gs.parity_bytes, f"{source}; group size {size}",
                        f"{gs.parity_members} parity drives x {fmt(rs)} ({describe_groups(gs.groups, parity)})",
                        {"RAID group size": str(size), "groups": str(len(gs.groups))})
            if gs.unusable_bytes:
                fall.deduct("Unusable (too few members)", gs.unusable_bytes, source, fmt(gs.unusable_bytes))
        if members > 0:
            shape = describe_groups(groups, parity) if raid in rules.PARITY_PER_GROUP else (
                f"{len(groups)} mirror pairs" if raid == "raid10" else f"{members} drives")
            lines.append(f"{'pool' if raid == 'ddp' else 'volume group'} {label} {shape} of {drive.name} ({fmt(rs)}), "
                         f"{plural(spares, 'spare drive')}: {fmt(data)} usable")
            aggregates.append(Aggregate(0, f"{'pool' if raid == 'ddp' else 'vg'}_{drive.id}", drive.id, raid, groups,
                                        parity, rs, data, data))

    steps, usable = fall.steps(first)
    return Physical(steps, raw, right_sized, usable, aggregates, lines, list(dict.fromkeys(notes)),
                    list(layout.problems))
