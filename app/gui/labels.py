"""How model fields and their choice values read in the GUI (the Inspector's form, the undo history)."""

from __future__ import annotations

import re
from typing import Any

from models.present import POLICY_LABEL, RAID_LABEL

SUFFIXES = (("_bytes", ""), ("_pct_per_h", " %/h"), ("_pct_per_year", " %/yr"), ("_pct", " %"), ("_ms", " ms"),
            ("_us", " µs"), ("_gbps", " Gb/s"), ("_mbps", " MB/s"), ("_kib", " KiB"), ("_iops", " IOPS"), ("_h", " h"),
            ("_minutes", " min"), ("_days", " days"), ("_mbit_s", " Mbit/s"), ("_w", " W"), ("_months", " months"))
"""Field-name suffix -> the unit shown in its editor (the label drops the suffix)."""
LABELS = {"catalog_id": "Model", "adp": "ADP", "raid_type": "RAID type", "slo_ms": "Latency SLO",
          "target_iops": "Target IOPS", "target_mbps": "Target MB/s", "block_kib": "Block size",
          "ha": "HA pair", "dedupe_compression": "Dedupe + compression",
          "stretched": "Stretched (2 sites + witness)", "inter_site_rtt_ms": "Inter-site round trip",
          "inter_site_gbps": "Inter-site link", "meet_slo_after_site_loss": "Meet SLO after losing a site",
          "slo_statistic": "SLO bounds",
          "electricity_price_per_kwh": "Electricity price", "grid_carbon_g_per_kwh": "Grid CO2e",
          "rack_unit_cost_per_month": "Rack unit a month", "running_costs": "Running costs",
          # each source under its figure, short: the fields' units widened the inputs' column (the chart's room)
          "electricity_price_source": "Price source", "grid_carbon_source": "CO2e source",
          "rack_unit_cost_source": "Rack unit source",
          "rpo_minutes": "RPO required",
          "schedule_minutes": "Transfer every", "rtt_ms": "Round trip", "replication_share_pct": "Share",
          "overwrite_pct": "Overwrites", "capacity_tier": "FabricPool capacity tier",
          "capacity_tier_name": "Object store name", "cold_read_latency_us": "Cold read latency",
          "tiering_policy": "Tiering policy", "capacity_tier_protection": "Object store protection",
          "cold_read_pct": "Cold reads", "storage_switch": "Shelf cabling",
          "storage_switch_pairs": "Storage switch pairs"}
"""Fields whose label is not their words (the unit suffixes of :data:`SUFFIXES` go to the editor)."""
ACRONYMS = {"raid": "RAID", "wafl": "WAFL", "ddp": "DDP", "adp": "ADP", "ha": "HA", "slo": "SLO", "vm": "VM",
            "iops": "IOPS", "cpu": "CPU", "pue": "PUE"}
"""Words the field writes in capitals."""
CHOICE_LABELS = {
    **{value: name for value, name in RAID_LABEL.items() if value != "none"},
    "none": "none", "ddp": "DDP (Dynamic Disk Pool)",
    "root-data": "root-data (ADPv1)", "root-data-data": "root-data-data (ADPv2)",
    **POLICY_LABEL,
    "ftt1-raid1": "FTT=1 RAID 1 (mirror)", "ftt1-raid5": "FTT=1 RAID 5 (3+1 erasure coding)",
    "ftt2-raid6": "FTT=2 RAID 6 (4+2 erasure coding)",
    "tco": "total cost of ownership (TCO)",
    "": "(not given)", "2.5": "2.5-inch", "3.5": "3.5-inch",  # a drive's form factor
    "mean": "mean latency", "p99": "99th percentile (p99)",  # what a latency SLO bounds
    **{f"ec-{k}+{m}": f"{k}+{m} erasure coding (x {(k + m) / k:.3g} raw)"  # StorageGRID ILM (FabricPool)
       for k, m in ((2, 1), (4, 1), (4, 2), (6, 1), (6, 2), (6, 3), (8, 2), (9, 3), (7, 5))},
    "copies-1": "1 copy (x 1 raw)", "copies-2": "2 replicated copies (x 2 raw)",
    "copies-3": "3 replicated copies (x 3 raw)",
    "storagegrid": "StorageGRID", "cloud-bucket": "cloud bucket (S3, Azure Blob, Google Cloud Storage)",
    "snapmirror": "SnapMirror asynchronous", "snapvault": "SnapVault", "active-sync": "SnapMirror active sync",
}
"""How the model's choice values read in a combo box: RAID levels and vSAN policies by their one name
(``models.present``), a few with a word of explanation."""


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


ABBREVIATIONS = {
    "ADP": "Advanced Drive Partitioning (ONTAP's root and data partitions share the drives)",
    "DDP": "Dynamic Disk Pool (E-Series' pooled protection, its spare capacity spread over every drive)",
    "SLO": "service-level objective (the latency the workload must stay under)",
    "RAID": "redundant array of independent disks (the parity or mirror that survives a drive failure)",
    "HA": "high availability (two controllers, each taking over the other's work when one fails)",
    "PUE": "power usage effectiveness (the facility's power over the IT equipment's power)",
    "WAFL": "Write Anywhere File Layout, ONTAP's file system",
    "IOPS": "I/O operations per second",
    "FTT": "failures to tolerate (vSAN: how many host or device failures the data survives)",
    "RPO": "recovery point objective (how much recent data a disaster may lose)",
    "CO2e": "carbon dioxide equivalent",
}
"""Abbreviations a form's label may hold -> what the label's tooltip spells out."""
SOURCE_TIP = ("Where the figure above comes from (a quote, a bill, a published figure): shown beside it in the "
              "report; empty: not stated")
"""The tooltip of a ``*_source`` field (the text beside a user's figure)."""


def field_tooltip(name: str, description: str | None = None) -> str:
    """The tooltip of a form's label for the field ``name``: its description where the model gives one, else what
    a ``*_source`` field is for, else the abbreviations its label holds spelled out, else "" (no tooltip: never
    the field's code name)."""
    if description:
        return description
    if name.endswith("_source"):
        return SOURCE_TIP
    label = field_label(name)
    found = [f"{short}: {ABBREVIATIONS[short]}" for short in ABBREVIATIONS if re.search(rf"\b{short}\b", label)]
    return "\n".join(found)


def choice_label(value: Any) -> str:
    """The text of one Literal choice in a combo box (``raid_dp`` -> ``RAID DP``)."""
    return CHOICE_LABELS.get(str(value), str(value).replace("_", " "))
