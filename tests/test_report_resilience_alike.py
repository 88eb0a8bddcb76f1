"""The report's Resilience section prints a block (failure-states table and lines) that several workloads share
once, headed by the first workload's name and the others' names ("OLTP 1 and 10 more workloads alike: OLTP 2 to
OLTP 5, OLTP 7 to OLTP 12"), as the runway chart draws lines alike once; a workload whose block differs keeps its
own. 200 equal workloads printed 200 equal blocks, some 50 pages of the same table.

This module must not import PySide6: the report runs without a display.
"""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from scale_project import large_project

from app.report import render_report_bytes
from app.report.document import name_runs

HEADER = "State Saturation Max IOPS at SLO Latency at target SLO met"
"""The failure-states table's header row, as the PDF's text reads it: one per block printed."""


def _resilience(project) -> str:
    """The text of ``project``'s report from the Resilience heading to the capacity in a failure."""
    data = render_report_bytes(project, validation=[])
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())
    start = text.index("How each workload fares on the bad day")
    return text[start:text.index("Capacity in a failure", start)]


def _headings(text: str) -> list[str]:
    """The block headings of a Resilience section's ``text`` (:func:`_resilience`): what stands before each table
    header after the previous sentence's full stop."""
    return [re.search(r"\. ([^.]*) $", chunk).group(1) for chunk in text.split(HEADER)[:-1]]


@pytest.fixture(scope="module")
def one_differs():
    """12 equal workloads on equal systems but OLTP 6, whose target differs (so do its table and lines; a target
    100 IOPS higher would not: its figures print as the others', and the block is alike)."""
    project = large_project(60, 12)
    workloads = [w.model_copy(update={"target_iops": w.target_iops + 10_000.0}) if w.name == "OLTP 6" else w
                 for w in project.scenario.workloads]
    return project.with_scenario(project.scenario.with_changes(workloads=workloads))


def test_equal_blocks_are_printed_once_named_and_a_different_one_keeps_its_own(one_differs):
    text = _resilience(one_differs)
    assert _headings(text) == ["OLTP 1 and 10 more workloads alike: OLTP 2 to OLTP 5, OLTP 7 to OLTP 12", "OLTP 6"]
    # the block's lines once each, the two targets' numbers each in its own block
    target = one_differs.scenario.workloads[0].target_iops
    other = next(w for w in one_differs.scenario.workloads if w.name == "OLTP 6").target_iops
    states = text.count(f"SLO at {target / 1000:.0f}K IOPS in ")
    assert states >= 2 and text.count(f"SLO at {other / 1000:.0f}K IOPS in ") == states
    assert len(re.findall(r"• meets the", text)) == 2 * states


def test_all_alike_is_one_block():
    text = _resilience(large_project(60, 12))
    assert _headings(text) == ["OLTP 1 and 11 more workloads alike: OLTP 2 to OLTP 12"]


def test_names_alike_read_as_ranges():
    assert name_runs([f"OLTP {i}" for i in range(2, 201)]) == "OLTP 2 to OLTP 200"
    assert name_runs(["OLTP 2", "OLTP 3", "Mail", "DB 7", "DB 8", "DB 9", "DB 11"]) == (
        "OLTP 2, OLTP 3, Mail, DB 7 to DB 9, DB 11")
    assert name_runs(["a1", "b2", "b3", "b4", "a5"]) == "a1, b2 to b4, a5"
    assert name_runs(["Exchange"]) == "Exchange"


def test_long_names_follow_the_heading():
    project = large_project(60, 12)
    names = ["Exchange", "SharePoint", "Oracle ERP", "SAP HANA", "File shares", "Backup staging", "VDI boot",
             "Analytics", "Web tier", "Mail archive", "Print", "Test"]
    workloads = [w.model_copy(update={"name": n}) for w, n in zip(project.scenario.workloads, names, strict=True)]
    text = _resilience(project.with_scenario(project.scenario.with_changes(workloads=workloads)))
    assert text.count(HEADER) == 1
    assert ("Exchange and 11 more workloads alike The 11 more: " + ", ".join(names[1:]) + ". " + HEADER) in text
