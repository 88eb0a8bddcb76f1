"""The copies a replication destination holds, per destination system, for the capacity tables of the report and
the screen: a system that serves no workload and only receives replication (``ScenarioCapacity.replica_only``)
shows the copies it holds (``models.replication.figures``: the baseline, the transfer held while the next lands,
SnapVault's retained copies) in place of a data set, whether they fit and the months until the grown copies fill
it (the relationship's runway), instead of "no workload".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.replication import Protection

__all__ = ["DrCopy", "dr_copies"]


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
