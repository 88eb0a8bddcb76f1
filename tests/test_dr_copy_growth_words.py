"""Review 43 (PDF), finding 14: the DR copy's capacity note said the copies grow "compounded yearly" while the
runway chart's line grows smoothly month by month. The words now say what is computed: (1 + g)^(months / 12)."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from app.report import render_report_bytes
from models.evaluate import evaluate
from models.present.dr_copy import dr_copy_runway_series
from models.project import load
from models.resources import examples_dir

WORDS = ("months until full: the copies grown month by month at their workloads' yearly growth g, by (1 + g) every "
         "12 months ((1 + g)^(months / 12)), as in Protection and DR.")


def test_the_note_says_the_growth_the_runway_line_draws():
    project = load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    (growth,) = {w.growth_pct_per_year for w in project.scenario.workloads}  # 30% a year, one workload
    evaluation = evaluate(project)
    (_, points), = dr_copy_runway_series(evaluation.protection, evaluation.capacity)
    pct = dict(points)
    # the growing part is multiplied by 1 + g each 12 months (monthly compounding of g / 12 would give 1.345)
    assert (pct[24] - pct[12]) / (pct[12] - pct[0]) == pytest.approx(1 + growth / 100)
    assert (pct[6] - pct[0]) / (pct[12] - pct[0]) == pytest.approx(((1 + growth / 100) ** 0.5 - 1) / (growth / 100))
    reader = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    assert "compounded yearly" not in text
    assert WORDS in text
