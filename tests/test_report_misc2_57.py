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


def test_vsan_stations_read_apart_the_raid1_fit_is_an_assumption_and_capacity_is_in_one_scale():
    text = _text("vsan-sqlserver-raid5")
    assert "vSAN per-I/O software latency (fixed)" in text and "vSAN software path " not in text
    assert "vSAN disk groups (software path)" in text  # the queueing limit keeps its name
    assert "(a RAID1 measurement, applied to this RAID5 policy as an assumption)" in text
    # review 57 PDF #15: "579.49 GiB of 4.36 TiB" mixed two scales in one sentence
    assert "GiB of" not in text and "0.57 TiB of 4.36 TiB usable" in text


def test_gcnv_latency_in_ms_with_the_catalog_s_microseconds():
    text = _text("gcnv-premium-oracle-nfs")
    assert "0.50 ms (500 µs)" in text  # the sources table, in the unit of every other latency
    assert "(500 us)" not in text and "light-load latency (0.50 ms) is assumed" in text
    assert "256 MiB/s = 268.4 MB/s" in text
