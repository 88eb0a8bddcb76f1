"""ONTAP performance counters -> an :class:`~models.importers.inventory.Inventory` of volumes and LUNs.

Three forms of one collection are read (one or more files, mixed):

* REST volume statistics, ``GET /api/storage/volumes?fields=statistics`` (JSON ``records`` with ``statistics``):
  cumulative ``iops_raw``, ``latency_raw`` (microseconds) and ``throughput_raw`` (bytes) per read / write /
  other, with the poll's ``timestamp``. Two or more polls give rates: rate = counter difference / interval,
  latency = latency difference / operations difference (NetApp, ONTAP REST API reference, "storage/volumes",
  the ``statistics`` fields; the same arithmetic as NetApp Harvest's KeyPerf collector).
* REST counter tables (``GET /api/cluster/counter/tables/volume`` for the schema: counter names, ``type``
  rate / average / delta / raw, ``unit`` and the ``denominator`` (base) counter; ``.../volume/rows`` for polls of
  the rows' raw cumulative counters). These rows carry no clock: the polls are taken in the order given and
  their interval comes from the caller (``interval_s``).
* the controller model, where the collection carries it: ``GET /api/cluster/nodes?fields=model`` (JSON ``records``
  with ``model``) or the CLI's ``system node show`` / ``system show`` text (a ``Model`` column, or ``Model:`` lines
  of ``-instance``); see :func:`node_models`. It sets the inventory's ``controller_model``.
* ``statistics show -raw`` text of the ``lun`` and ``volume`` objects (CLI; ``Object:`` / ``Instance:`` /
  ``Start-time:`` / ``End-time:`` blocks, values
  with unit suffixes such as ``us`` and ``%``, long values wrapped onto the next line, histograms as indented
  label / value rows, which are skipped), optionally with the counter catalogue (``statistics catalog counter
  show`` text, ``·``-separated, giving each counter's base counter).

The front-end protocol of each volume or LUN is taken from the data where it shows it: a LUN is block (its
counters do not name FCP or iSCSI); a counter-table volume's per-protocol operation counters (``nfs.*_ops``,
``cifs.*_ops``, ``iscsi.*_ops``, ``fcp.*_ops``) name the protocol with the most operations, counted over the polls
(or, when no operation of any protocol happened between them, since the counters started), and so do a
``statistics show`` volume's (``nfs_read_ops``, ``cifs_write_ops``, ...); REST volume statistics do not split by
protocol (:func:`counter_protocol`).

A counter that goes backwards between two polls (a counter reset, a takeover, a reboot) or two polls with no time
between them are flagged and that interval is left out, never turned into a negative or infinite rate."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from models.bounded_read import FileRefusedError, read_text
from models.importers.inventory import ImportFlag, Inventory, InventoryError, PerfFigures, PerfSample, Volume

MAX_FILE_BYTES = 64 * 2**20
"""The largest ONTAP file read (a cluster's counter dump of many thousands of volumes fits well within it)."""

MAX_LATENCY_MS = 3_600_000.0
"""A mean latency above an hour over an interval is not a measurement: the interval is flagged and left out."""
US_PER_MS = 1000.0
BYTES_PER_MB = 1e6


@dataclass(frozen=True)
class _Spec:
    """Which cumulative counters of one form hold what, and the factors to MB and ms."""

    read_ops: str
    write_ops: str
    other_ops: str
    read_bytes: str
    write_bytes: str
    read_lat: str
    write_lat: str
    read_lat_base: str
    write_lat_base: str
    bytes_per_unit: float = 1.0
    """bytes in one unit of the throughput counters"""
    ms_per_lat_unit: float = 1.0 / US_PER_MS
    """milliseconds in one unit of the latency counters"""


_KEYPERF = _Spec("iops_raw.read", "iops_raw.write", "iops_raw.other", "throughput_raw.read", "throughput_raw.write",
                 "latency_raw.read", "latency_raw.write", "iops_raw.read", "iops_raw.write")
_RESTPERF_DEFAULT = _Spec("total_read_ops", "total_write_ops", "total_other_ops", "bytes_read", "bytes_written",
                          "read_latency", "write_latency", "total_read_ops", "total_write_ops")
_LUN_DEFAULT = _Spec("read_ops", "write_ops", "other_ops", "read_data", "write_data", "avg_read_latency",
                     "avg_write_latency", "read_ops", "write_ops")
_VOLUME_TEXT = _Spec("read_ops", "write_ops", "other_ops", "read_data", "write_data", "read_latency", "write_latency",
                     "read_ops", "write_ops")
"""``statistics show -raw -object volume``: the volume object's counters (read_ops, read_data, read_latency in
microseconds over read_ops, ...; NetApp Harvest's StatPerf volume template lists the same names)."""

_UNIT_MS = {"microsec": 1.0 / US_PER_MS, "us": 1.0 / US_PER_MS, "millisec": 1.0, "ms": 1.0, "sec": 1000.0}
_UNIT_BYTES = {"b_per_sec": 1.0, "kb_per_sec": 1024.0, "mb_per_sec": 1024.0**2}


@dataclass
class _Poll:
    """One poll of one volume or LUN: its clock (None: not given), its cumulative counters and where it was read."""

    time_s: float | None
    counters: dict[str, float]
    file: str
    row: int


@dataclass
class _Series:
    """All polls of one volume or LUN, with its identity."""

    name: str
    svm: str
    node: str
    aggregate: str
    kind: Literal["volume", "lun"]
    spec: _Spec
    polls: list[_Poll] = field(default_factory=list)


def _flatten(prefix: str, value: Any, out: dict[str, float], texts: dict[str, str] | None = None) -> None:
    """Numeric leaves of a JSON object as dotted names (``iops_raw.read``); with ``texts``, the leaves that are
    not numbers (text, true/false) there, as the file gives them (review 57 #7: a counter holding text is there,
    and is not a number)."""
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), item, out, texts)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        out[prefix] = float(value)
    elif texts is not None and value is not None and not isinstance(value, list):
        texts[prefix] = str(value)[:40]


def _not_numbers(texts: dict[str, str], among: frozenset[str] | None = None) -> list[str]:
    """The counters (of ``among``; None: all) whose value is not a number, in name order."""
    return sorted(k for k in texts if among is None or k in among)


def _iso_seconds(text: Any, where: str) -> float:
    """Seconds since the epoch of an ISO 8601 timestamp (``2024-07-29T16:14:56Z``); a naive one is taken as UTC."""
    try:
        moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        raise InventoryError(f"{where}: timestamp {text!r} is not an ISO 8601 date and time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


class _Collection:
    """The polls of every volume and LUN met so far, and the flags and notes of the reading."""

    def __init__(self) -> None:
        self.series: dict[tuple[str, ...], _Series] = {}
        self.flags: list[ImportFlag] = []
        self.notes: list[str] = []
        self.restperf_polls = 0
        self.schema: dict[str, dict[str, Any]] = {}
        self.lun_bases: dict[str, str] = {}

    def add(self, key: tuple[str, ...], template: _Series, poll: _Poll) -> None:
        """Add ``poll`` to the series of ``key`` (made from ``template`` when new)."""
        self.series.setdefault(key, template).polls.append(poll)


def _spec_counters(spec: _Spec) -> frozenset[str]:
    """The names of the counters ``spec`` reads."""
    return frozenset((spec.read_ops, spec.write_ops, spec.other_ops, spec.read_bytes, spec.write_bytes,
                      spec.read_lat, spec.write_lat, spec.read_lat_base, spec.write_lat_base))


def _bad_counters(counters: dict[str, float], among: frozenset[str] | None = None) -> list[str]:
    """The counters (of ``among``; None: all) holding what no cumulative counter can (negative, not finite)."""
    return sorted(k for k, v in counters.items()
                  if (among is None or k in among) and (not math.isfinite(v) or v < 0))


# --- REST volume statistics ---------------------------------------------------------------------------------------

def _read_keyperf(data: dict[str, Any], name: str, out: _Collection) -> None:
    """Add the polls of one ``/api/storage/volumes?fields=statistics`` answer."""
    records = data.get("records")
    if not isinstance(records, list):
        raise InventoryError(f"{name}: no 'records' list")
    for row, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise InventoryError(f"{name}: record {row}: not an object")
        stats = record.get("statistics")
        vol = str(record.get("name", ""))
        if not isinstance(stats, dict) or not vol:
            out.flags.append(ImportFlag(name, "records", row, "statistics",
                                        f"volume {vol or '(no name)'}: no statistics in this poll"))
            continue
        if stats.get("status", "ok") != "ok":
            out.flags.append(ImportFlag(name, "records", row, "statistics.status",
                                        f"volume {vol}: statistics status {stats.get('status')!r}, not 'ok'"))
            continue
        if "timestamp" not in stats:
            raise InventoryError(f"{name}: record {row} (volume {vol}): statistics have no timestamp")
        counters: dict[str, float] = {}
        texts: dict[str, str] = {}
        for group in ("iops_raw", "latency_raw", "throughput_raw"):
            _flatten(group, stats.get(group, {}), counters, texts)
        words = _not_numbers(texts)
        if words:
            out.flags.append(ImportFlag(name, "records", row, words[0], f"volume {vol}: counter {words[0]}: "
                                        f"{texts[words[0]]!r} is not a number: poll left out"))
            continue
        bad = _bad_counters(counters)
        if bad:
            out.flags.append(ImportFlag(name, "records", row, bad[0], f"volume {vol}: counter {bad[0]} is "
                                        f"{counters[bad[0]]!r} (negative or not a number): poll left out"))
            continue
        svm = record.get("svm", {})
        svm_name = str(svm.get("name", "")) if isinstance(svm, dict) else ""
        aggregates = record.get("aggregates", [])
        aggr = ", ".join(str(a.get("name", "")) for a in aggregates if isinstance(a, dict)) \
            if isinstance(aggregates, list) else ""
        key = ("volume", str(record.get("uuid") or f"{svm_name}:{vol}"))
        out.add(key, _Series(vol, svm_name, "", aggr, "volume", _KEYPERF),
                _Poll(_iso_seconds(stats["timestamp"], f"{name}: record {row}"), counters, name, row))


# --- REST counter tables ------------------------------------------------------------------------------------------

def _read_counter_schema(data: dict[str, Any], name: str, out: _Collection) -> None:
    """Keep a counter table's schema (``counter_schemas``: name, type, unit, denominator)."""
    schemas = data.get("counter_schemas")
    if not isinstance(schemas, list):
        raise InventoryError(f"{name}: no 'counter_schemas' list")
    if data.get("name") not in (None, "volume"):
        out.notes.append(f"{name}: counter table {data.get('name')!r} read as a volume table")
    for item in schemas:
        if isinstance(item, dict) and "name" in item:
            out.schema[str(item["name"])] = item


def _restperf_spec(schema: dict[str, dict[str, Any]], out: _Collection) -> _Spec:
    """The counters of a volume table as its schema names their units and bases (the defaults without one)."""
    spec = _RESTPERF_DEFAULT
    if not schema:
        out.notes.append("counter tables: no counter schema given; bytes, microseconds and the base counters "
                         "total_read_ops / total_write_ops assumed (ONTAP's volume table)")
        return spec

    def base(counter: str, default: str) -> str:
        den = schema.get(counter, {}).get("denominator")
        return str(den.get("name")) if isinstance(den, dict) and den.get("name") else default

    lat_unit = str(schema.get(spec.read_lat, {}).get("unit", "microsec"))
    byte_unit = str(schema.get(spec.read_bytes, {}).get("unit", "b_per_sec"))
    if lat_unit not in _UNIT_MS or byte_unit not in _UNIT_BYTES:
        raise InventoryError(f"counter schema: unit {lat_unit!r} of {spec.read_lat} or {byte_unit!r} of "
                             f"{spec.read_bytes} is not one this reader knows")
    missing = [c for c in (spec.read_ops, spec.write_ops, spec.read_bytes, spec.write_bytes, spec.read_lat,
                           spec.write_lat) if c not in schema]
    if missing:
        raise InventoryError(f"counter schema: no counter {', '.join(missing)} (not a volume table?)")
    return _Spec(spec.read_ops, spec.write_ops, spec.other_ops, spec.read_bytes, spec.write_bytes, spec.read_lat,
                 spec.write_lat, base(spec.read_lat, spec.read_lat_base), base(spec.write_lat, spec.write_lat_base),
                 _UNIT_BYTES[byte_unit], _UNIT_MS[lat_unit])


def _read_counter_rows(data: dict[str, Any], name: str, out: _Collection, interval_s: float | None) -> None:
    """Add one poll of a counter table's rows (``records`` with ``counter_table``, ``properties``, ``counters``);
    the poll's clock is its place among the polls times ``interval_s`` (None without it)."""
    records = data["records"]
    index = out.restperf_polls
    out.restperf_polls += 1
    time_s = None if interval_s is None else index * interval_s
    for row, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise InventoryError(f"{name}: record {row}: not an object")
        props = {str(p.get("name")): str(p.get("value", "")) for p in record.get("properties", [])
                 if isinstance(p, dict)}
        counters: dict[str, float] = {}
        texts: dict[str, str] = {}
        for item in record.get("counters", []):
            if isinstance(item, dict) and "value" in item:
                _flatten(str(item.get("name")), item["value"], counters, texts)
        vol = props.get("name", "")
        if not vol:
            out.flags.append(ImportFlag(name, "records", row, "properties", "row without a volume name"))
            continue
        words = _not_numbers(texts, _spec_counters(_RESTPERF_DEFAULT))
        if words:
            out.flags.append(ImportFlag(name, "records", row, words[0], f"volume {vol}: counter {words[0]}: "
                                        f"{texts[words[0]]!r} is not a number: poll left out"))
            continue
        bad = _bad_counters(counters, _spec_counters(_RESTPERF_DEFAULT))
        if bad:
            out.flags.append(ImportFlag(name, "records", row, bad[0], f"volume {vol}: counter {bad[0]} is "
                                        f"{counters[bad[0]]!r} (negative or not a number): poll left out"))
            continue
        key = ("counter-volume", str(record.get("id") or props.get("uuid") or f"{props.get('svm.name')}:{vol}"))
        out.add(key, _Series(vol, props.get("svm.name", ""), props.get("node.name", ""),
                             props.get("parent_aggregate", ""), "volume", _RESTPERF_DEFAULT),
                _Poll(time_s, counters, name, row))


# --- statistics show -raw -----------------------------------------------------------------------------------------

_VALUE = re.compile(r"^(-?\d+(?:\.\d+)?)\s*(us|ms|s|%|b|kb|mb)?$", re.IGNORECASE)
_COUNTER_LINE = re.compile(r"^ {4}(\S+)\s+(\S.*)$")


def _raw_value(text: str) -> float | None:
    """A ``statistics show -raw`` value as a number in its own unit (``1079359114us`` -> 1079359114.0); None for a
    value that is not a number (a name, a uuid, ``-``)."""
    match = _VALUE.match(text.strip())
    return float(match.group(1)) if match else None


def _raw_time(text: str, where: str) -> float:
    """Seconds since the epoch of ``6/11/2025 18:51:00`` (month / day / year, the cluster's local clock with no zone:
    read as if UTC; the inventory's ``clock`` says "cluster time" so that no one reads it as UTC)."""
    try:
        return datetime.strptime(text.strip(), "%m/%d/%Y %H:%M:%S").replace(tzinfo=UTC).timestamp()
    except ValueError:
        raise InventoryError(f"{where}: time {text.strip()!r} is not month/day/year hh:mm:ss") from None


def _read_statistics_text(text: str, name: str, out: _Collection) -> int:
    """Add the instances of ``statistics show -raw`` text; returns how many were read."""
    count = 0
    block: dict[str, Any] | None = None
    counters: dict[str, str] = {}
    last: str | None = None

    def finish() -> None:
        nonlocal count
        if block is None:
            return
        kind = block.get("object")
        if kind not in ("lun", "volume"):
            out.notes.append(f"{name}: line {block['line']}: object {kind!r} skipped (volumes and LUNs are read)")
            return
        if "end" not in block:
            raise InventoryError(f"{name}: line {block['line']}: instance {block.get('instance', '')!r} has no "
                                 "End-time")
        numbers = {k: v for k, v in ((k, _raw_value(v)) for k, v in counters.items()) if v is not None}
        instance = str(block.get("instance") or counters.get("instance_name", ""))
        svm = counters.get("vserver_name", "") or str(block.get("scope", ""))
        spec = _LUN_DEFAULT if kind == "lun" else _VOLUME_TEXT
        what = "LUN" if kind == "lun" else "volume"
        bad = _bad_counters(numbers, _spec_counters(spec))
        if bad:
            out.flags.append(ImportFlag(name, "", block["line"], bad[0], f"{what} {instance}: counter {bad[0]} is "
                                        f"{numbers[bad[0]]:g} (negative): poll left out"))
            return
        count += 1
        if kind == "lun":
            out.add(("lun", svm, instance), _Series(instance, svm, "", "", "lun", _LUN_DEFAULT),
                    _Poll(block["end"], numbers, name, block["line"]))
        else:
            out.add(("volume-text", svm, instance),
                    _Series(instance, svm, counters.get("node_name", ""), counters.get("parent_aggr", ""), "volume",
                            _VOLUME_TEXT), _Poll(block["end"], numbers, name, block["line"]))

    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("Object:"):
            finish()
            block, counters, last = {"object": line.split(":", 1)[1].strip(), "line": number}, {}, None
            continue
        if block is None:
            continue
        head, _, rest = line.partition(":")
        if head in ("Instance", "Scope") and not line.startswith(" "):
            block[head.lower()] = rest.strip()
        elif head == "End-time" and not line.startswith(" "):
            block["end"] = _raw_time(rest, f"{name}: line {number}")
        elif line.strip().startswith("Counter") or set(line.strip()) <= {"-", " "} and line.strip():
            continue
        elif (match := _COUNTER_LINE.match(line)) and not line.startswith("     "):
            last = match.group(1)
            counters[last] = match.group(2).strip()
        elif line.strip() and last is not None and line.startswith("     "):
            if counters.get(last) == "-":
                continue  # a histogram's label / value row
            counters[last] += line.strip()  # a long value wrapped onto the next line
    finish()
    return count


def _read_catalogue(text: str, out: _Collection) -> None:
    """Keep the base counters of a ``statistics catalog counter show`` dump (``·``-separated: object, objectname,
    counter, name, base-counter, ...)."""
    for line in text.splitlines():
        cells = line.split("·")
        if len(cells) > 4 and cells[0] == "lun" and cells[4] not in ("-", ""):
            out.lun_bases[cells[2]] = cells[4]


def _lun_spec(bases: dict[str, str]) -> _Spec:
    """The LUN counters with the catalogue's base counters (the defaults where it names none)."""
    d = _LUN_DEFAULT
    return _Spec(d.read_ops, d.write_ops, d.other_ops, d.read_bytes, d.write_bytes, d.read_lat, d.write_lat,
                 bases.get(d.read_lat, d.read_lat_base), bases.get(d.write_lat, d.write_lat_base))


# --- rates --------------------------------------------------------------------------------------------------------

def _sample(spec: _Spec, time_s: float, dt: float, delta: dict[str, float]) -> PerfSample:
    """The rates of one interval of ``dt`` seconds ending at ``time_s`` from its counter differences ``delta``."""

    def rate(c: str) -> float:
        return delta.get(c, 0.0) / dt

    def mbps(c: str) -> float | None:
        return delta[c] * spec.bytes_per_unit / BYTES_PER_MB / dt if c in delta else None

    def latency(c: str, base: str) -> float | None:
        ops = delta.get(base, 0.0)
        return delta[c] / ops * spec.ms_per_lat_unit if ops > 0 and c in delta else None

    return PerfSample(time_s=time_s, interval_s=dt, read_iops=rate(spec.read_ops), write_iops=rate(spec.write_ops),
                      other_iops=rate(spec.other_ops), read_mbps=mbps(spec.read_bytes),
                      write_mbps=mbps(spec.write_bytes),
                      read_latency_ms=latency(spec.read_lat, spec.read_lat_base),
                      write_latency_ms=latency(spec.write_lat, spec.write_lat_base))


def _samples(s: _Series, flags: list[ImportFlag]) -> list[PerfSample]:
    """One sample per pair of consecutive polls (sorted by time); a zero interval or a counter that went backwards
    is flagged and left out."""
    spec = s.spec
    polls = sorted(s.polls, key=lambda p: p.time_s or 0.0)
    used = {spec.read_ops, spec.write_ops, spec.other_ops, spec.read_bytes, spec.write_bytes, spec.read_lat,
            spec.write_lat, spec.read_lat_base, spec.write_lat_base}
    out: list[PerfSample] = []
    what = "LUN" if s.kind == "lun" else "volume"
    for a, b in zip(polls, polls[1:], strict=False):
        assert a.time_s is not None and b.time_s is not None
        dt = b.time_s - a.time_s
        if dt <= 0:
            flags.append(ImportFlag(b.file, "", b.row, "timestamp", f"{what} {s.name}: two polls at the same "
                                    "time (no interval to divide by): left out"))
            continue
        missing = sorted(c for c in (spec.read_ops, spec.write_ops) if c not in a.counters or c not in b.counters)
        if missing:
            flags.append(ImportFlag(b.file, "", b.row, missing[0], f"{what} {s.name}: no counter {missing[0]}: "
                                    "interval left out"))
            continue
        delta = {c: b.counters[c] - a.counters[c] for c in used if c in a.counters and c in b.counters}
        back = sorted(c for c, v in delta.items() if v < 0)
        if back:
            flags.append(ImportFlag(b.file, "", b.row, back[0], f"{what} {s.name}: counter {back[0]} went "
                                    f"backwards over {dt:g} s (a counter reset or restart): interval left out"))
            continue
        sample = _sample(spec, b.time_s, dt, delta)
        slow = max(sample.read_latency_ms or 0.0, sample.write_latency_ms or 0.0)
        if slow > MAX_LATENCY_MS:
            flags.append(ImportFlag(b.file, "", b.row, spec.read_lat if sample.read_latency_ms == slow
                                    else spec.write_lat, f"{what} {s.name}: mean latency {slow:,.0f} ms over "
                                    f"{dt:g} s is not a measurement: interval left out"))
            continue
        out.append(sample)
    return out


def _mixed_latency(read_iops: float, write_iops: float, read_ms: float | None, write_ms: float | None) -> float | None:
    """The operation-weighted latency of reads and writes (None without operations or latencies)."""
    parts = [(n, ms) for n, ms in ((read_iops, read_ms), (write_iops, write_ms)) if ms is not None and n > 0]
    total = sum(n for n, _ in parts)
    return sum(n * ms for n, ms in parts) / total if total > 0 else None


def summarize(samples: Iterable[PerfSample]) -> tuple[PerfFigures, ...]:
    """The "average" (interval-weighted over the whole series; latency weighted by operations) and "peak" (the
    interval of the highest read + write IOPS, all its figures from that one interval) of a series; () when empty.
    """
    series = list(samples)
    if not series:
        return ()
    total_t = sum(x.interval_s for x in series)

    def mean(values: list[tuple[float, float | None]]) -> float | None:
        known = [(w, v) for w, v in values if v is not None]
        weight = sum(w for w, _ in known)
        return sum(w * v for w, v in known) / weight if known and weight > 0 else None

    r_iops = sum(x.read_iops * x.interval_s for x in series) / total_t
    w_iops = sum(x.write_iops * x.interval_s for x in series) / total_t
    r_lat = mean([(x.read_iops * x.interval_s, x.read_latency_ms) for x in series])
    w_lat = mean([(x.write_iops * x.interval_s, x.write_latency_ms) for x in series])
    average = PerfFigures("average", read_iops=r_iops, write_iops=w_iops,
                          read_mbps=mean([(x.interval_s, x.read_mbps) for x in series]),
                          write_mbps=mean([(x.interval_s, x.write_mbps) for x in series]),
                          latency_ms=_mixed_latency(r_iops, w_iops, r_lat, w_lat))
    top = max(series, key=lambda x: x.read_iops + x.write_iops)
    peak = PerfFigures("peak", read_iops=top.read_iops, write_iops=top.write_iops, read_mbps=top.read_mbps,
                       write_mbps=top.write_mbps,
                       latency_ms=_mixed_latency(top.read_iops, top.write_iops, top.read_latency_ms,
                                                 top.write_latency_ms))
    return (average, peak)


# --- the controller model ------------------------------------------------------------------------------------------

_INSTANCE_MODEL = re.compile(r"^\s*Model:\s*(\S.*?)\s*$", re.MULTILINE)
_MAX_MODEL_CHARS = 64


def _text_models(text: str) -> list[str]:
    """The models a ``system node show`` / ``system show`` text names: its ``Model`` column (the header row above
    a row of dashes, each column as wide as its dashes) or ``Model:`` lines (``-instance``), in order, once each."""
    found = [m.group(1) for m in _INSTANCE_MODEL.finditer(text)]
    lines = text.splitlines()
    for i, line in enumerate(lines[:-1]):
        dashes = lines[i + 1]
        if not re.search(r"\bModel\b", line) or not re.fullmatch(r"[- ]*-[- ]*", dashes):
            continue
        spans = [m.span() for m in re.finditer(r"-+", dashes)]
        column = next((k for k, (a, b) in enumerate(spans) if line[a:b + 1].strip() == "Model"), None)
        if column is None:
            continue
        a, b = spans[column]
        for row in lines[i + 2:]:
            if not row.strip() or re.fullmatch(r"\d+ entries were displayed\.?", row.strip()):
                break
            cell = row[a:b + 1].strip()
            if cell:
                found.append(cell)
        break
    out: list[str] = []
    for model in found:
        if model not in out and model != "-" and len(model) <= _MAX_MODEL_CHARS:
            out.append(model)
    return out


def node_models(data: Any) -> list[str]:
    """The controller models an ONTAP node listing names, in order, once each.

    Args:
        data: the parsed JSON answer of ``GET /api/cluster/nodes?fields=model`` (``records``, each with a ``model``
            string such as ``"AFF-A400"``; NetApp, ONTAP REST API reference, "cluster/nodes"), or the text of
            ``system node show`` / ``system show`` (a ``Model`` column under its header, or ``Model:`` lines).

    Returns:
        The model strings as the cluster spells them (empty when none is given).
    """
    if isinstance(data, str):
        return _text_models(data)
    out: list[str] = []
    records = data.get("records") if isinstance(data, dict) else None
    for record in records if isinstance(records, list) else []:
        model = record.get("model") if isinstance(record, dict) else None
        if isinstance(model, str) and model.strip() and len(model) <= _MAX_MODEL_CHARS \
                and model.strip() not in out:
            out.append(model.strip())
    return out


# --- the protocol -------------------------------------------------------------------------------------------------

PROTOCOL_PREFIXES = {"nfs": "NFS", "cifs": "SMB", "fcp": "FCP", "iscsi": "iSCSI"}
"""A counter-table volume counter's prefix -> the front-end protocol its operations came in by (ONTAP's
``volume`` counter table: ``nfs.read_ops``, ``cifs.write_ops``, ``fcp.other_ops``, ``iscsi.read_ops``, ...)."""
_PROTOCOL_OPS = re.compile(r"^(nfs|cifs|fcp|iscsi)[._](\w+)_ops$")
LUN_PROTOCOL_SOURCE = "their LUN counters (a LUN is block storage; the counters do not say FCP or iSCSI)"


def _protocol_ops(counters: dict[str, float]) -> dict[str, float]:
    """Operations per protocol in one poll's counters (every ``<protocol>.<op>_ops`` but ``total_ops``)."""
    out: dict[str, float] = {}
    for name, value in counters.items():
        match = _PROTOCOL_OPS.match(name)
        if match and match.group(2) != "total" and math.isfinite(value) and value >= 0:
            key = PROTOCOL_PREFIXES[match.group(1)]
            out[key] = out.get(key, 0.0) + value
    return out


def counter_protocol(polls: list[dict[str, float]], where: str = "the counter table") -> tuple[str, str]:
    """The protocol a counter-table volume served, and where that came from in words.

    Args:
        polls: the volume's cumulative counters, one dict per poll in poll order (``nfs.read_ops`` as the REST
            counter table names them, ``nfs_read_ops`` as ``statistics show`` does); where: what the counters came
            from, for the words.

    Returns:
        ("NFS" | "SMB" | "FCP" | "iSCSI", source) for the protocol with the most operations between the first
        and the last poll, or, when none happened between them, since the counters started (the last poll);
        ("", "") when the counters split no operation by protocol.
    """
    if not polls:
        return "", ""
    last = _protocol_ops(polls[-1])
    first = _protocol_ops(polls[0]) if len(polls) > 1 else {}
    between = {k: v - first.get(k, 0.0) for k, v in last.items() if k in first}
    if len(polls) > 1 and sum(v for v in between.values() if v > 0) > 0:
        counts, when = {k: v for k, v in between.items() if v > 0}, "between the polls"
    else:
        counts, when = {k: v for k, v in last.items() if v > 0}, "since the counters started"
    if not counts:
        return "", ""
    protocol = max(sorted(counts), key=lambda k: counts[k])
    total = sum(counts.values())
    return protocol, (f"{where}'s per-protocol operations: {protocol} {counts[protocol]:,.0f} of "
                      f"{total:,.0f} {when}")


# --- the reader ---------------------------------------------------------------------------------------------------

def json_error(name: str, text: str, exc: json.JSONDecodeError) -> str:
    """A JSON parse error in words: the file, the line and column, what the parser met there (its message, whose
    "starting at" the line and column answer), and, where the text ends inside the JSON, that the file looks cut
    short."""
    what = (exc.msg[:1].lower() + exc.msg[1:]).removesuffix(" starting at").removesuffix(" at")
    truncated = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated")
    return (f"{name}: line {exc.lineno}, column {exc.colno}: not valid JSON ({what})"
            + ("; the file ends before its JSON does (cut short?)" if truncated else ""))


def _kind_of(text: str, name: str) -> tuple[str, Any]:
    """The form of one file: "keyperf", "schema", "rows", "nodes" (parsed JSON) or "statistics", "catalogue",
    "nodes" (text)."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InventoryError(json_error(name, text, exc)) from None
        except RecursionError:
            raise InventoryError(f"{name}: JSON nested too deeply to be an ONTAP answer") from None
        if not isinstance(data, dict):
            raise InventoryError(f"{name}: not an ONTAP REST answer (a JSON object was expected)")
        if "counter_schemas" in data:
            return "schema", data
        records = data.get("records")
        if isinstance(records, list) and records and isinstance(records[0], dict):
            if "model" in records[0] and "statistics" not in records[0]:
                return "nodes", data
            if "counter_table" in records[0] or "counters" in records[0]:
                return "rows", data
            if "statistics" in records[0]:
                return "keyperf", data
        if isinstance(records, list) and not records:
            raise InventoryError(f"{name}: the ONTAP answer lists no records")
        raise InventoryError(f"{name}: not ONTAP volume statistics or a counter table (no 'records' with "
                             "'statistics' or 'counters', no 'counter_schemas')")
    if re.search(r"^Object:\s*\S", text, re.MULTILINE):
        return "statistics", text
    if "object·objectname·counter" in text[:4096]:
        return "catalogue", text
    if _text_models(text):
        return "nodes", text
    raise InventoryError(f"{name}: not ONTAP counters (no JSON answer, no 'Object:' block of 'statistics show "
                         "-raw', no counter catalogue, no node list naming a model)")


TOTAL_OPS = "total_ops"
"""The counter-table volume counter of all operations (beside total_read_ops, total_write_ops, total_other_ops)."""
INTERVAL_NEEDED = "counter-table polls carry no clock"
"""How the message (``require_interval``) and the note on counter-table polls read without their interval start."""


def _total_ops_note(series: Iterable[_Series]) -> str:
    """A note where the counter-table volumes' total_ops rose by more than their read + write + other operations
    over the polls (in the order given; intervals whose counters went backwards left out), "" where they agree (to
    1%) or the rows give no total_ops."""
    total = parts = 0.0
    for s in series:
        names = (TOTAL_OPS, s.spec.read_ops, s.spec.write_ops, s.spec.other_ops)
        for a, b in zip(s.polls, s.polls[1:], strict=False):
            if not all(n in a.counters and n in b.counters for n in names):
                continue
            d = [b.counters[n] - a.counters[n] for n in names]
            if min(d) < 0:
                continue
            total += d[0]
            parts += sum(d[1:])
    if total <= 0 or abs(total - parts) <= max(1.0, 0.01 * total):
        return ""
    if total > parts:
        return (f"counter tables: {TOTAL_OPS} rose by {total:,.0f} over the polls, read + write + other operations by "
                f"{parts:,.0f}: {total - parts:,.0f} operations ({(total - parts) / total:.0%} of {TOTAL_OPS}) are "
                "counted as none of them and are not in the load (reads and writes are)")
    return (f"counter tables: {TOTAL_OPS} rose by {total:,.0f} over the polls, read + write + other operations by "
            f"{parts:,.0f}, more than the total: the read and write counters are taken as they are")


def read_ontap(*paths: str | Path, interval_s: float | None = None, require_interval: bool = False) -> Inventory:
    """Read one collection of ONTAP counters (one or more files of the forms listed in the module's docstring).

    Args:
        paths: the files, in any order for REST volume statistics and ``statistics show -raw`` text (each poll
            carries its time); counter-table polls carry no clock and are taken in the order given.
        interval_s: seconds between consecutive counter-table polls (needed for their rates; None: those volumes
            are listed without performance and a note says why).
        require_interval: refuse counter-table polls (two or more) read without ``interval_s`` instead of listing
            their volumes without performance (the command line's import, which would write a project without
            load).

    Returns:
        An :class:`Inventory` (source "ontap", ``file`` the first file's name): one :class:`Volume` per volume or
        LUN, each with one :class:`PerfSample` per pair of consecutive polls (IOPS, MB/s of 10^6 bytes, latency in
        ms) and "average" / "peak" :class:`PerfFigures`; flags for intervals left out (counter reset, zero
        interval) and rows without statistics.

    Raises:
        InventoryError: no file, a file that is none of the forms, unreadable or too large (the message names the
            file by its name only); counter-table polls without ``interval_s`` where ``require_interval``.
    """
    if not paths:
        raise InventoryError("no ONTAP file given")
    if interval_s is not None and not interval_s > 0:
        raise InventoryError(f"interval {interval_s!r} s: give the seconds between counter-table polls (> 0)")
    out = _Collection()
    statistics_texts: list[tuple[str, str]] = []
    row_polls: list[tuple[str, Any]] = []
    models: list[str] = []
    seen: list[str] = []
    for path in paths:
        name = Path(path).name
        try:
            text = read_text(path, MAX_FILE_BYTES, origin=name)
        except FileRefusedError as exc:
            raise InventoryError(str(exc)) from None
        except OSError as exc:
            raise InventoryError(f"{name}: cannot be read ({exc.strerror or exc})") from None
        if not text.strip():
            raise InventoryError(f"{name}: empty (0 bytes)" if not text else f"{name}: holds only blank space")
        kind, data = _kind_of(text, name)
        seen.append(kind)
        if kind == "keyperf":
            _read_keyperf(data, name, out)
        elif kind == "schema":
            _read_counter_schema(data, name, out)
        elif kind == "rows":
            row_polls.append((name, data))
        elif kind == "statistics":
            statistics_texts.append((name, text))
        elif kind == "nodes":
            models.extend(m for m in node_models(data) if m not in models)
        else:
            _read_catalogue(data, out)
    if require_interval and interval_s is None and len(row_polls) >= 2:
        raise InventoryError(f"{row_polls[0][0]}: {INTERVAL_NEEDED} (their rows give counters, not the time they "
                             "were taken): give the seconds between the polls (--interval SECONDS) for their rates")
    for name, data in row_polls:
        _read_counter_rows(data, name, out, interval_s)
    if row_polls:
        spec = _restperf_spec(out.schema, out)
        for s in out.series.values():
            if s.spec is _RESTPERF_DEFAULT:
                s.spec = spec
        if interval_s is None:
            out.notes.append(f"{INTERVAL_NEEDED}: give the interval between them for rates; "
                             "their volumes are listed without performance")
        else:
            out.notes.append(f"counter-table polls taken in the order given, {interval_s:g} s apart")
    for name, text in statistics_texts:
        _read_statistics_text(text, name, out)
    if statistics_texts:
        lun = _lun_spec(out.lun_bases)
        for s in out.series.values():
            if s.kind == "lun":
                s.spec = lun
    volumes: list[Volume] = []
    flags = list(out.flags)
    for s in out.series.values():
        samples: list[PerfSample] = []
        if len(s.polls) < 2:
            pass
        elif all(p.time_s is not None for p in s.polls):
            samples = _samples(s, flags)
        if s.kind == "lun":
            protocol, source = "block", LUN_PROTOCOL_SOURCE
        elif s.spec is _VOLUME_TEXT:  # statistics show text: polls in time order
            polls = sorted(s.polls, key=lambda p: p.time_s or 0.0)
            protocol, source = counter_protocol([p.counters for p in polls], "the statistics text")
        elif s.spec is not _KEYPERF:  # counter-table rows: polls in the order given
            protocol, source = counter_protocol([p.counters for p in s.polls])
        else:  # REST volume statistics do not split operations by protocol
            protocol, source = "", ""
        volumes.append(Volume(name=s.name, svm=s.svm, node=s.node, aggregate=s.aggregate, kind=s.kind,
                              series=tuple(samples), perf=summarize(samples), protocol=protocol,
                              protocol_source=source))
    reconciled = _total_ops_note(s for s in out.series.values() if s.spec not in (_KEYPERF, _VOLUME_TEXT)
                                 and s.kind == "volume")
    if reconciled:
        out.notes.append(reconciled)
    single = sum(1 for s in out.series.values() if len(s.polls) < 2)
    if single:
        out.notes.append(f"{single} volume(s) or LUN(s) with one poll only: cumulative counters give no rate "
                         "without a second poll")
    if not volumes:
        first = Path(paths[0]).name
        if seen and set(seen) <= {"schema", "catalogue"}:
            what = ("a counter schema (counter names and units)" if set(seen) == {"schema"} else
                    "a counter catalogue" if set(seen) == {"catalogue"} else "counter schemas and catalogues")
            wanted = ("the counter-table poll files (GET /api/cluster/counter/tables/volume/rows, two polls or more)"
                      if "schema" in seen else "the 'statistics show -raw' files (two polls or more)")
            raise InventoryError(f"{first}: {what} only, no counter values: add {wanted} and read them together")
        if seen and set(seen) <= {"nodes"}:
            raise InventoryError(f"{first}: a node list (the controller model) only: add the counter files")
        raise InventoryError(f"{first}: no volume or LUN found")
    if len(models) > 1:
        out.notes.append(f"the cluster's nodes are of {len(models)} models ({', '.join(models)}): the first is "
                         "taken as the installed controller")
    return Inventory(source="ontap", file=Path(paths[0]).name, volumes=tuple(volumes), flags=tuple(flags),
                     notes=tuple(out.notes), controller_model=models[0] if models else "",
                     clock="cluster time" if statistics_texts and "keyperf" not in seen else "UTC")
