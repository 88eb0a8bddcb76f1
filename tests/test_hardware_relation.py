"""The hardware relation (models.performance.hardware_relation): a controller with no profile of its own for a
protocol runs on its family's calibrated software costs per core, bounded by NetApp's published ordering; its
evidence table; the leave-one-platform-out line."""

from __future__ import annotations

import statistics

import pytest

from models.catalog import Controller, bundled_catalog
from models.performance.bands import profile_uncertainty
from models.performance.discrepancy import stored_table
from models.performance.evidence import platform_evidence
from models.performance.hardware_relation import (
    HARDWARE_RELATION,
    base_profile,
    capacity,
    hardware_relation_profile,
    nearest_release,
    ordering_steps,
    release_key,
)
from models.performance.profiles import controller_profile, own_profile, profile_basis
from models.present.catalog_browser import record_details
from models.validation.ladders import run_ladders

CAT = bundled_catalog()


def _get(cid: str) -> Controller:
    return CAT.get(cid, Controller)


def _profile(cid: str, protocol: str):
    record = _get(cid)
    profile, _ = controller_profile(record, CAT, record.default_software, protocol)
    return profile


def test_the_kind_is_a_stable_string_with_the_widest_band():
    assert HARDWARE_RELATION == "hardware relation only"
    profile = _profile("netapp-aff-a20", "FCP")
    u = profile_uncertainty(profile, HARDWARE_RELATION, 8.0, 0.7)
    # nothing of the profile is fitted: no parameter spread; its band is the model error measured on the
    # platforms left out (the discrepancy table's kind), wider than a calibrated profile's
    assert u.cpu_rel_sd == 0.0 and u.fixed_rel_sd == 0.0 and u.profile == HARDWARE_RELATION
    table = stored_table()
    assert HARDWARE_RELATION in table.kinds
    assert table.sigma(HARDWARE_RELATION, "CPU") > table.sigma("calibrated", "CPU") > 0


def test_releases_are_ordered_and_the_nearest_is_the_newest_not_newer():
    assert release_key("9.16.1") == (9, 16, 1) and release_key("SANtricity 11.90") == (11, 90)
    releases = {(9, 0), (9, 4), (9, 5)}
    assert nearest_release(releases, (9, 16, 1)) == (9, 5)
    assert nearest_release(releases, (8, 3, 1)) == (9, 0)
    with pytest.raises(ValueError):
        nearest_release(set(), (9,))


def test_a_current_platform_runs_the_a800s_per_core_cost_on_its_own_cores():
    """9.16.1 is nearest the A800's 9.5 FCP fit: one core's time per operation is its demand x cores / servers."""
    a800 = _get("netapp-aff-a800")
    fit = next(p for p in a800.performance if (p.software, p.protocol) == ("9.5", "FCP"))
    per_core = fit.cpu_read_us * a800.cores_per_node / fit.servers_per_node
    a20 = _get("netapp-aff-a20")
    profile = _profile("netapp-aff-a20", "FCP")
    assert profile.cpu_read_us == pytest.approx(per_core)
    assert profile.servers_per_node == a20.cores_per_node
    assert profile.fixed_latency_us == pytest.approx(fit.fixed_latency_us)
    assert profile_basis(a20, None, "FCP", CAT).kind == HARDWARE_RELATION


def test_nvme_takes_the_nvme_fits_cost_and_the_per_core_claim_holds_a_small_model():
    """NVMe/FC takes the A800's NVMe/FC CPU time of one core (the one NVMe measurement; ONTAP's software cost, the
    same on every platform), on the platform's cores; that time is no capacity (the A800's test ended at its users),
    so the rate is held at the AFF A90's published figure per core (2.4M / 96 cores = 25,000) on the platform's own
    cores: the 12-core AFF A20 serves 2 x 12 x 25,000 = 600,000 on NVMe/FC, more than on FCP, below every larger
    A-series model."""
    from models.performance.hardware_relation import iops_ceiling, per_core_ceiling

    rate = per_core_ceiling(CAT, "ONTAP")
    assert rate is not None and rate[0] == pytest.approx(2_400_000 / 96)
    a20_record = _get("netapp-aff-a20")
    profile = _profile("netapp-aff-a20", "NVMe/FC")
    a800 = next(p for p in _get("netapp-aff-a800").performance if (p.software, p.protocol) == ("9.5", "NVMe/FC"))
    mean = 0.7 * a800.cpu_read_us + 0.3 * a800.cpu_write_us  # per core: the A800's 48 servers are its 48 cores
    assert capacity(profile, 2) == pytest.approx(2 * a20_record.cores_per_node / mean * 1e6, rel=1e-9)
    ceiling = iops_ceiling(a20_record, CAT)
    assert ceiling is not None
    a20 = min(capacity(profile, 2), ceiling.value)
    assert a20 == pytest.approx(2 * a20_record.cores_per_node * 25_000)
    assert capacity(_profile("netapp-aff-a20", "FCP"), 2) < a20 < capacity(profile, 2)
    for larger in ("netapp-aff-a30", "netapp-aff-a50", "netapp-aff-a70", "netapp-aff-a1k"):
        bigger, held = _profile(larger, "NVMe/FC"), iops_ceiling(_get(larger), CAT)
        assert held is not None and min(capacity(bigger, 2), held.value) > a20, larger


def test_the_ordering_raises_a_successor_to_the_system_it_replaces():
    """The AFF A70 (32 cores) is documented as the A800's upgrade: on its cores alone it would be two thirds of the
    A800; the bound raises its parallelism to the A800's capacity and says so."""
    a70 = _get("netapp-aff-a70")
    base = base_profile(a70, CAT, a70.default_software, "FCP")
    bounded = _profile("netapp-aff-a70", "FCP")
    a800 = capacity(_profile("netapp-aff-a800", "FCP"), 2)
    assert capacity(base, 2) < a800 <= capacity(bounded, 2)
    assert bounded.cpu_read_us == base.cpu_read_us and bounded.servers_per_node > base.servers_per_node
    assert "NetApp AFF A800 HA pair's capacity" in bounded.source
    assert ("netapp-aff-a800", "netapp-aff-a70") in {(s, g) for s, g, _ in ordering_steps()}


def test_twins_share_their_bound():
    """The ASA A70 is the AFF A70's hardware (the same key specifications): it gets the same raise, though no
    ladder step ties the ASA to the A800; the AFF A30 and C60 have the same figures too."""
    from models.performance.hardware_relation import hardware_key

    assert hardware_key(_get("netapp-asa-a70")) == hardware_key(_get("netapp-aff-a70"))
    from models.performance.hardware_relation import iops_ceiling

    assert capacity(_profile("netapp-asa-a70", "FCP"), 2) == capacity(_profile("netapp-aff-a70", "FCP"), 2)
    held = []
    for cid in ("netapp-asa-a70", "netapp-aff-a70"):
        p, ceiling = _profile(cid, "NVMe/FC"), iops_ceiling(_get(cid), CAT)
        held.append(min(capacity(p, 2), ceiling.value if ceiling else 1e18))
    # NVMe/FC: the published figure per core on its own 64 cores; the raise past the A800 on FCP does not lift it
    assert held[0] == held[1] == 64 * 25_000
    assert _profile("netapp-asa-a70", "FCP").servers_per_node > _get("netapp-asa-a70").cores_per_node
    assert capacity(_profile("netapp-aff-c60", "FCP"), 2) == capacity(_profile("netapp-aff-a30", "FCP"), 2)


def test_family_and_successor_order_of_the_relation_on_the_ladder_protocols():
    """Within each ladder step whose two platforms both run on the relation, the larger's capacity is not below
    the smaller's, on FCP and on NFS."""
    checked = 0
    for small, large, _ in ordering_steps():
        for protocol in ("FCP", "NFS"):
            if not all(protocol in _get(c).protocols for c in (small, large)):
                continue
            ps, pl = _profile(small, protocol), _profile(large, protocol)
            if not all(p.source.startswith(HARDWARE_RELATION) for p in (ps, pl)):
                continue
            assert capacity(pl, _get(large).nodes) >= capacity(ps, _get(small).nodes), (small, large, protocol)
            checked += 1
    assert checked > 20


def test_the_ladders_hold_but_for_the_named_cache_cases():
    """At least 68 of the 71 FCP / NFS checks hold; what fails is the memory cache (the A70's and FAS70's 128 GiB per
    node miss to the SSDs / Flash Cache where the A700, A800 and FAS8700 read from memory). The A900 -> A90 NFS step
    holds since the two ramps share one fitted WAFL affinity hold time, and the A70 -> A90 NFS step since a raised
    platform's affinities are not rounded past the system ranked above it. On NVMe/FC (35 more checks, the same OLTP
    workload where both platforms speak it) the same three cache steps fail and nothing else: NVMe capacities are
    compared with NVMe capacities, the relation takes the NVMe fit's CPU cost, and the AFF A90's published 'up to
    2.4M' over its cores caps every ONTAP controller's rate per core instead of lengthening the A90's CPU time per
    read (the A800 -> A70 NVMe/FC check fails on saturation too: 2.4M on the A800's 96 cores against 1.6M on the
    A70's 64; the A70 is not lifted to a tie with the A90 by the A800's bound). Since Flash Cache keeps only blocks
    that were read (review 57: a write leaves the cached copy stale), the FAS8700 -> FAS70 NFS step fails on
    saturation too (-7.2%): the FAS70's half memory sends more reads to its HDDs (at least 67 of 71 hold)."""
    run = run_ladders(CAT)
    failing = {(c.step.smaller, c.step.larger, c.workload, c.protocol) for c in run.checks if not c.holds}
    # a subset: a better cache model or a refit may make more hold, never fewer
    assert failing <= {("netapp-aff-a700", "netapp-aff-a70", "oltp", "FCP"),
                       ("netapp-aff-a800", "netapp-aff-a70", "oltp", "FCP"),
                       ("netapp-fas8700", "netapp-fas70", "oltp", "FCP"),
                       ("netapp-aff-a700", "netapp-aff-a70", "oltp", "NVMe/FC"),
                       ("netapp-fas8700", "netapp-fas70", "oltp", "NVMe/FC"),
                       ("netapp-aff-a800", "netapp-aff-a70", "oltp", "NVMe/FC"),
                       ("netapp-fas8700", "netapp-fas70", "nfs", "NFS")}
    nvme = [c for c in run.checks if c.protocol == "NVMe/FC"]
    assert len(run.checks) - len(nvme) == 71 and run.holding - sum(c.holds for c in nvme) >= 67 and not run.errors
    assert len(nvme) == 35 and sum(c.holds for c in nvme) >= 32


def test_a_raised_platform_is_never_rounded_past_the_system_ranked_above_it():
    """Every platform the ordering raises (bound factor above 1), on FCP and on NFS: its capacity with the rounded
    parallelism is not above that of any system a ladder step ranks above it, and not below the base (no bound).
    The AFF A70 on NFS is raised to the A800's capacity, and its WAFL affinities rounded so that it stays at or
    below the A90 (48 affinities each, the same hold time); rounded up it had 49, 2% above the A90."""
    from models.performance.hardware_relation import ordering_bounds

    checked = 0
    for protocol in ("FCP", "NFS"):
        bounds = ordering_bounds(CAT, protocol, own_profile)
        for small, large, _ in ordering_steps():
            bound = bounds.get(small)
            if bound is None or bound.factor <= 1.0 or not all(protocol in _get(c).protocols for c in (small, large)):
                continue
            ps, pl = _profile(small, protocol), _profile(large, protocol)
            base = base_profile(_get(small), CAT, _get(small).default_software, protocol)
            assert capacity(ps, _get(small).nodes) <= capacity(pl, _get(large).nodes) * (1 + 1e-9), (small, large,
                                                                                                       protocol)
            assert capacity(ps, _get(small).nodes) >= capacity(base, _get(small).nodes)
            checked += 1
    assert checked >= 4
    a70, a90 = _profile("netapp-aff-a70", "NFS"), _profile("netapp-aff-a90", "NFS")
    assert a70.affinities_per_node <= a90.affinities_per_node and a70.affinity_hold_us == a90.affinity_hold_us
    assert "rounded down" in a70.provenance["affinities_per_node"].source


def test_e_series_pools_the_ef550s_assumed_costs_and_says_so():
    ef550 = _get("netapp-ef550")
    own = ef550.performance[0]
    profile = _profile("netapp-ef600", "FCP")
    assert profile.cpu_read_us == pytest.approx(own.cpu_read_us * ef550.cores_per_node / own.servers_per_node)
    assert profile.servers_per_node == _get("netapp-ef600").cores_per_node
    assert "assumed, none fitted" in profile.source


def test_a_record_of_another_family_or_a_cloud_vm_gets_no_relation():
    generic = _get("generic-spinning-fc-array-4x16")
    assert hardware_relation_profile(generic, CAT, "generic", "NFS", own_profile) is None


def test_the_evidence_table_names_each_kind():
    a90 = {r.protocol: r for r in platform_evidence(_get("netapp-aff-a90"), CAT)}
    assert a90["NFS"].kind == "benchmark ramp" and "SPECstorage" in a90["NFS"].evidence
    assert a90["FCP"].kind == "ratio claim" and "2.4M IOPS per HA pair" in a90["FCP"].evidence
    assert a90["iSCSI"].kind == "hardware relation only"
    a800 = {r.protocol: r for r in platform_evidence(_get("netapp-aff-a800"), CAT)}
    assert a800["FCP"].kind == "benchmark peak" and a800["FCP"].profile == "calibrated"
    a20 = platform_evidence(_get("netapp-aff-a20"), CAT)
    assert {r.kind for r in a20} == {"hardware relation only"}
    assert [r.protocol for r in a20] == [p for p in ("FCP", "NVMe/FC", "iSCSI", "NVMe/TCP", "NFS", "SMB")
                                         if p in _get("netapp-aff-a20").protocols]


def test_the_catalog_browser_lists_the_evidence_in_customer_words():
    rows = record_details(_get("netapp-ef550"), CAT)
    evidence = [r for r in rows if r[0].startswith("performance evidence")]
    assert evidence == [r for r in rows[-len(evidence):]] and evidence[0][:3] == (
        "performance evidence (FCP)", "assumed", "assumed")
    assert not any("003_" in r[3] or "seed 0" in r[3].lower() for r in evidence)
    assert "performance evidence (NFS)" in {r[0] for r in record_details(_get("netapp-aff-a90"), CAT)}
    assert not [r for r in record_details(_get("netapp-aff-a90")) if r[0].startswith("performance evidence")]


def test_the_cli_prints_the_evidence(capsys):
    from app.cli import main

    assert main(["catalog", "controller", "--evidence"]) == 0
    out = capsys.readouterr().out
    assert "NetApp AFF A20 HA pair (netapp-aff-a20, 9.16.1)" in out
    line = next(x for x in out.splitlines() if x.startswith("  NFS") and "SPECstorage" in x)
    assert "benchmark ramp" in line
    # one line per controller, after the line that says what the columns are
    assert out.splitlines()[0].startswith("Per controller")
    assert sum(1 for x in out.splitlines()[1:] if not x.startswith(" ")) == len(CAT.of_kind(Controller))


def test_leave_one_platform_out():
    from models.validation.platform_holdout import calibrated_platforms, holdout_line, platform_holdout, quantity_group

    assert quantity_group("saturation_ops_per_sec") == "saturation" and quantity_group("peak_iops") == "saturation"
    assert quantity_group("peak_iops_ratio_nvmefc_over_fcp") == "" and quantity_group("latency_ms_at_peak") == "latency"

    assert {r.id for r in calibrated_platforms(CAT)} == {"netapp-aff8080a-ex", "netapp-aff-a800", "netapp-aff-a90",
                                                        "netapp-aff-a900"}
    checks = platform_holdout(CAT)
    a800 = next(c for c in checks if c.case_id == "a800-slob-select-fcp" and c.quantity == "peak_iops")
    assert a800.in_sample == pytest.approx(1_300_000, rel=0.01) and a800.held_out != pytest.approx(a800.in_sample)
    sat = statistics.median(abs(c.error) for c in checks if c.group == "saturation")
    lat = statistics.median(abs(c.error) for c in checks if c.group == "latency")
    line = holdout_line(CAT)
    assert line.startswith("platforms left out (hardware relation from the others): 4 platforms; ")
    # the NFS ramps are one joint fit: a platform left out counts its own ramp only, and the other's profile is
    # refitted without it (the A90 alone: its hold time as fitted to its own ramp, 99.786 us, not the joint one)
    assert {c.case_id for c in checks if c.platform == "NetApp AFF A90 HA pair"} == {"specstorage2020-eda-a90-8node"}
    assert {c.case_id for c in checks if c.platform == "NetApp AFF A900 HA pair"} == {
        "specstorage2020-swbuild-a900-2node"}
    assert f"median error {sat:.1%}" in line and f"median error {lat:.1%}" in line


def test_a_platform_left_out_of_a_joint_fit_leaves_the_others_refitted_without_it():
    """The AFF A900 left out of the joint NFS ramp fit: the A90's profile is refitted to its own ramp alone and
    gives the values the A90's ramp fitted alone gave (hold time 99.786 us, cs^2 4.435, fixed latency 89.5 us, the
    calibration before the joint fit), not the joint hold time; the A900's ramp is the other platform's case."""
    from models.calibration.seed_profiles import NFS_RAMPS_STEP
    from models.validation.platform_holdout import joint_fits

    others, held = joint_fits(CAT, _get("netapp-aff-a900"))
    assert others == {"specstorage2020-eda-a90-8node"}
    assert not held.get("netapp-aff-a900", Controller).performance
    a90 = next(p for p in held.get("netapp-aff-a90", Controller).performance if p.protocol == "NFS")
    joint = next(p for p in _get("netapp-aff-a90").performance if p.protocol == "NFS")
    assert a90.affinity_hold_us == pytest.approx(99.786, abs=0.01) and a90.affinity_hold_scv == pytest.approx(
        4.435, abs=0.01) and a90.fixed_latency_us == pytest.approx(89.47, abs=0.1)
    assert joint.affinity_hold_us != pytest.approx(a90.affinity_hold_us, abs=0.1)
    assert a90.fit_of("affinity_hold_us") == NFS_RAMPS_STEP
