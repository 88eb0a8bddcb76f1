"""From inventories to workloads: grouping, peak of sums over time against sums of per-machine summaries, the
derived mix, capacity and thin provisioning, groups without performance data, and pseudonyms."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.importers.inventory import Inventory, InventoryError, Machine, PerfFigures, PerfSample
from models.importers.ontap import read_ontap
from models.importers.workloads import group_inventories, import_environment, pseudonym

GIB = 2**30


def _sample(t: float, r: float, w: float, rmb: float, wmb: float) -> PerfSample:
    return PerfSample(time_s=t, interval_s=60.0, read_iops=r, write_iops=w, read_mbps=rmb, write_mbps=wmb)


def _machine(name: str, cluster: str, **kw: object) -> Machine:
    return Machine(name=name, cluster=cluster, **kw)  # type: ignore[arg-type]


def test_series_give_the_peak_of_sums_not_the_sum_of_peaks() -> None:
    a = _machine("db01", "prod", used_bytes=100 * GIB, provisioned_bytes=400 * GIB,
                 series=(_sample(60, 1000, 200, 8, 1.6), _sample(120, 100, 50, 0.8, 0.4)))
    b = _machine("web01", "prod", used_bytes=50 * GIB, provisioned_bytes=50 * GIB,
                 series=(_sample(60, 100, 100, 0.8, 0.8), _sample(120, 900, 600, 7.2, 4.8)))
    (group,) = group_inventories([Inventory("liveoptics", "x.xlsx", machines=(a, b))], keep_names=True)
    sums = {60: (1100, 300, 8.8, 2.4), 120: (1000, 650, 8.0, 5.2)}
    t = max(sums, key=lambda k: sums[k][0] + sums[k][1])
    assert t == 120  # 1,650 IOPS at 120 s beats 1,400 at 60 s; the sum of the machines' peaks would be 2,700
    assert (group.read_iops, group.write_iops) == pytest.approx(sums[t][:2])
    assert group.iops < 1200 + 1500
    assert group.method == "the busiest of 2 intervals in 2 min, a short sample, not a peak"  # 2 x 60 s (review 55 #3)
    assert group.read_pct == pytest.approx(100 * 1000 / 1650)
    assert group.block_kib == pytest.approx((8.0 + 5.2) * 1e6 / 1650 / 1024)
    assert (group.used_bytes, group.provisioned_bytes, group.thin) == (150 * GIB, 450 * GIB, True)
    assert group.name == "prod" and group.members == 2 and not group.needs_preset


def _summaries(name: str, cluster: str, p95: tuple[float, float, float, float] | None,
               peak: tuple[float, float, float, float]) -> Machine:
    perf = [PerfFigures("peak", *peak)]
    if p95 is not None:
        perf.append(PerfFigures("p95", *p95))
    return _machine(name, cluster, used_bytes=10 * GIB, perf=tuple(perf))


def test_summaries_are_summed_at_the_users_statistic() -> None:
    machines = (_summaries("a", "c1", (300, 100, 2.4, 0.8), (600, 200, 4.8, 1.6)),
                _summaries("b", "c1", (50, 50, 0.4, 0.4), (90, 70, 0.72, 0.56)),
                _summaries("c", "c1", None, (10, 30, 0.08, 0.24)))
    inv = [Inventory("liveoptics", "x.xlsx", machines=machines)]
    (p95,) = group_inventories(inv, stat="p95")
    (peak,) = group_inventories(inv, stat="peak")
    assert p95.method == "sum of per-machine P95 (peak where no P95 is given)"
    assert peak.method == "sum of per-machine peak"
    (only_peaks,) = group_inventories([Inventory("liveoptics", "x.xlsx", machines=machines[2:])], stat="p95")
    assert only_peaks.method == "sum of per-machine peak (no P95 in the data)"
    assert (only_peaks.read_iops, only_peaks.write_iops) == (10, 30)
    assert (p95.read_iops, p95.write_iops) == pytest.approx((300 + 50 + 10, 100 + 50 + 30))
    assert any("1 machine(s) give no P95" in n for n in p95.notes)
    assert (peak.read_iops, peak.write_iops) == pytest.approx((700, 300))
    assert peak.read_mbps == pytest.approx(4.8 + 0.72 + 0.08)


def test_group_without_performance_asks_for_a_preset_and_invents_no_mix() -> None:
    machines = (_machine("a", "dev", used_bytes=GIB, provisioned_bytes=3 * GIB), _machine("b", "dev"))
    result = import_environment([Inventory("rvtools", "x.xlsx", machines=machines)], "ctrl")
    (group,) = result.groups
    assert group.needs_preset and group.read_pct is None and group.block_kib is None
    assert any("capacity only until a preset's profile is applied" in n for n in group.notes)
    (workload,) = result.workloads  # capacity-only: enabled, its data counted, no load evaluated
    assert workload.enabled and workload.capacity_only and not workload.performance_enabled
    assert workload.target_iops is None and workload.capacity_only and "preset" not in workload.name
    assert workload.dataset_bytes == GIB and workload.provisioned_bytes == 3 * GIB
    assert result.iops == 0 and result.requirements.effective_capacity_bytes == GIB
    assert any("count for capacity only" in n for n in result.notes)


def test_absurd_io_size_is_clamped_with_a_note() -> None:
    m = _machine("a", "c", perf=(PerfFigures("peak", 10, 0, 500.0, 0.0),))  # 50 MB per I/O
    (group,) = group_inventories([Inventory("liveoptics", "x.xlsx", machines=(m,))], stat="peak")
    assert group.block_kib == 1024 and any("outside 0.5-1024 KiB" in n for n in group.notes)


def test_grouping_by_datastore_tag_and_pattern() -> None:
    machines = (_machine("sql-01", "c1", datastore="ds1", tags=("gold",)),
                _machine("sql-02", "c2", datastore="ds2", tags=("gold",)),
                _machine("web-01", "c1", datastore="ds1"))
    inv = [Inventory("rvtools", "x.xlsx", machines=machines)]
    by = {g: {x.name: x.members for x in group_inventories(inv, group_by=g, keep_names=True)}
          for g in ("cluster", "datastore", "tag")}
    assert by == {"cluster": {"c1": 2, "c2": 1}, "datastore": {"ds1": 2, "ds2": 1},
                  "tag": {"gold": 2, "machines without a tag": 1}}  # review 55 #16
    pattern = group_inventories(inv, group_by="pattern", pattern=r"^(\w+)-", keep_names=True)
    assert {g.name: g.members for g in pattern} == {"sql": 2, "web": 1}
    with pytest.raises(InventoryError, match="pattern"):
        group_inventories(inv, group_by="pattern", pattern="(")


def test_names_become_stable_pseudonyms_unless_kept() -> None:
    machines = (_machine("a", "Finance-Prod"), _machine("b", "HR-Test"))
    inv = [Inventory("rvtools", "x.xlsx", machines=machines)]
    first, again = group_inventories(inv), group_inventories(list(inv))
    names = [g.name for g in first]
    assert names == [g.name for g in again]  # stable across re-imports of the same data
    assert all(n.startswith("cluster-") and "Finance" not in n and "HR" not in n for n in names)
    other = [Inventory("rvtools", "y.xlsx", machines=(*machines, _machine("c", "Ops")))]
    assert "Finance-Prod" not in str(group_inventories(other))
    # the salt is secret: hashing the bare name does not reproduce the pseudonym
    assert pseudonym("cluster", "Finance-Prod", b"") not in names
    assert sorted(g.name for g in group_inventories(inv, keep_names=True)) == ["Finance-Prod", "HR-Test"]


def test_ontap_volumes_group_by_svm_as_the_peak_of_sums() -> None:
    samples = next(p / "shared" / "samples" / "ontap" for p in Path(__file__).resolve().parents
                   if (p / "shared" / "samples" / "ontap").is_dir())
    inv = read_ontap(samples / "harvest-keyperf-volume-poll-1.json", samples / "harvest-keyperf-volume-poll-2.json")
    result = import_environment([inv], "ctrl", group_by="svm", keep_names=True)
    (group,) = result.groups
    assert group.name == "osc" and group.members == 4
    assert group.iops == pytest.approx(sum(v.series[0].read_iops + v.series[0].write_iops for v in inv.volumes))
    (workload,) = result.workloads
    assert workload.target_iops == pytest.approx(group.iops) and workload.target == "ctrl"
    assert workload.read_pct == pytest.approx(group.read_pct) and workload.random_pct == 100
    by_aggr = import_environment([inv], "ctrl", group_by="aggregate", keep_names=True)
    # the volume on both aggregates gives neither capacity nor I/O: no group of nothing (review revimp55 item 4)
    assert sorted(g.name for g in by_aggr.groups) == ["test1", "umeng_aff300_aggr2"]
    assert any("left out (test1, umeng_aff300_aggr2)" in n for n in by_aggr.notes)


def test_a_vm_cluster_and_an_svm_of_one_name_stay_apart() -> None:
    from models.importers.inventory import Volume

    vm = Inventory("rvtools", "x.xlsx", machines=(_machine("a", "prod"),))
    ontap = Inventory("ontap", "y.json", volumes=(Volume("vol1", svm="prod"), Volume("vol2", svm="prod")))
    kept = group_inventories([vm, ontap], keep_names=True)
    assert sorted((g.name, g.members) for g in kept) == [("prod (cluster)", 1), ("prod (svm)", 2)]
    hidden = sorted(g.name for g in group_inventories([vm, ontap]))
    assert [n.split("-")[0] for n in hidden] == ["cluster", "svm"] and all("prod" not in n for n in hidden)
    assert hidden[0].split("-")[1] != hidden[1].split("-")[1]  # the pseudonyms do not show the names are equal


def test_a_machine_in_two_files_is_counted_once_from_the_listing_with_performance() -> None:
    """Two exports of one environment (an RVTools inventory without performance and a Live Optics collection with a
    series) list db01 twice: it is counted once, from the series; web01 only in the first file stays; the same
    name twice within one file is two machines."""
    rv = Inventory("rvtools", "rv.xlsx", machines=(_machine("db01", "prod", used_bytes=100 * GIB),
                                                  _machine("web01", "prod", used_bytes=50 * GIB),
                                                  _machine("web01", "prod", used_bytes=5 * GIB)))
    lo = Inventory("liveoptics", "lo.xlsx", machines=(_machine("db01", "prod", used_bytes=90 * GIB,
                                                               series=(_sample(60, 800, 200, 6.4, 1.6),)),))
    result = import_environment([rv, lo], "array", keep_names=True)
    (group,) = result.groups
    assert group.members == 3 and group.used_bytes == (90 + 50 + 5) * GIB
    assert (group.read_iops, group.write_iops) == pytest.approx((800, 200))
    assert any("1 machine(s) listed in more than one file (matched by name, e.g. db01) are counted once" in n
               for n in result.notes)
    alone = import_environment([rv], "array", keep_names=True)
    assert alone.groups[0].used_bytes == 155 * GIB and not any("more than one file" in n for n in alone.notes)


def test_the_same_rvtools_file_twice_counts_its_machines_once(tmp_path) -> None:
    from models.importers.registry import detect, reader

    def read_any(path: Path) -> Inventory:
        return reader(detect(path))(path)

    sample = next(p / "shared" / "samples" / "rvtools" / "kubev2v-example1.xlsx" for p in Path(__file__).parents
                  if (p / "shared" / "samples" / "rvtools").is_dir())
    copy = tmp_path / "again.xlsx"
    copy.write_bytes(sample.read_bytes())
    once = import_environment([read_any(sample)], "array")
    twice = import_environment([read_any(sample), read_any(copy)], "array")
    assert twice.capacity_bytes == once.capacity_bytes > 0
    assert [g.members for g in twice.groups] == [g.members for g in once.groups]
    assert any(n.startswith("9 machine(s) listed in more than one file (matched by name) are counted once")
               for n in twice.notes)
