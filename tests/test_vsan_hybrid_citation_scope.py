"""A hybrid vSAN cluster's notes cite VMware's all-flash SQL Server blog only with its scope (REVIEW45 #8): the
blog measured an all-flash cluster, so on a hybrid one each note citing it says the source covers all-flash only;
an all-flash cluster's notes cite it as before."""

from __future__ import annotations

import io

from pypdf import PdfReader

from models.evaluate import evaluate
from models.present.citations import HYBRID_SCOPE, customer_citation, workload_notes
from models.resources import examples_dir
from models.store import load_any

BLOG = "Microsoft SQL Server on VMware All-Flash Virtual SAN"


def _notes(name: str):
    project = load_any(examples_dir() / f"{name}.toml")
    return project, evaluate(project).performance.workloads[0].notes


def test_a_hybrid_clusters_blog_citations_say_all_flash():
    _project, notes = _notes("vsan8-osa-hybrid-4host-oltp")
    shown = workload_notes(notes)
    citing = [n for n in shown if BLOG in n]
    assert len(citing) >= 2  # the software latency fit and the peak IOPS note
    # said once, in one short sentence, after the last note citing it (REVIEW46: a long clause after each)
    assert shown.count(HYBRID_SCOPE) == 1 and shown.index(HYBRID_SCOPE) == shown.index(citing[-1]) + 1
    assert "all-flash" in HYBRID_SCOPE and "hybrid" in HYBRID_SCOPE and len(HYBRID_SCOPE) <= 110
    assert all(HYBRID_SCOPE not in n for n in shown if n != HYBRID_SCOPE)
    assert all("seed 0" not in n for n in shown)


def test_an_all_flash_cluster_cites_it_plainly():
    _project, notes = _notes("vsan8-esa-6host-sqlserver-oltp")
    assert workload_notes(notes) == [customer_citation(n) for n in notes]
    assert any(BLOG in n for n in workload_notes(notes))


def test_the_report_says_it():
    from app.report import render_report_bytes

    project, _notes_ = _notes("vsan8-osa-hybrid-4host-oltp")
    pdf = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
    assert text.count(HYBRID_SCOPE) == 1, text.count(HYBRID_SCOPE)
