"""Erlang B / Erlang C and the M/M/c response time, overflow-free.

Erlang C is computed from the Erlang B recurrence

    B(0, A) = 1,    B(k, A) = A B(k-1, A) / (k + A B(k-1, A)),
    C(c, A) = B(c, A) / (1 - rho (1 - B(c, A))),   rho = A / c < 1,

(Jagerman 1974; Bolch et al. 2006, "Queueing Networks and Markov Chains",
ch. 6, M/M/m; Jain 1991 ch. 31 gives the closed form with A^c / c! that
overflows for c > ~170). Every term of the recurrence lies in [0, 1], so it is
stable for thousands of servers and arbitrarily large offered loads.

M/M/c response time (Jain 1991 ch. 31; Bolch et al. 2006 ch. 6):

    R = S (1 + C(c, A) / (c (1 - rho))),   A = lambda S,  rho = A / c.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["erlang_b", "erlang_c", "mmc_response_time_s", "erlang_c_array"]


def _check_servers(servers: object) -> int:
    if isinstance(servers, bool) or not isinstance(servers, numbers.Integral) or int(servers) < 1:
        raise ValueError(f"servers must be an integer >= 1, got {servers!r}")
    return int(servers)


def _check_nonneg(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    v = float(value)
    if not math.isfinite(v) or v < 0.0:
        raise ValueError(f"{name} must be finite and >= 0, got {v!r}")
    return v


def erlang_b(servers: int, offered_load: float) -> float:
    """Erlang B blocking probability B(c, A) by the stable recurrence (see module docstring).

    Args:
        servers: c, integer >= 1.
        offered_load: A = lambda * S in Erlangs, finite and >= 0.

    Raises:
        ValueError: invalid ``servers`` or ``offered_load``.
    """
    c = _check_servers(servers)
    a = _check_nonneg("offered_load", offered_load)
    b = 1.0
    for k in range(1, c + 1):
        ab = a * b
        b = ab / (k + ab)
    return b


def erlang_c(servers: int, offered_load: float) -> float:
    """Probability that an arrival must wait in an M/M/c queue, C(c, A).

    Args:
        servers: c, integer >= 1 (tested up to several thousand).
        offered_load: A = lambda * S in Erlangs, finite and >= 0.

    Returns:
        C(c, A) in [0, 1]; 1.0 when A >= c (the queue is saturated: every
        arrival waits), 0.0 when A == 0.

    Raises:
        ValueError: invalid ``servers`` or ``offered_load``.

    Formula: Erlang B recurrence then C = B / (1 - rho (1 - B)) (module docstring).
    """
    c = _check_servers(servers)
    a = _check_nonneg("offered_load", offered_load)
    if a >= c:
        return 1.0
    b = erlang_b(c, a)
    rho = a / c
    return min(1.0, max(0.0, b / (1.0 - rho * (1.0 - b))))


def mmc_response_time_s(servers: int, service_time_s: float, arrival_rate: float) -> float | None:
    """Mean response time (waiting + service, seconds) of an M/M/c queue.

    Args:
        servers: c, integer >= 1.
        service_time_s: mean service time S per job, seconds, finite and >= 0.
        arrival_rate: lambda, jobs/s, finite and >= 0.

    Returns:
        S (1 + C(c, A) / (c (1 - rho))) with A = lambda S, rho = A / c
        (Jain 1991 ch. 31); ``None`` when rho >= 1 (saturated: no steady
        state). 0.0 when S == 0.

    Raises:
        ValueError: invalid arguments.
    """
    c = _check_servers(servers)
    s = _check_nonneg("service_time_s", service_time_s)
    lam = _check_nonneg("arrival_rate", arrival_rate)
    a = lam * s
    rho = a / c
    if rho >= 1.0:
        return None
    if s == 0.0:
        return 0.0
    return s * (1.0 + erlang_c(c, a) / (c * (1.0 - rho)))


def erlang_c_array(servers: int, offered_load: np.ndarray) -> np.ndarray:
    """Vectorised Erlang C over an array of offered loads (same recurrence).

    Entries with A >= c get 1.0. ``offered_load`` must be finite and >= 0
    (not re-validated: internal helper for the open-network curve).
    """
    a = np.asarray(offered_load, dtype=float)
    b = np.ones_like(a)
    for k in range(1, servers + 1):
        ab = a * b
        b = ab / (k + ab)
    rho = a / servers
    with np.errstate(divide="ignore", invalid="ignore"):
        out = b / (1.0 - rho * (1.0 - b))
    out = np.where(rho >= 1.0, 1.0, out)
    return np.clip(out, 0.0, 1.0)
