"""One RAID layout per system: capacity, the performance path and the drive-rebuild state see the same groups.

The capacity engine's aggregates (group sizes, parity per group), the groups a workload's drive stations stripe
over and the groups the drive-rebuild state reconstructs from all come from ``models.capacity.layout``; these
tests compare them on every bundled example and check a few against arithmetic done here from the published
rules (seed 000's AFF8080A EX: RAID DP 21+2 and one spare per node over 48 ADP-partitioned SSDs; an EF550 set to
RAID 5 with no group size: all 24 drives in one 23+1 volume group, SANtricity's at most 30 per group).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from models.capacity import evaluate_capacity
from models.capacity.layout import RaidGroup, raid_layouts
from models.catalog import Drive, bundled_catalog
from models.performance.engine import evaluate_paths
from models.performance.resilience import evaluate_states
from models.performance.states import drive_rebuild
from models.project import Scenario
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
EXAMPLES = sorted(examples_dir().glob("*.toml"))


def _capacity_groups(scenario: Scenario) -> dict[tuple[str, str], list[tuple[int, ...]]]:
    """(system id, drive id) -> each aggregate's (group sizes..., parity) as the capacity engine reports them."""
    out: dict[tuple[str, str], list[tuple[int, ...]]] = defaultdict(list)
    for system in evaluate_capacity(scenario, CAT).systems:
        for a in system.aggregates:
            out[(system.system_id, a.drive_id)].append((a.node, *sorted(a.group_sizes), a.parity_per_group))
    return out


def _as_aggregates(groups: tuple[RaidGroup, ...]) -> list[tuple[int, ...]]:
    """Groups folded per node the way an aggregate lists them: (node, sorted member counts..., parity)."""
    by_node: dict[int, list[RaidGroup]] = defaultdict(list)
    for g in groups:
        by_node[g.node].append(g)
    return [(node, *sorted(g.members for g in gs), max(g.parity for g in gs)) for node, gs in sorted(by_node.items())]


def test_the_examples_are_found():
    assert len(EXAMPLES) >= 20
    assert {"aff8080-sqlserver-tpce", "ef550-sas-analytics", "aff-a70-ns224-oracle-nvmetcp",
            "aff-a50-ns224-oracle-nvmefc64", "fas70-ds460c-nlsas-nfs"} <= {p.stem for p in EXAMPLES}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_capacity_performance_and_rebuild_see_the_same_groups(path: Path):
    scenario = load_any(path).scenario
    capacity = _capacity_groups(scenario)
    layouts = raid_layouts(scenario, CAT)
    # the capacity engine given the layouts built once gives what it builds itself
    shared, own = evaluate_capacity(scenario, CAT, layouts), evaluate_capacity(scenario, CAT)
    assert shared.total == own.total and shared.problems == own.problems
    # capacity: every aggregate is the layout's groups of its drive on its node
    for (system, drive), aggregates in capacity.items():
        if system in layouts:
            assert _as_aggregates(layouts[system].groups_of(drive)) == aggregates
    paths, _ = evaluate_paths(scenario, CAT)
    states = evaluate_states(scenario, CAT)
    for p in paths:
        if not p.raid_groups:
            continue
        drive = p.raid_groups[0].drive_id
        # performance: the path's groups are capacity's aggregates of the drive it models
        assert _as_aggregates(p.raid_groups) == capacity[(p.system, drive)]
        rebuild = {s.state: s for s in states[p.workload.id]}.get("drive_rebuild")
        sizes = [size for agg in capacity[(p.system, drive)] for size in agg[1:-1]]
        parity = capacity[(p.system, drive)][0][-1]
        assert {g.parity for g in p.raid_groups} == {parity}
        if layouts[p.system].family == "vSAN":
            assert rebuild is None  # vSAN's failure state is a host failure (its stripe is compared above)
            continue
        if parity == 0:
            assert rebuild is None  # no RAID / RAID 0: a failed drive's data is lost, nothing to rebuild
            continue
        assert rebuild is not None
        # drive rebuild: reads of the failed drive come from the other members of its group (a pool: its stripe of
        # 8 + 2), the largest of the first pool's groups
        widths = [g.width for g in p.raid_groups]
        if all(g.width == g.members for g in p.raid_groups):  # classic groups: a stripe spans the whole group
            assert sorted(widths) == sorted(sizes)
        # one failed drive in the system: only the first pool (node 1's, or the system's) is degraded, from its
        # own node's groups; every other pool is as in normal operation. A pool of several groups splits: the
        # failed drive's group degraded (one drive fewer, reconstruction reads), the rest as in normal operation
        pools = [s for s in p.stations if s.kind == "drive" and s.multiplicity >= 2]
        first = min((s.ident.node or 0, s.ident.index or 0) for s in pools)
        own = [g for g in p.raid_groups if g.node in (0, first[0])] or list(p.raid_groups)
        failed = max(own, key=lambda g: g.members)
        reads = failed.width - 1
        normal = {s.name: s for s in p.stations}
        degraded = {s.name: s for s in drive_rebuild(p, p.raid_groups, 1e12, 100.0).path.stations}
        for name, s in normal.items():
            if s.kind == "drive" and s.multiplicity >= 2 and s.read_s > 0:
                m = s.multiplicity
                if (s.ident.node or 0, s.ident.index or 0) != first:
                    assert degraded[name] == s
                elif name in degraded:  # the pool is the failed drive's group
                    assert degraded[name].multiplicity == m - 1
                    assert degraded[name].read_s / s.read_s == pytest.approx(1 + (reads - 1) / (m - 1), rel=1e-12)
                else:
                    rest, hit = degraded[f"{name}, other RAID groups"], degraded[f"{name}, degraded RAID group"]
                    n = hit.multiplicity + 1  # the group's drives in the pool, the failed one included
                    assert rest.multiplicity == m - n and 2 <= n < m
                    # the rest: each drive's demand as in normal operation; the group: width - 1 reads per read of
                    # the failed drive, over its surviving drives
                    assert rest.read_s / rest.multiplicity == pytest.approx(s.read_s / m, rel=1e-12)
                    assert rest.write_async_s / rest.multiplicity == pytest.approx(s.write_async_s / m, rel=1e-12)
                    assert hit.read_s == pytest.approx(s.read_s * n / m * (1 + (reads - 1) / (n - 1)), rel=1e-12)
        assert f"other {reads} " in rebuild.reason


def test_the_aff8080_seed_is_raid_dp_21_2_with_a_spare_per_node_over_48_partitioned_drives():
    """Seed 000 §3.2-3.6: 48 x 800GB SSD, ADP root-data, per node 23 partitioned drives in one RAID DP 21+2 group
    and one spare drive."""
    scenario = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml").scenario
    layout = raid_layouts(scenario, CAT)["aff8080"]
    assert layout.raid_type == "raid_dp" and layout.adp == "root-data"
    assert [(g.node, g.data, g.parity, g.partitioned) for g in layout.groups] == [(1, 21, 2, True), (2, 21, 2, True)]
    assert [(s.node, s.count, s.member) for s in layout.spares] == [(1, 1, "spare drive"), (2, 1, "spare drive")]
    assert sum(p.drives for p in layout.partitions) + sum(s.count for s in layout.spares) == 48
    assert [p.nodes for p in layout.partitions] == [(1,), (2,)]
    # a data partition is the right-sized drive less its root partition
    drive = CAT.get(layout.groups[0].drive_id, Drive)
    for p in layout.partitions:
        assert p.data_partition_bytes == pytest.approx(drive.right_sized_bytes - p.root_bytes)
    # the capacity waterfall's parity is the layout's: 2 x 2 parity partitions
    result = evaluate_capacity(scenario, CAT).systems[0]
    parity = next(s for s in result.steps if s.name == "RAID DP parity")
    assert -parity.delta_bytes == pytest.approx(4 * layout.partitions[0].data_partition_bytes)
    # the path reads from 21 data members per node of 23 (dedicated parity) and the rebuild reads the other 22
    paths, _ = evaluate_paths(scenario, CAT)
    assert paths[0].raid_groups == layout.groups
    states = {s.state: s for s in evaluate_states(scenario, CAT)[paths[0].workload.id]}
    assert "other 22 partitions" in states["drive_rebuild"].reason


def _ef550_raid5() -> Scenario:
    """The EF550 example set to RAID 5 with no group size (24 drives, no spares)."""
    scenario = load_any(examples_dir() / "ef550-sas-analytics.toml").scenario
    nodes = [n.with_changes(raid_type="raid5", raid_group_size=None) if n.kind == "controller" else n
             for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


def test_an_ef550_in_raid5_without_a_group_size_is_one_23_plus_1_group_everywhere():
    """SANtricity: a RAID 5 volume group holds at most 30 drives; with no group size the 24 drives form one
    group of 23 data + 1 parity: capacity loses 1 drive to parity, a sequential write puts 24/23 of its bytes on
    the drives, and a rebuild reads the other 23."""
    scenario = _ef550_raid5()
    (ef,) = [n for n in scenario.nodes if n.kind == "controller"]
    layout = raid_layouts(scenario, CAT)[ef.id]
    assert [(g.members, g.data, g.parity) for g in layout.groups] == [(24, 23, 1)]
    system = evaluate_capacity(scenario, CAT).systems[0]
    assert [(a.group_sizes, a.parity_per_group) for a in system.aggregates] == [((24,), 1)]
    drive = CAT.get(layout.groups[0].drive_id, Drive)
    parity = next(s for s in system.steps if s.name == "RAID 5 parity")
    assert -parity.delta_bytes == pytest.approx(drive.right_sized_bytes)
    assert system.usable_bytes == pytest.approx(23 * drive.right_sized_bytes)

    paths, _ = evaluate_paths(scenario, CAT)
    path = paths[0]
    assert path.workload.random_pct == 0.0  # the example streams: every write is a full-stripe write
    assert [(g.members, g.data, g.parity) for g in path.raid_groups] == [(24, 23, 1)]
    assert any("RAID 5 1 x (23+1)" in n for n in path.notes)
    nodes = ef.nodes or 2
    transfer = next(s for s in path.stations if s.name.endswith("transfer"))
    block = path.workload.block_kib * 1024
    assert transfer.write_async_s == pytest.approx(24 / 23 * block / (drive.max_write_mbps * 1e6) / nodes, rel=1e-12)

    states = {s.state: s for s in evaluate_states(scenario, CAT)[path.workload.id]}
    assert "other 23 drives" in states["drive_rebuild"].reason


def test_ef550_without_raid_has_no_rebuild_state():
    """The seed's EF550 runs without RAID ("No RAID stripe"): a failed drive loses its data, so no rebuild state."""
    scenario = load_any(examples_dir() / "ef550-sas-analytics.toml").scenario
    states = evaluate_states(scenario, CAT)
    assert states and all("drive_rebuild" not in {s.state for s in v} for v in states.values())
    assert all(g.parity == 0 for layout in raid_layouts(scenario, CAT).values() for g in layout.groups)


def test_vsan_policy_factor_is_the_stripe_of_the_layout():
    """vSAN documentation: RAID1 FTT=1 writes 2x, RAID5 3+1 4/3, RAID6 4+2 1.5; ESA RAID-5 2+1 / 4+1."""
    from models.capacity.layout import vsan_stripe
    from models.capacity.rules import VSAN_POLICIES, vsan_policy_factor

    for policy in VSAN_POLICIES:
        data, parity = vsan_stripe(policy)
        assert (data + parity) / data == pytest.approx(vsan_policy_factor(policy))
    for hosts in (3, 5, 6, 8):
        data, parity = vsan_stripe("ftt1-raid5", "esa", hosts)
        assert (data + parity) / data == pytest.approx(vsan_policy_factor("ftt1-raid5", "esa", hosts))


def test_the_a800_adpv2_pair_shares_24_partitioned_drives():
    """ADPv2 (root-data-data) on the A800's 24 internal NVMe drives: every drive gives each node one data
    partition; a spare data partition per node leaves 23, one RAID DP group of 21+2 per node (seed 001)."""
    scenario = load_any(examples_dir() / "a800-oracle-slob-fcp.toml").scenario
    layout = raid_layouts(scenario, CAT)["a800"]
    assert [(p.nodes, p.drives, p.adp) for p in layout.partitions] == [((1, 2), 24, "root-data-data")]
    (part,) = layout.partitions
    drive = CAT.get(layout.groups[0].drive_id, Drive)
    assert part.data_partition_bytes == pytest.approx((drive.right_sized_bytes - part.root_bytes) / 2)
    assert [(s.node, s.count, s.member) for s in layout.spares] == [(1, 1, "spare data partition"),
                                                                  (2, 1, "spare data partition")]
    assert [(g.node, g.members, g.data, g.parity, g.partitioned) for g in layout.groups] == [
        (1, 23, 21, 2, True), (2, 23, 21, 2, True)]
