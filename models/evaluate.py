"""One entry point from a project to its results: capacity, performance and problems of a scenario.

The GUI worker, the CLI and the PDF report all call :func:`evaluate`; none computes numbers of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from models.catalog import Catalog
from models.design import Design, resolve, resolved_catalog
from models.problems import Problem, Severity, find_problems
from models.project.model import ControllerNode, Project

if TYPE_CHECKING:  # the engines are imported where they run (evaluate), not when this module loads
    from models.capacity.layout import RaidLayout
    from models.capacity.reduction_band import CapacityBand
    from models.capacity.results import ScenarioCapacity
    from models.performance.fabricpool_summary import FabricPoolSystem
    from models.performance.profiles import ProfileBasis
    from models.performance.resilience import CapacityState, StateResult
    from models.performance.results import ScenarioPerformance, WorkloadPerformance
    from models.project.model import Requirements, Scenario, Settings
    from models.replication import Protection


@dataclass(frozen=True)
class Evaluation:
    """Everything StorPlan predicts for one scenario of a project.

    Attributes:
        scenario: the scenario's name.
        capacity: a ``models.capacity.ScenarioCapacity`` (None when the engine failed: see ``problems``).
        performance: a ``models.performance.ScenarioPerformance`` (None when the engine failed).
        problems: topology problems, engine failures and the engines' own problems (:func:`engine_problems`; the
            failure states' with :func:`with_resilience`), each naming what is wrong and where.
        resilience: the failure states and runway (:class:`Resilience`) where asked for
            (:func:`evaluate_resilience`; the GUI's worker adds it for the scenario shown), else None.
        capacity_band: the effective capacity, runway and break-even at the P10 / P50 / P90 data-reduction ratio
            (``models.capacity.reduction_band.capacity_band``); None when the capacity engine failed.
        protection: the replication relationships evaluated (``models.replication.Protection``: RPO, bandwidth,
            baseline, destination capacity, transfer-window load); None when the scenario has none.
        fabricpool: each controller with a FabricPool capacity tier in figures
            (``models.performance.fabricpool_summary.FabricPoolSystem``); () without any.
    """

    scenario: str
    capacity: ScenarioCapacity | None
    performance: ScenarioPerformance | None
    problems: tuple[Problem, ...]
    resilience: Resilience | None = None
    capacity_band: CapacityBand | None = None
    protection: Protection | None = None
    fabricpool: tuple[FabricPoolSystem, ...] = ()

    @property
    def errors(self) -> tuple[Problem, ...]:
        """The problems of severity "error" (results wrong or missing: design errors, engine failures), in order."""
        return tuple(p for p in self.problems if p.severity == "error")


def project_catalog(project: Project, base: Catalog | None = None) -> Catalog:
    """The catalog a project evaluates against: ``models.design.resolved_catalog`` (the one rule: ``base``, by
    default bundled plus the user's own records, then the project's own records, marked as the project's).

    Raises:
        CatalogError: a project record is invalid (the message names the project, kind, entry and field).
    """
    return resolved_catalog(project, base)


def evaluate(project: Project, scenario_name: str | None = None, catalog: Catalog | None = None, *,
             design: Design | None = None, resilience: bool = False) -> Evaluation:
    """Evaluate one scenario (default: the active one) of a project.

    Args:
        project: the project; scenario_name: the scenario (None: the active one).
        catalog: the base catalog (a project file's, ``models.store.load_project_file(path).catalog``; None:
            bundled plus the user's records); the project's own records go on top (``models.design.resolve``).
        design: the resolved design to evaluate instead (then ``scenario_name`` and ``catalog`` are not used).
        resilience: True adds the failure states and runway (:func:`with_resilience` of
            :func:`evaluate_resilience`, the same result), the states solved in one pass with the normal state
            (``models.performance.resilience.evaluate_with_states``).

    Engine failures do not raise: they become ``error`` problems and the failing part of the result is None, so
    callers can keep showing the last good result. The design's own problems (a project record that differs from
    the catalog's, ...) come first.

    Raises:
        KeyError: ``scenario_name`` is not a scenario of the project.
    """
    from models.capacity import evaluate_capacity  # outside the try: an engine that cannot be imported is a
    from models.capacity.reduction_band import capacity_band
    from models.performance import evaluate_performance  # noqa: F401 - broken install (a traceback), not a design problem

    design = with_layouts(design if design is not None else resolve(project, scenario_name, catalog))
    scenario, catalog = design.scenario, design.catalog
    problems: list[Problem] = list(design.problems)
    problems.extend(find_problems(scenario, catalog))
    capacity = performance = None
    try:
        capacity = evaluate_capacity(scenario, catalog, design.raid)
    except Exception as exc:  # noqa: BLE001 - an engine bug must not lose the user's work: report it as a problem
        problems.append(Problem("error", f"capacity engine failed: {type(exc).__name__}: {exc}"))
    states = None
    try:
        performance, states = _performance(project, design, resilience)
    except Exception as exc:  # noqa: BLE001 - an engine bug must not lose the user's work: report it as a problem
        problems.append(Problem("error", f"performance engine failed: {type(exc).__name__}: {exc}"))
    problems.extend(engine_problems(problems, capacity, performance, scenario))
    band = None
    try:
        if capacity is not None:
            band = capacity_band(scenario, capacity, design.settings.data_reduction_bands, project.requirements)
    except Exception as exc:  # noqa: BLE001 - as the engines: a bug becomes a problem, the results stay
        problems.append(Problem("error", f"capacity band failed: {type(exc).__name__}: {exc}"))
    protection = None
    if scenario.replications:
        from models.replication import evaluate_protection
        from models.replication.destination_capacity import with_copies

        protection = evaluate_protection(scenario, catalog, capacity, design.settings, design.raid,
                                         performance=performance, horizon_months=project.requirements.horizon_months)
        problems.extend(protection.problems)
        capacity = with_copies(capacity, protection)  # a DR system's waterfall holds the copies it receives
    fabricpool: tuple[FabricPoolSystem, ...] = ()
    # models.capacity.fabricpool; only a controller has a capacity tier (a getattr that misses on each of 1,000
    # nodes cost ~2 ms: pydantic's __getattr__ raising)
    if any(isinstance(n, ControllerNode) and n.capacity_tier != "none" for n in scenario.nodes):
        from models.performance.fabricpool_summary import fabricpool_systems

        fabricpool = fabricpool_systems(scenario, capacity)
    evaluation = Evaluation(scenario.name, capacity, performance, tuple(problems), capacity_band=band,
                            protection=protection, fabricpool=fabricpool)
    if resilience:
        evaluation = with_resilience(evaluation, evaluate_resilience(project, evaluation, design=design,
                                                                     states=states))
    return evaluation


def _performance(project: Project, design: Design, states: bool
                 ) -> tuple[ScenarioPerformance, Mapping[str, tuple[StateResult, ...]] | None]:
    """:func:`evaluate`'s performance (profile bases added) and, with ``states``, the failure states solved with it
    in one pass (None without, or where that pass failed: :func:`evaluate_resilience` solves them alone then and
    reports their failure, the normal results kept)."""
    from models.performance import evaluate_performance

    scenario, catalog = design.scenario, design.catalog
    slo = project.requirements.slo_statistic
    solved = None
    if states:
        from models.performance.resilience import evaluate_with_states

        try:
            raw, solved = evaluate_with_states(scenario, catalog, design.settings, design.raid, slo, project.settings)
        except Exception:  # noqa: BLE001 - solved apart below: a failure of the states keeps the normal results
            solved = None
    if solved is None:
        raw = evaluate_performance(scenario, catalog, design.settings, design.raid, slo)
    return with_profile_bases(raw, scenario, catalog), solved


def with_layouts(design: Design) -> Design:
    """``design`` with every system's RAID layout (``models.capacity.layout.raid_layouts``: groups, group sizes,
    parity, spares, partitions, built once by the capacity rules), which capacity, performance and the failure
    states then read; unchanged when it has them already. A layout that cannot be built (a record missing or of
    the wrong kind: the design check reports it) leaves the mapping empty, and each engine builds what it can."""
    if design.raid:
        return design
    from models.capacity.layout import raid_layouts

    try:
        return replace(design, raid=raid_layouts(design.scenario, design.catalog))
    except Exception:  # noqa: BLE001 - the design check and the engines name what is wrong with the design
        return design


def engine_problems(found: Sequence[Problem], capacity: ScenarioCapacity | None,
                    performance: ScenarioPerformance | None, scenario: Scenario | None = None) -> list[Problem]:
    """The engines' own problems as :class:`Problem` records, so every front door (``evaluate``'s text and
    ``--json``, the GUI's Problems list, the report) shows them once, with the design check's.

    * the capacity engine's problems of a system (``CapacityResult.problems``: what it assumed or worked around,
      e.g. an ADP root partition size the catalog lacks) are warnings on that system's node; the scenario's own
      (``ScenarioCapacity.problems`` of no system: a shelf no controller or two reach, a workload whose target is
      not a system) are warnings on the scenario;
    * the performance engine's (``ScenarioPerformance.problems``: a workload it could not predict) are errors (a
      result is missing) on the scenario.

    A system's problems are left out when the design check (``found``) already has an error on its node or on one
    of its shelves, and the scenario's when it has any error: the error names the cause, the engine only its
    consequence (a shelf's 30 drives in 24 bays are an error of the shelf; the capacity engine's "30 drives exceed
    the 24 bays" a problem of its controller).

    Args:
        found: the problems found so far (design check, engine failures); capacity: a
        ``models.capacity.ScenarioCapacity`` or None; performance: a ``models.performance.ScenarioPerformance`` or
        None; scenario: the ``models.project.model.Scenario`` evaluated (its shelves' owners), None: none known.
    """
    from models import topology

    erred = {p.node_id for p in found if p.severity == "error"}
    if scenario is not None and erred:
        topo = topology.of(scenario)
        erred |= {owner.id for node_id in tuple(erred) if (owner := topo.controller_of_shelf(node_id)) is not None}
    seen = {p.message for p in found}
    out: list[Problem] = []

    def add(severity: Severity, message: str, node_id: str = "") -> None:
        if message not in seen:
            seen.add(message)
            out.append(Problem(severity, message, node_id))

    own: set[str] = set()
    for system in capacity.systems if capacity is not None else ():
        own.update(system.problems)
        if system.system_id not in erred:
            for message in system.problems:
                add("warning", message, system.system_id)
    if not erred:
        for message in capacity.problems if capacity is not None else ():
            if message not in own:
                add("warning", message)
        for message in performance.problems if performance is not None else ():
            add("error", message)
    return out


def with_resilience(evaluation: Evaluation, resilience: Resilience) -> Evaluation:
    """``evaluation`` with its failure states and runway (:func:`evaluate_resilience`), and what could not be
    computed of them (``Resilience.problems``) among its problems as errors (a result is missing), once."""
    seen = {p.message for p in evaluation.problems}
    extra = tuple(Problem("error", message) for message in dict.fromkeys(resilience.problems) if message not in seen)
    return replace(evaluation, resilience=resilience, problems=evaluation.problems + extra)


def with_profile_bases(performance: ScenarioPerformance, scenario: Scenario, catalog: Catalog) -> ScenarioPerformance:
    """``performance`` (a ``models.performance.ScenarioPerformance``) with each workload's ``profile_basis``: how
    its controller's or cloud VM's profile was obtained, from which sibling, by what ratio and why
    (``models.performance.profiles.profile_basis``, on the software the node runs and the protocol the path
    used). Its kind is the engine's ``profile``, so the two never disagree; workloads on a vSAN cluster (no
    profile) keep None."""
    from dataclasses import replace

    from models.catalog import CloudVm, Controller
    from models.performance.profiles import ProfileBasis, profile_basis
    from models.project.model import ControllerNode

    workloads = []
    bases: dict[tuple[int, str, str], ProfileBasis] = {}  # the workloads of one node share its record's answer
    for wp in performance.workloads:
        workload = scenario.workload(wp.workload_id)
        node = scenario.node(workload.target) if workload is not None else None
        record = catalog.find(node.catalog_id) if node is not None else None
        basis = None
        if isinstance(record, Controller) and isinstance(node, ControllerNode):
            software = node.software or record.default_software
            key = (id(record), software, wp.protocol)
            basis = bases.get(key)
            if basis is None:
                basis = bases[key] = profile_basis(record, software, wp.protocol, catalog)
        elif isinstance(record, CloudVm):
            # "9.5": the CVO path's software (models.performance.paths)
            basis = profile_basis(record, "9.5", wp.protocol, catalog)
        if basis is not None and wp.profile and basis.kind != wp.profile:
            basis = ProfileBasis(wp.profile, basis.sibling, basis.ratio,
                                 f"{basis.reason}; {wp.profile} for this workload (see its notes)")
        workloads.append(_with_basis(wp, basis) if basis is not None else wp)
    return replace(performance, workloads=tuple(workloads))


def _with_basis(wp: WorkloadPerformance, basis: ProfileBasis) -> WorkloadPerformance:
    """``dataclasses.replace(wp, profile_basis=basis)`` (the class has no ``__post_init__``): the same fields,
    filled in directly (``replace`` re-runs the frozen ``__init__`` over its forty fields, for every workload)."""
    from models.performance.results import WorkloadPerformance

    new = object.__new__(WorkloadPerformance)
    fields = new.__dict__
    fields.update(wp.__dict__)
    fields["profile_basis"] = basis
    return new


@dataclass(frozen=True)
class RequirementCheck:
    """Whether the evaluated design meets one of the project's resilience requirements.

    Attributes:
        requirement: "slo_in_takeover", "n_plus" or "slo_after_site_loss"; met: True or False; text: the verdict
        in words, naming the workload and figure that decide it; subject: the workload it is about ("" for the whole
        cluster); state: the failure state it is checked in ("takeover", "failover", "N+1", "switchover",
        "site_failure", "" when the system has one site; ``models.verdict.PROVIDER_HA`` for a managed service's
        takeover: not modelled, taken as met, a caution in every view).
    """

    requirement: str
    met: bool
    text: str
    subject: str = ""
    state: str = ""


@dataclass(frozen=True)
class Resilience:
    """The bad day and the runway of one evaluated scenario.

    Attributes:
        states: workload id -> its failure states' results (``models.performance.resilience.StateResult``),
            states that do not apply left out.
        months_until_full: the capacity's (None: no growth or beyond the projection), as the capacity engine gives.
        months_until_slo_breach, months_until_saturation: the runway of the growing targets (None: not within
            ten years, or no growth).
        problems: what could not be computed, in words.
        capacity_states: ``models.performance.resilience.CapacityState`` per system and failure state (the
            capacity while a drive rebuilds or a host is down).
        iops_growth_pct_per_year: workload id -> its IOPS growth, percent per year (what the runway grew).
        requirement_checks: :class:`RequirementCheck` for each resilience requirement the project states
            (``meet_slo_in_takeover``, ``n_plus`` for an HCI cluster), empty when it states none.
    """

    states: Mapping[str, tuple[StateResult, ...]]
    months_until_full: float | None
    months_until_slo_breach: float | None
    months_until_saturation: float | None
    problems: tuple[str, ...] = ()
    capacity_states: tuple[CapacityState, ...] = ()
    iops_growth_pct_per_year: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    requirement_checks: tuple[RequirementCheck, ...] = ()

    def __post_init__(self) -> None:
        """Hold the two mappings read-only (a copy of what was given), as the result is frozen."""
        object.__setattr__(self, "states", MappingProxyType(dict(self.states)))
        object.__setattr__(self, "iops_growth_pct_per_year", MappingProxyType(dict(self.iops_growth_pct_per_year)))


def resilience_required(project: Project) -> bool:
    """Whether the project's requirements are checked on the failure states (``meet_slo_in_takeover``) or on a
    reduced cluster (``n_plus``): then every verdict needs :func:`evaluate_resilience`, whether or not a view shows
    the states."""
    requirements = project.requirements
    return bool(requirements.meet_slo_in_takeover or requirements.n_plus or requirements.meet_slo_after_site_loss)


def evaluate_resilience(project: Project, evaluation: Evaluation, scenario_name: str | None = None,
                        catalog: Catalog | None = None, *, design: Design | None = None,
                        states: Mapping[str, tuple[StateResult, ...]] | None = None) -> Resilience:
    """Failure states and runway for an evaluated scenario (``models.performance.resilience``). Separate from
    :func:`evaluate` because each state solves the workload again: the CLI's ``--json``, the report and the GUI's
    worker ask for it; the interactive edit loop does not pay for it.

    ``catalog`` is the base catalog and ``design`` the resolved design, as for :func:`evaluate`; ``states``: the
    design's failure states when solved already (``models.performance.resilience.evaluate_states``' result, as
    :func:`evaluate` with ``resilience`` solves them), else they are solved here.

    Raises nothing: an engine failure becomes a problem string and empty states.
    """
    from models.performance.resilience import at_most_normal, capacity_in_failure, evaluate_states, runway

    design = with_layouts(design if design is not None else resolve(project, scenario_name, catalog))
    scenario, catalog = design.scenario, design.catalog
    problems: list[str] = []
    try:
        if states is None:
            states = evaluate_states(scenario, catalog, project.settings, raid=design.raid,
                                     slo_statistic=project.requirements.slo_statistic)
    except Exception as exc:  # noqa: BLE001 - an engine bug must not lose the user's work
        states, problems = {}, [f"failure states could not be computed: {type(exc).__name__}: {exc}"]
    performance = evaluation.performance
    # a state that stops no work of normal operation never shows a figure above normal's (the solvers' rounding)
    states = at_most_normal(states, performance.workloads if performance is not None else ())
    # the capacity engine's months until full as it gives them (no ten-year cap: the capacity table, the verdict and
    # the runway quote one figure)
    full = evaluation.capacity.total.months_until_full if evaluation.capacity is not None else None
    workloads = performance.workloads if performance is not None else ()
    growth = {w.id: w.iops_growth_pct_per_year for w in scenario.workloads}
    run = runway(workloads, growth)
    systems = evaluation.capacity.systems if evaluation.capacity is not None else ()
    try:
        capacity_states = capacity_in_failure(scenario, catalog, systems)
    except Exception as exc:  # noqa: BLE001 - an engine bug must not lose the user's work
        capacity_states = ()
        problems.append(f"capacity in a failure could not be computed: {type(exc).__name__}: {exc}")
    try:
        checks = requirement_checks(project.requirements, scenario, catalog, project.settings, workloads, states,
                                    raid=design.raid)
    except Exception as exc:  # noqa: BLE001 - an engine bug must not lose the user's work
        checks = ()
        problems.append(f"the resilience requirements could not be checked: {type(exc).__name__}: {exc}")
    return Resilience(states, full, run.months_until_slo_breach, run.months_until_saturation, tuple(problems),
                      capacity_states, growth, checks)


def takeover_at_grown_targets(requirements: Requirements, scenario: Scenario, catalog: Catalog,
                              raid: Mapping[str, RaidLayout] | None = None) -> dict[str, tuple[Any, float]]:
    """Workload id -> (its takeover or cloud failover verdict, the target it is judged at, IOPS) with every target
    grown over the project's horizon at its IOPS growth: ``Requirements.meet_slo_in_takeover`` asks for the SLO in
    takeover at the grown target, and the sizer judges it so (``models.performance.screening.failover_verdicts``
    of ``paths_grown``: the same function, so a design the sizer proposes and its evaluation agree). Empty when no
    target grows within the horizon (today's target is then the grown one: the failure states' own verdict) or the
    paths cannot be built. ``raid``: the design's RAID layouts (``Design.raid``, :func:`with_layouts`): the paths are
    then the evaluation's own (``engine.evaluate_paths`` of the same design objects returns the paths the normal state
    has just built, not built again); None or empty: built here (``screening.design_paths``)."""
    return _verdicts_at_grown_targets(requirements, scenario, catalog, raid, site_loss=False)


def site_loss_at_grown_targets(requirements: Requirements, scenario: Scenario, catalog: Catalog,
                               raid: Mapping[str, RaidLayout] | None = None) -> dict[str, tuple[Any, float]]:
    """Workload id -> (its site-loss verdict: MetroCluster switchover or stretched-cluster site failure, the target it
    is judged at, IOPS) with every target grown over the horizon, as :func:`takeover_at_grown_targets` does for the
    takeover: ``Requirements.meet_slo_after_site_loss`` asks for the SLO after losing a site at the grown target,
    and the sizer judges it so (``models.performance.site_loss.site_loss_reasons`` of ``paths_grown``; review 56:
    evaluate judged today's target and passed a design the sizer rejects). Empty when no target grows within the
    horizon or the paths cannot be built (the failure states' own verdict stands)."""
    return _verdicts_at_grown_targets(requirements, scenario, catalog, raid, site_loss=True)


def _verdicts_at_grown_targets(requirements: Requirements, scenario: Scenario, catalog: Catalog,
                               raid: Mapping[str, RaidLayout] | None, site_loss: bool) -> dict[str, tuple[Any, float]]:
    """The body of :func:`takeover_at_grown_targets` (``site_loss`` False) and :func:`site_loss_at_grown_targets`
    (True): ``models.performance.screening.failover_verdicts`` of the paths with the targets grown."""
    if not requirements.horizon_months or not any(w.enabled and w.iops_growth_pct_per_year and
                                                  (w.target_iops or w.target_mbps) for w in scenario.workloads):
        return {}
    from models.performance.engine import evaluate_paths, target_rate
    from models.performance.screening import DesignPaths, design_paths, failover_verdicts, paths_grown

    try:
        if raid:
            built, problems = evaluate_paths(scenario, catalog, raid)
            paths = DesignPaths(tuple(built), tuple(problems))
        else:
            paths = design_paths(scenario, catalog)
        design = paths_grown(paths, requirements.horizon_months)
        if site_loss:
            from models.performance.site_loss import site_loss_states

            verdicts = failover_verdicts(design, site_loss_states(scenario), slo_statistic=requirements.slo_statistic)
        else:
            verdicts = failover_verdicts(design, slo_statistic=requirements.slo_statistic)
    except Exception:  # noqa: BLE001 - the failure states' own verdict stands
        return {}
    return {path.workload.id: (verdict, rate) for path, verdict in zip(design.paths, verdicts)
            if verdict is not None and (rate := target_rate(path.workload)) is not None}


def requirement_checks(requirements: Requirements, scenario: Scenario, catalog: Catalog, settings: Settings,
                       workloads: Sequence[WorkloadPerformance],
                       states: Mapping[str, Sequence[StateResult]],
                       raid: Mapping[str, RaidLayout] | None = None) -> tuple[RequirementCheck, ...]:
    """The project's resilience requirements checked on the evaluated design (the same rules as the sizer's).

    * ``meet_slo_in_takeover``: every workload with a target on a controller or cloud VM meets its SLO in the
      takeover (cloud failover) state at its target grown over the horizon (the requirement's words, the sizer's
      rule: :func:`takeover_at_grown_targets`); a system without an HA partner fails it (a failure stops the
      service); a managed service's is not modelled and is taken as met by the provider's high availability, a
      check that says so (``models.verdict.PROVIDER_HA``).
    * ``meet_slo_after_site_loss``: the site-loss state (MetroCluster switchover, stretched-cluster site failure)
      at the target grown over the horizon, as the sizer judges it (:func:`site_loss_at_grown_targets`).
    * ``n_plus`` (HCI): with ``n_plus`` hosts of each vSAN cluster down, the data still fits the usable capacity
      now and over the horizon, and every workload with a target meets its SLO (``models.n_plus``: the capacity
      engine on the reduced cluster; N+1's SLO from the workload's host failure state, as the Resilience table).

    Args:
        requirements: ``project.requirements``; scenario, catalog, settings: what was evaluated; workloads: its
        ``WorkloadPerformance`` records; states: workload id -> failure states (``evaluate_states``); raid: the
        design's RAID layouts when built (:func:`takeover_at_grown_targets` then reads the evaluation's paths).

    Returns:
        A tuple of :class:`RequirementCheck` (empty when no such requirement is stated).
    """
    from models.verdict import PROVIDER_HA, PROVIDER_HA_WORDS, failover_state

    checks = []
    targets = [wp for wp in workloads if wp.target_iops]
    kinds = {n.id: n.kind for n in scenario.nodes}
    wanted = {w.id: w.target for w in scenario.workloads}
    if requirements.meet_slo_in_takeover:
        grown = takeover_at_grown_targets(requirements, scenario, catalog, raid)
        horizon = requirements.horizon_months
        for wp in targets:
            kind = kinds.get(wanted.get(wp.workload_id, ""))
            if kind == "hci_cluster":
                continue  # N+k answers for a cluster
            if kind == "managed_service":  # the provider's HA: not modelled, said so (review 56), never silence
                checks.append(RequirementCheck("slo_in_takeover", True, f"{wp.name}: the {wp.slo_words} in takeover "
                                               f"(required): {PROVIDER_HA_WORDS}", wp.name, PROVIDER_HA))
                continue
            st = failover_state(states.get(wp.workload_id, ()))
            if st is None:
                checks.append(RequirementCheck("slo_in_takeover", False, f"{wp.name}: the SLO in takeover is "
                                               "required, but its system has no HA partner (a failure stops it)",
                                               wp.name, "takeover"))
                continue
            if wp.workload_id in grown:  # the requirement's words: the SLO at the grown target in takeover
                verdict, rate = grown[wp.workload_id]
                today = float(wp.target_iops or 0.0)
                state = "takeover" if verdict.state == "takeover" else "failover"
                words = st.label or state
                latency = f"{verdict.latency_ms:.2f} ms" if verdict.latency_ms is not None else "saturated"
                at = (f"{rate:,.0f} IOPS, the target grown over the {horizon}-month horizon "
                      f"({today:,.0f} today)" if rate > today * (1 + 1e-9) else
                      f"{today:,.0f} IOPS (its target does not grow; the others' grown over the "
                      f"{horizon}-month horizon)")
                met = bool(verdict.meets_slo)
                checks.append(RequirementCheck("slo_in_takeover", met, f"{wp.name}: the {wp.slo_words} at {at} in "
                                               f"{words} (required): {'met' if met else 'missed'}, {latency}",
                                               wp.name, state))
                continue
            bounded = st.performance.slo_bounded_at_target_ms  # the mean, or the p99 where the SLO is on it
            latency = f"{bounded:.2f} ms" if bounded is not None else "saturated"
            state = "takeover" if st.state == "takeover" else "failover"  # the check's state id
            words = st.label or state  # in the platform's words (an E-Series "controller failover")
            normal = wp.slo_bounded_at_target_ms
            why = ""
            if st.state == "cloud_failover" and bounded is not None and normal is not None and bounded < normal:
                why = (f" (lower than the {normal:.2f} ms of normal operation: writes no longer wait for the mirror "
                       "to the failed VM)")
            checks.append(RequirementCheck("slo_in_takeover", bool(st.meets_slo),
                                           f"{wp.name}: the {wp.slo_words} at {wp.target_iops:,.0f} IOPS in "
                                           f"{words} (required): {'met' if st.meets_slo else 'missed'}, {latency}"
                                           f"{why}", wp.name, state))
    if requirements.meet_slo_after_site_loss:  # models.performance.site_loss
        from models.performance.site_loss import site_loss_checks

        checks += [RequirementCheck("slo_after_site_loss", c.met, c.text, c.subject, c.state)
                   for c in site_loss_checks(workloads, states, site_loss_at_grown_targets(requirements, scenario,
                                                                                           catalog, raid),
                                             requirements.horizon_months)]
    if requirements.n_plus:  # models.n_plus: capacity over the horizon, the host failure state's SLO
        from models.n_plus import n_plus_checks

        checks += [RequirementCheck("n_plus", c.met, c.text, c.subject, c.state)
                   for c in n_plus_checks(requirements, scenario, catalog, settings, states, settings.capacity_unit)]
    return tuple(checks)
