"""Work the sizer shares between designs without changing a number: one recursion for the closed ramps of every
group of networks at one population (each network's floats those of its group solved alone), one capacity
evaluation for Cloud Volumes ONTAP designs that differ only in their VM and for arrays whose controllers' capacity
rules are alike, the profile a record runs on chosen once per catalog, and the project-source test reading only the
prefix of a source text."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from itertools import groupby

import numpy as np

import models.performance.profiles as profiles
from models.capacity import evaluate_capacity
from models.capacity.layout import raid_layouts
from models.design import PROJECT_SOURCE_PREFIX, is_project_source
from models.evaluate import project_catalog
from models.performance.screening import SUMMED_IN_ORDER_BELOW
from models.project.model import Requirements
from models.queueing.general_service import closed_ramp_batch, closed_ramp_batches
from models.resources import examples_dir
from models.sizing import (
    _alike_layouts,
    _array_specs,
    _capacity_key,
    _capacity_signature,
    _cloud_specs,
    _NodeJsonMemo,
    _performance_key,
    _storage_key,
)
from models.store import load_any


def _group(rng: np.random.Generator, networks: int, classes: int, saturating: bool) -> tuple:
    """Random networks as ``closed_ramp_batch`` takes them; some classes idle; ``saturating``: no delay, so that
    the throughput bound is reached within the population."""
    s = rng.uniform(1e-5, 1e-3, (networks, classes))
    s[rng.random((networks, classes)) < 0.1] = 0.0
    c = rng.integers(1, 8, (networks, classes)).astype(float)
    m = rng.integers(1, 4, (networks, classes)).astype(float)
    v = rng.uniform(0.0, 3.0, (networks, classes))
    delay = np.zeros(networks) if saturating else rng.uniform(0.0, 1e-3, networks)
    return s, c, m, v, delay, rng.uniform(1e-5, 1e-3, networks)


def test_groups_solved_in_one_recursion_give_each_group_its_own_floats():
    rng = np.random.default_rng(27)
    compared = 0
    for trial in range(60):
        population = int(rng.choice([1, 3, 64, 512]))
        groups = [_group(rng, int(rng.integers(2, 7)), int(rng.integers(1, 20)), trial % 3 == 0)
                  for _ in range(int(rng.integers(1, 4)))]
        groups.append(_group(rng, 1, int(rng.integers(1, SUMMED_IN_ORDER_BELOW)), trial % 2 == 0))  # lone, few
        for group, (x, r) in zip(groups, closed_ramp_batches(groups, population), strict=True):
            want_x, want_r = closed_ramp_batch(*group, population, per_station=True)
            assert x.shape == want_x.shape and r.shape == want_r.shape
            assert np.array_equal(x, want_x) and np.array_equal(r, want_r)  # float for float
            compared += 1
    assert compared >= 120


def _reference_batch(s, c, m, v, delay, think, population):
    """The recursion of ``closed_ramp_batch`` written plainly, the networks at their bound picked out one by one
    (as it was before the bound took whole-array operations): (X (B, N), R (B, N, K))."""
    a = s / c
    par = s - a
    fixed = delay + think + par.sum(axis=1)
    B, K = a.shape
    with np.errstate(divide="ignore"):
        caps = np.where(a > 0, m / np.where(a > 0, a, 1.0), np.inf)
    x_max, bottleneck = caps.min(axis=1), caps.argmin(axis=1)
    a_t, a_over_m, a_w = a.T.copy(), (a / m).T.copy(), (a * a * (v - 1.0) / m).T.copy()
    rq, x, x_prev = np.zeros((K, B)), np.zeros(B), np.zeros(B)
    X, R = np.empty((B, population)), np.empty((B, population, K))
    for n in range(1, population + 1):
        t = a_over_m * rq
        t += a_w
        t *= x
        rq = a_t + t
        total = rq.sum(axis=0)
        x = n / (fixed + total)
        for b in np.flatnonzero(x > x_max):
            extra = n / x_max[b] - fixed[b] - total[b]
            rq[bottleneck[b], b] += extra
            total[b] += extra
            x[b] = x_max[b]
        for b in np.flatnonzero(x < x_prev):
            scale = (n / x_prev[b] - fixed[b]) / total[b]
            rq[:, b] *= scale
            total[b] *= scale
            x[b] = x_prev[b]
        x_prev = x.copy()
        X[:, n - 1], R[:, n - 1, :] = x, rq.T
    return X, R + par[:, None, :]


def test_the_batched_recursion_at_its_bound_gives_the_plain_recursions_floats():
    rng = np.random.default_rng(1027)
    at_bound = 0
    for _ in range(12):
        group = _group(rng, int(rng.integers(2, 9)), int(rng.integers(2, 16)), saturating=True)
        x, r = closed_ramp_batch(*group, 400, per_station=True)
        want_x, want_r = _reference_batch(*group, 400)
        assert np.array_equal(x, want_x) and np.array_equal(r, want_r)
        s, c, m = group[0], group[1], group[2]
        a = s / c
        with np.errstate(divide="ignore"):
            bound = np.where(a > 0, m / np.where(a > 0, a, 1.0), np.inf).min(axis=1)
        at_bound += int(np.sum(x[:, -1] == bound))
    assert at_bound >= 3  # the bound's branch ran


def test_cvo_designs_that_differ_only_in_their_vm_share_one_capacity_key_and_have_the_same_capacity():
    project = load_any(examples_dir() / "cvo-azure-ds14-ha-oltp.toml")
    catalog = project_catalog(project)
    specs = list(_cloud_specs(project.scenario, catalog, project.requirements))
    by_key = sorted(((_storage_key(s.scenario), s) for s in specs[::7]), key=lambda kv: kv[0])
    shared = 0
    for _key, alike in groupby(by_key, key=lambda kv: kv[0]):
        designs = [s for _, s in alike]
        vms = {s.scenario.nodes[0].catalog_id for s in designs}
        if len(vms) < 2:
            continue
        shared += 1
        totals = {evaluate_capacity(s.scenario, catalog).total for s in designs[:3]}
        assert len(totals) == 1, vms  # every figure equal (CapacityTotals compares field by field)
    assert shared >= 5
    one = specs[0].scenario.nodes[0]
    other_disks = next(s for s in specs if s.scenario.nodes[0].disk_count != one.disk_count)
    assert _storage_key(other_disks.scenario) != _storage_key(specs[0].scenario)


def test_arrays_whose_controllers_capacity_rules_are_alike_share_one_capacity_key_and_have_the_same_capacity():
    project, catalog, specs = _every_array_design()
    signatures: dict = {}
    keyed = sorted(((_capacity_key(s.scenario, catalog, signatures), i) for i, s in enumerate(specs[::3])),
                   key=lambda kv: kv[0])
    shared = eseries = 0
    for _key, alike in groupby(keyed, key=lambda kv: kv[0]):
        designs = [specs[::3][i].scenario for _, i in alike]
        controllers = {next(n.catalog_id for n in d.nodes if n.kind == "controller") for d in designs}
        if len(controllers) < 2:
            continue
        shared += 1
        eseries += catalog.find(next(iter(controllers))).family == "E-Series"
        picked = {}  # one design per controller: the totals of each are the first's, field by field
        for d in designs:
            picked.setdefault(next(n.catalog_id for n in d.nodes if n.kind == "controller"), d)
        totals = {evaluate_capacity(d, catalog).total for d in picked.values()}
        assert len(totals) == 1, sorted(controllers)
    assert shared >= 30 and eseries >= 1
    one, other = catalog.find("netapp-aff-a20"), catalog.find("netapp-fas2750")  # all-flash or not: other rules
    assert _capacity_signature(one, catalog) != _capacity_signature(other, catalog)


def test_the_profile_a_record_runs_on_is_chosen_once_per_catalog_and_is_the_lookups_answer():
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    catalog = project_catalog(project)
    from models.catalog import CloudVm, Controller

    records = [e for e in catalog if isinstance(e, (Controller, CloudVm))][:40]
    for record in records:
        for protocol in ("NFS", "iSCSI", "FCP"):
            got = profiles.controller_profile(record, catalog, "9.14.1", protocol)
            want = profiles._chosen(record, catalog, "9.14.1", protocol)
            assert got[1] == want[1] and got[0] == want[0]
            again = profiles.controller_profile(record, catalog, "9.14.1", protocol)
            assert again[0] is got[0] and again[1] is got[1]  # remembered
    record = records[0]
    renamed = record.model_copy(update={"name": record.name + " (the project's own)"})  # same id, another record
    got = profiles.controller_profile(renamed, catalog, "9.14.1", "NFS")
    assert got == profiles._chosen(renamed, catalog, "9.14.1", "NFS")
    assert profiles.controller_profile(record, catalog, "9.14.1", "NFS") == profiles._chosen(record, catalog,
                                                                                           "9.14.1", "NFS")


def test_the_project_source_test_reads_the_prefix_as_the_whole_text_lowered_would():
    rng = random.Random(27)
    pieces = [PROJECT_SOURCE_PREFIX, PROJECT_SOURCE_PREFIX.upper(), "Project File", "project", " ", "\t", "\n",
              "İ", "ß", "Σ", "K", "x", ":", "catalog", "fil"]
    texts = ["", " ", PROJECT_SOURCE_PREFIX, " project file: yours", "Project file", "project fil", "projectfile"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(3000)]
    for text in texts:
        assert is_project_source(text) == text.strip().lower().startswith(PROJECT_SOURCE_PREFIX), repr(text)
    assert sum(is_project_source(t) for t in texts) > 50


def test_arrays_of_one_capacity_key_take_each_others_raid_layouts():
    """The search builds the paths of an array whose capacity was an alike array's from that array's RAID layouts
    (``_alike_layouts``): the groups, spares, partitions and RAID type its own ``raid_layouts`` would build, its id
    and the words naming it; over every family, protocol and drive of the AFF8080 example's search."""
    _project, catalog, specs = _every_array_design()
    signatures: dict = {}
    first: dict = {}
    compared = across = 0
    for spec in specs[::5]:  # a sample (current models only since stop 54: fewer designs)
        design = spec.scenario
        key = _capacity_key(design, catalog, signatures)
        if key not in first:
            first[key] = (raid_layouts(design, catalog), design)
            continue
        got, want = _alike_layouts(*first[key], design, catalog), raid_layouts(design, catalog)
        assert got.keys() == want.keys()
        for system, layout in want.items():
            assert replace(got[system], notes=()) == replace(layout, notes=())
            assert len(got[system].notes) == len(layout.notes)
        compared += 1
        across += _controller_of(first[key][1]) != _controller_of(design)
    assert compared >= 200 and across >= 100


def _controller_of(design) -> str:
    return next(n.catalog_id for n in design.nodes if n.kind == "controller")


@lru_cache(maxsize=1)
def _every_array_design() -> tuple:
    """(project, catalog, specs) of the AFF8080 example's array designs of every family, protocol and drive (made
    once for this module's tests)."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    catalog = project_catalog(project)
    return project, catalog, list(_array_specs(project.scenario, catalog, Requirements()))


def test_a_searchs_node_texts_made_once_give_the_same_keys():
    """The storage, capacity and performance keys of array designs made with a search's memo of node texts
    (``_NodeJsonMemo``) are those made without it, and the designs' shared nodes are dumped once each."""
    _project, catalog, specs = _every_array_design()
    memo = _NodeJsonMemo()
    plain: tuple[dict, dict] = ({}, {})
    memoised: tuple[dict, dict] = ({}, {})
    designs = [spec.scenario for spec in specs[::11]]
    for design in designs:
        assert _storage_key(design, memo) == _storage_key(design)
        assert _capacity_key(design, catalog, memoised[0], memo) == _capacity_key(design, catalog, plain[0])
        assert (_performance_key(design, catalog, "on-prem", memoised[1], memo)
                == _performance_key(design, catalog, "on-prem", plain[1]))
    dumped = sum(3 * sum(n.kind != "switch" for n in d.nodes) for d in designs)
    assert len(memo._texts) < dumped / 4
