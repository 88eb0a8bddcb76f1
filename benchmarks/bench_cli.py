"""Command-line start-up: ``storplan --version`` against the interpreter's own start, and ``storplan evaluate
--json`` of the default example, as process wall times.

Run: ``uv run python benchmarks/bench_cli.py [--runs N]`` (default 15 rounds).

Each round runs, one after the other in fresh processes, ``python -c pass``, ``python -c "import <what --version
needs>"`` (the floor: the interpreter plus the standard-library modules ``app.cli`` imports to parse the command line,
printed below), ``storplan --version`` and ``storplan evaluate --json`` of the default example; the medians and the
median of the per-round ratios are printed (paired runs: a busy moment on this shared machine slows a whole round,
not one side of a ratio). Before the rounds one warm-up round writes the bytecode (an installed StorPlan has its
``.pyc`` files, compiled by the installer or bundled by PyInstaller) and the user's parsed-catalog cache: the
benchmark's own bytecode goes to a cache directory of its own (``PYTHONPYCACHEPREFIX``), never into the environment,
and its user folder (``STORPLAN_HOME``) is a temporary one. Targets (issue 27): ``--version`` <= 2x
the floor; ``evaluate --json`` <= 0.35 s wall.

The child CPU time (user + system, from ``resource.getrusage``) is printed beside the wall time: on a busy machine it
tells a change's effect better than the wall clock.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import resource
except ImportError:  # pragma: no cover - Windows: wall times only
    resource = None  # type: ignore[assignment]

VERSION_RATIO_TARGET = 2.0
"""``storplan --version`` at most this multiple of the floor (interpreter + the imports it needs)."""
EVALUATE_TARGET_S = 0.35
"""``storplan evaluate --json`` of the default example, process wall time."""
CLI_NEEDS = ("argparse", "json", "pathlib")
"""The standard-library modules ``app.cli`` imports at its top to parse any command line (``--version`` included)."""


def storplan_command() -> list[str]:
    """The ``storplan`` console script beside this interpreter, else the same entry point through ``-c``."""
    script = Path(sys.executable).parent / ("storplan.exe" if os.name == "nt" else "storplan")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())"]


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall s, child CPU s) of one run of ``command``, its output discarded.

    Raises:
        SystemExit: the command failed (its stderr's end is in the message).
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN) if resource else None
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wall = time.perf_counter() - start
    cpu = float("nan")
    if resource and before:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):  # evaluate exits 1 when a requirement is not met: still a full run
        raise SystemExit(f"bench_cli: {' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]!r}")
    return wall, cpu


def main(argv: list[str]) -> int:
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 15
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from app.gui.project_io import DEFAULT_EXAMPLE

    example = Path(DEFAULT_EXAMPLE).stem
    storplan = storplan_command()
    cache = tempfile.mkdtemp(prefix="storplan-bench-pyc-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    env["STORPLAN_HOME"] = str(Path(cache) / "home")  # a user of its own (the warm-up writes its catalog cache)
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "floor": [sys.executable, "-c", f"import {', '.join(CLI_NEEDS)}"],
        "storplan --version": [*storplan, "--version"],
        "storplan evaluate --json": [*storplan, "evaluate", "--json", example],
    }
    try:
        load = os.getloadavg()[0]
    except (OSError, AttributeError):  # pragma: no cover - not on every platform
        load = float("nan")
    print(f"{runs} paired rounds on {os.cpu_count()} cores (load average {load:.1f}), after one warm-up round "
          f"(bytecode written to a private cache); default example: {example}")
    print(f"floor = python -c \"import {', '.join(CLI_NEEDS)}\" (the interpreter and the imports --version needs)")
    try:
        for command in commands.values():  # warm-up: bytecode, file caches
            timed(command, env)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                wall, cpu = timed(command, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    for name in commands:
        print(f"  {name:26s} wall median {statistics.median(walls[name]) * 1000:6.1f} ms "
              f"(min {min(walls[name]) * 1000:6.1f}); CPU median {statistics.median(cpus[name]) * 1000:6.1f} ms")

    def ratio(name: str, base: str, of=walls) -> float:
        return statistics.median(a / b for a, b in zip(of[name], of[base]))

    version = "storplan --version"
    print(f"{version}: {ratio(version, 'floor'):.2f}x the floor (wall, median of paired ratios; "
          f"CPU {ratio(version, 'floor', cpus):.2f}x), {ratio(version, 'python -c pass'):.2f}x python -c pass; "
          f"target <= {VERSION_RATIO_TARGET}x the floor")
    print(f"storplan evaluate --json {example}: {statistics.median(walls['storplan evaluate --json']):.3f} s wall "
          f"median (CPU {statistics.median(cpus['storplan evaluate --json']):.3f} s); target <= {EVALUATE_TARGET_S} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
