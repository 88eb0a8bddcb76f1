"""Benchmark of the performance engine on every example project and on generated designs; prints median times.

    uv run python benchmarks/bench_performance.py              # everything
    uv run python benchmarks/bench_performance.py --quick      # fewer runs per figure

Each example (resources/examples/*.toml) is evaluated in full (models.evaluate.evaluate: capacity, problems and
performance) with a 200-point curve per workload. Three numbers per example: "cold" clears the engine's
closed-ramp cache before every run (a new design), "warm" re-evaluates an unchanged scenario (the GUI
re-evaluating after an edit elsewhere, served from the per-scenario ramp cache), "states" is a cold evaluation
with all its failure states (models.evaluate.evaluate with ``resilience``, as ``storplan evaluate --json`` and the
GUI's failure-states view ask for them). Targets (issue 27): every example with its states <= 5 ms cold; 10 nodes x 100
workloads <= 75 ms; 1,000 nodes x 200 workloads with states <= 1 s (the generated designs of bench_scale.py).

Then the collector's pauses: 2,000 evaluations with states of randomly chosen examples and random edits (target
rate, read share, block size), cold; the median and the 99th percentile, and each run against its own design's
median (the examples differ tenfold in cost; target: p99 <= 2x), in wall-clock and CPU time (on a shared machine
the wall clock's spread is the scheduler's); how many generation-2 collections ran and the longest. ``--freeze``
freezes what start-up made (``gc.freeze``), as the app, its worker process and the CLI do; ``--qt`` imports PySide6
and pyqtgraph first, whose objects the GUI process holds besides (a full collection walks them all).

The floor: between every two evaluations the same fixed task runs (:func:`_floor_task`: a pure-Python loop and
small numpy calls, repeated to last as long as a mean evaluation, no allocation the collector tracks), and its own
p99 against its median is printed beside the evaluations'. It is the spread the machine alone gives one unchanging
piece of work (a shared virtual machine's CPU time varies with its neighbours' cache and frequency use); an
evaluation's ratio near the floor's is the machine's, not the collector's or the engine's.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from models.design import resolve
from models.evaluate import evaluate, with_layouts
from models.performance import engine
from models.project import load
from models.resources import examples_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import make_design

CPU_TIMES: dict[str, float] = {}
"""The CPU-time median of the last :func:`_median_ms` call, {"cpu": ms} (this process: on a shared machine the
closer estimate of a quiet machine's wall time)."""


def _median_ms(fn, repeat: int = 15) -> float:
    """Median wall time of ``repeat`` calls of ``fn``, ms (the CPU-time median goes to :data:`CPU_TIMES`)."""
    times, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    CPU_TIMES["cpu"] = 1000.0 * statistics.median(cpu)
    return 1000.0 * statistics.median(times)


def _with_states(project):
    """An evaluation with its failure states as ``storplan evaluate --json`` and the GUI's worker make it (the design
    resolved once; ``evaluate(..., resilience=True)``: the states solved in one pass with the normal state)."""
    design = with_layouts(resolve(project))
    return evaluate(project, design=design, resilience=True)


def _cold(fn):
    def run():
        engine._CURVE_CACHE.clear()
        fn()
    return run


def examples(repeat: int) -> list:
    """Print cold / warm / with-states times of every example; returns the loaded projects (200-point curves)."""
    directory = Path(examples_dir())
    files = sorted(directory.glob("*.toml"))
    print(f"{'example':42s} {'workloads':>9s} {'cold ms':>8s} {'warm ms':>8s} {'states ms':>9s} {'CPU ms':>7s}  "
          "target states <= 5 ms")
    projects, worst, worst_cpu = [], 0.0, 0.0
    over, over_cpu = 0, 0
    for f in files:
        project = load(f)
        project = project.model_copy(update={"settings": project.settings.with_changes(curve_points=200)})
        projects.append(project)
        evaluation = evaluate(project)  # warm-up (imports, catalog)
        _with_states(project)
        n = len(evaluation.performance.workloads) if evaluation.performance else 0
        cold_ms = _median_ms(_cold(lambda: evaluate(project)), repeat)  # noqa: B023 - timed right here
        warm_ms = _median_ms(lambda: evaluate(project), repeat)  # noqa: B023 - timed right here
        states_ms = _median_ms(_cold(lambda: _with_states(project)), repeat)  # noqa: B023 - timed right here
        states_cpu = CPU_TIMES["cpu"]
        worst, worst_cpu = max(worst, states_ms), max(worst_cpu, states_cpu)
        over, over_cpu = over + (states_ms > 5), over_cpu + (states_cpu > 5)
        verdict = "ok" if states_ms <= 5 else "SLOW"
        print(f"{f.stem:42s} {n:9d} {cold_ms:8.2f} {warm_ms:8.2f} {states_ms:9.2f} {states_cpu:7.2f}  {verdict}")
    print(f"{'slowest example with its states':42s} {'':9s} {'':8s} {'':8s} {worst:9.2f} {worst_cpu:7.2f}  "
          f"{'ok' if worst <= 5 else 'MISSED'} (target <= 5 ms; CPU {'ok' if worst_cpu <= 5 else 'MISSED'})")
    print(f"examples over 5 ms with their states: {over} of {len(files)} wall, {over_cpu} of {len(files)} CPU")
    print()
    return projects


def generated(repeat: int) -> None:
    """Print the generated designs' cold times without and with states against their targets."""
    cells = ((10, 100, "evaluate", 75.0), (10, 100, "states", None), (1_000, 200, "evaluate", None),
             (1_000, 200, "states", 1000.0))
    for nodes, workloads, kind, limit in cells:
        project = make_design(nodes, workloads)
        fn = (lambda p=project: evaluate(p)) if kind == "evaluate" else (lambda p=project: _with_states(p))
        fn()  # warm-up
        ms = _median_ms(_cold(fn), max(3, repeat // 3) if nodes * workloads > 10_000 else repeat)
        cpu = CPU_TIMES["cpu"]
        label = f"{nodes:,} nodes x {workloads} workloads, {'with states' if kind == 'states' else 'evaluate'}"
        verdict = "" if limit is None else (f"  wall {'ok' if ms <= limit else 'MISSED'}, CPU "
                                            f"{'ok' if cpu <= limit else 'MISSED'} (target <= {limit:g} ms)")
        print(f"{label:55s} {ms:9.1f} ms wall {cpu:9.1f} ms CPU{verdict}")
    print()


def _full_collection_ms() -> float:
    """CPU ms of a generation-2 collection of this process now (the fastest of five)."""
    times = []
    for _ in range(5):
        c = time.process_time()
        gc.collect(2)
        times.append(time.process_time() - c)
    return 1000.0 * min(times)


_FLOOR_ARRAY = np.linspace(0.0, 1.0, 200)


def _floor_task() -> float:
    """The floor's fixed piece of work (module docstring): the same Python arithmetic and numpy calls every time."""
    s = 0.0
    for i in range(8_000):
        s += i * 0.5
    for _ in range(120):
        s += float(np.cumsum(_FLOOR_ARRAY)[-1])
    return s


def _p99_ratio(times: dict[int, list[float]]) -> tuple[float, float]:
    """(p99, max) of each run's time over the median of its own key's runs."""
    ratios = sorted(x / statistics.median(runs_k) for runs_k in times.values() for x in runs_k)
    return ratios[int(0.99 * (len(ratios) - 1))], ratios[-1]


def pauses(projects: list, runs: int, seed: int = 27) -> None:
    """Time ``runs`` cold evaluations with states of random examples under random edits (wall clock and this
    process's CPU time); print median, p99 and the generation-2 collections that ran (how many, their longest)."""
    rng = random.Random(seed)
    edited = []
    for _ in range(64):  # a pool of edited designs, reused: the edit loop's churn without pydantic in the timing
        project = rng.choice(projects)
        scenario = project.scenarios[0]
        work = [w.with_changes(target_iops=(w.target_iops or 10_000.0) * rng.uniform(0.5, 1.5),
                               read_pct=float(rng.randint(0, 100)), block_kib=rng.choice((4.0, 8.0, 16.0, 64.0)))
                for w in scenario.workloads]
        edited.append(project.model_copy(update={"scenarios": [scenario.model_copy(update={"workloads": work})]}))
    c = time.process_time()
    for p in edited:
        _with_states(p)
    per_design = (time.process_time() - c) / len(edited)
    c = time.process_time()
    for _ in range(20):
        _floor_task()
    reps = max(1, round(per_design / ((time.process_time() - c) / 20)))  # the floor as long as a mean evaluation
    print(f"one full collection now: {_full_collection_ms():.1f} ms CPU over {len(gc.get_objects()):,} tracked objects "
          f"({gc.get_freeze_count():,} frozen)")
    gen2: list[float] = []
    started = [0.0]

    def watch(phase: str, info: dict) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            started[0] = time.process_time()
        else:
            gen2.append(1000.0 * (time.process_time() - started[0]))

    gc.callbacks.append(watch)
    wall: dict[int, list[float]] = {}
    cpu: dict[int, list[float]] = {}
    floor: dict[int, list[float]] = {0: []}
    kept = []  # the GUI keeps the last results (and the report, the sizer, the undo stack hold more): keep some
    try:
        for _ in range(runs):
            c = time.process_time()
            for _ in range(reps):
                _floor_task()
            floor[0].append(1000.0 * (time.process_time() - c))
            k = rng.randrange(len(edited))
            engine._CURVE_CACHE.clear()
            t, c = time.perf_counter(), time.process_time()
            kept.append(_with_states(edited[k]))
            wall.setdefault(k, []).append(1000.0 * (time.perf_counter() - t))
            cpu.setdefault(k, []).append(1000.0 * (time.process_time() - c))
            del kept[:-8]
    finally:
        gc.callbacks.remove(watch)
    for label, times in (("wall", wall), ("CPU", cpu)):
        # each run against the median of its own design (the examples differ 10-fold in cost): what is left is
        # the spread of one design's runs, pauses included
        p99, most = _p99_ratio(times)
        every = sorted(x for runs_k in times.values() for x in runs_k)
        print(f"{runs:,} random evaluations with states, {label:4s}: median {statistics.median(every):.2f} ms, "
              f"p99 {every[int(0.99 * (len(every) - 1))]:.2f} ms, max {every[-1]:.1f} ms; p99 of each run / its "
              f"design's median {p99:.2f}x (target <= 2x: {'ok' if p99 <= 2 else 'MISSED'}), "
              f"max {most:.2f}x")
    floor_p99, floor_max = _p99_ratio(floor)
    print(f"floor (the same fixed task between the runs, CPU): median {statistics.median(floor[0]):.2f} ms, p99 / "
          f"median {floor_p99:.2f}x, max {floor_max:.2f}x; the evaluations' CPU p99 ratio is "
          f"{_p99_ratio(cpu)[0] / floor_p99:.2f}x the floor's")
    print(f"generation-2 collections while they ran: {len(gen2)}, longest {max(gen2, default=0.0):.1f} ms CPU; "
          f"objects the collector tracks {len(gc.get_objects()):,}, frozen {gc.get_freeze_count():,}")


def main(argv: list[str] | None = None) -> None:
    """Run the examples, the generated designs and the pause measurement (``--quick``: fewer runs)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs per figure instead of 15, 500 random runs")
    parser.add_argument("--only", choices=("examples", "generated", "pauses"), help="run one part")
    parser.add_argument("--freeze", action="store_true", help="gc.freeze() after the warm-up, as the app does")
    parser.add_argument("--qt", action="store_true", help="import PySide6 and pyqtgraph first, as the GUI process")
    args = parser.parse_args(argv)
    if args.qt:
        import pyqtgraph  # noqa: F401
        import PySide6.QtWidgets  # noqa: F401
    repeat = 5 if args.quick else 15
    projects = examples(repeat) if args.only in (None, "examples", "pauses") else []
    if args.only in (None, "generated"):
        generated(repeat)
    if args.only in (None, "pauses"):
        if args.freeze:
            gc.freeze()
        pauses(projects, 500 if args.quick else 2_000)


if __name__ == "__main__":
    main()
