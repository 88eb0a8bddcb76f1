"""The hardware relation: the profile of a controller with no profile of its own for a protocol, built from the
software costs the calibrated platforms of its family share, the platform entering only through its hardware
(issue "Performance that ranks platforms the way the hardware does", items 1-3).

ONTAP's per-operation CPU cost, its fixed latency by protocol and its WAFL affinity hold time belong to the
software release; a platform differs by the cores that run it. The relation is a pure function of the catalog
(no new fit), computed when first asked and remembered per catalog:

1. **Contributors.** Every controller of the same family (ONTAP; SANtricity for E-Series) with a profile of its
   own (not a ``profile_from`` sibling's) for the protocol contributes each field its own fit set (provenance kind
   "calibrated"), on each release it was fitted on; a field is pooled over the contributors fitted on the release
   **nearest the platform's software** (the newest not newer than it); where every contributor of a field is on a
   newer release than the platform's (no fitted release at or before it), the field takes the pooled fit's value
   across releases instead (``models.performance.pooled_fit``, :data:`RELATION_SOURCE`). A family with no
   fitted field at all (E-Series today) pools its own catalogued profiles (all assumed), and says so.
2. **CPU demand per core.** A fitted CPU demand is the service time per operation on one of the profile's
   ``servers_per_node`` parallel servers; spread over the contributor's ``cores_per_node`` cores one core's time is
   ``demand x cores / servers``. The pooled demand is the median of that per-core time across the contributors;
   the platform runs it on ``servers_per_node = its cores_per_node``, so its CPU capacity is proportional to its
   cores. Fixed latency, affinity hold time and its variability are the contributors' median (software, not
   hardware); WAFL affinities per node are the contributors' median per core times the platform's cores.
3. **Protocols.** iSCSI takes FCP's costs where it has no contributor, SMB takes NFS's, the file protocols take
   the block protocols' CPU demand where none of their own is fitted (the fitted NFS ramps held their CPU demand
   at the AFF A800's FCP value: the same assumption). **NVMe/FC and NVMe/TCP take the NVMe fit's per-core CPU
   demand** (the AFF A800's, the one NVMe measurement; FCP's only where no NVMe profile is fitted) and their own
   fixed latency where fitted. A vendor's published "up to" IOPS figure bounds the rate, not the time per
   operation (:func:`iops_ceiling`): NetApp's AFF A90 "up to 2.4M IOPS per HA pair" cannot be a CPU time per
   operation, because the AFF A800 it replaces served 2.2M NVMe/FC reads at 0.14 ms on the same 96 cores, which
   one queue per core (``models.performance.paths.cpu_queues``) allows only below about 22 us of CPU time per
   read, 4.4M reads per second. The figure over the A90's cores is ONTAP's block rate per core
   (:func:`per_core_ceiling`, 25,000 per second), and every controller of the family is held to it on its own
   cores, calibrated, derived or on the relation alike: one rule, which never rises with an ordering bound (a
   raised platform runs more CPU servers, not more cores) and never follows the ladder down (a smaller system
   inheriting the A90's 2.4M would be lifted to a tie with it by the bound that raises it past its predecessor).
4. **No CPU generation, bounded by NetApp's ordering.** The catalog records no processor, so cores are treated
   alike across generations; instead the result is bounded by the ordering NetApp publishes
   (``resources/validation/ladders.toml``: each step a documented upgrade path, a published figure, NetApp's
   positioning, or its model numbering within a family, with its public source): a platform on the relation is
   raised to the capacity of the system NetApp documents it replaces or ranks below it, and lowered to the
   capacity of the system NetApp ranks above it, the same factor multiplying its CPU servers and WAFL affinities
   (rounded up when raised, but never past the system ranked above it: :func:`bounded_parallelism`; the
   per-operation times stay the software's; :data:`RELATION_CLASSES`: the factor found on FCP serves FCP and
   iSCSI, the one found on NVMe/FC both NVMe protocols, the one found on NFS every file protocol). A block
   capacity is also not above the platform's IOPS ceiling (:func:`iops_ceiling`), which no bound raises. A step
   whose saturation a cited public figure contradicts is left out (:func:`ordering_of`). Twins
   (:func:`hardware_key`: the same published hardware figures, e.g. an ASA A-series record and its AFF A-series
   counterpart) share one bound. Capacity here is the
   controller's 8 KiB 70/30 operation rate: nodes x min(servers / CPU demand, affinities / hold), and not above its
   catalogued data-path throughput or IOPS ceiling (a platform that limit holds back is not raised past it: the
   smaller one is lowered).

A profile built by the rule is kind "hardware relation only" (:data:`HARDWARE_RELATION`,
``models.performance.profiles.profile_kind``), the widest band (``models.performance.bands``); each field's
provenance is "derived" and names the contributors, the rule and any bound.
"""


import contextvars
import functools
import math
import statistics
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace

from models.catalog import Catalog, Controller, PerfProfile, Provenance, node_noun
from models.performance.per_core import CPU_FIELDS, per_core_value
from models.resources import validation_dir

HARDWARE_RELATION = "hardware relation only"
"""The profile kind of a platform that runs on the pooled relation through its hardware only (a stable string:
the bands and the band-discrepancy table key on it)."""

FAMILIES = ("ONTAP", "E-Series")
"""The controller families whose calibrated profiles are pooled within the family (one software each)."""

STAND_IN: dict[str, tuple[str, ...]] = {"iSCSI": ("FCP",), "FCP": ("iSCSI",), "NFS": ("SMB",), "SMB": ("NFS",),
                                        "NVMe/TCP": ("NVMe/FC",), "NVMe/FC": ("NVMe/TCP",)}
"""Per protocol, the protocols a non-CPU field with no contributor of its own is taken from (module step 3)."""

CPU_PROTOCOL: dict[str, tuple[str, ...]] = {"FCP": ("FCP", "iSCSI"), "iSCSI": ("iSCSI", "FCP"),
                                            "NVMe/FC": ("NVMe/FC", "NVMe/TCP", "FCP", "iSCSI"),
                                            "NVMe/TCP": ("NVMe/TCP", "NVMe/FC", "FCP", "iSCSI"),
                                            "NFS": ("NFS", "SMB", "FCP", "iSCSI"),
                                            "SMB": ("SMB", "NFS", "FCP", "iSCSI")}
"""Per protocol, where its CPU demand is pooled from, in order (module step 3: NVMe takes the NVMe fit's)."""

RELATION_CLASSES: dict[str, str] = {"FCP": "FCP", "iSCSI": "FCP", "NVMe/FC": "NVMe/FC", "NVMe/TCP": "NVMe/FC",
                                    "NFS": "NFS", "SMB": "NFS"}
"""Per protocol, the protocol whose ordering bound (module step 4) it takes: NVMe capacities are compared with
NVMe capacities (an NVMe operation costs the software another CPU time than an FCP one, so a factor found on FCP
would move an NVMe capacity by the wrong amount)."""

BLOCK_PROTOCOLS = frozenset({"FCP", "iSCSI", "NVMe/FC", "NVMe/TCP"})
"""The protocols a published 'up to' IOPS figure bounds (:func:`iops_ceiling`): a vendor's IOPS figure counts
block operations; a file workload's operations include metadata ones it does not count."""

SOFTWARE_FIELDS = ("fixed_latency_us", "affinity_hold_us", "affinity_hold_scv")
"""Software latencies, pooled as fitted (module step 2)."""

FIELD_WORDS: dict[str, str] = {"cpu_read_us": "CPU time per read", "cpu_write_us": "CPU time per write",
                               "cpu_per_kib_us": "CPU time per KiB", "fixed_latency_us": "fixed latency",
                               "affinity_hold_us": "WAFL affinity hold time",
                               "affinity_hold_scv": "variability of the WAFL affinity hold time"}
"""The fields in the words a provenance (shown in the catalog browser's evidence) uses."""

CAPACITY_READ_FRACTION = 0.7
"""The read fraction of the capacity the ordering bound compares (8 KiB 70/30, the ladders' OLTP mix)."""

BOUND_MARGIN = 1.001
"""A raised platform is raised to this multiple of the bound (0.1%: a tie is not left to rounding)."""

TIE = 1e-9
"""Two capacities within this relative difference are a tie (floating-point rounding of the same per-core time on
the same cores): the larger of a step is still raised past the smaller where its own limits allow."""

RELATION_SOURCE: contextvars.ContextVar[str] = contextvars.ContextVar("relation_source",
                                                                             default="nearest-or-pooled")
"""Where the relation's software costs come from. ``"nearest-or-pooled"`` (the default): the median over the
nearest fitted release (module steps 1-2), but a field whose every contributor is on a release newer than the
platform's (no fitted release at or before it: the FAS3140 on ONTAP 7.3 took the A900's 9.14 NFS fixed latency)
takes the pooled fit's value across releases (``models.performance.pooled_fit``). ``"nearest"``: the median over the
nearest release for every field (the rule before the pooled fit). ``"pooled"``: every field from the pooled fit
(not the default: it predicts the platforms left out no better, and slows the A1K and C80 against their
calibrated neighbours on the ladders: ``benchmarks/bench_pooled_fit.py``). Set it
only around a comparison (``token = RELATION_SOURCE.set("pooled")`` ... ``RELATION_SOURCE.reset(token)``)."""


@functools.lru_cache(maxsize=1024)
def release_key(version: str) -> tuple[int, ...]:
    """A software version as a sortable tuple of its numbers ("9.16.1" -> (9, 16, 1); "SANtricity 11.90" ->
    (11, 90); no number -> ()); cached (the relation's pooling asks for the same few versions hundreds of times)."""
    parts: list[int] = []
    for token in version.replace("P", ".").replace(" ", ".").split("."):
        digits = "".join(ch for ch in token if ch.isdigit())
        if digits:
            parts.append(int(digits))
    return tuple(parts)


def nearest_release(releases: set[tuple[int, ...]], target: tuple[int, ...]) -> tuple[int, ...]:
    """The release of ``releases`` nearest ``target``: the newest not newer than it, else the oldest newer one.

    Raises:
        ValueError: ``releases`` is empty.
    """
    if not releases:
        raise ValueError("no release to choose from")
    older = [r for r in releases if r <= target]
    return max(older) if older else min(releases)


@dataclass(frozen=True)
class PooledField:
    """One pooled value: the median and its contributors (platform name, software, protocol, value)."""

    value: float
    contributors: tuple[tuple[str, str, str, float], ...]

    def text(self, unit: str = "") -> str:
        """In words: ``median of AFF A800 9.5 FCP 50.7 µs, ...`` (one contributor: just it); ``unit`` follows
        each value (with a space; none when "")."""
        suffix = f" {unit}" if unit else ""
        parts = ", ".join(f"{name} {sw} {proto} {v:.3g}{suffix}" for name, sw, proto, v in self.contributors)
        return f"median of {parts}" if len(self.contributors) > 1 else parts


_FITTED: weakref.WeakKeyDictionary[Catalog, dict[str, bool]] = weakref.WeakKeyDictionary()


UNFITTED_POOL = " (assumed, none fitted)"
"""What a hardware-relation profile's source says after "pooled <family> software costs" when no profile of the
family is fitted to a published measurement (the pooled values are its catalogued, assumed ones)."""


def _family_fitted(catalog: Catalog, family: str) -> bool:
    """True when some controller of ``family`` has a profile field its own fit set (remembered per catalog, which
    never changes once built: the relation's pooling asks it for every field of every platform)."""
    known = _FITTED.setdefault(catalog, {})
    hit = known.get(family)
    if hit is None:
        hit = known[family] = _family_fitted_now(catalog, family)
    return hit


def _family_fitted_now(catalog: Catalog, family: str) -> bool:
    """:func:`_family_fitted` computed."""
    return any(p.provenance.get(f) is not None and p.provenance[f].kind == "calibrated"
               for r in catalog.of_kind(Controller) if r.family == family for p in r.performance
               for f in CPU_FIELDS + SOFTWARE_FIELDS)


_CONTRIBUTIONS: weakref.WeakKeyDictionary[Catalog, dict[tuple[str, str, str, str, bool],
                                                       tuple[tuple[str, str, str, float], ...]]] = (
    weakref.WeakKeyDictionary())


def _contributions(catalog: Catalog, family: str, protocol: str, field: str, exclude: str,
                   fitted_only: bool) -> list[tuple[str, str, str, float]]:
    """(name, software, protocol, value) of each own profile of ``protocol`` in ``family`` whose ``field`` its own
    fit set (``fitted_only``) or that has it at all; CPU fields per core, affinities per core. Remembered per
    catalog (every platform's profile pools the same fields of its family)."""
    known = _CONTRIBUTIONS.setdefault(catalog, {})
    key = (family, protocol, field, exclude, fitted_only)
    hit = known.get(key)
    if hit is None:
        hit = known[key] = tuple(_contributions_now(catalog, family, protocol, field, exclude, fitted_only))
    return list(hit)


def _contributions_now(catalog: Catalog, family: str, protocol: str, field: str, exclude: str,
                       fitted_only: bool) -> list[tuple[str, str, str, float]]:
    """:func:`_contributions` computed."""
    out: list[tuple[str, str, str, float]] = []
    for record, profile in _family_profiles(catalog, family, protocol):
        if record.id == exclude:
            continue
        prov = profile.provenance.get(field)
        if fitted_only and (prov is None or prov.kind != "calibrated"):
            continue
        value = per_core_value(profile, record.cores_per_node, field)
        if value is None:
            continue
        out.append((record.name, profile.software, protocol, value))
    return out


_PROFILES_OF: weakref.WeakKeyDictionary[Catalog, dict[tuple[str, str], tuple[tuple[Controller, PerfProfile], ...]]] = (
    weakref.WeakKeyDictionary())


def _family_profiles(catalog: Catalog, family: str, protocol: str) -> tuple[tuple[Controller, PerfProfile], ...]:
    """(record, profile) of every own profile of ``protocol`` of the controllers of ``family``, in catalog order
    (remembered per catalog, which never changes once built: the relation asks it for every field of every
    platform, 300 scans of the whole catalog per evaluation otherwise)."""
    known = _PROFILES_OF.setdefault(catalog, {})
    hit = known.get((family, protocol))
    if hit is None:
        hit = known[(family, protocol)] = tuple(
            (record, profile) for record in catalog.of_kind(Controller) if record.family == family
            for profile in record.performance if profile.protocol == protocol)
    return hit


_POOLED: weakref.WeakKeyDictionary[Catalog, dict[tuple[str, tuple[str, ...], str, str, str], PooledField | None]] = (
    weakref.WeakKeyDictionary())


def pooled_field(catalog: Catalog, family: str, protocols: tuple[str, ...], field: str, software: str,
                 exclude: str = "") -> PooledField | None:
    """The pooled value of ``field`` over the first of ``protocols`` that has contributors in ``family`` (module
    steps 1-2), on the release nearest ``software``, leaving out the controller ``exclude``; None when none has.
    Remembered per catalog (the ordering bounds ask it for every field of every platform of a family: the same
    few values; a :class:`PooledField` is frozen)."""
    known = _POOLED.setdefault(catalog, {})
    key = (family, protocols, field, software, exclude)
    if key not in known:
        known[key] = _pooled_field(catalog, family, protocols, field, software, exclude)
    return known[key]


def _pooled_field(catalog: Catalog, family: str, protocols: tuple[str, ...], field: str, software: str,
                  exclude: str) -> PooledField | None:
    """:func:`pooled_field` computed."""
    fitted_only = _family_fitted(catalog, family)
    for proto in protocols:
        found = _contributions(catalog, family, proto, field, exclude, fitted_only)
        if found:
            release = nearest_release({release_key(sw) for _, sw, _, _ in found}, release_key(software))
            chosen = tuple(c for c in found if release_key(c[1]) == release)
            return PooledField(statistics.median(v for *_, v in chosen), chosen)
    return None


def capacity(profile: PerfProfile, nodes: int) -> float:
    """The controller's 8 KiB operation rate at :data:`CAPACITY_READ_FRACTION` reads (operations per second):
    nodes x min(servers / mean CPU demand, affinities / hold) (module step 4)."""
    rf = CAPACITY_READ_FRACTION
    demand = rf * profile.cpu_read_us + (1 - rf) * profile.cpu_write_us
    rate = profile.servers_per_node / demand * 1e6 if demand > 0 else float("inf")
    if profile.affinity_hold_us > 0:
        rate = min(rate, profile.affinities_per_node / profile.affinity_hold_us * 1e6)
    return nodes * rate


_BASES: weakref.WeakKeyDictionary[Catalog, dict[tuple[str, str, str, str, str],
                                               tuple[Controller, PerfProfile | None]]] = weakref.WeakKeyDictionary()


def base_profile(record: Controller, catalog: Catalog, software: str, protocol: str,
                 exclude: str = "") -> PerfProfile | None:
    """The relation's profile before the ordering bound (module steps 1-3) for ``record`` on ``software`` and
    ``protocol``, the controller ``exclude`` (default none) left out of the pool; None when the
    record's family is not pooled or no contributor gives a CPU demand. The record's own profiles of other
    protocols contribute (a record is on the relation only for a protocol it has no profile of). Remembered per
    catalog (the ordering bounds and each platform's profile ask it for the same record: the same object)."""
    known = _BASES.setdefault(catalog, {})
    key = (record.id, software, protocol, exclude, RELATION_SOURCE.get())
    hit = known.get(key)
    if hit is None or hit[0] is not record:
        hit = known[key] = (record, _base_profile(record, catalog, software, protocol, exclude))
    return hit[1]


def _base_profile(record: Controller, catalog: Catalog, software: str, protocol: str,
                  exclude: str = "") -> PerfProfile | None:
    """:func:`base_profile` computed."""
    if record.family not in FAMILIES:
        return None
    leave_out = exclude
    family = record.family
    cores = record.cores_per_node
    per = f"per {node_noun(family)}"  # an E-Series array's controllers, an ONTAP HA pair's nodes
    cpu_from = CPU_PROTOCOL.get(protocol, (protocol,))
    read = pooled_field(catalog, family, cpu_from, "cpu_read_us", software, leave_out)
    if read is None:
        return None
    write = pooled_field(catalog, family, cpu_from, "cpu_write_us", software, leave_out) or read
    per_kib = pooled_field(catalog, family, cpu_from, "cpu_per_kib_us", software, leave_out)
    assumed = "" if _family_fitted(catalog, family) else (" (no profile of this family is fitted: the pooled "
                                                          "values are its catalogued, assumed ones)")
    rule = ("hardware relation: the CPU time per operation of one core (demand x cores / servers) of the "
            f"{family} platforms with a profile of their own, {{}}, on this platform's {cores} cores {per}{assumed}")
    values: dict[str, float] = {"cpu_read_us": read.value, "cpu_write_us": write.value,
                                "cpu_per_kib_us": per_kib.value if per_kib else 0.0, "servers_per_node": cores}
    provenance = {"cpu_read_us": Provenance(kind="derived", source=rule.format(read.text("µs per read"))),
                  "cpu_write_us": Provenance(kind="derived", source=rule.format(write.text("µs per write"))),
                  "cpu_per_kib_us": Provenance(kind="derived", source=rule.format(per_kib.text("µs per KiB") if per_kib
                                                                                  else "none: 0")),
                  "servers_per_node": Provenance(kind="derived", source=f"the catalog's {cores} cores {per} "
                                                 "(one server per core)")}
    target = release_key(software)
    older = {f for f, p in (("cpu_read_us", read), ("cpu_write_us", write), ("cpu_per_kib_us", per_kib))
             if p is not None and all(target < release_key(c[1]) for c in p.contributors)}
    others = (protocol, *STAND_IN.get(protocol, ()))
    for field in SOFTWARE_FIELDS:
        pooled = pooled_field(catalog, family, others, field, software, leave_out)
        if pooled is None:
            continue
        if all(target < release_key(c[1]) for c in pooled.contributors):
            older.add(field)
        values[field] = pooled.value
        provenance[field] = Provenance(kind="derived", source=f"{family} software cost, {pooled.text()}")
    if values.get("affinity_hold_us", 0.0) > 0:
        per_core = pooled_field(catalog, family, others, "affinities_per_node", software, leave_out)
        count = max(int(round((per_core.value if per_core else 1.0) * cores)), 1)
        values["affinities_per_node"] = count
        provenance["affinities_per_node"] = Provenance(
            kind="derived", source=f"{per_core.text() if per_core else '1'} WAFL affinities per core x {cores} cores")
    mode = RELATION_SOURCE.get()
    if mode == "pooled":
        _apply_pooled_fit(values, provenance, catalog, family, protocol, software, cores, leave_out)
    elif mode == "nearest-or-pooled" and older:
        _apply_pooled_fit(values, provenance, catalog, family, protocol, software, cores, leave_out, older)
    return PerfProfile(software=software, protocol=protocol, provenance=provenance,
                       source=f"{HARDWARE_RELATION}: pooled {family} software costs"
                              f"{'' if not assumed else UNFITTED_POOL} on {cores} cores {per}",
                       **values)


def _apply_pooled_fit(values: dict[str, float], provenance: dict[str, Provenance], catalog: Catalog, family: str,
                      protocol: str, software: str, cores: int, exclude: str,
                      only: set[str] | None = None) -> None:
    """Replace, in place, each field of ``values`` (of ``only``, when given) the pooled fit
    (``models.performance.pooled_fit``) gives for ``protocol`` on ``software`` with its value on ``cores`` cores
    per node, its provenance naming the fit; fields the fit has no parameter for keep the median relation's
    value."""
    from models.performance import pooled_fit  # here: a platform older than every calibrated release needs it

    fitted = pooled_fit.pooled_software(catalog, family, exclude)
    if fitted is None:
        return
    why = "" if only is None else f" (no fitted release at or before {software}: the value fitted across releases)"
    for name in CPU_FIELDS:
        if only is not None and name not in only:
            continue
        found = fitted.cpu_demand(CPU_PROTOCOL.get(protocol, (protocol,)), name, software)
        if found is not None:
            values[name] = found[0]
            provenance[name] = Provenance(kind="derived", source=f"{FIELD_WORDS[name]} of one core, {found[1]}, "
                                          f"{fitted.text(found[1], name)}, on this platform's {cores} cores per "
                                          f"node{why}")
    others = (protocol, *STAND_IN.get(protocol, ()))
    for name in SOFTWARE_FIELDS:
        const = fitted.constant(others, name)
        if const is not None and (only is None or name in only):
            values[name] = const[0]
            provenance[name] = Provenance(kind="derived", source=f"{family} {FIELD_WORDS[name]}, {const[1]}, "
                                          f"{fitted.text(const[1], name)}{why}")
    per_core = fitted.constant(others, "affinities_per_node")
    if values.get("affinity_hold_us", 0.0) > 0 and per_core is not None and (
            only is None or "affinity_hold_us" in only):
        values["affinities_per_node"] = max(int(round(per_core[0] * cores)), 1)
        provenance["affinities_per_node"] = Provenance(kind="derived", source=f"{per_core[0]:.3g} WAFL affinities "
                                                       f"per core ({fitted.text(per_core[1], 'affinities_per_node')})"
                                                       f" x {cores} cores")


def hardware_key(record: Controller) -> tuple[object, ...]:
    """The published hardware figures that make two controllers the same machine (module step 4: twins share
    their bound): family, cores and memory per node, chassis height, typical power, front-end ports per node and
    drive count (the ASA A-series records are the AFF A-series hardware: the same key specifications)."""
    return (record.family, record.cores_per_node, record.memory_gib_per_node, record.rack_units,
            record.typical_power_w, record.fc_ports_per_node, record.ethernet_ports_per_node, record.max_drives)


@functools.lru_cache(maxsize=1)
def ordering_steps() -> tuple[tuple[str, str, str], ...]:
    """(smaller id, larger id, public basis kind) of every step of the bundled ladder file whose saturation no cited
    public figure contradicts (module step 4, :func:`ordering_of`); () when the file cannot be read. Read once per
    process."""
    from models.bounded_read import FileRefusedError
    from models.catalog.loader import parse_bundled_toml

    try:
        data = parse_bundled_toml(validation_dir() / "ladders.toml")  # through the parsed-TOML cache
    except (OSError, FileRefusedError):
        return ()
    return ordering_of(data)


def ordering_of(data: dict[str, object]) -> tuple[tuple[str, str, str], ...]:
    """(smaller id, larger id, public basis kind) of every ``[[step]]`` of a ladder file's tables that orders the
    capacities: every step but one whose cited public figure (``contradicted``) contradicts its saturation (its
    ``contradicts`` names "saturation", or names nothing). A figure that contradicts only the light-load latency (a
    smaller read cache, say) leaves the capacity order standing."""
    steps = data.get("step", [])
    out = []
    for s in steps if isinstance(steps, list) else []:
        if not isinstance(s, dict) or "smaller" not in s or "larger" not in s:
            continue
        respects = s.get("contradicts") or ["saturation"]
        if s.get("contradicted") and "saturation" in respects:
            continue
        out.append((str(s["smaller"]), str(s["larger"]), str(s.get("basis_kind", ""))))
    return tuple(out)


@dataclass(frozen=True)
class Ceiling:
    """An upper bound on a system's block operations per second (:func:`iops_ceiling`): ``value`` (operations per
    second per HA pair or array) and ``words``, whose bound it is, e.g. "the NetApp AFF A90 HA pair's bound from
    NetApp's published 'up to' figure" (a band's basis prints "{words} at 2,400,000 IOPS")."""

    value: float
    words: str


_CEILINGS: weakref.WeakKeyDictionary[Catalog, dict[str, tuple[Controller, Ceiling | None]]] = (
    weakref.WeakKeyDictionary())
_PER_CORE: weakref.WeakKeyDictionary[Catalog, dict[str, tuple[float, str] | None]] = weakref.WeakKeyDictionary()


def per_core_ceiling(catalog: Catalog, family: str) -> tuple[float, str] | None:
    """Block operations per second per core that the family's vendor claims allow: each controller of ``family``
    with a published "up to" figure of its own (``peak_iops`` whose provenance is "sourced": a vendor claim) gives
    figure / (nodes x cores per node); the lowest of them, with the words that say whose (e.g. 25,000 for the AFF
    A90: "NetApp's published 'up to' figure of 2,400,000 IOPS for the NetApp AFF A90 HA pair over its 96 cores").
    None when the family has none. Every controller of the family runs the same software on the same kind of core
    (module step 4: no CPU generation), so its block rate is at most this per core it has (:func:`iops_ceiling`),
    whatever CPU time per operation its profile gives it. Remembered per catalog."""
    known = _PER_CORE.setdefault(catalog, {})
    if family not in known:
        found: tuple[float, str] | None = None
        for record in catalog.of_kind(Controller):
            prov = record.provenance.get("peak_iops")
            if record.family != family or record.peak_iops is None or prov is None or prov.kind != "sourced":
                continue
            cores = record.nodes * record.cores_per_node
            rate = record.peak_iops / cores
            if found is None or rate < found[0]:
                found = (rate, f"{record.vendor}'s published 'up to' figure of {record.peak_iops:,.0f} IOPS for the "
                               f"{record.name} over its {cores_words(record)}")
        known[family] = found
    return known[family]


def iops_ceiling(record: Controller, catalog: Catalog) -> Ceiling | None:
    """The most block operations per second ``record`` serves on any workload: its own ``peak_iops`` (a vendor's
    published "up to" figure, with its source in the record's provenance), else its family's rate per core
    (:func:`per_core_ceiling`) times its own cores (nodes x cores per node): one rule for every controller of the
    family, calibrated, derived or on the relation, that never rises with an ordering bound (a raised platform
    runs more CPU servers, not more cores); None when neither. A ceiling bounds the rate only: the path builder
    adds it as a rate cap beside the CPU (``models.performance.paths``), so the CPU time per operation, and the
    latency below the cap, stay the profile's. Remembered per catalog."""
    known = _CEILINGS.setdefault(catalog, {})
    hit = known.get(record.id)
    if hit is None or hit[0] is not record:
        hit = known[record.id] = (record, _ceiling(record, catalog))
    return hit[1]


def _ceiling(record: Controller, catalog: Catalog) -> Ceiling | None:
    """:func:`iops_ceiling` computed."""
    if record.peak_iops is not None:
        return Ceiling(record.peak_iops, f"the {record.name}'s bound from {record.vendor}'s published 'up to' "
                                         "figure")
    rate = per_core_ceiling(catalog, record.family)
    if rate is None:
        return None
    return Ceiling(rate[0] * record.nodes * record.cores_per_node,
                   f"{rate[0]:,.0f} block operations per second per core on its {cores_words(record)}, the rate per "
                   f"core of {rate[1]}")


def cores_words(record: Controller) -> str:
    """``96 cores`` (nodes x cores per node), with `` (an assumed count: not published)`` after it when the record's
    cores are not a published figure (its ``provenance['cores_per_node']`` is not "sourced"): a bound computed from
    them is no firmer than they are."""
    prov = record.provenance.get("cores_per_node")
    firm = prov is not None and prov.kind == "sourced"
    return f"{record.nodes * record.cores_per_node} cores" + ("" if firm else " (an assumed count: not published)")


@dataclass(frozen=True)
class Bound:
    """The ordering bound on one platform's relation profile: ``factor`` multiplies its CPU servers and WAFL
    affinities (above 1: raised; below 1: lowered); ``by``: the platform whose capacity set it (its name) and the
    public basis of the step; "" when unbounded (factor 1). ``ceiling``: the largest factor the steps that rank
    it below another system allow (that system's capacity over this platform's own; infinite when none): a
    raised platform's parallelism is rounded up to an integer, but never past it."""

    factor: float = 1.0
    by: str = ""
    ceiling: float = math.inf


_BOUNDS: weakref.WeakKeyDictionary[Catalog, dict[tuple[str, str, str], dict[str, Bound]]] = (
    weakref.WeakKeyDictionary())
_PROFILES: weakref.WeakKeyDictionary[Catalog, dict[tuple[str, str, str, str, str], PerfProfile | None]] = (
    weakref.WeakKeyDictionary())


OwnLookup = Callable[[Controller, Catalog, str, str], "PerfProfile | None"]
"""(record, catalog, software, protocol) -> the record's own or sibling's profile of the protocol, None when it
has none (``models.performance.profiles.own_profile``: passed in, so that this module does not import it)."""


def ordering_bounds(catalog: Catalog, protocol: str, own: OwnLookup, exclude: str = "") -> dict[str, Bound]:
    """Per controller id on the relation for ``protocol``'s class (:data:`RELATION_CLASSES`), its ordering bound
    (module step 4), every platform on its default software; ``own`` says which platforms have a profile of their
    own (the fixed points); ``exclude``: a controller whose own profiles are left out. Remembered per catalog."""
    klass = RELATION_CLASSES.get(protocol, protocol)
    known = _BOUNDS.setdefault(catalog, {})
    key = (klass, exclude, RELATION_SOURCE.get())
    if key not in known:
        known[key] = _compute_bounds(catalog, klass, own, exclude)
    return known[key]


def _compute_bounds(catalog: Catalog, protocol: str, own: OwnLookup, exclude: str) -> dict[str, Bound]:
    """:func:`ordering_bounds` computed: raise a relation platform below the one it should not be below (when its
    CPU can carry it: a data-path limit of its own is not lifted), else lower the smaller one, until nothing
    changes (at most a pass per step)."""
    cpu: dict[str, float] = {}
    other: dict[str, float] = {}
    on_relation: set[str] = set()
    names: dict[str, str] = {}
    profiles: dict[str, tuple[PerfProfile, int]] = {}
    for record in catalog.of_kind(Controller):
        if record.family not in FAMILIES or protocol not in record.protocols:
            continue
        names[record.id] = record.name
        fixed = None if record.id == exclude else own(record, catalog, record.default_software, protocol)
        profile = fixed or base_profile(record, catalog, record.default_software, protocol, exclude=exclude)
        if profile is None:
            continue
        cpu[record.id] = capacity(profile, record.nodes)
        profiles[record.id] = (profile, record.nodes)
        other[record.id] = (record.max_throughput_mbps * 1e6 / (8 * 1024) if record.max_throughput_mbps
                            else float("inf"))
        ceiling = iops_ceiling(record, catalog) if protocol in BLOCK_PROTOCOLS else None
        if ceiling is not None:
            other[record.id] = min(other[record.id], ceiling.value)
        if fixed is None:
            on_relation.add(record.id)
    bounds = {cid: Bound() for cid in on_relation}
    twins: dict[tuple[object, ...], list[str]] = {}
    for record in catalog.of_kind(Controller):
        if record.id in on_relation:
            twins.setdefault(hardware_key(record), []).append(record.id)

    def bound(cid: str, value: Bound) -> None:
        for twin in twins[hardware_key(catalog.get(cid, Controller))]:
            bounds[twin] = value

    def cap(cid: str) -> float:
        return min(cpu[cid] * (bounds[cid].factor if cid in bounds else 1.0), other[cid])

    steps = [(s, g, kind) for s, g, kind in ordering_steps() if s in cpu and g in cpu]
    for _ in range(len(steps) + 1):
        changed = False
        for small, large, kind in steps:
            cs, cl = cap(small), cap(large)
            if cl >= cs * (1 + TIE):  # a tie within rounding is raised too: the larger is not left a hair below
                continue
            if (large in bounds and other[large] >= cs  # its own limit (data path, IOPS ceiling) may hold it at cs
                    and cpu[large] * bounds[large].factor < cs * (1 + TIE)):  # its CPU is what is below
                target = large
                value = Bound(cs * BOUND_MARGIN / cpu[large],
                              f"at the {names[small]}'s capacity ({kind}: not below it)")
            elif small in bounds and cl < cs:
                target = small
                value = Bound(cl / BOUND_MARGIN / cpu[small],
                              f"at the {names[large]}'s capacity ({kind}: not above it)")
            else:
                continue
            if bounds[target] != value:
                bound(target, value)
                changed = True
        if not changed:
            break
    # upper bounds for the rounding (_build): a raised platform's ceiling is the capacity, after its own rounding,
    # of each system ranked above it, over this platform's unbounded capacity
    rounded: dict[str, float] = {}

    def actual(cid: str, seen: frozenset[str]) -> float:
        if cid not in bounds or bounds[cid].factor == 1.0 or cid in seen:
            return cap(cid)
        if cid not in rounded:
            if bounds[cid].factor > 1.0:
                group = twins[hardware_key(catalog.get(cid, Controller))]
                ceiling = min((actual(large, seen | {cid}) / cpu[small] for small, large, _ in steps
                               if small in group), default=math.inf)
                if other[cid] <= ceiling * cpu[cid] * (1 + 1e-9):  # its own limit keeps it at or below them
                    ceiling = math.inf
                bounds[cid] = replace(bounds[cid], ceiling=ceiling)
            profile, nodes = profiles[cid]
            counts = bounded_parallelism(profile, bounds[cid])
            held = profile.model_copy(update=counts)
            rounded[cid] = min(capacity(held, nodes), other[cid])
        return rounded[cid]

    for cid in list(bounds):
        actual(cid, frozenset())
    return bounds


def bounded_parallelism(base: PerfProfile, bound: Bound) -> dict[str, int]:
    """The CPU servers and WAFL affinities per node of a relation profile under its ordering bound: the base's
    times the factor, rounded up when raised, down (at least 1) when lowered; a raised count is rounded down
    instead where rounding up would pass the bound's ceiling (the system NetApp ranks above it, as rounded: with
    equal lower and upper bounds the upper one holds)."""
    rounding = math.ceil if bound.factor > 1 else math.floor
    out: dict[str, int] = {}
    for k in ("servers_per_node", "affinities_per_node"):
        if k == "affinities_per_node" and base.affinity_hold_us <= 0:
            continue
        value = max(int(rounding(getattr(base, k) * bound.factor)), 1)
        if value > getattr(base, k) * bound.ceiling * (1 + 1e-9):
            value = max(int(math.floor(getattr(base, k) * bound.ceiling * (1 + 1e-9))), 1)
        out[k] = value
    return out


def hardware_relation_profile(record: Controller, catalog: Catalog, software: str, protocol: str, own: OwnLookup,
                              exclude: str = "") -> PerfProfile | None:
    """The profile ``record`` runs on by the hardware relation for ``software`` and ``protocol``: the base
    (:func:`base_profile`) with its parallelism multiplied by its ordering bound
    (:func:`ordering_bounds`, ``own`` its fixed points); None when the family is not pooled or nothing gives a CPU
    demand. ``exclude``: a
    controller left out of the pool and of the bounds' fixed points (default: none but the record itself).
    Remembered per catalog."""
    known = _PROFILES.setdefault(catalog, {})
    key = (record.id, software, protocol, exclude, RELATION_SOURCE.get())
    if key not in known:
        known[key] = _build(record, catalog, software, protocol, own, exclude)
    return known[key]


def _build(record: Controller, catalog: Catalog, software: str, protocol: str, own: OwnLookup,
           exclude: str) -> PerfProfile | None:
    """:func:`hardware_relation_profile` computed: the bound multiplies the CPU servers and WAFL affinities (the
    per-operation times, software costs, stay the pooled ones), rounded by :func:`bounded_parallelism`."""
    base = base_profile(record, catalog, software, protocol, exclude=exclude)
    if base is None:
        return None
    bound = ordering_bounds(catalog, protocol, own, exclude).get(record.id, Bound())
    if bound.factor == 1.0:
        return base
    provenance = dict(base.provenance)
    changes = bounded_parallelism(base, bound)
    for k, value in changes.items():
        held_down = " (rounded down: not above the system ranked above it)" if (
            bound.factor > 1 and value < getattr(base, k) * bound.factor) else ""
        old = provenance.get(k)
        provenance[k] = Provenance(kind="derived", source=f"{old.source if old else getattr(base, k)} x "
                                   f"{bound.factor:.3g} = {value}{held_down}, {bound.by}")
    return base.model_copy(update={**changes, "provenance": provenance,
                                   "source": f"{base.source}, parallelism x {bound.factor:.3g} ({bound.by})"})
