"""The design check: everything wrong with a scenario, as a list of problems (never an exception).

It sits above the engines' rules (RAID minimums and names from ``models.capacity.rules``, the bay check of the
capacity engine) and reads the graph through ``models.topology``, so each rule lives in one place; one pass over
the nodes, links and workloads (linear in their number).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from models import topology
from models.capacity import rules
from models.capacity.engine import bay_overflow
from models.capacity.rules import RAID_LABEL, VSAN_POLICIES
from models.catalog import (
    Adapter,
    Catalog,
    CatalogError,
    CloudDisk,
    CloudVm,
    Controller,
    Drive,
    Entry,
    HciNode,
    Host,
    Licence,
    LinkType,
    Switch,
)
from models.catalog import Shelf as ShelfRecord
from models.catalog.limits import host_ports_per_node, platform_limit_findings, switch_port_problem
from models.problem import Problem, Severity  # noqa: F401 (re-exported: the record every check reports)
from models.project.factory import drive_misfit
from models.project.kinds import SYSTEM_KINDS
from models.project.model import (
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    HostNode,
    Link,
    ManagedServiceNode,
    Scenario,
    ShelfNode,
    SwitchNode,
    Workload,
)
from models.project.names import KIND_NAMES, link_name, node_names
from models.topology import Topology

E = TypeVar("E", bound=Entry)


def _check_catalog(catalog: Catalog, entry_id: str | None, kind: type[E], node_id: str, what: str,
                   out: list[Problem], field: str = "catalog_id") -> E | None:
    if not entry_id:
        return None
    try:
        return catalog.get(entry_id, kind)
    except CatalogError as exc:
        out.append(Problem("error", f"{node_id}: {what}: {exc}", node_id, field))
        return None


def _shelf(node: ShelfNode, topo: Topology, catalog: Catalog, out: list[Problem]) -> None:
    shelf = _check_catalog(catalog, node.catalog_id, ShelfRecord, node.id, "shelf", out)
    drive = _check_catalog(catalog, node.drive, Drive, node.id, "drive", out, "drive")
    controller = topo.controller_of_shelf(node.id)
    if controller is None:
        out.append(Problem("error", f"{node.id}: shelf is not connected to a controller", node.id))
    if shelf is None:
        return
    if bay_overflow(node, shelf):
        out.append(Problem("error", f"{node.id}: {node.drive_count} drives do not fit {shelf.bays} bays", node.id,
                           "drive_count"))
    if drive is not None and (drive.interface not in shelf.drive_interfaces or not shelf.takes(drive)):
        # the palette's drop refuses the same drive in the same words (models.project.edits.set_part)
        out.append(Problem("error", f"{node.id}: {drive_misfit(drive, shelf)}", node.id, "drive"))
    if controller is not None:
        record = catalog.find(controller.catalog_id)
        if isinstance(record, Controller) and record.shelves and shelf.id not in record.shelves:
            out.append(Problem("error", f"{node.id}: {record.name} does not take {shelf.name}", node.id, "catalog_id"))
        if isinstance(record, Controller) and drive is not None and drive.controllers \
                and record.id not in drive.controllers:
            out.append(Problem("error", f"{node.id}: {drive.name} is not sold for {record.name} (the drive's "
                               "catalog record names the controllers that take it)", node.id, "drive"))
        if isinstance(record, Controller) and drive is not None and drive.families \
                and record.family not in drive.families:
            out.append(Problem("warning", f"{node.id}: {drive.name} is sold for {', '.join(drive.families)} systems, "
                               f"not {record.family} ({record.name}): its right-sized capacity may differ", node.id,
                               "drive"))


def _record(catalog: Catalog, entry_id: str, kind: type[E]) -> E | None:
    """The catalog record ``entry_id`` if it is a ``kind``, else None."""
    found = catalog.find(entry_id)
    return found if isinstance(found, kind) else None


def _storage_switch(node: ControllerNode, record: Controller, linked: list, catalog: Catalog,
                    out: list[Problem]) -> None:
    """Problems of a controller whose shelves are switch-attached (``node.storage_switch``): the switch is a storage
    switch for its external shelves, and the record gives a switch-attached limit."""
    switch = catalog.find(node.storage_switch)
    if not isinstance(switch, Switch):
        out.append(Problem("error", f"{node.id}: storage switch '{node.storage_switch}' is not a switch in the "
                           "catalog", node.id, "storage_switch"))
        return
    external = {shelf.id for shelf, _, _ in linked if shelf is not None and not shelf.internal}
    wrong = sorted(external - set(switch.storage_shelves))
    if wrong:
        names = ", ".join(_name(catalog, sid) for sid in wrong)
        out.append(Problem("error", f"{node.id}: {switch.name} is not a storage switch for {names} shelves (NetApp "
                           "supports switch-attached NS224 shelves through its listed storage switches)", node.id,
                           "storage_switch"))
    n_external = sum(1 for shelf, _, _ in linked if shelf is not None and not shelf.internal)
    short = switch_port_problem(switch.name, switch.ports, n_external, node.storage_switch_pairs,
                                node.nodes or record.nodes)
    if short:
        out.append(Problem("error", f"{node.id}: {short}", node.id, "storage_switch_pairs"))
    if record.max_shelves_switched is None:
        out.append(Problem("warning", f"{node.id}: the catalog gives {record.name} no switch-attached shelf limit "
                           "(its published maximum raw capacity is reached with direct-attached shelves); the "
                           "storage switches add nothing, and its direct-attached limits apply", node.id,
                           "storage_switch"))


def _name(catalog: Catalog, entry_id: str) -> str:
    """A catalog record's name (its id when it is not in the catalog)."""
    found = catalog.find(entry_id)
    return found.name if found is not None else entry_id


def _expanded_host_ports(node: ControllerNode, record: Controller, linked: list, topo: Topology, catalog: Catalog,
                         nodes: int, out: list[Problem]) -> None:
    """An error when a controller with expansion shelves has more host ports cabled than it has with them (the
    record's ``ports_per_node_expanded``: the EF600 takes one host interface card per controller with SAS
    expansion)."""
    if record.ports_per_node_expanded is None or not any(s is not None and not s.internal for s, _, _ in linked):
        return
    for fc in (True, False):
        cabled = 0
        for link in topo.links_of(node.id):
            other = topo.node(link.target if link.source == node.id else link.source)
            lt = catalog.find(link.link_type)
            if (other is None or other.kind == "shelf" or not isinstance(lt, LinkType)
                    or lt.medium not in ("FC", "Ethernet")):
                continue
            if (lt.medium == "FC") == fc:
                cabled += link.ports
        allowed = host_ports_per_node(record, fc, True) * nodes
        if cabled > allowed:
            p = record.provenance.get("ports_per_node_expanded")
            out.append(Problem("error", f"{node.id}: {cabled} {'FC' if fc else 'Ethernet'} host ports are cabled, "
                               f"but {record.name} with expansion shelves has {allowed} "
                               f"({host_ports_per_node(record, fc, True)} per controller: NetApp supports SAS "
                               "expansion only with one host interface card per controller)", node.id,
                               sources=p.source if p is not None else ""))


def ports_are_platform_total(record: Controller, field: str) -> bool:
    """True when a controller record's host port count ``field`` (``fc_ports_per_node``, ``ethernet_ports_per_node``)
    is the platform's published total (its key specifications page), which cabling cannot exceed. Where it is
    assumed, or the ports a performance report tested or the controller's onboard ports alone (the platform takes
    more on I/O cards), cabling more is no design error, so none is reported (the engine's figures still count at
    most the record's ports)."""
    found = record.provenance.get(field)
    if found is None or found.kind != "sourced":
        return False
    source = found.source.lower()
    return not any(word in source for word in ("report", "paper", "onboard"))


def _front_end_ports(node: ControllerNode, record: Controller, linked: list, topo: Topology, catalog: Catalog,
                     nodes: int, out: list[Problem]) -> None:
    """An error when more FC (or Ethernet) host ports are cabled to a controller than it has: its record's ports
    per node (``fc_ports_per_node``, ``ethernet_ports_per_node``) x its nodes, where that is the platform's total
    (:func:`ports_are_platform_total`). The performance engine never counts more
    (``models.performance.paths._target_ports``), so the figures would not show the extra ports: the design says so
    instead. A record that gives no ports of a medium (0) is not checked; a controller whose expansion shelves cut
    its host ports is :func:`_expanded_host_ports`' to check."""
    expanded = any(s is not None and not s.internal for s, _, _ in linked)
    if record.ports_per_node_expanded is not None and expanded:
        return
    cabled = {"FC": 0, "Ethernet": 0}
    for link in topo.links_of(node.id):
        other = topo.node(link.target if link.source == node.id else link.source)
        lt = catalog.find(link.link_type)
        if other is not None and other.kind in ("host", "switch") and isinstance(lt, LinkType) \
                and lt.medium in cabled:
            cabled[lt.medium] += link.ports
    for medium, field in (("FC", "fc_ports_per_node"), ("Ethernet", "ethernet_ports_per_node")):
        per_node = host_ports_per_node(record, medium == "FC", False)
        if not per_node or cabled[medium] <= per_node * nodes or not ports_are_platform_total(record, field):
            continue
        out.append(Problem("error", f"{node.id}: {cabled[medium]} {medium} host ports are cabled to it, but "
                           f"{record.name} has {per_node * nodes} ({per_node} per node x {nodes} node"
                           f"{'s' if nodes != 1 else ''}); the figures count {per_node * nodes}", node.id))


def _host_ports(node: HostNode, topo: Topology, catalog: Catalog, names: dict[str, str], out: list[Problem]) -> None:
    """An error when a host's front-end links ask for more ports than its adapters have: count x adapters per
    host x the adapter's ports (a link's ``ports`` are the whole host group's, as the canvas and the bill of
    materials count them). The performance engine never counts more (``models.performance.paths._host_side``), so
    the design says so instead of the figures quietly leaving them out."""
    adapter = catalog.find(node.adapter) if node.adapter else None
    if not isinstance(adapter, Adapter):
        return
    links = [link for link in topo.links_of(node.id)
             if isinstance(lt := catalog.find(link.link_type), LinkType) and lt.medium in ("FC", "Ethernet")]
    asked = sum(link.ports for link in links)
    available = node.count * node.adapters_per_host * adapter.ports
    if links and asked > available:
        which = "; ".join(link_name(link.source, link.target, names) for link in links)
        out.append(Problem("error", f"link{'s' if len(links) > 1 else ''} {which}: {asked} host ports are asked, but "
                           f"{names.get(node.id, node.id)} has {available} ({node.count} host"
                           f"{'s' if node.count != 1 else ''} x {node.adapters_per_host} {adapter.name} x "
                           f"{adapter.ports} ports); the figures count {available}", links[0].id, "ports"))


def _controller(node: ControllerNode, topo: Topology, catalog: Catalog, out: list[Problem]) -> None:
    record = _check_catalog(catalog, node.catalog_id, Controller, node.id, "controller", out)
    if record is None:
        return
    nodes = node.nodes or record.nodes
    if node.raid_type in ("raid0", "none"):
        out.append(Problem("warning", f"{node.id}: {RAID_LABEL.get(node.raid_type, node.raid_type)} keeps no "
                           "redundancy: one failed drive loses the data", node.id, "raid_type"))
    elif node.spares_per_node == 0 and node.raid_type != "ddp":
        out.append(Problem("warning", f"{node.id}: no hot spares: after a drive failure the RAID group "
                           "runs degraded until the drive is replaced", node.id, "spares_per_node"))
    if record.nodes == 2 and nodes == 1:
        out.append(Problem("error", f"{node.id}: {record.name} is an HA pair but has one node", node.id, "nodes"))
    if node.software and record.software_versions and not rules.software_listed(node.software,
                                                                                 record.software_versions):
        out.append(Problem("error", f"{node.id}: software '{node.software}' is not one of "
                           f"{', '.join(record.software_versions)}", node.id, "software"))
    shelves = topo.shelves_of(node.id)
    if not shelves:
        out.append(Problem("warning", f"{node.id}: controller has no shelves (no capacity)", node.id))
    drives = sum(s.drive_count for s in shelves)
    linked = [(_record(catalog, s.catalog_id, ShelfRecord), _record(catalog, s.drive, Drive), s.drive_count)
              for s in shelves]
    switched = bool(node.storage_switch)
    if switched:
        _storage_switch(node, record, linked, catalog, out)
    for text, sources in platform_limit_findings(record, linked, switched):
        out.append(Problem("error", f"{node.id}: {text}", node.id, sources=sources))
    _expanded_host_ports(node, record, linked, topo, catalog, nodes, out)
    _front_end_ports(node, record, linked, topo, catalog, nodes, out)
    if node.adp != "none" and node.adp not in record.adp:
        out.append(Problem("error", f"{node.id}: {record.name} does not support ADP {node.adp}", node.id, "adp"))
    if node.node_layouts and len(node.node_layouts) != nodes:
        out.append(Problem("error", f"{node.id}: {len(node.node_layouts)} node layouts for {nodes} nodes (give one "
                           "per node, in node order)", node.id, "node_layouts"))
    if node.metrocluster != "none" and record.family != "ONTAP":
        out.append(Problem("error", f"{node.id}: MetroCluster is an ONTAP configuration; {record.name} is "
                           f"{record.family}", node.id, "metrocluster"))
    elif node.metrocluster == "ip" and not record.metrocluster_ip:
        p = record.provenance.get("metrocluster_ip")
        out.append(Problem("error", f"{node.id}: {record.name} is not supported in a MetroCluster IP configuration"
                           + (f" ({p.source})" if p is not None else ""), node.id, "metrocluster"))
    if record.family == "ONTAP" and node.raid_type == "raid_dp":
        tec_only = sorted({d.name for _, d, count in linked
                           if d is not None and count and rules.ontap_raid_tec_only(d)})
        if tec_only:
            # a warning: System Manager refuses it for a new aggregate; the figures are still RAID DP's as asked
            out.append(Problem("warning", f"{node.id}: RAID DP is not available on {record.name} with "
                               f"{' and '.join(tec_only)}: ONTAP System Manager offers only RAID-TEC for a new "
                               "aggregate of NL-SAS (FSAS) drives of 10 TB or more; choose RAID-TEC", node.id,
                               "raid_type", sources=rules.ONTAP_TEC_ONLY_DOCS))
    if node.capacity_tier != "none" and record.family != "ONTAP":
        out.append(Problem("error", f"{node.id}: a FabricPool capacity tier is an ONTAP configuration; "
                           f"{record.name} is {record.family}", node.id, "capacity_tier"))
    per_node, unit, where = group_members(record, node, drives, nodes)
    # the capacity engine's minimums: an ONTAP data aggregate (RAID DP 5, RAID-TEC 7), else a volume group
    minimums = rules.ONTAP_MIN_DRIVES if record.family == "ONTAP" else rules.ARRAY_MIN_DRIVES
    need = minimums.get(node.raid_type, 1)
    if not (shelves and drives):
        return
    alike = len(set(per_node)) == 1 and not node.node_layouts
    if alike:
        per_node = per_node[:1]
    for k, members in enumerate(per_node):
        at = where if alike or len(per_node) == 1 else f"on node {k + 1}"
        # a node a layout leaves without members (active/passive) builds no aggregate: only too few is wrong
        if members < need and (members > 0 or alike or max(per_node) < need):
            out.append(Problem("error", f"{node.id}: {RAID_LABEL.get(node.raid_type, node.raid_type)} needs at least "
                               f"{need} {unit} {at}; {max(members, 0)} left after spares", node.id, "raid_type"))
            break
    for k, members in enumerate(per_node):
        at = where if alike or len(per_node) == 1 else f"on node {k + 1}"
        layout = node.node_layouts[k] if len(node.node_layouts) == len(per_node) else None
        size = (layout.raid_group_size
                if layout is not None and layout.raid_group_size else None) or node.raid_group_size
        if size is not None and size > max(members, 0):
            out.append(Problem("error", f"{node.id}: RAID group size {size} is larger than the "
                               f"{max(members, 0)} {unit} available {at}", node.id,
                               "node_layouts" if size != node.raid_group_size else "raid_group_size"))
            break


def group_members(record: Controller, node: ControllerNode, drives: int, nodes: int) -> tuple[list[int], str, str]:
    """How many members each node's RAID groups (or the array's pool) can draw on, in what unit, and where:
    ``(counts, unit, where)`` with one count per node ("per node"), or one for the array ("in the array").

    * MetroCluster: the drives counted are both SyncMirror pools, so each plex draws on half of them (pool 0;
      ONTAP MetroCluster documentation), as ``models.capacity.ontap`` builds them;
    * ONTAP without ADP or with ADPv1 (root-data): each node's own drives less its spares (a whole drive, or
      its one data partition, per member); a node layout's ``drives`` and ``spares`` replace the even split;
    * ONTAP ADPv2 (root-data-data): every partitioned drive of the HA pair gives each node one data partition,
      so a node's RAID groups count in partitions: the pair's drives less its spares (at most
      ``rules.adpv2_partition_limit``), or the data partitions its layout assigns (NetApp KB "What are the rules for
      Advanced Disk Partitioning?": root-data-data partitioning assigns one data partition of each drive to each
      node; a RAID group never holds both data partitions of one drive);
    * E-Series and other arrays: a volume group or Dynamic Disk Pool spans the array's drives, whichever
      controller owns it (SANtricity documentation: a pool is created from the array's drives; the DDP minimum
      of 11 is per pool), so the whole array's drives less every controller's spares.
    """
    spares = node.spares_per_node
    if record.family != "ONTAP":
        return [drives - spares * nodes], "drives", "in the array"
    if node.metrocluster != "none":
        drives //= 2
    layouts = node.node_layouts if len(node.node_layouts) == nodes else []
    own_spares = [(layout.spares if layout.spares is not None else spares) for layout in layouts] or [spares] * nodes
    if node.adp == "root-data-data" and nodes >= 2:
        limit, _ = rules.adpv2_partition_limit(node.software or record.default_software or None)
        pair = min(2 * (drives // max(nodes, 1)), limit)
        parts = [pair] * nodes
        given = [layout.data_partitions for layout in layouts]
        known = [g for g in given if g is not None]
        if given and len(known) == len(given) and sum(known) == pair * nodes:
            parts = known
        return [p - s for p, s in zip(parts, own_spares)], "data partitions", "per node"
    per = [drives // max(nodes, 1)] * nodes
    given = [layout.drives for layout in layouts]
    known = [g for g in given if g is not None]
    if given and len(known) == len(given) and sum(known) == drives:
        per = known
    root = node.root_aggregate_drives if node.adp == "none" else 0  # the root aggregates' whole drives
    return [d - s - root for d, s in zip(per, own_spares)], "drives", "per node"


VSAN_MIN_HOSTS = {"ftt0": 1, "ftt1-raid1": 3, "ftt2-raid1": 5, "ftt3-raid1": 7, "ftt1-raid5": 4, "ftt2-raid6": 6}
"""Hosts a vSAN storage policy needs: 2 FTT + 1 for mirroring, 4 for RAID5 (3+1), 6 for RAID6 (4+2)."""


def _hci_cluster(node: HciClusterNode, topo: Topology, catalog: Catalog, out: list[Problem]) -> None:
    record = _check_catalog(catalog, node.catalog_id, HciNode, node.id, "HCI host", out)
    applied = rules.vsan_policy_rule(node.policy, node.architecture, node.hosts)
    minimum = applied.min_hosts if node.policy == "ftt1-raid5" else VSAN_MIN_HOSTS[node.policy]
    if node.hosts < minimum and node.architecture == "esa" and node.policy == "ftt1-raid5":
        # the scheme the capacity step applies (ESA's adaptive RAID-5: 2+1 below 6 hosts), not OSA's 3+1
        out.append(Problem("error", f"{node.id}: {applied.name} needs at least {minimum} hosts (vSAN ESA's adaptive "
                           f"RAID-5 is 2+1 from 3 hosts, 4+1 from 6), the cluster has {node.hosts}", node.id,
                           "policy", sources=rules.VSAN_ESA_RAID5_HOSTS_DOCS))
    elif node.hosts < minimum:
        out.append(Problem("error", f"{node.id}: {VSAN_POLICIES[node.policy].name} needs at least {minimum} hosts, "
                           f"the cluster has {node.hosts}", node.id, "policy"))
    if record is None:
        return
    if record.architecture == "esa" and node.architecture != "esa":
        out.append(Problem("error", f"{node.id}: {record.name} is a vSAN ESA ReadyNode (one storage pool, no cache "
                           "device): set the cluster's architecture to ESA", node.id, "architecture"))
    if record.architecture == "osa" and node.architecture == "esa":
        out.append(Problem("warning", f"{node.id}: {record.name} is an OSA host; vSAN ESA needs ESA-certified NVMe "
                           "ReadyNodes (Broadcom vSAN ESA ReadyNode Hardware Guidance)", node.id, "architecture"))
    if node.architecture == "esa":
        # ESA has no disk groups: one storage pool per host of groups x devices (vSAN 8 ESA documentation)
        devices, most = node.disk_groups_per_host * node.capacity_drives_per_group, \
            record.max_disk_groups * record.max_capacity_per_group
        if devices > most:
            out.append(Problem("error", f"{node.id}: {devices} storage-pool devices per host exceed {record.name}'s "
                               f"{most}", node.id, "capacity_drives_per_group"))
        if not record.all_flash:
            out.append(Problem("error", f"{node.id}: vSAN ESA needs all-flash (NVMe) hosts; {record.name} is hybrid",
                               node.id, "architecture"))
    elif node.disk_groups_per_host > record.max_disk_groups:
        out.append(Problem("error", f"{node.id}: at most {record.max_disk_groups} disk groups", node.id,
                           "disk_groups_per_host"))
    if node.architecture != "esa" and node.capacity_drives_per_group > record.max_capacity_per_group:
        out.append(Problem("error", f"{node.id}: at most {record.max_capacity_per_group} capacity drives per disk "
                           "group", node.id, "capacity_drives_per_group"))
    if node.policy in ("ftt1-raid5", "ftt2-raid6") and not record.all_flash:
        out.append(Problem("error", f"{node.id}: erasure coding needs an all-flash cluster", node.id, "policy"))


def _cloud_vm(node: CloudVmNode, topo: Topology, catalog: Catalog, out: list[Problem]) -> None:
    vm = _check_catalog(catalog, node.catalog_id, CloudVm, node.id, "VM", out)
    licence = _check_catalog(catalog, node.licence, Licence, node.id, "licence", out, "licence")
    disk = _check_catalog(catalog, node.disk, CloudDisk, node.id, "disk", out, "disk")
    if disk is not None and not disk.data_disk:
        out.append(Problem("error", f"{node.id}: {disk.name} is a system disk (boot / NVRAM), not a data disk",
                           node.id, "disk"))
    refusal = disk.refusal(node.catalog_id, node.ha, node.licence) if disk is not None else None
    if refusal and disk is not None:
        out.append(Problem("error", f"{node.id}: {disk.name} {refusal}", node.id, "disk"))
    if vm is None:
        return
    if vm.licences and node.licence not in vm.licences:
        out.append(Problem("error", f"{node.id}: licence '{licence.name if licence else node.licence}' is not "
                           f"offered on {vm.vm_size}", node.id, "licence"))
    if node.ha and node.licence in vm.single_node_licences:
        out.append(Problem("error", f"{node.id}: licence '{licence.name if licence else node.licence}' is offered on "
                           f"{vm.vm_size} for a single node only, not for an HA pair", node.id, "licence"))
    if node.ha and not vm.ha_supported:
        out.append(Problem("error", f"{node.id}: {vm.vm_size} does not support an HA pair", node.id, "ha"))
    if disk is not None and vm.max_disk_capacity_bytes and \
            node.disk_count * disk.size_bytes > vm.max_disk_capacity_bytes:
        out.append(Problem("error", f"{node.id}: {node.disk_count} x {disk.name} exceed the "
                           f"{vm.max_disk_capacity_bytes / 2**40:,.0f} TiB of data disks {vm.vm_size} may attach "
                           "(disks alone)", node.id, "disk_count"))
    limit = vm.data_disk_limit(node.ha)
    if node.disk_count > limit:
        out.append(Problem("error", f"{node.id}: {vm.vm_size} takes at most {limit} data disks"
                           f"{' per node of an HA pair' if node.ha and limit != vm.max_data_disks else ''}",
                           node.id, "disk_count"))


def _managed_service(node: ManagedServiceNode, topo: Topology, catalog: Catalog, out: list[Problem]) -> None:
    """A managed service: its record exists; what is provisioned is within the service's published range and
    options (``models.performance.managed.limit_problems``)."""
    from models.catalog import ManagedService
    from models.performance.managed import limit_problems

    record = _check_catalog(catalog, node.catalog_id, ManagedService, node.id, "managed service", out)
    if record is None:
        return
    for text in limit_problems(node, record, node.id):
        field = ("provisioned_bytes" if "provisioned" in text else "throughput_mbps" if "throughput" in text
                 else "iops")
        out.append(Problem("error", text.rstrip("."), node.id, field))


def _host(node: HostNode, topo: Topology, catalog: Catalog, out: list[Problem]) -> None:
    _check_catalog(catalog, node.catalog_id, Host, node.id, "host", out)
    _check_catalog(catalog, node.adapter, Adapter, node.id, "adapter", out, "adapter")


def _switch(node: SwitchNode, topo: Topology, catalog: Catalog, out: list[Problem]) -> None:
    switch = _check_catalog(catalog, node.catalog_id, Switch, node.id, "switch", out)
    cabled = sum(link.ports for link in topo.links_of(node.id))
    if switch is not None and cabled > switch.ports:
        out.append(Problem(
            "warning", f"{node.id}: {cabled} ports are cabled to this switch but {switch.name} has "
            f"{switch.ports}; license more ports or add a switch (a second fabric also removes the single "
            "point of failure)", node.id))


def slower_switch_problem(scenario: Scenario, catalog: Catalog, link: Link, names: dict[str, str]) -> Problem | None:
    """The warning of a link whose type is faster than a switch it is cabled to (``topology.slower_switch``): the
    bill of materials sells the faster ports, but the link runs at the switch's speed, as the figures count it
    (``models.performance.paths._negotiated_mbps``). Cites the switch record's speed; None when the link runs at
    its type's speed."""
    slower = topology.slower_switch(scenario, catalog, link)
    lt = catalog.find(link.link_type)
    if slower is None or not isinstance(lt, LinkType):
        return None
    other = scenario.node(link.target if link.source == slower.switch_id else link.source)
    side = {"host": "host"}.get(other.kind, "switch") if other is not None else "switch"
    if other is not None and other.kind in SYSTEM_KINDS:
        side = "target"
    kind = getattr(lt, "short_name", "") or lt.name
    model = topology.switch_model(slower.record)
    speed = slower.record.provenance.get("speed_gbps")
    return Problem("warning", f"link {link_name(link.source, link.target, names)}: {link.ports:,} x {kind} {side} "
                   f"port{'s' if link.ports != 1 else ''} on the {model}, whose ports are {slower.gbps:g}Gb: "
                   f"{'these links run' if link.ports != 1 else 'this link runs'} at {slower.gbps:g}Gb "
                   f"({slower.payload_mbps:,.0f} MB/s per port, not {lt.payload_mbps:,.0f}), and the figures count "
                   f"{slower.gbps:g}Gb; a {lt.speed_gbps:g}Gb switch would run them at {lt.speed_gbps:g}Gb",
                   link.id, "link_type", sources=speed.source if speed is not None else "")


def unconnected_problems(scenario: Scenario) -> list[Problem]:
    """Warnings for hosts and switches that carry no I/O: a host with no link (its workloads' I/O has no path),
    a switch with no link, one that reaches no host, or one that reaches no storage system (controller, HCI
    cluster or cloud VM), through other switches too. Linear in nodes and links."""
    kinds = {n.id: n.kind for n in scenario.nodes}
    near: dict[str, list[str]] = {n.id: [] for n in scenario.nodes}
    for link in scenario.links:
        if link.source in near and link.target in near:
            near[link.source].append(link.target)
            near[link.target].append(link.source)
    out: list[Problem] = []
    fabric_of: dict[str, int] = {}
    fabrics: list[set[str]] = []  # switches joined by switch links, and the kinds they reach
    for node in scenario.nodes:
        if node.kind != "switch" or node.id in fabric_of:
            continue
        reached: set[str] = set()
        stack = [node.id]
        fabric_of[node.id] = len(fabrics)
        while stack:
            for other in near[stack.pop()]:
                if kinds[other] == "switch" and other not in fabric_of:
                    fabric_of[other] = len(fabrics)
                    stack.append(other)
                reached.add(kinds[other])
        fabrics.append(reached)
    for node in scenario.nodes:
        if node.kind == "host" and not near[node.id]:
            out.append(Problem("warning", f"{node.id}: host is not connected to a switch or a storage system; its "
                               "I/O has no path", node.id))
        elif node.kind == "switch":
            reached = fabrics[fabric_of[node.id]]
            if not near[node.id]:
                out.append(Problem("warning", f"{node.id}: switch is not connected", node.id))
            elif "host" not in reached:
                out.append(Problem("warning", f"{node.id}: switch connects no host", node.id))
            elif not reached & set(SYSTEM_KINDS):
                out.append(Problem("warning", f"{node.id}: switch reaches no storage system (controller, HCI "
                                   "cluster or cloud VM)", node.id))
    return out


def _left_out_problem(workload: Workload, left_out: list[tuple[str, tuple[str, ...] | None]], topo: Topology,
                      catalog: Catalog, names: dict[str, str]) -> Problem:
    """The warning of a workload whose figures leave out some of its hosts (``Topology.left_out_hosts``): each by
    name with why (it does not reach the target, shares no protocol with it, or carries another protocol than the
    workload's), and the hosts they count."""
    target = names[workload.target]
    protocol = topology.protocol_of(topo.scenario, catalog, workload)
    gone = {host_id for host_id, _ in left_out}
    kept = [names[h.id] for h in topo.front_end(workload.target, workload.hosts).hosts if h.id not in gone]

    def why(shared: tuple[str, ...] | None) -> str:
        if shared is None:
            return f"it does not reach {target}"
        if shared:
            return f"it carries {'/'.join(shared)}, not the workload's {protocol}"
        return f"it shares no protocol with {target}"

    return Problem("warning", f"workload '{workload.name}': its figures leave out "
                   + "; ".join(f"{names[host_id]} ({why(shared)})" for host_id, shared in left_out)
                   + ": they count the host ports and host I/O stack of " + ", ".join(kept) + " only",
                   workload.id, "hosts")


_NODE_CHECKS: dict[str, Callable[[Any, Topology, Catalog, list[Problem]], None]] = {
    "shelf": _shelf, "controller": _controller, "hci_cluster": _hci_cluster, "cloud_vm": _cloud_vm,
    "host": _host, "switch": _switch, "managed_service": _managed_service}
"""Node kind (``models.project.kinds.NODE_KINDS``) -> the checks of one node of that kind."""


def find_problems(scenario: Scenario, catalog: Catalog) -> list[Problem]:
    """Everything wrong with a scenario's topology and workloads.

    Checks: catalog ids exist and are of the right kind; a shelf has a controller; a drive fits the shelf's
    bays and interface; the controller takes the shelf; an HA pair has both nodes; RAID groups fit the drives;
    links join compatible items and protocols the controller speaks; a workload's target exists and serves I/O;
    an HCI cluster's policy has enough hosts; a cloud VM's licence fits the VM. Messages name items as the user
    does (``names.node_names``), e.g. "DS2246 (node 1): 30 drives do not fit 24 bays".

    A shelf belongs to the controller that owns it in ``models.topology`` (linked to it or daisy-chained behind
    one of its shelves; the first controller in scenario order when several reach it), the same shelves the
    capacity and performance engines count.
    """
    out: list[Problem] = []
    names = node_names(scenario.nodes, catalog)
    topo = topology.of(scenario)
    for node in scenario.nodes:
        _NODE_CHECKS[node.kind](node, topo, catalog, out)

    # a link's verdict depends only on its ends' kinds, catalog records and adapters and its type: asked once per
    # combination
    verdicts: dict[tuple, str | None] = {}
    for link in scenario.links:
        a, b = topo.node(link.source), topo.node(link.target)
        # only a host has an adapter (isinstance, not getattr: a getattr that misses is pydantic's slow path)
        key = ((a.kind, a.catalog_id, a.adapter if isinstance(a, HostNode) else None, b.kind, b.catalog_id,
                b.adapter if isinstance(b, HostNode) else None, link.link_type)
               if a is not None and b is not None else None)
        if key is None or key not in verdicts:
            reason = topo.link_problem(catalog, link.source, link.target, link.link_type)
            if key is not None:
                verdicts[key] = reason
        else:
            reason = verdicts[key]
        if reason:
            out.append(Problem("error", f"link {link_name(link.source, link.target, names)}: {reason}", link.id,
                               "link_type"))
        elif (slow := slower_switch_problem(scenario, catalog, link, names)) is not None:
            out.append(slow)

    for workload in scenario.workloads:
        target = topo.node(workload.target)
        if target is None:
            out.append(Problem("error", f"workload '{workload.name}': target '{workload.target}' does not exist",
                               workload.id,
                               "target"))
        elif target.kind not in SYSTEM_KINDS:
            out.append(
                Problem(
                    "error",
                    f"workload '{workload.name}': target '{names[target.id]}' is a "
                    f"{KIND_NAMES.get(target.kind, target.kind)}; assign it to a controller, cluster or VM",
                    workload.id,
                    "target",
                )
            )
        elif target.kind == "controller":
            record = catalog.find(target.catalog_id)
            reduction = max(workload.compression_ratio, workload.compaction_ratio, workload.dedupe_ratio)
            if isinstance(record, Controller) and record.family == "E-Series" and reduction > 1.0:
                out.append(Problem("warning", f"workload '{workload.name}': {record.name} runs SANtricity OS, which "
                                   "has no compression, compaction or deduplication (none is described in NetApp's "
                                   "SANtricity documentation, NetAppDocs e-series-santricity); its ratios count only "
                                   "if the host reduces the data itself", workload.id, "compression_ratio"))
        if ((workload.cold_data_pct > 0 or workload.cold_read_pct > 0) and target is not None
                and not (isinstance(target, ControllerNode) and target.capacity_tier != "none")):
            out.append(Problem("warning", f"workload '{workload.name}': it has a cold-data share but its target has "
                               "no FabricPool capacity tier, so all its data and reads stay on the target",
                               workload.id, "cold_data_pct"))
        for host_id in workload.hosts:
            host = topo.node(host_id)
            if host is None or host.kind != "host":
                out.append(Problem("error", f"workload '{workload.name}': host '{host_id}' does not exist", workload.id,
                                   "hosts"))
        left_out = topo.left_out_hosts(catalog, workload)
        if left_out:
            out.append(_left_out_problem(workload, left_out, topo, catalog, names))
    for host in topo.nodes_of_kind("host"):
        _host_ports(host, topo, catalog, names, out)  # type: ignore[arg-type]
    for host_id, system_id in topo.protocol_mismatches(catalog):
        out.append(Problem("error", topo.mismatch_words(catalog, host_id, system_id), host_id))
    out += unconnected_problems(scenario)
    # node problems were written "<id>: ..."; the user reads the node's name
    for k, problem in enumerate(out):
        name = names.get(problem.node_id)
        if name and problem.message.startswith(f"{problem.node_id}: "):
            out[k] = replace(problem, message=name + problem.message[len(problem.node_id):])
    return out
