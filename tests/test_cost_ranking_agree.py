"""The sizer's ranking prices a managed-service configuration as the cost comparison (Cost and footprint) prices
that service: sized month by month to hold the data and carry the I/O (review 57: the ANF Premium Oracle example's
Recommendation ranked ANF Standard 2nd and Ultra 3rd at 28,956 USD, Ultra at 2 TiB for the whole horizon, while the
cost table priced Ultra 26,543 USD and Standard 27,180 USD: two prices and opposite orders)."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout

from app.cli import main
from models.catalog import bundled_catalog
from models.present.cost import design_tco
from models.project import load
from models.resources import examples_dir


def test_anf_ranking_prices_and_order_are_the_cost_comparisons() -> None:
    path = examples_dir() / "anf-premium-oracle-nfs.toml"
    project = load(path)
    tco = design_tco(project, project.scenarios[0], bundled_catalog())
    table = {o.name: round(o.total) for o in tco.options if o.catalog_id and o.catalog_id.startswith("azure-netapp")}
    assert len(table) == 3
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["size", str(path), "--top", "5"]) == 0
    ranked = [(name, int(usd.replace(",", ""))) for name, usd in
              re.findall(r"\] (Azure NetApp Files, \w+ service level), [^—]*— [^,]*, ([\d,]+) USD", out.getvalue())]
    assert [n for n, _ in ranked] == sorted(table, key=table.get)  # the same order as the cost table's totals
    for name, usd in ranked:
        assert usd == table[name], name  # the same figure
    assert dict(ranked)["Azure NetApp Files, Ultra service level"] < dict(ranked)[
        "Azure NetApp Files, Standard service level"]


def test_a_variant_larger_than_the_comparison_provisions_is_priced_at_its_own_size() -> None:
    from models.costing.tco import TIB, Demand, PricedNode, PublishedCloudPrices

    months = 36
    data = [1.0 * TIB + m * TIB / months for m in range(months + 1)]  # 1 TiB growing to 2 TiB
    light = Demand(tuple(100.0 for _ in data), tuple(1.0 for _ in data))
    pricer = PublishedCloudPrices(bundled_catalog(), data, light)
    per_gib_month = 0.000538 * 730  # Ultra, USD per GiB-month (Microsoft's published rate x 730 hours)

    def ultra(tib: int) -> float:
        return pricer.total([PricedNode("managed_service", "azure-netapp-files-ultra", provisioned_bytes=tib * TIB)])

    # the comparison provisions whole TiB holding each month's data: 2 TiB from month 1 (data above 1 TiB)
    grown = sum(2 * 1024 * per_gib_month for _ in range(months))
    assert ultra(2) == ultra(1) and abs(ultra(2) - grown) < 1e-6 * grown
    # 3 TiB is more than the comparison ever provisions: 3 TiB every month, dearer
    assert abs(ultra(3) - 3 * 1024 * per_gib_month * months) < 1e-6 * ultra(3) and ultra(3) > ultra(2)
