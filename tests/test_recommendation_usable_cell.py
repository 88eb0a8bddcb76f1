"""The Recommendation table's Usable cell keeps a figure with its unit: the AFF A90 example's third-ranked AFF C800
read "1,113.93" on one line and "TiB" on the next (REVIEW43-PDF #2); the column is wider and the space between
the figure and its unit does not break."""

from __future__ import annotations

import io

from pypdf import PdfReader

from app.report import render_report_bytes
from models.resources import examples_dir
from models.sizing import size
from models.store import load_any


def test_a_four_digit_usable_capacity_stays_on_one_line():
    project = load_any(examples_dir() / "aff-a90-oracle-nvmefc64.toml")
    sizing = size(project, top=5)
    largest = max(sizing.candidates[:5], key=lambda c: c.usable_bytes)
    assert largest.usable_bytes >= 1000 * 2**40  # a four-digit TiB figure, the widest the column has to hold
    data = render_report_bytes(project, sizing=sizing, validation=[])
    page = next(t for t in (p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages)
                if "Recommendation" in t and "Bound by" in t)
    figure = f"{largest.usable_bytes / 2**40:,.2f}"
    assert figure in page
    assert f"{figure} TiB" in page.replace("\u00a0", " ")  # on one line: no line break between figure and unit
