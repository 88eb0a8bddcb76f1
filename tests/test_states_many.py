"""The sizer checks the N+1 host-failure states of the HCI candidates it reaches together
(``resilience.evaluate_states_many``, ``n_plus.host_failure_figures_many``, ``sizing._hci_checks``): every result must
be the one of checking each candidate alone, compared with ``==`` (floats exactly, not to a tolerance), on OSA
clusters (whose host failure reads the smaller cluster's paths, here taken from the candidate's spares-out paths),
ESA and stretched clusters, and on a batch of clusters of several sizes in one call.
"""

from __future__ import annotations

from models.design import resolve
from models.n_plus import host_failure_figures, host_failure_figures_many
from models.performance import engine
from models.performance.resilience import _survivor_paths, evaluate_states, evaluate_states_many
from models.performance.screening import design_paths, design_ramp_requests, solve_requests
from models.resources import examples_dir
from models.sizing import _hci_check, _hci_checks, _performance_checks, _survivors, _without_spares
from models.store import load_any

EXAMPLES = ("vsan8-osa-hybrid-4host-oltp", "vsan-sqlserver-raid5", "vsan8-esa-6host-sqlserver-oltp",
            "vsan8-esa-stretched-4x4-sqlserver-oltp")


def _designs():
    """(project, catalog, scenario) of each example's cluster at its own size and two hosts larger."""
    out = []
    for name in EXAMPLES:
        project = load_any(examples_dir() / f"{name}.toml")
        design = resolve(project, None, None)
        for more in (0, 2):
            nodes = [n.model_copy(update={"hosts": n.hosts + more}) if n.kind == "hci_cluster" else n
                     for n in design.scenario.nodes]
            out.append((project, design.catalog, design.scenario.model_copy(update={"nodes": nodes})))
    return out


def test_states_of_many_designs_equal_each_alone():
    designs = _designs()
    catalog = designs[0][1]
    settings = designs[0][0].settings
    for bands in (False, True):
        engine._CURVE_CACHE.clear()
        alone = [evaluate_states(s, c, settings, only=("host_failure",), bands=bands) for _, c, s in designs]
        engine._CURVE_CACHE.clear()
        many = evaluate_states_many([(s, None, None) for _, _, s in designs], catalog, settings,
                                    only=("host_failure",), bands=bands)
        assert many == alone
        assert sum(len(states) for states in many) >= len(designs) - 2  # (a 4-host stretched cluster has none)
        for a, b in zip(many, alone):
            for wid in a:
                for x, y in zip(a[wid], b[wid]):
                    assert x.performance.curve == y.performance.curve


def test_survivors_from_the_spares_out_paths_are_the_states_own():
    found = 0
    for _project, catalog, scenario in _designs():
        spares = design_paths(_without_spares(scenario, 1), catalog)
        given = _survivors(scenario, spares, 1)
        built = _survivor_paths(scenario, catalog)
        if given is None:
            assert all(n.architecture != "osa" or n.stretched for n in scenario.nodes if n.kind == "hci_cluster")
            continue
        found += bool(given)
        assert given == built
    assert found >= 4  # the OSA examples, at both sizes


def test_host_failure_figures_of_many_designs_equal_each_alone():
    designs = _designs()
    catalog = designs[0][1]
    settings = designs[0][0].settings
    engine._CURVE_CACHE.clear()
    alone = [host_failure_figures(s, c, settings, "mean", design_paths(s, c).paths) for _, c, s in designs]
    engine._CURVE_CACHE.clear()
    items = [(s, design_paths(s, c).paths, _survivors(s, design_paths(_without_spares(s, 1), c), 1))
             for _, c, s in designs]
    many = host_failure_figures_many(items, catalog, settings, "mean")
    assert many == alone and sum(map(len, many)) >= 6


def test_hci_checks_together_equal_one_by_one():
    designs = _designs()
    req = designs[0][0].requirements  # one search's requirements (N+1, a 36-month horizon)
    assert req.n_plus == 1 and req.horizon_months
    _, catalog, scenario = designs[1]  # and a candidate whose IOPS grow (its N+1 verdict at the grown target)
    workloads = [w.model_copy(update={"iops_growth_pct_per_year": 10.0}) for w in scenario.workloads]
    designs.insert(2, (designs[1][0], catalog, scenario.model_copy(update={"workloads": workloads})))
    items = []
    for project, catalog, scenario in designs:
        smaller = _without_spares(scenario, req.n_plus)
        spares_paths = design_paths(smaller, catalog)
        spares = _performance_checks([(smaller, spares_paths, "hci")], req)[0]
        whole_paths = design_paths(scenario, catalog)
        whole = (whole_paths, solve_requests(design_ramp_requests(whole_paths)))
        items.append((project, catalog, scenario, spares, whole, _survivors(scenario, spares_paths, req.n_plus)))
    project, catalog = items[0][0], items[0][1]
    engine._CURVE_CACHE.clear()
    alone = [_hci_check(s, c, p, req, spares, whole) for p, c, s, spares, whole, _ in items]
    for solved_here in ((), (0, 3)):  # whole clusters given, or some solved here (each starts a pass of its own)
        engine._CURVE_CACHE.clear()
        together = _hci_checks([(s, spares, None if k in solved_here else whole, survivors)
                                for k, (_p, _c, s, spares, whole, survivors) in enumerate(items)], catalog, project,
                               req)
        assert together == alone
    assert sum(down is not None for _, down in alone) >= 6
