"""Review 43 (PDF), finding 10: a cloud price bullet read "0.25 USD per GiB-month (... about 0.25 per GB-month)", one
price in two units with nothing saying why. Each price is now said in the unit its provider publishes, and a bullet
that gives both says which is which."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from app.report import render_report_bytes
from models.catalog import bundled_catalog
from models.costing.cloud_prices import DISK_PRICES, LICENCE_PRICES, MANAGED_PRICES, VCPU_PRICES
from models.present.cost import cloud_price_lines, design_tco
from models.project import load
from models.resources import examples_dir

LABEL = ("per GB-month, the unit that page prices in; applied here per provisioned GiB-month, as the storage is sized "
         "in GiB")


def _all_prices():
    yield from (p for prices in MANAGED_PRICES.values() for p in prices)
    yield from DISK_PRICES.values()
    yield from VCPU_PRICES.values()
    yield from LICENCE_PRICES.values()


def test_a_price_published_per_gb_month_says_how_it_is_applied():
    both = [p for p in _all_prices() if "GB-month" in p.source and p.per == "GiB-month"]
    assert len(both) == 4  # the AWS FSx storage and the three EBS disks
    for price in both:
        assert f"{price.price:g} {LABEL}" in price.source, price.source
        assert price.source.count("GB-month") == 1 and "GiB-month" in price.text()


def test_the_cvo_dr_report_s_cloud_prices_never_mix_units_unlabelled():
    project = load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    tco = design_tco(project, project.scenario, bundled_catalog())
    lines = cloud_price_lines(tco, bundled_catalog())
    mixed = [line for line in lines if "GB-month" in line and "GiB-month" in line]
    assert any("Amazon FSx for NetApp ONTAP" in line for line in mixed)  # the case the review found
    assert all(LABEL in line for line in mixed)
    reader = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    prices = text[text.index("Cloud prices"):]
    assert "Multi-AZ SSD storage, about 0.25 " + LABEL in prices
    assert len(re.findall(r"per GB-month(?!, the unit that page prices in)", prices)) == 0
