"""Exact single-class closed networks with multi-server stations by scaled (log-domain) convolution.

Numerically stable fallback for load-dependent MVA (internal). Buzen's
convolution algorithm (Buzen 1973; Lazowska et al. 1984 QSP ch. 8 and Part V;
Jain 1991 ch. 35; Bolch et al. 2006 ch. 8) writes the normalising constant as
the convolution of per-station factors

    f_k(j) = D_k^j / prod_{i=1..j} min(i, c_k)     (c_k-server station),

G = H (*) f_1 (*) ... (*) f_L, where H is the normalising constant of the
load-independent part (think time, delay and single-server stations). Here
every sequence is kept as its logarithm and each convolution is a
log-sum-exp over anti-diagonals, i.e. convolution with exact per-term
dynamic scaling (the idea of Lam 1982's dynamic scaling), so nothing
overflows, underflows harmfully, or is computed by cancellation. Then

    X(n) = G(n-1) / G(n),
    p_k(j | n) = f_k(j) G^{(-k)}(n - j) / G(n),       Q_k(n) = sum_j j p_k(j | n),

with G^{(-k)} (network without station k) formed from prefix and suffix
convolutions. log H(m) = -sum_{i<=m} log X_H(i) comes from a plain (stable)
MVA of the load-independent part. Cost O(L N^2) for L multi-server stations.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

NEG = -np.inf


@lru_cache(maxsize=8)
def _index(N: int) -> tuple[np.ndarray, np.ndarray]:
    n = np.arange(N + 1)
    idx = n[:, None] - n[None, :]
    valid = idx >= 0
    idx = np.where(valid, idx, 0)
    return idx, valid


def _terms(la: np.ndarray, lb: np.ndarray, N: int) -> np.ndarray:
    idx, valid = _index(N)
    return np.where(valid, la[None, :] + lb[idx], NEG)


def _lse_rows(M: np.ndarray) -> np.ndarray:
    m = M.max(axis=1)
    safe = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        out = safe + np.log(np.exp(M - safe[:, None]).sum(axis=1))
    return np.where(np.isfinite(m), out, NEG)


def lconv(la: np.ndarray, lb: np.ndarray) -> np.ndarray:
    """log of the convolution of two positive sequences given by their logs (same length)."""
    N = len(la) - 1
    return _lse_rows(_terms(la, lb, N))


def log_h(Dq: np.ndarray, Zt: float, N: int) -> np.ndarray:
    """log normalising constant of think time Zt plus single-server stations Dq, n = 0..N."""
    out = np.zeros(N + 1)
    if Dq.size == 0 and Zt == 0.0:
        out[1:] = NEG
        return out
    Q = np.zeros_like(Dq)
    logs = np.empty(N)
    for n in range(1, N + 1):
        R = Dq * (1.0 + Q)
        X = n / (Zt + R.sum())
        Q = X * R
        logs[n - 1] = np.log(X)
    out[1:] = -np.cumsum(logs)
    return out


def log_f(D: float, c: int, N: int) -> np.ndarray:
    """log f(j) for j = 0..N of a ``c``-server station with demand ``D`` seconds: shape (N + 1,).

    f(j) = D^j / prod_{i=1..j} min(i, c) (the per-station factor of the module docstring;
    Buzen 1973, Lazowska et al. 1984 QSP ch. 8); f(0) = 1, so log f(0) = 0. ``D`` must be > 0.
    """
    j = np.arange(1, N + 1)
    out = np.zeros(N + 1)
    out[1:] = np.cumsum(np.log(D) - np.log(np.minimum(j, c)))
    return out


def solve_ld_convolution(
    Dq: np.ndarray, Zt: float, Dld: np.ndarray, cld: np.ndarray, N: int
) -> tuple[np.ndarray, np.ndarray]:
    """Throughput X(n) (N,) and LD queue lengths Q_l(n) (N, L) for n = 1..N.

    Dq: single-server demands; Zt: think time + all delay demands; Dld, cld:
    multi-server demands (> 0) and server counts (1 < c < N).
    """
    L = len(Dld)
    lh = log_h(Dq, Zt, N)
    lf = [log_f(float(Dld[i]), int(cld[i]), N) for i in range(L)]
    prefix = [lh]
    for i in range(L):
        prefix.append(lconv(prefix[-1], lf[i]))
    lG = prefix[-1]
    suffix: list[np.ndarray | None] = [None] * (L + 1)  # suffix[i] = f_i * ... * f_{L-1}; suffix[L] = delta
    for i in range(L - 1, -1, -1):
        suffix[i] = lf[i] if (after := suffix[i + 1]) is None else lconv(lf[i], after)
    X = np.exp(lG[:-1] - lG[1:])
    Qld = np.empty((N, L))
    jj = np.arange(N + 1, dtype=float)
    for i in range(L):
        comp = prefix[i] if (after := suffix[i + 1]) is None else lconv(prefix[i], after)
        M = _terms(lf[i], comp, N) - lG[:, None]
        with np.errstate(under="ignore"):
            P = np.exp(M)
        Qld[:, i] = (P @ jj)[1:]
    return X, Qld
