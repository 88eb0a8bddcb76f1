"""Utilisation-axis station labels on a presales laptop: a long name is shortened, its figures never are."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from models.resources import examples_dir

NUMBER = re.compile(r"\d[\d,.]*")


def _figures(name: str) -> str:
    """The figures a station name ends with, found here independently of the label code: the text after the last
    ': ' when it follows the last '(' (else after the last '('), without the closing ')', cut after the word that
    follows its last number."""
    text = name.rstrip(")")
    colon, paren = text.rfind(": "), text.rfind("(")
    tail = text[colon + 2:] if colon > paren else text[paren + 1:]
    words = tail.split()
    last = max(i for i, w in enumerate(words) if NUMBER.search(w))
    return " ".join(words[:last + 2])


@pytest.fixture
def cvo_window(open_window):
    from app.gui.main_window import read_project

    return open_window(read_project(examples_dir() / "cvo-aws-m5-4xlarge-ha-oltp.toml"))


def _performance_tab_at(win, qtbot, width: int, height: int):
    """``win`` resized to ``width`` x ``height`` px in the default dock layout, its Performance tab shown with the
    utilisation bars labelled: the tab's view."""
    win.resize(width, height)
    qtbot.waitUntil(lambda: win.height() == height, timeout=3000)
    win.apply_default_layout()
    win.results.setCurrentIndex(1)
    view = win.results.performance_view
    qtbot.waitUntil(lambda: view.util_plot.isVisible() and bool(view.utilisation_axis_labels()), timeout=5000)
    QApplication.processEvents()
    return view


def test_long_station_names_keep_their_figures_at_1366x740(cvo_window, qtbot):
    """At 1366x740 the CVO-on-AWS limits ("AWS EBS gp3 2 TiB (baseline ...) IOPS limit (6 disks x 3,000 IOPS)")
    do not fit the axis: each label keeps its figures whole (Qt's middle elision cut them: "AWS EBS gp...,000 IOPS)")
    and stays within the room the axis gives a name."""
    view = _performance_tab_at(cvo_window, qtbot, 1366, 740)
    view._fit_util_range()
    names = [name for name, _pct, _b in view.utilisation_bars()]
    labels = view.utilisation_axis_labels()
    assert len(labels) == len(names) >= 6
    shortened = [(n, lab) for n, lab in zip(names, labels) if n != lab]
    assert len(shortened) >= 3  # the laptop width does shorten the long limits
    metrics = QFontMetrics(view.font())
    for name, label in shortened:
        assert label.endswith(f"({_figures(name)})"), (name, label)  # every long name here ends in figures
    limit = view._util_name_limit()
    for label in labels:  # a shortened label stays near the axis room (the figures may exceed it, never by a lot)
        assert metrics.horizontalAdvance(label) <= limit + 12 * metrics.averageCharWidth(), label
    ebs = [lab for n, lab in zip(names, labels) if "EBS IOPS limit" in n]
    assert ebs == [label for label in ebs if label.endswith("(18,750 IOPS)")] and ebs


def test_station_label_rules(qtbot):
    """The rules on names written here: a fitting name is whole; an unnumbered one loses its parentheticals, then
    elides at its end."""
    from app.gui.results.station_label import station_figures, station_label

    metrics = QFontMetrics(QApplication.font())
    assert station_label("VM CPU", metrics, 200) == "VM CPU"
    name = "NVRAM log disk IOPS limit (AWS EBS io1 47 GiB (CVO boot disk holding NVRAM): 2,350 IOPS)"
    assert station_figures(name) == ("NVRAM log disk IOPS limit", "2,350 IOPS")
    short = station_label(name, metrics, 150)
    assert short.endswith("(2,350 IOPS)") and short.startswith("NVRAM") and "\u2026" in short
    long_plain = "node 1 back-end 6Gb SAS lanes shared by every shelf of the stack"
    plain = station_label(long_plain, metrics, 120)
    assert plain.endswith("\u2026") and long_plain.startswith(plain[:-1])
    assert metrics.horizontalAdvance(plain) <= 120
    detail = "vSAN storage pools (software path and its many queues)"
    limit = metrics.horizontalAdvance("vSAN storage pools") + 4
    assert station_label(detail, metrics, limit) == "vSAN storage pools"  # the detail goes, not the name


def test_a_shortened_name_ends_at_a_word_boundary(cvo_window, qtbot):
    """At 1366 x 768 the CVO-on-AWS limits are shortened at word boundaries ("VM network… (5,000 Mbit/s)"; they read
    "VM netwo…", "VM EBS I…"), never ending on a connective; the axis's tooltip names every station whole."""
    from app.gui.results.station_label import TRAILING_WORDS, elide_words

    view = _performance_tab_at(cvo_window, qtbot, 1366, 768)
    names = [name for name, _pct, _b in view.utilisation_bars()]
    labels = view.utilisation_axis_labels()
    shortened = [(n, lab) for n, lab in zip(names, labels) if n != lab]
    assert len(shortened) >= 3
    for name, label in shortened:
        head = label.split("\u2026")[0]
        assert "\u2026" in label and head, label
        words = name.split()
        kept = head.split()
        # the kept words are the name's own first words, the last of them whole
        assert words[:len(kept)] == kept, (name, label)
        assert kept[-1].lower() not in TRAILING_WORDS
    tip = view.util_plot.getAxis("left").toolTip()
    assert all(name.replace("&", "&amp;") in tip for name in names)
    # the rule on a name written here
    metrics = QFontMetrics(QApplication.font())
    text = "node 1 back-end 6Gb SAS lanes shared by every shelf of the stack"
    cut = elide_words(text, metrics, metrics.horizontalAdvance("node 1 back-end 6Gb SAS lanes shared by e"))
    assert cut == "node 1 back-end 6Gb SAS lanes shared\u2026"  # not "… shared by e…", nor "… shared by…"
    assert elide_words("VM network bandwidth", metrics, 10, min_words=2) == "VM network\u2026"
