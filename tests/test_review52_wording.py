"""Review 52 (second fresh-eyes review of the PDF reports), findings 1-4:

1: the EF600's summary and "Profile" said its figures came from "its family's calibrated" systems / software costs,
   while no E-Series profile is fitted to a published measurement (the cover and the notes say so);
2: the cost table's break-even column said "hardware not priced" on every cloud option's row, as if the cloud
   service had unpriced hardware: it is the design that has no price;
3: the ANF cover named a configuration detail ("streaming and analytics workloads included, switched off");
4: the ANF runway spoke of "each workload's growing target" when no workload's IOPS target grows.
"""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from app.report import render_report_bytes
from models.catalog import Controller, bundled_catalog
from models.evaluate import evaluate, evaluate_resilience
from models.performance.hardware_relation import HARDWARE_RELATION
from models.present.cost import design_tco, option_rows
from models.present.resilience import compact_runway, runway_lines
from models.present.uncertainty import workload_profile_text
from models.present.verdicts import workload_verdicts
from models.project import load
from models.resources import examples_dir

CATALOG = bundled_catalog()


def _project(name: str):
    return load(examples_dir() / f"{name}.toml")


def _text(name: str) -> str:
    reader = PdfReader(io.BytesIO(render_report_bytes(_project(name), validation=[])))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


@pytest.fixture(scope="module")
def pdf_text() -> dict[str, str]:
    return {name: _text(name) for name in ("ef600-nvme-ddp-oltp-nvmefc", "anf-premium-oracle-nfs")}


def _family_fitted(family: str) -> bool:
    """Independently of the engine's pooling: some controller of ``family`` has a profile field a fit set."""
    return any(prov.kind == "calibrated" for r in CATALOG.of_kind(Controller) if r.family == family
               for p in r.performance for prov in p.provenance.values())


def test_the_e_series_profile_is_never_called_calibrated(pdf_text):
    project = _project("ef600-nvme-ddp-oltp-nvmefc")
    wp = evaluate(project).performance.workloads[0]
    assert wp.profile == HARDWARE_RELATION
    family = next(r.family for r in CATALOG.of_kind(Controller) if r.id == "netapp-ef600")
    assert not _family_fitted(family)  # the case itself: no E-Series profile is fitted
    words = workload_profile_text(wp)
    assert "calibrated" not in words and "none fitted to a measurement" in words
    verdict = " ".join(v.text for v in workload_verdicts(evaluate(project).performance))
    assert "family's calibrated" not in verdict and "catalogued software costs, none fitted" in verdict
    text = pdf_text["ef600-nvme-ddp-oltp-nvmefc"]
    assert "family's calibrated systems" not in text and "its family's calibrated software costs" not in text
    assert "estimated from its family's catalogued software costs, none fitted to a measurement" in text


def test_a_fitted_family_keeps_its_calibrated_words():
    """The ONTAP family has fitted profiles: a hardware-relation profile there still says "calibrated"."""
    project = _project("aff-a70-snapmirror-cvo-dr")
    performance = evaluate(project).performance
    relation = [wp for wp in performance.workloads if wp.profile == HARDWARE_RELATION]
    for wp in relation:
        assert "calibrated" in workload_profile_text(wp)
    assert _family_fitted("ONTAP") or not relation


def test_option_rows_say_the_design_is_not_priced_not_the_option():
    project = _project("ef600-nvme-ddp-oltp-nvmefc")
    tco = design_tco(project, project.scenario, CATALOG)
    assert tco.design.deployment == "on-prem" and tco.break_even_hardware is not None and not tco.break_even
    rows = option_rows(tco)[1:]
    assert len(rows) == len(tco.options)
    evens = {name: even for name, _, even in rows}
    assert evens.pop(tco.cheapest) == f"if the hardware costs at most {tco.break_even_hardware:,.0f} USD"
    assert "n/a (design not priced)" not in evens.values()  # each option its own budget (review 53b #7)
    from models.present.cost import NO_BREAK_EVENS

    assert all(e.startswith("if the hardware costs at most ") or e in ("at no hardware price", *NO_BREAK_EVENS)
               for e in evens.values())
    from models.present.cost import NO_BREAK_EVEN_PROTOCOL  # NVMe/FC: the file-only services are no alternative

    assert all(e == NO_BREAK_EVEN_PROTOCOL for n, e in evens.items() if n.startswith(("Azure NetApp", "Google")))


def test_the_cover_names_no_switched_off_workloads(pdf_text):
    for name in ("anf-premium-oracle-nfs", "gcnv-premium-oracle-nfs"):
        project = _project(name)
        assert [w.name for w in project.scenario.workloads if w.enabled] == ["OLTP 8K 70/30"]
        assert "switched off" not in project.info.description and "OLTP database over NFS" in project.info.description
    assert "switched off" not in pdf_text["anf-premium-oracle-nfs"]


def test_a_runway_without_iops_growth_says_so(pdf_text):
    project = _project("anf-premium-oracle-nfs")
    assert all(w.iops_growth_pct_per_year == 0 for w in project.scenario.workloads if w.enabled)
    runway = evaluate_resilience(project, evaluate(project))
    assert runway.months_until_slo_breach is None and runway.months_until_saturation is None
    lines = runway_lines(runway)
    assert lines[1:] == ["IOPS targets do not grow in this project (0% a year): no SLO breach or saturation "
                         "comes with time"]
    assert "growing" not in compact_runway(runway)
    text = pdf_text["anf-premium-oracle-nfs"]
    assert "growing target" not in text
    assert "IOPS targets do not grow in this project (0% a year): no SLO breach or saturation comes with time" in text


def test_a_growing_runway_keeps_its_three_months():
    project = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    lines = runway_lines(evaluate_resilience(project, evaluate(project)))
    assert len(lines) == 4 and "at the growing target" in lines[1]  # the fourth: the required takeover's breach
    assert lines[3].startswith("months until the SLO is breached in takeover")


def test_the_e_series_basis_note_does_not_call_its_costs_calibrated(pdf_text):
    """The profile's note (the basis's reason, printed under the station table) agrees with its source: pooled,
    assumed costs, not "its family's calibrated platforms"; a fitted family keeps that wording."""
    e_series = evaluate(_project("ef600-nvme-ddp-oltp-nvmefc")).performance.workloads[0].profile_basis.reason
    assert "(assumed, none fitted)" in e_series and "calibrated" not in e_series
    assert "family's calibrated platforms share" not in pdf_text["ef600-nvme-ddp-oltp-nvmefc"]
    ontap = [w.profile_basis.reason for w in evaluate(_project("aff-a70-snapmirror-cvo-dr")).performance.workloads
             if w.profile == HARDWARE_RELATION]
    assert _family_fitted("ONTAP") and ontap
    assert all("its family's calibrated platforms share" in r for r in ontap)
