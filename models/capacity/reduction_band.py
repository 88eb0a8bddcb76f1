"""Capacity bands: the data-reduction ratio as a distribution, the effective capacity and runway it gives, and the
break-even ratio at which a design stops fitting.

The data-reduction ratio (logical / physical: compression, compaction, deduplication; Snapshot copies, clones and
thin provisioning not counted) is the largest uncertainty of an effective-capacity answer: vendors publish it as a
range per workload type, and what a customer's data gives is known only once it is stored. This module turns that
range into a P10 / P50 / P90 band.

Rules (pure functions; every capacity in bytes, every ratio logical / physical):

- **Workload type.** Each workload is read as one type (:data:`WORKLOAD_TYPES`) by its preset, else by words in
  its name, else as a file workload when it is NFS / SMB, else ``general`` (:func:`workload_type`).
- **Distribution.** Each type has a P10 / P50 / P90 ratio (:data:`PUBLISHED`, each with its public source, or
  marked assumed where no public figure exists). The user's own rows (``Settings.data_reduction_bands``) replace
  them: a workload's own row (by workload id) wins over its type's row, which wins over the published figures.
- **Band of a workload.** The workload's own ratio (what the engine uses, after the platform's inline efficiency)
  is its P50; the distribution's spread sets the other two: ``P10 = max(1, r x p10 / p50)``,
  ``P90 = r x p90 / p50``. A platform that applies no data reduction (no compression, compaction or deduplication)
  keeps 1:1 at every quantile: its band has no width because the figure is exact by definition.
- **Band of a system.** The workloads of one design move together (one customer's data, read by one sizing
  estimate): the P10 of the effective capacity is every workload at its P10 ratio (the band is wider than it
  would be for independent workloads; a conservative reading). ``effective_q = usable x L / sum(L_i / r_i,q)``;
  the physical used at a quantile is each workload's data ``L_i / r_i,q`` plus its Snapshot blocks (the same
  share of it as in the engine), and the runway (months until full) follows the engine's growth rule,
  (1 + g)^(months / 12) (``models.capacity.efficiency``, :func:`models.units.growth_factor`). The P10 ratio gives
  the P10 effective capacity and the shortest runway.
- **Break-even.** Every workload's ratio scaled by one factor k scales the blended ratio by k. A design fits its
  required capacity over the horizon when (a) its effective capacity reaches the need (the requirement's
  effective capacity, else the enabled workloads' data sets grown over the horizon, as the sizer's
  ``needed_effective_bytes``) and (b) each system's physical used, grown over the horizon, fits its usable
  capacity. (a) holds for ``k >= need / effective`` and (b) for ``k >= P_H / usable``, P_H the grown physical
  used; the break-even ratio is ``max`` of the two times today's blended ratio. Below it the design stops fitting.

Sources of the published figures:
  Pure Storage, "Introducing the Dedupe Ticker: A Call for Data Reduction Transparency" (blog),
  https://blog.purestorage.com/perspectives/introducing-the-dedupe-ticker-a-call-for-data-reduction-transparency/
  (databases 2-5x, server virtualisation 4-8x, VDI 5-10x, "pretty typically seen" on deployed FlashArrays);
  NetApp TR-3505, "NetApp Deduplication for FAS and V-Series Deployment and Implementation Guide", section 3.3,
  table 4, http://media.netapp.com/documents/tr-3505.pdf (typical deduplication savings: file services 35%,
  audio / video 10%);
  Dell, "PowerStore: What to do if DRR (Data Reduction Ratio) is less than expected" (knowledge base 000267460),
  https://www.dell.com/support/kbdoc/en-us/000267460 (a 4:1 or 5:1 guarantee on reducible data).
A published range "a-b" is read as P10-P90 (an assumption: the sources give no percentiles) and its P50 as the
geometric mean sqrt(a x b).
"""


import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from models.capacity.efficiency import _months_until_full, snapshot_copies
from models.capacity.results import CapacityResult, ScenarioCapacity
from models.project.model import ControllerNode, DataReductionBand, Requirements, Scenario, Workload
from models.units import growth_factor

__all__ = ["PUBLISHED", "WORKLOAD_TYPES", "CapacityBand", "ReductionDistribution", "SystemBand", "WorkloadBand",
           "capacity_band", "distribution_for", "needed_effective_bytes", "workload_type"]

WORKLOAD_TYPES: Mapping[str, str] = {
    "database": "Databases (OLTP)",
    "vm": "Virtual machines (server virtualisation)",
    "vdi": "Virtual desktops (VDI)",
    "file": "File services",
    "analytics": "Analytics",
    "media": "Media and streaming (already compressed)",
    "general": "Other or unknown",
}
"""Workload type key -> its label, in the order a table lists them."""

_PURE = ("Pure Storage, \"Introducing the Dedupe Ticker: A Call for Data Reduction Transparency\", "
         "https://blog.purestorage.com/perspectives/introducing-the-dedupe-ticker-a-call-for-data-reduction-"
         "transparency/")
_TR3505 = ("NetApp TR-3505, \"NetApp Deduplication for FAS and V-Series Deployment and Implementation Guide\", "
           "section 3.3, table 4, http://media.netapp.com/documents/tr-3505.pdf")
_DELL = ("Dell knowledge base 000267460, \"PowerStore: What to do if DRR (Data Reduction Ratio) is less than "
         "expected\", https://www.dell.com/support/kbdoc/en-us/000267460")


@dataclass(frozen=True)
class ReductionDistribution:
    """A data-reduction ratio as P10 / P50 / P90 (logical / physical, each >= 1, P10 <= P50 <= P90).

    ``source``: where the figures come from (a public document by title and address, the user's words, or
    "assumed: ..."); ``assumed``: no public figure stands behind the spread; ``user``: the user's own row.
    """

    workload_type: str
    p10: float
    p50: float
    p90: float
    source: str
    assumed: bool = False
    user: bool = False

    @property
    def low_factor(self) -> float:
        """P10 / P50: how far below a workload's own ratio its P10 lies."""
        return self.p10 / self.p50

    @property
    def high_factor(self) -> float:
        """P90 / P50: how far above a workload's own ratio its P90 lies."""
        return self.p90 / self.p50


def _range(key: str, low: float, high: float, source: str) -> ReductionDistribution:
    """A published range low-high read as P10-P90, its P50 the geometric mean."""
    return ReductionDistribution(key, low, math.sqrt(low * high), high,
                                 f"{source} ({low:g}-{high:g}x, read as P10-P90; P50 their geometric mean)")


PUBLISHED: Mapping[str, ReductionDistribution] = {
    "database": _range("database", 2.0, 5.0, _PURE),
    "vm": _range("vm", 4.0, 8.0, _PURE),
    "vdi": _range("vdi", 5.0, 10.0, _PURE),
    "file": ReductionDistribution(
        "file", 1.2, 1 / (1 - 0.35), 2.5,
        f"P50: {_TR3505} (file services: 35% saved by deduplication, 1.54:1); assumed: P10 1.2:1 and P90 2.5:1 "
        "(no public spread)", assumed=True),
    "media": ReductionDistribution(
        "media", 1.0, 1 / (1 - 0.10), 1.3,
        f"P50: {_TR3505} (audio / video files: 10% saved, 1.11:1); assumed: P10 1:1 and P90 1.3:1 (no public "
        "spread)", assumed=True),
    "analytics": ReductionDistribution(
        "analytics", 1.2, 1.8, 3.0,
        "assumed: no public figure for a generic analytics store (columnar formats arrive compressed); P10 1.2:1, "
        "P50 1.8:1, P90 3:1", assumed=True),
    "general": ReductionDistribution(
        "general", 1.5, 3.0, 5.0,
        f"assumed: P10 1.5:1, P50 3:1, P90 5:1 for data of unknown kind; for comparison, {_DELL} states a 4:1 or "
        "5:1 guarantee on reducible data", assumed=True),
}
"""The published (or, where marked, assumed) distribution of each workload type (module docstring for sources)."""

_PRESET_TYPES: Mapping[str, str] = {
    "tpce-oltp": "database", "slob-select": "database", "slob-75-25": "database", "oltp-8k-70-30": "database",
    "vsan-tpce-sql": "database", "streaming-read-64k": "media", "streaming-write-64k": "media",
    "analytics-16k-50-50": "analytics", "sas-mixed-analytics": "analytics",
}
"""Bundled preset id -> workload type (``resources/workloads/presets.toml``)."""


@lru_cache(maxsize=1)
def _name_types() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Words of a workload's name -> its type, first match wins (for workloads without a known preset; compiled on
    first use: a workload of a bundled preset never needs them)."""
    return (
        (re.compile(r"\bvdi\b|desktop", re.IGNORECASE), "vdi"),
        (re.compile(r"\bvms?\b|vmware|hyper-v|virtual machine|datastore|vsphere", re.IGNORECASE), "vm"),
        (re.compile(r"\bsql\b|sql server|oracle|database|\boltp\b|\bdb\b|postgres|mysql|sap hana", re.IGNORECASE),
         "database"),
        (re.compile(r"\bfile|home dir|\bshares?\b|\bsmb\b|\bnfs\b", re.IGNORECASE), "file"),
        (re.compile(r"analytic|warehouse|\bsas\b|hadoop|spark", re.IGNORECASE), "analytics"),
        (re.compile(r"video|media|stream|backup", re.IGNORECASE), "media"),
    )


def workload_type(workload: Workload) -> str:
    """The workload type key (:data:`WORKLOAD_TYPES`) of a workload: by its preset, else by words in its name
    (VDI, VMware, SQL, file, analytics, video...), else ``file`` for an NFS / SMB workload, else ``general``."""
    if workload.preset is not None and workload.preset in _PRESET_TYPES:
        return _PRESET_TYPES[workload.preset]
    for pattern, key in _name_types():
        if pattern.search(workload.name):
            return key
    return "file" if workload.nas is not None else "general"


def distribution_for(workload: Workload, overrides: Iterable[DataReductionBand] = ()) -> ReductionDistribution:
    """The distribution that applies to ``workload``: the user's row for its id, else for its type, else the
    published one of its type (:data:`PUBLISHED`)."""
    kind = workload_type(workload)
    rows = {row.applies_to: row for row in overrides}
    row = rows.get(workload.id) or rows.get(kind)
    if row is not None:
        whose = f"workload '{workload.name}'" if row.applies_to == workload.id else WORKLOAD_TYPES[kind]
        source = f"the project's own figures for {whose}" + (f": {row.source}" if row.source else "")
        return ReductionDistribution(kind, row.p10, row.p50, row.p90, source, user=True)
    return PUBLISHED[kind]


def needed_effective_bytes(scenario: Scenario, requirements: Requirements) -> float:
    """The effective capacity a design must give, bytes: the requirement's, else the enabled workloads' data sets
    each grown by its yearly growth as (1 + g)^(months / 12) over the horizon (the sizer's rule,
    ``models.sizing.needed_effective_bytes``)."""
    if requirements.effective_capacity_bytes:
        return float(requirements.effective_capacity_bytes)
    return sum(w.dataset_bytes * growth_factor(w.growth_pct_per_year, requirements.horizon_months)
               for w in scenario.workloads if w.enabled)


@dataclass(frozen=True)
class WorkloadBand:
    """One workload's data-reduction ratio at P10 / P50 / P90 as the platform applies it (P50 = the engine's).

    ``workload_type`` is a :data:`WORKLOAD_TYPES` key; ``distribution`` the one whose spread was used;
    ``reduces`` is False where the platform applies no data reduction (all three quantiles 1:1); ``reduction_off``
    then says why when the platform could (``CapacityResult.reduction_off``: the design's setting).
    """

    workload_id: str
    name: str
    system_id: str
    workload_type: str
    ratio_p10: float
    ratio_p50: float
    ratio_p90: float
    distribution: ReductionDistribution
    reduces: bool = True
    reduction_off: str = ""


@dataclass(frozen=True)
class SystemBand:
    """One system's effective capacity (bytes), blended data-reduction ratio and months until full (None: it
    never fills) at the P10 / P50 / P90 data-reduction ratio; P50 equals the engine's figures."""

    system_id: str
    system_label: str
    usable_bytes: float
    effective_bytes_p10: float
    effective_bytes_p50: float
    effective_bytes_p90: float
    data_reduction_ratio_p10: float
    data_reduction_ratio_p50: float
    data_reduction_ratio_p90: float
    months_until_full_p10: float | None
    months_until_full_p50: float | None
    months_until_full_p90: float | None
    physical_used_bytes_p10: float = 0.0
    physical_used_bytes_p50: float = 0.0
    physical_used_bytes_p90: float = 0.0
    physical_used_at_horizon_bytes: float = 0.0


@dataclass(frozen=True)
class CapacityBand:
    """The capacity band of a scenario (module docstring for the rules).

    Attributes:
        effective_bytes_p10 / _p50 / _p90: the effective capacities of the systems that serve workloads (as
            ``ScenarioCapacity.total``: a replication-only destination left out) summed, bytes.
        data_reduction_ratio_p10 / _p50 / _p90: blended, total logical data / total physical data.
        months_until_full_p10 / _p50 / _p90: the first system to fill, months (None: nothing grows).
        physical_used_bytes_p10 / _p50 / _p90: the systems' physical used (data + Snapshot blocks) summed, bytes
            (the P10 ratio gives the most); usable_bytes: the systems' usable capacity summed.
        break_even_data_reduction_ratio: the blended ratio below which the design stops fitting its required
            capacity over the horizon; None when it cannot fit at any ratio (a system with data and no usable
            capacity) or holds no data.
        break_even_binds: "effective" (the effective-capacity need binds) or "usable" (the grown physical used).
        needed_effective_bytes, horizon_months: what the break-even was found against.
        needed_grown: True when ``needed_effective_bytes`` is the workloads' data grown over the horizon (no stated
            requirement), so a sentence says so beside the data the design holds now.
        systems, workloads: the detail; notes: the rules in words, for the report and tooltips.
    """

    effective_bytes_p10: float
    effective_bytes_p50: float
    effective_bytes_p90: float
    data_reduction_ratio_p10: float
    data_reduction_ratio_p50: float
    data_reduction_ratio_p90: float
    months_until_full_p10: float | None
    months_until_full_p50: float | None
    months_until_full_p90: float | None
    physical_used_bytes_p10: float
    physical_used_bytes_p50: float
    physical_used_bytes_p90: float
    usable_bytes: float
    break_even_data_reduction_ratio: float | None
    break_even_binds: str
    needed_effective_bytes: float
    horizon_months: int
    needed_grown: bool = False
    systems: tuple[SystemBand, ...] = ()
    workloads: tuple[WorkloadBand, ...] = ()
    notes: tuple[str, ...] = ()

    def system(self, system_id: str) -> SystemBand | None:
        """The band of the system with this id, or None."""
        return next((s for s in self.systems if s.system_id == system_id), None)


@dataclass(frozen=True)
class _Part:
    logical: float
    ratios: tuple[float, float, float]  # P10, P50, P90 as applied
    snapshot_share: float  # Snapshot blocks per byte of physical data
    growth_pct: float
    hot: float = 1.0  # share of the physical data held by the system (FabricPool: the rest is in the capacity tier)


def _applied_ratio(workload: Workload, inline: tuple[bool, bool, bool]) -> float:
    """The workload's ratio as the platform applies it (a reduction it does not apply counts 1:1)."""
    c, k, d = inline
    return ((workload.compression_ratio if c else 1.0) * (workload.compaction_ratio if k else 1.0)
            * (workload.dedupe_ratio if d else 1.0))


def _snapshot_share(workload: Workload) -> float:
    """Snapshot blocks per byte of physical data: copies x the share each holds (``models.capacity.efficiency``)."""
    snap = workload.snapshots
    if snap is None:
        return 0.0
    return snapshot_copies(snap.interval_h, snap.retention_h) * min(1.0, snap.change_pct_per_h / 100.0
                                                                     * snap.interval_h)


def _ratio(logical: float, physical: float) -> float:
    return logical / physical if logical > 0 and physical > 0 else 1.0


def _system_band(result: CapacityResult, workloads: Sequence[Workload], overrides: Sequence[DataReductionBand],
                 horizon_months: int, tiered: bool = False) -> tuple[SystemBand, list[WorkloadBand]]:
    """The band of one system and of its workloads; ``tiered``: the system has a FabricPool capacity tier, so
    each workload's cold-data share of its physical data is not in its physical used
    (``models.capacity.fabricpool``)."""
    reduces = any(result.inline_efficiency)
    parts: list[_Part] = []
    bands: list[WorkloadBand] = []
    for w in workloads:
        dist = distribution_for(w, overrides)
        r = _applied_ratio(w, result.inline_efficiency)
        ratios = (max(1.0, r * dist.low_factor), r, r * dist.high_factor) if reduces else (1.0, 1.0, 1.0)
        parts.append(_Part(float(w.dataset_bytes), ratios, _snapshot_share(w), w.growth_pct_per_year,
                           1.0 - w.cold_data_pct / 100.0 if tiered else 1.0))
        bands.append(WorkloadBand(w.id, w.name, result.system_id, dist.workload_type, *ratios, distribution=dist,
                                  reduces=reduces, reduction_off=result.reduction_off))
    usable = result.usable_bytes
    logical = sum(p.logical for p in parts)
    effective: list[float] = []
    drr: list[float] = []
    months: list[float | None] = []
    used: list[float] = []
    for q in range(3):
        physical = sum(p.logical / p.ratios[q] for p in parts)
        ratio = _ratio(logical, physical)
        drr.append(ratio)
        effective.append(usable * ratio)
        growth = [(p.logical / p.ratios[q] * (p.hot + p.snapshot_share), p.growth_pct) for p in parts]
        months.append(_months_until_full(growth, usable))
        used.append(sum(part for part, _ in growth))
    grown = sum(p.logical / p.ratios[1] * (p.hot + p.snapshot_share) * growth_factor(p.growth_pct, horizon_months)
                for p in parts)
    band = SystemBand(
        result.system_id, result.system_label, usable, effective_bytes_p10=effective[0],
        effective_bytes_p50=effective[1], effective_bytes_p90=effective[2], data_reduction_ratio_p10=drr[0],
        data_reduction_ratio_p50=drr[1], data_reduction_ratio_p90=drr[2], months_until_full_p10=months[0],
        months_until_full_p50=months[1], months_until_full_p90=months[2], physical_used_bytes_p10=used[0],
        physical_used_bytes_p50=used[1], physical_used_bytes_p90=used[2], physical_used_at_horizon_bytes=grown)
    return band, bands


def _shortest(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return min(known) if known else None


def capacity_band(scenario: Scenario, capacity: ScenarioCapacity, overrides: Sequence[DataReductionBand] = (),
                  requirements: Requirements | None = None) -> CapacityBand:
    """The capacity band of a scenario from its capacity result (module docstring for the rules).

    Args:
        scenario: the scenario evaluated (its enabled workloads, by target, as the capacity engine counted them).
        capacity: ``models.capacity.evaluate_capacity`` of the same scenario.
        overrides: the project's own distributions (``Settings.data_reduction_bands``).
        requirements: the project's requirements (the need and the horizon of the break-even); None: defaults.

    Returns:
        A :class:`CapacityBand`; pure, raises nothing for any valid scenario.
    """
    req = requirements if requirements is not None else Requirements()
    by_target: dict[str, list[Workload]] = {}
    for w in scenario.workloads:
        if w.enabled:
            by_target.setdefault(w.target, []).append(w)
    systems: list[SystemBand] = []
    workloads: list[WorkloadBand] = []
    tiers = {n.id for n in scenario.nodes if isinstance(n, ControllerNode) and n.capacity_tier != "none"}
    for result in capacity.systems:
        band, bands = _system_band(result, by_target.get(result.system_id, []), overrides, req.horizon_months,
                                   result.family == "ONTAP" and result.system_id in tiers)
        systems.append(band)
        workloads.extend(bands)
    counted = [s for s in systems if not capacity.is_replica_only(s.system_id)]  # as ScenarioCapacity.total
    logical = sum(p.logical_data_bytes for p in (r.efficiency for r in capacity.counted))
    physical = [sum(w_logical / ratios[q] for w_logical, ratios in _workload_parts(scenario, workloads))
                for q in range(3)]
    drr = [_ratio(logical, p) for p in physical]
    need = needed_effective_bytes(scenario, req)
    effective_now = sum(s.effective_bytes_p50 for s in counted)
    factors = {"effective": need / effective_now if effective_now > 0 else math.inf}
    usable_factor = 0.0
    for s in counted:
        if s.physical_used_at_horizon_bytes > 0:
            usable_factor = max(usable_factor, s.physical_used_at_horizon_bytes / s.usable_bytes
                                if s.usable_bytes > 0 else math.inf)
    factors["usable"] = usable_factor
    binds = max(factors, key=lambda key: factors[key])
    factor = factors[binds]
    break_even = factor * drr[1] if math.isfinite(factor) and logical > 0 else None
    notes = (
        "Each workload's own data-reduction ratio is its P50; the published spread of its workload type (or the "
        "project's own figures) sets its P10 and P90. The workloads of a design are taken to move together, so the "
        "band is a conservative one.",
        f"Break-even: the blended data-reduction ratio below which the design no longer gives the "
        f"{'required' if req.effective_capacity_bytes else 'grown data sets'} effective capacity or no longer holds "
        f"its data, grown over {req.horizon_months} months, in its usable capacity.",
    )
    return CapacityBand(
        effective_bytes_p10=sum(s.effective_bytes_p10 for s in counted), effective_bytes_p50=effective_now,
        effective_bytes_p90=sum(s.effective_bytes_p90 for s in counted),
        data_reduction_ratio_p10=drr[0], data_reduction_ratio_p50=drr[1], data_reduction_ratio_p90=drr[2],
        months_until_full_p10=_shortest(s.months_until_full_p10 for s in counted),
        months_until_full_p50=_shortest(s.months_until_full_p50 for s in counted),
        months_until_full_p90=_shortest(s.months_until_full_p90 for s in counted),
        physical_used_bytes_p10=sum(s.physical_used_bytes_p10 for s in counted),
        physical_used_bytes_p50=sum(s.physical_used_bytes_p50 for s in counted),
        physical_used_bytes_p90=sum(s.physical_used_bytes_p90 for s in counted),
        usable_bytes=sum(s.usable_bytes for s in counted),
        break_even_data_reduction_ratio=break_even, break_even_binds=binds, needed_effective_bytes=need,
        needed_grown=not req.effective_capacity_bytes,
        horizon_months=req.horizon_months, systems=tuple(systems), workloads=tuple(workloads), notes=notes)


def _workload_parts(scenario: Scenario, bands: Sequence[WorkloadBand]) -> list[tuple[float, tuple[float, ...]]]:
    """(logical bytes, (P10, P50, P90 ratio)) of each banded workload."""
    sizes = {w.id: float(w.dataset_bytes) for w in scenario.workloads}
    return [(sizes.get(b.workload_id, 0.0), (b.ratio_p10, b.ratio_p50, b.ratio_p90)) for b in bands]
