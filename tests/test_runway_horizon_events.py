"""The runway chart reaches the runway's events (REVIEW45 #5): the AFF A70 example's capacity is full at month 96
and its growing target breaches the SLO and saturates at month 103, all beyond the 60 months the chart drew. The
horizon now stretches to the whole year past the latest event, up to ten years; an event later than that is named
beside the chart."""

from __future__ import annotations

import dataclasses

import pytest

from models.evaluate import evaluate
from models.present.resilience import runway_beyond_note, runway_horizon_months, runway_series
from models.resources import examples_dir
from models.store import load_any


@pytest.fixture(scope="module")
def a70():
    project = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    return project, evaluate(project, resilience=True)


def test_the_chart_reaches_every_event(a70):
    _project, ev = a70
    res = ev.resilience
    events = [m for m in (res.months_until_full, res.months_until_slo_breach, res.months_until_saturation)
              if m is not None]
    assert events and max(events) > 60  # the premise: the events fall after five years
    months = runway_horizon_months(res)
    assert max(events) <= months <= max(events) + 12 and months % 12 == 0
    series = runway_series(ev, res, None, months)
    assert all(points[-1][0] == months for _name, points in series)
    # each line crosses 100% on the chart where the runway says it does
    capacity = dict(series)["capacity used / usable"]
    crossing = next(m for m, pct in capacity if pct >= 100.0)
    assert crossing == pytest.approx(res.months_until_full, abs=1)
    assert runway_beyond_note(res, months) == ""


def test_five_years_when_everything_is_within_them(a70):
    _project, ev = a70
    near = dataclasses.replace(ev.resilience, months_until_full=30.0, months_until_slo_breach=None,
                               months_until_saturation=None)
    assert runway_horizon_months(near) == 60


def test_an_event_past_ten_years_is_named(a70):
    _project, ev = a70
    far = dataclasses.replace(ev.resilience, months_until_full=150.0, months_until_slo_breach=None,
                              months_until_saturation=None)
    assert runway_horizon_months(far) == 120
    assert runway_beyond_note(far, 120) == "capacity full at 150 months: beyond the chart's 120 months"


def test_the_report_caption_names_the_horizon(a70):
    from app.report import render_report_bytes

    project, ev = a70
    import io

    from pypdf import PdfReader

    pdf = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
    months = runway_horizon_months(ev.resilience)
    assert f"share of its limit over the next {months} months" in text
