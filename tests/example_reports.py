"""Every bundled example's evaluation and PDF report, and a PDF's page texts, built once per test process: the report
tests (tests/test_report.py) and the customer-citation tests (tests/test_customer_citations.py) read the very same
PDF of each example (the same call: its evaluation in the cache, the bundled validation outcomes) and the same text of
it (pypdf). tests/conftest.py runs both modules on one pytest-xdist worker (SHARED_WORKER), so each example's PDF is
rendered and read once, not twice."""

from __future__ import annotations

import functools
import io
from pathlib import Path


@functools.cache
def example_report(path: Path) -> tuple:
    """(project, evaluation, PDF bytes) of the bundled example at ``path``: ``render_report_bytes`` with its
    evaluation in the cache and the bundled validation outcomes (None when they could not run)."""
    from app.report import render_report_bytes, validation_outcomes
    from models.evaluate import evaluate
    from models.project import load

    validation = validation_outcomes()  # computed once per process (app.report caches it)
    project = load(path)
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation},
                               validation=None if isinstance(validation, str) else validation)
    return project, evaluation, data


@functools.cache
def page_texts(data: bytes) -> tuple[str, ...]:
    """Each page's text of the PDF ``data`` as pypdf extracts it (``page.extract_text() or ""``)."""
    from pypdf import PdfReader

    return tuple(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def report_text(name: str) -> str:
    """The whole PDF report of the bundled example ``name`` (its file name without ``.toml``) as pypdf reads it
    (:func:`example_report`, :func:`page_texts`), pages joined and every run of white space one space (a table cell
    may wrap)."""
    import re

    from models.resources import examples_dir

    return re.sub(r"\s+", " ", " ".join(page_texts(example_report(examples_dir() / f"{name}.toml")[2])))
