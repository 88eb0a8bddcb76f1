"""How the Catalog Browser's details pane reads: a catalog record's field names and values in words, never the
code's identifiers or Python's reprs (``memory_gib_per_node`` -> "Memory GiB per node", ``1024.0`` -> "1,024",
``['FCP', 'NVMe/FC']`` -> "FCP, NVMe/FC", ``6609600000000000`` bytes -> "6,609.6 TB (6,011.4 TiB)").

The rows come from ``models.present.catalog_browser.record_details`` as (field, value text, kind, source) with the
value already a string (``str(value)``); :func:`value_text` reads that string back as a Python literal where it is
one (``ast.literal_eval``: no code runs) and falls back to tidying the text where it is a model's repr."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from models.project.kinds import NODE_KINDS, kind_heading

WORDS = {"cpu": "CPU", "fc": "FC", "nvram": "NVRAM", "gib": "GiB", "tib": "TiB", "kib": "KiB", "mibps": "MiB/s",
         "mbps": "MB/s", "gbps": "Gb/s", "iops": "IOPS", "io": "I/O", "ha": "HA", "adp": "ADP", "raid": "RAID",
         "rpm": "RPM", "ram": "RAM", "vcpu": "vCPUs", "vms": "VMs", "ip": "IP", "ontap": "ONTAP", "scv": "SCV",
         "metrocluster": "MetroCluster", "nvme": "NVMe", "us": "µs", "w": "W", "pct": "%", "mb": "MB",
         "tcp": "TCP", "iscsi": "iSCSI", "nfs": "NFS", "smb": "SMB", "fcp": "FCP", "ssd": "SSD", "hdd": "HDD"}
"""Words of a field name written otherwise on screen (units and abbreviations)."""
UNITS = {"us", "w", "pct", "gib", "tib", "kib", "mibps", "mbps", "gbps", "iops"}
"""Field-name words that are units: a trailing one goes into parentheses ("Fixed latency (µs)")."""
KIND_NAMES = {"adapter": "adapter (HBA / NIC)", "drive": "drive", "hci_node": "HCI host", "cloud_disk": "cloud disk",
              "licence": "licence", "link": "link"}
"""Catalog kinds without a node kind of their own -> their name in the browser's Kind column."""
_NESTED = re.compile(r"^(\w+)\[([^\]]*)\]\.(\w+)$")
_IDENT = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$|^[a-z]+$")


def kind_name(kind: str) -> str:
    """A catalog kind as the browser's Kind column reads it: ``cloud_vm`` -> "cloud VM", ``hci_node`` -> "HCI
    host"; an unknown kind with its underscores as spaces."""
    if kind in KIND_NAMES:
        return KIND_NAMES[kind]
    if kind in NODE_KINDS:
        text = kind_heading(kind)
        return text if text[:2].isupper() else text[:1].lower() + text[1:]
    return kind.replace("_", " ")


def field_text(name: str) -> str:
    """A record's field (``memory_gib_per_node``, ``performance[9.15 NFS].cpu_read_us``) in words: "Memory GiB per
    node", "Performance (9.15 NFS): CPU read (µs)". A name already in words (with a space and no brackets, e.g.
    "performance evidence (FCP)") is returned capitalised, otherwise unchanged."""
    nested = _NESTED.match(name)
    if nested:
        outer, label, inner = nested.groups()
        return f"{field_text(outer)} ({label}): {field_text(inner)}"
    if not _IDENT.match(name):
        return name[:1].upper() + name[1:]
    words = name.split("_")
    if words[-1] == "bytes":  # a capacity: the value says its unit
        words = words[:-1] + ([] if {"capacity", "size", "cap"} & set(words) else ["capacity"])
    unit = words.pop() if len(words) > 1 and words[-1] in UNITS and words[-2] != "per" else ""
    text = " ".join(WORDS.get(w, w) for w in words)
    if words[0] not in WORDS:  # "vCPUs" keeps its small v
        text = text[:1].upper() + text[1:]
    return f"{text} ({WORDS[unit]})" if unit else text


def _number(value: float) -> str:
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.6g}"


def _bytes(value: float) -> str:
    for scale, unit, binary, bunit in ((1e12, "TB", 2 ** 40, "TiB"), (1e9, "GB", 2 ** 30, "GiB"),
                                       (1e6, "MB", 2 ** 20, "MiB")):
        if abs(value) >= scale:
            return f"{value / scale:,.4g} {unit} ({value / binary:,.4g} {bunit})"
    return f"{_number(value)} bytes"


def _plain(value: object, name_of: Callable[[str], str]) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, (list, tuple, set)):
        return ", ".join(_plain(v, name_of) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{_key(k)}: {_plain(v, name_of)}" for k, v in value.items()) if value else "none"
    return name_of(str(value))


def _key(key: object) -> str:
    text = str(key)
    if ":" in text:  # a correlation's pair of fields
        return " / ".join(_key(part) for part in text.split(":"))
    return field_text(text) if _IDENT.match(text) and "_" in text else text


def value_text(field: str, value: str, name_of: Callable[[str], str] = lambda s: s) -> str:
    """One value of :func:`models.present.catalog_browser.record_details` in words.

    Args:
        field: the row's field name (a ``*_bytes`` field shows TB and TiB).
        value: the row's value as ``str(value)``.
        name_of: a catalog id -> the record's model name (ids that are not records come back unchanged).

    Returns numbers with thousands separators (``1024.0`` -> "1,024"), lists joined with commas, dictionaries as
    "key: value; ...", True / False as yes / no, a model's repr (``sibling='x' ratio=1.09``) as "Sibling: name,
    ratio 1.09"."""
    try:
        parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        parsed = None
        literal = False
    else:
        literal = True
    base = field.rsplit(".", 1)[-1]
    if literal and isinstance(parsed, (int, float)) and not isinstance(parsed, bool) and base.endswith("_bytes"):
        return _bytes(parsed)
    if literal and isinstance(parsed, dict) and base.endswith("_bytes"):
        return "; ".join(f"{k}: {_bytes(v) if isinstance(v, (int, float)) else _plain(v, name_of)}"
                         for k, v in parsed.items())
    if literal:
        return _plain(parsed, name_of)
    return _tidy(value, name_of)


def _tidy(text: str, name_of: Callable[[str], str]) -> str:
    """A repr that is not a literal (a pydantic model's ``key=value ...``, ``Name(key=value)``) in words."""
    text = re.sub(r"\b[A-Z]\w*\(", "(", text)  # RaidGroupRule(default=8) -> (default=8)

    def pair(match: re.Match[str]) -> str:
        key, raw = match.group(1), match.group(2)
        try:
            value = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            value = raw
        return f"{' '.join(WORDS.get(w, w) for w in key.split('_'))} {_plain(value, name_of)}"

    pairs = r"(\w+)=('[^']*'|\"[^\"]*\"|[^\s,)]+)"
    if re.fullmatch(rf"\s*({pairs}\s*)+", text):  # a model's repr: key=value key=value
        text = ", ".join(pair(m) for m in re.finditer(pairs, text))
    else:
        text = re.sub(pairs, pair, text)
    text = re.sub(r"'([^']*)'", lambda m: name_of(m.group(1)), text)
    return text.replace("{", "").replace("}", "").strip()
