"""What the user calls the items of a design: a node's label, else its catalog model's name, never its id.

Shared by the problem messages (``problems.py``), the CLI, the report and the GUI, so an item has one name
everywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from models.catalog import Catalog
from models.project.kinds import NODE_KINDS, kind_label
from models.project.model import NodeBase

KIND_NAMES = {kind: row.label for kind, row in NODE_KINDS.items()}
"""Node kind -> its name in text (the kind table's ``label``)."""


def node_name(node: NodeBase, catalog: Catalog) -> str:
    """A node's name: its label, else its catalog model's name (as on the canvas), else "unnamed <kind>".

    Args: node: any project node; catalog: the catalog its ``catalog_id`` refers to.
    """
    if node.label:
        return node.label
    record = catalog.find(node.catalog_id)
    return record.name if record is not None else f"unnamed {kind_label(node.kind)}"


def node_names(nodes: Iterable[NodeBase], catalog: Catalog) -> dict[str, str]:
    """id -> name of these nodes, in order; equal names are told apart by the model name, then by a number
    ("DS2246 #1", "DS2246 #2")."""
    nodes = list(nodes)
    names = {n.id: node_name(n, catalog) for n in nodes}
    counts = Counter(names.values())
    for n in nodes:
        record = catalog.find(n.catalog_id)
        if counts[names[n.id]] > 1 and n.label and record is not None and record.name != n.label:
            names[n.id] = f"{n.label} ({record.name})"
    counts, seen = Counter(names.values()), Counter[str]()
    for n in nodes:
        name = names[n.id]
        if counts[name] > 1:
            seen[name] += 1
            names[n.id] = f"{name} #{seen[name]}"
    return names


def link_name(source: str, target: str, names: dict[str, str]) -> str:
    """A link named by its ends ("SQL Server 2014 – Brocade 6510"); ``names`` from :func:`node_names`."""
    return f"{names.get(source, source)} \u2013 {names.get(target, target)}"
