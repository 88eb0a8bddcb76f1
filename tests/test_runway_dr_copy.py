"""The runway chart draws each DR copy's use of its destination (a SnapMirror relationship's copies grown at their
workloads' growth, over the destination's usable capacity), crossing 100% in the month the runway text names."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from app.report import render_report_bytes
from models.evaluate import evaluate, evaluate_resilience, with_resilience
from models.present.dr_copy import dr_copies, dr_copy_runway_series
from models.present.resilience import runway_lines_with_dr_copies, runway_series
from models.resources import examples_dir
from models.store import load_any

DR = examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"
NAME = "DR copy on Cloud Volumes ONTAP DR (Azure): used / usable"


@pytest.fixture(scope="module")
def dr():
    project = load_any(DR)
    result = evaluate(project)
    return project, with_resilience(result, evaluate_resilience(project, result))


def test_the_dr_copy_line_starts_at_its_copies_and_crosses_100_at_its_runway(dr):
    project, evaluation = dr
    series = dict(runway_series(evaluation, evaluation.resilience, project.scenario, months=60))
    assert NAME in series
    (f,) = evaluation.protection.relationships
    system = evaluation.capacity.system(f.target_id)
    own = system.usable_bytes - f.destination_free_bytes  # a replica-only destination: no workload of its own
    assert own == 0
    points = series[NAME]
    assert points[0][1] == pytest.approx(100.0 * (own + f.destination_needed_bytes) / system.usable_bytes, rel=1e-9)
    first_over = next(m for m, v in points if v > 100.0)
    runway = dr_copies(evaluation.protection)[f.target_id].runway_months
    assert runway == 18 and first_over == runway  # the replication engine's own month, and the text's
    assert all(b[1] > a[1] for a, b in zip(points, points[1:]))  # the copies grow
    text = " ".join(runway_lines_with_dr_copies(evaluation.resilience, evaluation))
    assert "months until the DR copy on Cloud Volumes ONTAP DR (Azure) is full: 18 months" in text


def test_no_dr_copy_line_without_replication():
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    result = evaluate(project)
    assert dr_copy_runway_series(result.protection, result.capacity) == []
    names = [n for n, _ in runway_series(result, evaluate_resilience(project, result), project.scenario)]
    assert not any(n.startswith("DR copy") for n in names)


def test_the_pdf_runway_labels_the_dr_copy_line(dr):
    project, evaluation = dr
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None)
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())
    runway = text[text.index("Runway"):]
    assert NAME in runway[:runway.index("Months until full")]  # the chart's legend, whole on its own row
    assert "each DR copy's use of its destination's usable capacity" in runway
    assert "Months until the DR copy on Cloud Volumes ONTAP DR (Azure) is full: 18 months" in runway
