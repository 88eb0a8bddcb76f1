"""The Cloud Volumes ONTAP licence caps read in one unit everywhere: the catalog cites TR-4671's "252TB" as 252 TiB
(NetApp states licence capacities in binary units), the bill of materials prints 252.00 TiB, so the validation row
is labelled TiB too (it read "Premium maximum (TB) 252 / 252", a TiB figure labelled TB); and a byte-count field is
named once in the sources table ("capacity cap", not "capacity cap capacity"; "capacity", not "size capacity")."""

from __future__ import annotations

import tomllib

import pytest

from app.report.sources import field_label
from models.resources import catalog_dir
from models.validation import quantity_label, run_validation

TIB = 2**40


def _catalog_licences() -> dict[str, dict]:
    with (catalog_dir() / "cloud.toml").open("rb") as f:
        return {r["id"]: r for r in tomllib.load(f)["licence"]}


def test_licence_cap_checks_are_in_tib():
    licences = _catalog_licences()
    outcome = next(o for o in run_validation(sections=("capacity",), cross_validation=None)
                   if o.case_id == "cvo-azure-license-caps")
    by_quantity = {c.quantity: c for c in outcome.checks}
    for quantity, licence in (("explore_max_tib", "cvo-explore"), ("standard_max_tib", "cvo-standard"),
                              ("premium_max_tib", "cvo-premium")):
        check = by_quantity[quantity]
        cap_tib = licences[licence]["capacity_cap_bytes"] / TIB  # the catalog's bytes, independently in TiB
        assert check.predicted == pytest.approx(cap_tib) == pytest.approx(check.published)
        assert quantity_label(quantity).endswith("(TiB)")
        # the catalog's cited source says the same unit: "... so the cap is N TiB"
        assert f"cap is {cap_tib:g} TiB" in licences[licence]["provenance"]["capacity_cap_bytes"]["source"]
    assert not [q for q in by_quantity if q.endswith("_tb")]


@pytest.mark.parametrize(("field", "label"), [
    ("capacity_cap_bytes", "capacity cap"),
    ("size_bytes", "capacity"),
    ("max_capacity_bytes", "max capacity"),
    ("min_capacity_bytes", "min capacity"),
    ("max_disk_capacity_bytes", "max disk capacity"),
    ("max_raw_bytes", "max raw capacity"),
    ("right_sized_bytes", "right sized capacity"),
    ("marketed_bytes", "marketed capacity"),
    ("adp_root_partition_bytes", "ADP root partition capacity"),
])
def test_a_byte_count_is_named_capacity_once(field, label):
    text = field_label(field)
    assert text == label
    assert text.split().count("capacity") == 1
