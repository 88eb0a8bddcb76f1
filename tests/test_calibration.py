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
