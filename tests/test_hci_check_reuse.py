"""The sizer's HCI N+1 check reuses work it has done already (the whole cluster's paths and closed ramps solved
ahead, the host-failure state solved without curves or bands) and gives the numbers it gives from scratch."""

from __future__ import annotations

from models.design import resolve
from models.n_plus import host_failure_figures
from models.performance.resilience import evaluate_states
from models.performance.screening import design_paths, design_ramp_requests, solve_requests
from models.resources import examples_dir
from models.sizing import _hci_check
from models.store import load_any


def _design(name):
    project = load_any(examples_dir() / f"{name}.toml")
    return project, resolve(project, None, None)


def test_host_failure_figures_from_built_paths_without_bands_equal_the_full_state():
    for name in ("vsan8-osa-hybrid-4host-oltp", "vsan8-esa-6host-sqlserver-oltp"):
        project, design = _design(name)
        full = evaluate_states(design.scenario, design.catalog, project.settings, only=("host_failure",))
        paths = design_paths(design.scenario, design.catalog).paths
        figures = host_failure_figures(design.scenario, design.catalog, project.settings, "mean", paths)
        assert set(figures) == set(full) and figures
        for wid, results in full.items():
            wp = results[0].performance
            assert results[0].state == "host_failure"
            assert figures[wid].max_iops_at_slo == wp.max_iops_at_slo
            assert figures[wid].saturation_iops == wp.saturation_iops
            assert figures[wid].meets_slo is results[0].meets_slo
        assert full[next(iter(full))][0].performance.curve  # the full state has curves; the sizer's reads none


def test_hci_check_from_ramps_solved_ahead_equals_solving_it_alone():
    project, design = _design("vsan8-esa-6host-sqlserver-oltp")
    paths = design_paths(design.scenario, design.catalog)
    ramps = solve_requests(design_ramp_requests(paths))
    alone = _hci_check(design.scenario, design.catalog, project, project.requirements, ([], None, None))
    ahead = _hci_check(design.scenario, design.catalog, project, project.requirements, ([], None, None),
                       (paths, ramps))
    assert alone == ahead
    (reasons, first, headroom, _, _), host_down = ahead
    assert first is not None and first > 0 and headroom is not None and host_down is not None
    assert host_down < first  # one host down with resync: less than every host up
