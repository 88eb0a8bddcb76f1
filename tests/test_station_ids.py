"""Typed station identities: what a failure state, the bands, the cautions and the presentation decide about a
station comes from its ``StationId`` (node, role, index), never from its display name.

The main check renames every station the path builders make to an opaque token (a hash of its display name, so
no word of it survives) and shows that every bundled example's evaluation, failure states, verdicts, status bar,
explanations and ``--json`` output are exactly those of the unrenamed design once the tokens are read back as the
names; a MetroCluster variant and an 8-node cluster of HA pairs add the switchover and the several-pairs takeover.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from models.catalog import Controller, bundled_catalog
from models.evaluate import evaluate, evaluate_resilience
from models.performance import StationId, build_path, engine, paths
from models.performance.engine import evaluate_paths
from models.performance.public_ramps import a90_eda
from models.performance.resilience import evaluate_states
from models.performance.states import STATES, takeover
from models.performance.stations import CONTROLLER_ROLES, ROLES, UNSPECIFIED
from models.present.explain import FIGURES, explain_figure, explain_station
from models.present.resilience import state_verdicts
from models.present.summary import status_summary
from models.present.verdicts import bottleneck_sentence, verdicts
from models.project.model import Scenario
from models.resources import examples_dir
from models.serialize import evaluation_to_dict
from models.store import load_any

CAT = bundled_catalog()
EXAMPLES = sorted(p.name for p in examples_dir().glob("*.toml"))


# ----------------------------------------------------------------------------------------------- StationId


def test_a_station_id_is_a_value():
    """Equal by value, hashable (a dict key), frozen."""
    a, b = StationId("cpu", node=2), StationId("cpu", node=2)
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert StationId("cpu", node=1) != a and StationId("cpu", node=2, index=0) != a
    with pytest.raises(AttributeError):
        a.node = 1  # type: ignore[misc]


@pytest.mark.parametrize("args", [("CPU",), ("node 1 CPU",), ("cpu", 0), ("drives", 1, -1)])
def test_a_station_id_rejects_an_unknown_role_node_0_and_a_negative_index(args):
    with pytest.raises(ValueError):
        StationId(*args)


def test_on_node_moves_a_node_station_keeping_its_role_and_index():
    assert StationId("cpu", node=2).on_node(1) == StationId("cpu", node=1)
    assert StationId("drives", 2, 3).on_node(1) == StationId("drives", 1, 3)
    with pytest.raises(ValueError):
        StationId("target_ports").on_node(1)  # a shared station belongs to no node


def test_only_a_nodes_controller_hardware_fails_with_it():
    assert all(StationId(role, node=2).of_controller_node for role in CONTROLLER_ROLES)
    assert not StationId("drives", node=2).of_controller_node  # the drives survive, owned by the partner
    assert not StationId("cpu").of_controller_node  # a cloud VM's or the vSAN hosts' CPU: no node
    assert CONTROLLER_ROLES < ROLES


# ----------------------------------------------------------------------------------------------- builders


def _example_paths() -> Iterator[tuple[str, Scenario, Any]]:
    for name in EXAMPLES:
        scenario = load_any(examples_dir() / name).scenario
        built, _ = evaluate_paths(scenario, CAT)
        for path in built:
            yield name, scenario, path


def test_every_built_station_has_a_unique_identity_and_every_controller_node_its_cpu():
    """Every station of every example's paths has a role (not the default ``unspecified``), no two stations of a
    path share an identity, and a controller of N nodes (the project's node count, else the catalog's) has CPU
    stations of nodes 1..N exactly."""
    seen_roles: set[str] = set()
    count = 0
    for name, scenario, path in _example_paths():
        idents = [s.ident for s in path.stations]
        assert UNSPECIFIED not in idents, (name, [s.name for s in path.stations if s.ident == UNSPECIFIED])
        assert len(set(idents)) == len(idents), name
        seen_roles |= {i.role for i in idents}
        target = scenario.node(path.workload.target)
        if target is not None and target.kind == "controller":
            nodes = target.nodes or CAT.get(target.catalog_id, Controller).nodes
            assert sorted(i.node for i in idents if i.role == "cpu") == list(range(1, nodes + 1)), name
        count += 1
    assert count > 20
    assert {"cpu", "target_ports", "drives", "nvram", "ha_mirror", "ha_partner_cpu", "network"} <= seen_roles


def test_takeover_moves_only_the_failed_nodes_controller_stations_and_conserves_their_demand():
    """8-node AFF A90 cluster: for each controller role, node 1 carries nodes 1 and 2's demand and the sum over the
    nodes is unchanged (NVRAM aside: nodes 1 and 2 stop mirroring); the drive pools of both nodes are untouched."""
    scenario = a90_eda(40.0, 1_000_000)
    path = build_path(scenario, CAT, scenario.workloads[0])
    degraded = takeover(path)
    assert degraded is not None
    rf = path.read_fraction
    before = {s.ident: s for s in path.stations}
    after = {s.ident: s for s in degraded.path.stations}
    roles = {i.role for i in before if i.of_controller_node} - {"nvram"}
    assert {"cpu", "affinity"} <= roles
    for role in roles:
        assert StationId(role, node=2) not in after
        assert after[StationId(role, node=1)].demand(rf) == pytest.approx(
            before[StationId(role, node=1)].demand(rf) + before[StationId(role, node=2)].demand(rf))
        total = sum(s.demand(rf) for i, s in before.items() if i.role == role)
        assert sum(s.demand(rf) for i, s in after.items() if i.role == role) == pytest.approx(total)
    assert {i for i in after if i.role == "nvram"} == {StationId("nvram", node=k) for k in range(3, 9)}
    for i, s in before.items():
        if i.role in ("drives", "drive_transfer"):
            assert after[i] == s


# ----------------------------------------------------------------------------------------------- renaming


def _opaque(name: str) -> str:
    """A token that keeps no word of ``name`` (unique per name: the engine still needs a unique key)."""
    return "station-" + hashlib.sha256(name.encode()).hexdigest()[:16]


@contextmanager
def _renamed(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """Within the block every station the path builders make is named by :func:`_opaque`; yields token -> the
    display name it replaced."""
    back: dict[str, str] = {}
    add = paths._Builder.add

    def opaque_add(self: Any, name: str, *args: Any, **kwargs: Any) -> None:
        token = _opaque(name)
        back[token] = name
        add(self, token, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(paths._Builder, "add", opaque_add)
        yield back


def _read_back(text: str, back: dict[str, str]) -> str:
    for token, name in back.items():
        text = text.replace(token, name)
    return text


def _everything(project: Any) -> tuple[str, set[str], set[str]]:
    """Every figure and sentence of a project's evaluation that names or depends on stations, as one text: the
    ``--json`` document (performance, failure states, runway), the verdicts and their headline inputs, the status
    bar, the bottleneck sentences, the cautions, the explanations of each figure and station, the state verdicts.
    Also the failure states found and the names of the stations solved (normal and failure states).

    The engine's ramp cache is emptied first: a ramp an earlier test solved in a batch (the sizer's) equals the
    single solution only to rounding (1e-15), and this text is compared exactly."""
    engine._CURVE_CACHE.clear()
    evaluation = evaluate(project)
    resilience = evaluate_resilience(project, evaluation)
    workloads = evaluation.performance.workloads if evaluation.performance is not None else ()
    parts: list[Any] = [
        json.dumps(evaluation_to_dict(evaluation, "x", resilience), default=repr),
        verdicts(evaluation), status_summary(evaluation), state_verdicts(resilience, workloads),
        [bottleneck_sentence(wp).text for wp in workloads], [wp.cautions() for wp in workloads],
        [[explain_figure(wp, f) for f in FIGURES] for wp in workloads],
        [[explain_station(wp, s.name) for s in wp.stations] for wp in workloads],
        [(wid, [(s.state, s.reason, s.meets_slo, s.rebuild_hours, s.performance) for s in states])
         for wid, states in resilience.states.items()],
    ]
    found = {s.state for states in resilience.states.values() for s in states}
    solved = [*workloads, *(s.performance for states in resilience.states.values() for s in states)]
    return repr(parts), found, {st.name for wp in solved for st in wp.stations}


@pytest.mark.parametrize("example", EXAMPLES)
def test_renaming_every_station_changes_no_result(example, monkeypatch):
    project = load_any(examples_dir() / example)
    plain, found, names = _everything(project)
    with _renamed(monkeypatch) as back:
        renamed, found_renamed, tokens = _everything(project)
    # every station solved was renamed (and none is left out); a state's station split from a built one (a drive
    # rebuild's degraded RAID group) is named from it, its token read back inside the name
    assert {_read_back(t, back) for t in tokens} == names
    assert all(any(token in t for token in back) for t in tokens)
    assert found_renamed == found
    assert _read_back(renamed, back) == plain


def _metrocluster() -> Scenario:
    scenario = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml").scenario
    nodes = [n.model_copy(update={"metrocluster": "ip", "site_distance_km": 50.0}) if n.kind == "controller" else n
             for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


EXTRA: dict[str, Callable[[], Scenario]] = {"metrocluster": _metrocluster,
                                            "a90-8-nodes": lambda: a90_eda(40.0, 1_000_000)}


def _states_text(scenario: Scenario) -> tuple[str, set[str]]:
    engine._CURVE_CACHE.clear()  # as in _everything: compared exactly
    states = evaluate_states(scenario, CAT)
    rows = [(wid, [(s.state, s.reason, s.meets_slo, s.rebuild_hours, s.performance, s.performance.cautions())
                   for s in found]) for wid, found in states.items()]
    return repr(rows), {s.state for found in states.values() for s in found}


@pytest.mark.parametrize("extra", sorted(EXTRA))
def test_renaming_every_station_changes_no_failure_state_of_a_metrocluster_or_a_cluster_of_ha_pairs(
        extra, monkeypatch):
    scenario = EXTRA[extra]()
    plain, found = _states_text(scenario)
    with _renamed(monkeypatch) as back:
        renamed, found_renamed = _states_text(scenario)
    assert found_renamed == found and {"takeover", "path_loss"} <= found
    assert extra != "metrocluster" or "switchover" in found
    assert _read_back(renamed, back) == plain


def test_the_renaming_checks_reach_every_failure_state():
    """The examples and the extra scenarios above between them produce every state of ``STATES``, so the renaming
    tests exercise each state's selection of stations."""
    found: set[str] = set()
    for name in EXAMPLES:
        project = load_any(examples_dir() / name)
        found |= {s.state for states in evaluate_states(project.scenario, CAT).values() for s in states}
    found |= _states_text(_metrocluster())[1]
    assert len(EXAMPLES) >= 20 and found == set(STATES)



def test_renaming_every_station_changes_no_performance_validation_check(monkeypatch):
    """The published performance cases (``storplan validate``), the EF550 case's 'the links bind' among them,
    give the same checks with every station renamed."""
    from models.validation.cases import published_cases
    from models.validation.performance_cases import PERFORMANCE_CASES

    cases = {c["id"]: c for section in published_cases().values() for c in section}
    assert "ef550-sas-mixed" in PERFORMANCE_CASES and set(PERFORMANCE_CASES) <= set(cases)
    plain = repr([PERFORMANCE_CASES[i](CAT, cases[i]) for i in sorted(PERFORMANCE_CASES)])
    with _renamed(monkeypatch) as back:
        renamed = repr([PERFORMANCE_CASES[i](CAT, cases[i]) for i in sorted(PERFORMANCE_CASES)])
    assert back and _read_back(renamed, back) == plain
