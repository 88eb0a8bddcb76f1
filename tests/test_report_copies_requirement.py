"""The Recommendation states the capacity requirement with the physical blocks of the Snapshot copies and clones
(grown with the data), which the design must hold in its usable capacity; the Summary names the space counting each
copy at its full logical size as what it is (aff8080-nfs-file-services: 10.58 TiB of Snapshot blocks, 25%/yr)."""

from __future__ import annotations

import pytest
from example_reports import example_report, report_text

from models.formatting import fmt_capacity
from models.units import CapacityUnit


def test_grown_copies_follow_the_data_sets_growth():
    from models.resources import examples_dir
    from models.sizing import grown_copies_bytes

    project = example_report(examples_dir() / "aff8080-nfs-file-services.toml")[0]
    req = project.requirements
    enabled = [w for w in project.scenario.workloads if w.enabled]
    growth = {w.growth_pct_per_year for w in enabled}
    assert growth == {25.0} and req.horizon_months == 36
    assert grown_copies_bytes(project.scenario, req, 1e12) == pytest.approx(1e12 * 1.25 ** 3)


def test_recommendation_states_the_copies_physical_space_and_the_summary_labels_logical_space():
    from models.resources import examples_dir

    project, evaluation, _ = example_report(examples_dir() / "aff8080-nfs-file-services.toml")
    total = evaluation.capacity.total
    copies = sum(r.efficiency.snapshot_physical_bytes + r.efficiency.clone_physical_bytes
                 for r in evaluation.capacity.systems)
    text = report_text("aff8080-nfs-file-services")
    now = fmt_capacity(copies, CapacityUnit.TIB)
    grown = fmt_capacity(copies * 1.25 ** 3, CapacityUnit.TIB)
    assert now == "10.58 TiB"
    assert (f"plus the physical blocks of their Snapshot copies and clones ({now} on this design now, {grown} "
            "grown with the data), which must fit the usable capacity with the data") in text
    logical = fmt_capacity(total.effective_with_snapshots_bytes, CapacityUnit.TIB)
    assert f"; with Snapshot copies and clones {logical} (total efficiency ratio" not in text  # the old headline
    assert f"effective incl. Snapshot copies {logical} (ONTAP's total efficiency ratio" in text
    assert "each Snapshot copy and clone counted at its full size, not space for more data" in text
