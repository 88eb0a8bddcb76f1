"""The project: topology (nodes, links), workloads, scenarios and settings, as immutable validated records.

Every record is a frozen pydantic model, so a project snapshot can be handed to a worker thread and edits are
new values (``with_changes``) that an undo command can swap back. Capacities are bytes, times are named with
their unit (``slo_ms``, ``think_time_ms``), rates are IOPS or MB/s (10^6 bytes/s).
"""

# Start-up cost (issue 27; every command and the app validate a project with these types): annotations here are
# evaluated when the module runs (no ``from __future__ import annotations``), because pydantic reads each field's
# annotation and a string costs it an ``eval``, a compile, per field; the few names not yet defined are quoted.
# A list or dict default is made by a lambda, not by ``list`` or ``dict``: pydantic reads each factory's signature
# (does it take the validated data?), and a builtin's signature is parsed from its text. Both cost ~10 ms of every
# start (``python -X importtime``); ``tests/test_import_light_evaluate.py`` keeps them out.

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from models.catalog import CatalogError, parse_entries
from models.catalog.schema import CONTROL_CHARACTER, control_character_problem
from models.units import CapacityUnit

ID = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$", max_length=80)]

MAX_BYTES = 2**63 - 1
"""Largest byte count a workload field takes (8 EiB): what a project file's 64-bit integer columns can hold."""

# Limits on what a project holds: counts and lengths no real project reaches, so that a crafted file is refused
# when it is read, naming the limit, instead of costing minutes and gigabytes in every command (the limits on the
# catalog records a project carries are those of models.catalog.schema).
MAX_LABEL = 200
"""Characters in a node label, a workload or scenario name, a part number, a software release (a label is a few
words; a release a few characters)."""
MAX_TEXT = 20_000
"""Characters in the project's description and other free text (a page of notes is about 3,000)."""
MAX_NODES = 20_000
"""Nodes in one scenario (the largest project StorPlan is measured on has 10,000)."""
MAX_LINKS = 40_000
"""Links in one scenario (two per node at most in any design StorPlan draws)."""
MAX_WORKLOADS = 1_000
"""Workloads in one scenario (a consolidation study has a few dozen)."""
MAX_WORKLOADS_PER_TARGET = 100
"""Workloads served by one controller, cluster or VM (a consolidated array serves a few dozen applications); each
one multiplies the performance model's work on that system."""
MAX_SCENARIOS = 100
"""Scenarios in one project (a comparison has a handful)."""
MAX_CATALOG_RECORDS = 2_000
"""Catalog records a project carries itself (the bundled catalog holds a few hundred)."""
MAX_PRICES = 100_000
"""Rows of the project's price book."""


TEXT_CHECKED = "storplan_text_checked"
"""Validation context key (``Project.model_validate(data, context={TEXT_CHECKED: True})``): the caller searched every
text of ``data`` for control characters at once and found none (``models.store.codec`` does, for a file of 10,000
nodes), so the records skip their own search; without it (or when the caller's search found something) every record
searches its own text and names the field."""


class Record(BaseModel):
    """Base of every project record: frozen, no unknown fields, every float finite (nan and inf are refused), no
    control character in any text (``models.catalog.schema.control_character_problem``: a label with a NUL would
    break the workbook and mean nothing to a reader)."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True, allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _no_control_characters(cls, data: Any, info: ValidationInfo) -> Any:
        if info.context is not None and info.context.get(TEXT_CHECKED):
            return data
        if isinstance(data, dict):  # a record's own text and lists of text; nested records check their own
            search = CONTROL_CHARACTER.search  # each value tested in the cheapest order (20,000 records in a file)
            for key, value in data.items():
                if isinstance(value, str):
                    if search(value) is None:
                        continue
                elif isinstance(value, list):
                    if not (value and isinstance(value[0], str) and any(isinstance(v, str) and search(v)
                                                                         for v in value)):
                        continue
                elif isinstance(value, bytes):  # lax mode takes bytes as text (a BLOB in a .storplan text column)
                    value = value.decode("utf-8", "replace")
                    if search(value) is None:
                        continue
                else:
                    continue
                problem = control_character_problem(value, str(key))
                if problem is not None:
                    raise PydanticCustomError("control_character", "{detail}", {"detail": problem})
        return data

    def with_changes(self, **changes: Any) -> Self:
        """A validated copy with some fields changed.

        Raises:
            pydantic.ValidationError: a changed value is invalid (the error names the field).
        """
        return type(self).model_validate({**self.model_dump(), **changes})


RaidType = Literal["none", "raid0", "raid4", "raid_dp", "raid_tec", "raid5", "raid6", "raid10", "ddp"]
AdpMode = Literal["none", "root-data", "root-data-data"]
VsanPolicy = Literal["ftt0", "ftt1-raid1", "ftt2-raid1", "ftt3-raid1", "ftt1-raid5", "ftt2-raid6"]


class NodeBase(Record):
    """What every canvas item has: id, catalog record, label and position (scene units)."""

    id: ID
    catalog_id: str = Field(min_length=1, max_length=MAX_LABEL)
    label: str = Field(default="", max_length=MAX_LABEL)
    x: float = 0.0
    y: float = 0.0
    if TYPE_CHECKING:
        kind: str  # each node type's literal tag (declared there, the union's discriminator)


class HostNode(NodeBase):
    """One or more identical servers running workloads."""

    kind: Literal["host"] = "host"
    count: int = Field(default=1, ge=1, le=10_000, description="identical servers this item stands for")
    adapter: str | None = Field(default=None, description="catalog id of the HBA or NIC")
    adapters_per_host: int = Field(default=1, ge=1, le=16)


class SwitchNode(NodeBase):
    """A fabric or Ethernet switch."""

    kind: Literal["switch"] = "switch"


class NodeLayout(Record):
    """One controller node's own layout where it differs from its HA partner's (ONTAP): the drives or ADPv2 data
    partitions it owns, its spares and its RAID group size. None keeps the controller's value (an even split of
    the drives, ``spares_per_node``, ``raid_group_size``).

    ONTAP assigns drive (and partition) ownership per node, so the two nodes of a pair may own different counts
    (ONTAP documentation, "Manual disk and partition ownership"; an AFF with ADPv2 may even give both data
    partitions of every drive to one node: active/passive)."""

    drives: int | None = Field(default=None, ge=0, le=5_760, description="whole drives this node owns (no ADP or "
                                                                          "ADPv1); None = an even share")
    data_partitions: int | None = Field(default=None, ge=0, le=96, description="ADPv2: data partitions of the pair's "
                                                                              "partitioned drives this node owns; None "
                                                                              "= one per drive")
    spares: int | None = Field(default=None, ge=0, le=64, description="this node's spares (whole drives, or ADPv2 "
                                                                      "spare data partitions); None = spares_per_node")
    raid_group_size: int | None = Field(default=None, ge=2, le=64, description="this node's RAID group size; None "
                                                                                "= the controller's")


class ControllerNode(NodeBase):
    """A storage controller system (HA pair or array) and how its aggregates / volume groups are built."""

    kind: Literal["controller"] = "controller"
    software: str | None = Field(default=None, max_length=MAX_LABEL,
                                 description="software version; None = the catalog default")
    nodes: int | None = Field(default=None, ge=1, le=24, description="controller nodes; None = the catalog's")
    raid_type: RaidType = "raid_dp"
    raid_group_size: int | None = Field(default=None, ge=2, le=64, description="drives per RAID group; None = default")
    spares_per_node: int = Field(default=1, ge=0, le=64)
    root_aggregate_drives: int = Field(
        default=0, ge=0, le=16, description="ONTAP without ADP: whole drives of these shelves per node that hold the "
                                            "node's root aggregate (RAID DP: typically 1 data + 2 parity drives); "
                                            "0 = on drives not counted here. Not spares: a failed drive's rebuild "
                                            "uses the spares")
    adp: AdpMode = "none"
    root_partition_bytes: int | None = Field(default=None, gt=0, description="ADP root partition override")
    wafl_reserve_pct: float | None = Field(default=None, ge=0, lt=100, description="None = the ONTAP rule")
    snapshot_reserve_pct: float | None = Field(
        default=None, ge=0, lt=100, description="aggregate Snapshot reserve; None = the ONTAP rule: 5% on MetroCluster "
                                                "(SyncMirror) aggregates, 0% otherwise")
    ddp_preservation_drives: int = Field(default=1, ge=0, le=64)
    optimization_capacity_pct: float | None = Field(
        default=None, ge=0, lt=100, description="EF300 / EF600 SSD pools: SANtricity's additional optimization "
                                                "capacity, % of the pool's usable capacity; None = not counted "
                                                "(SANtricity publishes no default figure)")
    metrocluster: Literal["none", "ip", "fc"] = Field(
        default="none", description="MetroCluster: this HA pair's aggregates are SyncMirror-mirrored to a partner "
                                    "site (IP or FC back end); none: a single site")
    site_distance_km: float = Field(default=0.0, ge=0, le=700, description="fibre distance to the MetroCluster "
                                                                            "partner site, km (writes wait for it)")
    partner_site_load: Literal["none", "mirror"] = Field(
        default="none", description="MetroCluster: what the partner site runs. mirror: the same workloads as this "
                                    "site (symmetric active-active), so in a switchover the surviving site serves "
                                    "both sites' workloads; none: only this site's mirror writes (active-passive)")
    rebuild_impact: Literal["low", "medium", "high"] = Field(
        default="medium", description="how hard a drive rebuild works (ONTAP raid.reconstruct.perf_impact; E-Series "
                                      "reconstruction priority): more load on the drives, a shorter rebuild")
    node_layouts: list[NodeLayout] = Field(default_factory=lambda: [], max_length=24, description=(
        "per-node layouts in node order where the nodes of a pair differ (ONTAP); empty: every node alike"))
    capacity_tier: Literal["none", "storagegrid", "cloud-bucket"] = Field(
        default="none", description="FabricPool (ONTAP): the object store attached as the capacity tier; each "
                                    "workload's cold-data share moves there. none: no capacity tier")
    capacity_tier_name: str = Field(default="", max_length=MAX_LABEL, description="FabricPool: the object store's "
                                                                                   "name (a grid, a bucket)")
    cold_read_latency_us: float | None = Field(
        default=None, gt=0, le=10_000_000, description="FabricPool: time to fetch one cold block from the capacity "
                                                       "tier, us; None = the assumed default for the kind")
    capacity_tier_protection: Literal["ec-2+1", "ec-4+1", "ec-4+2", "ec-6+1", "ec-6+2", "ec-6+3", "ec-8+2", "ec-9+3",
                                      "ec-7+5", "copies-1", "copies-2", "copies-3"] = Field(
        default="ec-2+1", description="FabricPool on StorageGRID: the ILM rule's protection of the tiered objects "
                                      "(k+m erasure coding or replicated copies), which sets the grid's raw capacity "
                                      "(models.capacity.fabricpool); a cloud bucket's redundancy is the provider's")
    storage_switch: str = Field(
        default="", max_length=MAX_LABEL,
        description="catalog id of the storage switch model through which the external shelves are cabled as "
                    "switch-attached storage (a pair of them); '': direct-attached shelves")
    storage_switch_pairs: int = Field(
        default=1, ge=1, le=16,
        description="pairs of ``storage_switch`` switches the switch-attached shelves are spread over (each pair "
                    "cabled to both controllers; the design check refuses too few ports, "
                    "models.catalog.limits.storage_switch_ports_needed)")
    tiering_policy: Literal["auto", "snapshot-only"] = Field(
        default="auto", description="FabricPool volume tiering policy: auto, each workload's cold-data share tiers "
                                    "(and its cold reads go to the object store); snapshot-only, only the blocks of "
                                    "Snapshot copies older than the 2-day cooling period tier (reads stay local)")


class ShelfNode(NodeBase):
    """A drive shelf (or internal bays) with ``drive_count`` drives of catalog type ``drive``."""

    kind: Literal["shelf"] = "shelf"
    drive: str = Field(min_length=1, description="catalog id of the drive model")
    drive_count: int = Field(ge=0, le=480)


class HciClusterNode(NodeBase):
    """A vSAN cluster of identical hosts (``catalog_id`` is the HCI host model)."""

    kind: Literal["hci_cluster"] = "hci_cluster"
    hosts: int = Field(default=4, ge=1, le=64)
    disk_groups_per_host: int = Field(default=2, ge=1, le=5)
    capacity_drives_per_group: int = Field(default=4, ge=1, le=7)
    policy: VsanPolicy = "ftt1-raid1"
    architecture: Literal["osa", "esa"] = Field(
        default="osa", description="vSAN Original Storage Architecture (disk groups with a cache tier) or Express "
                                   "Storage Architecture (vSAN 8+: one storage pool per host, no cache tier)")
    dedupe_compression: bool = False
    slack_space_pct: float | None = Field(default=None, ge=0, lt=100, description="None = the catalog's")
    capacity_reserve: Literal["auto", "slack", "reserved"] = Field(
        default="auto", description="free capacity kept: 'slack' (25-30% free, vSAN before 7.0 U1), 'reserved' "
                                    "(operations reserve + host rebuild reserve, vSAN 7.0 U1 and later), 'auto': "
                                    "reserved for ESA, slack for OSA (or when slack_space_pct is set)")
    operations_reserve_pct: float | None = Field(default=None, ge=0, lt=100,
                                                 description="vSAN operations reserve, % of capacity; "
                                                             "None = assumed 10%")
    host_rebuild_reserve: bool = Field(default=True, description="keep one host's capacity free to rebuild after a "
                                                                 "host failure (reserved mode)")
    stretched: bool = Field(default=False, description="vSAN stretched cluster: the hosts split evenly over two data "
                                                       "sites (a fault domain each) with a witness host at a third "
                                                       "site; every object is mirrored to both sites (site disaster "
                                                       "tolerance) and protected inside each site by ``policy``")
    inter_site_rtt_ms: float = Field(default=1.0, ge=0, le=200, description="round-trip time between the two data "
                                                                            "sites, ms (vSAN supports < 5 ms)")
    inter_site_gbps: float = Field(default=10.0, gt=0, le=1000, description="bandwidth of the inter-site link, "
                                                                           "Gbit/s (vSAN's minimum is 10)")


class CloudVmNode(NodeBase):
    """Cloud Volumes ONTAP on a cloud VM (``catalog_id``), single node or HA pair, with its data disks."""

    kind: Literal["cloud_vm"] = "cloud_vm"
    software: str | None = Field(default=None, max_length=MAX_LABEL,
                                 description="Cloud Volumes ONTAP release (e.g. 9.14.1); None = the current release")
    licence: str = Field(min_length=1, description="catalog id of the licence")
    ha: bool = False
    disk: str = Field(min_length=1, description="catalog id of the data disk type")
    disk_count: int = Field(default=6, ge=1, le=64)
    raid_type: RaidType = "raid0"
    write_speed: Literal["normal", "high"] = "normal"
    tiering: Literal["none", "auto", "snapshot-only", "all"] = "none"
    cold_data_pct: float = Field(default=0.0, ge=0, le=100, description="share of reads served from object storage")


class ManagedServiceNode(NodeBase):
    """A managed NetApp file service (``catalog_id``: Azure NetApp Files at a service level, Amazon FSx for NetApp
    ONTAP...): what the user provisions; the provider runs the storage.

    Attributes:
        provisioned_bytes: the volume quota / capacity pool (ANF) or SSD storage capacity (FSx) provisioned.
        throughput_mbps: provisioned throughput capacity, MB/s, for services that sell it (FSx); 0: the smallest
            option, or for size-based services (ANF auto QoS) the service level's throughput per TiB x the quota.
        iops: provisioned SSD IOPS above the automatic ones (FSx); 0: the automatic IOPS per GiB.
    """

    kind: Literal["managed_service"] = "managed_service"
    provisioned_bytes: int = Field(default=4 * 2**40, ge=1, le=MAX_BYTES)
    throughput_mbps: float = Field(default=0.0, ge=0)
    iops: float = Field(default=0.0, ge=0)


Node = Annotated[
    HostNode | SwitchNode | ControllerNode | ShelfNode | HciClusterNode | CloudVmNode | ManagedServiceNode,
    Field(discriminator="kind"),
]
NODE_TYPES: dict[str, type[NodeBase]] = {
    "host": HostNode,
    "switch": SwitchNode,
    "controller": ControllerNode,
    "shelf": ShelfNode,
    "hci_cluster": HciClusterNode,
    "cloud_vm": CloudVmNode,
    "managed_service": ManagedServiceNode,
}
"""Node kind -> record type."""
NODE_KIND_FOR_CATALOG: dict[str, str] = {
    "host": "host",
    "switch": "switch",
    "controller": "controller",
    "shelf": "shelf",
    "hci_node": "hci_cluster",
    "cloud_vm": "cloud_vm",
    "managed_service": "managed_service",
}
"""Catalog kind -> the node kind a palette drop of it creates."""


class Link(Record):
    """A connection between two nodes: ``ports`` parallel ports of catalog link type ``link_type``; from a host
    node that stands for several servers (``count``), the ports of the whole group (8 hosts x 4 ports: 32)."""

    id: ID
    source: str
    target: str
    link_type: str = Field(min_length=1)
    ports: int = Field(default=1, ge=1, le=256)

    @model_validator(mode="after")
    def _not_a_loop(self) -> "Link":
        if self.source == self.target:
            raise ValueError("a link cannot connect a node to itself")
        return self


class SnapshotSchedule(Record):
    """Snapshot copies taken every ``interval_h`` hours, kept ``retention_h`` hours; ``change_pct_per_h`` of
    the data is overwritten each hour."""

    interval_h: float = Field(ge=1 / 60, le=24 * 366, description="at least a minute (cron-style schedules)")
    retention_h: float = Field(gt=0, le=24 * 366 * 10)
    change_pct_per_h: float = Field(ge=0, le=100)


NasProtocol = Literal["NFSv3", "NFSv4.1", "SMB3"]
PROTOCOL_FAMILY = {"NFSv3": "NFS", "NFSv4.1": "NFS", "SMB3": "SMB"}
"""NAS protocol version -> the link protocol that carries it (catalog ``LinkType.protocols``)."""

NAS_READ_OPS = ("read",)
"""File operations that move data from storage (the workload's block size each)."""
NAS_WRITE_OPS = ("write",)
"""File operations that move data to storage."""
NAS_METADATA_READ_OPS = ("getattr", "lookup", "access", "readdir", "readdirplus", "readlink", "fsstat")
"""Metadata operations that only read (answered from the controller's metadata in memory)."""
NAS_METADATA_WRITE_OPS = ("setattr", "create", "remove", "commit")
"""Metadata operations that change the file system (logged to NVRAM like a write)."""
NAS_OPS = NAS_READ_OPS + NAS_WRITE_OPS + NAS_METADATA_READ_OPS + NAS_METADATA_WRITE_OPS
"""Every operation name an operation mix may use (NFSv3 names; SMB3 and NFSv4.1 map their commands onto them)."""


SPEC_SFS_2008_NFSV3_MIX = {"lookup": 24.0, "read": 18.0, "write": 10.0, "getattr": 26.0, "readlink": 1.0,
                           "readdir": 1.0, "create": 1.0, "remove": 1.0, "fsstat": 1.0, "setattr": 4.0,
                           "readdirplus": 2.0, "access": 11.0}
"""The SPEC SFS 2008 NFSv3 operation mix, percent (M. Eisler, "More on SPEC SFS 2008", NetApp blog, April 2008):
the starting mix of a new file workload."""


class NasWorkload(Record):
    """A file workload: its protocol and operation mix (percent of operations by name, summing to 100).

    ``read`` and ``write`` move the workload's block size; the metadata operations move none. The IOPS of a
    NAS workload count every operation (NFS ops/s, as SPEC SFS reports them)."""

    protocol: NasProtocol = "NFSv3"
    op_mix: dict[str, float] = Field(description="operation name (NAS_OPS) -> percent of operations")

    @model_validator(mode="after")
    def _mix_is_whole(self) -> "NasWorkload":
        unknown = sorted(set(self.op_mix) - set(NAS_OPS))
        if unknown:
            raise ValueError(f"op_mix names unknown operations {', '.join(unknown)}; known: {', '.join(NAS_OPS)}")
        bad = sorted(k for k, v in self.op_mix.items() if not 0 <= v <= 100)
        if bad:
            raise ValueError(f"op_mix percentages must be 0..100: {', '.join(bad)}")
        total = sum(self.op_mix.values())
        if abs(total - 100.0) > 0.5:
            raise ValueError(f"op_mix percentages add up to {total:g}, not 100")
        return self

    def share(self, names: tuple[str, ...]) -> float:
        """The fraction (0..1) of operations whose name is in ``names``."""
        return sum(self.op_mix.get(n, 0.0) for n in names) / 100.0


CAPACITY_ONLY = "capacity-only"
"""The ``preset`` of a capacity-only workload: data measured without any performance data (an imported machine or
volume whose source gives no I/O figures). Such a workload, when enabled, counts for capacity like any other (its
``dataset_bytes``, growth, Snapshot copies and clones: the capacity engine, the sizer's capacity check, the report
and the Capacity tab), but it has no I/O to evaluate: the performance engine builds no path for it (its I/O size,
read and random shares are placeholders, never evaluated as a load), the sizer checks no target for it, and where
no workload has a load a design is sized on capacity and the other stated requirements alone. Giving it a preset's
performance profile (``models.project.edits.apply_preset_profile``, the Workloads panel's "Apply preset") replaces
this marker with the preset's id and makes it an ordinary workload."""


IMPORTED_ID_PREFIX = "imported-"
"""The id prefix of a workload made by an import of a measured environment (``models.importers.workloads``): no
source measures growth, so such a workload's 0%/yr growth is "not measured", never "no growth planned"."""


def data_growth_unmeasured(workload: "Workload") -> bool:
    """Whether a workload's data growth was not measured: an imported workload (:data:`IMPORTED_ID_PREFIX`) still
    at the 0%/yr the import applies (no source measures growth; every import is one snapshot). What lists the
    workloads' growth (the workbook's Workloads sheet and its CSV, the PDF's workload figures) says "not measured",
    not "0% a year"; a growth the user sets (other than 0) is shown as set, and any workload not imported shows its
    0% as entered."""
    return workload.id.startswith(IMPORTED_ID_PREFIX) and workload.growth_pct_per_year == 0


def iops_growth_unmeasured(workload: "Workload") -> bool:
    """As :func:`data_growth_unmeasured`, for the workload's IOPS growth (no import measures that either)."""
    return workload.id.startswith(IMPORTED_ID_PREFIX) and workload.iops_growth_pct_per_year == 0


def growth_unmeasured(workloads: "list[Workload]") -> bool:
    """Whether some enabled workload is an imported one (:data:`IMPORTED_ID_PREFIX`) still at 0%/yr growth: its
    growth was not measured (the import applies 0%/yr) rather than planned as none (:func:`data_growth_unmeasured`)."""
    return any(w.enabled and data_growth_unmeasured(w) for w in workloads)


def capacity_unmeasured(workloads: "list[Workload]", effective_capacity_bytes: int = 0) -> bool:
    """Whether the data's capacity is unknown: some enabled workload is an imported one (:data:`IMPORTED_ID_PREFIX`),
    no enabled workload has a data set (the measured files gave no capacity: ONTAP performance counters) and no
    effective capacity is stated. A design then "fits" 0 bytes: the report says "not measured" instead."""
    enabled = [w for w in workloads if w.enabled]
    return (not effective_capacity_bytes and any(w.id.startswith(IMPORTED_ID_PREFIX) for w in enabled)
            and all(w.dataset_bytes == 0 for w in enabled))


def dataset_unmeasured(workload: "Workload") -> bool:
    """Whether a workload's data set was not measured: an imported workload (:data:`IMPORTED_ID_PREFIX`) without a
    data set (its measured files gave no capacity: ONTAP performance counters). Its 0 bytes are no measurement, so
    what lists the workloads' data sets (the workbook's Workloads sheet and its CSV, the PDF's workload figures)
    says "not measured" (:func:`capacity_unmeasured`, :func:`capacity_partly_unmeasured`: the same workloads, seen
    from the capacity judged)."""
    return workload.id.startswith(IMPORTED_ID_PREFIX) and workload.dataset_bytes == 0


def capacity_partly_unmeasured(workloads: "list[Workload]") -> "list[Workload]":
    """The enabled imported workloads (:data:`IMPORTED_ID_PREFIX`) whose measured files gave no capacity (no data
    set) while other enabled workloads have one (a Live Optics export imported with ONTAP performance counters):
    their data is in the capacity judged only if the effective capacity needed includes it (the import states the
    measured workloads' total, so a stated effective capacity does not clear it). Empty when every workload's
    capacity is known, or none is (:func:`capacity_unmeasured` says that case)."""
    enabled = [w for w in workloads if w.enabled]
    if not any(w.dataset_bytes for w in enabled):
        return []  # none measured: capacity_unmeasured's case (a stated effective capacity is then the user's own)
    return [w for w in enabled if dataset_unmeasured(w)]


class Workload(Record):
    """An application's I/O and capacity requirement, assigned to a controller, cluster or VM (``target``).

    ``enabled``: part of the design (capacity and performance); an unticked workload is left out of both.
    A workload whose ``preset`` is :data:`CAPACITY_ONLY` stores data but carries no I/O: see
    :attr:`performance_enabled`."""

    id: ID
    name: str = Field(min_length=1, max_length=MAX_LABEL)
    preset: str | None = Field(default=None, max_length=MAX_LABEL)
    target: str = Field(description="node id of the controller, HCI cluster or cloud VM serving it")
    hosts: list[str] = Field(default_factory=lambda: [],
                             description="host node ids issuing the I/O (empty = all linked)")
    enabled: bool = True
    block_kib: float = Field(ge=0.5, le=16_384, description="I/O size, KiB (at least one 512-byte sector)")
    read_pct: float = Field(ge=0, le=100)
    random_pct: float = Field(ge=0, le=100)
    target_iops: float | None = Field(default=None, gt=0)
    target_mbps: float | None = Field(default=None, gt=0)
    slo_ms: float = Field(default=1.0, gt=0, le=10_000)
    concurrency: int = Field(default=256, ge=1, le=100_000, description="max outstanding I/Os (closed ramp)")
    think_time_ms: float = Field(default=0.0, ge=0)
    dataset_bytes: int = Field(default=0, ge=0, le=MAX_BYTES)
    working_set_bytes: int | None = Field(default=None, ge=0, le=MAX_BYTES, description="None = the whole dataset")
    provisioned_bytes: int | None = Field(default=None, ge=0, le=MAX_BYTES,
                                          description="thin-provisioned size; None = dataset")
    compression_ratio: float = Field(default=1.0, ge=1.0, le=100)
    compaction_ratio: float = Field(default=1.0, ge=1.0, le=100)
    dedupe_ratio: float = Field(default=1.0, ge=1.0, le=100)
    snapshots: SnapshotSchedule | None = None
    clones: int = Field(default=0, ge=0, le=1000, description="FlexClone-style copies of the dataset")
    growth_pct_per_year: float = Field(default=0.0, ge=0, le=1000)
    iops_growth_pct_per_year: float = Field(default=0.0, ge=0, le=1000,
                                            description="growth of the IOPS target, % per year: (1 + g)^(months / 12)")
    nas: NasWorkload | None = Field(default=None, description="a file (NFS / SMB) workload's protocol and operation "
                                                               "mix; None: a block workload")
    cold_data_pct: float = Field(default=0.0, ge=0, le=100, description="FabricPool: share of the workload's data "
                                                                     "(after efficiency) tiered to the target's "
                                                                     "capacity tier, %")
    cold_read_pct: float = Field(default=0.0, ge=0, le=100, description="FabricPool: share of the workload's reads "
                                                                     "that hit tiered (cold) data, %")

    @property
    def capacity_only(self) -> bool:
        """Data without performance data (``preset`` is :data:`CAPACITY_ONLY`): no I/O to evaluate."""
        return self.preset == CAPACITY_ONLY

    @property
    def performance_enabled(self) -> bool:
        """Enabled and with I/O to evaluate (not :attr:`capacity_only`): what the performance engine and the
        sizer's performance checks take; the capacity engine takes every enabled workload."""
        return self.enabled and self.preset != CAPACITY_ONLY


# --- replication relationships (models.project.replication re-exports them; models.replication evaluates) ---

ReplicationKind = Literal["snapmirror", "snapvault", "active-sync"]
"""snapmirror: SnapMirror asynchronous (a mirror updated on a schedule; the destination keeps the source's Snapshot
copies); snapvault: SnapMirror with a vault policy (the destination keeps its own, longer retention); active-sync:
SnapMirror active sync (synchronous, zero RPO, writes wait for the partner site)."""

REPLICATION_KIND_LABELS: dict[str, str] = {
    "snapmirror": "SnapMirror asynchronous",
    "snapvault": "SnapVault",
    "active-sync": "SnapMirror active sync",
}
"""Kind -> its name in a sentence or a table."""

MAX_PROTECTED = 100
"""Workloads one relationship names (as :data:`models.project.model.MAX_WORKLOADS_PER_TARGET`)."""


class ChangeRate(Record):
    """How much of one protected workload's data changes per day, and when in the day.

    Attributes:
        workload: the workload's id.
        bytes_per_day: unique bytes changed per day (logical, before data reduction); None: the default from the
            workload's write rate (``models.replication.change``), which the results say is a default.
        hourly_profile: 24 relative weights, hour 0 to 23 (local time), of when the change happens; empty: spread
            evenly over the day. Only their shares matter ([1, 1, ...] and [2, 2, ...] are the same profile).
    """

    workload: ID
    bytes_per_day: int | None = Field(default=None, ge=0, le=MAX_BYTES)
    hourly_profile: list[float] = Field(default_factory=lambda: [], max_length=24)

    @field_validator("hourly_profile")
    @classmethod
    def _profile_shape(cls, value: list[float]) -> list[float]:
        if value and len(value) != 24:
            raise ValueError(f"hourly_profile: 24 weights (hours 0 to 23), got {len(value)}")
        if any(v < 0 for v in value):
            raise ValueError("hourly_profile: a weight is negative")
        if value and sum(value) <= 0:
            raise ValueError("hourly_profile: every weight is 0")
        return value


class Replication(Record):
    """One replication relationship from ``source`` to ``target`` (node ids of two storage systems).

    Attributes:
        kind: :data:`ReplicationKind`.
        label: a name for it ("DR to Azure").
        workloads: ids of the protected workloads (each served by ``source``); empty: every workload ``source``
            serves.
        schedule_minutes: minutes between scheduled transfers (SnapMirror / SnapVault; ONTAP's schedules: 5min,
            hourly, daily...); active sync ignores it.
        rpo_minutes: the recovery point objective required, minutes (0: none stated).
        retention_days: SnapVault: days of daily copies the destination keeps; SnapMirror: ignored (the mirror
            keeps the source's copies).
        bandwidth_mbit_s: the network between the sites, megabits per second.
        rtt_ms: its round-trip time, milliseconds (active sync adds it to every write).
        replication_share_pct: the share of that bandwidth available to replication, percent.
        overwrite_pct: of the bytes a workload writes in a day, the share that overwrites blocks already changed
            that day (so is sent once): the default change rate is writes x (1 - overwrite share).
        change: per-workload change rates; a protected workload without a row takes the default.
    """

    id: ID
    source: str = Field(min_length=1, max_length=MAX_LABEL)
    target: str = Field(min_length=1, max_length=MAX_LABEL)
    kind: ReplicationKind = "snapmirror"
    label: str = Field(default="", max_length=MAX_LABEL)
    workloads: list[ID] = Field(default_factory=lambda: [], max_length=MAX_PROTECTED)
    schedule_minutes: float = Field(default=60.0, gt=0, le=7 * 24 * 60,
                                    description="minutes between scheduled transfers (active sync: none)")
    rpo_minutes: float = Field(default=0.0, ge=0, le=30 * 24 * 60,
                               description="the recovery point objective required, minutes (0: none stated)")
    retention_days: float = Field(default=0.0, ge=0, le=100 * 365,
                                  description="SnapVault: days of daily copies the destination keeps")
    bandwidth_mbit_s: float = Field(default=1000.0, gt=0, le=10_000_000,
                                    description="the network between the sites, megabits per second")
    rtt_ms: float = Field(default=0.0, ge=0, le=2_000, description="the network's round-trip time, ms (active "
                                                                    "sync adds it to every write)")
    replication_share_pct: float = Field(default=100.0, gt=0, le=100,
                                         description="share of the bandwidth available to replication, %")
    overwrite_pct: float = Field(default=90.0, ge=0, lt=100,
                                 description="share of a day's writes that overwrite blocks already changed that day; "
                                             "the default change rate is writes x (1 - this share)")
    change: list[ChangeRate] = Field(default_factory=lambda: [], max_length=MAX_PROTECTED)

    @model_validator(mode="after")
    def _ends_differ(self) -> "Replication":
        if self.source == self.target:
            raise ValueError("a replication relationship cannot protect a system to itself")
        ids = [c.workload for c in self.change]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"change: workload '{twice[0]}' has two change rates")
        return self


MAX_REPLICATIONS = 1_000
"""Replication relationships in one scenario (as many as workloads at most, in any design)."""


class Scenario(Record):
    """One design variant: its topology, workloads and replication relationships (``models.project.replication``)."""

    name: str = Field(min_length=1, max_length=120)
    nodes: list[Node] = Field(default_factory=lambda: [], max_length=MAX_NODES)
    links: list[Link] = Field(default_factory=lambda: [], max_length=MAX_LINKS)
    workloads: list[Workload] = Field(default_factory=lambda: [], max_length=MAX_WORKLOADS)
    replications: list[Replication] = Field(default_factory=lambda: [], max_length=MAX_REPLICATIONS)

    @model_validator(mode="after")
    def _ids_unique(self) -> "Scenario":
        for what, items in (("node", self.nodes), ("link", self.links), ("workload", self.workloads),
                            ("replication", self.replications)):
            seen: set[str] = set()
            for item in items:
                if item.id in seen:
                    raise ValueError(f"{what} id '{item.id}' is used twice in scenario '{self.name}'")
                seen.add(item.id)
        served: dict[str, int] = {}
        for workload in self.workloads:
            served[workload.target] = served.get(workload.target, 0) + 1
        crowded = sorted(t for t, n in served.items() if n > MAX_WORKLOADS_PER_TARGET)
        if crowded:
            raise ValueError(f"'{crowded[0]}' serves {served[crowded[0]]:,} workloads; the limit is "
                             f"{MAX_WORKLOADS_PER_TARGET} per controller, cluster or VM")
        return self

    _index: "ScenarioIndex" = PrivateAttr(default_factory=lambda: ScenarioIndex())

    def index(self) -> "ScenarioIndex":
        """The scenario's lookup tables (id -> node, id -> links, id -> workload), built on first use and kept
        until the node, link or workload lists change; higher layers keep what they derive in ``derived``."""
        private = self.__pydantic_private__  # one dict lookup: this runs at every node() / links_of()
        assert private is not None  # a model with private attributes always has the dict
        index = private["_index"]
        if not index.matches(self):
            index = private["_index"] = ScenarioIndex(self)
        return index

    def node(self, node_id: str) -> Node | None:
        """The node with this id, or None (a dictionary lookup)."""
        return self.index().by_id.get(node_id)

    def workload(self, workload_id: str) -> Workload | None:
        """The workload with this id, or None."""
        return self.index().workloads.get(workload_id)

    def links_of(self, node_id: str) -> list[Link]:
        """The links with ``node_id`` at either end, in scenario order (a new list)."""
        return list(self.index().links_by_node.get(node_id, ()))

    def neighbours(self, node_id: str) -> list[str]:
        """The ids of the nodes linked to ``node_id``, one per link (a node linked twice appears twice)."""
        return [link.target if link.source == node_id else link.source
                for link in self.index().links_by_node.get(node_id, ())]


class ScenarioIndex:
    """Lookup tables of one scenario, built in one pass over its lists (O(nodes + links + workloads)).

    Attributes:
        by_id: node id -> node; links_by_node: node id -> the links touching it, in scenario order (a link to
        an id that is not a node is listed under that id too); workloads: workload id -> workload;
        derived: a cache for tables that other layers derive from the scenario (e.g. ``models.topology``), keyed
        by their own names, dropped with the index.

    It never takes part in comparing, hashing or pickling a scenario: two scenarios with the same fields are
    equal whether or not either has been indexed, and a pickled scenario is indexed again where it is used.
    """

    __slots__ = ("_nodes", "_links", "_workloads", "_sizes", "by_id", "links_by_node", "workloads", "derived")

    def __init__(self, scenario: Scenario | None = None):
        self._nodes = self._links = self._workloads = None
        self._sizes = (-1, -1, -1)
        self.by_id: dict[str, Any] = {}
        self.links_by_node: dict[str, list[Link]] = {}
        self.workloads: dict[str, Workload] = {}
        self.derived: dict[Any, Any] = {}
        if scenario is None:
            return
        self._nodes, self._links, self._workloads = scenario.nodes, scenario.links, scenario.workloads
        self._sizes = (len(scenario.nodes), len(scenario.links), len(scenario.workloads))
        self.by_id = {n.id: n for n in scenario.nodes}
        for link in scenario.links:
            self.links_by_node.setdefault(link.source, []).append(link)
            self.links_by_node.setdefault(link.target, []).append(link)
        self.workloads = {w.id: w for w in scenario.workloads}

    def matches(self, scenario: Scenario) -> bool:
        """True when this index was built from the scenario's current lists."""
        return (self._nodes is scenario.nodes and self._links is scenario.links
                and self._workloads is scenario.workloads
                and self._sizes == (len(scenario.nodes), len(scenario.links), len(scenario.workloads)))

    def __eq__(self, other: object) -> bool:
        return other is None or isinstance(other, ScenarioIndex)  # never makes two scenarios differ

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> "tuple[type[ScenarioIndex], tuple[()]]":
        return (ScenarioIndex, ())  # pickled / deep-copied empty: rebuilt on first use


class DataReductionBand(Record):
    """The user's data-reduction distribution for a workload type or one workload (``models.capacity.reduction_band``).

    Attributes:
        applies_to: a workload type (``database``, ``vdi``, ``vm``, ``file``, ``analytics``, ``media``,
            ``general``) or a workload id; a workload's own row wins over its type's.
        p10, p50, p90: data-reduction ratios (logical / physical, e.g. 2.0 for 2:1), P10 <= P50 <= P90; their
            spread (P10 / P50, P90 / P50) sets how far the band reaches around each workload's own ratio.
        source: where the figures come from, in the user's words (shown beside the band).
    """

    applies_to: str = Field(min_length=1, max_length=MAX_LABEL)
    p10: float = Field(ge=1.0, le=100)
    p50: float = Field(ge=1.0, le=100)
    p90: float = Field(ge=1.0, le=100)
    source: str = Field(default="", max_length=MAX_LABEL)

    @model_validator(mode="after")
    def _ordered(self) -> "DataReductionBand":
        if not self.p10 <= self.p50 <= self.p90:
            raise ValueError(f"data-reduction band '{self.applies_to}': P10 {self.p10:g} <= P50 {self.p50:g} <= "
                             f"P90 {self.p90:g} does not hold")
        return self


class Settings(Record):
    """Project-wide settings: display unit, default SLO, report paper size, the user's data-reduction bands
    (none: the published figures per workload type, ``models.capacity.reduction_band``)."""

    capacity_unit: CapacityUnit = CapacityUnit.TIB
    default_slo_ms: float = Field(default=1.0, gt=0)
    paper: Literal["A4", "Letter"] = "A4"
    curve_points: int = Field(default=200, ge=10, le=5000)
    data_reduction_bands: list[DataReductionBand] = Field(default_factory=lambda: [], max_length=200)

    @model_validator(mode="after")
    def _bands_unique(self) -> "Settings":
        keys = [band.applies_to for band in self.data_reduction_bands]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            raise ValueError(f"data_reduction_bands: {', '.join(repr(k) for k in twice)} given more than once")
        return self


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


class ProjectInfo(Record):
    """Who and what the project is for."""

    name: str = Field(default="Untitled", min_length=1, max_length=200)
    customer: str = Field(default="", max_length=MAX_LABEL)
    author: str = Field(default="", max_length=MAX_LABEL)
    description: str = Field(default="", max_length=MAX_TEXT)
    created: str = Field(default_factory=_now)
    modified: str = Field(default_factory=_now)


MAX_MEASURED_IMPORTS = 100
"""Imports of a measured environment one project records (each import into the project adds one)."""


class MeasuredSource(Record):
    """One file a measured environment was read from.

    Attributes:
        tool: what the file is, as a customer knows the tool ("a Live Optics (Optical Prime) export"); no file name
            or path is kept (a customer's file name may name the customer; the imports keep none).
        collected: when the data was collected, in words ("collected 2022/11/14", "measured 2024-07-29 16:14 to
            16:17 UTC"); "" where neither the file nor its series' clock says.
    """

    tool: str = Field(min_length=1, max_length=MAX_LABEL)
    collected: str = Field(default="", max_length=MAX_LABEL)


class MeasuredWorkload(Record):
    """Where one imported workload's figures came from.

    Attributes:
        workload: the workload's id (a workload since deleted is not reported).
        sources: indices into the import's :attr:`MeasuredImport.sources` of the files its members came from.
        members: how many machines, volumes or LUNs it groups.
        method: how its load was taken, in words ("peak of sums over time (288 intervals)", "sum of per-machine
            peak"); "" for a workload measured without performance data (capacity only).
    """

    workload: ID
    sources: list[int] = Field(default_factory=lambda: [], max_length=100)
    members: int = Field(default=0, ge=0)
    method: str = Field(default="", max_length=MAX_TEXT)


class MeasuredImport(Record):
    """One import of a measured environment (``storplan import-env``, the desktop app's import wizard): what was
    measured, when and by what tool, how the peaks were taken and what was assumed; the report prints it as its
    own section, whatever the project's description says.

    Attributes:
        imported: when it was imported (ISO 8601 date and time, UTC).
        sources: the files read; grouped_by: how members were grouped, in words ("cluster", "SVM").
        measured: what was measured, in words ("6 machines in 2 workloads, 3.556 TiB used ...").
        method: how each workload's load (its peak) was taken, in words.
        assumptions: what was assumed where no tool measures it, one sentence each.
        workloads: per imported workload, its sources and method (:class:`MeasuredWorkload`).
        warnings: what makes the measured figures too small, one sentence each (a file listing fewer machines or
            less load than its own hosts report: ``models.importers.completeness``); empty when nothing.
    """

    imported: str = Field(default="", max_length=MAX_LABEL)
    sources: list[MeasuredSource] = Field(min_length=1, max_length=100)
    grouped_by: str = Field(default="", max_length=MAX_LABEL)
    measured: str = Field(default="", max_length=MAX_TEXT)
    method: str = Field(default="", max_length=MAX_TEXT)
    assumptions: list[str] = Field(default_factory=lambda: [], max_length=100)
    workloads: list[MeasuredWorkload] = Field(default_factory=lambda: [], max_length=MAX_WORKLOADS)
    warnings: list[Annotated[str, Field(max_length=MAX_TEXT)]] = Field(default_factory=lambda: [], max_length=100)

    @model_validator(mode="after")
    def _sources_exist(self) -> "MeasuredImport":
        for w in self.workloads:
            bad = [i for i in w.sources if not 0 <= i < len(self.sources)]
            if bad:
                raise ValueError(f"measured workload '{w.workload}': source {bad[0]} is not one of the import's "
                                 f"{len(self.sources)} file(s)")
        return self


MAX_CANDIDATES = 100_000_000
"""Largest search cap a project may ask of the sizer (the whole catalog gives well under a million designs)."""

Deployment = Literal["on-prem", "hci", "cloud"]
SIZER_PROTOCOLS: tuple[str, ...] = ("FCP", "NVMe/FC", "NVMe/TCP", "iSCSI", "NFS", "SMB")
"""The front-end protocols the sizer designs for (``models.sizing``: arrays FCP, NVMe/FC, NVMe/TCP, iSCSI or NFS;
cloud and managed services also SMB): the valid values of :attr:`Requirements.protocols`."""


class RunningCosts(Record):
    """What running the design costs and emits, as the project states it (``models.costing``); None: the stated
    default (``models.costing.inputs.RUNNING_DEFAULTS``, each with its public source or marked an assumption).

    Attributes:
        electricity_price_per_kwh: price of a kWh, in the price book's currency (USD without a book).
        pue: power usage effectiveness of the data centre (total facility power / IT power, >= 1).
        grid_carbon_g_per_kwh: carbon intensity of the electricity, grams CO2e per kWh.
        rack_unit_cost_per_month: space, power distribution and cooling capacity of one rack unit, per month.
        support_pct_per_year: hardware support and maintenance, percent of the hardware price per year.
        *_source: where the user's figure comes from (shown beside it in the report); "" when not given.
    """

    electricity_price_per_kwh: float | None = Field(default=None, ge=0, le=10,
                                                    description="price of a kWh; empty: the stated default")
    electricity_price_source: str = Field(default="", max_length=MAX_LABEL)
    pue: float | None = Field(default=None, ge=1, le=5, description="power usage effectiveness (facility power / IT "
                                                                    "power); empty: the stated default")
    pue_source: str = Field(default="", max_length=MAX_LABEL)
    grid_carbon_g_per_kwh: float | None = Field(default=None, ge=0, le=2_000,
                                                description="grid carbon intensity, g CO2e per kWh; empty: the "
                                                            "stated default")
    grid_carbon_source: str = Field(default="", max_length=MAX_LABEL)
    rack_unit_cost_per_month: float | None = Field(default=None, ge=0, le=10_000,
                                                   description="cost of one rack unit per month (space, power "
                                                               "distribution, cooling); empty: the stated default")
    rack_unit_cost_source: str = Field(default="", max_length=MAX_LABEL)
    support_pct_per_year: float | None = Field(default=None, ge=0, le=100,
                                               description="support and maintenance, % of the hardware price per "
                                                           "year; empty: the stated default")
    support_source: str = Field(default="", max_length=MAX_LABEL)


class Requirements(Record):
    """What a configuration must give (the auto-sizer's input, ``models.sizing``); the active scenario's workloads,
    with their targets, SLOs and growth, are the performance and growth requirements.

    Attributes:
        effective_capacity_bytes: effective capacity needed now; 0: the workloads' data sets.
        horizon_months: size for the workloads grown by their own growth rates over this many months.
        deployments: which deployments are allowed (this version searches on-prem arrays only; see the notes).
        families: allowed catalog families or vendors (empty: any); protocols: allowed protocols (empty: any).
        meet_slo_in_takeover: every workload must meet its SLO at its grown target with one controller failed.
        meet_slo_after_site_loss: every workload must meet its SLO at its grown target with one site lost (a
            MetroCluster switchover, a vSAN stretched cluster's site failure: ``models.site_loss``); a design with
            one site cannot meet it.
        n_plus: spare hosts for HCI (N+1 = 1). max_rack_units, max_power_w, budget: limits (0: none).
        rank_on: "p50" (the prediction), "p90" (the conservative edge of the uncertainty band) or "tco" (total
        cost of ownership over the horizon, ``models.costing``; performance checked at the prediction).
        running_costs: electricity, PUE, grid carbon, rack space and support (:class:`RunningCosts`).
        slo_statistic: what every workload's SLO (``Workload.slo_ms``) bounds: "mean" (the mean storage latency;
            the default, and that of files written before it existed) or "p99" (its 99th percentile); the max
            IOPS at the SLO and whether a target meets it are judged on it, in the evaluation and the sizer.
        max_candidates: search cap; the answer says when it was reached.
    """

    effective_capacity_bytes: int = Field(default=0, ge=0, le=MAX_BYTES)
    horizon_months: int = Field(default=36, ge=0, le=240)
    deployments: list[Deployment] = Field(default_factory=lambda: list[Deployment](["on-prem", "hci", "cloud"]))
    families: list[str] = Field(default_factory=lambda: [])
    protocols: list[str] = Field(default_factory=lambda: [])
    meet_slo_in_takeover: bool = False
    meet_slo_after_site_loss: bool = False
    n_plus: int = Field(default=0, ge=0, le=4)
    max_rack_units: int = Field(default=0, ge=0)
    max_power_w: float = Field(default=0.0, ge=0)
    budget: float = Field(default=0.0, ge=0)
    rank_on: Literal["p50", "p90", "tco"] = "p50"
    slo_statistic: Literal["mean", "p99"] = "mean"
    max_candidates: int = Field(default=1_000_000, ge=1, le=MAX_CANDIDATES)
    running_costs: RunningCosts = Field(default_factory=RunningCosts)

    @model_validator(mode="after")
    def _known_choices(self) -> "Requirements":
        """Refuse a protocol the sizer does not design for, and a value listed twice (the message names the field
        and the valid values)."""
        unknown = [p for p in self.protocols if p not in SIZER_PROTOCOLS]
        if unknown:
            raise ValueError(f"Protocols: {', '.join(repr(p) for p in unknown)} is not a protocol the sizer designs "
                             f"for; valid protocols: {', '.join(SIZER_PROTOCOLS)}")
        for name in ("deployments", "families", "protocols"):
            values = list(getattr(self, name))
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:
                raise ValueError(f"{name.capitalize()}: {', '.join(repr(v) for v in twice)} listed more than once")
        return self


class PriceRow(Record):
    """One row of the project's price book (imported from the user's CSV, stored in the project: never a path).

    Attributes:
        catalog_id: the catalog record priced (controller system, shelf, drive, host, cloud VM, disk, licence...).
        part_number: the vendor's part number (may be empty); unit_price: the price of one unit, in ``currency``
        (for cloud records: the price over the sizing horizon, which the user's book states; StorPlan does not
        convert periods); currency: ISO 4217 code as the book gives it ("USD", "EUR").
    """

    catalog_id: str = Field(min_length=1, max_length=200)
    part_number: str = Field(default="", max_length=200)
    unit_price: float = Field(ge=0)
    currency: str = Field(min_length=1, max_length=8)


class Project(Record):
    """A whole project: info, settings, scenarios (one active), and catalog records of its own.

    ``custom_catalog`` holds catalog records (as TOML-shaped dicts ``{kind: [ {...}, ... ]}``) that the project
    defines or pins, validated like the bundled catalog when the project is evaluated.
    """

    info: ProjectInfo = Field(default_factory=ProjectInfo)
    settings: Settings = Field(default_factory=Settings)
    requirements: Requirements = Field(default_factory=Requirements)
    scenarios: list[Scenario] = Field(default_factory=lambda: [Scenario(name="Base")], min_length=1,
                                      max_length=MAX_SCENARIOS)
    active_scenario: str = "Base"
    custom_catalog: dict[str, list[dict[str, Any]]] = Field(default_factory=lambda: {})
    price_book: list[PriceRow] = Field(default_factory=lambda: [], max_length=MAX_PRICES,
                                       description="unit prices by catalog id (one currency)")
    measured: list[MeasuredImport] = Field(
        default_factory=lambda: [], max_length=MAX_MEASURED_IMPORTS,
        description="where the workloads' figures were measured: one record per import of a measured environment")

    @field_validator("custom_catalog", mode="after")
    @classmethod
    def _records_valid(cls, value: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
        """The project's own catalog records pass the bundled catalog's schema (``models.catalog.schema``, its
        bounds included) when the project is read, so every command refuses a bad one alike."""
        count = sum(len(items) for items in value.values())
        if count > MAX_CATALOG_RECORDS:
            raise PydanticCustomError("project_catalog", "catalog: {count} records; the limit is {limit}",
                                      {"count": f"{count:,}", "limit": f"{MAX_CATALOG_RECORDS:,}"})
        if value:
            try:
                parse_entries(value, "catalog")
            except CatalogError as exc:
                raise PydanticCustomError("project_catalog", "{detail}", {"detail": str(exc)}) from exc
        return value

    @model_validator(mode="after")
    def _active_exists(self) -> "Project":
        names = [s.name for s in self.scenarios]
        if len(set(names)) != len(names):
            raise ValueError("scenario names must be unique")
        if self.active_scenario not in names:
            raise ValueError(f"active_scenario '{self.active_scenario}' is not one of {names}")
        ids = [row.catalog_id for row in self.price_book]
        if len(set(ids)) != len(ids):
            twice = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"price_book: {', '.join(twice)} priced more than once")
        currencies = sorted({row.currency for row in self.price_book})
        if len(currencies) > 1:
            raise ValueError(f"price_book: one currency per book, found {', '.join(currencies)}")
        return self

    @property
    def scenario(self) -> Scenario:
        """The active scenario."""
        return next(s for s in self.scenarios if s.name == self.active_scenario)

    def scenario_named(self, name: str) -> Scenario:
        """The scenario called ``name``. Raises KeyError naming it when the project has none."""
        for scenario in self.scenarios:
            if scenario.name == name:
                return scenario
        known = ", ".join(f"'{s.name}'" for s in self.scenarios)
        raise KeyError(f"no scenario named '{name}' (this project has: {known})")

    def with_scenario(self, scenario: Scenario) -> "Project":
        """A copy with the scenario of the same name replaced (or added)."""
        scenarios = [scenario if s.name == scenario.name else s for s in self.scenarios]
        if all(s.name != scenario.name for s in self.scenarios):
            scenarios.append(scenario)
        return self.model_copy(update={"scenarios": scenarios})
