"""Queues with general service times, arrival burstiness and load spread over identical separate queues.

The performance engine describes each component of an I/O path by a *station class*: ``copies`` identical,
separate queues (the drives of a pool, the ports of a multipath group) over which the load is spread evenly,
each with ``servers`` servers (an SSD's internal parallelism, a controller's cores). Spreading load over
separate queues is not pooling it into one multi-server queue: at the same utilisation a job waits as long as
at a single queue (Lazowska et al. 1984, *Quantitative System Performance* (QSP), ch. 8 on load-balanced
devices; Harchol-Balter 2013, *Performance Modeling and Design of Computer Systems*, ch. 14 on why one fast
pooled queue and k separate ones differ). The copies are identical, so one vector entry with a multiplicity
stands for all of them and the cost does not grow with the number of devices.

A visit to a copy is served in time ``s`` (the station's whole demand per job: a job visits one copy, visit
ratio 1 / copies). A copy with c servers enters as Seidmann's decomposition (Seidmann, Schweitzer &
Shalev-Oren 1987, Perf. Eval. 7): a single-server queue of service s / c followed by a delay of s (c - 1) / c.
With ``a = s / c`` and the per-copy utilisation ``U = X a / copies``:

* **Open** (throughput X given): Allen-Cunneen's G/G/c approximation scales the M/M waiting time by
  (ca² + cs²) / 2 (Allen 1990, *Probability, Statistics and Queueing Theory*, 2nd ed., §6.4; Bolch et al. 2006,
  *Queueing Networks and Markov Chains*, 2nd ed., §6.3.4, eq. 6.93): residence per job
  ``a (1 + U (v - 1)) / (1 - U) + s (c - 1) / c`` with ``v = (ca² + cs²) / 2``. At ca² = cs² = 1 this is the
  M/M/1 ``a / (1 - U)`` of QSP ch. 6; at ca² = 1 it is the Pollaczek-Khinchine mean of M/G/1.
* **Closed** (population n = 1..N): exact MVA for product-form stations with Reiser's residual-life correction
  for FCFS stations with non-exponential service (Reiser 1979, "A queueing network analysis of computer
  communication networks with window flow control", IEEE Trans. Commun. 27; Bolch et al. 2006 §9.1.1.2):
  an arriving job waits for the jobs queued ahead (Q - U of them, each a full service) and the residual
  service of the one in service (U of the time, mean residual ``a (1 + cs²) / 2``), so
  ``R(n) = a (1 + Q(n-1) + U(n-1) (v - 1))`` with ``v = (1 + cs²) / 2``. In a closed network the arrivals are
  the network's own (no external burstiness), so only cs² enters; the two formulas agree at the same
  utilisation when ca² = 1.

  Two bounds every closed network obeys hold the approximate recursion in (exact MVA, v = 1, obeys them by
  itself): the throughput never exceeds the asymptotic bound ``min_k copies_k / a_k`` (no queue past full
  utilisation; QSP ch. 5), and it never falls when a job is added (an added job can only keep busy a server that
  would otherwise idle). Reiser's correction breaks the first at v < 1 (deterministic service: the subtracted
  residual life lets X pass the bound near saturation; a port-bound ramp ended 0.2% above it) and the second at
  v > 1 with one dominant queue (at n = 2 the job ahead is counted at its stationary residual life, ``a v``,
  although it has only just begun its service: X(2) < X(1)). Where a step would break one, its throughput is
  held at the bound (the extra response time waits at the bottleneck, the class of largest ``a / copies``) or at
  the previous step's (the queues' residence times scaled down alike), so that Little's law n = X (R + Z) still
  holds at every step.

Every function is vectorised over the station classes (numpy), pure, and raises ``ValueError`` for bad shapes.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, cast

import numpy as np

from models.queueing import generated_code

__all__ = ["variability_closed", "variability_open", "closed_ramp", "closed_ramp_batch", "closed_ramp_batches",
           "open_residence_s", "saturation_throughput"]


def variability_closed(scv_service: np.ndarray) -> np.ndarray:
    """The closed model's variability factor v = (1 + cs²) / 2 per station class (Reiser 1979; see module).

    Args:
        scv_service: (K,) squared coefficients of variation of the service time, >= 0.
    """
    return (1.0 + np.asarray(scv_service, dtype=float)) / 2.0


def variability_open(scv_arrival: np.ndarray, scv_service: np.ndarray) -> np.ndarray:
    """The open model's Allen-Cunneen factor v = (ca² + cs²) / 2 per station class (see module).

    Args:
        scv_arrival, scv_service: (K,) squared coefficients of variation of inter-arrival and service times.
    """
    return (np.asarray(scv_arrival, dtype=float) + np.asarray(scv_service, dtype=float)) / 2.0


def _check(service_s: np.ndarray, servers: np.ndarray, copies: np.ndarray, v: np.ndarray) -> None:
    """Raise ValueError unless the four per-class arrays have one shape and valid values."""
    shapes = {np.shape(service_s), np.shape(servers), np.shape(copies), np.shape(v)}
    if len(shapes) != 1:
        raise ValueError(f"per-station arrays differ in shape: {sorted(shapes)}")
    if np.any(~np.isfinite(service_s)) or np.any(service_s < 0):
        raise ValueError("service times must be finite and >= 0 seconds")
    if np.any(servers < 1) or np.any(copies < 1):
        raise ValueError("servers and copies must be >= 1")
    if np.any(~np.isfinite(v)) or np.any(v < 0):
        raise ValueError("variability factors must be finite and >= 0")


def closed_ramp(service_s: np.ndarray, servers: np.ndarray, copies: np.ndarray, v_closed: np.ndarray,
                delay_s: float, think_s: float, population: int, *, unrolled: bool = True
                ) -> tuple[np.ndarray, np.ndarray]:
    """Closed single-class ramp n = 1..population over queueing station classes (module formulas).

    Args:
        service_s: (K,) service time of one visit to a copy (= the class's demand per job), seconds;
        servers: (K,) servers per copy (>= 1); copies: (K,) identical separate queues (>= 1);
        v_closed: (K,) variability factor (:func:`variability_closed`);
        delay_s: pure delays per job (no queueing), seconds; think_s: think time Z >= 0, seconds;
        population: N >= 1; unrolled: False runs the plain loop instead of the unrolled kernel
        (:func:`_ramp_kernel`, the same floats), for tests.

    Returns:
        (X, R): X (N,) throughput, jobs/s; R (N, K) residence time per job at each class (its Seidmann delay
        part included), seconds.

    Raises:
        ValueError: bad shapes or values; N < 1; nothing to serve (all times zero).
    """
    s = np.asarray(service_s, dtype=float)
    c = np.asarray(servers, dtype=float)
    m = np.asarray(copies, dtype=float)
    v = np.asarray(v_closed, dtype=float)
    plain = _plain_valid(s, c, m, v)  # valid one-dimensional arrays, checked in plain floats (a fifth of the cost)
    if plain is None:
        _check(s, c, m, v)
    if population < 1:
        raise ValueError("population must be >= 1")
    a = s / c
    par = s - a  # Seidmann's delay part s (c - 1) / c
    fixed = float(delay_s) + float(think_s) + float(par.sum())
    a_list = a.tolist()
    if fixed <= 0.0 and not any(x > 0 for x in a_list):
        raise ValueError("every service time, delay and the think time are zero")
    N = int(population)
    # With U(n-1) = X(n-1) a / m and Q(n-1) = X(n-1) R(n-1) / m the recursion is
    # R(n) = a (1 + X(n-1) (R(n-1) / m + a (v - 1) / m)); X(n) = n / (fixed + sum R(n)).
    inv_m = (1.0 / m).tolist()
    w = (a * (v - 1.0) / m).tolist()
    K = len(a_list)
    x_max, bottleneck = _bound_plain(a_list, plain) if plain is not None else _bound(a, m)
    if unrolled and 0 < K <= _KERNEL_MAX_CLASSES:  # the same recursion, unrolled over the classes (plain local floats)
        kernel = _ramp_kernel(K, bottleneck, tuple(x == 0.0 for x in w), tuple(x == 1.0 for x in inv_m))
        steps = kernel(_populations(N), fixed, x_max, a_list, inv_m, w)
        # the floats' bytes as they are (struct's native doubles: exact, and about three times faster than
        # np.array of a list of floats); each step is X(n) then its K residences
        flat = np.frombuffer(_doubles(len(steps)).pack(*steps)).reshape(N, K + 1)
        return flat[:, 0].copy(), flat[:, 1:] + par
    rq = [0.0] * K
    x = 0.0
    X = np.empty(N)
    hist = []
    idx = range(K)
    for n in range(1, N + 1):  # plain floats: for a dozen stations faster than numpy's per-call overhead
        rq = [a_list[k] * (1.0 + x * (rq[k] * inv_m[k] + w[k])) for k in idx]
        queued = sum(rq)
        x_new = n / (fixed + queued)
        if x_new > x_max:  # the bound (module): the rest of the response time waits at the bottleneck
            rq[bottleneck] += n / x_max - fixed - queued
            x_new = x_max
        elif x_new < x:  # never fewer I/O per second with one more job (module)
            scale = (n / x - fixed) / queued
            rq = [r * scale for r in rq]
            x_new = x
        x = x_new
        X[n - 1] = x
        hist.append(rq)
    return X, np.asarray(hist, dtype=float).reshape(N, K) + par


@lru_cache(maxsize=64)
def _populations(count: int) -> tuple[float, ...]:
    """The populations 1.0, 2.0, ..., ``count`` as floats (cached per count): the kernel's n / (...) is then a float
    divided by a float, the same quotient as the int's (an int below 2**53 converts to its float exactly) without
    the int's own division declining first and an int object made per step (3% of the kernel's instructions)."""
    return tuple(float(n) for n in range(1, count + 1))


@lru_cache(maxsize=64)
def _doubles(count: int) -> struct.Struct:
    """A :class:`struct.Struct` packing ``count`` native doubles (cached per count: a design's ramps share a few)."""
    return struct.Struct(f"{count}d")


_KERNEL_MAX_CLASSES = 48
"""Ramps of up to this many queueing classes run the unrolled recursion (:func:`_ramp_kernel`)."""


def _compiled_kernel(lines: list[str], filename: str) -> Callable[..., list[float]]:
    """The function ``kernel`` that the generated ``lines`` define (:func:`_ramp_kernel`, :func:`_batch_kernel`),
    compiled through :func:`models.queueing.generated_code.compile_text` (its code cached by the text) under
    ``filename``, the name tracebacks and profiles show."""
    namespace: dict[str, Any] = {}
    exec(generated_code.compile_text("\n".join(lines), filename), namespace)
    return cast(Callable[..., list[float]], namespace["kernel"])


def _kernel_head(classes: int, *lists: tuple[str, str]) -> list[str]:
    """The opening lines of a generated ramp kernel (:func:`_ramp_kernel`, :func:`_batch_kernel`): its signature
    (populations, fixed, x_max, then the three per-class lists, each given as (argument, local prefix)), each list
    unpacked into one local float per class, the residences r0 .. r{K-1} at 0.0, the throughput x at 0.0, the list
    of steps, and the loop over the populations."""
    k = range(classes)
    return [
        f"def kernel(populations, fixed, x_max, {', '.join(arg for arg, _ in lists)}):",
        *(f"    {', '.join(f'{prefix}{i}' for i in k)}, = {arg}" for arg, prefix in lists),
        f"    {', '.join(f'r{i}' for i in k)}, = {', '.join('0.0' for _ in k)},",
        "    x = 0.0",
        "    steps = []",
        "    keep = steps.extend",
        "    for n in populations:",
    ]


@lru_cache(maxsize=512)
def _ramp_kernel(classes: int, bottleneck: int, no_residual: tuple[bool, ...] = (), single: tuple[bool, ...] = ()
                 ) -> Callable[..., list[float]]:
    """:func:`closed_ramp`'s recursion for ``classes`` queueing classes whose bound is class ``bottleneck``, written
    out class by class with each class's residence a local float (no list built, indexed or summed per step): the
    same operations in the same order, so the same floats (the sum of the classes is R_1 + R_2 + ..., left to
    right, as the built-in ``sum`` adds them after its start 0.0, which changes no sum of these non-negative
    terms), about three times faster for a dozen classes. ``no_residual[k]`` True: class k's residual term
    a (v - 1) / m is 0 (exponential service, v = 1), and its addition, which would change no float (x + 0.0 is x for
    every x >= 0), is left out (a fifth of the time on the usual paths). ``single[k]`` True: class k is one queue
    (1 / m = 1.0), and its product R x 1.0, which is R for every float, is left out likewise.

    The function returned takes (the populations 1.0 .. N as floats (:func:`_populations`), fixed s, bound X_max,
    a (K,), 1/m (K,), a (v - 1)/m (K,)) as lists of floats and returns one list of N x (1 + K) floats: each step's
    X(n), then its K residences (one list, extended once per step); cached per (classes, bottleneck, no_residual,
    single)."""
    k = range(classes)
    r = ", ".join(f"r{i}" for i in k)
    skip = tuple(no_residual) + (False,) * (classes - len(no_residual))
    one = tuple(single) + (False,) * (classes - len(single))
    lines = [
        *_kernel_head(classes, ("a", "a"), ("inv_m", "m"), ("w", "w")),
        *(f"        r{i} = a{i} * (1.0 + x * ({f'r{i}' if one[i] else f'r{i} * m{i}'}{'' if skip[i] else f' + w{i}'}))"
          for i in k),
        f"        queued = {' + '.join(f'r{i}' for i in k)}",
        "        x_new = n / (fixed + queued)",
        "        if x_new > x_max:",
        f"            r{bottleneck} += n / x_max - fixed - queued",
        "            x_new = x_max",
        "        elif x_new < x:",
        "            scale = (n / x - fixed) / queued",
        *(f"            r{i} = r{i} * scale" for i in k),
        "            x_new = x",
        "        x = x_new",
        f"        keep((x, {r}))",
        "    return steps",
    ]
    return _compiled_kernel(lines, f"<closed_ramp kernel K={classes}>")


def closed_ramp_batch(service_s: np.ndarray, servers: np.ndarray, copies: np.ndarray, v_closed: np.ndarray,
                      delay_s: np.ndarray, think_s: np.ndarray, population: int,
                      per_station: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """:func:`closed_ramp` for B networks at once (the sizer's candidates), vectorised across them with numpy:
    the same recursion, R(n) = a (1 + X(n-1) (R(n-1) / m + a (v - 1) / m)), X(n) = n / (fixed + sum R(n)).

    Args:
        service_s, servers, copies, v_closed: (B, K) per network and station class (pad a network with fewer
        classes with service 0, servers 1, copies 1, v 1: a class of no work adds nothing);
        delay_s, think_s: (B,) pure delays and think times, seconds; population: N >= 1 for every network.

        per_station: also keep every station class's residence time (B x N x K floats: 170 MB for 10,000
        networks of 17 classes at N = 128); without it only the total is kept.

    Returns:
        (X, R): X (B, N) throughputs, jobs/s; R the residence times, seconds: (B, N, K) per station class with
        ``per_station`` (each network's equal to :func:`closed_ramp` of that network), else (B, N) summed over
        the classes (the queueing stations' part of the response time).

    Raises:
        ValueError: shapes that differ, bad values, N < 1, or a network with nothing to serve.
    """
    a, m, v, par, fixed = _batch_parts(service_s, servers, copies, v_closed, delay_s, think_s, population)
    X, R = _batch_recursion(a, m, v, fixed, population, per_station)
    if per_station:
        return X, _plus_delay_parts(R, par)
    return X, R + par.sum(axis=1)[:, None]


def _plus_delay_parts(R: np.ndarray, par: np.ndarray) -> np.ndarray:
    """(B, N, K) residences plus each class's Seidmann delay part ``par`` (B, K), as a C-ordered array."""
    out = np.empty(R.shape)
    np.add(R, par[:, None, :], out=out)
    return out


def closed_ramp_batches(groups: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                               np.ndarray]],
                        population: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`closed_ramp_batch` with ``per_station`` of several groups of networks at one population, each group its
    own number of station classes, in one recursion: the groups' classes padded at the end with classes of no work
    (service 0, servers 1, copies 1, v 1), so the population steps (the recursion's cost, nearly the same for one
    network as for dozens) are taken once for them all. Each network's numbers are those :func:`closed_ramp_batch`
    gives its group alone, float for float, when every group holds two networks or more (a class of no work adds
    exact zeros after the others to a sum taken class by class, and its bound is infinite; a group of one network
    is summed in another order by numpy, so solve it alone).

    Args:
        groups: per group (service_s, servers, copies, v_closed (B_g, K_g), delay_s, think_s (B_g,)), as
            :func:`closed_ramp_batch` takes them; population: N >= 1.

    Returns:
        Per group, (X (B_g, N), R (B_g, N, K_g)) as :func:`closed_ramp_batch` with ``per_station`` returns them.

    Raises:
        ValueError: as :func:`closed_ramp_batch`, for any group.
    """
    parts = [_batch_parts(*group, population) for group in groups]
    if len(parts) == 1:
        a, m, v, par, fixed = parts[0]
        X, R = _batch_recursion(a, m, v, fixed, population, True)
        return [(X, _plus_delay_parts(R, par))]
    B = sum(len(p[0]) for p in parts)
    K = max(p[0].shape[1] for p in parts)
    a_pad, m_pad, v_pad = np.zeros((B, K)), np.ones((B, K)), np.ones((B, K))
    row = 0
    for a, m, v, _par, _fixed in parts:
        b, k = a.shape
        a_pad[row:row + b, :k], m_pad[row:row + b, :k], v_pad[row:row + b, :k] = a, m, v
        row += b
    X, R = _batch_recursion(a_pad, m_pad, v_pad, np.concatenate([p[4] for p in parts]), population, True)
    out = []
    row = 0
    for a, _m, _v, par, _fixed in parts:
        b, k = a.shape
        out.append((X[row:row + b], _plus_delay_parts(R[row:row + b, :, :k], par)))
        row += b
    return out


def _batch_parts(service_s: np.ndarray, servers: np.ndarray, copies: np.ndarray, v_closed: np.ndarray,
                 delay_s: np.ndarray, think_s: np.ndarray, population: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`closed_ramp_batch`'s arguments checked, as (a = s / c, copies, v, Seidmann's delay part s - a, each
    network's fixed time: delays + think time + the delay parts), each (B, K) or (B,). Raises ValueError as it."""
    s = np.asarray(service_s, dtype=float)
    c = np.asarray(servers, dtype=float)
    m = np.asarray(copies, dtype=float)
    v = np.asarray(v_closed, dtype=float)
    _check(s, c, m, v)
    if s.ndim != 2:
        raise ValueError("batched arrays must be (networks, station classes)")
    if population < 1:
        raise ValueError("population must be >= 1")
    a = s / c
    par = s - a
    fixed = np.asarray(delay_s, dtype=float) + np.asarray(think_s, dtype=float) + par.sum(axis=1)
    if np.any((fixed <= 0.0) & ~np.any(a > 0, axis=1)):
        raise ValueError("a network has every service time, delay and the think time zero")
    return a, m, v, par, fixed


def _batch_recursion(a: np.ndarray, m: np.ndarray, v: np.ndarray, fixed: np.ndarray, population: int,
                     per_station: bool) -> tuple[np.ndarray, np.ndarray]:
    """The recursion of :func:`closed_ramp_batch` over (B, K) networks (:func:`_batch_parts`): (X (B, N), R the
    queueing classes' residences (B, N, K) with ``per_station``, else their sum (B, N)), Seidmann's delay parts not
    yet added."""
    # R(n) = a + X(n-1) (a/m R(n-1) + a^2 (v - 1)/m): two constant arrays, laid out (K, B) so that every step is
    # a few in-place operations on contiguous rows (no temporaries; the sum over K adds K contiguous rows)
    B, K = a.shape
    a_t = np.ascontiguousarray(a.T)
    a_over_m = np.ascontiguousarray((a / m).T)
    a_w = np.ascontiguousarray((a * a * (v - 1.0) / m).T)
    X = np.empty((population, B))
    R = np.empty((population, K, B)) if per_station else np.empty((population, B))  # rows written whole, in turn
    if 0 < K <= _KERNEL_MAX_CLASSES and _plain_pays(B, K):
        return _batch_recursion_plain(a, m, a_t, a_over_m, a_w, fixed, population, per_station, X, R)
    rq = np.zeros((K, B))
    t = np.empty((K, B))
    x = np.zeros(B)
    x_prev = np.zeros(B)
    total = np.empty(B)
    with np.errstate(divide="ignore"):
        caps = np.where(a > 0, m / np.where(a > 0, a, 1.0), np.inf)  # each class's bound, as _bound
    x_max = caps.min(axis=1) if K else np.full(B, np.inf)
    bottleneck = caps.argmin(axis=1) if K else np.zeros(B, dtype=int)
    at_bound = (bottleneck, np.arange(B))  # each network's bottleneck class
    over = np.empty(B, dtype=bool)
    below = np.empty(B, dtype=bool)
    under = np.empty(B, dtype=bool)
    extra = np.empty(B)
    for n in range(1, population + 1):
        np.multiply(a_over_m, rq, out=t)
        t += a_w
        t *= x
        np.add(a_t, t, out=rq)
        rq.sum(axis=0, out=total)
        np.add(fixed, total, out=x)
        np.divide(n, x, out=x)
        # the two bounds of a closed network (module), as in closed_ramp; over the bound, the networks at it take the
        # time their bound leaves at their bottleneck, in whole-array operations (the others add an exact 0.0: no
        # float changes; fewer numpy calls than picking the columns out, at every step once a network saturates:
        # 13 networks at N = 512 8.6 -> 7.1 ms, 10,000 at N = 128 114 -> 91 ms, minimum CPU of 3)
        np.greater(x, x_max, out=over)
        if over.any():
            np.divide(n, x_max, out=extra)
            extra -= fixed
            extra -= total
            np.logical_not(over, out=below)
            extra[below] = 0.0
            rq[at_bound] += extra
            total += extra
            np.copyto(x, x_max, where=over)
        np.less(x, x_prev, out=under)
        if under.any():
            scale = (n / x_prev[under] - fixed[under]) / total[under]
            rq[:, under] *= scale
            total[under] *= scale
            x[under] = x_prev[under]
        X[n - 1] = x
        x_prev = X[n - 1]  # this step's throughputs, read by the next
        if per_station:
            R[n - 1] = rq
        else:
            R[n - 1] = total
    X = np.ascontiguousarray(X.T)
    if per_station:
        return X, R.transpose(2, 0, 1)
    return X, R.T


_PLAIN_MAX_STEP_US = 9.0
"""Most estimated cost of one population step of a batch's networks run one by one in plain floats
(:func:`_batch_recursion_plain`), microseconds, below which they are run so rather than by the vectorised
recursion, whose step is a dozen numpy calls (about 9 us whatever the batch's size, more once a network is at its
bound): per network 0.6 us and 0.11 us per class (``models.performance.engine``'s measured ``_STEP_US_*``). The
sizer's look-ahead of the AFF8080 example solves three of its four batches at N = 512 so (one, one and two
networks of 14 to 16 classes)."""


def _plain_pays(networks: int, classes: int) -> bool:
    """Whether ``networks`` networks of ``classes`` queueing classes run faster one by one in plain floats than
    together (:data:`_PLAIN_MAX_STEP_US`)."""
    return networks * (0.6 + 0.11 * classes) < _PLAIN_MAX_STEP_US


def _batch_recursion_plain(a: np.ndarray, m: np.ndarray, a_t: np.ndarray, a_over_m: np.ndarray, a_w: np.ndarray,
                           fixed: np.ndarray, population: int, per_station: bool, X: np.ndarray, R: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_batch_recursion` of a few networks, each run alone in plain floats (:func:`_batch_kernel`) with the
    vectorised recursion's operations in its order, so its floats: the same (K, B) constants (``a_t``, ``a_over_m``,
    ``a_w``), bounds and bottlenecks, R(n) = a + (a/m R(n-1) + a^2 (v - 1)/m) X(n-1) class by class, their sum
    over the classes as numpy adds them (one network: numpy's pairwise sum of a contiguous row; several: row after
    row, in order), the bound and the no-decline rule as there. ``X`` (N, B) and ``R`` ((N, K, B) with
    ``per_station``, else (N, B)) are its empty outputs, returned as it returns them (a test compares them with
    ``np.array_equal`` on random networks)."""
    B, K = a.shape
    with np.errstate(divide="ignore"):
        caps = np.where(a > 0, m / np.where(a > 0, a, 1.0), np.inf)  # each class's bound, as _batch_recursion
    x_max = caps.min(axis=1).tolist()
    bottleneck = caps.argmin(axis=1).tolist()
    populations = _populations(population)
    fixed_list = fixed.tolist()
    for b in range(B):
        w = a_w[:, b].tolist()
        kernel = _batch_kernel(K, bottleneck[b], B == 1, tuple(x == 0.0 for x in w))
        steps = kernel(populations, fixed_list[b], x_max[b], a_t[:, b].tolist(), a_over_m[:, b].tolist(), w)
        flat = np.frombuffer(_doubles(len(steps)).pack(*steps)).reshape(population, K + 2)
        X[:, b] = flat[:, 0]
        if per_station:
            R[:, :, b] = flat[:, 1:K + 1]
        else:
            R[:, b] = flat[:, K + 1]
    X = np.ascontiguousarray(X.T)
    if per_station:
        return X, R.transpose(2, 0, 1)
    return X, R.T


def _numpy_sum_text(terms: Sequence[str], pairwise: bool) -> str:
    """The expression of numpy's sum of ``terms`` (Python float names) in its order of additions: with
    ``pairwise`` (one contiguous row: ``add.reduce``'s pairwise summation, eight partial sums from eight terms up,
    below 128) 0.0 + its pairwise sum, else the terms added in order after 0.0 (rows added in turn)."""
    n = len(terms)
    if not pairwise or n < 8:
        return "(" + " + ".join(["0.0", *terms]) + ")"
    if n > 128:
        raise ValueError("numpy's pairwise sum of more than 128 terms is not written out")
    partial = list(terms[:8])
    i = 8
    while i < n - n % 8:
        partial = [f"({partial[j]} + {terms[i + j]})" for j in range(8)]
        i += 8
    text = (f"((({partial[0]} + {partial[1]}) + ({partial[2]} + {partial[3]})) + "
            f"(({partial[4]} + {partial[5]}) + ({partial[6]} + {partial[7]})))")
    for term in terms[i:]:
        text = f"({text} + {term})"
    return f"(0.0 + {text})"


@lru_cache(maxsize=512)
def _batch_kernel(classes: int, bottleneck: int, pairwise: bool, no_residual: tuple[bool, ...]
                  ) -> Callable[..., list[float]]:
    """One network's steps of :func:`_batch_recursion` in plain floats, written out class by class (as
    :func:`_ramp_kernel`): r_k = a_k + (a_k/m_k r_k + w_k) x, their sum as numpy sums them (:func:`_numpy_sum_text`;
    ``pairwise`` for a batch of one network), the bound of class ``bottleneck`` and the no-decline rule as the
    vectorised recursion applies them. ``no_residual[k]`` True: w_k is 0.0, whose addition changes no float
    (t + 0.0 is t for every t >= 0), left out. Takes (populations 1.0 .. N, fixed s, X_max, a, a/m, w as lists) and
    returns N x (K + 2) floats: each step's X(n), its K residences and their sum (as the recursion keeps it)."""
    k = range(classes)
    r = ", ".join(f"r{i}" for i in k)
    skip = tuple(no_residual) + (False,) * (classes - len(no_residual))
    lines = [
        *_kernel_head(classes, ("a", "a"), ("a_over_m", "o"), ("w", "w")),
        *(f"        r{i} = a{i} + (o{i} * r{i}{'' if skip[i] else f' + w{i}'}) * x" for i in k),
        f"        total = {_numpy_sum_text([f'r{i}' for i in k], pairwise)}",
        "        x_new = n / (fixed + total)",
        "        if x_new > x_max:",
        "            extra = n / x_max - fixed - total",
        f"            r{bottleneck} += extra",
        "            total += extra",
        "            x_new = x_max",
        "        elif x_new < x:",
        "            scale = (n / x - fixed) / total",
        *(f"            r{i} *= scale" for i in k),
        "            total *= scale",
        "            x_new = x",
        "        x = x_new",
        f"        keep((x, {r}, total))",
        "    return steps",
    ]
    return _compiled_kernel(lines, f"<batch kernel K={classes}>")


def _plain_valid(s: np.ndarray, c: np.ndarray, m: np.ndarray, v: np.ndarray) -> list[float] | None:
    """``m`` (copies) as a list of floats when the four arrays are one-dimensional, of one length and pass
    :func:`_check` (every value finite; service times and factors >= 0, servers and copies >= 1), found in plain
    floats; None otherwise (then :func:`_check` decides, and raises as ever)."""
    if s.ndim != 1 or not s.shape == c.shape == m.shape == v.shape:
        return None
    m_list = m.tolist()
    if all(0.0 <= x < math.inf for x in s.tolist()) and all(1.0 <= x < math.inf for x in c.tolist()) \
            and all(1.0 <= x < math.inf for x in m_list) and all(0.0 <= x < math.inf for x in v.tolist()):
        return m_list
    return None


def _bound_plain(a: list[float], m: list[float]) -> tuple[float, int]:
    """:func:`_bound` of finite plain floats (the same quotients m / a, the first least one)."""
    best, k = math.inf, 0
    for i, (a_i, m_i) in enumerate(zip(a, m)):
        if a_i > 0:
            cap = m_i / a_i
            if cap < best:
                best, k = cap, i
    return best, k


def _bound(a: np.ndarray, m: np.ndarray) -> tuple[float, int]:
    """The asymptotic throughput bound min_k m_k / a_k of one network's queueing classes (+inf when no class
    has work) and the index of its bottleneck (0 when none)."""
    with np.errstate(divide="ignore"):
        caps = np.where(a > 0, m / np.where(a > 0, a, 1.0), np.inf)
    if caps.size == 0:
        return float("inf"), 0
    k = int(np.argmin(caps))
    return float(caps[k]), k


def open_residence_s(service_s: np.ndarray, servers: np.ndarray, copies: np.ndarray, v_open: np.ndarray,
                     utilisation: np.ndarray, *, check: bool = True) -> np.ndarray:
    """Open-model residence time per job at each station class (Allen-Cunneen on Seidmann's split; module).

    Args:
        service_s, servers, copies, v_open: (K,) as :func:`closed_ramp` (``v_open`` from
        :func:`variability_open`); utilisation: (..., K) per-copy utilisation of the queue part, U = X a / copies
        summed over every job class using the station (broadcast against K).

    Returns:
        (..., K) residence times, seconds; +inf where U >= 1 (saturated).

    ``check=False`` skips the argument checks (for callers that built valid arrays once and call this in a
    loop); the formula is the same.
    """
    s = np.asarray(service_s, dtype=float)
    c = np.asarray(servers, dtype=float)
    m = np.asarray(copies, dtype=float)
    v = np.asarray(v_open, dtype=float)
    if check:
        _check(s, c, m, v)
    u = np.asarray(utilisation, dtype=float)
    a = s / c
    with np.errstate(divide="ignore", invalid="ignore"):
        q = a * (1.0 + u * (v - 1.0)) / (1.0 - u)
    q = np.where(u >= 1.0, np.inf, q)
    return q + (s - a)


def saturation_throughput(service_s: np.ndarray, servers: np.ndarray, copies: np.ndarray) -> np.ndarray:
    """Each class's throughput bound copies x servers / service time, jobs/s (+inf where the time is 0): the
    asymptotic bound of QSP ch. 5, X <= min_k c_k / D_k, with c_k = copies x servers.

    Args:
        service_s, servers, copies: (K,) as :func:`closed_ramp`.
    """
    s = np.asarray(service_s, dtype=float)
    cap = np.asarray(copies, dtype=float) * np.asarray(servers, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(s > 0, cap / np.where(s > 0, s, 1.0), np.inf)
