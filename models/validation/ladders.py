"""Platform ladders: within a family a larger model never predicts less than a smaller one, and a successor not
less than the installed-base system it replaces (issue "Performance that ranks platforms the way the hardware
does", item 3). A check, not a fit: the performance model is later fitted to pass it.

The ladders are data (``resources/validation/ladders.toml``, :func:`load_ladders`): per family the drive, drive count
and protocols every platform of it is evaluated with (:class:`LadderSetup`), and per step the smaller and the
larger platform with the public basis of the relation (:class:`LadderStep`: a vendor upgrade path, a vendor
performance figure, the vendor's positioning of the two, or only its model numbering within one family, said so)
and, where a cited public figure contradicts the relation, that figure, the respects it contradicts (saturation,
light-load latency) and the workloads it concerns: a check that fails only in those respects is reported as failing
where a cited figure says so, apart from the checks that fail otherwise.

:func:`run_ladders` evaluates each step's platforms on the same design (:func:`ladder_scenario`: the same drives in
a shelf both platforms take, the same hosts and front-end links) with the bundled OLTP workload (the "OLTP 8K
70/30" preset on the family's block protocol, and on NVMe/FC too where that protocol is FCP and both platforms
speak NVMe/FC: :data:`ALSO_ON`) and, where both platforms serve NFS, the bundled NFS workload (the
NFSv3 file-services example's SPEC SFS 2008 mix); a step holds when the larger platform's saturation is at least
the smaller's (tolerance :data:`SATURATION_TOLERANCE`) and its light-load latency is not worse beyond
:data:`LATENCY_TOLERANCE`.

:func:`platform_bases` says, per controller, Cloud Volumes ONTAP VM and managed service of a catalog, which
profile its workloads evaluate with (``models.performance.profiles.controller_profile``: calibrated, derived,
assumed, or the uncalibrated default CPU costs).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from models.capacity.rules import ONTAP_MIN_SPARES, ddp_default_preservation, ontap_default_raid
from models.catalog import Adapter, Catalog, CloudVm, Controller, Drive, LinkType, ManagedService, Shelf
from models.performance import build_path, saturation_iops
from models.performance.engine import open_storage_latency_ms
from models.performance.profiles import controller_profile, profile_kind
from models.project.factory import drive_fits_controller, drive_fits_shelf
from models.project.model import ControllerNode, HostNode, Link, Scenario, ShelfNode, Workload
from models.resources import examples_dir, validation_dir
from models.store import load_any
from models.workloads import bundled_presets

SATURATION_TOLERANCE = 0.0
"""A step holds when the larger platform's saturation is at least (1 - this) x the smaller's: 0, no slack."""

LATENCY_TOLERANCE = 0.10
"""A step holds only when the larger platform's light-load latency is at most (1 + this) x the smaller's: 10%, the
order of the model's own rounding of fixed latencies; a newer platform is not expected to be slower at light
load."""

OLTP_PRESET = "oltp-8k-70-30"
"""The bundled OLTP workload: the "OLTP 8K 70/30" preset (8 KiB, 70% reads, 100% random)."""

NFS_EXAMPLE = "aff8080-nfs-file-services.toml"
"""The bundled example whose NFS workload (NFSv3, SPEC SFS 2008 operation mix, 8 KiB data operations) is the NFS
workload of the ladders."""

NFS_WORKLOAD = "nfs"
"""That workload's id in the example."""

HOST_GROUPS = 8
"""Hosts in every ladder design: one group of 8 servers, each linked straight to the controller pair."""

HOST_RECORD = "fujitsu-primergy-rx300-s7"
"""The host server record of every ladder design (the one the public ramps use)."""

MAX_FRONT_END_PORTS = 16
"""At most this many front-end ports per design (the sizer's cap)."""

FRONT_END_LINKS = {"FCP": ("fc-64g", "fc-32g", "fc-16g", "fc-8g"), "NVMe/FC": ("nvme-fc-64g", "nvme-fc-32g"),
                   "NVMe/TCP": ("nvme-tcp-100g", "nvme-tcp-25g"), "iSCSI": ("iscsi-100g", "iscsi-25g", "iscsi-10g"),
                   "NFS": ("iscsi-100g", "iscsi-25g", "iscsi-10g")}
"""Front-end link types per protocol, fastest first (as the sizer chooses them; NFS runs on the Ethernet link
records)."""

ALSO_ON: dict[str, tuple[str, ...]] = {"FCP": ("NVMe/FC",)}
"""Per setup block protocol, the other block protocols the OLTP workload is checked on too where both platforms of
a step speak them: NVMe/FC runs over the same FC ports as FCP, and the one calibrated NVMe/FC profile (the AFF
A800's) is the lightest per operation in the catalog, so a ranking that holds on FCP can fail on it."""

BASIS_KINDS = ("vendor upgrade path", "vendor performance figure", "vendor positioning",
               "vendor model numbering within one family")
"""The kinds of public basis a step may have: NetApp documents the larger as a replacement controller for the
smaller; a published figure of both; a public document names the larger the higher-performance option; or only the
model numbering within one family (no figure or statement found)."""

RELATIONS = ("family", "successor")
"""A step within one family and generation, or a successor against the installed-base system it replaces."""

RESPECTS = ("saturation", "light-load latency")
"""What a cited public figure may contradict of a step (its ``contradicts``): the larger platform's saturation not
below the smaller's, its light-load latency not above it. Only a step whose figure contradicts its saturation leaves
the hardware relation's ordering (``models.performance.hardware_relation.ordering_steps``)."""

WORKLOADS = ("oltp", "nfs")
"""The ladder workloads' ids (:func:`ladder_workloads`), which a step's ``contradicted_workloads`` names."""


class LadderError(ValueError):
    """The ladder file is malformed or names what the catalog does not have; the message says where."""


@dataclass(frozen=True)
class LadderSetup:
    """What every platform of a family is evaluated with.

    Attributes:
        id: the setup's name, which steps refer to. drive: catalog id of the drive; drive_count: how many.
        block_protocol: the OLTP workload's protocol ("FCP", "NVMe/FC", "iSCSI", "NVMe/TCP"). nfs: whether the NFS
        workload is evaluated too (only where both platforms of a step serve NFS).
    """

    id: str
    drive: str
    drive_count: int
    block_protocol: str
    nfs: bool


@dataclass(frozen=True)
class LadderStep:
    """One relation: ``larger`` should predict at least what ``smaller`` does.

    Attributes:
        smaller, larger: catalog controller ids. setup: the :class:`LadderSetup` id. relation: "family" or
        "successor". basis_kind: one of :data:`BASIS_KINDS`. basis: the public document(s), title and address.
        contradicted: the cited public figure that contradicts the relation ("" when none does). contradicts: the
        respects it contradicts (of :data:`RESPECTS`; empty when none). contradicted_workloads: the workloads it
        concerns (of :data:`WORKLOADS`; every one when the file names none). smaller_drive, larger_drive: a drive of
        each platform's own when the two take no common drive ("" : the setup's).
    """

    smaller: str
    larger: str
    setup: str
    relation: str
    basis_kind: str
    basis: str
    contradicted: str = ""
    contradicts: tuple[str, ...] = ()
    contradicted_workloads: tuple[str, ...] = ()
    smaller_drive: str = ""
    larger_drive: str = ""


@dataclass(frozen=True)
class Ladders:
    """The parsed ladder file: setups by id and the steps in file order."""

    setups: dict[str, LadderSetup]
    steps: tuple[LadderStep, ...]


def _text(item: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = item.get(key, default)
    if not isinstance(value, str) or (default is None and not value.strip()):
        raise LadderError(f"{where}: '{key}' must be a non-empty text")
    return value


def _names(item: dict[str, Any], key: str, where: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    value = item.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LadderError(f"{where}: '{key}' must be a list of texts")
    unknown = [v for v in value if v not in allowed]
    if unknown:
        raise LadderError(f"{where}: '{key}' names {', '.join(repr(v) for v in unknown)}, not one of "
                          f"{', '.join(allowed)}")
    return tuple(dict.fromkeys(value))


def parse_ladders(data: dict[str, Any], where: str, catalog: Catalog) -> Ladders:
    """Validate a ladder file's TOML tables against ``catalog``.

    Args:
        data: the file's tables (``[[setup]]`` and ``[[step]]`` arrays); where: the file's name for messages;
        catalog: the catalog whose controller and drive ids the steps must name.

    Raises:
        LadderError: a missing or wrong-typed field, an unknown id, a controller that is not a controller, a
            basis kind or relation not in :data:`BASIS_KINDS` / :data:`RELATIONS`, a step on a setup that does not
            exist, a step whose platforms cannot take its drive, a step repeated, or a contradiction that does not
            say what it contradicts (``contradicted`` without ``contradicts`` or the reverse; a respect or workload
            not in :data:`RESPECTS` / :data:`WORKLOADS`).
    """
    setups: dict[str, LadderSetup] = {}
    for k, item in enumerate(data.get("setup", []), start=1):
        here = f"{where}: setup #{k}"
        sid = _text(item, "id", here)
        drive = _text(item, "drive", here)
        if not isinstance(catalog.find(drive), Drive):
            raise LadderError(f"{here} ({sid}): drive '{drive}' is not a drive of the catalog")
        count = item.get("drive_count")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise LadderError(f"{here} ({sid}): 'drive_count' must be a positive whole number")
        protocol = _text(item, "block_protocol", here)
        if protocol not in FRONT_END_LINKS or protocol == "NFS":
            raise LadderError(f"{here} ({sid}): block_protocol '{protocol}' is not a block protocol")
        nfs = item.get("nfs", False)
        if not isinstance(nfs, bool):
            raise LadderError(f"{here} ({sid}): 'nfs' must be true or false")
        if sid in setups:
            raise LadderError(f"{here}: setup '{sid}' is given twice")
        setups[sid] = LadderSetup(sid, drive, count, protocol, nfs)
    steps: list[LadderStep] = []
    seen: set[tuple[str, str]] = set()
    for k, item in enumerate(data.get("step", []), start=1):
        here = f"{where}: step #{k}"
        step = LadderStep(smaller=_text(item, "smaller", here), larger=_text(item, "larger", here),
                          setup=_text(item, "setup", here), relation=_text(item, "relation", here),
                          basis_kind=_text(item, "basis_kind", here), basis=_text(item, "basis", here),
                          contradicted=_text(item, "contradicted", here, "").strip(),
                          smaller_drive=_text(item, "smaller_drive", here, ""),
                          larger_drive=_text(item, "larger_drive", here, ""))
        here = f"{here} ({step.smaller} < {step.larger})"
        step = replace(step, contradicts=_names(item, "contradicts", here, RESPECTS),
                       contradicted_workloads=_names(item, "contradicted_workloads", here, WORKLOADS))
        if bool(step.contradicted) != bool(step.contradicts):
            raise LadderError(f"{here}: 'contradicted' (the cited figure) and 'contradicts' (what it contradicts, of "
                              f"{', '.join(RESPECTS)}) go together")
        if step.contradicted_workloads and not step.contradicted:
            raise LadderError(f"{here}: 'contradicted_workloads' without 'contradicted'")
        if step.contradicted and not step.contradicted_workloads:
            step = replace(step, contradicted_workloads=WORKLOADS)
        for cid in (step.smaller, step.larger):
            if not isinstance(catalog.find(cid), Controller):
                raise LadderError(f"{here}: '{cid}' is not a controller of the catalog")
        if step.setup not in setups:
            raise LadderError(f"{here}: setup '{step.setup}' is not defined")
        if step.relation not in RELATIONS:
            raise LadderError(f"{here}: relation '{step.relation}' is not one of {', '.join(RELATIONS)}")
        if step.basis_kind not in BASIS_KINDS:
            raise LadderError(f"{here}: basis_kind '{step.basis_kind}' is not one of {', '.join(BASIS_KINDS)}")
        if step.smaller == step.larger or (step.smaller, step.larger) in seen:
            raise LadderError(f"{here}: a step compares two different platforms once")
        seen.add((step.smaller, step.larger))
        for record_id, own in ((step.smaller, step.smaller_drive), (step.larger, step.larger_drive)):
            drive_id = own or setups[step.setup].drive
            found = catalog.find(drive_id)
            if not isinstance(found, Drive) or not drive_fits_controller(found, catalog.get(record_id, Controller),
                                                                         catalog):
                raise LadderError(f"{here}: {record_id} does not take drive '{drive_id}'")
        steps.append(step)
    if not steps:
        raise LadderError(f"{where}: no [[step]]")
    return Ladders(setups, tuple(steps))


def ladders_path() -> Path:
    """The bundled ladder file, ``resources/validation/ladders.toml``."""
    return validation_dir() / "ladders.toml"


def load_ladders(catalog: Catalog, path: Path | None = None) -> Ladders:
    """Read and validate a ladder file (default: the bundled one, :func:`ladders_path`).

    Raises:
        LadderError: the file is unreadable, not TOML, or fails :func:`parse_ladders`.
    """
    path = path or ladders_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise LadderError(f"{path.name}: {exc}") from exc
    return parse_ladders(data, path.name, catalog)


def _shelf_for(records: tuple[Controller, ...], drive: Drive, count: int, catalog: Catalog) -> tuple[Shelf, ...]:
    """Per platform, the shelf its design uses: the first shelf (internal bays first) in the first platform's list
    that every platform takes, that takes ``drive`` and has ``count`` bays; failing one, each platform's own first
    such shelf.

    Raises:
        LadderError: a platform has no shelf that takes ``count`` of ``drive``.
    """
    def fitting(record: Controller) -> list[Shelf]:
        found = [s for sid in record.shelves if isinstance(s := catalog.find(sid), Shelf)]
        found = [s for s in found if s.bays >= count and drive_fits_shelf(drive, s)]
        return sorted(found, key=lambda s: not s.internal)

    lists = [fitting(r) for r in records]
    common = [s for s in lists[0] if all(any(s.id == o.id for o in other) for other in lists[1:])]
    if common:
        return tuple(common[0] for _ in records)
    for record, own in zip(records, lists):
        if not own:
            raise LadderError(f"{record.name}: no shelf of the catalog takes {count} x {drive.name}")
    return tuple(own[0] for own in lists)


def _front_end(records: tuple[Controller, ...], protocol: str, catalog: Catalog) -> tuple[LinkType, int]:
    """The front-end link type and port count both platforms of a step run: the fastest of
    :data:`FRONT_END_LINKS` no faster than the slower platform's ports, on as many ports as the platform with fewer
    has (at most :data:`MAX_FRONT_END_PORTS`).

    Raises:
        LadderError: a platform does not serve ``protocol`` or no catalogued link fits.
    """
    fc = protocol in ("FCP", "NVMe/FC")
    for r in records:
        if protocol not in r.protocols:
            raise LadderError(f"{r.name} does not serve {protocol}")
    speed = min(r.fc_port_speed_gbps if fc else r.ethernet_port_speed_gbps for r in records)
    ports = min((r.fc_ports_per_node if fc else r.ethernet_ports_per_node) * r.nodes for r in records)
    for lid in FRONT_END_LINKS[protocol]:
        link = catalog.find(lid)
        if isinstance(link, LinkType) and link.speed_gbps <= speed and ports > 0:
            return link, min(ports, MAX_FRONT_END_PORTS)
    raise LadderError(f"no catalogued {protocol} link fits {' and '.join(r.name for r in records)}")


def _adapter_for(link: LinkType, catalog: Catalog) -> Adapter:
    """The hosts' adapter for ``link``: the slowest catalogued adapter speaking its protocol at least as fast as the
    link, else the fastest (the sizer's rule).

    Raises:
        LadderError: no catalogued adapter speaks the link's protocol.
    """
    fits = sorted((a for a in catalog.of_kind(Adapter) if set(link.protocols) & set(a.protocols)),
                  key=lambda a: (a.speed_gbps < link.speed_gbps,
                                 a.speed_gbps if a.speed_gbps >= link.speed_gbps else -a.speed_gbps, a.id))
    if not fits:
        raise LadderError(f"no catalogued host adapter speaks {link.name}")
    return fits[0]


def ladder_scenario(record: Controller, shelf: Shelf, drive: Drive, count: int, link: LinkType, ports: int,
                    workload: Workload, catalog: Catalog) -> Scenario:
    """One platform's design for a ladder step: :data:`HOST_GROUPS` hosts linked straight to the controller pair
    over ``ports`` ports of ``link`` (spread over the hosts), the controller on its default software with the
    sizer's RAID defaults (ONTAP: its default RAID type for the drive and minimum spares, no partitioning;
    E-Series: a Dynamic Disk Pool with SANtricity's default preservation capacity), one ``shelf`` holding
    ``count`` ``drive`` drives over the shelf's back-end link, and ``workload`` aimed at it without a target (the
    saturation and light-load latency do not depend on one)."""
    ontap = record.family == "ONTAP"
    hosts = HostNode(id="hosts", catalog_id=HOST_RECORD, count=HOST_GROUPS, adapter=_adapter_for(link, catalog).id)
    controller = ControllerNode(id="array", catalog_id=record.id, raid_type=ontap_default_raid(drive) if ontap
                                else "ddp", spares_per_node=ONTAP_MIN_SPARES[drive.media] if ontap else 0, adp="none",
                                ddp_preservation_drives=1 if ontap else ddp_default_preservation(count))
    shelf_node = ShelfNode(id="shelf", catalog_id=shelf.id, drive=drive.id, drive_count=count)
    links = [Link(id="fe", source="hosts", target="array", link_type=link.id, ports=ports),
             Link(id="be", source="array", target="shelf", link_type=shelf.backend_link, ports=shelf.backend_lanes)]
    w = workload.model_copy(update={"target": "array", "hosts": ["hosts"], "target_iops": None})
    return Scenario(name=f"ladder {record.name}", nodes=[hosts, controller, shelf_node], links=links, workloads=[w])


@lru_cache(maxsize=1)
def ladder_workloads() -> dict[str, Workload]:
    """The two bundled workloads: "oltp" (the :data:`OLTP_PRESET` preset) and "nfs" (the :data:`NFS_EXAMPLE`
    example's :data:`NFS_WORKLOAD` workload), neither with a target IOPS."""
    oltp = bundled_presets()[OLTP_PRESET].make("oltp", "array")
    project = load_any(examples_dir() / NFS_EXAMPLE)
    nfs = next(w for w in project.scenario.workloads if w.id == NFS_WORKLOAD)
    return {"oltp": oltp, "nfs": nfs.model_copy(update={"target_iops": None})}


@dataclass(frozen=True)
class PlatformPoint:
    """One platform's prediction on a ladder design: saturation (I/O or NFS operations per second), storage-side
    light-load latency (ms), the bottleneck station's name, and how its profile was obtained ("calibrated",
    "derived", "assumed" or "uncalibrated default")."""

    saturation: float
    light_ms: float
    bottleneck: str
    profile: str


def evaluate_point(scenario: Scenario, catalog: Catalog) -> PlatformPoint:
    """The saturation and light-load latency of ``scenario``'s one workload, as ``evaluate_performance`` reports
    them for a workload alone (open-model asymptotic bound over the path's stations; storage-side latency at no
    load).

    Raises:
        models.performance.PathError: the path cannot be built.
    """
    workload = scenario.workloads[0]
    path = build_path(scenario, catalog, workload)
    rf = path.read_fraction
    sat, idx = saturation_iops(path.stations, rf)
    demands = [s.demand(rf) for s in path.stations]
    light = open_storage_latency_ms(path.stations, demands, 0.0, rf)
    node = scenario.node(workload.target)
    record = catalog.find(node.catalog_id) if node is not None else None
    profile = ""
    if isinstance(record, Controller) and isinstance(node, ControllerNode):
        profile = _profile_label(record, node.software or record.default_software, path.protocol, catalog)
    return PlatformPoint(sat, light if light is not None else math.nan,
                         path.stations[idx].name if idx is not None else "", profile)


def _profile_label(record: Controller | CloudVm, software: str, protocol: str, catalog: Catalog) -> str:
    """"calibrated", "derived", "assumed" (a profile none of whose fields was fitted) or "uncalibrated default"
    (no profile: ``paths.UNCALIBRATED_PROFILE``), as the path builder decides (``controller_profile``)."""
    profile, note = controller_profile(record, catalog, software, protocol)
    if profile is None:
        return "uncalibrated default"
    return profile_kind(profile, True, note)


@dataclass(frozen=True)
class LadderCheck:
    """One step on one workload: both platforms' points and the verdict.

    Attributes:
        step: the :class:`LadderStep`. workload: "oltp" or "nfs". protocol: the protocol evaluated.
        smaller, larger: the two :class:`PlatformPoint` s. holds: saturation and light-load latency both within
        tolerance (:data:`SATURATION_TOLERANCE`, :data:`LATENCY_TOLERANCE`). why: in words, what fails ("" when
        it holds). contradicted: it fails, and only in respects that the step's cited public figure contradicts on
        this workload (:func:`contradicted_only`).
    """

    step: LadderStep
    workload: str
    protocol: str
    smaller: PlatformPoint
    larger: PlatformPoint
    holds: bool
    why: str = ""
    contradicted: bool = False


def failures(smaller: PlatformPoint, larger: PlatformPoint) -> list[tuple[str, str]]:
    """What of the larger platform's point is below the smaller's: (respect of :data:`RESPECTS`, in words) each."""
    fails = []
    if not larger.saturation >= smaller.saturation * (1 - SATURATION_TOLERANCE):
        fails.append(("saturation", f"saturation {larger.saturation / smaller.saturation - 1:+.1%}"))
    if not larger.light_ms <= smaller.light_ms * (1 + LATENCY_TOLERANCE):
        fails.append(("light-load latency", f"light-load latency {larger.light_ms / smaller.light_ms - 1:+.1%}"))
    return fails


def verdict(smaller: PlatformPoint, larger: PlatformPoint) -> tuple[bool, str]:
    """Whether the larger platform's point is not below the smaller's: (holds, what fails in words)."""
    fails = failures(smaller, larger)
    return not fails, "; ".join(text for _, text in fails)


def contradicted_only(step: LadderStep, workload: str, failed: list[tuple[str, str]]) -> bool:
    """True when ``failed`` (:func:`failures`) is not empty and every respect in it is one that the step's cited
    public figure contradicts on ``workload`` (its ``contradicts`` and ``contradicted_workloads``)."""
    return (bool(failed) and bool(step.contradicted) and workload in step.contradicted_workloads
            and all(respect in step.contradicts for respect, _ in failed))


@dataclass
class LadderRun:
    """The checks of every step (file order; per step OLTP, OLTP on NVMe/FC, then NFS) and the steps that could not be
    evaluated (step, reason)."""

    checks: list[LadderCheck] = field(default_factory=list)
    errors: list[tuple[LadderStep, str]] = field(default_factory=list)

    @property
    def holding(self) -> int:
        """How many checks hold."""
        return sum(c.holds for c in self.checks)

    @property
    def contradicted(self) -> int:
        """How many checks fail only where a cited public figure says so (:attr:`LadderCheck.contradicted`)."""
        return sum(c.contradicted for c in self.checks)


def step_workloads(step: LadderStep, ladders: Ladders, catalog: Catalog) -> list[tuple[str, str]]:
    """The (workload, protocol) pairs a step is checked on: the OLTP workload on the setup's block protocol, the
    same workload on NVMe/FC too where that block protocol is FCP and both platforms speak NVMe/FC
    (:data:`ALSO_ON`: the same FC ports, another per-operation cost), and the NFS workload when the setup asks
    for it and both platforms serve NFS."""
    setup = ladders.setups[step.setup]
    records = [catalog.get(c, Controller) for c in (step.smaller, step.larger)]
    out = [("oltp", setup.block_protocol)]
    out += [("oltp", p) for p in ALSO_ON.get(setup.block_protocol, ()) if all(p in r.protocols for r in records)]
    if setup.nfs and all("NFS" in r.protocols for r in records):
        out.append(("nfs", "NFS"))
    return out


def check_step(step: LadderStep, ladders: Ladders, catalog: Catalog, workload: str, protocol: str) -> LadderCheck:
    """One step on one workload: both platforms' designs (:func:`ladder_scenario`, the same drives, shelf where both
    take it, hosts and front end), each evaluated (:func:`evaluate_point`), and the :func:`verdict`.

    Raises:
        LadderError: no shelf or front end fits; models.performance.PathError: a path cannot be built.
    """
    setup = ladders.setups[step.setup]
    records = (catalog.get(step.smaller, Controller), catalog.get(step.larger, Controller))
    drives = tuple(catalog.get(own or setup.drive, Drive) for own in (step.smaller_drive, step.larger_drive))
    if drives[0].id == drives[1].id:
        shelves = _shelf_for(records, drives[0], setup.drive_count, catalog)
    else:
        shelves = tuple(_shelf_for((r,), d, setup.drive_count, catalog)[0] for r, d in zip(records, drives))
    link, ports = _front_end(records, protocol, catalog)
    base = ladder_workloads()[workload]
    points = [evaluate_point(ladder_scenario(r, s, d, setup.drive_count, link, ports, base, catalog), catalog)
              for r, s, d in zip(records, shelves, drives)]
    failed = failures(points[0], points[1])
    return LadderCheck(step, workload, protocol, points[0], points[1], not failed,
                       "; ".join(text for _, text in failed), contradicted_only(step, workload, failed))


def run_ladders(catalog: Catalog, ladders: Ladders | None = None) -> LadderRun:
    """Every step of ``ladders`` (default: the bundled file) on each of its workloads (:func:`step_workloads`);
    a step that cannot be evaluated is listed with its reason, not counted.

    Raises:
        LadderError: the bundled file is malformed (:func:`load_ladders`).
    """
    from models.performance import PathError

    ladders = ladders or load_ladders(catalog)
    run = LadderRun()
    for step in ladders.steps:
        for workload, protocol in step_workloads(step, ladders, catalog):
            try:
                run.checks.append(check_step(step, ladders, catalog, workload, protocol))
            except (LadderError, PathError) as exc:
                run.errors.append((step, f"{workload}: {exc}"))
    return run


@dataclass(frozen=True)
class PlatformBasis:
    """How one catalog platform's bundled workloads evaluate.

    Attributes:
        id, name: the record's. kind: "controller", "cloud VM" or "managed service". bases: per protocol
        evaluated (the OLTP workload's block protocol, then NFS where served) the profile label
        (:func:`_profile_label`; "published service limits" for a managed service, which runs on no CPU
        profile). on_default: any of them is the uncalibrated default.
    """

    id: str
    name: str
    kind: str
    bases: tuple[tuple[str, str], ...]

    @property
    def on_default(self) -> bool:
        """True when a bundled workload evaluates with the uncalibrated default CPU costs."""
        return any(label == "uncalibrated default" for _, label in self.bases)


BLOCK_ORDER = ("FCP", "NVMe/FC", "iSCSI", "NVMe/TCP")
"""The block protocol a platform's OLTP workload is evaluated on: the first of these it serves."""

CVO_SOFTWARE = "9.5"
"""The software the Cloud Volumes ONTAP path runs (models.evaluate.with_profile_bases)."""


def platform_bases(catalog: Catalog) -> list[PlatformBasis]:
    """Per controller, cloud VM and managed service of ``catalog`` (catalog order within each kind), the profile
    its bundled OLTP workload (first protocol of :data:`BLOCK_ORDER` it serves) and NFS workload (where it serves
    NFS) evaluate with."""
    out: list[PlatformBasis] = []
    for record in catalog:
        if isinstance(record, (Controller, CloudVm)):
            software = record.default_software if isinstance(record, Controller) else CVO_SOFTWARE
            protocols = [p for p in BLOCK_ORDER if p in record.protocols][:1]
            protocols += ["NFS"] if "NFS" in record.protocols else []
            bases = tuple((p, _profile_label(record, software, p, catalog)) for p in protocols)
            kind = "controller" if isinstance(record, Controller) else "cloud VM"
            out.append(PlatformBasis(record.id, record.name, kind, bases))
    for record in catalog:
        if isinstance(record, ManagedService):
            out.append(PlatformBasis(record.id, record.name, "managed service",
                                     (("NFS", "published service limits"),)))
    return out
