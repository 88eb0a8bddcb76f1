"""The presentation layer (models.present) on its own, without Qt: waterfall bars, verdicts, comparison rows,
names and the bill of materials, checked against numbers worked out by hand or counted from the design."""

from __future__ import annotations

import typing

from models.capacity.results import CapacityResult, CapacityStep, CapacityTotals, ScenarioCapacity
from models.catalog import bundled_catalog
from models.evaluate import Evaluation, evaluate
from models.present import (
    RAID_LABEL,
    bill_of_materials,
    capacity_verdicts,
    comparison_rows,
    headline,
    link_label,
    same_bytes,
    system_waterfall,
    verdicts,
)
from models.project import load
from models.project.model import RaidType
from models.resources import examples_dir

TIB = 2.0**40


def _system(steps, usable, effective, usable_step_count=None, physical_used=10 * TIB, logical=20 * TIB):
    """A capacity result from (name, before TiB, after TiB) steps."""
    return CapacityResult(
        system_id="c1", system_label="Array", family="generic",
        steps=tuple(CapacityStep(n, b * TIB, a * TIB, "src", "f") for n, b, a in steps),
        raw_bytes=steps[0][2] * TIB, right_sized_bytes=steps[0][2] * TIB, usable_bytes=usable * TIB,
        effective_bytes=effective * TIB, logical_used_bytes=logical, physical_used_bytes=physical_used,
        data_reduction_ratio=2.0, efficiency_ratio=2.0, months_until_full=None, usable_step_count=usable_step_count)


STEPS = [("Raw (marketed)", 0, 100), ("Right-sized", 100, 96), ("RAID parity", 96, 80), ("Reserve", 80, 80),
         ("Compression", 80, 160)]


def test_usable_goes_where_the_engine_says():
    # The engine says 4 steps (raw, right-sized, parity, reserve) lead to usable: Usable after the flat reserve.
    bars = system_waterfall(_system(STEPS, 80, 160, usable_step_count=4))
    assert [b.label for b in bars] == ["Raw (marketed)", "Right-sized", "RAID parity", "Reserve", "Usable",
                                       "Compression", "Effective"]
    assert [b.kind for b in bars] == ["total", "drop", "drop", "flat", "total", "gain", "total"]
    # Told 3, it follows the engine even though the numbers would allow either place.
    bars = system_waterfall(_system(STEPS, 80, 160, usable_step_count=3))
    assert [b.label for b in bars][3:5] == ["Usable", "Reserve"]
    # Not told: the first place the running value reaches usable with no drop after it.
    bars = system_waterfall(_system(STEPS, 80, 160))
    assert [b.label for b in bars][3:5] == ["Usable", "Reserve"]
    assert bars[-1].after == 160 * TIB and bars[0].after == 100 * TIB


def test_one_tolerance_for_flat_steps():
    assert same_bytes(1e15, 1e15 + 0.5) and same_bytes(1e15, 1e15 * (1 + 5e-10))
    assert not same_bytes(1e15, 1e15 * (1 + 2e-9))
    bars = system_waterfall(_system([("Raw", 0, 100), ("Nudge", 100, 100 + 1e-13)], 100, 100, 2))
    assert bars[1].kind == "flat"


def test_capacity_verdicts_fit_or_not():
    fits = _system(STEPS, 80, 160, 4, physical_used=60 * TIB)
    full = _system(STEPS, 80, 160, 4, physical_used=90 * TIB)
    empty = _system(STEPS, 80, 160, 4, physical_used=0.0, logical=0.0)
    capacity = ScenarioCapacity((fits, full, empty), CapacityTotals())
    found = capacity_verdicts(capacity, "TiB")
    assert [v.kind for v in found] == ["pass", "fail"]  # the system without data gets no verdict
    assert found[0].text == "the data needs 60.00 TiB of 80.00 TiB usable, no growth planned"
    assert found[1].line == "Array: the data needs 90.00 TiB but only 80.00 TiB is usable"
    assert headline(found).state == "fail"
    assert headline(found[:1]).state == "pass" and not headline(found[:1]).check_cautions
    assert headline(()).state == "none"


def test_example_verdicts_and_comparison():
    """AFF8080 + SQL Server (seed 000): 350K IOPS met at 4% below saturation on an HA pair that could not fail
    over; 14.00 TiB of 25.47 TiB used."""
    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    evaluation = evaluate(project)
    found = verdicts(evaluation, "TiB")
    assert [v.kind for v in found] == ["pass", "pass", "caution", "caution", "caution", "caution"]
    assert found[0].line.startswith("AFF8080A EX HA pair: the data needs 14.00 TiB of 25.47 TiB usable")
    assert found[1].text.startswith("350K IOPS at ")
    assert "failover" in found[3].text
    # review 57: its pessimistic case (P10) holds the SLO only up to 240K, below the 350K target
    assert found[5].text.startswith("the pessimistic case (P10) holds the SLO only up to 240K IOPS, below the 350K")
    # review 57 second pass: the SLO is on the mean, the p99 at the target above its value is a caution
    wp = evaluation.performance.workloads[0]
    assert wp.latency_p99_at_target_ms > 1.0 and found[4].text.startswith(
        f"p99 at the target {wp.latency_p99_at_target_ms:.2f} ms exceeds the 1 ms SLO value (the SLO is on the mean")
    assert headline(found).check_cautions
    missing = Evaluation("Broken", None, None, ())
    rows = comparison_rows((evaluation, missing), "TiB")
    figures = {r.label: r for r in rows if r.level == 2}
    assert figures["Usable"].values == ("25.47 TiB", "n/a") and figures["Usable"].delta == ""
    assert figures["saturation IOPS"].values[1] == "\u2014"  # the broken side has no such workload
    assert figures["errors"].values == ("0", "0")


def test_bill_of_materials_groups_alike_items():
    """The 192-spindle example (seed 003): 12 shelves of 16 x 300GB 15K FC drives are two rows, not 24."""
    project = load(examples_dir() / "spinning192-sas-analytics.toml")
    scenario = project.scenario
    rows = {r.category: r for r in bill_of_materials(scenario, bundled_catalog(), "TiB")}
    shelves = [n for n in scenario.nodes if n.kind == "shelf"]
    assert rows["Shelf"].quantity == len(shelves) == 12
    assert rows["Drives"].quantity == sum(n.drive_count for n in shelves) == 192
    assert rows["Shelf"].used_by_text() == "FC shelf 1, FC shelf 2, FC shelf 3, FC shelf 4 and 8 more"
    assert len(bill_of_materials(scenario, bundled_catalog())) < len(scenario.nodes)


def test_names_come_from_tables_and_records():
    catalog = bundled_catalog()
    assert link_label(catalog, "fc-16g", 8) == "16Gb FC \u00d78"  # the record's short_name, not its id
    assert link_label(catalog, "no-such-link", 2) == "no-such-link \u00d72"
    assert all(value in RAID_LABEL for value in typing.get_args(RaidType))
    assert RAID_LABEL["raid5"] == "RAID 5" and RAID_LABEL["raid_dp"] == "RAID DP"
