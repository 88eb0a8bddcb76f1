"""Exact closed-network solutions checked against a brute-force CTMC (independent reference).

The reference builds the continuous-time Markov chain of a small closed
network state by state (counts of every class at every station), solves the
global balance equations pi Q = 0 with numpy, and reads off throughputs and
mean queue lengths. Stations are processor-sharing with capacity min(n, c)
(c = 1: single server, c > 1: c servers; with one class this is exactly
M/M/c FCFS), delay stations and the think time are infinite-server. Each class
visits the stations once per cycle in order, so service time = demand.
"""

import itertools
import math

import numpy as np
import pytest

from models.queueing import Station, closed_curve, solve_closed


def _compositions(n: int, parts: int):
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, parts - 1):
            yield (first,) + rest


def ctmc_solve(demands, servers, delay, think, pops):
    """demands[k][r] > 0, servers[k], delay[k]; think[r] (0 = no think station); pops[r].

    Returns (X[r], Q[k] mean jobs at station k over all classes).
    """
    K, R = len(demands), len(pops)
    S = [list(demands[k]) for k in range(K)]
    cap = [math.inf if delay[k] else servers[k] for k in range(K)]
    use_think = [think[r] > 0 for r in range(R)]
    M = K + 1  # station K is the think station (IS)
    S.append([think[r] if use_think[r] else 0.0 for r in range(R)])
    cap.append(math.inf)
    per_class = []
    for r in range(R):
        stations_r = list(range(K)) + ([K] if use_think[r] else [])
        states_r = []
        for comp in _compositions(pops[r], len(stations_r)):
            v = [0] * M
            for k, n in zip(stations_r, comp):
                v[k] = n
            states_r.append(tuple(v))
        per_class.append(states_r)
    states = [tuple(zip(*combo)) for combo in itertools.product(*per_class)]  # state[k][r]
    index = {s: i for i, s in enumerate(states)}
    n_states = len(states)
    Q = np.zeros((n_states, n_states))
    dep0 = np.zeros((n_states, R))
    for i, s in enumerate(states):
        for k in range(M):
            nk = sum(s[k])
            if nk == 0:
                continue
            capacity = min(nk, cap[k])
            for r in range(R):
                if s[k][r] == 0:
                    continue
                rate = capacity * (s[k][r] / nk) / S[k][r]
                order = list(range(K)) + ([K] if use_think[r] else [])
                nxt = order[(order.index(k) + 1) % len(order)]
                t = [list(x) for x in s]
                t[k][r] -= 1
                t[nxt][r] += 1
                j = index[tuple(tuple(x) for x in t)]
                Q[i, j] += rate
                Q[i, i] -= rate
                if k == 0:
                    dep0[i, r] += rate
    A = np.vstack([Q.T, np.ones(n_states)])
    b = np.zeros(n_states + 1)
    b[-1] = 1.0
    pi = np.linalg.lstsq(A, b, rcond=None)[0]
    X = pi @ dep0
    q = np.array([sum(pi[i] * sum(states[i][k]) for i in range(n_states)) for k in range(K)])
    return X, q


SINGLE_CASES = [
    # demands, servers, delay, think, N
    ([0.4, 0.3, 0.2], [1, 1, 1], [False] * 3, 0.0, 6),
    ([0.4, 0.9, 0.2], [1, 3, 1], [False] * 3, 1.0, 7),
    ([1.2, 0.3, 0.5], [4, 1, 1], [False, False, True], 0.5, 8),
    ([0.5, 1.6], [2, 5], [False, False], 2.0, 9),
    ([0.05, 0.8], [1, 16], [False, False], 0.0, 12),  # 16 servers, N < c: no queueing at station 2
    ([0.2, 0.8, 0.3], [1, 4, 2], [False] * 3, 0.0, 10),  # Z = 0, two multi-server stations
]


@pytest.mark.parametrize("demands, servers, delay, think, N", SINGLE_CASES)
def test_single_class_exact_matches_ctmc(demands, servers, delay, think, N):
    X_ref, q_ref = ctmc_solve([[d] for d in demands], servers, delay, [think], [N])
    stations = [Station(f"s{k}", d, servers=c, delay=dl) for k, (d, c, dl) in enumerate(zip(demands, servers, delay))]
    res = solve_closed(stations, N, think)
    assert res.throughput == pytest.approx(X_ref[0], rel=1e-9)
    for k, s in enumerate(stations):
        assert res.stations[s.name].queue_length == pytest.approx(q_ref[k], rel=1e-8, abs=1e-12)
    # whole curve from one pass agrees at every n
    curve = closed_curve(stations, N, think)
    for n in (1, N // 2, N):
        Xn, _ = ctmc_solve([[d] for d in demands], servers, delay, [think], [n])
        assert curve[n - 1].throughput == pytest.approx(Xn[0], rel=1e-9)


MULTI_CASES = [
    # demands[k][r], servers, delay, think[r], pops
    ([[0.3, 0.1], [0.2, 0.5]], [1, 1], [False, False], [0.0, 0.0], [2, 3]),
    ([[0.3, 0.1], [0.2, 0.5], [0.4, 0.4]], [1, 1, 1], [False, False, True], [1.0, 0.5], [3, 2]),
    ([[0.6, 0.2], [0.2, 0.5]], [2, 1], [False, False], [0.5, 1.0], [3, 3]),
    ([[0.9, 0.6], [0.1, 0.3]], [3, 1], [False, False], [0.0, 0.2], [2, 4]),
]


@pytest.mark.parametrize("demands, servers, delay, think, pops", MULTI_CASES)
def test_two_class_exact_matches_ctmc(demands, servers, delay, think, pops):
    X_ref, q_ref = ctmc_solve(demands, servers, delay, think, pops)
    stations = [
        Station(f"s{k}", {"a": d[0], "b": d[1]}, servers=c, delay=dl)
        for k, (d, c, dl) in enumerate(zip(demands, servers, delay))
    ]
    res = solve_closed(stations, {"a": pops[0], "b": pops[1]}, {"a": think[0], "b": think[1]})
    assert res.classes["a"].throughput == pytest.approx(X_ref[0], rel=1e-9)
    assert res.classes["b"].throughput == pytest.approx(X_ref[1], rel=1e-9)
    for k, s in enumerate(stations):
        assert res.stations[s.name].queue_length == pytest.approx(q_ref[k], rel=1e-8)
