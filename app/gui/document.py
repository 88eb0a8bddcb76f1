"""The open project on the Qt side: the current immutable Project, its undo stack, file path and saved state.

Views never change the project themselves: they call the edit methods here, each of which pushes one
:class:`~app.gui.commands.ReplaceProjectCommand`. When a command swaps the snapshot, :meth:`_show` diffs the
old and new project and emits only what changed, so the scene updates one item, not the whole canvas.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from app.gui import commands
from app.gui.labels import field_label
from models.catalog import Catalog, CatalogError, Controller
from models.design import resolve
from models.project import edits
from models.project.model import Link, NodeBase, Project, Scenario, Workload
from models.project.names import link_name, node_names
from models.topology import connect_problem, controller_of_shelf, link_problem


def describe_error(exc: Exception) -> str:
    """A one-line message for a refused edit (the first pydantic error, without pydantic's boilerplate)."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        msg = first["msg"].removeprefix("Value error, ")
        return f"{where}: {msg}" if where else msg
    return str(exc)


def _default_names(record) -> list[str]:
    """The names a node's label takes by default from its catalog record: the record's name and that name without
    its vendor ("NetApp AFF A70 HA pair", "AFF A70 HA pair"), longest first."""
    if record is None or not record.name:
        return []
    names = [record.name]
    vendor = f"{record.vendor} " if getattr(record, "vendor", "") else ""
    if vendor and record.name.startswith(vendor) and record.name[len(vendor):].strip():
        names.append(record.name[len(vendor):])
    return names


def follow_model_label(label: str, old_record, new_record) -> str | None:
    """The label a node takes when its model changes from ``old_record`` to ``new_record``: the new model's name
    when ``label`` is the old model's default name (its name, with or without the vendor, optionally followed by a
    note in brackets the user added: "AFF A70 HA pair (MetroCluster IP)" -> "AFF A30 HA pair (MetroCluster IP)");
    None when the label is a name the user typed (it stays) or there is nothing to follow."""
    if not label or new_record is None:
        return None
    old_names, new_names = _default_names(old_record), _default_names(new_record)
    if not new_names:
        return None
    for index, name in enumerate(old_names):
        if label == name or label.startswith(f"{name} ("):
            new_name = new_names[min(index, len(new_names) - 1)]  # keep the vendor or leave it out, as before
            return new_name + label[len(name):]
    return None


def _in_sentence(label: str) -> str:
    """A field label inside a sentence: "Drive count" -> "drive count", "RAID type" stays."""
    return label[0].lower() + label[1:] if label[1:2].islower() else label


class ProjectDocument(QObject):
    """One open project. Signals carry ids; read the records from :attr:`scenario`."""

    sig_node_added = Signal(str)
    """A node with this id appeared in the active scenario."""
    sig_node_removed = Signal(str)
    """A node with this id left the active scenario."""
    sig_node_changed = Signal(str)
    """A node's fields (position, label, settings) changed."""
    sig_link_added = Signal(str)
    """A link with this id appeared."""
    sig_link_removed = Signal(str)
    """A link with this id was removed."""
    sig_link_changed = Signal(str)
    """A link's type or port count changed."""
    sig_replications_changed = Signal()
    """The active scenario's replication relationships changed (added, removed or edited)."""
    sig_workloads_changed = Signal()
    """The active scenario's workload list or a workload's fields changed."""
    sig_scenario_switched = Signal(str)
    """Another scenario became active (the canvas shows a different topology)."""
    sig_scenarios_changed = Signal()
    """Scenarios were added, removed or renamed."""
    sig_settings_changed = Signal()
    """Project settings (e.g. the capacity unit) or info changed."""
    sig_project_replaced = Signal()
    """A different project was loaded (new, open, revert): rebuild everything."""
    sig_project_changed = Signal()
    """Anything changed (emitted after the finer signals): re-evaluate."""
    sig_modified_changed = Signal(bool)
    """The project became modified (True) or saved (False)."""
    sig_path_changed = Signal(str)
    """The file the project is saved in changed ("" = never saved)."""

    def __init__(self, project: Project | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self._project = project or Project()
        self._catalog: Catalog | None = None
        self._catalog_key: object = None
        self.path: Path | None = None
        self.base_catalog: Catalog | None = None
        """The catalog the project evaluates against before its own records: a .storplan file's pinned catalog
        (models.store.pinned_catalog), or None for the default (bundled plus the user's records)."""

    def _clean_changed(self, clean: bool) -> None:
        self.sig_modified_changed.emit(not clean)

    # --- state ----------------------------------------------------------------------------------------------

    @property
    def project(self) -> Project:
        """The current project snapshot (immutable; change it through the edit methods)."""
        return self._project

    @property
    def scenario(self) -> Scenario:
        """The active scenario of the current project."""
        return self._project.scenario

    @property
    def catalog(self) -> Catalog:
        """The catalog the project evaluates against, by the one rule of every front door
        (``models.design.resolve``: the base catalog, pinned or default, then the project's own records, marked as
        the project's; the base one alone when those are invalid)."""
        key = (repr(self._project.custom_catalog) if self._project.custom_catalog else None, id(self.base_catalog))
        if self._catalog is None or key != self._catalog_key:
            self._catalog = resolve(self._project, catalog=self.base_catalog).catalog
            self._catalog_key = key
        return self._catalog

    @property
    def modified(self) -> bool:
        """True when the project differs from what was last saved (the undo stack is not clean)."""
        return not self.undo_stack.isClean()

    @property
    def display_name(self) -> str:
        """The name a title bar shows: the file name when saved, else the project's name."""
        return self.path.name if self.path else self._project.info.name

    def reset(self, project: Project, path: Path | None = None, base_catalog: Catalog | None = None) -> None:
        """Show another project (new / open / revert): clears undo history, marks it saved.

        ``base_catalog``: the catalog to evaluate against (a .storplan file's pinned catalog); None = default.
        """
        self.undo_stack.clear()
        self._project = project
        self.base_catalog = base_catalog
        self.path = Path(path) if path else None
        self.sig_project_replaced.emit()
        self.sig_project_changed.emit()
        self.sig_path_changed.emit(str(self.path or ""))
        self.undo_stack.setClean()
        self.sig_modified_changed.emit(False)

    def mark_saved(self, path: Path, clean: bool = True) -> None:
        """The project was written to ``path``; ``clean=False`` when it was edited while the save ran (the file
        holds an older snapshot, so the project stays modified)."""
        self.path = Path(path)
        if clean:
            self.undo_stack.setClean()
        self.sig_path_changed.emit(str(self.path))

    def mark_modified(self) -> None:
        """Mark the project unsaved without an undo step (e.g. a project recovered after a crash)."""
        self.undo_stack.resetClean()
        self.sig_modified_changed.emit(True)

    def refresh_catalog(self) -> None:
        """The user's own records changed on disk (a record saved or deleted): read the catalog again and
        re-evaluate (not an undo step: the project itself is unchanged)."""
        self._catalog = None
        self.sig_project_changed.emit()

    def set_base_catalog(self, catalog: Catalog | None) -> None:
        """Evaluate against another base catalog (commands only: re-pinning is an undoable change)."""
        if catalog is self.base_catalog:
            return
        self.base_catalog = catalog
        self._catalog = None
        self.sig_project_changed.emit()

    # --- the one way to change the project ------------------------------------------------------------------

    def push(self, after: Project, text: str, merge_key: tuple | None = None) -> bool:
        """Make ``after`` the project through one undoable command; False when nothing changed."""
        if after == self._project:
            return False
        self.undo_stack.push(commands.ReplaceProjectCommand(self, self._project, after, text, merge_key))
        return True

    def push_scenario(self, scenario: Scenario, text: str, merge_key: tuple | None = None) -> bool:
        """`push` the project with ``scenario`` replacing the scenario of the same name; False when nothing changed."""
        return self.push(self._project.with_scenario(scenario), text, merge_key)

    def _show(self, project: Project) -> None:
        """Called by commands only: make ``project`` current and emit what changed."""
        before, self._project = self._project, project
        old, new = before.scenario, project.scenario
        if before.active_scenario != project.active_scenario:
            self.sig_scenario_switched.emit(project.active_scenario)
        else:
            self._diff(old.nodes, new.nodes, self.sig_node_added, self.sig_node_removed, self.sig_node_changed)
            self._diff(old.links, new.links, self.sig_link_added, self.sig_link_removed, self.sig_link_changed)
            if old.workloads != new.workloads:
                self.sig_workloads_changed.emit()
            if old.replications != new.replications:
                self.sig_replications_changed.emit()
        if [s.name for s in before.scenarios] != [s.name for s in project.scenarios]:
            self.sig_scenarios_changed.emit()
        if before.settings != project.settings or before.info != project.info:
            self.sig_settings_changed.emit()
        self.sig_project_changed.emit()

    @staticmethod
    def _diff(old, new, added, removed, changed) -> None:
        old_by_id = {r.id: r for r in old}
        new_by_id = {r.id: r for r in new}
        for rid in old_by_id.keys() - new_by_id.keys():
            removed.emit(rid)
        for record in new:
            previous = old_by_id.get(record.id)
            if previous is None:
                added.emit(record.id)
            elif previous is not record and previous != record:  # an edit keeps the records it did not touch
                changed.emit(record.id)

    # --- edits (each returns an error message, or None when done) ------------------------------------------

    def _try(self, make: Callable[[Scenario], Scenario], text: str, merge_key: tuple | None = None) -> str | None:
        """Push ``make(scenario)`` (a ``models.project.edits`` function) as one undo step; its refusal as a message."""
        return self._try_project(lambda p: edits.replace_scenario(p, make(p.scenario)), text, merge_key)

    def _try_project(self, make: Callable[[Project], Project], text: str, merge_key: tuple | None = None
                     ) -> str | None:
        """Push ``make(project)`` (a ``models.project.edits`` function) as one undo step; its refusal as a message."""
        try:
            project = make(self._project)
        except (ValueError, CatalogError) as exc:
            return describe_error(exc)
        self.push(project, text, merge_key)
        return None

    def drop_entry(self, entry_id: str, x: float, y: float, on_node: str | None = None) -> str | None:
        """A palette drop: set a part on the item under the drop, or add a new item at (x, y)."""
        entry = self.catalog.find(entry_id)
        if entry is None:
            return f"unknown catalog entry '{entry_id}'"
        if entry.kind in edits.PART_FIELDS:
            field = edits.PART_FIELDS[entry.kind][1]
            name = node_names(self.scenario.nodes, self.catalog).get(on_node or "", on_node)
            owner = controller_of_shelf(self.scenario, on_node) if on_node else None
            controller = self.catalog.find(owner.catalog_id) if owner is not None else None
            catalog = self.catalog
            return self._try(lambda s: edits.set_part(s, on_node, entry, catalog, controller if isinstance(
                controller, Controller) else None), f"Set {field} of {name}")
        catalog = self.catalog
        return self._try(lambda s: edits.add_catalog_node(s, catalog, entry, x, y)[0], f"Add {entry.name}")

    def link_choices(self, source: str, target: str, link_id: str | None = None) -> tuple[list, str | None]:
        """Catalog link types that can join two items, and (when none can) the reason for the closest one.
        ``link_id``: an existing link between them whose type is being chosen again (the graph is judged without
        it, as :meth:`set_link_field` judges its new type)."""
        accepted, reasons, graph_reasons = [], [], []
        scenario = edits.remove_items(self.scenario, [link_id]) if link_id else self.scenario
        for link_type in self.catalog.of_kind("link"):
            reason = link_problem(scenario, self.catalog, source, target, link_type.id)
            if reason:
                reasons.append(reason)
                continue
            # the ends take this type: what the link would do to the graph decides (the closest reason, when none
            # is drawn: "A400 does not take DS2246", not "not 100GbE")
            reason = connect_problem(scenario, self.catalog, source, target, link_type.id)
            (graph_reasons.append(reason) if reason else accepted.append(link_type))
        reasons = graph_reasons + reasons
        return accepted, (None if accepted else (reasons[0] if reasons else "no link type in the catalog"))

    def add_link(self, source: str, target: str, link_type: str, ports: int = 1) -> str | None:
        """Connect ``source`` and ``target`` with ``ports`` ports of catalog link type ``link_type`` (one undo step).

        Returns why the link is not allowed (``models.topology.connect_problem``: the ends' rules and what the link
        would do to the graph: a shelf stack with two controllers, hosts and a controller with no protocol in
        common) or the refused edit's message; None when done.
        """
        reason = connect_problem(self.scenario, self.catalog, source, target, link_type)
        if reason:
            return reason
        return self._try(lambda s: edits.add_link(s, source, target, link_type, ports)[0],
                         f"Connect {link_name(source, target, node_names(self.scenario.nodes, self.catalog))}")

    def add_replication(self, source: str, target: str, kind: str = "snapmirror") -> str | None:
        """Draw a replication relationship from ``source`` to ``target`` (one undo step). Returns why the two
        cannot replicate (``models.replication.endpoints``) or the refused edit's message; None when done."""
        from models.project.replication_edits import add_replication
        from models.replication.endpoints import endpoint_problem

        reason = endpoint_problem(self.scenario, self.catalog, source, target, kind)
        if reason:
            return reason
        names = node_names(self.scenario.nodes, self.catalog)
        return self._try(lambda s: add_replication(s, source, target, kind)[0],  # type: ignore[arg-type]
                         f"Replicate {link_name(source, target, names)}")

    def set_replication_field(self, replication_id: str, field: str, value: Any) -> str | None:
        """One field edit of a replication relationship (consecutive edits of one field merge into one undo step);
        a new kind is checked against the two ends first. Returns why an edit is refused, None when done."""
        from models.project.replication_edits import set_replication_fields
        from models.replication.endpoints import endpoint_problem

        rep = next((r for r in self.scenario.replications if r.id == replication_id), None)
        if rep is not None and field == "kind":
            reason = endpoint_problem(self.scenario, self.catalog, rep.source, rep.target, value)
            if reason:
                return reason
        name = (rep.label or rep.id) if rep else replication_id
        return self._try(lambda s: set_replication_fields(s, replication_id, **{field: value}),
                         f"Change {_in_sentence(field_label(field))} of replication {name}",
                         ("replication", replication_id, field))

    def set_protected_workload(self, replication_id: str, workload_id: str, protected: bool) -> str | None:
        """Tick or untick one workload a replication relationship protects (one undo step); why it is refused."""
        from models.project.replication_edits import set_protected

        workload = self.scenario.workload(workload_id)
        name = workload.name if workload is not None else workload_id
        return self._try(lambda s: set_protected(s, replication_id, workload_id, protected),
                         f"{'Protect' if protected else 'Stop protecting'} {name}")

    def set_change_rate(self, replication_id: str, workload_id: str, bytes_per_day: int | None) -> str | None:
        """Set (None: back to the default) one workload's change per day for a relationship (one undo step)."""
        from models.project.replication_edits import set_change_rate

        workload = self.scenario.workload(workload_id)
        name = workload.name if workload is not None else workload_id
        return self._try(lambda s: set_change_rate(s, replication_id, workload_id, bytes_per_day),
                         f"Change the change rate of {name}")

    def set_change_profile(self, replication_id: str, workload_id: str, profile: list[float]) -> str | None:
        """Set ([]: back to even) one workload's daily change profile for a relationship (one undo step)."""
        from models.project.replication_edits import set_change_profile

        workload = self.scenario.workload(workload_id)
        name = workload.name if workload is not None else workload_id
        return self._try(lambda s: set_change_profile(s, replication_id, workload_id, profile),
                         f"Change the daily change profile of {name}")

    def move_nodes(self, positions: dict[str, tuple[float, float]]) -> None:
        """Move nodes to ``positions`` (id -> (x, y), scene units) in one undo step."""
        text = "Move item" if len(positions) == 1 else f"Move {len(positions)} items"
        self._try(lambda s: edits.move_nodes(s, positions), text)

    def remove_items(self, ids: list[str]) -> None:
        """Delete nodes and links by id in one undo step (links of deleted nodes go too; nothing for an empty list)."""
        if ids:
            self._try(lambda s: edits.remove_items(s, ids), f"Delete {len(ids)} item(s)")

    def paste(self, nodes: list[NodeBase], links: list[Link]) -> list[str]:
        """Paste copies of ``nodes`` and the links among them (new ids, shifted 40 scene units); returns the new ids.

        One undo step; an invalid paste changes nothing and returns [].
        """
        try:
            scenario, new_ids = edits.paste_nodes(self.scenario, nodes, links)
        except ValueError:
            return []
        self.push_scenario(scenario, f"Paste {len(new_ids)} item(s)")
        return new_ids

    def set_node_field(self, node_id: str, field: str, value: Any) -> str | None:
        """One field edit; consecutive edits of the same field merge into one undo step."""
        name = node_names(self.scenario.nodes, self.catalog).get(node_id, node_id)
        changes = {field: value}
        if field == "catalog_id":
            # a default name follows the model in the same undo step; a name the user typed stays
            node = next((n for n in self.scenario.nodes if n.id == node_id), None)
            if node is not None and value != node.catalog_id:
                label = follow_model_label(node.label, self.catalog.find(node.catalog_id), self.catalog.find(value))
                if label is not None and label != node.label:
                    changes["label"] = label
        return self._try(lambda s: edits.set_node_fields(s, node_id, **changes),
                         f"Change {_in_sentence(field_label(field))} of {name}", ("node", node_id, field))

    def set_link_field(self, link_id: str, field: str, value: Any) -> str | None:
        """One field edit of link ``link_id``; consecutive edits of the same field merge into one undo step.

        A new ``link_type`` is checked against the two ends first. Returns why an edit is refused, None when done.
        """
        if field == "link_type":
            link = next((candidate for candidate in self.scenario.links if candidate.id == link_id), None)
            if link is not None:  # the link's new type, checked as if drawn again (the graph without it)
                without = edits.remove_items(self.scenario, [link_id])
                reason = connect_problem(without, self.catalog, link.source, link.target, value)
                if reason:
                    return reason
        link = next((candidate for candidate in self.scenario.links if candidate.id == link_id), None)
        name = link_name(link.source, link.target, node_names(self.scenario.nodes, self.catalog)) if link else ""
        return self._try(lambda s: edits.set_link_fields(s, link_id, **{field: value}),
                         f"Change {_in_sentence(field_label(field))} of link {name}", ("link", link_id, field))

    def auto_layout(self) -> None:
        """Lay the nodes out in columns by kind (``models.project.edits.auto_layout``) as one undoable move."""
        self.move_nodes(edits.auto_layout(self.scenario))

    # workloads

    def add_workload(self, workload: Workload) -> str | None:
        """Append ``workload`` to the active scenario; returns why it was refused (e.g. a duplicate id) or None."""
        return self._try(lambda s: edits.add_workload(s, workload), f"Add workload {workload.name}")

    def remove_workload(self, workload_id: str) -> None:
        """Remove the workload with this id from the active scenario (one undo step)."""
        self._try(lambda s: edits.remove_workload(s, workload_id), "Remove workload")

    def apply_preset(self, workload_id: str, preset_id: str) -> str | None:
        """Apply a bundled preset's performance profile to workload ``workload_id`` (one undo step:
        ``models.project.edits.apply_preset_profile``); returns why it was refused or None."""
        from models.workloads import bundled_presets

        preset = bundled_presets().get(preset_id)
        if preset is None:
            return f"no preset '{preset_id}'"
        workload = self.scenario.workload(workload_id)
        name = f" '{workload.name}'" if workload is not None else ""
        return self._try(lambda s: edits.apply_preset_profile(s, workload_id, preset.id, preset.name, preset.fields),
                         f"Apply preset {preset.name} to workload{name}")

    def set_workload_field(self, workload_id: str, field: str, value: Any) -> str | None:
        """One field edit of a workload; consecutive edits of the same field merge into one undo step.

        Returns the refused edit's message (naming the field) or None when done.
        """
        workload = next((w for w in self.scenario.workloads if w.id == workload_id), None)
        name = f" '{workload.name}'" if workload is not None else ""
        return self._try(lambda s: edits.set_workload_fields(s, workload_id, **{field: value}),
                         f"Change {_in_sentence(field_label(field))} of workload{name}",
                         ("workload", workload_id, field))

    # scenarios and settings

    def duplicate_scenario(self, name: str | None = None) -> str:
        """Copy the active scenario under ``name`` (default "<name> copy", made unique) and make it active.

        One undo step; returns the name used.
        """
        after, name = edits.duplicate_scenario(self._project, name)
        self.push(after, f"Duplicate scenario as '{name}'")
        return name

    def switch_scenario(self, name: str) -> None:
        """Make scenario ``name`` active (an undoable step; nothing when it already is)."""
        if name != self._project.active_scenario:
            self._try_project(lambda p: edits.switch_scenario(p, name), f"Switch to scenario '{name}'")

    def set_setting(self, field: str, value: Any) -> str | None:
        """Change one project setting (e.g. ``capacity_unit``); returns the refused edit's message or None."""
        return self._try_project(lambda p: edits.set_setting(p, field, value),
                                 f"Change {_in_sentence(field_label(field))}")

    def set_info(self, field: str, value: Any) -> str | None:
        """Change one project info field (name, customer, ...); edits of the same field merge into one undo step.

        Returns the refused edit's message or None when done.
        """
        return self._try_project(lambda p: edits.set_info(p, field, value), f"Change project {field}",
                                 ("info", field))
