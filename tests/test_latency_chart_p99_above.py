"""The report's latency chart and its caption agree on the 99th-percentile line when the axis is kept to the mean
curve (an SLO far above it: the spinning192 example's 50 ms over a 1.3-1.8 ms mean and a 3-4 ms p99). The caption
said "the lighter line is the 99th percentile" of a line drawn wholly above the chart, so not drawn at all
(REVIEW43-PDF #1)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import String

from app.report import render_report_bytes
from app.report.fonts import register_fonts
from app.report.graphics import latency_chart, latency_chart_p99_above
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any


@pytest.fixture(autouse=True)
def _fonts():
    register_fonts()


@pytest.fixture(scope="module")
def spinning():
    project = load_any(examples_dir() / "spinning192-sas-analytics.toml")
    return project, evaluate(project)


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
    assert f"{wp.latency_p99_at_target_ms:.2f}" == "4.26"  # the Performance table's figure, as printed
    assert ("the 99th percentile of individual I/O latencies (one I/O in 100 takes longer) is above this chart "
            "(4.26 ms at the target)") in text
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
