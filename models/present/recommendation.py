"""The sentences that relate the sizer's ranking (``models.sizing``) to the design a report describes: what the
first ranked configuration is, where the design stands by the same ranking rule, and, when the ranking is not by
cost, a lower-cost configuration ranked after the first that meets too (from the report's own cost comparison,
``models.costing.tco``). Qt-free; the report's "Recommendation" section prints them.

The design is placed with the figures the rule compares (``models.sizing.Candidate.criteria``): without a price book its
deployment's place in the requirements' list, its rack units, its typical power (unknown last) and, in the cloud, its
total cost over the horizon at the providers' published prices, then its vCPUs; with a price book whether every item is
priced, its cost (when it is), rack units and power. The design's figures are those the sizer gives its own designs, by
the same rules: rack units and power from its bill of materials (``models.present.bom.footprint``: controllers, shelves,
drives and switches), a vSAN cluster at ``HCI_HOST_RACK_UNITS`` per host with no power figure, a cloud design no rack
space or power and the vCPUs of its VMs (two per HA pair), the cost by ``models.pricing.cost``. A design ranked on total
cost is not placed (that total is the sizer's own basis)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from models.costing.inputs import HCI_HOST_RACK_UNITS
from models.present.bom import footprint
from models.present.headroom import fmt_headroom
from models.units import growth_factor
from models.verdict import errors_words

if TYPE_CHECKING:
    from models.costing.tco import Tco

DEPLOYMENT_WORDS = {"on-prem": "on premises", "hci": "HCI (vSAN)", "cloud": "in the cloud"}
"""A deployment as the sentences name it."""

def design_deployment(scenario: Any) -> str | None:
    """The sizer's deployment of the scenario's storage: "on-prem" (controllers or shelves), "hci" (vSAN clusters
    only), "cloud" (cloud VMs or managed services only); None when it mixes arrays and vSAN clusters (the rule
    ranks one deployment per configuration)."""
    kinds = {n.kind for n in scenario.nodes}
    array = bool(kinds & {"controller", "shelf"})
    hci = "hci_cluster" in kinds
    if array and hci:
        return None
    if array:
        return "on-prem"
    if hci:
        return "hci"
    if kinds & {"cloud_vm", "managed_service"}:
        return "cloud"
    return None


def design_order(scenario: Any, catalog: Any, requirements: Any, price_book: Sequence = ()) -> tuple | None:
    """The design's figures in the order the ranking compares them (the first part of
    ``models.sizing.Candidate.criteria``, headroom left out), or None when the design cannot be placed
    (:func:`design_placement` says why). Without a price book: (deployment's place in
    ``requirements.deployments``, rack units, watts or infinity when unknown, a cloud design's total at the published
    prices else 0, vCPUs of a cloud design else 0); with one: (an item unpriced, the cost when every item is priced
    else 0, rack units, watts, an incompletely priced cloud design's total at the published prices else 0)."""
    return design_placement(scenario, catalog, requirements, price_book)[0]


def design_placement(scenario: Any, catalog: Any, requirements: Any,
                     price_book: Sequence = ()) -> tuple[tuple | None, str]:
    """(:func:`design_order`, "") or (None, why the design is not placed, in words: a ranking on total cost, a
    design mixing arrays and vSAN clusters, a part of unknown height, a VM not in the catalog, a deployment the
    requirements do not list)."""
    if requirements.rank_on == "tco":
        return None, ("it is not placed in this ranking on total cost (its own total cost over the horizon is under "
                      "Cost and footprint)")
    deployment = design_deployment(scenario)
    if deployment is None:
        return None, ("it is not placed in this ranking: the rule ranks one deployment per configuration, and it "
                      "mixes arrays and vSAN clusters or has no storage system")
    if deployment == "cloud":
        ru, watts = 0, math.inf
        vcpus = 0
        for node in scenario.nodes:
            if node.kind == "cloud_vm":
                vm = catalog.find(node.catalog_id)
                if vm is None:
                    return None, f"it is not placed in this ranking: the catalog has no record of {node.catalog_id}"
                vcpus += vm.vcpu * (2 if node.ha else 1)
    elif deployment == "hci":
        ru = sum(n.hosts for n in scenario.nodes if n.kind == "hci_cluster") * HCI_HOST_RACK_UNITS
        watts, vcpus = math.inf, 0
    else:
        total = footprint(scenario, catalog)
        unknown = [p.name for p in total.parts if p.height is None]
        if unknown:
            return None, (f"it is not placed in this ranking: the catalog gives no height for {', '.join(unknown)}, "
                          "so its rack units are not known")
        ru = total.rack_units
        watts = total.known_power_w if total.known_power_w is not None else math.inf
        vcpus = 0
    # the controllers' cores, every node (models.sizing: the smaller controller first at an equal footprint; 0 for
    # a cloud design ranked with a price book and for a vSAN cluster, whose hosts' cores run the VMs)
    cores = 0
    if deployment == "on-prem":
        for node in scenario.nodes:
            if node.kind == "controller":
                record = catalog.find(node.catalog_id)
                cores += getattr(record, "cores_per_node", 0) * getattr(record, "nodes", 0)
    if price_book:
        from models.pricing import cost

        costing = cost(scenario, catalog, list(price_book))
        if costing is not None:  # a partial price is not compared (models.sizing.ranking_rule)
            complete = not costing.unpriced
            listed = _listed(scenario, catalog, requirements) if deployment == "cloud" and not complete else 0.0
            return (not complete, costing.total if complete else 0.0, ru, watts, listed, cores), ""
    if deployment not in requirements.deployments:
        named = ", ".join(DEPLOYMENT_WORDS.get(d, d) for d in requirements.deployments)
        return None, (f"it is not placed in this ranking: the requirements list the deployments {named}, not "
                      f"{DEPLOYMENT_WORDS[deployment]}")
    listed = _listed(scenario, catalog, requirements) if deployment == "cloud" else 0.0
    return (list(requirements.deployments).index(deployment), ru, watts, listed,
            vcpus if deployment == "cloud" else cores), ""


def _listed(scenario: Any, catalog: Any, requirements: Any) -> float:
    """A cloud design's total over the horizon at the providers' published prices, as the sizer ranks it
    (``models.costing.tco.published_cloud_total`` of the design's own data month by month)."""
    from models.costing.inputs import running_inputs
    from models.costing.tco import data_by_month, demand_by_month, published_cloud_total

    horizon = running_inputs(requirements.running_costs, requirements.horizon_months).horizon_months
    return published_cloud_total(scenario, catalog, data_by_month(scenario, requirements, horizon),
                                 demand_by_month(scenario, horizon))


LISTED = "cloud cost at published prices"
"""The criterion of a cloud design's total over the horizon at the providers' published prices."""
CORES = "cores"
"""The criterion of the design's size: an array's controller cores (every node), a cloud design's vCPUs."""


def _criteria(priced: bool) -> tuple[str, ...]:
    return (("price", "cost", "rack units", "typical power", LISTED, CORES, "headroom") if priced
            else ("deployment", "rack units", "typical power", LISTED, CORES, "headroom"))


def _value(index: int, value: Any, priced: bool, requirements: Any, currency: str | None) -> str:
    """One criterion's value in words."""
    name = _criteria(priced)[index]
    if name == "deployment":
        return DEPLOYMENT_WORDS.get(requirements.deployments[value], requirements.deployments[value])
    if name == "price":
        return "an item not priced" if value else "every item priced"
    if name == "cost":  # 0: an item not priced, its partial price not compared (never "0 USD")
        return f"{value:,.0f} {currency or ''}".strip() if value else "not compared (an item not priced)"
    if name == LISTED:
        from models.costing.cloud_prices import PRICE_CURRENCY

        return ("none (not in the cloud)" if not value else "unknown (a part without a published price)"
                if value == math.inf else f"{value:,.0f} {PRICE_CURRENCY} over the horizon")
    if name == "rack units":
        return f"{value} U"
    if name == "typical power":
        return "unknown" if value == math.inf else f"{value:,.0f} W"
    if name == "headroom":
        return fmt_headroom(-value)
    return f"{value:,.0f} cores (vCPUs in the cloud)"


def _against(design: tuple, other: tuple, rank: int, priced: bool, requirements: Any,
             currency: str | None) -> str:
    """``rack units: 6 U against 4 U for rank 5``: the first criterion on which the design and the configuration
    ranked ``rank`` differ."""
    k = next(i for i, (a, b) in enumerate(zip(design, other, strict=True)) if a != b)
    return (f"{_criteria(priced)[k]}: {_value(k, design[k], priced, requirements, currency)} against "
            f"{_value(k, other[k], priced, requirements, currency)} for rank {rank}")


def design_headroom(performance: Any, scenario: Any, horizon_months: int) -> float | None:
    """The design's headroom as the ranking reads it (``models.sizing``: the least over the workloads of how far
    the target grown over the horizon at the workload's IOPS growth is below its saturation, percent of the grown
    target), from its evaluation's ``performance``; None when no workload has a target or a figure is missing."""
    if performance is None:
        return None
    growth = {w.id: w.iops_growth_pct_per_year for w in scenario.workloads}
    rooms = []
    for wp in performance.workloads:
        if wp.target_iops is None:
            continue
        grown = wp.target_iops * growth_factor(growth[wp.workload_id], horizon_months)
        if not grown or wp.saturation_iops is None or not math.isfinite(wp.saturation_iops):
            return None
        rooms.append((wp.saturation_iops - grown) / grown * 100.0)
    return min(rooms) if rooms else None


def _keyed(order: tuple, headroom: float | None) -> tuple:
    """The ranking's criteria (``Candidate.criteria``: the order, then the headroom negated), the headroom to six
    decimals (the design's evaluation and the sizer's check of a same design agree to rounding)."""
    return (*order, -round(headroom or 0.0, 6))


def standing(design: tuple | None, shown: Sequence[Any], priced: bool, requirements: Any,
             currency: str | None, unplaced: str = "it is not placed in this ranking",
             headroom: float | None = None) -> str:
    """Where the design ranks among the ``shown`` candidates (each with its ``order`` and ``headroom_pct``) by the
    ranking rule, in words ("by the same rule it would rank after the 5 shown (rack units: 6 U against 4 U for rank
    5)"); ``unplaced`` (:func:`design_placement`'s reason) when ``design`` is None. ``headroom``: the design's
    (:func:`design_headroom`), which breaks a tie on the order as the rule does; None: a tie is left a tie."""
    if design is None:
        return unplaced
    if headroom is not None:
        design = _keyed(design, headroom)
        orders = [_keyed(tuple(c.order), c.headroom_pct) for c in shown]
    else:
        orders = [tuple(c.order) for c in shown]
    before = [i for i, o in enumerate(orders) if o < design]
    ties = [i for i, o in enumerate(orders) if o == design]
    if ties:
        ranks = ", ".join(str(i + 1) for i in ties)
        which = f"rank{'s' * (len(ties) > 1)} {ranks}"
        if headroom is not None:
            return (f"by the same rule it ties with {which} on every criterion (headroom "
                    f"{fmt_headroom(headroom)})")
        names = ", ".join(n for n, v in zip(_criteria(priced), design) if v or n not in (CORES, LISTED))
        return (f"by the same rule it ties with {which} on {names} (the rule then ranks by the most headroom over "
                "the grown targets)")
    n = len(orders)
    if len(before) == n:
        return (f"by the same rule it would rank after the {n} shown ("
                + _against(design, orders[-1], n, priced, requirements, currency) + ")")
    if not before:
        return ("by the same rule it would rank before rank 1 ("
                + _against(design, orders[0], 1, priced, requirements, currency) + ")")
    k = len(before)
    return (f"by the same rule it would rank between rank {k} and rank {k + 1} ("
            + _against(design, orders[k - 1], k, priced, requirements, currency) + "; "
            + _against(design, orders[k], k + 1, priced, requirements, currency) + ")")


def first_ranked_sentence(summary: str) -> str:
    """What the first ranked configuration is: the first by the rule among the catalog's configurations that
    meet, an alternative to the report's design, not the design itself."""
    return (f"First ranked: {summary}, the first by the rule above of the catalog's configurations that meet the "
            "requirements: an alternative to compare with this report's design, not the design itself.")


def design_figures(design: tuple | None, deployment: str | None, priced: bool, requirements: Any,
                   currency: str | None) -> str:
    """The design's figures the rule compares, in words ("on premises, 6 U, 2,621 W"; a cloud design's vCPUs, not
    its absent rack space and power); "" when it is not placed."""
    if design is None:
        return ""
    names = _criteria(priced)
    out = []
    for k, value in enumerate(design):
        if names[k] == "price" or (names[k] in (CORES, LISTED, "cost") and not value):
            continue
        if deployment == "cloud" and names[k] in ("rack units", "typical power"):
            continue
        text = _value(k, value, priced, requirements, currency)
        if names[k] == CORES:
            text = f"{value:,.0f} {'vCPUs' if deployment == 'cloud' else 'controller cores'}"
        if names[k] == "typical power":
            text = "typical power unknown" if value == math.inf else f"{text} typical"
        out.append(text)
    if priced and deployment in DEPLOYMENT_WORDS:
        out.insert(0, DEPLOYMENT_WORDS[deployment])
    return ", ".join(out)


def _met_words(errors: int, other: bool = False, too: str = " too") -> str:
    """How a design that meets reads beside the ranking: "meets every stated requirement too" (``too``), or, with
    design errors, the verdict's own words ("meets every stated requirement, but it has 2 design errors: its
    figures hold only once they are fixed", ``models.verdict.DesignVerdict.text``), never a plain "too" beside
    them; ``other``: "every other" (the capacity is not judged)."""
    every = "every other" if other else "every"
    if errors:
        return (f"meets {every} stated requirement, but it has {errors_words(errors)}: its figures hold only once "
                "they are fixed")
    return f"meets {every} stated requirement{too}"


def not_sold_words(scenario: Any, catalog: Any) -> str:
    """`` (NetApp AFF A800 HA pair: installed base, not sold today: shown for comparison, not orderable)`` when the
    design's controllers or vSAN hosts are of a lifecycle the sizer proposes nothing on (``models.sizing.NOT_SOLD``,
    the catalog's sourced ``lifecycle``: "end of sale" or "installed base"), each model once; "" otherwise. A design
    "ranking before rank 1" is then not an alternative to buy (review 57 PDF #8)."""
    from models.sizing import NOT_SOLD

    seen: dict[str, str] = {}
    for node in scenario.nodes:
        if node.kind not in ("controller", "hci_cluster"):
            continue
        record = catalog.find(node.catalog_id)
        if record is not None and record.lifecycle in NOT_SOLD:
            seen.setdefault(record.name, record.lifecycle)
    if not seen:
        return ""
    parts = [f"{name}: {'end of sale' if life == 'end of sale' else 'installed base, not sold today'}"
             for name, life in seen.items()]
    return f" ({'; '.join(parts)}: shown for comparison, not orderable)"


def design_sentence(met: bool, stated: bool, where: str, figures: str, capacity_unknown: bool = False,
                    errors: int = 0) -> str:
    """This report's design against the ranking: whether it meets (the Summary's verdict) and where it stands
    (``where``: :func:`standing`; ``figures``: :func:`design_figures`). ``capacity_unknown``: the imported data's
    capacity is not measured (``models.project.model.capacity_unmeasured``): a design that meets the rest meets
    "every other" requirement, its capacity not judged (as the Summary says). ``errors``: the design's errors
    (``DesignVerdict.errors``): a design that meets with errors says so in the verdict's words (:func:`_met_words`)."""
    who = f"This report's design ({figures})" if figures else "This report's design"
    if met and capacity_unknown:
        return (f"{who} {_met_words(errors, other=True)}; its capacity is not judged, the measured data "
                f"gives none ({'Summary; see the problems' if errors else 'Summary'}); {where}.")
    if met:
        return f"{who} {_met_words(errors)} ({'Summary; see the problems' if errors else 'Summary'}); {where}."
    if stated:
        return f"{who} does not meet every stated requirement (Summary); the configurations ranked above do."
    return f"{who}: {where}."


def _managed_id(candidate: Any) -> str | None:
    """The catalog id of a candidate that is one managed service, else None."""
    nodes = [n for n in candidate.scenario.nodes if n.kind in ("managed_service", "cloud_vm", "controller",
                                                                "shelf", "hci_cluster")]
    if len(nodes) == 1 and nodes[0].kind == "managed_service":
        return nodes[0].catalog_id
    return None


def cheaper_sentence(shown: Sequence[Any], options: Sequence[Any], currency: str, horizon_months: int) -> str:
    """When the ranking is not by cost: the meeting configurations ranked after the first that cost less over the
    horizon in the report's cost comparison (``options``: ``models.costing.tco.OptionCost``, each managed service
    matched by its catalog record, priced completely and carrying the workloads' I/O) than the first ranked's;
    "" when none does or the first ranked is not in the comparison."""
    priced = {o.catalog_id: o for o in options
              if o.catalog_id and o.complete and o.meets_workloads and o.short_from_month is None}
    if not shown or _managed_id(shown[0]) not in priced:
        return ""
    first = priced[_managed_id(shown[0])]
    cheaper = [(rank, c, priced[_managed_id(c)]) for rank, c in enumerate(shown[1:], start=2)
               if c.meets and _managed_id(c) in priced and priced[_managed_id(c)].total < first.total]
    if not cheaper:
        return ""
    first_c = shown[0]

    def why(c: Any) -> str:  # equal up to the headroom: the headroom put it after the first
        if tuple(c.order) != tuple(first_c.order) or c.headroom_pct is None or first_c.headroom_pct is None:
            return ""
        return f", less headroom: {fmt_headroom(c.headroom_pct)} against {fmt_headroom(first_c.headroom_pct)}"

    items = [f"{o.name} (rank {rank}{why(c)}) at {o.total:,.0f} {currency}" for rank, c, o in cheaper]
    listed = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return ("This ranking prices each cloud configuration at the size shown (the project has no price book), so a "
            "configuration that the cost comparison finds cheaper can rank after the first: over "
            f"{horizon_months} months the cost comparison (Cost and footprint) puts {listed}, against "
            f"{first.total:,.0f} {currency} for the first ranked's {first.name} (each priced there at the size that "
            "holds the data and carries the I/O month by month, not at the size shown here).")


def _vm_of(scenario: Any) -> Any:
    """The scenario's one Cloud Volumes ONTAP node (a cloud VM alone), else None."""
    nodes = [n for n in scenario.nodes if n.kind in ("managed_service", "cloud_vm", "controller", "shelf",
                                                     "hci_cluster")]
    return nodes[0] if len(nodes) == 1 and nodes[0].kind == "cloud_vm" else None


def same_vm_sentence(scenario: Any, catalog: Any, shown: Sequence[Any], design_total: float | None, currency: str,
                     horizon_months: int) -> str:
    """When a ranked configuration is the design's own cloud VM type (same record, HA and licence) with other disks:
    why its cost differs from the design's in Cost and footprint ("the disks: 2 x P30 per node against this design's
    6"), so a reader comparing the two totals (130,383 against 169,311 USD) is told it is not the VM or licence;
    "" otherwise. ``design_total``: the design's total over the horizon in the cost comparison (None: unknown)."""
    own = _vm_of(scenario)
    if own is None or design_total is None:
        return ""
    for rank, c in enumerate(shown, start=1):
        vm = _vm_of(c.scenario)
        if (vm is None or vm.catalog_id != own.catalog_id or bool(vm.ha) != bool(own.ha)
                or vm.licence != own.licence or (vm.disk, vm.disk_count) == (own.disk, own.disk_count)
                or c.listed_cost is None or not math.isfinite(c.listed_cost)):
            continue
        def disks(node: Any) -> str:  # as models.sizing.cloud_disks_words says them: a count per node of a pair
            name = _disk_name(catalog, node.disk)
            return (f"{node.disk_count} x {name} per node ({2 * node.disk_count} disks)" if node.ha
                    else f"{node.disk_count} x {name}")

        return (f"Rank {rank} is this design's own VM type and licence with other disks: {disks(vm)} against this "
                f"design's {disks(own)}, so over {horizon_months} months it costs {c.listed_cost:,.0f} {currency} "
                f"at the providers' published prices against {design_total:,.0f} {currency} for this design (Cost "
                "and footprint): the difference is the disks (the smallest set that holds the data and carries the "
                "I/O), not the VM or the licence.")
    return ""


def _disk_name(catalog: Any, disk_id: str) -> str:
    """A cloud disk's name from the catalog (its id when the catalog lacks it)."""
    try:
        return str(catalog.get(disk_id).name)
    except (KeyError, LookupError, AttributeError):
        return disk_id


RANKED_SHOWN = 5
"""How many ranked configurations the relation is told against (the report's Recommendation table shows these; the
sizer dialog, which lists more, tells the same sentences against the same first five)."""


def design_evaluation(project: Any, evaluation: Any, catalog: Any) -> Any:
    """The design's evaluation as the report reads it: with its failure states and runway (computed here when the
    evaluation lacks them) and their problems among its own, so the verdict reads the required failure states.
    Runs the engine when the failure states are missing: call it off the GUI thread."""
    from models.evaluate import evaluate_resilience, with_resilience

    perf = evaluation.performance
    if perf is None or not perf.workloads:
        return evaluation
    res = evaluation.resilience or evaluate_resilience(project, evaluation, project.scenario.name, catalog)
    return with_resilience(evaluation, res)


def relation_lines(project: Any, catalog: Any, evaluation: Any, result: Any, tco: Any = None) -> list[str]:
    """The sentences relating the sizer's ranking (``result``: ``models.sizing.SizingResult``) to the project's
    active design (``evaluation``: :func:`design_evaluation` of it, against ``catalog``): what the first ranked is,
    whether the design meets (the Summary's verdict, ``models.present.verdicts.evaluation_verdict``) and where it
    stands by the same rule among the first :data:`RANKED_SHOWN`, and, ranked without a price book, the meeting
    configurations ranked after the first that cost less in the cost comparison. ``tco``: a function giving the
    design's cost comparison (``models.present.cost.design_tco``; the report passes the one it computed once),
    None: computed here when needed. The report's Recommendation section and the sizer dialog print these."""
    from models.present.verdicts import evaluation_verdict
    from models.project.model import capacity_unmeasured

    scenario = project.scenario
    req = project.requirements
    priced = result.currency is not None
    shown = (result.candidates or result.nearest)[:RANKED_SHOWN]
    verdict = evaluation_verdict(evaluation, req, project.settings.capacity_unit)
    order, unplaced = design_placement(scenario, catalog, req, project.price_book)
    figures = design_figures(order, design_deployment(scenario), priced, req, result.currency)
    if not result.candidates:
        unknown = capacity_unmeasured(scenario.workloads, req.effective_capacity_bytes)
        met = _met_words(verdict.errors, other=unknown, too="")
        state = (f"{met}; its capacity is not judged" if verdict.met and unknown
                 else met if verdict.met
                 else "does not meet every stated requirement" if verdict.stated else "states no requirement")
        nearest = ("the nearest, with what each misses, are below" if result.nearest else
                   "none was tried: the note below says which requirement removed every one")
        where = "Summary; see the problems" if verdict.met and verdict.errors else "Summary"
        return [f"None of the catalog's configurations meets the requirements; {nearest}. This report's "
                f"design{f' ({figures})' if figures else ''} {state} ({where})."]
    where = standing(order, shown, priced, req, result.currency, unplaced,
                     design_headroom(evaluation.performance, scenario, req.horizon_months))
    if order is not None:  # review 57 PDF #8: the ranking never proposes a model the vendor no longer sells
        where += not_sold_words(scenario, catalog)
    lines = [first_ranked_sentence(result.candidates[0].summary),
             design_sentence(verdict.met, verdict.stated, where,
                             figures, capacity_unmeasured(scenario.workloads, req.effective_capacity_bytes),
                             verdict.errors)]
    if not priced and req.rank_on != "tco":
        if tco is None:
            from models.present.cost import design_tco

            def tco() -> Tco:
                return design_tco(project, scenario, catalog)
        comparison = tco()
        cheaper = cheaper_sentence(shown, comparison.options, comparison.currency, comparison.inputs.horizon_months)
        if cheaper:
            lines.append(cheaper)
        own = getattr(getattr(comparison, "design", None), "total", None)
        same = same_vm_sentence(scenario, catalog, result.candidates, own, comparison.currency,
                                comparison.inputs.horizon_months)
        if same:
            lines.append(same)
    return lines
