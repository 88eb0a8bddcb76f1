"""Undo commands and the pure edits they carry.

Every user change is one :class:`ReplaceProjectCommand`: it holds the project snapshot before and after (the
records are frozen, so a snapshot is cheap and safe to share) and asks the document to show one or the other.
The document diffs the two snapshots and emits fine-grained signals; no command touches a view. The one change
that is not the project's is re-pinning a file's catalog records (:class:`RepinCatalogCommand`): it swaps the
document's base catalog the same way.

The functions below are pure: scenario in, scenario out (Qt-free, testable on their own). They raise
``ValueError`` (pydantic's ``ValidationError`` is one) when the edit is invalid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from PySide6.QtGui import QUndoCommand

from models.catalog import Catalog
from models.project.factory import next_id
from models.project.model import Link, NodeBase, Project, Scenario, Workload

if TYPE_CHECKING:
    from app.gui.document import ProjectDocument

MERGE_EDIT = 1001
"""Command id of field edits: consecutive edits of the same field of the same record merge (spin-box steps)."""


class ReplaceProjectCommand(QUndoCommand):
    """Swap the document's project between two snapshots.

    ``merge_key`` (e.g. ``("node", "shelf-1", "drive_count")``) makes consecutive commands with the same key
    merge into one undo step.
    """

    def __init__(self, document: "ProjectDocument", before: Project, after: Project, text: str,
                 merge_key: tuple | None = None) -> None:
        super().__init__(text)
        self._document = document
        self.before = before
        self.after = after
        self.merge_key = merge_key

    def id(self) -> int:  # noqa: A003 - Qt's name
        """Qt's merge id: field edits share one, so consecutive edits of one field can merge."""
        return MERGE_EDIT if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        """Absorb ``other`` when it edits the same field right after this one (spin-box steps)."""
        if not isinstance(other, ReplaceProjectCommand) or other.merge_key != self.merge_key:
            return False
        if other.before is not self.after:
            return False
        self.after = other.after
        return True

    def redo(self) -> None:
        """Show the project after the change."""
        self._document._show(self.after)

    def undo(self) -> None:
        """Show the project before the change."""
        self._document._show(self.before)


class RepinCatalogCommand(QUndoCommand):
    """Swap the document's base catalog (the pinned records) for another one; undo swaps it back.

    ``before`` / ``after``: the base catalogs (None = the default catalog); ``text``: the Edit menu's words.
    """

    def __init__(self, document: "ProjectDocument", before: Catalog | None, after: Catalog | None, text: str) -> None:
        super().__init__(text)
        self._document, self._before, self._after = document, before, after

    def redo(self) -> None:
        """Evaluate against the re-pinned catalog."""
        self._document.set_base_catalog(self._after)

    def undo(self) -> None:
        """Evaluate against the catalog pinned before."""
        self._document.set_base_catalog(self._before)


# --- pure edits -----------------------------------------------------------------------------------------------

def add_nodes(scenario: Scenario, nodes: Iterable[NodeBase], links: Iterable[Link] = ()) -> Scenario:
    """The scenario with ``nodes`` and ``links`` appended (ids must be new)."""
    return scenario.with_changes(
        nodes=[*(n.model_dump() for n in scenario.nodes), *(n.model_dump() for n in nodes)],
        links=[*(l.model_dump() for l in scenario.links), *(l.model_dump() for l in links)],
    )


def replace_node(scenario: Scenario, node: NodeBase) -> Scenario:
    """The scenario with the node of ``node.id`` replaced by ``node``."""
    nodes = [node if n.id == node.id else n for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


def set_node_fields(scenario: Scenario, node_id: str, **changes: Any) -> Scenario:
    """The scenario with fields of node ``node_id`` changed (ValueError: unknown id or bad value)."""
    node = scenario.node(node_id)
    if node is None:
        raise ValueError(f"no item '{node_id}'")
    return replace_node(scenario, node.with_changes(**changes))


def move_nodes(scenario: Scenario, positions: dict[str, tuple[float, float]]) -> Scenario:
    """The scenario with nodes moved: ``positions`` maps node id -> (x, y) in scene units."""
    nodes = [
        n.model_copy(update={"x": float(positions[n.id][0]), "y": float(positions[n.id][1])}) if n.id in positions else n
        for n in scenario.nodes
    ]
    return scenario.model_copy(update={"nodes": nodes})


def remove_items(scenario: Scenario, ids: Iterable[str]) -> Scenario:
    """Remove nodes and links by id; links of removed nodes go too. Workloads keep their (now dangling) target,
    which the problems list reports, so removing a controller never silently deletes a workload."""
    ids = set(ids)
    nodes = [n for n in scenario.nodes if n.id not in ids]
    kept = {n.id for n in nodes}
    links = [l for l in scenario.links if l.id not in ids and l.source in kept and l.target in kept]
    return scenario.model_copy(update={"nodes": nodes, "links": links})


def add_link(scenario: Scenario, source: str, target: str, link_type: str, ports: int = 1) -> tuple[Scenario, Link]:
    """The scenario with a new link ``source`` -> ``target``, and that link."""
    link = Link(id=next_id(scenario, "link"), source=source, target=target, link_type=link_type, ports=ports)
    return scenario.model_copy(update={"links": [*scenario.links, link]}), link


def set_link_fields(scenario: Scenario, link_id: str, **changes: Any) -> Scenario:
    """The scenario with fields of link ``link_id`` changed (ValueError: unknown id or bad value)."""
    links = [l.with_changes(**changes) if l.id == link_id else l for l in scenario.links]
    return scenario.model_copy(update={"links": links})


def set_workloads(scenario: Scenario, workloads: list[Workload]) -> Scenario:
    """The scenario with its workloads replaced by ``workloads``."""
    return scenario.with_changes(workloads=[w.model_dump() for w in workloads])


def paste_nodes(scenario: Scenario, nodes: list[NodeBase], links: list[Link], offset: float = 40.0
                ) -> tuple[Scenario, list[str]]:
    """Copies of ``nodes`` (and of the links among them) with new ids, shifted by ``offset``."""
    mapping: dict[str, str] = {}
    new_nodes = []
    work = scenario
    for node in nodes:
        new_id = next_id(work, node.kind)
        mapping[node.id] = new_id
        copy = node.model_copy(update={"id": new_id, "x": node.x + offset, "y": node.y + offset})
        new_nodes.append(copy)
        work = work.model_copy(update={"nodes": [*work.nodes, copy]})
    for link in links:
        if link.source in mapping and link.target in mapping:
            copy = link.model_copy(update={"id": next_id(work, "link"), "source": mapping[link.source],
                                           "target": mapping[link.target]})
            work = work.model_copy(update={"links": [*work.links, copy]})
    return work, [mapping[n.id] for n in nodes]


LAYOUT_COLUMN = {"host": 0, "switch": 1, "controller": 2, "hci_cluster": 2, "cloud_vm": 2, "shelf": 3}
"""Auto-layout column of each node kind: hosts -> switches -> controllers / clusters / VMs -> shelves."""


def auto_layout(scenario: Scenario, column_gap: float = 320.0, row_gap: float = 120.0) -> dict[str, tuple[float, float]]:
    """Left-to-right positions: one column per kind (LAYOUT_COLUMN), items centred vertically in their column."""
    columns: dict[int, list[NodeBase]] = {}
    for node in scenario.nodes:
        columns.setdefault(LAYOUT_COLUMN.get(node.kind, 2), []).append(node)
    tallest = max((len(c) for c in columns.values()), default=0)
    positions = {}
    for col, nodes in columns.items():
        top = (tallest - len(nodes)) * row_gap / 2
        for row, node in enumerate(nodes):
            positions[node.id] = (col * column_gap, top + row * row_gap)
    return positions


def needs_layout(scenario: Scenario) -> bool:
    """True when items sit on top of each other (a new or hand-written topology without positions)."""
    seen = set()
    for node in scenario.nodes:
        key = (round(node.x / 40), round(node.y / 40))
        if key in seen:
            return True
        seen.add(key)
    return False


def unique_scenario_name(project: Project, base: str) -> str:
    """``base``, or ``base (2)``, ``base (3)``… : the first name no scenario of ``project`` has."""
    names = {s.name for s in project.scenarios}
    if base not in names:
        return base
    n = 2
    while f"{base} ({n})" in names:
        n += 1
    return f"{base} ({n})"
