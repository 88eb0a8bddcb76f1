"""Compare the hardware relation's sources of software costs (models.performance.hardware_relation.RELATION_SOURCE):
"nearest" (the median per-core cost of the nearest fitted release), "pooled" (every field from the pooled weighted
least-squares fit, models.performance.pooled_fit) and "nearest-or-pooled" (the default), on what none of them saw.

Prints, for each source: leave-one-platform-out (each calibrated platform's own profiles removed, its published
points predicted from the others: medians of |error| on saturation and latency, per check), the never-fitted
measured ramps (the FAS3140 SPEC SFS 2008 ramp), and the platform ladders (holding steps). Run:

    uv run python benchmarks/bench_pooled_fit.py [--no-ladders]
"""

from __future__ import annotations

import math
import statistics
import sys

from models.catalog import bundled_catalog
from models.performance.hardware_relation import RELATION_SOURCE
from models.performance.pooled_fit import pooled_software
from models.validation.cases import RAMP_SECTIONS
from models.validation.ladders import run_ladders
from models.validation.platform_holdout import platform_holdout
from models.validation.runner import run_validation


def _median_abs(values: list[float]) -> str:
    """``median |x|`` as a percentage, or "-"."""
    return f"{statistics.median(abs(v) for v in values):.1%}" if values else "-"


def report(source: str, ladders: bool) -> None:
    """Print one source's numbers (module docstring)."""
    token = RELATION_SOURCE.set(source)
    try:
        catalog = bundled_catalog()
        print(f"== relation source: {source}")
        checks = platform_holdout(catalog)
        for c in checks:
            print(f"  LOPO {c.platform:26s} {c.case_id:36s} {c.quantity:28s} published {c.published:10.4g} "
                  f"held out {c.held_out:10.4g} error {c.error:+.1%}")
        for group in ("saturation", "latency"):
            errs = [c.error for c in checks if c.group == group]
            print(f"  platforms left out {group}: {len(errs)} checks, median |error| {_median_abs(errs)}")
        never: list[float] = []
        missing = 0
        for outcome in run_validation(catalog, sections=RAMP_SECTIONS, cross_validation=None):
            for chk in outcome.checks:
                if chk.fitted_by or "latency_ms" not in chk.quantity:
                    continue
                if math.isfinite(chk.predicted) and chk.published:
                    never.append(chk.predicted / chk.published - 1)
                    print(f"  never fitted {outcome.case_id} {chk.quantity}: published {chk.published:g} "
                          f"predicted {chk.predicted:.4g} ({never[-1]:+.1%})")
                else:
                    missing += 1
        print(f"  never-fitted ramp latency: {len(never)} points with a prediction, median |error| "
              f"{_median_abs(never)} ({missing} without a prediction)")
        if ladders:
            run = run_ladders(catalog)
            print(f"  platform ladders: {len(run.checks)} checks, {run.holding} hold")
            for lc in run.checks:
                if not lc.holds:
                    print(f"    fails: {lc.step.smaller} < {lc.step.larger} {lc.workload} {lc.protocol}: {lc.why}")
    finally:
        RELATION_SOURCE.reset(token)


def main() -> None:
    """The three sources, then the pooled fit's parameters."""
    ladders = "--no-ladders" not in sys.argv
    for source in ("nearest", "pooled", "nearest-or-pooled"):
        report(source, ladders)
    fitted = pooled_software(bundled_catalog(), "ONTAP")
    if fitted is not None:
        print(f"== pooled ONTAP fit: CPU time per operation {1 - math.exp(-fitted.trend):.1%} less per half-year "
              f"of release, positions "
              f"{fitted.span}, weighted RMS {fitted.rms:.3f} (log)")
        for (proto, name), value in sorted(fitted.cpu.items()):
            print(f"  {proto} {name} per core at 9.0: {value:.4g} us")
        for (proto, name), value in sorted(fitted.other.items()):
            print(f"  {proto} {name}: {value:.4g}")


if __name__ == "__main__":
    main()
