"""The report's "Recommendation" section relates the sizer's ranking to the report's own design
(``models.present.recommendation``): the first ranked is named as the first of the catalog's configurations by the
stated rule, not as "Recommended", the design's verdict and place by the same rule are stated, and without a price
book a lower-cost configuration that meets too is named with the report's own cost figures."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from example_reports import example_report, page_texts

from models.catalog import bundled_catalog
from models.project import load
from models.project.model import Requirements
from models.resources import examples_dir
from models.sizing import size

AFF = examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"
CVO = examples_dir() / "cvo-azure-ds14-ha-oltp.toml"


def _squash(text: str) -> str:
    return " ".join(text.split())


def _section(path) -> tuple[str, object]:
    """The Recommendation section's text of the example's PDF and its project."""
    project, _, data = example_report(path)
    text = _squash("\n".join(page_texts(data)))
    start = text.index(" configurations from the catalog were considered against the requirements")
    return text[start:text.index("Assumptions and sources", start)], project


def _cand(order, headroom=100.0):
    return SimpleNamespace(order=order, headroom_pct=headroom)


REQ = Requirements(deployments=["on-prem", "cloud"])


@pytest.mark.parametrize("design, expected", [
    ((0, 6, 2621.0, 0), "after the 3 shown (rack units: 6 U against 4 U for rank 3)"),
    ((0, 1, 900.0, 0), "before rank 1 (rack units: 1 U against 2 U for rank 1)"),
    ((0, 2, 1500.0, 0), "between rank 1 and rank 2 (typical power: 1,500 W against 1,190 W for rank 1; "
                        "rack units: 2 U against 4 U for rank 2)"),
    ((0, 4, math.inf, 0), "after the 3 shown (typical power: unknown against 2,609 W for rank 3)"),
    ((1, 0, math.inf, 32), "after the 3 shown (deployment: in the cloud against on premises for rank 3)"),
])
def test_the_design_is_placed_by_the_first_criterion_that_differs(design, expected):
    from models.present.recommendation import standing

    shown = [_cand((0, 2, 1190.0, 0)), _cand((0, 4, 1778.0, 0)), _cand((0, 4, 2609.0, 0))]
    assert sorted([*[c.order for c in shown], design]).index(design) == (  # the place, independently
        {"after": 3, "before": 0}.get(expected.split()[0], 1))
    assert standing(design, shown, False, REQ, None) == f"by the same rule it would rank {expected}"


def test_a_tie_without_the_design_s_headroom_names_the_headroom_as_what_decides():
    from models.present.recommendation import standing

    shown = [_cand((0, 2, 1190.0, 0)), _cand((0, 4, 1778.0, 0))]
    assert standing((0, 4, 1778.0, 0), shown, False, REQ, None) == (
        "by the same rule it ties with rank 2 on deployment, rack units, typical power (the rule then ranks by the "
        "most headroom over the grown targets)")


def test_a_design_not_placed_says_why():
    """On total cost the design is not placed; the AFF8080 example's controller record has no height (its
    footprint is unknown), so it is not placed either, and the words name the record."""
    from models.present.recommendation import design_placement

    catalog = bundled_catalog()
    aff8080 = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    order, why = design_placement(aff8080.scenario, catalog, Requirements(rank_on="tco"))
    assert order is None and why.startswith("it is not placed in this ranking on total cost")
    ctrl = next(n for n in aff8080.scenario.nodes if n.kind == "controller")
    assert catalog.find(ctrl.catalog_id).rack_units is None
    order, why = design_placement(aff8080.scenario, catalog, aff8080.requirements)
    assert order is None and why == ("it is not placed in this ranking: the catalog gives no height for "
                                     "AFF8080A EX HA pair, so its rack units are not known")
    cvo = load(CVO)
    order, why = design_placement(cvo.scenario, catalog, Requirements(deployments=["on-prem"]))
    assert order is None and why.endswith("the requirements list the deployments on premises, not in the cloud")


def test_the_design_order_of_an_array_and_a_cloud_design_from_the_catalog_records():
    """Rack units and power of the AFF A70 + NS224 example summed from its catalog records (controller, shelf
    enclosure, each drive); the CVO HA pair's vCPUs: the VM record's, twice."""
    from models.present.recommendation import design_order

    catalog = bundled_catalog()
    aff = load(AFF)
    ctrl = next(n for n in aff.scenario.nodes if n.kind == "controller")
    shelves = [n for n in aff.scenario.nodes if n.kind == "shelf"]
    switches = [n for n in aff.scenario.nodes if n.kind == "switch"]
    ru = catalog.find(ctrl.catalog_id).rack_units + sum(
        0 if catalog.find(s.catalog_id).internal else catalog.find(s.catalog_id).rack_units for s in shelves) + sum(
        catalog.find(s.catalog_id).rack_units for s in switches)
    watts = (catalog.find(ctrl.catalog_id).typical_power_w
             + sum((0 if catalog.find(s.catalog_id).internal else catalog.find(s.catalog_id).typical_power_w)
                   + s.drive_count * catalog.find(s.drive).typical_power_w for s in shelves)
             + sum(catalog.find(s.catalog_id).typical_power_w for s in switches))
    order = design_order(aff.scenario, catalog, aff.requirements)
    assert order[0] == list(aff.requirements.deployments).index("on-prem")
    record = catalog.find(ctrl.catalog_id)  # the ranking's size criterion: the controller's cores, every node
    assert order[1:] == (ru, pytest.approx(watts), 0.0, record.cores_per_node * record.nodes)
    cvo = load(CVO)
    vm = next(n for n in cvo.scenario.nodes if n.kind == "cloud_vm")
    assert vm.ha
    # its total over the horizon at the published prices: the Cost tab's total of the design itself
    from models.costing.inputs import running_inputs
    from models.costing.tco import data_by_month, design_cost

    inputs = running_inputs(cvo.requirements.running_costs, cvo.requirements.horizon_months)
    listed = design_cost(cvo.scenario, catalog, cvo, inputs,
                         data_by_month(cvo.scenario, cvo.requirements, inputs.horizon_months), 0.0, 0).total
    assert design_order(cvo.scenario, catalog, cvo.requirements) == (
        list(cvo.requirements.deployments).index("cloud"), 0, math.inf, pytest.approx(listed),
        2 * catalog.find(vm.catalog_id).vcpu)


def test_the_aff_report_names_the_first_ranked_and_places_its_own_design_after_the_five():
    section, project = _section(AFF)
    result = size(project, top=5)
    assert "Recommended:" not in section
    first = result.candidates[0]
    assert _squash(f"First ranked: {first.summary}, the first by the rule above of the catalog's configurations "
                   "that meet the requirements") in section
    from models.present.bom import footprint

    total = footprint(project.scenario, bundled_catalog())
    # the design meets (the Summary says so) and takes more rack units than the first four shown; the fifth, a
    # FAS70 with one DS212C shelf of SAS SSDs over NVMe/TCP (review 57: its page lists NVMe/TCP; before, an A1K with
    # a shelf and more power was fifth), has as many rack units and less power: the design ranks after the five
    assert all(c.deployment == "on-prem" and c.rack_units < total.rack_units for c in result.candidates[:4])
    r5 = result.candidates[4]
    assert "FAS70" in r5.summary and "NVMe/TCP" in r5.summary
    assert r5.rack_units == total.rack_units and r5.power_w < total.power_w
    record = bundled_catalog().find(next(n for n in project.scenario.nodes if n.kind == "controller").catalog_id)
    cores = record.cores_per_node * record.nodes
    assert (f"This report's design (on premises, {total.rack_units} U, {total.power_w:,.0f} W typical, {cores} "
            "controller cores) meets every "
            "stated requirement too (Summary); by the same rule it would rank after the 5 shown (typical power: "
            f"{total.power_w:,.0f} W against {r5.power_w:,.0f} W for rank 5)") in section


def test_the_cvo_report_ranks_the_cheaper_anf_tier_first_at_its_published_price():
    """Review 54 item 5: ANF Ultra ranked before ANF Premium on headroom alone while the Cost tab priced Ultra
    dearer. Both meet; ranked by their total over the 36 months at the published prices, Premium (2 TiB x 2,048
    GiB x 0.000403 USD per GiB-hour x 730 h x 36, Microsoft's published price) comes first, and the section states
    the design's own published total beside its vCPUs; no sentence says cost is not a criterion."""
    project, _, data = example_report(CVO)
    section, _ = _section(CVO)
    result = size(project, top=5)
    names = [c.summary for c in result.candidates[:5]]
    assert names[0] == "Azure NetApp Files, Premium service level, 2 TiB provisioned"
    ultra = next(c for c in result.candidates if c.summary.startswith("Azure NetApp Files, Ultra"))
    assert ultra.meets and ultra.headroom_pct > result.candidates[0].headroom_pct  # the old winner on headroom
    # each priced as the cost comparison prices it, month by month (review 57: the ranking's fixed 2 TiB and the
    # table's 1 to 2 TiB gave two prices and two orders): 1 TiB until the data needs 2, at Microsoft's price per GiB
    from models.present.cost import design_tco

    totals = {o.name: o.total for o in design_tco(project, project.scenario, bundled_catalog()).options}
    assert result.candidates[0].listed_cost == pytest.approx(totals["Azure NetApp Files, Premium service level"])
    assert ultra.listed_cost == pytest.approx(totals["Azure NetApp Files, Ultra service level"])
    assert result.candidates[0].listed_cost < 2048 * 0.000403 * 730 * 36  # below 2 TiB over all 36 months
    listed = [c.listed_cost for c in result.candidates]
    assert listed == sorted(listed)  # one deployment, no rack space or power: the published total decides
    assert "Cost is not one of this ranking's criteria" not in section
    assert "then in the cloud the lowest total cost over the horizon at the providers' published prices" in _squash(
        "\n".join(page_texts(data)))
    from models.present.recommendation import design_order

    own = design_order(project.scenario, bundled_catalog(), project.requirements)[3]
    assert f"This report's design (in the cloud, {own:,.0f} USD over the horizon, 32 vCPUs) meets every" in section


def test_when_none_meets_the_section_says_so_and_gives_the_design_s_verdict():
    from dataclasses import replace

    from app.report import render_report_bytes
    from models.evaluate import evaluate

    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    project = project.model_copy(update={"requirements": Requirements(horizon_months=24)})
    evaluation = evaluate(project)
    result = size(project, top=2)
    failing = tuple(replace(c, meets=False, reasons=("an example reason",)) for c in result.candidates)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None,
                               sizing=replace(result, candidates=(), nearest=failing))
    text = _squash("\n".join(page_texts(data)))
    assert "First ranked" not in text and "Recommended:" not in text
    from models.present.verdicts import evaluation_verdict

    state = ("meets every stated requirement" if evaluation_verdict(evaluation, project.requirements).met
             else "does not meet every stated requirement")
    assert ("None of the catalog's configurations meets the requirements; the nearest, with what each misses, are "
            f"below. This report's design {state} (Summary).") in text  # no figures: its controller has no height
    assert _squash(f"• {failing[0].summary}: an example reason") in text


def test_a_tie_on_the_order_is_broken_by_the_headroom_as_the_rule_does():
    from models.present.recommendation import standing

    shown = [_cand((1, 0, math.inf, 900.0, 0), 310.0), _cand((1, 0, math.inf, 900.0, 0), 105.0),
             _cand((1, 0, math.inf, 900.0, 16), 136.0)]
    design = (1, 0, math.inf, 900.0, 0)
    assert standing(design, shown, False, REQ, None, headroom=200.0) == (
        "by the same rule it would rank between rank 1 and rank 2 (headroom: 200% against 310% for rank 1; "
        "headroom: 200% against 105% for rank 2)")
    assert standing(design, shown, False, REQ, None, headroom=105.0) == (
        "by the same rule it ties with rank 2 on every criterion (headroom 105%)")


def test_the_anf_premium_design_is_placed_by_its_published_total():
    """The ANF example's design is Premium at 4 TiB, the throughput of Ultra at 2 TiB (4 x 64 = 2 x 128 MiB/s, the
    catalog's figures), which the sizer ranked first on headroom before review 54. Ranked by the total over 36
    months at the published prices, Premium at 2 TiB is first (2,048 GiB x 0.000403 USD per GiB-hour x 730 h x
    36); the design, 4 TiB provisioned all along (its data stays under it), costs twice that and the section
    places it after the three shown, against the third's published total."""
    project, evaluation, _ = example_report(examples_dir() / "anf-premium-oracle-nfs.toml")
    node = next(n for n in project.scenario.nodes if n.kind == "managed_service")
    assert node.provisioned_bytes == 4 * 2**40
    result = size(project, top=5)
    first = result.candidates[0]
    assert first.summary == "Azure NetApp Files, Premium service level, 2 TiB provisioned"
    premium_hour = 0.000403  # Microsoft Learn's published Premium price per GiB-hour (the catalog's source)
    assert first.listed_cost == pytest.approx(2048 * premium_hour * 730 * 36)
    own = 4096 * premium_hour * 730 * 36
    last = result.candidates[len(result.candidates[:5]) - 1]
    assert last.listed_cost < own
    section, _ = _section(examples_dir() / "anf-premium-oracle-nfs.toml")
    n = len(result.candidates[:5])
    assert (f"This report's design (in the cloud, {own:,.0f} USD over the horizon) meets every stated requirement "
            f"too (Summary); by the same rule it would rank after the {n} shown (cloud cost at published prices: "
            f"{own:,.0f} USD over the horizon against {last.listed_cost:,.0f} USD over the horizon for rank {n})"
            ) in section


def test_an_eseries_design_is_placed_by_its_controller_cores_as_the_sizer_ranks_it():
    """The EF600 example: the sizer ranks the EF300 first and the EF600 second (an equal footprint, power unknown:
    the smaller controller first), and the report's own design, that EF600 with its 24 drives, ties with rank 2.
    The design's order left the cores out (0), so the report said it "would rank before rank 1 (vCPUs: 0 vCPUs
    against 16 vCPUs for rank 1)"."""
    from models.evaluate import evaluate
    from models.present.recommendation import design_headroom, design_placement, standing

    project = load(examples_dir() / "ef600-nvme-ddp-oltp-nvmefc.toml")
    catalog = bundled_catalog()
    result = size(project, top=5)
    order, why = design_placement(project.scenario, catalog, project.requirements)
    record = catalog.find(next(n for n in project.scenario.nodes if n.kind == "controller").catalog_id)
    assert why == "" and order[-1] == record.cores_per_node * record.nodes
    rank = next(i for i, c in enumerate(result.candidates, 1) if c.summary.startswith(record.name))
    assert [c.order[-1] for c in result.candidates] == sorted(c.order[-1] for c in result.candidates)
    headroom = design_headroom(evaluate(project).performance, project.scenario, project.requirements.horizon_months)
    words = standing(order, result.candidates, False, project.requirements, None, headroom=headroom)
    assert "before rank 1" not in words and "vCPUs" not in words
    assert words.startswith(f"by the same rule it ties with rank {rank} on every criterion"), words
