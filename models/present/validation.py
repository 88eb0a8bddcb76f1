"""How a validation check reads: the published value, the prediction, the error, the tolerance and the rule.

``models.validation`` compares predictions with published measurements; this module words the outcome for the
GUI's Validation tab and the report's "Model validation" section, so both print the same cells. The error has the
form ``storplan validate`` prints (``+16.7%``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from models.formatting import NOT_AVAILABLE, finite, fmt_number, fmt_pct, fmt_signed_pct
from models.validation.labels import quantity_label

if TYPE_CHECKING:
    from models.validation.checks import Check

__all__ = ["category_text", "error_text", "headline_lines", "predicted_text", "published_text", "quantity_label",
           "rule_text", "summary_text", "tolerance_text"]


def published_text(check: Check) -> str:
    """The published value as the check reads it: ``25.5``, a bound ``≤ 300,000`` / ``≥ 1``, a range
    ``1.2 – 1.5``, or ``expected`` for an expectation. ``check``: a ``models.validation.Check``."""
    kind = check.kind
    if kind == "upper_bound":
        return f"\u2264 {fmt_number(check.published)}"
    if kind == "lower_bound":
        return f"\u2265 {fmt_number(check.published)}"
    if kind == "range":
        high = check.published_high if check.published_high is not None else check.published
        return f"{fmt_number(check.published)} \u2013 {fmt_number(high)}"
    if kind == "expect":
        return "expected"
    return fmt_number(check.published)


def predicted_text(check: Check) -> str:
    """The prediction: a number, or for an expectation whether it held (``yes`` / ``no``)."""
    if check.kind == "expect":
        return "yes" if check.passed else "no"
    return fmt_number(check.predicted)


def error_text(check: Check) -> str:
    """The signed relative error where the check compares values (``+16.7%``, ``-10.4%``, as
    ``storplan validate`` prints it; ``0.0%`` when it rounds to zero); for a range or an expectation, what was
    found (``in range``, ``as expected``...); ``n/a`` when there is no error to show."""
    if check.kind == "range":
        return "in range" if check.passed else "out of range"
    if check.kind == "expect":
        return "as expected" if check.passed else "not as expected"
    if not finite(check.error):
        return NOT_AVAILABLE
    return fmt_signed_pct(check.error * 100)


def tolerance_text(check: Check) -> str:
    """The tolerance as a cell: ``±10%`` around a value or range, ``+5%`` over an upper bound, ``−5%`` under a
    lower bound, ``0%`` for an exact bound, ``—`` for an expectation."""
    tol = check.tolerance * 100 if finite(check.tolerance) else None
    if check.kind == "expect":
        return "\u2014"
    if check.kind in ("upper_bound", "lower_bound"):
        if not tol:
            return "0%"
        return fmt_pct(tol, signed=True) if check.kind == "upper_bound" else fmt_pct(-tol)
    return f"\u00b1{fmt_pct(tol)}" if tol is not None else NOT_AVAILABLE


def rule_text(check: Check) -> str:
    """When the check passes, in words: ``within ±2% of the published value``, ``at most the published value``; a
    tolerance to three significant digits (a latency's ±38.3%, not ±38.3333%; 0.25% stays 0.25%)."""
    tol = check.tolerance * 100 if finite(check.tolerance) else 0.0
    pct = f"{tol:.3g}%"
    if check.kind == "upper_bound":
        return "at most the published value" + (f" + {pct}" if tol else "")
    if check.kind == "lower_bound":
        return "at least the published value" + (f" \u2212 {pct}" if tol else "")
    if check.kind == "range":
        return "inside the published range" + (f", widened by \u00b1{pct}" if tol else "")
    if check.kind == "expect":
        return "the case's condition holds"
    return f"within \u00b1{pct} of the published value"


CATEGORY_WORDS = {"in-sample": "In-sample", "arithmetic": "Definitional arithmetic", "yes / no": "Yes / no",
                  "prediction": "Prediction (never fitted)"}
"""A check's category (``Check.category``) as a heading in the details and the report."""


def category_text(check: Check) -> str:
    """The check's category in words: ``In-sample``, ``Definitional arithmetic``, ``Yes / no`` or ``Prediction
    (never fitted)``."""
    return CATEGORY_WORDS.get(check.category, check.category)


def summary_text(outcomes: Sequence) -> str:
    """The command line's summary of ``CaseOutcome`` records: ``85 of 85 checks pass; 26 of 26 cases pass``."""
    checks = [check for outcome in outcomes for check in outcome.checks]
    passed_checks = sum(bool(check.passed) for check in checks)
    passed_cases = sum(bool(outcome.passed) for outcome in outcomes)
    return f"{passed_checks} of {len(checks)} checks pass; {passed_cases} of {len(outcomes)} cases pass"


def headline_lines(outcomes: Sequence) -> list[str]:
    """The validation headline as the report's "Model validation" section and the workbook's "Validation summary"
    sheet give it: each category's count (passed of total), the out-of-sample and never-fitted summaries with
    their targets and the band coverage (``models.validation.headline_extras.full_headline``; the bundled outcomes
    carry those extras), categories without a check left out, then one "Overall:" line.

    Args:
        outcomes: ``CaseOutcome`` records (``app.report.validation_outcomes``: the published cases and the
            measured ramps).
    """
    from models.validation.headline_extras import full_headline

    head, extra_lines = full_headline(outcomes)
    empty = tuple(c.line() for c in head.counts if not c.total)  # "0 of 0 pass" says nothing: left out
    lines = [line for line in head.lines(out_of_sample_extra=extra_lines)
             if not line.startswith(("headline:", "verdict:", *empty))]
    reasons = head.reasons
    lines.append("Overall: " + ("; ".join(reasons) if reasons else "every count holds and every summary meets its "
                                "target") + ".")
    return lines
