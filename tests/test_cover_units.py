"""Review 43 (PDF), finding 20: the DR example's cover said "400 GB a day" and "8 TB data set" while its Protection
table and capacity tables, in the project's unit (TiB), read "0.36 TiB" and "7.28 TiB": one unit a report."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from app.report import render_report_bytes
from models.project import load
from models.resources import examples_dir

TIB = 2**40


def test_the_dr_example_says_its_change_rate_and_data_set_in_the_project_s_unit():
    project = load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    assert project.settings.capacity_unit.value == "TiB"
    change = next(c for r in project.scenario.replications for c in r.change).bytes_per_day
    data = sum(w.dataset_bytes for w in project.scenario.workloads)
    reader = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    pages = [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]
    cover, text = pages[0], " ".join(pages)
    rate, size = f"{change / TIB:.2f} TiB", f"{data / TIB:.2f} TiB"  # 0.36 TiB, 7.28 TiB
    assert f"The change rate, {rate} a day" in cover and f"({size} data set" in cover
    assert not re.search(r"\d GB a day|\d TB data set", text)
    protection = text[text.index("Change per day"):]
    assert rate in protection and f"{rate} changed a day" in protection
