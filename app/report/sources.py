"""Which catalog records and preset numbers a scenario uses, and each number's value, unit and source."""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.capacity.rules import raid_label
from models.catalog import Catalog, Entry
from models.formatting import finite, fmt_capacity
from models.present.citations import customer_citation
from models.project.model import Scenario
from models.units import CapacityUnit


@dataclass(frozen=True)
class SourcedNumber:
    """One catalog (or preset) number as the report prints it; ``kind`` is its provenance kind ("sourced",
    "calibrated", "derived" or "assumed": a catalog number's ``Provenance.kind``)."""

    record: str
    field: str
    value: str
    source: str
    kind: str = "sourced"

    @property
    def assumed(self) -> bool:
        """True when the number is an assumption (its kind), not a published, fitted or derived value."""
        return self.kind == "assumed"


_UNIT_SUFFIXES = (
    ("_gib_per_node", "GiB per node"),
    ("_per_gib", ""),  # a rate per GiB (``iops_per_gib``): its unit is in the label, "IOPS per GiB"
    ("_gib", "GiB"),
    ("_us", "µs"),
    ("_ms", "ms"),
    ("_gbps", "Gb/s"),
    ("_mbps", "MB/s"),
    ("_pct", "%"),
    ("_pct_per_h", "% per hour"),
    ("_pct_per_year", "% per year"),
    ("_kib", "KiB"),
    ("_h", "h"),
    ("iops", "IOPS"),
    ("rpm", "rpm"),
    ("_power_w", "W"),  # typical and maximum power: "typical power 2,033.3 W" (read "typical power w 2,033.3")
)


_WORDS = {
    "iops": "IOPS", "cpu": "CPU", "io": "I/O", "ios": "I/Os", "us": "µs", "ms": "ms", "gib": "GiB", "tib": "TiB",
    "mbps": "MB/s", "gbps": "Gb/s", "pct": "%", "nvram": "NVRAM", "fc": "FC", "ha": "HA", "ssd": "SSD",
    "hdd": "HDD", "vm": "VM", "sas": "SAS", "nvme": "NVMe", "raid": "RAID", "ftt": "FTT", "adp": "ADP",
    "wafl": "WAFL", "vcpu": "vCPU", "ram": "RAM", "rpm": "rpm", "kib": "KiB", "h": "h",
}


_LABELS = {
    "max_capacity_per_group": "max capacity devices per disk group",  # a count ("max capacity per group 7" read
    # as a capacity without its unit)
    "stderr": "standard errors", "correlation": "correlations of the fitted values",
    # a unit inside the name: "throughput mibps per TiB" read as a code key (review 57 #10)
    "throughput_mibps_per_tib": "throughput per TiB (MiB/s)",
}
"""Field names whose words alone would mislead, in words."""

_UNIT_WORDS = {"gib", "tib", "us", "ms", "gbps", "mbps", "pct", "kib", "w"}


def field_label(field: str) -> str:
    """A catalog field name in words, its unit left to the value: ``memory_gib_per_node`` -> ``memory per node``.

    A ``prefix: field`` (a performance profile's field) keeps its prefix.
    """
    prefix, sep, name = field.rpartition(": ")
    if name in _LABELS:
        return f"{prefix}{sep}{_LABELS[name]}"
    words = [w for w in name.split("_") if w]
    if len(words) > 1:  # a unit word names the value's unit, except after "per" (a rate: "IOPS per GiB")
        words = [w for i, w in enumerate(words) if w not in _UNIT_WORDS or (i and words[i - 1] == "per")] or words
        if words[-1] == "bytes":  # a byte count is a capacity: named once ("capacity cap", "max capacity", a
            # disk's "size" its "capacity"), never "capacity cap capacity" or "size capacity"
            words = words[:-1]
            if words == ["size"]:
                words = ["capacity"]
            elif "capacity" not in words:
                words.append("capacity")
    text = " ".join(_WORDS.get(w, w) for w in words) or name
    return f"{prefix}{sep}{text}"


def _unit_of(record: object, field: str) -> str:
    info = getattr(type(record), "model_fields", {}).get(field)
    description = (getattr(info, "description", "") or "") if info else ""
    if "Mbit/s" in description:
        return "Mbit/s"
    for suffix, unit in _UNIT_SUFFIXES:
        if field.endswith(suffix):
            return unit
    return ""


_ZERO_WORDS = {"iops_per_gib": "no limit published", "throughput_mibps_per_tib": "none: not size-based"}
"""What a 0 means in a field whose 0 is no figure (the schema's words): "IOPS per GiB 0" read as zero IOPS (review
57 #10)."""


def _scalar(value: object, unit: str, field: str, capacity_unit: CapacityUnit) -> str:
    if field in _ZERO_WORDS and not isinstance(value, bool) and value == 0:
        return _ZERO_WORDS[field]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if field == "marketed_bytes" and finite(value):  # as the drive is sold: decimal TB (review 57 #15: "3.49 TiB"
        # read as equal to the right-sized 3.49 TiB beside it)
        return f"{fmt_capacity(value, CapacityUnit.TB, fixed=True)} ({value:,.0f} bytes)"
    if field.endswith("_bytes") and finite(value):
        return f"{fmt_capacity(value, capacity_unit, fixed=True)} ({value:,.0f} bytes)"
    if field.endswith("latency_us") and finite(value) and value >= 100:  # in ms, as every latency the report gives
        # (review 57 PDF #15: "500 µs" here, "0.50 ms" in the summary); the catalog's µs beside it
        return f"{value / 1000:.2f} ms ({plain_number(value)} µs)"
    if isinstance(value, int):
        text = f"{value:,}"
    elif finite(value):
        text = plain_number(value)
    elif isinstance(value, float):
        text = "n/a"
    else:
        text = str(value)
    return f"{text} {unit}".strip()


def plain_number(value: float) -> str:
    """A float with six significant digits and thousands separators, never in exponent form: ``2e+06`` ->
    ``2,000,000``, ``1234567.8`` -> ``1,234,570``, ``0.000012`` -> ``0.000012``."""
    text = f"{value:,.6g}"
    if "e" not in text:
        return text
    if abs(value) >= 1:
        return f"{float(f'{value:.6g}'):,.0f}"
    digits = max(0, 5 - math.floor(math.log10(abs(value))))
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


def format_value(record: object, field: str, value: object, capacity_unit: CapacityUnit) -> str:
    """A catalog value with its unit: scalars, ``{key: value}`` tables and RAID group rules."""
    unit = _unit_of(record, field)
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            if hasattr(item, "default") and hasattr(item, "max"):
                parts.append(f"{raid_label(key)}: default {item.default}, max {item.max}")
            else:  # a stderr or covariance table keys fields ("cpu_read_us", "a:b"): their words
                words = ":".join(field_label(k) if "_" in k else k for k in str(key).split(":"))
                if field.endswith("stderr"):  # a standard error carries the unit of the field it belongs to
                    parts.append(f"{words}: \u00b1{_scalar(item, _unit_of(record, str(key)), str(key), capacity_unit)}")
                else:
                    parts.append(f"{words}: {_scalar(item, unit, field, capacity_unit)}")
        return "; ".join(parts) or "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(_scalar(v, unit, field, capacity_unit) for v in value) or "—"
    return _scalar(value, unit, field, capacity_unit)


def referenced_records(scenario: Scenario, catalog: Catalog) -> list[Entry]:
    """The catalog records a scenario's nodes and links use, in first-use order, with the records those name in
    turn (a shelf's back-end link, an HCI host's drives, a cloud VM's NVRAM disk; the same references a saved
    project's catalog snapshot follows). Missing ids are skipped."""
    from models.store.snapshot import NODE_REFERENCE_FIELDS, RECORD_REFERENCE_FIELDS

    ids: list[str] = []
    for node in scenario.nodes:
        ids += [v for f in NODE_REFERENCE_FIELDS if isinstance(v := getattr(node, f, None), str)]
    ids += [link.link_type for link in scenario.links]
    seen: set[str] = set()
    records = []
    while ids:
        entry_id = ids.pop(0)
        if not entry_id or entry_id in seen:
            continue
        seen.add(entry_id)
        record = catalog.find(entry_id)
        if record is not None:
            records.append(record)
            ids[:0] = [v for f in RECORD_REFERENCE_FIELDS if isinstance(v := getattr(record, f, None), str)]
    return records


def _record_names(catalog: Catalog, value: object) -> str:
    """The record name(s) a field's value refers to by id (an NVRAM disk, the supported shelves), else ""."""
    ids = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else []
    records = [catalog.find(v) if isinstance(v, str) and v else None for v in ids]
    if not records or any(r is None for r in records):
        return ""
    return ", ".join(r.name for r in records if r is not None)


def _derivation_text(catalog: Catalog, value: object) -> str:
    """A derived profile's origin in words (``NetApp AFF A800 HA pair's profiles x 1.09``), not the record's
    fields (``sibling='netapp-aff-a800' ratio=1.09``); "" for any other value."""
    sibling, ratio = getattr(value, "sibling", None), getattr(value, "ratio", None)
    if not isinstance(sibling, str) or not isinstance(ratio, (int, float)):
        return ""
    record = catalog.find(sibling)
    name = record.name if record is not None else "another catalog record"
    return f"{name}'s profiles x {ratio:g} (throughput ratio)"


def catalog_numbers(scenario: Scenario, catalog: Catalog, capacity_unit: CapacityUnit) -> list[SourcedNumber]:
    """Every sourced number of every record the scenario uses (controller performance profiles included), each
    source as the customer's citation (``models.present.citations.customer_citation``)."""
    rows: list[SourcedNumber] = []
    for record in referenced_records(scenario, catalog):
        title = f"{record.name} ({field_label(record.kind)})"
        for field, p in record.provenance.items():
            value = getattr(record, field, None)
            text = (_derivation_text(catalog, value) or _record_names(catalog, value)
                    or format_value(record, field, value, capacity_unit))
            rows.append(SourcedNumber(title, field, text,
                                      customer_citation(p.source), p.kind))
        for profile in getattr(record, "performance", ()) or ():
            prefix = f"performance {profile.software} {profile.protocol}"
            first = ""  # the field whose row cites the profile's fit in full: the later ones refer to it
            for field, p in profile.provenance.items():
                value = getattr(profile, field, None)
                text = format_value(profile, field, value, capacity_unit)
                cited = customer_citation(p.source)
                fit = profile.source
                if fit and fit in p.source and first:
                    head = p.source[:p.source.index(fit)].strip(" ;")
                    tail = p.source[p.source.index(fit) + len(fit):].strip(" ;")
                    same = f"the same fit as '{field_label(first)}' above"
                    cited = "; ".join(x for x in (customer_citation(head) if head else "", same,
                                                  customer_citation(tail) if tail else "") if x)
                elif fit and fit in p.source:
                    first = field
                rows.append(SourcedNumber(title, f"{prefix}: {field}", text, cited, p.kind))
    return rows


def _uses_preset_value(workload: dict, field: str, value: object) -> bool:
    """True when the workload (its fields as a dict, ``Workload.model_dump()``) still has the preset's value for
    ``field`` (a table: every key the same); a field the workload does not have counts as kept. A field the
    workload holds empty (None) does not use the preset's value: the engines read the workload's own (no
    Snapshot schedule takes no Snapshot space, as ``models.capacity.efficiency`` counts copies only for a workload
    with a schedule; no working set is the whole data set; no target is no target)."""
    own = workload.get(field, value) if isinstance(workload, dict) else value
    if own is None and value is not None:
        return False
    if isinstance(value, dict):
        return all(_uses_preset_value(own, k, v) for k, v in value.items())
    if isinstance(value, (int, float)) and isinstance(own, (int, float)) and not isinstance(own, bool):
        return abs(float(own) - float(value)) <= 1e-9 * max(1.0, abs(float(value)))
    return bool(own == value)


def preset_numbers(scenario: Scenario, capacity_unit: CapacityUnit) -> list[SourcedNumber]:
    """The sourced numbers of the workload presets the scenario's enabled workloads were made from, only those
    every such workload still uses: a value the workload replaced with its own (its dataset, growth, ...) is not
    a number this scenario uses, so its preset row is left out."""
    try:
        from models.workloads import bundled_presets

        presets = bundled_presets()
    except Exception:  # noqa: BLE001 - a broken presets file must not stop the report: the numbers are simply not listed
        return []
    rows: list[SourcedNumber] = []
    seen: set[str] = set()
    for workload in scenario.workloads:
        if not workload.enabled or not workload.preset or workload.preset in seen:
            continue
        seen.add(workload.preset)
        preset = presets.get(workload.preset)
        if preset is None:
            continue
        title = f"{preset.name} (workload preset)"
        users = [w for w in scenario.workloads if w.enabled and w.preset == workload.preset]
        for field, source in preset.sources.items():
            value = preset.fields.get(field)
            if value is None or not all(_uses_preset_value(w.model_dump(), field, value) for w in users):
                continue
            if isinstance(value, dict):
                text = "; ".join(f"{field_label(k)}: {_scalar(v, _unit_of(None, k), k, capacity_unit)}"
                                 for k, v in value.items())
            else:
                text = _scalar(value, _unit_of(None, field), field, capacity_unit)
            rows.append(SourcedNumber(title, field, text, *preset_source(source)))
    return rows


def preset_source(source: str) -> tuple[str, str]:
    """(source text, kind) of a workload preset number. Presets (resources/workloads/presets.toml) are not catalog
    records: their text still states an assumption ("assumed: <reason>" -> the reason, "assumed"); catalog
    numbers carry their kind as data (``Provenance.kind``)."""
    head, sep, reason = source.partition(":")
    if sep and head.strip().lower() == "assumed":
        return customer_citation(reason.strip()), "assumed"
    return customer_citation(source), "sourced"
