"""The report's latency chart draws the P10-P90 uncertainty band by the screen's rule (REVIEW54 #7, the PDF half):
on a mean SLO the band ends where its upper (pessimistic) edge meets the SLO, at the band's P10 max IOPS at the
SLO, and none is drawn where that edge is above the SLO from the start. The A70's PDF shaded the plot from about
609K IOPS to its top, which a customer reads as "saturated from 600K". The legend and the caption say what is
drawn, in the screen's words (``models.present.charts.band_outline`` / ``band_legend``, one rule for both)."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Polygon, String

from app.report import render_report_bytes
from app.report.fonts import register_fonts
from app.report.graphics import latency_chart, latency_chart_band
from models.evaluate import evaluate
from models.formatting import format_iops
from models.present.charts import band_outline
from models.resources import examples_dir
from models.store import load_any

A70 = "aff-a70-ns224-oracle-nvmetcp.toml"
VSAN = "vsan8-esa-6host-sqlserver-oltp.toml"


@pytest.fixture(autouse=True)
def _fonts():
    register_fonts()


def _project(name: str, statistic: str = "mean"):
    project = load_any(examples_dir() / name)
    if statistic != "mean":
        project = project.model_copy(update={"requirements": project.requirements.with_changes(
            slo_statistic=statistic)})
    return project


@pytest.fixture(scope="module")
def a70():
    project = _project(A70)
    return project, evaluate(project).performance.workloads[0]


def _band_polygons(drawing):
    """The chart's translucent band polygons (the legend's swatch is a Rect, the SLO arrow an opaque Polygon)."""
    return [c for c in drawing.contents if isinstance(c, Polygon) and getattr(c, "fillOpacity", 1) < 1]


def _to_data(plot, x, y):
    """A drawing coordinate back in (IOPS, ms)."""
    return ((x - plot.x) / plot.width * plot.xValueAxis.valueMax,
            (y - plot.y) / plot.height * plot.yValueAxis.valueMax)


def _texts(drawing):
    return [c.text for c in drawing.contents if isinstance(c, String)]


def test_the_a70_band_stays_below_the_slo_and_ends_at_its_p10_crossing(a70):
    _, wp = a70
    assert wp.slo_statistic == "mean" and wp.slo_ms == 1.0
    p10 = wp.max_iops_at_slo_band_p10
    assert p10 == pytest.approx(609_450, rel=0.001)  # the band summary's "max IOPS at SLO 609K - 1.60M"
    drawing = latency_chart(wp, 480.0)
    plot = next(c for c in drawing.contents if isinstance(c, LinePlot))
    (band,) = _band_polygons(drawing)
    corners = [_to_data(plot, x, y) for x, y in zip(band.points[0::2], band.points[1::2])]
    # never above the SLO line (the old polygon reached the chart's top, 1.5 ms, from 613K to 1.60M)
    assert max(y for _, y in corners) == pytest.approx(wp.slo_ms, rel=1e-6)
    # it ends at the band's own max IOPS at the SLO: its upper edge reaches the SLO there and goes no further
    assert max(x for x, _ in corners) == pytest.approx(p10, rel=1e-6)
    assert (p10, wp.slo_ms) == pytest.approx(max(corners), rel=1e-6)
    # below the SLO it is the engine's P10-P90 of each curve point (the last point before 609K: 594K at 0.36 ms)
    before = [p for p in (*wp.curve, *wp.open_curve) if p.iops < p10]
    assert before[-1].latency_band_p90_ms == pytest.approx(0.3606, abs=1e-4)
    assert any(x == pytest.approx(before[-1].iops) and y == pytest.approx(before[-1].latency_band_p90_ms)
               for x, y in corners)
    assert max(x for x, _ in corners) < 0.5 * wp.saturation_iops  # not to the 1.60M saturation


def test_the_report_and_the_screen_draw_the_same_band(a70):
    _, wp = a70
    assert latency_chart_band(wp) == band_outline(wp)  # on a mean SLO the chart's top plays no part
    assert latency_chart_band(wp).end == "slo"


def test_the_legend_says_where_the_band_ends(a70):
    _, wp = a70
    # the screen's words (revgui55 #12): the band as the range of max IOPS at the SLO, not "to P10 609K"
    assert f"uncertainty (P10–P90): 609K – {format_iops(wp.max_iops_at_slo_band_p90)} IOPS at the SLO" in _texts(
        latency_chart(wp, 480.0))


def test_a_band_whose_p10_never_meets_the_slo_is_not_drawn_and_the_legend_says_so():
    wp = evaluate(_project(VSAN)).performance.workloads[0]
    assert wp.max_iops_at_slo_band_p10 is None  # "max IOPS at SLO not met - 2.11M"
    drawing = latency_chart(wp, 480.0)
    assert _band_polygons(drawing) == []  # the old chart shaded the whole plot
    assert "uncertainty (P10–P90): none drawn: the pessimistic case misses the SLO" in _texts(drawing)


def test_on_a_p99_slo_the_mean_band_ends_where_its_pessimistic_edge_saturates():
    """On a p99 SLO the band (of the mean) is not cut at the SLO; it rises through the chart's top at its P10
    saturation and ends there, not a block from there to the right edge."""
    wp = evaluate(_project(A70, "p99")).performance.workloads[0]
    drawing = latency_chart(wp, 480.0)
    plot = next(c for c in drawing.contents if isinstance(c, LinePlot))
    (band,) = _band_polygons(drawing)
    corners = [_to_data(plot, x, y) for x, y in zip(band.points[0::2], band.points[1::2])]
    assert max(x for x, _ in corners) == pytest.approx(wp.saturation_iops_band_p10, rel=1e-6)
    assert max(y for _, y in corners) == pytest.approx(plot.yValueAxis.valueMax, rel=1e-6)
    assert latency_chart_band(wp).end == "saturated"


def _caption(pdf: bytes) -> str:
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    text = re.sub(r"\s+", " ", text)
    start = text.index("Predicted storage latency versus IOPS")
    return text[start:start + 900]


def test_the_a70_caption_says_the_band_is_drawn_up_to_the_slo(a70):
    project, _ = a70
    caption = _caption(render_report_bytes(project))
    assert ("the shaded area is the uncertainty band of the prediction (P10–P90), not a percentile of individual "
            "I/O latencies, drawn up to the SLO line: it ends where its upper edge, the pessimistic prediction, "
            "meets the SLO, at the P10 max IOPS at the SLO (609K), and does not mean the design is saturated "
            "there") in caption


def test_the_vsan_caption_says_no_band_is_drawn():
    caption = _caption(render_report_bytes(_project(VSAN)))
    assert ("no uncertainty band (P10–P90 of the prediction) is drawn: its upper edge, the pessimistic prediction, "
            "is above the 2.00 ms SLO from the lightest load (P10 max IOPS at the SLO: not met)") in caption
    assert "the shaded area" not in caption
