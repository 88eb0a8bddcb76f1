"""vSAN stretched clusters (issue "Size for a lost site", item 4): capacity of both sites by Broadcom's policy factors,
the inter-site round trip and link on writes, the site-failure state, and the requirement to meet the SLO after
losing a site (evaluation and sizer), with the MetroCluster switchover naming both sites' workloads.

Broadcom's factors, written here from the documents (not read from the code): the vSAN Stretched Cluster Guide
(core.vmware.com/resource/vsan-stretched-cluster-guide, "Site disaster tolerance"): dual site mirroring keeps a full
copy at each of the two data sites, each protected inside its site by the local policy, so VM data costs 2 x the
local factor: RAID-1 FTT=1 2 x 2 = 4, OSA RAID-5 (3+1) 2 x 4/3 = 2.67, RAID-6 (4+2) 2 x 1.5 = 3; vSAN ESA's adaptive
RAID-5 is 2+1 (1.5) on 3-5 hosts per site; ESA's log-structured file system adds 13.1% (Broadcom KB 394410).
The bandwidth sizing document (core.vmware.com/resource/vsan-stretched-cluster-bandwidth-sizing): 10 Gbit/s and 5 ms
round trip between the data sites, data multiplier 1.4, resynchronisation multiplier 1.25 (their example: 40 MB/s
of writes need 560 Mbit/s).
"""

from __future__ import annotations

import pytest
from test_engine_invariants import violations  # pytest puts tests/ on sys.path

from models.capacity.hci import hci_capacity
from models.capacity.stretched import link_mbps_needed
from models.catalog import Drive, HciNode, bundled_catalog
from models.evaluate import evaluate, evaluate_resilience
from models.performance import build_path
from models.performance.resilience import capacity_in_failure, evaluate_states
from models.performance.states import host_failure
from models.project import HciClusterNode
from models.resources import examples_dir
from models.sizing import size
from models.store import load_any

CAT = bundled_catalog()
EXAMPLE = "vsan8-esa-stretched-4x4-sqlserver-oltp.toml"
SITE_COPIES = 2  # dual site mirroring: one full copy per data site
KIB = 1024


def _example(**node_changes):
    project = load_any(examples_dir() / EXAMPLE)
    if not node_changes:
        return project
    scenario = project.scenarios[0]
    nodes = [n.model_copy(update=node_changes) if n.kind == "hci_cluster" else n for n in scenario.nodes]
    return project.model_copy(update={"scenarios": [scenario.model_copy(update={"nodes": nodes})]})


def _osa(policy: str, hosts: int) -> tuple[HciClusterNode, HciNode, Drive, Drive]:
    host = CAT.get("vsan-8-osa-allflash-host", HciNode)
    node = HciClusterNode(id="c", catalog_id=host.id, label="c", x=0.0, y=0.0, hosts=hosts, disk_groups_per_host=2,
                          capacity_drives_per_group=4, policy=policy, stretched=True, slack_space_pct=30.0)
    return node, host, CAT.get(host.capacity_drive, Drive), CAT.get(host.cache_drive, Drive)


@pytest.mark.parametrize(("policy", "hosts", "factor"), [
    ("ftt1-raid1", 6, 2 * 2.0),        # RAID-1 FTT=1 in each site: 4x
    ("ftt1-raid5", 8, 2 * 4 / 3),      # OSA RAID-5 3+1 in each site (4 hosts per site): 2.67x
    ("ftt2-raid6", 12, 2 * 1.5),       # RAID-6 4+2 in each site (6 hosts per site): 3x
])
def test_stretched_capacity_is_raw_over_broadcoms_factor(policy, hosts, factor):
    node, host, cap, cache = _osa(policy, hosts)
    phys = hci_capacity(node, host, cap, cache, "c")
    right_sized = hosts * 2 * 4 * cap.right_sized_bytes
    assert phys.usable_bytes == pytest.approx(right_sized / factor * (1 - 0.30), rel=1e-9)
    assert phys.problems == []
    # both sites: each half the hosts and half the raw bytes, each holding a full copy
    raw = hosts * 2 * 4 * cap.marketed_bytes
    site_lines = [line for line in phys.layout if line.startswith("site ")]
    assert len(site_lines) == 2 and all(f"{hosts // 2} hosts" in line for line in site_lines)
    assert phys.raw_bytes == pytest.approx(raw)


def test_the_example_shows_both_sites_and_matches_the_esa_factors():
    evaluation = evaluate(_example())
    assert not [p for p in evaluation.problems if p.severity in ("error", "warning")]
    system = evaluation.capacity.systems[0]
    host = CAT.get("vsan-esa-readynode-32c-512g-25g", HciNode)
    drive = CAT.get(host.capacity_drive, Drive)
    hosts, devices = 8, 6
    right_sized = hosts * devices * drive.right_sized_bytes
    # vSAN operations reserve (assumed 10%) and the host rebuild reserve: one whole host's capacity per site
    ops = 0.10
    after_reserves = right_sized * (1 - ops - SITE_COPIES / hosts)
    factor = SITE_COPIES * 3 / 2  # ESA RAID-5 2+1 on 4 hosts per site, mirrored to both sites: 3x
    expected = after_reserves / factor / 1.131
    assert system.usable_bytes == pytest.approx(expected, rel=1e-9)
    names = [step.name for step in system.steps]
    assert "Site mirroring (dual site)" in names and "vSAN ESA FTT=1 RAID-5 (2+1) erasure coding" in names
    sites = [line for line in system.layout if line.startswith("site ")]
    assert [line[:6] for line in sites] == ["site A", "site B"]
    assert all("4 hosts" in line for line in sites)
    assert any(line.startswith("both sites") and "witness" in line for line in system.layout)


def test_writes_wait_the_inter_site_round_trip_and_cross_the_link():
    project = _example()
    scenario = project.scenarios[0]
    workload = scenario.workloads[0]
    path = build_path(scenario, CAT, workload)
    by_role = {s.ident.role: s for s in path.stations}
    assert by_role["intersite_rtt"].write_s == pytest.approx(1.0e-3)  # ESA: one write phase, 1 ms apart
    assert by_role["intersite_rtt"].read_s == 0.0  # read locality
    link_bytes_per_s = 25e9 / 8 * 0.94
    assert by_role["intersite_link"].write_s == pytest.approx(1.4 * workload.block_kib * KIB / link_bytes_per_s)
    # one site's layout on its own (4 hosts, RAID-5 2+1, not stretched): the stretched cluster does each write's
    # work at both sites, so its host stations carry twice the write work, but the two copies are written in
    # parallel: a write waits for one site's copy (the same wait as on one site) and the round trip, not for both
    # copies in series (review 56: the series sum made a site failure look faster by the second copy's time)
    flat = build_path(_example(stretched=False, hosts=4).scenarios[0], CAT, workload)
    flat_by_role = {s.ident.role: s for s in flat.stations}
    assert "intersite_rtt" not in flat_by_role
    for role in ("drives", "cpu", "network", "software_limit"):
        s, f = by_role[role], flat_by_role[role]
        assert s.write_s == pytest.approx(f.write_s), role
        assert s.write_s + s.write_async_s == pytest.approx(2 * (f.write_s + f.write_async_s)), role
    assert by_role["drives"].read_s == pytest.approx(flat_by_role["drives"].read_s)
    normal = evaluate(project).performance.workloads[0]
    unstretched = evaluate(_example(stretched=False)).performance.workloads[0]
    assert normal.latency_at_target_ms > unstretched.latency_at_target_ms
    # Broadcom's bandwidth example: 40 MB/s of writes need 560 Mbit/s between the sites
    assert link_mbps_needed(40.0) * 8 == pytest.approx(560.0)
    # the example's target: 300K IOPS, 10% writes of 8 KiB -> 245.8 MB/s x 1.4 x 1.25 = 3.44 Gbit/s
    writes = workload.target_iops * (1 - workload.read_pct / 100) * workload.block_kib * KIB / 1e6
    need = writes * 1.4 * 1.25 * 8 / 1e3
    assert any(f"= {need:,.2f} Gbit/s of the 25 Gbit/s link" in note for note in normal.notes), normal.notes


def test_site_failure_saturates_below_normal_on_half_the_hosts():
    """The surviving site's stations: half the devices, each write stored once per site (half the write work), the
    inter-site stations gone; the state's saturation is the least bound capacity / demand over those stations (one
    workload), computed here from the normal path."""
    project = _example()
    scenario = project.scenarios[0]
    path = build_path(scenario, CAT, scenario.workloads[0])
    rf = path.read_fraction
    bounds = []
    for s in path.stations:
        if s.delay or s.ident.role == "intersite_link":
            continue
        demand = rf * s.read_s + (1 - rf) * (s.write_s + s.write_async_s) / 2
        bounds.append(max(1, s.multiplicity // 2) * s.servers / demand)
    normal = evaluate(project).performance.workloads[0]
    states = {st.state: st for st in evaluate_states(scenario, CAT)[normal.workload_id]}
    failed = states["site_failure"]
    assert failed.performance.saturation_iops == pytest.approx(min(bounds), rel=0.01)
    assert failed.performance.saturation_iops < 0.75 * normal.saturation_iops
    assert failed.meets_slo is True
    # one workload: the reason, read under its name, says "this workload" and does not repeat the name
    assert scenario.workloads[0].name not in failed.reason and "site B is lost" in failed.reason
    assert "serve this workload for both sites with only their local protection" in failed.reason
    assert {"vSAN inter-site round trip", "vSAN inter-site link"} <= {name for name, _ in failed.relieved}
    curve = failed.performance.curve
    assert len(curve) > 10 and curve[-1].iops <= failed.performance.saturation_iops * 1.001
    capacity = {c.state: c for c in capacity_in_failure(scenario, CAT, evaluate(project).capacity.systems)}
    assert capacity["site_failure"].fits and capacity["site_failure"].usable_bytes == pytest.approx(
        evaluate(project).capacity.systems[0].usable_bytes)


def _light_load_ms(performance) -> float:
    """Latency at the first point of the closed ramp (one outstanding I/O: no queueing), ms."""
    return performance.curve[0].latency_ms


@pytest.mark.parametrize("rtt_ms", [1.0, 4.0])
def test_a_stretched_write_adds_the_round_trip_not_a_second_copy_in_series(rtt_ms):
    """Review 56, by hand: at light load a stretched write costs one site's write plus the inter-site round trip
    and the remote copy's transfer on the link (1.4 x 8 KiB at 25 Gbit/s x 0.94 payload), so the 4+4 cluster's
    light-load latency is one 4-host site's plus 10% writes x (RTT + transfer), and the site failure takes exactly
    that much away again: 0.100 ms at 1 ms, not the 0.186 ms the series sum gave (1.2165 -> 1.0305 ms)."""
    stretched = _example(inter_site_rtt_ms=rtt_ms)
    site = _example(stretched=False, hosts=4)
    workload = stretched.scenarios[0].workloads[0]
    writes = 1 - workload.read_pct / 100
    transfer_ms = 1.4 * workload.block_kib * KIB / (25e9 / 8 * 0.94) * 1e3
    added = writes * (rtt_ms + transfer_ms)
    normal = evaluate(stretched).performance.workloads[0]
    one_site = evaluate(site).performance.workloads[0]
    assert _light_load_ms(normal) == pytest.approx(_light_load_ms(one_site) + added, abs=5e-4)
    states = {st.state: st for st in evaluate_states(stretched.scenarios[0], CAT)[normal.workload_id]}
    failed = _light_load_ms(states["site_failure"].performance)
    assert _light_load_ms(normal) - failed == pytest.approx(added, abs=5e-4)
    assert f"no longer waits the {rtt_ms:.2f} ms inter-site round trip" in states["site_failure"].reason


def test_host_failure_capacity_is_one_sites_copy_on_its_other_hosts():
    """Review 56: a stretched cluster's host failure is not 7/8 of the cluster (88%): each data site holds a full
    copy, so the failed host's site must hold its copy on 3 of its 4 hosts. By hand, with h one host's right-sized
    devices (6 x 3.2 TB), the operations reserve 10% and the host rebuild reserve one host per site: normal usable
    is (4h x 0.9 - h) / 1.5 / 1.131; the reserve exists for this repair (VMware: "reserved space for vSAN to be able
    to repair in case of a single host failure"), so with it spent the site has 3h x 0.9 / 1.5 / 1.131 = 104% of
    normal (27.8 TiB); holding it back as well would leave (3h x 0.9 - h) / 1.5 / 1.131 = 65%. Without a host
    rebuild reserve the site keeps 3/4 of its usable capacity."""
    host = CAT.get("vsan-esa-readynode-32c-512g-25g", HciNode)
    h = 6 * CAT.get(host.capacity_drive, Drive).right_sized_bytes
    policy_and_lfs = 1.5 * 1.131
    normal_usable = (4 * h * 0.9 - h) / policy_and_lfs
    spent = 3 * h * 0.9 / policy_and_lfs
    held = (3 * h * 0.9 - h) / policy_and_lfs
    assert spent / normal_usable == pytest.approx(2.7 / 2.6) and held / normal_usable == pytest.approx(1.7 / 2.6)
    project = _example()
    ev = evaluate(project)
    assert ev.capacity.systems[0].usable_bytes == pytest.approx(normal_usable, rel=1e-9)
    (state,) = [c for c in evaluate_resilience(project, ev).capacity_states if c.state == "host_failure"]
    assert state.usable_bytes == pytest.approx(spent, rel=1e-9)
    assert spent / 2**40 == pytest.approx(27.8, abs=0.05)
    assert state.fits and "88%" not in state.text and "104% of the normal usable capacity" in state.text
    assert "one of the 4 hosts at a data site is down" in state.text and "3 others" in state.text
    assert "host rebuild reserve" in state.text and "no reserve left for a second host failure" in state.text
    # without the host rebuild reserve: 3h x 0.9 of 4h x 0.9, 75%
    bare = _example(host_rebuild_reserve=False)
    ev = evaluate(bare)
    (state,) = [c for c in evaluate_resilience(bare, ev).capacity_states if c.state == "host_failure"]
    assert ev.capacity.systems[0].usable_bytes == pytest.approx(4 * h * 0.9 / policy_and_lfs, rel=1e-9)
    assert state.usable_bytes == pytest.approx(3 * h * 0.9 / policy_and_lfs, rel=1e-9)
    assert "falls to 75% of normal" in state.text


@pytest.mark.parametrize("changes", [
    {}, {"inter_site_rtt_ms": 4.0, "policy": "ftt1-raid1"},
    {"architecture": "osa", "catalog_id": "vsan-8-osa-allflash-host", "policy": "ftt1-raid1", "hosts": 6,
     "disk_groups_per_host": 2, "capacity_drives_per_group": 4},
], ids=["example", "raid1-4ms", "osa"])
def test_site_failure_beats_normal_only_by_the_work_it_says_it_stops(changes):
    """The engine invariants (tests/test_engine_invariants.py) hold for the site failure: it never beats normal
    operation beyond the inter-site work and the lost site's write copies it names in ``relieved``."""
    project = _example(**changes)
    found = violations(project)
    assert found == [], found
    states = evaluate_resilience(project, evaluate(project)).states
    assert any(st.state == "site_failure" for results in states.values() for st in results)


def test_a_cluster_that_is_not_stretched_has_no_site_failure():
    scenario = _example(stretched=False).scenarios[0]
    states = evaluate_states(scenario, CAT)
    assert all(st.state != "site_failure" for results in states.values() for st in results)


@pytest.mark.parametrize(("changes", "words"), [
    ({"hosts": 7}, "cannot be split"),
    ({"inter_site_rtt_ms": 8.0}, "above vSAN's supported 5 ms"),
    ({"inter_site_gbps": 1.0}, "below vSAN's minimum of 10 Gbit/s"),
    ({"hosts": 4, "policy": "ftt2-raid6"}, "at each site; each data site has 2"),
])
def test_unsupported_stretched_designs_are_named(changes, words):
    system = evaluate(_example(**changes)).capacity.systems[0]
    assert any(words in p for p in system.problems), system.problems


def test_the_requirement_is_met_by_the_example_and_not_applicable_to_one_site():
    project = _example()
    assert project.requirements.meet_slo_after_site_loss
    checks = evaluate_resilience(project, evaluate(project)).requirement_checks
    site = [c for c in checks if c.requirement == "slo_after_site_loss"]
    assert len(site) == 1 and site[0].met and site[0].state == "site_failure" and "met, " in site[0].text
    one_site = _example(stretched=False)
    checks = evaluate_resilience(one_site, evaluate(one_site)).requirement_checks
    site = [c for c in checks if c.requirement == "slo_after_site_loss"]
    assert len(site) == 1 and not site[0].met and "not applicable" in site[0].text


def test_the_sizer_meets_the_site_loss_requirement_with_stretched_clusters():
    project = _example()
    result = size(project, top=2)
    assert result.candidates
    for cand in result.candidates:
        assert cand.meets and "stretched" in cand.summary
        cluster = next(n for n in cand.scenario.nodes if n.kind == "hci_cluster")
        assert cluster.stretched and cluster.hosts % 2 == 0
        proposed = project.model_copy(update={"scenarios": [cand.scenario],
                                              "active_scenario": cand.scenario.name})
        checks = evaluate_resilience(proposed, evaluate(proposed)).requirement_checks
        assert [c.met for c in checks if c.requirement == "slo_after_site_loss"] == [True]


def test_the_sizer_proposes_metroclusters_for_arrays():
    project = load_any(examples_dir() / "aff-a70-metrocluster-ip-oracle-nvmetcp.toml")
    req = project.requirements.model_copy(update={"meet_slo_after_site_loss": True, "deployments": ["on-prem"]})
    project = project.model_copy(update={"requirements": req})
    result = size(project, top=1)
    assert result.candidates
    cand = result.candidates[0]
    controller = next(n for n in cand.scenario.nodes if n.kind == "controller")
    assert controller.metrocluster == "ip" and controller.partner_site_load == "mirror"
    assert "MetroCluster IP" in cand.summary
    proposed = project.model_copy(update={"scenarios": [cand.scenario], "active_scenario": cand.scenario.name})
    checks = evaluate_resilience(proposed, evaluate(proposed)).requirement_checks
    assert [c.state for c in checks if c.requirement == "slo_after_site_loss" and c.met] == ["switchover"]


def test_a_metrocluster_switchover_names_both_sites_workloads():
    """Two workloads on a MetroCluster whose partner site runs the same ones: each switchover reason names the
    other workload once (site B serves both for both sites) and not its own (the reason is read under its name)."""
    project = load_any(examples_dir() / "aff-a70-metrocluster-ip-oracle-nvmetcp.toml")
    scenario = project.scenarios[0]
    first = scenario.workloads[0]
    second = first.model_copy(update={"id": "second", "name": "Second OLTP", "target_iops": 50_000.0})
    scenario = scenario.model_copy(update={"workloads": [first, second]})
    states = evaluate_states(scenario, CAT)
    for wid, own, other in ((first.id, first.name, "Second OLTP"), ("second", "Second OLTP", first.name)):
        reason = next(st.reason for st in states[wid] if st.state == "switchover")
        assert reason.count(own) == 0 and reason.count(other) == 1, reason
        assert f"this workload and the site's others ({other}) for both sites" in reason
        assert "site A" in reason and "site B" in reason


def test_asa_r2_systems_are_not_metrocluster_ip():
    """NetApp's MetroCluster IP platform list (NetAppDocs ontap-metrocluster, "What's new in MetroCluster IP platform
    support") names the AFF A20-A1K and the earlier ASA A150-C800 but no ASA r2 system: the catalog says so, the
    sizer proposes none as a MetroCluster, and a drawn one is an error naming the source."""
    from models.catalog.schema import Controller
    from models.problems import find_problems

    asa_r2 = {"netapp-asa-a20", "netapp-asa-a30", "netapp-asa-a50", "netapp-asa-a70", "netapp-asa-a90",
              "netapp-asa-a1k"}
    for cid in asa_r2:
        record = CAT.get(cid, Controller)
        assert record.metrocluster_ip is False and "mcc-ip-config-platform-support" in \
            record.provenance["metrocluster_ip"].source
    assert CAT.get("netapp-aff-a50", Controller).metrocluster_ip is True
    project = load_any(examples_dir() / "aff-a70-metrocluster-ip-oracle-nvmetcp.toml")
    req = project.requirements.model_copy(update={"meet_slo_after_site_loss": True, "deployments": ["on-prem"]})
    result = size(project.model_copy(update={"requirements": req}), top=5)
    assert result.candidates
    for cand in (*result.candidates, *result.evaluated):
        controller = next(n for n in cand.scenario.nodes if n.kind == "controller")
        assert controller.catalog_id not in asa_r2, cand.summary
    scenario = project.scenarios[0]
    drawn = [n.with_changes(catalog_id="netapp-asa-a50") if n.kind == "controller" else n for n in scenario.nodes]
    problems = find_problems(scenario.model_copy(update={"nodes": drawn}), CAT)
    assert any("not supported in a MetroCluster IP configuration" in p.message and p.severity == "error"
               for p in problems)


def test_the_report_protection_section_gives_the_site_loss_verdicts(tmp_path):
    """The MetroCluster example has no replication relationship, yet its "Protection and DR" section gives the
    switchover verdict (the surviving site serving both sites' workloads) with its saturation."""
    from pypdf import PdfReader

    from app.cli import main
    from models.present.protection_panel import site_loss_lines

    path = examples_dir() / "aff-a70-metrocluster-ip-oracle-nvmetcp.toml"
    project = load_any(path)
    evaluation = evaluate(project)
    resilience = evaluate_resilience(project, evaluation)
    names = {w.id: w.name for w in project.scenario.workloads}
    (line,) = site_loss_lines(resilience, names)
    (state,) = [s for s in resilience.states[project.scenario.workloads[0].id] if s.state == "switchover"]
    assert line.startswith(f"{project.scenario.workloads[0].name}: meets the 1 ms SLO")
    assert "MetroCluster switchover: yes" in line
    normal = evaluation.performance.workloads[0].saturation_iops
    assert state.performance.saturation_iops < normal  # both sites' load on the survivor
    out = tmp_path / "mc.pdf"
    assert main(["report", str(path), "-o", str(out)]) == 0
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    section = text[text.index("Protection and DR"):]
    assert "When a site is lost" in section and "MetroCluster switchover: yes" in section


@pytest.mark.parametrize(("policy", "hosts", "factor"), [
    ("ftt1-raid1", 6, 2.0),      # RAID-1 FTT=1: 2 copies in each site, 2 x 2 = 4x
    ("ftt1-raid5", 8, 4 / 3),    # OSA RAID-5 3+1 in each site: 2 x 4/3 = 2.67x
    ("ftt2-raid6", 12, 1.5),     # RAID-6 4+2 in each site: 2 x 1.5 = 3x
])
def test_the_site_mirroring_citation_states_the_factor_applied_osa(policy, hosts, factor):
    """Review 52: the citation quoted "RAID-5 2.67x" (OSA 3+1) beside an ESA cluster's 2 x 1.5 = 3x. The step's
    source now ends with the factor this cluster's local policy applies, equal to the step's own division."""
    node, host, cap, cache = _osa(policy, hosts)
    phys = hci_capacity(node, host, cap, cache, "c")
    (policy_step,) = [s for s in phys.steps if s.bytes_before > 0 and "/" in s.formula and "raw bytes" in s.formula]
    applied = policy_step.bytes_before / policy_step.bytes_after
    assert applied == pytest.approx(factor, rel=1e-9)
    (mirror,) = [s for s in phys.steps if s.name == "Site mirroring (dual site)"]
    assert mirror.source.endswith(f"{SITE_COPIES} x {factor:.3g} = {SITE_COPIES * factor:.3g}x the VM data")
    assert "2.67x" not in mirror.source or factor == pytest.approx(4 / 3)


def test_the_esa_example_cites_the_3x_it_applies_and_no_disk_groups_or_unapplied_reduction():
    """Review 52, on the 4+4+1 ESA example: the site-mirroring source says 2 x 1.5 = 3x (ESA RAID-5 2+1 on four
    hosts per site, Yellow Bricks 'a 3+3+1 stretched cluster you will see a 2+1 RAID-5 set'; 6+6+1 gives 4+1),
    not OSA's 2.67x; the raw formula counts storage-pool devices (ESA has no disk groups); the cluster has
    deduplication and compression off, so no Compression or Deduplication step (each would multiply by 1 and cite
    a mechanism the cluster does not use) and effective = usable."""
    evaluation = evaluate(_example())
    system = evaluation.capacity.systems[0]
    steps = {s.name: s for s in system.steps}
    policy = steps["vSAN ESA FTT=1 RAID-5 (2+1) erasure coding"]
    assert policy.bytes_before / policy.bytes_after == pytest.approx(3 / 2, rel=1e-9)
    mirror = steps["Site mirroring (dual site)"]
    assert mirror.source.endswith("here vSAN ESA FTT=1 RAID-5 (2+1) erasure coding inside each site: 2 x 1.5 = 3x "
                                  "the VM data") and "2.67" not in mirror.source
    assert "disk group" not in steps["Raw (marketed)"].formula
    assert steps["Raw (marketed)"].formula.startswith("8 hosts x 6 storage-pool devices x ")
    assert not {"Compression", "Compaction", "Deduplication"} & steps.keys()
    assert system.inline_efficiency == (False, False, False)
    assert system.effective_bytes == pytest.approx(system.usable_bytes, rel=1e-12)
    effective_note = [n for n in system.notes if n.startswith("Effective = usable")]
    # the cluster's own setting turned off the compression vSAN 8 ESA applies (review 53b #10), not the platform
    node = next(n for n in _example().scenario.nodes if n.kind == "hci_cluster")
    host = bundled_catalog().find(node.catalog_id)
    assert not node.dedupe_compression and "compression" in host.data_reductions
    assert system.reduction_off.startswith("deduplication and compression are turned off in this design")
    assert host.platform in system.reduction_off
    assert effective_note and effective_note[0].endswith(f"({system.reduction_off}).")


def test_the_esa_reports_data_reduction_and_fitting_words_agree(tmp_path):
    """Review 52: the vSAN ESA report listed ONTAP's compaction and FlexClone copies, cited "deduplication and
    compression per disk group" beside "the platform applies no data reduction", and said "fitted" (Performance)
    and "0 fitted" (sources). Now: no compaction or FlexClone, no disk-group mechanism, and both places say the
    vSAN software latency was fitted by hand to the vSAN 6.2 all-flash result and carried to this ESA cluster."""
    from pypdf import PdfReader

    from app.cli import main

    out = tmp_path / "esa.pdf"
    assert main(["report", str(examples_dir() / EXAMPLE), "-o", str(out)]) == 0
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(out).pages)
    # the design's pages (the model description after them names every platform's reductions in general)
    assert "compaction" not in text.split("How StorPlan predicts")[0].lower()
    assert "FlexClone" not in text and "disk group (" not in text and "RAID-5 2.67x" not in text
    assert "data reduction 1.00:1: deduplication and compression are turned off in this design" in text
    assert "controller parameters" not in text
    basis = "fitted by hand to the FTT=1 RAID1 write latency of 1.7-2.1 ms published in VMware blog"
    carried = "and assumed for this vSAN ESA cluster: nothing was fitted to a measurement of this cluster"
    assert text.count(basis) == 2 and text.count(carried) == 2  # the Performance note and the sources' count
    assert "is not a catalog number and is not counted here" in text


def test_host_failure_performance_goes_by_site_and_the_failed_hosts_site_binds():
    """Review 56 (vsanb56): a stretched cluster's host failure is not 7 of 8 hosts cluster-wide (1.40M IOPS on the
    example): each data site serves its own VMs' reads and one copy of every write, half of each host station's
    work, so the failed host's site carries its half on 3 of its 4 hosts. By hand from the normal path, per host
    station of multiplicity m and demand D per I/O: site A (one host down) bounds at m/2 x 3/4 x servers / (D/2),
    with the resync (20% of its drives' and network's time) taken off those two, site B at m/2 x servers / (D/2);
    the inter-site link keeps its bound. The example's software path binds: 3/4 of 1.60M = 1.20M."""
    project = _example()
    scenario = project.scenarios[0]
    path = build_path(scenario, CAT, scenario.workloads[0])
    rf = path.read_fraction
    bounds = []
    for s in path.stations:
        if s.delay:
            continue
        demand = rf * s.read_s + (1 - rf) * (s.write_s + s.write_async_s)
        if s.ident.role == "intersite_link":
            bounds.append(s.multiplicity * s.servers / demand)
            continue
        free = 0.8 if s.ident.role in ("drives", "network") else 1.0  # the resync's 20%, at site A only
        bounds.append(round(s.multiplicity / 2 * 3 / 4) * s.servers * free / (demand / 2))
        bounds.append(s.multiplicity / 2 * s.servers / (demand / 2))
    normal = evaluate(project).performance.workloads[0]
    states = {st.state: st for st in evaluate_states(scenario, CAT)[normal.workload_id]}
    failed = states["host_failure"]
    assert failed.performance.saturation_iops == pytest.approx(min(bounds), rel=1e-6)
    assert normal.saturation_iops == pytest.approx(1.6e6, rel=1e-6)
    assert failed.performance.saturation_iops == pytest.approx(0.75 * normal.saturation_iops, rel=1e-6)
    assert failed.performance.max_iops_at_slo < 0.76 * normal.max_iops_at_slo  # not 7/8 (1.39M)
    # at light load a stretched host failure is no faster than normal operation (the same demand per I/O)
    assert _light_load_ms(failed.performance) >= _light_load_ms(normal) - 1e-9
    assert "one of the 4 hosts at data site A is down" in failed.reason
    assert "site A's other 3 hosts" in failed.reason and "site B's 4 hosts run as normal" in failed.reason
    # the degraded path: every host station split into its two sites, site A with 3 of its 4 hosts' devices
    degraded = host_failure(path, 8)
    assert degraded is not None
    split = {(s.ident.role, s.ident.index): s for s in degraded.path.stations if s.ident.role == "software_limit"}
    assert split[("software_limit", 0)].multiplicity == 3 and split[("software_limit", 1)].multiplicity == 4
    assert split[("software_limit", 0)].name.endswith("site A (host down)")


def test_a_stretched_host_failure_keeps_the_invariants_on_raid1_and_osa():
    """The engine invariants hold for the host failure by site too (no state beats normal operation) and the
    failed host's site binds on each variant: saturation at most (k - 1) / k of normal, k hosts per site."""
    for changes, k in (({"inter_site_rtt_ms": 4.0, "policy": "ftt1-raid1"}, 4),
                       ({"architecture": "osa", "catalog_id": "vsan-8-osa-allflash-host", "policy": "ftt1-raid1",
                         "hosts": 6, "disk_groups_per_host": 2, "capacity_drives_per_group": 4}, 3)):
        project = _example(**changes)
        assert violations(project) == []
        normal = evaluate(project).performance.workloads[0]
        states = {st.state: st for st in evaluate_states(project.scenarios[0], CAT)[normal.workload_id]}
        assert states["host_failure"].performance.saturation_iops <= (k - 1) / k * normal.saturation_iops * 1.000001
