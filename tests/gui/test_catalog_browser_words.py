"""The Catalog Browser reads in words (REVIEW43 finding 1): its details pane names each field as a person would
("Memory GiB per node", not ``memory_gib_per_node``) and shows each value without Python's reprs (no ``1024.0``,
no ``['FCP', ...]``, no ``{'...': ...}``, no ``sibling='netapp-aff-a800'``); bytes come in TB and TiB; the Kind
column says "cloud VM", not ``cloud_vm``."""

from __future__ import annotations

import re

import pytest

from app.gui.catalog_browser import FIELD_ROLE, CatalogBrowser
from models.catalog import Controller, bundled_catalog

IDENTIFIER = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
"""A code name: lower-case words joined by underscores (``memory_gib_per_node``, ``cloud_vm``)."""
REPR = re.compile(r"[\[\]{}]|\w+='|(?<![\d.])\d+\.0\b(?!\.)|\bTrue\b|\bFalse\b|\bNone\b")
"""Python's reprs: brackets and braces, ``key='value'``, a float written ``1024.0``, True / False / None."""


@pytest.fixture(scope="module")
def catalog():
    return bundled_catalog()


def _details(browser: CatalogBrowser) -> dict[str, tuple[str, str, str]]:
    """Field name (kept under FIELD_ROLE) -> (the Field cell's text, the Value cell's text, the Kind cell's)."""
    table = browser.details
    return {table.item(r, 0).data(FIELD_ROLE): (table.item(r, 0).text(), table.item(r, 1).text(),
                                                table.item(r, 2).text())
            for r in range(table.rowCount())}


def test_the_a90s_details_read_in_words(qtbot, catalog):
    browser = CatalogBrowser(catalog)
    qtbot.addWidget(browser)
    browser.search.setText("AFF A90")
    browser.select("netapp-aff-a90")
    rows = _details(browser)
    a90 = catalog.get("netapp-aff-a90", Controller)
    assert len(rows) > 20
    for field, (label, value, _kind) in rows.items():
        assert not IDENTIFIER.search(label), (field, label)
        assert not REPR.search(value), (field, value)
    assert rows["memory_gib_per_node"][:2] == ("Memory GiB per node", f"{a90.memory_gib_per_node:,.0f}")
    assert rows["typical_power_w"][:2] == ("Typical power (W)", f"{a90.typical_power_w:,.1f}")
    assert rows["protocols"][1] == ", ".join(a90.protocols)
    # bytes as TB and TiB, each computed here from the record's number
    raw = a90.max_raw_bytes
    assert rows["max_raw_bytes"][:2] == ("Max raw capacity", f"{raw / 1e12:,.4g} TB ({raw / 2 ** 40:,.4g} TiB)")
    # the profile the A90's figures come from is named by its model, not its catalog id
    sibling = catalog.find(a90.profile_from.sibling).name
    assert sibling in rows["profile_from"][1] and a90.profile_from.sibling not in rows["profile_from"][1]
    nested = [label for field, (label, _v, _k) in rows.items() if field.endswith(".cpu_read_us")]
    assert nested and all(re.fullmatch(r"Performance \([^)]+\): CPU read \(µs\)", label) for label in nested), nested
    # the Source column keeps the room: no other column is wider than the cap
    assert all(browser.details.columnWidth(c) <= 300 for c in range(3))


def test_every_records_details_and_kind_read_in_words(qtbot, catalog):
    browser = CatalogBrowser(catalog)
    qtbot.addWidget(browser)
    kinds = {browser.proxy.index(r, 0).data() for r in range(browser.proxy.rowCount())}
    assert {"cloud VM", "cloud disk", "managed service", "HCI host", "controller"} <= kinds
    assert not any(IDENTIFIER.search(k) for k in kinds), kinds
    for record_id in browser.visible_ids():
        browser.select(record_id)
        for field, (label, value, _kind) in _details(browser).items():
            assert not IDENTIFIER.search(label), (record_id, field, label)
            assert not REPR.search(value), (record_id, field, value)
