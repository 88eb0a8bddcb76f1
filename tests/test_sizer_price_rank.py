"""Review 54 items 2 and 5: the sizer's ranking with a partial price book and in the cloud.

Item 2: a price book that prices the AFF controllers and the NS224 shelf but no drive left every design with an
unpriced item, and the designs were ranked on their partial sums, so an ASA A50 with nothing priced ("0 USD +
unpriced items") came before an AFF A50 whose controller is priced. A partial price is not a cost: the designs
the book prices in full rank first, on their cost; the others after them on the no-price rule's footprint (rack
units, then power). Item 5: cloud designs that meet were ranked on headroom alone, so the dearer ANF tier came
first; they rank on their total over the horizon at the providers' published prices."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from functools import cache

import pytest

from models.project import load
from models.project.model import PriceRow
from models.resources import examples_dir
from models.sizing import ranking_rule, size

AFF = examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"
CONTROLLERS_AND_SHELF = (("netapp-aff-a20", 60_000), ("netapp-aff-a30", 90_000), ("netapp-aff-a50", 130_000),
                         ("netapp-aff-a70", 160_000), ("netapp-aff-a90", 200_000), ("netapp-ns224", 20_000))
"""The review's partial book: the AFF controllers and the NS224 shelf, no drive, no ASA controller."""


def _book(rows) -> list[PriceRow]:
    return [PriceRow(catalog_id=c, part_number=f"P-{c}", unit_price=float(v), currency="USD") for c, v in rows]


@cache
def _aff():
    return load(AFF)


def test_designs_with_an_unpriced_item_rank_as_without_a_price_book_not_on_their_partial_sums():
    project = _aff()
    plain = size(project, top=5)
    partial = size(project.model_copy(update={"price_book": _book(CONTROLLERS_AND_SHELF)}), top=5)
    assert all(c.unpriced for c in partial.candidates)  # no drive is priced: every design is incomplete
    # the old ranking put the ASA A50 (0 USD: nothing priced) before the AFF A50 (130,000 USD + drives)
    assert [c.summary for c in partial.candidates] == [c.summary for c in plain.candidates]
    footprints = [(c.rack_units, c.power_w) for c in partial.candidates]
    assert footprints == sorted(footprints)


def test_designs_priced_in_full_rank_first_on_their_cost_then_the_partly_priced_on_footprint():
    project = _aff()
    rows = (*CONTROLLERS_AND_SHELF, ("netapp-2u24-internal-nvme", 5_000), ("netapp-nvme-ssd-1.92tb-tlc", 1_000))
    result = size(project.model_copy(update={"price_book": _book(rows)}), top=8)
    complete = [not c.unpriced for c in result.candidates]
    assert complete[0] and complete == sorted(complete, reverse=True)  # every fully priced design first
    full = [c for c in result.candidates if not c.unpriced]
    # the AFF A50 with 24 x 1.92 TB in its 2U24 chassis: 130,000 + 5,000 + 24 x 1,000, summed from the book
    assert full[0].summary.startswith("NetApp AFF A50 HA pair, 24 x NetApp 1.9TB NVMe SSD (TLC) in the chassis,")
    assert full[0].cost == pytest.approx(130_000 + 5_000 + 24 * 1_000)
    assert [c.cost for c in full] == sorted(c.cost for c in full)
    rest = [(c.rack_units, c.power_w) for c in result.candidates if c.unpriced]
    assert rest == sorted(rest)


def test_the_command_line_never_prints_0_usd_and_states_the_rule(tmp_path):
    from app.cli import main

    book = tmp_path / "prices.csv"
    book.write_text("catalog_id,part_number,unit_price,currency\n"
                    + "".join(f"{c},P-{c},{v},USD\n" for c, v in CONTROLLERS_AND_SHELF))
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["size", str(AFF), "--prices", str(book), "--top", "3"]) == 0
    text = out.getvalue()
    assert " 0 USD" not in text and ", not priced," in text  # the ASA A50: nothing of it in the book
    assert "partly priced: 130,000 USD + unpriced items" in text  # the AFF A50: its controller alone
    assert ranking_rule(True).replace("★", "[Pareto]") + "." in text
    assert "a design with an item it does not price comes after them, its partial price not compared" in text


def test_cloud_designs_rank_on_their_published_total_over_the_horizon():
    """ANF Premium, Standard and Ultra all meet the ANF example; the published prices per GiB-hour (Premium
    0.000403, Microsoft Learn; Standard 0.000202 and Ultra 0.000538, Microsoft's pricing page) x 730 h x 36
    months order them Premium 2 TiB (21,690 USD), Standard 5 TiB (26,543 USD), Ultra 2 TiB (28,956 USD); the old
    ranking put Ultra first on headroom."""
    project = load(examples_dir() / "anf-premium-oracle-nfs.toml")
    result = size(project, top=5)
    expected = [("Azure NetApp Files, Premium service level, 2 TiB provisioned", 2048 * 0.000403),
                ("Azure NetApp Files, Standard service level, 5 TiB provisioned", 5 * 1024 * 0.000202),
                ("Azure NetApp Files, Ultra service level, 2 TiB provisioned", 2048 * 0.000538)]
    assert [c.summary for c in result.candidates] == [name for name, _ in expected]
    for c, (_, per_hour) in zip(result.candidates, expected, strict=True):
        assert c.meets and c.listed_cost == pytest.approx(per_hour * 730 * 36)
    assert result.candidates[2].headroom_pct > result.candidates[0].headroom_pct  # headroom is the tie-break only
    out = io.StringIO()
    from app.cli import main

    with redirect_stdout(out):
        assert main(["size", str(examples_dir() / "anf-premium-oracle-nfs.toml")]) == 0
    assert "21,690 USD over 36 months at the providers' published prices" in out.getvalue()
