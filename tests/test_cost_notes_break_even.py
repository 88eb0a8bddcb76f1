"""Review 43 (PDF), finding 12: the cost notes said "No break-even month: the hardware is not priced." then "It breaks
even with Amazon FSx ... if the hardware costs at most 115,365 USD" and "That hardware price is high by the cost of
the power not known (not counted)" (spinning192-sas-analytics): one statement now, which says the price is an upper
bound (for the power and the height the catalog gives no figure for, both of which the running costs leave out)."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from app.report import render_report_bytes
from models.catalog import bundled_catalog
from models.costing.tco import break_even_hardware_price
from models.present.cost import design_tco
from models.project import load
from models.resources import examples_dir


def test_an_unpriced_design_s_break_even_is_said_once_and_consistently():
    project = load(examples_dir() / "spinning192-sas-analytics.toml")
    tco = design_tco(project, project.scenario, bundled_catalog())
    cheapest = next(o for o in tco.options if o.name == tco.cheapest)
    budget = break_even_hardware_price(tco.design.total, cheapest.total, tco.inputs.horizon_months,
                                       tco.inputs.support_pct_per_year.value)
    assert budget is not None and tco.energy is not None and not tco.energy.complete  # the case itself
    # the array's power and its height are both unknown to the catalog: the space cost is a lower bound as the power
    # cost is, so the price that breaks even is an upper bound for both reasons
    assert not tco.energy.power_complete and tco.energy.heights_not_counted
    reader = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    assert "No break-even month" not in text and "high by the cost" not in text
    said = re.findall(r"The hardware is not priced \(import a price book\), so the break-even month is not known: "
                      r"the design breaks even with (.+?) within 36 months if the hardware costs at most ([\d,]+) USD "
                      r"\(with support at 15% a year\); that price is an upper bound, as the power and height the "
                      r"catalog gives no figure for are not counted\.", text)
    assert said == [(cheapest.name, f"{budget:,.0f}")]
    assert text.count("breaks even with") == 1
