"""Review 57 PDF #8, #14, #15 through the PDF's text (pypdf): an end-of-sale design placed in the ranking says it is
not orderable; the vSAN stations read apart and say the hand fit is RAID1's; units in one scale."""

from __future__ import annotations

from example_reports import example_report, page_texts

from models.resources import examples_dir


def _text(name: str) -> str:
    _, _, data = example_report(examples_dir() / f"{name}.toml")
    return " ".join(" ".join(page_texts(data)).split())


def test_an_end_of_sale_design_placed_in_the_ranking_is_shown_for_comparison_not_orderable():
    text = _text("a800-oracle-slob-fcp")
    start = text.index("by the same rule it would rank")
    sentence = text[start:text.index(".", text.index(")", start))]
    # the catalog's sourced lifecycle of the A800 is "installed base" (no end-of-availability notice was found), which
    # the sizer never proposes (models.sizing.NOT_SOLD): the sentence says the design is not an alternative to buy
    assert sentence.startswith("by the same rule it would rank before rank 1")
    assert "(NetApp AFF A800 HA pair: installed base, not sold today: shown for comparison, not orderable)" in sentence
