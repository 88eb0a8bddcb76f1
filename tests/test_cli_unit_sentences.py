"""``storplan evaluate --unit TB`` words every sentence in TB (review cons57 #3): the N+k requirement check was
worded in the project's TiB while the rest of the output was in TB ("14.55 TiB of 22.92 TiB usable" beside "16.00 TB
of 33.61 TB usable"), and with --json the steps' formulas ("40 x 2.18 TiB") and notes stayed in TiB. Citations (a
step's source) and the published price rules of the cost options keep their publisher's words."""

from __future__ import annotations

import json
import re

import pytest

from app import cli

EXAMPLE = "vsan8-osa-hybrid-4host-oltp"
BINARY = re.compile(r"\d TiB|\d GiB")


def _evaluate(capsys, *args: str) -> str:
    assert cli.main(["evaluate", EXAMPLE, *args]) in (0, 1)
    return capsys.readouterr().out


def _texts(value, path=""):
    """(path, text) of every string outside citations and the cost options (published price rules)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _texts(v, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            if k in ("source", "sources", "tco"):
                continue
            yield from _texts(v, f"{path}.{k}")


def test_text_output_in_tb_has_no_tib(capsys) -> None:
    text = _evaluate(capsys, "--unit", "TB")
    assert not BINARY.search(text), [line for line in text.splitlines() if BINARY.search(line)]
    data = json.loads(_evaluate(capsys, "--json", "--unit", "TB"))
    state = next(s for s in data["capacity_states"] if s["state"] == "host_failure")
    usable_tb = state["usable_bytes"] / 1e12  # the N+1 cluster's usable capacity, independent of the wording
    assert f"of {usable_tb:.2f} TB usable" in text


def test_json_in_tb_has_no_tib_outside_citations(capsys) -> None:
    data = json.loads(_evaluate(capsys, "--json", "--unit", "TB"))
    found = [(p, t) for p, t in _texts(data) if BINARY.search(t)]
    assert not found, found[:5]
    check = next(c for c in data["requirement_checks"] if c["requirement"] == "n_plus")
    state = next(s for s in data["capacity_states"] if s["state"] == "host_failure")
    assert f"of {state['usable_bytes'] / 1e12:.2f} TB usable" in check["text"]
    assert check["text"] == data["verdict"]["missed"][0]["text"]
    right_sized = next(s for s in data["capacity"]["steps"] if s["name"] == "Right-sized")
    drives, size = re.fullmatch(r"(\d+) x ([\d.]+) TB", right_sized["formula"]).groups()
    assert int(drives) * float(size) * 1e12 == pytest.approx(right_sized["bytes_after"], rel=5e-3)
    # the numbers are bytes whatever the unit: the same as in the project's own unit
    own = json.loads(_evaluate(capsys, "--json"))
    assert own["capacity"]["usable_bytes"] == data["capacity"]["usable_bytes"]
    assert "TiB" in own["requirement_checks"][0]["text"]  # the project's unit (TiB) without --unit
