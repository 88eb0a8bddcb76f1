"""Exact multi-class Mean Value Analysis (Reiser & Lavenberg 1980) with multi-server stations.

For a population vector n = (n_1..n_R) and class r (Lazowska et al. 1984 QSP
ch. 7; Jain 1991 ch. 34; Bolch et al. 2006 ch. 8):

    delay station:  R_kr(n) = D_kr
    single server:  R_kr(n) = D_kr (1 + Q_k(n - e_r))
    c_k servers:    R_kr(n) = D_kr / c_k (1 + Q_k(n - e_r) + sum_{j=0}^{c_k-2} (c_k-1-j) p_k(j | n - e_r))
    X_r(n) = n_r / (Z_r + sum_k R_kr(n)),    Q_k(n) = sum_r X_r(n) R_kr(n)
    p_k(j | n) = (1 / j) sum_r D_kr X_r(n) p_k(j-1 | n - e_r),   1 <= j < c_k
    p_k(0 | n) = p_k(0 | n - e_r) X_r(n) / X_r^{(-k)}(n)      (any r with n_r > 0)

The last line is the ratio of normalising constants G^{(-k)}(n) / G(n) (stable,
no cancellation; see `mva_exact` for why 1 - sum p is not used). As in the
single-class solver the networks without each subset of multi-server
stations are solved in the same pass. Multi-server stations are exact for
the product-form case (processor sharing with c servers, or FCFS with equal
class service times per visit); Q_k is the total over classes.

The population lattice has prod_r (N_r + 1) points; the cost is linear in it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["exact_multi", "MAX_LATTICE_CELLS"]

#: Refuse exact multi-class problems whose lattice state exceeds this many floats.
MAX_LATTICE_CELLS = 30_000_000


def exact_multi(
    D: np.ndarray, c: np.ndarray, delay: np.ndarray, Z: np.ndarray, Npop: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Exact multi-class MVA at population ``Npop``.

    Args:
        D: (K, R) demands (s); c: (K,) servers; delay: (K,) bool; Z: (R,) think
        times (s); Npop: (R,) populations >= 1.

    Returns:
        (X, Rkr): X (R,) class throughputs (jobs/s), Rkr (K, R) residence times (s).

    Raises:
        ValueError: the lattice is too large for the exact method (use
            method="schweitzer" or "linearizer").
    """
    K, Rn = D.shape
    Npop = np.asarray(Npop, dtype=np.int64)
    Ntot = int(Npop.sum())
    delay_like = delay | np.all(D == 0.0, axis=1) | (c >= Ntot)
    si = np.flatnonzero(~delay_like & (c == 1))
    li = np.flatnonzero(~delay_like & (c > 1))
    Ds, Dl, cl = D[si], D[li], c[li]
    Dd = D[delay_like].sum(axis=0)  # (R,)
    L = li.size
    S = 1 << L
    cmax = int(cl.max()) if L else 1
    dims = Npop + 1
    size = int(np.prod(dims))
    cells = size * S * (si.size + L + L * cmax + Rn)
    if cells > MAX_LATTICE_CELLS:
        raise ValueError(
            f"exact multi-class MVA needs {cells:,} state values for populations {Npop.tolist()} "
            f"(limit {MAX_LATTICE_CELLS:,}); use method='schweitzer' or 'linearizer'"
        )
    strides = np.ones(Rn, dtype=np.int64)
    for r in range(Rn - 2, -1, -1):
        strides[r] = strides[r + 1] * dims[r + 1]
    subsets = np.arange(S)
    member = ((subsets[:, None] >> np.arange(L)[None, :]) & 1).astype(bool)
    comp = subsets[:, None] ^ (1 << np.arange(L))[None, :]
    j = np.arange(cmax)
    inside = j[None, :] < cl[:, None] if L else np.zeros((0, cmax), bool)
    coef = np.where(inside, cl[:, None] - 1 - j[None, :], 0).astype(float) if L else np.zeros((0, cmax))
    inv_j = np.zeros(cmax)
    inv_j[1:] = 1.0 / j[1:]
    jmask = inside.astype(float) * inv_j[None, :] if L else np.zeros((0, cmax))

    Qs = np.zeros((size, S, si.size))
    Ql = np.zeros((size, S, L))
    P = np.zeros((size, S, L, cmax))
    P[0, :, :, 0] = 1.0
    X_last = np.zeros(Rn)
    R_last = np.zeros((K, Rn))
    full = S - 1
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        for idx in range(1, size):
            n = (idx // strides) % dims
            Xv = np.zeros((S, Rn))
            Qs_new = np.zeros((S, si.size))
            Ql_new = np.zeros((S, L))
            Pj = np.zeros((S, L, cmax))
            first = -1
            Rs_keep, Rl_keep = {}, {}
            for r in range(Rn):
                if n[r] == 0:
                    continue
                m = idx - strides[r]
                Rs = Ds[:, r] * (1.0 + Qs[m])  # (S, Ks)
                Rl = np.where(member, Dl[:, r] / cl * (1.0 + Ql[m] + (coef * P[m]).sum(axis=2)), 0.0)
                x = n[r] / (Z[r] + Dd[r] + Rs.sum(axis=1) + Rl.sum(axis=1))  # (S,)
                Xv[:, r] = x
                Qs_new += x[:, None] * Rs
                Ql_new += x[:, None] * Rl
                if L:
                    Pj[:, :, 1:] += (x[:, None] * Dl[:, r][None, :])[:, :, None] * P[m][:, :, :-1]
                    if first < 0:
                        first = r
                        ratio = np.where(member, x[:, None] / x[comp], 1.0)
                        P0 = P[m][:, :, 0] * ratio
                if idx == size - 1:
                    Rs_keep[r], Rl_keep[r] = Rs[full], Rl[full]
            Qs[idx] = Qs_new
            Ql[idx] = Ql_new
            if L:
                Pj *= jmask[None, :, :]
                Pj[:, :, 0] = P0
                P[idx] = Pj * member[:, :, None]
            if idx == size - 1:
                X_last = Xv[full].copy()
                for r in range(Rn):
                    R_last[delay_like, r] = D[delay_like, r]
                    R_last[si, r] = Rs_keep[r]
                    R_last[li, r] = Rl_keep[r]
    return X_last, R_last
