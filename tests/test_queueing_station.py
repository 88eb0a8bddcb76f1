"""Station validation: clear ValueErrors naming the station and the field."""

import math

import pytest

from models.queueing import Station


def test_valid_station_is_frozen_and_hashable():
    s = Station("cpu", 0.01, servers=4)
    assert s.servers == 4 and s.demand_s == 0.01 and not s.delay
    with pytest.raises(AttributeError):
        s.servers = 2  # type: ignore[misc]
    m = Station("disk", {"read": 0.002, "write": 0.004})
    assert hash(m) == hash(Station("disk", {"write": 0.004, "read": 0.002}))
    with pytest.raises(TypeError):
        m.demand_s["read"] = 1.0  # type: ignore[index]
    assert m.demand_for("read") == 0.002 and m.demand_for("other") == 0.0


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(name="", demand_s=1.0), "name"),
        (dict(name="x", demand_s=-1.0), "demand_s"),
        (dict(name="x", demand_s=math.nan), "demand_s"),
        (dict(name="x", demand_s=math.inf), "demand_s"),
        (dict(name="x", demand_s="1"), "demand_s"),
        (dict(name="x", demand_s=1.0, servers=0), "servers"),
        (dict(name="x", demand_s=1.0, servers=2.0), "servers"),
        (dict(name="x", demand_s=1.0, servers=True), "servers"),
        (dict(name="x", demand_s={"a": -0.1}), "demand_s['a']"),
        (dict(name="x", demand_s={"": 0.1}), "class names"),
    ],
)
def test_invalid_station_raises_naming_field(kwargs, field):
    with pytest.raises(ValueError) as err:
        Station(**kwargs)
    assert field in str(err.value)
    if kwargs["name"]:
        assert repr(kwargs["name"]) in str(err.value)


def test_zero_demand_is_allowed():
    assert Station("idle", 0.0).demand_s == 0.0
