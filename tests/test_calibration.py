"""Calibration: recovers known parameters from the model's own points; CSV input; catalog profiles."""

from __future__ import annotations

import pytest

from models.calibration import (
    CalibrationError,
    Observation,
    ProfileSpec,
    fit_from_csv,
    fit_profile,
    read_points_csv,
    run_ramps,
    with_profiles,
    write_profiles,
)
from models.catalog import CloudVm, Controller, PerfProfile, bundled_catalog, entries_from_toml_text
from models.performance import seeds
from models.resources import catalog_dir

BASE = bundled_catalog()
FIELDS = ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us", "servers_per_node", "fixed_latency_us")


def truth(servers: int) -> PerfProfile:
    return PerfProfile(software="9.5", protocol="NVMe/FC", cpu_read_us=20.0, cpu_write_us=40.0, cpu_per_kib_us=0.5,
                       servers_per_node=servers, fixed_latency_us=15.0,
                       sources={k: "assumed: test truth" for k in FIELDS})


def model_points(servers: int, users: int = 64):
    cat = with_profiles(BASE, [("netapp-aff-a800", truth(servers))])
    sc = seeds.a800("9.5", "NVMe/FC", users=users)
    r = run_ramps({"lab": sc}, cat)["lab"]
    idx = [0, users // 8, users // 4, users // 2, users - 1]
    return sc, [(float(r.iops[i]), float(r.host_ms[i])) for i in idx]


def spec(servers=None):
    return ProfileSpec("netapp-aff-a800", "9.5", "NVMe/FC", ("cpu_read_us", "fixed_latency_us"),
                       x0={"cpu_read_us": 50.0, "fixed_latency_us": 50.0}, fixed={"cpu_per_kib_us": 0.5},
                       write_ratio=2.0, servers=servers, bounds={"cpu_read_us": (1.0, 500.0),
                                                                 "fixed_latency_us": (0.0, 500.0)})


def test_recovers_known_cpu_and_fixed_latency():
    sc, pts = model_points(8)
    obs = [Observation("lab", "latency_at_iops", value=y, iops=x, host_side=True) for x, y in pts]
    res = fit_profile([spec(servers=8)], {"lab": sc}, obs, BASE, server_grid=None, source="test")
    p = res.profiles[0][1]
    assert p.cpu_read_us == pytest.approx(20.0, rel=0.03)
    assert p.fixed_latency_us == pytest.approx(15.0, rel=0.05, abs=1.0)
    assert res.rms < 0.01
    assert "test" in p.source and "RMS" in p.source


def test_grid_recovers_parallelism():
    sc, pts = model_points(8)
    obs = [Observation("lab", "latency_at_iops", value=y, iops=x, host_side=True) for x, y in pts]
    res = fit_profile([spec()], {"lab": sc}, obs, BASE, server_grid=(2, 4, 8, 16), source="test")
    assert res.profiles[0][1].servers_per_node == 8


def test_fit_from_csv(tmp_path):
    # a long ramp that loads the CPU, so CPU cost and fixed latency are both identifiable
    cat = with_profiles(BASE, [("netapp-aff-a800", truth(48).model_copy(update={"cpu_read_us": 60.0,
                                                                             "cpu_write_us": 120.0}))])
    sc = seeds.a800("9.5", "NVMe/FC", users=450)
    r = run_ramps({"lab": sc}, cat)["lab"]
    pts = [(float(r.iops[i]), float(r.host_ms[i])) for i in (0, 50, 150, 300, 449)]
    path = tmp_path / "lab.csv"
    path.write_text("iops,latency_ms\n" + "".join(f"{x},{y}\n" for x, y in pts), encoding="utf-8")
    assert read_points_csv(path)[0][0] == pytest.approx(pts[0][0])
    p = fit_from_csv(path, sc, BASE, host_side=True, fit_servers=False)
    assert p.protocol == "NVMe/FC" and p.servers_per_node == 48
    assert p.cpu_read_us == pytest.approx(60.0, rel=0.05)
    assert p.fixed_latency_us == pytest.approx(15.0, rel=0.2, abs=3.0)
    assert "lab.csv" in p.source


def test_a_lab_csv_of_thousands_of_points_fits_and_its_source_counts_the_rest(tmp_path):
    """2,000 rows (the lab file takes up to 10,000): every point used to fail validation of the profile's source
    text (each point was listed: over the 20,000-character limit); now 40 are named and the rest counted."""
    from models.calibration.fit import MAX_LISTED_POINTS

    sc = seeds.a800("9.5", "NVMe/FC", users=450)
    r = run_ramps({"lab": sc}, BASE)["lab"]
    idx = [round(i * (len(r.iops) - 1) / 1999) for i in range(2000)]
    path = tmp_path / "lab-2000.csv"
    path.write_text("iops,latency_ms\n" + "".join(f"{r.iops[i]},{r.host_ms[i]}\n" for i in idx), encoding="utf-8")
    p = fit_from_csv(path, sc, BASE, host_side=True, fit_servers=False)
    source = p.sources["cpu_read_us"]
    assert "to 2,000 points" in source and f"and {2000 - MAX_LISTED_POINTS:,} more" in source
    assert source.count("@") == MAX_LISTED_POINTS and len(source) < 2_000


def test_bad_csv(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("iops,lat\n1,2\n", encoding="utf-8")
    with pytest.raises(CalibrationError):
        read_points_csv(bad)
    bad.write_text("iops,latency_ms\n1,-2\n", encoding="utf-8")
    with pytest.raises(CalibrationError):
        read_points_csv(bad)
    with pytest.raises(CalibrationError):
        fit_profile([spec(8)], {}, [], BASE)


def test_one_parameter_set_per_system_software_protocol():
    seen = set()
    for rec in BASE:
        if isinstance(rec, (Controller, CloudVm)):
            for p in rec.performance:
                key = (rec.id, p.software, p.protocol)
                assert key not in seen
                seen.add(key)
                assert p.source
    expected = {("netapp-aff8080a-ex", "9.0", "FCP"), ("netapp-aff8080a-ex", "8.3.1", "FCP"),
                ("netapp-aff-a800", "9.5", "FCP"), ("netapp-aff-a800", "9.5", "NVMe/FC"),
                ("netapp-aff-a800", "9.4", "FCP"), ("azure-standard-ds14-v2", "9.5", "iSCSI"),
                ("azure-standard-ds4-v2", "9.5", "iSCSI"), ("azure-standard-ds3-v2", "9.5", "iSCSI")}
    assert expected <= seen


def test_write_profiles_text_roundtrip():
    text = (catalog_dir() / "controllers.toml").read_text(encoding="utf-8")
    p = truth(12)
    once = write_profiles(text, "controller", {"netapp-ef550": [p]})
    twice = write_profiles(once, "controller", {"netapp-ef550": [p]})
    assert once == twice
    entries = {e.id: e for e in entries_from_toml_text(once, "test")}
    assert entries["netapp-ef550"].performance == [p] or entries["netapp-ef550"].performance[-1].servers_per_node == 12
    assert entries["netapp-aff-a800"] == {e.id: e for e in entries_from_toml_text(text, "t")}["netapp-aff-a800"]


# ------------------------------------------------------------------------------------------------ pooled CVO fit

CVO_IDS = ("azure-standard-ds14-v2", "azure-standard-ds4-v2", "azure-standard-ds3-v2")


def cvo_truth() -> PerfProfile:
    return PerfProfile(software="9.5", protocol="iSCSI", cpu_read_us=160.0, cpu_write_us=240.0, cpu_per_kib_us=20.0,
                       cpu_write_per_kib_us=30.0, sequential_cpu_factor=0.5, servers_per_node=4,
                       fixed_latency_us=500.0, sources={k: "assumed: test truth" for k in
                                                        (*FIELDS, "cpu_write_per_kib_us", "sequential_cpu_factor")})


def test_cpu_demand_is_per_kib_by_direction_and_pattern():
    """cpu_demand_us from the PerfProfile field definitions, computed by hand: base + per-KiB beyond 8 (a write's
    own per-KiB when set), times the sequential factor for the sequential share."""
    from models.performance.paths import cpu_demand_us

    p = cvo_truth()
    assert cpu_demand_us(p, 8, False) == pytest.approx(160.0)
    assert cpu_demand_us(p, 16, False) == pytest.approx(160.0 + 8 * 20.0)
    assert cpu_demand_us(p, 64, True) == pytest.approx(240.0 + 56 * 30.0)
    assert cpu_demand_us(p, 64, False, random_fraction=0.0) == pytest.approx(0.5 * (160.0 + 56 * 20.0))
    assert cpu_demand_us(p, 16, True, random_fraction=0.25) == pytest.approx((0.25 + 0.75 * 0.5) * (240.0 + 8 * 30.0))
    plain = truth(8)  # no write per-KiB, no sequential factor: the former formula
    assert cpu_demand_us(plain, 64, True, random_fraction=0.0) == pytest.approx(40.0 + 56 * 0.5)


def test_shared_fit_recovers_one_parameter_set_over_vm_sizes():
    """A pooled fit over the three seed 004 VM sizes, on points the model itself computed with one known profile
    (servers = min(4, vCPUs)): every VM gets the same fitted values back, and servers 4 (the DS3_v2 has 4 vCPUs)."""
    truth_cat = with_profiles(BASE, [(rid, cvo_truth()) for rid in CVO_IDS])
    scen, obs = {}, []
    for rid in CVO_IDS:
        for workload in ("oltp", "stream-read"):
            key = f"{rid} {workload}"
            scen[key] = seeds.cvo(rid, False, workload, concurrency=64)
    ramps = run_ramps(scen, truth_cat)
    for key, r in ramps.items():
        obs.append(Observation(key, "peak_iops", value=float(r.iops[-1])))
        obs.append(Observation(key, "peak_latency", value=float(r.host_ms[-1]), host_side=True))
    specs = [ProfileSpec(rid, "9.5", "iSCSI", ("cpu_per_kib_us", "fixed_latency_us"),
                         x0={"cpu_per_kib_us": 10.0, "fixed_latency_us": 100.0},
                         fixed={"sequential_cpu_factor": 0.5}, write_ratio=1.5, per_kib_only=True,
                         max_servers=BASE.get(rid, CloudVm).vcpu,
                         bounds={"cpu_per_kib_us": (0.1, 1e3), "fixed_latency_us": (0.0, 1e4)}) for rid in CVO_IDS]
    res = fit_profile(specs, scen, obs, BASE, server_grid=(1, 2, 4, 8, 16), shared=True, source="test")
    got = dict(res.profiles)
    assert set(got) == set(CVO_IDS)
    for rid, p in got.items():
        assert p.cpu_per_kib_us == pytest.approx(20.0, rel=0.03)
        assert p.cpu_read_us == pytest.approx(8 * p.cpu_per_kib_us)
        assert p.cpu_write_per_kib_us == pytest.approx(1.5 * p.cpu_per_kib_us)
        assert p.cpu_write_us == pytest.approx(8 * p.cpu_write_per_kib_us)
        assert p.sequential_cpu_factor == 0.5
        assert p.servers_per_node == min(4, BASE.get(rid, CloudVm).vcpu)


def test_shared_fit_needs_the_same_fields():
    a = ProfileSpec(CVO_IDS[0], "9.5", "iSCSI", ("cpu_read_us",), x0={"cpu_read_us": 1.0})
    b = ProfileSpec(CVO_IDS[1], "9.5", "iSCSI", ("fixed_latency_us",), x0={"fixed_latency_us": 1.0})
    with pytest.raises(CalibrationError, match="same fields"):
        fit_profile([a, b], {}, [Observation("x", "peak_iops", value=1.0)], BASE, shared=True)


def test_cvo_catalog_profiles_are_one_pooled_set():
    """The bundled CVO 9.5 iSCSI profiles: one parameter set on the three seed 004 VM sizes (catalog structure, not
    fitted numbers): equal CPU fields, a cost per KiB (8 KiB read = 8 x per-KiB), servers = min(shared, vCPUs),
    provenance naming the pooled fit."""
    profiles = {rid: next(p for p in BASE.get(rid, CloudVm).performance if (p.software, p.protocol) == ("9.5", "iSCSI"))
                for rid in CVO_IDS}
    keys = ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us", "cpu_write_per_kib_us", "fixed_latency_us",
            "sequential_cpu_factor")
    first = profiles[CVO_IDS[0]]
    shared = first.servers_per_node
    for rid, p in profiles.items():
        assert all(getattr(p, k) == getattr(first, k) for k in keys)
        assert p.cpu_read_us == pytest.approx(8 * p.cpu_per_kib_us, rel=1e-3)
        assert p.servers_per_node == min(shared, BASE.get(rid, CloudVm).vcpu)
        assert "pooled fit" in p.source and p.kind_of("sequential_cpu_factor") == "calibrated"
