"""One entry point from a project to its results: capacity, performance and problems of a scenario.

The GUI worker, the CLI and the PDF report all call :func:`evaluate`; none computes numbers of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.catalog import Catalog, CatalogError, bundled_catalog, load_user_catalog, parse_entries
from models.project.model import Project
from models.project.problems import Problem, find_problems


@dataclass(frozen=True)
class Evaluation:
    """Everything StorPlan predicts for one scenario of a project.

    Attributes:
        scenario: the scenario's name.
        capacity: a ``models.capacity.ScenarioCapacity`` (None when the engine failed: see ``problems``).
        performance: a ``models.performance.ScenarioPerformance`` (None when the engine failed).
        problems: topology problems and engine failures, each naming what is wrong and where.
    """

    scenario: str
    capacity: object | None
    performance: object | None
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        """The problems of severity "error" (results wrong or missing: design errors, engine failures), in order."""
        return tuple(p for p in self.problems if p.severity == "error")


def project_catalog(project: Project, base: Catalog | None = None) -> Catalog:
    """The catalog a project evaluates against: the given catalog (default: bundled plus the user's own records)
    plus the project's own records.

    Raises:
        CatalogError: a project record is invalid (the message names the project, kind, entry and field).
    """
    if base is None:
        try:
            base = load_user_catalog()
        except CatalogError:
            base = bundled_catalog()  # a broken user catalog is reported by `storplan catalog` and the app
    if not project.custom_catalog:
        return base
    return base.with_entries(parse_entries(project.custom_catalog, f"project '{project.info.name}' catalog"))


def evaluate(project: Project, scenario_name: str | None = None, catalog: Catalog | None = None) -> Evaluation:
    """Evaluate one scenario (default: the active one) of a project.

    Engine failures do not raise: they become ``error`` problems and the failing part of the result is None, so
    callers can keep showing the last good result.

    Raises:
        KeyError: ``scenario_name`` is not a scenario of the project.
    """
    scenario = project.scenario_named(scenario_name) if scenario_name else project.scenario
    problems: list[Problem] = []
    try:
        catalog = project_catalog(project, catalog)
    except CatalogError as exc:
        problems.append(Problem("error", f"project catalog: {exc}"))
        catalog = catalog or bundled_catalog()
    problems.extend(find_problems(scenario, catalog))
    capacity = performance = None
    try:
        from models.capacity import evaluate_capacity

        capacity = evaluate_capacity(scenario, catalog)
    except Exception as exc:  # an engine bug must not lose the user's work: report it as a problem
        problems.append(Problem("error", f"capacity engine failed: {type(exc).__name__}: {exc}"))
    try:
        from models.performance import evaluate_performance

        performance = evaluate_performance(scenario, catalog, project.settings)
    except Exception as exc:
        problems.append(Problem("error", f"performance engine failed: {type(exc).__name__}: {exc}"))
    return Evaluation(scenario.name, capacity, performance, tuple(problems))
