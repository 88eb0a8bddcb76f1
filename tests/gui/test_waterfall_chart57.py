"""Review 57 (second GUI pass) on the capacity waterfall: the Effective value label clear of its P10-P90 box (#13)
and one name for the first step (#14)."""

from __future__ import annotations

import pytest


def _capacity(qtbot, sized_example, example):
    win = sized_example(example, 1366, 768)
    win.results.setCurrentIndex(0)
    view = win.results.capacity_view
    qtbot.waitUntil(lambda: bool(getattr(view, "_bars", None)), timeout=30_000)
    qtbot.wait(100)
    view.grab()
    return view


@pytest.mark.parametrize("example", ["fas70-ds460c-nlsas-nfs.toml", "anf-premium-oracle-nfs.toml",
                                     "aff-a90-oracle-nvmefc64.toml"])
def test_the_effective_label_is_clear_of_its_band_box(qtbot, sized_example, example):
    view = _capacity(qtbot, sized_example, example)
    labels = view.value_label_rects()
    for box in view._band_items:
        outline = box.mapRectToScene(box.boundingRect())
        for text, rect in zip((b.label for b in view._bars), labels):
            assert not rect.intersects(outline), (text, rect, outline)
            if text == "Effective" and rect.right() <= outline.left():  # inside its bar: a clear gap to the box
                assert outline.left() - rect.right() >= 6, (rect, outline)


@pytest.mark.parametrize("example", ["aff-a70-ns224-oracle-nvmetcp.toml", "anf-premium-oracle-nfs.toml",
                                     "fas70-ds460c-nlsas-nfs.toml"])
def test_the_first_step_has_one_name(qtbot, sized_example, example):
    view = _capacity(qtbot, sized_example, example)
    assert view._bars[0].label == "Raw (marketed)"
