"""The report's lines on the capacity band: effective capacity and months until full at the P10 / P90
data-reduction ratio, the break-even ratio, and each workload's ratio band with the source of its spread, each
source cited once under the table (``models.present.capacity_band`` words them; ``models.capacity.reduction_band``
gives the rules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.report.source_notes import SourceNotes
from models.present.capacity_band import band_lines, band_rows

NOTES_ABOVE_ROWS = 10
"""A band table of more rows than this (it runs over pages: a large project's 200 workloads fill 13) has its
numbered source above it, kept with its first rows, instead of under its last row."""


def band_story(report: Any, helpers: tuple[Callable, Callable, Callable]) -> list:
    """The flowables for the capacity section of ``report`` (an ``app.report.document`` story builder: its
    evaluation, styles, unit and width); empty when the evaluation has no band. ``helpers``: the document's
    (escape, paragraph, table) functions, passed in so that this module does not import the document."""
    _e, _para, _table = helpers
    band = report.evaluation.capacity_band
    if band is None:
        return []
    s = report.s
    story: list = [_para("Data-reduction band", s.h2)]
    story += [report.p(_e(line), s.small) for line in band_lines(band, report.unit)]
    w = report.width
    rows: list[list[str]] = [["Workload", "Type", "Published P10 / P50 / P90", "Applied P10", "P50", "P90",
                               "Why the applied figures differ from the published; source of the published figures"]]
    cited = SourceNotes()  # the published source once (under the table, above a long one), not in each row
    rows += [[_e(cell) for cell in (*row[:6], f"{row[6]} Source: {cited.marker(row[7])}.")]
             for row in band_rows(band)]
    table = _table(rows, [w * 0.14, w * 0.10, w * 0.12, w * 0.09, w * 0.07, w * 0.07, w * 0.41], s,
                   small_cols=(1, 2, 6))
    notes = (s.tiny.fontName, s.tiny.fontSize, s.tiny.leading, s.tiny.textColor)
    if len(rows) - 1 > NOTES_ABOVE_ROWS:  # a table over pages: its source where the reader meets "[1]"
        story += cited.above(table, report.p(_e("Source cited by number in the table below:"), s.small), *notes)
    else:
        story += cited.under(table, *notes)
    story.append(report.p(_e(" ".join(band.notes)), s.small))
    return story
