"""Named daily change profiles, the check of 24 typed weights, and the profile edit of a relationship."""

from __future__ import annotations

import pytest

from models.project import load
from models.project.replication_edits import set_change_profile, set_change_rate
from models.replication.figures import peak_window_share
from models.replication.profiles import CUSTOM, PROFILE_SHAPES, parse_profile, shape_of
from models.resources import examples_dir


def test_named_shapes_have_the_worst_hour_their_description_says():
    # business hours: 10 hours at 2, 14 at 1 -> 34; overnight: 8 hours at 4, 16 at 1 -> 48
    assert peak_window_share(PROFILE_SHAPES["business-hours"][1], 1.0) == pytest.approx(2 / 34)
    assert peak_window_share(PROFILE_SHAPES["overnight-batch"][1], 1.0) == pytest.approx(4 / 48)
    assert peak_window_share(PROFILE_SHAPES["even"][1], 1.0) == pytest.approx(1 / 24)
    # an 8-hour window over the whole overnight batch holds 32/48 of the day
    assert peak_window_share(PROFILE_SHAPES["overnight-batch"][1], 8.0) == pytest.approx(32 / 48)


def test_shape_of_recognises_scaled_shapes_and_calls_the_rest_custom():
    assert shape_of([]) == "even" and shape_of([3.0] * 24) == "even"
    assert shape_of([w * 5 for w in PROFILE_SHAPES["business-hours"][1]]) == "business-hours"
    assert shape_of(PROFILE_SHAPES["overnight-batch"][1]) == "overnight-batch"
    assert shape_of([1.0] * 23 + [2.0]) == CUSTOM


@pytest.mark.parametrize(("texts", "message"), [
    (["1"] * 5 + ["x"] + ["1"] * 18, "Hour 05:00-06:00: 'x' is not a number"),
    (["1"] * 23 + ["-2"], "Hour 23:00-00:00: -2 is negative"),
    (["1"] * 10 + ["inf"] + ["1"] * 13, "Hour 10:00-11:00: 'inf' is not a finite number"),
    (["0"] * 24, "Every hour's weight is 0"),
    (["1"] * 23, "24 hourly weights, got 23"),
])
def test_bad_weights_are_refused_naming_the_hour(texts, message):
    with pytest.raises(ValueError, match=message):
        parse_profile(texts)


def test_empty_cells_are_zero_and_a_decimal_comma_is_read():
    assert parse_profile([""] * 12 + ["1,5"] + [""] * 11) == [0.0] * 12 + [1.5] + [0.0] * 11


def test_profile_edit_keeps_the_change_rate_and_even_without_a_rate_drops_the_row():
    scenario = load(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml").scenario
    flat = set_change_profile(scenario, "dr", "oltp", [])
    (row,) = flat.replications[0].change
    assert row.hourly_profile == [] and row.bytes_per_day == 400 * 10**9
    default = set_change_rate(flat, "dr", "oltp", None)
    assert default.replications[0].change == []  # no rate, no profile: no row
    shaped = set_change_profile(default, "dr", "oltp", PROFILE_SHAPES["overnight-batch"][1])
    (row,) = shaped.replications[0].change
    assert row.bytes_per_day is None and row.hourly_profile == PROFILE_SHAPES["overnight-batch"][1]
    assert set_change_profile(default, "dr", "oltp", []) is default
    with pytest.raises(ValueError, match="no workload 'nope'"):
        set_change_profile(scenario, "dr", "nope", [])
    with pytest.raises(ValueError, match="every weight is 0"):
        set_change_profile(scenario, "dr", "oltp", [0.0] * 24)
