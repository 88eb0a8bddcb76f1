"""Where an import's numbers came from, in a customer's words: the tool, the file and when it was collected, how
each workload's load was aggregated and what was assumed (the imported project's description, shown on the
report's cover and in the workbook). No internal source id, no menu path, no file name (an import keeps no file
name or path: ``models.importers.workloads``)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence

from models.importers.inventory import Inventory
from models.importers.workloads import ASSUMED_RANDOM_PCT, ImportResult, capacity_words, guest_words
from models.units import format_iops

TOOL_WORDS = {"rvtools": "an RVTools export", "liveoptics": "a Live Optics (Optical Prime) export",
              "ontap": "ONTAP performance counters (as NetApp Harvest or ONTAP statistics collect them)",
              "azure-migrate": "an Azure Migrate Core Report"}
"""Source kind -> what the file is, as a customer knows the tool."""
_EPOCH_2001 = 978_307_200.0
"""Series times before 2001 are counted from the series' start, not a clock: no date is given from them."""


def rate_words(value: float) -> str:
    """An imported rate (IOPS, MB/s) as the import's summaries print it: digit groups from 10 up (``31,940``), two
    significant digits below (``0.42``: a measured trickle never reads as ``0``)."""
    return f"{value:,.0f}" if value >= 9.95 else format_iops(value)


def collected_words(inv: Inventory) -> str:
    """When ``inv``'s data was collected, in words ("collected 2022/11/14", "measured 2024-07-29 16:14 to 16:17
    UTC", "... cluster time" for ONTAP statistics text: ``Inventory.clock``), "" where neither the file nor its
    series' clock says."""
    if inv.collected:
        return f"collected {inv.collected}"
    samples = [s for m in inv.machines for s in m.series] + [s for v in inv.volumes for s in v.series]
    times = [s.time_s for s in samples]
    if not times or min(times) < _EPOCH_2001:
        return ""
    start = min(s.time_s - s.interval_s for s in samples)  # the first interval's start
    first = _dt.datetime.fromtimestamp(start, _dt.UTC)
    last = _dt.datetime.fromtimestamp(max(times), _dt.UTC)
    end = last.strftime("%H:%M") if last.date() == first.date() else last.strftime("%Y-%m-%d %H:%M")
    return f"measured {first.strftime('%Y-%m-%d %H:%M')} to {end} {inv.clock}"


def _method_words(method: str, complete: bool = True) -> str:
    """A group's aggregation method (``ImportedGroup.method``) with what it means for the load; ``complete``
    False (the files list fewer machines or less load than their hosts report: ``ImportResult.warnings``): the sum
    is of the members listed, and no claim is made that it covers the environment's load (review 57 #1)."""
    if method.startswith("sum of per-"):
        noun = method.removeprefix("sum of per-").split(" ", 1)[0]
        if not complete:
            return (f"{method}, i.e. each listed {noun}'s own figure added up (the files list fewer {noun}s or "
                    f"less load than their hosts report: the load of the {noun}s not listed is missing)")
        return (f"{method}, i.e. each {noun}'s own figure added up (at or above their combined load, as "
                f"{noun}s seldom peak at once)")
    if method.startswith("peak of sums over time"):
        return method.replace("peak of sums over time", "the busiest measured interval of the summed load", 1)
    return method


def import_description(inventories: Sequence[Inventory], result: ImportResult, group_by: str,
                       design: str = "") -> str:
    """The imported project's description: the tools and their collection dates, what was imported, how the load
    was aggregated, what was assumed, and ``design`` (a sentence on the design; default: a starting point)."""
    files = []
    for inv in inventories:
        when = collected_words(inv)
        files.append(TOOL_WORDS.get(inv.source, inv.source) + (f", {when}" if when else ""))
    members = sum(g.members for g in result.groups)
    measured = [g for g in result.groups if not g.needs_preset]
    volumes_only = not any(inv.machines for inv in inventories)
    noun = ("volume(s) or LUN(s)" if volumes_only else "machine(s)" if not any(inv.volumes for inv in inventories)
            else "machine(s), volume(s) or LUN(s)")
    by = {"cluster": "SVM", "tag": "SVM", "datastore": "aggregate"}.get(group_by, group_by) if volumes_only \
        else group_by
    capacity = guest_words(result, inventories) or capacity_words(result.capacity_bytes, result.provisioned_bytes,
                                                                   result.capacity_basis)
    text = (f"Measured environment from {'; '.join(files)}: {members:,} {noun} in {len(result.groups)} workload(s) "
            f"grouped by {by}, {capacity}")
    if measured:
        methods = sorted({_method_words(g.method, not result.warnings) for g in measured})
        text += (f", {rate_words(result.iops)} IOPS and {result.mbps:,.1f} MB/s. Load per workload: "
                 f"{'; '.join(methods)}. Read share and I/O size as measured; {ASSUMED_RANDOM_PCT:g}% random I/O "
                 "assumed (no tool measures it)")
        if any("average read/write ratio" in n for inv in inventories for n in inv.notes):
            text += ("; each machine's read/write mix at its peak taken as its measured average mix, within what its "
                     "own read and write peaks allow")
    else:
        text += "; the files give no performance figures"
    if result.warnings:  # review 57 #1: the figures above are of the machines listed only (the measured record
        # names each finding)
        text += (". Warning: the files list fewer machines or less load than their own hosts report (an incomplete "
                 "export): the figures above are too small")
    text += ". " + (design or "The design shown is a starting point for sizing, not a recommendation.")
    return text
