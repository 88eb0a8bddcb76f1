"""Results as plain JSON-ready dicts: the shape of ``storplan evaluate --json`` (documented in README)."""

from __future__ import annotations

import math
from typing import Any

from models.capacity.results import CapacityResult, CapacityTotals, ScenarioCapacity
from models.evaluate import Evaluation
from models.formatting import station_words
from models.units import CapacityUnit
from models.verdict import DesignVerdict, design_verdict


def _num(value: float | None) -> float | None:
    """A finite float, or None (JSON has no NaN / inf; StorPlan never prints them)."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _step(step: Any) -> dict[str, Any]:
    return {
        "name": step.name,
        "bytes_before": _num(step.bytes_before),
        "bytes_after": _num(step.bytes_after),
        "source": step.source,
        "formula": step.formula,
    }


def _capacity_result(result: CapacityResult | CapacityTotals) -> dict[str, Any]:
    """A system's figures, steps and notes; the scenario totals' figures (no id, label, steps or notes).
    ``effective_bytes`` and ``efficiency_ratio`` are the headline, data reduction only (usable x
    ``data_reduction_ratio``); ``effective_with_snapshots_bytes`` and ``efficiency_ratio_with_snapshots`` count
    Snapshot and FlexClone copies (``efficiency_ratio``, ONTAP's total ratio)."""
    system = result if isinstance(result, CapacityResult) else None
    return {
        "system_id": system.system_id if system is not None else "",
        "system_label": system.system_label if system is not None else "",
        "raw_bytes": _num(result.raw_bytes),
        "right_sized_bytes": _num(result.right_sized_bytes),
        "usable_bytes": _num(result.usable_bytes),
        "effective_bytes": _num(result.effective_bytes),
        "logical_used_bytes": _num(result.logical_used_bytes),
        "physical_used_bytes": _num(result.physical_used_bytes),
        "efficiency_ratio": _num(result.data_reduction_ratio),
        "effective_with_snapshots_bytes": _num(result.effective_with_snapshots_bytes),
        "efficiency_ratio_with_snapshots": _num(result.efficiency_ratio),
        "months_until_full": _num(result.months_until_full),
        "steps": [_step(s) for s in system.steps] if system is not None else [],
        "notes": list(system.notes) if system is not None else [],
    }


def capacity_to_dict(capacity: ScenarioCapacity | None) -> dict[str, Any] | None:
    """The scenario's capacity: totals and steps (of the single system, or summed by step name), plus systems;
    ``replica_only``: the systems that only receive replication, left out of the totals."""
    if capacity is None:
        return None
    systems = list(capacity.systems)
    out = _capacity_result(capacity.total)
    if len(systems) == 1 and not out["steps"]:
        out["steps"] = [_step(s) for s in systems[0].steps]
    out["systems"] = [_capacity_result(s) for s in systems]
    out["replica_only"] = list(capacity.replica_only)
    return out


def _point(p: Any) -> dict[str, Any]:
    """One curve point: IOPS, storage-side latency with its uncertainty band (P10 / P90 of the prediction;
    null where not computed or, for P90, where the band's pessimistic edge saturates), the 95th / 99th percentile
    of the I/O response time there (null where saturated), MB/s."""
    return {"iops": _num(p.iops), "latency_ms": _num(p.latency_ms), "latency_band_p10_ms": _num(p.latency_band_p10_ms),
            "latency_band_p90_ms": _num(p.latency_band_p90_ms), "latency_p95_ms": _num(p.latency_p95_ms),
            "latency_p99_ms": _num(p.latency_p99_ms), "mbps": _num(p.mbps)}


def _points(columns: Any) -> list[dict[str, Any]]:
    """:func:`_point` of every point of a curve held as columns (``models.performance.results.curve_columns``):
    the same dicts, without a :class:`~models.performance.results.CurvePoint` made per point first."""
    iops, latency, mbps, _host, _population, p10, p90, p95, p99 = columns
    none = [None] * len(iops)
    isfinite = math.isfinite

    def finite(values: Any) -> list[float | None]:
        out: list[float | None] = []
        keep = out.append
        for value in values:
            if value is None:
                keep(None)
            else:
                value = float(value)
                keep(value if isfinite(value) else None)
        return out

    return [{"iops": x, "latency_ms": y, "latency_band_p10_ms": lo, "latency_band_p90_ms": hi, "latency_p95_ms": t95,
             "latency_p99_ms": t99, "mbps": m}
            for x, y, lo, hi, t95, t99, m in zip(finite(iops), finite(latency), finite(p10), finite(p90),
                                                 none if p95 is None else finite(p95),
                                                 none if p99 is None else finite(p99), finite(mbps))]


def _curves(wp: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The curve and the open curve of ``wp`` as :func:`_point` dicts: from its columns when it still holds them
    (its points never made), else from its points."""
    from models.performance.results import curve_columns  # (the engines' package: loaded by the evaluation)

    columns = curve_columns(wp)
    if columns is not None:
        return _points(columns[0]), _points(columns[1])
    return [_point(p) for p in wp.curve], [_point(p) for p in wp.open_curve]


def workload_to_dict(wp: Any) -> dict[str, Any]:
    """One workload's performance: curve, saturation, max IOPS at the SLO (``slo_statistic``: whether the SLO
    bounds the mean or the p99), bottleneck (in the words every view uses: "HA pair IOPS bound (node 1's share)";
    ``bottleneck_station``: the engine's station name, a key of ``utilization``), utilisation;
    ``latency_p95_ms`` / ``latency_p99_ms``: the 95th / 99th
    percentile of the I/O response time at the target (null without a target or where it saturates), beside
    ``latency_at_target_ms``, the mean; every curve point carries its own."""
    curve, open_curve = _curves(wp)
    return {
        "id": wp.workload_id,
        "name": wp.name,
        "protocol": wp.protocol,
        "curve": curve,
        "open_curve": open_curve,
        "profile": wp.profile or None,
        "profile_basis": wp.profile_basis.as_dict() if wp.profile_basis is not None else None,
        "saturation_iops_band_p10": _num(wp.saturation_iops_band_p10),
        "saturation_iops_band_p90": _num(wp.saturation_iops_band_p90),
        "max_iops_at_slo_band_p10": _num(wp.max_iops_at_slo_band_p10),
        "max_iops_at_slo_band_p90": _num(wp.max_iops_at_slo_band_p90),
        "band_basis": wp.band_basis,
        "saturation_iops": _num(wp.saturation_iops),
        "saturation_mbps": _num(wp.saturation_mbps),
        "max_iops_at_slo": _num(wp.max_iops_at_slo),
        # what the workload's own outstanding I/Os reach within the SLO, where below max_iops_at_slo (else null)
        "iops_at_stated_concurrency": _num(wp.iops_at_stated_concurrency),
        "concurrency": wp.concurrency,
        "target_reached_at_stated_concurrency": (None if wp.target_met is not True
                                                 else not wp.short_of_concurrency),
        "slo_ms": _num(wp.slo_ms),
        "slo_statistic": wp.slo_statistic,
        "target_iops": _num(wp.target_iops),
        "latency_at_target_ms": _num(wp.latency_at_target_ms),
        "latency_p95_ms": _num(wp.latency_p95_at_target_ms),
        "latency_p99_ms": _num(wp.latency_p99_at_target_ms),
        "target_met": wp.target_met,
        "bottleneck": station_words(wp.bottleneck, wp) if wp.bottleneck else wp.bottleneck,  # as every view says
        "bottleneck_station": wp.bottleneck,  # the engine's station: a key of "utilization"
        "bottleneck_component": wp.bottleneck_component,
        "headroom_pct": _num(wp.headroom_pct),
        "utilization": {s.name: _num(s.utilization) for s in wp.stations},
        "light_load_latency_ms": _num(wp.light_load_latency_ms),
        "latency_at_50pct_saturation_ms": _num(wp.latency_at_50pct_saturation_ms),
        "latency_at_80pct_saturation_ms": _num(wp.latency_at_80pct_saturation_ms),
        "knee_note": wp.knee_note,
        "notes": list(wp.notes),
    }


def state_to_dict(state: Any) -> dict[str, Any]:
    """One failure state of a workload: its name, reason, curve, saturation, max IOPS at the SLO, latency at the
    target, whether the SLO holds there, the same uncertainty-band fields as the normal figures, and the time
    to rebuild where it applies."""
    wp = state.performance
    curve, open_curve = _curves(wp)
    return {
        "state": state.state,
        "reason": state.reason,
        "curve": curve + open_curve,
        "saturation_iops": _num(wp.saturation_iops),
        "max_iops_at_slo": _num(wp.max_iops_at_slo),
        "latency_at_target_ms": _num(wp.latency_at_target_ms),
        "latency_p95_ms": _num(wp.latency_p95_at_target_ms),
        "latency_p99_ms": _num(wp.latency_p99_at_target_ms),
        "meets_slo": state.meets_slo,
        "bottleneck": station_words(wp.bottleneck, wp) if wp.bottleneck else wp.bottleneck,
        "bottleneck_station": wp.bottleneck,
        "profile": wp.profile or None,
        "saturation_iops_band_p10": _num(wp.saturation_iops_band_p10),
        "saturation_iops_band_p90": _num(wp.saturation_iops_band_p90),
        "max_iops_at_slo_band_p10": _num(wp.max_iops_at_slo_band_p10),
        "max_iops_at_slo_band_p90": _num(wp.max_iops_at_slo_band_p90),
        "rebuild_hours": _num(state.rebuild_hours),
    }


def verdict_to_dict(verdict: DesignVerdict) -> dict[str, Any]:
    """The verdict (``models.verdict.DesignVerdict``): met, whether any requirement is stated, its sentence, and
    each miss's area, subject, state and text."""
    return {"met": verdict.met, "stated": verdict.stated, "text": verdict.text,
            "conditional": list(verdict.conditional),  # met only with more outstanding I/O than these state
            "missed": [{"area": m.area, "subject": m.subject, "state": m.state, "text": m.text}
                       for m in verdict.missed]}


def evaluation_to_dict(evaluation: Evaluation, project_name: str = "", resilience: Any = None,
                       requirements: Any = None, unit: CapacityUnit | str = CapacityUnit.TIB) -> dict[str, Any]:
    """The whole evaluation as JSON-ready data; with ``resilience`` (``models.evaluate.Resilience``) each
    workload gains ``states`` and the document a top-level ``runway``. ``verdict`` is
    ``models.verdict.design_verdict`` against ``requirements`` (``project.requirements``; None: only what the
    results state), its sentences' capacities in ``unit``."""
    if resilience is None:
        resilience = evaluation.resilience
    performance = evaluation.performance
    workloads = [workload_to_dict(w) for w in performance.workloads] if performance is not None else []
    if resilience is not None:
        for w in workloads:
            w["states"] = [state_to_dict(s) for s in resilience.states.get(w["id"], ())]
    out = {
        "project": project_name,
        "scenario": evaluation.scenario,
        "capacity": capacity_to_dict(evaluation.capacity),
        "workloads": workloads,
        "problems": [  # a problem's sources (the limits it names) apart from its one-sentence message
            {"severity": p.severity, "message": p.message, "node_id": p.node_id} | ({"sources": p.sources}
                                                                                    if p.sources else {})
            for p in evaluation.problems
        ],
        "verdict": verdict_to_dict(design_verdict(evaluation.capacity, performance, resilience, requirements, unit,
                                                    evaluation.protection, len(evaluation.errors))),
    }
    capacity = out["capacity"]
    if isinstance(capacity, dict) and evaluation.capacity_band is not None:  # the P10 / P90 capacity band
        from models.present.capacity_band import band_fields, system_band_fields

        capacity.update(band_fields(evaluation.capacity_band))
        for system in capacity["systems"]:
            system.update(system_band_fields(evaluation.capacity_band, system["system_id"]))
    if evaluation.protection is not None:
        from models.replication.export import protection_to_dict

        out["replication"] = protection_to_dict(evaluation.protection)
    if evaluation.fabricpool:
        from models.performance.fabricpool_summary import fabricpool_to_dict

        out["fabricpool"] = fabricpool_to_dict(evaluation.fabricpool)
    if resilience is not None:
        out["capacity_states"] = [
            {"system": c.system_id, "state": c.state, "usable_bytes": _num(c.usable_bytes), "fits": c.fits,
             "text": c.text} for c in resilience.capacity_states]
        out["requirement_checks"] = [{"requirement": c.requirement, "met": c.met, "text": c.text,
                                      "subject": c.subject, "state": c.state}
                                     for c in resilience.requirement_checks]
        out["runway"] = {"months_until_full": _num(resilience.months_until_full),
                         "months_until_slo_breach": _num(resilience.months_until_slo_breach),
                         "months_until_saturation": _num(resilience.months_until_saturation),
                         **_runway_more(evaluation, resilience)}
    return texts_in_unit(out, unit, _exact(evaluation.capacity))


def _runway_more(evaluation: Evaluation, resilience: Any) -> dict[str, Any]:
    """What the report's runway says beyond the three months (review cons57 #1, #4):

    * ``months_until_slo_breach_in_takeover``: when the project requires the SLO in takeover (and IOPS targets
      grow, as the report's runway: ``models.present.resilience.runway_lines``), the month a growing
      target passes its max IOPS at the SLO in that state (``models.present.resilience.takeover_breach``; null:
      not within ten years, or not required: then ``slo_in_takeover_state`` is null too), and
      ``slo_in_takeover_state`` the state in words (``takeover``, ``failover``, ``controller failover``);
    * ``dr_copies``: each replication destination's DR copy, ``{"system_id", "system_label",
      "months_until_full"}`` (null: not within 20 years), as the report's "months until the DR copy on <system>
      is full"; ``months_until_full`` counts only the systems serving workloads;
    * ``first_to_fill``: the system that fills first, a DR copy included, as the Capacity tab's key figure
      (``{"system_id", "system_label", "dr_copy", "months_until_full"}``; null: none fills).
    """
    from models.present.dr_copy import dr_copies, first_to_fill
    from models.present.resilience import takeover_breach, targets_grow

    breach = takeover_breach(resilience) if targets_grow(resilience) else None  # as the report's runway lines
    capacity = evaluation.capacity
    names = {c.system_id: c.system_label or c.system_id for c in capacity.systems} if capacity is not None else {}
    first = first_to_fill(capacity)
    return {
        "months_until_slo_breach_in_takeover": _num(breach[0]) if breach is not None else None,
        "slo_in_takeover_state": breach[1] if breach is not None else None,
        "dr_copies": [{"system_id": system_id, "system_label": names.get(system_id, system_id),
                       "months_until_full": _num(copy.runway_months)}
                      for system_id, copy in dr_copies(evaluation.protection).items()],
        "first_to_fill": None if first is None or capacity is None else {
            "system_id": first[1].system_id, "system_label": first[1].system_label,
            "dr_copy": capacity.is_replica_only(first[1].system_id), "months_until_full": _num(first[0])},
    }


CITATION_KEYS = frozenset({"source", "sources"})
"""Keys whose text is a citation, kept as its publisher writes it (never put in the chosen unit)."""


def _exact(capacity: ScenarioCapacity | None) -> tuple[float, ...]:
    """The byte counts the capacity result holds exactly (``models.present.capacity_text.exact_figures`` of each
    system): the engine's rounded binary figures become the decimal figures of these."""
    from models.present.capacity_text import exact_figures

    return tuple(v for s in (capacity.systems if capacity is not None else ()) for v in exact_figures(s))


def texts_in_unit(data: Any, unit: CapacityUnit | str, exact: tuple[float, ...] = ()) -> Any:
    """``data`` (JSON-ready) with every text's engine-formatted binary figures (a step's formula ``40 x 2.18 TiB``,
    a note's ``6.99 TiB``) in ``unit`` (``models.present.capacity_text.text_in_unit``), citations
    (:data:`CITATION_KEYS`) as written: ``storplan evaluate --json --unit TB`` never mixes TiB into its TB
    sentences. Numbers stay bytes. A binary unit returns ``data`` unchanged."""
    if CapacityUnit(unit) is CapacityUnit.TIB:
        return data
    from models.present.capacity_text import text_in_unit

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return text_in_unit(value, unit, exact)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: (v if k in CITATION_KEYS else walk(v)) for k, v in value.items()}
        return value

    return walk(data)
