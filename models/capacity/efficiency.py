"""The effective side: from usable capacity to effective capacity, with the workloads' data reduction.

Definitions (DESIGN.md "Capacity (efficiency) engine"; seed 000 §1.3, §3.6):

- logical data L = sum of the system's enabled workloads' ``dataset_bytes``.
- inline efficiency in ONTAP's order: compression, then compaction, then deduplication; each workload's physical
  data is ``dataset / (compression x compaction x dedupe)``; each step is a line with the bytes it saves.
- Snapshot copies: N = floor(retention_h / interval_h) copies per workload; each holds the blocks overwritten in
  its interval, ``min(100%, change_pct_per_h x interval_h)`` of the workload's physical data; each counts the
  volume's logical size as logical (as ONTAP counts Snapshot logical space), and saves, against a full copy stored
  on the same system (which would take the physical data size), ``physical data - its delta``.
- FlexClone copies: ``clones`` logical copies of the dataset that cost no physical space until they change
  (assumed unchanged).
- thin provisioning: ``provisioned_bytes - dataset_bytes``, shown as a line; never physical.
- data-reduction ratio = logical data / physical data (compression, compaction, deduplication only); effective =
  usable x data-reduction ratio: the effective capacity a customer is sold (NetApp's storage efficiency guarantee
  counts data reduction without Snapshot copies and clones).
- efficiency ratio = total logical (data + Snapshot + clone logical) / physical used (data + Snapshot blocks +
  clone blocks), as ONTAP reports the total; effective with Snapshot copies and clones = usable x efficiency ratio
  (the seed report's "total effective capacity"). The effective-side steps multiply the usable capacity by the
  ratio each one adds: the data-reduction steps' product is the data-reduction ratio, all of them the efficiency
  ratio.
- growth: the physical used of each workload grows by its yearly growth g as (1 + g)^(months / 12)
  (:func:`models.units.growth_factor`: the effective annual rate, 30% a year is 1.30x after 12 months);
  months until full = first month the total reaches usable (None with no growth, 0 when already full).
"""


import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from models.capacity.fabricpool import FABRICPOOL_EFFICIENCY_SOURCE, TIERING_POLICY_SOURCE, snapshot_cold_share
from models.capacity.results import CapacityStep, EfficiencyDetail, frozen_inputs
from models.capacity.snapshots import snapshot_copies
from models.project import Workload
from models.units import format_capacity, growth_factor, monthly_growth_log

SEED_000 = "seed 000 §1.3, §3.6 (ONTAP inline compression, compaction, Snapshot copies; efficiency ratio)"
RATIO_SOURCE = ("the compression, compaction and deduplication ratios stated for each workload in this design (1:1 "
                "where none is stated)")

VSAN_OSA_REDUCTION = (
    "vSAN OSA deduplication and compression, per disk group (vSAN Management API, VsanDataEfficiencyConfig: 'new "
    "created all-flash disk group will do data deduplication', "
    "https://developer.broadcom.com/xapis/vsan-management-api/latest/vim.vsan.DataEfficiencyConfig.html)")
"""The mechanism of a vSAN OSA cluster's data reduction (all-flash disk groups)."""

VSAN_ESA_REDUCTION = (
    "vSAN ESA compression (and, from vSAN 9.0, deduplication) of the objects it writes, in the host's storage "
    "pool (ESA has no disk groups; vSAN Management API, DataEfficiencyCapacityState: esaCompressionSpaceSaving, "
    "esaDedupSpaceSaving, "
    "https://developer.broadcom.com/xapis/vsan-management-api/latest/vim.vsan.DataEfficiencyCapacityState.html)")
"""The mechanism of a vSAN ESA cluster's data reduction (no disk groups: per object, in the storage pool)."""

REDUCTION_MECHANISMS = {"vSAN": VSAN_OSA_REDUCTION, "vSAN ESA": VSAN_ESA_REDUCTION}
"""The data-reduction mechanism cited beside a platform's ratios, by the engine's platform name; ONTAP's is
:data:`SEED_000`, any other array's "the array's own compression / deduplication"."""


def reduction_terms(applied: tuple[bool, bool, bool] = (True, True, True)) -> str:
    """The inline data reductions a platform applies, in ONTAP's order, as words: ``applied`` is (compression,
    compaction, deduplication) as ``CapacityResult.inline_efficiency`` ("compression, compaction, deduplication"
    on ONTAP, "compression, deduplication" on vSAN with deduplication and compression on); "" when none."""
    return ", ".join(term for term, on in zip(("compression", "compaction", "deduplication"), applied) if on)


def _ratio_source(applied: tuple[bool, bool, bool]) -> str:
    """:data:`RATIO_SOURCE` naming only the ratios the platform applies (``applied`` as :func:`reduction_terms`)."""
    terms = [t for t, on in zip(("compression", "compaction", "deduplication"), applied) if on]
    if not terms or len(terms) == 3:
        return RATIO_SOURCE
    named = terms[0] if len(terms) == 1 else ", ".join(terms[:-1]) + " and " + terms[-1]
    return (f"the {named} ratio{'s' * (len(terms) > 1)} stated for each workload in this design (1:1 where none is "
            "stated)")


@functools.lru_cache(maxsize=8192)
def _fmt(value: float) -> str:
    """``value`` bytes as TiB text, in TiB even under 1 TiB (``0.91 TiB``, as the capacity table beside the formula
    reads); cached: the workload-side figures repeat across the sizer's designs."""
    return format_capacity(value, "TiB", fixed=True)


def _ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator, 1.0 when either is 0 (never NaN or inf)."""
    if numerator <= 0 or denominator <= 0:
        return 1.0
    value = numerator / denominator
    return value if math.isfinite(value) else 1.0


@dataclass(frozen=True)
class EffectiveSide:
    """What `effective_side` returns for one system: the usable -> effective steps and the figures behind them.

    Bytes throughout; ratios are logical / physical and never NaN or inf (1.0 when a side is 0); effective_bytes =
    usable x data_reduction_ratio; effective_with_snapshots_bytes = usable x efficiency_ratio; months_until_full is
    None with no growth, 0 when already full (module docstring gives the definitions and their source, seed 000
    §1.3, §3.6).
    """

    steps: tuple[CapacityStep, ...]
    detail: EfficiencyDetail
    notes: tuple[str, ...]
    logical_used_bytes: float
    physical_used_bytes: float
    data_reduction_ratio: float
    efficiency_ratio: float
    effective_bytes: float
    months_until_full: float | None
    effective_with_snapshots_bytes: float = 0.0


@dataclass(frozen=True)
class _Wl:
    name: str
    logical: float
    compression: float
    compaction: float
    dedupe: float
    snapshots_every_h: float | None
    snapshots_kept_h: float
    change_pct_per_h: float
    clones: int
    provisioned: float
    growth_pct: float


def effective_side(
    workloads: Sequence[Workload],
    usable_bytes: float,
    *,
    compression: bool = True,
    compaction: bool = True,
    dedupe: bool = True,
    platform: str = "ONTAP",
    protection_factor: float = 1.0,
    capacity_tier: bool | str = False,
    object_store: tuple[float, str] = (1.0, ""),
    reduction_off: str = "",
) -> EffectiveSide:
    """The effective side of one system.

    Args:
        workloads: the enabled workloads whose target is the system.
        usable_bytes: the system's usable capacity.
        compression / compaction / dedupe: whether the platform applies each inline efficiency; a ratio the
            platform cannot apply is taken as 1:1 with a note.
        platform: the platform's name for the notes.
        reduction_off: why the platform applies no data reduction here when it could (the design's setting), for
            the notes; "" when it applies what it can or none.
        protection_factor: raw bytes per data byte outside usable (vSAN FTT), kept in the detail.
        capacity_tier: the system has a FabricPool capacity tier (``models.capacity.fabricpool``): each workload's
            cold-data share leaves the physical used (a "FabricPool capacity tier" step); "snapshot-only": the
            tiering policy that moves only the cooled share of Snapshot blocks
            (``models.capacity.fabricpool.snapshot_cold_share``).
        object_store: the capacity tier's raw bytes per byte tiered and its protection in words
            (``models.capacity.fabricpool.object_store_protection``), shown in the FabricPool step.

    Everything but the usable capacity's levels comes from the workloads alone (:func:`_workload_side`, kept for
    the same workload objects and flags: the sizer asks it for thousands of designs of one project).
    """
    side = _workload_side(tuple(workloads), compression, compaction, dedupe, platform, protection_factor,
                          capacity_tier, object_store)
    steps: list[CapacityStep] = []
    level = usable_bytes
    for name, ratio, source, formula, inputs in side.steps:
        after = level * ratio if ratio is not None else level  # None: a line that changes nothing (thin)
        steps.append(CapacityStep(name, level, after, source, formula, inputs))
        level = after
    effective = usable_bytes * side.data_reduction_ratio
    with_snapshots = usable_bytes * side.efficiency_ratio
    notes = list(side.notes)
    if side.logical > 0:
        notes.append(
            f"Effective = usable x data-reduction ratio = {_fmt(usable_bytes)} x {side.data_reduction_ratio:.2f} = "
            f"{_fmt(effective)}; data-reduction ratio = logical data {_fmt(side.logical)} / physical data "
            f"{_fmt(side.detail.physical_data_bytes)} ("
            + (reduction_terms((compression, compaction, dedupe)) or reduction_off
               or f"{platform} applies no data reduction here")
            + ").")
        if with_snapshots != effective:
            notes.append(
                f"Effective with Snapshot copies and clones = usable x efficiency ratio = {_fmt(usable_bytes)} x "
                f"{side.efficiency_ratio:.2f} = {_fmt(with_snapshots)}; efficiency ratio = logical "
                f"{_fmt(side.logical_used)} (data + Snapshot + clone) / physical {_fmt(side.physical_used)}.")
    months = _months_until_full(side.growth_parts, usable_bytes)
    if months is not None and side.any_growth:
        notes.append(_growth_note(side.growth_parts))
    return EffectiveSide(tuple(steps), side.detail, tuple(notes), side.logical_used, side.physical_used,
                         side.data_reduction_ratio, side.efficiency_ratio, effective, months, with_snapshots)


def _growth_pct_text(pct: float) -> str:
    """A yearly growth as the note prints it: ``20%``, ``12.5%``."""
    return f"{pct:.1f}".rstrip("0").rstrip(".") + "%"


def _growth_note(parts: Sequence[tuple[float, float]]) -> str:
    """The growth note, worked with the workloads' own yearly growth (``parts``: (physical bytes, % a year) per
    workload): ``(20% a year: 1.20x after 12 months, 1.44x after 24)``; with several rates their range, and the
    workloads that do not grow named as such."""
    rates = sorted({g for _, g in parts if g > 0})
    flat = any(g <= 0 for _, g in parts)

    who = "the growing workloads" if flat else "the workloads"
    low, high = rates[0], rates[-1]
    if len(rates) == 1:
        example = (f"{who} grow {_growth_pct_text(low)} a year: {growth_factor(low, 12):.2f}x after 12 months, "
                   f"{growth_factor(low, 24):.2f}x after 24")
    else:
        example = (f"{who} grow {_growth_pct_text(low)} to {_growth_pct_text(high)} a year: "
                   f"{growth_factor(low, 12):.2f}x to {growth_factor(high, 12):.2f}x after 12 months")
    if flat:
        example += "; the others do not grow"
    return f"Growth: physical used grows by each workload's yearly growth g as (1 + g)^(months / 12) ({example})."


@dataclass(frozen=True)
class _WorkloadSide:
    """What the effective side holds whatever the usable capacity: each step as (name, ratio or None, source,
    formula, inputs), the notes before the effective line, the totals and the growth parts."""

    steps: tuple
    notes: tuple[str, ...]
    logical: float
    logical_used: float
    physical_used: float
    data_reduction_ratio: float
    efficiency_ratio: float
    growth_parts: tuple[tuple[float, float], ...]
    any_growth: bool
    detail: EfficiencyDetail


_SIDES: dict[tuple, tuple[tuple, _WorkloadSide]] = {}
"""Workload sides by (workload object ids, flags): the workloads are kept with the result so an id is never
reused while its entry lives; cleared when it grows past :data:`_SIDES_MAX`."""

_SIDES_MAX = 512


def _workload_side(workloads: tuple, compression: bool, compaction: bool, dedupe: bool, platform: str,
                   protection_factor: float, capacity_tier: bool | str = False,
                   object_store: tuple[float, str] = (1.0, "")) -> _WorkloadSide:
    """The usable-independent part of :func:`effective_side` (see the module docstring for the rules)."""
    key = (tuple(map(id, workloads)), compression, compaction, dedupe, platform, protection_factor, capacity_tier,
           object_store)
    hit = _SIDES.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], workloads)):
        return hit[1]
    side = _compute_workload_side(workloads, compression, compaction, dedupe, platform, protection_factor,
                                  capacity_tier, object_store)
    if len(_SIDES) >= _SIDES_MAX:
        _SIDES.clear()
    _SIDES[key] = (workloads, side)
    return side


def _compute_workload_side(workloads: Sequence[Workload], compression: bool, compaction: bool, dedupe: bool,
                           platform: str, protection_factor: float, capacity_tier: bool | str = False,
                           object_store: tuple[float, str] = (1.0, "")) -> _WorkloadSide:
    """:func:`_workload_side` without the cache."""
    notes: list[str] = []
    items: list[_Wl] = []
    for w in workloads:
        c = w.compression_ratio if compression else 1.0
        k = w.compaction_ratio if compaction else 1.0
        d = w.dedupe_ratio if dedupe else 1.0
        for flag, ratio, what in ((compression, w.compression_ratio, "compression"),
                                  (compaction, w.compaction_ratio, "compaction"),
                                  (dedupe, w.dedupe_ratio, "deduplication")):
            if not flag and ratio > 1.0:
                notes.append(f"Workload '{w.name}': {platform} does not apply {what} here; its {ratio:g}:1 is taken as "
                             "1:1.")
        snap = w.snapshots
        items.append(_Wl(
            name=w.name, logical=float(w.dataset_bytes), compression=c, compaction=k, dedupe=d,
            snapshots_every_h=snap.interval_h if snap else None, snapshots_kept_h=snap.retention_h if snap else 0.0,
            change_pct_per_h=snap.change_pct_per_h if snap else 0.0, clones=w.clones,
            provisioned=float(w.provisioned_bytes if w.provisioned_bytes is not None else w.dataset_bytes),
            growth_pct=w.growth_pct_per_year,
        ))

    logical = sum(i.logical for i in items)
    after_c = sum(i.logical / i.compression for i in items)
    after_k = sum(i.logical / (i.compression * i.compaction) for i in items)
    phys = [i.logical / (i.compression * i.compaction * i.dedupe) for i in items]
    physical = sum(phys)

    snap_copies = 0.0
    snap_phys_each: list[float] = []
    snap_logical = 0.0
    snap_saved = 0.0
    for item, p in zip(items, phys):
        if item.snapshots_every_h is None:
            snap_phys_each.append(0.0)
            continue
        n = snapshot_copies(item.snapshots_every_h, item.snapshots_kept_h)
        fraction = min(1.0, item.change_pct_per_h / 100.0 * item.snapshots_every_h)
        delta = fraction * p
        snap_copies += n
        snap_phys_each.append(n * delta)
        snap_logical += n * item.logical
        snap_saved += n * (p - delta)
        notes.append(
            f"Snapshot copies of '{item.name}': every {item.snapshots_every_h:g} h kept {item.snapshots_kept_h:g} h = "
            f"{n} copies; each holds the blocks overwritten in its interval ({item.change_pct_per_h:g}%/h x "
            f"{item.snapshots_every_h:g} h = {fraction:.1%} of {_fmt(p)} physical = {_fmt(delta)}) and counts "
            f"{_fmt(item.logical)} logical; saving per copy against a full copy on this system = {_fmt(p)} - "
            f"{_fmt(delta)} = {_fmt(p - delta)}."
        )
    snap_phys = sum(snap_phys_each)
    clone_logical = sum(i.clones * i.logical for i in items)
    if clone_logical > 0:
        notes.append("FlexClone copies are assumed unchanged: they add logical data and no physical blocks.")
    provisioned = sum(max(i.provisioned, i.logical) for i in items)
    thin = provisioned - logical

    # FabricPool: each workload's cold share of its data (after efficiency, which tiering preserves) sits in the
    # capacity tier, not on this system's drives
    if capacity_tier == "snapshot-only":  # only the cooled Snapshot blocks tier
        cold_each = [s * snapshot_cold_share(i.snapshots_kept_h) for i, s in zip(items, snap_phys_each)]
    else:
        cold_each = [(w.cold_data_pct / 100.0 if capacity_tier else 0.0) * p for w, p in zip(workloads, phys)]
    cold = sum(cold_each)
    logical_used = logical + snap_logical + clone_logical
    physical_used = physical + snap_phys - cold
    drr = _ratio(logical, physical)
    eff = _ratio(logical_used, physical_used) if physical_used > 0 else 1.0

    steps: list[tuple] = []
    if logical > 0:

        def add(name: str, ratio: float, source: str, formula: str, inputs: dict[str, str]) -> None:
            steps.append((name, ratio, source, formula, frozen_inputs(inputs)))

        r_c, r_k, r_d = _ratio(logical, after_c), _ratio(after_c, after_k), _ratio(after_k, physical)
        # the workload's ratios are the inputs (the project's figures); the platform's own mechanism is cited
        # beside them, never as the source of the ratio (review 42: an Oracle example's stated 2:1 read as measured
        # in the SQL Server report that describes ONTAP's inline efficiency)
        # (review 52: a vSAN ESA report cited "deduplication and compression per disk group" for a cluster with
        # neither and no disk groups). A reduction the platform does not apply is no step (its ratio is 1: the
        # product, the effective capacity, is the same), so no step cites a mechanism the system lacks.
        mechanism = REDUCTION_MECHANISMS.get(platform, SEED_000 if platform in ("ONTAP", "CVO", "Cloud Volumes ONTAP")
                                             else "the array's own compression / deduplication")
        reduction_source = f"{_ratio_source((compression, compaction, dedupe))}; the mechanism: {mechanism}"
        if compression:
            add("Compression", r_c, reduction_source,
                f"logical {_fmt(logical)} / {r_c:.2f} = {_fmt(after_c)}, saves {_fmt(logical - after_c)}; usable x "
                f"{r_c:.3f}",
                {"logical data": _fmt(logical), "after compression": _fmt(after_c), "saved": _fmt(logical - after_c),
                 "ratio": f"{r_c:.2f}:1"})
        if compaction:
            add("Compaction", r_k, f"{RATIO_SOURCE}; the mechanism: {SEED_000}",
                f"{_fmt(after_c)} / {r_k:.3f} = {_fmt(after_k)}, saves {_fmt(after_c - after_k)}; usable x {r_k:.3f}",
                {"before": _fmt(after_c), "after compaction": _fmt(after_k), "saved": _fmt(after_c - after_k),
                 "ratio": f"{r_k:.3f}:1"})
        if dedupe:
            add("Deduplication", r_d, reduction_source,
                f"{_fmt(after_k)} / {r_d:.3f} = {_fmt(physical)}, saves {_fmt(after_k - physical)}; usable x "
                f"{r_d:.3f}",
                {"before": _fmt(after_k), "physical data": _fmt(physical), "saved": _fmt(after_k - physical),
                 "ratio": f"{r_d:.3f}:1"})
        if snap_copies > 0:
            before_ratio = _ratio(logical, physical)
            after_ratio = _ratio(logical + snap_logical, physical + snap_phys)
            m = after_ratio / before_ratio
            add("Snapshot copies", m, SEED_000 + "; copy count, delta and saving as in the notes",
                f"{snap_copies:g} copies: logical +{_fmt(snap_logical)}, physical +{_fmt(snap_phys)}; "
                f"saved vs full copies {_fmt(snap_saved)} ({_ratio(snap_saved, snap_phys):.1f}:1); ratio "
                f"{before_ratio:.2f} -> {after_ratio:.2f}, so this step multiplies the capacity by {m:.2f} (the ratio "
                "applies to the whole usable space, not to this data set)",
                {"copies": f"{snap_copies:g}", "Snapshot logical": _fmt(snap_logical),
                 "Snapshot physical": _fmt(snap_phys),
                 "saved vs full copies": _fmt(snap_saved)})
        if clone_logical > 0:
            before_ratio = _ratio(logical + snap_logical, physical + snap_phys)
            after_ratio = _ratio(logical_used, physical_used)
            add("FlexClone copies", after_ratio / before_ratio,
                "seed 000 §1.3 (FlexClone: space-efficient writable copies); assumed: clones unchanged",
                f"{sum(i.clones for i in items)} clone(s): logical +{_fmt(clone_logical)}, physical +0; ratio "
                f"{before_ratio:.2f} -> {after_ratio:.2f}, so this step multiplies the capacity by "
                f"{after_ratio / before_ratio:.2f}",
                {"clones": str(sum(i.clones for i in items)), "clone logical": _fmt(clone_logical)})
        if cold > 0:
            held = physical_used + cold
            what = ("Snapshot blocks past the 2-day cooling period, snapshot-only policy"
                    if capacity_tier == "snapshot-only" else "each workload's cold-data share of its physical data")
            add("FabricPool capacity tier", held / physical_used if physical_used > 0 else 1.0,
                FABRICPOOL_EFFICIENCY_SOURCE + ("; " + TIERING_POLICY_SOURCE if capacity_tier == "snapshot-only"
                                                else ""),
                f"cold data {_fmt(cold)} ({what}) moves to the "
                f"capacity tier: physical used {_fmt(held)} -> {_fmt(physical_used)} on this system, so this step "
                f"multiplies the capacity by {_ratio(held, physical_used):.2f}; the object store needs "
                f"{_fmt(cold)} x {object_store[0]:.3g} = {_fmt(cold * object_store[0])} raw "
                f"({object_store[1] or 'no protection overhead counted'})",
                {"capacity tier": _fmt(cold), "performance tier": _fmt(physical_used),
                 "physical used before tiering": _fmt(held),
                 "object store raw": f"{_fmt(cold * object_store[0])} ({object_store[1] or 'x 1'})"})
            notes.append(f"FabricPool: {_fmt(cold)} of cold data (after compression, compaction and deduplication, "
                         "which tiering preserves) is held by the capacity tier; the drives hold the rest. The object "
                         f"store needs {_fmt(cold * object_store[0])} raw ({object_store[1] or 'x 1'}).")
        if thin > 0:
            steps.append((
                "Thin provisioning", None, "seed 002 (thin provisioning); not physical, not in the efficiency ratio",
                f"provisioned {_fmt(provisioned)} - written {_fmt(logical)} = {_fmt(thin)} not allocated",
                frozen_inputs({"provisioned": _fmt(provisioned), "written": _fmt(logical),
                               "not allocated": _fmt(thin)})))

    detail = EfficiencyDetail(
        logical_data_bytes=logical, after_compression_bytes=after_c, after_compaction_bytes=after_k,
        physical_data_bytes=physical, snapshot_copies=snap_copies, snapshot_physical_bytes=snap_phys,
        snapshot_logical_bytes=snap_logical, snapshot_saved_bytes=snap_saved,
        snapshot_savings_ratio=_ratio(snap_saved, snap_phys), clone_logical_bytes=clone_logical,
        clone_physical_bytes=0.0, provisioned_bytes=provisioned, thin_unallocated_bytes=thin,
        protection_factor=protection_factor,
    )
    parts = tuple((p - c + s, i.growth_pct) for i, p, c, s in zip(items, phys, cold_each, snap_phys_each))
    return _WorkloadSide(tuple(steps), tuple(notes), logical, logical_used, physical_used, drr, eff, parts,
                         any(i.growth_pct > 0 for i in items), detail)


def _months_until_full(parts: Sequence[tuple[float, float]], usable: float) -> float | None:
    """First month (fractional) when sum(p x (1 + g)^(m / 12)) reaches usable (:func:`models.units.growth_factor`);
    None if it never grows."""
    total = sum(p for p, _ in parts)
    if total <= 0:
        return None
    if total >= usable:
        return 0.0
    # each part's monthly log-growth ln(1 + g) / 12; a growth so small that it rounds to 0 never fills anything
    growing = [(p, monthly_growth_log(g)) for p, g in parts if g > 0 and p > 0 and monthly_growth_log(g) > 0]
    if not growing:
        return None
    fixed = total - sum(p for p, _ in growing)
    rates = {r for _, r in growing}
    if len(rates) == 1:
        rate = rates.pop()
        months = math.log((usable - fixed) / (total - fixed)) / rate
        return months if math.isfinite(months) else None
    slowest = min(r for _, r in growing)
    high = math.log((usable - fixed) / (total - fixed)) / slowest
    if not math.isfinite(high):
        return None
    low = 0.0
    for _ in range(100):
        mid = (low + high) / 2
        if fixed + sum(p * math.exp(min(700.0, mid * r)) for p, r in growing) >= usable:
            high = mid
        else:
            low = mid
    return high
