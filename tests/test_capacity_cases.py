"""Every [[capacity]] case of published.toml is reproduced within tolerance, through CAPACITY_CASES and directly."""

import tomllib

import pytest

from models.capacity import evaluate_capacity
from models.catalog import bundled_catalog
from models.resources import validation_dir
from models.units import TB, TIB
from models.validation.capacity_cases import CAPACITY_CASES, aff8080_scenario

CASES = tomllib.loads((validation_dir() / "published.toml").read_text(encoding="utf-8"))["capacity"]


def test_every_capacity_case_has_a_function():
    assert {c["id"] for c in CASES} == set(CAPACITY_CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_within_tolerance(case):
    checks = CAPACITY_CASES[case["id"]](bundled_catalog(), case)
    published = {k for k, v in case.items() if isinstance(v, (int, float)) and k != "tolerance"}
    assert {c.quantity for c in checks} == published, "a check for every published number"
    for check in checks:
        assert check.passed, (f"{check.quantity}: published {check.published} predicted {check.predicted} "
                              f"({check.error:+.1%})")
        assert check.seed.startswith(case["seed"])
    if case.get("note"):
        assert any(c.interpretation for c in checks), "a loose case states its interpretation"


def test_aff8080_direct_through_the_engine():
    result = evaluate_capacity(aff8080_scenario(), bundled_catalog())
    system = result.systems[0]
    assert system.raw_bytes / TB == pytest.approx(38.4)
    # 2 nodes x 21 x (744.97 - 55) GiB x 0.9
    assert system.usable_bytes == pytest.approx(2 * 21 * (799_903_055_872 - 55 * 2**30) * 0.9)
    assert system.usable_bytes / TIB == pytest.approx(25.5, rel=0.02)
    assert [a.group_sizes for a in system.aggregates] == [(23,), (23,)]
    assert "1 x (21+2) data partitions" in system.layout[0] and "1 spare drive" in system.layout[0]
    assert [s.name for s in system.steps] == ["Raw (marketed)", "Right-sized", "Spares", "ADP root partitions",
                                             "RAID DP parity", "WAFL reserve"]
    assert result.problems == ()
