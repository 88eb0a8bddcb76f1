"""The report's latency chart keeps the curve's shape when the SLO is far above it (the spinning192 example: a
50 ms SLO over a curve of 1.3-1.8 ms): the axis ends just above the curve, as on screen
(``models.present.charts.latency_axes``), and the SLO is marked at the top edge (an arrow and its figure)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Polygon, String

from app.report import render_report_bytes
from app.report.fonts import register_fonts
from app.report.graphics import latency_chart
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any


@pytest.fixture(autouse=True)
def _fonts():
    register_fonts()  # the report's fonts, as building a report registers them


def _parts(drawing):
    plot = next(c for c in drawing.contents if isinstance(c, LinePlot))
    texts = [c.text for c in drawing.contents if isinstance(c, String)]
    return plot, texts


@pytest.fixture(scope="module")
def spinning():
    project = load_any(examples_dir() / "spinning192-sas-analytics.toml")
    return project, evaluate(project)


def test_an_slo_far_above_the_curve_is_marked_not_drawn(spinning):
    _, evaluation = spinning
    wp = evaluation.performance.workloads[0]
    assert wp.slo_ms == 50.0
    drawing = latency_chart(wp, 480.0)
    plot, texts = _parts(drawing)
    latencies = [p.latency_ms for p in (*wp.curve, *wp.open_curve)]
    highest = max(latencies[:len(wp.curve)] + [wp.max_iops_at_slo_point[1]])
    y_max = plot.yValueAxis.valueMax
    assert highest <= y_max <= 1.5 * highest  # the axis ends just above the curve, not at 1.25 x 50 ms
    assert (max(latencies) - min(latencies)) / y_max > 0.15  # the curve's rise fills a visible share of the axis
    assert not any(all(y == 50.0 for _, y in line) for line in plot.data)  # no SLO line stretching the axis
    assert "SLO 50.0 ms: far above this chart (the predicted latency's highest point 1.75 ms)" in texts
    assert any(t.startswith("SLO 50.0 ms (above the chart)") for t in texts)  # the legend says where it is
    arrows = [c for c in drawing.contents if isinstance(c, Polygon) and len(c.points) == 6]
    top = plot.y + plot.height
    assert any(max(c.points[1::2]) > top for c in arrows)  # the arrow's tip at the top edge


def test_an_slo_near_the_curve_keeps_its_line():
    evaluation = evaluate(load_any(examples_dir() / "aff8080-sqlserver-tpce.toml"))
    wp = evaluation.performance.workloads[0]
    plot, texts = _parts(latency_chart(wp, 480.0))
    assert plot.yValueAxis.valueMax >= wp.slo_ms
    assert any(len(line) == 2 and all(y == wp.slo_ms for _, y in line) for line in plot.data)
    assert not any("far above this chart" in t for t in texts)


def test_the_pdf_says_where_the_slo_is(spinning):
    project, evaluation = spinning
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None)
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())
    assert "SLO 50.0 ms: far above this chart (the predicted latency's highest point 1.75 ms)" in text
    assert "SLO 50.0 ms (above the chart)" in text
