"""``app.json_text.dumps`` writes exactly what ``json.dumps(value, indent=2)`` writes (``storplan evaluate --json``
prints with it), for any JSON-like value, and fails as it fails."""

from __future__ import annotations

import enum
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.json_text import dumps

_scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
            | st.text())
_keys = st.text() | st.integers() | st.floats(allow_nan=True) | st.booleans() | st.none()
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
                       | st.dictionaries(_keys, inner, max_size=5), max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(_values)
def test_the_same_text_as_json_dumps_with_indent_two(value):
    assert dumps(value) == json.dumps(value, indent=2)


class _Level(enum.IntEnum):
    LOW = 1


class _Name(enum.StrEnum):
    A = "a\u00e9"


class _Dict(dict):
    def items(self):  # json iterates a dict subclass through items(): so must dumps
        return sorted(super().items())


def test_subclasses_non_finite_numbers_and_numpy_floats_are_written_as_json_writes_them():
    value = {"level": _Level.LOW, "name": _Name.A, "nan": math.nan, "inf": -math.inf, 1.5: [np.float64(0.1), ()],
             None: {}, True: [], "sub": _Dict(b=2, a=1), "list": type("L", (list,), {})([1, 2])}
    text = dumps(value)
    assert text == json.dumps(value, indent=2)
    assert '"nan": NaN' in text and '"inf": -Infinity' in text and '"1.5": [\n    0.1,\n    []\n  ]' in text
    assert '"sub": {\n    "a": 1,\n    "b": 2\n  }' in text  # the subclass's own items(), as json takes them


def test_what_json_refuses_is_refused_the_same_way():
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps({"a": [1, {2, 3}]})
    with pytest.raises(TypeError, match="keys must be str"):
        dumps({(1, 2): 3})
    circular: list = [1]
    circular.append(circular)
    with pytest.raises(ValueError, match="Circular reference"):
        dumps({"a": circular})


def test_deep_structures_are_written_whole():
    deep: list = []
    for _ in range(400):
        deep = [deep, 1.0]
    assert dumps(deep) == json.dumps(deep, indent=2)
