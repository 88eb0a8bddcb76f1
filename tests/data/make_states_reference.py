"""Write ``states_reference.json.gz``: every failure-state figure and curve of the bundled examples and a few
generated scale projects, as the current engine computes them (and the normal results beside them).

Run from the repository root, one command: ``uv run python tests/data/make_states_reference.py``. The output is
committed; ``tests/test_states_identical.py`` recomputes every figure and compares it to a relative tolerance of
1e-9, so a speed change of the engine cannot move a number. Regenerate it (and commit it) only when a change of the
model itself is meant to move them.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import math
from collections.abc import Callable
from enum import Enum
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUTPUT = HERE / "states_reference.json.gz"

SCALE_CASES = (("large_project", 24, 12), ("large_project", 60, 30), ("pods", 10, 12), ("pods", 30, 9))
"""Generated projects: (builder, nodes, workloads). ``large_project`` is tests/scale_project.py's (several workloads
per HA pair on the first ones), ``pods`` benchmarks/bench_scale.py's (every workload of a pod on one HA pair)."""


def to_plain(value: object) -> object:
    """``value`` (result dataclasses, tuples, mappings, numbers) as JSON-ready lists, dicts and numbers;
    non-finite floats as strings ("inf", "nan")."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return to_plain(value.value)
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): to_plain(v) for k, v in value.items()}  # type: ignore[union-attr]
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, float):  # 12 significant digits: far finer than the test's 1e-9, and a smaller file
        return float(f"{value:.12g}") if math.isfinite(value) else str(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if hasattr(value, "item"):  # a numpy scalar
        return to_plain(value.item())
    return str(value)


def projects() -> list[tuple[str, Callable[[], object]]]:
    """(case name, a function building the project) for every case of the reference, in a fixed order."""
    import sys

    root = HERE.parent.parent
    for extra in (root, root / "tests", root / "benchmarks"):
        if str(extra) not in sys.path:
            sys.path.insert(0, str(extra))
    from bench_scale import make_design
    from scale_project import large_project

    from models.resources import examples_dir
    from models.store import load_any

    cases: list[tuple[str, Callable[[], object]]] = [
        (f"example:{f.name}", lambda f=f: load_any(f)) for f in sorted(Path(examples_dir()).glob("*.toml"))]
    for builder, nodes, workloads in SCALE_CASES:
        make = large_project if builder == "large_project" else make_design
        cases.append((f"{builder}:{nodes}x{workloads}", lambda m=make, n=nodes, w=workloads: m(n, w)))
    cases.append(("mixed:10x6", lambda: mixed(make_design(10, 6), 5_000_000.0)))
    cases.append(("mixed:10x6 within", lambda: mixed(make_design(10, 6), 30_000.0)))
    return cases


def mixed(project: object, fourth_iops: float) -> object:
    """``project`` (one HA pair's workloads) with three workloads without a target (one with a think time), one
    by MB/s and the fourth at ``fourth_iops`` (far beyond saturation, or not): the branches of the open model a
    state meets besides the plain one."""
    scenario = project.scenarios[0]  # type: ignore[attr-defined]
    work = list(scenario.workloads)
    work[1] = work[1].with_changes(target_iops=None)
    work[2] = work[2].with_changes(target_iops=None, target_mbps=300.0)
    work[3] = work[3].with_changes(target_iops=fourth_iops)
    work[4] = work[4].with_changes(target_iops=None, think_time_ms=0.5)
    scenario = scenario.model_copy(update={"workloads": work})
    return project.model_copy(update={"scenarios": [scenario]})  # type: ignore[attr-defined]


def figures(project: object) -> dict:
    """The normal results and the failure states (``models.evaluate.evaluate_resilience``) of ``project``'s active
    scenario, as plain data: {"performance": ..., "states": {workload id: [state result, ...]}, "problems": ...}."""
    from models.evaluate import evaluate, evaluate_resilience
    from models.performance import engine

    engine._CURVE_CACHE.clear()
    evaluation = evaluate(project)  # type: ignore[arg-type]
    resilience = evaluate_resilience(project, evaluation)  # type: ignore[arg-type]
    performance = evaluation.performance
    return {
        "performance": to_plain(performance.workloads if performance is not None else None),
        "states": to_plain(resilience.states),
        "requirement_checks": to_plain(resilience.requirement_checks),
        "problems": list(resilience.problems),
    }


def main() -> None:
    """Compute every case and write :data:`OUTPUT`."""
    data = {name: figures(make()) for name, make in projects()}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    with gzip.open(OUTPUT, "wt", encoding="utf-8", compresslevel=9) as out:
        out.write(text)
    print(f"wrote {OUTPUT} ({len(data)} cases, {OUTPUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
