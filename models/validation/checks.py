"""Published-vs-predicted checks: the records that ``storplan validate`` prints and the report summarises."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from models.catalog import Catalog

CheckKind = Literal["value", "upper_bound", "lower_bound", "range", "expect"]

Category = Literal["in-sample", "arithmetic", "yes / no", "prediction"]
"""What a check tests, by how its predicted number was obtained (:attr:`Check.category`)."""

IN_SAMPLE: Category = "in-sample"
ARITHMETIC: Category = "arithmetic"
YES_NO: Category = "yes / no"
PREDICTION: Category = "prediction"
CATEGORIES: tuple[Category, ...] = (IN_SAMPLE, ARITHMETIC, YES_NO, PREDICTION)
"""Every category, in the order ``storplan validate`` counts them."""


@dataclass(frozen=True)
class Check:
    """One quantity of one published case compared with StorPlan's prediction.

    Attributes:
        case_id: the ``id`` of the case in published.toml.
        quantity: what is compared, with its unit in the name (e.g. ``usable_tib``, ``peak_iops``).
        published: the seed's number (for ``range``, the lower end; ``published_high`` holds the upper).
        predicted: StorPlan's number in the same unit.
        tolerance: relative tolerance (0.02 = +-2%) for ``value``; ignored for bounds.
        kind: ``value`` (|error| <= tolerance), ``upper_bound`` (predicted <= published x (1 + tolerance)),
            ``lower_bound`` (predicted >= published x (1 - tolerance)), ``range`` (published <= predicted <=
            published_high, widened by tolerance), ``expect`` (``passed`` given by the case function).
        interpretation: how the seed was read where it is loose or ambiguous (printed by validate and the report).
        seed: the seed file and section.
        fitted_by: empty for a prediction; otherwise what used this published number to set a parameter, which
            makes the check in-sample: the calibration fit that uses it (set by
            :func:`models.validation.runner.run_validation` from the fits' observations), or, set by the case
            function, the catalog constant or case input taken from the same number.
        out_of_sample: the prediction of leave-one-out cross-validation (the case's observations left out of
            the calibration, the profiles refitted), in the unit of ``predicted``; None when not cross-validated.
        out_of_sample_note: how that prediction was made (what was left out, which profiles had no data left
            and what the engine used instead).
        arithmetic: empty unless the predicted number follows from the case's stated configuration by definition
            (drive count x drive size, a sum of the seed's own sizes, a protection policy's factor, a result that
            holds by the model's construction); then why, which makes the check definitional arithmetic rather
            than a prediction.
    """

    case_id: str
    quantity: str
    published: float
    predicted: float
    tolerance: float
    kind: CheckKind = "value"
    published_high: float | None = None
    interpretation: str = ""
    seed: str = ""
    expect_passed: bool | None = None
    fitted_by: str = ""
    out_of_sample: float | None = None
    out_of_sample_note: str = ""
    arithmetic: str = ""

    @property
    def in_sample(self) -> bool:
        """True when the published number was used to set a parameter (see ``fitted_by``)."""
        return bool(self.fitted_by)

    @property
    def category(self) -> Category:
        """What the check tests: "in-sample" when a fitted, chosen or input value was set from its own published
        number (``fitted_by``); else "yes / no" for an expectation; else "arithmetic" when the number follows by
        definition (``arithmetic``); else "prediction" (never fitted)."""
        if self.fitted_by:
            return IN_SAMPLE
        if self.kind == "expect":
            return YES_NO
        if self.arithmetic:
            return ARITHMETIC
        return PREDICTION

    @property
    def sample_mark(self) -> str:
        """The check's category as its Basis cell reads: "in-sample", "arithmetic", "yes / no" or "prediction"."""
        return self.category

    def miss(self, predicted: float | None = None) -> float | None:
        """How far a prediction (default: ``predicted``) is from the published number, relative, >= 0.

        ``value``: |error|; ``upper_bound`` / ``lower_bound``: the relative excess beyond the bound (0 inside);
        ``range``: the relative distance outside [published, published_high] (0 inside); ``expect``: None (no
        number). None too when the prediction is not finite.
        """
        x = self.predicted if predicted is None else predicted
        if self.kind == "expect" or x is None or not math.isfinite(x):
            return None
        pub = abs(self.published) or 1.0
        if self.kind == "upper_bound":
            return max(0.0, (x - self.published) / pub)
        if self.kind == "lower_bound":
            return max(0.0, (self.published - x) / pub)
        if self.kind == "range":
            high = self.published_high if self.published_high is not None else self.published
            if x < self.published:
                return (self.published - x) / pub
            return max(0.0, (x - high) / (abs(high) or 1.0))
        return abs(x - self.published) / pub

    @property
    def out_of_sample_error(self) -> float | None:
        """Relative error of the out-of-sample prediction (signed, like ``error``); None when there is none."""
        if self.out_of_sample is None or not math.isfinite(self.out_of_sample):
            return None
        if self.published == 0:
            return 0.0 if self.out_of_sample == 0 else math.copysign(1.0, self.out_of_sample)
        return (self.out_of_sample - self.published) / abs(self.published)

    @property
    def error(self) -> float:
        """Relative error (predicted - published) / published; 0 when published is 0 and predicted too."""
        if self.published == 0:
            return 0.0 if self.predicted == 0 else math.copysign(1.0, self.predicted)
        return (self.predicted - self.published) / abs(self.published)

    @property
    def passed(self) -> bool:
        """True when the prediction is within the case's tolerance or bound."""
        if self.kind == "expect":
            return bool(self.expect_passed) and math.isfinite(self.predicted)
        return self.passes(self.predicted)

    @property
    def out_of_sample_passed(self) -> bool | None:
        """Whether the leave-one-out prediction is within the same tolerance or bound; None without one."""
        return None if self.out_of_sample is None else self.passes(self.out_of_sample)

    def passes(self, x: float) -> bool:
        """True when ``x`` (a prediction in the unit of ``predicted``) is within the check's tolerance or bound;
        False when it is not finite. An expectation (no number) gives ``expect_passed``."""
        if not math.isfinite(x):
            return False
        if self.kind == "expect":
            return bool(self.expect_passed)
        if self.kind == "upper_bound":
            return x <= self.published * (1 + self.tolerance) + 1e-12
        if self.kind == "lower_bound":
            return x >= self.published * (1 - self.tolerance) - 1e-12
        if self.kind == "range":
            high = self.published_high if self.published_high is not None else self.published
            return self.published * (1 - self.tolerance) <= x <= high * (1 + self.tolerance)
        if self.published == 0:
            return x == 0 or self.tolerance + 1e-12 >= 1.0
        return abs(x - self.published) / abs(self.published) <= self.tolerance + 1e-12


CaseFunction = Callable[[Catalog, dict[str, Any]], list[Check]]
"""A case function: (catalog, the case's table from published.toml) -> its checks."""
