"""How model fields and their choice values read in the GUI (the Inspector's form, the undo history)."""

from __future__ import annotations

from typing import Any

SUFFIXES = (("_bytes", ""), ("_pct_per_h", " %/h"), ("_pct_per_year", " %/yr"), ("_pct", " %"), ("_ms", " ms"),
            ("_us", " µs"), ("_gbps", " Gb/s"), ("_mbps", " MB/s"), ("_kib", " KiB"), ("_iops", " IOPS"), ("_h", " h"))
"""Field-name suffix -> the unit shown in its editor (the label drops the suffix)."""
LABELS = {"catalog_id": "Model", "adp": "ADP", "raid_type": "RAID type", "slo_ms": "Latency SLO",
          "target_iops": "Target IOPS", "target_mbps": "Target MB/s", "block_kib": "Block size",
          "ha": "HA pair", "dedupe_compression": "Dedupe + compression"}
"""Fields whose label is not their words (the unit suffixes of :data:`SUFFIXES` go to the editor)."""
ACRONYMS = {"raid": "RAID", "wafl": "WAFL", "ddp": "DDP", "adp": "ADP", "ha": "HA", "slo": "SLO", "vm": "VM",
            "iops": "IOPS", "cpu": "CPU"}
"""Words the field writes in capitals."""
CHOICE_LABELS = {
    "none": "none", "raid0": "RAID 0", "raid4": "RAID4", "raid_dp": "RAID DP", "raid_tec": "RAID-TEC",
    "raid5": "RAID5", "raid6": "RAID6", "raid10": "RAID10", "ddp": "DDP (Dynamic Disk Pool)",
    "root-data": "root-data (ADPv1)", "root-data-data": "root-data-data (ADPv2)",
    "ftt1-raid1": "FTT=1 RAID1 (mirror)", "ftt2-raid1": "FTT=2 RAID1", "ftt3-raid1": "FTT=3 RAID1",
    "ftt1-raid5": "FTT=1 RAID5 (3+1 erasure coding)", "ftt2-raid6": "FTT=2 RAID6 (4+2 erasure coding)",
}
"""How the model's choice values read in a combo box."""


def field_label(name: str) -> str:
    """A model field as the form and the undo history name it: ``drive_count`` -> ``Drive count``,
    ``interval_h`` -> ``Interval`` (the unit goes to the editor's suffix, see :data:`SUFFIXES`)."""
    if name in LABELS:
        return LABELS[name]
    for suffix, _ in SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    words = [ACRONYMS.get(w, w) for w in name.split("_")]
    text = " ".join(words)
    return text[0].upper() + text[1:] if text else text


def choice_label(value: Any) -> str:
    """The text of one Literal choice in a combo box (``raid_dp`` -> ``RAID DP``)."""
    return CHOICE_LABELS.get(str(value), str(value).replace("_", " "))
