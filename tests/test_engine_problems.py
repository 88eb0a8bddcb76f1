"""Every problem reaches every front door: what the capacity and performance engines and the failure states raise
is in Evaluation.problems (severity, node), so `storplan evaluate`'s text, its --json problems and the report
list it, once."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from pypdf import PdfReader

from app.report import render_report_bytes
from models.evaluate import Resilience, evaluate, evaluate_resilience, with_resilience
from models.project import load
from models.resources import examples_dir

A800 = examples_dir() / "a800-oracle-slob-fcp.toml"
ROOT = "no ADP root partition size for NetApp AFF A800 HA pair"


def test_the_a800_root_partition_warning_is_a_problem_of_its_controller():
    evaluation = evaluate(load(A800))
    system = evaluation.capacity.systems[0]
    engine = [m for m in system.problems if ROOT in m]
    assert len(engine) == 1  # the capacity engine's own problem ...
    routed = [p for p in evaluation.problems if ROOT in p.message]
    assert [(p.severity, p.message, p.node_id) for p in routed] == [("warning", engine[0], system.system_id)]


def test_evaluate_prints_it_in_text_and_json():
    text = subprocess.run([sys.executable, "-m", "app", "evaluate", str(A800)], capture_output=True, text=True,
                          check=True).stdout
    problems = text.split("\nProblems\n", 1)[1]
    assert f"[warning] controller 'AFF A800 HA pair': {ROOT}" in problems and "(a800)" not in problems  # r2 #5
    assert "55.00 GiB assumed" in problems
    data = json.loads(subprocess.run([sys.executable, "-m", "app", "evaluate", str(A800), "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    found = [p for p in data["problems"] if ROOT in p["message"]]
    assert [(p["severity"], p["node_id"]) for p in found] == [("warning", "a800")]


def test_the_report_lists_it_once():
    project = load(A800)
    pdf = render_report_bytes(project, validation=[])
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages).split())
    assert text.count(ROOT) == 1


def test_an_engine_problem_whose_cause_is_a_design_error_is_not_repeated():
    """30 drives in a 24-bay shelf: the design check's error on the shelf names it; the capacity engine's own
    "30 drives exceed the 24 bays" (and the RAID groups it could not fill) are its consequence, left out."""
    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    scenario = project.scenario
    shelf = next(n for n in scenario.nodes if n.kind == "shelf")
    nodes = [n.model_copy(update={"drive_count": 30}) if n.id == shelf.id else n for n in scenario.nodes]
    evaluation = evaluate(project.with_scenario(scenario.model_copy(update={"nodes": nodes})))
    assert any("30 drives exceed the 24 bays" in m for m in evaluation.capacity.problems)
    assert [p.node_id for p in evaluation.problems if p.severity == "error"] == [shelf.id]
    assert not any("exceed the 24 bays" in p.message or "cannot hold" in p.message for p in evaluation.problems)


def test_failure_state_problems_join_the_evaluation_once():
    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    evaluation = evaluate(project)
    broken = Resilience({}, None, None, None, ("failure states could not be computed: ValueError: x",))
    once = with_resilience(evaluation, broken)
    twice = with_resilience(once, broken)
    assert once.resilience is broken
    assert [p.severity for p in once.problems if "failure states" in p.message] == ["error"]
    assert twice.problems == once.problems
    healthy = evaluate_resilience(project, evaluation)
    assert with_resilience(evaluation, healthy).problems == evaluation.problems
