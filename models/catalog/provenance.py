"""Where the catalog's numbers come from, counted: sourced (a seed or named public document), calibrated (fitted
by StorPlan's calibration to published measurements), derived (computed from sourced numbers by a stated
derivation) or assumed (an engineering assumption with its reason).

A record's ``sources`` maps each field holding numbers to one text (``models.catalog.schema.Sourced``); the
text's opening words give its kind (:func:`source_kind`). Every number of the field counts once with that kind: a
list of three port speeds counts three. Fields left at their schema default are documented by the schema, need
no source and are not counted. Nested sourced records (a controller's performance profiles) count with their own
sources.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from pydantic import BaseModel

from .schema import Sourced, is_assumption

SOURCE_KINDS = ("sourced", "calibrated", "derived", "assumed")
"""The kinds, in the order reports print them."""


def source_kind(text: str) -> str:
    """The kind of one source text: ``assumed: ...`` -> assumed; ``derived...`` -> derived; a fit
    (``fitted: ...``, or the calibration's covariance text) -> calibrated; anything else names a document ->
    sourced."""
    low = text.strip().lower()
    if is_assumption(text):
        return "assumed"
    if low.startswith("derived"):
        return "derived"
    if low.startswith("fitted") or low.startswith("calibrated") or "least-squares covariance" in low \
            or "models.calibration" in low:
        return "calibrated"
    return "sourced"


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


def _nested(value: object) -> Iterable[Sourced]:
    """The sourced records inside a field's value (e.g. a controller's list of performance profiles)."""
    if isinstance(value, Sourced):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _nested(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _nested(item)


def record_counts(record: Sourced) -> Counter:
    """Numbers of one record (and its nested sourced records) by source kind: a Counter over
    :data:`SOURCE_KINDS`."""
    counts: Counter = Counter()
    for name in type(record).model_fields:
        if name == "sources":
            continue
        value = getattr(record, name)
        for inner in _nested(value):
            counts.update(record_counts(inner))
        if name not in record.model_fields_set:
            continue
        n = _numbers(value)
        text = record.sources.get(name, "")
        if n and text.strip():
            counts[source_kind(text)] += n
    return counts


def catalog_counts(entries: Iterable) -> dict[str, Counter]:
    """Numbers by source kind for each entry kind (``entry.kind``), kinds in alphabetical order."""
    by_kind: dict[str, Counter] = {}
    for entry in entries:
        by_kind.setdefault(entry.kind, Counter()).update(record_counts(entry))
    return dict(sorted(by_kind.items()))


def counts_line(label: str, counts: Counter) -> str:
    """``controller: sourced 412, calibrated 30, derived 96, assumed 70`` (every kind named, zeros included)."""
    return f"{label}: " + ", ".join(f"{kind} {counts.get(kind, 0)}" for kind in SOURCE_KINDS)
