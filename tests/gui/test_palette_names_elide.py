"""The catalog palette never cuts a name in its middle (REVIEW43 #8: "Brocade 6510 1...orts licensed)",
"NetApp E2800 hy...ntroller shelf)", "Dell PowerEd...430, 512 GB)" -- the model gone): a name that does not fit
keeps its start, its descriptive tail in parentheses gives way first, word by word, and the full name is the
tooltip."""

from __future__ import annotations

from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

from app.gui.palette import PaletteWidget, fit_name
from models.catalog import bundled_catalog


def _painted(tree, item) -> tuple[str, str]:
    """(the delegate's text, that text as the style then elides it in the item's text rectangle)."""
    option = QStyleOptionViewItem()
    tree.initViewItemOption(option)
    option.rect = tree.visualItemRect(item)
    index = tree.indexFromItem(item)
    tree.itemDelegateForIndex(index).initStyleOption(option, index)
    style = tree.style()
    rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, tree)
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1
    return option.text, option.fontMetrics.elidedText(option.text, option.textElideMode, rect.width() - 2 * margin)


def test_a_narrow_palette_shortens_names_at_their_end(qtbot):
    palette = PaletteWidget(bundled_catalog())
    qtbot.addWidget(palette)
    palette.resize(270, 700)  # the catalog dock's width at 1366 x 768
    palette.show()
    qtbot.waitExposed(palette)
    tree = palette.tree
    for group in palette.groups.values():
        group.setExpanded(True)
    shortened = {}
    for group in palette.groups.values():
        for k in range(group.childCount()):
            item = group.child(k)
            name = item.text(0)
            assert name in item.toolTip(0)
            text, painted = _painted(tree, item)
            assert painted == text, (name, text, painted)  # what the delegate made fits: Qt cuts nothing more
            if text == name:
                continue
            shortened[name] = text
            kept = text.removesuffix("…)").removesuffix("…")
            assert text.endswith(("…", "…)")) and "…" not in kept, (name, text)
            if text.endswith("…)"):  # the tail gave way, word by word: the name before it is whole
                base, tail = kept.split(" (", 1)
                assert name.startswith(f"{base} ({tail}"), (name, text)
                assert name[len(base) + 2 + len(tail)] in " ,;/-.", (name, text)  # at a word's end
            else:
                assert name.startswith(kept), (name, text)
    assert shortened, "the test's width shortens some names"
    brocade = next(e.name for e in bundled_catalog().of_kind("switch") if e.name.startswith("Brocade 6510"))
    assert shortened.get(brocade, brocade).startswith("Brocade 6510 16Gb")  # the model and its speed kept


def test_fit_name_gives_the_tail_way_first(qtbot):
    palette = PaletteWidget(bundled_catalog())
    qtbot.addWidget(palette)
    metrics = palette.tree.fontMetrics()
    name = "Brocade 6510 16Gb FC switch (24 ports licensed)"
    assert fit_name(name, metrics, metrics.horizontalAdvance(name)) == name
    assert fit_name(name, metrics, metrics.horizontalAdvance(name) - 1) == "Brocade 6510 16Gb FC switch (24 ports…)"
    assert fit_name(name, metrics, metrics.horizontalAdvance("Brocade 6510 16Gb FC switch…")) == \
        "Brocade 6510 16Gb FC switch…"
    assert fit_name(name, metrics, metrics.horizontalAdvance("Brocade 6510 16Gb…")) == "Brocade 6510 16Gb…"
