"""Public multi-point measurements (latency at each load level of a benchmark ramp) as scenarios, for the
validation ramps of ``resources/validation/ramps.toml`` (``[[ramp]]``).

Each builder returns a :class:`models.project.model.Scenario` of bundled catalog records describing the tested
configuration as far as the readable part of the public result describes it; everything else is an assumption,
named in the builder's docstring and in the constants below. The two SPECstorage scenarios are what the NFS
profiles of the AFF A900 and AFF A90 are fitted on, every load level (models.calibration.seed_profiles
.NFS_RAMP_FITS); the FAS3140 and Azure NetApp Files large volume scenarios are evaluated as predictions that no
calibration reads (the large volume from Microsoft's published limits, :data:`ANF_LARGE_VOLUME`, added for its
ramp only: :data:`RAMP_CATALOG_ENTRIES`).
:func:`ramp_cases` reads the ramps' tables, and :func:`block_kib_of` / :func:`mean_block_kib` /
:func:`published_shape` turn their printed figures into the scenarios' inputs and the published shape.

Approximations shared by every ramp here:

* every ramp is an NFSv3 file workload (``Workload.nas``, :mod:`models.performance.nas`) with the SPEC SFS 2008
  operation mix (:data:`SFS2008_NFSV3_MIX`, sourced); for the two SPECstorage Solution 2020 ramps that mix is a
  proxy (their swbuild and eda_blended mixes are not in the material readable offline);
* a managed service's path (the large volume) is the one ``models.performance.managed`` describes: delays and
  its published limits as queues; the ONTAP cluster approximations below do not apply to it;
* a read or write moves the ramp's mean data per data operation: published MB/s over (published Ops/s x the mix's
  data share), :func:`data_block_kib`;
* a cluster of several HA pairs serving one FlexGroup is one controller node with ``nodes`` = the cluster's node
  count: the engine spreads the load evenly over the nodes (a FlexGroup spreads its constituents over every
  node), each node with its own CPU and drives.
"""

from __future__ import annotations

import tomllib
from typing import Any

from models.catalog import ManagedService
from models.project.model import (
    ControllerNode,
    HostNode,
    Link,
    ManagedServiceNode,
    NasWorkload,
    Scenario,
    ShelfNode,
    Workload,
)
from models.resources import validation_dir

TB = 10**12

RAMP_DRIVE = "netapp-1500gb-nvme-ssd-a800"
"""The NVMe SSD record used for the A900 / A90 ramps: the tested drives are not in the readable part of the
results, and this is the catalog's only NetApp NVMe SSD (its per-I/O service times are themselves assumed)."""

DRIVES_PER_HA_PAIR = 24
"""assumed: one 24-bay NVMe shelf per HA pair (the A90 result names 'one internal FS4483 disk shelf' per system;
the drive count in it is not readable; the A900's shelves are not readable at all)."""

CLIENTS_PER_HA_PAIR = 4
"""assumed: SPECstorage load-generating clients per HA pair, each with a dual-port 25GbE NIC (the client count is
not in the readable part of the results; enough ports that the clients' links do not bound the load)."""

OUTSTANDING_OPS_PER_CLIENT = 64
"""assumed: outstanding operations per client for the closed ramp (the predictions at the load levels use the open
model at the published Ops/s, so this only shapes the drawn closed curve)."""

SFS2008_NFSV3_MIX = {"lookup": 24.0, "read": 18.0, "write": 10.0, "getattr": 26.0, "readlink": 1.0, "readdir": 1.0,
                     "create": 1.0, "remove": 1.0, "fsstat": 1.0, "setattr": 4.0, "readdirplus": 2.0, "access": 11.0}
"""The SPEC SFS 2008 NFSv3 operation mix, percent of operations (M. Eisler, "More on SPEC SFS 2008", NetApp blog,
April 2008, as cited in models.performance.nas and the bundled NFS example)."""

DATA_SHARE = (SFS2008_NFSV3_MIX["read"] + SFS2008_NFSV3_MIX["write"]) / 100.0
"""Share of the mix's operations that move data (reads and writes): 0.28."""

DATA_READ_PCT = 100.0 * SFS2008_NFSV3_MIX["read"] / (SFS2008_NFSV3_MIX["read"] + SFS2008_NFSV3_MIX["write"])
"""Reads among the data operations, percent (18 / 28 = 64%), the workload's ``read_pct`` (the path's read
fraction comes from the whole mix)."""


def data_block_kib(kib_per_operation: float) -> float:
    """The data moved by one read or write, KiB, from a ramp's mean data per operation (published MB/s over
    published Ops/s, every operation counted): divided by :data:`DATA_SHARE` (metadata operations move none)."""
    return kib_per_operation / DATA_SHARE


SWBUILD_DATASET_BYTES = 4 * TB
"""assumed: the file set's size is not in the readable part of the result; 4 TB (larger than the HA pair's memory,
so the cache hit ratio is partial)."""

EDA_DATASET_BYTES = 16 * TB
"""assumed: the file set's size is not in the readable part of the result; 16 TB for 8 nodes (4 TB per HA pair, as
for the A900 ramp)."""


def _ontap_cluster(name: str, controller: str, software: str, ha_pairs: int, workload_id: str, block_kib: float,
                   dataset_bytes: int, target_ops: float | None, shelf: str = "netapp-ns224",
                   drive: str = RAMP_DRIVE, shelves_per_ha_pair: int = 1, drives_per_shelf: int = DRIVES_PER_HA_PAIR,
                   backend: tuple[str, int] = ("pcie-nvme", DRIVES_PER_HA_PAIR), network: str = "25",
                   adp: str = "root-data-data", working_set_bytes: int | None = None) -> Scenario:
    """An ONTAP cluster of ``ha_pairs`` HA pairs of catalog ``controller`` as one controller node of 2 x ha_pairs
    nodes, ``shelves_per_ha_pair`` shelves of catalog ``shelf`` per HA pair with ``drives_per_shelf`` ``drive``
    drives each (back-end link type and ports per shelf: ``backend``), RAID DP with ``adp`` partitioning and one
    spare per node, :data:`CLIENTS_PER_HA_PAIR` clients per HA pair on 10GbE or 25GbE (``network`` "10" / "25");
    one NFSv3 workload of the :data:`SFS2008_NFSV3_MIX` whose reads and writes move ``block_kib`` KiB each,
    random, over ``dataset_bytes`` bytes (working set ``working_set_bytes``, None = all of it), at ``target_ops``
    operations per second, every operation counted (None: closed ramp only)."""
    clients = CLIENTS_PER_HA_PAIR * ha_pairs
    nodes = [
        HostNode(id="clients", catalog_id="fujitsu-primergy-rx300-s7", count=clients,
                 adapter=f"generic-nic-{network}gbe-2p"),
        ControllerNode(id="cluster", catalog_id=controller, software=software, nodes=2 * ha_pairs,
                       raid_type="raid_dp", spares_per_node=1, adp=adp),
    ]
    links = [Link(id="l-clients", source="clients", target="cluster", link_type=f"iscsi-{network}g",
                  ports=2 * clients)]
    for k in range(ha_pairs * shelves_per_ha_pair):
        nodes.append(ShelfNode(id=f"shelf{k + 1}", catalog_id=shelf, drive=drive, drive_count=drives_per_shelf))
        links.append(Link(id=f"l-shelf{k + 1}", source="cluster", target=f"shelf{k + 1}", link_type=backend[0],
                          ports=backend[1]))
    w = Workload(id=workload_id, name=workload_id, target="cluster", block_kib=block_kib, read_pct=DATA_READ_PCT,
                 random_pct=100, nas=NasWorkload(protocol="NFSv3", op_mix=dict(SFS2008_NFSV3_MIX)),
                 concurrency=OUTSTANDING_OPS_PER_CLIENT * clients, slo_ms=2.0,
                 dataset_bytes=dataset_bytes, working_set_bytes=working_set_bytes, target_iops=target_ops)
    return Scenario(name=name, nodes=nodes, links=links, workloads=[w])


def a900_swbuild(block_kib: float, target_ops: float | None = None) -> Scenario:
    """SPECstorage Solution 2020_swbuild, NetApp 2-node AFF A900 with FlexGroup (result
    storage2020-20231002-00055): one AFF A900 HA pair (``netapp-aff-a900``, ONTAP 9.14 assumed), NFSv3 with the
    SPEC SFS 2008 mix as a proxy; ``block_kib``: data per read or write (:func:`data_block_kib`); ``target_ops``:
    operations per second of the load level (None: the closed ramp only). Data set, drives and clients are
    assumptions (:data:`SWBUILD_DATASET_BYTES`, :data:`DRIVES_PER_HA_PAIR`, :data:`CLIENTS_PER_HA_PAIR`)."""
    return _ontap_cluster("AFF A900 SPECstorage swbuild", "netapp-aff-a900", "9.14", 1, "swbuild", block_kib,
                          SWBUILD_DATASET_BYTES, target_ops)


def a90_eda(block_kib: float, target_ops: float | None = None) -> Scenario:
    """SPECstorage Solution 2020_eda_blended, NetApp 8-node AFF A90 with FlexGroup (result
    storage2020-20240708-00080): 4 AFF A90 HA pairs (``netapp-aff-a90``, ONTAP 9.15 assumed) as one 8-node
    controller node (load spread evenly), NFSv3 with the SPEC SFS 2008 mix as a proxy; ``block_kib``: data per read
    or write (:func:`data_block_kib`); ``target_ops``: operations per second of the load level (None: closed ramp
    only). Data set, drives and clients are assumptions (:data:`EDA_DATASET_BYTES`, :data:`DRIVES_PER_HA_PAIR`,
    :data:`CLIENTS_PER_HA_PAIR`)."""
    return _ontap_cluster("AFF A90 8-node SPECstorage eda_blended", "netapp-aff-a90", "9.15", 4, "eda", block_kib,
                          EDA_DATASET_BYTES, target_ops)


SFS2008_MB_PER_OPS = 120 * 10**6
"""SPECsfs2008 creates 120 MB of file data per requested op/s (Avere Systems blog, 15 Oct 2009, 'Avere's
record-setting performance results': 'SPECsfs2008 creates 120 MB of data per op/sec'), bytes. The file set is
sized on the peak requested load, the same at every load level of the ramp: the SFS load generator has based its
file set size on the peak load value since 1992 (SPEC SFS 3.0 source, sfs_c_man.c, revision history 0.1.9:
'Implemented Mark Wittle's proposal to base File Set Size on peak load value, added "-L peak_load" option'),
kept here for SPECsfs2008, whose harness derives from it (the 2008 source itself was not read)."""

SFS2008_ACCESSED_SHARE = 0.30
"""SPECsfs2008 accesses 30% of its file set (same source: 'the percentage of data accessed has increased from
10% in SFS97 to 30% in SFS08'): the working set."""

SFS2008_BLOCK_KIB = 8.0
"""assumed: SPECsfs2008 prints no MB/s; its reads and writes are modelled as 8 KiB transfers each (the mix's
transfer sizes are not in the material readable offline)."""

FAS3140_SHELVES = 4
"""assumed: 4 shelves of 24 SATA drives (96 drives) behind the HA pair; the tested drive count is not readable."""


def fas3140_sfs2008(block_kib: float, target_ops: float | None = None, peak_ops: float = 40011) -> Scenario:
    """SPECsfs2008_nfs.v3, NetApp FAS3140 with SATA disks and Performance Acceleration Module (result
    sfs2008-20081215-00112): one FAS3140 HA pair (``netapp-fas3140``, Data ONTAP 7.3 assumed) with
    :data:`FAS3140_SHELVES` shelves of 24 X302A 1TB SATA drives (assumed), NFSv3 with the SPEC SFS 2008 mix (the
    benchmark's own) on 10GbE; the file set is :data:`SFS2008_MB_PER_OPS` x the peak requested load (``peak_ops``) and
    the working set :data:`SFS2008_ACCESSED_SHARE` of it. The PAM read cache is not modelled. ``block_kib``: data per
    read or write (:data:`SFS2008_BLOCK_KIB` for this ramp); ``target_ops``: the load level (None: closed ramp only)."""
    dataset = int(SFS2008_MB_PER_OPS * peak_ops)
    return _ontap_cluster("FAS3140 SATA SPECsfs2008", "netapp-fas3140", "7.3", 1, "sfs2008", block_kib,
                          dataset, target_ops, shelf="netapp-ds4246",
                          drive="netapp-x302a-1tb-sata-7k2", shelves_per_ha_pair=FAS3140_SHELVES, drives_per_shelf=24,
                          backend=("sas-6g", 4), network="10", adp="none",
                          working_set_bytes=int(dataset * SFS2008_ACCESSED_SHARE))


TIB = 2**40

_LARGE_VOLUMES = ("Microsoft Learn, 'Requirements and considerations for Azure NetApp Files large volumes' "
                  "(learn.microsoft.com/azure/azure-netapp-files/large-volumes-requirements-considerations) and the "
                  "training module 'Performance considerations for large volumes' "
                  "(learn.microsoft.com/training/modules/azure-netapp-files-performance/2-large-volumes)")
_LARGE_BENCH = ("Microsoft Learn, 'Azure NetApp Files large volume performance benchmarks for Linux' "
                "(learn.microsoft.com/azure/azure-netapp-files/performance-large-volumes-linux, 05/01/2023), "
                "'Linux scale-out', 8-KiB random workload, 1 TiB working set")

ANF_LARGE_VOLUME = ManagedService.model_validate({
    "id": "azure-netapp-files-large-volume-ultra",
    "name": "Azure NetApp Files large volume, Ultra service level",
    "vendor": "Microsoft / NetApp", "provider": "Azure", "service": "Azure NetApp Files", "service_level": "Ultra",
    "protocols": ["NFS", "SMB"],
    "throughput_mibps_per_tib": 128, "max_throughput_mbps": 12_800 * 2**20 / 1e6,
    "max_read_iops": 709_000, "max_write_iops": 474_000,
    "latency_us": 400, "min_capacity_bytes": 50 * TIB, "max_capacity_bytes": 1_024 * TIB,
    "notes": "One large volume (not breakthrough mode), described for the validation ramp only: not a bundled "
             "catalog record, so no design uses it.",
    "provenance": {
        "throughput_mibps_per_tib": {"kind": "sourced", "source": _LARGE_VOLUMES + ": 'Ultra (128 MiB/s per TiB)'"},
        "max_throughput_mbps": {"kind": "sourced", "source": _LARGE_VOLUMES + ": maximum throughput for the capacity "
                                "tier 12,800 MiB/s (= 13,421.8 MB/s)"},
        "max_read_iops": {"kind": "sourced", "source": _LARGE_BENCH + ": 'between ~474,000 pure random writes and "
                          "~709,000 pure random reads' (8 KiB, where the regular records' figures are 4 KiB)"},
        "max_write_iops": {"kind": "sourced", "source": _LARGE_BENCH + ": ~474,000 pure random writes (as "
                           "max_read_iops)"},
        "latency_us": {"kind": "assumed", "source": "as the regular-volume records (azure-netapp-files-standard): "
                       "Microsoft publishes no light-load latency figure for a large volume; 0.4 ms is an "
                       "engineering assumption, kept so that the ramp it is checked on stays a prediction"},
        "min_capacity_bytes": {"kind": "sourced", "source": _LARGE_VOLUMES + ": 'You must create a large volume at "
                               "a size of 50 TiB or larger'"},
        "max_capacity_bytes": {"kind": "sourced", "source": _LARGE_VOLUMES + ": maximum volume size 1,024 TiB (2 PiB "
                               "on request)"},
        "iops_per_gib": {"kind": "sourced", "source": "Microsoft Learn, 'Service levels for Azure NetApp Files': "
                         "the service levels are throughput limits; no IOPS limit per capacity is published (0: none)"},
    },
})
"""An Azure NetApp Files large volume at the Ultra service level, from Microsoft's published large-volume limits,
for the SPECstorage ramp of result storage2020-20250929-00143 only (:data:`RAMP_CATALOG_ENTRIES`): the bundled
catalog describes regular volumes (at most 4,500 MiB/s and 100 TiB), and a bundled large-volume record would be
offered by the sizer in every search with managed services, which this validation record does not change."""

ANF_LARGE_VOLUME_BYTES = 100 * TIB
"""assumed: the tested volume's size and service level are not in the readable part of the result; 100 TiB at
Ultra (128 MiB/s per TiB) is the smallest large volume whose throughput limit is the published 12,800 MiB/s ceiling
(a Premium volume of 200 TiB or more has the same limit). Chosen with the result's MB/s in view: its peak (12,780
MB/s = 12,188 MiB/s) needs a limit of at least that, within 5% of the ceiling, so the ramp's saturation check is
in-sample (:data:`RAMP_SATURATION_INPUTS`); the ceiling is Microsoft's figure, and the latency checks stay
predictions (the limit's queue adds microseconds at the published load levels)."""

ANF_CLIENTS = 16
"""assumed: load-generating client VMs (the client count is not in the readable part of the result): only the closed
ramp's outstanding operations (x :data:`OUTSTANDING_OPS_PER_CLIENT`); the managed service's path has no client
stations (the client network round trip is a fixed delay, models.performance.managed.CLIENT_RTT_US), so the
predictions at the load levels do not depend on it."""


def anf_large_volume_eda(block_kib: float, target_ops: float | None = None) -> Scenario:
    """SPECstorage Solution 2020_eda_blended, Microsoft and NetApp: Azure NetApp Files large volume (result
    storage2020-20250929-00143): one large volume (:data:`ANF_LARGE_VOLUME`, :data:`ANF_LARGE_VOLUME_BYTES`
    provisioned), NFSv3 with the SPEC SFS 2008 mix as a proxy; ``block_kib``: data per read or write
    (:func:`data_block_kib`); ``target_ops``: operations per second of the load level (None: closed ramp only).
    The path is the managed service's (models.performance.managed): the client round trip and the service's
    light-load latency as delays, its published throughput and operation limits as queues."""
    nodes = [ManagedServiceNode(id="volume", catalog_id=ANF_LARGE_VOLUME.id, provisioned_bytes=ANF_LARGE_VOLUME_BYTES)]
    w = Workload(id="eda", name="eda", target="volume", block_kib=block_kib, read_pct=DATA_READ_PCT, random_pct=100,
                 nas=NasWorkload(protocol="NFSv3", op_mix=dict(SFS2008_NFSV3_MIX)),
                 concurrency=OUTSTANDING_OPS_PER_CLIENT * ANF_CLIENTS, slo_ms=2.0,
                 dataset_bytes=EDA_DATASET_BYTES, target_iops=target_ops)
    return Scenario(name="Azure NetApp Files large volume SPECstorage eda_blended", nodes=nodes, links=[],
                    workloads=[w])


RAMP_BUILDERS = {"a900_swbuild": a900_swbuild, "a90_eda": a90_eda, "fas3140_sfs2008": fas3140_sfs2008,
                 "anf_large_volume_eda": anf_large_volume_eda}
"""Builder name (``setup`` of a ``[[ramp]]`` case) -> scenario builder (data KiB per read or write,
target operations per second)."""

RAMP_SATURATION_INPUTS = {"anf_large_volume_eda": (
    "input: the tested volume's size is not published; it was assumed at Microsoft's 12,800 MiB/s large-volume "
    "ceiling with the result's peak MB/s in view")}
"""Builder name -> why its ramp's saturation check is in-sample: a scenario input chosen with the published peak in
view (``Check.fitted_by``); the ramp's latency checks stay predictions."""

RAMP_CATALOG_ENTRIES: dict[str, tuple[ManagedService, ...]] = {"anf_large_volume_eda": (ANF_LARGE_VOLUME,)}
"""Builder name -> records its scenario needs beyond the bundled catalog (added with ``Catalog.with_entries`` for
that ramp only): the tested system described from its provider's published limits."""


SHAPE_LEVELS_PCT = (50, 80, 90)
"""Load levels (% of the peak) whose latency over the 10% level's is compared (``knee_ratio_<pct>_to_10``)."""

SHAPE_LIGHT_SHARE = 0.1
"""The light-load reference of a shape ratio: the ramps' 10% level, read on the model at 10% of its own
saturation."""


def block_kib_of(point: dict[str, Any], default_kib: float | None = None) -> float:
    """A load level's data per read or write, KiB: published MB/s (10^6 bytes/s) over published Ops/s, divided by
    the mix's data share (:func:`models.performance.public_ramps.data_block_kib`); a ramp that prints no MB/s uses
    ``default_kib`` (its case's ``block_kib``, an assumption). Raises KeyError when the point has no MB/s and no
    default is given."""
    if "mbps" not in point:
        if default_kib is None:
            raise KeyError(f"load level {point.get('pct')}% prints no MB/s and the case gives no block_kib")
        return float(default_kib)
    return data_block_kib(point["mbps"] * 1e6 / point["ops_per_sec"] / 1024)


def mean_block_kib(points: list[dict[str, Any]], default_kib: float | None = None) -> float:
    """A ramp's data per read or write over all its load levels, KiB (total MB/s over total Ops/s, then
    :func:`models.performance.public_ramps.data_block_kib`), or ``default_kib`` when the ramp prints no MB/s."""
    if any("mbps" not in p for p in points):
        return block_kib_of(points[0], default_kib)
    return data_block_kib(sum(p["mbps"] for p in points) * 1e6 / sum(p["ops_per_sec"] for p in points) / 1024)


def published_shape(points: list[dict[str, Any]]) -> dict[int, float]:
    """Published latency at the :data:`SHAPE_LEVELS_PCT` load levels over that at the 10% level: {50: ratio,
    80: ratio, 90: ratio} (levels the ramp lacks are left out). Raises KeyError when the ramp has no 10% level."""
    by_pct = {int(p["pct"]): p["latency_ms"] for p in points}
    light = by_pct[10]
    return {pct: by_pct[pct] / light for pct in SHAPE_LEVELS_PCT if pct in by_pct}

def ramp_cases() -> list[dict[str, Any]]:
    """The ``[[ramp]]`` tables of resources/validation/ramps.toml (the public measured ramps), in file order."""
    with open(validation_dir() / "ramps.toml", "rb") as handle:
        return list(tomllib.load(handle).get("ramp", []))
