"""A controller's palette tooltip shows its computed performance basis (models.present.performance_basis), added
when the tooltip is about to show: the screen says what the engine uses, never a stale note (an ASA A90 read "the
uncalibrated default" while the evidence table said "hardware relation only"); its notes cite public documents by
title, never an internal "seed NNN"."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from app.gui.palette import PaletteWidget
from models.catalog import bundled_catalog
from models.performance.evidence import platform_evidence
from models.present.citations import customer_citation


def _hover(palette: PaletteWidget, entry_id: str) -> str:
    """Scroll to the record, send the tree's viewport the tooltip event a resting mouse sends, return the tooltip."""
    item = palette.entry_item(entry_id)
    assert item is not None, entry_id
    palette.tree.scrollToItem(item)
    pos = palette.tree.visualItemRect(item).center()
    viewport = palette.tree.viewport()
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, pos, viewport.mapToGlobal(pos)))
    assert palette.tasks.wait(30)  # a controller's basis is computed off the GUI thread
    QToolTip.hideText()
    return item.toolTip(0)


def test_a_controllers_tooltip_shows_its_computed_basis_on_hover(qtbot):
    catalog = bundled_catalog()
    palette = PaletteWidget(catalog)
    qtbot.addWidget(palette)
    palette.resize(270, 700)
    palette.show()
    qtbot.waitExposed(palette)

    asa = catalog.find("netapp-asa-a90")
    before = palette.entry_item("netapp-asa-a90").toolTip(0)
    assert "Performance:" not in before  # nothing computed at start-up
    shown = _hover(palette, "netapp-asa-a90")
    assert {row.profile for row in platform_evidence(asa, catalog)} == {"hardware relation only"}
    assert (f"<br>Performance: hardware relation only (pooled ONTAP software costs on {asa.cores_per_node:g} cores "
            "per node)<br>") in shown
    assert "uncalibrated default" not in shown
    assert shown.startswith(f"<b>{asa.name}</b>")

    a800 = catalog.find("netapp-aff-a800")
    shown = _hover(palette, "netapp-aff-a800")
    calibrated = [row.protocol for row in platform_evidence(a800, catalog) if row.profile == "calibrated"]
    assert calibrated
    assert f"calibrated (fitted to published measurements) for {', '.join(calibrated)}" in shown
    assert "NetApp AFF A800 Performance with Oracle Database" in a800.notes  # its note cites the public report
    assert "NetApp AFF A800 Performance with Oracle Database" in shown  # ... by title, as the customer reads it
    assert "seed 0" not in shown.lower()
    assert html.escape(customer_citation(a800.notes)) in shown

    shelf = next(e for e in catalog.of_kind("shelf"))
    assert "Performance:" not in _hover(palette, shelf.id)  # only controllers have a basis
