"""Every change a person makes to a project, as a pure function: project (or scenario) in, new project out.

The records are frozen, so an edit never changes its argument: it returns a new snapshot, which the GUI's undo
command (``app.gui.commands.ReplaceProjectCommand``) swaps in and out, the way Orange3's paint-data widget
wraps pure operations in thin ``QUndoCommand`` s. Nothing here imports Qt, so every edit is tested headless
(tests/test_project_edits.py).

Errors: an invalid edit raises ``ValueError`` (pydantic's ``ValidationError`` is one; its first error names the
field), never a half-applied snapshot. Scene coordinates (``x``, ``y``) are the canvas's scene units.

Checks that need the topology rules (``models.topology.link_problem``: can this link type join these two items)
sit a layer above the project records; the caller makes them before :func:`add_link` / :func:`set_link_fields`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from models.catalog import Catalog, Controller, Drive, Entry, Shelf
from models.project.factory import drive_misfit, new_node, next_id
from models.project.kinds import NODE_KINDS
from models.project.model import (
    CloudVmNode,
    HostNode,
    Link,
    Node,
    NodeBase,
    PriceRow,
    Project,
    Scenario,
    ShelfNode,
    Workload,
)

# --- nodes ------------------------------------------------------------------------------------------------------


def add_nodes(scenario: Scenario, nodes: Iterable[NodeBase], links: Iterable[Link] = ()) -> Scenario:
    """The scenario with ``nodes`` and ``links`` appended.

    Raises:
        ValueError: an id is already used in the scenario (or twice among the new records), or a link's end is
            neither an existing node nor one of ``nodes``.
    """
    nodes, links = list(nodes), list(links)
    known = {n.id for n in scenario.nodes} | {n.id for n in nodes}
    for link in links:
        _ends_exist(link.source, link.target, known)
    return scenario.with_changes(
        nodes=[*(n.model_dump() for n in scenario.nodes), *(n.model_dump() for n in nodes)],
        links=[*(link.model_dump() for link in scenario.links), *(link.model_dump() for link in links)],
    )


def _node_or_error(scenario: Scenario, node_id: str) -> NodeBase:
    """The node ``node_id`` of ``scenario``; ValueError naming the id when there is none."""
    node = scenario.node(node_id)
    if node is None:
        raise ValueError(f"no item '{node_id}'")
    return node


def _ends_exist(source: str, target: str, known: set[str]) -> None:
    """ValueError naming the first of ``source`` / ``target`` that is not in ``known``."""
    for end in (source, target):
        if end not in known:
            raise ValueError(f"no item '{end}'")


def replace_node(scenario: Scenario, node: NodeBase) -> Scenario:
    """The scenario with the node of ``node.id`` replaced by ``node`` (the node is taken as already validated).

    Raises:
        ValueError: the scenario has no node ``node.id``.
    """
    _node_or_error(scenario, node.id)
    nodes = [node if n.id == node.id else n for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


def set_node_fields(scenario: Scenario, node_id: str, **changes: Any) -> Scenario:
    """The scenario with fields of node ``node_id`` changed (``changes``: field name -> new value).

    Raises:
        ValueError: unknown id, unknown field or a value the field refuses (the message names the field).
    """
    return replace_node(scenario, _node_or_error(scenario, node_id).with_changes(**changes))


def move_nodes(scenario: Scenario, positions: Mapping[str, tuple[float, float]]) -> Scenario:
    """The scenario with nodes moved: ``positions`` maps node id -> (x, y) in scene units.

    Raises:
        ValueError: an id is not a node of the scenario, or a coordinate is not a finite number.
    """
    known = {n.id for n in scenario.nodes}
    for node_id, (x, y) in positions.items():
        if node_id not in known:
            raise ValueError(f"no item '{node_id}'")
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"{node_id}: position ({x}, {y}) is not a finite point")
    nodes = [
        n.model_copy(update={"x": float(positions[n.id][0]), "y": float(positions[n.id][1])})
        if n.id in positions else n
        for n in scenario.nodes
    ]
    return scenario.model_copy(update={"nodes": nodes})


def remove_items(scenario: Scenario, ids: Iterable[str]) -> Scenario:
    """Remove nodes, links and replication relationships by id; the links and relationships of removed nodes go
    too; ids the scenario lacks are ignored (an item removed already). Workloads keep their (now dangling) target,
    which the problems list reports, so removing a controller never silently deletes a workload. Raises nothing."""
    gone = set(ids)
    nodes = [n for n in scenario.nodes if n.id not in gone]
    kept = {n.id for n in nodes}
    links = [link for link in scenario.links if link.id not in gone and link.source in kept and link.target in kept]
    reps = [r for r in scenario.replications if r.id not in gone and r.source in kept and r.target in kept]
    return scenario.model_copy(update={"nodes": nodes, "links": links, "replications": reps})


# --- catalog drops ----------------------------------------------------------------------------------------------

PART_FIELDS: dict[str, tuple[type[NodeBase], str, str]] = {
    "drive": (ShelfNode, "drive", "a shelf"),
    "adapter": (HostNode, "adapter", "a host"),
    "cloud_disk": (CloudVmNode, "disk", "a cloud VM"),
    "licence": (CloudVmNode, "licence", "a cloud VM"),
}
"""Catalog kinds that are parts of an item, not items: kind -> (the node type that takes it, its field, the
item named in a refusal)."""


def set_part(scenario: Scenario, node_id: str | None, entry: Entry, catalog: Catalog | None = None,
             controller: Controller | None = None) -> Scenario:
    """The scenario with catalog part ``entry`` (a drive, adapter, cloud disk or licence: :data:`PART_FIELDS`)
    set on node ``node_id`` (the item a palette drop landed on; None: the drop hit empty canvas).

    Args:
        scenario, node_id, entry: as above. catalog: the catalog the shelf's record is read from (None: a drive
            is not checked against its shelf). controller: the record of the controller that owns the shelf
            (``models.topology.controller_of_shelf``, a layer above the records; None: none, or not checked).

    Raises:
        ValueError: ``entry`` is not a part, ``node_id`` is no item of the type that takes it ("Cannot place
            <name> here: drop it on a shelf."), or a drive the shelf or its controller cannot take
            (``models.project.factory.drive_misfit``: the design check's words, the Inspector's "does not fit").
    """
    if entry.kind not in PART_FIELDS:
        raise ValueError(f"{entry.name} is not a part of an item")
    node_type, field, where = PART_FIELDS[entry.kind]
    target = scenario.node(node_id) if node_id else None
    if not isinstance(target, node_type):
        raise ValueError(f"Cannot place {entry.name} here: drop it on {where}.")
    shelf = catalog.find(target.catalog_id) if catalog is not None else None
    if isinstance(entry, Drive) and isinstance(shelf, Shelf):
        misfit = drive_misfit(entry, shelf, controller, catalog)
        if misfit:
            raise ValueError(f"Cannot place {entry.name} here: {misfit}.")
    return set_node_fields(scenario, target.id, **{field: entry.id})


def add_catalog_node(scenario: Scenario, catalog: Catalog, entry: Entry, x: float, y: float
                     ) -> tuple[Scenario, NodeBase]:
    """The scenario with a new item for catalog record ``entry`` at (x, y) (its defaults:
    ``models.project.factory.new_node``; a fresh id ``<kind>-N``), and that item.

    Raises:
        ValueError: ``entry`` is a link type ("connect two items ..."), or cannot be an item on its own
            (``NotANodeError``, a ValueError: a drive, an adapter, a shelf no drive fits).
    """
    if entry.kind == "link":
        raise ValueError(f"{entry.name} is a link: connect two items with the Connect tool, then choose it.")
    node = new_node(entry, next_id(scenario, entry.kind.replace("_node", "")), catalog, x, y)
    return add_nodes(scenario, [node]), node


# --- links ------------------------------------------------------------------------------------------------------


def add_link(scenario: Scenario, source: str, target: str, link_type: str, ports: int = 1) -> tuple[Scenario, Link]:
    """The scenario with a new link ``source`` -> ``target`` of catalog link type ``link_type`` carrying
    ``ports`` ports (a fresh id ``link-N``), and that link.

    Raises:
        ValueError: an end is not a node of the scenario, the link joins an item to itself, or ``ports`` is out
            of range.
    """
    _ends_exist(source, target, {n.id for n in scenario.nodes})
    link = Link(id=next_id(scenario, "link"), source=source, target=target, link_type=link_type, ports=ports)
    return scenario.model_copy(update={"links": [*scenario.links, link]}), link


def set_link_fields(scenario: Scenario, link_id: str, **changes: Any) -> Scenario:
    """The scenario with fields of link ``link_id`` changed (``changes``: field name -> new value).

    Raises:
        ValueError: unknown link id, unknown field, a value the field refuses, or a new end that is not a node.
    """
    link = next((candidate for candidate in scenario.links if candidate.id == link_id), None)
    if link is None:
        raise ValueError(f"no link '{link_id}'")
    changed = link.with_changes(**changes)
    _ends_exist(changed.source, changed.target, {n.id for n in scenario.nodes})
    links = [changed if candidate.id == link_id else candidate for candidate in scenario.links]
    return scenario.model_copy(update={"links": links})


# --- workloads --------------------------------------------------------------------------------------------------


def set_workloads(scenario: Scenario, workloads: Iterable[Workload]) -> Scenario:
    """The scenario with its workloads replaced by ``workloads`` (in that order).

    Raises:
        ValueError: two workloads share an id.
    """
    return scenario.with_changes(workloads=[w.model_dump() for w in workloads])


def unique_workload_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``... the first not in ``taken`` (case-insensitive), so two workloads
    can be told apart in the legend, the tables and the verdict lines (review 57 GUI #1)."""
    used = {t.casefold() for t in taken}
    if name.casefold() not in used:
        return name
    n = 2
    while f"{name} ({n})".casefold() in used:
        n += 1
    suffix = f" ({n})"
    return name[:200 - len(suffix)] + suffix


def add_workload(scenario: Scenario, workload: Workload) -> Scenario:
    """The scenario with ``workload`` appended; a name another workload has already gets `` (2)`` (``(3)``...).

    Raises:
        ValueError: the scenario has a workload with its id already.
    """
    name = unique_workload_name(workload.name, (w.name for w in scenario.workloads))
    if name != workload.name:
        workload = workload.with_changes(name=name)
    return set_workloads(scenario, [*scenario.workloads, workload])


def remove_workload(scenario: Scenario, workload_id: str) -> Scenario:
    """The scenario without workload ``workload_id``.

    Raises:
        ValueError: the scenario has no such workload.
    """
    if scenario.workload(workload_id) is None:
        raise ValueError(f"no workload '{workload_id}'")
    return scenario.model_copy(update={"workloads": [w for w in scenario.workloads if w.id != workload_id]})


def set_workload_fields(scenario: Scenario, workload_id: str, **changes: Any) -> Scenario:
    """The scenario with fields of workload ``workload_id`` changed (``changes``: field name -> new value).

    Raises:
        ValueError: unknown workload id, unknown field or a value the field refuses (the message names it).
    """
    if scenario.workload(workload_id) is None:
        raise ValueError(f"no workload '{workload_id}'")
    return set_workloads(scenario, [w.with_changes(**changes) if w.id == workload_id else w
                                    for w in scenario.workloads])


PRESET_PROFILE_FIELDS = ("block_kib", "read_pct", "random_pct", "slo_ms", "concurrency", "think_time_ms", "nas")
"""The fields of a preset that make a workload's performance profile (its I/O mix, SLO and load shape), which
:func:`apply_preset_profile` copies; the rate is scaled, the data fields (data set, provisioning, data reduction,
growth, Snapshot copies, clones, tiering) stay the workload's own."""
CAPACITY_ONLY_SUFFIX = ": capacity only, apply a preset"
"""What an import appends to a capacity-only workload's name (``models.importers.workloads.to_workload``)."""


def apply_preset_profile(scenario: Scenario, workload_id: str, preset_id: str, preset_name: str,
                         fields: Mapping[str, Any]) -> Scenario:
    """The scenario with a preset's performance profile applied to workload ``workload_id`` (one edit: one undo step).

    The preset's :data:`PRESET_PROFILE_FIELDS` are copied (a field the preset does not give takes the model's
    default), ``preset`` becomes ``preset_id`` (so a :data:`models.project.model.CAPACITY_ONLY` workload becomes an
    ordinary one, its load evaluated), and the rate is the preset's density: its ``target_iops`` (and
    ``target_mbps``) per byte of its ``dataset_bytes``, times the workload's own data set (a preset measured on
    11.2 TB at 350,000 IOPS gives a 1 TB workload 31,250 IOPS); where either data set is 0 or the preset states no
    rate, the workload gets no target (a ramp to saturation). The workload's data set, provisioning, data reduction,
    growth, Snapshot copies and clones stay its own. Its name loses the import's :data:`CAPACITY_ONLY_SUFFIX` and
    gains the preset's name.

    Raises:
        ValueError: no workload ``workload_id``, or a preset value the workload refuses (the message names the field).
    """
    workload = scenario.workload(workload_id)
    if workload is None:
        raise ValueError(f"no workload '{workload_id}'")
    defaults = Workload.model_fields
    changes: dict[str, Any] = {f: fields.get(f, defaults[f].get_default(call_default_factory=True))
                               for f in PRESET_PROFILE_FIELDS}
    own, theirs = workload.dataset_bytes, fields.get("dataset_bytes") or 0
    for rate in ("target_iops", "target_mbps"):
        given = fields.get(rate)
        changes[rate] = given * own / theirs if given and own > 0 and theirs > 0 else None
    base = workload.name.removesuffix(CAPACITY_ONLY_SUFFIX)
    changes["name"] = f"{base} ({preset_name})"[:200]
    changes["preset"] = preset_id
    return set_workload_fields(scenario, workload_id, **changes)


# --- paste ------------------------------------------------------------------------------------------------------


def paste_nodes(scenario: Scenario, nodes: Iterable[Node], links: Iterable[Link], offset: float = 40.0
                ) -> tuple[Scenario, list[str]]:
    """The scenario with copies of ``nodes`` (new ids ``<kind>-N``, shifted by ``offset`` scene units right and
    down) and of those of ``links`` whose two ends are among ``nodes``; and the copies' ids, in ``nodes``' order.
    Links to an item that is not copied are left out.

    Raises:
        ValueError: ``offset`` is not finite.
    """
    if not math.isfinite(offset):
        raise ValueError(f"paste offset {offset} is not a finite number")
    nodes = list(nodes)
    mapping: dict[str, str] = {}
    work = scenario
    for node in nodes:
        new_id = next_id(work, node.kind)
        mapping[node.id] = new_id
        copy = node.model_copy(update={"id": new_id, "x": node.x + offset, "y": node.y + offset})
        work = work.model_copy(update={"nodes": [*work.nodes, copy]})
    for link in links:
        if link.source in mapping and link.target in mapping:
            copy_link = link.model_copy(update={"id": next_id(work, "link"), "source": mapping[link.source],
                                                "target": mapping[link.target]})
            work = work.model_copy(update={"links": [*work.links, copy_link]})
    return work, [mapping[n.id] for n in nodes]


# --- layout -----------------------------------------------------------------------------------------------------

LAYOUT_COLUMN = {kind: row.layout_column for kind, row in NODE_KINDS.items()}
"""Auto-layout column of each node kind (the kind table's): hosts -> switches -> controllers / clusters / VMs ->
shelves."""


def auto_layout(scenario: Scenario, column_gap: float = 320.0, row_gap: float = 120.0
                ) -> dict[str, tuple[float, float]]:
    """Left-to-right positions, node id -> (x, y) in scene units: one column per kind (:data:`LAYOUT_COLUMN`,
    ``column_gap`` apart), the items of a column ``row_gap`` apart and centred vertically. Raises nothing."""
    columns: dict[int, list[Node]] = {}
    for node in scenario.nodes:
        columns.setdefault(LAYOUT_COLUMN.get(node.kind, 2), []).append(node)
    tallest = max((len(c) for c in columns.values()), default=0)
    positions: dict[str, tuple[float, float]] = {}
    for col, members in columns.items():
        top = (tallest - len(members)) * row_gap / 2
        for row, node in enumerate(members):
            positions[node.id] = (col * column_gap, top + row * row_gap)
    return positions


def lay_out(scenario: Scenario) -> Scenario:
    """The scenario with its nodes at the :func:`auto_layout` positions. Raises nothing."""
    return move_nodes(scenario, auto_layout(scenario))


def needs_layout(scenario: Scenario) -> bool:
    """True when items sit on top of each other (within a 40-unit grid cell: a new or hand-written topology
    without positions)."""
    seen: set[tuple[int, int]] = set()
    for node in scenario.nodes:
        key = (round(node.x / 40), round(node.y / 40))
        if key in seen:
            return True
        seen.add(key)
    return False


# --- scenarios --------------------------------------------------------------------------------------------------


def replace_scenario(project: Project, scenario: Scenario) -> Project:
    """The project with the scenario of ``scenario.name`` replaced by ``scenario`` (added when it has none).
    Raises nothing (the scenario is taken as already validated)."""
    return project.with_scenario(scenario)


def unique_scenario_name(project: Project, base: str) -> str:
    """``base``, or ``base (2)``, ``base (3)``… : the first name no scenario of ``project`` has."""
    names = {s.name for s in project.scenarios}
    if base not in names:
        return base
    n = 2
    while f"{base} ({n})" in names:
        n += 1
    return f"{base} ({n})"


def add_scenario(project: Project, scenario: Scenario, name: str | None = None, activate: bool = True
                 ) -> tuple[Project, str]:
    """The project with ``scenario`` added under ``name`` (default: its own name) made unique
    (:func:`unique_scenario_name`) and, when ``activate``, made active; and the name used.

    Raises:
        ValueError: the name is empty or longer than a scenario name may be (120 characters).
    """
    used = unique_scenario_name(project, scenario.name if name is None else name)
    Scenario(name=used)  # checks the name alone (validating the whole scenario again would cost its size)
    added = scenario.model_copy(update={"name": used})
    update: dict[str, Any] = {"scenarios": [*project.scenarios, added]}
    if activate:
        update["active_scenario"] = used
    return project.model_copy(update=update), used


def duplicate_scenario(project: Project, name: str | None = None) -> tuple[Project, str]:
    """The project with a copy of its active scenario under ``name`` (default "<name> copy", the name cut to 110
    characters so the default always fits), made unique and active; and the name used.

    Raises:
        ValueError: ``name`` is too long (120 characters).
    """
    return add_scenario(project, project.scenario, name or f"{project.scenario.name[:110]} copy")


def switch_scenario(project: Project, name: str) -> Project:
    """The project with scenario ``name`` active.

    Raises:
        ValueError: the project has no scenario ``name``.
    """
    if all(s.name != name for s in project.scenarios):
        known = ", ".join(f"'{s.name}'" for s in project.scenarios)
        raise ValueError(f"no scenario named '{name}' (this project has: {known})")
    return project.model_copy(update={"active_scenario": name})


# --- settings, info, requirements, prices -----------------------------------------------------------------------


def set_setting(project: Project, field: str, value: Any) -> Project:
    """The project with setting ``field`` (e.g. ``capacity_unit``, ``default_slo_ms``) set to ``value``.

    Raises:
        ValueError: unknown setting or a value it refuses (the message names the field).
    """
    return project.model_copy(update={"settings": project.settings.with_changes(**{field: value})})


def set_info(project: Project, field: str, value: Any) -> Project:
    """The project with info field ``field`` (name, customer, author, description ...) set to ``value``.

    Raises:
        ValueError: unknown field or a value it refuses (an empty name, a name over 200 characters).
    """
    return project.model_copy(update={"info": project.info.with_changes(**{field: value})})


def set_requirement(project: Project, field: str, value: Any,
                    choices: Mapping[str, Sequence[str]] | None = None) -> Project:
    """The project with sizing requirement ``field`` (``models.project.model.Requirements``) set to ``value``.

    Args:
        project: the project; field: a :class:`~models.project.model.Requirements` field; value: its new value.
        choices: the valid values of list fields (``models.sizing.requirement_choices`` of the project's catalog:
            families, protocols, deployments); a listed field's value must hold only those. None: not checked
            here (the record still refuses unknown protocols).

    Raises:
        ValueError: unknown requirement or a value it refuses; the message names the field and, for a value
            outside ``choices``, the valid values ("Families: 'AFF' is not in the catalog; valid families: ...").
    """
    if choices is not None and field in choices and isinstance(value, (list, tuple)):
        valid = list(choices[field])
        unknown = [v for v in value if v not in valid]
        if unknown:
            label = field.replace("_", " ")
            raise ValueError(f"{label.capitalize()}: {', '.join(repr(v) for v in unknown)} is not in the catalog; "
                             f"valid {label}: {', '.join(valid)}")
    return project.model_copy(update={"requirements": project.requirements.with_changes(**{field: value})})


def set_price_book(project: Project, rows: Iterable[PriceRow]) -> Project:
    """The project with its price book replaced by ``rows`` (an empty iterable clears it).

    Raises:
        ValueError: a catalog id is priced twice, or the rows use more than one currency.
    """
    rows = list(rows)
    ids = [row.catalog_id for row in rows]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ValueError(f"price_book: {', '.join(twice)} priced more than once")
    currencies = sorted({row.currency for row in rows})
    if len(currencies) > 1:
        raise ValueError(f"price_book: one currency per book, found {', '.join(currencies)}")
    return project.model_copy(update={"price_book": rows})
