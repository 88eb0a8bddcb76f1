"""Service-time variability and arrival burstiness of each kind of station, with their sources.

A queue's waiting time depends on more than its utilisation: on how variable the service times are (cs², the
squared coefficient of variation, variance / mean²) and how bursty the arrivals are (ca²). The solvers in
:mod:`models.queueing.general_service` take both (Allen-Cunneen for the open model, Reiser's residual-life
correction for the closed ramp). These are the values, per operation type, none chosen to make a curve bend:

* **Arrivals, ca² = 1** (:data:`ARRIVAL_SCV`): the I/O reaching a station is the superposition of many
  independent streams (host threads, hosts, LUNs); by the Palm-Khintchine theorem such a superposition tends to
  a Poisson process (Khintchine 1960, *Mathematical Methods in the Theory of Queueing*; Heyman & Sobel 1982,
  *Stochastic Models in Operations Research* vol. 1, §5.8). Benchmarks with few outstanding I/Os are closed
  loops and see no external burstiness at all (the closed model ignores ca²).
* **Transfers, cs² = 0 per operation type** (ports, links, back-end lanes, data paths, NVRAM mirroring): every
  I/O of a workload moves the same bytes (its block size) at the same rate, so each operation type's transfer
  time is constant; a mix of reads and writes of different costs is variable only through the mix
  (:func:`mixture_scv`).
* **Cloud disk IOPS caps, cs² = 0**: a provisioned-IOPS disk is a rate limiter (a token bucket refilled at the
  provisioned rate, Microsoft "Virtual machine and disk performance" / Azure disk bursting docs), i.e. a
  deterministic 1 / IOPS spacing.
* **CPU and SSD media, cs² = 1 per operation type** (:data:`EXPONENTIAL_SCV`): assumed. No vendor publishes the
  distribution of per-operation CPU time or flash service time; exponential is the product-form default
  (Lazowska et al. 1984 QSP ch. 6), and SSD service times have a heavy garbage-collection tail that makes them
  no more regular than that (Kim et al. 2012, "Harmonia: a globally coordinated garbage collector for arrays
  of solid-state drives", MSST, measure response-time spikes of several x the mean).
* **HDD positioning** (:func:`hdd_positioning_scv`): seek time plus rotational latency plus a constant
  transfer. Rotational latency is uniform over one revolution, 60 / rpm seconds (Ruemmler & Wilkes 1994, "An
  introduction to disk drive modeling", IEEE Computer 27(3)); the seek time's spread is assumed uniform on
  [0, 2 x mean seek] (its shape is not published per model; Ruemmler & Wilkes show a concave seek curve over a
  near-uniform distance, which this roughly matches).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

ARRIVAL_SCV = 1.0
"""ca² of the I/O arriving at every station: Poisson (Palm-Khintchine superposition of many host streams; see
module)."""

EXPONENTIAL_SCV = 1.0
"""cs² of one operation's CPU or SSD-media service time: assumed exponential (no published distribution; see
module)."""

DETERMINISTIC_SCV = 0.0
"""cs² of one operation type's transfer time over a port, link or lane, and of a rate-capped cloud disk: the
same bytes at the same rate every time (see module)."""

TRANSFER_KINDS = frozenset({"port", "backend", "network", "datapath", "nvram", "disk"})
"""Station kinds (``StationSpec.kind``) whose per-operation service time is deterministic."""

SEEK_SPREAD_SCV = 1.0 / 3.0
"""assumed: cs² of an HDD's seek time, that of a uniform distribution on [0, 2 x mean] (variance mean² / 3):
seek-time distributions are not published per drive model (see module)."""


def kind_scv(kind: str) -> float:
    """Per-operation cs² of a station of ``kind`` (a ``StationSpec.kind`` tag): 0 for transfers and rate caps,
    1 (assumed exponential) otherwise; HDDs get theirs from :func:`hdd_positioning_scv` instead."""
    return DETERMINISTIC_SCV if kind in TRANSFER_KINDS else EXPONENTIAL_SCV


def hdd_positioning_scv(positioning_s: float, transfer_s: float, rpm: int | None) -> float:
    """cs² of one random HDD visit: seek + rotational latency + transfer.

    Args:
        positioning_s: the catalog's mean positioning time (mean seek + half a revolution), seconds;
        transfer_s: the I/O's transfer time (constant), seconds; rpm: spindle speed (None: 7,200 assumed, the
        slowest common speed, which gives the largest rotational spread).

    Returns:
        variance / mean²: rotation uniform on [0, T] (variance T² / 12, T = 60 / rpm), seek with cs²
        :data:`SEEK_SPREAD_SCV` around mean positioning - T / 2 (>= 0), transfer constant.
    """
    revolution_s = 60.0 / float(rpm or 7_200)
    rotation_mean = min(revolution_s / 2.0, positioning_s)
    seek_mean = max(positioning_s - rotation_mean, 0.0)
    variance = revolution_s ** 2 / 12.0 + SEEK_SPREAD_SCV * seek_mean ** 2
    mean = positioning_s + transfer_s
    return variance / (mean * mean) if mean > 0 else EXPONENTIAL_SCV


def mixture_scv(weights: Sequence[float], means_s: Sequence[float], scvs: Sequence[float]) -> float:
    """cs² of a service time drawn from a mixture: operation type i with probability w_i, mean m_i, cs² c_i.

    E[S] = sum w_i m_i and E[S²] = sum w_i m_i² (1 + c_i) (law of total variance; e.g. Harchol-Balter 2013,
    *Performance Modeling and Design of Computer Systems*, ch. 3); returns E[S²] / E[S]² - 1, or
    :data:`EXPONENTIAL_SCV` when the mean is 0, so small that its square underflows, or not finite (a
    hostile record's rate; guarded here so that no caller divides by zero).

    Raises:
        ValueError: sequences of different lengths.
    """
    if not len(weights) == len(means_s) == len(scvs):
        raise ValueError("weights, means_s and scvs must have the same length")
    mean = sum(w * m for w, m in zip(weights, means_s))
    if not 0.0 < mean * mean < math.inf:  # a zero, vanishing (its square underflows) or unbounded mean
        return EXPONENTIAL_SCV
    second = sum(w * m * m * (1.0 + c) for w, m, c in zip(weights, means_s, scvs))
    scv = second / (mean * mean) - 1.0
    return max(scv, 0.0) if math.isfinite(scv) else EXPONENTIAL_SCV
