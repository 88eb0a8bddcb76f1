"""Pure edits of a scenario's replication relationships (scenario in, new scenario out; Qt-free), which the GUI's
document pushes as undoable commands like every other edit (``models.project.edits``)."""

from __future__ import annotations

from typing import Any

from models.project.factory import next_id
from models.project.model import Scenario
from models.project.replication import ChangeRate, Replication, ReplicationKind


def add_replication(scenario: Scenario, source: str, target: str,
                    kind: ReplicationKind = "snapmirror") -> tuple[Scenario, Replication]:
    """The scenario with a new relationship ``source`` -> ``target`` of ``kind`` (a fresh id ``replication-N``,
    the record's defaults: hourly, 1 Gbit/s, every workload of the source), and that relationship.

    Raises:
        ValueError: an end is not a node of the scenario, or both ends are the same item.
    """
    ids = {n.id for n in scenario.nodes}
    for end in (source, target):
        if end not in ids:
            raise ValueError(f"'{end}' is not an item of this scenario")
    rep = Replication(id=next_id(scenario, "replication"), source=source, target=target, kind=kind)
    return scenario.model_copy(update={"replications": [*scenario.replications, rep]}), rep


def set_replication_fields(scenario: Scenario, replication_id: str, **changes: Any) -> Scenario:
    """The scenario with fields of relationship ``replication_id`` changed.

    Raises:
        ValueError: unknown id, unknown field or a value the field refuses (pydantic's message names it).
    """
    reps = list(scenario.replications)
    index = next((i for i, r in enumerate(reps) if r.id == replication_id), None)
    if index is None:
        raise ValueError(f"no replication relationship '{replication_id}'")
    unknown = sorted(set(changes) - set(Replication.model_fields))
    if unknown:
        raise ValueError(f"a replication relationship has no field '{unknown[0]}'")
    reps[index] = reps[index].with_changes(**changes)
    return scenario.model_copy(update={"replications": reps})


def without_replications(scenario: Scenario, ids: set[str]) -> Scenario:
    """The scenario without the relationships whose id is in ``ids`` or whose source or target is no longer a node
    (removing a system removes its relationships); unchanged (the same object) when none goes."""
    nodes = {n.id for n in scenario.nodes}
    kept = [r for r in scenario.replications if r.id not in ids and r.source in nodes and r.target in nodes]
    if len(kept) == len(scenario.replications):
        return scenario
    return scenario.model_copy(update={"replications": kept})


def _relationship(scenario: Scenario, replication_id: str) -> Replication:
    rep = next((r for r in scenario.replications if r.id == replication_id), None)
    if rep is None:
        raise ValueError(f"no replication relationship '{replication_id}'")
    return rep


def source_workload_ids(scenario: Scenario, replication_id: str) -> list[str]:
    """Ids of the workloads the relationship's source serves, in scenario order (what it can protect).

    Raises:
        ValueError: unknown relationship id.
    """
    rep = _relationship(scenario, replication_id)
    return [w.id for w in scenario.workloads if w.target == rep.source]


def set_protected(scenario: Scenario, replication_id: str, workload_id: str, protected: bool) -> Scenario:
    """The scenario with ``workload_id`` protected by the relationship or not.

    A relationship naming no workload protects every workload of its source; unticking one of them names the
    others; ticking the last one back names them all (not "every workload", which would also take workloads added
    later).

    Raises:
        ValueError: unknown relationship, a workload its source does not serve, or unticking the only protected
            workload (a relationship protects at least one).
    """
    rep = _relationship(scenario, replication_id)
    served = source_workload_ids(scenario, replication_id)
    if workload_id not in served:
        raise ValueError(f"workload '{workload_id}' is not served by the relationship's source '{rep.source}'")
    current = [w for w in rep.workloads if w in served] if rep.workloads else list(served)
    chosen = set(current) | {workload_id} if protected else set(current) - {workload_id}
    if not chosen:
        raise ValueError("a replication relationship protects at least one workload")
    kept = [w for w in served if w in chosen]
    return set_replication_fields(scenario, replication_id, workloads=kept)


def _change_rows(scenario: Scenario, replication_id: str, workload_id: str) -> tuple[list[ChangeRate], int | None]:
    """The relationship's change rows (a copy) and the index of ``workload_id``'s row (None: it has none).

    Raises:
        ValueError: unknown relationship or a workload not in the scenario.
    """
    rep = _relationship(scenario, replication_id)
    if scenario.workload(workload_id) is None:
        raise ValueError(f"no workload '{workload_id}'")
    rows = list(rep.change)
    return rows, next((i for i, c in enumerate(rows) if c.workload == workload_id), None)


def set_change_rate(scenario: Scenario, replication_id: str, workload_id: str, bytes_per_day: int | None) -> Scenario:
    """The scenario with the relationship's change per day for ``workload_id`` set (bytes, logical), or back to the
    default (None: its row goes unless it keeps a daily profile).

    Raises:
        ValueError: unknown relationship, a workload not in the scenario, or a value the record refuses.
    """
    rows, index = _change_rows(scenario, replication_id, workload_id)
    if index is None:
        if bytes_per_day is None:
            return scenario
        rows.append(ChangeRate(workload=workload_id, bytes_per_day=bytes_per_day))
    elif bytes_per_day is None and not rows[index].hourly_profile:
        del rows[index]
    else:
        rows[index] = rows[index].with_changes(bytes_per_day=bytes_per_day)
    return set_replication_fields(scenario, replication_id, change=rows)


def set_change_profile(scenario: Scenario, replication_id: str, workload_id: str, profile: list[float]) -> Scenario:
    """The scenario with the relationship's daily change profile for ``workload_id`` set (24 relative weights, hour 0
    to 23), or back to even ([]: its row goes unless it states a change per day).

    Raises:
        ValueError: unknown relationship, a workload not in the scenario, or a profile the record refuses (not 24
            weights, a negative weight, every weight 0).
    """
    rows, index = _change_rows(scenario, replication_id, workload_id)
    if index is None:
        if not profile:
            return scenario
        rows.append(ChangeRate(workload=workload_id, hourly_profile=list(profile)))
    elif not profile and rows[index].bytes_per_day is None:
        del rows[index]
    else:
        rows[index] = rows[index].with_changes(hourly_profile=list(profile))
    return set_replication_fields(scenario, replication_id, change=rows)


__all__ = ["add_replication", "set_change_profile", "set_change_rate", "set_protected", "set_replication_fields",
           "source_workload_ids", "without_replications"]
