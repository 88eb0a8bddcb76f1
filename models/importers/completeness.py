"""Whether a file lists every machine its own host sheets say the environment runs (review 57, item 1).

An export run with limited rights, filtered to some folders, or cut down by hand lists fewer machines than the
hosts run; nothing in the machine rows shows it, and summing the machines listed sizes the environment too small.
Two checks, from the same file:

* **machine count**: the machines listed against the machines the hosts report (RVTools vHost "# VMs total",
  registered machines powered on or off, templates included, and "# VMs", those running; Live Optics ESX Hosts
  "Guest VM Count"); fewer listed than reported is an incomplete export.
* **host peaks** (Live Optics ESX Performance "Peak IOPS"): a host's I/O is its machines' I/O, and a host's peak
  is its machines' summed load at one moment, so it cannot exceed the sum of their own peaks. Summed over the hosts
  of a cluster (each machine runs on one host), the hosts' peaks cannot exceed the sum of the peaks of the cluster's
  machines; where they do (by more than :data:`PEAK_SLACK`, for machines moved between hosts during the collection),
  machines or their I/O are missing from the file.

Each finding is one warning sentence in a customer's words (no file name; a cluster named by its pseudonym unless
names are kept); any warning withdraws the claim that a sum of per-machine peaks is at or above the environment's
load (``models.importers.provenance``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from models.importers.inventory import Inventory

PEAK_SLACK = 0.10
"""How far (a fraction) a cluster's summed host peaks may exceed its machines' summed peaks before a warning."""
TOOL = {"rvtools": "RVTools export", "liveoptics": "Live Optics export"}
COUNT_COLUMN = {"rvtools": "vHost '# VMs total'", "liveoptics": "ESX Hosts 'Guest VM Count'"}
"""Where each tool's hosts report the machines they run (sheet and column)."""
INCOMPLETE = "incomplete export"
"""Every completeness warning starts with these words (the wizard and the report find them by it)."""


def _machine_peak(inv: Inventory, cluster: str) -> float:
    """The sum of the peak IOPS (read + write) of ``inv``'s machines in ``cluster``."""
    total = 0.0
    for m in inv.machines:
        f = m.figures("peak")
        if m.cluster == cluster and f is not None:
            total += (f.read_iops or 0.0) + (f.write_iops or 0.0)
    return total


def completeness_warnings(inventories: Sequence[Inventory], name: Callable[[str], str]) -> tuple[str, ...]:
    """The warnings of files that list fewer machines, or less load, than their own host sheets report.

    Args:
        inventories: what was read; name: a cluster's name as the import shows it (its pseudonym unless names are
            kept).

    Returns:
        One sentence per finding, each starting with :data:`INCOMPLETE` (empty when every check passes or the files
        carry no host sheet).
    """
    out: list[str] = []
    for inv in inventories:
        tool = TOOL.get(inv.source)
        if tool is None or not inv.hosts:
            continue
        counts = [h.machines for h in inv.hosts if h.machines is not None]
        listed = len(inv.machines)
        if counts and sum(counts) > listed:
            reported = sum(counts)
            running = [h.powered_on for h in inv.hosts if h.powered_on is not None]
            on = sum(1 for m in inv.machines if m.powered_on)
            also = (f"; {sum(running):,} running by vHost '# VMs', {on:,} of them listed" if running
                    and sum(running) > on else "")
            out.append(f"{INCOMPLETE}: the {tool} lists {listed:,} machine(s), but its {len(counts):,} host(s) "
                       f"report {reported:,} ({COUNT_COLUMN[inv.source]}{also}): the export is filtered or cut "
                       f"down, and the capacity and load of the {reported - listed:,} machine(s) not listed are "
                       "missing; export the whole environment")
        clusters: dict[str, list[float]] = {}
        for h in inv.hosts:
            if h.peak_iops is not None:
                clusters.setdefault(h.cluster, []).append(h.peak_iops)
        for cluster in sorted(clusters):
            hosts = sum(clusters[cluster])
            machines = _machine_peak(inv, cluster)
            if hosts > machines * (1 + PEAK_SLACK) and hosts - machines >= 1:
                where = f"cluster {name(cluster)}" if cluster else "hosts without a cluster"
                out.append(f"{INCOMPLETE}: in the {tool}, {where}: its {len(clusters[cluster]):,} host(s)' peaks add "
                           f"up to {hosts:,.0f} IOPS (ESX Performance 'Peak IOPS'), the peaks of its machines listed "
                           f"to {machines:,.0f} IOPS; a host's peak cannot exceed the sum of its machines' peaks, so "
                           "machines or their I/O are missing from the file")
    return tuple(out)
