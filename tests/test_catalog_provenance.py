"""`storplan catalog --sources`: numbers by provenance kind, checked against a count made straight from the TOML
files (an independent walk of the raw ``provenance`` tables), and the assumed share kept under half."""

from __future__ import annotations

import tomllib
from collections import Counter

from models.catalog import bundled_catalog
from models.catalog.legacy import legacy_kind
from models.catalog.provenance import SOURCE_KINDS, catalog_counts, counts_line
from models.resources import catalog_dir


def _raw_numbers(value) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, (int, float)):
        return 1
    if isinstance(value, dict):
        return sum(_raw_numbers(v) for v in value.values())
    if isinstance(value, list):
        return sum(_raw_numbers(v) for v in value if not isinstance(v, dict))
    return 0


def _walk(table: dict, counts: Counter) -> None:
    for name, entry in table.get("provenance", {}).items():
        n = _raw_numbers(table.get(name))
        if n:
            counts[entry["kind"]] += n
    for value in table.values():  # nested records (a controller's [[controller.performance]])
        if isinstance(value, list):
            for item in value:
                if isinstance(item, dict) and "provenance" in item:
                    _walk(item, counts)


def test_counts_equal_a_count_made_from_the_raw_toml():
    raw: dict[str, Counter] = {}
    for path in sorted(catalog_dir().glob("*.toml")):
        for kind, records in tomllib.loads(path.read_text()).items():
            if isinstance(records, list):
                for record in records:
                    _walk(record, raw.setdefault(kind, Counter()))
    counted = catalog_counts(bundled_catalog())
    assert {k: dict(v) for k, v in counted.items() if sum(v.values())} == \
        {k: dict(v) for k, v in raw.items() if sum(v.values())}


def test_legacy_kinds_and_the_line_format():
    """The older files' wording rule (models.catalog.legacy, used only to read records written before the
    provenance field), and the counts line."""
    assert legacy_kind("assumed: no public figure; chosen as ...") == "assumed"
    assert legacy_kind("derived: 3,412 BTU/hr / 3.412") == "derived"
    assert legacy_kind("fitted: seed 001 ...") == "calibrated"
    assert legacy_kind("NetApp Hardware Universe, AFF A800") == "sourced"
    assert counts_line("controller", Counter(sourced=3, assumed=1)) == \
        "controller: sourced 3, calibrated 0, derived 0, assumed 1"


def test_cli_prints_a_line_per_kind_and_a_total_and_assumed_stays_under_half(capsys):
    from app.cli import main

    assert main(["catalog", "--sources"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("total: ") and any(line.startswith("controller: ") for line in lines)
    total = dict(part.rsplit(" ", 1) for part in lines[-1].removeprefix("total: ").split(", "))
    numbers = {k: int(v) for k, v in total.items()}
    assert list(numbers) == list(SOURCE_KINDS)
    assert numbers["assumed"] < 0.5 * sum(numbers.values())


def _texts(value, where=""):
    """Every string in a raw TOML value with its location (sources, notes, nested performance records)."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _texts(item, f"{where}[{i}]")


def test_no_text_relies_on_memory_without_naming_where_it_was_searched():
    """Issue 15: a figure 'recalled' (or 'as remembered') from a document nobody re-read is an assumption (its
    provenance kind, or an assumption stated in its text) and must say where a readable copy was searched for; a
    figure that was found cites the document instead."""
    offending = []
    for path in sorted(catalog_dir().glob("*.toml")):
        data = tomllib.loads(path.read_text())
        for where, text in _texts(data):
            if where.endswith(".kind") or where.endswith(".fit"):
                continue
            low = text.lower()
            kind = _kind_at(data, where)
            assumed = kind == "assumed" or "assumed" in low
            if ("recalled" in low or "as remembered" in low) and not (assumed and "searched" in low):
                offending.append(f"{path.name}{where}: {text[:90]}")
    assert not offending, "\n".join(offending)


def _kind_at(data: dict, where: str) -> str | None:
    """The ``kind`` beside a ``....provenance.<field>.source`` text (None for other texts)."""
    if not where.endswith(".source") or ".provenance." not in where:
        return None
    node: object = data
    for part in where.removesuffix(".source").strip(".").replace("[", ".[").split("."):
        if part.startswith("["):
            node = node[int(part[1:-1])]  # type: ignore[index]
        else:
            node = node[part]  # type: ignore[index]
    return node.get("kind") if isinstance(node, dict) else None
