"""Published-vs-predicted validation of the engines against the seeds' numbers."""

from .checks import CaseFunction, Check
from .labels import quantity_label
from .runner import CaseOutcome, published_cases, run_validation

__all__ = ["CaseFunction", "CaseOutcome", "Check", "published_cases", "quantity_label", "run_validation"]
