"""``storplan evaluate --json`` writes its text through pydantic-core (``app.cli.json_text``): the same text the
standard library's ``json.dumps(data, indent=2)`` writes, checked against it on an evaluation and on the awkward
values (non-ASCII text, NaN and infinities, empty containers, large integers)."""

from __future__ import annotations

import json
import math

from app.cli import json_text, load_project_file
from models.design import resolve
from models.evaluate import evaluate, evaluate_resilience, with_layouts, with_resilience
from models.serialize import evaluation_to_dict


def test_json_text_is_the_standard_librarys_text_for_awkward_values() -> None:
    data = {"name": "Überlauf — 100 µs §1.3", "nan": math.nan, "inf": math.inf, "-inf": -math.inf,
            "empty": {"list": [], "dict": {}, "nested": [[], {}]}, "big": 2 ** 70, "neg": -0.0,
            "floats": [0.1, 1e16, 1.5e300, 123456789.125, 5e-324, 1e-4], "flags": [True, False, None],
            "tuple": (1, "two")}
    assert json_text(data) == json.dumps(data, indent=2)
    assert json_text(data).isascii()


def test_json_text_reads_back_to_the_same_values_for_small_numbers() -> None:
    """Below 1e-4 the spelling may differ (``1.9e-5`` for ``1.9e-05``); the value read back is the same float."""
    values = [1.9e-05, -1.2034423772715594e-05, 6.544799041945611e-08, 4.9e-300]
    assert json.loads(json_text(values)) == values


def test_json_text_of_an_evaluation_is_the_standard_librarys_text() -> None:
    loaded = load_project_file("aff-a70-ns224-oracle-nvmetcp", read_only=True)
    project = loaded.project
    design = with_layouts(resolve(project, None, loaded.catalog))
    evaluation = evaluate(project, design=design)
    resilience = evaluate_resilience(project, evaluation, design=design)
    evaluation = with_resilience(evaluation, resilience)
    data = evaluation_to_dict(evaluation, project.info.name, resilience, project.requirements, "TiB")
    text = json_text(data)
    assert text == json.dumps(data, indent=2)
    assert len(text) > 10_000 and json.loads(text)["workloads"]
