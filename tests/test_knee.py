"""Curve-shape tests (issue 14 item 4): every bundled example's ``evaluate --json`` shows a gradual knee or says
why not; every public measured ramp with at least four points is compared at its 50% and 80% load levels with
the model's latency at 50% and 80% of its own saturation. The two SPECstorage ramps are fitted (their NFS
profiles, every load level: in-sample, with their leave-one-out predictions stored); the SPECsfs2008 FAS3140
ramp is a prediction no fit reads, and where the model misses it the comparison is an expected failure with the
numbers in its reason, not a hidden one."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.performance.knee import KNEE_MIN_RATIO
from models.performance.public_ramps import RAMP_BUILDERS
from models.project import load
from models.resources import examples_dir
from models.serialize import evaluation_to_dict
from models.validation import run_ramps
from models.validation.cases import RAMP_SECTIONS, published_cases
from models.validation.ramp_cases import block_kib_of, case_ramp, published_shape

ANF_RAMP = "specstorage2020-eda-anf-large-volume"
"""SPECstorage Solution 2020_eda_blended result storage2020-20250929-00143 (Azure NetApp Files large volume)."""

EXAMPLES = sorted(p.name for p in examples_dir().glob("*.toml"))
RAMPS = [case for section in RAMP_SECTIONS for case in published_cases()[section]]
LONG_RAMPS = [case for case in RAMPS if len(case["points"]) >= 4 and any(p["pct"] == 10 for p in case["points"])]
"""Ramps with a 10% level (the shape's light-load reference) and at least four points; the Azure NetApp Files
large volume ramp's levels are sixteenths of its peak (no 10% level, no shape checks): its own tests are below."""


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_json_has_a_knee_or_a_note(example):
    """The --json fields: latency at 80% of saturation >= 1.3 x the light-load latency, else a knee_note that
    says why; the 50% point lies between the light-load and the 80% latency (the curve rises with load)."""
    data = evaluation_to_dict(evaluate(load(examples_dir() / example)))
    assert data["workloads"], example
    for w in data["workloads"]:
        light, mid, high = (w["light_load_latency_ms"], w["latency_at_50pct_saturation_ms"],
                            w["latency_at_80pct_saturation_ms"])
        assert light is not None and light > 0, (example, w["name"])
        if high is None:  # no finite saturation: the note must say so
            assert w["knee_note"], (example, w["name"])
            continue
        assert light <= mid * (1 + 1e-9) and mid <= high * (1 + 1e-9), (example, w["name"], light, mid, high)
        assert high >= KNEE_MIN_RATIO * light or (isinstance(w["knee_note"], str) and w["knee_note"].strip()), (
            example, w["name"], high / light)


def test_ramps_are_recorded_with_their_sources():
    """Each ramp names its public result and section (with its address), a known scenario builder, and load
    levels up to 100% in order; the three ramps of 10% steps hold ten levels each (10..100%), the Azure NetApp
    Files large volume ramp sixteen (sixteenths of its peak)."""
    assert {c["id"] for c in RAMPS} == {"specstorage2020-swbuild-a900-2node", "specstorage2020-eda-a90-8node",
                                        "specsfs2008-fas3140-sata-pam", ANF_RAMP}
    for case in RAMPS:
        assert case["seed"] and "http" in case["section"], case["id"]
        assert case["setup"] in RAMP_BUILDERS
        pcts = [p["pct"] for p in case["points"]]
        assert pcts == sorted(pcts) and pcts[-1] == 100
        if case["id"] == ANF_RAMP:
            assert pcts == [100 * k / 16 for k in range(1, 17)]
        else:
            assert pcts[0] == 10 and len(pcts) == 10


def test_transfer_per_data_operation_is_published_mbps_over_data_ops():
    """A900 swbuild 10% level: 772 MB/s at 95,003 Ops/s = 8,126 bytes = 7.94 KiB per operation; 28% of the SPEC SFS
    2008 mix's operations move data (18% reads + 10% writes), so a read or write moves 7.94 / 0.28 = 28.3 KiB."""
    point = next(c for c in RAMPS if c["setup"] == "a900_swbuild")["points"][0]
    assert block_kib_of(point) == pytest.approx(772e6 / 95003 / 1024 / 0.28)
    assert block_kib_of(point) == pytest.approx(28.34, abs=0.01)


def test_published_shapes_are_read_from_the_table():
    """Published ratios (latency at 50% / 80% / 90% over 10%): A900 swbuild 0.6/0.6 = 1.0, 0.8/0.6 = 1.33,
    3.2/0.6 = 5.33; A90 eda_blended 0.6/0.4 = 1.5, 1.5/0.4 = 3.75, 2.6/0.4 = 6.5; FAS3140 SPECsfs2008
    2.0/0.9 = 2.22, 4.1/0.9 = 4.56, 5.8/0.9 = 6.44."""
    by_setup = {c["setup"]: published_shape(c["points"]) for c in LONG_RAMPS}
    assert by_setup["a900_swbuild"] == pytest.approx({50: 1.0, 80: 0.8 / 0.6, 90: 3.2 / 0.6})
    assert by_setup["a90_eda"] == pytest.approx({50: 1.5, 80: 3.75, 90: 6.5})
    assert by_setup["fas3140_sfs2008"] == pytest.approx({50: 2.0 / 0.9, 80: 4.1 / 0.9, 90: 5.8 / 0.9})


def test_a_ramp_without_mbps_uses_its_stated_block():
    """SPECsfs2008 prints no MB/s: the FAS3140 ramp uses its case's block_kib (8 KiB, an assumption); without
    one the transfer is unknown and the function says so."""
    case = next(c for c in RAMPS if c["setup"] == "fas3140_sfs2008")
    assert block_kib_of(case["points"][0], case["block_kib"]) == 8.0
    with pytest.raises(KeyError, match="prints no MB/s"):
        block_kib_of(case["points"][0])


FITTED_RAMPS = {"specstorage2020-swbuild-a900-2node", "specstorage2020-eda-a90-8node"}
"""The ramps a calibration fit reads (models.calibration.seed_profiles.NFS_RAMP_FITS)."""


def test_fitted_ramps_are_in_sample_with_left_out_predictions_and_the_rest_are_predictions():
    """Every check of a fitted ramp is in-sample and carries its leave-one-ramp-out prediction (the stored
    cross-validation is current); the FAS3140 ramp's checks are predictions; every case runs."""
    from models.calibration.seed_profiles import NFS_RAMP_FITS

    assert {ramp for ramp, _, _ in NFS_RAMP_FITS.values()} == FITTED_RAMPS
    outcomes = run_ramps()
    assert {o.case_id for o in outcomes} == {c["id"] for c in RAMPS}
    for o in outcomes:
        assert not o.error, o.error
        assert o.checks, o.case_id
        if o.case_id in FITTED_RAMPS:
            assert all(c.sample_mark == "in-sample" for c in o.checks), o.case_id
            assert all(c.out_of_sample is not None for c in o.checks), o.case_id
        else:  # the large volume's saturation bound is in-sample by its case's input (its own test below)
            assert all(c.sample_mark == "prediction" for c in o.checks
                       if (o.case_id, c.quantity) != (ANF_RAMP, "saturation_ops_per_sec")), o.case_id


@pytest.mark.parametrize("case", LONG_RAMPS, ids=[c["id"] for c in LONG_RAMPS])
def test_predicted_shape_rises_with_load(case):
    """The model's own curve: latency at 90% of saturation >= at 80% >= at 50% >= at 10% (a queue never gets
    faster with load)."""
    checks = {c.quantity: c for c in case_ramp(bundled_catalog(), case)}
    ratios = [checks[f"knee_ratio_{pct}_to_10"].predicted for pct in (50, 80, 90)]
    assert all(math.isfinite(r) for r in ratios)
    assert 1.0 <= ratios[0] <= ratios[1] <= ratios[2]


def _miss_text(case) -> str:
    """The 50% / 80% comparisons of a ramp in words (for the expected-failure reason)."""
    checks = {c.quantity: c for c in case_ramp(bundled_catalog(), case)}
    keys = ("latency_ms_at_50pct_load", "latency_ms_at_80pct_load", "knee_ratio_50_to_10", "knee_ratio_80_to_10")
    return "; ".join(f"{k}: published {checks[k].published:.3g}, predicted {checks[k].predicted:.3g}" for k in keys)


FAS3140_MISS = ("the FAS3140 ramp is a prediction no fit reads (numbers as of this commit; the failure message "
                "prints the current ones): its light-load latency is 1.7 ms predicted vs 0.9 ms measured with the "
                "32 GB PAM read cache per controller and short-stroke seeks over the ~7% of the SATA drives the data "
                "set fills modelled (the tested working set and drive count are assumed), and the shape at 80% is "
                "2.0x vs 4.6x. Strict: passing means the prediction became realistic and this mark goes.")


@pytest.mark.parametrize("case", [pytest.param(c, marks=() if c["id"] in FITTED_RAMPS else
                                               pytest.mark.xfail(strict=True, reason=FAS3140_MISS))
                                  for c in LONG_RAMPS], ids=[c["id"] for c in LONG_RAMPS])
def test_latency_at_50_and_80pct_matches_the_published_ramp(case):
    """At the 50% and 80% load levels the predicted latency (at the published Ops/s) and the predicted shape
    (latency at 50% / 80% over 10% of the model's saturation) are within the case's tolerance of the published:
    in-sample for the two fitted SPECstorage ramps, an (expected-failing) prediction for the FAS3140."""
    checks = {c.quantity: c for c in case_ramp(bundled_catalog(), case)}
    keys = ("latency_ms_at_50pct_load", "latency_ms_at_80pct_load", "knee_ratio_50_to_10", "knee_ratio_80_to_10")
    failing = [k for k in keys if not checks[k].passed]
    assert not failing, _miss_text(case)


def test_a90_fitted_ramp_holds_at_every_level():
    """The AFF A90 eda_blended ramp's fitted NFS profile puts every one of its ten load levels (client-side
    latency at the published Ops/s) within the case's 35% of the published latency, 0.4 ms at 10% up to 4.9 ms
    at 100%, and the model's saturation is not below the published peak (3,644,870 Ops/s)."""
    case = next(c for c in RAMPS if c["id"] == "specstorage2020-eda-a90-8node")
    checks = case_ramp(bundled_catalog(), case)
    levels = [c for c in checks if c.quantity.startswith("latency_ms_at_")]
    assert len(levels) == 10 and all(c.passed for c in levels), [(c.quantity, c.predicted) for c in levels]
    sat = next(c for c in checks if c.quantity == "saturation_ops_per_sec")
    assert sat.predicted >= 3_644_870


def test_validate_counts_the_ramps_in_its_headline():
    """``storplan validate`` prints the ramps after the seed cases with their own summary lines, and counts them in
    its headline: every ramp check in its category, every failing one named; their out-of-sample latency summary
    misses its 30% target, so the exit status is 1 (an honest miss is not hidden to keep 0)."""
    out = subprocess.run([sys.executable, "-m", "app", "validate"], capture_output=True, text=True, timeout=120)
    assert "measured ramps (public benchmarks" in out.stdout
    assert "ramp checks within tolerance" in out.stdout
    lines = out.stdout.splitlines()
    ramps = run_ramps()
    failing = [c for o in ramps for c in o.checks if not c.passed]
    assert failing
    for c in failing:  # each failing ramp check is named in the failing list
        assert any(line.startswith(f"FAIL {c.category}: {c.case_id} {c.quantity} (") for line in lines), c.quantity
    target = next(line for line in lines if line.startswith("  out-of-sample measured ramps latency:"))
    assert target.endswith("(target at most 30%): MISSED")
    assert out.returncode == 1, out.stdout[-2000:]


def test_anf_large_volume_ramp_is_the_published_table():
    """The ramp holds the 16 load points of result storage2020-20250929-00143's Performance table as printed: 110
    Job_Sets, 0.3 ms, 49,502 Ops/s, 798 MB/s first, 1760 Job_Sets, 2.3 ms, 792,046 Ops/s, 12,780 MB/s last; each
    level's pct is its Job_Sets over the peak's 1760, and Ops/s and MB/s rise with the load."""
    case = next(c for c in RAMPS if c["id"] == ANF_RAMP)
    points = case["points"]
    assert len(points) == 16
    assert points[0] == {"pct": 6.25, "job_sets": 110, "ops_per_sec": 49502, "mbps": 798, "latency_ms": 0.3}
    assert points[-1] == {"pct": 100, "job_sets": 1760, "ops_per_sec": 792046, "mbps": 12780, "latency_ms": 2.3}
    assert [p["job_sets"] for p in points] == [110 * k for k in range(1, 17)]
    assert all(p["pct"] == pytest.approx(100 * p["job_sets"] / 1760) for p in points)
    ops = [p["ops_per_sec"] for p in points]
    assert ops == sorted(ops) and [p["mbps"] for p in points] == sorted(p["mbps"] for p in points)
    assert [p["latency_ms"] for p in points] == [0.3] * 5 + [0.4] * 7 + [0.5, 0.7, 1.0, 2.3]


def test_anf_large_volume_ramp_is_never_fitted():
    """No calibration reads the ramp: it is not an NFS ramp fit, no fit's observations name it, the
    cross-validation does not list it among the fitted cases, and its 16 latency checks are predictions (no shape
    checks: it has no 10% level). Its saturation bound is in-sample, marked by the case: the volume's size is an
    input assumed with the published peak in view."""
    from models.calibration import in_sample_checks
    from models.calibration.seed_profiles import NFS_RAMP_FITS
    from models.validation.cross_validation import fitted_cases

    assert ANF_RAMP not in {ramp for ramp, _, _ in NFS_RAMP_FITS.values()}
    assert ANF_RAMP not in {case for case, _ in in_sample_checks()}
    assert ANF_RAMP not in fitted_cases()
    outcome = next(o for o in run_ramps(cross_validation=None) if o.case_id == ANF_RAMP)
    assert not outcome.error
    assert len(outcome.checks) == 17
    assert not any(c.quantity.startswith("knee_ratio") for c in outcome.checks)
    latency = [c for c in outcome.checks if c.quantity.startswith("latency_ms_at_")]
    assert len(latency) == 16
    assert all(c.sample_mark == "prediction" and not c.fitted_by for c in latency)
    saturation = next(c for c in outcome.checks if c.quantity == "saturation_ops_per_sec")
    assert saturation.category == "in-sample" and "peak MB/s in view" in saturation.fitted_by


def test_anf_large_volume_is_described_for_the_ramp_only():
    """The tested large volume is described from Microsoft's published large-volume limits for this ramp only:
    the bundled catalog (what the sizer offers) has no such record, and the record's throughput ceiling is the
    published 12,800 MiB/s."""
    from models.performance.public_ramps import ANF_LARGE_VOLUME, RAMP_CATALOG_ENTRIES

    assert ANF_LARGE_VOLUME.id not in {e.id for e in bundled_catalog()}
    assert RAMP_CATALOG_ENTRIES["anf_large_volume_eda"] == (ANF_LARGE_VOLUME,)
    assert ANF_LARGE_VOLUME.max_throughput_mbps == pytest.approx(12_800 * 2**20 / 1e6)
    assert ANF_LARGE_VOLUME.kind_of("latency_us") == "assumed"


def test_anf_large_volume_saturation_is_the_throughput_ceiling_over_the_data_per_operation():
    """Predicted saturation: the published 12,800 MiB/s ceiling over the ramp's mean bytes per operation (total
    MB/s over total Ops/s of the 16 levels; metadata operations move no data), within 1e-6, since the
    operation limit (~709,000 reads / ~474,000 writes per s, on the 28% of operations that move data) is far
    from binding; light load is the client round trip plus the service's assumed 0.4 ms floor."""
    from models.performance.managed import CLIENT_RTT_US
    from models.performance.public_ramps import ANF_LARGE_VOLUME

    case = next(c for c in RAMPS if c["id"] == ANF_RAMP)
    checks = {c.quantity: c for c in case_ramp(bundled_catalog(), case)}
    points = case["points"]
    bytes_per_op = sum(p["mbps"] for p in points) * 1e6 / sum(p["ops_per_sec"] for p in points)
    assert checks["saturation_ops_per_sec"].predicted == pytest.approx(
        ANF_LARGE_VOLUME.max_throughput_mbps * 1e6 / bytes_per_op, rel=1e-6)
    light = (CLIENT_RTT_US + ANF_LARGE_VOLUME.latency_us) / 1000
    assert light <= checks["latency_ms_at_6.25pct_load"].predicted <= light * 1.01
