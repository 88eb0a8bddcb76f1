"""Benchmark of the sizer: the search over every deployment (median of repeated runs: target <= 1 s), a real search
over more than 100,000 designs (each array controller also in sixteen bulkier variants: target <= 5 s), the
batched engine at the batch sizes the sizer really feeds it and per candidate it evaluates in full, each against
line-solver's ``pfqn_mva`` per call on the same networks (each candidate's closed product-form part at the same
population: every copy of a station class as its own queue, Seidmann's parallel parts and delays as think time;
target >= 20x), and the batched closed ramps of 10,000 candidate networks at once (issue 17: <= 2 s).

What the per-candidate ratios measure (two real searches, the engine's ramp cache emptied first so each batch
solves its own ramps; CPU time): the sizer's batched solves (``models.performance.screening.solve_requests``, fed by
the search's look-ahead: the designs it is about to reach, their ramps in one batch) are recorded with the ramps
asked for, the distinct networks solved (not cached, each once) and their CPU time; the peer is line-solver's
``pfqn_mva`` on the networks those batches solved, at their own populations. "per network solved" (the target) is
the batches' CPU time over the networks they solved; "per ramp served" over the ramps the designs asked for (a
network shared by designs alike, e.g. the same drives in another capacity, is solved once); "per design checked"
adds the rest of the check (the figures read from the ramps, the open model's continuation, saturation, failover
verdicts) and building the design's paths, which the peer does not do. Full evaluations during the searches are
counted (none: the shown candidates' figures are the batched check's). "the bound of feeding larger batches"
solves every network the two searches solved in one batch (what no look-ahead can beat: a search needs no more
networks than these). "closed ramps alone" re-times
``closed_ramp_batch`` on the candidates' networks at the median batch size.
Last, ``storplan size`` against ``storplan evaluate`` of the same examples as whole processes (wall time, the two run
in turn, the ratio pair by pair, its median: target <= 1.5x).

Run: ``uv run python benchmarks/bench_sizer.py`` (line-solver is in the dev dependency group).
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import models.performance.engine
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
    """``project`` with every deployment allowed and a catalog in which each array controller is also sold as
    sixteen bulkier variants (2 to 32 more rack units, otherwise the same record, taking the same drives): a real
    search over more than 100,000 designs, most of which rank after the designs the search needs (eleven variants
    gave 81,371 designs once the sizer proposed only the controllers sold today, and the count fell below the
    target's 100,000)."""
    from models.catalog import Controller
    from models.project.model import Requirements

    catalog = project_catalog(project)
    clones = [c.model_copy(update={"id": f"{c.id}-variant{k}", "name": f"{c.name} (variant {k})", "based_on": c.id,
                                   "rack_units": (c.rack_units or 2) + 2 * k})
              for c in catalog if isinstance(c, Controller) and c.family in ("ONTAP", "E-Series")
              for k in range(1, 17)]
    return project.model_copy(update={"requirements": Requirements()}), catalog.with_entries(clones)


class BatchSizes:
    """Records what the sizer feeds the batched engine and what it costs, in one run: each batched solve
    (``models.performance.screening.solve_requests``, called by the search's look-ahead and by the batched check
    of designs checked late) with the ramps asked for, the distinct networks it solved (not in the ramp cache,
    each once) and its CPU time, and those networks for the peer; the designs in each batched check
    (``models.sizing._performance_checks``: figures read from the ramps, failover verdicts included) with its
    time; the time of building each design's paths (``design_paths``: once per design); and every workload a
    full evaluation solves during the searches (``engine._solve_steps``, behind ``evaluate_performance`` and
    ``evaluate_states``: none, the shown candidates' figures are the batched check's)."""

    def __init__(self) -> None:
        self.solves: list[tuple[int, int, float]] = []  # (ramps asked for, distinct networks solved, CPU s)
        self.networks: list[tuple] = []  # the requests of the networks solved
        self.checks: list[tuple[int, float]] = []
        self.builds: list[float] = []
        self.evaluations = 0
        self._solve = models.performance.screening.solve_requests
        self._check, self._paths = models.sizing._performance_checks, models.sizing.design_paths
        self._evaluate = getattr(models.performance.engine, "_solve_steps", None)

    def __enter__(self) -> BatchSizes:
        from models.performance.engine import _CURVE_CACHE, _curve_key

        def solve(requests):
            fresh = {}
            for r in requests:
                key = _curve_key(*r)
                if key not in _CURVE_CACHE:
                    fresh.setdefault(key, r)
            start = time.process_time()
            out = self._solve(requests)
            self.solves.append((len(requests), len(fresh), time.process_time() - start))
            self.networks += fresh.values()
            return out

        def check(designs, req, ramps=None):
            start = time.process_time()
            out = self._check(designs, req, ramps)
            if designs:
                self.checks.append((len(designs), time.process_time() - start))
            return out

        def paths(*args, **kwargs):
            start = time.process_time()
            out = self._paths(*args, **kwargs)
            self.builds.append(time.process_time() - start)
            return out

        def counted(real):
            def call(*args, **kwargs):
                self.evaluations += 1
                return real(*args, **kwargs)
            return call

        models.performance.screening.solve_requests = models.sizing.solve_requests = solve
        models.sizing._performance_checks, models.sizing.design_paths = check, paths
        if self._evaluate is not None:  # every workload a full evaluation solves (normal and failure states)
            models.performance.engine._solve_steps = counted(self._evaluate)
        return self

    def __exit__(self, *exc) -> None:
        models.performance.screening.solve_requests = models.sizing.solve_requests = self._solve
        models.sizing._performance_checks, models.sizing.design_paths = self._check, self._paths
        if self._evaluate is not None:
            models.performance.engine._solve_steps = self._evaluate

    def per_design_check_s(self) -> float:
        """CPU time of the batched checks per design checked (figures from the ramps + failover), seconds."""
        designs = sum(n for n, _ in self.checks)
        return sum(t for _, t in self.checks) / designs if designs else float("nan")


def peer_on_requests(requests) -> float | None:
    """line-solver's ``pfqn_mva`` per call (median CPU seconds) on the first :data:`PEER_SAMPLE` networks the
    sizer's batches solved, each at its own population (the same networks, the same populations; every copy of a
    station class its own queue, Seidmann's parallel parts and the delays as think time), or None when
    line-solver is not installed."""
    try:
        from line_solver.api.pfqn.mva import pfqn_mva
    except ImportError:
        return None
    times = []
    for specs, demands, rf, population, think_s in requests[:PEER_SAMPLE]:
        service, servers, copies, _v_closed, _v_open, is_queue = _queue_arrays(specs, demands, rf)
        s_k, c_k, m_k = service[is_queue], servers[is_queue], copies[is_queue]
        a = s_k / c_k
        peer_demands = np.repeat(a / m_k, m_k.astype(int))
        think = float(service[~is_queue].sum()) + think_s + float((s_k - a).sum())
        t = time.process_time()
        pfqn_mva(peer_demands.reshape(-1, 1), np.array([population]), np.array([think]))
        times.append(time.process_time() - t)
    return float(np.median(times)) if times else None


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


def batch_report(seen: BatchSizes, networks) -> None:
    """Print the batches the sizer really fed the engine in ``seen`` (two searches) and the per-candidate ratios
    against line-solver's ``pfqn_mva`` on the networks those batches solved, at their populations (target >= 20x
    per network solved)."""
    used = [(asked, solved, t) for asked, solved, t in seen.solves if solved]
    if not used:
        print("the sizer's batches solved no ramp (all cached)")
        return
    sizes = [solved for _, solved, _ in used]
    asked = sum(a for a, _, _ in used)
    solved = sum(sizes)
    cpu = sum(t for _, _, t in used)
    designs = [n for n, _ in seen.checks]
    print(f"batches the sizer fed the engine (two searches, first of their project): {len(used)} batched solves of "
          f"{min(sizes)}-{max(sizes)} distinct networks (median {statistics.median(sizes):g}; {sizes}), serving "
          f"{asked} ramps asked for by {sum(designs)} designs in {len(designs)} checks of {min(designs)}-"
          f"{max(designs)} designs; {cpu * 1e3:.1f} ms CPU: {cpu / solved * 1e6:.0f} us per network solved, "
          f"{cpu / asked * 1e6:.0f} us per ramp served")
    per_check = seen.per_design_check_s()
    per_build = statistics.median(seen.builds) if seen.builds else float("nan")
    print(f"per design checked: the batched check (figures read from the ramps, saturation, failover verdicts) "
          f"{per_check * 1e3:.3f} ms CPU, plus building its paths once {per_build * 1e3:.3f} ms (median); full "
          f"evaluations during the searches (workloads solved by the full engine): {seen.evaluations}")
    peer = peer_on_requests(seen.networks)
    if peer is None:
        return
    populations = sorted({r[3] for r in seen.networks[:PEER_SAMPLE]})
    print(f"line-solver pfqn_mva on the first {min(PEER_SAMPLE, len(seen.networks))} of those networks at their "
          f"populations (N = {', '.join(map(str, populations))}): {peer * 1e3:.2f} ms CPU per call; the sizer's "
          f"batches per network solved {peer / (cpu / solved):,.1f}x  target >= 20x: "
          f"{'ok' if peer / (cpu / solved) >= 20 else 'MISSED'}; per ramp served {peer / (cpu / asked):,.1f}x; "
          f"per design checked (check + paths) {peer / (per_check + per_build):,.2f}x")
    everything = median_cpu(lambda: _solved_afresh(seen.networks), 5)
    print(f"the bound of feeding larger batches: all {solved} networks of the two searches in one batched solve "
          f"{everything * 1e3:.1f} ms CPU, {everything / solved * 1e6:.0f} us per network, "
          f"{peer / (everything / solved):,.1f}x the peer (20x at N = {populations[-1]} needs <= "
          f"{peer / 20 * 1e6:.0f} us per network)")
    median_batch = int(statistics.median(sizes))
    concurrency = populations[0]
    s, c, m, v, delay = padded(networks, median_batch)
    batch_s = median_cpu(lambda: closed_ramp_batch(s, c, m, v, delay, np.zeros(median_batch), concurrency), 5)
    print(f"closed ramps alone, the candidates' networks at the median batch ({median_batch}, N = {concurrency}): "
          f"{batch_s / median_batch * 1e6:.1f} us per network, {peer / (batch_s / median_batch):,.1f}x the peer")


def _solved_afresh(requests) -> None:
    """``requests`` solved by the sizer's batched solve with the ramp cache emptied first (one batch for them all)."""
    from models.performance import engine

    engine._CURVE_CACHE.clear()
    models.performance.screening.solve_requests(requests)


def median_cpu(fn, runs: int = 5) -> float:
    """Median CPU time (``time.process_time``) of ``runs`` calls of ``fn``, seconds."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


PAIRED_EXAMPLES = ("aff8080-sqlserver-tpce", "spinning192-sas-analytics", "cvo-azure-ds14-ha-oltp",
                   "vsan8-esa-6host-sqlserver-oltp")
"""Examples whose ``storplan size`` is timed against their ``storplan evaluate``."""


def paired_ratio(example: str, pairs: int = 5) -> tuple[float, float, float, float, float, float]:
    """(median size wall s, median evaluate wall s, median of the pairwise ratios, then the same of the processes'
    CPU time, user + system) of ``storplan size`` and ``storplan evaluate`` of one bundled example, run in turn
    (one warm-up of each first).

    The processes write their bytecode to a cache of their own (``PYTHONPYCACHEPREFIX``, with
    ``PYTHONDONTWRITEBYTECODE`` left out of their environment) and use a StorPlan home of their own, as
    bench_cli.py's do: on a machine that sets ``PYTHONDONTWRITEBYTECODE`` every process would otherwise compile every
    module again, which adds the same cost to both commands and pulls their ratio towards 1."""
    import os
    import resource
    import shutil
    import subprocess
    import sys
    import tempfile

    path = str(examples_dir() / f"{example}.toml")
    commands = ([sys.executable, "-m", "app", "size", path], [sys.executable, "-m", "app", "evaluate", path])
    cache = tempfile.mkdtemp(prefix="storplan-bench-pyc-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    env["STORPLAN_HOME"] = os.path.join(cache, "home")  # a user of its own (the warm-up writes its catalog cache)

    def run(command: list[str]) -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    sizes, evaluations = [], []
    try:
        for command in commands:
            run(command)
        for _ in range(pairs):
            sizes.append(run(commands[0]))
            evaluations.append(run(commands[1]))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    out: list[float] = []
    for k in (0, 1):
        out += [statistics.median(s[k] for s in sizes), statistics.median(e[k] for e in evaluations),
                statistics.median(s[k] / e[k] for s, e in zip(sizes, evaluations))]
    return out[0], out[1], out[2], out[3], out[4], out[5]


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
    print(f"search over {many.considered:,} designs (each array controller also in sixteen bulkier variants): "
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
    batch_report(seen, networks)
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
        size_s, evaluate_s, ratio, size_cpu_s, evaluate_cpu_s, cpu_ratio = paired_ratio(example)
        print(f"storplan size / storplan evaluate, {example}: {size_s:.2f} s / {evaluate_s:.2f} s, median ratio of 5 "
              f"pairs {ratio:.2f}x  target <= 1.5x: {'ok' if ratio <= 1.5 else 'MISSED'}  (CPU {size_cpu_s:.2f} s / "
              f"{evaluate_cpu_s:.2f} s, {cpu_ratio:.2f}x)")


if __name__ == "__main__":
    main()
