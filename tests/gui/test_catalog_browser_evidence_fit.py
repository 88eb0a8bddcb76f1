"""The catalog browser's details at a laptop's screen, the evidence legend's words and a derived profile's row.

- At 1366 x 768 the details pane (figures and sources, performance evidence) began 391 px down the 640 px dialog and
  had 238 px, its evidence table 150 px: it now has the larger share of the split; at 1920 x 1080 the dialog is
  taller and both panes have room.
- The legend of the profile kinds said "derived: another system's fit scaled by a published ratio" where the
  verdicts say "derived from a related system's measurements" (and the like for the other kinds): one set of words,
  ``models.present.verdicts.PROFILE_KIND_MEANINGS``, in the browser, the CLI and the verdicts.
- A derived controller's row (AFF A90, AFF C800) held the catalog's whole paragraph (3,000 characters, a dozen lines):
  the row is a short line as the others, the paragraph whole in its tooltip and below the table, every web address
  and cited title in it kept.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QRect

import app.gui.screen_fit as screen_fit
from models.catalog import bundled_catalog
from models.present.catalog_browser import BRIEF_MARK, EVIDENCE_LEGEND, evidence_brief, evidence_table
from models.present.verdicts import PROFILE_KIND_MEANINGS, UNMEASURED_WORDS


def _browser(qtbot, window, monkeypatch, screen: tuple[int, int]):
    monkeypatch.setattr(screen_fit, "available_geometry", lambda _widget: QRect(0, 0, *screen))
    browser = window.show_catalog_browser()
    qtbot.addWidget(browser)
    qtbot.waitExposed(browser)
    return browser


@pytest.mark.parametrize("screen", [(1366, 768), (1920, 1080)])
def test_the_details_pane_has_a_fair_share_of_the_dialog(qtbot, example_window, monkeypatch, screen) -> None:
    browser = _browser(qtbot, example_window, monkeypatch, screen)
    browser.select("netapp-aff-a90")
    browser.tabs.setCurrentIndex(1)
    qtbot.wait(50)
    table, tabs = browser.table, browser.tabs
    assert browser.frameGeometry().height() <= 0.9 * screen[1] + 1
    assert tabs.height() > table.height()  # the details the larger share (238 of 586 px before)
    assert tabs.mapTo(browser, tabs.rect().topLeft()).y() < 0.5 * browser.height()
    # the records' table still shows several rows whole; the evidence table its first two rows whole
    assert table.viewport().height() >= 6 * table.rowHeight(0)
    evidence = browser.evidence
    assert evidence.viewport().height() >= evidence.rowHeight(0) + evidence.rowHeight(1)
    assert browser.evidence_detail.height() >= 4 * browser.evidence_detail.fontMetrics().height()
    if screen == (1920, 1080):  # a taller dialog on a large screen: both panes have room
        assert browser.height() >= 800 and table.viewport().height() >= 8 * table.rowHeight(0)
        assert evidence.viewport().height() >= 200


def test_the_legend_and_the_verdicts_say_each_profile_kind_in_one_set_of_words(qtbot, example_window,
                                                                               monkeypatch, capsys) -> None:
    from app.cli import main
    from models.evaluate import evaluate
    from models.present.verdicts import workload_verdicts
    from models.resources import examples_dir
    from models.store import load_project_file

    assert set(PROFILE_KIND_MEANINGS) == {"calibrated", "derived", "hardware relation only", "assumed"}
    assert all(UNMEASURED_WORDS[kind] == PROFILE_KIND_MEANINGS[kind] for kind in UNMEASURED_WORDS)
    browser = _browser(qtbot, example_window, monkeypatch, (1366, 768))
    legend = browser.evidence_legend.text()
    assert main(["catalog", "controller", "--evidence"]) == 0
    cli = capsys.readouterr().out.splitlines()[0]
    for kind, words in PROFILE_KIND_MEANINGS.items():
        assert f"{kind}: {words}" in legend and f"{kind}: {words}" in cli and f"{kind}: {words}" in EVIDENCE_LEGEND
    # a derived workload's verdict (the AFF A90's, a profile carried over from the A800) says the legend's words
    project = load_project_file(examples_dir() / "aff-a90-oracle-nvmefc64.toml").project
    evaluation = evaluate(project)
    said = " ".join(v.text for v in workload_verdicts(evaluation.performance))
    assert f"not measured on this system: {PROFILE_KIND_MEANINGS['derived']}" in said
    assert f"derived: {PROFILE_KIND_MEANINGS['derived']}" in legend


def _cited(text: str) -> list[str]:
    """The web addresses and quoted titles a text cites."""
    return re.findall(r"(?:https?://)?docs\.netapp\.com/[\w./-]+", text) + re.findall(r'"[^"]+"', text)


@pytest.mark.parametrize("record", ["netapp-aff-a90", "netapp-aff-c800"])
def test_a_derived_controller_s_rows_are_short_with_the_paragraph_whole_in_the_details(
        qtbot, example_window, monkeypatch, record) -> None:
    catalog = bundled_catalog()
    lines = evidence_table(catalog.find(record), catalog)
    derived = [r for r, line in enumerate(lines) if line.profile == "derived" and line.kind == "ratio claim"]
    assert derived and all(len(lines[r].text) > 1500 for r in derived)  # the premise: the catalog's paragraph
    browser = _browser(qtbot, example_window, monkeypatch, (1366, 768))
    browser.select(record)
    browser.tabs.setCurrentIndex(1)
    qtbot.wait(50)
    table = browser.evidence
    other = max(len(line.text) for line in lines if line.brief == line.text)
    for r in derived:
        shown = table.item(r, 3).text()
        whole = lines[r].text
        assert shown == evidence_brief(whole) and BRIEF_MARK in shown
        assert len(shown) <= max(1.4 * other, 500)  # a short line, as the other rows
        assert table.rowHeight(r) <= 5 * table.fontMetrics().height() + 8
        # nothing but the long bracket left out: the sentence before and after it is the row's
        head, tail = whole.split(" (derived: ", 1)[0], whole.rsplit(")", 1)[-1]
        assert shown.startswith(head) and shown.endswith(tail)
        # the paragraph whole in the tooltip, every source it cites
        tip = table.item(r, 3).toolTip()
        cited = _cited(whole)
        assert cited and all(c.replace('"', "&quot;") in tip or c in tip for c in cited)
        assert "more characters" not in tip
        # and below the table for the selected row
        table.setCurrentCell(r, 0)
        detail = browser.evidence_detail.toPlainText()
        assert whole in detail and all(c in detail for c in cited)
    # a row the table gives whole keeps its text (no mark)
    for r, line in enumerate(lines):
        if r not in derived and line.brief == line.text:
            assert table.item(r, 3).text() == line.text and BRIEF_MARK not in line.text
