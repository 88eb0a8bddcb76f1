"""``storplan import-env``'s "your system today" step (issue 31, item 6): the installed controller (given with
``--installed`` or named by the ONTAP data), its design with the imported workloads, the measured against the
predicted latency at the measured load, and the measured series written for ``storplan calibrate --csv``
(``models.installed``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from models.catalog import Catalog
from models.importers.inventory import Inventory
from models.importers.workloads import ImportResult
from models.project.model import Project, Scenario


class TodayError(ValueError):
    """The step cannot be done (an unknown controller or drive, no design of it, a calibration file that cannot
    be written or has no point to write): one line naming what is wrong."""


@dataclass(frozen=True)
class Today:
    """The installed design (``scenario``, ``summary``) and what the command prints after the import (``lines``)."""

    scenario: Scenario | None
    summary: str
    lines: tuple[str, ...]


def _write_calibration(args: argparse.Namespace, inventories: Sequence[Inventory], result: ImportResult) -> str:
    """Write ``--calibration-csv``: the whole collection's load per interval, or with ``--calibration-workload``
    (an imported workload's id or name) that workload's; returns the line to print."""
    from models.installed import calibration_csv, calibration_points, group_calibration_points

    name = Path(args.calibration_csv).name
    wanted = getattr(args, "calibration_workload", None)
    workload_id = ""
    if wanted:
        found = next((i for i, (g, w) in enumerate(zip(result.groups, result.workloads, strict=True))
                      if wanted in (w.id, w.name, g.name)), None)
        if found is None:
            known = ", ".join(f"{w.id} ({g.name})" for g, w in zip(result.groups, result.workloads, strict=True))
            raise TodayError(f"--calibration-workload {wanted}: no imported workload of that id or name "
                             f"(imported: {known[:400]})")
        group, workload_id = result.groups[found], result.workloads[found].id
        points = group_calibration_points(group)
        what = f"of workload {workload_id} ({group.name})"
        if not points:
            raise TodayError(f"--calibration-csv {name}: workload {workload_id} ({group.name}) has no interval with "
                             "operations and a latency (its members need series: ONTAP counters polled twice or "
                             "more)")
    else:
        points = calibration_points(inventories)
        what = "of the whole collection"
        if not points:
            raise TodayError(f"--calibration-csv {name}: the files give no interval with operations and a latency "
                             "(ONTAP counters polled twice or more)")
    from models.atomic import write_text_atomic

    try:
        write_text_atomic(Path(args.calibration_csv), calibration_csv(points))
    except OSError as exc:
        raise TodayError(f"cannot write {name}: {exc}") from exc
    return (f"wrote {args.calibration_csv} ({len(points)} measured interval(s) {what}); fit the installed "
            f"controller with: storplan calibrate --csv {args.calibration_csv} --project {args.output}"
            + (f" --workload {workload_id}" if workload_id else "")
            + ("" if len(points) > 1 else " (a fit needs two intervals or more at loads 10% apart)"))


def installed_today(args: argparse.Namespace, inventories: Sequence[Inventory], result: ImportResult,
                    project: Project, catalog: Catalog | None) -> Today | None:
    """Run the step for ``import-env``'s ``args`` (``installed``, ``installed_drive``, ``calibration_csv``,
    ``calibration_workload``, ``output``)
    on ``inventories`` and their ``result``; ``project`` is the starting design with the imported
    workloads, ``catalog`` the base catalog it was read with (None: bundled plus the user's).

    Returns:
        None when there is nothing to do (no installed controller given or named, no calibration file asked for);
        else a :class:`Today` whose ``scenario`` is None when no installed controller is known.

    Raises:
        TodayError: an unknown controller or drive, no design of it, or a calibration file that cannot be written
            or has no point to write.
    """
    from models.evaluate import project_catalog
    from models.installed import (
        InstalledError,
        compare_measured,
        comparison_lines,
        installed_design,
        match_controller,
    )

    if getattr(args, "calibration_workload", None) and not args.calibration_csv:
        raise TodayError("--calibration-workload goes with --calibration-csv CSV")
    lines: list[str] = []
    named = next((inv.controller_model for inv in inventories if inv.controller_model), "")
    full = project_catalog(project, catalog)
    controller_id = args.installed
    if controller_id is None and named:
        found = match_controller(named, full)
        if found is None:
            lines.append(f"installed: the data names the controller model {named}, which the catalog does not hold; "
                         "give it with --installed CONTROLLER to compare measured and predicted latency")
        else:
            controller_id = found.id
            lines.append(f"installed: the data names the controller model {named} ({found.name})")
    if args.installed_drive and controller_id is None:
        raise TodayError("--installed-drive goes with an installed controller (--installed, or a model in the data)")
    scenario, summary = None, ""
    if controller_id is not None:
        try:
            design = installed_design(project, controller_id, full, args.installed_drive, result.groups)
        except InstalledError as exc:
            raise TodayError(str(exc)) from exc
        scenario, summary = design.scenario, design.summary
        lines.append(f"installed design: {summary}")
        lines.extend(f"      {note}" for note in design.notes)
        rows = compare_measured(project.with_scenario(scenario), result.groups, catalog)
        lines.append("measured against predicted latency at the measured load:" if rows else
                     "no measured workload to compare with the prediction")
        lines.extend(f"  {line}" for line in comparison_lines(rows))
    if args.calibration_csv:
        lines.append(_write_calibration(args, inventories, result))
    if scenario is None and not lines:
        return None
    return Today(scenario, summary, tuple(lines))
