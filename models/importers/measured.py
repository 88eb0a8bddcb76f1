"""The project's record of where its imported workloads were measured (``models.project.model.MeasuredImport``):
the tools and their collection dates, what was measured, how each workload's peak was taken and what was assumed.
Every import path (``storplan import-env``, the desktop app's import wizard, into a new design or an existing one)
adds one, and the report prints it as its own section, whatever the project's description says.

The words are a customer's (``models.importers.provenance``): the tool, never a code id, and no file name or path
(an import keeps none)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping, Sequence

from models.importers.inventory import Inventory
from models.importers.provenance import TOOL_WORDS, _method_words, collected_words, rate_words
from models.importers.workloads import (
    ASSUMED_RANDOM_PCT,
    SHORT_SERIES_ADVICE,
    ImportedGroup,
    ImportResult,
    guest_words,
    tib_words,
)
from models.project.model import MeasuredImport, MeasuredSource, MeasuredWorkload


def _workload_method(group: ImportedGroup) -> str:
    """A workload's record of how its figures were taken: its aggregation method, then per figure the sheet and
    column it came from and how it was combined (review 57 #5); a capacity-only workload: where its capacity came
    from."""
    if group.needs_preset:  # the report reads "capacity only" first, as for a record without provenance
        return "; ".join(["capacity only (no performance figures)", *group.provenance]) if group.provenance else ""
    return "; ".join([group.method, *group.provenance])


def _grouped_words(inventories: Sequence[Inventory], group_by: str) -> str:
    volumes_only = not any(inv.machines for inv in inventories)
    if volumes_only:
        return {"cluster": "SVM", "tag": "SVM", "datastore": "aggregate", "svm": "SVM"}.get(group_by, group_by)
    return {"pattern": "name pattern", "svm": "cluster", "aggregate": "datastore"}.get(group_by, group_by)


def measured_import(inventories: Sequence[Inventory], result: ImportResult, group_by: str,
                    workload_ids: Mapping[str, str] | None = None,
                    now: _dt.datetime | None = None) -> MeasuredImport:
    """The record of one import.

    Args:
        inventories: what was read, in the order the import grouped them (only the files some workload came from
            are recorded as sources); result: the import
            (``models.importers.workloads.import_environment``); group_by: its grouping;
        workload_ids: an imported workload's id -> its id in the project where the import renamed it (an import
            into an existing design); now: the import's time (default: now, UTC).
    """
    groups = result.groups
    # the files some workload came from (a file whose members all made no workload is not a source of any)
    used_files = sorted({i for g in groups for i in g.sources}) or list(range(len(inventories)))
    position = {index: n for n, index in enumerate(used_files)}
    sources = [MeasuredSource(tool=TOOL_WORDS.get(inventories[i].source, inventories[i].source)[:200],
                              collected=collected_words(inventories[i])[:200]) for i in used_files]
    measured = [g for g in groups if not g.needs_preset]
    members = sum(g.members for g in groups)
    nouns = sorted({g.member_noun for g in groups})
    noun = (f"{nouns[0]}s" if len(nouns) == 1 else "machines, volumes or LUNs") if members != 1 else \
        (nouns[0] if nouns else "member")
    basis = result.capacity_basis
    if basis == "provisioned":  # review 55 #1: the customer read provisioned as used
        used = f"{tib_words(result.provisioned_bytes)} provisioned (counted as used: the files give no used capacity)"
    elif result.capacity_bytes or result.provisioned_bytes:
        used = f"{tib_words(result.capacity_bytes)} used"
        if basis == "partly provisioned":
            used += " (the provisioned size counted where no used capacity is given)"
        if result.provisioned_bytes > result.capacity_bytes:
            used += f" ({tib_words(result.provisioned_bytes)} provisioned)"
    else:
        used = "capacity not measured (the files give none)"
    guest = guest_words(result, inventories)
    if guest:  # review 57 #2: the sized figure is the datastore's; the guests hold less
        used = guest + (f" ({tib_words(result.provisioned_bytes)} provisioned)"
                        if result.provisioned_bytes > result.capacity_bytes else "")
    grouped = _grouped_words(inventories, group_by)
    what = (f"{members:,} {noun} grouped by {grouped} into {len(groups)} workload{'s' if len(groups) != 1 else ''}, "
            f"{used}")
    if measured:
        what += f"; a load of {rate_words(result.iops)} IOPS and {result.mbps:,.1f} MB/s"
    else:
        what += "; no performance figures in the files"
    method = "; ".join(sorted({_method_words(g.method, not result.warnings) for g in measured})) if measured else ""
    assumptions: list[str] = []
    if measured:
        assumptions.append(f"Read share and I/O size as measured; {ASSUMED_RANDOM_PCT:g}% random I/O assumed (no "
                           "tool measures it).")
        if any("average read/write ratio" in n for inv in inventories for n in inv.notes):
            assumptions.append("Each machine's read/write mix at its peak is taken from its measured average mix, "
                               "within what its own read and write peaks allow (the tool gives the peak's total, not "
                               "its split).")
    short = sorted({g.method for g in measured if g.method.endswith("not a peak")})
    if short:  # review 55 #3: one poll's interval is not a peak
        assumptions.append(f"The load is {short[0]}: the collection is too short to show the busiest time; "
                           f"{SHORT_SERIES_ADVICE}.")
    if basis == "provisioned":
        assumptions.append(f"The files give no used capacity: the provisioned disk sizes "
                           f"({tib_words(result.provisioned_bytes)}) are counted as the data to store (thin disks "
                           "hold less).")
    elif basis == "partly provisioned":
        assumptions.append("Where the files give no used capacity, the provisioned size is counted as the data to "
                           "store (thin disks hold less).")
    if len(measured) < len(groups):
        waiting = len(groups) - len(measured)
        noun, verb, them = ("workload", "counts", "it") if waiting == 1 else ("workloads", "count", "them")
        assumptions.append(f"{waiting} {noun} without performance figures {verb} for capacity only: no load is "
                           f"assumed for {them}.")
    if not (result.capacity_bytes or result.provisioned_bytes):
        assumptions.append("No capacity in the files: the capacity needed is not measured.")
    assumptions.append("Growth is not measured by any tool: 0% a year until the customer's figure is set.")
    rename = workload_ids or {}
    records = [MeasuredWorkload(workload=rename.get(w.id, w.id), sources=[position[i] for i in g.sources
                                                                          if i in position], members=g.members,
                                method=_workload_method(g)[:2000])
               for g, w in zip(groups, result.workloads, strict=True)]
    when = (now or _dt.datetime.now(_dt.UTC)).replace(microsecond=0).isoformat()
    return MeasuredImport(imported=when, sources=sources, grouped_by=grouped,
                          measured=what, method=method, assumptions=assumptions, workloads=records,
                          warnings=[w[:2000] for w in result.warnings[:100]])
