"""The screen and the paper say the same thing: for every bundled example, the presentation layer's waterfall
bars, verdicts and scenario comparison rows are found in the text the GUI's result widgets show and in the text
of the PDF report.

The GUI side drives the real widgets (CapacityView, PerformanceView, CompareView) and reads their table cells and
labels; the PDF side renders the report (two scenarios, so it has a comparison) and reads it back with pypdf.
One test over all examples, reusing one set of widgets, so the whole check stays fast.
"""

from __future__ import annotations

import dataclasses
import html
import io
import re

from pypdf import PdfReader

from app.gui.results import CapacityView, CompareView, PerformanceView
from app.report import render_report_bytes
from models.evaluate import evaluate, resilience_required
from models.formatting import fmt_capacity
from models.present import comparison_rows, verdicts, workload_verdicts
from models.present.comparison import FIGURE
from models.present.dr_system import shown_waterfall
from models.present.verdicts import CAUTION
from models.project import load
from models.resources import examples_dir

EXAMPLES = sorted(examples_dir().glob("*.toml"))
COPY = "Heavier workloads"


def _squash(text: str) -> str:
    """Whitespace-normalised text: a phrase wrapped across lines (or cells) still matches."""
    return " ".join(text.split())


def _plain(rich: str) -> str:
    """A rich-text label's text as a person reads it."""
    return html.unescape(re.sub(r"<[^>]+>", "", rich.replace("<br>", "\n")))


def _variant(project):
    """The project with a second scenario: the same design, every workload 50% more data and 10% more load
    (so the comparison has changes in it)."""
    base = project.scenario
    workloads = []
    for w in base.workloads:
        changes = {"dataset_bytes": int(w.dataset_bytes * 1.5)}
        if w.target_iops is not None:
            changes["target_iops"] = w.target_iops * 1.1
        if w.target_mbps is not None:
            changes["target_mbps"] = w.target_mbps * 1.1
        workloads.append(w.with_changes(**changes).model_dump())
    return project.with_changes(scenarios=[*project.scenarios, base.with_changes(name=COPY, workloads=workloads)])


def _table(model) -> list[list[str]]:
    return [[model.item(r, c).text() if model.item(r, c) is not None else "" for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def test_gui_and_pdf_show_the_presentation_layer(qtbot):
    capacity_view, performance_view, compare_view = CapacityView(), PerformanceView(), CompareView()
    for view in (capacity_view, performance_view, compare_view):
        qtbot.addWidget(view)
    checked = {"bars": 0, "verdicts": 0, "comparison": 0}
    for path in EXAMPLES:
        project = _variant(load(path))
        unit = project.settings.capacity_unit
        # the failure states where the project requires them, as the GUI's worker evaluates (a vSAN cluster's
        # verdict reads its N+1 capacity check)
        base = evaluate(project, resilience=resilience_required(project))
        other = evaluate(project, COPY)
        assert base.capacity is not None and base.performance is not None, (path.stem, base.problems)
        data = render_report_bytes(project, evaluation_cache={base.scenario: base, COPY: other}, validation=[])
        pdf = _squash("\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages))

        # Waterfall: every system's bars, in order, with the value after each step.
        capacity_view.set_evaluation(base, unit)
        for system in base.capacity.systems:
            if len(base.capacity.systems) > 1:
                capacity_view.select_system(system.system_label)
            # the presentation layer's bars for the system (a DR copy's: the reduction its copies keep in transfer,
            # Effective 10.80 TiB = usable 5.40 x 2.00, on screen and on paper alike)
            bars, _kept = shown_waterfall(base.capacity, base.protection, system)
            shown = [[row[0], row[2]] for row in _table(capacity_view.model)]
            assert shown == [[b.label, fmt_capacity(b.after, unit)] for b in bars], path.stem
            drawn = " ".join(f"{b.label} {fmt_capacity(b.after, unit)}" for b in bars)
            assert drawn in pdf, (path.stem, drawn)
            checked["bars"] += len(bars)

        # Verdicts: each sentence on screen (capacity and performance views) and in the report's summary.
        performance_view.set_evaluation(base, unit)
        screen = _squash(" ".join(_plain(label.text()) for label in (
            capacity_view.verdict_label, performance_view.verdict_label, performance_view.cautions_label)))
        # judged on the project's horizon, as the status bar and the report are; the resilience and protection
        # verdicts have their own tabs (a DR copy's room is the Protection tab's)
        relationships = {r.label for r in project.scenario.replications}
        found = [v for v in verdicts(base, unit, project.requirements)
                 if v.area in ("capacity", "performance") and v.subject not in relationships]
        assert found, path.stem
        # the Performance tab's line says an unmeasured profile in short (its row's Profile cell beside it): the
        # report's whole sentence is the line's tooltip, the short one on screen (REVIEW45: a laptop's Runway line)
        tip = _squash(_plain(performance_view.verdict_label.toolTip()))
        for short in workload_verdicts(base.performance, compact=True):
            if short.kind != CAUTION or short.lead:
                assert _squash(short.line) in screen, (path.stem, short.line)
        for verdict in found:  # a workload's own line (a caution too: review 57) has its whole words in the tooltip
            where = tip if verdict.area == "performance" and (verdict.kind != CAUTION or verdict.lead) else screen
            assert _squash(verdict.line) in where, (path.stem, verdict.line)
            assert _squash(verdict.line) in pdf, (path.stem, verdict.line)
        checked["verdicts"] += len(found)

        # Comparison: the rows in the Compare tab, cell by cell, and each figure row in the report's table.
        compare_view.set_evaluations(base, other, unit)
        rows = comparison_rows((base, other), unit)
        shown = [[cell.strip() for cell in row if cell.strip() or len(row) > 1] for row in compare_view.row_texts()]
        expected = [[r.label, *r.values, r.delta] if r.level == FIGURE else [r.label] for r in rows]
        assert [row[: len(e)] for row, e in zip(shown, expected)] == expected, path.stem
        assert len(shown) == len(expected), path.stem
        assert "Scenario comparison" in pdf
        for r in rows:
            text = _squash(" ".join([r.label, *r.values, r.delta] if r.level == FIGURE else [r.label]))
            assert text in pdf, (path.stem, text)
        checked["comparison"] += len(rows)
    assert all(checked.values()), checked


def test_the_copy_scenario_changes_something():
    """The comparison is not of two identical evaluations: the heavier workloads move the figures (and a change
    too small to show reads 0, not "+0.00 GiB")."""
    project = _variant(load(examples_dir() / "aff8080-sqlserver-tpce.toml"))
    rows = comparison_rows((evaluate(project), evaluate(project, COPY)), project.settings.capacity_unit)
    figures = {r.label: r for r in rows if r.level == FIGURE}
    assert figures["target met"].values == ("Yes", "No"), [dataclasses.astuple(r) for r in rows]
    assert figures["Raw"].delta == "0" and figures["Raw"].better is None
    assert all(not r.delta.startswith(("+0.00", "\u22120.00")) for r in rows)
