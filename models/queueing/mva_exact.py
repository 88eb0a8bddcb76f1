"""Exact single-class Mean Value Analysis with multi-server (load-dependent) stations.

Reiser & Lavenberg 1980, "Mean-value analysis of closed multichain queuing
networks", J. ACM 27(2); Lazowska et al. 1984 QSP ch. 6 (single-server and
delay centres) and ch. 8 (load-dependent centres); Jain 1991 ch. 34; Bolch et
al. 2006 ch. 8 (MVA for multi-server stations). For n = 1 .. N:

    delay station:     R_k(n) = D_k
    single server:     R_k(n) = D_k (1 + Q_k(n-1))                      (arrival theorem)
    c_k servers:       R_k(n) = D_k / c_k (1 + Q_k(n-1)
                                + sum_{j=0}^{c_k-2} (c_k-1-j) p_k(j|n-1))  (Bolch et al. ch. 8)
    X(n) = n / (Z + sum_k R_k(n)),     Q_k(n) = X(n) R_k(n)              (Little)
    p_k(j|n) = X(n) D_k / j * p_k(j-1|n-1),          j = 1 .. c_k-1

A station with c_k >= N servers never queues and is solved exactly as a delay
station.

Stable p_k(0|n). The textbook closure p_k(0|n) = 1 - sum_{j>=1} p_k(j|n)
cancels catastrophically: errors grow geometrically with n and, in our tests,
a 4-server bottleneck already returns impossible negative probabilities and
throughputs above the asymptotic bound by n ~ 100. Instead we use the exact
identity p_k(0|n) = G^{(-k)}(n) / G(n), i.e.

    p_k(0|n) = p_k(0|n-1) * X(n) / X^{(-k)}(n),

where X^{(-k)} is the throughput of the same network without station k
(Casale 2008, "A note on stable flow-equivalent aggregation in closed
networks", Queueing Systems 60; the ratio of normalising constants is from
the convolution algorithm, QSP ch. 8 / Bolch et al. ch. 8). Only products and
sums of positive numbers remain. The complement networks are solved in the
same pass, vectorised over all 2^L subsets of the L multi-server stations.
For L > MAX_SUBSET_LD the solver switches to the (also stable, but O(L N^2))
log-domain convolution of `convolution.solve_ld_convolution` (method
"exact-convolution").
"""

from __future__ import annotations

import numpy as np

from models.queueing.convolution import solve_ld_convolution

__all__ = ["exact_single", "empty_network", "MAX_SUBSET_LD"]

#: Largest number of multi-server stations handled by the subset-vectorised MVA.
MAX_SUBSET_LD = 8


def exact_single(
    D: np.ndarray, c: np.ndarray, delay: np.ndarray, Z: float, N: int, *, force_convolution: bool = False
) -> tuple[np.ndarray, np.ndarray, str]:
    """Exact single-class MVA for n = 1..N (formulas in the module docstring).

    Args:
        D: (K,) demands in seconds (>= 0); c: (K,) servers; delay: (K,) bool;
        Z: think time in seconds; N: population >= 0 (0: empty arrays, there
        is no n in 1..0). Z + sum(D) must be > 0.

    Returns:
        (X, R, method): X (N,) throughput (jobs/s) for n = 1..N; R (N, K)
        residence times (s); method "exact-mva" or "exact-convolution".
        The empty network (n = 0) has X = 0 and Q = 0 by definition; see
        :func:`empty_network`.
    """
    K = len(D)
    if N <= 0:
        return np.empty(0), np.empty((0, K)), "exact-mva"
    delay_like = delay | (D == 0.0) | (c >= N)
    single = ~delay_like & (c == 1)
    ld = ~delay_like & (c > 1)
    si, li = np.flatnonzero(single), np.flatnonzero(ld)
    Zt = float(Z + D[delay_like].sum())
    Ds = D[si]
    Dl, cl = D[li], c[li]
    R = np.empty((N, K))
    R[:, delay_like] = D[delay_like]
    X = np.empty(N)

    if li.size == 0:
        Qs = np.zeros(si.size)
        Rs_hist = np.empty((N, si.size))
        ones = np.ones(si.size)  # Rs @ ones is a cheaper sum for these small vectors (hot loop)
        for n in range(1, N + 1):
            Rs = Ds * (1.0 + Qs)
            x = n / (Zt + Rs.dot(ones))
            Qs = x * Rs
            X[n - 1] = x
            Rs_hist[n - 1] = Rs
        R[:, si] = Rs_hist
        return X, R, "exact-mva"

    if li.size <= MAX_SUBSET_LD and not force_convolution:
        _ld_subset_mva(Ds, Zt, Dl, cl, N, X, R, si, li)
        return X, R, "exact-mva"

    Xc, Qld = solve_ld_convolution(Ds, Zt, Dl, cl, N)
    X[:] = Xc
    R[:, li] = Qld / Xc[:, None]
    Qs = np.zeros(si.size)
    for n in range(N):
        Rs = Ds * (1.0 + Qs)
        Qs = Xc[n] * Rs
        R[n, si] = Rs
    return X, R, "exact-convolution"


def empty_network(D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The closed network at population 0: (X, R) with X = 0 for every class and R = D.

    No job circulates, so throughput, queue lengths (Q = X R) and utilisations (U = X D / c) are 0. The residence
    times are those a first job would see on arrival (arrival theorem at n = 0: an empty network, R_k = D_k, the
    MVA recursion's start Q_k(0) = 0; Lazowska et al. 1984 QSP ch. 6), so a curve from n = 0 starts at the
    no-load latency.

    Args:
        D: (K,) or (K, R) demands (s).

    Returns:
        (X, R): X of shape (R,) (1 for a (K,) input) all 0; R a float copy of D shaped (K, R).
    """
    D2 = np.asarray(D, dtype=float)
    D2 = D2[:, None] if D2.ndim == 1 else D2
    return np.zeros(D2.shape[1]), D2.copy()


def _ld_subset_mva(
    Ds: np.ndarray, Zt: float, Dl: np.ndarray, cl: np.ndarray, N: int, X: np.ndarray, R: np.ndarray,
    si: np.ndarray, li: np.ndarray,
) -> None:
    """Load-dependent MVA with p(0|n) = p(0|n-1) X(n) / X^{(-k)}(n), all 2^L subsets at once."""
    L = Dl.size
    S = 1 << L
    full = S - 1
    subsets = np.arange(S)
    member = ((subsets[:, None] >> np.arange(L)[None, :]) & 1).astype(bool)  # (S, L)
    comp = subsets[:, None] ^ (1 << np.arange(L))[None, :]  # (S, L): subset without / with l
    cmax = int(cl.max())
    j = np.arange(cmax)
    inside = j[None, :] < cl[:, None]  # (L, cmax): states 0..c_l-1 are tracked
    coef = np.where(inside, cl[:, None] - 1 - j[None, :], 0).astype(float)
    inv_j = np.zeros(cmax)
    inv_j[1:] = 1.0 / j[1:]
    step = np.where(inside[:, 1:], Dl[:, None] * inv_j[None, 1:], 0.0)  # (L, cmax-1): D_l / j
    P = np.zeros((S, L, cmax))
    P[:, :, 0] = 1.0
    member3 = member[:, :, None].astype(float)
    P *= member3
    Qs = np.zeros((S, Ds.size))
    Ql = np.zeros((S, L))
    Dl_over_c = Dl / cl
    Rs_hist = np.empty((N, Ds.size))
    Rl_hist = np.empty((N, L))
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        for n in range(1, N + 1):
            Rs = Ds * (1.0 + Qs)
            Rl = np.where(member, Dl_over_c * (1.0 + Ql + (coef * P).sum(axis=2)), 0.0)
            Xv = n / (Zt + Rs.sum(axis=1) + Rl.sum(axis=1))  # inf only for the empty network with Zt == 0
            Qs = Xv[:, None] * Rs
            Ql = Xv[:, None] * Rl
            ratio = np.where(member, Xv[:, None] / Xv[comp], 1.0)  # X_S(n) / X_{S\l}(n)
            newP = np.empty_like(P)
            newP[:, :, 1:] = Xv[:, None, None] * step[None, :, :] * P[:, :, :-1]
            newP[:, :, 0] = P[:, :, 0] * ratio
            newP *= member3  # lanes of stations outside a subset stay 0 (never overflow)
            P = newP
            X[n - 1] = Xv[full]
            Rs_hist[n - 1] = Rs[full]
            Rl_hist[n - 1] = Rl[full]
    R[:, si] = Rs_hist
    R[:, li] = Rl_hist
