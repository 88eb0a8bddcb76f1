"""What a replication relationship means in numbers: change per day, the largest scheduled transfer, its time on the
available bandwidth, the RPO achieved against the required one, the bandwidth that meets the RPO, the baseline
transfer time, and the destination's capacity (with SnapVault retention) and runway.

The arithmetic, for one relationship of protected workloads i (every figure in bytes and seconds):

* change per day C_i: the relationship's own figure for the workload, else the workload's Snapshot change rate
  (``change_pct_per_h`` x 24 x data set) when it states one, else the default W_i x 86,400 x (1 - overwrite share),
  W_i the workload's write rate at its target (IOPS x write share x block size, or MB/s x write share): each is
  labelled as a default where it is one.
* sent over the wire: C_i / r_i, r_i = compression x deduplication of the workload: SnapMirror keeps the source's
  storage efficiency in transfer (ONTAP REST API reference, "Start a SnapMirror transfer operation":
  ``storage_efficiency_enabled`` defaults to true; compressed and deduplicated blocks travel as they are stored).
* the worst transfer: the largest change in any schedule interval of length T, from the hourly profile p_h
  (shares of the day): max over window starts of the profile's integral over [start, start + T], x sum C_i / r_i.
* available rate B = bandwidth x share / 8 (bytes/s). Over a long fat network a TCP stream carries at most its
  window per round trip: the transfer runs at B_t = min(B, n x window / RTT), n streams (one per protected
  workload: each is a volume whose transfer runs beside the others; assumed) of :data:`TCP_WINDOW_BYTES` each (the
  2 MB default inter-cluster TCP receive window NetApp documents for ONTAP 9 SnapMirror, configurable from 256 KB
  to 7 MB: :data:`WINDOW_SOURCE`). Transfer time
  t = transfer / B_t; the baseline runs at B_t too.
* RPO achieved = T + t (a write just after a transfer's Snapshot copy is protected when the next transfer ends);
  when t > T the transfers fall behind and no RPO holds.
* bandwidth to meet the RPO R: B >= transfer / (R - T) and B >= transfer / T (keeping up), as the link's Mbit/s at
  the share; R <= T cannot be met by any bandwidth (shorten the schedule), nor can a rate above n x window / RTT
  (the round trip bounds it whatever the link: shorten the round trip, raise the window or split the data over
  more volumes).
* baseline: sum dataset_i / r_i, at B.
* destination (physical): the baseline, plus one transfer (the common Snapshot copy held while the next lands), plus
  for SnapVault the retained daily copies: retention days x sum C_i / r_i; against the destination's usable capacity
  less what its own workloads use; runway: months until that grows (each workload at its growth rate g,
  (1 + g)^(months / 12), as every growth in StorPlan: ``models.units.growth_factor``) past the free capacity.
* SnapMirror active sync: RPO 0; bandwidth needed = the writes at their target, sent as written (no data reduction
  in flight); every write waits for the round trip to the partner site.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.project.model import Scenario, Workload
from models.project.replication import REPLICATION_KIND_LABELS, ChangeRate, Replication
from models.units import growth_factor

SECONDS_PER_DAY = 86_400.0
MAX_RUNWAY_MONTHS = 240
"""Runway looked at: 20 years (as the capacity engine's months_until_full)."""

EFFICIENCY_SOURCE = ("NetApp ONTAP REST API reference, \"Start a SnapMirror transfer operation\": transfers keep "
                     "the source's storage efficiency by default "
                     "(https://docs.netapp.com/us-en/ontap-restapi-9141/post-snapmirror-relationships-transfers.html)")
"""Where the data reduction kept in transfer comes from (public reference)."""

TCP_WINDOW_BYTES = 2 * 1024 * 1024
"""One SnapMirror stream's TCP window, bytes: 2 MB, the documented default (:data:`WINDOW_SOURCE`)."""

WINDOW_SOURCE = ("NetApp Knowledge Base, \"How to increase the TCP receive window buffer size for Inter-Cluster and "
                 "IntraCluster Volume SnapMirror\" (applies to ONTAP 9): the inter-cluster TCP receive window defaults "
                 "to 2 MB, auto-tuned per stream up to it, configurable from 256 KB to 7 MB; replication may use more "
                 "TCP streams than one per relationship, so one stream is the cautious case "
                 "(https://kb.netapp.com/on-prem/ontap/DP/SnapMirror/SnapMirror-KBs/How_to_increase_the_TCP_receive_"
                 "window_buffer_size_for_Inter-Cluster_and_IntraCluster_Volume_SnapMirror)")
"""Where the per-stream window comes from (public reference, ONTAP 9 inter-cluster SnapMirror)."""


def window_limit_bytes_per_s(streams: int, rtt_ms: float) -> float:
    """The most ``streams`` TCP streams of :data:`TCP_WINDOW_BYTES` carry over a round trip of ``rtt_ms``
    milliseconds, bytes/s (streams x window / RTT); infinite when the round trip is 0 (no bound)."""
    if rtt_ms <= 0:
        return math.inf
    return max(streams, 1) * TCP_WINDOW_BYTES / (rtt_ms / 1000.0)


@dataclass(frozen=True)
class WorkloadChange:
    """One protected workload's change.

    Attributes:
        workload_id, name: the workload.
        bytes_per_day: logical bytes changed per day.
        basis: where the figure comes from, in words ("stated", "default: ...").
        is_default: True when StorPlan derived it (not stated for the relationship).
        reduction: the data reduction kept in transfer (compression x deduplication).
        sent_bytes_per_day: bytes_per_day / reduction.
        dataset_bytes, growth_pct_per_year: for the baseline and the runway.
        write_bytes_per_s: the workload's write rate at its target (0 without a target).
    """

    workload_id: str
    name: str
    bytes_per_day: float
    basis: str
    is_default: bool
    reduction: float
    sent_bytes_per_day: float
    dataset_bytes: float
    growth_pct_per_year: float
    write_bytes_per_s: float


@dataclass(frozen=True)
class ReplicationFigures:
    """The figures of one relationship (see the module docstring for each formula).

    Attributes:
        replication_id, label, kind, kind_label, source_id, target_id: what it is.
        workloads: each protected workload's change (:class:`WorkloadChange`).
        change_bytes_per_day, sent_bytes_per_day: totals.
        interval_minutes: the schedule (0 for active sync).
        peak_window_share: the share of a day's change in the worst interval.
        transfer_bytes: the largest scheduled transfer (sent bytes).
        available_bytes_per_s: bandwidth x share / 8.
        transfer_seconds: its time on that rate.
        rpo_required_minutes: 0 when none is stated. rpo_achieved_minutes: inf when the transfers fall behind.
        rpo_met: None when no RPO is stated.
        bandwidth_needed_mbit_s: the link bandwidth (at the share) that meets the RPO; inf when none can.
        baseline_bytes, baseline_seconds: the first full transfer.
        destination_needed_bytes: physical capacity the copies take on the destination.
        destination_free_bytes: the destination's usable capacity less its own workloads' use (None unknown).
        destination_fits: None when the free capacity is unknown.
        runway_months: months until the grown copies outgrow the free capacity (None beyond 20 years or unknown).
        write_latency_added_ms: active sync: the round trip each write waits for; 0 otherwise.
        notes: assumptions in words.
        text: the verdict in one sentence.
        source_name, target_name: the two systems as the reader knows them (label, else catalog id).
        streams: the transfer's TCP streams (one per protected workload, assumed).
        window_limit_bytes_per_s: streams x window / round trip (inf when the round trip is 0).
        transfer_bytes_per_s: the rate a scheduled transfer runs at, min(available, window limit), bytes/s.
        window_limited: True when the round trip, not the link, bounds the transfer.
        link_mbit_s: the link's bandwidth, Mbit/s; share_pct: the percentage of it replication may use
            (``available_bytes_per_s`` = link x share / 8; ``bandwidth_needed_mbit_s`` is a link bandwidth at
            this share).
    """

    replication_id: str
    label: str
    kind: str
    kind_label: str
    source_id: str
    target_id: str
    workloads: tuple[WorkloadChange, ...]
    change_bytes_per_day: float
    sent_bytes_per_day: float
    interval_minutes: float
    peak_window_share: float
    transfer_bytes: float
    available_bytes_per_s: float
    transfer_seconds: float
    rpo_required_minutes: float
    rpo_achieved_minutes: float
    rpo_met: bool | None
    bandwidth_needed_mbit_s: float
    baseline_bytes: float
    baseline_seconds: float
    destination_needed_bytes: float
    destination_free_bytes: float | None
    destination_fits: bool | None
    runway_months: float | None
    write_latency_added_ms: float
    notes: tuple[str, ...]
    text: str
    source_name: str = ""
    target_name: str = ""
    streams: int = 1
    window_limit_bytes_per_s: float = math.inf
    transfer_bytes_per_s: float = 0.0
    window_limited: bool = False
    link_mbit_s: float = 0.0
    share_pct: float = 100.0


def write_bytes_per_s(workload: Workload) -> float:
    """A workload's write rate at its target, bytes/s: target IOPS x write share x block size (KiB), or target MB/s
    x write share; 0 when it states neither (a closed ramp only)."""
    write_share = (100.0 - workload.read_pct) / 100.0
    if workload.target_iops:
        return workload.target_iops * write_share * workload.block_kib * 1024.0
    if workload.target_mbps:
        return workload.target_mbps * 1e6 * write_share
    return 0.0


def workload_change(workload: Workload, stated: ChangeRate | None, overwrite_pct: float) -> WorkloadChange:
    """One workload's change per day and its basis (module docstring, first bullet).

    Args:
        workload: the protected workload; stated: the relationship's row for it (None: none);
        overwrite_pct: the relationship's overwrite share, percent.
    """
    reduction = workload.compression_ratio * workload.dedupe_ratio
    writes = write_bytes_per_s(workload)
    if stated is not None and stated.bytes_per_day is not None:
        per_day, basis, default = float(stated.bytes_per_day), "stated for this relationship", False
    elif workload.snapshots is not None and workload.snapshots.change_pct_per_h > 0:
        per_day = workload.snapshots.change_pct_per_h / 100.0 * 24.0 * workload.dataset_bytes
        basis = (f"default: the workload's Snapshot change rate, {workload.snapshots.change_pct_per_h:g}% of its "
                 "data set per hour")
        default = True
    else:
        per_day = writes * SECONDS_PER_DAY * (1.0 - overwrite_pct / 100.0)
        basis = (f"default: its writes at target ({writes / 1e6:,.1f} MB/s) x 24 h x (1 - {overwrite_pct:g}% "
                 "overwritten the same day)")
        default = True
    return WorkloadChange(workload.id, workload.name, per_day, basis, default, reduction, per_day / reduction,
                          float(workload.dataset_bytes), workload.growth_pct_per_year, writes)


def peak_window_share(profile: list[float], interval_hours: float) -> float:
    """The largest share of a day's change that falls in any window of ``interval_hours`` (the profile repeats
    every day; a flat or empty profile gives interval / 24; a window of more than a day counts whole days of change).

    The profile is piecewise constant by hour, so the integral over a sliding window is largest where one end of the
    window meets an hour boundary: starts at each hour and at each hour minus the interval are enough.
    """
    if interval_hours >= 24.0:  # whole days, then the worst part-day window
        days = math.floor(interval_hours / 24.0)
        rest = interval_hours - 24.0 * days
        return days + (peak_window_share(profile, rest) if rest > 1e-9 else 0.0)
    weights = profile if profile else [1.0] * 24
    total = sum(weights)
    shares = [w / total for w in weights]

    def integral(start: float) -> float:
        """The profile's integral over [start, start + interval_hours], start in hours (any real)."""
        done, t, end = 0.0, start, start + interval_hours
        while t < end - 1e-12:
            hour = math.floor(t + 1e-12)
            step = min(hour + 1.0, end) - t
            done += shares[hour % 24] * step
            t += step
        return done

    starts = [float(h) for h in range(24)] + [h - interval_hours for h in range(24)]
    return max(integral(s) for s in starts)


def _months_until(needed_now: float, growth: list[tuple[float, float]], free: float) -> float | None:
    """Months until sum(bytes x (1 + g)^(m / 12)) over (bytes, g%) parts exceeds ``free``; 0 when it does now;
    None beyond :data:`MAX_RUNWAY_MONTHS`."""
    if needed_now > free:
        return 0.0
    for month in range(1, MAX_RUNWAY_MONTHS + 1):
        grown = sum(b * growth_factor(g, month) for b, g in growth)
        if grown > free:
            return float(month)
    return None


def protected_workloads(scenario: Scenario, replication: Replication) -> list[Workload]:
    """The enabled workloads a relationship protects: those it names, else every enabled workload its source
    serves; a named workload of another system or not in the scenario is left out (the problems check names it)."""
    if replication.workloads:
        found = [scenario.workload(w) for w in replication.workloads]
        return [w for w in found if w is not None and w.target == replication.source and w.enabled]
    return [w for w in scenario.workloads if w.target == replication.source and w.enabled]


def replication_figures(scenario: Scenario, replication: Replication, destination_free_bytes: float | None = None,
                        destination_label: str = "", source_label: str = "",
                        horizon_months: float = 0.0) -> ReplicationFigures:
    """The figures of one relationship (module docstring).

    Args:
        scenario: the scenario holding the relationship and its workloads.
        replication: the relationship.
        destination_free_bytes: the destination's usable capacity less its own workloads' physical use (bytes);
            None: not known (no verdict on capacity).
        destination_label, source_label: the two systems' names for the sentences and tables.
        horizon_months: the project's planning horizon (``Requirements.horizon_months``): the sentence says whether
            the grown copies fill the destination within it; 0: not judged (the months only).
    """
    rows = {c.workload: c for c in replication.change}
    changes = tuple(workload_change(w, rows.get(w.id), replication.overwrite_pct)
                    for w in protected_workloads(scenario, replication))
    change = sum(c.bytes_per_day for c in changes)
    sent = sum(c.sent_bytes_per_day for c in changes)
    rate = replication.bandwidth_mbit_s * 1e6 / 8.0 * replication.replication_share_pct / 100.0
    baseline = sum(c.dataset_bytes / c.reduction for c in changes)
    notes: list[str] = []
    for c in changes:
        if c.is_default:
            notes.append(f"{c.name}: change per day is a default ({c.basis}); state it for this relationship")
    notes.append(f"Data reduction kept in transfer (compression x deduplication): {EFFICIENCY_SOURCE}.")
    streams = max(len(changes), 1)
    ceiling = window_limit_bytes_per_s(streams, replication.rtt_ms)
    moving = min(rate, ceiling)
    limited = replication.kind != "active-sync" and ceiling < rate
    if replication.kind != "active-sync":
        notes.append(f"Transfers run {streams} TCP stream{'s' if streams > 1 else ''} (one per protected workload, "
                     f"assumed) of a {TCP_WINDOW_BYTES / 2**20:g} MiB window each (the documented "
                     f"'{TCP_WINDOW_BYTES / 2**20:g} MB', taken as binary): at most "
                     f"{ceiling * 8 / 1e6:,.0f} Mbit/s over a {replication.rtt_ms:g} ms round trip"
                     + (" (below the link's share: the round trip bounds the transfers)" if limited else "")
                     + f"; {WINDOW_SOURCE}." if math.isfinite(ceiling) else
                     "No round trip stated: the transfers are assumed to reach the link's share.")
    notes.append("A lossy link may reach less than these rates.")
    kind = replication.kind
    required = replication.rpo_minutes
    latency_added = 0.0
    if kind == "active-sync":
        interval = share = 0.0
        writes = sum(c.write_bytes_per_s for c in changes)
        transfer = 0.0
        seconds = 0.0
        achieved = 0.0 if writes <= rate else math.inf
        needed = writes * 8.0 / 1e6 / (replication.replication_share_pct / 100.0)
        latency_added = replication.rtt_ms
        held = 0.0
    else:
        interval = replication.schedule_minutes
        profiles = [rows[c.workload_id].hourly_profile if c.workload_id in rows else [] for c in changes]
        # each workload's worst window at its own profile, summed: a bound that is exact when the profiles agree
        transfer = sum(c.sent_bytes_per_day * peak_window_share(p, interval / 60.0)
                       for c, p in zip(changes, profiles, strict=True))
        share = transfer / sent if sent > 0 else peak_window_share([], interval / 60.0)
        seconds = transfer / moving
        achieved = interval + seconds / 60.0 if seconds <= interval * 60.0 else math.inf
        if required > 0 and required <= interval:
            needed = math.inf
        else:
            window = (required - interval) * 60.0 if required > 0 else math.inf
            bytes_per_s = max(transfer / window if window != math.inf else 0.0, transfer / (interval * 60.0))
            needed = (bytes_per_s * 8.0 / 1e6 / (replication.replication_share_pct / 100.0)
                      if bytes_per_s <= ceiling else math.inf)
        held = transfer
    retained = sent * replication.retention_days if kind == "snapvault" else 0.0
    destination = baseline + held + retained
    rpo_met = None if required <= 0 else achieved <= required
    fits = runway = None
    if destination_free_bytes is not None:
        fits = destination <= destination_free_bytes
        parts = [(c.dataset_bytes / c.reduction, c.growth_pct_per_year) for c in changes]
        parts += [(c.sent_bytes_per_day * replication.retention_days if kind == "snapvault" else 0.0,
                   c.growth_pct_per_year) for c in changes]
        parts.append((held, 0.0))
        runway = _months_until(destination, parts, destination_free_bytes)
    label = replication.label or (f"{REPLICATION_KIND_LABELS[kind]} {source_label or replication.source} to "
                                  f"{destination_label or replication.target}")
    text = _sentence(kind, required, achieved, needed, replication.bandwidth_mbit_s, fits, destination_label,
                     ceiling * 8.0 / 1e6 if kind != "active-sync" and math.isinf(needed)
                     and not 0 < required <= interval else None, runway, horizon_months,
                     replication.replication_share_pct)
    return ReplicationFigures(
        replication.id, label, kind, REPLICATION_KIND_LABELS[kind], replication.source, replication.target, changes,
        change, sent, interval, share, transfer, rate, seconds, required, achieved, rpo_met, needed, baseline,
        baseline / (moving if kind != "active-sync" else rate), destination, destination_free_bytes, fits, runway,
        latency_added, tuple(notes), text,
        source_label or replication.source, destination_label or replication.target, streams, ceiling,
        moving if kind != "active-sync" else rate, limited, replication.bandwidth_mbit_s,
        replication.replication_share_pct)


def room_words(fits: bool | None, runway: float | None, horizon_months: float, destination: str) -> str:
    """Whether the copies fit on ``destination`` now and over the horizon, in words: ``the copies do not fit on
    X``; ``the copies fit on X today but fill it in 18 months at the planned growth, within the 36-month horizon``
    (the runway at most the horizon: the rule of ``models.verdict.protection_misses``); ``the copies fit on X, full
    in 90 months at the planned growth`` (after the horizon, or none stated); ``the copies fit on X`` (no runway
    within 20 years); "" when the free capacity is unknown (``fits`` None)."""
    where = destination or "the destination"
    if fits is None:
        return ""
    if not fits:
        return f"the copies do not fit on {where}"
    if runway is None:
        return f"the copies fit on {where}" + (f" over the {horizon_months:,.0f}-month horizon"
                                               if horizon_months > 0 else "")
    months = f"{runway:,.0f} months"
    if horizon_months > 0 and runway <= horizon_months:
        return (f"the copies fit on {where} today but fill it in {months} at the planned growth, within the "
                f"{horizon_months:,.0f}-month horizon")
    after = f", after the {horizon_months:,.0f}-month horizon" if horizon_months > 0 else ""
    return f"the copies fit on {where}, full in {months} at the planned growth{after}"


def _sentence(kind: str, required: float, achieved: float, needed: float, bandwidth: float, fits: bool | None,
              destination: str, window_mbit: float | None = None, runway: float | None = None,
              horizon_months: float = 0.0, share_pct: float = 100.0) -> str:
    """The relationship's verdict in one sentence (``window_mbit``: the round trip's bound, Mbit/s, when it is
    why no bandwidth meets the RPO; ``runway`` and ``horizon_months``: :func:`room_words`; ``needed`` and
    ``bandwidth`` are link bandwidths, Mbit/s, of which ``share_pct`` percent is replication's)."""
    share = f" at the {share_pct:g}% replication share" if share_pct < 100 else ""
    behind_no_link = ("transfers fall behind the schedule" if window_mbit is None else
                      f"transfers fall behind the schedule: the round trip bounds them to {window_mbit:,.0f} "
                      "Mbit/s whatever the link")
    if kind == "active-sync":
        rpo = ("zero RPO holds" if achieved == 0 else
               f"zero RPO needs a link of {needed:,.0f} Mbit/s{share} for the writes; the link is "
               f"{bandwidth:,.0f} Mbit/s")
    elif achieved == math.inf:
        rpo = (f"transfers fall behind: each takes longer than the schedule; a link of {needed:,.0f} Mbit/s{share} "
               "keeps up"
               if needed != math.inf else behind_no_link)
    elif required <= 0:
        rpo = f"RPO achieved {achieved:,.0f} min (none required)"
    elif achieved <= required:
        rpo = f"RPO achieved {achieved:,.0f} min meets the {required:,.0f} min required"
    elif needed == math.inf and window_mbit is not None:
        rpo = (f"RPO achieved {achieved:,.0f} min misses the {required:,.0f} min required; the round trip bounds "
               f"the transfers to {window_mbit:,.0f} Mbit/s whatever the link: shorten the round trip or the "
               "schedule, or raise the window")
    elif needed == math.inf:
        rpo = (f"RPO achieved {achieved:,.0f} min misses the {required:,.0f} min required; no bandwidth meets it "
               "on this schedule: shorten the schedule")
    else:
        rpo = (f"RPO achieved {achieved:,.0f} min misses the {required:,.0f} min required; a link of {needed:,.0f} "
               f"Mbit/s{share} meets it (the link is {bandwidth:,.0f} Mbit/s)")
    room = room_words(fits, runway, horizon_months, destination)
    if not room:
        return rpo[:1].upper() + rpo[1:] + "."
    return f"{rpo[:1].upper() + rpo[1:]}; {room}."


__all__ = ["MAX_RUNWAY_MONTHS", "ReplicationFigures", "SECONDS_PER_DAY", "EFFICIENCY_SOURCE", "TCP_WINDOW_BYTES",
           "WINDOW_SOURCE", "WorkloadChange", "window_limit_bytes_per_s",
           "peak_window_share", "protected_workloads", "replication_figures", "room_words", "workload_change",
           "write_bytes_per_s"]
