"""The pooled software fit: ONTAP's per-operation CPU cost by protocol, its release trend and its fixed latencies,
fitted jointly across every platform of a family with a profile field of its own, the hardware entering through
the catalog's cores (issue "Performance that ranks platforms the way the hardware does", item 1).

How the hardware relation uses it (:data:`models.performance.hardware_relation.RELATION_SOURCE`): by default a
platform takes the median of its nearest fitted release, except for a field no fitted release at or before its own
covers (the FAS3140 on ONTAP 7.3: its NFS fixed latency was the A900's 9.14 figure), which takes this fit's value
across releases. Every field from this fit (``"pooled"``) is not the default. The comparison on what neither saw
(``benchmarks/bench_pooled_fit.py``, measured on the bundled catalog when this module was written), the previous
rule ("nearest") / every field pooled / the default:

- leave-one-platform-out saturation: 5 checks, median |error| 43.1% / 43.1% / 43.1%; latency: 26 checks, 33.1% /
  33.1% / 33.1% (with the A800 or the AFF8080 left out, one FCP platform remains, so every rule gives its values);
- the never-fitted FAS3140 SPEC SFS 2008 ramp, latency: 8 of 10 points predicted, median |error| 144.6% / 9 of 10,
  134.6% / 9 of 10, 134.6%; its saturation -12.9% / -5.9% / -5.9%;
- platform ladders: 67 / 63 / 67 of 71 hold (every field pooled: the A1K's light-load latency 26.6% over the
  calibrated A90's on OLTP and NFS, the C80's 17.6% over the C800's, the A70 0.4% below the A90 on NFS saturation:
  the fixed latency shared across releases sits between the calibrated neighbours' own).

With the bundled evidence a protocol left out keeps at most one platform per release, so the pooled fit reduces to
that platform's values for it: the release trend cannot be checked out of sample (with the AFF A800 left out, the
AFF8080's 8.3.1 -> 9.0 ratio alone would extrapolate a 4.8x faster A800; hence the clamp), and NVMe has no second
platform. No CPU generation enters: no public source naming each controller's processor was found (cores only).

**Observations.** Every field of an own profile (not a ``profile_from`` sibling's) whose provenance is
"calibrated" gives one observation: the CPU demands per core (``demand x cores_per_node / servers_per_node``),
WAFL affinities per core (``affinities_per_node / cores_per_node``), fixed latency, affinity hold time and its
variability as fitted. Each is weighted by the kind of public evidence its fit read (:data:`EVIDENCE_WEIGHTS`:
benchmark ramp > benchmark peak > vendor claim > ratio claim; the values are an assumption, only their order is the
issue's).

**Model** (natural logarithms, weighted least squares, ``scipy.optimize.least_squares``):

- CPU field ``f`` of protocol ``q`` on a release at position ``t`` (:func:`release_position`):
  ``log(per-core demand) = a[q, f] - s * (clamp(t) - 0)``, one release trend ``s`` per half-year shared by every
  protocol and field (ONTAP 9 ships a release every six months, so 9.N is N half-years after 9.0); ``clamp``
  holds ``t`` inside the span of positions the CPU observations cover (no extrapolation beyond the fitted
  releases). With observations on one position only, ``s = 0``.
- Any other field ``f`` of protocol ``q``: ``log(value) = b[q, f]``, shared by every platform and release (the
  bundled evidence has one platform per protocol and release, so a release effect is not identified apart from the
  platform: the pooled value is the weighted geometric mean across them, not one platform's figure).

**Prediction.** A protocol with no parameter of its own takes the first of the hardware relation's stand-ins
(``CPU_PROTOCOL`` for CPU fields: NVMe takes the NVMe fit's, FCP's where there is none; ``STAND_IN``
otherwise).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field

import numpy as np

from models.catalog import Catalog, Controller, PerfProfile
from models.performance.per_core import CPU_FIELDS, per_core_value

EVIDENCE_WEIGHTS: dict[str, float] = {"benchmark ramp": 1.0, "benchmark peak": 0.6, "vendor claim": 0.35,
                                      "ratio claim": 0.2}
"""Weight of one observation by the kind of public evidence its fit read (an assumption: only the order, ramp >
peak > vendor claim > ratio claim, is stated by the issue)."""

OTHER_FIELDS = ("fixed_latency_us", "affinity_hold_us", "affinity_hold_scv", "affinities_per_node")
"""Fields pooled as shared software constants (affinities per core)."""


def release_position(version: str) -> float:
    """A release's position in half-years after ONTAP 9.0 ("9.5" -> 5, "9.14.1" -> 14; ONTAP 9 ships a feature
    release every six months); 8.3.x -> -1 (the release line 9.0 followed); anything older -> -2 (clamped to the
    fitted span in use); no number -> 0."""
    digits = []
    for token in version.replace("P", ".").replace(" ", ".").split("."):
        d = "".join(ch for ch in token if ch.isdigit())
        if d:
            digits.append(int(d))
    if not digits:
        return 0.0
    if digits[0] == 9 and len(digits) > 1:
        return float(digits[1])
    if digits[0] == 9:
        return 0.0
    if digits[:2] == [8, 3]:
        return -1.0
    return -2.0


def observation_kind(profile: PerfProfile) -> str:
    """The evidence kind of a fitted profile (the rule of ``models.performance.evidence``): a ramp when a fit read a
    benchmark's load levels, a ratio claim when only its CPU demand was fitted, else a benchmark peak."""
    fits = [prov.fit for prov in profile.provenance.values() if prov.fit]
    if any("ramp" in f for f in fits):
        return "benchmark ramp"
    if profile.fit_of("cpu_read_us") and not profile.fit_of("fixed_latency_us"):
        return "ratio claim"
    return "benchmark peak"


@dataclass(frozen=True)
class Observation:
    """One calibrated field of one platform's profile: platform name, software, protocol, field, value (per core
    for CPU demands and affinities), evidence kind and weight."""

    platform: str
    software: str
    protocol: str
    field: str
    value: float
    kind: str
    weight: float


def observations(catalog: Catalog, family: str, exclude: str = "") -> list[Observation]:
    """Every calibrated field of the own profiles of ``family``'s controllers but the controller id ``exclude``
    (module docstring), catalog order."""
    out: list[Observation] = []
    for record in catalog.of_kind(Controller):
        if record.family != family or record.id == exclude:
            continue
        for profile in record.performance:
            kind = observation_kind(profile)
            for name in CPU_FIELDS + OTHER_FIELDS:
                prov = profile.provenance.get(name)
                if prov is None or prov.kind != "calibrated":
                    continue
                value = per_core_value(profile, record.cores_per_node, name)
                if value is not None and value > 0:
                    out.append(Observation(record.name, profile.software, profile.protocol, name, value, kind,
                                           EVIDENCE_WEIGHTS[kind]))
    return out


@dataclass(frozen=True)
class PooledSoftware:
    """The fitted parameters of one family: ``cpu[(protocol, field)]`` per-core demand at release 9.0 (us),
    ``other[(protocol, field)]`` the shared constants, ``trend`` the log decrease of CPU demand per half-year,
    ``span`` the release positions the CPU observations cover, ``rms`` the weighted residual RMS (log units) and
    the observations read."""

    cpu: dict[tuple[str, str], float]
    other: dict[tuple[str, str], float]
    trend: float
    span: tuple[float, float]
    rms: float
    observations: tuple[Observation, ...] = field(default=())

    def cpu_demand(self, protocols: tuple[str, ...], name: str, software: str) -> tuple[float, str] | None:
        """The per-core demand (us) of the first of ``protocols`` with a parameter for CPU field ``name`` on
        ``software`` and that protocol; None when none has one."""
        t = min(max(release_position(software), self.span[0]), self.span[1])
        for proto in protocols:
            base = self.cpu.get((proto, name))
            if base is not None:
                return base * math.exp(-self.trend * t), proto
        return None

    def constant(self, protocols: tuple[str, ...], name: str) -> tuple[float, str] | None:
        """The shared value of field ``name`` for the first of ``protocols`` that has one; None otherwise."""
        for proto in protocols:
            value = self.other.get((proto, name))
            if value is not None:
                return value, proto
        return None

    def text(self, protocol: str, name: str) -> str:
        """In words: which observations the parameter pools (platform, software, kind)."""
        used = [o for o in self.observations if o.protocol == protocol and o.field == name]
        parts = ", ".join(f"{o.platform} {o.software} ({o.kind})" for o in used)
        trend = (f"; {1 - math.exp(-self.trend):.1%} less per half-year of release within ONTAP "
                 f"{_position_text(self.span[0])}-{_position_text(self.span[1])}" if name in CPU_FIELDS
                 and self.trend else "")
        return f"fitted jointly, weighted by the kind of evidence, to {parts}{trend}"


def _position_text(t: float) -> str:
    """A release position back in words (-1 -> 8.3, N -> 9.N)."""
    return "8.3" if t < 0 else f"9.{int(t)}"


def _rounded(value: float) -> float:
    """``value`` to 10 significant digits (the catalog's figures have at most 6: one observation's value comes back
    as itself, not 1e-16 off it, so an ordering bound does not see a tie as a step)."""
    return float(f"{value:.10g}")


def fit(catalog: Catalog, family: str, exclude: str = "") -> PooledSoftware | None:
    """The joint weighted least-squares fit of ``family``'s software costs (module docstring), the controller id
    ``exclude`` left out; None when the family has no calibrated field."""
    obs = observations(catalog, family, exclude)
    if not obs:
        return None
    cpu_keys = sorted({(o.protocol, o.field) for o in obs if o.field in CPU_FIELDS})
    other_keys = sorted({(o.protocol, o.field) for o in obs if o.field not in CPU_FIELDS})
    positions = [release_position(o.software) for o in obs if o.field in CPU_FIELDS]
    span = (min(positions), max(positions)) if positions else (0.0, 0.0)
    has_trend = span[1] > span[0]
    keys = cpu_keys + other_keys
    index = {k: i for i, k in enumerate(keys)}
    n = len(keys) + (1 if has_trend else 0)
    y = np.array([math.log(o.value) for o in obs])
    w = np.sqrt(np.array([o.weight for o in obs]))
    design = np.zeros((len(obs), n))
    for row, o in enumerate(obs):
        design[row, index[(o.protocol, o.field)]] = 1.0
        if has_trend and o.field in CPU_FIELDS:
            design[row, -1] = -release_position(o.software)
    start = np.zeros(n)
    for k, i in index.items():
        start[i] = float(np.mean([math.log(o.value) for o in obs if (o.protocol, o.field) == k]))

    def residuals(theta: np.ndarray) -> np.ndarray:
        return np.asarray(w * (design @ theta - y))

    from scipy.optimize import least_squares  # here, not at import: scipy costs ~0.3 s and most designs never fit

    result = least_squares(residuals, start, method="lm" if len(obs) >= n else "trf")
    theta = result.x
    rms = float(np.sqrt(np.sum(result.fun ** 2) / max(float(np.sum(w ** 2)), 1e-12)))
    return PooledSoftware(cpu={k: _rounded(math.exp(theta[index[k]])) for k in cpu_keys},
                          other={k: _rounded(math.exp(theta[index[k]])) for k in other_keys},
                          trend=float(theta[-1]) if has_trend else 0.0, span=span, rms=rms,
                          observations=tuple(obs))


_FITS: weakref.WeakKeyDictionary[Catalog, dict[tuple[str, str], PooledSoftware | None]] = (
    weakref.WeakKeyDictionary())


def pooled_software(catalog: Catalog, family: str, exclude: str = "") -> PooledSoftware | None:
    """:func:`fit` remembered per catalog (a catalog never changes once built)."""
    known = _FITS.setdefault(catalog, {})
    key = (family, exclude)
    if key not in known:
        known[key] = fit(catalog, family, exclude)
    return known[key]
