"""The public evidence behind each controller's performance profile, per protocol it serves, with its kind
(issue "Performance that ranks platforms the way the hardware does", item 1: "a table per platform of the public
evidence behind its profile and its kind"). Shown by ``storplan catalog controller --evidence`` and the catalog
browser's details.

Kinds (:data:`EVIDENCE_KINDS`):

- **benchmark ramp**: its own profile was fitted to a published benchmark's load levels (a SPECstorage ramp);
- **benchmark peak**: fitted to published peak figures (and their latencies) of a benchmark;
- **ratio claim**: a published ratio (one release over another, or one platform's peak over a sibling's) carries
  a fitted profile over (its own 9.4 profile from the 9.5 fit, a ``profile_from`` sibling);
- **vendor claim**: a vendor's published figure of the platform itself (none is fitted on its own yet; the ratio
  claims are built from two of them);
- **hardware relation only**: no public figure of this platform; it runs on its family's calibrated software costs
  through its cores, within NetApp's published ordering (``models.performance.hardware_relation``).
"""

from __future__ import annotations

from dataclasses import dataclass

from models.catalog import Catalog, Controller, PerfProfile
from models.performance.hardware_relation import HARDWARE_RELATION
from models.performance.profiles import controller_profile, profile_kind

EVIDENCE_KINDS = ("benchmark ramp", "benchmark peak", "vendor claim", "ratio claim", "hardware relation only",
                  "assumed")
"""The kinds of evidence, strongest first ("assumed": no public figure and no relation: the profile is a stated
assumption)."""

EVIDENCE_PROTOCOLS = ("FCP", "NVMe/FC", "iSCSI", "NVMe/TCP", "NFS", "SMB")
"""The protocols a controller's evidence is listed for (those it serves, in this order)."""


@dataclass(frozen=True)
class EvidenceRow:
    """One protocol of one controller: the profile kind it runs on (``calibrated``, ``derived``, ``hardware
    relation only``, ``assumed``), the evidence kind (:data:`EVIDENCE_KINDS`) and the evidence in words."""

    protocol: str
    profile: str
    kind: str
    evidence: str


def _fit_names(profile: PerfProfile) -> list[str]:
    """The distinct fits that set a field of ``profile``, in field order."""
    names: list[str] = []
    for prov in profile.provenance.values():
        if prov.fit and prov.fit not in names:
            names.append(prov.fit)
    return names


def _own_kind(profile: PerfProfile) -> str:
    """The evidence kind of a fitted profile: a ramp when a fit read a benchmark's load levels, a ratio claim when
    only its CPU demand was fitted (to one published ratio), else a benchmark peak."""
    fits = _fit_names(profile)
    if any("ramp" in f for f in fits):
        return "benchmark ramp"
    if profile.fit_of("cpu_read_us") and not profile.fit_of("fixed_latency_us"):
        return "ratio claim"
    return "benchmark peak"


def platform_evidence(record: Controller, catalog: Catalog) -> list[EvidenceRow]:
    """Per protocol ``record`` serves (:data:`EVIDENCE_PROTOCOLS`), on its default software, the profile it runs
    on and the public evidence behind it (module docstring)."""
    rows: list[EvidenceRow] = []
    software = record.default_software
    for protocol in (p for p in EVIDENCE_PROTOCOLS if p in record.protocols):
        profile, note = controller_profile(record, catalog, software, protocol)
        if profile is None:
            rows.append(EvidenceRow(protocol, "assumed", "assumed", note or "no profile"))
            continue
        kind = profile_kind(profile, True, note)
        own = any(profile is p for p in record.performance)
        if kind == HARDWARE_RELATION:
            cpu = profile.provenance.get("cpu_read_us")
            rows.append(EvidenceRow(protocol, kind, "hardware relation only",
                                    profile.source + (f"; read CPU cost: {cpu.source}" if cpu else "")))
        elif kind == "assumed":
            rows.append(EvidenceRow(protocol, kind, "assumed", profile.source or note))
        elif own:
            fits = "; ".join(_fit_names(profile))
            where = f"{profile.software} / {profile.protocol}"
            text = f"fitted to published measurements ({fits}), profile {where}"
            rows.append(EvidenceRow(protocol, kind, _own_kind(profile), text + (f"; {note}" if note else "")))
        else:
            derivation = record.profile_from
            cited = record.cited("profile_from") if derivation is not None else ""
            rows.append(EvidenceRow(protocol, kind, "ratio claim", note + (f" ({cited})" if cited and cited not in
                                                                           note else "")))
    return rows
