"""Reading records written before numbers carried a structured provenance (a catalog file format migration).

Until catalog VERSION 2026.11 a record's ``sources`` mapped each numeric field to one text, and a number's kind
was read from that text's opening words. Records in that form still exist outside the bundled catalog (a user
catalog, the pinned records of a saved ``.storplan``): :func:`legacy_provenance` turns their texts into
:class:`~models.catalog.schema.Provenance` once, on reading (``Sourced``'s validator calls it). It is the only
code that decides a kind from wording; everything else reads ``Provenance.kind``. :func:`migrate_catalog_text`
rewrote the bundled catalog's TOML files to the ``provenance`` form with the same rule (run once; the files are
committed in the new form).

The rule (the former ``models.catalog.provenance.source_kind``): ``assumed...`` -> assumed; ``derived...`` ->
derived; ``fitted...`` / ``calibrated...`` or a text naming the calibration's least-squares covariance or
``models.calibration`` -> calibrated (its fit: the text, an older file names no fit); anything else names a
document -> sourced; and, whatever the wording, a profile field with a standard error (``PerfProfile.stderr``,
which only a fit stores) -> calibrated. A leading ``assumed:`` / ``derived:`` / ``fitted:`` that only restates the
kind is dropped from the text (repeated, as in "assumed: assumed: ...", too): the kind is a field now.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

_PREFIX = {"assumed": "assumed", "derived": "derived", "calibrated": "fitted"}
"""The leading word an older text used to state each kind (sourced had none)."""


def legacy_kind(text: str) -> str:
    """The kind an older source text stated by its wording (module docstring's rule)."""
    low = text.strip().lower()
    if low.startswith("assumed"):
        return "assumed"
    if low.startswith("derived"):
        return "derived"
    if low.startswith("fitted") or low.startswith("calibrated") or "least-squares covariance" in low \
            or "models.calibration" in low:
        return "calibrated"
    return "sourced"


def strip_kind_prefix(text: str, kind: str) -> str:
    """``text`` without the leading ``<word>:`` (repeated) that restates ``kind`` (e.g. "assumed: assumed: x" ->
    "x"); unchanged when it has none ("" when nothing else is left)."""
    word = _PREFIX.get(kind)
    if not word:
        return text.strip()
    return re.sub(rf"^(\s*{word}\s*:\s*)+", "", text, flags=re.IGNORECASE).strip()


def legacy_provenance(sources: Mapping[str, object], fitted: Iterable[str] = (),
                      fit: str = "") -> dict[str, dict[str, str]]:
    """An older record's ``sources`` (field -> text) as ``provenance`` (field -> ``{"kind", "source"[, "fit"]}``,
    the form a ``models.catalog.schema.Provenance`` validates; this module imports no record type, so that the
    schema can call it); empty texts (no number) are dropped.

    Args:
        sources: field -> source text.
        fitted: fields a fit set, known from the record's structure (a profile's ``stderr`` keys): calibrated
            whatever their text says (e.g. "assumed: 2 x the fitted cpu_read_us", whose standard error the fit
            propagated).
        fit: the fit's name for calibrated fields (older files name none: "" uses the field's own text).

    Raises:
        ValueError: an assumption without a reason (fewer than 8 characters after "assumed:").
    """
    set_by_fit = set(fitted)
    out: dict[str, dict[str, str]] = {}
    for name, value in sources.items():
        text = str(value).strip()
        if not text:
            continue
        kind = "calibrated" if name in set_by_fit else legacy_kind(text)
        source = strip_kind_prefix(text, legacy_kind(text))
        if legacy_kind(text) == "assumed" and len(source) < 8:
            raise ValueError(f"source of '{name}' is marked assumed without a reason")
        out[str(name)] = {"kind": kind, "source": source, **({"fit": fit or source} if kind == "calibrated" else {})}
    return out


_SOURCES_HEADER = re.compile(r"^\[(?P<table>[a-z_]+(?:\.[a-z_]+)*)\.sources\]\s*$")


def migrate_catalog_text(text: str) -> str:
    """A catalog TOML file's text with every ``[<table>.sources]`` table (field = "text") rewritten as
    ``[<table>.provenance]`` (field = { kind, source[, fit] }) by :func:`legacy_provenance`'s rule (a profile's
    ``stderr`` keys, in the same ``[[...]]`` block, calibrated, its fit named by the profile's ``source``); every
    other line (comments included) kept byte for byte.

    Raises:
        tomllib.TOMLDecodeError: a block is not valid TOML, or a line of a sources table is not ``key = "string"``.
    """
    chunks = re.split(r"(?m)^(?=\[\[)", text)
    return "".join(_migrate_chunk(chunk) for chunk in chunks)


def _migrate_chunk(chunk: str) -> str:
    """One ``[[...]]`` block of a catalog file (or the text before the first), migrated
    (:func:`migrate_catalog_text`)."""
    fitted: set[str] = set()
    fit = ""
    if chunk.startswith("[[") and ".performance]]" in chunk.splitlines()[0]:
        data: object = tomllib.loads(chunk)
        while isinstance(data, dict) and len(data) == 1:
            data = next(iter(data.values()))
            if isinstance(data, list):
                data = data[-1]
        if isinstance(data, dict):
            fitted = set(data.get("stderr", {}))
            fit = str(data.get("source", ""))
    out: list[str] = []
    in_sources = False
    for line in chunk.splitlines(keepends=True):
        m = _SOURCES_HEADER.match(line)
        if m:
            in_sources = True
            out.append(f"[{m.group('table')}.provenance]\n")
            continue
        if line.startswith("["):
            in_sources = False
        if in_sources and line.strip() and not line.lstrip().startswith("#"):
            (name, value), = tomllib.loads(line).items()
            (field, p), = legacy_provenance({name: value}, fitted, fit).items()
            end = "\n" if line.endswith("\n") else ""
            fit_text = f", fit = {_toml_str(p['fit'])}" if p.get("fit") else ""
            out.append(f"{field} = {{ kind = {_toml_str(p['kind'])}, source = {_toml_str(p['source'])}{fit_text} }}"
                       + end)
            continue
        out.append(line)
    return "".join(out)


def _toml_str(s: str) -> str:
    """A TOML basic string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def migrate_catalog_dir(directory: Path) -> list[Path]:
    """Rewrite every ``*.toml`` of a catalog directory in the provenance form (:func:`migrate_catalog_text`);
    returns the files changed.

    Raises:
        OSError: a file cannot be read or written; tomllib.TOMLDecodeError: see :func:`migrate_catalog_text`.
    """
    changed = []
    for path in sorted(Path(directory).glob("*.toml")):
        old = path.read_text(encoding="utf-8")
        new = migrate_catalog_text(old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed
