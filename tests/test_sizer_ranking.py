"""The sizer ranks by the rule it states (``models.sizing.ranking_rule``), and ★ (the Pareto front) is taken on the
same criteria, so the recommended design is never one another shown or evaluated design beats on every criterion.

The criteria are computed here from what each candidate shows (its deployment, rack units, power, a cloud design's total
at the published prices, a cloud VM's vCPUs from the catalog, headroom), not from the sizer's own sort key. The examples
are the ones a review found ranking a dominated design first (the hybrid vSAN and ESA examples: an OSA all-flash cluster
ranked before an ESA cluster of the same rack units and power with far more headroom) and five sizes of one managed file
service filling the top five (the Cloud example)."""

from __future__ import annotations

import io
import math
from contextlib import redirect_stdout
from functools import cache

import pytest

from models.catalog import CloudDisk, CloudVm, bundled_catalog
from models.evaluate import project_catalog
from models.resources import examples_dir
from models.sizing import Candidate, SizingResult, platform_key, ranking_rule, size
from models.store import load_any

EXAMPLES = ("vsan8-osa-hybrid-4host-oltp", "vsan8-esa-6host-sqlserver-oltp", "cvo-aws-m5-4xlarge-ha-oltp")


@cache
def _searched(name: str) -> tuple[object, SizingResult]:
    """(project, search of its top five) of one example, once per process."""
    project = load_any(examples_dir() / f"{name}.toml")
    return project, size(project, top=5)


def _criteria(c: Candidate, project) -> tuple:
    """The stated criteria of a candidate without a price book, smaller better, from its shown figures: the
    deployment's place in the requirements' list, rack units, watts (unknown: infinite), a cloud design's total
    over the horizon at the published prices, a cloud VM's vCPUs (an HA pair's two), headroom negated."""
    catalog = project_catalog(project)
    vcpus = 0
    for node in c.scenario.nodes:
        if node.kind == "cloud_vm":
            vcpus = catalog.get(node.catalog_id, CloudVm).vcpu * (2 if node.ha else 1)
    deployments = list(project.requirements.deployments)
    listed = 0.0
    if c.deployment == "cloud":  # the cloud design's total over the horizon at the published prices (Cost tab's)
        from models.costing.tco import data_by_month, published_cloud_total

        req = project.requirements
        listed = published_cloud_total(c.scenario, catalog, data_by_month(project.scenario, req,
                                                                            req.horizon_months or 36))
    return (deployments.index(c.deployment), c.rack_units, c.power_w if c.power_w is not None else math.inf,
            listed, vcpus, -(c.headroom_pct or 0.0))


def _heads(result: SizingResult) -> list[Candidate]:
    """Each evaluated platform design as shown: its variant with the fewest drives, least disk or smallest service
    size that meets (``fit``, compared here as the variants' own sizes: drive count, disk bytes, provisioned
    capacity and throughput), ranked."""
    shown: dict[tuple, Candidate] = {}
    for c in sorted(result.evaluated, key=lambda c: (_size(c), -(c.headroom_pct or 0.0), c.effective_bytes)):
        shown.setdefault(platform_key(c), c)
    return sorted(shown.values(), key=Candidate.rank_key)


def _one_row_per_tie(heads: list[Candidate]) -> list[Candidate]:
    """The ranked heads with a design tied with the one before it on every criterion and every figure shown (the
    same criteria, sizes, capacity, max IOPS at the SLO to five significant figures, verdict) left out: the sizer
    shows tied designs as one row (``Candidate.ties``)."""
    def shown(c):
        return (c.rank_key(), c.usable_bytes, f"{c.max_iops_at_slo:.5g}", c.takeover_headroom_pct, c.reasons)

    return [c for i, c in enumerate(heads) if i == 0 or shown(c) != shown(heads[i - 1])]


def _size(c: Candidate) -> tuple:
    """A variant's size within its platform design, read from its nodes."""
    for n in c.scenario.nodes:
        if n.kind == "hci_cluster":
            return (n.disk_groups_per_host * n.capacity_drives_per_group,)
        if n.kind == "cloud_vm":
            return (n.disk_count * bundled_catalog().get(n.disk, CloudDisk).size_bytes,)
        if n.kind == "managed_service":
            return (n.provisioned_bytes, n.throughput_mbps)
    return (sum(getattr(n, "drive_count", 0) for n in c.scenario.nodes),)


def _beats(a: tuple, b: tuple) -> bool:
    """``a`` no worse than ``b`` on every criterion and better on one."""
    return a != b and all(x <= y for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_recommended_design_is_never_beaten_on_every_stated_criterion(name):
    project, result = _searched(name)
    assert not project.price_book and len(result.candidates) == 5
    rows = result.candidates
    first = _criteria(rows[0], project)
    every = [*rows, *_heads(result)]  # each design as shown (its larger drive / disk / size variants excepted)
    assert not [c.summary for c in every if _beats(_criteria(c, project), first)]
    assert rows[0].pareto
    # no shown design beats one ranked before it, and the ranks follow the stated order exactly
    keys = [_criteria(c, project) for c in rows]
    assert not [(i, j) for i in range(5) for j in range(i + 1, 5) if _beats(keys[j], keys[i])]
    assert keys == sorted(keys)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_stars_mark_exactly_the_platform_designs_no_other_beats(name):
    project, result = _searched(name)
    heads = _heads(result)
    assert [c.summary for c in result.candidates] == [c.summary for c in _one_row_per_tie(heads)[:5]]
    for c in result.evaluated:
        beaten = any(_beats(_criteria(o, project), _criteria(c, project)) for o in heads)
        assert c.pareto == (c in heads and not beaten), c.summary
    assert {c.summary for c in result.candidates if c.pareto} <= {c.summary for c in heads if c.pareto}


def test_the_hybrid_example_recommends_the_design_with_the_most_headroom_at_equal_footprint():
    """The review's case: the first shown designs are 8 U with no power figure (vSAN hosts), so headroom decides."""
    project, result = _searched("vsan8-osa-hybrid-4host-oltp")
    rows = [c for c in result.candidates if c.rack_units == 8]
    assert len(rows) >= 3 and {c.power_w for c in rows} == {None}
    assert rows[0].headroom_pct == max(c.headroom_pct for c in result.evaluated if c.rack_units == 8)
    assert [c.headroom_pct for c in rows] == sorted((c.headroom_pct for c in rows), reverse=True)


def test_a_managed_service_is_one_row_its_smallest_size_that_meets_the_larger_ones_its_alternatives():
    """The Cloud example's five FSx for NetApp ONTAP throughput tiers of one 3 TiB system were five rows with the
    same figures: one row now, the smallest provisioned capacity and throughput tier that meets, the others
    listed with it."""
    _, result = _searched("cvo-aws-m5-4xlarge-ha-oltp")
    services = [c for c in result.candidates if any(n.kind == "managed_service" for n in c.scenario.nodes)]
    records = [next(n.catalog_id for n in c.scenario.nodes if n.kind == "managed_service") for c in services]
    assert services and len(records) == len(set(records))
    for c in services:
        node = next(n for n in c.scenario.nodes if n.kind == "managed_service")
        assert c.variant == (f"{node.provisioned_bytes / 2**40:,.0f} TiB provisioned"
                             + (f", {node.throughput_mbps:,.0f} MB/s throughput capacity" if node.throughput_mbps
                                else "")) and c.variant in c.summary
        assert c.alternatives
        for alt in c.alternatives:
            other = next(n for n in alt.scenario.nodes if n.kind == "managed_service")
            assert other.catalog_id == node.catalog_id and alt.meets
            assert (other.provisioned_bytes, other.throughput_mbps) > (node.provisioned_bytes, node.throughput_mbps)
        # every meeting size of this service the search evaluated is this row or one of its alternatives
        same = {e.summary for e in result.evaluated
                if any(n.kind == "managed_service" and n.catalog_id == node.catalog_id for n in e.scenario.nodes)}
        assert same == {c.summary, *(a.summary for a in c.alternatives)}
    fsx = next(c for c in services if "FSx for NetApp ONTAP, second generation Multi-AZ" in c.summary)
    assert "384 MB/s" in fsx.summary and any("768 MB/s" in a.variant for a in fsx.alternatives)


def test_the_command_line_states_the_rule_the_ranks_follow():
    from app.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["size", str(examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml"), "--top", "2"]) == 0
    text = out.getvalue()
    assert ranking_rule(False).replace("★", "[Pareto]") + "." in text
    assert ("then the least power (unknown last), then in the cloud the lowest total cost over the horizon at the "
            "providers' published prices (as Cost and footprint prices them: a managed service sized month by month "
            "to hold the data and carry the I/O, or at a larger size shown as the least each month), then the smaller "
            "controller (the fewest controller cores of an array, as the catalog gives them: where the maker publishes "
            "no core count the count is assumed, so an order this step alone decides rests on assumed cores; in the "
            "cloud the fewest vCPUs), then the most "
            "headroom") in text
    assert ranking_rule(True).startswith("Ranked by the lowest cost") and "★" in ranking_rule(True)
    assert "total cost over the horizon" in ranking_rule(True, "tco")
