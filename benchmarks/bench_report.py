"""Export time of the PDF report: the largest example's (target <= 0.5 s) and 1,000 nodes x 200 workloads' (target
<= 3 s), each from the results already computed, as the window hands them to the report (its evaluation with the
failure states, and the sizer's search of the project as it is): nothing is solved twice. For comparison it prints
the cold export too (``storplan report``: evaluation, states and search computed once by the report itself).

Run: ``uv run python benchmarks/bench_report.py``. The first export pays for the validation table (cached per
process) and font loading; the steady-state time is what a user sees on a repeated export. Each figure is printed as
wall time and as this process's CPU time (on a shared machine the wall time includes waiting for a core).

The generated 1,000 x 200 project's workloads are alike, so their latency charts are equal and the report draws one
chart once and places it 200 times; the last line is the same project with a different target per workload (200
different charts), the report's cost when nothing repeats.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from app.report import write_report
from models.project import load
from models.resources import examples_dir


def largest_example() -> Path:
    """The example with the most nodes and links (the biggest topology)."""

    def size(path: Path) -> int:
        scenario = load(path).scenario
        return len(scenario.nodes) + len(scenario.links)

    return max(sorted(examples_dir().glob("*.toml")), key=size)


def computed(project) -> tuple[dict, object]:
    """The results a window holds for ``project``: its active scenario's evaluation with the failure states
    ({scenario name: Evaluation}), and the sizer's search when the project states requirements (else None)."""
    from models.evaluate import evaluate, evaluate_resilience, with_resilience
    from models.project.model import Requirements
    from models.sizing import size

    evaluation = evaluate(project)
    evaluation = with_resilience(evaluation, evaluate_resilience(project, evaluation, project.scenario.name))
    sizing = size(project, top=10) if project.requirements != Requirements() else None
    return {project.scenario.name: evaluation}, sizing


def median_export(project, out: Path, runs: int, **results) -> tuple[float, float]:
    """Median wall and CPU seconds of ``runs`` exports of ``project`` to ``out`` with ``results`` handed in."""
    walls, cpus = [], []
    for _ in range(runs):
        cache = dict(results["evaluation_cache"]) if "evaluation_cache" in results else None
        start, cpu = time.perf_counter(), time.process_time()
        write_report(project, out, evaluation_cache=cache, sizing=results.get("sizing"))
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def distinct_targets(project):
    """``project`` with a different IOPS target per workload (40,000 + 100 x its index): every chart differs."""
    workloads = [w.model_copy(update={"target_iops": 40_000.0 + 100.0 * i})
                 for i, w in enumerate(project.scenario.workloads)]
    return project.with_scenario(project.scenario.with_changes(workloads=workloads))


def main() -> int:
    from scale_project import large_project

    path = largest_example()
    project = load(path)
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.pdf"
        start = time.perf_counter()
        write_report(project, out)
        first = time.perf_counter() - start
        cold, cold_cpu = median_export(project, out, 5)
        cache, sizing = computed(project)
        warm, warm_cpu = median_export(project, out, 5, evaluation_cache=cache, sizing=sizing)
        kib = out.stat().st_size / 1024
        print(f"example: {path.stem} ({len(project.scenario.nodes)} nodes, {len(project.scenario.links)} links)")
        print(f"first export (incl. run_validation, once per process, and fonts): {first:.2f} s")
        print(f"cold export (evaluate + states + search + render + write, as storplan report), median of 5: "
              f"{cold:.2f} s (CPU {cold_cpu:.2f} s)")
        print(f"export from the results already computed, median of 5: {warm:.2f} s (CPU {warm_cpu:.2f} s)  "
              f"target <= 0.5 s: {'ok' if warm <= 0.5 else 'MISSED'}   {kib:.0f} KiB")
        ok &= warm <= 0.5
        for counted, label, big in (
                (True, "1,000 nodes x 200 workloads", large_project(1000, 200)),
                (False, "the same, a different target per workload (no chart repeats)",
                 distinct_targets(large_project(1000, 200)))):
            start = time.perf_counter()
            cache, sizing = computed(big)
            results_s = time.perf_counter() - start
            warm, warm_cpu = median_export(big, out, 3, evaluation_cache=cache, sizing=sizing)
            verdict = f"  target <= 3 s: {'ok' if warm <= 3 else 'MISSED'}" if counted else ""
            print(f"{label}: results computed once in {results_s:.2f} s (evaluation with states); export from "
                  f"them, median of 3: {warm:.2f} s (CPU {warm_cpu:.2f} s){verdict}   "
                  f"{out.stat().st_size / 1024:.0f} KiB")
            if counted:
                ok &= warm <= 3
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
