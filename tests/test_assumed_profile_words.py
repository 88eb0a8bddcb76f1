"""A performance verdict's "not measured on this system" says where an assumed profile's numbers come from. The
EF550 runs on its catalogued SANtricity 11 / FCP profile, none of whose fields a measurement fitted (the report's
profile row: "assumed"); its verdict said "from StorPlan's default parameters", the words of a controller with no
profile at all (``paths.UNCALIBRATED_PROFILE``), which it is not (``models.present.summary.PROFILE_KIND_WORDS``:
"a catalogued profile none of whose fields a measurement fitted, ... or the engine's default CPU costs")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from models.evaluate import evaluate
from models.performance.profiles import ProfileBasis, assumed_origin
from models.present.verdicts import ASSUMED_UNMEASURED_WORDS, workload_verdicts
from models.project import load
from models.resources import examples_dir

CATALOGUED = "from its catalogued profile, whose values are assumed, none fitted to a published measurement"
DEFAULT = "from StorPlan's default parameters, not fitted to any published measurement"


def _summary(performance, wp) -> str:
    return " ".join(v.text for v in workload_verdicts(performance) if v.subject == wp.name)


@pytest.mark.parametrize("name", ["ef550-sas-analytics.toml", "spinning192-sas-analytics.toml"])
def test_a_catalogued_assumed_profile_is_not_called_the_default(name):
    performance = evaluate(load(examples_dir() / name)).performance
    wp = performance.workloads[0]
    # the example's facts: an assumed profile from the catalog (SANtricity 11 / FCP; the unnamed array's generic)
    assert wp.profile == "assumed" and "profile was fitted" in wp.profile_basis.reason
    assert assumed_origin(wp.profile_basis) == "catalogued"
    summary = _summary(performance, wp)
    # the P10 within 5% of the 9,537 IOPS target prints to the unit (review 57: rounding never hides its side)
    assert f"not measured on this system: {CATALOGUED}, uncertainty P10–P90 9,322 – 24K" in summary, summary
    assert "default parameters" not in summary


def test_the_default_words_stay_for_a_controller_without_a_profile_and_the_projects_own_is_named():
    performance = evaluate(load(examples_dir() / "ef550-sas-analytics.toml")).performance
    wp = performance.workloads[0]
    for basis, words in ((ProfileBasis("assumed", reason=""), DEFAULT),
                         (ProfileBasis("assumed", reason="the project file's own SANtricity 11 / FCP profile (not "
                                       "the catalog's; StorPlan's calibration did not produce it)"),
                          "from the project file's own profile, not fitted to any published measurement")):
        changed = replace(wp, profile_basis=basis)
        swapped = replace(performance, workloads=(changed, *performance.workloads[1:]))
        assert f"not measured on this system: {words}, uncertainty P10–P90" in _summary(swapped, changed)
    assert ASSUMED_UNMEASURED_WORDS["default"] == DEFAULT
    assert assumed_origin(ProfileBasis("calibrated", reason="no field of the x profile was fitted")) == ""
