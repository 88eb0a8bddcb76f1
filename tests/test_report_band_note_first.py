"""The data-reduction band table of a large report has its source where the reader meets it (STOP41 "Left": a
1,000 x 200 report printed its one source note after row 200, 13 pages after the first "Source: [1]").

A table of more rows than ``app.report.capacity_band.NOTES_ABOVE_ROWS`` (here 30 workloads over three pages) has
its numbered source above it, on the page of its first rows; a short table keeps it underneath. Read with pypdf.
"""

from __future__ import annotations

import io

from pypdf import PdfReader
from scale_project import large_project

from app.report import render_report_bytes
from models.evaluate import evaluate


def _pages(project) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(render_report_bytes(project, validation=[]))).pages]


def test_a_band_table_over_pages_has_its_source_above_its_first_rows():
    project = large_project(40, 30)
    band = evaluate(project).capacity_band
    source = band.workloads[0].distribution.source
    assert len(band.workloads) == 30 and {w.distribution.source for w in band.workloads} == {source}
    pages = _pages(project)
    citing = [n for n, text in enumerate(pages) if "Source: [1]." in text]
    assert len(citing) >= 2  # the table runs over pages
    first = pages[citing[0]]
    note = first.index("[1] " + source[:40])
    assert note < first.index("Source: [1].")  # the source before the first row that cites it
    assert "Source cited by number in the table below:" in first[:note]
    assert not any(f"[1] {source[:40]}" in text for text in pages[citing[0] + 1:citing[-1] + 2])


def test_a_short_band_table_keeps_its_source_underneath():
    project = large_project(40, 3)
    pages = _pages(project)
    (page,) = [text for text in pages if "Source: [1]." in text]
    assert page.rindex("Source: [1].") < page.index("\n[1] ")
    assert "Source cited by number" not in page
