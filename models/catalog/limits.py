"""A controller's published platform limits checked against one design: its drive limit (internal bays plus the
external shelves the vendor's shelf-cabling rules allow, per HA pair), its external shelf count and its published
maximum raw capacity. Each refusal is one short sentence naming the limit, with, apart, the source the catalog
record gives for it (the record's ``provenance``), so a reader can follow it to the vendor's page.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.catalog.schema import Controller, Drive, Shelf


def _source(controller: Controller, field: str) -> str:
    """The record's source of ``field`` ("no source given" when the record names none)."""
    p = controller.provenance.get(field)
    return p.source if p is not None else "no source given"


def _pb(n_bytes: float) -> str:
    """Bytes as petabytes (10^15), up to four decimals, e.g. ``2.2104 PB``."""
    return f"{n_bytes / 1e15:.4f}".rstrip("0").rstrip(".") + " PB"


STORAGE_SWITCH_PAIR = 2
"""Storage switches a switch-attached design counts: a pair (each shelf and each controller cabled to both, as for
NetApp's cluster and storage switches, 'AFF and FAS Switch Documentation')."""


SHELF_PORTS_PER_SWITCH = 2
"""Storage-switch ports each switch-attached NS224 shelf takes on EACH switch of its pair (sourced): NetApp, 'Replace
Cisco Nexus 9336C-FX2 and 9336C-FX2-T storage switches' (docs.netapp.com/us-en/ontap-systems-switches/
switch-cisco-9336c-fx2-storage/replace-storage-switch-9336c-storage.html), 'storage shelf port show -fields
remote-device,remote-port': shelf 3.20 ports 0-3 on 'Ethernet1/5 S1', 'Ethernet1/5 NS2', 'Ethernet1/6 S1',
'Ethernet1/6 NS2' (each of the shelf's two NSM modules cabled to both switches: four ports, two on each switch)."""

CONTROLLER_PORTS_PER_SWITCH = 2
"""Storage-switch ports each controller of the HA pair takes on EACH switch (assumed): NetApp's switch pages show
each controller with four 100 Gb ENET storage ports ('storage port show -port-type ENET': e0c, e0d, e5a, e5b online
on each node, 'Migrate from a switchless configuration with switch-attached storage by reusing the storage
switches', switch-cisco-9336c-fx2-shared/migrate-from-switchless-configuration-sat-storage.html; e3a, e3b, e7a, e7b
on the storage-switch replacement page), two per switch of the pair. NetApp's documents give no per-platform count
(the cabling page refers it to the Hardware Universe); the replacement page's example cables one per switch, so two
is the cautious reading."""

CONTROLLERS_PER_HA_PAIR = 2


def storage_switch_ports_needed(shelves: int, pairs: int = 1, controllers: int = CONTROLLERS_PER_HA_PAIR) -> int:
    """Ports each storage switch needs when ``shelves`` switch-attached shelves are spread over ``pairs`` pairs of
    switches (the fullest switch): every pair carries every controller (:data:`CONTROLLER_PORTS_PER_SWITCH` each)
    and its share of the shelves (:data:`SHELF_PORTS_PER_SWITCH` each)."""
    per_pair = -(-shelves // max(pairs, 1))
    return SHELF_PORTS_PER_SWITCH * per_pair + CONTROLLER_PORTS_PER_SWITCH * controllers


def storage_switch_pairs_needed(ports: int | None, shelves: int, controllers: int = CONTROLLERS_PER_HA_PAIR) -> int:
    """The fewest pairs of ``ports``-port storage switches holding ``shelves`` switch-attached shelves and the HA
    pair's ``controllers`` (:func:`storage_switch_ports_needed`); 1 when the port count is unknown or no pair can
    hold even one shelf (the design check then names the shortfall)."""
    room = (ports or 0) - CONTROLLER_PORTS_PER_SWITCH * controllers
    if ports is None or room < SHELF_PORTS_PER_SWITCH or shelves <= 0:
        return 1
    return -(-shelves // (room // SHELF_PORTS_PER_SWITCH))


def switch_port_problem(switch_name: str, ports: int | None, shelves: int, pairs: int,
                        controllers: int = CONTROLLERS_PER_HA_PAIR) -> str:
    """The refusal of ``pairs`` pair(s) of ``ports``-port switches for ``shelves`` switch-attached shelves, or ''."""
    need = storage_switch_ports_needed(shelves, pairs, controllers)
    if ports is None or need <= ports:
        return ""
    fit = storage_switch_pairs_needed(ports, shelves, controllers)
    more = (f"; {fit} pairs needed" if fit > pairs and storage_switch_ports_needed(shelves, fit, controllers) <= ports
            else "")
    return (f"{shelves} switch-attached shelves and {controllers} controllers need {need} ports on each storage "
            f"switch ({SHELF_PORTS_PER_SWITCH} per shelf on each switch of its pair, {CONTROLLER_PORTS_PER_SWITCH} "
            f"per controller, assumed), but {'each of the ' + str(pairs) + ' pairs of ' if pairs > 1 else 'a pair of '}"
            f"{switch_name} has {ports} ports per switch{more}")


def switched_limits(controller: Controller) -> tuple[int, int | None] | None:
    """(drive limit, external shelf limit) per HA pair with switch-attached shelves, or None when the record gives
    no switch-attached limit (direct-attached only)."""
    if controller.max_shelves_switched is None:
        return None
    return controller.max_drives_switched or controller.max_drives, controller.max_shelves_switched


def _switched_clause(controller: Controller, what: str) -> tuple[str, str]:
    """``(" (216 with switch-attached shelves)", source)``: the other limit a direct-attached refusal names, in
    brackets, and its source ("" for both when the record has none). ``what``: "drives" or "shelves"."""
    limits = switched_limits(controller)
    if limits is None:
        return "", ""
    n, field = (limits[0], "max_drives_switched") if what == "drives" else (limits[1], "max_shelves_switched")
    if n is None:
        return "", ""
    return (f" ({n} with switch-attached shelves)",
            f"switch-attached limit: {_source(controller, field)}")


LimitFinding = tuple[str, str]
"""One broken platform limit: (the sentence a user reads, the sources of the limits it names)."""


def platform_limit_findings(controller: Controller,
                            shelves: Sequence[tuple[Shelf | None, Drive | None, int]],
                            switched: bool = False) -> list[LimitFinding]:
    """What in one controller's drives breaks its published platform limits (empty: none), each as one short
    sentence and, apart, the sources the catalog record gives for the limits it names (its ``provenance``: long
    citations with the rule's derivation, for a tooltip or a report's list of sources, never in the sentence: a
    banner quoting them took ten lines of a laptop's results dock, review 56).

    Args:
        controller: the catalog record (``max_drives``; ``max_shelves``, ``max_raw_bytes`` and the switch-attached
            ``max_drives_switched`` / ``max_shelves_switched`` where the catalog gives them).
        shelves: one ``(shelf record, drive record, drive count)`` per shelf linked to the controller; a record
            may be None where the catalog does not know it (its drives still count towards the drive limit; an
            unknown shelf is not counted as external, an unknown drive adds no raw capacity).
        switched: the shelves are cabled as switch-attached storage (the controller node names its storage
            switches): the switch-attached limits apply, where the record has them.

    Returns:
        One (sentence, sources) per broken limit: drive limit, external shelves, maximum raw capacity, SSDs in
        expansion shelves; a direct-attached limit's sentence names the switch-attached limit too, in brackets.
    """
    out: list[LimitFinding] = []
    name = controller.name
    drives = sum(max(n, 0) for _, _, n in shelves)
    external = sum(1 for shelf, _, _ in shelves if shelf is not None and not shelf.internal)
    limits = switched_limits(controller) if switched else None
    if limits is not None:
        if drives > limits[0]:
            out.append((f"{drives} drives exceed {name}'s maximum of {limits[0]} per HA pair with switch-attached "
                        "shelves", f"drive limit per HA pair: {_source(controller, 'max_drives_switched')}"))
        if limits[1] is not None and external > limits[1]:
            plural = "shelf" if limits[1] == 1 else "shelves"
            out.append((f"{external} external shelves exceed {name}'s maximum of {limits[1]} switch-attached "
                        f"external {plural} per HA pair",
                        f"switch-attached shelf limit: {_source(controller, 'max_shelves_switched')}"))
    else:
        wired = " with direct-attached shelves" if controller.max_shelves_switched is not None else ""
        if drives > controller.max_drives:
            other, other_source = _switched_clause(controller, "drives")
            out.append((f"{drives} drives exceed {name}'s maximum of {controller.max_drives} per HA pair{wired}"
                        + other, "; ".join(x for x in (f"drive limit per HA pair: {_source(controller, 'max_drives')}",
                                                        other_source) if x)))
        if controller.max_shelves is not None and external > controller.max_shelves:
            plural = "shelf" if controller.max_shelves == 1 else "shelves"
            kind = "direct-attached" if wired else "external"
            other, other_source = _switched_clause(controller, "shelves")
            out.append((f"{external} external shelves exceed {name}'s maximum of {controller.max_shelves} {kind} "
                        f"{plural} per HA pair" + other,
                        "; ".join(x for x in (f"shelf-cabling rule: {_source(controller, 'max_shelves')}",
                                              other_source) if x)))
    raw = sum(drive.marketed_bytes * max(n, 0) for _, drive, n in shelves if drive is not None)
    if controller.max_raw_bytes is not None and raw > controller.max_raw_bytes:
        out.append((f"{_pb(raw)} raw exceeds {name}'s published maximum raw capacity of "
                    f"{_pb(controller.max_raw_bytes)}",
                    f"maximum raw capacity: {_source(controller, 'max_raw_bytes')}"))
    if controller.max_expansion_ssd is not None:
        ssd = sum(max(n, 0) for shelf, drive, n in shelves
                  if shelf is not None and not shelf.internal and drive is not None and drive.media == "SSD")
        if ssd > controller.max_expansion_ssd:
            out.append((f"{ssd} SSDs in expansion shelves exceed {name}'s maximum of "
                        f"{controller.max_expansion_ssd} SSD drive slots in expansion shelves",
                        f"SSD slots in expansion shelves: {_source(controller, 'max_expansion_ssd')}"))
    return out


def platform_limit_problems(controller: Controller,
                            shelves: Sequence[tuple[Shelf | None, Drive | None, int]],
                            switched: bool = False) -> list[str]:
    """The sentences of :func:`platform_limit_findings` (arguments as those): what in one controller's drives breaks
    its published platform limits, one short sentence per limit (empty: none)."""
    return [text for text, _ in platform_limit_findings(controller, shelves, switched)]


def host_ports_per_node(controller: Controller, fc: bool, expanded: bool) -> int:
    """Host ports per node of ``controller`` over FC (``fc``) or Ethernet, with expansion shelves attached
    (``expanded``: the record's ``ports_per_node_expanded`` caps them, e.g. the EF600's one host interface card per
    controller) or not."""
    ports = controller.fc_ports_per_node if fc else controller.ethernet_ports_per_node
    if expanded and controller.ports_per_node_expanded is not None:
        return min(ports, controller.ports_per_node_expanded)
    return ports
