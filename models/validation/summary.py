"""In-sample and out-of-sample error summaries of a validation run, and its headline (:func:`headline`): every
check counted once in its category with passed / total, the prediction summaries held to their targets, every
failing check named and the exit status (one place for the CLI and the GUI)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from models.validation.cases import RAMP_SECTIONS
from models.validation.checks import ARITHMETIC, IN_SAMPLE, PREDICTION, YES_NO, Check
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


# ------------------------------------------------------------------------------------------------- the headline

TARGETS: dict[str, float] = {"saturation": 0.20, "latency": 0.30}
"""StorPlan's accuracy targets for predictions (out-of-sample and never fitted): the median relative error of a
summary at most 20% on saturation (throughput, IOPS, MB/s and their ratios) and 30% on latency (latencies, latency
ratios, the ramps' curve shapes), at the published load levels."""

QuantityClass = Literal["saturation", "latency", "other"]

OUT_OF_SAMPLE = "out-of-sample"
"""The headline's name for the leave-one-out predictions of in-sample checks (not a check category of its own: the
same published number, predicted with the case or ramp left out of the calibration)."""

CATEGORY_TITLES: dict[str, str] = {
    IN_SAMPLE: "in-sample (a fitted, chosen or input value set from the check's own number)",
    ARITHMETIC: "definitional arithmetic (follows from the stated configuration by definition)",
    YES_NO: "yes / no",
    OUT_OF_SAMPLE: "out-of-sample (leave-one-out: the case or ramp left out of the calibration)",
    PREDICTION: "never-fitted predictions",
}
"""Each headline count's title, in the order printed."""

GROUPS = ("published cases", "measured ramps")


def quantity_class(quantity: str) -> QuantityClass:
    """Which target a check's quantity is held to: "latency" (a latency, a latency ratio, a host increment, a ramp's
    curve shape ``knee_ratio``), "saturation" (IOPS, MB/s, operations per second and their ratios), else "other"
    (capacities, CPU): no summary target, each such check must pass its own tolerance."""
    q = quantity.lower()
    if "latency" in q or "increment" in q or q.startswith("knee_ratio"):
        return "latency"
    if any(token in q for token in ("iops", "mbps", "ops_per_sec")):
        return "saturation"
    return "other"


def group_of(section: str) -> str:
    """"measured ramps" for a ramp section (:data:`RAMP_SECTIONS`), else "published cases"."""
    return GROUPS[1] if section in RAMP_SECTIONS else GROUPS[0]


def _name(check: Check, value: float | None = None) -> str:
    x = check.predicted if value is None else value
    if check.kind == "expect":
        found = "no"
    elif not math.isfinite(x):
        found = "no prediction"
    elif check.published:
        found = f"{(x - check.published) / abs(check.published) * 100:+.1f}%"
    else:
        found = f"{x:g}"
    return f"{check.case_id} {check.quantity} ({found})"


SATURATION_READ_AS_VALUE = frozenset({"saturation_ops_per_sec"})
"""Bound checks whose published number is read as the saturation itself in the summaries: a measured ramp's 100%
level is the highest load that passed the benchmark's rules, which the ramps' shape checks read as saturation, so
a prediction 60% above it is a 60% error there (the check itself stays a lower bound)."""


def target_miss(check: Check, value: float) -> float | None:
    """The miss a summary counts for ``value`` (a prediction in the check's unit): :meth:`Check.miss` (the distance
    outside a bound or range, 0 inside), except for :data:`SATURATION_READ_AS_VALUE`, whose full relative error
    counts; None when ``value`` is not finite."""
    if check.quantity in SATURATION_READ_AS_VALUE:
        if not math.isfinite(value) or not check.published:
            return None
        return abs(value - check.published) / abs(check.published)
    return check.miss(value)


@dataclass(frozen=True)
class CategoryCount:
    """One headline count: ``passed`` of ``total`` checks of a category pass; ``failing`` names every one that does
    not (``case quantity (error)``, "no prediction" when the engine gave no number)."""

    category: str
    passed: int
    total: int
    failing: tuple[str, ...]

    def line(self) -> str:
        """``<title>: P of T pass``."""
        return f"{CATEGORY_TITLES[self.category]}: {self.passed} of {self.total} pass"


@dataclass(frozen=True)
class TargetLine:
    """A prediction summary held to its target: the median miss (:meth:`Check.miss`, a missing prediction counted
    as an unbounded miss) of the ``basis`` predictions ("out-of-sample" or "prediction") of one group and quantity
    class."""

    basis: str
    group: str
    quantity_class: str
    misses: tuple[float, ...]
    target: float

    @property
    def median(self) -> float:
        """Median miss (a fraction; inf when more than half have no prediction)."""
        return statistics.median(self.misses)

    @property
    def met(self) -> bool:
        """True when the median miss is at most the target."""
        return self.median <= self.target + 1e-12

    def line(self) -> str:
        """``  <basis> <group> <class>: N points, median error X% (target at most T%): met|MISSED``."""
        missing = sum(1 for m in self.misses if not math.isfinite(m))
        med = f"{self.median * 100:.1f}%" if math.isfinite(self.median) else "unbounded"
        basis = "never-fitted" if self.basis == PREDICTION else self.basis
        n = len(self.misses)
        counted = "a miss" if missing == 1 else "misses"
        return (f"  {basis} {self.group} {self.quantity_class}: {n} point{'s' if n != 1 else ''}, median error {med}"
                + (f" ({missing} without a prediction, counted as {counted})" if missing else "")
                + f" (target at most {self.target:.0%}): {'met' if self.met else 'MISSED'}")


@dataclass(frozen=True)
class Headline:
    """``storplan validate``'s closing count: every check once in its category, the leave-one-out predictions of
    the in-sample checks, the prediction summaries held to :data:`TARGETS`, and the cases that could not run.

    Exit status 1 when a case could not run, an in-sample, arithmetic or yes / no check fails, a prediction
    summary misses its target, or a prediction without a target (capacity, CPU) fails its own tolerance.
    """

    counts: tuple[CategoryCount, ...]
    targets: tuple[TargetLine, ...]
    not_run: tuple[str, ...]
    not_cross_validated: int
    untargeted_failing: tuple[str, ...]

    def count(self, category: str) -> CategoryCount:
        """The count of one category (a :data:`CATEGORIES` name or :data:`OUT_OF_SAMPLE`). Raises KeyError."""
        for c in self.counts:
            if c.category == category:
                return c
        raise KeyError(category)

    @property
    def reasons(self) -> list[str]:
        """Why the exit status is 1, in words (empty when it is 0)."""
        why = [f"{len(self.not_run)} case{'s' if len(self.not_run) != 1 else ''} could not run"] if self.not_run else []
        for category in (IN_SAMPLE, ARITHMETIC, YES_NO):
            n = len(self.count(category).failing)
            if n:
                why.append(f"{n} {category} check{'s' if n != 1 else ''} fail{'s' if n == 1 else ''}")
        missed = sum(not t.met for t in self.targets)
        if missed:
            why.append(f"{missed} prediction summar{'ies miss their' if missed != 1 else 'y misses its'} target")
        if self.untargeted_failing:
            n = len(self.untargeted_failing)
            why.append(f"{n} prediction{'s' if n != 1 else ''} without a summary target fail{'s' if n == 1 else ''}")
        return why

    def verdict(self) -> str:
        """The reasons joined (``2 in-sample checks fail; 1 prediction summary misses its target``), or "every count
        holds" when there are none."""
        return "; ".join(self.reasons) or "every count holds"

    @property
    def exit_status(self) -> int:
        """1 when any :attr:`reasons`, else 0."""
        return 1 if self.reasons else 0

    def failing_lines(self) -> list[str]:
        """One line per failing check, by category (``FAIL <category>: <case> <quantity> (<error>)``), and one per
        case that could not run; every failing check is named, none is left out."""
        lines = [f"FAIL not run: {text}" for text in self.not_run]
        for c in self.counts:
            lines.extend(f"FAIL {c.category}: {name}" for name in c.failing)
        return lines

    def lines(self, out_of_sample_extra: Sequence[str] = ()) -> list[str]:
        """The headline's lines, built in one place: each category's count (passed of total), the out-of-sample
        and never-fitted summaries under their counts with their targets (``out_of_sample_extra``: further lines
        printed among the out-of-sample ones, e.g. a band coverage), then the verdict with the exit status."""
        out = ["headline: every check counted once, in its category (published cases and measured ramps together):"]
        for c in self.counts:
            line = c.line()
            if c.category == OUT_OF_SAMPLE and self.not_cross_validated:
                line += (f" ({self.not_cross_validated} in-sample checks have no leave-one-out prediction: they "
                         "check published constants, inputs or read-off values that no calibration fits, so leaving "
                         "their case out changes nothing)")
            out.append(line)
            if c.category in (OUT_OF_SAMPLE, PREDICTION):
                out.extend(t.line() for t in self.targets if t.basis == c.category)
            if c.category == OUT_OF_SAMPLE:
                out.extend(out_of_sample_extra)
        reasons = self.reasons
        out.append("verdict: exit status " + (f"1 ({'; '.join(reasons)})" if reasons else "0 (every count holds)"))
        return out


def headline(outcomes: Iterable[CaseOutcome]) -> Headline:
    """The headline of a validation run: ``outcomes`` of :func:`models.validation.run_validation` and
    :func:`models.validation.run_ramps` together (each check is counted once, in :attr:`Check.category`; an
    in-sample check with a leave-one-out prediction is counted again under :data:`OUT_OF_SAMPLE`, judged at the
    same tolerance)."""
    outcomes = list(outcomes)
    pairs = [(o.section, c) for o in outcomes for c in o.checks]
    counts = []
    for category in (IN_SAMPLE, ARITHMETIC, YES_NO):
        members = [c for _, c in pairs if c.category == category]
        counts.append(CategoryCount(category, sum(c.passed for c in members), len(members),
                                    tuple(_name(c) for c in members if not c.passed)))
    held = [c for _, c in pairs if c.category == IN_SAMPLE and c.kind != "expect" and c.out_of_sample is not None]
    counts.append(CategoryCount(OUT_OF_SAMPLE, sum(bool(c.out_of_sample_passed) for c in held), len(held),
                                tuple(_name(c, c.out_of_sample) for c in held if not c.out_of_sample_passed)))
    predictions = [c for _, c in pairs if c.category == PREDICTION]
    counts.append(CategoryCount(PREDICTION, sum(c.passed for c in predictions), len(predictions),
                                tuple(_name(c) for c in predictions if not c.passed)))
    targets = []
    for basis in (OUT_OF_SAMPLE, PREDICTION):
        for group in GROUPS:
            for klass, target in TARGETS.items():
                misses = []
                for section, c in pairs:
                    if group_of(section) != group or quantity_class(c.quantity) != klass or c.kind == "expect":
                        continue
                    if basis == OUT_OF_SAMPLE and c.category == IN_SAMPLE and c.out_of_sample is not None:
                        miss = target_miss(c, c.out_of_sample)
                    elif basis == PREDICTION and c.category == PREDICTION:
                        miss = target_miss(c, c.predicted)
                    else:
                        continue
                    misses.append(math.inf if miss is None else miss)
                if misses:
                    targets.append(TargetLine(basis, group, klass, tuple(misses), target))
    untargeted = tuple(_name(c) for c in predictions if quantity_class(c.quantity) == "other" and not c.passed)
    in_sample_numeric = [c for _, c in pairs if c.category == IN_SAMPLE and c.kind != "expect"]
    return Headline(tuple(counts), tuple(targets), tuple(f"{o.case_id}: {o.error}" for o in outcomes if o.error),
                    len(in_sample_numeric) - len(held), untargeted)
