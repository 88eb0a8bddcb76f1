"""A left-out platform's point whose prediction saturates below the published load level stays in the count as an
unbounded miss (house rule: a check never leaves a count because it fails). With the AFF A900 left out, the
hardware relation saturates below the SWBUILD ramp's 949,973 ops/s, so its latency at 100% load has no finite
prediction."""

from __future__ import annotations

import math

from models.validation.platform_holdout import holdout_line, holdout_targets, platform_holdout


def test_a_saturated_held_out_point_counts_as_an_unbounded_miss():
    checks = platform_holdout()
    saturated = [c for c in checks if not math.isfinite(c.held_out)]
    assert [(c.case_id, c.quantity) for c in saturated] == [
        ("specstorage2020-swbuild-a900-2node", "latency_ms_at_100pct_load")]
    (a900_sat,) = [c for c in checks if c.case_id == "specstorage2020-swbuild-a900-2node" and c.group == "saturation"]
    assert a900_sat.held_out < 949_973  # the reason: the prediction saturates below the published 100% load
    latency = next(t for t in holdout_targets(checks) if t.quantity_class == "latency")
    assert len(latency.misses) == sum(1 for c in checks if c.group == "latency") and math.inf in latency.misses
    assert "1 at a load the prediction saturates below" in holdout_line(checks=checks)


def test_the_bundled_catalogs_holdout_is_computed_once_per_process_and_no_other_catalogs(monkeypatch):
    """platform_holdout / joint_fits keep the bundled catalog's result (its refits cost seconds; the report, the
    validation headline and these tests ask for it again) and hand out a new list and set each call; another
    catalog is always computed."""
    from models.catalog import Controller, bundled_catalog
    from models.validation import platform_holdout as module

    first = platform_holdout()
    first.clear()  # a caller's change to its list is not the next caller's
    second = platform_holdout()
    assert second and second == platform_holdout() and second is not platform_holdout()
    a900 = bundled_catalog().get("netapp-aff-a900", Controller)
    others, held = module.joint_fits(bundled_catalog(), a900)
    others.add("changed")
    assert module.joint_fits(bundled_catalog(), a900) == ({"specstorage2020-eda-a90-8node"}, held)
    calls = []
    monkeypatch.setattr(module, "_platform_holdout", lambda catalog: calls.append(catalog) or [])
    monkeypatch.setattr(module, "_joint_fits", lambda catalog, record: calls.append(record) or (set(), catalog))
    assert platform_holdout() == second and module.joint_fits(bundled_catalog(), a900)[0] == {
        "specstorage2020-eda-a90-8node"}
    assert calls == []  # from the cache
    other = bundled_catalog().with_entries([a900.model_copy(update={"cores_per_node": a900.cores_per_node + 1})])
    assert platform_holdout(other) == [] and module.joint_fits(other, other.get("netapp-aff-a900", Controller)) == (
        set(), other)
    assert len(calls) == 2  # computed: not the bundled catalog
