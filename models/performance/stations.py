"""Typed identities of the queueing stations on a workload's I/O path: which node, which role, which one.

A station's display name ("node 2 CPU", "SSDs (node 1)") is for people and stays the engine's key; what the
failure states (:mod:`models.performance.states`), the bands and the validation decide about a station they read
from its :class:`StationId` instead, so that renaming a station changes no result. The builders in
:mod:`models.performance.paths` give every station one.

Roles (:data:`ROLES`), by the part of the design a station models:

* front end: ``host_stack`` (host I/O stack delay), ``fabric`` (fabric hops), ``host_ports``, ``target_ports``,
  ``client_rtt`` (the client's network round trip to a cloud VM or managed service);
* a controller node (``node`` 1..N of an HA pair or a cluster of HA pairs): ``cpu``, ``affinity`` (WAFL
  affinities), ``datapath``, ``iops_bound`` (a rate cap at a published "up to" IOPS figure:
  ``models.performance.hardware_relation.iops_ceiling``), ``nvram`` (NVRAM mirroring to the partner),
  ``flash_cache``, ``backend`` (back-end lanes), and the node's drive pool ``drives`` / ``drive_transfer``;
* shared by a system: ``fixed_latency`` (a profile's fixed latency: controller, vSAN software path, managed
  service floor), ``ha_mirror`` (HA mirror latency), ``metrocluster_mirror`` (the inter-site mirror);
* Cloud Volumes ONTAP: ``network`` (VM network), ``cpu`` (the VM), ``ha_partner_cpu``, ``ha_mirror_round_trip``,
  ``ha_partner_log_write``, ``vm_disk_iops`` / ``vm_disk_mbps`` (the VM's uncached disk caps), ``disk_iops`` /
  ``disk_mbps`` (the data disks' caps), ``nvram_log_iops`` / ``nvram_log_mbps`` (the NVRAM log disk),
  ``disk_latency``, ``object_store`` (FabricPool), ``flash_cache`` (local NVMe);
* vSAN: ``network``, ``network_rtt``, ``cpu`` (the hosts), ``software_limit`` (disk groups' or storage pools'
  software path), ``drives`` (capacity tier or ESA storage pool), ``cache_drives`` (OSA cache tier);
  a stretched cluster's ``intersite_rtt`` (a write's round trip to the other data site) and ``intersite_link``
  (the link between the data sites, its bandwidth);
* managed file service: ``service_mbps``, ``service_iops`` (its published limits), ``service_ops`` (one volume's
  published small-block read / write operation rates);
* ``unspecified``: a station built outside the path builders (tests); no state selects it.
"""

from __future__ import annotations

from typing import NamedTuple

from models.catalog.schema import node_noun

ROLES = frozenset({
    "host_stack", "fabric", "host_ports", "target_ports", "client_rtt",
    "cpu", "affinity", "datapath", "iops_bound", "nvram", "flash_cache", "backend", "drives", "drive_transfer",
    "fixed_latency", "ha_mirror", "metrocluster_mirror",
    "network", "ha_partner_cpu", "ha_mirror_round_trip", "ha_partner_log_write", "vm_disk_iops", "vm_disk_mbps",
    "disk_iops", "disk_mbps", "nvram_log_iops", "nvram_log_mbps", "disk_latency", "object_store",
    "network_rtt", "software_limit", "cache_drives", "intersite_rtt", "intersite_link",
    "service_mbps", "service_iops", "service_ops",
    "unspecified",
})
"""Every station role (module docstring): a closed set, checked when a :class:`StationId` is made."""

CONTROLLER_ROLES = frozenset({"cpu", "affinity", "datapath", "iops_bound", "nvram", "flash_cache", "backend"})
"""Roles of a controller node's own hardware: they fail with the node, and in a takeover the partner's stations of
the same role carry their work (ONTAP "storage failover takeover"). A node's ``drives`` are not among them: the
drives survive and the partner reaches them through its own back-end ports."""

PORT_ROLES = ("target_ports", "host_ports")
"""Multipath port groups, in the order a path loss takes one of their ports (the array's side first)."""

ROLE_WORDS = {"target_ports": "target ports", "host_ports": "host ports"}
"""A role as words in a sentence, where a state's reason names it."""


def node_words(family: str, node: int) -> str:
    """How every output names controller ``node`` (1-based) of a system of catalog ``family``: an E-Series array's
    two controllers are "controller A" and "controller B", as SANtricity System Manager names them (NetApp E-Series
    documentation, docs.netapp.com/us-en/e-series-santricity: the controllers of a controller shelf are A and B),
    a third or later one "controller 3"; every other system's controllers are ONTAP's numbered HA-pair nodes,
    "node 1", "node 2", .... Only the words: the station's :class:`StationId` keeps the number."""
    if node_noun(family) == "controller":
        return f"controller {'AB'[node - 1]}" if node in (1, 2) else f"controller {node}"
    return f"node {node}"


class _StationFields(NamedTuple):
    role: str
    node: int | None
    index: int | None  # type: ignore[assignment]  # a field, shadowing tuple.index (never called on it)


class StationId(_StationFields):
    """What a station is, independent of its display name.

    A named tuple (immutable, hashed and compared in C: the engine's caches hash every station of a path on each
    call, and a generated dataclass hash cost a measurable share of an evaluation).

    Attributes:
        role: one of :data:`ROLES`.
        node: the 1-based node of a controller (HA pair or cluster of HA pairs) the station belongs to; None for
            a station the system shares (ports, delays, a cloud VM, a vSAN cluster's pooled hosts).
        index: which of several stations of the same node and role (0-based), None when there is one.

    Raises:
        ValueError: an unknown role, a node below 1 or a negative index.
    """

    __slots__ = ()

    def __new__(cls, role: str, node: int | None = None, index: int | None = None) -> StationId:
        if role not in ROLES:
            raise ValueError(f"station role must be one of {sorted(ROLES)}, got {role!r}")
        if node is not None and node < 1:
            raise ValueError(f"station node is 1-based, got {node}")
        if index is not None and index < 0:
            raise ValueError(f"station index must be >= 0, got {index}")
        return super().__new__(cls, role, node, index)

    @property
    def of_controller_node(self) -> bool:
        """True for a controller node's own hardware (:data:`CONTROLLER_ROLES` with a node)."""
        return self.node is not None and self.role in CONTROLLER_ROLES

    def on_node(self, node: int) -> StationId:
        """The station of the same role and index on ``node`` (1-based), e.g. where a takeover moves a failed
        node's work.

        Raises:
            ValueError: ``node`` below 1, or a shared station (``self.node`` None): it belongs to no node.
        """
        if self.node is None:
            raise ValueError(f"a shared station ({self.role}) belongs to no node")
        return StationId(self.role, node, self.index)


UNSPECIFIED = StationId("unspecified")
"""The identity of a station built outside the path builders (the default of ``StationSpec.ident``)."""
