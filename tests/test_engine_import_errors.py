"""An engine that cannot be imported is an error, never "no model for this case yet": a traceback where the
engines are called directly, one message in the app's evaluation outcome."""

from __future__ import annotations

import sys

import pytest

from app.gui.evaluation import run_evaluation
from models.project import Project
from models.validation.cases import case_functions


def test_case_functions_raise_when_the_performance_cases_cannot_be_imported(monkeypatch):
    """No empty table of performance cases: the import error reaches the caller."""
    monkeypatch.setitem(sys.modules, "models.validation.performance_cases", None)
    with pytest.raises(ImportError):
        case_functions()


def test_case_functions_hold_the_performance_cases():
    """The table the validation runner reads has the performance cases (none silently missing)."""
    from models.validation.performance_cases import PERFORMANCE_CASES

    functions = case_functions()
    assert PERFORMANCE_CASES and set(PERFORMANCE_CASES) <= set(functions)


def test_evaluation_outcome_names_an_engine_import_error(monkeypatch):
    """The app's evaluation run turns a broken engine import into its one failure message, with no results."""
    monkeypatch.setitem(sys.modules, "models.performance", None)
    outcome = run_evaluation(Project(), ("Base",), generation=7)
    assert outcome.generation == 7
    assert outcome.evaluations == ()
    assert outcome.error is not None and outcome.error.startswith("engine failed: ModuleNotFoundError")
    assert "models.performance" in outcome.error


def test_evaluation_outcome_without_error_when_the_engines_import():
    """The same run with the engines present evaluates the scenario and reports no error."""
    outcome = run_evaluation(Project(), ("Base",))
    assert outcome.error is None
    assert [e.scenario for e in outcome.evaluations] == ["Base"]


def test_evaluate_raises_an_engine_import_error(monkeypatch):
    """``models.evaluate.evaluate`` lets an engine's import error through (a broken install is a traceback),
    where an engine's runtime failure becomes an error problem."""
    from models.evaluate import evaluate

    monkeypatch.setitem(sys.modules, "models.capacity", None)
    with pytest.raises(ImportError):
        evaluate(Project())
