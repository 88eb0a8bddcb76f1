"""Published-vs-predicted checks: the records that ``storplan validate`` prints and the report summarises."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from models.catalog import Catalog

CheckKind = Literal["value", "upper_bound", "lower_bound", "range", "expect"]


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

    @property
    def error(self) -> float:
        """Relative error (predicted - published) / published; 0 when published is 0 and predicted too."""
        if self.published == 0:
            return 0.0 if self.predicted == 0 else math.copysign(1.0, self.predicted)
        return (self.predicted - self.published) / abs(self.published)

    @property
    def passed(self) -> bool:
        """True when the prediction is within the case's tolerance or bound."""
        if not math.isfinite(self.predicted):
            return False
        if self.kind == "expect":
            return bool(self.expect_passed)
        if self.kind == "upper_bound":
            return self.predicted <= self.published * (1 + self.tolerance) + 1e-12
        if self.kind == "lower_bound":
            return self.predicted >= self.published * (1 - self.tolerance) - 1e-12
        if self.kind == "range":
            high = self.published_high if self.published_high is not None else self.published
            return self.published * (1 - self.tolerance) <= self.predicted <= high * (1 + self.tolerance)
        return abs(self.error) <= self.tolerance + 1e-12


CaseFunction = Callable[[Catalog, dict[str, Any]], list[Check]]
"""A case function: (catalog, the case's table from published.toml) -> its checks."""
