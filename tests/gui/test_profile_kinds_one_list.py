"""Review 56 (gui56, left over): the profile kinds are said in one set of words,
``models.present.verdicts.PROFILE_KIND_MEANINGS`` (the verdicts, the catalog browser's legend, the report's profile
row). The status bar's max-IOPS tooltip and the Performance tab's Profile tooltip each described the kinds in their
own words ("derived (a fitted profile carried over)", "assumed (no published measurement constrains it)")."""

from __future__ import annotations

import html

from app.gui.results import PerformanceView
from models.present.summary import NO_PROFILE_WORDS
from models.present.uncertainty import PROFILE_WORDS
from models.present.verdicts import PROFILE_KIND_MEANINGS

OWN_WORDS = ("a fitted profile carried over", "no published measurement constrains it", "fitted to measurements)",
             "shared software costs", "the widest band")
"""Pieces of the tooltips' own wordings before: none may remain."""


def _says_the_one_list(text: str) -> None:
    for kind, meaning in PROFILE_KIND_MEANINGS.items():
        assert kind in text and meaning in text, kind
    for words in NO_PROFILE_WORDS.values():
        assert words in text
    assert not any(own in text for own in OWN_WORDS), text


def test_the_performance_tab_profile_tooltip_reads_the_one_list(qtbot):
    view = PerformanceView()
    qtbot.addWidget(view)
    column = view.SUMMARY_COLUMNS.index("Profile")
    _says_the_one_list(view.summary_model.horizontalHeaderItem(column).toolTip())


def test_the_status_bar_max_iops_tooltip_reads_the_one_list(qtbot, example_window):
    label = example_window.status_labels["max_iops_at_slo"]
    qtbot.waitUntil(lambda: "How the performance profile" in label.toolTip(), timeout=20_000)
    _says_the_one_list(html.unescape(label.toolTip()))


def test_the_report_profile_words_are_the_one_list():
    """models.present.uncertainty's words (the report's and the CLI's profile row) are each kind with its meaning."""
    assert set(PROFILE_WORDS) == set(PROFILE_KIND_MEANINGS)
    for kind, words in PROFILE_WORDS.items():
        assert words.startswith(kind) and PROFILE_KIND_MEANINGS[kind] in words
