"""Chart words readable on their chart (revperf57 #14): the runway chart's legend was pyqtgraph's light grey on
white (its colour was set after the entries were made, which changed an option, not the words drawn)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor

from app.gui.results.runway_chart import RunwayDialog
from models.evaluate import evaluate, evaluate_resilience, with_resilience
from models.resources import examples_dir
from models.store import load_any


def _luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21; body text wants 4.5)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_formula() -> None:
    assert contrast(QColor("black"), QColor("white")) == pytest.approx(21.0)
    assert contrast(QColor("#767676"), QColor("white")) == pytest.approx(4.54, abs=0.01)  # WCAG's AA grey


def test_the_runway_legend_reads_in_the_text_colour(qtbot) -> None:
    project = load_any(examples_dir() / "fas70-ds460c-nlsas-nfs.toml")
    result = evaluate(project)
    dialog = RunwayDialog(with_resilience(result, evaluate_resilience(project, result)))
    qtbot.addWidget(dialog)
    dialog.show()
    legend = dialog.plot.plotItem.legend
    assert legend.items
    background = dialog.palette().base().color()
    for _sample, label in legend.items:
        drawn = re.search(r"color: ?(#[0-9a-fA-F]{6,8})", label.item.toHtml())
        assert drawn, label.item.toHtml()
        color = QColor(drawn.group(1))
        assert contrast(color, background) >= 4.5, (label.text, color.name(), background.name())
