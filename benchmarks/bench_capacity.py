"""Median time to evaluate the capacity of each example project (resources/examples/*.toml).

Run: ``uv run python benchmarks/bench_capacity.py``. Target: well under 1 ms per project. When no example exists,
the seed configurations of the validation cases are timed instead.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from models.capacity import evaluate_capacity
from models.catalog import bundled_catalog
from models.project import Scenario, load
from models.resources import examples_dir
from models.units import format_capacity


def _scenarios() -> list[tuple[str, Scenario]]:
    files = sorted(Path(examples_dir()).glob("*.toml"))
    if files:
        return [(f.stem, load(f).scenario) for f in files]
    from models.validation.capacity_cases import aff8080_scenario, vsan_scenario

    return [("seed aff8080", aff8080_scenario()), ("seed vsan raid1", vsan_scenario())]


def main(repeats: int = 200) -> None:
    catalog = bundled_catalog()
    print(f"{'project':34} {'median us':>10} {'usable':>12} {'effective':>12}  problems")
    for name, scenario in _scenarios():
        result = evaluate_capacity(scenario, catalog)  # warm up
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            evaluate_capacity(scenario, catalog)
            times.append(time.perf_counter() - start)
        median_us = statistics.median(times) * 1e6
        print(f"{name:34} {median_us:10.1f} {format_capacity(result.total.usable_bytes):>12} "
              f"{format_capacity(result.total.effective_bytes):>12}  {len(result.problems)}")


if __name__ == "__main__":
    main()
