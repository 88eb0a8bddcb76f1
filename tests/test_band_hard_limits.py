"""Bands stop at hard limits, and a derived profile respects its platform's published "up to" peak.

A band describes the uncertainty of the model's soft parts (CPU costs, latencies, the model's measured error); a
port's bandwidth, a published VM / disk / service cap or a vendor's "up to" figure is not uncertain, so no P90 edge
passes it. Every bound below is computed by hand from the example's configuration and the catalog's numbers.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.catalog import Controller, bundled_catalog
from models.evaluate import evaluate
from models.performance.bands import Band, hard_limit, hard_limit_note, held_at_hard_limit
from models.performance.profiles import profile_basis
from models.resources import examples_dir
from models.store import load_any

A90_PEAK = 2_400_000.0
"""NetApp NVA-1173, 'NetApp AIPod with NVIDIA DGX Systems - Hardware Components': AFF A90 'up to 2.4M IOPS per HA
pair'."""


def _workloads(example: str, only: str | None = None):
    project = load_any(examples_dir() / example)
    if only is not None:
        scenario = project.scenario
        workloads = [w.model_copy(update={"enabled": w.id == only}) for w in scenario.workloads]
        project = project.with_scenario(scenario.model_copy(update={"workloads": workloads}))
    return {wp.workload_id: wp for wp in evaluate(project, project.active_scenario).performance.workloads}


def test_held_at_hard_limit_lowers_only_an_upper_edge_above_the_limit():
    held = held_at_hard_limit(Band(1_000.0, 9_000.0), 5_000.0, "host ports")
    assert (held.p10, held.p90) == (1_000.0, 5_000.0)
    assert held.limit == "host ports at 5,000 IOPS"
    below = Band(1_000.0, 4_000.0)
    assert held_at_hard_limit(below, 5_000.0, "host ports") is below
    assert held_at_hard_limit(Band(1_000.0, None), 5_000.0, "x").p90 is None
    assert held_at_hard_limit(below, math.inf, "x") is below
    assert "upper end held at the hard limit of host ports at 5,000 IOPS" in hard_limit_note(held, below)
    assert hard_limit_note(below) == ""


def test_hard_limit_counts_ports_networks_and_service_caps_but_not_cpu_drives_or_disk_caps():
    class Ident:
        def __init__(self, role: str) -> None:
            self.role = role

    class Spec:
        def __init__(self, kind: str, delay: bool = False, role: str = "") -> None:
            self.kind, self.delay, self.ident = kind, delay, Ident(role)

    stations = [Spec("cpu"), Spec("drive"), Spec("port"), Spec("disk", role="service_iops"), Spec("delay", True),
                Spec("nvram"), Spec("disk", role="disk_iops"), Spec("backend")]
    capacity = np.array([96.0, 24.0, 10.0, 1.0, 1.0, 2.0, 1.0, 8.0])
    demand = np.array([40e-6, 100e-6, 2.56e-6, 50e-6, 1e-3, 1e-6, 1e-4, 1e-4])  # seconds per I/O
    # CPU 2.4M, drives 240K, ports 3.906M, the service's IOPS cap 20K; the delay, the assumed NVRAM mirror, a cloud
    # disk's cap behind the VM (10K) and a back-end link (80K) do not count: their demand per I/O is the model's
    value, index = hard_limit(stations, capacity, demand)
    assert index == 3 and value == pytest.approx(1.0 / 50e-6)
    value, index = hard_limit(stations[:3], capacity[:3], demand[:3])
    assert index == 2 and value == pytest.approx(10.0 / 2.56e-6)
    assert hard_limit(stations[:2], capacity[:2], demand[:2]) == (math.inf, None)
    assert hard_limit(stations[6:], capacity[6:], demand[6:]) == (math.inf, None)


def test_a90_keeps_the_claim_ratio_on_every_protocol_and_carries_the_published_peak_as_a_cap():
    """The A90's CPU time per operation is the A800's / 1.09 on NVMe/FC as on FCP; the published 'up to 2.4M' is
    its ``peak_iops``, a rate cap beside the CPU (the A800's NVMe/FC read / 1.09 would serve 6.7M reads on 96
    cores, so the cap is what binds small reads)."""
    catalog = bundled_catalog()
    a90 = catalog.get("netapp-aff-a90", Controller)
    a800 = catalog.get("netapp-aff-a800", Controller)
    assert a90.peak_iops == A90_PEAK and a90.profile_from is not None and a90.profile_from.ratio == 1.09
    cores = a90.nodes * 48  # 2 nodes x the A800 profile's 48 servers per node
    for p in a800.performance:
        if (p.software, p.protocol) == ("9.5", "NVMe/FC"):
            assert cores / (p.cpu_read_us / 1.09 * 1e-6) > A90_PEAK
        if (p.software, p.protocol) == ("9.5", "FCP"):
            assert cores / (p.cpu_read_us / 1.09 * 1e-6) < A90_PEAK
    basis = profile_basis(a90, None, "NVMe/FC", catalog)
    assert basis.ratio == 1.09
    assert "capped at NetApp's published 'up to' figure of 2,400,000 IOPS" in basis.reason
    assert "ai-aipod-nv-hw.html" in basis.reason
    assert profile_basis(a90, None, "FCP", catalog).ratio == 1.09


def test_a90_example_respects_the_published_peak_and_its_host_ports():
    wp = _workloads("aff-a90-oracle-nvmefc64.toml")["slob"]
    ports = 10 * 3_200e6 / 8_192  # ten 32Gb host ports at 3,200 MB/s, 8 KiB reads: 3,906,250 IOPS
    # 100% 8 KiB random reads: the published peak caps the CPU's 6.7M reads
    assert wp.saturation_iops == pytest.approx(A90_PEAK, rel=1e-6)
    assert wp.max_iops_at_slo is not None and wp.max_iops_at_slo < A90_PEAK
    for high in (wp.saturation_iops_band_p90, wp.max_iops_at_slo_band_p90):
        assert high is not None and high <= min(A90_PEAK, ports) * (1 + 1e-9)
    assert "published 'up to' figure at 2,400,000 IOPS" in wp.band_basis


def test_a800_nvmefc_band_stops_at_its_successors_published_figure_below_its_target_ports():
    """The A800 is held at ONTAP's rate per core, the AFF A90's 'up to 2.4M IOPS per HA pair' over its 96 cores, on
    its own 96 cores: its band stops at 2.4M, under its 8 x 32Gb target ports' 3,125,000 8 KiB reads."""
    wp = _workloads("a800-oracle-slob-nvmefc.toml")["slob"]
    ports = 8 * 3_200e6 / 8_192  # 4 x 32Gb target ports per node, 2 nodes, 8 KiB reads: 3,125,000 IOPS
    assert A90_PEAK < ports
    assert wp.saturation_iops_band_p90 == pytest.approx(A90_PEAK)
    assert wp.max_iops_at_slo_band_p90 is not None and wp.max_iops_at_slo_band_p90 <= A90_PEAK * (1 + 1e-9)
    assert "25,000 block operations per second per core on its 96 cores" in wp.band_basis
    assert "NetApp AFF A90 HA pair over its 96 cores" in wp.band_basis and "at 2,400,000 IOPS" in wp.band_basis


def test_anf_band_stops_at_the_volume_throughput_limit():
    wp = _workloads("anf-premium-oracle-nfs.toml", only="oltp")["oltp"]
    # Premium service level, 64 MiB/s per TiB of a 4 TiB quota: 256 MiB/s; 8 KiB I/Os: 32,768 per second
    limit = 256 * 2**20 / 8_192
    assert wp.saturation_iops == pytest.approx(limit, rel=1e-6)
    for high in (wp.saturation_iops_band_p90, wp.max_iops_at_slo_band_p90):
        assert high is not None and high <= limit * (1 + 1e-9)
    assert "throughput limit" in wp.band_basis and "held at the hard limit" in wp.band_basis


def test_cvo_band_is_not_held_at_disk_caps_behind_ontap_but_at_the_vm_network():
    wp = _workloads("cvo-aws-m5-4xlarge-ha-oltp.toml", only="oltp")["oltp"]
    # The m5.4xlarge's 5,000 Mbit/s: reads of 8 KiB once, writes twice (HA mirror); 70% reads
    network = 5_000e6 / 8 / (8_192 * (0.7 + 2 * 0.3))
    assert wp.saturation_iops_band_p90 is not None and wp.saturation_iops_band_p90 <= network
    # the EBS caps count disk operations, whose number per I/O (cache hits, coalescing) is the model's: not held
    assert "held at the hard limit" not in wp.band_basis
