"""One evaluation run as a plain function: project in, :class:`EvaluationOutcome` out (Qt-free).

:class:`~app.gui.worker.EvaluationWorker` runs :func:`evaluate_task` through the task runner, in a thread for
small projects and in the warm worker process for large ones; this module is what the worker process imports,
so it imports neither Qt nor the rest of the GUI.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from models.catalog import Catalog
from models.evaluate import Evaluation
from models.project.model import Project

if TYPE_CHECKING:
    from app.gui.task_process import TaskState


@dataclass(frozen=True)
class EvaluationOutcome:
    """What one worker run produced.

    Attributes:
        generation: the run's number (increasing).
        evaluations: one Evaluation per requested scenario, in request order.
        error: None, or why the engines gave no result (an engine failed: its exception, whatever its type,
            including an import error of a broken install, becomes this one message).
        elapsed_s: engine time (wall clock, seconds).
        scenario_names: the scenarios asked for, in order.
        cpu_s: CPU time of the engine call (seconds; what decides thread or worker process for the next run,
            since it does not grow when other programs load the machine).
        in_process: True when the run took place in the worker process.
    """

    generation: int
    evaluations: tuple[Evaluation, ...] = ()
    error: str | None = None
    elapsed_s: float = 0.0
    scenario_names: tuple[str, ...] = field(default_factory=tuple)
    cpu_s: float = 0.0
    in_process: bool = False

    @property
    def evaluation(self) -> Evaluation | None:
        """The first (usually the only) scenario's evaluation, or None."""
        return self.evaluations[0] if self.evaluations else None


def run_evaluation(project: Project, names: tuple[str, ...], generation: int = 0,
                   catalog: Catalog | None = None, state: TaskState | None = None,
                   states: bool = True) -> EvaluationOutcome:
    """Evaluate scenarios of a project; never raises (a failure becomes ``error``).

    Args:
        project: the project (frozen; shared or pickled, never changed).
        names: scenario names to evaluate, in order.
        generation: the run's number, carried into the outcome.
        catalog: the base catalog (a project file's pinned catalog, see ``ProjectDocument.base_catalog``); None
            uses the default (bundled plus the user's records), as ``models.evaluate.evaluate`` does.
        state: the task runner's state: progress is reported after each scenario (fraction of scenarios done)
            and a cancelled run stops before the next scenario (its outcome is dropped by the runner anyway).
        states: compute the first scenario's failure states and runway (``Evaluation.resilience``); False leaves
            them out (None) unless the project's requirements are checked on them
            (``models.evaluate.resilience_required``): the view that shows them is hidden, and asks again when it
            is shown.
    """
    import multiprocessing

    from models.design import resolve
    from models.evaluate import evaluate, evaluate_resilience, resilience_required, with_layouts, with_resilience

    in_process = multiprocessing.parent_process() is not None
    start, cpu_start = time.perf_counter(), time.thread_time()

    def done(evaluations, error=None) -> EvaluationOutcome:
        return EvaluationOutcome(generation, tuple(evaluations), error, time.perf_counter() - start,
                                 names, time.thread_time() - cpu_start, in_process)

    try:
        import models.capacity
        import models.performance  # noqa: F401

        start, cpu_start = time.perf_counter(), time.thread_time()
        evaluations = []
        for index, name in enumerate(names):
            if state is not None:
                if state.is_interruption_requested():
                    return done(evaluations, "cancelled")
                state.set_progress(index / len(names))
            design = with_layouts(resolve(project, name, catalog))  # resolved once: evaluation and failure states
            evaluation = evaluate(project, design=design)
            if index == 0 and (states or resilience_required(project)):
                # the scenario shown: its failure states and runway too, when a view shows them or a requirement
                # is checked on them (each state solves the workloads again)
                evaluation = with_resilience(evaluation, evaluate_resilience(project, evaluation, design=design))
            evaluations.append(evaluation)
        if state is not None:
            state.set_progress(1.0)
        return done(evaluations)
    except Exception as exc:  # noqa: BLE001 - an engine bug or a broken install must not take the GUI down
        last = traceback.extract_tb(exc.__traceback__)[-1:]
        where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
        return done([], f"engine failed: {type(exc).__name__}: {exc}{where}")


def evaluate_task(state: TaskState, project: Project, names: tuple[str, ...], generation: int,
                  catalog: Catalog | None, states: bool = True) -> EvaluationOutcome:
    """The task-runner form of :func:`run_evaluation` (``fn(state, *args)``; picklable: module level)."""
    return run_evaluation(project, names, generation, catalog, state, states)


ENGINE_MODULES = ("models.evaluate", "models.capacity", "models.performance", "models.problems",
                  "app.gui.evaluation")
"""What the worker process imports while it warms up."""
