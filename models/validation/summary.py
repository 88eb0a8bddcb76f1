"""In-sample and out-of-sample error summaries of a validation run (one function for the CLI, the GUI and the
report)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from models.validation.runner import CaseOutcome

PERFORMANCE_SECTIONS = ("performance", "relation", "cloud")
"""The sections the summaries cover: the performance model's cases. Capacity checks are arithmetic on stated
configurations (their in-sample marks are inputs or catalog constants read from the same number) and would only
dilute the latency model's figures."""


@dataclass(frozen=True)
class SampleStats:
    """Relative errors of a set of checks: count, median and worst (fractions, 0.05 = 5%).

    ``n`` counts the checks with a number; ``unpredicted`` those whose prediction is missing (no number).
    Bounds and ranges count their distance outside the accepted interval (0 inside); expectations are left out.
    """

    n: int
    median: float | None
    worst: float | None
    unpredicted: int = 0

    @classmethod
    def of(cls, misses: Iterable[float | None]) -> SampleStats:
        """Statistics of relative misses (None = no prediction)."""
        values = list(misses)
        nums = [m for m in values if m is not None]
        return cls(len(nums), statistics.median(nums) if nums else None, max(nums) if nums else None,
                   len(values) - len(nums))

    def line(self, label: str) -> str:
        """``<label>: N checks, median error X%, worst Y%`` (``n/a`` without checks)."""
        med = f"{self.median * 100:.1f}%" if self.median is not None else "n/a"
        worst = f"{self.worst * 100:.1f}%" if self.worst is not None else "n/a"
        text = f"{label}: {self.n} checks, median error {med}, worst {worst}"
        return text + (f" ({self.unpredicted} without a prediction)" if self.unpredicted else "")


@dataclass(frozen=True)
class ErrorSummary:
    """In-sample errors (checks whose number a fit or constant used), their out-of-sample (leave-one-out)
    errors, and the errors of the never-fitted predictions, over the performance sections."""

    in_sample: SampleStats
    out_of_sample: SampleStats
    predictions: SampleStats
    not_cross_validated: int

    def lines(self) -> tuple[str, str]:
        """The two summary lines: ``in-sample: ...`` and ``out-of-sample: ...``."""
        return self.in_sample.line("in-sample"), self.out_of_sample.line("out-of-sample")


def error_summary(outcomes: Iterable[CaseOutcome], sections: tuple[str, ...] = PERFORMANCE_SECTIONS) -> ErrorSummary:
    """Summarise a validation run (:func:`models.validation.run_validation`) over ``sections``.

    In-sample: every in-sample check with a number, at its fitted prediction. Out-of-sample: the in-sample checks
    that carry a leave-one-out prediction, at that prediction (in-sample checks set by catalog constants or inputs
    are not refitted and are counted in ``not_cross_validated``). Predictions: the checks never fitted.
    """
    checks = [c for o in outcomes if o.section in sections for c in o.checks if c.kind != "expect"]
    fitted = [c for c in checks if c.in_sample]
    held = [c for c in fitted if c.out_of_sample is not None]
    return ErrorSummary(
        SampleStats.of(c.miss() for c in fitted),
        SampleStats.of(c.miss(c.out_of_sample) for c in held),
        SampleStats.of(c.miss() for c in checks if not c.in_sample),
        len(fitted) - len(held),
    )
