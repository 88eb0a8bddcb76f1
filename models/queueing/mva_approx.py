"""Approximate MVA: Bard-Schweitzer and Linearizer, single and multi-class.

Schweitzer 1979 ("Approximate analysis of multiclass closed networks of
queues", Proc. Int. Conf. Stochastic Control and Optimization); Bard 1979;
Lazowska et al. 1984 QSP ch. 6 (single class) and ch. 7 (multiple classes),
approximate MVA. The arrival-theorem term Q_k(n - e_s) is estimated from
Q_k(n) by

    Q_kr(n - e_s) ~= (n - e_s)_r * (Q_kr(n) / n_r + F_krs)

with F = 0 (Schweitzer) or, for Linearizer (Chandy & Neuse 1982,
"Linearizer: a heuristic algorithm for queueing network models of computing
systems", CACM 25(2); Bolch et al. 2006 ch. 9), F_krs = Q_kr(n - e_s) /
(n - e_s)_r - Q_kr(n) / n_r estimated from "core" solutions at n and at every
n - e_s, iterated until F stops changing (at most MAX_OUTER times; Chandy &
Neuse use 3 iterations).

Solving the fixed point. Single class: with a = (N-1)/N and b_k = (N-1) F_k,
Q_k = X d_k (1 + b_k) / (1 - a X d_k) is explicit in X, so the fixed point is
the root of the increasing function X Z + sum_k Q_k(X) - N on
(0, 1 / (a max d_k)), found by safeguarded Newton/bisection: it always exists,
is unique and converges even for N = 100,000. Several classes: plain
successive substitution with a *relative* stopping test
max |Q_new - Q| / Q_new < tol and an iteration cap; ``converged`` reports the
outcome.

Multi-server stations (1 < c < N) are approximated by Seidmann's
decomposition (Seidmann, Schweitzer & Shalev-Oren 1987, "Computerized closed
queueing network models of flexible manufacturing systems"; also QSP ch. 8
discussion and Bolch et al. ch. 9): a single-server queue with demand D / c in
series with a delay of D (c - 1) / c. The result's method then carries a
"+seidmann" suffix. Stations with c >= N never queue and are exact delays.
"""

from __future__ import annotations

import numpy as np

__all__ = ["approx_single", "approx_multi", "seidmann_split"]

MAX_OUTER = 50
MAX_ITER = 20_000
TOL = 1e-10


def seidmann_split(
    D: np.ndarray, c: np.ndarray, delay: np.ndarray, Ntot: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Split demands (K, R) into queueing part dq (K, R) and delay part dd (K, R); also 'used seidmann'."""
    delay_like = delay | (c >= Ntot)
    multi = ~delay_like & (c > 1)
    cq = np.where(multi, c, 1).astype(float)
    dq = np.where(delay_like[:, None], 0.0, D / cq[:, None])
    dd = np.where(delay_like[:, None], D, D - dq)
    used = bool(np.any(multi & np.any(D > 0, axis=1)))
    return dq, dd, used


def _core_single(dq: np.ndarray, Zt: float, N: int, b: np.ndarray) -> tuple[float, np.ndarray, bool]:
    """Solve X Zt + sum_k X d_k (1+b_k) / (1 - a X d_k) = N for X; returns (X, Q_queue, converged)."""
    a = (N - 1) / N
    g = np.maximum(1.0 + b, 0.0)
    dg = dq * g
    base = Zt + dg.sum()
    if a == 0.0 or dq.max(initial=0.0) == 0.0:
        x = N / base
        return x, x * dg, True
    with np.errstate(over="ignore", divide="ignore"):
        hi = 1.0 / (a * dq.max())
    hi = min(hi, N / base) if base > 0 else hi  # f(N/base) >= 0 since 1/(1-a x d) >= 1
    lo = 0.0
    x = 0.5 * hi
    converged = False
    for _ in range(200):
        # at x = hi a station's denominator can be 0: f and f' are then inf / nan, and the step falls back to
        # bisection (a nan Newton step fails lo < xn < hi)
        with np.errstate(divide="ignore", invalid="ignore"):
            den = 1.0 - a * x * dq
            q = x * dg / den
            f = x * Zt + q.sum() - N
            if abs(f) <= 1e-13 * N:
                converged = True
                break
            if f < 0:
                lo = x
            else:
                hi = x
            fp = Zt + (dg / den**2).sum()
            xn = x - f / fp
        x = xn if lo < xn < hi else 0.5 * (lo + hi)
        if hi - lo <= 1e-15 * hi:
            converged = True
            break
    den = 1.0 - a * x * dq
    return x, x * dg / den, converged


def approx_single(
    D: np.ndarray, c: np.ndarray, delay: np.ndarray, Z: float, N: int, method: str
) -> tuple[float, np.ndarray, bool, bool]:
    """Single-class Schweitzer or Linearizer. Returns (X, R (K,), converged, used_seidmann)."""
    dq2, dd2, used = seidmann_split(D[:, None], c, delay, N)
    dq, dd = dq2[:, 0], dd2[:, 0]
    Zt = Z + dd.sum()
    zero = np.zeros_like(dq)
    x, q, ok = _core_single(dq, Zt, N, zero)
    if method == "linearizer" and N >= 2:
        F = zero
        outer_ok = False
        for _ in range(MAX_OUTER):
            x, q, ok1 = _core_single(dq, Zt, N, (N - 1) * F)
            if N - 1 >= 1:
                _, q1, ok2 = _core_single(dq, Zt, N - 1, (N - 2) * F)
            ok = ok1 and ok2
            F_new = q1 / (N - 1) - q / N
            scale = np.maximum(q / N, 1e-300)
            done = np.all(np.abs(F_new - F) <= 1e-9 * scale)
            F = F_new
            if done:
                outer_ok = True
                break
        x, q, ok = _core_single(dq, Zt, N, (N - 1) * F)
        ok = ok and outer_ok
    with np.errstate(invalid="ignore", divide="ignore"):
        Rq = np.where(dq > 0, q / x, 0.0)
    return x, Rq + dd, ok, used


def _core_multi(
    dq: np.ndarray, Zt: np.ndarray, Npop: np.ndarray, F: np.ndarray, Q0: np.ndarray
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Successive substitution for the multi-class estimate; returns (X, Q, converged)."""
    K, Rn = dq.shape
    Npop = Npop.astype(float)
    Nm = Npop[None, :] - np.eye(Rn)  # [s, r] = (n - e_s)_r
    Q = Q0.copy()
    inv_n = np.where(Npop > 0, 1.0 / np.maximum(Npop, 1.0), 0.0)
    X = np.zeros(Rn)
    converged = False
    for _ in range(MAX_ITER):
        frac = Q * inv_n[None, :]  # (K, R)
        # Qm[k, s, r]: queue of class r at k when one class-s job is removed
        Qm = np.maximum(Nm[None, :, :] * (frac[:, None, :] + np.transpose(F, (0, 2, 1))), 0.0)
        Rq = dq * (1.0 + Qm.sum(axis=2))  # (K, s)
        X = Npop / (Zt + Rq.sum(axis=0))
        Qn = X[None, :] * Rq
        diff = np.abs(Qn - Q)
        scale = np.maximum(np.abs(Qn), 1e-300)
        Q = Qn
        if np.all(diff <= TOL * scale):
            converged = True
            break
    return X, Q, converged


def approx_multi(
    D: np.ndarray, c: np.ndarray, delay: np.ndarray, Z: np.ndarray, Npop: np.ndarray, method: str
) -> tuple[np.ndarray, np.ndarray, bool, bool]:
    """Multi-class Schweitzer or Linearizer. Returns (X (R,), Rkr (K, R), converged, used_seidmann)."""
    K, Rn = D.shape
    Ntot = int(Npop.sum())
    dq, dd, used = seidmann_split(D, c, delay, Ntot)
    Zt = Z + dd.sum(axis=0)
    active = np.any(dq > 0, axis=1)
    dqa = dq[active]
    Q0 = np.tile(Npop[None, :] / max(active.sum(), 1), (dqa.shape[0], 1)).astype(float)
    F = np.zeros((dqa.shape[0], Rn, Rn))
    X, Q, ok = _core_multi(dqa, Zt, Npop, F, Q0)
    if method == "linearizer" and Ntot >= 2:
        outer_ok = False
        for _ in range(MAX_OUTER):
            X, Q, ok = _core_multi(dqa, Zt, Npop, F, Q)
            F_new = np.zeros_like(F)
            for s in range(Rn):
                Ms = Npop.copy()
                Ms[s] -= 1
                _, Qs, ok_s = _core_multi(dqa, Zt, Ms, F, Q * np.where(Npop > 0, Ms / np.maximum(Npop, 1), 0))
                ok = ok and ok_s
                with np.errstate(divide="ignore", invalid="ignore"):
                    a = np.where(Ms[None, :] > 0, Qs / np.maximum(Ms, 1)[None, :], 0.0)
                    b = Q / Npop[None, :]
                F_new[:, :, s] = np.where(Ms[None, :] > 0, a - b, 0.0)
            scale = np.maximum((Q / Npop[None, :])[:, :, None], 1e-300)
            done = np.all(np.abs(F_new - F) <= 1e-9 * scale)
            F = F_new
            if done:
                outer_ok = True
                break
        X, Q, ok_f = _core_multi(dqa, Zt, Npop, F, Q)
        ok = ok and ok_f and outer_ok
    Rq = np.zeros((K, Rn))
    with np.errstate(divide="ignore", invalid="ignore"):
        Rq[active] = np.where(X[None, :] > 0, Q / X[None, :], 0.0)
    return X, Rq + dd, ok, used
