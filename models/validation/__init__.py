"""Published-vs-predicted validation of the engines against the seeds' numbers."""

from .checks import CaseFunction, Check
from .labels import quantity_label
from .runner import RAMP_SECTIONS, CaseOutcome, published_cases, run_ramps, run_validation, stored_cross_validation
from .summary import ErrorSummary, SampleStats, error_summary

__all__ = ["RAMP_SECTIONS", "CaseFunction", "CaseOutcome", "Check", "ErrorSummary", "SampleStats", "error_summary", "published_cases",
           "quantity_label", "run_ramps", "run_validation", "stored_cross_validation"]
