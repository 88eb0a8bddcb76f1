"""Helpers the catalog families' tests share: a bundled example evaluated with no problem, and its report."""

from __future__ import annotations

from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any


def clean_evaluation(name: str):
    """(project, evaluation) of the bundled example ``name`` (a file name in resources/examples), asserting the
    design check and the capacity engine raise no problem."""
    project = load_any(examples_dir() / name)
    evaluation = evaluate(project)
    assert not evaluation.problems, [p.message for p in evaluation.problems]
    assert not [p for s in evaluation.capacity.systems for p in s.problems]
    return project, evaluation


def assert_renders_report(project, evaluation) -> None:
    """The PDF sizing report of ``project`` renders from ``evaluation``."""
    from app.report import render_report_bytes

    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None)
    assert data.startswith(b"%PDF")
