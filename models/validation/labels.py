"""Readable labels for the checks' quantity identifiers (``usable_tib`` -> ``Usable capacity (TiB)``).

The case modules name each quantity with a small vocabulary: words joined by ``_``, the unit as a token
(``_tb``, ``_tib``, ``_gb``, ``_gib``, ``_ms``, ``_mbps``, ``_pct``), ``_ratio`` / ``A_over_B`` for ratios,
``single`` / ``ha`` for a cloud system's configuration, a cloud VM size written as its provider spells it
(``Standard_DS14_v2``), and numbers with their unit glued on (``1ms``, ``2.5GBps``, ``339k``). This module turns
that vocabulary into text; it knows words, not cases, so a new check gets a readable label without an entry here.
"""

from __future__ import annotations

import re

from models.capacity.rules import raid_label

__all__ = ["quantity_label"]

UNITS = {"tb": "TB", "tib": "TiB", "gb": "GB", "gib": "GiB", "ms": "ms", "us": "\u00b5s", "pct": "%",
         "mbps": "MB/s", "gbps": "GB/s"}
"""Unit tokens: printed in parentheses at the end of the label."""

UNIT_NOUNS = {"mbps": "throughput", "gbps": "throughput"}
"""Unit tokens that also name the quantity (``write_mbps`` -> ``write throughput (MB/s)``)."""

CAPACITY_UNITS = frozenset({"tb", "tib", "gb", "gib"})

CAPACITY_ADJECTIVES = frozenset({"raw", "right-sized", "usable", "effective", "logical", "provisioned", "physical",
                                 "written", "used", "free"})
"""Words that, ending the head of a capacity quantity, take the noun "capacity" (``raw_tb`` -> ``Raw capacity``)."""

PREPOSITIONS = frozenset({"at", "per", "with", "after", "before", "under", "within", "in", "of", "for", "on", "by"})

QUALIFIERS = {"min": "minimum", "max": "maximum"}
"""Words that, placed after the unit (``provisioned_gb_min``), qualify the whole quantity and lead the label."""

WORDS = {
    "iops": "IOPS", "raid": "RAID", "cpu": "CPU", "vm": "VM", "ssd": "SSD", "hdd": "HDD", "nvram": "NVRAM",
    "fcp": "FCP", "fc": "FC", "nvmefc": "NVMe/FC", "nvme": "NVMe", "iscsi": "iSCSI", "nfs": "NFS", "smb": "SMB",
    "ontap": "ONTAP", "wafl": "WAFL", "adp": "ADP", "vsan": "vSAN", "hci": "HCI", "cvo": "CVO", "oltp": "OLTP",
    "slob": "SLOB", "tpce": "TPC-E", "sql": "SQL", "snapshot": "Snapshot", "snapshots": "Snapshot copies",
    "single": "single node", "ha": "HA pair", "max": "maximum", "min": "minimum",
}
"""Word -> how it is written (acronyms, product names, the single / HA configurations)."""

PHRASES = {("right", "sized"): "right-sized", ("dedupe", "compression"): "dedupe & compression"}
"""Adjacent words read as one."""

_NUMBER_UNIT = re.compile(r"^(\d+(?:\.\d+)?)(ms|us|mbps|gbps|tb|tib|gb|gib|pct|k|m)$", re.IGNORECASE)
_RAID_LEVEL = re.compile(r"^raid(\d+)$")
_FTT = re.compile(r"^ftt(\d+)$")
_STRIPE = re.compile(r"^(\d+)p(\d+)$")  # RAID data + parity: 3p1 -> 3+1
_VERSION_SUFFIX = re.compile(r"^v\d+$")  # the _v2 of Standard_DS14_v2


def _number_with_unit(match: re.Match) -> str:
    number, unit = match.group(1), match.group(2).lower()
    if unit in ("k", "m"):
        return number + unit.upper()
    return f"{number} {UNITS[unit]}" if unit != "pct" else f"{number}%"


def _word(token: str) -> str:
    """One vocabulary token as text."""
    if token in WORDS:
        return WORDS[token]
    for pattern, build in ((_RAID_LEVEL, lambda m: raid_label(m.group(0))), (_FTT, lambda m: f"FTT={m.group(1)}"),
                           (_STRIPE, lambda m: f"{m.group(1)}+{m.group(2)}"), (_NUMBER_UNIT, _number_with_unit)):
        match = pattern.match(token)
        if match:
            return build(match)
    return token


def _tokens(quantity: str) -> list[str]:
    """Split on ``_``, keeping a proper name (a run starting with a capital, e.g. ``Standard_DS14_v2``) whole and
    reading the phrases of :data:`PHRASES` as one token."""
    parts = [part for part in quantity.split("_") if part]
    tokens: list[str] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        if part[0].isupper():
            j = i + 1
            while j < len(parts) and (any(c.isupper() for c in parts[j]) or _VERSION_SUFFIX.match(parts[j])):
                j += 1
            tokens.append("_".join(parts[i:j]))
            i = j
            continue
        pair = (part, parts[i + 1]) if i + 1 < len(parts) else None
        if pair in PHRASES:
            tokens.append(PHRASES[pair])
            i += 2
            continue
        if part == "only" and tokens:  # snapshot_only -> Snapshot-only
            tokens[-1] = f"{_word(tokens[-1])}-only"
            i += 1
            continue
        tokens.append(part)
        i += 1
    return tokens


def quantity_label(quantity: str) -> str:
    """A check's quantity identifier as a human label with its unit.

    Rules, in order: a qualifier after the unit leads (``provisioned_gb_min`` -> ``Minimum provisioned capacity
    (GB)``); the first unit token moves to the end in parentheses, an ``mbps`` / ``gbps`` unit also naming the
    quantity "throughput", and words that followed a unit in mid-name get an "at" (``host_latency_ms_light_load``
    -> ``Host latency at light load (ms)``); ``A_over_B`` makes a unitless ratio written ``A / B ... ratio`` (``÷``
    when A or B holds a slash, as NVMe/FC does); a capacity head ending in raw, usable, right-sized, logical...
    takes "capacity"; a head ending in "total" starts with it; tokens become words through :data:`WORDS`, RAID
    levels by their one name (``raid5`` -> ``RAID 5``, ``models.capacity.rules.RAID_LABEL``), ``ftt1`` -> ``FTT=1``,
    ``3p1`` -> ``3+1``, ``4k`` -> ``4K`` and numbers with units (``2.5GBps`` -> ``2.5 GB/s``); a proper name such as a
    VM size is kept as written.

    Examples:
        >>> quantity_label("raw_tb")
        'Raw capacity (TB)'
        >>> quantity_label("Standard_DS14_v2_single_iops")
        'Standard_DS14_v2 single node IOPS'
        >>> quantity_label("write_latency_ratio_raid5_over_raid1")
        'RAID 5 / RAID 1 write latency ratio'

    An empty identifier is returned unchanged; unknown words are kept as they are.
    """
    tokens = _tokens(quantity)
    if not tokens:
        return quantity

    lead = ""
    if len(tokens) >= 2 and tokens[-1] in QUALIFIERS and tokens[-2] in UNITS:
        lead = QUALIFIERS[tokens.pop()]

    unit_key = ""
    for index, token in enumerate(tokens):
        if token in UNITS:
            unit_key = token
            rest = tokens[index + 1:]
            replacement = [UNIT_NOUNS[token]] if token in UNIT_NOUNS else []
            if rest and rest[0] not in PREPOSITIONS and "over" not in rest:
                replacement.append("at")
            tokens[index:index + 1] = replacement
            break

    ratio_of = ""
    if "over" in tokens:
        over = tokens.index("over")
        if 0 < over < len(tokens) - 1:
            numerator, denominator = _word(tokens[over - 1]), _word(tokens[over + 1])
            tokens[over - 1:over + 2] = []
            if "ratio" not in tokens:
                tokens.append("ratio")
            slash = " \u00f7 " if "/" in numerator + denominator else " / "
            ratio_of = f"{numerator}{slash}{denominator}"
            unit_key = ""  # a ratio of two like quantities has no unit

    if unit_key in CAPACITY_UNITS:
        head_end = next((i for i, t in enumerate(tokens) if t in PREPOSITIONS), len(tokens))
        if head_end and tokens[head_end - 1] in CAPACITY_ADJECTIVES:
            tokens.insert(head_end, "capacity")
    head_end = next((i for i, t in enumerate(tokens) if t in PREPOSITIONS), len(tokens))
    if head_end > 1 and tokens[head_end - 1] == "total":
        tokens.insert(0, tokens.pop(head_end - 1))

    words = [_word(token) for token in tokens]
    if ratio_of:
        words.insert(0, ratio_of)
    if lead:
        words.insert(0, lead)
    text = " ".join(word for word in words if word)
    if text[:1].islower():
        text = text[0].upper() + text[1:]
    if unit_key:
        text += f" ({UNITS[unit_key]})"
    return text
