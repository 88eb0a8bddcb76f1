"""Which performance profile a controller or cloud VM runs on, and how it was obtained: a queryable fact.

A profile is

- **calibrated**: fitted from published measurements of this very record, software version and protocol (the
  seed profiles, ``models.calibration``);
- **derived**: another record's, version's or protocol's calibrated profile carried over by a documented rule:
  the same record on another software version or protocol (:func:`find_profile` falls back, with a note), or a
  calibrated sibling's profiles with every CPU demand divided by a throughput ratio (the catalog's
  ``Controller.profile_from``: the sibling's id and the ratio, the derivation in ``provenance['profile_from']``);
- **hardware relation only**: a controller with no profile of its own (or a sibling's) for the protocol runs on
  the software costs its family's calibrated platforms share (or, in a family none of whose profiles is fitted,
  the E-Series, its catalogued, assumed ones), through its cores, bounded by NetApp's published ordering
  (``models.performance.hardware_relation``; kind :data:`HARDWARE_RELATION`);
- **assumed**: nothing calibrated applies: the uncalibrated default CPU costs (``paths.UNCALIBRATED_PROFILE``),
  or a profile none of whose CPU / latency fields a fit set (no field's ``Provenance.fit``: a project's own
  record downgraded by ``models.catalog.provenance.downgraded``, a stated assumption).

Which fields a fit set is read from each field's provenance (its ``fit``), never from the wording of its source.

:func:`profile_basis` answers "calibrated | derived | assumed, from which sibling, by what ratio and why" for a
record, software version and protocol; the path builder (``models.performance.paths``) uses the same lookup
(:func:`controller_profile`), so what it runs on and what is reported are one decision. The bands
(``models.performance.bands``) widen with the kind.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from models.catalog import Catalog, CloudVm, Controller, PerfProfile, Provenance
from models.design import is_project_source
from models.performance.hardware_relation import (
    BLOCK_PROTOCOLS,
    HARDWARE_RELATION,
    RELATION_SOURCE,
    UNFITTED_POOL,
    hardware_relation_profile,
)

PROFILE_CPU_FIELDS = ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us")
"""The CPU-demand fields of a profile (microseconds per I/O or per KiB), the ones a throughput ratio divides."""

FITTED_FIELDS = PROFILE_CPU_FIELDS + ("fixed_latency_us",)
"""Profile fields a calibration fits; a profile none of which a fit set (no ``Provenance.fit``) is assumed."""


@dataclass(frozen=True)
class ProfileBasis:
    """How the profile a record runs on was obtained.

    Attributes:
        kind: "calibrated", "derived" or "assumed".
        sibling: catalog id of the record whose fitted profile is used when it is not the record itself ("" for
            its own profiles or none).
        ratio: the throughput ratio (record / sibling) the sibling's CPU demands were divided by; None when no
            sibling is used.
        reason: in words: the fit's provenance, the fallback or derivation and its source, or why it is assumed.
    """

    kind: str
    sibling: str = ""
    ratio: float | None = None
    reason: str = ""

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: ``{"kind", "sibling", "ratio", "reason"}`` (sibling None when there is none)."""
        return {"kind": self.kind, "sibling": self.sibling or None, "ratio": self.ratio, "reason": self.reason}


NEAREST_PROTOCOL = {"NVMe/TCP": ("NVMe/FC",), "NVMe/FC": ("NVMe/TCP",)}
"""assumed: the protocol whose calibrated profile stands in for one with none, before any other. NVMe/TCP and
NVMe/FC share ONTAP's NVMe target code path (the same namespaces, queues and command set; docs.netapp.com
ontap/nvme/support-limitations.html lists both as NVMe transports), so the controller CPU cost of an I/O is taken
to be the same; the transports differ on the host and wire (host stack latency and CPU per I/O, link records)."""


def find_profile(profiles: list[PerfProfile], software: str, protocol: str) -> tuple[PerfProfile | None, str]:
    """The calibrated profile for a software version and protocol; falls back (with a note) to the same
    software on another protocol, then to any profile of the protocol. The nearest protocol
    (:data:`NEAREST_PROTOCOL`: NVMe/TCP <-> NVMe/FC) is tried before the others. Returns (profile or None, note)."""
    for p in profiles:
        if p.software == software and p.protocol == protocol:
            return p, ""
    for p in profiles:
        if p.protocol == protocol:
            return p, f"no calibrated profile for software {software} / {protocol}; using {p.software} / {protocol}"
    for near in NEAREST_PROTOCOL.get(protocol, ()):
        for same_software in (True, False):
            for p in profiles:
                if p.protocol == near and (p.software == software) == same_software:
                    return p, (f"no calibrated profile for {protocol}; using {p.software} / {p.protocol} "
                               f"(the same NVMe target path in the controller)")
    for p in profiles:
        if p.software == software:
            return p, f"no calibrated profile for {protocol}; using {p.software} / {p.protocol}"
    return None, f"no calibrated profile for {software} / {protocol}: uncalibrated default CPU costs used"


def project_own(profile: PerfProfile) -> bool:
    """True when a profile's numbers are the project file's own (``models.design``: a project record that
    differs from the catalog's, or a new one): StorPlan's calibration did not produce them."""
    return any(is_project_source(text) for text in profile.sources.values())


def profile_kind(profile: PerfProfile, found: bool, note: str) -> str:
    """How the profile a workload uses was obtained: :data:`HARDWARE_RELATION` ("hardware relation only") for a
    profile the hardware relation built (its source says so); "assumed" when the record had none (uncalibrated
    defaults), its numbers are the project file's own (:func:`project_own`: never "calibrated", whatever their
    provenance says) or none of its CPU / latency fields was fitted; "derived" when :func:`find_profile` fell back
    to another software version or protocol, or the profile is a sibling's (``note``); otherwise "calibrated".
    A field counts as fitted when its provenance names the fit that set it (``Provenance.fit``: kind
    "calibrated", or "derived" from a fitted value)."""
    if not found or project_own(profile):
        return "assumed"
    if profile.source.startswith(HARDWARE_RELATION):
        return HARDWARE_RELATION
    fitted = any(profile.fit_of(k) for k in FITTED_FIELDS)
    if not fitted:
        return "assumed"
    return "derived" if note else "calibrated"


def scaled_profile(profile: PerfProfile, ratio: float, sibling: str) -> PerfProfile:
    """``profile`` with its CPU demands (:data:`PROFILE_CPU_FIELDS`), its WAFL affinity hold time and their
    standard errors divided by ``ratio`` (a record ``ratio`` times as fast needs 1/ratio of the CPU time per I/O
    at the same parallelism, and holds an affinity for 1/ratio as long: the hold is file-system work); servers,
    affinities and fixed latency kept. Each scaled field's provenance becomes "derived", its source saying so, and
    keeps the fit of the value it was scaled from (a fitted value, carried over; its standard error scales too).

    Raises:
        ValueError: ``ratio`` is not positive.
    """
    if not ratio > 0:
        raise ValueError(f"throughput ratio must be positive, got {ratio!r}")
    scaled = PROFILE_CPU_FIELDS + ("affinity_hold_us",)
    changes = {k: getattr(profile, k) / ratio for k in scaled}
    provenance = dict(profile.provenance)
    for k in scaled:
        if k in provenance:
            p = provenance[k]
            provenance[k] = Provenance(kind="derived", source=f"{sibling}'s {p.kind} {k} ({p.source}) / {ratio:.3g}",
                                       fit=p.fit)
    stderr = {k: (v / ratio if k in scaled else v) for k, v in profile.stderr.items()}
    return profile.model_copy(update={**changes, "provenance": provenance, "stderr": stderr,
                                      "source": f"derived from {sibling} / {ratio:.3g}: {profile.source}"})


def published_peak_words(record: Controller | CloudVm) -> str:
    """``NetApp's published 'up to' figure of 2,400,000 IOPS for the NetApp AFF A90 HA pair``: the words a profile
    note uses for the record's own ``peak_iops`` (a controller's published IOPS ceiling; "" without one); the
    report's summary finds the figure by these words (``models.present.uncertainty.published_bound``)."""
    peak = getattr(record, "peak_iops", None)
    if peak is None:
        return ""
    vendor = getattr(record, "vendor", "") or "the vendor"
    return f"{vendor}'s published 'up to' figure of {peak:,.0f} IOPS for the {record.name}"


def _sibling_original(sibling: Controller | CloudVm, profile: PerfProfile) -> PerfProfile | None:
    """The sibling's own profile a derived ``profile`` was scaled from (same software and protocol)."""
    return next((p for p in sibling.performance if (p.software, p.protocol) == (profile.software, profile.protocol)),
                None)


def record_profiles(record: Controller | CloudVm,
                    catalog: Catalog | None) -> tuple[list[PerfProfile], Controller | CloudVm | None, str]:
    """The profiles a record runs on: its own, then, for a controller or cloud VM with ``profile_from``, its
    calibrated sibling's (a record of the same kind: a controller's sibling is a controller, a cloud VM's a cloud
    VM) scaled by the ratio (:func:`scaled_profile`), except those of a software version and protocol the record
    has its own profile for (a record fitted on one protocol, e.g. NFS from a measured ramp, keeps its sibling's
    for the others). Returns (profiles, sibling record or None, why not the sibling's when it was asked for but
    cannot be used: unknown id, another kind, no profiles); the sibling's profiles are the list's tail
    (:func:`controller_profile` tells them apart)."""
    own = list(record.performance)
    derivation = record.profile_from
    if derivation is None:
        return own, None, ""
    sibling = catalog.find(derivation.sibling) if catalog is not None else None
    if type(sibling) is not type(record):
        kind = "controller" if isinstance(record, Controller) else "cloud VM"
        return own, None, f"profile_from names '{derivation.sibling}', which is not a {kind} of the catalog"
    if not sibling.performance:
        return own, None, f"profile_from names {sibling.name}, which has no calibrated profile"
    keys = {(p.software, p.protocol) for p in own}
    return own + [scaled_profile(p, derivation.ratio, sibling.id) for p in sibling.performance
                  if (p.software, p.protocol) not in keys], sibling, ""


def _lookup(record: Controller | CloudVm, catalog: Catalog | None, software: str,
                       protocol: str) -> tuple[PerfProfile | None, str]:
    """:func:`find_profile` over :func:`record_profiles` (the record's own profiles first); a sibling's profile
    always has a note (so it is never reported as calibrated)."""
    profiles, sibling, why = record_profiles(record, catalog)
    profile, note = find_profile(profiles, software, protocol)
    from_sibling = profile is not None and not any(profile is p for p in record.performance)
    if sibling is not None and from_sibling:
        derivation = record.profile_from
        assert profile is not None and derivation is not None  # a sibling's profile was chosen
        scaled = f"with CPU demands / {derivation.ratio:.3g}"
        if isinstance(record, Controller) and record.peak_iops is not None and profile.protocol in BLOCK_PROTOCOLS:
            scaled += (f"; its block operations capped at {published_peak_words(record)}; a rate cap beside the CPU, "
                       "so the CPU time per operation stays the scaled one")
        prefix = (f"no fitted profile of its own; {sibling.name}'s {profile.software} / {profile.protocol} profile "
                  f"{scaled} ({record.cited('profile_from') or 'no derivation given'})")
        note = f"{prefix}; {note}" if note else prefix
    elif why and not (profile is not None and not note):
        note = f"{why}; {note}" if note else why
    return profile, note


def _same_protocol(profile: PerfProfile, protocol: str) -> bool:
    """True when ``profile`` serves ``protocol`` itself or its nearest protocol (:data:`NEAREST_PROTOCOL`)."""
    return profile.protocol == protocol or profile.protocol in NEAREST_PROTOCOL.get(protocol, ())


def own_profile(record: Controller | CloudVm, catalog: Catalog | None, software: str,
                protocol: str) -> PerfProfile | None:
    """The record's own or sibling's profile of ``protocol`` (or its nearest protocol), any software version;
    None when only another protocol's, or none, exists (then a controller runs on the hardware relation)."""
    profile, _ = _lookup(record, catalog, software, protocol)
    return profile if profile is not None and _same_protocol(profile, protocol) else None


_CHOSEN: weakref.WeakKeyDictionary[Catalog, dict[tuple[str, str, str, str], tuple[Controller | CloudVm,
                                                                                  PerfProfile | None, str]]] = (
    weakref.WeakKeyDictionary())
"""catalog -> (record id, software, protocol, relation source) -> (record, profile, note): :func:`controller_profile`
remembered per catalog (a catalog and its records are frozen; the record is kept to check that it is the catalog's
own); a sizer search asks it again for every design of the same controller or VM."""


def controller_profile(record: Controller | CloudVm, catalog: Catalog | None, software: str,
                       protocol: str) -> tuple[PerfProfile | None, str]:
    """The profile the path builder runs a record on and the note that says how it was chosen (``""`` when it
    is the record's own exact profile): the record's own or its sibling's profile of the protocol (:func:`_lookup`,
    another software version with a note); a controller with none of the protocol runs on the hardware relation
    (``models.performance.hardware_relation``, a note saying so) rather than another protocol's profile; the
    other protocol's profile, or None, only where the relation has nothing (no calibrated platform of the
    family). Remembered per catalog (:data:`_CHOSEN`): the same objects for the same record, version and
    protocol."""
    if catalog is None:
        return _chosen(record, catalog, software, protocol)
    known = _CHOSEN.setdefault(catalog, {})
    key = (record.id, software, protocol, RELATION_SOURCE.get())
    hit = known.get(key)
    if hit is None or hit[0] is not record:
        hit = known[key] = (record, *_chosen(record, catalog, software, protocol))
    return hit[1], hit[2]


def _chosen(record: Controller | CloudVm, catalog: Catalog | None, software: str,
            protocol: str) -> tuple[PerfProfile | None, str]:
    """:func:`controller_profile` computed."""
    profile, note = _lookup(record, catalog, software, protocol)
    if isinstance(record, Controller) and catalog is not None and (
            profile is None or not _same_protocol(profile, protocol)):
        relation = hardware_relation_profile(record, catalog, software, protocol, own_profile)
        if relation is not None:
            why = note.split("; ")[0] + "; " if note.startswith("profile_from names") else ""
            share = ("its family's catalogued, assumed software costs" if UNFITTED_POOL in relation.source
                     else "the software costs its family's calibrated platforms share")
            return relation, (f"{why}no profile of its own for {protocol}: {relation.source} ({share}, through its "
                              "cores)")
    return profile, note


PROJECT_OWN_MARK = "the project file's own "
"""How an assumed basis's reason names a profile whose numbers are the project file's own (:func:`project_own`)."""
NO_FIELD_FITTED_MARK = "no field of the "
"""How an assumed basis's reason names a profile in the catalog none of whose fields a measurement fitted."""


def assumed_origin(basis: ProfileBasis | None) -> str:
    """Where an assumed profile's numbers come from: "project" (the project file's own profile), "catalogued" (a
    catalogued profile none of whose fields a measurement fitted: the E-Series' SANtricity profiles), "default"
    (no profile applies: the uncalibrated default CPU costs, ``paths.UNCALIBRATED_PROFILE``); "" for a basis that
    is not assumed, or none."""
    if basis is None or basis.kind != "assumed":
        return ""
    if PROJECT_OWN_MARK in basis.reason:
        return "project"
    if NO_FIELD_FITTED_MARK in basis.reason:
        return "catalogued"
    return "default"


def profile_basis(record: Controller | CloudVm, software: str | None, protocol: str,
                  catalog: Catalog | None = None) -> ProfileBasis:
    """Whether ``record`` on ``software`` (None: its default) over ``protocol`` runs on a calibrated, derived or
    assumed profile, with the sibling, ratio and reason (module docstring). ``catalog`` resolves a
    ``profile_from`` sibling (without it a sibling-derived record counts as assumed)."""
    version = software or getattr(record, "default_software", "") or ""
    profile, note = controller_profile(record, catalog, version, protocol)
    if profile is None:
        return ProfileBasis("assumed", reason=note)
    kind = profile_kind(profile, True, note)
    derivation = getattr(record, "profile_from", None)
    sibling_used = (derivation is not None and kind != "assumed"
                    and not any(profile is p for p in record.performance))
    if kind == HARDWARE_RELATION:
        reason = note
    elif kind == "assumed" and project_own(profile):
        reason = (f"{note + '; ' if note else ''}{PROJECT_OWN_MARK}{profile.software} / {profile.protocol} "
                  "profile (not the catalog's; StorPlan's calibration did not produce it)")
    elif kind == "assumed":
        reason = (f"{note + '; ' if note else ''}{NO_FIELD_FITTED_MARK}{profile.software} / {profile.protocol} "
                  "profile was fitted")
    elif kind == "derived":
        reason = note
    else:
        reason = profile.source or f"fitted {profile.software} / {profile.protocol} profile"
    ratio = derivation.ratio if sibling_used and derivation is not None else None
    return ProfileBasis(kind, derivation.sibling if sibling_used and derivation else "", ratio, reason)
