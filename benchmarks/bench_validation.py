"""Validation speed: ``storplan validate`` reading the stored cross-validation (target: about a second of CPU),
and one held-out case recomputed (the test suite's representative case; target: under 60 s).

Run: ``uv run python benchmarks/bench_validation.py``. Prints CPU seconds (process time), which the other
helpers' load on these shared 2-core machines affects less than wall time, and wall seconds.
"""

from __future__ import annotations

import io
import time
from contextlib import redirect_stdout


def timed(label: str, fn) -> None:
    """Run ``fn`` once and print its CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    print(f"{label:52s} cpu {time.process_time() - cpu:6.2f} s   wall {time.perf_counter() - wall:6.2f} s")


def main() -> None:
    """Time the validate command (imports included) and the representative leave-one-out recomputation."""
    from app.cli import main as cli

    def validate():
        with redirect_stdout(io.StringIO()):
            cli(["validate"])

    timed("storplan validate (first run, imports included)", validate)
    timed("storplan validate (again)", validate)
    from models.validation.cross_validation import cross_validate_case

    timed("leave-one-out: a800-nvmefc-vs-fcp-latency", lambda: cross_validate_case("a800-nvmefc-vs-fcp-latency"))


if __name__ == "__main__":
    main()
