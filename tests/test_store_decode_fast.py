"""The store's faster decode path (issue 27: open of 10,000 nodes) reads exactly what the json module reads, and the
project records' control-character check (reordered for speed) still refuses every kind of text it refused."""

from __future__ import annotations

import json
import math

import pytest
from pydantic import ValidationError

from models.project.model import HostNode, Workload
from models.store.codec import _json_hook, from_json, to_json


def _same(a: object, b: object) -> bool:
    """Equal values of equal types, NaN equal to NaN and -0.0 told from 0.0 (repr compares floats bit for bit)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and repr(a) == repr(b)


TEXTS = [
    '{"drive_count":24,"raid":"raid_dp","spares":1}',
    '{"a":0.1,"b":0.30000000000000004,"c":5e-324,"d":1.7976931348623157e308,"e":-0.0,"f":1E5,"g":1e-7}',
    '{"a":2.2250738585072011e-308,"b":123456789012345678901234567890,"c":9007199254740993,"d":-1}',
    '{"a":1,"a":2}',  # duplicate keys: the last one
    '{"a":1e400,"b":-1e400}',
    ' {"a" : [1, 2.5, true, false, null, "x"]} ',
    '[]', '{}', '"text"', "12", "null",
    "[" * 300 + "]" * 300,  # deeper than pydantic-core's parser goes: the json module's answer
    '{"when":{"$storplan_toml_date":"date","value":"2026-11-29"}}',  # a tagged date: restored
    '{"name":"caf\\u00e9 \\"x\\""}',  # escapes: the json module's path
    '{"name":"café"}',  # non-ASCII: the json module's path
]


@pytest.mark.parametrize("text", TEXTS)
def test_from_json_reads_what_the_json_module_reads(text):
    expected = json.loads(text, object_hook=_json_hook)
    got = from_json(text)
    assert json.dumps(got, default=str, sort_keys=True) == json.dumps(expected, default=str, sort_keys=True)
    stack = [(got, expected)]
    while stack:  # the same types and floats bit for bit, all the way down
        a, b = stack.pop()
        assert type(a) is type(b)
        if isinstance(a, dict):
            assert list(a) == list(b)
            stack.extend((a[k], b[k]) for k in a)
        elif isinstance(a, list):
            assert len(a) == len(b)
            stack.extend(zip(a, b))
        else:
            assert _same(a, b), (a, b)


def test_from_json_non_finite_values_as_the_json_module():
    got = from_json('{"a":NaN,"b":Infinity,"c":-Infinity}')
    assert math.isnan(got["a"]) and got["b"] == math.inf and got["c"] == -math.inf


@pytest.mark.parametrize("text", ['{"a":01}', '{"a":1.}', "[1,]", '{"a":1} x', "", "{", '{"a":' + "9" * 5000 + "}"])
def test_from_json_refuses_what_the_json_module_refuses(text):
    with pytest.raises(ValueError) as ours:
        from_json(text)
    with pytest.raises(ValueError) as theirs:
        json.loads(text, object_hook=_json_hook)
    assert type(ours.value) is type(theirs.value) and str(ours.value) == str(theirs.value)


def test_from_json_round_trips_to_json():
    value = {"x": 1.1, "n": [1, 2**70, -0.0], "s": "plain"}
    assert from_json(to_json(value)) == value


@pytest.mark.parametrize(("field", "value"), [("label", "shelf\x07"), ("label", b"ab\x00c"), ("adapter", "\x1b[31m")])
def test_record_text_with_a_control_character_is_refused(field, value):
    with pytest.raises(ValidationError) as info:
        HostNode.model_validate({"id": "h1", "catalog_id": "generic-host", field: value})
    assert f"field '{field}': holds a control character" in str(info.value)


def test_record_list_of_text_with_a_control_character_is_refused():
    base = {"id": "w1", "name": "db", "target": "c1", "block_kib": 8, "read_pct": 70, "random_pct": 100}
    assert Workload.model_validate({**base, "hosts": ["h1", "h2\ttab is fine"]}).hosts[1] == "h2\ttab is fine"
    with pytest.raises(ValidationError) as info:
        Workload.model_validate({**base, "hosts": ["h1", "h2\x7f"]})
    assert "field 'hosts': holds a control character (U+007F)" in str(info.value)



def _saved_with(tmp_path, sql: str, *params):
    """The default example saved as a .storplan file, then changed by one SQL statement (as a crafted file is)."""
    import sqlite3

    from models.resources import examples_dir
    from models.store import load_any, save_project

    path = tmp_path / "p.storplan"
    save_project(load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"), path)
    conn = sqlite3.connect(path)
    conn.execute(sql, params)
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("code", [0x00, 0x07, 0x08, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F])
def test_the_one_pass_search_finds_every_control_character_in_values_and_keys(code):
    from models.store.codec import _no_control_character

    text = f"shelf{chr(code)}1"
    assert _no_control_character({"a": [{"b": "plain", "c": 1.5, "d": None}]}) is True
    assert _no_control_character({"a": [{"b": text}]}) is False
    assert _no_control_character({"a": {text: 1}}) is False
    assert _no_control_character({"a": [text.encode()]}) is False


def test_the_one_pass_search_leaves_allowed_line_breaks_and_odd_values_to_the_records():
    from models.store.codec import _no_control_character

    assert _no_control_character({"a": "two\nlines\ttab"}) is False  # allowed, but the records decide
    assert _no_control_character({"a": b"\xff"}) is False  # not UTF-8: not plain JSON


def test_a_file_with_a_control_character_in_a_node_label_is_refused_naming_it(tmp_path):
    from models.store import StoreError, open_project

    path = _saved_with(tmp_path, "UPDATE node SET label = ? WHERE position = 0", "ctrl\x07")
    with pytest.raises(StoreError) as info:
        open_project(path)
    assert info.value.reason == "invalid"
    assert "field 'label': holds a control character (U+0007)" in str(info.value)


def test_a_file_with_a_control_character_in_node_parameters_is_refused_naming_it(tmp_path):
    import sqlite3

    from models.store import StoreError, open_project
    from models.store.codec import from_json, to_json

    path = _saved_with(tmp_path, "SELECT 1")
    conn = sqlite3.connect(path)
    node_id, params = conn.execute("SELECT id, params FROM node WHERE kind = 'host' LIMIT 1").fetchone()
    conn.execute("UPDATE node SET params = ? WHERE id = ?", (to_json({**from_json(params), "adapter": "\x1b[0m"}),
                                                              node_id))
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as info:
        open_project(path)
    assert "field 'adapter': holds a control character (U+001B)" in str(info.value)


def test_a_file_with_tabs_and_line_breaks_in_its_text_opens_as_saved(tmp_path):
    from models.store import open_project

    path = _saved_with(tmp_path, "UPDATE meta SET description = ?", "first line\n\tindented, and a \\ backslash")
    assert open_project(path).project.info.description == "first line\n\tindented, and a \\ backslash"


def test_records_skip_their_own_search_only_when_the_caller_says_it_searched():
    from models.project.model import TEXT_CHECKED

    data = {"id": "h1", "catalog_id": "generic-host", "label": "bell\x07"}
    with pytest.raises(ValidationError):
        HostNode.model_validate(data)
    with pytest.raises(ValidationError):
        HostNode.model_validate(data, context={"other": True})
    assert HostNode.model_validate(data, context={TEXT_CHECKED: True}).label == "bell\x07"
