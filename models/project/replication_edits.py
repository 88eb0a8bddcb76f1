"""Pure edits of a scenario's replication relationships (scenario in, new scenario out; Qt-free), which the GUI's
document pushes as undoable commands like every other edit (``models.project.edits``)."""

from __future__ import annotations

from typing import Any

from models.project.factory import next_id
from models.project.model import Scenario
from models.project.replication import Replication, ReplicationKind


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


__all__ = ["add_replication", "set_replication_fields", "without_replications"]
