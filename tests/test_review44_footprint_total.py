"""The bill of materials' power total is the sum of its known rows (review 44 #8): the AFF A800 example listed
"Drives 24 ... 288 W" and "Switch ... 350 W" but totalled "at least 350 W", its internal drives left out because
the controller's and the internal bays' power is unknown. The total (and the footprint text, the CLI's "Typical
power at least ...") now adds every row whose power is known, marked "at least" when a row's is not."""

from __future__ import annotations

import pytest

from models.catalog import bundled_catalog
from models.costing.inputs import running_inputs
from models.costing.tco import energy_of
from models.present.bom import bill_of_materials, footprint
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
EXAMPLES = sorted(p.name for p in examples_dir().glob("*.toml"))


def test_every_bundled_example_is_checked():
    assert len(EXAMPLES) >= 25


@pytest.mark.parametrize("name", EXAMPLES)
def test_power_total_is_the_sum_of_the_known_rows(name):
    project = load_any(examples_dir() / name)
    rows = [r for r in bill_of_materials(project.scenario, CAT) if r.in_footprint]
    total = footprint(project.scenario, CAT)
    # the rows as the table prints them: their power cell is a number or "unknown"
    cells = [r.footprint_cells()[1] for r in rows]
    known = sum(float(c.replace(",", "")) for c in cells if c != "unknown")
    unknown = [c for c in cells if c == "unknown"]
    assert total.power_w == pytest.approx(known, abs=0.5 * len(cells) + 1e-9)  # each cell rounded to the watt
    # vSAN hosts have no power in the catalog: their text says so apart from the parts' (test_review39_footprint_text)
    assert total.complete == (not [r for r in rows if r.power_w is None and r.category != "HCI hosts"])
    if total.cloud_only or total.hci_hosts:
        return
    text = total.text()
    if unknown:
        assert f"at least {total.power_w:,.0f} W" in text
    else:
        assert "at least" not in text and f"{total.power_w:,.0f} W" in text
    energy = energy_of(project.scenario, total, running_inputs(project.requirements.running_costs, 36))
    assert energy.power_w == total.power_w and energy.complete == total.complete


def test_the_a800_total_counts_its_internal_drives():
    scenario = load_any(examples_dir() / "a800-oracle-slob-nvmefc.toml").scenario
    rows = {r.category: r for r in bill_of_materials(scenario, CAT) if r.in_footprint}
    drives, switch = rows["Drives"], rows["Switch"]
    assert drives.power_w == pytest.approx(24 * CAT.find(drives.catalog_id).typical_power_w)
    total = footprint(scenario, CAT)
    # the chassis (controllers and bays) at NetApp's a800/overview 'Typical Power: 6626 BTU/hr' (review 54 #9)
    chassis_w = CAT.find("netapp-aff-a800").typical_power_w
    assert chassis_w == pytest.approx(6626 * 0.29307107, abs=0.1)
    assert total.complete and "at least" not in total.text()
    assert total.power_w == pytest.approx(chassis_w + drives.power_w + switch.power_w)
    assert f"{total.power_w:,.0f} W" in total.text()
