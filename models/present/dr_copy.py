"""The copies a replication destination holds, per destination system, for the capacity tables of the report and
the screen: a system that serves no workload and only receives replication (``ScenarioCapacity.replica_only``)
shows the copies it holds (``models.replication.figures``: the baseline, the transfer held while the next lands,
SnapVault's retained copies) in place of a data set, whether they fit and the months until the grown copies fill
it (the relationship's runway), instead of "no workload".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.units import growth_factor

if TYPE_CHECKING:
    from models.capacity.results import CapacityResult, ScenarioCapacity
    from models.replication import Protection

__all__ = ["DrCopy", "dr_copies", "dr_copy_months", "dr_copy_runway_label", "dr_copy_runway_lines",
           "dr_copy_runway_series", "first_to_fill"]


@dataclass(frozen=True)
class DrCopy:
    """The copies one destination system holds, summed over the relationships replicating to it.

    Attributes:
        system_id: the destination's node id.
        sources: the source systems' names, in scenario order.
        needed_bytes: the physical capacity the copies take (bytes).
        free_bytes: the destination's usable capacity less its own workloads' use (bytes; None: unknown).
        fits_now: the copies fit now (None: the free capacity is unknown).
        runway_months: months until the grown copies outgrow the free capacity (the shortest of its
            relationships; None beyond 20 years or unknown).
    """

    system_id: str
    sources: tuple[str, ...]
    needed_bytes: float
    free_bytes: float | None
    fits_now: bool | None
    runway_months: float | None

    def fits_over(self, horizon_months: float) -> bool | None:
        """The copies fit now and, grown, still fit at ``horizon_months`` (the runway beyond it); None unknown."""
        if self.fits_now is None:
            return None
        return self.fits_now and (self.runway_months is None or self.runway_months > horizon_months)


def dr_copies(protection: Protection | None) -> dict[str, DrCopy]:
    """Destination node id -> :class:`DrCopy` over a ``models.replication.Protection``'s relationships (an empty
    mapping without one). Several relationships to one destination add their copies; its runway is the shortest
    of theirs (each computed on the whole free capacity, so an upper bound when several share it)."""
    out: dict[str, DrCopy] = {}
    for f in protection.relationships if protection is not None else ():
        seen = out.get(f.target_id)
        source = f.source_name or f.source_id
        if seen is None:
            out[f.target_id] = DrCopy(f.target_id, (source,), f.destination_needed_bytes, f.destination_free_bytes,
                                      f.destination_fits, f.runway_months)
            continue
        needed = seen.needed_bytes + f.destination_needed_bytes
        free = seen.free_bytes
        runways = [m for m in (seen.runway_months, f.runway_months) if m is not None]
        out[f.target_id] = DrCopy(f.target_id, tuple(dict.fromkeys((*seen.sources, source))), needed, free,
                                  None if free is None else needed <= free, min(runways) if runways else None)
    return out


def dr_copy_runway_label(system: str) -> str:
    """``Months until the DR copy on <system> is full``: the DR copy's runway as the report's runway names it
    (:func:`dr_copy_runway_lines`), the label of its row in the exported Summary."""
    return f"Months until the DR copy on {system} is full"


def dr_copy_months(months: float | None) -> str:
    """A DR copy's runway in words: ``18 months``, ``already`` when full now, ``not within 20 years`` (None)."""
    from models.formatting import fmt_months

    return "not within 20 years" if months is None else "already" if months <= 0 else fmt_months(months)


def first_to_fill(capacity: ScenarioCapacity | None) -> tuple[float, CapacityResult] | None:
    """(months, system) of the system that fills first, a replication destination's DR copy included (the
    scenario's months until full counts only the systems serving workloads): the Capacity tab's key figure and
    ``runway.first_to_fill`` of ``storplan evaluate --json``; None without a system that fills."""
    from models.formatting import finite

    runways = [(float(s.months_until_full), s) for s in (capacity.systems if capacity is not None else ())
               if s.months_until_full is not None and finite(s.months_until_full)]
    return min(runways, key=lambda r: r[0]) if runways else None


def dr_copy_runway_lines(protection: Protection | None, names: dict[str, str]) -> list[str]:
    """One line per replication destination for the report's runway: when its grown copies fill it.

    The runway's "months until full" counts only the systems serving workloads (a destination's copies are not
    in the capacity totals), so a destination that fills first would otherwise be missing from the runway while
    the summary fails the design on it (review 42).

    Args:
        protection: the scenario's replication results (None: no lines).
        names: destination node id -> the name the report gives the system.

    Returns:
        e.g. ``["months until the DR copy on CVO DR is full: 18 months (its copies grown at their workloads'
        growth; Protection and DR)"]``; "not within 20 years" for a runway beyond it. Never raises.
    """
    out = []
    for system_id, copy in dr_copies(protection).items():
        months = dr_copy_months(copy.runway_months)
        out.append(f"months until the DR copy on {names.get(system_id, system_id)} is full: {months} (its copies "
                   "grown at their workloads' growth; see Protection and DR)")
    return out


def dr_copy_runway_series(protection: Protection | None, capacity: ScenarioCapacity | None, months: int = 60
                          ) -> list[tuple[str, list[tuple[float, float]]]]:
    """One runway line per replication destination: its physical use (its own workloads' use, constant: its usable
    capacity less the free capacity the relationship's runway counts on, plus the copies it holds, grown month by
    month) as a percent of its usable capacity, months 0 .. ``months``.

    The copies grow as the relationship's runway grows them (``models.replication.figures``): each protected
    workload's baseline and its share of the retained copies at the workload's yearly growth g, month by
    month as (1 + g)^(m / 12), and the transfer held while the next lands unchanged. So the line crosses 100% in the
    month the copies outgrow the free capacity, the runway's "months until the DR copy ... is full"
    (:func:`dr_copy_runway_lines`); with several relationships to one destination their copies add up, so the
    line crosses no later than the shortest of their runways.

    Args:
        protection: the scenario's replication results (None: no lines); capacity: the scenario's capacity
            (``Evaluation.capacity``: each destination's usable and used physical bytes; None: no lines);
            months: the last month drawn.

    Returns:
        [("DR copy on <system>: used / usable", [(month, percent), ...]), ...] in relationship order; a
        destination whose capacity is unknown or zero is left out. Never raises.
    """
    if protection is None or capacity is None:
        return []
    parts: dict[str, list[tuple[float, float]]] = {}
    own: dict[str, float] = {}  # the destination's own workloads' use: usable less the free capacity the runway used
    for f in protection.relationships:
        system = capacity.system(f.target_id)
        if system is None or system.usable_bytes <= 0 or f.destination_free_bytes is None:
            continue
        baseline = sum(c.dataset_bytes / c.reduction for c in f.workloads)
        retained = max(f.destination_needed_bytes - baseline - f.transfer_bytes, 0.0)
        sent = sum(c.sent_bytes_per_day for c in f.workloads)
        own[f.target_id] = max(system.usable_bytes - f.destination_free_bytes, 0.0)
        rows = parts.setdefault(f.target_id, [])
        rows += [(c.dataset_bytes / c.reduction, c.growth_pct_per_year) for c in f.workloads]
        rows += [(retained * c.sent_bytes_per_day / sent if sent > 0 else 0.0, c.growth_pct_per_year)
                 for c in f.workloads]
        rows.append((f.transfer_bytes, 0.0))
    out = []
    for system_id, rows in parts.items():
        system = capacity.system(system_id)
        assert system is not None  # kept above only with one
        name = system.system_label or system_id
        out.append((f"DR copy on {name}: used / usable",
                    [(float(m), 100.0 * (own[system_id] + sum(b * growth_factor(g, m) for b, g in rows))
                      / system.usable_bytes) for m in range(months + 1)]))
    return out
