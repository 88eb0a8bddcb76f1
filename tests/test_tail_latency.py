"""p95 / p99 of the I/O response time: the tail method (models.queueing.tail) against ciw discrete-event simulations
of reference networks and against closed forms, the engine's curve percentiles, and an SLO on the p99 in the engine
and the sizer (the GUI's is in tests/gui/test_slo_p99_gui.py)."""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest

from models.performance.tail_latency import slo_probability
from models.queueing.tail import (
    conditional_wait_scv,
    gamma_quantile,
    path_quantiles,
    unit_gamma_quantile,
    wait_shape,
)
from models.resources import examples_dir


def _simulate(lam: float, services: list, servers: list, horizon: float, seed: int) -> np.ndarray:
    """Sojourn times (wait + service at every station, in series) of the jobs of a ciw tandem with Poisson
    arrivals at rate ``lam`` that arrived after the first tenth of ``horizon`` and left before its end."""
    import ciw

    n = len(services)
    routing = [[1.0 if j == i + 1 else 0.0 for j in range(n)] for i in range(n)]
    network = ciw.create_network(arrival_distributions=[ciw.dists.Exponential(lam)] + [None] * (n - 1),
                                 service_distributions=services, routing=routing, number_of_servers=servers)
    ciw.seed(seed)
    sim = ciw.Simulation(network)
    sim.simulate_until_max_time(horizon)
    total: dict[int, float] = collections.defaultdict(float)
    visits: collections.Counter = collections.Counter()
    start: dict[int, float] = {}
    for r in sim.get_all_records():
        total[r.id_number] += r.waiting_time + r.service_time
        visits[r.id_number] += 1
        if r.node == 1:
            start[r.id_number] = r.arrival_date
    return np.array([total[i] for i in total if visits[i] == n and start.get(i, 0.0) > 0.1 * horizon])


def _model(lam: float, service: list[float], servers: list[int], scv: list[float], delay: float = 0.0
           ) -> tuple[float, float]:
    """p95 and p99 of the same tandem by the module's method at its open-network utilisations."""
    s = np.array(service, dtype=float)
    c = np.array(servers, dtype=float)
    cs2 = np.array(scv, dtype=float)
    u = (lam * s / c)[None, :]
    p_wait, cond = wait_shape(s, c, u, (1.0 + cs2) / 2.0)
    p95, p99 = path_quantiles(np.array([delay]), s[None, :], cs2, p_wait, cond, (0.95, 0.99),
                              wait_scv=conditional_wait_scv(c, u, cs2))
    return float(p95[0]), float(p99[0])


def _networks() -> list:
    import ciw

    exp, det, gamma = ciw.dists.Exponential, ciw.dists.Deterministic, ciw.dists.Gamma
    return [
        # (arrival rate, mean services, servers, service cs², delay, ciw services, ciw servers, horizon)
        pytest.param(0.6, [1.0], [1], [1.0], 0.0, [exp(1.0)], [1], 50_000, id="M/M/1 at 60%"),
        pytest.param(2.1, [1.0], [3], [1.0], 0.0, [exp(1.0)], [3], 16_000, id="M/M/3 at 70%"),
        pytest.param(1.0, [0.5, 0.3], [1, 1], [1.0, 1.0], 0.0, [exp(2.0), exp(1 / 0.3)], [1, 1], 35_000,
                     id="tandem M/M/1 -> M/M/1"),
        pytest.param(1.5, [0.3, 0.8, 0.25], [1, 2, 1], [1.0, 1.0, 0.0], 0.2, [exp(1 / 0.3), exp(1 / 0.8), det(0.25)],
                     [1, 2, 1], 15_000, id="tandem M/M/1 -> M/M/2 -> M/D/1 + fixed delay"),
        pytest.param(9.0, [1.0], [10], [1.0], 0.0, [exp(1.0)], [10], 4_000, id="M/M/10 at 90% (high utilisation)"),
        pytest.param(0.7, [1.0], [1], [0.0], 0.0, [det(1.0)], [1], 40_000, id="M/D/1 at 70% (constant service)"),
        pytest.param(0.6, [1.0], [1], [2.0], 0.0, [gamma(0.5, 2.0)], [1], 45_000,
                     id="M/G/1 at 60% (gamma service, cs2 = 2)"),
    ]


@pytest.mark.parametrize(("lam", "service", "servers", "scv", "delay", "dists", "ciw_servers", "horizon"),
                         _networks())
def test_p95_and_p99_agree_with_a_ciw_simulation(lam, service, servers, scv, delay, dists, ciw_servers, horizon):
    """Within 10% of the simulated percentiles (seeded, 20,000-40,000 jobs: over seeds 1-4 the simulated p99 of
    each network spreads by a few percent around the prediction). A fixed delay adds its constant to every job's
    sojourn (an infinite-server station of constant service), here to the simulated sojourns."""
    sojourn = _simulate(lam, dists, ciw_servers, horizon, seed=1) + delay
    assert len(sojourn) > 20_000
    simulated = np.percentile(sojourn, [95, 99])
    predicted = _model(lam, service, servers, scv, delay)
    assert predicted[0] == pytest.approx(simulated[0], rel=0.10)
    assert predicted[1] == pytest.approx(simulated[1], rel=0.10)
    assert delay < predicted[0] < predicted[1]


@pytest.mark.parametrize("rho", [0.1, 0.5, 0.9, 0.99])
def test_mm1_percentiles_are_the_exponential_ones(rho):
    """M/M/1: the response time is exponential with rate mu - lambda (Kleinrock 1975 §3.2), so its p-quantile is
    -ln(1 - p) / (mu - lambda); the translated gamma is exact there."""
    mu = 1000.0
    p95, p99 = _model(rho * mu, [1 / mu], [1], [1.0])
    assert p95 == pytest.approx(-math.log(0.05) / (mu - rho * mu), rel=1e-9)
    assert p99 == pytest.approx(-math.log(0.01) / (mu - rho * mu), rel=1e-9)


def test_two_equal_mm1_stations_give_the_erlang_2_percentile():
    """Two M/M/1 stations of equal rate in tandem: the sojourn is Erlang-2 of rate mu - lambda (independent
    sojourns, Reich 1957), P(T > t) = e^{-rt} (1 + rt); solved here by bisection."""
    lam, mu = 600.0, 1000.0
    r = mu - lam

    def quantile(p: float) -> float:
        lo, hi = 0.0, 100.0 / r
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if math.exp(-r * mid) * (1 + r * mid) > 1 - p else (lo, mid)
        return lo

    p95, p99 = _model(lam, [1 / mu, 1 / mu], [1, 1], [1.0, 1.0])
    assert p95 == pytest.approx(quantile(0.95), rel=1e-3)  # shape 2 lies between the table's shapes
    assert p99 == pytest.approx(quantile(0.99), rel=1e-3)


def test_unit_gamma_quantile_table_matches_scipy():
    """The tabulated p95 / p99 of the unit gamma (and Wilson-Hilferty above the table) against scipy's inverse
    incomplete gamma at 3,000 shapes from 0.03 to 10^6: within 6e-4; another percentile is scipy's own."""
    from scipy.special import gammaincinv

    shapes = 10 ** np.linspace(-1.5, 6, 3000)
    for p in (0.95, 0.99):
        assert np.max(np.abs(unit_gamma_quantile(shapes, p) / gammaincinv(shapes, p) - 1)) < 6e-4
    assert unit_gamma_quantile(np.array([2.5]), 0.9)[0] == pytest.approx(float(gammaincinv(2.5, 0.9)), rel=1e-12)


@pytest.mark.parametrize(("c", "rho"), [(2, 0.6), (4, 0.7), (8, 0.9), (32, 0.95)])
def test_mmc_percentiles_within_5_percent_of_the_exact_distribution(c, rho):
    """M/M/c: R = S + W with S ~ Exp(mu) and W = 0 with probability 1 - C, Exp(c mu - lambda) with C (Erlang C),
    so P(R > t) = (1 - C) e^{-mu t} + C (th e^{-mu t} - mu e^{-th t}) / (th - mu), th = c mu - lambda; the
    three-moment fit stays within 5% of its percentiles (solved here by bisection)."""
    mu, lam = 1.0, rho * c
    th = c * mu - lam
    a = lam / mu
    b = 1.0
    for k in range(1, c + 1):
        b = a * b / (k + a * b)
    erlang_c = b / (1 - rho * (1 - b))

    def survival(t: float) -> float:
        both = (th * math.exp(-mu * t) - mu * math.exp(-th * t)) / (th - mu)
        return (1 - erlang_c) * math.exp(-mu * t) + erlang_c * both

    def quantile(p: float) -> float:
        lo, hi = 0.0, 200.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if survival(mid) > 1 - p else (lo, mid)
        return lo

    p95, p99 = _model(lam, [1 / mu], [c], [1.0])
    assert p95 == pytest.approx(quantile(0.95), rel=0.05)
    assert p99 == pytest.approx(quantile(0.99), rel=0.05)


def test_saturated_and_constant_paths():
    """A saturated station gives +inf (the engine turns it into None, "saturated"); a path of constants gives
    their sum; nothing is NaN."""
    p95, p99 = _model(2.0, [1.0], [1], [1.0])
    assert p95 == math.inf and p99 == math.inf
    assert float(gamma_quantile((np.array(3.0), np.array(0.0), np.array(0.0)), 0.99)) == 3.0
    got = path_quantiles(np.array([0.5]), np.array([[0.0]]), np.array([1.0]), np.array([[0.0]]), np.array([[0.0]]),
                         (0.95, 0.99))
    assert [float(g[0]) for g in got] == [0.5, 0.5]


def test_slo_statistics():
    assert slo_probability("mean") is None and slo_probability("p99") == 0.99
    with pytest.raises(ValueError, match="SLO statistic must be one of mean, p99"):
        slo_probability("p90")


# --- the engine and the sizer ---------------------------------------------------------------------------------------

EXAMPLE = "aff-a400-ns224-oracle-nvmefc.toml"


def _project(statistic: str):
    from models.project import load

    project = load(examples_dir() / EXAMPLE)
    return project.model_copy(update={"requirements": project.requirements.with_changes(slo_statistic=statistic)})


def _fcp_project(statistic: str):
    """The example's design over FCP (the same FC ports and HBAs): its curve rises with the CPU's queueing. Over
    NVMe/FC the A400 stops at its family's published figure per core (a rate cap), reached at an almost flat
    latency, where the mean and the p99 figures meet."""
    project = _project(statistic)
    scenario = project.scenario
    links = [ln.model_copy(update={"link_type": "fc-32g"}) if ln.link_type == "nvme-fc-32g" else ln
             for ln in scenario.links]
    return project.with_scenario(scenario.model_copy(update={"links": links}))


def test_engine_curve_carries_ordered_percentiles_and_p99_slo_lowers_max_iops():
    """Every curve point has p95 and p99 above its mean (right-skewed response times) and p99 above p95; with the
    SLO on the p99 the max IOPS at the SLO is lower than on the mean, and there the p99 on the curve is the SLO
    (over FCP: :func:`_fcp_project`)."""
    from models.evaluate import evaluate

    mean = evaluate(_fcp_project("mean")).performance.workloads[0]
    p99 = evaluate(_fcp_project("p99")).performance.workloads[0]
    assert mean.protocol == "FCP"
    for point in (*mean.curve, *mean.open_curve):
        assert point.latency_p95_ms is not None and point.latency_p99_ms is not None
        assert point.latency_ms < point.latency_p95_ms < point.latency_p99_ms
    assert mean.slo_statistic == "mean" and p99.slo_statistic == "p99"
    assert mean.max_iops_at_slo is not None and p99.max_iops_at_slo is not None
    assert p99.max_iops_at_slo < 0.95 * mean.max_iops_at_slo
    assert p99.latency_on_curve_ms(p99.max_iops_at_slo, "p99") == pytest.approx(p99.slo_ms, rel=0.02)
    assert mean.latency_on_curve_ms(mean.max_iops_at_slo) == pytest.approx(mean.slo_ms, rel=0.02)
    assert mean.latency_p99_at_target_ms is not None and mean.latency_at_target_ms is not None
    assert mean.latency_p99_at_target_ms > mean.latency_at_target_ms
    # the target met is judged on the p99 there: a SLO between the mean and the p99 at the target splits them
    split = (mean.latency_at_target_ms + mean.latency_p99_at_target_ms) / 2
    workloads = [w.model_copy(update={"slo_ms": split}) for w in _fcp_project("p99").scenario.workloads]
    for statistic, met in (("mean", True), ("p99", False)):
        project = _fcp_project(statistic)
        project = project.model_copy(update={"scenarios": [project.scenario.model_copy(
            update={"workloads": workloads})]})
        assert evaluate(project).performance.workloads[0].target_met is met


def test_evaluate_json_has_the_percentiles(tmp_path):
    from models.evaluate import evaluate
    from models.serialize import evaluation_to_dict

    data = evaluation_to_dict(evaluate(_project("mean")))
    w = data["workloads"][0]
    assert w["slo_statistic"] == "mean"
    assert w["latency_at_target_ms"] < w["latency_p95_ms"] < w["latency_p99_ms"]
    assert all(p["latency_p99_ms"] is None or p["latency_p99_ms"] > p["latency_p95_ms"] for p in w["curve"])


def test_old_requirements_default_to_the_mean():
    from models.project import loads
    from models.project.model import Requirements

    assert Requirements().slo_statistic == "mean"
    text = (examples_dir() / EXAMPLE).read_text(encoding="utf-8")
    assert "slo_statistic" not in text
    assert loads(text).requirements.slo_statistic == "mean"


def test_sizer_judges_the_slo_on_the_p99():
    """The sizer's candidates under a p99 SLO: each one's max IOPS at the SLO is the engine's p99 figure for that
    design, and lower than the mean figure for the same design (over FCP: :func:`_fcp_project`)."""
    from models.evaluate import evaluate
    from models.sizing import size

    project = _fcp_project("p99")
    project = project.model_copy(update={"requirements": project.requirements.with_changes(
        families=["ONTAP"], deployments=["on-prem"], protocols=["FCP"])})
    result = size(project, top=2)
    assert result.candidates
    for cand in result.candidates:
        as_p99 = project.model_copy(update={"scenarios": [cand.scenario], "active_scenario": cand.scenario.name})
        as_mean = as_p99.model_copy(update={"requirements": as_p99.requirements.with_changes(slo_statistic="mean")})
        p99 = evaluate(as_p99).performance.workloads[0].max_iops_at_slo
        mean = evaluate(as_mean).performance.workloads[0].max_iops_at_slo
        assert cand.max_iops_at_slo == pytest.approx(p99, rel=1e-6)
        assert p99 < 0.95 * mean


def test_curve_percentiles_interpolated_between_strided_points_stay_close(monkeypatch):
    """The curve's p95 / p99 computed at every 4th ramp point and interpolated, against the same computed at every
    point, on three examples of different kinds: within 2.5%; and along each curve they never fall."""
    from models.evaluate import evaluate
    from models.performance import engine
    from models.project import load

    projects = [load(examples_dir() / name) for name in
                (EXAMPLE, "fas70-ds460c-nlsas-nfs.toml", "cvo-azure-ds14-ha-oltp.toml")]

    def percentiles() -> list[np.ndarray]:
        return [np.array([[p.latency_p95_ms, p.latency_p99_ms] for p in (*w.curve, *w.open_curve)], dtype=float)
                for project in projects for w in evaluate(project).performance.workloads]

    strided = percentiles()
    monkeypatch.setattr(engine, "TAIL_STRIDE", 1)
    every = percentiles()
    for got, want in zip(strided, every):
        assert got.shape == want.shape and np.isfinite(want).all()
        assert np.max(np.abs(got / want - 1)) < 0.025
        # more load never lowers a percentile (a switch of the fit at a zero third cumulant once made it drop 13%)
        assert np.all(np.diff(want, axis=0) >= -1e-9 * want[1:])
