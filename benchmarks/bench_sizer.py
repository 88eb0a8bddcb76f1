"""Benchmark of the sizer: the search over every deployment (median of repeated runs: target <= 1 s), a real search
over more than 100,000 designs (each array controller also in nine bulkier variants: target <= 5 s), the
batched engine at the batch sizes the sizer really feeds it and per candidate it evaluates in full, each against
line-solver's ``pfqn_mva`` per call on the same networks (each candidate's closed product-form part at the same
population: every copy of a station class as its own queue, Seidmann's parallel parts and delays as think time;
target >= 20x), and the batched closed ramps of 10,000 candidate networks at once (issue 17: <= 2 s).

What the per-candidate ratios measure (two real searches, the engine's ramp cache emptied first so each batch
solves its own ramps): "ramps alone" is ``closed_ramp_batch`` on the candidates' networks at the median number of
ramps per batched solve; "batched check" is the sizer's whole batched check of a chunk (its ramps solved together,
then each design's max IOPS at the SLO with the open model's continuation, saturation and failover verdict) divided
by the designs in it; "check + paths" adds the median time of building one design's paths (done once per design
and shared with the saturation screen). The peer solves only a product-form MVA of one network; the sizer's
figure per candidate includes building its stations from the catalog, the open-model search beyond the ramp and
the failover state, so the last ratio is what a checked candidate really costs against one peer call.
Last, ``storplan size`` against ``storplan evaluate`` of the same examples as whole processes (wall time, the two run
in turn, the ratio pair by pair, its median: target <= 1.5x).

Run: ``uv run python benchmarks/bench_sizer.py`` (line-solver is in the dev dependency group).
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import models.performance.screening
import models.sizing
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


def median_time(fn, runs: int = 5) -> float:
    """Median wall time of ``runs`` calls of ``fn``, seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def hundred_thousand_designs(project):
    """``project`` with every deployment allowed and a catalog in which each array controller is also sold as nine
    bulkier variants (2 to 18 more rack units, otherwise the same record, taking the same drives): a real search
    over more than 100,000 designs, most of which rank after the designs the search needs."""
    from models.catalog import Controller
    from models.project.model import Requirements

    catalog = project_catalog(project)
    clones = [c.model_copy(update={"id": f"{c.id}-variant{k}", "name": f"{c.name} (variant {k})", "based_on": c.id,
                                   "rack_units": (c.rack_units or 2) + 2 * k})
              for c in catalog if isinstance(c, Controller) and c.family in ("ONTAP", "E-Series")
              for k in range(1, 10)]
    return project.model_copy(update={"requirements": Requirements()}), catalog.with_entries(clones)


class BatchSizes:
    """Records what the sizer feeds the batched engine and what it costs: the number of closed ramps in each
    batched solve (``models.performance.screening.solve_ramps``), the designs in each batched check
    (``models.sizing._performance_checks``: ramps solved together, then the figures the sizer reads, failover
    verdicts included) with its time, and the time of building each design's paths (``design_paths``: once per
    design, shared by the saturation screen, the HA-partner test and the check)."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.checks: list[tuple[int, float]] = []
        self.builds: list[float] = []
        self._solve = models.performance.screening.solve_ramps
        self._check, self._paths = models.sizing._performance_checks, models.sizing.design_paths

    def __enter__(self) -> BatchSizes:
        def solve(requests):
            self.sizes.append(len(requests))
            return self._solve(requests)

        def check(designs, req):
            start = time.perf_counter()
            out = self._check(designs, req)
            if designs:
                self.checks.append((len(designs), time.perf_counter() - start))
            return out

        def paths(*args, **kwargs):
            start = time.perf_counter()
            out = self._paths(*args, **kwargs)
            self.builds.append(time.perf_counter() - start)
            return out

        models.performance.screening.solve_ramps = solve
        models.sizing._performance_checks, models.sizing.design_paths = check, paths
        return self

    def __exit__(self, *exc) -> None:
        models.performance.screening.solve_ramps = self._solve
        models.sizing._performance_checks, models.sizing.design_paths = self._check, self._paths

    def per_design_check_s(self) -> float:
        """Time of the batched checks per design checked (ramps solved together + figures + failover), seconds."""
        designs = sum(n for n, _ in self.checks)
        return sum(t for _, t in self.checks) / designs if designs else float("nan")


def peer_per_call(networks, population: int = POPULATION) -> float | None:
    """line-solver's ``pfqn_mva`` per call on the first :data:`PEER_SAMPLE` networks at ``population`` (median,
    seconds), or None when line-solver is not installed."""
    try:
        from line_solver.api.pfqn.mva import pfqn_mva
    except ImportError:
        return None
    times = []
    for s_k, c_k, m_k, _v_k, d in networks[:PEER_SAMPLE]:
        a = s_k / c_k
        demands = np.repeat(a / m_k, m_k.astype(int))  # every copy its own single-server queue
        think = d + float((s_k - a).sum())  # Seidmann's parallel parts and the delays
        t = time.perf_counter()
        pfqn_mva(demands.reshape(-1, 1), np.array([population]), np.array([think]))
        times.append(time.perf_counter() - t)
    return float(np.median(times))


PAIRED_EXAMPLES = ("aff8080-sqlserver-tpce", "spinning192-sas-analytics", "cvo-azure-ds14-ha-oltp",
                   "vsan8-esa-6host-sqlserver-oltp")
"""Examples whose ``storplan size`` is timed against their ``storplan evaluate``."""


def paired_ratio(example: str, pairs: int = 5) -> tuple[float, float, float]:
    """(median size wall s, median evaluate wall s, median of the pairwise ratios) of ``storplan size`` and
    ``storplan evaluate`` of one bundled example, run in turn (one warm-up of each first)."""
    import subprocess
    import sys

    path = str(examples_dir() / f"{example}.toml")
    commands = ([sys.executable, "-m", "app", "size", path], [sys.executable, "-m", "app", "evaluate", path])

    def wall(command: list[str]) -> float:
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        return time.perf_counter() - start

    for command in commands:
        wall(command)
    sizes, evaluations = [], []
    for _ in range(pairs):
        sizes.append(wall(commands[0]))
        evaluations.append(wall(commands[1]))
    ratios = [a / b for a, b in zip(sizes, evaluations)]
    return statistics.median(sizes), statistics.median(evaluations), statistics.median(ratios)


def main() -> None:
    """Time the searches, the batched ramps and the peer; print them and the targets."""
    from models.project.model import Requirements

    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    wide = project.model_copy(update={"requirements": Requirements()})  # every deployment, family and protocol
    size(wide, top=5)  # warm the caches (imports, profiles) as a GUI session has them warm
    whole_s = median_time(lambda: size(wide, top=5))
    considered = size(wide, top=5).considered
    print(f"whole search, every deployment: {considered:,} designs, median of 5 {whole_s:.2f} s  target <= 1 s: "
          f"{'ok' if whole_s <= 1 else 'MISSED'}")
    big, big_catalog = hundred_thousand_designs(project)
    start = time.perf_counter()
    many = size(big, top=5, catalog=big_catalog)
    many_s = time.perf_counter() - start
    print(f"search over {many.considered:,} designs (each array controller also in nine bulkier variants): "
          f"{many_s:.2f} s  "
          f"target <= 5 s: {'ok' if many.considered >= 100_000 and many_s <= 5 else 'MISSED'}")
    start = time.perf_counter()
    result = size(project, top=5)
    search_s = time.perf_counter() - start
    print(f"sizer search of the AFF8080 example: {result.considered} designs in {search_s:.2f} s")
    from models.performance import engine

    engine._CURVE_CACHE.clear()  # the batches solve their own ramps, as in a first search of a project
    with BatchSizes() as seen:
        size(project, top=5)
        size(wide, top=5)
    networks = candidate_networks(project)
    peer = peer_per_call(networks)
    # the sizer solves each workload's ramp to its own concurrency: the peer and the ramps alone at that population
    concurrency = next(w.concurrency for w in project.scenario.workloads if w.enabled)
    peer_sized = peer_per_call(networks, concurrency)
    used = [n for n in seen.sizes if n]
    if used:
        typical = int(statistics.median(used))
        s, c, m, v, delay = padded(networks, typical)
        batch_s = median_time(lambda: closed_ramp_batch(s, c, m, v, delay, np.zeros(typical), concurrency), 5)
        at_batch = batch_s / typical
        per_check = seen.per_design_check_s()
        per_build = statistics.median(seen.builds) if seen.builds else float("nan")
        designs = [n for n, _ in seen.checks]
        print(f"batches the sizer feeds the engine: {len(used)} batched solves of {min(used)}-{max(used)} ramps "
              f"(median {typical}) in {len(designs)} batched checks of {min(designs)}-{max(designs)} designs; "
              f"closed ramps alone at {typical} per batch (N = {concurrency}, the workload's concurrency): "
              f"{at_batch * 1e6:.1f} us per candidate")
        print(f"per candidate evaluated in full: the batched check (its ramps solved with the batch's, max IOPS at "
              f"the SLO, saturation, failover verdicts) {per_check * 1e3:.3f} ms, plus building its paths once "
              f"{per_build * 1e3:.3f} ms (median)")
        if peer_sized is not None:
            full = per_check + per_build
            print(f"line-solver pfqn_mva of the same networks at N = {concurrency}: {peer_sized * 1e3:.2f} ms per "
                  f"call; per candidate at the sizer's batch sizes: ramps alone {peer_sized / at_batch:,.1f}x; "
                  f"batched check {peer_sized / per_check:,.2f}x; check + paths (what a shown candidate costs) "
                  f"{peer_sized / full:,.2f}x  target >= 20x: {'ok' if peer_sized / full >= 20 else 'MISSED'}")
    s, c, m, v, delay = padded(networks, CANDIDATES)
    start = time.perf_counter()
    closed_ramp_batch(s, c, m, v, delay, np.zeros(CANDIDATES), POPULATION)
    batch_s = time.perf_counter() - start
    per_candidate_s = batch_s / CANDIDATES
    # the worst case: nothing meets, so every design's capacity is evaluated and the nearest are searched for
    search_line("whole search where no design meets (every design's capacity evaluated)",
                project.model_copy(update={"requirements": Requirements(effective_capacity_bytes=10**18)}))
    print(f"batched closed ramps: {CANDIDATES:,} candidates x N = {POPULATION} in {batch_s:.2f} s "
          f"({per_candidate_s * 1e6:.1f} us per candidate)  target <= 2 s: {'ok' if batch_s <= 2 else 'MISSED'}")
    if peer is None:
        print("line-solver is not installed (uv sync --group dev): no peer timing")
        paired()
        return
    print(f"line-solver pfqn_mva: {peer * 1e3:.2f} ms per call (median of {PEER_SAMPLE} candidates' networks)")
    ratio = peer / per_candidate_s
    print(f"batched engine at {CANDIDATES:,} candidates is {ratio:,.0f}x faster per candidate than line-solver")
    paired()


def paired() -> None:
    """Print ``storplan size`` against ``storplan evaluate`` of :data:`PAIRED_EXAMPLES` (whole processes)."""
    for example in PAIRED_EXAMPLES:
        size_s, evaluate_s, ratio = paired_ratio(example)
        print(f"storplan size / storplan evaluate, {example}: {size_s:.2f} s / {evaluate_s:.2f} s, median ratio of 5 "
              f"pairs {ratio:.2f}x  target <= 1.5x: {'ok' if ratio <= 1.5 else 'MISSED'}")


if __name__ == "__main__":
    main()
