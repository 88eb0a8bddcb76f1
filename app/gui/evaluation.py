"""One evaluation run as a plain function: project in, :class:`EvaluationOutcome` out (Qt-free).

:class:`~app.gui.worker.EvaluationWorker` runs :func:`evaluate_task` through the task runner, in a thread for
small projects and in the warm worker process for large ones; this module is what the worker process imports,
so it imports neither Qt nor the rest of the GUI.
"""

from __future__ import annotations

import io
import itertools
import pickle
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from models.catalog import Catalog
from models.project.model import Project

if TYPE_CHECKING:
    from app.gui.task_process import TaskState
    from models.evaluate import Evaluation  # the engines load with the first run, after the first window


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
        stale_base: the run did not take place: the worker process no longer held the project its message was
            written against (:class:`ProjectChannel`); the GUI sends the whole project again.
    """

    generation: int
    evaluations: tuple[Evaluation, ...] = ()
    error: str | None = None
    elapsed_s: float = 0.0
    scenario_names: tuple[str, ...] = field(default_factory=tuple)
    cpu_s: float = 0.0
    in_process: bool = False
    stale_base: bool = False

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
    from models.design import resolve
    from models.evaluate import evaluate, resilience_required, with_layouts

    # a worker process has multiprocessing imported (it runs there); a thread of a process that never imported it
    # is not a worker: not imported for it (~6 ms of CPU between the first window and the first results)
    multiprocessing = sys.modules.get("multiprocessing")
    in_process = multiprocessing is not None and multiprocessing.parent_process() is not None
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
            # the scenario shown: its failure states and runway too, when a view shows them or a requirement is
            # checked on them (each state solves the workloads again: solved in one pass with the normal state)
            evaluation = evaluate(project, design=design,
                                  resilience=index == 0 and bool(states or resilience_required(project)))
            evaluations.append(evaluation)
        if state is not None:
            state.set_progress(1.0)
        return done(evaluations)
    except Exception as exc:  # noqa: BLE001 - an engine bug or a broken install must not take the GUI down
        last = traceback.extract_tb(exc.__traceback__)[-1:]
        where = f" ({last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno})" if last else ""
        return done([], f"engine failed: {type(exc).__name__}: {exc}{where}")


def evaluate_task(state: TaskState, project: Project | ProjectMessage, names: tuple[str, ...], generation: int,
                  catalog: Catalog | None, states: bool = True) -> EvaluationOutcome:
    """The task-runner form of :func:`run_evaluation` (``fn(state, *args)``; picklable: module level).
    ``project`` may be a :class:`ProjectMessage` (the worker process: the project and its base catalog as
    :meth:`ProjectChannel.pack` wrote them; ``catalog`` is then not used); one written against a project this
    process no longer holds gives an outcome with ``stale_base`` set and nothing evaluated."""
    if isinstance(project, ProjectMessage):
        try:
            project, catalog = unpack(project)
        except StaleBaseError:
            return EvaluationOutcome(generation, (), None, 0.0, names, 0.0, True, stale_base=True)
    return run_evaluation(project, names, generation, catalog, state, states)


# --- the project sent to the worker process as what changed -------------------------------------------------------

_channels = itertools.count(1)


@dataclass(frozen=True)
class ProjectMessage:
    """A project (and its base catalog) on its way to the worker process, written by :meth:`ProjectChannel.pack`.

    Attributes:
        channel: the sending :class:`ProjectChannel` (each evaluation worker of the GUI has its own);
        base: the token of the project the payload refers to (its unchanged records are sent as their places in
            it), None: the payload holds the whole project; token: this project's;
        payload: the pickled (project, catalog), the catalog None where ``same_catalog``;
        same_catalog: the base catalog is the one sent with the base project.
    """

    channel: int
    base: int | None
    token: int
    payload: bytes
    same_catalog: bool = False


class StaleBaseError(Exception):
    """The worker process does not hold the project a :class:`ProjectMessage` was written against (it was never
    delivered there, or the process was replaced)."""


def _shareable(project: Project) -> list[Any]:
    """The records a message may send as their place instead of their contents: every scenario and each one's nodes,
    links and workloads, in this order (the same on both sides: the receiver's copy of a project equals the
    sender's)."""
    out: list[Any] = []
    for scenario in project.scenarios:
        out.append(scenario)
        out.extend(scenario.nodes)
        out.extend(scenario.links)
        out.extend(scenario.workloads)
    return out


class _DeltaPickler(pickle.Pickler):
    """Pickles a project with the records it shares with the base project (the same objects: an edit keeps every
    record it does not touch) written as their places in the base's :func:`_shareable` list."""

    def __init__(self, file: io.BytesIO, places: dict[int, int]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.places = places

    def reducer_override(self, obj: Any) -> Any:
        """A record of the base project: its place (:func:`_shared_record` finds it on the other side)."""
        place = self.places.get(id(obj))
        if place is not None:
            return _shared_record, (place,)
        return NotImplemented


_base_records: list[Any] = []
"""While a message is unpickled in the worker process: the :func:`_shareable` records of its base project."""


def _shared_record(place: int) -> Any:
    """Unpickling: the base project's record at ``place`` (the very object the worker process holds)."""
    return _base_records[place]


class ProjectChannel:
    """The GUI's side of sending projects to the worker process (one per evaluation worker).

    At 1,000 nodes a project pickles to ~216 kB in ~4 ms and unpickles in ~5 ms, on every edit. An edit changes a
    few records and keeps the others (the same objects), so after the first project each message holds only what
    changed and the places of the records kept (~19 kB, ~0.8 ms to write, ~0.25 ms to read for one changed shelf,
    measured). :meth:`pack` assumes the worker process receives what it was given; when it did not (a run cancelled
    before it started, a replaced process), the run reports ``stale_base`` and :meth:`reset` makes the next
    message whole. The receiver's project equals the sender's (tests/test_project_channel.py)."""

    def __init__(self) -> None:
        self.channel = next(_channels)
        self._token = 0
        self._base: int | None = None
        self._places: dict[int, int] = {}
        self._kept: tuple[Project, Catalog | None] | None = None  # the base, alive while ids name its records

    def reset(self) -> None:
        """Make the next message hold the whole project."""
        self._base, self._places, self._kept = None, {}, None

    def pack(self, project: Project, catalog: Catalog | None) -> ProjectMessage:
        """``project`` and its base catalog as a message written against the last one packed (or whole)."""
        self._token += 1
        same_catalog = self._kept is not None and self._kept[1] is catalog
        buffer = io.BytesIO()
        _DeltaPickler(buffer, self._places).dump((project, None if same_catalog else catalog))
        message = ProjectMessage(self.channel, self._base, self._token, buffer.getvalue(), same_catalog)
        places: dict[int, int] = {}
        for place, record in enumerate(_shareable(project)):
            places.setdefault(id(record), place)
        self._base, self._places, self._kept = self._token, places, (project, catalog)
        return message


_received: dict[int, tuple[int, list[Any], Catalog | None]] = {}
"""In the worker process: per channel, the token, the :func:`_shareable` records and the base catalog of the last
project received."""


def unpack(message: ProjectMessage) -> tuple[Project, Catalog | None]:
    """The project and base catalog of a :class:`ProjectMessage` (in the worker process, or anywhere for tests).

    Raises:
        StaleBaseError: the message refers to a project this process does not hold.
    """
    global _base_records
    held = _received.get(message.channel)
    if message.base is not None and (held is None or held[0] != message.base):
        raise StaleBaseError(f"channel {message.channel}: project {message.base} is not held here")
    _base_records = held[1] if message.base is not None and held is not None else []
    try:
        project, catalog = pickle.loads(message.payload)
    finally:
        _base_records = []
    if message.same_catalog and held is not None:
        catalog = held[2]
    _received[message.channel] = (message.token, _shareable(project), catalog)
    return project, catalog


ENGINE_MODULES = ("models.evaluate", "models.capacity", "models.performance", "models.problems",
                  "app.gui.evaluation")
"""What the worker process imports while it warms up."""
