"""A runway line rising above the chart's 150% top ends where it leaves, with an arrow there; it was clipped flat
at 150%, so the DR copy of the aff-a70-snapmirror-cvo-dr example read as a use that stopped growing from month 37
to 60 (REVIEW43-PDF #3)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Polygon

from app.report import render_report_bytes
from app.report.fonts import register_fonts
from app.report.graphics import RUNWAY_TOP_PCT, runway_chart, runway_leaves_top
from models.resources import examples_dir
from models.store import load_any


@pytest.fixture(autouse=True)
def _fonts():
    register_fonts()


def test_a_line_above_the_top_ends_where_it_leaves_with_an_arrow():
    rising = [(m, 50.0 * 2 ** (m / 12)) for m in range(0, 61)]  # 50% doubling yearly: 150% at 12 log2(3) months
    flat = [(m, 40.0) for m in range(0, 61)]
    series = [("rising", rising), ("flat", flat)]
    assert runway_leaves_top(series) and not runway_leaves_top([("flat", flat)])
    drawing = runway_chart(series, 480.0)
    plot = next(c for c in drawing.contents if isinstance(c, LinePlot))
    line = plot.data[0]
    crossing = 12 * 1.584962500721156  # log2(3) years
    assert line[-1][1] == pytest.approx(RUNWAY_TOP_PCT)
    assert line[-1][0] == pytest.approx(crossing, abs=0.05)  # cut at the top between months 19 and 20
    assert all(m <= crossing + 0.05 for m, _ in line)  # nothing drawn after it leaves
    assert plot.data[1] == flat  # a line within the chart is drawn whole
    arrows = [c for c in drawing.contents if isinstance(c, Polygon) and len(c.points) == 6]
    assert len(arrows) == 1
    tip_x = arrows[0].points[4]
    assert tip_x == pytest.approx(plot.x + plot.width * crossing / 60, abs=0.5)


def test_the_dr_copys_line_leaves_the_chart_and_the_caption_says_so():
    project = load_any(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    data = render_report_bytes(project, validation=[])
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())
    # its capacity fills at 128 months, past the ten years the chart stretches to: said (REVIEW45 #5)
    assert "where a line crosses 100% (dashed) the resource runs out; a line that rises above 150% leaves the " \
           "chart at the arrow; capacity full at 128 months: beyond the chart's 120 months." in text
