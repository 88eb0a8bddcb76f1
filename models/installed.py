"""Your system today: the installed controller of an imported ONTAP collection, its design with the imported
workloads, and the measured latency at the measured load against the model's prediction at that load (issue 31,
item 6).

* :func:`match_controller` maps the model the cluster reports (REST ``/api/cluster/nodes`` ``model``, such as
  ``AFF-A400``; the CLI's ``system node show``) to a catalog controller by name: case, spaces, hyphens and the
  words "NetApp" and "HA pair" are ignored, so ``AFF-A70``, ``AFF A70`` and the catalog's "NetApp AFF A70 HA pair"
  (id ``netapp-aff-a70``) are one model. Only an exact match counts (``AFF-A80`` is not an A800).
* :func:`installed_design` builds that controller's design the way the sizer builds its candidates (the
  project's hosts and workloads on the controller, one front end the controller and hosts share): with the
  drive the user names, else the controller's first listed shelf (its default) full of the first drive that fits
  it (an SSD for an all-flash line, else an HDD), and says which. The front end is the protocol the data shows
  (:func:`data_protocol`: LUN counters -> block; a counter table's per-protocol operations -> NFS, SMB, FCP or
  iSCSI), said with where it came from; where the data does not say, the first the controller and hosts share.
* :func:`compare_measured` evaluates it and gives per workload the measured mean latency at the measured IOPS
  (the peak interval of the group's summed series, operations-weighted) against the predicted storage-side mean
  latency at that IOPS (the open model, all workloads on the system together), and the error in %. A measured mean
  over fewer than :data:`MIN_COMPARED_OPERATIONS` operations is shown but not compared (its error is not given).
* :func:`calibration_csv` writes the collection's whole load (or one workload's, :func:`group_calibration_points`)
  per poll interval as the ``iops,latency_ms`` CSV that
  ``storplan calibrate --csv`` reads (the field calibration step).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from models.catalog import Catalog, Controller, Drive, Entry, Shelf
from models.evaluate import evaluate
from models.importers.inventory import Inventory, PerfSample
from models.importers.workloads import ImportedGroup, mixed_latency_ms, system_series
from models.project.factory import drive_fits_controller, drive_fits_shelf
from models.project.model import HostNode, NasWorkload, Project, Requirements, Scenario
from models.sizing import _array_specs, _Spec

MIN_COMPARED_OPERATIONS = 100
"""The fewest operations in the measured interval for its mean latency to be compared with a prediction. With
service times whose coefficient of variation is about 1 (exponential, the M/M/1 assumption of the open model), the
mean of n operations has a relative standard error of 1 / sqrt(n): 100 operations give +-10%; fewer give a mean
that one slow or one cached operation moves by tens of percent (an assumption on the spread, stated here; e.g. the
ONTAP counter-table sample's 0.4 IOPS over 60 s is 24 operations)."""


class InstalledError(ValueError):
    """The installed controller or drive cannot be used (unknown id, not a controller, no design for it); the
    message names the id and what to give instead."""


def model_key(text: str) -> str:
    """A model name reduced for matching: lower case, letters and digits only, without a leading "netapp", a
    trailing "hapair" and anything in parentheses (``"NetApp AFF A70 HA pair"`` and ``"AFF-A70"`` -> ``"affa70"``)."""
    text = re.sub(r"\([^)]*\)", " ", text).casefold()
    key = re.sub(r"[^0-9a-z]", "", text)
    key = key.removeprefix("netapp")
    return key.removesuffix("hapair")


def match_controller(model: str, catalog: Catalog) -> Controller | None:
    """The catalog controller whose id or name is ``model`` (compared by :func:`model_key`); None when none is,
    or when the model is empty. Several matches: the first by id."""
    key = model_key(model)
    if not key:
        return None
    for record in sorted(catalog.of_kind(Controller), key=lambda c: c.id):
        if key in (model_key(record.id), model_key(record.name)):
            return record
    return None


@dataclass(frozen=True)
class InstalledDesign:
    """The installed system as a design: ``scenario`` (the project's hosts and workloads on the installed
    controller), ``summary`` (the design in words, as the sizer writes it) and ``notes`` (what was assumed)."""

    scenario: Scenario
    summary: str
    notes: tuple[str, ...]


def _controller(catalog: Catalog, controller_id: str) -> Controller:
    """The catalog's controller ``controller_id`` (raises :class:`InstalledError` naming it otherwise)."""
    found: Entry | None = catalog.find(controller_id)
    if not isinstance(found, Controller):
        what = "no catalog entry" if found is None else f"a {found.KIND}, not a controller"
        raise InstalledError(f"installed controller {controller_id!r}: {what} (give a controller id from "
                             "'storplan catalog')")
    return found


ALL_FLASH_LINES = ("aff", "asa", "ef")
"""Model-name beginnings (:func:`model_key`) of all-flash lines: their default drive is an SSD."""


def _default_drive(record: Controller, shelf: Shelf, catalog: Catalog) -> Drive | None:
    """The drive assumed in ``record``'s default ``shelf`` when none is given: of the drives that fit both (by id),
    the first SSD for an all-flash line (:data:`ALL_FLASH_LINES`), else the first HDD, else the first of any."""
    fits = sorted((d for d in catalog.of_kind(Drive) if drive_fits_controller(d, record, catalog)
                   and drive_fits_shelf(d, shelf)), key=lambda d: d.id)
    media = "SSD" if model_key(record.name).startswith(ALL_FLASH_LINES) else "HDD"
    return next((d for d in fits if d.media == media), fits[0] if fits else None)


def _shelves_of(spec: _Spec) -> list[tuple[str, str]]:
    """(shelf id, drive id) of every shelf of a candidate's scenario."""
    return [(n.catalog_id, getattr(n, "drive", "")) for n in spec.scenario.nodes if n.kind == "shelf"]


FILE_PROTOCOLS = {"NFS": "NFSv3", "SMB": "SMB3"}
"""A file protocol the data shows -> the NAS protocol its workloads are modelled with."""
BLOCK_PROTOCOLS = ("FCP", "iSCSI")
"""Block protocols the data can name (a LUN alone says "block")."""


@dataclass(frozen=True)
class DataProtocol:
    """The front end the data shows for the installed system.

    Attributes:
        protocol: "NFS", "SMB", "FCP", "iSCSI", "block" (a block protocol the data does not name) or "" (the data
            does not say); file_groups: indexes (into the groups) of the file workloads; note: in words, which
            protocol and where it came from.
    """

    protocol: str
    file_groups: tuple[int, ...]
    note: str


def data_protocol(groups: Sequence[ImportedGroup]) -> DataProtocol:
    """The one front-end protocol of the installed system the imported ``groups`` show: of the measured groups
    that show one (``ImportedGroup.protocol``), the protocol carrying the most measured IOPS (a group showing no
    I/O counts once); a file protocol's groups become NAS workloads."""
    weights: dict[str, float] = {}
    for g in groups:
        if g.protocol:
            weights[g.protocol] = weights.get(g.protocol, 0.0) + max(g.iops, 1e-9)
    if not weights:
        return DataProtocol("", (), "the front end is the first the controller and hosts share: the data does not "
                            "say the protocol")
    protocol = max(sorted(weights), key=lambda k: weights[k])
    showing = [g for g in groups if g.protocol == protocol]
    sources = f"{showing[0].name}: {showing[0].protocol_source}" + (
        f"; {len(showing) - 1} other workload(s) likewise" if len(showing) > 1 else "")
    note = f"the front end is {protocol}, as the data shows ({sources})"
    if protocol == "block":
        note = (f"the front end is block storage, as the data shows ({sources}); which block protocol it does not "
                "say: the first the controller and hosts share")
    others = sorted(k for k in weights if k != protocol)
    if others:
        note += f"; the data also shows {', '.join(others)}: one front end is modelled"
    files = tuple(i for i, g in enumerate(groups) if g.protocol == protocol and protocol in FILE_PROTOCOLS)
    return DataProtocol(protocol, files, note)


def _as_file_workloads(project: Project, groups: Sequence[ImportedGroup], chosen: DataProtocol) -> Project:
    """``project`` with the workloads of ``chosen``'s file groups made NAS workloads of its protocol: their measured
    reads and writes are the operation mix (the file protocols' metadata operations are not in the measured
    IOPS)."""
    workloads = list(project.scenario.workloads)
    for i in chosen.file_groups:
        read_pct = groups[i].read_pct
        if i < len(workloads) and workloads[i].performance_enabled and read_pct is not None:
            read = round(read_pct, 6)
            mix = {"read": read, "write": round(100.0 - read, 6)}
            workloads[i] = workloads[i].with_changes(nas=NasWorkload(protocol=FILE_PROTOCOLS[chosen.protocol],
                                                                     op_mix=mix))
    return project.with_scenario(project.scenario.with_changes(workloads=workloads))


def installed_design(project: Project, controller_id: str, catalog: Catalog,
                     drive_id: str | None = None, groups: Sequence[ImportedGroup] = ()) -> InstalledDesign:
    """The design of the installed controller ``controller_id`` serving ``project``'s active scenario's workloads.

    Args:
        project: the imported project (its hosts and workloads are kept; the design is replaced).
        controller_id: a catalog controller id; catalog: the catalog it and the drives come from.
        drive_id: the installed drive (catalog id); None: the controller's default shelf (the first it lists
            that a design can be built with) full of the drive :func:`_default_drive` picks (an SSD for an
            all-flash line, else an HDD), said so in the notes.
        groups: the import's groups, in the order of the project's workloads: the front end is the protocol they
            show (:func:`data_protocol`; file workloads become NAS workloads); empty or silent: the first front
            end the controller and hosts share, said so.

    Returns:
        An :class:`InstalledDesign` of the smallest layout with that drive: the controller's internal bays full,
        else one external shelf full (the sizer's candidate layouts, ``models.sizing``).

    Raises:
        InstalledError: the id is not a controller, the drive is not a drive that fits it, or no design of the
            controller can be built (no front end its hosts can use).
    """
    record = _controller(catalog, controller_id)
    if drive_id is not None and not isinstance(catalog.find(drive_id), Drive):
        raise InstalledError(f"installed drive {drive_id!r}: no drive of that id in the catalog")
    only = Catalog([e for e in catalog if not isinstance(e, Controller) or e.id == record.id], catalog.version)
    chosen_protocol = data_protocol(groups)
    protocol_note = chosen_protocol.note
    req = Requirements()
    if chosen_protocol.file_groups:
        as_files = _as_file_workloads(project, groups, chosen_protocol)
        if any(True for _ in _array_specs(as_files.scenario, only, req, sold_only=False)):
            project = as_files
            if chosen_protocol.protocol == "SMB":  # the array designs name their file front end NFS
                protocol_note += ("; the design's file front end is listed as NFS, its file workloads are modelled "
                                  "as SMB 3")
        else:
            protocol_note = (f"the data shows {chosen_protocol.protocol}, but no file front end of {record.name} "
                             "reaches the hosts: the first block front end they share")
    elif chosen_protocol.protocol in BLOCK_PROTOCOLS:
        req = Requirements(protocols=[chosen_protocol.protocol])
        if not any(True for _ in _array_specs(project.scenario, only, req, sold_only=False)):
            req = Requirements()
            protocol_note = (f"the data shows {chosen_protocol.protocol}, but no {chosen_protocol.protocol} front "
                             f"end of {record.name} reaches the hosts: the first the controller and hosts share")
    specs: Iterator[_Spec] = _array_specs(project.scenario, only, req, sold_only=False)
    wanted: list[tuple[str | None, str]] = [(None, drive_id)] if drive_id is not None else []
    if drive_id is None:  # the shelves it lists, in order, each with its default drive: the first that builds
        for listed in (s for sid in record.shelves if isinstance(s := catalog.find(sid), Shelf)):
            default = _default_drive(record, listed, catalog)
            if default is not None:
                wanted.append((listed.id, default.id))
    chosen: _Spec | None = None
    rank = len(wanted)
    for spec in specs:
        shelves = _shelves_of(spec)
        here = next((k for k, (sh, dr) in enumerate(wanted[:rank]) if shelves and shelves[0][1] == dr
                     and sh in (None, shelves[0][0])), None)
        if here is not None:
            chosen, rank = spec, here
            if rank == 0:
                break
    if chosen is None:
        if drive_id is not None:
            raise InstalledError(f"installed drive {drive_id!r} does not fit {record.name} (or no front end of it "
                                 "reaches the hosts)")
        raise InstalledError(f"no design of {record.name} can be built (no shelf, drive or front end it takes)")
    notes: list[str] = []
    shelf_id, drive = _shelves_of(chosen)[0]
    if drive_id is None:
        found, drive_rec = catalog.find(shelf_id), catalog.find(drive)
        shelf_name = found.name if isinstance(found, Shelf) else shelf_id
        drive_name = drive_rec.name if isinstance(drive_rec, Drive) else drive
        notes.append(f"drives not given: the controller's default shelf ({shelf_name}) full of {drive_name} is "
                     "assumed; give the installed drive for a closer prediction")
    notes.append(protocol_note)
    return InstalledDesign(chosen.scenario, chosen.summary, tuple(notes))


@dataclass(frozen=True)
class MeasuredVsPredicted:
    """One workload's measured and predicted latency at its measured load.

    Attributes:
        workload_id, name: the project workload; iops: its measured load (read + write IOPS of the peak interval).
        measured_ms: the measured mean latency at that load, ms (None: the data gives none).
        predicted_ms: the predicted storage-side mean latency at that load, ms (None: the design saturates below it
            or the workload was not predicted); error_pct: (predicted - measured) / measured x 100 (None without
            both).
        note: why a figure is missing, in words ("" when both are given).
    """

    workload_id: str
    name: str
    iops: float
    measured_ms: float | None
    predicted_ms: float | None
    error_pct: float | None
    note: str = ""


def compare_measured(project: Project, groups: Sequence[ImportedGroup],
                     catalog: Catalog | None = None) -> tuple[MeasuredVsPredicted, ...]:
    """Evaluate ``project`` (the installed design with the imported workloads) and pair each enabled workload with
    its group's measured latency.

    Args:
        project: the installed project; its active scenario's workloads are the import's, in ``groups`` order
            (``models.importers.workloads.import_environment``).
        groups: the import's groups; catalog: the base catalog (None: bundled plus the user's).

    Returns:
        One :class:`MeasuredVsPredicted` per enabled workload, in the project's order.
    """
    evaluation = evaluate(project, catalog=catalog)
    performance = evaluation.performance
    out: list[MeasuredVsPredicted] = []
    for workload, group in zip(project.scenario.workloads, groups, strict=False):
        if not workload.performance_enabled:
            continue
        predicted = performance.for_workload(workload.id) if performance is not None else None
        p_ms = predicted.latency_at_target_ms if predicted is not None else None
        m_ms = group.latency_ms
        note = ""
        operations = _interval_operations(group)
        if m_ms is None:  # summed machines' latencies make no latency of their sum (review 55 #7)
            note = ("measured latency: not available (per-machine latencies cannot be combined)" if not group.series
                    else "measured latency: not available (the counters give none)")
        elif operations is not None and operations < MIN_COMPARED_OPERATIONS:
            note = (f"not compared: {operations:,.0f} operations in the measured interval, too few for a mean latency "
                    f"(at least {MIN_COMPARED_OPERATIONS} needed)")
        elif predicted is None:
            note = "not predicted: " + "; ".join(p.message for p in evaluation.errors)[:300]
        elif p_ms is None:
            note = f"the design saturates at {predicted.saturation_iops:,.0f} IOPS, below the measured load"
        few = operations is not None and operations < MIN_COMPARED_OPERATIONS
        error = (100.0 * (p_ms - m_ms) / m_ms if p_ms is not None and m_ms is not None and m_ms > 0 and not few
                 else None)
        out.append(MeasuredVsPredicted(workload.id, workload.name, group.iops, m_ms, p_ms, error, note))
    return tuple(out)


def _interval_operations(group: ImportedGroup) -> float | None:
    """Read + write operations in the interval whose load is the group's (its series' busiest interval: IOPS x
    seconds); None where the group has no series (summaries only)."""
    if not group.series:
        return None
    busiest = max(group.series, key=lambda s: s.read_iops + s.write_iops)
    return (busiest.read_iops + busiest.write_iops) * busiest.interval_s


def _points(samples: Sequence[PerfSample]) -> list[tuple[float, float]]:
    """(read + write IOPS, mean latency ms) of each sample with operations and a latency, in the given order."""
    points = []
    for sample in samples:
        latency = mixed_latency_ms(sample)
        iops = sample.read_iops + sample.write_iops
        if latency is not None and latency > 0 and iops > 0:
            points.append((iops, latency))
    return points


def calibration_points(inventories: Sequence[Inventory]) -> list[tuple[float, float]]:
    """The collection's whole load per poll interval as (read + write IOPS, mean latency ms) pairs, in time order;
    intervals without operations or without a latency are left out."""
    return _points(system_series(inventories))


def group_calibration_points(group: ImportedGroup) -> list[tuple[float, float]]:
    """One imported workload's load per poll interval (its members' series summed, ``ImportedGroup.series``) as
    (read + write IOPS, mean latency ms) pairs, in time order; empty when its members have no series (summaries
    only) or no interval with operations and a latency."""
    return _points(group.series)


def calibration_csv(points: Sequence[tuple[float, float]]) -> str:
    """``points`` as the CSV ``storplan calibrate --csv`` reads: a header ``iops,latency_ms`` and one row a
    point (full precision)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["iops", "latency_ms"])
    writer.writerows([repr(float(x)), repr(float(y))] for x, y in points)
    return buffer.getvalue()


def comparison_lines(rows: Sequence[MeasuredVsPredicted]) -> list[str]:
    """One line per workload in words: its measured load and latency, the predicted latency at that load and the
    error (or why a figure is missing)."""
    out = []
    for r in rows:
        load = f"{r.iops:,.1f}" if 0 < r.iops < 10 else f"{r.iops:,.0f}"
        head = f"{r.name}: at {load} IOPS"
        head += f" measured {r.measured_ms:.3f} ms," if r.measured_ms is not None else ""
        head += f" predicted {r.predicted_ms:.3f} ms" if r.predicted_ms is not None else " no prediction"
        if r.error_pct is not None:
            head += f" (error {r.error_pct:+.1f}%)"
        out.append(head + (f"; {r.note}" if r.note else ""))
    return out


VMWARE_SOURCES = frozenset({"rvtools", "liveoptics"})
"""Sources that describe VMware vSphere machines (their hosts are ESXi hosts)."""
VMWARE_PROTOCOL_SOURCE = ("NetApp, 'vSphere datastore and protocol features', docs.netapp.com/us-en/ontap-apps-dbs/"
                          "vmware/vmware-vsphere-datastores-top.html")
"""Where the protocols vSphere uses with ONTAP are listed (the starting design's front end for VMware data)."""
_FRONT_END = {"FCP": ("fc-32g", "emulex-lpe32002", "FCP"), "iSCSI": ("iscsi-25g", "broadcom-p225p-25gbe-2p", "iSCSI"),
              "NFS": ("iscsi-25g", "broadcom-p225p-25gbe-2p", "NFS"),
              "SMB": ("iscsi-25g", "broadcom-p225p-25gbe-2p", "SMB")}
"""Front-end protocol -> (link type, host adapter, the words in the host label) of the starting design."""


@dataclass(frozen=True)
class StartingDesign:
    """The starting design of an imported project (:func:`starting_design`).

    Attributes:
        project: the base project with its hosts, front-end links and workloads fitted to the import.
        protocol: the front-end protocol chosen; note: why, in words, with the public source.
    """

    project: Project
    protocol: str
    note: str


def starting_design(base: Project, inventories: Sequence[Inventory], groups: Sequence[ImportedGroup]) -> StartingDesign:
    """``base`` (the bundled example an import starts from, its workloads already the import's, in ``groups``
    order) with hosts and a front end that fit where the data came from, instead of the example's own.

    * ONTAP counters: the protocol they show (:func:`data_protocol`: the one carrying the most measured IOPS); NFS
      and SMB workloads become file workloads of that protocol; a LUN alone ("block"): FCP.
    * VMware exports (RVTools, Live Optics): ESXi hosts over iSCSI. vSphere reaches ONTAP over FCP, NVMe/FC,
      NVMe/TCP, iSCSI or NFS (:data:`VMWARE_PROTOCOL_SOURCE`); these tools measure block I/O at the machines' virtual
      disks, which VMFS over a block protocol carries one to one, while NFS would add file metadata operations no
      tool measured. No reader finds a Fibre Channel adapter in them (Live Optics' Host Network Adapters list the
      hosts' Ethernet NICs), so the block protocol is the Ethernet one, iSCSI, which needs no FC fabric.
    * Azure Migrate (servers on VMware, Hyper-V or bare metal) or no protocol in the data: iSCSI, for the same
      reason.

    The host count is the number of distinct hosts the machines name, else the example's count, said so in the
    label; each host has one dual-port adapter and one port cabled. Every host node and every link from a host node
    is changed; controllers and shelves are kept.
    """
    chosen = data_protocol(groups)
    sources = {inv.source for inv in inventories}
    if chosen.protocol in _FRONT_END:
        protocol = chosen.protocol
        note = chosen.note
    elif chosen.protocol == "block":
        protocol, note = "FCP", "the data shows block storage (LUNs) without naming FCP or iSCSI: FCP assumed"
    elif sources & VMWARE_SOURCES:  # no Fibre Channel seen in the data: an Ethernet front end (review revimp55 #12)
        protocol = "iSCSI"
        note = ("ESXi hosts over iSCSI, one of the block protocols (FCP, NVMe/FC, NVMe/TCP, iSCSI) vSphere uses for "
                f"VMFS datastores on ONTAP beside NFS ({VMWARE_PROTOCOL_SOURCE}): the tools measure block I/O at the "
                "virtual disks, which VMFS over iSCSI carries one to one, and the data names no Fibre Channel "
                "adapter, so an Ethernet front end needs no FC fabric the hosts may not have")
    else:  # Ethernet unless Fibre Channel is seen, as for VMware exports
        protocol = "iSCSI"
        note = ("the data does not say the protocol and names no Fibre Channel adapter: iSCSI (Ethernet) assumed; "
                "set the front end the hosts use")
    link_type, adapter, words = _FRONT_END[protocol]
    hosts = {m.host for inv in inventories for m in inv.machines if m.host}
    scenario = base.scenario
    host_ids = {n.id for n in scenario.nodes if n.kind == "host"}
    if sources & VMWARE_SOURCES:
        what = "ESXi hosts (VMware vSphere"
    elif "azure-migrate" in sources:
        what = "servers (assessed by Azure Migrate"
    else:
        what = "hosts (ONTAP clients"
    nodes = []
    for node in scenario.nodes:
        if isinstance(node, HostNode) and node.id in host_ids:
            count = min(len(hosts), 10_000) if hosts else node.count
            label = f"{count} x {what}, {words}{'' if hosts else '; count not in the data'})"
            node = node.with_changes(label=label[:200], count=count, adapter=adapter, adapters_per_host=1)
        nodes.append(node)
    counts = {n.id: n.count for n in nodes if isinstance(n, HostNode) and n.id in host_ids}
    links = [link.with_changes(link_type=link_type, ports=counts[link.source]) if link.source in host_ids else link
             for link in scenario.links]  # one port per host, as the example cables them
    project = base.with_scenario(scenario.with_changes(nodes=nodes, links=links))
    if chosen.file_groups and protocol in FILE_PROTOCOLS:
        project = _as_file_workloads(project, groups, chosen)
    return StartingDesign(project, protocol, note)
