"""``storplan evaluate --json`` cites what the PDF and the GUI cite (review 54, answers #15): its capacity steps'
sources, profile reasons and notes name the published documents, never a seed file ("seed 000 §1.3"), an internal
notes file ("public_facts.md") or an engine module; every number stays what the engine computed."""

from __future__ import annotations

import json
import re

import pytest

from app.cli import main
from models.project import load
from models.resources import examples_dir

INTERNAL = re.compile(r"\bseed \d{3}\b|public_facts|\.md\b|\bmodels\.[a-z_]+\.")
"""What a customer must never read: a seed file's number, the notes file, a module path."""

EXAMPLES = ("aff8080-sqlserver-tpce", "vsan8-osa-hybrid-4host-oltp", "cvo-azure-ds14-ha-oltp",
            "ef600-nvme-ddp-oltp-nvmefc")


def _texts(value, key=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v, key)
    elif isinstance(value, str):
        yield key, value


def _evaluate_json(capsys, example: str) -> dict:
    assert main(["evaluate", example, "--json"]) in (0, 1)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("example", EXAMPLES)
def test_json_sources_name_no_internal_file(capsys, example):
    data = _evaluate_json(capsys, example)
    leaks = [(k, t[:120]) for k, t in _texts(data) if INTERNAL.search(t)]
    assert not leaks, leaks
    # the seed report is cited by its title where the engine's text named the seed file
    if example == "aff8080-sqlserver-tpce":
        sources = [t for k, t in _texts(data) if k == "source"]
        assert any("NetApp AFF8080A EX Storage Efficiency and Performance with SQL Server 2014" in t for t in sources)


def test_json_numbers_are_the_engines(capsys):
    """The rewrite touches texts only: the JSON's saturation and usable capacity are the evaluation's own."""
    from models.evaluate import evaluate

    example = "aff8080-sqlserver-tpce"
    data = _evaluate_json(capsys, example)
    evaluation = evaluate(load(examples_dir() / f"{example}.toml"))
    assert data["capacity"]["usable_bytes"] == evaluation.capacity.total.usable_bytes
    assert data["workloads"][0]["saturation_iops"] == evaluation.performance.workloads[0].saturation_iops
