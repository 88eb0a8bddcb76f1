"""Review 56 of the sizer, items 4, 6, 7 and 8 (a sceptical storage architect's run of ``storplan size``):

4. an end-of-life HCI host (the vSAN 6.2 all-flash reference host of 2016) was proposed as new: HCI hosts now carry
   a lifecycle with its source, and the sizer proposes none that is no longer sold, naming it in its note;
6. the AFF A50 and ASA A50 tie on every criterion and filled two rows (the AFF first only by its catalog id, unsaid),
   and the A50 with an NS224 shelf added (strictly worse: more rack units and power, the same headroom) was ranked
   on its own: tied designs are one row naming the other, and shelf-added layouts are the controller's variants;
7. with no power figure, the largest controller (EF600) ranked first on headroom alone: the smaller one that meets
   (EF300: half the controller cores) now comes first, and the rule says so;
8. a design missing the SLO in takeover said only "takeover misses the SLO": the reason now gives its saturation in
   takeover against the grown target, the nearest fold a controller's drive variants, and a note says that one HA
   pair per design is why nothing meets.

The expected figures are computed here from the catalog and the example's own numbers, not from the sizer."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout
from functools import cache

from models.catalog import Controller, HciNode, bundled_catalog
from models.resources import examples_dir
from models.sizing import NOT_SOLD, platform_key, ranking_rule, size, tie_words
from models.store import load_any

AFF = examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"
EF600 = examples_dir() / "ef600-nvme-ddp-oltp-nvmefc.toml"
ESA = examples_dir() / "vsan8-esa-6host-sqlserver-oltp.toml"


@cache
def _sized(path, top: int = 10, **changes):
    project = load_any(path)
    if changes:
        workloads = [w.model_copy(update=changes) for w in project.scenario.workloads]
        project = project.with_scenario(project.scenario.model_copy(update={"workloads": workloads}))
    return project, size(project, top=top)


def _controller(c) -> str:
    return next(n.catalog_id for n in c.scenario.nodes if n.kind == "controller")


# 4. lifecycle of HCI hosts -------------------------------------------------------------------------------------

def test_every_hci_host_has_a_lifecycle_with_its_source_and_the_vsan_6_2_host_is_not_sold():
    hosts = [e for e in bundled_catalog() if isinstance(e, HciNode)]
    assert hosts
    for host in hosts:
        assert host.lifecycle, host.id
        assert host.cited("lifecycle"), host.id  # the catalog's provenance rule: a lifecycle needs its source
    old = bundled_catalog().get("vsan-6.2-allflash-host", HciNode)
    assert old.lifecycle in NOT_SOLD and "March 12, 2020" in old.source_of("lifecycle")
    assert {h.lifecycle for h in hosts if h.platform.startswith("VMware vSAN 8")} == {"current"}


def test_the_sizer_proposes_no_vsan_6_2_host_and_names_it_in_its_note():
    _, result = _sized(ESA)
    every = [*result.candidates, *result.evaluated, *result.nearest,
             *(a for c in result.candidates for a in (*c.alternatives, *c.ties))]
    assert every
    assert not [c.summary for c in every if "vSAN 6.2" in c.summary]
    note = next(n for n in result.notes if n.startswith("only models the vendor sells today"))
    assert "VMware vSAN 6.2 all-flash host (reference architecture)" in note


# 6. ties and shelf-added layouts ---------------------------------------------------------------------------------

def test_the_aff_and_asa_a50_are_one_row_that_names_the_other_and_says_why():
    _, result = _sized(AFF)
    rows = result.candidates
    first = rows[0]
    assert _controller(first) == "netapp-aff-a50"
    assert [_controller(t) for t in first.ties] == ["netapp-asa-a50"]
    asa = first.ties[0]
    # the same footprint and figures, read from what each design shows
    assert (asa.rack_units, asa.power_w, asa.effective_bytes) == (first.rack_units, first.power_w,
                                                                  first.effective_bytes)
    assert round(asa.headroom_pct, 6) == round(first.headroom_pct, 6)
    assert "tied on every criterion with NetApp ASA A50 HA pair" in tie_words(first)
    assert "netapp-asa-a50" not in {_controller(c) for c in rows}  # not a row of its own
    out = io.StringIO()
    from app.cli import main

    with redirect_stdout(out):
        assert main(["size", str(AFF), "--top", "3"]) == 0
    assert "tied on every criterion with NetApp ASA A50 HA pair" in out.getvalue()


def test_a_shelf_added_layout_is_a_variant_of_its_controller_not_a_row():
    _, result = _sized(AFF)
    rows = result.candidates
    controllers = [_controller(c) for c in rows]
    assert len(controllers) == len(set(controllers))  # one row per controller (one front end in this example)
    a50 = rows[0]
    shelved = [a for a in a50.alternatives if "NS224" in a.summary]
    assert shelved and all(_controller(a) == "netapp-aff-a50" for a in shelved)
    # the old #3: the A50 with 24 + 24 x 1.9 TB (4 U, 1,778 W) is one of the A50's variants, named with its shelf
    grown = next(a for a in shelved if a.summary.startswith(
        "NetApp AFF A50 HA pair, 24 x NetApp 1.9TB NVMe SSD (TLC) in the chassis + 1 x NetApp NS224"))
    assert grown.rack_units == a50.rack_units + 2 and grown.power_w > a50.power_w
    assert grown.variant in grown.summary and "1 x NetApp NS224" in grown.variant
    # the A70 is now second, not fifth
    assert controllers[1] == "netapp-aff-a70"


# 7. the smaller controller first -------------------------------------------------------------------------------

def test_with_power_unknown_the_smaller_controller_that_meets_ranks_first():
    _, result = _sized(EF600)
    rows = result.candidates
    catalog = bundled_catalog()
    cores = {c: catalog.get(c, Controller).cores_per_node * catalog.get(c, Controller).nodes
             for c in ("netapp-ef300", "netapp-ef600")}
    assert cores["netapp-ef300"] < cores["netapp-ef600"]
    assert [_controller(c) for c in rows[:2]] == ["netapp-ef300", "netapp-ef600"]
    ef300, ef600 = rows[:2]
    assert (ef300.rack_units, ef300.power_w) == (ef600.rack_units, ef600.power_w) == (4, None)
    assert ef300.meets and ef600.headroom_pct > ef300.headroom_pct  # headroom no longer decides first
    for priced in (False, True):
        assert "then the smaller controller (the fewest controller cores of an array" in ranking_rule(priced)
    assert "smaller controller" in ranking_rule(True, "tco")


# 8. why a design misses, with figures; the nearest folded; one HA pair -------------------------------------------

def test_a_takeover_miss_gives_the_saturation_against_the_grown_target_and_the_one_pair_note():
    project, result = _sized(AFF, 5, target_iops=1_000_000.0)
    assert not result.candidates and result.nearest
    w = project.scenario.workloads[0]
    grown = 1_000_000 * (1 + w.iops_growth_pct_per_year / 100) ** (project.requirements.horizon_months / 12)
    assert round(grown) == 2_197_000  # 30 %/yr over 36 months
    first = result.nearest[0]
    assert _controller(first) == "netapp-aff-a90"
    reason = next(r for r in first.reasons if "takeover" in r)
    m = re.search(r"SLO missed in takeover: saturates at ([\d,]+) IOPS in takeover, against the grown target of "
                  r"([\d,]+)", reason)
    assert m, reason
    saturation, target = (float(x.replace(",", "")) for x in m.groups())
    assert target == 2_197_000
    # one node of the A90 pair carries the load in takeover: half NetApp's 'up to 2.4M IOPS per HA pair'
    peak = bundled_catalog().get("netapp-aff-a90", Controller).peak_iops
    assert abs(saturation - peak / 2) <= 0.001 * peak / 2
    # the nearest are distinct controllers: the A90 with 3.8 TB drives is not a row beside the A90 with 1.9 TB
    keys = [platform_key(c) for c in result.nearest]
    assert len(keys) == len(set(keys))
    assert any("one HA pair" in n and "does not scale out" in n for n in result.notes)


def test_the_one_pair_note_is_not_given_when_capacity_is_what_is_short():
    from models.project.model import Requirements

    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    project = project.model_copy(update={"requirements": Requirements(effective_capacity_bytes=10**18)})
    result = size(project, top=3)
    assert not result.candidates
    assert not any("one HA pair" in n for n in result.notes)
