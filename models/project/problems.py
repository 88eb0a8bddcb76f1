"""Topology validation: everything wrong with a scenario, as a list of problems (never an exception)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from models.catalog import Catalog, CatalogError, CloudDisk, CloudVm, Controller, Drive, HciNode, Licence, LinkType
from models.catalog import Shelf as ShelfRecord
from models.capacity import rules
from models.capacity.rules import RAID_LABEL, VSAN_POLICIES

from .model import CloudVmNode, ControllerNode, HciClusterNode, HostNode, Scenario, ShelfNode
from .names import KIND_NAMES, link_name, node_names

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario.

    Attributes:
        severity: ``error`` (results would be wrong or missing) or ``warning``.
        message: a sentence naming what is wrong and where.
        node_id: the node (or link / workload) id it concerns, or ``""`` for the whole scenario.
        field: the field of that node (link, workload) whose value is wrong (e.g. ``drive_count``), so an editor
            can show the message next to it; ``""`` when no single field is to blame.
    """

    severity: Severity
    message: str
    node_id: str = ""
    field: str = ""


def _check_catalog(catalog: Catalog, entry_id: str | None, kind, node_id: str, what: str, out: list[Problem],
                   field: str = "catalog_id"):
    if not entry_id:
        return None
    try:
        return catalog.get(entry_id, kind)
    except CatalogError as exc:
        out.append(Problem("error", f"{node_id}: {what}: {exc}", node_id, field))
        return None


def controller_of_shelf(scenario: Scenario, shelf_id: str) -> ControllerNode | None:
    """The controller a shelf is linked to (directly), or None."""
    for other in scenario.neighbours(shelf_id):
        node = scenario.node(other)
        if isinstance(node, ControllerNode):
            return node
    return None


def shelves_of(scenario: Scenario, controller_id: str) -> list[ShelfNode]:
    """The shelves linked directly to a controller, in scenario order."""
    ids = set(scenario.neighbours(controller_id))
    return [n for n in scenario.nodes if isinstance(n, ShelfNode) and n.id in ids]


def link_problem(scenario: Scenario, catalog: Catalog, source_id: str, target_id: str, link_type_id: str) -> str | None:
    """Why a link of ``link_type_id`` between two nodes cannot be made, or None when it can.

    Rules: SAS / PCIe links join a controller to a shelf; FC / Ethernet links join hosts, switches,
    controllers and cloud VMs, and a controller must speak the link's protocol; an HCI cluster links over
    Ethernet only; a shelf takes only a back-end link.
    """
    a, b = scenario.node(source_id), scenario.node(target_id)
    if a is None or b is None:
        return "both ends of a link must be on the canvas"
    if a.id == b.id:
        return "a link cannot connect an item to itself"
    try:
        link = catalog.get(link_type_id, LinkType)
    except CatalogError as exc:
        return str(exc)
    kinds = {a.kind, b.kind}
    backend = link.medium in ("SAS", "PCIe")
    if "shelf" in kinds:
        shelf_ids = [n.catalog_id for n in (a, b) if n.kind == "shelf"]
        shelf_links = {getattr(catalog.find(i), "backend_link", None) for i in shelf_ids}
        fits = backend or link.id in shelf_links
        if fits and kinds <= {"shelf", "controller"}:
            return None  # controller to shelf, or shelf to shelf (daisy chain)
        wanted = ", ".join(sorted(x for x in shelf_links if x)) or "SAS / NVMe"
        return f"a shelf connects to a controller over its back-end link ({wanted}), not {link.name}"
    if backend or _is_drive_loop(catalog, link):
        return f"{link.name} is a back-end link: it joins a controller to a shelf"
    for node in (a, b):
        if isinstance(node, ControllerNode):
            record = catalog.find(node.catalog_id)
            if isinstance(record, Controller) and not set(link.protocols) & set(record.protocols):
                return f"{record.name} does not speak {'/'.join(link.protocols)}"
        if isinstance(node, HciClusterNode) and link.medium != "Ethernet":
            return "a vSAN cluster connects over Ethernet"
        if isinstance(node, CloudVmNode) and link.medium != "Ethernet":
            return "a cloud VM is reached over its network (iSCSI / Ethernet)"
    if kinds == {"host"}:
        return "two hosts do not connect to each other for storage"
    return _front_end_mismatch(catalog, (a, b), link)


def _is_drive_loop(catalog: Catalog, link: LinkType) -> bool:
    """True for a link type that some shelf names as its back end (a 4Gb FC-AL drive loop is FC, yet joins
    only an array to its shelves)."""
    return any(getattr(shelf, "backend_link", None) == link.id for shelf in catalog.of_kind(ShelfRecord))


def _front_end_mismatch(catalog: Catalog, ends, link: LinkType) -> str | None:
    """Why a front-end link cannot join these ends: a switch takes only its own medium (an FC switch no 10GbE),
    a host's adapter only its protocols (an FC HBA no iSCSI); None when it can."""
    from models.catalog import Adapter, Switch

    for node in ends:
        record = catalog.find(node.catalog_id)
        if isinstance(record, Switch) and record.medium != link.medium:
            return f"{record.name} is an {record.medium} switch; it does not take {link.name}"
        if isinstance(node, HostNode) and node.adapter:
            adapter = catalog.find(node.adapter)
            if isinstance(adapter, Adapter) and not set(adapter.protocols) & set(link.protocols):
                return (f"the host's {adapter.name} speaks {'/'.join(adapter.protocols)}, "
                        f"not {'/'.join(link.protocols)}")
    return None


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
            elif not reached & {"controller", "hci_cluster", "cloud_vm"}:
                out.append(Problem("warning", f"{node.id}: switch reaches no storage system (controller, HCI "
                                   "cluster or cloud VM)", node.id))
    return out


def find_problems(scenario: Scenario, catalog: Catalog) -> list[Problem]:
    """Everything wrong with a scenario's topology and workloads.

    Checks: catalog ids exist and are of the right kind; a shelf has a controller; a drive fits the shelf's
    bays and interface; the controller takes the shelf; an HA pair has both nodes; RAID groups fit the drives;
    links join compatible items and protocols the controller speaks; a workload's target exists and serves I/O;
    an HCI cluster's policy has enough hosts; a cloud VM's licence fits the VM. Messages name items as the user
    does (``names.node_names``), e.g. "DS2246 (node 1): 30 drives do not fit 24 bays".
    """
    out: list[Problem] = []
    names = node_names(scenario.nodes, catalog)
    for node in scenario.nodes:
        if isinstance(node, ShelfNode):
            shelf = _check_catalog(catalog, node.catalog_id, ShelfRecord, node.id, "shelf", out)
            drive = _check_catalog(catalog, node.drive, Drive, node.id, "drive", out, "drive")
            controller = controller_of_shelf(scenario, node.id)
            if controller is None and not any(
                isinstance(scenario.node(n), ShelfNode) for n in scenario.neighbours(node.id)
            ):
                out.append(Problem("error", f"{node.id}: shelf is not connected to a controller", node.id))
            if shelf is not None:
                if node.drive_count > shelf.bays:
                    out.append(
                        Problem("error", f"{node.id}: {node.drive_count} drives do not fit {shelf.bays} bays", node.id,
                                "drive_count")
                    )
                if drive is not None and drive.interface not in shelf.drive_interfaces:
                    out.append(
                        Problem(
                            "error",
                            f"{node.id}: {shelf.name} cannot take {drive.interface} drive {drive.name}",
                            node.id,
                            "drive",
                        )
                    )
                if controller is not None:
                    record = catalog.find(controller.catalog_id)
                    if isinstance(record, Controller) and record.shelves and shelf.id not in record.shelves:
                        out.append(
                            Problem("error", f"{node.id}: {record.name} does not take {shelf.name}", node.id, "catalog_id")
                        )
        elif isinstance(node, ControllerNode):
            record = _check_catalog(catalog, node.catalog_id, Controller, node.id, "controller", out)
            if record is None:
                continue
            nodes = node.nodes or record.nodes
            if node.raid_type in ("raid0", "none"):
                out.append(Problem("warning", f"{node.id}: {RAID_LABEL.get(node.raid_type, node.raid_type)} keeps no "
                                   "redundancy: one failed drive loses the data", node.id, "raid_type"))
            elif node.spares_per_node == 0 and node.raid_type != "ddp":
                out.append(Problem("warning", f"{node.id}: no hot spares: after a drive failure the RAID group "
                                   "runs degraded until the drive is replaced", node.id, "spares_per_node"))
            if record.nodes == 2 and nodes == 1:
                out.append(Problem("error", f"{node.id}: {record.name} is an HA pair but has one node", node.id, "nodes"))
            if node.software and record.software_versions and node.software not in record.software_versions:
                out.append(
                    Problem(
                        "error",
                        f"{node.id}: software '{node.software}' is not one of {', '.join(record.software_versions)}",
                        node.id,
                        "software",
                    )
                )
            shelves = shelves_of(scenario, node.id)
            if not shelves:
                out.append(Problem("warning", f"{node.id}: controller has no shelves (no capacity)", node.id))
            drives = sum(s.drive_count for s in shelves)
            if drives > record.max_drives:
                out.append(
                    Problem("error", f"{node.id}: {drives} drives exceed the maximum of {record.max_drives}", node.id)
                )
            if node.adp != "none" and node.adp not in record.adp:
                out.append(Problem("error", f"{node.id}: {record.name} does not support ADP {node.adp}", node.id, "adp"))
            per_node = drives // max(nodes, 1) - node.spares_per_node
            # the capacity engine's minimums: an ONTAP data aggregate (RAID DP 5, RAID-TEC 7), else a volume group
            minimums = rules.ONTAP_MIN_DRIVES if record.family == "ONTAP" else rules.ARRAY_MIN_DRIVES
            need = minimums.get(node.raid_type, 1)
            if shelves and drives and per_node < need:
                out.append(
                    Problem(
                        "error",
                        f"{node.id}: {RAID_LABEL.get(node.raid_type, node.raid_type)} needs at least {need} drives "
                        f"per node; {max(per_node, 0)} left after spares",
                        node.id,
                        "raid_type",
                    )
                )
            if node.raid_group_size is not None and shelves and drives and node.raid_group_size > max(per_node, 0):
                out.append(
                    Problem(
                        "error",
                        f"{node.id}: RAID group size {node.raid_group_size} is larger than the "
                        f"{max(per_node, 0)} drives available per node",
                        node.id,
                        "raid_group_size",
                    )
                )
        elif isinstance(node, HciClusterNode):
            record = _check_catalog(catalog, node.catalog_id, HciNode, node.id, "HCI host", out)
            minimum = {"ftt1-raid1": 3, "ftt2-raid1": 5, "ftt3-raid1": 7, "ftt1-raid5": 4, "ftt2-raid6": 6}
            if node.hosts < minimum[node.policy]:
                out.append(
                    Problem(
                        "error",
                        f"{node.id}: {VSAN_POLICIES[node.policy].name} needs at least {minimum[node.policy]} hosts, "
                        f"the cluster has {node.hosts}",
                        node.id,
                        "policy",
                    )
                )
            if record is not None:
                if node.disk_groups_per_host > record.max_disk_groups:
                    out.append(Problem("error", f"{node.id}: at most {record.max_disk_groups} disk groups", node.id,
                                        "disk_groups_per_host"))
                if node.capacity_drives_per_group > record.max_capacity_per_group:
                    out.append(
                        Problem(
                            "error",
                            f"{node.id}: at most {record.max_capacity_per_group} capacity drives per disk group",
                            node.id,
                            "capacity_drives_per_group",
                        )
                    )
                if node.policy in ("ftt1-raid5", "ftt2-raid6") and not record.all_flash:
                    out.append(Problem("error", f"{node.id}: erasure coding needs an all-flash cluster", node.id, "policy"))
        elif isinstance(node, CloudVmNode):
            vm = _check_catalog(catalog, node.catalog_id, CloudVm, node.id, "VM", out)
            licence = _check_catalog(catalog, node.licence, Licence, node.id, "licence", out, "licence")
            _check_catalog(catalog, node.disk, CloudDisk, node.id, "disk", out, "disk")
            if vm is not None:
                if vm.licences and node.licence not in vm.licences:
                    out.append(
                        Problem("error", f"{node.id}: licence '{licence.name if licence else node.licence}' is not "
                                f"offered on {vm.vm_size}", node.id, "licence")
                    )
                if node.ha and not vm.ha_supported:
                    out.append(Problem("error", f"{node.id}: {vm.vm_size} does not support an HA pair", node.id, "ha"))
                if node.disk_count > vm.max_data_disks:
                    out.append(
                        Problem("error", f"{node.id}: {vm.vm_size} takes at most {vm.max_data_disks} data disks", node.id,
                                "disk_count")
                    )
        elif isinstance(node, HostNode):
            from models.catalog import Adapter, Host

            _check_catalog(catalog, node.catalog_id, Host, node.id, "host", out)
            _check_catalog(catalog, node.adapter, Adapter, node.id, "adapter", out, "adapter")
        else:
            from models.catalog import Switch

            switch = _check_catalog(catalog, node.catalog_id, Switch, node.id, "switch", out)
            cabled = sum(link.ports for link in scenario.links_of(node.id))
            if switch is not None and cabled > switch.ports:
                out.append(Problem(
                    "warning", f"{node.id}: {cabled} ports are cabled to this switch but {switch.name} has "
                    f"{switch.ports}; license more ports or add a switch (a second fabric also removes the single "
                    "point of failure)", node.id))

    for link in scenario.links:
        reason = link_problem(scenario, catalog, link.source, link.target, link.link_type)
        if reason:
            out.append(Problem("error", f"link {link_name(link.source, link.target, names)}: {reason}", link.id,
                               "link_type"))

    for workload in scenario.workloads:
        target = scenario.node(workload.target)
        if target is None:
            out.append(Problem("error", f"workload '{workload.name}': target '{workload.target}' does not exist", workload.id,
                               "target"))
        elif target.kind not in ("controller", "hci_cluster", "cloud_vm"):
            out.append(
                Problem(
                    "error",
                    f"workload '{workload.name}': target '{names[target.id]}' is a "
                    f"{KIND_NAMES.get(target.kind, target.kind)}; assign it to a controller, cluster or VM",
                    workload.id,
                    "target",
                )
            )
        for host_id in workload.hosts:
            if not isinstance(scenario.node(host_id), HostNode):
                out.append(Problem("error", f"workload '{workload.name}': host '{host_id}' does not exist", workload.id,
                                   "hosts"))
    out += unconnected_problems(scenario)
    # node problems were written "<id>: ..."; the user reads the node's name
    for k, problem in enumerate(out):
        name = names.get(problem.node_id)
        if name and problem.message.startswith(f"{problem.node_id}: "):
            out[k] = Problem(problem.severity, name + problem.message[len(problem.node_id):], problem.node_id,
                             problem.field)
    return out
