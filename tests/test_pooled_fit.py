"""The pooled software fit (models.performance.pooled_fit): its parameters against an independent weighted
least-squares computation over the same calibrated fields, the leave-out, the clamp on releases, and the switch that
runs the hardware relation on it (off by default: the relation's numbers do not change)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.catalog import Controller, bundled_catalog
from models.performance.hardware_relation import RELATION_SOURCE
from models.performance.pooled_fit import (
    EVIDENCE_WEIGHTS,
    fit,
    observation_kind,
    observations,
    release_position,
)
from models.performance.profiles import controller_profile


def _calibrated(catalog, cid, software, protocol, field):
    """The value of a calibrated field of a controller's own profile, straight from the catalog."""
    record = catalog.get(cid, Controller)
    profile = next(p for p in record.performance if p.software == software and p.protocol == protocol)
    assert profile.provenance[field].kind == "calibrated"
    return record, profile, float(getattr(profile, field))


def test_release_positions_follow_the_six_month_cadence():
    assert release_position("9.0") == 0
    assert release_position("9.5") == 5
    assert release_position("9.14.1") == 14
    assert release_position("8.3.1") == -1
    assert release_position("7.3") == -2


def test_evidence_weights_keep_the_issues_order():
    w = EVIDENCE_WEIGHTS
    assert w["benchmark ramp"] > w["benchmark peak"] > w["vendor claim"] > w["ratio claim"] > 0


def test_shared_constants_are_the_weighted_geometric_means_of_the_platforms():
    catalog = bundled_catalog()
    fitted = fit(catalog, "ONTAP")
    assert fitted is not None
    # NFS affinity hold: the A90's and A900's ramps (equal weight) -> their geometric mean
    _, a90, h90 = _calibrated(catalog, "netapp-aff-a90", "9.15", "NFS", "affinity_hold_us")
    _, a900, h900 = _calibrated(catalog, "netapp-aff-a900", "9.14", "NFS", "affinity_hold_us")
    assert observation_kind(a90) == observation_kind(a900) == "benchmark ramp"
    assert fitted.other[("NFS", "affinity_hold_us")] == pytest.approx(math.sqrt(h90 * h900), rel=1e-6)
    # NFS fixed latency: not one platform's (the A900's 249 us), the two ramps' geometric mean
    _, _, f90 = _calibrated(catalog, "netapp-aff-a90", "9.15", "NFS", "fixed_latency_us")
    _, _, f900 = _calibrated(catalog, "netapp-aff-a900", "9.14", "NFS", "fixed_latency_us")
    assert fitted.constant(("NFS",), "fixed_latency_us")[0] == pytest.approx(math.sqrt(f90 * f900), rel=1e-6)
    assert min(f90, f900) < fitted.other[("NFS", "fixed_latency_us")] < max(f90, f900)


def test_the_cpu_costs_and_release_trend_match_an_independent_weighted_least_squares():
    catalog = bundled_catalog()
    fitted = fit(catalog, "ONTAP")
    assert fitted is not None
    cpu = [o for o in observations(catalog, "ONTAP") if o.field.startswith("cpu_")]
    keys = sorted({(o.protocol, o.field) for o in cpu})
    # the design of log(per-core demand) = a[key] - s * position, solved by numpy's lstsq on sqrt(w)-scaled rows
    a = np.zeros((len(cpu), len(keys) + 1))
    y = np.zeros(len(cpu))
    for row, o in enumerate(cpu):
        record = next(r for r in catalog.of_kind(Controller) if r.name == o.platform)
        profile = next(p for p in record.performance if p.software == o.software and p.protocol == o.protocol)
        per_core = getattr(profile, o.field) * record.cores_per_node / profile.servers_per_node
        root = math.sqrt(EVIDENCE_WEIGHTS[observation_kind(profile)])
        a[row, keys.index((o.protocol, o.field))] = root
        a[row, -1] = -release_position(o.software) * root
        y[row] = math.log(per_core) * root
    solution = np.linalg.lstsq(a, y, rcond=None)[0]
    assert fitted.trend == pytest.approx(solution[-1], rel=1e-6)
    for key, value in zip(keys, solution[:-1]):
        assert fitted.cpu[key] == pytest.approx(math.exp(value), rel=1e-6)
    # newer releases cost less per operation, and nothing is extrapolated past the fitted releases
    assert fitted.trend > 0
    read = fitted.cpu_demand(("FCP",), "cpu_read_us", "9.16.1")
    assert read == fitted.cpu_demand(("FCP",), "cpu_read_us", "9.5")
    assert fitted.cpu_demand(("FCP",), "cpu_read_us", "7.3") == fitted.cpu_demand(("FCP",), "cpu_read_us", "8.3.1")


def test_a_platform_left_out_leaves_no_observation_and_nvme_falls_back_to_fcp():
    catalog = bundled_catalog()
    full = fit(catalog, "ONTAP")
    held = fit(catalog, "ONTAP", exclude="netapp-aff-a800")
    assert full is not None and held is not None
    assert not any(o.platform == "NetApp AFF A800 HA pair" for o in held.observations)
    assert ("NVMe/FC", "cpu_read_us") in full.cpu and ("NVMe/FC", "cpu_read_us") not in held.cpu
    # NVMe asks for FCP's cost first (the hardware relation's conservative stand-in order)
    value, proto = held.cpu_demand(("FCP", "iSCSI"), "cpu_read_us", "9.5")
    assert proto == "FCP"
    # with one FCP platform left, the release span is its own (8.3.1-9.0): 9.5 is held at 9.0's cost
    assert value == pytest.approx(held.cpu[("FCP", "cpu_read_us")] * math.exp(-held.trend * 0.0))


def test_the_relation_runs_on_the_pooled_fit_only_when_asked():
    catalog = bundled_catalog()
    a70 = catalog.get("netapp-aff-a70", Controller)
    a90 = catalog.get("netapp-aff-a90", Controller)
    before, _ = controller_profile(a70, catalog, a70.default_software, "NFS")
    own_before, _ = controller_profile(a90, catalog, a90.default_software, "NFS")
    token = RELATION_SOURCE.set("pooled")
    try:
        pooled, _ = controller_profile(a70, catalog, a70.default_software, "NFS")
        own_pooled, _ = controller_profile(a90, catalog, a90.default_software, "NFS")
    finally:
        RELATION_SOURCE.reset(token)
    after, _ = controller_profile(a70, catalog, a70.default_software, "NFS")
    fitted = fit(catalog, "ONTAP")
    assert fitted is not None
    assert before is not None and pooled is not None and after is not None
    assert pooled.fixed_latency_us == pytest.approx(fitted.other[("NFS", "fixed_latency_us")])
    assert "fitted jointly" in pooled.provenance["fixed_latency_us"].source
    assert before.fixed_latency_us != pytest.approx(pooled.fixed_latency_us)
    # the default is back once the switch is reset, and a calibrated platform keeps its own profile either way
    assert after.fixed_latency_us == before.fixed_latency_us
    assert own_pooled is own_before


def test_by_default_only_a_release_older_than_every_fitted_one_takes_the_pooled_value():
    catalog = bundled_catalog()
    fitted = fit(catalog, "ONTAP")
    assert fitted is not None
    fas3140 = catalog.get("netapp-fas3140", Controller)
    a70 = catalog.get("netapp-aff-a70", Controller)
    _, _, f900 = _calibrated(catalog, "netapp-aff-a900", "9.14", "NFS", "fixed_latency_us")
    _, _, f90 = _calibrated(catalog, "netapp-aff-a90", "9.15", "NFS", "fixed_latency_us")
    old, _ = controller_profile(fas3140, catalog, "7.3", "NFS")
    new, _ = controller_profile(a70, catalog, a70.default_software, "NFS")
    token = RELATION_SOURCE.set("nearest")
    try:
        old_nearest, _ = controller_profile(fas3140, catalog, "7.3", "NFS")
        new_nearest, _ = controller_profile(a70, catalog, a70.default_software, "NFS")
    finally:
        RELATION_SOURCE.reset(token)
    assert old is not None and new is not None and old_nearest is not None and new_nearest is not None
    # ONTAP 7.3 is older than both fitted NFS releases: the nearest rule took the A900's 9.14 figure ...
    assert old_nearest.fixed_latency_us == pytest.approx(f900)
    # ... the default takes the value fitted across them, and a CPU time from the release trend, not the 8.3.1 fit
    assert old.fixed_latency_us == pytest.approx(fitted.other[("NFS", "fixed_latency_us")])
    assert old.cpu_read_us == pytest.approx(fitted.cpu_demand(("FCP",), "cpu_read_us", "7.3")[0])
    assert "fitted jointly" in old.provenance["fixed_latency_us"].source
    # a release at or after a fitted one keeps the nearest fitted release's value (the A70 on the A90's 9.15)
    assert new.fixed_latency_us == new_nearest.fixed_latency_us == pytest.approx(f90)


def test_one_observation_comes_back_exactly_so_a_tie_stays_a_tie():
    catalog = bundled_catalog()
    held = fit(catalog, "ONTAP", exclude="netapp-aff-a900")
    assert held is not None
    for field in ("fixed_latency_us", "affinity_hold_us", "affinity_hold_scv"):
        _, _, own = _calibrated(catalog, "netapp-aff-a90", "9.15", "NFS", field)
        assert held.other[("NFS", field)] == own  # exactly: an ordering bound compares capacities with >=
