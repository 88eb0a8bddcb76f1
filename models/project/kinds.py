"""The table of node kinds: what each kind of canvas item is, in one place.

A new node kind is one row here (plus its record type in ``model.py``); the engines, the problems check, the
names and the canvas read the row instead of testing ``isinstance`` one kind after another.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.catalog import CloudVm, Controller, Entry, HciNode, Host, ManagedService, Shelf, Switch
from models.project.model import (
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    HostNode,
    ManagedServiceNode,
    NodeBase,
    ShelfNode,
    SwitchNode,
)

FRONT_END_MEDIA = frozenset({"FC", "Ethernet"})
"""Link media that carry host I/O (FC, iSCSI / NFS / NVMe over Ethernet)."""
BACK_END_MEDIA = frozenset({"SAS", "PCIe"})
"""Link media that join a controller to its drive shelves."""


@dataclass(frozen=True)
class NodeKind:
    """One kind of canvas item.

    Attributes:
        kind: the node's ``kind`` field ("host", "hci_cluster", ...).
        record_type: its project record class (``HostNode``, ...).
        catalog_kind: the catalog kind its ``catalog_id`` names ("hci_node" for an HCI cluster).
        catalog_type: that catalog record class (``Host``, ``HciNode``, ...).
        label: its name in a sentence ("HCI cluster").
        plural: its name for several ("HCI clusters").
        icon: the qtawesome icon name the canvas and the palette draw for it.
        layout_column: its column in the left-to-right auto layout (hosts 0, switches 1, systems 2, shelves 3).
        link_media: the link media it may be cabled with (catalog ``LinkType.medium``; a shelf also takes its
            own back-end link type, whatever its medium).
        system: True for a storage system that serves workloads (a workload's ``target``).
        relays: True when host I/O passes through it to the next item (a switch).
        link_rule: why a link of another medium cannot be made, in words ("" when any medium it may have is
            explained by the general rules: back-end links join controllers and shelves).
    """

    kind: str
    record_type: type[NodeBase]
    catalog_kind: str
    catalog_type: type[Entry]
    label: str
    plural: str
    icon: str
    layout_column: int
    link_media: frozenset[str]
    system: bool = False
    relays: bool = False
    link_rule: str = ""


NODE_KINDS: dict[str, NodeKind] = {
    k.kind: k
    for k in (
        NodeKind("host", HostNode, "host", Host, "host", "hosts", "mdi6.server", 0, FRONT_END_MEDIA),
        NodeKind("switch", SwitchNode, "switch", Switch, "switch", "switches", "mdi6.lan", 1, FRONT_END_MEDIA,
                 relays=True),
        NodeKind("controller", ControllerNode, "controller", Controller, "controller", "controllers",
                 "mdi6.database", 2, FRONT_END_MEDIA | BACK_END_MEDIA, system=True),
        NodeKind("shelf", ShelfNode, "shelf", Shelf, "shelf", "shelves", "mdi6.nas", 3, BACK_END_MEDIA),
        NodeKind("hci_cluster", HciClusterNode, "hci_node", HciNode, "HCI cluster", "HCI clusters",
                 "mdi6.server-network", 2, frozenset({"Ethernet"}), system=True,
                 link_rule="a vSAN cluster connects over Ethernet"),
        NodeKind("cloud_vm", CloudVmNode, "cloud_vm", CloudVm, "cloud VM", "cloud VMs", "mdi6.cloud-outline", 2,
                 frozenset({"Ethernet"}), system=True,
                 link_rule="a cloud VM is reached over its network (iSCSI / Ethernet)"),
        NodeKind("managed_service", ManagedServiceNode, "managed_service", ManagedService, "managed service",
                 "managed services", "mdi6.cloud-check-outline", 2, frozenset({"Ethernet"}), system=True,
                 link_rule="a managed file service is reached over the provider's network (NFS / SMB / iSCSI)"),
    )
}
"""Node kind -> its row, in palette order."""

SYSTEM_KINDS = tuple(k.kind for k in NODE_KINDS.values() if k.system)
"""The kinds a workload can be assigned to: ("controller", "hci_cluster", "cloud_vm", "managed_service")."""


def kind_of(node: NodeBase) -> NodeKind:
    """The row of a node's kind.

    Raises:
        KeyError: the node's kind is not in the table (a record type without a row).
    """
    return NODE_KINDS[node.kind]


def kind_label(kind: str) -> str:
    """A kind's name in a sentence ("HCI cluster"); an unknown kind with its underscores as spaces."""
    row = NODE_KINDS.get(kind)
    return row.label if row is not None else kind.replace("_", " ")


def kind_heading(kind: str, plural: bool = False) -> str:
    """A kind's name as a heading or caption starts: "Host", "Cloud VM", "HCI clusters" (``plural``); an unknown
    kind as itself."""
    row = NODE_KINDS.get(kind)
    if row is None:
        return kind
    text = row.plural if plural else row.label
    return text[:1].upper() + text[1:]


__all__ = ["BACK_END_MEDIA", "FRONT_END_MEDIA", "NODE_KINDS", "NodeKind", "SYSTEM_KINDS", "TRANSFER_ID_MARK",
           "kind_heading", "kind_label", "kind_of"]


TRANSFER_ID_MARK = ".replication-"
"""What the id of a replication transfer's reads or writes holds (``models.replication.load.transfer_workloads``:
``<relationship>.replication-read`` / ``-write``): its I/O comes from the partner system over the replication
network, not from the scenario's hosts, so no host need reach its target (``Topology.io_path_problem``)."""
