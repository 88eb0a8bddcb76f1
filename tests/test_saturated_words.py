"""A target above saturation reads true: the bottleneck is 100% busy at the saturation point, below the target (not
"at the target of" the saturation figure), and the latency at the target is one phrase, not "saturated" three
times."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from app.report import render_report_bytes
from models.evaluate import evaluate
from models.formatting import fmt_latency_tails
from models.present.verdicts import bottleneck_sentence
from models.project import load
from models.resources import examples_dir

TARGET = 3_000_000.0


def _project(target: float | None = None):
    project = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    if target is None:
        return project
    base = project.scenario
    workloads = [w.with_changes(target_iops=target).model_dump() for w in base.workloads]
    return project.with_scenario(base.with_changes(workloads=workloads))


def _millions(iops: float) -> str:
    return f"{iops / 1e6:.2f}M"


@pytest.fixture(scope="module")
def saturated():
    project = _project(TARGET)
    evaluation = evaluate(project)
    return project, evaluation


def test_bottleneck_sentence_of_a_saturated_target(saturated):
    _, evaluation = saturated
    wp = evaluation.performance.workloads[0]
    assert wp.saturation_iops < TARGET and wp.target_met is False  # the example's facts: it saturates
    text = bottleneck_sentence(wp).text
    sat = _millions(wp.saturation_iops)
    assert f"(100% busy at {sat} IOPS, below the target of {_millions(TARGET)} IOPS)" in text, text
    assert f"at the target of {sat}" not in text


def test_bottleneck_sentence_of_a_target_below_saturation():
    wp = evaluate(_project()).performance.workloads[0]
    assert wp.target_iops < wp.saturation_iops
    text = bottleneck_sentence(wp).text
    assert f"busy at the target of {wp.target_iops / 1e3:.0f}K IOPS)" in text, text
    assert "below the target" not in text


def test_latency_tails_words():
    assert fmt_latency_tails(None, None, None) == "saturated (mean, p95 and p99)"
    assert fmt_latency_tails(0.5, 0.75, 1.25) == "0.50 ms mean; p95 0.75 ms, p99 1.25 ms"


def test_saturated_report_reads_naturally(saturated):
    project, evaluation = saturated
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())
    wp = evaluation.performance.workloads[0]
    assert "saturated (mean, p95 and p99)" in text
    assert "saturated mean" not in text and "p95 saturated" not in text
    assert f"below the target of {_millions(TARGET)} IOPS" in text
    assert f"at the target of {_millions(wp.saturation_iops)}" not in text
