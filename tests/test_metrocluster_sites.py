"""A MetroCluster design counts both sites: the bill of materials lists the partner site's HA pair, shelves and
drives; the footprint, energy, space, embodied carbon and price-book quantities count both; the sizer keeps the
site protection of a MetroCluster design it sizes (models.project.metrocluster, models.sizing.site_fields).

Hand figures (bundled catalog): AFF A70 HA pair 4 U, 2,033.3 W typical; NS224 2 U, 300 W without drives; NetApp
3.8TB NVMe SSD 12 W each. The example's site: 1 A70 + 1 NS224 with 24 drives = 6 U, 2,033.3 + 300 + 24 x 12 =
2,621.3 W. Two sites running the same workloads: 12 U, 5,242.6 W.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from models.costing.tco import energy_of
from models.design import resolved_catalog
from models.present.bom import BTU_PER_W, bill_of_materials, footprint
from models.present.cost import design_tco
from models.pricing import quantities
from models.project.metrocluster import is_metrocluster, with_partner_site
from models.project.model import ControllerNode
from models.project.textformat import load, loads
from models.sizing import METROCLUSTER_ONLY_NOTE, site_fields, size
from models.topology import front_end_switches

EXAMPLES = Path(__file__).resolve().parents[1] / "resources" / "examples"
EXAMPLE = EXAMPLES / "aff-a70-metrocluster-ip-oracle-nvmetcp.toml"

SITE_RU = 4 + 2  # A70 HA pair + NS224
SITE_W = 2033.3 + 300.0 + 24 * 12.0  # controller + shelf enclosure + 24 drives


@pytest.fixture(scope="module")
def metro():
    project = load(EXAMPLE)
    return project, resolved_catalog(project, None)


def _active_passive(project):
    nodes = [n.model_copy(update={"partner_site_load": "none"}) if isinstance(n, ControllerNode) else n
             for n in project.scenario.nodes]
    return project.scenario.model_copy(update={"nodes": nodes})


def test_catalog_figures_are_the_hand_figures(metro):
    _, cat = metro
    a70, ns224, ssd = cat.find("netapp-aff-a70"), cat.find("netapp-ns224"), cat.find("netapp-nvme-ssd-3.84tb-tlc")
    assert (a70.rack_units, a70.typical_power_w) == (4, 2033.3)
    assert (ns224.rack_units, ns224.typical_power_w, ssd.typical_power_w) == (2, 300.0, 12.0)


def test_bill_of_materials_lists_the_partner_site(metro):
    project, cat = metro
    rows = {r.category: r for r in bill_of_materials(project.scenario, cat)}
    ctl, shelf, drives = rows["Controller system"], rows["Shelf"], rows["Drives"]
    assert (ctl.quantity, shelf.quantity, drives.quantity) == (2, 2, 48)
    assert any("(partner site)" in u for u in ctl.used_by) and any("(partner site)" in u for u in shelf.used_by)
    assert (ctl.rack_units, ctl.power_w) == (2 * 4, pytest.approx(2 * 2033.3))
    assert (shelf.rack_units, shelf.power_w, drives.power_w) == (2 * 2, pytest.approx(600.0), pytest.approx(576.0))
    switches = rows["MetroCluster IP switches"]
    assert switches.quantity is None and "two at each site" in switches.figures and not switches.in_footprint
    # the back-end ports of both sites
    assert sum(r.quantity for r in bill_of_materials(project.scenario, cat)
               if r.category == "Link ports" and "NVMe drive" in r.model) == 2 * 24


def test_footprint_counts_both_sites(metro):
    project, cat = metro
    foot = footprint(project.scenario, cat)
    assert foot.rack_units == 2 * SITE_RU == 12
    assert foot.power_w == pytest.approx(2 * SITE_W) and foot.power_w == pytest.approx(5242.6)
    assert foot.btu_per_hr == pytest.approx(5242.6 * BTU_PER_W)
    assert foot.sites == 2 and "both MetroCluster sites" in foot.text() and foot.complete


def test_active_passive_partner_site_has_the_pool1_half_of_the_drives(metro):
    project, cat = metro
    scenario = _active_passive(project)
    foot = footprint(scenario, cat)
    assert foot.rack_units == 12
    assert foot.power_w == pytest.approx(2 * (2033.3 + 300.0) + 24 * 12.0)  # 4,954.6 W: drives not doubled
    rows = {r.category: r for r in bill_of_materials(scenario, cat)}
    assert (rows["Controller system"].quantity, rows["Shelf"].quantity, rows["Drives"].quantity) == (2, 2, 24)


def test_energy_space_and_carbon_count_both_sites(metro):
    project, cat = metro
    tco = design_tco(project, project.scenario, cat)
    inputs = tco.inputs
    energy = energy_of(project.scenario, footprint(project.scenario, cat), inputs)
    assert tco.energy == energy
    assert energy.it_kwh_per_year == pytest.approx(5242.6 * 8760 / 1000)  # 45,925.2 kWh
    assert energy.facility_kwh_per_year == pytest.approx(5242.6 * 8760 / 1000 * inputs.pue.value)
    lines = {line.name: line for line in tco.design.lines}
    assert lines["Power"].monthly[0] == pytest.approx(
        5242.6 * 730 / 1000 * inputs.pue.value * inputs.electricity_price_per_kwh.value)
    assert lines["Space"].monthly[0] == pytest.approx(12 * inputs.rack_unit_cost_per_month.value)
    drive_lines = [x for x in tco.embodied.lines if "3.8TB" in x.item]
    assert sum(int(x.item.split(" x ")[0]) for x in drive_lines) == 48
    assert [x.item.endswith("(partner site)") for x in drive_lines] == [False, True]
    assert lines["Space"].basis.startswith("12 U, both MetroCluster sites x ")
    assert "5,243 W, both MetroCluster sites x 730 h" in lines["Power"].basis


def test_price_book_quantities_count_both_sites(metro):
    project, cat = metro
    q, storage = quantities(project.scenario, cat)
    assert (q["netapp-aff-a70"], q["netapp-ns224"], q["netapp-nvme-ssd-3.84tb-tlc"]) == (2, 2, 48)
    assert {"netapp-aff-a70", "netapp-ns224"} <= storage


def test_single_site_design_is_unchanged():
    project = load(EXAMPLES / "aff-a70-ns224-oracle-nvmetcp.toml")
    cat = resolved_catalog(project, None)
    assert not is_metrocluster(project.scenario)
    assert with_partner_site(project.scenario, cat) is project.scenario
    foot = footprint(project.scenario, cat)
    assert (foot.sites, foot.rack_units) == (1, SITE_RU) and "MetroCluster" not in foot.text()


def test_partner_site_is_added_once(metro):
    project, cat = metro
    once = with_partner_site(project.scenario, cat)
    assert len(once.nodes) == len(project.scenario.nodes) + 2
    assert with_partner_site(once, cat) is once


def test_sizer_keeps_the_metrocluster_and_its_footprint_is_the_reports(metro):
    project, cat = metro
    result = size(project, top=3)
    assert METROCLUSTER_ONLY_NOTE in result.notes
    assert result.candidates
    for cand in result.candidates:
        ctl = next(n for n in cand.scenario.nodes if isinstance(n, ControllerNode))
        assert (ctl.metrocluster, ctl.partner_site_load, ctl.site_distance_km) == ("ip", "mirror", 10.0)
        assert "MetroCluster IP over two sites" in cand.summary
        foot = footprint(cand.scenario, cat)
        ru, power = front_end_switches(cand.scenario, cat).added_to(foot.rack_units, foot.known_power_w)
        assert cand.rack_units == ru
        assert cand.power_w == pytest.approx(power)


def test_sizer_active_passive_metrocluster_footprint_is_the_reports():
    text = EXAMPLE.read_text(encoding="utf-8")
    assert 'partner_site_load = "mirror"' in text
    project = loads(text.replace('partner_site_load = "mirror"', 'partner_site_load = "none"'))
    cat = resolved_catalog(project, None)
    result = size(project, top=2)
    assert result.candidates
    for cand in result.candidates:
        ctl = next(n for n in cand.scenario.nodes if isinstance(n, ControllerNode))
        assert (ctl.metrocluster, ctl.partner_site_load) == ("ip", "none")
        foot = footprint(cand.scenario, cat)
        ru, power = front_end_switches(cand.scenario, cat).added_to(foot.rack_units, foot.known_power_w)
        assert (cand.rack_units, cand.power_w) == (ru, pytest.approx(power))


def test_site_loss_requirement_still_sizes_a_single_site_design_as_metrocluster():
    project = load(EXAMPLES / "aff-a70-ns224-oracle-nvmetcp.toml")
    req = project.requirements.model_copy(update={"meet_slo_after_site_loss": True})
    assert site_fields(project.scenario, req) == {"metrocluster": "ip", "partner_site_load": "mirror"}
    assert site_fields(project.scenario, project.requirements) == {}
