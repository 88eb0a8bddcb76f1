"""Property tests of the capacity engine (hypothesis): ordering, monotonicity, RAID ranking, finiteness."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from test_capacity_engine import controller, drive, run

from models.capacity import evaluate_capacity
from models.project import SnapshotSchedule, Workload

FAST = settings(max_examples=40, deadline=None)
raid = st.sampled_from(["raid4", "raid_dp", "raid_tec"])
family_raid = st.sampled_from([("ONTAP", "raid4"), ("ONTAP", "raid_dp"), ("ONTAP", "raid_tec"), ("E-Series", "raid5"),
                               ("E-Series", "raid6"), ("E-Series", "raid10"), ("E-Series", "ddp"), ("E-Series", "none"),
                               ("generic", "raid5")])


def _finite(result):
    for value in (result.raw_bytes, result.right_sized_bytes, result.usable_bytes, result.effective_bytes,
                  result.logical_used_bytes, result.physical_used_bytes, result.data_reduction_ratio,
                  result.efficiency_ratio):
        assert math.isfinite(value)
    assert result.months_until_full is None or math.isfinite(result.months_until_full)
    for step in result.steps:
        assert math.isfinite(step.bytes_before) and math.isfinite(step.bytes_after)


@FAST
@given(count=st.integers(0, 200), fr=family_raid, spares=st.integers(0, 3),
       adp=st.sampled_from(["none", "root-data", "root-data-data"]),
       ssd=st.booleans())
def test_usable_le_right_sized_le_raw(count, fr, spares, adp, ssd):
    family, raid_type = fr
    drv = drive("d", 800 * 10**9, 762_847 * 2**20, "SSD", groups={}) if ssd else drive()
    ctl = controller(family=family, adp=["root-data", "root-data-data"])
    r = run(ctl, drv, count, raid_type=raid_type, spares_per_node=spares, adp=adp if family == "ONTAP" else "none")
    assert 0 <= r.usable_bytes <= r.right_sized_bytes + 1e-3 <= r.raw_bytes + 1e-3
    _finite(r)


@FAST
@given(count=st.integers(1, 150), more=st.integers(1, 50), raid_type=raid, spares=st.integers(0, 2))
def test_more_drives_never_less_usable(count, more, raid_type, spares):
    a = run(controller(), drive(), count, raid_type=raid_type, spares_per_node=spares)
    b = run(controller(), drive(), count + more, raid_type=raid_type, spares_per_node=spares)
    assert b.usable_bytes >= a.usable_bytes - 1e-3


@FAST
@given(count=st.integers(10, 200), spares=st.integers(0, 2))
def test_raid_tec_le_raid_dp_le_raid4(count, spares):
    usable = {t: run(controller(), drive(), count, raid_type=t, spares_per_node=spares).usable_bytes
              for t in ("raid4", "raid_dp", "raid_tec")}
    assert usable["raid_tec"] <= usable["raid_dp"] + 1e-3 <= usable["raid4"] + 2e-3


ratios = st.floats(1.0, 10.0, allow_nan=False)


@FAST
@given(dataset=st.integers(0, 10**15), c=ratios, k=ratios, d=ratios, clones=st.integers(0, 5),
       growth=st.floats(0, 1000),
       snap=st.one_of(st.none(),
                      st.builds(SnapshotSchedule, interval_h=st.floats(0.1, 48), retention_h=st.floats(0.1, 2000),
                                change_pct_per_h=st.floats(0, 100))),
       provisioned=st.one_of(st.none(), st.integers(0, 10**15)), count=st.integers(0, 60))
def test_effective_ge_usable_and_finite(dataset, c, k, d, clones, growth, snap, provisioned, count):
    wl = Workload(id="w", name="w", target="c", block_kib=8, read_pct=50, random_pct=50, dataset_bytes=dataset,
                  compression_ratio=c, compaction_ratio=k, dedupe_ratio=d, clones=clones, growth_pct_per_year=growth,
                  snapshots=snap, provisioned_bytes=provisioned)
    r = run(controller(), drive(), count, workloads=[wl])
    assert r.effective_bytes >= r.usable_bytes - 1e-3
    assert r.efficiency_ratio >= 1.0 - 1e-9
    _finite(r)
    if growth == 0:
        assert r.months_until_full is None or r.months_until_full == 0.0


def test_evaluate_capacity_empty_scenario():
    from models.catalog import Catalog
    from models.project import Scenario

    result = evaluate_capacity(Scenario(name="empty"), Catalog([]))
    assert result.systems == () and result.total.usable_bytes == 0 and result.total.efficiency_ratio == 1.0
