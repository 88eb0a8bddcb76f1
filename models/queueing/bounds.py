"""Asymptotic and balanced job bounds for single-class closed networks.

Lazowska et al. 1984 QSP ch. 5 ("Bounds on Performance"), Table 5.1 and 5.2;
Jain 1991 ch. 33 (asymptotic / bottleneck analysis) and ch. 34 (balanced job
bounds); Zahorjan, Sevcik, Eager & Galler 1982 for balanced job bounds.

Notation: N population, Z think time, D = sum of all demands (the response
time of a lone job), D_max = max over queueing stations of D_k / c_k (the
bottleneck; saturation throughput 1 / D_max).

Asymptotic bounds (ABA), extended to c-server and delay stations:

    X <= min(N / (D + Z), 1 / D_max)
    X >= N / (Z + R_max),  R_max = sum_delay D_k + sum_queueing D_k (1 + (N - 1) / c_k)
    R >= max(D, N D_max - Z),   R <= R_max

(R_max: every other job ahead of ours at every station, served c_k at a time.)

Balanced job bounds (BJB, QSP Table 5.2), for single-server stations with
total demand D_q, D_ave = D_q / K and think time Z' = Z + delay demands:

    X >= N / (D_q + Z' + (N - 1) D_max / (1 + Z' / (N D_q)))
    X <= min(1 / D_max, N / (D_q + Z' + (N - 1) D_ave / (1 + Z' / D_q)))

A c-server station is bracketed by a single-server station of demand D / c
(never slower; used for the upper bound) and one of demand D (never faster;
used for the lower bound) -- closed product-form throughput is monotone in the
service rates of every station. The returned BJB interval is intersected with
ABA, so it is never looser; R bounds follow from Little's law R = N / X - Z.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from models.queueing._network import build_net, integer, real
from models.queueing.station import Station

__all__ = ["asymptotic_bounds", "balanced_job_bounds"]

Bounds = tuple[tuple[float, float], tuple[float, float]]


def _prep(
    stations: Sequence[Station], n: int, think_time_s: float
) -> tuple[int, float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    N = integer("population n", n, 1)
    if isinstance(think_time_s, Mapping):
        raise ValueError("bounds are single-class: think_time_s must be a float")
    Z = real("think_time_s", think_time_s)
    net = build_net(stations, ("default",), False)
    D = net.demand[:, 0]
    q = net.queueing & (D > 0)
    if Z + D.sum() <= 0:
        raise ValueError("total demand plus think time must be > 0 for a closed network")
    return N, Z, D, net.servers.astype(float), q, net.delay


def _aba(N: int, Z: float, D: np.ndarray, c: np.ndarray, q: np.ndarray, delay: np.ndarray) -> Bounds:
    Dtot = float(D.sum())
    Dmax = float((D[q] / c[q]).max()) if q.any() else 0.0
    Rmax = float(D[~q].sum() + (D[q] * (1.0 + (N - 1) / c[q])).sum())
    x_hi = N / (Dtot + Z)
    if Dmax > 0:
        x_hi = min(x_hi, 1.0 / Dmax)
    x_lo = N / (Z + Rmax)
    r_lo = max(Dtot, N * Dmax - Z)
    return (x_lo, x_hi), (r_lo, Rmax)


def asymptotic_bounds(stations: Sequence[Station], n: int, think_time_s: float = 0.0) -> Bounds:
    """Asymptotic bounds ((X_low, X_high), (R_low, R_high)) in jobs/s and seconds.

    Args:
        stations: single-class stations (float demands).
        n: population >= 1.
        think_time_s: think time Z >= 0 in seconds.

    Raises:
        ValueError: invalid stations, n < 1, negative/non-finite Z, per-class
            demands, or a network with zero total demand and zero think time.

    Formulas: module docstring (QSP ch. 5, Table 5.1; Jain 1991 ch. 33).
    """
    return _aba(*_prep(stations, n, think_time_s))


def _bjb_x(N: int, Zp: float, d: np.ndarray) -> tuple[float, float]:
    """Balanced job bounds on X for single-server demands d (> 0), think Zp."""
    Dq = float(d.sum())
    if d.size == 0:
        return N / Zp, N / Zp
    Dmax, Dave = float(d.max()), Dq / d.size
    lo = N / (Dq + Zp + (N - 1) * Dmax / (1.0 + Zp / (N * Dq)))
    hi = min(1.0 / Dmax, N / (Dq + Zp + (N - 1) * Dave / (1.0 + Zp / Dq)))
    return lo, hi


def balanced_job_bounds(stations: Sequence[Station], n: int, think_time_s: float = 0.0) -> Bounds:
    """Balanced job bounds ((X_low, X_high), (R_low, R_high)) in jobs/s and seconds.

    Same arguments and errors as `asymptotic_bounds`. Formulas and the
    treatment of multi-server and delay stations: module docstring (QSP
    ch. 5, Table 5.2; Zahorjan et al. 1982; Jain 1991 ch. 34). Always at
    least as tight as the asymptotic bounds.
    """
    N, Z, D, c, q, delay = _prep(stations, n, think_time_s)
    (ax_lo, ax_hi), (ar_lo, ar_hi) = _aba(N, Z, D, c, q, delay)
    Zp = Z + float(D[~q].sum())
    _, x_hi = _bjb_x(N, Zp, D[q] / c[q])  # fastest equivalent: D / c single server
    x_lo, _ = _bjb_x(N, Zp, D[q])  # slowest equivalent: D single server
    x_lo, x_hi = max(x_lo, ax_lo), min(x_hi, ax_hi)
    r_lo = max(ar_lo, N / x_hi - Z)
    r_hi = min(ar_hi, N / x_lo - Z)
    return (x_lo, x_hi), (r_lo, r_hi)
