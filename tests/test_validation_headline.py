"""validate's headline: every check counted once in its category (counts recomputed here from the check
definitions), the prediction summaries held to their targets, every failing check named, the exit status; the
label rules (in-sample, arithmetic, yes / no, prediction) and the reasons of the tolerances."""

from __future__ import annotations

import math
import statistics

import pytest

from models.catalog import bundled_catalog
from models.performance import seeds
from models.validation import CaseOutcome, Check, run_ramps, run_validation
from models.validation.cases import RAMP_SECTIONS, published_cases
from models.validation.performance_cases import case_aff8080_tpce, case_fabricpool_read, case_fabricpool_write
from models.validation.ramp_cases import case_ramp
from models.validation.summary import TARGETS, headline, quantity_class
from models.validation.tolerances import RAMP_REASON, TOLERANCE_REASONS, tolerance_reason


@pytest.fixture(scope="module")
def outcomes() -> list[CaseOutcome]:
    return run_validation() + run_ramps()


def _case(section: str, case_id: str) -> dict:
    return next(c for c in published_cases()[section] if c["id"] == case_id)


def _independent_category(c: Check) -> str:
    # the label rule, from the check's definition: a number set from the check's own published value makes it
    # in-sample, whatever else; an expectation is yes / no; a number by definition is arithmetic; the rest predicts
    if c.fitted_by:
        return "in-sample"
    if c.kind == "expect":
        return "yes / no"
    return "arithmetic" if c.arithmetic else "prediction"


def test_counts_per_category_match_the_check_definitions(outcomes):
    head = headline(outcomes)
    checks = [c for o in outcomes for c in o.checks]
    assert any(o.section in RAMP_SECTIONS for o in outcomes)  # the ramps are in the counts
    for category in ("in-sample", "arithmetic", "yes / no", "prediction"):
        members = [c for c in checks if _independent_category(c) == category]
        count = head.count(category)
        assert (count.passed, count.total) == (sum(c.passed for c in members), len(members)), category
        assert len(count.failing) == sum(not c.passed for c in members)
    # every check once: the four categories add up to all checks
    assert sum(head.count(k).total for k in ("in-sample", "arithmetic", "yes / no", "prediction")) == len(checks)
    # out-of-sample: the in-sample numeric checks with a leave-one-out prediction, judged at the same tolerance
    held = [c for c in checks if c.fitted_by and c.kind != "expect" and c.out_of_sample is not None]
    assert held
    oos = head.count("out-of-sample")
    assert oos.total == len(held)

    def within(c: Check, x: float) -> bool:
        if c.kind == "lower_bound":
            return x >= c.published * (1 - c.tolerance) - 1e-12
        if c.kind == "upper_bound":
            return x <= c.published * (1 + c.tolerance) + 1e-12
        if c.kind == "range":
            return c.published * (1 - c.tolerance) <= x <= c.published_high * (1 + c.tolerance)
        return abs(x - c.published) <= c.tolerance * abs(c.published) + 1e-12

    assert oos.passed == sum(within(c, c.out_of_sample) for c in held)
    # every failing check is named in the failing lines, none left out
    lines = head.failing_lines()
    assert len(lines) == sum(len(head.count(k).failing) for k in
                             ("in-sample", "arithmetic", "yes / no", "out-of-sample", "prediction"))
    for c in checks:
        if not c.passed:
            assert any(line.startswith(f"FAIL {_independent_category(c)}: {c.case_id} {c.quantity} (")
                       for line in lines), (c.case_id, c.quantity)


def test_target_lines_recomputed(outcomes):
    head = headline(outcomes)
    ramps_latency = [c for o in outcomes if o.section in RAMP_SECTIONS for c in o.checks
                     if c.fitted_by and c.out_of_sample is not None
                     and ("latency" in c.quantity or c.quantity.startswith("knee_ratio"))]
    misses = []
    for c in ramps_latency:
        x = c.out_of_sample
        misses.append(abs(x - c.published) / c.published if math.isfinite(x) else math.inf)
    line = next(t for t in head.targets if (t.basis, t.group, t.quantity_class)
                == ("out-of-sample", "measured ramps", "latency"))
    assert line.median == pytest.approx(statistics.median(misses))
    assert line.target == TARGETS["latency"] == 0.30 and TARGETS["saturation"] == 0.20
    assert not line.met  # 47% today: validate exits 1, honestly
    assert head.exit_status == 1


def _synthetic(*checks: Check, section: str = "performance") -> list[CaseOutcome]:
    return [CaseOutcome(section, "c", "", tuple(checks))]


def test_exit_status_rules():
    ok_fit = Check("c", "peak_iops", 100.0, 101.0, 0.05, fitted_by="calibration: a fit")
    ok_pred = Check("c", "latency_ms_at_peak", 1.0, 1.1, 0.25)
    assert headline(_synthetic(ok_fit, ok_pred)).exit_status == 0
    assert headline(_synthetic(ok_fit, ok_pred)).lines()[-1] == "verdict: exit status 0 (every count holds)"
    # an in-sample check that fails
    bad_fit = Check("c", "peak_iops", 100.0, 120.0, 0.05, fitted_by="calibration: a fit")
    head = headline(_synthetic(bad_fit, ok_pred))
    assert head.exit_status == 1 and head.reasons == ["1 in-sample check fails"]
    assert head.failing_lines() == ["FAIL in-sample: c peak_iops (+20.0%)"]
    # an arithmetic check that fails
    bad_sum = Check("c", "raw_tb", 10.0, 11.0, 0.01, arithmetic="drive count x size")
    assert headline(_synthetic(bad_sum)).reasons == ["1 arithmetic check fails"]
    # a failing latency prediction whose summary still meets its target: listed, exit 0
    preds = [Check("c", f"latency_ms_at_{i}", 1.0, x, 0.25) for i, x in enumerate((1.05, 1.1, 1.4))]
    head = headline(_synthetic(*preds))
    assert head.exit_status == 0 and head.failing_lines() == ["FAIL prediction: c latency_ms_at_2 (+40.0%)"]
    # the same summary with a median beyond 30%: exit 1
    preds = [Check("c", f"latency_ms_at_{i}", 1.0, x, 0.25) for i, x in enumerate((1.05, 1.4, 1.5))]
    assert headline(_synthetic(*preds)).reasons == ["1 prediction summary misses its target"]
    # an out-of-sample summary missing its target (saturation, 20%)
    held = Check("c", "peak_iops", 100.0, 101.0, 0.05, fitted_by="calibration: a fit", out_of_sample=130.0)
    head = headline(_synthetic(held))
    assert head.reasons == ["1 prediction summary misses its target"]
    assert head.failing_lines() == ["FAIL out-of-sample: c peak_iops (+30.0%)"]
    # a prediction with no summary target (a capacity) must pass its own tolerance
    cap = Check("c", "effective_tib", 60.0, 70.0, 0.05)
    assert headline(_synthetic(cap)).reasons == ["1 prediction without a summary target fails"]
    # a missing prediction is a miss, never dropped: counted in the total and in the median as unbounded
    lost = Check("c", "latency_ms_at_peak", 1.0, math.nan, 0.25)
    head = headline(_synthetic(lost))
    assert head.count("prediction").total == 1 and head.count("prediction").passed == 0
    assert head.targets[0].median == math.inf
    assert any("1 without a prediction, counted as a miss" in line for line in head.lines())
    # a case that could not run
    assert headline([CaseOutcome("performance", "x", "", (), "no model")]).reasons == ["1 case could not run"]


def test_lines_keep_a_place_for_further_out_of_sample_lines():
    held = Check("c", "peak_iops", 100.0, 101.0, 0.05, fitted_by="calibration: a fit", out_of_sample=104.0)
    pred = Check("c", "latency_ms_at_peak", 1.0, 1.1, 0.25)
    lines = headline(_synthetic(held, pred)).lines(out_of_sample_extra=["band coverage: 7 of 9 (78%)"])
    oos = next(i for i, line in enumerate(lines) if line.startswith("out-of-sample ("))
    assert lines[oos + 1].startswith("  out-of-sample published cases saturation: 1 point, median error 4.0%")
    assert lines[oos + 2] == "band coverage: 7 of 9 (78%)"
    assert lines[oos + 3] == "never-fitted predictions: 1 of 1 pass"


def test_an_in_sample_failure_makes_validate_exit_1(monkeypatch, capsys):
    """A tolerance tightened until the AFF8080's usable capacity (in-sample: the root partition was read from the
    same section) fails: validate names it under in-sample and its verdict counts it."""
    from app.cli import main

    monkeypatch.setitem(_case("capacity", "aff8080-48x800-adp-raiddp"), "tolerance", 1e-4)
    assert main(["validate"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("FAIL in-sample: aff8080-48x800-adp-raiddp usable_tib (-0.1%)") for line in out)
    assert any(line.startswith("FAIL in-sample: aff8080-48x800-adp-raiddp data_aggregate_per_node_tib (+0.3%)")
               for line in out)
    # the two fitted A900 ramp levels that fail already, and these two
    assert out[-1].startswith("verdict: exit status 1 (4 in-sample checks fail; ")


def test_validate_ends_on_the_headline(capsys):
    from app.cli import main

    assert main(["validate"]) == 1  # the measured ramps' out-of-sample latency misses its 30% target
    out = capsys.readouterr().out.splitlines()
    start = max(i for i, line in enumerate(out) if line.startswith("headline: every check counted once"))
    tail = out[start + 1:]
    heads = [line.split(" (")[0].split(":")[0] for line in tail if not line.startswith("  ")]
    assert heads == ["in-sample", "definitional arithmetic", "yes / no", "out-of-sample", "never-fitted predictions",
                     "verdict"]
    for line in tail[:-1]:
        if not line.startswith("  "):
            assert " pass" in line and " of " in line, line
    assert "2 in-sample checks fail" in tail[-1]  # the two fitted A900 ramp levels the fit misses


# ------------------------------------------------------------------------------------------------ label rules


def test_category_rule_order():
    assert Check("c", "q", 1, 1, 0.1, fitted_by="x", arithmetic="y").category == "in-sample"
    assert Check("c", "q", 1, 1, 0, kind="expect", expect_passed=True, fitted_by="x").category == "in-sample"
    assert Check("c", "q", 1, 1, 0, kind="expect", expect_passed=True).category == "yes / no"
    assert Check("c", "q", 1, 1, 0.1, arithmetic="y").category == "arithmetic"
    assert Check("c", "q", 1, 1, 0.1).category == "prediction"


def test_aff8080_host_latency_is_mixed_and_its_increment_a_prediction():
    from models.validation.performance_cases import evaluate_one

    case = _case("performance", "aff8080-tpce-fcp")
    checks = {c.quantity: c for c in case_aff8080_tpce(bundled_catalog(), case)}
    for q in ("host_latency_ms_light_load", "host_latency_ms_at_peak"):
        assert checks[q].category == "in-sample" and checks[q].fitted_by.startswith("mixed:")
    wp = evaluate_one(seeds.aff8080("9.0"), bundled_catalog())
    light, peak = checks["host_increment_ms_light_load"], checks["host_increment_ms_at_peak"]
    assert light.category == peak.category == "prediction"
    assert light.published == pytest.approx(0.370 - 0.266) and peak.published == pytest.approx(1.470 - 1.290)
    assert light.predicted == pytest.approx(wp.curve[0].host_latency_ms - wp.curve[0].latency_ms)
    assert peak.predicted == pytest.approx(wp.curve[-1].host_latency_ms - wp.curve[-1].latency_ms)
    assert light.tolerance == case["tolerance_latency"]


def test_fabricpool_cold_read_holds_only_at_the_assumed_latency(monkeypatch):
    import models.performance.paths as paths

    case = _case("relation", "cvo-fabricpool-cold-read")
    check = case_fabricpool_read(bundled_catalog(), case)[0]
    assert check.category == "in-sample" and "5 ms" in check.fitted_by and check.passed
    monkeypatch.setattr(paths, "OBJECT_STORE_READ_LATENCY_US", 4_500.0)
    assert not case_fabricpool_read(bundled_catalog(), case)[0].passed  # what the label says


def test_fabricpool_write_holds_by_construction():
    check = case_fabricpool_write(bundled_catalog(), _case("relation", "cvo-fabricpool-write"))[0]
    assert check.category == "arithmetic" and check.arithmetic.startswith("holds by construction")
    assert check.predicted == 1.0


def test_capacity_arithmetic_and_readings(outcomes):
    marks = {(c.case_id, c.quantity): c for o in outcomes for c in o.checks}
    for key in [("aff8080-48x800-adp-raiddp", "raw_tb"), ("ef550-24x800", "raw_tb"),
                ("spinning-192x300-raid5", "raw_tb"), ("spinning-192x300-raid5", "data_fraction_after_raid"),
                ("vsan-sql-provisioned-ftt1", "provisioned_gb"), ("vsan-sql-provisioned-ftt1", "ftt1_raid1_factor"),
                ("vsan-sql-provisioned-ftt1", "raid5_3p1_factor"), ("vsan-sql-provisioned-ftt1", "raid6_4p2_factor"),
                ("ontap-efficiency-tpce", "compression_savings_tb")]:
        assert marks[key].category == "arithmetic", key
    # drive count x size: 48 x 800 GB
    assert marks[("aff8080-48x800-adp-raiddp", "raw_tb")].predicted == pytest.approx(48 * 0.8)
    # the sum of the seed's own VM sizes
    assert marks[("vsan-sql-provisioned-ftt1", "provisioned_gb")].predicted == pytest.approx(2 * 680 + 2 * 1360 + 100)
    # the Snapshot reading was chosen to give the seed's 9:1: in-sample
    assert marks[("ontap-efficiency-customer-db", "snapshot_only_savings_ratio")].category == "in-sample"
    # the compaction gain carried over from another data set: a prediction
    assert marks[("ontap-efficiency-customer-db", "compression_and_compaction_savings_gb")].category == "prediction"


def test_quantity_classes():
    assert quantity_class("peak_iops") == quantity_class("Standard_DS4_v2_ha_mbps") == "saturation"
    assert quantity_class("saturation_ops_per_sec") == quantity_class("iops_ratio_at_0.23ms_9.5_over_9.4") \
        == "saturation"
    assert quantity_class("host_latency_ms_at_peak") == quantity_class("knee_ratio_50_to_10") == "latency"
    assert quantity_class("host_increment_ms_at_peak") == "latency"
    assert quantity_class("usable_tib") == quantity_class("host_cpu_ratio_nvmefc_over_fcp") == "other"


# ------------------------------------------------------------------------------------------------ tolerances


def test_every_tolerance_states_its_reason(outcomes):
    cases = [c for section in ("capacity", "performance", "relation", "cloud") for c in published_cases()[section]]
    assert {c["id"] for c in cases} == set(TOLERANCE_REASONS)
    for o in outcomes:
        for c in o.checks:
            reason = tolerance_reason(c, o.section)
            assert reason, (c.case_id, c.quantity)
            if c.kind != "expect" and o.section not in RAMP_SECTIONS and c.tolerance:
                assert f"{c.tolerance:.0%}" in reason, (c.case_id, c.quantity, reason)


def test_ramp_tolerances_follow_the_targets_and_the_printed_resolution():
    case = published_cases()["ramp"][0]
    assert case["tolerance"] == TARGETS["latency"] and case["tolerance_saturation"] == TARGETS["saturation"]
    checks = {c.quantity: c for c in case_ramp(bundled_catalog(), case)}
    by_pct = {p["pct"]: p["latency_ms"] for p in case["points"]}
    for pct, latency in by_pct.items():
        assert checks[f"latency_ms_at_{pct}pct_load"].tolerance == pytest.approx(0.30 + 0.05 / latency)
    assert checks["knee_ratio_90_to_10"].tolerance == pytest.approx(0.30 + 0.05 / by_pct[90] + 0.05 / by_pct[10])
    assert checks["saturation_ops_per_sec"].tolerance == 0.20
    assert tolerance_reason(checks["saturation_ops_per_sec"], "ramp") == RAMP_REASON


def test_the_report_and_the_tab_show_the_command_lines_headline_with_its_extras():
    """One answer: the bundled run the report and the Validation tab use carries the platforms left out and the
    band coverage, so their headline has the same target lines and verdict as ``storplan validate``'s."""
    from pypdf import PdfReader

    from app.report import render_report_bytes, validation_outcomes
    from models.project.textformat import load
    from models.resources import examples_dir
    from models.validation.headline_extras import full_headline

    outcomes = validation_outcomes()
    assert not isinstance(outcomes, str) and outcomes.extras is not None
    head, extra = full_headline(outcomes)
    lines = head.lines(out_of_sample_extra=extra)
    held = [line for line in lines if "platforms left out" in line]
    assert [t.group for t in head.targets].count("platforms left out") == len(held) == 2
    assert any(line.startswith("  band coverage: ") for line in lines)
    import io
    import re

    data = render_report_bytes(load(examples_dir() / "aff8080-sqlserver-tpce.toml"), validation=outcomes)
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages))
    for line in held + [line for line in lines if line.startswith("  band coverage")][:1]:
        assert re.sub(r"\s+", " ", line.strip()) in text, line
    assert head.verdict()[1:] in text  # "Overall: <the same reasons>."
