"""The resolved design: one project scenario with the catalog it is evaluated against, built once per evaluation.

Every front door (command line, app, report, workbook, sizer) resolves the catalog by one rule:

1. the base catalog (``models.store.base_catalog``): a ``.storplan`` file's pinned records, then the user's own
   records, then the bundled catalog;
2. the project's own records (``Project.custom_catalog``) on top.

A record the project brings itself (its own, or a pinned one that differs from today's catalog record of the
same id) still applies (the user wanted it), but it is marked as the project's: :attr:`Design.own_records` lists
it with the numbers that differ, a warning names them, the sources of those numbers read "project file: ..."
(:data:`PROJECT_SOURCE_PREFIX`), and a performance profile with such a number is never reported as calibrated
(``models.performance.profiles.profile_kind``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from models.catalog import Catalog, CatalogError, Entry, parse_entries
from models.catalog.schema import Provenance, Sourced
from models.problem import Problem
from models.project.model import Project, Scenario, Settings
from models.store.snapshot import PinnedCatalog, base_catalog, default_catalog

if TYPE_CHECKING:  # capacity is a layer above: its layouts are built there (models.evaluate.with_layouts)
    from models.capacity.layout import RaidLayout

PROJECT_SOURCE_PREFIX = "project file"
"""How the source of a number the project brings itself begins (what the report's source lines print)."""

REPIN_HINT = ("to use today's data, open the file in StorPlan and choose Update on the bar that offers the "
              "newer catalog data, then save")
"""How a user re-pins a project file's records to today's catalog (``app.gui.catalog_pinning``: the bar's
[Update] button, one undoable step)."""

MAX_LISTED_DIFFERENCES = 8
"""How many differing numbers a problem's sentence names before "and N more"."""


def is_project_source(text: str) -> bool:
    """True when a source text marks a number as the project's own (it begins with :data:`PROJECT_SOURCE_PREFIX`),
    not catalog fact."""
    # the prefix alone lowered (the same answer as the whole text stripped and lowered: the prefix is ASCII without
    # trailing space; lowering a whole calibration source cost more than the rest of a profile's kind)
    return text.lstrip()[:len(PROJECT_SOURCE_PREFIX)].lower().startswith(PROJECT_SOURCE_PREFIX)


class ResolvedCatalog(Catalog):
    """A catalog with a project's own records on top of its base (:func:`resolve`): resolving a project against
    it again starts from ``base``, so passing a design's catalog where a base catalog is asked for gives the same
    catalog, never one marked twice.

    Args:
        entries: every record; version: the base's version; base: the catalog under the project's records.
    """

    def __init__(self, entries: Iterable[Entry], version: str, base: Catalog) -> None:
        super().__init__(entries, version)
        self.base = base

    def version_of(self, entry_id: str) -> str:
        """The catalog version a record comes from (the base's answer: a pinned record's own version)."""
        version_of = getattr(self.base, "version_of", None)
        return version_of(entry_id) if version_of is not None else self.version


def _unresolved(catalog: Catalog) -> Catalog:
    """The base under any project records already resolved onto ``catalog``."""
    while isinstance(catalog, ResolvedCatalog):
        catalog = catalog.base
    return catalog


@dataclass(frozen=True)
class FieldDifference:
    """One field of a project's record that differs from the catalog's record of the same id.

    Attributes:
        field: the field, dotted for a nested record (``performance[9.1/FCP].cpu_read_us``).
        project_value: the project's value; catalog_value: the catalog's (None when the catalog's record has no
            such profile or field).
    """

    field: str
    project_value: Any
    catalog_value: Any

    @property
    def is_source(self) -> bool:
        """True for a difference in a source text, not in a number or setting."""
        last = self.field.rsplit(".", 1)[-1]
        return last.startswith("source of ") or last == "source"

    def text(self) -> str:
        """``cpu_read_us 5.0 (catalog 50.0)``."""
        return f"{self.field} {_value_text(self.project_value)} (catalog {_value_text(self.catalog_value)})"


@dataclass(frozen=True)
class OwnRecord:
    """A catalog record the project brings itself.

    Attributes:
        id, kind, name: the record's.
        origin: "project" (its ``custom_catalog``) or "pinned" (a record saved in the ``.storplan`` file that
            differs from today's catalog).
        differences: the fields that differ from the catalog's record of the same id (empty for a new id).
        new: True when no catalog record has this id.
        catalog_version: for a pinned record, the catalog version it was saved with ("" otherwise).
    """

    id: str
    kind: str
    name: str
    origin: Literal["project", "pinned"]
    differences: tuple[FieldDifference, ...] = ()
    new: bool = False
    catalog_version: str = ""

    @property
    def numbers(self) -> tuple[FieldDifference, ...]:
        """The differences in values (numbers and settings), sources left out."""
        return tuple(d for d in self.differences if not d.is_source)

    def differences_text(self) -> str:
        """The differing values in words, the first :data:`MAX_LISTED_DIFFERENCES` of them ("its sources" when
        only source texts differ, or as well)."""
        values = self.numbers
        shown = [d.text() for d in values[:MAX_LISTED_DIFFERENCES]]
        more = len(values) - len(shown)
        text = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
        if len(values) < len(self.differences):
            text = f"{text} and its sources" if text else "its sources"
        return text


@dataclass(frozen=True)
class Design:
    """One scenario of a project, resolved for evaluation (frozen; build it with :func:`resolve`).

    Attributes:
        project: the project; scenario: the scenario evaluated; settings: the project's settings.
        catalog: the catalog by the one rule (module docstring), the project's own records marked.
        base_catalog: the catalog under the project's own records (pinned, user's, bundled): what a save pins.
        own_records: the records the project brings itself (:class:`OwnRecord`), sorted by id.
        problems: the resolution's own problems (an invalid project record, a pinned record that differs from
            today's or cannot be read, a project record that redefines a catalog one).
        raid: system node id -> its RAID layout (``models.capacity.layout.RaidLayout``: groups, group sizes,
            parity, spares, partitions), built once by the capacity rules (``models.evaluate.with_layouts``, a layer
            above this one) and read by capacity, performance and the failure states; empty until then.
    """

    project: Project
    scenario: Scenario
    catalog: Catalog
    settings: Settings
    base_catalog: Catalog
    own_records: tuple[OwnRecord, ...] = ()
    problems: tuple[Problem, ...] = ()
    raid: Mapping[str, RaidLayout] = field(default_factory=lambda: MappingProxyType({}))


def _value_text(value: Any) -> str:
    """A field value in a sentence: numbers with ``g`` formatting, None as "none"."""
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _profile_key(profile: Any) -> str:
    """A performance profile's name in a field path: ``9.1/FCP``."""
    return f"{getattr(profile, 'software', '')}/{getattr(profile, 'protocol', '')}"


def _differences(own: BaseModel, other: BaseModel | None, prefix: str = "") -> Iterator[FieldDifference]:
    """The fields of ``own`` whose value differs from ``other``'s (sources and free text compared too, so an
    invented source counts), nested records and lists of performance profiles (by software and protocol)
    compared field by field."""
    for name in type(own).model_fields:
        mine = getattr(own, name)
        theirs = getattr(other, name, None) if other is not None else None
        path = f"{prefix}{name}"
        if mine == theirs:
            continue
        if name == "provenance" and isinstance(mine, dict):
            for key in sorted(set(mine) | set(theirs or {})):
                a, b = mine.get(key), (theirs or {}).get(key)
                if a != b:
                    yield FieldDifference(f"{prefix}source of {key}", a.cited if a is not None else None,
                                          b.cited if b is not None else None)
            continue
        if isinstance(mine, list) and mine and all(isinstance(p, Sourced) and hasattr(p, "protocol") for p in mine):
            by_key = {_profile_key(p): p for p in theirs or ()}
            for profile in mine:
                key = _profile_key(profile)
                yield from _differences(profile, by_key.get(key), f"{path}[{key}].")
            for key in sorted(set(by_key) - {_profile_key(p) for p in mine}):
                yield FieldDifference(f"{path}[{key}]", None, "a profile")
            continue
        if isinstance(mine, BaseModel) and isinstance(theirs, BaseModel) and type(mine) is type(theirs):
            yield from _differences(mine, theirs, f"{path}.")
            continue
        yield FieldDifference(path, mine, theirs)


def _marked_provenance(record: Sourced, fields: set[str], everything: bool, why: str) -> dict[str, Provenance]:
    """``record.provenance`` with the given numeric fields' (every field's with a provenance when ``everything``)
    marked as the project's own: kind "assumed" (StorPlan's calibration did not produce them: no fit is named), the
    source ``project file (why); it cites: <the record's own citation>``."""
    provenance = dict(record.provenance)
    model_fields = type(record).model_fields
    names = set(provenance) | fields if everything else fields
    for name in names:
        if name not in model_fields or name == "provenance":
            continue
        value = getattr(record, name)
        if name not in provenance and (isinstance(value, bool) or not isinstance(value, (int, float))):
            continue  # a name, a list of ids, a nested record: no number of its own to cite
        old = provenance.get(name)
        cited = old.cited.strip() if old is not None else ""
        provenance[name] = Provenance(kind="assumed", source=f"{PROJECT_SOURCE_PREFIX} ({why})"
                                      + (f"; it cites: {cited}" if cited else ""))
    return provenance


def _marked(record: Entry, own: OwnRecord) -> Entry:
    """``record`` with the sources of the numbers it brings itself marked as the project file's (every number of
    a new record; the differing ones, and every number of a differing performance profile, otherwise)."""
    why = ("the project's own record" if own.new else
           "saved in the project file; today's catalog differs" if own.origin == "pinned" else
           "the project's own value; the catalog's differs")
    top = {d.field.split(".")[0].split("[")[0].removeprefix("source of ") for d in own.differences
           if not d.field.startswith("performance[")}
    update: dict[str, Any] = {"provenance": _marked_provenance(record, top, own.new, why)}
    profiles = getattr(record, "performance", None)
    if isinstance(profiles, list) and profiles:
        changed = {d.field.split("[", 1)[1].split("]")[0] for d in own.differences
                   if d.field.startswith("performance[")}
        marked = []
        for profile in profiles:
            if own.new or _profile_key(profile) in changed:
                provenance = _marked_provenance(profile, set(), True, why)
                provenance.pop("stderr", None)  # no fit of StorPlan's: no standard errors either
                marked.append(profile.model_copy(update={"provenance": provenance, "stderr": {}}))
            else:
                marked.append(profile)
        update["performance"] = marked
    return record.model_copy(update=update)


def _own_problem(own: OwnRecord) -> Problem | None:
    """The warning for a record the project brings itself (None for a new id: nothing in the catalog to differ
    from)."""
    if own.new or not own.differences:
        return None
    if own.origin == "pinned":
        version = f" (saved with catalog {own.catalog_version})" if own.catalog_version else ""
        return Problem("warning", f"the project file's saved record '{own.id}'{version} differs from today's "
                                  f"catalog: {own.differences_text()}; the saved data is used; {REPIN_HINT}")
    return Problem("warning", f"project record '{own.id}' differs from the catalog's: {own.differences_text()}; "
                              "the project's values are used and reported as the project's, not catalog fact")


def _resolve_catalog(project: Project, base: Catalog) -> tuple[Catalog, tuple[OwnRecord, ...], tuple[Problem, ...]]:
    """The project's own records over ``base``, marked (module docstring), with the own records and problems.

    Raises:
        CatalogError: a project record is invalid or reuses the id of a record of another kind.
    """
    base = _unresolved(base)
    own: dict[str, OwnRecord] = {}
    records: dict[str, Entry] = {}
    today = base.today if isinstance(base, PinnedCatalog) else None
    if isinstance(base, PinnedCatalog) and today is not None:
        for entry_id in base.pinned_ids:
            pinned, current = base.find(entry_id), today.find(entry_id)
            if pinned is None or current is None or pinned == current:
                continue
            diffs = tuple(_differences(pinned, current))
            own[entry_id] = OwnRecord(entry_id, pinned.kind, pinned.name, "pinned", diffs,
                                      catalog_version=base.version_of(entry_id))
            records[entry_id] = pinned
    if project.custom_catalog:
        reference = today or base
        for entry in parse_entries(project.custom_catalog, f"project '{project.info.name}' catalog"):
            current = reference.find(entry.id)
            if current is not None and current.kind != entry.kind:
                raise CatalogError(f"project '{project.info.name}' catalog: id '{entry.id}' is a {current.kind} in "
                                   f"the catalog; a {entry.kind} cannot reuse it")
            if current is not None and current == entry:
                own.pop(entry.id, None)
                records[entry.id] = entry
                continue
            diffs = tuple(_differences(entry, current)) if current is not None else ()
            own[entry.id] = OwnRecord(entry.id, entry.kind, entry.name, "project", diffs, new=current is None)
            records[entry.id] = entry
    problems: list[Problem] = []
    if isinstance(base, PinnedCatalog):
        problems.extend(Problem("warning", f"the project file's saved record '{entry_id}' cannot be read by this "
                                           "StorPlan; today's catalog record of that id is used")
                        for entry_id in base.unusable)
    marked = [_marked(records[i], own[i]) if i in own else records[i] for i in sorted(records)]
    owned = tuple(own[i] for i in sorted(own))
    problems.extend(p for o in owned if (p := _own_problem(o)) is not None)
    catalog: Catalog = base
    if marked:
        merged = {entry.id: entry for entry in base}
        merged.update((entry.id, entry) for entry in marked)
        catalog = ResolvedCatalog(merged.values(), base.version, base)
    return catalog, owned, tuple(problems)


def resolved_catalog(project: Project, base: Catalog | None = None) -> Catalog:
    """The catalog a project evaluates against by the one rule (module docstring), its own records marked.

    Args:
        base: the base catalog (``models.store.base_catalog`` or ``load_project_file(...).catalog``); None: the
            default (bundled plus the user's records).

    Raises:
        CatalogError: a project record is invalid (the message names the project, kind, entry and field).
    """
    return _resolve_catalog(project, default_catalog() if base is None else base)[0]


def resolve(project: Project, scenario: str | Scenario | None = None, catalog: Catalog | None = None) -> Design:
    """Resolve one scenario of a project into a :class:`Design`; never raises for a bad project record (it becomes
    an ``error`` problem and the base catalog is used without the project's records).

    Args:
        project: the project.
        scenario: the scenario, or its name; None: the active one.
        catalog: the base catalog (a project file's: ``models.store.load_project_file(path).catalog``, or
            ``models.store.base_catalog(snapshot)``); None: bundled plus the user's records (no pinned records).

    Raises:
        KeyError: ``scenario`` names no scenario of the project.
    """
    if isinstance(scenario, Scenario):
        chosen = scenario
    else:
        chosen = project.scenario_named(scenario) if scenario else project.scenario
    base = default_catalog() if catalog is None else _unresolved(catalog)
    try:
        resolved, own, problems = _resolve_catalog(project, base)
    except CatalogError as exc:
        resolved, own, problems = base, (), (Problem("error", f"project catalog: {exc}"),)
    return Design(project, chosen, resolved, project.settings, base, own, problems)


__all__ = ["Design", "FieldDifference", "OwnRecord", "PROJECT_SOURCE_PREFIX", "REPIN_HINT", "ResolvedCatalog",
           "base_catalog",
           "default_catalog", "is_project_source", "resolve", "resolved_catalog"]
