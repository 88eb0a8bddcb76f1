"""Help -> StorPlan Guide says nothing internal (REVIEW43 finding 4): its Catalog section called a sourced number
"a named public document or seed"; the guide a customer may read over the engineer's shoulder names no seed, no
source file and no research note."""

from __future__ import annotations

import re

INTERNAL = re.compile(r"\bseeds?\b|\.py\b|research note|\bresources/|\bmodels\.", re.IGNORECASE)
"""Words and paths of the code base, not of the product."""


def test_the_guide_on_screen_names_nothing_internal(qtbot, example_window):
    guide = example_window.show_guide("catalog")
    qtbot.waitUntil(lambda: guide.isVisible(), timeout=5_000)
    text = " ".join(guide.browser.toPlainText().split())
    assert "Every hardware record with its numbers and their sources" in text  # the Catalog section is there
    assert "sourced (a named public document)" in text
    assert not INTERNAL.search(text), INTERNAL.search(text)
