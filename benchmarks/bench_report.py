"""Export time of the PDF report for the largest example (target: under 3 s, evaluation included).

Run: ``uv run python benchmarks/bench_report.py``. The first export pays for the validation table (cached per
process) and font loading; the steady-state time is what a user sees on a repeated export.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.report import write_report
from models.project import load
from models.resources import examples_dir


def largest_example() -> Path:
    """The example with the most nodes and links (the biggest topology)."""

    def size(path: Path) -> int:
        scenario = load(path).scenario
        return len(scenario.nodes) + len(scenario.links)

    return max(sorted(examples_dir().glob("*.toml")), key=size)


def main() -> int:
    path = largest_example()
    project = load(path)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.pdf"
        start = time.perf_counter()
        write_report(project, out)
        first = time.perf_counter() - start
        times = []
        for _ in range(5):
            start = time.perf_counter()
            write_report(project, out)
            times.append(time.perf_counter() - start)
        size = out.stat().st_size
    median = statistics.median(times)
    print(f"example: {path.stem} ({len(project.scenario.nodes)} nodes, {len(project.scenario.links)} links)")
    print(f"first export (incl. run_validation, once per process, and fonts): {first:.2f} s")
    print(f"export (evaluate + render + write), median of 5: {median:.2f} s   (target < 3 s)   {size / 1024:.0f} KiB")
    return 0 if median < 3.0 else 1


if __name__ == "__main__":
    sys.exit(main())
