"""One line of a design's verdict (:class:`Verdict`) and its kinds, a leaf module: ``models.present.verdicts``
composes the lines (and re-exports these names), ``models.present.resilience`` writes failure states' lines with
them, and neither imports the other for it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CAUTION", "FAIL", "MARKS", "OPEN", "ORDER", "PASS", "Verdict"]

FAIL, PASS, CAUTION, OPEN = "fail", "pass", "caution", "open"
"""Verdict kinds, in the order a summary lists them."""
ORDER = (FAIL, PASS, CAUTION, OPEN)
MARKS = {FAIL: "\u2717", PASS: "\u2713", CAUTION: "\u26a0", OPEN: "\u2022"}
"""The sign a summary writes before each kind of verdict."""

@dataclass(frozen=True)
class Verdict:
    """One sentence of a design's verdict.

    Attributes:
        kind: ``fail`` (a requirement is not met), ``pass`` (met), ``caution`` (met, but with a warning) or
            ``open`` (no target set: what the design delivers).
        subject: what it is about: a system's or a workload's name ("" for the whole scenario).
        text: the sentence after the subject, plain text (views escape it).
        area: ``capacity``, ``performance`` or ``resilience``.
        lead: a workload's own verdict on its target (met, missed, or met with a caution: review 57's target the
            stated concurrency cannot offer), which a screen shows beside the others' verdicts even as a caution.
    """

    kind: str
    subject: str
    text: str
    area: str
    lead: bool = False

    @property
    def line(self) -> str:
        """``subject: text`` (just the text without a subject)."""
        return f"{self.subject}: {self.text}" if self.subject else self.text

    @property
    def mark(self) -> str:
        """The sign written before the line: ✗ ✓ ⚠ •."""
        return MARKS[self.kind]
