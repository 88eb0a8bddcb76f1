"""Lines and sentences alike are printed once (issue 27): the runway chart draws equal lines once, the first's
name saying how many more it stands for (200 equal workloads drew 200 lines and a legend of 200 entries that
pushed the chart up over the page's text), and the capacity in a failure prints a text that several systems share
once, saying which."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import String
from scale_project import large_project

from app.report import render_report_bytes
from app.report.fonts import register_fonts
from app.report.graphics import runway_alike, runway_chart


@pytest.fixture(autouse=True)
def _fonts():
    register_fonts()


def test_equal_lines_are_drawn_once_named_by_the_first():
    equal = [(m, 20.0 + m) for m in range(61)]
    other = [(m, 30.0) for m in range(61)]
    series = [("capacity used / usable", other), ("OLTP 1: target / max IOPS at SLO", equal),
              ("OLTP 2: target / max IOPS at SLO", list(equal)), ("OLTP 3: target / max IOPS at SLO", list(equal)),
              ("DR copy on B", list(other))]
    assert runway_alike(series) == [("capacity used / usable and 1 more alike", other),
                                    ("OLTP 1 and 2 more alike: target / max IOPS at SLO", equal)]
    assert runway_alike(series[:2]) == series[:2]  # nothing alike: as it was
    drawing = runway_chart(series, 480.0)
    plot = next(c for c in drawing.contents if isinstance(c, LinePlot))
    assert len(plot.data) == 3  # two lines and the 100% line
    legend = [c.text for c in drawing.contents if isinstance(c, String)]
    assert "OLTP 1 and 2 more alike: target / max IOPS at SLO" in legend
    assert not any(t.startswith("OLTP 2") for t in legend)


def test_a_project_of_equal_workloads_and_systems_says_each_once():
    project = large_project(60, 12)
    systems = sum(1 for n in project.scenario.nodes if n.kind == "controller")
    assert systems > 1
    data = render_report_bytes(project, validation=[])
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())
    assert "OLTP 1 and 11 more alike: target / max IOPS at SLO" in text
    assert "OLTP 2: target / max IOPS at SLO" not in text
    assert "lines alike are drawn once, named by the first and how many more" in text
    assert text.count("Drive rebuild: one spare drive per pool is consumed") == 1
    assert ("usable capacity is unchanged (each of the " f"{systems} systems).") in text


def test_a_legend_of_many_different_lines_stays_in_the_chart():
    series = [(f"OLTP {i}: target / max IOPS at SLO", [(m, 10.0 + i * 0.1 + m * 0.5) for m in range(61)])
              for i in range(1, 201)]
    drawing = runway_chart(series, 480.0)
    plot = next(c for c in drawing.contents if isinstance(c, LinePlot))
    assert len(plot.data) == 201  # every line drawn, and the 100% line
    assert plot.height >= 60 and plot.y + plot.height <= drawing.height  # the plot inside the drawing
    legend = [c for c in drawing.contents if isinstance(c, String) and c.text.startswith("OLTP ")]
    named = {c.text for c in legend}
    rows = sorted({round(c.y, 3) for c in legend}, reverse=True)
    assert 1 <= len(rows) <= 4 and all(c.y >= 0 for c in drawing.contents if isinstance(c, String))
    more = [c.text for c in drawing.contents if isinstance(c, String) and c.text.startswith("and ")]
    assert more == [f"and {200 - len(named)} more lines, in the colours in turn"]
