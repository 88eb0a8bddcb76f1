"""The catalog audit: the numbers a sizing depends on, by kind, with their source kind, and the consistency rules
every record must keep (``storplan catalog --audit``).

Rules (each failure is one sentence naming the record and what disagrees):

* drive limits: a controller's ``max_drives`` holds at least its internal bays; where the shelf-cabling rule is
  published (``max_shelves``) the limit is exactly internal bays + external shelves x the shelf's bays (per HA pair);
  a switch-attached limit (``max_shelves_switched``, ``max_drives_switched``) is above the direct-attached shelf count
  and its shelves are the fewest that hold its drives beside the internal bays;
  a published maximum raw capacity (``max_raw_bytes``) admits its internal bays full of the smallest drive it takes;
  every shelf a controller names is a shelf record.
* ports for protocols: every protocol a controller, adapter or link type lists has ports of the right medium to carry
  it (FCP and NVMe/FC: FC ports; iSCSI, NVMe/TCP, NFS, SMB: Ethernet ports).
* footprint (:func:`footprint_failures`, over the platforms the sizer proposes, ``models.sizing.array_proposals``):
  every proposed platform keeps its own limits (``models.catalog.limits``; switch-attached ones where its shelves
  are) and reports at least the rack units of its controller chassis, external shelves and storage switches and at
  least its controller's typical power.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from models.catalog.limits import STORAGE_SWITCH_PAIR, platform_limit_problems, storage_switch_pairs_needed
from models.catalog.schema import Adapter, Controller, Drive, Entry, LinkType, Shelf, Switch

DEFAULT_RACK_UNITS = 2
"""Rack units counted for a chassis or shelf record without ``rack_units`` (the sizer's assumption alike)."""

Proposal = tuple[str, Controller, Sequence[tuple[Shelf | None, Drive | None, int]], int, "float | None",
                 "Switch | None"]
"""One platform the sizer proposes: summary, controller record, shelves (record, drive, count), the rack units and
typical power (W, None: not published) it reports, and the storage switch its shelves are switch-attached through
(a pair; None: direct-attached)."""

FC_PROTOCOLS = frozenset({"FCP", "NVMe/FC"})
"""Protocols an FC port carries."""

SIZING_FIELDS: dict[str, tuple[str, ...]] = {
    "controller": ("max_drives", "max_shelves", "max_raw_bytes", "max_shelves_switched", "max_drives_switched",
                   "ports_per_node_expanded", "max_expansion_ssd", "fc_ports_per_node", "fc_port_speed_gbps",
                   "ethernet_ports_per_node", "ethernet_port_speed_gbps", "protocols", "rack_units",
                   "typical_power_w", "nodes", "cores_per_node", "memory_gib_per_node", "nvram_gib_per_node",
                   "backend_lanes_per_node", "flash_cache_gib_per_node", "flash_cache_read_us",
                   "flash_cache_read_iops_per_node", "max_throughput_mbps", "peak_iops"),
    "shelf": ("bays", "rack_units", "typical_power_w"),
    "drive": ("marketed_bytes", "right_sized_bytes", "typical_power_w"),
    "switch": ("ports", "speed_gbps", "rack_units", "typical_power_w"),
}
"""Per entry kind, the fields a sizing depends on that the audit lists (drive limits, raw capacity, front-end
ports, protocols, rack units, power: the sizer's footprint counts the shelves' and drives' typical power and the
project's front-end switches, ``models.topology.front_end_switches``), and a controller's performance-driving
hardware (nodes, cores and memory per node, back-end lanes, Flash Cache, throughput and published IOPS limits: the
hardware relation runs ONTAP's per-core costs on the record's cores, ``models.performance.hardware_relation``;
NVRAM is listed beside them though no model reads it yet)."""


def _shelves(controller: Controller, by_id: dict[str, Entry]) -> tuple[list[Shelf], list[str]]:
    """The controller's shelf records and the ids it names that are not shelf records."""
    found: list[Shelf] = []
    missing: list[str] = []
    for sid in controller.shelves:
        record = by_id.get(sid)
        if isinstance(record, Shelf):
            found.append(record)
        else:
            missing.append(sid)
    return found, missing


def drive_limit_failures(entries: Iterable[Entry]) -> list[str]:
    """Controllers whose drive limit, shelves, bays and raw-capacity limit disagree (module rules), one sentence
    each; empty when all agree."""
    items = list(entries)
    by_id = {e.id: e for e in items}
    drives = [e for e in items if isinstance(e, Drive)]
    out: list[str] = []
    for c in items:
        if not isinstance(c, Controller):
            continue
        shelves, missing = _shelves(c, by_id)
        out += [f"{c.id}: names shelf '{sid}', which is not a shelf record" for sid in missing]
        internal = max((s.bays for s in shelves if s.internal), default=0)
        external = max((s.bays for s in shelves if not s.internal), default=0)
        if c.max_drives < internal:
            out.append(f"{c.id}: max_drives {c.max_drives} is below its {internal} internal bays")
        if c.max_shelves is not None:
            if c.max_shelves and not external:
                out.append(f"{c.id}: takes {c.max_shelves} external shelves but names no external shelf record")
            elif c.max_drives != internal + c.max_shelves * external:
                out.append(f"{c.id}: max_drives {c.max_drives} is not its {internal} internal bays + "
                           f"{c.max_shelves} shelves x {external} bays = {internal + c.max_shelves * external}")
        if c.max_shelves_switched is not None:
            out += _switched_failures(c, internal, external)
        if c.max_raw_bytes is not None:
            sizes = [d.marketed_bytes for d in drives if c.id in d.controllers]
            if sizes and internal * min(sizes) > c.max_raw_bytes:
                out.append(f"{c.id}: max_raw_bytes {c.max_raw_bytes:,} does not admit its {internal} internal bays "
                           f"of its smallest drive ({min(sizes):,} bytes)")
    return out


def _switched_failures(c: Controller, internal: int, external: int) -> list[str]:
    """The switch-attached limit rule (module rules) of one controller, one sentence per failure."""
    out: list[str] = []
    shelves, drives = c.max_shelves_switched or 0, c.max_drives_switched or c.max_drives
    if not external:
        out.append(f"{c.id}: takes {shelves} switch-attached shelves but names no external shelf record")
        return out
    if c.max_shelves is None or shelves <= c.max_shelves:
        out.append(f"{c.id}: max_shelves_switched {shelves} is not above its direct-attached max_shelves "
                   f"{c.max_shelves}")
    if not internal + (shelves - 1) * external < drives <= internal + shelves * external:
        out.append(f"{c.id}: max_drives_switched {drives} does not need exactly its {shelves} switch-attached "
                   f"shelves beside {internal} internal bays ({external} bays a shelf)")
    return out


def protocol_port_failures(entries: Iterable[Entry]) -> list[str]:
    """Records listing a protocol they have no port of the right medium for, one sentence each (module rules)."""
    out: list[str] = []
    for e in entries:
        if isinstance(e, Controller):
            fc = e.fc_ports_per_node > 0 and e.fc_port_speed_gbps > 0
            eth = e.ethernet_ports_per_node > 0 and e.ethernet_port_speed_gbps > 0
            out += [f"{e.id}: lists {p} but has no {'FC' if p in FC_PROTOCOLS else 'Ethernet'} ports"
                    for p in e.protocols if not (fc if p in FC_PROTOCOLS else eth)]
        elif isinstance(e, Adapter):
            fc = e.adapter_type == "FC HBA"
            out += [f"{e.id}: an {e.adapter_type} lists {p}" for p in e.protocols if (p in FC_PROTOCOLS) != fc]
        elif isinstance(e, LinkType) and e.medium in ("FC", "Ethernet"):
            fc = e.medium == "FC"
            out += [f"{e.id}: an {e.medium} link lists {p}" for p in e.protocols if (p in FC_PROTOCOLS) != fc]
    return out


def consistency_failures(entries: Iterable[Entry]) -> list[str]:
    """Every consistency rule's failures over ``entries`` (the catalog), drive limits first; empty: it passes."""
    items = list(entries)
    return drive_limit_failures(items) + protocol_port_failures(items)


def sizing_numbers(entries: Iterable[Entry]) -> list[tuple[str, str, str, str, str]]:
    """The numbers a sizing depends on, as rows ``(kind, id, field, value, source kind)`` in catalog order, for the
    fields of :data:`SIZING_FIELDS` a record sets (a field without a provenance entry is "unstated")."""
    rows: list[tuple[str, str, str, str, str]] = []
    for e in entries:
        for name in SIZING_FIELDS.get(e.kind, ()):
            if name not in e.model_fields_set:
                continue
            value = getattr(e, name)
            if value is None:
                continue
            p = e.provenance.get(name)
            shown = ", ".join(value) if isinstance(value, list) else f"{value:,}" if isinstance(value, int) \
                else f"{value:g}" if isinstance(value, float) else str(value)
            rows.append((e.kind, e.id, name, shown, p.kind if p is not None else "unstated"))
    return rows


def kind_shares(rows: Iterable[tuple[str, str, str, str, str]]) -> dict[str, Counter[str]]:
    """Per entry kind, how many of the audited numbers (:func:`sizing_numbers` rows) are of each source kind."""
    out: dict[str, Counter[str]] = {}
    for kind, _id, _field, _value, provenance_kind in rows:
        out.setdefault(kind, Counter())[provenance_kind] += 1
    return out


def footprint_failures(proposals: Iterable[Proposal]) -> list[str]:
    """Proposed platforms that break their own limits or report less rack space or power than their parts, one
    sentence each (empty: every proposal fits).

    Rack units of the parts: the controller record's ``rack_units`` (a record without one: its internal bays'
    shelf height, else :data:`DEFAULT_RACK_UNITS`) plus each external shelf's; power: the controller's typical power
    where published (shelves' and drives' power, where the sizer adds them, only raise the figure)."""
    out: list[str] = []
    for summary, controller, shelves, ru, power, switch in proposals:
        out += [f"{summary}: proposed although {text}"
                for text in platform_limit_problems(controller, shelves, switch is not None)]
        inside = next((s for s, _, _ in shelves if s is not None and s.internal), None)
        chassis = controller.rack_units or (inside.rack_units if inside is not None else DEFAULT_RACK_UNITS)
        parts = chassis + sum(s.rack_units or DEFAULT_RACK_UNITS for s, _, _ in shelves
                              if s is not None and not s.internal)
        if switch is not None:
            external = sum(1 for s, _, _ in shelves if s is not None and not s.internal)
            parts += (STORAGE_SWITCH_PAIR * (switch.rack_units or DEFAULT_RACK_UNITS)
                      * storage_switch_pairs_needed(switch.ports, external, controller.nodes or 2))
        if ru < parts:
            out.append(f"{summary}: reports {ru} rack units, below its parts' {parts}")
        if controller.typical_power_w is not None and (power is None or power < controller.typical_power_w - 1e-6):
            out.append(f"{summary}: reports {power} W, below its controller's typical {controller.typical_power_w:g} W")
    return out
