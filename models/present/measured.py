"""The project's measured environment (``Project.measured``, one record per import of a measured environment) in
the words the customer reads: the PDF report's "Measured environment" section and the workbook's sheet of that
name (XLSX and CSV) are built from :func:`measured_blocks`, so they say the same thing.

Per import: what was measured, by what tool and when, how the peaks were taken, what was assumed and when it was
imported; then per workload of the scenario its tool, its members and how its load was taken. Records whose
workloads have all left the scenario are not shown; no file name is kept, so none is ever shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from models.formatting import NOT_AVAILABLE

if TYPE_CHECKING:
    from models.project.model import MeasuredImport, Project, Scenario

MEASURED_SHEET = "Measured environment"
"""The section's title in the report and the workbook's sheet name (``measured-environment.csv``)."""
WORKLOAD_HEADERS = ("Workload", "Measured by", "Members", "Load taken as")
"""The per-workload table's columns (the report's table header, the sheet's columns)."""


@dataclass(frozen=True)
class MeasuredWorkloadRow:
    """One workload of an import as the customer reads it."""

    name: str
    measured_by: str
    """The tools it came from, without the article and the collection note ("Live Optics (Optical Prime) export")."""
    members: int
    load_taken_as: str


@dataclass(frozen=True)
class MeasuredBlock:
    """One import: (label, text) lines, then its workloads still in the scenario."""

    lines: tuple[tuple[str, str], ...]
    workloads: tuple[MeasuredWorkloadRow, ...]
    imported: int = 0
    """How many workloads the import made (some may have left the scenario since)."""


def _tools(record: MeasuredImport) -> str:
    tools = "; ".join(src.tool + (f", {src.collected}" if src.collected else ", collection date not given")
                      for src in record.sources)
    return tools[:1].upper() + tools[1:]


def _tool_name(tool: str) -> str:
    """A tool without its article and its "(as ... collect them)" note."""
    return tool.removeprefix("an ").removeprefix("a ").split(" (as ")[0]


def measured_blocks(project: Project, scenario: Scenario) -> list[MeasuredBlock]:
    """The measured environment of ``project`` as seen from ``scenario``: one block per recorded import with some
    workload still in the scenario (none when the project records no import)."""
    blocks = []
    for record in project.measured:
        if record.workloads and not any(scenario.workload(w.workload) is not None for w in record.workloads):
            continue  # every imported workload since replaced or deleted
        lines = [("What was measured", record.measured)]
        if record.warnings:  # review 57 #1: a file listing fewer machines than its hosts run, said beside the figures
            lines.append(("Warning", " ".join(w[:1].upper() + w[1:] + ("" if w.endswith(".") else ".")
                                               for w in record.warnings)))
        lines += [("By what tool, and when", _tools(record)),
                  ("How the load was taken", record.method or "no performance figures in the files: capacity only"),
                  ("What was assumed", " ".join(record.assumptions) or "nothing")]
        if record.imported:
            lines.append(("Imported", record.imported[:10]))
        rows = []
        for item in record.workloads:
            workload = scenario.workload(item.workload)
            if workload is None:
                continue
            by = ", ".join(_tool_name(record.sources[i].tool) for i in item.sources)
            rows.append(MeasuredWorkloadRow(workload.name, by or NOT_AVAILABLE, item.members,
                                            item.method or "capacity only (no performance figures)"))
        blocks.append(MeasuredBlock(tuple(lines), tuple(rows), len(record.workloads)))
    return blocks


def measured_sheet(project: Project, scenario: Scenario) -> list[list[Any]]:
    """The workbook's "Measured environment" sheet: a header row, then per import (numbered from 1) its lines as
    (import, item, text) and its workloads as (import, "Workload", name, measured by, members, load taken as);
    only the header when the project records no import. The words are :func:`measured_blocks`', the report's."""
    rows: list[list[Any]] = [["Import", "Item", "Text", *WORKLOAD_HEADERS[1:]]]
    for n, block in enumerate(measured_blocks(project, scenario), start=1):
        rows += [[n, label, text, None, None, None] for label, text in block.lines]
        rows += [[n, WORKLOAD_HEADERS[0], w.name, w.measured_by, w.members, w.load_taken_as]
                 for w in block.workloads]
    return rows
