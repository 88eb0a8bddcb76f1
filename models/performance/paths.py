"""From a scenario and the catalog to the queueing stations on each workload's I/O path.

Each component an I/O crosses becomes a :class:`StationSpec` with its service demand per I/O of the workload,
split into the demand of one read and of one write (so per-operation latencies can be reported), its number of
servers, whether it is a pure delay, and whether it counts in the storage-side latency (what the array reports)
or only in the host-side latency (what the application sees). The solver in :mod:`models.performance.engine`
turns the specs into :class:`models.queueing.Station` records.

Where a number is not in the catalog it is a named module constant with its source ("assumed: ..." where it is
an engineering assumption). Formulas:

* Bandwidth stations (ports, links, VM network, disk MB/s caps): demand = bytes per I/O / payload rate
  (DESIGN.md "Performance (queueing) engine": "bandwidth: bytes / rate, one server per port"). One server carries
  both directions (a conservative reading of full-duplex links; documented in the notes).
* Controller CPU: demand = read share x cpu_read_us + write share x cpu_write_us + cpu_per_kib_us x KiB beyond 8,
  from the controller's calibrated :class:`models.catalog.PerfProfile`; I/O is spread evenly over the HA pair's
  nodes (visit ratio 1 / nodes), servers = ``servers_per_node``.
* Drives: a small random I/O costs the drive's catalog service time (positioning) plus the transfer of its bytes
  at the drive's MB/s; sequential I/O costs transfer only. SSDs serve ``parallelism`` I/Os at once (a media
  station with drives x parallelism servers) and stream one transfer at a time per drive (a transfer station
  with one server per drive). HDDs serve one I/O at a time (positioning + transfer in one station).
* RAID write penalty (Patterson, Gibson & Katz 1988, "A case for redundant arrays of inexpensive disks (RAID)";
  SNIA dictionary "write penalty"): a small random write costs 2 drive I/Os on RAID10, 4 on RAID5 (read data,
  read parity, write data, write parity), 6 on RAID6 / DDP; a full-stripe (sequential) write costs the data plus
  parity bytes, (data + parity) / data. ONTAP's WAFL always writes full stripes from NVRAM at consistency
  points (TR-3001 / TR-4476 description of WAFL), so ONTAP and Cloud Volumes ONTAP writes cost the full-stripe
  bytes only, whatever the host's random share.
* Cache: reads hit the controller's memory with ratio min(1, cache bytes / working set) (uniform random access
  over the working set, Mattson et al. 1970 stack-distance argument for LRU with uniform references); on a
  controller, Flash Cache / PAM behind memory and a file workload's metadata taking the cache first, its misses
  reading one block from the drives (:mod:`models.performance.cache`).
* Write-back: a write is acknowledged once it is in the controller's mirrored write cache (NVRAM), the CVO NVRAM
  disk, or the vSAN cache tier; drive / data-disk writes and vSAN destaging happen afterwards. That work is
  ``StationSpec.write_async_s``: it loads its station (utilisation, saturation, everyone's queueing) but is not
  part of the write's latency. A station's residence per I/O is its queueing factor R / D applied to the part of
  D the I/O waits for (the open model's R = D_sync / (1 - U) with U from all the work, QSP ch. 6-7 mixed-load
  reasoning).

One module although it is over 600 lines: it is the one translation of a design into stations. Its sections
(topology, profiles, drives, systems) are the steps of :func:`build_path` and share :class:`StationSpec` and the
constants above; the solver that reads the stations is :mod:`models.performance.engine`.
"""


import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TypedDict

from models import topology
from models.capacity.fabricpool import CAPACITY_TIER_LABELS, cold_read_share
from models.capacity.layout import RaidGroup, RaidLayout, describe_raid_groups, hci_layout, system_layout
from models.capacity.rules import RAID_LABEL, policy_label
from models.capacity.stretched import (
    DATA_MULTIPLIER,
    RESYNC_MULTIPLIER,
    SITE_COPIES,
    VSAN_STRETCHED_BANDWIDTH_DOCS,
    VSAN_STRETCHED_WRITE_DOCS,
    link_mbps_needed,
    site_hosts,
)
from models.catalog import (
    Adapter,
    Catalog,
    CatalogError,
    CloudDisk,
    CloudVm,
    Controller,
    Drive,
    HciNode,
    Host,
    LinkType,
    PerfProfile,
    Provenance,
    Shelf,
    Switch,
)
from models.catalog.limits import host_ports_per_node
from models.performance.bands import ASSUMED_REL_SD, UNIDENTIFIED_REL_SD, StationUncertainty, profile_uncertainty
from models.performance.cache import (
    METADATA_BLOCK_BYTES,
    CacheSplit,
    cache_share,
    data_working_set,
    lru_hit_ratio,
    metadata_working_set,
    read_cache_split,
)
from models.performance.cloud_limits import CORES_BASIS, cvo_cores, disk_limit_name, nvram_limit_name, vm_limit_name
from models.performance.hardware_relation import BLOCK_PROTOCOLS, iops_ceiling
from models.performance.nas import apply_op_mix, read_type_share
from models.performance.positioning import data_span, short_stroke, stored_bytes
from models.performance.profiles import controller_profile, find_profile, profile_kind  # noqa: F401 (find_profile: its old home)
from models.performance.stations import UNSPECIFIED, StationId, node_words
from models.performance.variability import ARRIVAL_SCV, DETERMINISTIC_SCV, hdd_positioning_scv, kind_scv, mixture_scv
from models.project.kinds import TRANSFER_ID_MARK
from models.project.model import (
    NAS_READ_OPS,
    NAS_WRITE_OPS,
    PROTOCOL_FAMILY,
    CloudVmNode,
    ControllerNode,
    HciClusterNode,
    Link,
    ManagedServiceNode,
    Scenario,
    ShelfNode,
    Workload,
)
from models.topology import FrontEnd, protocol_of

KIB = 1024
"""Bytes per KiB."""

CACHE_FRACTION_OF_MEMORY = 0.5
"""assumed: share of a controller's (or CVO VM's) memory that works as read cache (the rest holds the OS,
metadata and write buffers). ONTAP does not publish its split."""

FLASH_CACHE_READ_US = 100.0
"""assumed: service time of one read hit in a flash Flash Cache module when the catalog record gives none (a
PCIe flash read of the 2010s, about 100 microseconds; NetApp publishes no per-read figure)."""

FLASH_CACHE_PARALLELISM = 8
"""assumed: reads a Flash Cache / PAM module serves at once (several flash channels or DRAM banks behind one PCIe
controller; not published)."""

HA_INTERCONNECT_MBPS = 5_000.0
"""assumed: HA / NVRAM mirroring interconnect payload rate, MB/s per node (40 Gb/s-class InfiniBand or
Ethernet interconnect of the AFF8080 / A800 era, less overhead)."""

HA_MIRROR_LATENCY_US = 10.0
"""assumed: round trip of one NVRAM mirror write to the HA partner over the interconnect, microseconds."""

DEFAULT_HOST_STACK_US = {"FCP": 40.0, "NVMe/FC": 20.0, "NVMe/TCP": 35.0, "iSCSI": 80.0, "NFS": 80.0, "SMB": 80.0,
                         "vSAN": 0.0}
"""assumed: host I/O stack latency when the scenario has no host record (same values as the catalog's hosts:
SCSI midlayer + multipath + HBA for FCP, leaner NVMe stack, software iSCSI initiator over TCP; NVMe/TCP is the
lean NVMe stack plus the kernel's TCP processing, between NVMe/FC and iSCSI: no public per-I/O figure was found)."""

UNCALIBRATED_PROFILE = {"cpu_read_us": 50.0, "cpu_write_us": 100.0, "cpu_per_kib_us": 0.5, "fixed_latency_us": 50.0}
"""assumed: CPU costs used when a controller has no calibrated profile at all (results are flagged in the
notes as uncalibrated); servers = the catalog's cores per node."""

UNCALIBRATED_PROVENANCE = Provenance(kind="assumed", source="uncalibrated default (no calibrated profile applies)")
"""The provenance of each field of the uncalibrated default profile (:data:`UNCALIBRATED_PROFILE`)."""

ASSUMED_CPU_PER_KIB_US = 0.5
"""assumed: extra controller CPU per KiB beyond 8 KiB (memory copy + checksum at ~2 GB/s per core)."""

AZURE_IO_UNIT_BYTES = 256 * KIB
"""Azure counts disk I/O in units of up to 256 KiB against the disk and VM IOPS limits (Microsoft Azure
documentation, "Azure premium storage: design for high performance", I/O size). The cloud path uses each disk
record's ``CloudDisk.io_unit_kib`` (default 256: Azure, AWS EBS SSD; AWS EBS HDD 1,024); this constant is the
default's value."""

AZURE_VM_NIC_MIN_LATENCY_US = 100.0
"""assumed: one network round trip between two Azure VMs in one region (client VM <-> CVO, CVO <-> HA partner),
~0.1 ms inside a region."""

OBJECT_STORE_READ_LATENCY_US = 5_000.0
"""assumed: time to first byte of an Azure Blob (hot tier) GET from a VM in the same region, ~5 ms; FabricPool
fetches a cold block with one GET (seed 004 §4.5 reports only the resulting 30-50% throughput loss)."""

STORAGEGRID_READ_LATENCY_US = 2_000.0
"""assumed: time to first byte of one FabricPool GET from an on-premises StorageGRID over the cluster's
intercluster LIFs on the local network, ~2 ms (NetApp publishes no figure: "FabricPool read latency is a function
of connectivity to the cloud tier", FlexPod "FabricPool requirements", Connectivity,
https://docs.netapp.com/us-en/flexpod/hybrid-cloud/cloud-fabricpool_fabricpool_requirements.html; ONTAP's
object-store profiler measures it, "Test ONTAP cloud tier latency and throughput performance",
https://docs.netapp.com/us-en/ontap/fabricpool/test-object-store-performance-task.html)."""

ONPREM_TO_CLOUD_RTT_US = 10_000.0
"""assumed: one network round trip from an on-premises cluster to a public-cloud bucket's region (private link or
internet, ~10 ms); an on-premises FabricPool cold read from a cloud bucket waits for it on top of the bucket's own
first-byte time (:data:`OBJECT_STORE_READ_LATENCY_US`)."""

OBJECT_STORE_MIN_FETCH_BYTES = 4 * KIB
"""FabricPool moves data in 4 KiB blocks packed into 4 MiB objects and reads back only the blocks it needs
(ONTAP FabricPool documentation); a cold read fetches at least its own bytes."""

VSAN_CPU_US = {"read": 40.0, "write": 60.0, "dedupe_write": 40.0}
"""assumed: vSAN (DOM/LSOM) host CPU per physical operation, microseconds on one core: read 40, replica write
60, extra for inline deduplication + compression per destaged write 40."""

VSAN_HYBRID_READ_CACHE_SHARE = 0.7
"""Share of a vSAN OSA hybrid disk group's cache device used as read cache (the rest is the write buffer):
"In hybrid configurations, 70% of the cache tier capacity is used as read cache and 30% as write buffer"
(VMware vSAN Design Guide / vSAN Planning and Deployment, "Design considerations for flash caching devices");
all-flash disk groups use the cache tier as write buffer only."""

VSAN_HYBRID_DESTAGE_SOURCE = (
    "VMware vCloud Architecture Toolkit, 'Architecting VMware vSAN 6.2', §5.5 'vSAN Design Principles' "
    "(https://download3.vmware.com/vcat/vmw-vcloud-architecture-toolkit-spv1-webworks/Storage%20and%20Availability/"
    "Architecting%20VMware%20vSAN%206.2/Architecting%20Virtual%20SAN%206.2.2.058.html): 'When data must be destaged "
    "to spinning disk from the flash acceleration layer, "
    "the destaging operation consists primarily of sequential I/O, efficiently taking advantage of the full I/O "
    "capability of the underlying spinning disk'")
"""Why a hybrid vSAN OSA disk group's destaged write costs its HDD the block's transfer only (a sequential write,
as the drive model prices sequential I/O) and not a random positioning: the write buffer (30% of the cache device)
absorbs the random writes and destages them in sorted runs. Every write copy is still destaged (no overwrite
absorption is modelled: conservative)."""

VSAN_HYBRID_DESTAGE_COALESCING = 4.0
"""assumed: how many destaged blocks of a hybrid vSAN OSA disk group share one HDD positioning. The write buffer
destages in sorted runs, "primarily sequential I/O" (:data:`VSAN_HYBRID_DESTAGE_SOURCE`), but the runs are of
random guest writes scattered over the whole disk, so a destaged block still costs part of a positioning: sorted by
address, the seek shrinks from the average (~3.6 ms of the catalog's 10K drive's 6.9 ms write) to a short one
(~0.5 ms) while the rotational wait (~2.9 ms, half a turn) stays: about half the random write's positioning; writing
the dirty blocks that share a track in one revolution is taken to halve it again. No public per-HDD destage rate of
vSAN was found (VMware's design guides say only that destaging is mostly sequential), so the factor is an
assumption: the catalog's 10K SAS HDD then destages 1 / (6.9 ms / 4 + 8 KiB / 240 MB/s) = 568 blocks/s, about four
times its random write rate and 1/51 of its sequential rate (which the model used before: it let 40 HDDs absorb
over a million destaged blocks a second, and a hybrid cluster's writes never bound)."""

VSAN_NET_RTT_US = 60.0
"""assumed: 10GbE round trip between two vSAN hosts through one switch, with the vSAN network stack (~60 us)."""

VSAN_SOFTWARE_LATENCY_US = {"read": 700.0, "write_phase": 1_450.0}
"""fitted to seed 002: the vSAN 6.2 software path latency (DOM owner + LSOM, checksum) of one read, and of one
distributed write phase (all replicas written to the cache tier and acknowledged). The write value puts FTT=1
RAID1 writes at the middle of the seed's range (002, "average disk write latency 1.7ms to 2.1ms": 1.9 ms at the
case's load); the read value keeps reads below the seed's 2 ms. The RAID5 / RAID1 write-latency ratio is then a
prediction: RAID5 3+1 partial-stripe writes need a read phase (old data + parity) and a write phase (new data +
parity), RAID1 writes one phase; in both, destaging and near-line dedupe/compression come after the ack."""

VSAN_ESA_PERFORMANCE_SOURCE = (
    "VMware, 'Availability and Serviceability Improvements when using the vSAN Express Storage Architecture' "
    "(core.vmware.com blog, 13 Sep 2022): 'Performance of RAID-5/6 equal to RAID-1 is what customers can expect "
    "from vSAN 8 ESA'; Broadcom 'Announcing vSAN 8' (blogs.vmware.com/virtualblocks, 30 Aug 2022): a "
    "log-structured file system (vSAN LFS) and write-optimized log-structured object manager")
"""Why an ESA write costs its mirrored performance-leg copies before the acknowledgement and its full-stripe
capacity-leg writes after it (no read-modify-write), as RAID-1 does: the model's ESA write path
(:func:`_hci_path`). The vSAN software latency and CPU costs stay seed 002's (vSAN 6.2): assumed for ESA."""

VSAN_READYNODE_COMPONENT_IOS = 0.7 * 1 + 0.3 * 2
"""Component I/Os per front-end I/O of the vSAN ReadyNode profile mix (4K, 70% reads, FTT=1 RAID1: a read is one
component I/O, a write two replicas): converts the catalog's front-end IOPS per disk group into component I/Os."""

VSAN_PARALLELISM_CAP = 64
"""assumed: servers of a pooled SSD station are capped (no fewer parallel I/Os than drives x parallelism is
modelled; the cap only bounds the station size)."""

SMALL_WRITE_IOS = {"none": 1, "raid0": 1, "raid4": 4, "raid_dp": 6, "raid_tec": 8, "raid5": 4, "raid6": 6,
                   "raid10": 2, "ddp": 6}
"""Drive I/Os of one small random write without full-stripe coalescing (read-modify-write: 2 per parity plus
data, Patterson et al. 1988); used for arrays that do not write full stripes (E-Series, generic)."""


NOT_EVALUATED = "; its performance is not evaluated"
"""The tail of a path error whose workload the engine leaves out (``ScenarioPerformance.unserved``)."""


class PathError(ValueError):
    """A workload's I/O path cannot be built (the message says what is missing, e.g. no drives)."""


@dataclass(frozen=True)
class StationSpec:
    """One queueing station of a workload's I/O path.

    Attributes:
        name: unique within the scenario (stations of the same component share a name across workloads).
        component: canvas node id it belongs to ("" for model delays).
        read_s, write_s: service demand of one read / one write (all visits), seconds.
        servers: parallel servers (>= 1); ignored for delays.
        delay: pure latency, no queueing.
        storage_side: counts in the storage-side latency (array-internal); False = host side only.
        kind: a short tag ("cpu", "port", "drive", "network", "disk", "delay", ...).
        write_async_s: work one write causes here after it has been acknowledged (e.g. vSAN destaging the write
            buffer to the capacity tier), seconds: it loads the station (utilisation, saturation, the queueing
            of everything else) but the write does not wait for it.
        multiplicity: identical, separate queues the station's load is spread evenly over (the drives of a
            pool, the ports of a multipath group), each with ``servers`` servers; >= 1. Spreading is not
            pooling: each device queues on its own (:mod:`models.queueing.general_service`).
        scv_service: squared coefficient of variation of one operation's service time here, the same for
            reads and writes (1: exponential, 0: deterministic); values and sources in
            :mod:`models.performance.variability`; a read / write mix adds variability (:meth:`service_scv`).
        scv_arrival: squared coefficient of variation of the inter-arrival times at the station in the open
            model (1: Poisson).
        ident: what the station is (node, role, index: :class:`models.performance.stations.StationId`); the
            failure states and the bands decide by it, never by ``name``. Every builder here sets it.
        branch: "" for a station every I/O of a type passes (its demand is each one's); else the name of an
            alternative only some I/Os take ("drives": the reads that miss the read cache), whose stations of one
            node and index the same I/Os visit (a pool's drives and their transfer), the branches of a path each
            taken by different I/Os (one node's drives or another's). Only the percentiles read it
            (:mod:`models.performance.tail_latency`: the response time is then a mixture); the means use the demands.
        read_visit, write_visit: on a branch, the share of the reads / the writes that visit the station (0..1):
            ``read_s`` is the mean over all reads, so a visit takes ``read_s / read_visit``; 1 off a branch.
    """

    name: str
    component: str
    read_s: float
    write_s: float
    servers: int = 1
    delay: bool = False
    storage_side: bool = True
    kind: str = ""
    write_async_s: float = 0.0
    multiplicity: int = 1
    scv_service: float = 1.0
    scv_arrival: float = 1.0
    ident: StationId = UNSPECIFIED
    branch: str = ""
    read_visit: float = 1.0
    write_visit: float = 1.0

    @property
    def capacity(self) -> int:
        """Jobs the station serves at once: multiplicity x servers (its throughput bound is capacity / demand,
        QSP ch. 5)."""
        return self.multiplicity * self.servers

    def demand(self, read_fraction: float) -> float:
        """Demand per I/O of a mix with ``read_fraction`` reads (asynchronous work included), seconds."""
        return read_fraction * self.read_s + (1.0 - read_fraction) * (self.write_s + self.write_async_s)

    def service_scv(self, read_fraction: float) -> float:
        """cs² of the service time of one I/O of a mix with ``read_fraction`` reads: reads and writes are two
        operation types of means ``read_s`` and ``write_s + write_async_s``, each with ``scv_service``
        (:func:`models.performance.variability.mixture_scv`)."""
        return mixture_scv((read_fraction, 1.0 - read_fraction), (self.read_s, self.write_s + self.write_async_s),
                           (self.scv_service, self.scv_service))

    def latency_share(self, read_fraction: float) -> float:
        """The share of :meth:`demand` that the I/O waits for (1 without asynchronous work): a station's
        residence time per I/O is its queueing factor R / D applied to this part only."""
        total = self.demand(read_fraction)
        if total <= 0.0:
            return 1.0
        return (read_fraction * self.read_s + (1.0 - read_fraction) * self.write_s) / total


DRIVE_BRANCH = "drives"
"""``StationSpec.branch`` of a controller's drive pools: the reads that miss its read cache visit them."""


@dataclass(frozen=True)
class WorkloadPath:
    """A workload's stations and what the model assumed to build them; ``raid_groups``: the RAID groups its
    drive stations stripe over (the system's :class:`models.capacity.layout.RaidLayout` groups of the modelled
    drive type; empty where the path has no drives)."""

    workload: Workload
    system: str
    protocol: str
    stations: tuple[StationSpec, ...]
    host_cpu_us_per_io: float | None = None
    notes: tuple[str, ...] = ()
    profile_source: str = ""
    uncertainty: StationUncertainty | None = None
    raid_groups: tuple[RaidGroup, ...] = ()

    @cached_property
    def read_fraction(self) -> float:
        """The workload's share of reads, 0..1 (:func:`workload_read_fraction`; found once per path: a file
        workload's sums its operation mix, and the engine reads it a few dozen times per failure state)."""
        return workload_read_fraction(self.workload)


_INTERNED: dict[tuple[StationSpec, ...], tuple[StationSpec, ...]] = {}
_INTERNED_SIZE = 4096


def intern_stations(stations: tuple[StationSpec, ...]) -> tuple[StationSpec, ...]:
    """The one tuple object of these stations' values: the first equal tuple seen (kept, at most 4,096), else
    ``stations`` itself. The engine remembers per-path arrays, tail-latency arrays, band bases and input SDs by
    the stations tuple's identity (hashing a dozen stations costs more than those lookups), so an unchanged path
    rebuilt by the next evaluation (the GUI's after every edit) finds them all with this one hash.

    Args:
        stations: a path's stations, in path order.

    Returns:
        A tuple equal to ``stations`` (the same values, in the same order)."""
    hit = _INTERNED.get(stations)
    if hit is not None:
        return hit
    if len(_INTERNED) >= _INTERNED_SIZE:
        _INTERNED.clear()
    _INTERNED[stations] = stations
    return stations


@dataclass
class _Builder:
    stations: list[StationSpec] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    uncertainty: StationUncertainty | None = None
    raid_groups: tuple[RaidGroup, ...] = ()
    metadata: dict[StationId, float] = field(default_factory=dict)
    """Demand of one metadata operation at a station (its cache misses' drive reads, Flash Cache hits, back-end
    bytes), seconds, by station identity; :func:`models.performance.nas.apply_op_mix` adds it."""
    metadata_visits: dict[StationId, float] = field(default_factory=dict)
    """At a station on a branch (``StationSpec.branch``): the share of metadata operations that visit it, by
    station identity."""

    def metadata_demand(self, name: str, component: str, demand_s: float, *, ident: StationId, kind: str,
                        servers: int = 1, multiplicity: int = 1, scv_service: float | None = None,
                        branch: str = "", visit: float = 1.0) -> None:
        """Record ``demand_s`` (seconds) of one metadata operation at the station ``ident`` (0 or less: nothing);
        when the path has no such station yet (its data reads all hit the cache) it is added with no data work and
        the given ``name``, ``component``, ``kind``, ``servers``, ``multiplicity``, ``scv_service`` (None: the
        kind's value) and ``branch``, as :meth:`add` would; ``visit``: on a branch, the share of metadata
        operations that visit it."""
        if demand_s <= 0:
            return
        if not any(st.ident == ident for st in self.stations):
            scv = kind_scv(kind) if scv_service is None else float(scv_service)
            self.stations.append(StationSpec(name, component, 0.0, 0.0, max(int(servers), 1), False, True, kind, 0.0,
                                             max(int(multiplicity), 1), scv, ARRIVAL_SCV, ident, branch,
                                             0.0 if branch else 1.0, 0.0 if branch else 1.0))
        self.metadata[ident] = self.metadata.get(ident, 0.0) + demand_s
        if branch:
            self.metadata_visits[ident] = self.metadata_visits.get(ident, 0.0) + visit

    def profile_used(self, profile: PerfProfile, found: bool, note: str, workload: Workload) -> None:
        """Record the profile's uncertainty for the bands (:mod:`models.performance.bands`): ``found`` False
        when no profile existed (uncalibrated defaults: assumed); a fallback note (another version or protocol)
        makes it derived; a profile none of whose fields was fitted is assumed."""
        self.uncertainty = profile_uncertainty(profile, _profile_kind(profile, found, note), workload.block_kib,
                                               workload_read_fraction(workload))

    def add(self, name: str, component: str, read_s: float, write_s: float, servers: int = 1,
            delay: bool = False, storage_side: bool = True, kind: str = "", write_async_s: float = 0.0,
            multiplicity: int = 1, scv_service: float | None = None, *, ident: StationId, branch: str = "",
            read_visit: float = 1.0, write_visit: float = 1.0) -> None:
        """Append a station (arguments as :class:`StationSpec`; negative demands count as 0, servers and
        multiplicity at least 1; ``scv_service`` None: the kind's value, :func:`variability.kind_scv`; ``ident``
        required, so that no station is built without its identity); a station with no work at all is left
        out."""
        read_s, write_s = max(float(read_s), 0.0), max(float(write_s), 0.0)
        write_async_s = max(float(write_async_s), 0.0)
        if read_s == 0.0 and write_s == 0.0 and write_async_s == 0.0:
            return
        servers = max(int(servers), 1)
        scv = kind_scv(kind) if scv_service is None else float(scv_service)
        # StationSpec(name, component, ...) filled in directly (no __post_init__ to run): the frozen __init__'s
        # thirteen object.__setattr__ calls cost more than the rest of a station (the same object: equal, same hash)
        spec = object.__new__(StationSpec)
        spec.__dict__.update(name=name, component=component, read_s=read_s, write_s=write_s, servers=servers,
                             delay=delay, storage_side=storage_side, kind=kind, write_async_s=write_async_s,
                             multiplicity=max(int(multiplicity), 1), scv_service=scv, scv_arrival=ARRIVAL_SCV,
                             ident=ident, branch=branch, read_visit=min(max(float(read_visit), 0.0), 1.0),
                             write_visit=min(max(float(write_visit), 0.0), 1.0))
        self.stations.append(spec)


# ----------------------------------------------------------------------------------------------- topology


def front_end(scenario: Scenario, catalog: Catalog, workload: Workload, protocol: str) -> FrontEnd:
    """The workload's hosts that reach its target over ``protocol`` (its own list, or every host linked to the
    target directly or through switches; a host sharing no such protocol with it is left out, and
    ``models.problems`` warns which) and the links that carry its I/O: those hosts' links and the target's links of
    that protocol that meet in one switch fabric (``Topology.served_front_end``: computed once per scenario,
    target, hosts and protocol)."""
    return topology.of(scenario).served_front_end(catalog, workload.target, workload.hosts, protocol)


def workload_read_fraction(workload: Workload) -> float:
    """A workload's share of read-type operations, 0..1: ``read_pct`` / 100 for a block workload; for a file
    workload its operation mix's reads plus read-only metadata operations (:mod:`models.performance.nas`)."""
    if workload.nas is not None:
        return read_type_share(workload.nas)
    return workload.read_pct / 100.0


def data_read_share(workload: Workload) -> float:
    """A workload's data reads over its data reads and writes, 0..1 (``read_pct`` / 100 for a block workload; for
    a file workload its mix's reads over its reads and writes, 1 without either): the chance that a block's last
    access was a read, which Flash Cache needs to hold it (:mod:`models.performance.cache`)."""
    if workload.nas is not None:
        r, w = workload.nas.share(NAS_READ_OPS), workload.nas.share(NAS_WRITE_OPS)
        return r / (r + w) if r + w > 0 else 1.0
    return workload.read_pct / 100.0


def _link_type(catalog: Catalog, link: Link) -> LinkType | None:
    record = catalog.find(link.link_type)
    return record if isinstance(record, LinkType) else None


def _negotiated_mbps(scenario: Scenario, catalog: Catalog, link: Link, lt: LinkType) -> float:
    """A link's payload rate, MB/s, at the speed both ends run: a link into a slower switch port negotiates down
    to the switch's speed (a 64Gb FC port on a 32Gb switch runs at 32Gb: FC and Ethernet ports auto-negotiate to
    the highest common speed), so its payload scales by switch speed / link speed (``topology.slower_switch``, the
    rule the design check's warning and the bill of materials read too)."""
    slower = topology.slower_switch(scenario, catalog, link)
    return slower.payload_mbps if slower is not None else lt.payload_mbps


_SHARED_HOST_SIDES: list[dict | None] = [None]
"""The host sides built in the current :func:`shared_host_sides` block (None outside one)."""


@contextmanager
def shared_host_sides() -> Iterator[None]:
    """Within the block, the workloads of one front end (the same hosts, protocol, block size and target ports on one
    target of one design) share the host side (host stack, fabric, host and target ports: the same stations and
    notes) built for the first of them: a design of many workloads built it again for each. The engine builds all
    of an evaluation's paths in one block; outside a block nothing is shared."""
    previous = _SHARED_HOST_SIDES[0]
    _SHARED_HOST_SIDES[0] = {}
    try:
        yield
    finally:
        _SHARED_HOST_SIDES[0] = previous


_PROFILE_KINDS: dict[tuple[int, bool, str], tuple[PerfProfile, str]] = {}
"""(id of a profile record, found, note) -> (the record, its :func:`_profile_kind`): at most
:data:`PROFILE_KINDS_KEPT` (then emptied and filled again)."""

PROFILE_KINDS_KEPT = 1024
"""Most profile kinds :func:`_profile_kind` keeps (a catalog's profiles are a few hundred; each kept entry holds
its record, so that its id is not reused while it is kept)."""


_ON_CORES: dict[tuple[int, int], tuple[PerfProfile, PerfProfile]] = {}
"""(id of a sibling VM's profile record, cores) -> (the record, :func:`_on_cores` of it): at most
:data:`PROFILE_KINDS_KEPT` (then emptied and filled again)."""


def _on_cores(profile: PerfProfile, cores: int) -> PerfProfile:
    """``profile`` (a sibling VM's: frozen, the same object for a record, version and protocol) with
    ``servers_per_node`` set to ``cores``: made once per record and core count and reused by every workload and
    design on a VM of that many cores (and so its kind and figures found once, :func:`_profile_kind`)."""
    key = (id(profile), cores)
    hit = _ON_CORES.get(key)
    if hit is not None and hit[0] is profile:
        return hit[1]
    copy = profile.model_copy(update={"servers_per_node": cores})
    if len(_ON_CORES) >= PROFILE_KINDS_KEPT:
        _ON_CORES.clear()  # whole (one step, safe with evaluations in other threads), then filled again
    _ON_CORES[key] = (profile, copy)  # the record is kept: its id is not reused while it is kept
    return copy


def _profile_kind(profile: PerfProfile, found: bool, note: str) -> str:
    """:func:`~models.performance.profiles.profile_kind`, found once per profile record (frozen: the same object
    for a record, version and protocol, ``models.performance.profiles.controller_profile``) and reused by every
    workload and design that uses it (it reads every field's provenance; a sizer search asks it for every design)."""
    key = (id(profile), found, note)
    hit = _PROFILE_KINDS.get(key)
    if hit is not None and hit[0] is profile:
        return hit[1]
    kind = profile_kind(profile, found, note)
    if len(_PROFILE_KINDS) >= PROFILE_KINDS_KEPT:
        _PROFILE_KINDS.clear()  # whole (one step, safe with evaluations in other threads), then filled again
    _PROFILE_KINDS[key] = (profile, kind)  # the record is kept: its id is not reused while it is kept
    return kind


def _stored_bytes(scenario: Scenario, node_id: str) -> float:
    """:func:`~models.performance.positioning.stored_bytes` of ``scenario``'s workloads on ``node_id``; inside
    :func:`shared_host_sides` summed once per system and reused by every workload on it (the same sum, so the same
    float: each workload's path summed every workload of the design again, quadratic in the workloads)."""
    built = _SHARED_HOST_SIDES[0]
    if built is None:
        return stored_bytes(scenario.workloads, node_id)
    key = ("stored bytes", id(scenario), node_id)
    hit = built.get(key)
    if hit is not None and hit[0] is scenario:
        return hit[1]
    value = stored_bytes(scenario.workloads, node_id)
    built[key] = (scenario, value)  # the scenario is kept: its id is not reused while the block lasts
    return value


def _host_side(b: _Builder, scenario: Scenario, catalog: Catalog, fe: FrontEnd, protocol: str, block: float,
               target_ports: int, target_rate_mbps: float, target_id: str) -> float | None:
    """Adds host stack, fabric and port stations; returns host CPU us per I/O (weighted by host count) or None.
    Inside :func:`shared_host_sides`, the stations and notes :func:`_build_host_side` added for an earlier workload
    of the same front end, protocol, block size and target ports (scenario, catalog and front end are frozen)."""
    built = _SHARED_HOST_SIDES[0]
    if built is None:
        return _build_host_side(b, scenario, catalog, fe, protocol, block, target_ports, target_rate_mbps, target_id)
    key = (id(scenario), id(catalog), id(fe), protocol, block, target_ports, target_rate_mbps, target_id)
    hit = built.get(key)
    if hit is not None and hit[0] is scenario and hit[1] is catalog and hit[2] is fe:
        b.stations.extend(hit[3])
        b.notes.extend(hit[4])
        return hit[5]
    first_station, first_note = len(b.stations), len(b.notes)
    value = _build_host_side(b, scenario, catalog, fe, protocol, block, target_ports, target_rate_mbps, target_id)
    built[key] = (scenario, catalog, fe, tuple(b.stations[first_station:]), tuple(b.notes[first_note:]), value)
    return value


def _build_host_side(b: _Builder, scenario: Scenario, catalog: Catalog, fe: FrontEnd, protocol: str, block: float,
                     target_ports: int, target_rate_mbps: float, target_id: str) -> float | None:
    """:func:`_host_side` itself."""
    weight = 0.0
    stack = 0.0
    cpu = 0.0
    cpu_known = False
    for host in fe.hosts:
        record = catalog.find(host.catalog_id)
        n = host.count
        weight += n
        if isinstance(record, Host):
            stack += n * record.stack_latency_us.get(protocol, DEFAULT_HOST_STACK_US.get(protocol, 50.0))
            if protocol in record.cpu_us_per_io:
                cpu += n * record.cpu_us_per_io[protocol]
                cpu_known = True
        else:
            stack += n * DEFAULT_HOST_STACK_US.get(protocol, 50.0)
    stack_us = stack / weight if weight else DEFAULT_HOST_STACK_US.get(protocol, 50.0)
    b.add("host I/O stack", fe.hosts[0].id if fe.hosts else "", stack_us * 1e-6, stack_us * 1e-6, delay=True,
          storage_side=False, kind="delay", ident=StationId("host_stack"))
    # fabric: one-way latency of each hop, request and response
    hop_us = []
    for path in fe.paths:
        total = 0.0
        for link in path:
            lt = _link_type(catalog, link)
            total += lt.latency_us if lt else 0.0
            for end in (link.source, link.target):
                node = scenario.node(end)
                if node is not None and node.kind == "switch":
                    sw = catalog.find(node.catalog_id)
                    total += sw.latency_us / 2 if isinstance(sw, Switch) else 0.0  # each switch seen from 2 links
        hop_us.append(total)
    fabric_us = 2.0 * (sum(hop_us) / len(hop_us) if hop_us else 0.0)
    b.add("fabric", "", fabric_us * 1e-6, fabric_us * 1e-6, delay=True, storage_side=False, kind="delay",
          ident=StationId("fabric"))
    # host initiator ports: a link's `ports` are the ports of the whole host group (as the canvas and the bill
    # of materials count them: 8 hosts x 4 ports = "x32"), at most what the group's adapters have; only the links
    # that carry the workload's protocol to its target (the front end's host links)
    ports = 0
    rate = math.inf
    for host in fe.hosts:
        for link in fe.host_links:
            if host.id not in (link.source, link.target):
                continue
            lt = _link_type(catalog, link)
            if lt is None or lt.medium not in ("FC", "Ethernet"):
                continue
            speed = _negotiated_mbps(scenario, catalog, link, lt)
            adapter = catalog.find(host.adapter) if host.adapter else None
            if isinstance(adapter, Adapter):
                speed = min(speed, lt.payload_mbps * adapter.speed_gbps / lt.speed_gbps)
                ports += min(link.ports, adapter.ports * host.adapters_per_host * host.count)
            else:
                ports += link.ports
            rate = min(rate, speed)
    if ports and math.isfinite(rate):
        d = block / (rate * 1e6)
        b.add("host ports", fe.hosts[0].id, d, d, multiplicity=ports, storage_side=False, kind="port",
              ident=StationId("host_ports"))
        b.notes.append(f"{ports} host initiator ports at {rate:,.0f} MB/s each (one queue per port, both directions)")
    if target_ports and target_rate_mbps > 0:
        d = block / (target_rate_mbps * 1e6)
        b.add("target ports", target_id, d, d, multiplicity=target_ports, storage_side=False, kind="port",
              ident=StationId("target_ports"))
    if not cpu_known:
        return None
    return cpu / weight


def _target_ports(
    scenario: Scenario, catalog: Catalog, fe: FrontEnd, ports_cap: int, port_speed_mbps: float
) -> tuple[int, float]:
    """Target port count and payload rate: the ports of the front-end links at the target, capped by the
    catalog's ports; the catalog's ports when nothing is linked."""
    total = 0
    rate = math.inf
    for link in fe.target_links:
        lt = _link_type(catalog, link)
        if lt is None:
            continue
        total += link.ports
        rate = min(rate, _negotiated_mbps(scenario, catalog, link, lt))
    if total == 0:
        return ports_cap, port_speed_mbps
    if ports_cap:
        total = min(total, ports_cap)
    rate = min(rate, port_speed_mbps) if port_speed_mbps > 0 else rate
    return total, rate


# ----------------------------------------------------------------------------------------------- profiles


FIBRE_US_PER_KM = 5.0
"""One-way delay of light in optical fibre, microseconds per km (refractive index about 1.47: c / 1.47 is about
204,000 km/s; ITU-T G.652 fibre). The floor of an inter-site round trip."""

METROCLUSTER_OVERHEAD_US = 30.0
"""assumed: inter-site switches, transceivers and the partner's NVRAM write beside the fibre delay, per mirrored
write (NetApp publishes no per-write figure for MetroCluster IP)."""


def metrocluster_rtt_s(distance_km: float) -> float:
    """A MetroCluster write's wait for the partner site: 2 x distance x 5 us/km (light in fibre, the floor) plus
    :data:`METROCLUSTER_OVERHEAD_US`, seconds."""
    return (2.0 * distance_km * FIBRE_US_PER_KM + METROCLUSTER_OVERHEAD_US) * 1e-6


class CpuQueues(TypedDict, total=False):
    """The queueing of a CPU station, as keyword arguments of a station: ``multiplicity`` (separate queues) or
    ``servers`` (one pooled queue), each the core count (:func:`cpu_queues`)."""

    multiplicity: int
    servers: int


def cpu_queues(cores: int, partitioned: bool) -> CpuQueues:
    """How a controller's CPU cores queue: ``{"multiplicity": cores}`` (one queue per core) for ONTAP, whose
    WAFL work is partitioned into affinities that each run serially on one core at a time (Waffinity:
    Curtis-Maury et al. 2016, "To Waffinity and Beyond: A Scalable Architecture for Incremental
    Parallelization of File System Code", USENIX OSDI), so an I/O waits for its affinity's core, not for any
    free core; ``{"servers": cores}`` (one pooled queue) where the software's scheduling is not published
    (E-Series SANtricity, the generic array)."""
    return {"multiplicity": cores} if partitioned else {"servers": cores}


def affinity_station(b: _Builder, component: str, k: int, nodes: int, profile: PerfProfile) -> None:
    """Node ``k``'s WAFL affinities, when the profile models them (``affinity_hold_us`` > 0): every operation's
    file-system work runs as messages in one affinity, and an affinity runs one message at a time, whatever the
    number of idle cores (Curtis-Maury et al. 2016, "To Waffinity and Beyond: A Scalable Architecture for
    Incremental Parallelization of File System Code", USENIX OSDI, §3: affinities are the unit of mutual
    exclusion). Modelled as ``affinities_per_node`` separate single-server queues per node over which the node's
    operations are spread evenly (:class:`StationSpec` ``multiplicity``), each operation holding one for
    ``affinity_hold_us`` (reads, writes and metadata operations alike; the hold time includes the messages'
    waits inside the file system, so it is not a CPU demand and is not bounded by the cores) with squared
    coefficient of variation ``affinity_hold_scv`` (Allen-Cunneen, as every station). The three fields are
    fitted to measured ramps (``models.calibration.seed_profiles``); the knee of a ramp whose CPU is far from
    saturated comes from here."""
    if profile.affinity_hold_us <= 0:
        return
    hold = profile.affinity_hold_us * 1e-6
    b.add(f"node {k + 1} WAFL affinities", component, hold / nodes, hold / nodes, kind="affinity",
          multiplicity=profile.affinities_per_node, scv_service=profile.affinity_hold_scv,
          ident=StationId("affinity", node=k + 1))


def cpu_demand_us(profile: PerfProfile, block_kib: float, write: bool, random_fraction: float = 1.0) -> float:
    """CPU service demand of one I/O on one server, microseconds: cpu_read_us or cpu_write_us for an 8 KiB I/O
    plus cpu_per_kib_us (a write: cpu_write_per_kib_us when set) for each KiB beyond 8 (PerfProfile field
    definitions), for random I/O; a sequential I/O
    costs ``sequential_cpu_factor`` times that, and a workload with ``random_fraction`` of random I/O the mix."""
    base = profile.cpu_write_us if write else profile.cpu_read_us
    per_kib = profile.cpu_write_per_kib_us if write and profile.cpu_write_per_kib_us is not None else \
        profile.cpu_per_kib_us
    scale = random_fraction + (1.0 - random_fraction) * profile.sequential_cpu_factor
    return (base + per_kib * max(0.0, block_kib - 8.0)) * scale


# ----------------------------------------------------------------------------------------------- drives


def _shared_words(share: float) -> str:
    """", this workload's 40% share of it" where other workloads share the cache (``share`` < 1), else ""."""
    return f", this workload's {share:.0%} share of it" if share < 1.0 else ""


def cache_hit_ratio(cache_bytes: float, working_set_bytes: int | None, dataset_bytes: int,
                    random_fraction: float = 1.0) -> float:
    """Read cache hit ratio of an LRU cache: min(1, cache / working set) for uniform random reads; for
    sequential reads that loop over the working set, 1 when it fits the cache and 0 when it does not (LRU
    "sequential flooding", Mattson et al. 1970); mixed by ``random_fraction``. 0 when the working set is
    unknown (no dataset given): a conservative default. (:func:`models.performance.cache.lru_hit_ratio`.)"""
    ws = working_set_bytes if working_set_bytes is not None else dataset_bytes
    return lru_hit_ratio(cache_bytes, float(ws), random_fraction)


@dataclass(frozen=True)
class DriveCost:
    """Per-operation drive work: media (positioning) seconds and transfer seconds on one drive."""

    media_r: float
    media_w: float
    xfer_r: float
    xfer_w: float
    backend_bytes_r: float
    backend_bytes_w: float


def drive_cost(drive: Drive, block: float, random_fraction: float, raid: str, stripe_factor: float, full_stripe: bool,
               miss: float) -> DriveCost:
    """Drive work of one host read and one host write (see the module docstring for the formulas).

    Args:
        drive: the catalog drive; block: bytes per host I/O; random_fraction: 0..1; raid: RAID type;
        stripe_factor: bytes a full-stripe write puts on the drives per data byte, (data + parity) / data over
        the RAID groups (``RaidGroup.stripe_factor``: RAID DP 21+2 23/21, RAID 10 2, RAID 0 1);
        full_stripe: True when the array always writes full stripes (WAFL);
        miss: read cache miss ratio 0..1.
    """
    seq = 1.0 - random_fraction
    rate_r = drive.max_read_mbps * 1e6
    rate_w = drive.max_write_mbps * 1e6
    pos_r = drive.read_service_time_us * 1e-6
    pos_w = drive.write_service_time_us * 1e-6
    # reads: a random read positions once; sequential reads stream (read-ahead): transfer only
    media_r = miss * random_fraction * pos_r if drive.media == "HDD" else miss * pos_r
    xfer_r = miss * block / rate_r
    if full_stripe:
        # WAFL / CVO: full-stripe writes of data + parity, streamed
        media_w = (stripe_factor * pos_w * min(1.0, block / (64 * KIB))) if drive.media == "SSD" else 0.0
        xfer_w = stripe_factor * block / rate_w
        back_w = stripe_factor * block
    else:
        ios = SMALL_WRITE_IOS.get(raid, 1)
        reads = ios // 2 if raid not in ("none", "raid0", "raid10") else 0
        writes = ios - reads
        small_media = reads * pos_r + writes * pos_w
        small_xfer = reads * block / rate_r + writes * block / rate_w
        media_w = random_fraction * small_media + seq * (0.0 if drive.media == "HDD" else stripe_factor * pos_w *
                                                              min(1.0, block / (64 * KIB)))
        xfer_w = random_fraction * small_xfer + seq * stripe_factor * block / rate_w
        back_w = random_fraction * ios * block + seq * stripe_factor * block
    return DriveCost(media_r, media_w, xfer_r, xfer_w, miss * block, back_w)


def _add_drives(b: _Builder, name: str, component: str, drive: Drive, drives: int, share: float, cost: DriveCost,
                block: float, *, ident: StationId, miss: float = 1.0) -> None:
    """Drive stations of one node / pool serving ``share`` of the I/O over ``drives`` drives, each drive its own
    queue (``multiplicity``; an SSD with ``parallelism`` servers); ``block``: the workload's block, bytes (an HDD
    visit's constant transfer, for its service-time variability); ``ident``: the pool's identity (role
    ``drives``; an SSD pool's transfer station takes role ``drive_transfer`` of the same node and index);
    ``miss``: the share of reads that miss the read cache (``cost`` includes it): the stations are the branch
    "drives" that ``share`` x ``miss`` of the reads visit (``StationSpec.branch``; the rest are served from cache).

    Drive writes are asynchronous: every modelled controller acknowledges a write once it is in its mirrored
    write cache (ONTAP NVRAM, E-Series / array cache) and writes the drives later (WAFL consistency points,
    destaging), so drive writes load the drives but are not part of the write's latency.
    """
    if drives <= 0:
        return
    # a read that hits the cache visits no drive (writes reach them after their acknowledgement only)
    visit = share * miss
    if drive.media == "HDD":
        scv = hdd_positioning_scv(drive.read_service_time_us * 1e-6, block / (drive.max_read_mbps * 1e6), drive.rpm)
        b.add(f"{name}", component, share * (cost.media_r + cost.xfer_r), 0.0, servers=drive.parallelism,
              multiplicity=drives, kind="drive", write_async_s=share * (cost.media_w + cost.xfer_w), scv_service=scv,
              ident=ident, branch=DRIVE_BRANCH, read_visit=visit, write_visit=0.0)
    else:
        b.add(f"{name}", component, share * cost.media_r, 0.0, servers=drive.parallelism, multiplicity=drives,
              kind="drive", write_async_s=share * cost.media_w, ident=ident, branch=DRIVE_BRANCH, read_visit=visit,
              write_visit=0.0)
        b.add(f"{name} transfer", component, share * cost.xfer_r, 0.0, multiplicity=drives, kind="drive",
              write_async_s=share * cost.xfer_w, scv_service=DETERMINISTIC_SCV,
              ident=StationId("drive_transfer", ident.node, ident.index), branch=DRIVE_BRANCH, read_visit=visit,
              write_visit=0.0)


# ----------------------------------------------------------------------------------------------- systems


def _controller_path(scenario: Scenario, catalog: Catalog, workload: Workload, node: ControllerNode,
                     protocol: str, b: _Builder, layout: RaidLayout | None) -> tuple[float | None, str]:
    record = catalog.get(node.catalog_id, Controller)
    nodes = node.nodes or record.nodes
    unit = [node_words(record.family, k + 1) for k in range(nodes)]  # "node 1" (ONTAP), "controller A" (E-Series)
    software = node.software or record.default_software
    block = workload.block_kib * KIB
    rnd = workload.random_pct / 100.0
    fe = front_end(scenario, catalog, workload, protocol)
    expanded = record.ports_per_node_expanded is not None and any(
        not getattr(catalog.find(sh.catalog_id), "internal", True) for sh in topology.shelves_of(scenario, node.id))
    if protocol in ("FCP", "NVMe/FC"):  # with expansion shelves, fewer host ports where the record says so
        cap, speed = host_ports_per_node(record, True, expanded) * nodes, record.fc_port_speed_gbps * 100.0
    else:
        cap, speed = host_ports_per_node(record, False, expanded) * nodes, record.ethernet_port_speed_gbps * 118.0
    tports, trate = _target_ports(scenario, catalog, fe, cap, speed)
    host_cpu = _host_side(b, scenario, catalog, fe, protocol, block, tports, trate, node.id)

    profile, note = controller_profile(record, catalog, software, protocol)
    found = profile is not None
    if note:
        b.notes.append(f"{record.name}: {note}")
    if profile is None:
        profile = PerfProfile(software=software, protocol=protocol if protocol not in ("NFS", "SMB") else "iSCSI",
                              servers_per_node=record.cores_per_node, **UNCALIBRATED_PROFILE,
                              provenance={k: UNCALIBRATED_PROVENANCE for k in
                                          ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us", "servers_per_node",
                                           "fixed_latency_us")})
    b.profile_used(profile, found, note, workload)
    ceiling = iops_ceiling(record, catalog) if protocol in BLOCK_PROTOCOLS and catalog is not None else None
    source = profile.source or "catalog profile"
    b.add("controller fixed latency", node.id, profile.fixed_latency_us * 1e-6, profile.fixed_latency_us * 1e-6,
          delay=True, kind="delay", ident=StationId("fixed_latency"))
    cr = cpu_demand_us(profile, workload.block_kib, False, workload.random_pct / 100.0) * 1e-6
    cw = cpu_demand_us(profile, workload.block_kib, True, workload.random_pct / 100.0) * 1e-6
    for k in range(nodes):
        b.add(f"{unit[k]} CPU", node.id, cr / nodes, cw / nodes, kind="cpu",
              **cpu_queues(profile.servers_per_node, record.family == "ONTAP"), ident=StationId("cpu", node=k + 1))
    for k in range(nodes):
        affinity_station(b, node.id, k, nodes, profile)
    if record.max_throughput_mbps:
        d = block / (record.max_throughput_mbps * 1e6 / nodes)
        for k in range(nodes):
            b.add(f"{unit[k]} data path", node.id, d / nodes, d / nodes, kind="datapath",
                  ident=StationId("datapath", node=k + 1))
    if ceiling is not None:  # a rate cap, not CPU time: the latency below it is the profile's
        if b.uncertainty is not None and b.uncertainty.peak_iops is None:
            b.uncertainty = replace(b.uncertainty, peak_iops=ceiling.value, peak_name=ceiling.words)
        d = nodes / ceiling.value
        for k in range(nodes):
            b.add(f"{unit[k]} IOPS bound", node.id, d / nodes, d / nodes, kind="datapath",
                  ident=StationId("iops_bound", node=k + 1))
        b.notes.append(f"{record.name}: at most {ceiling.value:,.0f} block operations per second, {ceiling.words}")
    if node.metrocluster != "none":
        rtt = metrocluster_rtt_s(node.site_distance_km)
        b.add("MetroCluster inter-site mirror", node.id, 0.0, rtt, delay=True, kind="delay",
              ident=StationId("metrocluster_mirror"))
        b.notes.append(f"MetroCluster {node.metrocluster.upper()}: each write is mirrored to the partner site "
                       f"{node.site_distance_km:g} km away before it is acknowledged ({rtt * 1e6:,.0f} us round trip)")
    if nodes >= 2:
        # the same stations on every family; an E-Series array's two controllers mirror their write cache to each
        # other (not an ONTAP HA pair's NVRAM), and its stations say so
        cache_mirror = record.family == "E-Series"
        d = block / (HA_INTERCONNECT_MBPS * 1e6)
        for k in range(nodes):
            b.add(f"{unit[k]} {'write cache' if cache_mirror else 'NVRAM'} mirror", node.id, 0.0, d / nodes,
                  kind="nvram", ident=StationId("nvram", node=k + 1))
        b.add("cache mirror latency" if cache_mirror else "HA mirror latency", node.id, 0.0,
              HA_MIRROR_LATENCY_US * 1e-6, delay=True, kind="delay", ident=StationId("ha_mirror"))

    shelves = topology.shelves_of(scenario, node.id)
    by_drive: dict[str, int] = {}
    for shelf in shelves:
        by_drive[shelf.drive] = by_drive.get(shelf.drive, 0) + shelf.drive_count
    total = sum(by_drive.values())
    if total == 0:
        raise PathError(f"{node.id}: controller has no drives; workload '{workload.name}' cannot be served")
    drive = catalog.get(max(by_drive, key=lambda d: by_drive[d]), Drive)
    if len(by_drive) > 1:
        b.notes.append(f"{node.id}: mixed drive types; modelled as {drive.name}")
    # the spares and, without ADP, the root aggregates' whole drives hold no data
    spares = (node.spares_per_node + (node.root_aggregate_drives if node.adp == "none" else 0)) * nodes
    usable = max(total - spares, 0)
    if usable <= 0:
        raise PathError(f"{node.id}: all {total} drives are spares or root aggregate drives")
    # the RAID groups the capacity rules built of this drive type (models.capacity.layout): their parity sets the
    # write penalty and, on ONTAP's dedicated parity members, the drives that serve reads
    raid = layout.raid_type if layout is not None else node.raid_type
    groups = layout.groups_of(drive.id) if layout is not None else ()
    live = [g for g in groups if g.data > 0]
    if not live:
        raise PathError(f"{node.id}: no RAID group of {drive.name} holds data (see the capacity problems); workload "
                        f"'{workload.name}' cannot be served")
    b.raid_groups = tuple(groups)
    stripe_factor = sum(g.width for g in live) / sum(g.data for g in live)
    dedicated_parity = raid in ("raid4", "raid_dp", "raid_tec")
    read_drives = usable * sum(g.data for g in live) / sum(g.width for g in live) if dedicated_parity else usable
    full_stripe = record.family == "ONTAP"
    # the share of the data members' capacity the data occupy sets the HDD seek span (models.performance.positioning)
    data_bytes = sum(g.members * g.data / g.width * (g.member_bytes or drive.right_sized_bytes) for g in live)
    drive = _short_stroked(b, drive, _stored_bytes(scenario, node.id), data_bytes)
    # the read cache (models.performance.cache): memory, then Flash Cache / PAM (a victim cache of the buffer cache,
    # NetApp TR-3832), the metadata of a file workload first and data reads in what is left
    share = cache_share(workload, scenario.workloads)  # the system's other workloads hold the rest
    cache = record.memory_gib_per_node * nodes * 2**30 * CACHE_FRACTION_OF_MEMORY * share
    flash = (record.flash_cache_gib_per_node or 0.0) * nodes * 2**30 * share
    reads = data_read_share(workload)  # an overwritten block is stale in Flash Cache until it is read again
    split = read_cache_split(cache, flash, data_working_set(workload), metadata_working_set(workload), rnd, reads)
    hit_memory, hit = split.data_memory, split.data_total
    module_s = (record.flash_cache_read_us or FLASH_CACHE_READ_US) * 1e-6
    if record.flash_cache_gib_per_node:
        # reads the node's modules serve at once: their published (or catalogued) random-read IOPS x the read time,
        # as for Cloud Volumes ONTAP's local NVMe Flash Cache; else the default parallelism
        fc_servers = (max(1, round(record.flash_cache_read_iops_per_node * module_s))
                      if record.flash_cache_read_iops_per_node else FLASH_CACHE_PARALLELISM)
        for k in range(nodes):
            b.add(f"{unit[k]} Flash Cache", node.id, (hit - hit_memory) * module_s / nodes, 0.0,
                  servers=fc_servers, kind="cache", ident=StationId("flash_cache", node=k + 1))
            b.metadata_demand(f"{unit[k]} Flash Cache", node.id, split.metadata_flash * module_s / nodes,
                              servers=fc_servers, kind="cache", ident=StationId("flash_cache", node=k + 1))
        b.notes.append(f"Flash Cache read hit {hit - hit_memory:.0%} ({record.flash_cache_gib_per_node * nodes:,.0f} "
                       f"GiB of modules behind memory, uniform random access{_shared_words(share)}"
                       + (f"; Flash Cache keeps what was read, not what was written, so the {1 - reads:.0%} of "
                          "blocks last overwritten are read from the drives" if reads < 1.0 else "") + ")")
    cold = cold_read_share(workload, node) if record.family == "ONTAP" else 0.0  # snapshot-only: none
    if cold > 0:
        # FabricPool: cold reads are fetched from the capacity tier (one GET each), not from the drives
        latency_us, why = capacity_tier_latency(node)
        _object_store_station(b, node.id, cold, latency_us)
        b.notes.append(f"{cold:.0%} of reads hit cold data in the FabricPool capacity tier "
                       f"({CAPACITY_TIER_LABELS[node.capacity_tier]}): {latency_us / 1000:g} ms each ({why})")
    cost = drive_cost(drive, block, rnd, raid, stripe_factor, full_stripe, (1.0 - hit) * (1.0 - cold))
    if split.metadata_bytes > 0:
        b.notes.append(_metadata_note(split))
    b.notes.append(
        f"read cache hit {hit_memory:.0%} ({CACHE_FRACTION_OF_MEMORY:.0%} of {record.memory_gib_per_node * nodes:,.0f} "
        f"GiB memory vs the working set{_shared_words(share)}); {RAID_LABEL.get(raid, raid)} "
        f"{describe_raid_groups(groups)}"
        + (" with full-stripe (WAFL) writes" if full_stripe else f", {SMALL_WRITE_IOS.get(raid, 1)} drive I/Os per "
           "small random write")
    )
    per_node_read = max(int(round(read_drives / nodes)), 1)
    per_node_all = max(int(round(usable / nodes)), 1)
    # reads use the data drives; writes (data + parity) every drive: scale write demand to read drives' pool
    wscale = per_node_read / per_node_all
    cost_pool = DriveCost(cost.media_r, cost.media_w * wscale, cost.xfer_r, cost.xfer_w * wscale,
                          cost.backend_bytes_r, cost.backend_bytes_w)
    label = "SSD" if drive.media == "SSD" else "HDD"
    shelf_rec = catalog.find(shelves[0].catalog_id)
    backend = catalog.find(record.backend_link or (shelf_rec.backend_link if isinstance(shelf_rec, Shelf) else ""))
    lanes = backend_lanes_per_node(scenario, node, record, shelves, shelf_rec, backend)
    # a metadata operation that misses the cache reads one metadata block from the drives (a small random read)
    meta = drive_cost(drive, METADATA_BLOCK_BYTES, 1.0, raid, stripe_factor, full_stripe, split.metadata_miss)
    for k in range(nodes):
        shelf_id = shelves[min(k, len(shelves) - 1)].id
        _add_drives(b, f"{label}s ({unit[k]})", shelf_id, drive, per_node_read,
                    1.0 / nodes, cost_pool, block, ident=StationId("drives", node=k + 1),
                    miss=(1.0 - hit) * (1.0 - cold))
        _metadata_drives(b, f"{label}s ({unit[k]})", shelf_id, drive, per_node_read, 1.0 / nodes, meta,
                         ident=StationId("drives", node=k + 1), miss=split.metadata_miss)
        if isinstance(backend, LinkType):
            rate = backend.payload_mbps * 1e6
            b.add(f"{unit[k]} back-end {backend.name}", node.id, cost.backend_bytes_r / rate / nodes, 0.0,
                  multiplicity=lanes, kind="backend", write_async_s=cost.backend_bytes_w / rate / nodes,
                  ident=StationId("backend", node=k + 1))
            b.metadata_demand(f"{unit[k]} back-end {backend.name}", node.id, meta.backend_bytes_r / rate / nodes,
                              multiplicity=lanes, kind="backend", ident=StationId("backend", node=k + 1))
    return host_cpu, source


def backend_lanes_per_node(scenario: Scenario, node: ControllerNode, record: Controller, shelves: list[ShelfNode],
                           shelf_rec: object, backend: object) -> int:
    """The back-end lanes one controller of ``node`` drives its shelves' I/O over.

    The controller's ``backend_lanes_per_node`` (its SAS ports with every SAS card fitted, x 4 lanes) or, when it
    states none, the first shelf's ``backend_lanes``. On a SAS back end a controller reaches a stack of shelves only
    through the ports cabled to that stack: with multipath HA one port pair per controller and stack (an A/C port to
    the stack's first shelf, a B/D port to its last; NetAppDocs ontap-systems 'sas3/install-cabling-rules.adoc',
    'Controller-to-stack connection rules'; the FAS70 / FAS90 guide 'fas-70-90/install-cable.adoc' cables each DS460C
    from e10a to IOM A port 1 and e11b to IOM B port 3 of each controller), two 4-lane mini-SAS HD ports, which the
    shelf's ``backend_lanes`` (8) counts. So the lanes are at most the design's stacks (the shelves linked straight to
    the controller; a shelf chained behind another shares its stack) x the shelf's lanes: one DS212C stack gives each
    controller 8 lanes of 12Gb SAS (8 x 1,200 MB/s = 9.6 GB/s), not the 96 of a FAS90 with six SAS cards.
    """
    if not isinstance(shelf_rec, Shelf):
        return record.backend_lanes_per_node or 4
    if not record.backend_lanes_per_node:
        return shelf_rec.backend_lanes
    if not isinstance(backend, LinkType) or backend.medium != "SAS":
        return record.backend_lanes_per_node
    ids = {s.id for s in shelves}
    direct = {link.target if link.source == node.id else link.source for link in scenario.links
              if node.id in (link.source, link.target)} & ids
    stacks = max(len(direct), 1)
    return min(record.backend_lanes_per_node, stacks * shelf_rec.backend_lanes)


def _short_stroked(b: _Builder, drive: Drive, stored: float, capacity: float) -> Drive:
    """``drive`` with its positioning time at the span its data occupy (``stored`` / ``capacity`` bytes of its data
    members, :func:`models.performance.positioning.short_stroke`), and the notes' sentence on it; an SSD or an
    unknown span (no dataset given): unchanged."""
    span = data_span(stored, capacity)
    if drive.media != "HDD" or span >= 1.0:
        return drive
    short = short_stroke(drive, span)
    b.notes.append(f"{drive.name}: the data occupy {span:.1%} of each drive, so random seeks are short: "
                   f"{short.read_service_time_us / 1000:.1f} ms per random read (seek and half a revolution) against "
                   f"{drive.read_service_time_us / 1000:.1f} ms over the whole drive")
    return short


def _metadata_note(split: CacheSplit) -> str:
    """The notes' sentence on a file workload's metadata in the read cache."""
    return (f"metadata working set {split.metadata_bytes / 2**30:,.1f} GiB (assumed 1% of the data working set) "
            f"cached ahead of data: {split.metadata_memory:.0%} of metadata operations hit memory, "
            f"{split.metadata_flash:.0%} Flash Cache, {split.metadata_miss:.0%} read a 4 KiB block from the drives")


def _metadata_drives(b: _Builder, name: str, component: str, drive: Drive, drives: int, share: float,
                     cost: DriveCost, *, ident: StationId, miss: float) -> None:
    """The drive work of one metadata operation's cache miss (``cost``: one small random read at the metadata miss
    ratio ``miss``, :func:`drive_cost`) on the pool ``ident`` of ``drives`` drives serving ``share`` of the I/O, on
    the stations :func:`_add_drives` builds (an SSD pool's transfer station too), which ``share`` x ``miss`` of the
    metadata operations visit."""
    if drives <= 0:
        return
    visit = share * miss
    if drive.media == "HDD":
        scv = hdd_positioning_scv(drive.read_service_time_us * 1e-6, METADATA_BLOCK_BYTES / (drive.max_read_mbps * 1e6),
                                  drive.rpm)
        b.metadata_demand(name, component, share * (cost.media_r + cost.xfer_r), servers=drive.parallelism,
                          multiplicity=drives, kind="drive", scv_service=scv, ident=ident, branch=DRIVE_BRANCH,
                          visit=visit)
    else:
        b.metadata_demand(name, component, share * cost.media_r, servers=drive.parallelism, multiplicity=drives,
                          kind="drive", ident=ident, branch=DRIVE_BRANCH, visit=visit)
        b.metadata_demand(f"{name} transfer", component, share * cost.xfer_r, multiplicity=drives, kind="drive",
                          scv_service=DETERMINISTIC_SCV, ident=StationId("drive_transfer", ident.node, ident.index),
                          branch=DRIVE_BRANCH, visit=visit)


def _object_store_station(b: _Builder, component: str, cold: float, latency_us: float) -> None:
    """The FabricPool capacity tier as a delay station: ``cold`` (0..1) of the reads wait ``latency_us`` each for
    one object-store GET (Cloud Volumes ONTAP's tiering and an on-premises controller's capacity tier alike)."""
    b.add("object store (FabricPool) latency", component, cold * latency_us * 1e-6, 0.0, delay=True, kind="delay",
          ident=StationId("object_store"))


def capacity_tier_latency(node: ControllerNode) -> tuple[float, str]:
    """The time of one cold read from an on-premises controller's FabricPool capacity tier, us, and its source.

    The node's ``cold_read_latency_us`` when set ("entered"); else for StorageGRID
    :data:`STORAGEGRID_READ_LATENCY_US`, for a cloud bucket :data:`OBJECT_STORE_READ_LATENCY_US` +
    :data:`ONPREM_TO_CLOUD_RTT_US` (both assumed)."""
    if node.cold_read_latency_us is not None:
        return node.cold_read_latency_us, "entered"
    if node.capacity_tier == "storagegrid":
        return STORAGEGRID_READ_LATENCY_US, "assumed: StorageGRID on the local network"
    return (OBJECT_STORE_READ_LATENCY_US + ONPREM_TO_CLOUD_RTT_US,
            "assumed: the bucket's first-byte time plus a round trip from the site to the cloud region")


def _cloud_path(scenario: Scenario, catalog: Catalog, workload: Workload, node: CloudVmNode, protocol: str,
                b: _Builder) -> tuple[float | None, str]:
    vm = catalog.get(node.catalog_id, CloudVm)
    disk = catalog.get(node.disk, CloudDisk)
    block = workload.block_kib * KIB
    rnd = workload.random_pct / 100.0
    fe = front_end(scenario, catalog, workload, protocol)
    host_cpu = _host_side(b, scenario, catalog, fe, protocol, block, 0, 0.0, node.id)
    b.add("client network round trip", "", AZURE_VM_NIC_MIN_LATENCY_US * 1e-6, AZURE_VM_NIC_MIN_LATENCY_US * 1e-6,
          delay=True, storage_side=False, kind="delay", ident=StationId("client_rtt"))
    software = "9.5"
    # the VM's own fitted profiles, or a calibrated sibling VM's scaled by its ratio (CloudVm.profile_from)
    profile, note = controller_profile(vm, catalog, software, protocol)
    found = profile is not None
    if note:
        b.notes.append(f"{vm.name}: {note}")
    cores = cvo_cores(vm)
    if profile is not None and profile.servers_per_node != cores and not any(profile is p for p in vm.performance):
        # a sibling VM's profile: its per-core CPU demand (the pooled fit's, the same on every size) on this VM's
        # own cores (models.performance.cloud_limits)
        profile = _on_cores(profile, cores)
    if profile is None:
        profile = PerfProfile(software=software, protocol="iSCSI", servers_per_node=cores,
                              **UNCALIBRATED_PROFILE,
                              provenance={k: UNCALIBRATED_PROVENANCE for k in
                                          ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us", "servers_per_node",
                                           "fixed_latency_us")})
    b.profile_used(profile, found, note, workload)
    source = profile.source or "catalog profile"
    net_rate = vm.network_mbps / 8.0 * 1e6  # bytes/s
    cold = node.cold_data_pct / 100.0 if node.tiering != "none" else 0.0
    ha = node.ha
    # VM network: client data in or out, HA mirror of each write, cold reads fetched from object storage
    net_r = block + cold * max(block, OBJECT_STORE_MIN_FETCH_BYTES)
    net_w = block * (2.0 if ha else 1.0)
    b.add(vm_limit_name(vm, "network"), node.id, net_r / net_rate, net_w / net_rate, kind="network",
          ident=StationId("network"))
    b.add("controller fixed latency", node.id, profile.fixed_latency_us * 1e-6, profile.fixed_latency_us * 1e-6,
          delay=True, kind="delay", ident=StationId("fixed_latency"))
    # Amdahl contention (PerfProfile.core_contention): each I/O's CPU cost grows with the cores it is spread over
    contention = 1.0 + profile.core_contention * (profile.servers_per_node - 1)
    cr = cpu_demand_us(profile, workload.block_kib, False, rnd) * 1e-6 * contention
    cw = cpu_demand_us(profile, workload.block_kib, True, rnd) * 1e-6 * contention
    b.add("VM CPU", node.id, cr, cw, kind="cpu", **cpu_queues(profile.servers_per_node, True), ident=StationId("cpu"))
    if ha:
        # the partner receives the mirrored write (its CPU work as a write) and acknowledges after one round trip
        b.add("HA partner CPU", node.id, 0.0, cw, kind="cpu", **cpu_queues(profile.servers_per_node, True),
              ident=StationId("ha_partner_cpu"))
        b.add("HA mirror round trip", node.id, 0.0, AZURE_VM_NIC_MIN_LATENCY_US * 1e-6, delay=True, kind="delay",
              ident=StationId("ha_mirror_round_trip"))
    share = cache_share(workload, scenario.workloads)  # the VM's other workloads hold the rest of its cache
    cache = vm.ram_gib * 2**30 * CACHE_FRACTION_OF_MEMORY * share
    hit = cache_hit_ratio(cache, workload.working_set_bytes, workload.dataset_bytes, rnd)
    if vm.flash_cache_gib:
        hit = _cloud_flash_cache(b, vm, node, workload, cache, hit, rnd, share)
    miss = (1.0 - hit) * (1.0 - cold)
    # cloud disk I/O units: random I/O one unit each (up to the disk's unit, 256 KiB on Azure); sequential reads
    # and WAFL consistency-point writes (in both write speeds the data disks receive full-stripe CP writes, not host
    # writes) coalesce into whole units
    io_unit = disk.io_unit_bytes  # Azure and EBS SSD 256 KiB, EBS HDD 1 MiB (CloudDisk.io_unit_kib)
    units = max(1.0, block / io_unit)
    units_r = miss * (rnd * units + (1 - rnd) * block / io_unit)
    units_w = block / io_unit
    bytes_r = miss * block
    bytes_w = block
    sync = node.write_speed == "normal"
    nvram = catalog.get(vm.nvram_disk, CloudDisk) if vm.nvram_disk else None
    log_units = log_bytes = 0.0
    if sync and nvram is None:
        # no NVRAM disk in the record: the synchronous log write goes to the data disks, one unit per host write
        log_units, log_bytes = units, block
    # consistency-point writes come after the acknowledgement (asynchronous); a log write on the data disks is
    # waited for
    b.add(vm_limit_name(vm, "disk_iops"), node.id, units_r / vm.max_uncached_disk_iops,
          log_units / vm.max_uncached_disk_iops, kind="disk", write_async_s=units_w / vm.max_uncached_disk_iops,
          ident=StationId("vm_disk_iops"))
    b.add(vm_limit_name(vm, "disk_mbps"), node.id, bytes_r / (vm.max_uncached_disk_mbps * 1e6),
          log_bytes / (vm.max_uncached_disk_mbps * 1e6), kind="disk",
          write_async_s=bytes_w / (vm.max_uncached_disk_mbps * 1e6), ident=StationId("vm_disk_mbps"))
    n = node.disk_count
    b.add(disk_limit_name(disk, n, "iops"), node.id, units_r / disk.iops / n, log_units / disk.iops / n, servers=1,
          kind="disk", write_async_s=units_w / disk.iops / n, ident=StationId("disk_iops"))
    b.add(disk_limit_name(disk, n, "mbps"), node.id, bytes_r / (disk.mbps * 1e6) / n, log_bytes / (disk.mbps * 1e6) / n,
          kind="disk", write_async_s=bytes_w / (disk.mbps * 1e6) / n, ident=StationId("disk_mbps"))
    log_lat = (nvram.latency_us if nvram is not None else disk.latency_us) * 1e-6
    if sync and nvram is not None:
        # normal write speed: "data is written directly to disk" (seed 004 §3): each write is logged to the NVRAM
        # disk and acknowledged after that write; the log writer packs concurrent writes into one disk I/O of up
        # to 256 KiB (group commit), so the log disk's MB/s cap, not its IOPS cap, bounds streaming writes
        b.add(nvram_limit_name(nvram, "mbps"), node.id, 0.0,
              block / (nvram.mbps * 1e6), kind="disk", ident=StationId("nvram_log_mbps"))
        b.add(nvram_limit_name(nvram, "iops"), node.id, 0.0,
              block / nvram.io_unit_bytes / nvram.iops, kind="disk", ident=StationId("nvram_log_iops"))
    b.add("disk latency", node.id, miss * disk.latency_us * 1e-6, log_lat if sync else 0.0, delay=True,
          kind="delay", ident=StationId("disk_latency"))
    if ha and sync:
        b.add("HA partner log write", node.id, 0.0, log_lat, delay=True, kind="delay",
              ident=StationId("ha_partner_log_write"))
    if cold > 0:
        _object_store_station(b, node.id, cold, OBJECT_STORE_READ_LATENCY_US)
        b.notes.append(f"{cold:.0%} of reads come from object storage (FabricPool tiering '{node.tiering}'): "
                       f"{OBJECT_STORE_READ_LATENCY_US / 1000:.0f} ms first-byte latency each, and their bytes "
                       "cross the VM network")
    b.notes.append(
        f"{vm.vm_size}{' HA pair' if ha else ''}: network {vm.network_mbps:,.0f} Mbit/s, uncached disk caps "
        f"{vm.max_uncached_disk_iops:,.0f} IOPS / {vm.max_uncached_disk_mbps:,.0f} MB/s, {n} x {disk.name}; "
        + ("normal write speed: each write is logged to "
           f"{'the NVRAM disk, ' + nvram.name if nvram else 'the data disks'} before it is acknowledged"
           if sync else "high write speed: writes buffered in memory") + "; "
        f"read cache hit {hit:.0%}"
    )
    if ha:
        b.notes.append("HA pair: each write is mirrored to the partner over the VM network before it is "
                       "acknowledged; the lower read throughput of HA pairs in NetApp TR-4671's measurements has no "
                       "mechanism in the model")
    b.notes.append(f"'VM CPU' is the fitted software path of Cloud Volumes ONTAP (NetApp TR-4671, Azure DS3_v2, "
                   "DS4_v2 and DS14_v2, one parameter set pooled over the three sizes): CPU time per KiB moved "
                   "(writes and random I/O costing more) per core, the same on every VM size, on "
                   f"{profile.servers_per_node} cores ({CORES_BASIS}), each I/O's CPU time x {contention:.3g} "
                   "for the serial share of the work (Amdahl's law, fitted once); the VM's published network and "
                   "disk limits and the disks' own limits are stations of their own, so a larger VM is faster (with "
                   "diminishing returns) until one of them binds")
    return host_cpu, source


def _cloud_flash_cache(b: _Builder, vm: CloudVm, node: CloudVmNode, workload: Workload, cache: float,
                       hit_memory: float, rnd: float, share: float = 1.0) -> float:
    """Cloud Volumes ONTAP's Flash Cache on the VM's local NVMe storage (CVO release notes, 'Support for Flash
    Cache and high write speed': instance types with local NVMe use it as Flash Cache, 'Compression must be
    disabled on all volumes to take advantage of the Flash Cache performance improvements'): a victim cache of the
    buffer cache as on a controller (memory and NVMe together one LRU of their summed size), each hit served by
    the NVMe device in :data:`FLASH_CACHE_READ_US` with as many reads at once as its published random-read IOPS
    allow (``CloudVm.flash_cache_read_iops`` x the read time; else :data:`FLASH_CACHE_PARALLELISM`). A compressed
    workload gets no Flash Cache hits; ``share``: the workload's share of the VM's caches
    (:func:`models.performance.cache.cache_share`; ``cache`` is its share of memory already). Returns the read hit
    ratio of memory and Flash Cache together."""
    if workload.compression_ratio > 1.0:
        b.notes.append(f"{vm.vm_size}: Flash Cache unused: the workload is compressed "
                       f"({workload.compression_ratio:g}:1) and CVO's Flash Cache needs compression disabled")
        return hit_memory
    assert vm.flash_cache_gib is not None  # the caller's condition
    flash = vm.flash_cache_gib * 2**30 * share
    hit = cache_hit_ratio(cache + flash, workload.working_set_bytes, workload.dataset_bytes, rnd)
    read_s = FLASH_CACHE_READ_US * 1e-6
    servers = (max(1, round(vm.flash_cache_read_iops * read_s)) if vm.flash_cache_read_iops
               else FLASH_CACHE_PARALLELISM)
    b.add("Flash Cache (local NVMe)", node.id, (hit - hit_memory) * read_s, 0.0, servers=servers, kind="cache",
          ident=StationId("flash_cache"))
    b.notes.append(f"Flash Cache read hit {hit - hit_memory:.0%} ({vm.flash_cache_gib:,.0f} GiB local NVMe behind "
                   "memory, uniform random access)")
    return hit


def _hci_path(scenario: Scenario, catalog: Catalog, workload: Workload, node: HciClusterNode,
              b: _Builder, layout: RaidLayout | None) -> tuple[float | None, str]:
    rec = catalog.get(node.catalog_id, HciNode)
    # vSAN CPU costs and software latencies are assumed engine constants (VSAN_CPU_US, VSAN_SOFTWARE_LATENCY_US)
    b.uncertainty = StationUncertainty("assumed", ASSUMED_REL_SD, UNIDENTIFIED_REL_SD,
                                       f"assumed vSAN CPU costs ({ASSUMED_REL_SD:.0%} relative SD); software latency "
                                       f"chosen from a published vSAN result without a standard error "
                                       f"({UNIDENTIFIED_REL_SD:.0%})")
    esa = node.architecture == "esa"
    # ESA has no cache tier (one storage pool of NVMe devices per host): no cache drive, even on an OSA record
    cache_drive = None if esa else catalog.get(rec.cache_drive, Drive)
    cap_drive = catalog.get(rec.capacity_drive, Drive)
    block = workload.block_kib * KIB
    hosts = node.hosts
    groups = hosts * node.disk_groups_per_host
    cap_drives = groups * node.capacity_drives_per_group
    local = max(site_hosts(node), 1)  # a stretched cluster lays its policy out inside each data site
    remote = (local - 1) / local  # vSAN places objects without data locality: share of replicas on other hosts
    # the policy's stripe as the capacity rules lay it out (models.capacity.layout.hci_layout): data components
    # and parity (erasure coding) or mirror copies beyond the first (RAID1)
    stripe = (layout if layout is not None and layout.groups else hci_layout(node, cap_drive)).groups[0]
    b.raid_groups = (stripe,)
    raid5 = stripe.data > 1  # erasure coding: RAID5 3+1 (ESA 2+1, 4+1), RAID6 4+2
    copies = stripe.width if not raid5 else 0
    stripe_writes = 0.0  # ESA: full-stripe writes of the capacity leg, after the acknowledgement
    if raid5 and esa:
        # ESA's log-structured file system writes each block to a mirrored performance leg (FTT + 1 copies) and
        # acknowledges it; full stripes go to the capacity leg later, with no read-modify-write: "Performance of
        # RAID-5/6 equal to RAID-1" (VSAN_ESA_PERFORMANCE_SOURCE)
        reads_per_write = 0
        writes_per_write = stripe.parity + 1
        phases = 1
        stripe_writes = stripe.stripe_factor
    elif raid5:
        parity = stripe.parity
        reads_per_write = 1 + parity  # read old data + old parity
        writes_per_write = 1 + parity
        phases = 2
    else:
        reads_per_write = 0
        writes_per_write = copies
        phases = 1
        if esa:  # ESA RAID-1: the capacity leg is a mirror too, written after the performance leg
            stripe_writes = float(copies)
    net_rate = rec.network_gbps * 1e9 / 8 * 0.94  # bytes/s payload (~6% Ethernet/IP overhead, as iscsi-10g)
    sw = VSAN_SOFTWARE_LATENCY_US
    b.add(VSAN_FIXED_STATION, node.id, sw["read"] * 1e-6, phases * sw["write_phase"] * 1e-6, delay=True,
          kind="delay", ident=StationId("fixed_latency"))
    b.add("vSAN network round trips", node.id, remote * VSAN_NET_RTT_US * 1e-6, phases * VSAN_NET_RTT_US * 1e-6,
          delay=True, kind="delay", ident=StationId("network_rtt"))
    # each host's vSAN uplink is one full-duplex server the cluster's traffic is spread over (multiplicity=hosts):
    # the demand is the I/O's whole payload on the wire (a remote copy leaves one host and enters another, one
    # direction of each link); the spreading over hosts is the multiplicity's, not divided here again
    b.add("vSAN network", node.id, remote * block / net_rate,
          remote * (reads_per_write + writes_per_write) * block / net_rate, multiplicity=hosts,
          kind="network", write_async_s=remote * stripe_writes * block / net_rate, ident=StationId("network"))
    cpu = VSAN_CPU_US
    cw = writes_per_write * cpu["write"] + reads_per_write * cpu["read"]
    # deduplication and compression are "near-line" (seed 002): applied when the write buffer destages, after
    # the write was acknowledged
    cw_async = writes_per_write * cpu["dedupe_write"] if node.dedupe_compression else 0.0
    cw_async += stripe_writes * cpu["write"]
    b.add("vSAN host CPU", node.id, cpu["read"] * 1e-6, cw * 1e-6, servers=rec.cores, multiplicity=hosts, kind="cpu",
          write_async_s=cw_async * 1e-6, ident=StationId("cpu"))
    # all-flash vSAN: reads from the capacity tier; writes land on the cache tier (write buffer) and are
    # acknowledged there; destaging to the capacity tier happens later (it loads the capacity SSDs only)
    rd = cap_drive.read_service_time_us * 1e-6 + block / (cap_drive.max_read_mbps * 1e6)
    destage = cap_drive.write_service_time_us * 1e-6 + block / (cap_drive.max_write_mbps * 1e6)
    if rec.max_iops_per_disk_group:
        # each disk group's software path (DOM / LSOM) serves a bounded number of component I/Os; the catalog
        # gives front-end IOPS of the ReadyNode profile mix (70% reads, FTT=1 RAID1: 0.7 x 1 + 0.3 x 2 = 1.3
        # component I/Os each), so a write costs its replicas / parity updates and RAID5 saturates earlier
        # (ESA: one storage pool per host, so the limit is per host)
        per_group = rec.max_iops_per_disk_group * VSAN_READYNODE_COMPONENT_IOS
        b.add("vSAN storage pools (software path)" if esa else "vSAN disk groups (software path)", node.id,
              1.0 / per_group, (writes_per_write + reads_per_write) / per_group,
              multiplicity=hosts if esa else groups, kind="cpu", ident=StationId("software_limit"))
    hybrid = not esa and (not rec.all_flash or cap_drive.media == "HDD")
    rnd = workload.random_pct / 100.0
    if esa:
        # ESA: every device of the storage pool serves reads, the performance-leg writes (acknowledged) and the
        # capacity leg's full-stripe writes (after the acknowledgement)
        b.add("storage-pool NVMe devices", node.id, rd, writes_per_write * destage, servers=cap_drive.parallelism,
              multiplicity=cap_drives, kind="drive", write_async_s=stripe_writes * destage, ident=StationId("drives"))
        b.notes.append("vSAN ESA: no cache tier; writes land on a mirrored performance leg of the storage-pool "
                       "devices and are acknowledged there; full stripes are written to the capacity leg later"
                       + (f" ({stripe_writes:.3g} device writes per host write)" if stripe_writes else ""))
    elif hybrid:
        # vSAN OSA hybrid: the cache tier is 70% read cache, 30% write buffer; a read that hits the read cache is
        # served by the cache SSD, a miss by a capacity HDD (random reads pay positioning)
        assert cache_drive is not None  # OSA: a cache tier
        # the policy's copies (RAID1) or stripe (erasure coding) of the data spread over every capacity drive
        cap_drive = _short_stroked(b, cap_drive, _stored_bytes(scenario, node.id) * stripe.width
                                   / max(stripe.data, 1), cap_drives * cap_drive.right_sized_bytes)
        # the cluster's other workloads hold the rest of its read cache
        cache_bytes = (VSAN_HYBRID_READ_CACHE_SHARE * cache_drive.marketed_bytes * groups
                       * cache_share(workload, scenario.workloads))
        hit = cache_hit_ratio(cache_bytes, workload.working_set_bytes, workload.dataset_bytes, rnd)
        rd_cache = cache_drive.read_service_time_us * 1e-6 + block / (cache_drive.max_read_mbps * 1e6)
        wr_cache = cache_drive.write_service_time_us * 1e-6 + block / (cache_drive.max_write_mbps * 1e6)
        rd_cap = rnd * cap_drive.read_service_time_us * 1e-6 + block / (cap_drive.max_read_mbps * 1e6)
        scv = hdd_positioning_scv(cap_drive.read_service_time_us * 1e-6, block / (cap_drive.max_read_mbps * 1e6),
                                  cap_drive.rpm) if cap_drive.media == "HDD" else None
        # the write buffer destages to the HDDs in sorted runs (VSAN_HYBRID_DESTAGE_SOURCE): a destaged block costs
        # its transfer and a share of one positioning (VSAN_HYBRID_DESTAGE_COALESCING), after the acknowledgement;
        # when the writes' copies exceed what the HDDs destage, the HDDs bind
        destage_hdd = (cap_drive.write_service_time_us * 1e-6 / VSAN_HYBRID_DESTAGE_COALESCING
                       + block / (cap_drive.max_write_mbps * 1e6)) if cap_drive.media == "HDD" else destage
        b.add("capacity HDDs" if cap_drive.media == "HDD" else "capacity drives", node.id, (1 - hit) * rd_cap,
              reads_per_write * rd_cap, servers=cap_drive.parallelism, multiplicity=cap_drives, kind="drive",
              write_async_s=writes_per_write * destage_hdd, scv_service=scv, ident=StationId("drives"))
        b.add("cache SSDs (read cache and write buffer)", node.id, hit * rd_cache, writes_per_write * wr_cache,
              servers=cache_drive.parallelism, multiplicity=groups, kind="drive", ident=StationId("cache_drives"))
        b.notes.append(f"vSAN hybrid read cache hit {hit:.0%}: {VSAN_HYBRID_READ_CACHE_SHARE:.0%} of "
                       f"{groups} x {cache_drive.marketed_bytes / 1e9:,.0f} GB cache devices vs the working set "
                       "(uniform random access); writes are absorbed by the write buffer and destaged to the "
                       "capacity disks in sorted runs (VMware, Architecting vSAN 6.2, §5.5), each destaged block "
                       f"taken to cost 1/{VSAN_HYBRID_DESTAGE_COALESCING:g} of a random positioning (assumed)")
    else:
        assert cache_drive is not None  # OSA: a cache tier
        wr_cache = cache_drive.write_service_time_us * 1e-6 + block / (cache_drive.max_write_mbps * 1e6)
        b.add("capacity SSDs", node.id, rd, reads_per_write * rd, servers=cap_drive.parallelism,
              multiplicity=cap_drives, kind="drive", write_async_s=writes_per_write * destage,
              ident=StationId("drives"))
        b.add("cache SSDs (write buffer)", node.id, 0.0, writes_per_write * wr_cache,
              servers=cache_drive.parallelism, multiplicity=groups, kind="drive", ident=StationId("cache_drives"))
    if node.stretched:
        _stretched_stations(b, node, workload, block, phases)
    b.notes.append(
        f"vSAN {policy_label(node.policy)}: each write "
        f"{'reads ' + str(reads_per_write) + ' and ' if reads_per_write else ''}writes "
        f"{writes_per_write} blocks in {phases} distributed phase{'s' * (phases != 1)}; {remote:.0%} of replica "
        f"traffic crosses the "
        f"{rec.network_gbps:g} GbE network" + (
            ("; near-line dedupe + compression CPU after the acknowledgement"
             if "deduplication" in rec.data_reductions else
             "; compression CPU counted after the acknowledgement at vSAN 6.2's dedupe + compression cost per "
             "write (assumed; this platform compresses only)") if node.dedupe_compression else "")
    )
    unit = "host storage pool" if esa else "disk group"
    # where the limit comes from, as a customer can follow it: the sources table lists the record's derivation (the
    # note once ended "(catalog)", review 57 #14)
    kind = rec.kind_of("max_iops_per_disk_group") or "assumed"
    limit = (f"the {'assumed' if kind == 'assumed' else kind + ', unvalidated'} software limit of "
             f"{rec.max_iops_per_disk_group:,.0f} front-end IOPS per {unit} (its derivation is under {rec.name} in the "
             "sources)" if rec.max_iops_per_disk_group else f"no per-{unit.replace(' ', '-')} software limit in "
                                                             "the catalog record")
    b.notes.append(
        f"vSAN peak IOPS is not validated: seed 002 publishes latencies at ~8,000 TPS only; saturation rests on "
        f"{limit}; the latency at light load (write 1.7-2.1 ms RAID1) is the validated part"
        + ("" if rec.id == VSAN_LATENCY_MEASURED_HOST and not esa else
           " on the vSAN 6.2 cluster measured, not on this one")
    )
    return None, vsan_latency_basis(rec.id, esa, rec.all_flash, node.policy)


VSAN_FIXED_STATION = "vSAN per-I/O software latency (fixed)"
"""The vSAN path's fixed software latency station's name (a delay, not a server: it never queues); it was "vSAN
software path", read as the same thing as the disk groups' "(software path)" limit (review 57 PDF #14)."""

VSAN_LATENCY_NOTE = "vSAN software latency (per read and per distributed write phase): "
"""How a vSAN path's note on its software latency begins (:func:`vsan_latency_basis`): it stands in for a
controller path's "controller parameters" note (a vSAN cluster has no controller profile)."""

VSAN_LATENCY_MEASURED_HOST = "vsan-6.2-allflash-host"
"""The catalog record of the cluster seed 002 measured (vSAN 6.2 all-flash, OSA): the one platform whose vSAN
software latency (:data:`VSAN_SOFTWARE_LATENCY_US`) is fitted to its own published measurement."""

VSAN_LATENCY_CARRIED = "assumed for this"
"""The words that mark :func:`vsan_latency_basis`'s note for a cluster other than the one measured."""


def vsan_latency_basis(record_id: str, esa: bool, all_flash: bool = True, policy: str = "") -> str:
    """The note on where a vSAN cluster's software latency comes from (one true statement for the report's
    performance note, its sources count and the screen's validation line, which disagreed).
    :data:`VSAN_SOFTWARE_LATENCY_US` was set by hand so that seed 002's FTT=1 RAID1 write latency (1.7-2.1 ms, a
    vSAN 6.2 all-flash OSA cluster) comes out: a fit to that cluster's own measurement
    (:data:`VSAN_LATENCY_MEASURED_HOST`), carried over as an assumption to every other cluster (ESA, vSAN 8 OSA,
    hybrid), which no measurement was fitted to. Neither is a catalog number: the catalog records cite no fitted
    figure. ``policy`` (a cluster's :data:`models.project.model.VsanPolicy`): a RAID5 / RAID6 policy's note says
    the RAID1 fit is applied to it as an assumption (review 57 PDF #14)."""
    fit = "fitted by hand to the FTT=1 RAID1 write latency of 1.7-2.1 ms published in seed 002"
    if "raid5" in policy or "raid6" in policy:
        fit += (f" (a RAID1 measurement, applied to this {'RAID5' if 'raid5' in policy else 'RAID6'} policy as an "
                "assumption)")
    if record_id == VSAN_LATENCY_MEASURED_HOST and not esa:
        return f"{VSAN_LATENCY_NOTE}{fit}, measured on this platform (vSAN 6.2 all-flash): its own measurement"
    what = "vSAN ESA" if esa else f"vSAN OSA {'all-flash' if all_flash else 'hybrid'}"
    # the blog's title (customer_citation) says all-flash; a hybrid cluster's notes say that scope once, after them
    # (models.present.citations.HYBRID_SCOPE), so this note does not repeat it
    return (f"{VSAN_LATENCY_NOTE}{fit}, measured on vSAN 6.2 (OSA), and "
            f"{VSAN_LATENCY_CARRIED} {what} cluster: nothing was fitted to a measurement of this cluster")


def _stretched_stations(b: _Builder, node: HciClusterNode, workload: Workload, block: float, phases: int) -> None:
    """A stretched cluster's writes at both data sites (``models.capacity.stretched``): each host station's write
    work (built above for one site's copy) is done at each site, so it doubles over the cluster's hosts; reads
    stay in the VM's site (read locality). The two sites' copies are written in parallel, not one after the other
    (vSAN sends the write to both sites and acknowledges it when both have it: "the WAN latency will be added to the
    write latency", :data:`models.capacity.stretched.VSAN_STRETCHED_WRITE_DOCS`): a write waits for its own site's
    copy (the station's ``write_s``, as on one site) and for the other site's, which takes as long (the sites are
    alike) plus one inter-site round trip per write phase (``node.inter_site_rtt_ms``, a delay station). So the
    other site's copy only loads the stations (``write_async_s``: utilisation and queueing, not a second wait in
    series) and the round trip is the wait it adds. The remote copy crosses the inter-site link
    (``node.inter_site_gbps``) with vSAN's data multiplier (:data:`models.capacity.stretched.DATA_MULTIPLIER`), a
    station of its own. A note gives the link bandwidth ``workload``'s target needs with the resynchronisation
    headroom (``link_mbps_needed``)."""
    for i, s in enumerate(b.stations):
        if s.component == node.id and not s.delay:
            # the other site's copy: the same work at its hosts (SITE_COPIES - 1 more copies), written in parallel
            other = (SITE_COPIES - 1) * (s.write_s + s.write_async_s)
            b.stations[i] = replace(s, write_async_s=s.write_async_s + other)
    rtt = node.inter_site_rtt_ms * 1e-3
    b.add("vSAN inter-site round trip", node.id, 0.0, phases * rtt, delay=True, kind="delay",
          ident=StationId("intersite_rtt"))
    link = node.inter_site_gbps * 1e9 / 8 * 0.94  # bytes/s payload (as the vSAN network)
    b.add("vSAN inter-site link", node.id, 0.0, DATA_MULTIPLIER * block / link, kind="network",
          ident=StationId("intersite_link"))
    rate = workload.target_iops
    if rate:
        writes_mbps = rate * (1.0 - workload_read_fraction(workload)) * block / 1e6
        need = link_mbps_needed(writes_mbps) * 8 / 1e3  # Gbit/s
        b.notes.append(f"vSAN inter-site bandwidth at the target: {writes_mbps:,.0f} MB/s of writes x "
                       f"{DATA_MULTIPLIER:g} x {RESYNC_MULTIPLIER:g} = {need:,.2f} Gbit/s of the "
                       f"{node.inter_site_gbps:g} Gbit/s link ({VSAN_STRETCHED_BANDWIDTH_DOCS})")
    b.notes.append(f"vSAN stretched cluster: every write is written at both data sites ({site_hosts(node)} hosts "
                   f"each) at the same time, and waits for its own site's copy and {phases} inter-site round "
                   f"trip{'s' * (phases != 1)} of {node.inter_site_rtt_ms:g} ms to the other's "
                   f"({VSAN_STRETCHED_WRITE_DOCS}); "
                   f"the remote "
                   f"copy crosses the {node.inter_site_gbps:g} Gbit/s inter-site link (x{DATA_MULTIPLIER:g} vSAN "
                   f"data multiplier); reads stay in the VM's site (read locality)")


def _hci_system(scenario: Scenario, catalog: Catalog, workload: Workload, target: HciClusterNode, b: _Builder,
                layout: RaidLayout | None) -> tuple[str, float | None, str]:
    """A workload's path on a vSAN cluster (its policy's stripe from ``layout``)."""
    return ("vSAN", *_hci_path(scenario, catalog, workload, target, b, layout))


def _cloud_system(scenario: Scenario, catalog: Catalog, workload: Workload, target: CloudVmNode, b: _Builder,
                  layout: RaidLayout | None) -> tuple[str, float | None, str]:
    """A workload's path on a Cloud Volumes ONTAP node (RAID0 over cloud disks: no RAID group on the path)."""
    protocol = protocol_of(scenario, catalog, workload) or "iSCSI"
    return (protocol, *_cloud_path(scenario, catalog, workload, target, protocol, b))


def _controller_system(scenario: Scenario, catalog: Catalog, workload: Workload, target: ControllerNode,
                       b: _Builder, layout: RaidLayout | None) -> tuple[str, float | None, str]:
    """A workload's path on a controller (its drives striped over ``layout``'s RAID groups)."""
    protocol = protocol_of(scenario, catalog, workload)
    if protocol is None:
        record = catalog.get(target.catalog_id, Controller)
        protocol = record.protocols[0]
        b.notes.append(f"no front-end link to {target.id}: protocol {protocol} assumed, no host/fabric "
                       "stations")
    return (protocol, *_controller_path(scenario, catalog, workload, target, protocol, b, layout))


def _managed_system(scenario: Scenario, catalog: Catalog, workload: Workload, target: ManagedServiceNode,
                    b: _Builder, layout: RaidLayout | None = None) -> tuple[str, float | None, str]:
    """A managed file service (:mod:`models.performance.managed`): the client round trip and the service's
    light-load latency as delays, each published limit a single-server queue whose capacity is the limit
    (exponential service: see the comment below)."""
    from models.catalog import ManagedService
    from models.performance.managed import CLIENT_RTT_US, iops_limit, throughput_limit_mbps

    record = catalog.get(target.catalog_id, ManagedService)
    if workload.nas is not None:
        protocol = PROTOCOL_FAMILY.get(workload.nas.protocol, "NFS")
    else:
        protocol = record.protocols[0]
    block = workload.block_kib * KIB
    b.add("client network round trip", "", CLIENT_RTT_US * 1e-6, CLIENT_RTT_US * 1e-6, delay=True,
          storage_side=False, kind="delay", ident=StationId("client_rtt"))
    b.add("service latency floor", target.id, record.latency_us * 1e-6, record.latency_us * 1e-6, delay=True,
          kind="delay", ident=StationId("fixed_latency"))
    mbps = throughput_limit_mbps(target, record)
    # exponential service (SCV 1), not the token bucket's deterministic one: with large delays in the path the
    # closed MVA's residual-life correction for SCV < 1 lets the ramp pass the limit (the asymptotic bound), so
    # the conservative M/M/1 shape is used here
    # writes at most the volume's published write throughput where that is lower (ANF: ~1,600 of ~4,500 MiB/s)
    write_mbps = min(mbps, record.max_write_throughput_mbps or mbps)
    limit = f"{mbps:,.0f} MB/s" + (f", writes {write_mbps:,.0f} MB/s" if write_mbps < mbps else "")
    b.add(f"{record.service} throughput limit ({limit})", target.id, block / (mbps * 1e6),
          block / (write_mbps * 1e6), kind="network", scv_service=1.0, ident=StationId("service_mbps"))
    if record.max_read_iops and record.max_write_iops:
        # one volume's published small-block operation rates: reads and writes share one limit, so a mix takes
        # each operation's share of it (the harmonic mean by share)
        b.add(f"{record.service} volume operation limit ({record.max_read_iops:,.0f} reads or "
              f"{record.max_write_iops:,.0f} writes per s)", target.id, 1.0 / record.max_read_iops,
              1.0 / record.max_write_iops, kind="disk", scv_service=1.0, ident=StationId("service_ops"))
    iops = iops_limit(target, record)
    if iops:
        b.add(f"{record.service} IOPS limit ({iops:,.0f})", target.id, 1.0 / iops, 1.0 / iops, kind="disk",
              scv_service=1.0, ident=StationId("service_iops"))
    b.uncertainty = StationUncertainty("assumed", 0.0, ASSUMED_REL_SD, f"{record.service}: published limits "
                                       "(sourced in the catalog); the light-load latency is assumed")
    b.notes.append(f"{record.name}: the published limits are queues of their capacity; the light-load latency "
                   f"({record.latency_us / 1000:.2f} ms) is {record.kind_of('latency_us') or 'not sourced'}")
    return protocol, None, f"{record.service} published limits"


_SYSTEMS: dict[str, Callable[..., tuple[str, float | None, str]]] = {
    "hci_cluster": _hci_system, "cloud_vm": _cloud_system, "controller": _controller_system,
    "managed_service": _managed_system}
"""System node kind (``models.project.kinds.SYSTEM_KINDS``) -> (protocol, host CPU us per I/O, profile source)
of a workload's path on it, its stations added to the builder."""


def build_path(scenario: Scenario, catalog: Catalog, workload: Workload,
               raid: Mapping[str, RaidLayout] | None = None) -> WorkloadPath:
    """The stations of one workload's I/O path.

    Args:
        scenario: the scenario; catalog: records for every catalog id the scenario uses; workload: one workload
        whose ``target`` is a controller, HCI cluster or cloud VM node; raid: the scenario's RAID layouts (system
        id -> ``models.capacity.layout.RaidLayout``, as ``raid_layouts`` builds them once per evaluation); None
        (or a mapping without the target): the target's layout is built here (``system_layout``).

    Returns:
        A :class:`WorkloadPath`.

    Raises:
        PathError: the target is missing or not a storage system, the scenario has hosts but none of the
            workload's reaches its target over a common protocol (``Topology.io_path_problem``), the controller has
            no drives, or a catalog id is unknown (the message names it).
    """
    target = scenario.node(workload.target)
    if target is None:
        raise PathError(f"workload '{workload.name}': target '{workload.target}' does not exist")
    b = _Builder()
    system = _SYSTEMS.get(target.kind)
    if system is None:
        raise PathError(f"workload '{workload.name}': target '{workload.target}' is a {target.kind}")
    unreached = (None if TRANSFER_ID_MARK in workload.id
                 else topology.of(scenario).io_path_problem(catalog, workload))
    if unreached:  # hosts drawn, none reaching the target over a common protocol: nothing to evaluate
        raise PathError(f"workload '{workload.name}': {unreached}{NOT_EVALUATED}")
    layout = (raid.get(target.id) if raid is not None else None) or system_layout(scenario, catalog, target.id)
    try:
        protocol, host_cpu, source = system(scenario, catalog, workload, target, b, layout)
    except CatalogError as exc:
        raise PathError(f"workload '{workload.name}': {exc}") from exc
    if workload.nas is not None:
        family = PROTOCOL_FAMILY[workload.nas.protocol]
        if protocol != family:
            raise PathError(f"workload '{workload.name}' is {workload.nas.protocol} but the links to "
                            f"'{workload.target}' carry {protocol}: link the hosts with an Ethernet link type that "
                            f"carries {family}")
        stations, note = apply_op_mix(b.stations, workload.nas, b.metadata, b.metadata_visits)
        b.stations = list(stations)
        b.notes.append(note)
    names = [s.name for s in b.stations]
    if len(set(names)) != len(names):
        raise PathError(f"workload '{workload.name}': duplicate station names {names}")
    idents = [s.ident for s in b.stations]
    if len(set(idents)) != len(idents):
        raise PathError(f"workload '{workload.name}': duplicate station identities {idents}")
    return WorkloadPath(workload, workload.target, protocol, intern_stations(tuple(b.stations)), host_cpu,
                        tuple(b.notes), source, b.uncertainty, b.raid_groups)
