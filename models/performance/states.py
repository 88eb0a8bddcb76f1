"""The bad day: a workload's I/O path in a failure state, as a transformation of its stations.

Each state returns the degraded :class:`WorkloadPath` (the engine then solves it like any other path) and a
reason in words; a state that does not apply to the path returns None. The transformations:

* **takeover** (an HA pair of controllers): the surviving node 1 serves its partner's work: the demand of each of
  node 2's controller stations (:data:`models.performance.stations.CONTROLLER_ROLES`: CPU, WAFL affinities, data
  path, Flash Cache, back-end lanes) moves onto node 1's station of the same role and index (its CPU, data path and
  back-end lanes now carry all the I/O: the survivor reaches its partner's drives through its own back-end ports,
  ONTAP "storage failover takeover"); NVRAM mirroring to the partner stops (both nodes' ``nvram`` stations and the
  ``ha_mirror`` delay go); the failed node's target ports go down (ALUA moves the hosts' paths to the survivor's
  ports: half of them remain). The drives stay, owned by the survivor. In a cluster of several HA pairs modelled
  as one controller of N nodes, only node 2 fails: nodes 3..N keep their work and their mirroring.
* **path_loss**: one target port (else one host port) is lost; multipathing spreads its load over the rest.
* **drive_rebuild**: one drive of the system has failed and is being rebuilt onto a spare: one RAID group is
  degraded, the others run as normal. The drive pool holding it (the first node's: the pools of a symmetric
  design are alike) loses it from its largest RAID group (:func:`degraded_group`, the groups being that node's
  groups of the system's RAID layout, ``models.capacity.layout``). A pool of several groups is split: that group's
  drives (its share of the pool's drives, one fewer) carry its share of the pool's demand, a read that would have
  gone to the failed drive being reconstructed from the other members of its group (``width - 1`` reads for RAID
  DP, RAID-TEC, RAID 6 and DDP's 8+2 stripes), and the rebuild itself keeps them :data:`REBUILD_UTILISATION`
  busy (a background load, the ONTAP default ``raid.reconstruct.perf_impact medium``: assumed, see the constant);
  the pool's other groups keep their drives and their demand per drive, with no rebuild load (station index 0,
  the degraded group index 1: :class:`models.performance.stations.StationId`). A pool of one group (a node of one
  RAID group, a Dynamic Disk Pool) is that group: all of it degraded. No RAID / RAID 0 has nothing to rebuild.
  The other nodes' pools keep all their drives and carry no rebuild load (a reconstruction reads only the
  surviving members of the failed drive's group: Patterson, Gibson & Katz 1988, "A case for redundant arrays of
  inexpensive disks (RAID)", degraded-mode operation of one group; ONTAP reconstructs a failed drive's RAID
  group). WAFL spreads every volume's blocks over all the groups of an aggregate, so the degraded group's
  drives, each reading its own blocks and its share of the reconstruction, are the busiest of the pool.
* **host_failure** (vSAN): one host of the cluster is down: its share of the host-level stations (network,
  CPU, disk groups, drives, and a hybrid OSA cluster's cache SSDs with the read cache they hold) is gone: the
  state's capacity-drive and cache-device stations are those of the cluster with one host fewer (the same path
  built for ``hosts - 1``, so the sizer's N+1 check of that smaller cluster and this state see the same disk
  groups: :data:`SURVIVOR_ROLES`); resync of its components to the others keeps the remaining capacity drives and
  network :data:`RESYNC_UTILISATION` busy (vSAN rebuilds after the 60-minute repair delay; assumed load). A
  stretched cluster goes by site (:func:`_stretched_host_failure`): the failed host's site carries its half of the
  work on one host fewer and binds; the other site runs as normal.
* **cloud_failover** (Cloud Volumes ONTAP HA): the partner VM serves the workload and mirroring stops (the
  HA partner's CPU and log write and the mirror round trip go). With the workload on one node of the pair, a failover
  does not halve anything: the reason says so.
* **switchover** (MetroCluster IP or FC): the partner site serves the workload from its own plex and mirroring to
  the failed site stops (the inter-site delay goes). When the partner site runs the same workloads as this one
  (the controller's ``partner_site_load = "mirror"``, a symmetric active-active MetroCluster), its HA pair serves
  both sites' workloads: their controller stations' load enters as background, so saturation falls; when it runs
  none (active-passive), the partner's HA pair is the same model and saturation does not fall.

* **site_failure** (a vSAN stretched cluster, ``models.capacity.stretched``): one data site is lost; vSphere HA
  restarts its VMs at the surviving site, whose hosts serve every workload of the cluster with only their local
  protection (the policy inside the site): the host stations (network, CPU, software path, drives) keep half their
  hosts and devices, a write is written at one site instead of two (the lost site's copy, which normal operation
  wrote in parallel with this site's and counts as load only: ``models.performance.paths._stretched_stations``,
  goes: the write work there halves, the write's own wait at the surviving site does not change), and it no longer
  waits for the inter-site round trip nor crosses the inter-site link (both stations go): at light load a write is
  faster by the round trip only. Reads were already served by the VM's site (read locality), so the surviving
  hosts now carry all of them: saturation falls. No resync runs (there is no other site to rebuild the lost copy
  on until the site returns).

A state that stops work of normal operation (the mirroring to a failed partner: takeover's NVRAM mirroring,
a cloud failover's and a MetroCluster switchover's mirror round trips) can be faster than normal operation at
the same load (the mirror's wait goes) or saturate later (the HA interconnect was the bottleneck). It says so as
data, not only in words: ``DegradedPath.relieved`` names each station whose work stops and the share of it that
stops; nothing else in a state may beat normal operation (tests/test_engine_invariants.py checks it against
normal operation less that work).

Background loads (rebuild, resync) are returned as other workloads' utilisation the engine already knows how to
add (``solve_workload``'s ``others``: a pseudo-path of the same station names at one I/O per second whose demand is
the utilisation times the station's capacity).

Every state finds its stations by their typed identity (``StationSpec.ident``, a
:class:`models.performance.stations.StationId` of node, role and index), never by their display names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from models.capacity.layout import RaidGroup, describe_raid_groups
from models.performance.paths import StationSpec, WorkloadPath, intern_stations
from models.performance.stations import CONTROLLER_ROLES, PORT_ROLES, ROLE_WORDS, StationId, node_words

STATES = ("takeover", "path_loss", "drive_rebuild", "host_failure", "cloud_failover", "switchover", "site_failure")
"""Every failure state, in the order results list them."""

REBUILD_UTILISATION = {"low": 0.1, "medium": 0.3, "high": 0.6}
"""assumed: share of each surviving drive's time a RAID reconstruction takes at each level of ONTAP's
``raid.reconstruct.perf_impact`` option (low / medium, the default / high: the option is listed in NetApp's ONTAP
REST API mapping of the raid options, docs.netapp.com/us-en/ontap-restmap-9141/options.html; ONTAP documents the
levels but no numbers). 10 / 30 / 60% are engineering assumptions, used for E-Series reconstruction priority and
other arrays alike; the controller's ``rebuild_impact`` field chooses the level."""

RESYNC_UTILISATION = 0.2
"""assumed: share of the remaining capacity drives' and network's time vSAN's resync of a failed host's
components takes (vSAN's resync throttling is adaptive; no public figure)."""

CLOUD_MIRROR_ROLES = frozenset({"ha_partner_cpu", "ha_partner_log_write", "ha_mirror_round_trip"})
"""The stations of a Cloud Volumes ONTAP HA pair's write mirroring, which a failover removes."""

SITE_ROLES = frozenset({"network", "cpu", "software_limit", "drives", "cache_drives"})
"""The stations of a vSAN cluster's hosts, half of which a site failure takes away."""

INTERSITE_ROLES = frozenset({"intersite_rtt", "intersite_link"})
"""A stretched cluster's inter-site stations, which a site failure removes."""

RESYNC_ROLES = frozenset({"drives", "network"})
"""The stations a vSAN resync loads: the capacity drives (or ESA storage-pool devices) and the network; not the
cache tier."""

SURVIVOR_ROLES = frozenset({"drives", "cache_drives"})
"""The stations of a vSAN OSA cluster (one with a cache tier) that a host failure takes from the path built on the
cluster with one host fewer (``host_failure``): the capacity drives and the cache devices, whose split of the
reads is set by the size of the cache tier (a hybrid cluster's read cache) and whose service times by the stored
data's share of each surviving drive (short stroking). The other stations keep the normal path's demand per I/O
over one host's share fewer devices: the share of replica traffic that crosses the network and the delays are set
by where the components are, which a failure does not move, and an ESA cluster (no cache tier) keeps its
adaptive RAID-5 stripe (vSAN changes it only when the cluster's size changes for good)."""

CACHE_NOTE = "vSAN hybrid read cache hit"
"""How a vSAN hybrid path's note of its read-cache hit ratio begins (``models.performance.paths``), which a host
failure replaces with the surviving cache tier's."""

REBUILD_ROLES = frozenset({"drives", "drive_transfer"})
"""The stations of a node's drive pool, which a drive rebuild degrades and loads."""


@dataclass(frozen=True)
class DegradedPath:
    """A path in a failure state: the path, the reason in words, and background load as (pseudo-path, rate)
    pairs for ``solve_workload``'s ``others``; ``rebuild_hours``: the time to rebuild (drive_rebuild only);
    ``relieved``: (station name in the normal path, share 0..1 of its demand that stops) for the work of normal
    operation the state stops (module docstring), empty when it stops none."""

    state: str
    path: WorkloadPath
    reason: str
    background: tuple[tuple[WorkloadPath, float], ...] = ()
    rebuild_hours: float | None = None
    relieved: tuple[tuple[str, float], ...] = ()
    label: str = ""
    """the state's name in words where the platform calls it otherwise than its id (an E-Series takeover is a
    "controller failover"); "" = the id's usual words (``models.present.resilience.STATE_NAMES``)."""


def _respec(spec: StationSpec, **changes: object) -> StationSpec:
    """``dataclasses.replace(spec, **changes)`` of a station (no ``__post_init__`` to run): the same fields, filled
    in directly (a failure state rebuilds many stations of many workloads; ``replace`` costs several times more)."""
    new = object.__new__(StationSpec)
    fields = new.__dict__
    fields.update(spec.__dict__)
    fields.update(changes)
    return new


def _with(path: WorkloadPath, stations: list[StationSpec], note: str) -> WorkloadPath:
    """``path`` with new stations and one more note (``dataclasses.replace`` of it, its fields filled in directly: a
    frozen dataclass with no ``__post_init__``; the read fraction it caches is found anew, as on a replaced one).
    The stations tuple is interned (``paths.intern_stations``, as a normal path's): the next evaluation's same state
    of an unchanged path gets the same tuple object, whose arrays, band bases and input SDs the engine then finds by
    its identity instead of building them again."""
    new = object.__new__(WorkloadPath)
    fields = new.__dict__
    fields.update(path.__dict__)
    fields.pop("read_fraction", None)
    fields.update(stations=intern_stations(tuple(stations)), notes=(*path.notes, note))
    return new


def _background(path: WorkloadPath, stations: list[StationSpec], utilisation: float) -> tuple[WorkloadPath, float]:
    """A pseudo-path that loads ``stations`` (names as in the degraded path) to ``utilisation`` each at a rate of
    one I/O per second: demand = utilisation x capacity, reads only."""
    load = [StationSpec(s.name, s.component, utilisation * s.capacity, 0.0, s.servers, False, s.storage_side,
                        s.kind, 0.0, s.multiplicity, s.scv_service, s.scv_arrival, s.ident) for s in stations]
    w = path.workload
    # the workload copied with three fields changed, valid by construction (an id of the pattern and at most 71
    # characters, 100% reads, no NAS mix): ``model_copy`` instead of ``with_changes``, whose dump and re-validation
    # of every field was half of a drive rebuild state's cost
    pseudo = replace(path, stations=tuple(load),
                     workload=w.model_copy(update={"id": f"{w.id[:60]}.background", "read_pct": 100.0, "nas": None}))
    return pseudo, 1.0


def takeover(path: WorkloadPath, family: str = "ONTAP") -> DegradedPath | None:
    """Node 1 serves its HA partner's (node 2's) work (module docstring); None unless the path has both nodes' CPU
    stations. In a cluster of several HA pairs (nodes 3..N, ONTAP's node k and k+1 being partners), the other
    pairs are unchanged: they keep their stations and their NVRAM mirroring, so the mirror delay stays for the
    share of the writes they take, (N - 2) / N, and one node's target ports of N go down. Each of the failed
    node's controller stations (``StationId.of_controller_node``) is summed into the survivor's station of the
    same role and index, so the pair's demand is conserved; its drives stay where they are.

    ``family``: the controller's catalog family; only the words depend on it: an E-Series array's two controllers
    are not an ONTAP HA pair, its state is a "controller failover" (the surviving controller takes ownership of the
    failed one's volumes) and what stops is the write cache mirroring between the controllers (the same ``nvram``
    and ``ha_mirror`` stations, named so by ``models.performance.paths``)."""
    failed, survivor = 2, 1
    idents = {s.ident for s in path.stations}
    if StationId("cpu", node=failed) not in idents or StationId("cpu", node=survivor) not in idents:
        return None
    nodes = max(i.node for i in idents if i.role == "cpu" and i.node is not None)
    moved: dict[StationId, StationSpec] = {}
    out: list[StationSpec] = []
    relieved: list[tuple[str, float]] = []
    for s in path.stations:
        ident = s.ident
        if ident.role == "nvram" and ident.node in (survivor, failed):
            relieved.append((s.name, 1.0))
            continue  # the survivor no longer mirrors, and its partner is down
        if ident.role == "ha_mirror":
            if nodes > 2:  # writes on the other HA pairs are still mirrored
                share = (nodes - 2) / nodes
                out.append(_respec(s, read_s=s.read_s * share, write_s=s.write_s * share))
            relieved.append((s.name, 1.0 - share if nodes > 2 else 1.0))
            continue
        if ident.of_controller_node and ident.node == failed and ident.on_node(survivor) in idents:
            moved[ident.on_node(survivor)] = s
            continue
        out.append(s)
    merged = []
    for s in out:
        partner = moved.get(s.ident)
        if partner is not None:
            s = _respec(s, read_s=s.read_s + partner.read_s, write_s=s.write_s + partner.write_s,
                        write_async_s=s.write_async_s + partner.write_async_s,
                        read_visit=min(s.read_visit + partner.read_visit, 1.0) if s.branch else s.read_visit,
                        write_visit=min(s.write_visit + partner.write_visit, 1.0) if s.branch else s.write_visit)
        if s.ident.role == "target_ports" and s.multiplicity >= 2:
            s = _respec(s, multiplicity=max(1, round(s.multiplicity * (nodes - 1) / nodes)))
        merged.append(s)
    label = ""
    if family == "E-Series" and nodes == 2:
        label = "controller failover"
        reason = ("controller failover: controller B has failed and controller A takes ownership of its volumes, "
                  "serving both controllers' I/O on its own CPU, data path and back-end ports; write cache "
                  "mirroring between the controllers stops; half the target ports remain")
    elif nodes > 2:
        reason = (f"takeover: node 2 has failed and its HA partner, node 1, serves both nodes' I/O on its own CPU, "
                  f"data path and back-end ports; their NVRAM mirroring stops; the other {nodes - 2} nodes are "
                  f"unchanged; {nodes - 1} of {nodes} nodes' target ports remain")
    else:
        reason = ("takeover: node 2 has failed and node 1 serves both nodes' I/O on its own CPU, data path and "
                  "back-end ports; NVRAM mirroring stops; half the target ports remain")
    return DegradedPath("takeover", _with(path, merged, reason), reason, relieved=tuple(relieved), label=label)


def path_loss(path: WorkloadPath) -> DegradedPath | None:
    """One target port (else host port) lost; None without a port station of two or more ports."""
    for role in PORT_ROLES:
        port = next((s for s in path.stations if s.ident.role == role and s.multiplicity >= 2), None)
        if port is not None:
            name = ROLE_WORDS[role]
            stations = [_respec(s, multiplicity=s.multiplicity - 1) if s is port else s for s in path.stations]
            reason = (f"path loss: one of the {port.multiplicity} {name} is down; multipathing spreads its load over "
                      f"the other {port.multiplicity - 1}")
            return DegradedPath("path_loss", _with(path, stations, reason), reason)
    return None


def degraded_group(groups: Sequence[RaidGroup], pool_drives: int, pools: int = 1) -> tuple[RaidGroup, int]:
    """The RAID group a drive rebuild degrades and how many of a pool station's drives stand for it.

    The failed drive is taken in the largest of ``groups`` (the likeliest: a group's share of the failures is its
    share of the drives; the first of equals). A station of ``pool_drives`` drives stands for its node's groups
    (``RaidGroup.node`` 1..N) or, for groups the whole system shares (node 0: an array's volume groups, which the
    model divides between its ``pools`` pool stations), for ``1 / pools`` of them; the failed group's drives in it
    are its share of those members, at least 2 (a failed drive and one that survives) and at most the pool.

    Args:
        groups: the redundant groups the pool stripes over (parity > 0), not empty.
        pool_drives: the pool station's drives (``StationSpec.multiplicity``); pools: the pool stations (distinct
            node and index) that share node-0 groups.

    Returns:
        (the failed drive's group, its drives in the station); the second equals ``pool_drives`` when the group is
        the whole pool (a node of one RAID group, a Dynamic Disk Pool)."""
    failed = max(groups, key=lambda g: g.members)
    total = sum(g.members for g in groups if g.node) + sum(g.members for g in groups if not g.node) / max(pools, 1)
    members = round(pool_drives * failed.members / total) if total > 0 else pool_drives
    return failed, min(pool_drives, max(2, members))


def drive_rebuild(path: WorkloadPath, groups: tuple[RaidGroup, ...], drive_bytes: float, drive_write_mbps: float,
                  impact: str = "medium", ddp: bool = False, family: str = "") -> DegradedPath | None:
    """One failed drive of the system being rebuilt, one RAID group degraded (module docstring); None without drive
    stations or without a RAID group that can rebuild (RAID 0 / no RAID: a failed drive's data is lost, there is
    nothing to reconstruct).

    Args:
        path: the normal path; groups: the RAID groups its drive stations stripe over (``path.raid_groups``, the
        system's ``models.capacity.layout.RaidLayout``): a read of the failed drive is reconstructed from the other
        ``width - 1`` members of its group, the largest of the first pool's (:func:`degraded_group`);
        drive_bytes: the failed drive's capacity, bytes; drive_write_mbps: the spare's write rate, MB/s (the
        rebuild writes it at the :data:`REBUILD_UTILISATION` of ``impact`` of that); impact: "low", "medium" or
        "high"; ddp: the groups are an E-Series Dynamic Disk Pool. Only the words depend on it: the model is the
        same (the failed drive is in the first node's share of the pool's drives, whose drive station takes the
        reconstruction reads and the rebuild load, the other node's share runs as normal; the time is one drive's
        capacity at the rebuild share of one drive's write rate). It does not spread the reconstruction over every
        drive of the pool nor credit the faster rebuild into preservation capacity that this gives a DDP, and the
        reason says so. family: the controller's catalog family; only the words depend on it (an E-Series
        array's controllers are "controller A" and "controller B": ``models.performance.stations.node_words``).

    The failed drive's group (:func:`degraded_group`) is split from a pool of several groups as stations of the
    same role and node, index 1 (the degraded group: its drives less the failed one, its share of the pool's
    demand with each read of the failed drive's share made ``width - 1`` reads, spread over them as a pool of one
    group spreads them, and the rebuild's background load) and index 0 (the other groups: the rest of the drives
    and of the demand, the same per drive as in normal operation, named "..., other RAID groups"). The latency
    counts a reconstructed read's reads as the engine counts any station's demand (their sum, not the slowest of
    them), as the pool of one group always has.

    Raises:
        KeyError: an unknown ``impact``.
    """
    busy = REBUILD_UTILISATION[impact]
    pools = [s for s in path.stations if s.ident.role in REBUILD_ROLES and s.multiplicity >= 2]
    redundant = [g for g in groups if g.parity > 0 and g.data > 0]
    if not pools or not redundant:
        return None
    # one failed drive in the whole system: the first pool (lowest node, then index) loses it; the other pools run
    # as in normal operation
    first = min(pools, key=lambda s: (s.ident.node or 0, s.ident.index or 0))
    drives = [s for s in pools if (s.ident.node, s.ident.index) == (first.ident.node, first.ident.index)]
    own = [g for g in redundant if g.node in (0, first.ident.node or 0)]
    redundant = own or redundant
    failed, members = degraded_group(redundant, first.multiplicity,
                                     len({(s.ident.node, s.ident.index) for s in pools}))
    reads = failed.width - 1  # reads per read of the failed drive: the other members of its stripe
    out = []
    degraded = {id(d) for d in drives}
    for s in path.stations:
        if id(s) not in degraded:
            out.append(s)
            continue
        m = s.multiplicity
        extra = max(reads - 1.0, 0.0) / (members - 1)  # a read of the failed drive: width - 1 reads, not 1
        if members >= m:  # the pool is the failed drive's group: all of it degraded (no split)
            out.append(_respec(s, multiplicity=m - 1, read_s=s.read_s * (1.0 + extra)))
            continue
        part = members / m  # the group's drives' share of the pool's demand, spread as in normal operation
        rest = (m - members) / m
        # on a branch (the reads that miss the cache) each part is visited by its share of those reads
        visits_rest = dict(read_visit=s.read_visit * rest, write_visit=s.write_visit * rest) if s.branch else {}
        visits_part = dict(read_visit=s.read_visit * part, write_visit=s.write_visit * part) if s.branch else {}
        out.append(_respec(s, multiplicity=m - members, read_s=s.read_s * rest, write_s=s.write_s * rest,
                           write_async_s=s.write_async_s * rest, **visits_rest,
                           name=f"{s.name}, other RAID groups", ident=StationId(s.ident.role, s.ident.node, 0)))
        out.append(_respec(s, multiplicity=members - 1, read_s=s.read_s * part * (1.0 + extra),
                           write_s=s.write_s * part, **visits_part, write_async_s=s.write_async_s * part,
                           name=f"{s.name}, degraded RAID group", ident=StationId(s.ident.role, s.ident.node, 1)))
    whole = members >= first.multiplicity
    # the rebuild's background load: on the degraded group's surviving drives only (all the pool when it is the group)
    hit = (first.ident.node, first.ident.index) if whole else (first.ident.node, 1)
    rebuilt = [s for s in out if s.ident.role in REBUILD_ROLES and (s.ident.node, s.ident.index) == hit]
    hours = drive_bytes / (busy * drive_write_mbps * 1e6) / 3600.0 if drive_write_mbps > 0 else None
    widths = sorted({g.width - 1 for g in redundant})
    others = str(widths[0]) if len(widths) == 1 else f"{widths[0]} to {widths[-1]}"  # (a whole pool's groups)
    member = "partitions" if all(g.partitioned for g in redundant) else "drives"
    owner = node_words(family, first.ident.node) if first.ident.node is not None else ""
    others_run = "the other controller's pool runs" if family == "E-Series" else "the other nodes' pools run"
    where = (f" (in {owner}'s drive pool; {others_run} as normal)"
             if first.ident.node is not None and len(pools) > len(drives) else "")
    if ddp:
        share = (f" {node_words('E-Series', first.ident.node)}'s share of them"
                 if first.ident.node is not None and len(pools) > len(drives) else " them")
        reason = (f"drive rebuild: one drive of the Dynamic Disk Pool has failed; its reads are reconstructed from "
                  f"the other {others} {member} of its stripe ({describe_raid_groups(groups)}) and the pool "
                  f"rebuilds the failed drive's data into its preservation capacity ({impact} impact); the model "
                  f"divides the pool's drives between the controllers and places the failed drive and the rebuild "
                  f"load in{share}, keeping those drives {busy:.0%} busy (assumed)"
                  + (f"; about {hours:.1f} h to rebuild, taken as one drive's capacity written at that share of one "
                     "drive's write rate (a pool spreads the rebuild over all its drives, which this estimate does "
                     "not credit)" if hours else ""))
        return DegradedPath("drive_rebuild", _with(path, out, reason), reason,
                            (_background(path, rebuilt, busy),), hours)
    if whole:
        reason = (f"drive rebuild: one drive has failed{where}; its reads are reconstructed from the other {others} "
                  f"{member} of its RAID group ({describe_raid_groups(groups)}) and the rebuild ({impact} impact) "
                  f"keeps that pool's drives {busy:.0%} busy (assumed)")
    else:  # the failed drive's group degraded, the pool's other groups as normal
        reason = (f"drive rebuild: one drive of a {failed.data}+{failed.parity} RAID group has failed{where}; its "
                  f"reads are reconstructed from the other {reads} {member} of that group "
                  f"({describe_raid_groups(groups)} in all) and the rebuild ({impact} impact) keeps that group's "
                  f"drives {busy:.0%} busy (assumed); the pool's other RAID groups run as normal")
    reason += f"; about {hours:.1f} h to rebuild" if hours else ""
    return DegradedPath("drive_rebuild", _with(path, out, reason), reason,
                        (_background(path, rebuilt, busy),), hours)


def host_failure(path: WorkloadPath, hosts: int, survivors: WorkloadPath | None = None) -> DegradedPath | None:
    """One vSAN host down (module docstring); None unless the path is vSAN with at least 3 hosts.

    ``survivors``: the same workload's path built on the cluster with one host fewer (``hosts - 1``, every other
    field the same). On a cluster with a cache tier (OSA) its capacity-drive and cache-device stations
    (:data:`SURVIVOR_ROLES`) are the state's: the surviving disk groups, with the read-cache hit ratio of the
    surviving cache tier (a hybrid OSA host's disk groups take their cache SSDs, its read cache and write buffer,
    down with it) and the surviving drives' share of the stored data. Every other station (and every station
    without ``survivors``: a path that cannot be built with one host fewer) keeps ``(hosts - 1) / hosts`` of its
    devices and its demand per I/O; delays are unchanged. A stretched cluster (a path with the inter-site round
    trip) goes by site: :func:`_stretched_host_failure`."""
    if path.protocol != "vSAN" or hosts < 3:
        return None
    if any(s.ident.role == "intersite_rtt" for s in path.stations):
        return _stretched_host_failure(path, hosts)
    keep = (hosts - 1) / hosts
    base, smaller = path, None
    if survivors is not None and [s.name for s in survivors.stations] == [s.name for s in path.stations] \
            and any(s.ident.role == "cache_drives" for s in path.stations):
        smaller = survivors.stations
        # the normal path's notes, its read-cache note (hybrid OSA) the surviving cache tier's
        cache_notes = [n for n in survivors.notes if n.startswith(CACHE_NOTE)]
        base = replace(path, notes=tuple(cache_notes[0] if n.startswith(CACHE_NOTE) and cache_notes else n
                                         for n in path.notes))
    out = []
    for i, s in enumerate(path.stations):
        if s.delay:
            out.append(s)
        elif smaller is not None and s.ident.role in SURVIVOR_ROLES:
            out.append(smaller[i])
        else:
            copies = s.multiplicity
            fewer = max(1, round(copies * keep)) if copies >= hosts else copies
            out.append(_respec(s, multiplicity=fewer))
    loaded = [s for s in out if s.ident.role in RESYNC_ROLES]
    cache = " (with their cache devices)" if any(s.ident.role == "cache_drives" for s in out) else ""
    # an OSA host's disk groups (each with its cache device); ESA has no cache tier and no disk groups: a storage pool
    devices = f"its disk groups{cache}" if cache else "its storage pool"
    reason = (f"host failure: one of {hosts} hosts is down; {devices}, CPU and network are gone and "
              f"resync of its components keeps the others' capacity drives and network {RESYNC_UTILISATION:.0%} "
              "busy (assumed)")
    return DegradedPath("host_failure", _with(base, out, reason), reason,
                        (_background(path, loaded, RESYNC_UTILISATION),))


def _stretched_host_failure(path: WorkloadPath, hosts: int) -> DegradedPath | None:
    """One host down in a vSAN stretched cluster of ``hosts`` (module docstring), by site: the cluster's host
    stations (:data:`SITE_ROLES`) carry, in normal operation, half their work at each data site of ``k = hosts / 2``
    hosts (``models.performance.paths._stretched_stations``: each site serves the reads of its own VMs, read
    locality with the VMs spread evenly over the sites, and writes one of the two copies of every write; a write
    waits for its own VM's site). Each station is split into its two sites, each with half of every part of its
    demand (reads, the waited writes, the asynchronous copy), so the latency at light load is unchanged: site A,
    the failed host's, keeps ``k - 1`` of its ``k`` hosts' devices (vSphere HA restarts that host's VMs on its
    site's other hosts, and the site's copy of every write now lands on them), site B keeps all of its. Site A
    binds: its hosts run at ``k / (k - 1)`` of their normal utilisation (4/3 on the 4 + 4 example), not the
    ``hosts / (hosts - 1)`` of one cluster-wide pool (8/7), so saturation falls to ``(k - 1) / k`` of normal where a
    host station bounds it. The resync of the failed host's components runs inside site A (each site protects its
    own copy: ``models.capacity.stretched``), so only that site's capacity drives and network carry
    :data:`RESYNC_UTILISATION`. Delays and the inter-site stations are unchanged; the demand per I/O is unchanged
    (as :func:`host_failure`: a read of a component on the failed host is served by the site's other components)."""
    k = hosts // 2
    if k < 2:
        return None
    out: list[StationSpec] = []
    failed_site: list[StationSpec] = []
    for s in path.stations:
        if s.delay or s.ident.role not in SITE_ROLES:
            out.append(s)
            continue
        half = s.multiplicity / 2
        parts = dict(read_s=s.read_s / 2, write_s=s.write_s / 2, write_async_s=s.write_async_s / 2)
        a = _respec(s, multiplicity=max(1, round(half * (k - 1) / k)), name=f"{s.name}, site A (host down)",
                    ident=StationId(s.ident.role, s.ident.node, 0), **parts)
        b = _respec(s, multiplicity=max(1, round(half)), name=f"{s.name}, site B",
                    ident=StationId(s.ident.role, s.ident.node, 1), **parts)
        out += [a, b]
        failed_site.append(a)
    loaded = [s for s in failed_site if s.ident.role in RESYNC_ROLES]
    cache = " (with their cache devices)" if any(s.ident.role == "cache_drives" for s in out) else ""
    devices = f"its disk groups{cache}" if cache else "its storage pool"
    reason = (f"host failure: one of the {k} hosts at data site A is down; {devices}, CPU and network are gone, "
              f"so site A's other {k - 1} hosts serve the reads of that site's VMs (vSphere HA restarts the host's "
              f"VMs on them) and hold site A's copy of every write, while site B's {k} hosts run as normal: site A "
              f"binds, its hosts {k / (k - 1):.2f}x as busy as in normal operation; resync of the failed host's "
              f"components inside site A keeps that site's capacity drives and network {RESYNC_UTILISATION:.0%} "
              "busy (assumed)")
    return DegradedPath("host_failure", _with(path, out, reason), reason,
                        (_background(path, loaded, RESYNC_UTILISATION),))


def cloud_failover(path: WorkloadPath) -> DegradedPath | None:
    """CVO HA failover (module docstring); None without the HA partner's CPU station."""
    if not any(s.ident.role == "ha_partner_cpu" for s in path.stations):
        return None
    out = [s for s in path.stations if s.ident.role not in CLOUD_MIRROR_ROLES]
    mirror = [s for s in path.stations if s.ident.role in CLOUD_MIRROR_ROLES]
    relieved = tuple((s.name, 1.0) for s in mirror)
    wait_ms = sum(s.write_s for s in mirror) * 1e3  # a write's mirror wait at light load (no queueing)
    reason = ("cloud failover: the partner VM serves the workload and write mirroring stops, so a write no longer "
              "waits for the mirror to the failed VM (network round trip, the partner's CPU and its NVRAM log write: "
              f"{wait_ms:.2f} ms per write at light load): latency at the same load is lower than in normal operation "
              "by up to that wait, not better hardware; the surviving VM has the same size and limits, so saturation "
              "does not fall (a partner VM that also serves workloads of its own adds them)")
    return DegradedPath("cloud_failover", _with(path, out, reason), reason, relieved=relieved)


def switchover(path: WorkloadPath,
               partner_load: Sequence[tuple[WorkloadPath, float]] = ()) -> DegradedPath | None:
    """MetroCluster switchover: the partner site serves the workload from its own plex; mirroring to the failed
    site stops (the inter-site delay goes). None without a MetroCluster path.

    Args:
        path: the normal path of a workload on this site's HA pair.
        partner_load: the partner site's own workloads, (normal path on this site, IOPS) each, when the partner
            site runs the same workloads as this one (``partner_site_load = "mirror"``, a symmetric active-active
            MetroCluster: pass every rated workload of this system at its target). Their controller stations'
            demand (:data:`models.performance.stations.CONTROLLER_ROLES`, found by role: CPU, affinities, NVRAM,
            data path, Flash Cache, back end) enters as background load, the way the engine adds other workloads'
            load: the partner's HA pair (the same model) then carries both sites' workloads, so saturation falls.
            Their drives and ports are the partner site's own, not loaded here. Empty (active-passive: the partner
            only receives mirror writes): the partner's HA pair serves this site's workloads alone and saturation
            does not fall.
    """
    if not any(s.ident.role == "metrocluster_mirror" for s in path.stations):
        return None
    out = [s for s in path.stations if s.ident.role != "metrocluster_mirror"]
    relieved = tuple((s.name, 1.0) for s in path.stations if s.ident.role == "metrocluster_mirror")
    if not partner_load:
        reason = ("switchover: the partner site serves the workload from its own plex and mirroring to the failed "
                  "site stops; its HA pair is the same model, so saturation does not fall")
        return DegradedPath("switchover", _with(path, out, reason), reason, relieved=relieved)
    names = {s.name for s in out if s.ident.role in CONTROLLER_ROLES}
    background = []
    for other, rate in partner_load:
        w = other.workload
        copy = replace(other, stations=tuple(s for s in other.stations if s.name in names),
                       workload=w.model_copy(update={"id": f"{w.id[:60]}.partner-site", "nas": None}))
        background.append((copy, rate))
    # the reason sits under its workload's name (GUI, report, JSON): it names only the site's other workloads
    others = [other.workload.name for other, _ in partner_load if other.workload.id != path.workload.id]
    served = "this workload" + (f" and the site's others ({', '.join(others)})" if others else "")
    reason = (f"switchover: site A (this design) has failed and site B's HA pair serves {served} for both sites "
              "(its own and site A's) from its own plex; mirroring to the failed site stops; its controllers (the "
              "same model) carry both sites' load, so saturation falls")
    return DegradedPath("switchover", _with(path, out, reason), reason, tuple(background), relieved=relieved)


def site_failure(path: WorkloadPath, workloads: Sequence[str] = ()) -> DegradedPath | None:
    """A vSAN stretched cluster loses one data site (module docstring); None unless the path has the inter-site
    round trip of a stretched cluster.

    Args:
        path: the normal path of a workload on the cluster.
        workloads: the names of every workload on the cluster (all of them now run at the surviving site); the
            reason names those other than this workload (it is read under this workload's name).

    ``relieved`` names the inter-site stations (all their work stops) and, for each host station, the share of
    its demand at the path's read mix that the lost site's copy of each write was (the write work halves). That
    copy was written in parallel with the surviving site's (the normal path counts it in ``write_async_s`` only),
    so the write's own wait (``write_s``) stays: only the load goes.
    """
    if not any(s.ident.role == "intersite_rtt" for s in path.stations):
        return None
    rf = path.read_fraction
    out = []
    relieved: list[tuple[str, float]] = []
    rtt_ms = 0.0
    for s in path.stations:
        role = s.ident.role
        if role in INTERSITE_ROLES:
            relieved.append((s.name, 1.0))
            if role == "intersite_rtt":
                rtt_ms = s.write_s * 1e3
            continue
        if role in SITE_ROLES and not s.delay:
            demand = s.demand(rf)
            if demand > 0:
                relieved.append((s.name, (1.0 - rf) * (s.write_s + s.write_async_s) / 2.0 / demand))
            # half the write work stays (this site's copy); the write still waits for this site's part of it
            work = (s.write_s + s.write_async_s) / 2.0
            s = _respec(s, multiplicity=max(1, s.multiplicity // 2), write_async_s=max(work - s.write_s, 0.0))
        out.append(s)
    # the reason sits under its workload's name (GUI, report, JSON): it names only the cluster's other workloads
    others = list(workloads)
    if path.workload.name in others:
        others.remove(path.workload.name)
    served = "this workload" + (f" and the cluster's others ({', '.join(others)})" if others else "")
    reason = (f"site failure: data site B is lost and vSphere HA restarts its VMs at site A, whose hosts (half the "
              f"cluster) serve {served} for both sites with only their local protection; a write "
              f"is stored at one site and no longer waits the {rtt_ms:.2f} ms inter-site round trip nor crosses "
              "the inter-site link, while all reads fall on the surviving hosts, so saturation falls; no resync "
              "until site B returns")
    return DegradedPath("site_failure", _with(path, out, reason), reason, relieved=tuple(relieved))
