"""Capacity-rule gaps found against public configurations: ADPv2 RAID groups count in partitions (each
partitioned drive of an HA pair gives each node one data partition), an E-Series DDP pool's minimum of 11 drives
is per pool across both controllers, and neither is refused any more."""

from __future__ import annotations

import pytest

from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.problems import find_problems
from models.project.model import ControllerNode, Link, Scenario, ShelfNode
from models.resources import examples_dir
from models.store import load_any

CATALOG = bundled_catalog()


def _ontap(drive_count: int, adp: str, raid_group_size: int | None) -> Scenario:
    ctl = ControllerNode(id="c1", catalog_id="netapp-aff-a800", software="9.5", raid_type="raid_dp",
                         spares_per_node=1, adp=adp, raid_group_size=raid_group_size)
    shelf = ShelfNode(id="bays", catalog_id="netapp-a800-internal-nvme", drive="netapp-1500gb-nvme-ssd-a800",
                      drive_count=drive_count)
    return Scenario(name="s", nodes=[ctl, shelf], links=[Link(id="l", source="c1", target="bays",
                                                               link_type="nvme-internal", ports=1)])


def _messages(scenario: Scenario) -> list[str]:
    return [p.message for p in find_problems(scenario, CATALOG)]


@pytest.mark.parametrize("drives", [12, 24])
def test_adpv2_raid_group_of_the_pairs_partitions_is_not_refused(drives):
    """ADPv2 on an A800 HA pair: every drive gives each node one data partition, so with 1 spare a node has
    drives - 1 data partitions (11 of 12, 23 of 24) and a RAID DP group of that size is valid; the old check
    compared it with the 5 or 11 whole drives per node and refused it."""
    members = drives - 1
    ok = [m for m in _messages(_ontap(drives, "root-data-data", members)) if "RAID group size" in m]
    assert ok == []
    too_big = [m for m in _messages(_ontap(drives, "root-data-data", members + 1)) if "RAID group size" in m]
    assert too_big and f"larger than the {members} data partitions available per node" in too_big[0]


def test_without_adp_the_group_still_counts_whole_drives_per_node():
    msgs = [m for m in _messages(_ontap(24, "none", 12)) if "RAID group size" in m]
    assert msgs and "larger than the 11 drives available per node" in msgs[0]


def test_an_11_drive_ddp_pool_on_a_two_controller_e_series_is_valid():
    """SANtricity: a Dynamic Disk Pool needs at least 11 drives (per pool); an EF550 with 11 drives and no
    spares (DDP keeps preservation capacity instead) builds one pool across both controllers."""
    project = load_any(examples_dir() / "ef550-sas-analytics.toml")
    sc = project.scenario
    ctl = next(n for n in sc.nodes if n.kind == "controller")
    shelf = next(n for n in sc.nodes if n.kind == "shelf")
    nodes = [n.model_copy(update={"raid_type": "ddp", "spares_per_node": 0}) if n is ctl else
             n.model_copy(update={"drive_count": 11}) if n is shelf else n for n in sc.nodes]
    eleven = sc.model_copy(update={"nodes": nodes})
    assert not [m for m in _messages(eleven) if "needs at least" in m]
    capacity = evaluate(project.with_scenario(eleven), project.active_scenario).capacity
    assert capacity is not None and capacity.total.usable_bytes > 0
    ten = eleven.model_copy(update={"nodes": [n.model_copy(update={"drive_count": 10}) if n.id == shelf.id else n
                                              for n in nodes]})
    assert [m for m in _messages(ten) if "needs at least 11 drives in the array" in m]


def test_a800_on_ontap_9_13_1_is_accepted_and_its_profile_is_derived():
    project = load_any(examples_dir() / "a800-oracle-slob-fcp.toml")
    sc = project.scenario
    nodes = [n.model_copy(update={"software": "9.13.1"}) if n.kind == "controller" else n for n in sc.nodes]
    evaluation = evaluate(project.with_scenario(sc.model_copy(update={"nodes": nodes})), project.active_scenario)
    assert not [p for p in evaluation.problems if "software" in p.message]
    wp = evaluation.performance.workloads[0]
    assert wp.profile == "derived" and any("using 9.5 / FCP" in n for n in wp.notes)


def test_the_adp_root_partition_fallback_is_a_visible_warning():
    """No catalog root-partition size for the A800's ADPv2 layout: the 55 GiB fallback is said as a problem of
    the system (shown in the Problems panel and the report), never only in a note."""
    evaluation = evaluate(load_any(examples_dir() / "a800-oracle-slob-fcp.toml"))
    problems = [p for s in evaluation.capacity.systems for p in s.problems]
    assert any("no ADP root partition size" in p and "55.00 GiB assumed" in p for p in problems)
    assert sum("no ADP root partition size" in p for p in problems) == 1  # one warning per design


def _a800_pair(drives: int, software: str) -> Scenario:
    """An A800 HA pair with ``drives`` NVMe SSD behind it (the bay count is not the point here), ADPv2, RAID DP,
    one spare per node, root partition 60 GiB (set, so no fallback)."""
    scenario = _ontap(drives, "root-data-data", None)
    return scenario.model_copy(update={"nodes": [
        n.model_copy(update={"software": software, "root_partition_bytes": 60 * 2**30}) if n.kind == "controller"
        else n for n in scenario.nodes]})


@pytest.mark.parametrize("drives, software, partitioned", [
    (96, "9.5", 96),  # beyond the 48 partitioned at initialisation: still partitioned (KB: 240 per HA pair)
    (300, "9.13.1", 240),  # 240 per HA pair before 9.14.1, the other 60 used whole
    (300, "9.14.1", 300),  # 480 from 9.14.1
])
def test_adpv2_partitions_up_to_the_ha_pair_limit_of_the_release(drives, software, partitioned):
    """ADP_RULES_SOURCE (NetApp KB 'What are the rules for Advanced Disk Partitioning?'): at most 480 drives
    partitioned in an HA pair from ONTAP 9.14.1, 240 before; the 48 is the count partitioned at initialisation.
    The root partitions step counts one root partition per partitioned drive and cites the KB."""
    from models.capacity import evaluate_capacity
    from models.capacity.rules import ADP_RULES_SOURCE

    r = evaluate_capacity(_a800_pair(drives, software), CATALOG).systems[0]
    root = r.step("ADP root partitions")
    assert (root.bytes_before - root.bytes_after) == pytest.approx(partitioned * 60 * 2**30)
    assert ADP_RULES_SOURCE in root.source
    whole = drives - partitioned
    assert any(f"{whole} drive(s) are used whole" in n for n in r.notes) == bool(whole)
