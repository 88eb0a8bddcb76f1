"""The ``replication`` list of ``storplan evaluate --json``: each relationship's figures as plain JSON-ready data
(bytes, seconds, minutes, Mbit/s; an RPO or a bandwidth that cannot be met is null with ``rpo_met`` false)."""

from __future__ import annotations

import math
from typing import Any

from models.replication import Protection


def _num(value: float | None) -> float | None:
    """A finite float, or None (JSON has no infinity)."""
    if value is None or not math.isfinite(value):
        return None
    return float(value)


def protection_to_dict(protection: Protection | None) -> list[dict[str, Any]]:
    """One dict per relationship: id, label, kind, source, target, change and sent bytes per day, interval, transfer
    bytes and seconds, available bandwidth, TCP streams, the round trip's bound on them (window limit, null without
    a round trip), the rate transfers run at and whether the round trip bounds it, RPO required / achieved / met,
    bandwidth needed (a link bandwidth at the replication share; beside it the link, the share and the bandwidth
    needed of the share, the basis of ``available_mbit_s``), baseline bytes and seconds, destination needed / free
    bytes, fits, runway months, write latency added, each protected workload's change and basis, the transfer
    windows' load on both ends, the notes and the sentence; [] without any."""
    if protection is None:
        return []
    out: list[dict[str, Any]] = []
    for f in protection.relationships:
        out.append({
            "id": f.replication_id, "label": f.label, "kind": f.kind, "kind_label": f.kind_label,
            "source": f.source_id, "target": f.target_id, "source_name": f.source_name, "target_name": f.target_name,
            "change_bytes_per_day": f.change_bytes_per_day, "sent_bytes_per_day": f.sent_bytes_per_day,
            "interval_minutes": f.interval_minutes, "peak_window_share": f.peak_window_share,
            "transfer_bytes": f.transfer_bytes, "transfer_seconds": f.transfer_seconds,
            "available_mbit_s": f.available_bytes_per_s * 8.0 / 1e6,
            "streams": f.streams, "window_limit_mbit_s": _num(f.window_limit_bytes_per_s * 8.0 / 1e6),
            "transfer_mbit_s": f.transfer_bytes_per_s * 8.0 / 1e6, "window_limited": f.window_limited,
            "rpo_required_minutes": f.rpo_required_minutes or None,
            "rpo_achieved_minutes": _num(f.rpo_achieved_minutes), "rpo_met": f.rpo_met,
            "bandwidth_needed_mbit_s": _num(f.bandwidth_needed_mbit_s),
            "link_mbit_s": f.link_mbit_s, "replication_share_pct": f.share_pct,
            "bandwidth_needed_of_share_mbit_s": _num(f.bandwidth_needed_mbit_s * f.share_pct / 100.0),
            "baseline_bytes": f.baseline_bytes, "baseline_seconds": f.baseline_seconds,
            "destination_needed_bytes": f.destination_needed_bytes,
            "destination_free_bytes": _num(f.destination_free_bytes), "destination_fits": f.destination_fits,
            "destination_runway_months": _num(f.runway_months),
            "write_latency_added_ms": f.write_latency_added_ms,
            "workloads": [{"id": c.workload_id, "name": c.name, "change_bytes_per_day": c.bytes_per_day,
                           "sent_bytes_per_day": c.sent_bytes_per_day, "reduction": c.reduction,
                           "basis": c.basis, "default": c.is_default} for c in f.workloads],
            "transfer_load": [{"system": e.system_id, "role": e.role, "rate_mbps": e.rate_mbps,
                               "transfer_latency_ms": _num(e.transfer_latency_ms), "bottleneck": e.bottleneck,
                               "utilization_pct": e.utilization_pct, "text": e.text}
                              for e in protection.loads if e.replication_id == f.replication_id],
            "notes": list(f.notes), "text": f.text,
        })
    return out


__all__ = ["protection_to_dict"]
