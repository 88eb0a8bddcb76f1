"""A headroom above 1,000% reads as a multiple of the target wherever it is printed (REVIEW43-PDF #9: the vSAN OSA
hybrid example's Recommendation read "26,567%" and "13,233%"): the PDF's Recommendation (with a note saying how
to read it, under the definition of headroom it keeps), ``storplan size`` and the shared formatter the GUI uses.
"""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from models.present.headroom import fmt_headroom
from models.resources import examples_dir
from models.store import load_any

EXAMPLE = "vsan8-osa-hybrid-4host-oltp"


@pytest.mark.parametrize(("pct", "text"), [
    (26_566.67, "266x the target (saturation 267x)"),  # 265.67 times the target above it: saturation 266.67x
    (13_233.3, "132x the target (saturation 133x)"),
    (1_000.0, "10x the target (saturation 11x)"),
    (100_000.0, "1,000x the target (saturation 1,001x)"),
    (123_400.0, "over 1,000x the target"),  # review 53 item 17: "591,236x" says nothing more than this
    (59_123_600.0, "over 1,000x the target"),
    (999.4, "999%"),
    (245.2, "245%"),
    (7.46, "7.5%"),
    (-12.0, "\u221212%"),
])
def test_headroom_reads_as_a_percentage_up_to_1000_and_as_a_multiple_above(pct, text):
    assert fmt_headroom(pct) == text


def test_the_signed_form_and_a_missing_figure():
    assert fmt_headroom(26_566.67, signed=True) == "+266x the target (saturation 267x)"
    assert fmt_headroom(245.2, signed=True) == "+245%"
    assert fmt_headroom(None) == "\u2014"
    assert fmt_headroom(float("nan"), "saturated") == "saturated"


@pytest.fixture(scope="module")
def sized():
    from models.sizing import size

    project = load_any(examples_dir() / f"{EXAMPLE}.toml")
    result = size(project, top=5)
    large = [c.headroom_pct for c in result.candidates[:5] if c.headroom_pct is not None and c.headroom_pct >= 1000]
    assert large  # the example the review read: its ranked designs have headroom above 1,000%
    return project, result


def _multiple(pct: float) -> str:
    """The multiple of the target a headroom in percent is, and the saturation's: 26,567% of the target = 265.67 x
    the target above it, so saturation = target x (1 + 265.67) = 266.67 x the target."""
    return f"{round(pct / 100):,}x the target (saturation {round(1 + pct / 100):,}x)"


def test_the_recommendation_prints_large_headroom_as_a_multiple_and_says_how_to_read_it(sized):
    from app.report import render_report_bytes

    project, result = sized
    data = render_report_bytes(project, sizing=result, validation=[])
    page = next(t for t in (p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages)
                if "Recommendation" in t and "Bound by" in t)
    text = " ".join(page.split())
    for c in result.candidates[:5]:
        assert f"{c.headroom_pct:,.0f}%" not in text
        shown = _multiple(c.headroom_pct) if c.headroom_pct >= 1000 else f"{c.headroom_pct:,.0f}%"
        assert shown.replace(" ", "") in text.replace(" ", "")  # a cell may wrap between words
    assert "in percent of the target" in text  # the definition stays
    # review 57 #16: "2,500% = 25x the target" read as saturation at 25x; saturation is then at 26x the target
    assert ("above 1,000% a headroom reads as a multiple of the target: a headroom of 2,500% is 25x the target, with "
            "saturation at 26x the target") in text


def test_storplan_size_prints_large_headroom_as_a_multiple(sized, capsys):
    from app.cli import main

    _, result = sized
    assert main(["size", str(examples_dir() / f"{EXAMPLE}.toml"), "--top", "5"]) == 0
    out = capsys.readouterr().out
    printed = re.findall(r", headroom ([^\n]+?) over the grown targets", out)
    assert printed == [fmt_headroom(c.headroom_pct) for c in result.candidates[:5]]
    assert printed == [_multiple(c.headroom_pct) for c in result.candidates[:5]]
    assert "%" not in " ".join(printed)


def test_a_multiple_in_a_cell_with_the_takeover_margin_keeps_one_parenthesis():
    """Review 57 #16: the cell joins the takeover margin to the saturation's parenthesis, not a second one."""
    from models.present.headroom import sizer_headroom_cell, sizer_headroom_words

    assert sizer_headroom_cell(2_500.0, 9.2) == "25x the target (saturation 26x; takeover 9.2%)"
    assert sizer_headroom_cell(245.2, 9.2) == "245% (takeover 9.2%)"
    assert sizer_headroom_words(2_500.0) == "headroom 25x the target (saturation 26x) over the grown targets"
