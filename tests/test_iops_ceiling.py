"""NVMe/FC ranks platforms the way NetApp does: a published "up to" IOPS figure is a rate cap beside the CPU (the
controller's ``peak_iops`` and :func:`models.performance.hardware_relation.iops_ceiling`), not a longer CPU time per
operation, and the hardware relation compares NVMe capacities with NVMe capacities.

Why (issue "Performance that ranks platforms the way the hardware does", its platform ladders): NetApp's AFF A90 is
'up to 2.4M IOPS per HA pair' (NetApp NVA-1173, 'NetApp AIPod with NVIDIA DGX Systems - Hardware Components', AFF A90
storage systems, https://docs.netapp.com/us-en/netapp-solutions-ai/infra/ai-aipod-nv-hw.html). Held there by its CPU
time per read (96 cores / 2.4M = 40 us) the A90 could not serve what the AFF A800 it replaces served on the same 96
cores (2.2M NVMe/FC reads at 0.14 ms, NetApp's "NetApp AFF A800 Performance with Oracle Database" §4), because every
ONTAP core queues its own work; the A800 -> A90, A800 -> A70, A90 -> A1K and C800 -> C80 NVMe/FC ladder steps
failed."""

from __future__ import annotations

import pytest

from models.calibration.fit import run_ramps
from models.catalog import Controller, bundled_catalog
from models.performance import seeds
from models.performance.engine import saturation_iops
from models.performance.hardware_relation import (
    RELATION_CLASSES,
    base_profile,
    iops_ceiling,
    per_core_ceiling,
    pooled_field,
)
from models.performance.paths import build_path
from models.performance.per_core import per_core_value
from models.performance.profiles import controller_profile
from models.validation.ladders import check_step, load_ladders

CAT = bundled_catalog()
PEAK = 2_400_000.0  # NetApp NVA-1173: the AFF A90 'up to 2.4M IOPS per HA pair'


def _get(cid: str) -> Controller:
    return CAT.get(cid, Controller)


def _check(smaller: str, larger: str, protocol: str):
    ladders = load_ladders(CAT)
    step = next(s for s in ladders.steps if (s.smaller, s.larger) == (smaller, larger))
    return check_step(step, ladders, CAT, "oltp", protocol)


def _a800_own(protocol: str):
    return next(p for p in _get("netapp-aff-a800").performance if (p.software, p.protocol) == ("9.5", protocol))


@pytest.mark.parametrize("smaller,larger", [("netapp-aff-a800", "netapp-aff-a90"), ("netapp-aff-a90", "netapp-aff-a1k"),
                                            ("netapp-aff-c800", "netapp-aff-c80")])
def test_the_nvme_fc_steps_hold(smaller, larger):
    check = _check(smaller, larger, "NVMe/FC")
    assert check.protocol == "NVMe/FC"
    assert check.larger.saturation >= check.smaller.saturation
    assert check.larger.light_ms <= check.smaller.light_ms * 1.10
    assert check.holds, check.why


def test_the_a70_is_held_on_its_own_cores_not_lifted_to_the_flagship():
    """The A800 -> A70 upgrade path raises the A70 to the A800's capacity on FCP (its CPU), but on NVMe/FC the A70
    is held at the rate per core on its own 64 cores (1.6M), below the A800's and the A90's 2.4M on 96 cores: the
    A800's bound does not lift it to a tie with the A90 (the NVMe/FC check fails on saturation; it failed already on
    the light-load latency of its smaller memory, as on FCP)."""
    nvme = _check("netapp-aff-a800", "netapp-aff-a70", "NVMe/FC")
    fcp = _check("netapp-aff-a800", "netapp-aff-a70", "FCP")
    assert nvme.larger.saturation == pytest.approx(2 * 32 * PEAK / 96, rel=1e-9)
    assert nvme.smaller.saturation == pytest.approx(PEAK, rel=1e-9)
    assert "saturation" in nvme.why and "light-load latency" in fcp.why
    assert fcp.larger.saturation >= fcp.smaller.saturation
    a90 = _check("netapp-aff-a70", "netapp-aff-a90", "NVMe/FC")
    assert a90.holds and a90.larger.saturation > 1.4 * a90.smaller.saturation


def test_the_a90_keeps_the_claim_ratio_on_nvme_and_is_capped_at_the_figure():
    """Every protocol's CPU time per operation is the A800's divided by 1.09 (2.4M / 2.2M); the 2.4M is a cap: the
    A90's CPU alone would serve 96 / (15.6 us / 1.09) = 6.7M reads, and its ladder saturation is exactly 2.4M."""
    a90 = _get("netapp-aff-a90")
    assert a90.peak_iops == PEAK and a90.profile_from is not None
    assert "up to 2.4M IOPS per HA pair" in a90.cited("peak_iops") and "ai-aipod-nv-hw.html" in a90.cited("peak_iops")
    for protocol in ("NVMe/FC", "FCP"):
        profile, note = controller_profile(a90, CAT, a90.default_software, protocol)
        own = _a800_own(protocol)
        assert profile is not None and profile.cpu_read_us == pytest.approx(own.cpu_read_us / 1.09, rel=1e-9)
        assert "capped at NetApp's published 'up to' figure of 2,400,000 IOPS" in note
    nvme = _a800_own("NVMe/FC")
    assert 96 / (nvme.cpu_read_us / 1.09) * 1e6 > 2 * PEAK
    check = _check("netapp-aff-a800", "netapp-aff-a90", "NVMe/FC")
    assert check.larger.saturation == pytest.approx(PEAK, rel=1e-9)
    assert check.smaller.saturation == pytest.approx(PEAK, rel=1e-9)


def test_one_rate_per_core_bounds_every_ontap_controller_on_its_own_cores():
    """The A90's own figure bounds the A90; every other ONTAP controller, calibrated (the A800), derived (the C800)
    or on the relation (the A70, A1K, ASA A90), is bounded by the same 25,000 per core on its own cores, whatever
    the ordering does to its CPU servers; E-Series (no published figure of its family) has no bound."""
    a90 = iops_ceiling(_get("netapp-aff-a90"), CAT)
    assert a90 is not None and a90.value == PEAK and "AFF A90 HA pair's bound from NetApp's published" in a90.words
    for cid in ("netapp-aff-a800", "netapp-aff-c800", "netapp-aff-a70", "netapp-aff-a1k", "netapp-asa-a90",
                "netapp-aff-a20", "netapp-aff-c80", "netapp-aff-a700"):
        record = _get(cid)
        ceiling = iops_ceiling(record, CAT)
        assert ceiling is not None and ceiling.value == pytest.approx(record.nodes * record.cores_per_node * PEAK / 96)
        assert "25,000 block operations per second per core on its" in ceiling.words
        assert "NetApp AFF A90 HA pair over its 96 cores" in ceiling.words, cid
    assert _get("netapp-aff-c800").peak_iops is None  # no figure NetApp publishes for it
    assert iops_ceiling(_get("netapp-ef550"), CAT) is None
    # its cores are not published
    assert "(an assumed count: not published)" in iops_ceiling(_get("netapp-aff-a70"), CAT).words


def test_the_ceiling_is_a_rate_cap_beside_the_cpu_on_block_protocols_only():
    """On the A800's published SLOB design: one station per node whose demand per operation is 1 / 2.4M s (so the
    two together serve at most 2.4M operations per second, whatever the block size), the CPU's demand the profile's
    own; an NFS path has none."""
    scenario = seeds.a800("9.5", "NVMe/FC")
    path = build_path(scenario, CAT, scenario.workloads[0])
    caps = [s for s in path.stations if s.ident.role == "iops_bound"]
    assert len(caps) == 2
    for station in caps:
        assert station.read_s == pytest.approx(1 / PEAK, rel=1e-12)
        assert station.write_s == pytest.approx(1 / PEAK, rel=1e-12)
    cpu = [s for s in path.stations if s.ident.role == "cpu"]
    assert cpu[0].read_s == pytest.approx(_a800_own("NVMe/FC").cpu_read_us * 1e-6 / 2, rel=1e-12)
    assert saturation_iops(path.stations, 1.0)[0] <= PEAK * (1 + 1e-9)
    assert any("at most 2,400,000 block operations per second" in n for n in path.notes)


def test_the_a800s_published_nvme_point_is_still_reproduced_under_the_cap():
    """NetApp's A800 report §4: 2,200K IOPS at 0.14 ms (host side) at the end of the 450-user SLOB ramp; the cap at
    2.4M queues a little at 92% of it (a deterministic rate), the fit absorbs it: within the case's tolerances
    (10% on IOPS, 25% on latency)."""
    ramp = run_ramps({"n": seeds.a800("9.5", "NVMe/FC")}, CAT)["n"]
    assert float(ramp.iops[-1]) == pytest.approx(2_200_000, rel=0.10)
    assert float(ramp.host_ms[-1]) == pytest.approx(0.14, rel=0.25)


def test_nvme_is_its_own_ordering_class_and_takes_the_nvme_fit_per_core():
    """The relation's NVMe/FC CPU time per read of one core is the A800's NVMe/FC fit's (the one NVMe measurement),
    not FCP's: the A1K's base NVMe/FC profile runs it on its own cores."""
    assert RELATION_CLASSES["NVMe/FC"] == "NVMe/FC" and RELATION_CLASSES["NVMe/TCP"] == "NVMe/FC"
    assert RELATION_CLASSES["FCP"] == "FCP" and RELATION_CLASSES["iSCSI"] == "FCP"
    a1k = _get("netapp-aff-a1k")
    base = base_profile(a1k, CAT, a1k.default_software, "NVMe/FC")
    assert base is not None
    a800 = _get("netapp-aff-a800")
    nvme = per_core_value(_a800_own("NVMe/FC"), a800.cores_per_node, "cpu_read_us")
    fcp = per_core_value(_a800_own("FCP"), a800.cores_per_node, "cpu_read_us")
    pooled = pooled_field(CAT, "ONTAP", ("NVMe/FC",), "cpu_read_us", a1k.default_software)
    assert pooled is not None and [c[0] for c in pooled.contributors] == ["NetApp AFF A800 HA pair"]
    assert base.cpu_read_us == pytest.approx(nvme, rel=1e-9) and base.cpu_read_us < fcp / 2
    assert base.servers_per_node == a1k.cores_per_node


def test_a_relation_platforms_block_rate_is_held_at_the_published_figure_per_core():
    """The AFF A90's 2.4M on 2 x 48 cores is 25,000 block operations per second per core: on the NVMe/FC ladder the
    AFF A20 (2 x 12 cores) saturates at 600,000, the A30 (2 x 16) at 800,000, the A50 (2 x 24) at 1.2M, the A70
    (2 x 32) at 1.6M, each below its CPU (the A800's NVMe/FC time per operation) and in the order of their cores; the
    same rate per core for all (the A70 was at 37,500 per core when its cap rose with the bound that raised it);
    FCP, whose CPU time per operation is longer, is not held by it."""
    rate = per_core_ceiling(CAT, "ONTAP")
    assert rate is not None and rate[0] == pytest.approx(PEAK / 96) and "NetApp AFF A90 HA pair" in rate[1]
    steps = [("netapp-aff-a20", "netapp-aff-a30"), ("netapp-aff-a30", "netapp-aff-a50"),
             ("netapp-aff-a50", "netapp-aff-a70")]
    seen = {}
    for smaller, larger in steps:
        check = _check(smaller, larger, "NVMe/FC")
        seen[smaller], seen[larger] = check.smaller.saturation, check.larger.saturation
        fcp = _check(smaller, larger, "FCP")
        assert fcp.smaller.saturation < check.smaller.saturation
    for cid, value in seen.items():
        record = _get(cid)
        assert value == pytest.approx(record.nodes * record.cores_per_node * rate[0], rel=1e-9), cid
    assert seen["netapp-aff-a20"] < seen["netapp-aff-a30"] < seen["netapp-aff-a50"] < seen["netapp-aff-a70"]


@pytest.mark.parametrize("asa,aff", [("netapp-asa-a20", "netapp-aff-a20"), ("netapp-asa-a30", "netapp-aff-a30"),
                                     ("netapp-asa-a50", "netapp-aff-a50"), ("netapp-asa-a70", "netapp-aff-a70"),
                                     ("netapp-asa-a90", "netapp-aff-a90"), ("netapp-asa-a1k", "netapp-aff-a1k")])
@pytest.mark.parametrize("protocol", ["FCP", "NVMe/FC"])
def test_an_asa_is_never_above_its_aff_twin(asa, aff, protocol):
    """An ASA A-series system is its AFF A-series twin's controller (the same key specifications; no public figure
    says the ASA is faster): on the same design its saturation is not above the AFF's. The ASA A90 was 2.45M on
    NVMe/FC against the AFF A90's published 2.4M when its cap rose with the 98 CPU servers its bound rounded to."""
    ladders = load_ladders(CAT)
    setup = ladders.setups["aff-tlc"]
    from models.catalog import Drive
    from models.validation.ladders import _front_end, _shelf_for, evaluate_point, ladder_scenario, ladder_workloads

    records = (_get(asa), _get(aff))
    drive = CAT.get(setup.drive, Drive)
    shelves = _shelf_for(records, drive, setup.drive_count, CAT)
    link, ports = _front_end(records, protocol, CAT)
    asa_point, aff_point = (evaluate_point(ladder_scenario(r, s, drive, setup.drive_count, link, ports,
                                                           ladder_workloads()["oltp"], CAT), CAT)
                            for r, s in zip(records, shelves))
    assert asa_point.saturation <= aff_point.saturation * (1 + 1e-9)
