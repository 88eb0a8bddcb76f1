"""Auto-size: the project's requirements in, ranked configurations out. Each candidate's project, written out and
evaluated on its own, meets the requirements (checked here without the sizer); impossible requirements get the
nearest designs and what they miss."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from models.evaluate import evaluate
from models.performance.resilience import evaluate_states
from models.project import loads
from models.project.model import Requirements
from models.resources import examples_dir
from models.sizing import needed_effective_bytes, size
from models.store import load_any

EXAMPLE = examples_dir() / "aff8080-sqlserver-tpce.toml"


def _meets(project, requirements: Requirements, need: float) -> list[str]:
    """What an evaluated candidate misses (empty: it meets), computed from its own evaluation."""
    evaluation = evaluate(project)
    misses = []
    total = evaluation.capacity.total
    if total.effective_bytes < need:
        misses.append("capacity")
    full = total.months_until_full  # the data with its Snapshot blocks, grown, within usable over the horizon
    if total.physical_used_bytes > total.usable_bytes or (full is not None and full < requirements.horizon_months):
        misses.append("capacity over the horizon")
    targets = {w.id: w for w in project.scenario.workloads}
    for wp in evaluation.performance.workloads:
        w = targets[wp.workload_id]
        if wp.target_iops is None:
            continue  # no target: no performance requirement
        grown = wp.target_iops * (1 + w.iops_growth_pct_per_year / 100) ** (requirements.horizon_months / 12)
        if wp.max_iops_at_slo is None or wp.max_iops_at_slo < grown:
            misses.append(f"{wp.name} SLO")
    return misses


def test_the_top_candidates_meet_the_requirements_on_their_own():
    project = load_any(EXAMPLE)
    result = size(project, top=5)
    assert result.candidates and all(c.meets for c in result.candidates)
    keys = [c.rank_key() for c in result.candidates]
    assert keys == sorted(keys)
    out = subprocess.run([sys.executable, "-m", "app", "size", str(EXAMPLE), "--json"], capture_output=True,
                         text=True, check=True)
    rows = json.loads(out.stdout)["candidates"]
    assert len(rows) == 5 and [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    need = needed_effective_bytes(project.scenario, project.requirements)
    for row in rows:
        candidate = loads(row["project"])  # the candidate as a complete project, independent of the sizer
        assert _meets(candidate, project.requirements, need) == [], row["summary"]
        assert row["effective_bytes"] == pytest.approx(evaluate(candidate).capacity.total.effective_bytes)


def test_takeover_requirement_is_met_in_takeover():
    project = load_any(EXAMPLE)
    project = project.model_copy(update={"requirements": Requirements(meet_slo_in_takeover=True)})
    result = size(project, top=3)
    assert result.candidates
    for c in result.candidates:
        states = evaluate_states(c.scenario, __import__("models.evaluate", fromlist=["project_catalog"])
                                 .project_catalog(project))
        takeover = [s for ss in states.values() for s in ss if s.state == "takeover"]
        assert takeover and all(s.meets_slo for s in takeover)


def test_impossible_requirements_name_what_cannot_be_reached():
    project = load_any(EXAMPLE)
    project = project.model_copy(update={"requirements": Requirements(effective_capacity_bytes=10**17)})  # 100 PB
    result = size(project)
    assert result.candidates == ()
    assert result.nearest and all(any("capacity short by" in r for r in c.reasons) for c in result.nearest)
    out = subprocess.run([sys.executable, "-m", "app", "size", str(EXAMPLE)], capture_output=True, text=True)
    assert "designs considered" in out.stdout


def test_requirements_in_the_toml_form():
    from models.project import dumps

    bare = dumps(load_any(EXAMPLE).model_copy(update={"requirements": Requirements()}))
    text = bare + "\n[requirements]\nhorizon_months = 12\nprotocols = [\"NVMe/FC\"]\nrank_on = \"p90\"\n"
    project = loads(text)
    assert project.requirements.horizon_months == 12 and project.requirements.rank_on == "p90"
    result = size(project, top=2)
    assert all("NVMe/FC" in c.summary for c in result.candidates + result.nearest)
    w = project.scenario.workloads[0]
    # the effective capacity as it is sold (data reduction only): the data set grown, Snapshot copies not counted
    grown = w.dataset_bytes * 1.20  # 20 % a year over 12 months: (1 + g)^(12 / 12)
    assert needed_effective_bytes(project.scenario, project.requirements) == pytest.approx(grown)
    assert math.isfinite(grown)


def test_hci_candidates_meet_with_their_spare_host_down():
    """vSAN only, N+1: each candidate, evaluated on its own with one host taken out, still has the capacity and
    meets every workload's SLO at its grown target; its rack units count every host."""
    project = load_any(examples_dir() / "vsan-sqlserver-raid1.toml")
    scenario = project.scenario
    busy = [w.with_changes(target_iops=150_000.0) for w in scenario.workloads]  # a target, so the SLO matters
    project = project.with_scenario(scenario.model_copy(update={"workloads": busy}))
    project = project.model_copy(update={"requirements": Requirements(deployments=["hci"], n_plus=1)})
    result = size(project, top=3)
    assert result.candidates and all("hosts (1 spare)" in c.summary for c in result.candidates)
    need = needed_effective_bytes(project.scenario, project.requirements)
    for c in result.candidates:
        cluster = next(n for n in c.scenario.nodes if n.kind == "hci_cluster")
        assert c.rack_units == 2 * cluster.hosts
        degraded = c.scenario.model_copy(update={"nodes": [cluster.model_copy(update={"hosts": cluster.hosts - 1})]})
        assert _meets(project.with_scenario(degraded), project.requirements, need) == []


def test_candidates_below_the_saturation_bound_are_ruled_out_without_a_full_evaluation():
    """A target far above any array's saturation: every capacity-feasible candidate fails the asymptotic bound
    (min capacity / demand), each saying where it saturates."""
    project = load_any(EXAMPLE)
    scenario = project.scenario
    huge = [w.with_changes(target_iops=50_000_000.0) for w in scenario.workloads]
    project = project.with_scenario(scenario.model_copy(update={"workloads": huge}))
    project = project.model_copy(update={"requirements": Requirements(deployments=["on-prem"])})
    result = size(project)
    assert result.candidates == ()
    assert result.nearest and all("saturates at" in r for c in result.nearest for r in c.reasons)


EXAMPLES = sorted(examples_dir().glob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_carries_requirements_and_its_top_five_meet_them_on_their_own(path):
    """Each bundled example states requirements derived from its workloads; the sizer finds designs, and each of
    the top five, written out as a project and read back, meets them by its own evaluation (capacity, every SLO
    at the grown target, the takeover state when asked, N+1 with a host down for HCI)."""
    from models.evaluate import project_catalog

    project = load_any(path)
    req = project.requirements
    assert req != Requirements(), f"{path.name} has no [requirements]"
    result = size(project, top=5)
    assert result.candidates, [c.reasons for c in result.nearest]
    need = needed_effective_bytes(project.scenario, req)
    for c in result.candidates:
        assert c.deployment in req.deployments
        candidate = loads(__import__("models.project", fromlist=["dumps"]).dumps(project.with_scenario(c.scenario)))
        checked = candidate
        if c.deployment == "hci" and req.n_plus:
            cluster = next(n for n in candidate.scenario.nodes if n.kind == "hci_cluster")
            down = cluster.model_copy(update={"hosts": cluster.hosts - req.n_plus})
            checked = candidate.with_scenario(candidate.scenario.model_copy(update={"nodes": [down]}))
        assert _meets(checked, req, need) == [], c.summary
        managed = any(n.kind == "managed_service" for n in candidate.scenario.nodes)
        if req.meet_slo_in_takeover and c.deployment != "hci" and not managed:
            states = evaluate_states(candidate.scenario, project_catalog(candidate))
            failover = [s for ss in states.values() for s in ss if s.state in ("takeover", "cloud_failover")]
            assert failover and all(s.meets_slo for s in failover), c.summary


def test_cloud_candidates_with_the_takeover_requirement_are_ha_pairs():
    project = load_any(examples_dir() / "cvo-azure-ds4-ha-oltp.toml")
    assert project.requirements.deployments == ["cloud"] and project.requirements.meet_slo_in_takeover
    # Cloud Volumes ONTAP only (a managed service's HA is the provider's: it is not asked for a partner)
    project = project.model_copy(update={"requirements": project.requirements.with_changes(families=["CVO"])})
    result = size(project, top=5)
    assert result.candidates and all(c.deployment == "cloud" and "HA pair" in c.summary for c in result.candidates)
    single = project.model_copy(update={"requirements": project.requirements.with_changes(meet_slo_in_takeover=False)})
    cheapest = size(single, top=1).candidates[0]
    assert "single node" in cheapest.summary  # without the requirement a single node is smaller
    nodes = [n for c in result.candidates for n in c.scenario.nodes]
    assert all(n.kind == "cloud_vm" and n.ha and n.raid_type == "raid0" for n in nodes)


PRICES = """catalog_id,part_number,unit_price,currency
netapp-aff-a20,AFF-A20-HA,"41,000.00",USD
netapp-aff-a30,AFF-A30-HA,62000,USD
netapp-aff-a50,AFF-A50-HA,90000,USD
netapp-aff-a70,AFF-A70-HA,140000,USD
netapp-aff-a800,AFF-A800-HA,180000,USD
netapp-aff-a90,AFF-A90-HA,210000,USD
netapp-aff-a900,AFF-A900-HA,260000,USD
netapp-ns224,X-NS224,9000,USD
netapp-a800-internal-nvme,X-A800-BAYS,0,USD
netapp-1500gb-nvme-ssd-a800,X4002A,1200,USD
netapp-2u24-internal-nvme,X-2U24-BAYS,0,USD
netapp-4u48-internal-nvme,X-4U48-BAYS,0,USD
netapp-nvme-ssd-1.92tb-tlc,X4016A,900,USD
netapp-nvme-ssd-3.84tb-tlc,X4017A,1500,USD
netapp-nvme-ssd-7.68tb-tlc,X4018A,2600,USD
netapp-nvme-ssd-15.3tb-tlc,X4019A,4800,USD
netapp-nvme-ssd-30.6tb-tlc,X4020A,9000,USD
"""


def _independent_cost(scenario, prices: dict[str, float]) -> float:
    """The design's cost counted here from its nodes: controller 1, each shelf 1 plus its drives."""
    total = 0.0
    for node in scenario.nodes:
        if node.kind == "controller":
            total += prices[node.catalog_id]
        elif node.kind == "shelf":
            total += prices[node.catalog_id] + node.drive_count * prices[node.drive]
    return total


def test_a_price_book_ranks_by_cost_and_the_budget_applies():
    from models.evaluate import project_catalog
    from models.pricing import read_price_book

    project = load_any(examples_dir() / "a800-oracle-slob-nvmefc.toml")
    project = project.model_copy(update={"requirements": project.requirements.with_changes(
        protocols=[], meet_slo_in_takeover=False)})
    catalog = project_catalog(project)
    book = read_price_book(PRICES, "prices.csv", catalog)
    assert [r.part_number for r in book][:2] == ["AFF-A20-HA", "AFF-A30-HA"] and book[0].unit_price == 41_000
    priced = project.model_copy(update={"price_book": book})
    prices = {r.catalog_id: r.unit_price for r in book}
    result = size(priced, top=5)
    assert result.currency == "USD" and result.candidates
    costs = [c.cost for c in result.candidates]
    assert costs == sorted(costs)
    for c in result.candidates:
        assert c.unpriced == () and c.cost == pytest.approx(_independent_cost(c.scenario, prices))
    cheapest = costs[0]
    tight = priced.model_copy(update={"requirements": priced.requirements.with_changes(budget=cheapest - 1)})
    over = size(tight, top=5)
    assert over.candidates == ()
    assert over.nearest and all(c.reasons for c in over.nearest)
    for c in over.nearest:  # within the budget the designs miss the SLO; above it they say so
        assert (c.cost > cheapest - 1) == any("over the budget" in r for r in c.reasons), c.reasons
    roomy = priced.model_copy(update={"requirements": priced.requirements.with_changes(budget=cheapest)})
    assert size(roomy, top=1).candidates[0].cost == pytest.approx(cheapest)
    unpriced_book = [r for r in book if r.catalog_id != "netapp-ns224"]
    partial = size(priced.model_copy(update={"price_book": unpriced_book}), top=20)
    for c in partial.candidates:
        uses_ns224 = any(n.catalog_id == "netapp-ns224" for n in c.scenario.nodes)
        assert ("netapp-ns224" in c.unpriced) == uses_ns224
    ranks = [bool(c.unpriced) for c in partial.candidates]
    assert ranks == sorted(ranks)  # every fully priced design ranks before any with an unpriced item


@pytest.mark.parametrize("text, message", [
    ("", "prices.csv: the file is empty"),
    ("id,price\nx,1\n", "prices.csv: line 1: the header lacks catalog_id, unit_price"),
    ("catalog_id,unit_price\nnetapp-ns224,abc\n", "prices.csv: line 2: unit_price 'abc' is not a number"),
    ("catalog_id,unit_price\nnetapp-ns224,-5\n", "prices.csv: line 2: unit_price '-5' must be a finite number >= 0"),
    ("catalog_id,unit_price\nnetapp-ns224,5\nnetapp-ns224,6\n", "line 3: catalog_id 'netapp-ns224' is priced again "
                                                               "(first on line 2)"),
    ("catalog_id,unit_price\nno-such-thing,5\n", "line 2: catalog_id 'no-such-thing' is not a catalog record"),
    ("catalog_id,unit_price,currency\nnetapp-ns224,5,USD\nnetapp-aff-a20,6,EUR\n",
     "one currency per book, found EUR, USD"),
])
def test_a_bad_price_book_is_refused_naming_the_line_and_column(text, message):
    from models.catalog import bundled_catalog
    from models.pricing import PriceBookError, read_price_book

    with pytest.raises(PriceBookError) as err:
        read_price_book(text, "prices.csv", bundled_catalog())
    assert message in str(err.value)


def test_the_pareto_front_is_exactly_the_undominated_candidates():
    """★ is taken among the platform designs as shown (each its smallest variant that meets) on the ranking's
    criteria: rack units, power (unknown: worst) and headroom here (one deployment, no cloud VM); a variant that is
    not shown is never marked."""
    from models.sizing import platform_key

    project = load_any(examples_dir() / "vsan-sqlserver-raid1.toml")
    result = size(project, top=5)
    ev = result.evaluated
    assert len(ev) > 5 and any(c.pareto for c in ev)
    assert {c.deployment for c in ev} == {"hci"}
    heads: dict = {}
    for c in sorted(ev, key=lambda c: c.variant_key()):
        heads.setdefault(platform_key(c), c)

    def point(c):
        return c.rack_units, math.inf if c.power_w is None else c.power_w, -c.headroom_pct

    def dominated(c):
        return any(point(o) != point(c) and all(x <= y for x, y in zip(point(o), point(c), strict=True))
                   for o in heads.values())

    for c in ev:
        assert c.pareto == (c is heads[platform_key(c)] and not dominated(c)), c.summary
    assert result.candidates[0].pareto


def test_the_command_line_imports_a_price_book_and_ranks_by_it(tmp_path):
    """``storplan import-prices`` stores the rows in the project (read back from the written file);
    ``storplan size --prices`` prints the costs; a bad price is refused naming the line."""
    book = tmp_path / "prices.csv"
    book.write_text(PRICES, encoding="utf-8")
    out = tmp_path / "priced.storplan"
    run = [sys.executable, "-m", "app"]
    done = subprocess.run([*run, "import-prices", "a800-oracle-slob-nvmefc", str(book), "-o", str(out)],
                          capture_output=True, text=True, check=True)
    assert "with 17 prices in USD" in done.stdout
    stored = load_any(out).price_book
    assert [(r.catalog_id, r.unit_price) for r in stored][:2] == [("netapp-aff-a20", 41_000.0),
                                                                  ("netapp-aff-a30", 62_000.0)]
    rows = json.loads(subprocess.run([*run, "size", str(out), "--json"], capture_output=True, text=True,
                                     check=True).stdout)["candidates"]
    prices = {r.catalog_id: r.unit_price for r in stored}
    for row in rows:
        assert row["currency"] == "USD"
        scenario = loads(row["project"]).scenario
        storage = {n.catalog_id for n in scenario.nodes if n.kind in ("controller", "shelf")}
        storage |= {n.drive for n in scenario.nodes if n.kind == "shelf" and n.drive}  # drives are priced per unit
        assert row["unpriced"] == sorted(storage - set(prices))  # the catalog has more models than the book
        if not row["unpriced"]:
            assert row["cost"] == pytest.approx(_independent_cost(scenario, prices))
    assert not rows[0]["unpriced"]  # a fully priced design ranks first
    bad = tmp_path / "bad.csv"
    bad.write_text("catalog_id,unit_price\nnetapp-ns224,12x\n", encoding="utf-8")
    failed = subprocess.run([*run, "size", str(out), "--prices", str(bad)], capture_output=True, text=True)
    assert failed.returncode == 2 and "line 2: unit_price '12x' is not a number" in failed.stderr


def test_the_batched_engine_equals_the_single_evaluation_on_200_random_candidates():
    """200 random sizer designs (arrays, vSAN and cloud): their closed ramps solved at once by the batched
    engine, then each evaluated, give the same curves, saturation and max IOPS at the SLO as each evaluated
    alone with its own ramp, to 1e-9 relative."""
    import random

    from models.evaluate import project_catalog
    from models.performance import engine
    from models.performance.engine import evaluate_performance, ramp_requests, solve_ramps
    from models.sizing import _candidates

    project = load_any(EXAMPLE)
    catalog = project_catalog(project)
    designs = [d[0] for d in _candidates(project.scenario, catalog, Requirements())]
    scenarios = random.Random(17).sample(designs, 200)
    assert {n.kind for sc in scenarios for n in sc.nodes} >= {"controller", "hci_cluster", "cloud_vm"}
    single = []
    for sc in scenarios:
        engine._CURVE_CACHE.clear()
        single.append(evaluate_performance(sc, catalog))
    engine._CURVE_CACHE.clear()
    requests = [r for sc in scenarios for r in ramp_requests(sc, catalog)]
    assert solve_ramps(requests) == len(requests) >= 200  # every ramp solved by the batch, none left to _curve
    for sc, alone in zip(scenarios, single):
        batched = evaluate_performance(sc, catalog)
        for a, b in zip(alone.workloads, batched.workloads):
            assert b.saturation_iops == pytest.approx(a.saturation_iops, rel=1e-9)
            assert (a.max_iops_at_slo is None) == (b.max_iops_at_slo is None)
            if a.max_iops_at_slo is not None:
                assert b.max_iops_at_slo == pytest.approx(a.max_iops_at_slo, rel=1e-9)
            assert [p.latency_ms for p in b.curve] == pytest.approx([p.latency_ms for p in a.curve], rel=1e-9)
            assert [p.iops for p in b.curve] == pytest.approx([p.iops for p in a.curve], rel=1e-9)


def test_a_candidate_has_at_most_one_set_of_internal_bays():
    """Internal bays (a shelf record with ``internal``) are the controller chassis's own: a design holds one set,
    never '2 x internal bays' (external shelves come in 1 .. MAX_SHELVES)."""
    from models.catalog import Shelf, bundled_catalog

    catalog = bundled_catalog()
    project = load_any(examples_dir() / "a800-oracle-slob-fcp.toml")
    result = size(project, top=1000)
    internal_designs = 0
    for c in result.candidates + result.nearest:
        shelves = [catalog.find(n.catalog_id) for n in c.scenario.nodes if n.kind == "shelf"]
        internal = [s for s in shelves if isinstance(s, Shelf) and s.internal]
        assert len(internal) <= 1, c.summary
        internal_designs += bool(internal)
    assert internal_designs > 0  # the search did offer internal-bay designs


def test_snapshot_copies_do_not_let_a_design_meet_data_that_does_not_fit():
    """The TPC-E example keeps Snapshot copies, which raise the efficiency ratio (their logical copies are nearly
    free): each candidate that meets must hold the grown physical blocks (data + Snapshot blocks) in its usable
    capacity, computed from its own evaluation."""
    project = load_any(EXAMPLE)
    (w,) = project.scenario.workloads
    assert w.snapshots is not None
    growth = (1 + w.growth_pct_per_year / 100) ** (project.requirements.horizon_months / 12)
    result = size(project, top=5)
    assert result.candidates
    for c in result.candidates:
        total = evaluate(project.with_scenario(c.scenario)).capacity.total
        assert total.physical_used_bytes * growth <= total.usable_bytes * (1 + 1e-9), c.summary


@pytest.mark.parametrize("example", ["vsan-sqlserver-raid1", "aff8080-sqlserver-tpce"])
def test_storplan_evaluate_of_each_top_candidate_gives_the_sizers_figures(example, capsys):
    """The top five candidates of ``storplan size``: ``storplan evaluate`` of each candidate's project gives the
    sizer's max IOPS at the SLO within 1% and its usable capacity (an HCI candidate is checked with its spare host
    down, but shown, like its project evaluates, with every host up)."""
    from app.cli import main

    assert main(["size", example, "--json", "--top", "5"]) == 0
    candidates = json.loads(capsys.readouterr().out)["candidates"]
    assert len(candidates) == 5
    for cand in candidates:
        evaluation = evaluate(loads(cand["project"]))
        first = evaluation.performance.workloads[0]
        assert first.max_iops_at_slo == pytest.approx(cand["max_iops_at_slo"], rel=0.01), cand["summary"]
        assert evaluation.capacity.total.usable_bytes == pytest.approx(cand["usable_bytes"], rel=1e-9)
        assert evaluation.capacity.total.effective_bytes == pytest.approx(cand["effective_bytes"], rel=1e-9)


def test_a_lab_fit_is_offered_only_as_itself_beside_the_stock_record():
    """A calibrated copy of the AFF A90 (a model sold today: the search proposes no installed-base model, and a lab
    fit keeps its record's lifecycle) in the catalog never stands in for the stock record: the search offers the
    stock designs as before, and the copy's designs under its own name ("... (lab fit 2026-11-28)"), with the
    drives sold for the record it is based on."""
    from datetime import date

    from models.evaluate import project_catalog
    from models.sizing import _candidates
    from models.user_catalog import calibrated_record

    project = load_any(examples_dir() / "aff-a90-oracle-nvmefc64.toml")
    catalog = project_catalog(project)
    stock = catalog.get("netapp-aff-a90")
    fitted = stock.performance[0].model_copy(update={"cpu_read_us": stock.performance[0].cpu_read_us * 2})
    mine = calibrated_record(stock, fitted, date(2026, 11, 28), {e.id for e in catalog})
    assert mine.id == "netapp-aff-a90-lab-20261128" and mine.based_on == stock.id
    req = project.requirements
    before = [d[1] for d in _candidates(project.scenario, catalog, req)]
    after = [d for d in _candidates(project.scenario, catalog.with_entries([mine]), req)]
    controllers = [next(n.catalog_id for n in d[0].nodes if n.kind == "controller") for d in after]
    stock_designs = [d[1] for d, c in zip(after, controllers) if c != mine.id]
    own_designs = [d[1] for d, c in zip(after, controllers) if c == mine.id]
    assert stock_designs == before  # the stock designs are all still there, unchanged
    assert own_designs and all(s.startswith(f"{stock.name} (lab fit 2026-11-28)") for s in own_designs)
    assert len(own_designs) == sum(c == stock.id for c in controllers)  # the same shelves and drives as the stock


def test_an_unknown_family_is_named_in_the_notes():
    """A project file asking for family "AFF" (a product line, not a family the search matches) gets no designs,
    and the answer says why instead of a bare "0 designs considered"."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    project = project.model_copy(update={"requirements": project.requirements.with_changes(families=["AFF"])})
    result = size(project, top=1)
    assert result.considered == 0 and not result.candidates
    assert "'AFF' names no family or vendor in the catalog, so it matches no design" in result.notes


def test_an_aff_a50_design_fills_its_24_internal_bays_first_in_its_2u_chassis():
    """The AFF A50 is a 2U chassis with 24 NVMe bays: its smallest design holds 24 drives in the chassis and no
    shelf (2 rack units); larger ones add NS224 shelves after the bays (2U each); each design also counts the
    project's switches, its hosts' front-end network (the example's 1U Brocade 6510)."""
    from models.catalog import Shelf, Switch, bundled_catalog

    catalog = bundled_catalog()
    project = load_any(EXAMPLE)
    fabric = sum(catalog.get(n.catalog_id, Switch).rack_units for n in project.scenario.nodes if n.kind == "switch")
    assert fabric == 1
    project = project.model_copy(update={"requirements": project.requirements.with_changes(families=["ONTAP"])})
    result = size(project, top=30)
    a50 = [c for c in result.candidates for c in (c, *c.alternatives)
           if any(n.kind == "controller" and n.catalog_id == "netapp-aff-a50" for n in c.scenario.nodes)]
    assert a50
    for c in a50:
        shelves = [n for n in c.scenario.nodes if n.kind == "shelf"]
        records = [catalog.get(n.catalog_id, Shelf) for n in shelves]
        assert records[0].internal and shelves[0].drive_count == 24, c.summary  # the bays come first, full
        external = [r for r in records[1:]]
        assert all(not r.internal for r in external)
        ctl = next(n for n in c.scenario.nodes if n.kind == "controller")  # switch-attached shelves: + the switches
        switches = (2 * ctl.storage_switch_pairs * catalog.get(ctl.storage_switch, Switch).rack_units
                    if ctl.storage_switch else 0)
        assert c.rack_units == 2 + 2 * len(external) + fabric + switches, c.summary
    smallest = min(a50, key=lambda c: c.rack_units)
    assert smallest.rack_units == 2 + fabric
    assert len([n for n in smallest.scenario.nodes if n.kind == "shelf"]) == 1
    assert "24 x" in smallest.summary and "in the chassis" in smallest.summary


def test_no_candidate_of_a_whole_search_uses_a_drive_its_platform_does_not_take():
    """Over every design of a whole search (top 1000 and the nearest), each shelf's drive is one its controller is
    sold with and its shelf takes; a platform with a qualified drive list (the current AFF) takes only those: the
    A800's seed drive (1.5TB) is never offered on another controller."""
    from models.catalog import Controller, Drive, Shelf, bundled_catalog
    from models.project.factory import drive_fits_controller, drive_fits_shelf

    catalog = bundled_catalog()
    project = load_any(EXAMPLE)
    result = size(project, top=1000)
    designs = [d for c in result.candidates for d in (c, *c.alternatives)] + list(result.nearest)
    assert len(designs) > 20
    for c in designs:
        (ctl,) = [catalog.get(n.catalog_id, Controller) for n in c.scenario.nodes if n.kind == "controller"]
        for n in (n for n in c.scenario.nodes if n.kind == "shelf"):
            drive = catalog.get(n.drive, Drive)
            assert drive_fits_shelf(drive, catalog.get(n.catalog_id, Shelf)), c.summary
            assert drive_fits_controller(drive, ctl, catalog), c.summary
            assert not drive.controllers or ctl.id in drive.controllers, c.summary
            assert n.drive != "netapp-1500gb-nvme-ssd-a800" or ctl.id == "netapp-aff-a800", c.summary
    a50 = catalog.get("netapp-aff-a50", Controller)
    assert not drive_fits_controller(catalog.get("netapp-1500gb-nvme-ssd-a800", Drive), a50, catalog)


def test_drive_size_variants_of_one_platform_design_are_one_candidate_with_alternatives(capsys):
    """No two returned candidates differ only in their drives: each platform design (controller, shelves, links,
    protocol) is one row showing its best variant, the others listed as alternatives (also in ``--json``)."""
    from app.cli import main
    from models.sizing import platform_key

    project = load_any(EXAMPLE)
    result = size(project, top=8)
    keys = [platform_key(c) for c in result.candidates]
    assert len(keys) == len(set(keys)) == 8
    assert any(c.alternatives for c in result.candidates)
    for c in result.candidates:
        assert c.deployment != "on-prem" or c.variant.split(" x ", 1)[1] in c.summary  # the drive, named
        for alt in c.alternatives:
            assert platform_key(alt) == platform_key(c) and alt.variant != c.variant and alt.meets
            assert alt.variant_key() >= c.variant_key()  # the row shows the smallest variant that meets
    assert main(["size", str(EXAMPLE), "--json", "--top", "3"]) == 0
    rows = json.loads(capsys.readouterr().out)["candidates"]
    assert all(isinstance(r["alternatives"], list) for r in rows)
    listed = [a["variant"] for r in rows for a in r["alternatives"]]
    assert listed and all("NVMe SSD" in v or "SSD" in v for v in listed)


def test_an_absurd_iops_target_is_named_in_the_notes():
    """1e15 IOPS is beyond every catalog design: the sizer says so (with the fastest design's bound) rather than
    only listing failing designs."""
    project = load_any(EXAMPLE)
    (w,) = project.scenario.workloads
    scenario = project.scenario.model_copy(update={"workloads": [w.model_copy(update={"target_iops": 1e15})]})
    result = size(project.with_scenario(scenario), top=5)
    assert result.candidates == ()
    (note,) = [n for n in result.notes if "beyond every design" in n]
    assert "1,000,000,000,000,000 IOPS" in note and "saturates at" in note
    huge = project.model_copy(update={"requirements": project.requirements.with_changes(
        effective_capacity_bytes=10**17)})
    assert any("effective capacity needed" in n and "beyond every design" in n for n in size(huge, top=1).notes)
