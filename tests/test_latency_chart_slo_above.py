"""The report's latency chart keeps the curve's shape when the SLO is far above it (the spinning192 example: a
50 ms SLO over a curve of 1.3-1.8 ms): the axis ends just above the curve, as on screen
(``models.present.charts.latency_axes``), and the SLO is marked at the top edge (an arrow and its figure). The
chart and its caption also agree on the 99th-percentile line, drawn wholly above such an axis (the caption said
"the lighter line is the 99th percentile" of a line not drawn at all: REVIEW43-PDF #1)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Polygon, String

from app.report import render_report_bytes
from app.report.fonts import register_fonts
from app.report.graphics import latency_chart, latency_chart_p99_above
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


def test_a_p99_above_the_axis_is_named_in_the_legend(spinning):
    _, evaluation = spinning
    wp = evaluation.performance.workloads[0]
    drawing = latency_chart(wp, 480.0)
    plot = next(c for c in drawing.contents if isinstance(c, LinePlot))
    texts = [c.text for c in drawing.contents if isinstance(c, String)]
    p99 = [p.latency_p99_ms for p in (*wp.curve, *wp.open_curve) if p.latency_p99_ms is not None]
    assert len(p99) > 1 and min(p99) > plot.yValueAxis.valueMax  # the whole p99 line is above the axis
    assert latency_chart_p99_above(wp)
    assert "99th percentile of I/O latency (above the chart)" in texts
    assert "99th percentile of I/O latency" not in texts  # no legend entry for a line as if drawn


def test_a_drawn_p99_is_described_as_the_lighter_line():
    wp = evaluate(load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")).performance.workloads[0]
    drawing = latency_chart(wp, 480.0)
    plot = next(c for c in drawing.contents if isinstance(c, LinePlot))
    p99 = [p.latency_p99_ms for p in wp.curve if p.latency_p99_ms is not None]
    assert min(p99) < plot.yValueAxis.valueMax  # part of the line is on the chart
    assert not latency_chart_p99_above(wp)
    assert "99th percentile of I/O latency" in [c.text for c in drawing.contents if isinstance(c, String)]


def test_the_caption_says_the_p99_is_above_the_chart(spinning):
    project, evaluation = spinning
    wp = evaluation.performance.workloads[0]
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None)
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())
    assert f"{wp.latency_p99_at_target_ms:.2f}" == "4.42"  # the Performance table's figure, as printed
    assert ("the 99th percentile of individual I/O latencies (one I/O in 100 takes longer) is above this chart "
            "(4.42 ms at the target)") in text
    assert "the lighter line is the 99th percentile" not in text
    assert "99th percentile of I/O latency (above the chart)" in text


def test_the_slo_note_sits_on_a_white_ground(spinning):
    """Lines and the band pass behind the note at the top edge (the GCNV example's saturation line crossed it)."""
    from reportlab.graphics.shapes import Rect
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from app.report.fonts import REGULAR

    wp = spinning[1].performance.workloads[0]
    drawing = latency_chart(wp, 480.0)
    note = next(c for c in drawing.contents if isinstance(c, String) and "far above this chart" in c.text)
    ground = [c for c in drawing.contents if isinstance(c, Rect) and c.fillColor is not None
              and c.fillColor.hexval() == "0xffffff" and c.x <= note.x and c.y <= note.y]
    assert ground and ground[0].x + ground[0].width >= note.x + stringWidth(note.text, REGULAR, 6.8)
    assert drawing.contents.index(ground[0]) == drawing.contents.index(note) - 1  # drawn over the plot, under it
