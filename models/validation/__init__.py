"""Published-vs-predicted validation of the engines against the seeds' numbers."""

from models.validation.checks import CaseFunction, Check
from models.validation.labels import quantity_label
from models.validation.runner import (
           RAMP_SECTIONS,
           CaseOutcome,
           published_cases,
           run_ramps,
           run_validation,
           seed_outcomes,
           stored_cross_validation,
)
from models.validation.summary import ErrorSummary, SampleStats, error_summary

__all__ = ["RAMP_SECTIONS", "CaseFunction", "CaseOutcome", "Check", "ErrorSummary", "SampleStats", "error_summary",
           "published_cases", "quantity_label", "run_ramps", "run_validation", "seed_outcomes",
           "stored_cross_validation"]
