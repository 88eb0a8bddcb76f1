"""Benchmark of the queueing-network solver (models.queueing); prints median wall times.

    uv run python benchmarks/bench_queueing.py

Targets: exact MVA N = 1,000 with 20 stations < 20 ms; open 1,000-point curve < 2 ms;
Schweitzer N = 10,000 (no target given; should be well under 10 ms); ``solve_closed`` adds under 10% to its MVA
kernel (``mva_exact.exact_single``) at N = 1,000, K = 20.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

from models.queueing import Station, closed_curve, open_curve, solve_closed
from models.queueing._network import assemble
from models.queueing.closed_network import _prepare
from models.queueing.mva_exact import exact_single


def median_ms(fn: Callable[[], object], repeat: int = 15) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000.0 * statistics.median(times)


def wrapper_overhead(stations: list[Station], population: int, think_s: float, repeat: int = 61
                     ) -> tuple[float, float, float]:
    """(kernel ms, solve_closed ms, wrapper parts ms) on one network, each the fastest of ``repeat`` interleaved
    runs (the least disturbed by other work on the machine): the exact MVA kernel alone, the whole
    ``solve_closed``, and the wrapper's own parts timed apart (input checks and arrays, then the result records)."""
    net, pops, Z = _prepare(stations, population, think_s)
    D, c, delay = net.demand[:, 0], net.servers, net.delay
    X, R, name = exact_single(D, c, delay, float(Z[0]), int(pops[0]))
    Xr, Rkr = X[-1:], R[-1][:, None]

    def records():
        return assemble(net, X=Xr, Rkr=Rkr, Qkr=Xr[None, :] * Rkr, class_resp=Rkr.sum(axis=0), stable=True,
                        method=name, converged=True, population=int(pops.sum()), arrival_rate=None)

    kernel, wrapped, parts = [], [], []
    solve_closed(stations, population, think_s)  # warm-up
    for _ in range(repeat):
        t = time.perf_counter()
        exact_single(D, c, delay, float(Z[0]), int(pops[0]))
        kernel.append(time.perf_counter() - t)
        t = time.perf_counter()
        solve_closed(stations, population, think_s)
        wrapped.append(time.perf_counter() - t)
        t = time.perf_counter()
        _prepare(stations, population, think_s)
        records()
        parts.append(time.perf_counter() - t)
    return 1000.0 * min(kernel), 1000.0 * min(wrapped), 1000.0 * min(parts)


def main() -> None:
    single = [Station(f"s{i}", 0.001 * (1 + i % 7)) for i in range(20)]
    mixed = [Station(f"s{i}", 0.001 * (1 + i % 7)) for i in range(17)] + [
        Station("cpu", 0.02, servers=8),
        Station("ssd-pool", 0.05, servers=16),
        Station("nic", 0.004, servers=2),
    ]
    mixed_delay = single[:18] + [Station("wire", 0.002, delay=True), Station("cpu", 0.02, servers=8)]
    rates = np.linspace(0.0, 200.0, 1000)
    open_net = [Station("cpu", 0.001, servers=8), Station("nic", 0.0005)] + [
        Station(f"d{i}", 0.004 * (1 + i % 3)) for i in range(8)
    ]
    rows = [
        ("exact MVA curve N=1000, 20 single-server stations (target < 20 ms)",
         lambda: closed_curve(single, 1000, 1.0)),
        ("exact MVA solve_closed N=1000, same network",
         lambda: solve_closed(single, 1000, 1.0)),
        ("exact MVA curve N=1000, 19 stations + one 8-server station",
         lambda: closed_curve(mixed_delay, 1000, 1.0)),
        ("exact MVA curve N=1000, 17 single + 3 multi-server (c=8,16,2)",
         lambda: closed_curve(mixed, 1000, 1.0)),
        ("open_curve 1000 points, 10 stations incl. one 8-server (target < 2 ms)",
         lambda: open_curve(open_net, rates)),
        ("Schweitzer N=10,000, 20 single-server stations",
         lambda: solve_closed(single, 10_000, 1.0, method="schweitzer")),
        ("Schweitzer N=10,000, 17 single + 3 multi-server (Seidmann)",
         lambda: solve_closed(mixed, 10_000, 1.0, method="schweitzer")),
        ("Linearizer N=10,000, 20 single-server stations",
         lambda: solve_closed(single, 10_000, 1.0, method="linearizer")),
        ("exact multi-class 2 classes x 50 jobs, 5 stations incl. one 4-server",
         lambda: solve_closed(
             [Station(f"m{i}", {"a": 0.01 * (i + 1), "b": 0.02 / (i + 1)}, servers=4 if i == 0 else 1)
              for i in range(5)], {"a": 50, "b": 50}, 0.5)),
    ]
    width = max(len(name) for name, _ in rows)
    for name, fn in rows:
        print(f"{name:<{width}}  {median_ms(fn):9.3f} ms")
    kernel_ms, wrapped_ms, parts_ms = wrapper_overhead(single, 1000, 1.0)
    extra = parts_ms / kernel_ms * 100.0
    print(f"solve_closed N=1000, K=20 (fastest runs): {wrapped_ms:.3f} ms, its MVA kernel {kernel_ms:.3f} ms; the "
          f"wrapper's checks and records take {parts_ms:.3f} ms = {extra:.1f}% of the kernel (target < 10%) "
          f"{'ok' if extra < 10 else 'MISSED'}")


if __name__ == "__main__":
    main()
