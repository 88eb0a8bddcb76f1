"""Where the catalog's numbers come from, counted: sourced (a seed or named public document), calibrated (fitted
by StorPlan's calibration to published measurements), derived (computed from sourced numbers by a stated
derivation) or assumed (an engineering assumption with its reason).

A record's ``provenance`` maps each field holding numbers to a ``models.catalog.schema.Provenance``, whose ``kind``
field is the number's kind (never its source's wording). Every number of the field counts once with that kind: a
list of three port speeds counts three. Fields left at their schema default are documented by the schema, need
no source and are not counted. Nested sourced records (a controller's performance profiles) count with their own
sources.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from models.catalog.schema import PROVENANCE_KINDS, Entry, Provenance, Sourced

SOURCE_KINDS = PROVENANCE_KINDS
"""The kinds, in the order reports print them (``models.catalog.schema.PROVENANCE_KINDS``)."""


S = TypeVar("S", bound=Sourced)


def downgraded(record: S, source_note: str, kind: Literal["assumed", "sourced"] = "assumed") -> S:
    """A copy of ``record`` in which no number is a fit's: every "calibrated" provenance (the record's own and its
    nested profiles') becomes ``kind`` (default "assumed") with ``source_note`` put before its source text, a
    derived number keeps its kind but no longer names a fit, and the standard errors (and their basis) go. For a
    record StorPlan's own calibration did not produce (e.g. a project's own record that differs from the bundled
    one of the same id), so that no profile of it is called calibrated: with no field naming a fit, its profile
    is "assumed" (``models.performance.profiles.profile_kind``) and its bands an assumed profile's.

    Args:
        record: any sourced record (an Entry or a PerfProfile); source_note: a few words, e.g. "the project's own
            record"; kind: "assumed" or "sourced".

    Raises:
        ValueError: ``kind`` is not "assumed" or "sourced".
    """
    if kind not in ("assumed", "sourced"):
        raise ValueError(f"a calibrated number can be downgraded to 'assumed' or 'sourced', not {kind!r}")

    def one(p: Provenance) -> Provenance:
        if p.kind == "calibrated":
            return Provenance(kind=kind, source=f"{source_note}; {p.source}" if source_note else p.source)
        return p.model_copy(update={"fit": ""}) if p.fit else p

    update: dict[str, Any] = {"provenance": {k: one(p) for k, p in record.provenance.items()}}
    if isinstance(getattr(record, "stderr", None), dict):
        update["stderr"] = {}
        if isinstance(getattr(record, "correlation", None), dict):
            update["correlation"] = {}
        update["provenance"] = {k: p for k, p in update["provenance"].items() if k not in ("stderr", "correlation")}
    for name in type(record).model_fields:
        value = getattr(record, name)
        if isinstance(value, list) and value and all(isinstance(v, Sourced) for v in value):
            update[name] = [downgraded(v, source_note, kind) for v in value]
    return record.model_copy(update=update)


def _numbers(value: object) -> int:
    """How many numbers a field's value holds (bools are not numbers; nested sourced records are counted
    separately by :func:`record_counts`)."""
    if isinstance(value, bool) or value is None or isinstance(value, Sourced):
        return 0
    if isinstance(value, (int, float)):
        return 1
    if isinstance(value, Mapping):
        return sum(_numbers(v) for v in value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return sum(_numbers(v) for v in value)
    if isinstance(value, BaseModel):
        return sum(_numbers(getattr(value, name)) for name in type(value).model_fields)
    return 0


def _nested(value: object) -> Iterator[Sourced]:
    """The sourced records inside a field's value (e.g. a controller's list of performance profiles)."""
    if isinstance(value, Sourced):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _nested(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _nested(item)


def record_counts(record: Sourced) -> Counter[str]:
    """Numbers of one record (and its nested sourced records) by provenance kind (``Provenance.kind``): a Counter
    over :data:`SOURCE_KINDS`."""
    counts: Counter[str] = Counter()
    for name in type(record).model_fields:
        if name == "provenance":
            continue
        value = getattr(record, name)
        for inner in _nested(value):
            counts.update(record_counts(inner))
        if name not in record.model_fields_set:
            continue
        n = _numbers(value)
        p = record.provenance.get(name)
        if n and p is not None:
            counts[p.kind] += n
    return counts


def catalog_counts(entries: Iterable[Entry]) -> dict[str, Counter[str]]:
    """Numbers by source kind for each entry kind (``entry.kind``), kinds in alphabetical order."""
    by_kind: dict[str, Counter[str]] = {}
    for entry in entries:
        by_kind.setdefault(entry.kind, Counter()).update(record_counts(entry))
    return dict(sorted(by_kind.items()))


def counts_line(label: str, counts: Mapping[str, int]) -> str:
    """``controller: sourced 412, calibrated 30, derived 96, assumed 70`` (every kind named, zeros included)."""
    return f"{label}: " + ", ".join(f"{kind} {counts.get(kind, 0)}" for kind in SOURCE_KINDS)


def _toml_str(s: str) -> str:
    """A TOML basic string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def provenance_toml_line(name: str, p: Provenance) -> str:
    """One ``provenance`` table line: ``name = { kind = "...", source = "..." [, fit = "..."] }``."""
    fit = f", fit = {_toml_str(p.fit)}" if p.fit else ""
    return f"{name} = {{ kind = {_toml_str(p.kind)}, source = {_toml_str(p.source)}{fit} }}"
