"""Benchmark of the performance engine on every example project; prints median wall times.

    uv run python benchmarks/bench_performance.py

Each example (resources/examples/*.toml) is evaluated in full (models.evaluate.evaluate: capacity, problems and
performance) with a 200-point curve per workload. Target: under 5 ms per evaluation. Two numbers per example:
"cold" clears the engine's closed-ramp cache before every run (a new design), "warm" re-evaluates an unchanged
scenario (the GUI re-evaluating after an edit elsewhere, served from the per-scenario ramp cache).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from models.evaluate import evaluate
from models.performance import engine
from models.project import load
from models.resources import examples_dir


def _median_ms(fn, repeat: int = 15) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000.0 * statistics.median(times)


def main() -> None:
    directory = Path(examples_dir())
    files = sorted(directory.glob("*.toml"))
    if not files:
        print(f"no examples in {directory}")
        return
    print(f"{'example':42s} {'workloads':>9s} {'cold ms':>8s} {'warm ms':>8s}  target < 5 ms")
    for f in files:
        project = load(f)
        project = project.model_copy(update={"settings": project.settings.with_changes(curve_points=200)})
        evaluation = evaluate(project)  # warm-up (imports, catalog)
        n = len(evaluation.performance.workloads) if evaluation.performance else 0

        def cold():
            engine._CURVE_CACHE.clear()
            evaluate(project)  # noqa: B023 - timed right here by _median_ms, within this iteration

        cold_ms = _median_ms(cold)
        warm_ms = _median_ms(lambda: evaluate(project))  # noqa: B023 - timed right here, within this iteration
        flag = "ok" if cold_ms < 5 else "SLOW"
        print(f"{f.stem:42s} {n:9d} {cold_ms:8.2f} {warm_ms:8.2f}  {flag}")


if __name__ == "__main__":
    main()
