"""Benchmark of the sizer's batched engine: the closed ramps of 10,000 candidate networks solved at once
(``models.queueing.general_service.closed_ramp_batch``), timed against line-solver's ``pfqn_mva`` per call on the
same networks (each candidate's closed product-form part at the same population: every copy of a station class
as its own queue, Seidmann's parallel parts and delays as think time). Prints the numbers and the targets of
issue 17 (10,000 candidates <= 2 s; >= 20x faster per candidate than line-solver per call), the whole
``storplan size`` search time of the AFF8080 example, and the search over every deployment (its time per design,
and 10,000 designs at that rate: the catalog does not give 10,000 designs yet).

Run: ``uv run python benchmarks/bench_sizer.py`` (line-solver is in the dev dependency group).
"""

from __future__ import annotations

import time

import numpy as np

from models.evaluate import project_catalog
from models.performance import build_path
from models.performance.engine import _queue_arrays
from models.queueing.general_service import closed_ramp_batch
from models.resources import examples_dir
from models.sizing import _candidates, size
from models.store import load_any

CANDIDATES = 10_000
POPULATION = 128
PEER_SAMPLE = 20


def candidate_networks(project) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]]:
    """Every sizer candidate's first workload as (service, servers, copies, v_closed, fixed delay) arrays."""
    catalog = project_catalog(project)
    out = []
    for scenario, _summary, _ru, _power, _deployment, _order in _candidates(project.scenario, catalog,
                                                                             project.requirements):
        w = next(w for w in scenario.workloads if w.enabled)
        path = build_path(scenario, catalog, w)
        demands = [s.demand(path.read_fraction) for s in path.stations]
        service, servers, copies, v_closed, _v_open, is_queue = _queue_arrays(path.stations, demands,
                                                                           path.read_fraction)
        delay = float(service[~is_queue].sum()) + w.think_time_ms / 1e3
        out.append((service[is_queue], servers[is_queue], copies[is_queue], v_closed[is_queue], delay))
    return out


def padded(networks, count: int):
    """``count`` networks (the candidates repeated) as (B, K) arrays padded with empty classes."""
    k = max(len(n[0]) for n in networks)
    picks = [networks[i % len(networks)] for i in range(count)]
    arrays = [np.zeros((count, k)), np.ones((count, k)), np.ones((count, k)), np.ones((count, k))]
    delay = np.zeros(count)
    for b, (s, c, m, v, d) in enumerate(picks):
        for arr, values in zip(arrays, (s, c, m, v)):
            arr[b, :len(values)] = values
        delay[b] = d
    return (*arrays, delay)


def search_line(label: str, project) -> None:
    """Time one sizer search of ``project`` and print its designs, time, rate and 10,000 designs at that rate
    against the 2 s target."""
    start = time.perf_counter()
    result = size(project, top=5)
    took_s = time.perf_counter() - start
    per_design_s = took_s / max(result.considered, 1)
    print(f"{label}: {result.considered:,} designs in {took_s:.2f} s ({per_design_s * 1e3:.3f} ms per design, "
          f"{len(result.evaluated)} evaluated in full); 10,000 designs at this rate: {per_design_s * 1e4:.1f} s  "
          f"target <= 2 s: {'ok' if per_design_s * 1e4 <= 2 else 'MISSED'}")


def main() -> None:
    """Time the batched ramps and the peer, print both and the targets."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    start = time.perf_counter()
    result = size(project, top=5)
    search_s = time.perf_counter() - start
    networks = candidate_networks(project)
    s, c, m, v, delay = padded(networks, CANDIDATES)
    start = time.perf_counter()
    closed_ramp_batch(s, c, m, v, delay, np.zeros(CANDIDATES), POPULATION)
    batch_s = time.perf_counter() - start
    per_candidate_s = batch_s / CANDIDATES
    print(f"sizer search of the AFF8080 example: {result.considered} designs in {search_s:.2f} s")
    from models.project.model import Requirements

    wide = project.model_copy(update={"requirements": Requirements()})  # every deployment, family and protocol
    size(wide, top=5)  # warm the caches (imports, profiles) as a GUI session has them warm
    search_line("whole search, every deployment", wide)
    # the worst case: nothing meets, so every design's capacity is evaluated and the nearest are searched for
    search_line("whole search where no design meets (every design's capacity evaluated)",
                project.model_copy(update={"requirements": Requirements(effective_capacity_bytes=10**18)}))
    print(f"batched closed ramps: {CANDIDATES:,} candidates x N = {POPULATION} in {batch_s:.2f} s "
          f"({per_candidate_s * 1e6:.1f} us per candidate)  target <= 2 s: {'ok' if batch_s <= 2 else 'MISSED'}")
    try:
        from line_solver.api.pfqn.mva import pfqn_mva
    except ImportError:
        print("line-solver is not installed (uv sync --group dev): no peer timing")
        return
    times = []
    for s_k, c_k, m_k, _v_k, d in networks[:PEER_SAMPLE]:
        a = s_k / c_k
        demands = np.repeat(a / m_k, m_k.astype(int))  # every copy its own single-server queue
        think = d + float((s_k - a).sum())  # Seidmann's parallel parts and the delays
        t = time.perf_counter()
        pfqn_mva(demands.reshape(-1, 1), np.array([POPULATION]), np.array([think]))
        times.append(time.perf_counter() - t)
    peer = float(np.median(times))
    print(f"line-solver pfqn_mva: {peer * 1e3:.2f} ms per call (median of {len(times)} candidates' networks)")
    ratio = peer / per_candidate_s
    print(f"batched engine is {ratio:,.0f}x faster per candidate  target >= 20x: {'ok' if ratio >= 20 else 'MISSED'}")


if __name__ == "__main__":
    main()
