"""Power and space of the whole design: the footprint (controllers, shelves with their drives, switches) and the
bill of materials' rack units, typical watts and BTU/hr agree with an independent sum over the design's catalog
records, in the model, the XLSX (read back with openpyxl) and the PDF (read back with pypdf); the sizer's power
figure counts shelves and drives; an unknown figure never gives a number that could meet a limit."""

from __future__ import annotations

import io
import math

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.report import render_report_bytes
from app.report.workbook import sizing_sheets, write_xlsx
from models.catalog import Controller, Drive, Shelf, Switch, bundled_catalog
from models.evaluate import evaluate
from models.present.bom import BTU_PER_W, NO_PART_NUMBER, bill_of_materials, footprint, part_number
from models.resources import examples_dir
from models.store import load_any
from models.topology import controller_of_shelf

CAT = bundled_catalog()
EXAMPLES = ["aff-a50-ns224-oracle-nvmefc64.toml", "aff-a70-ns224-oracle-nvmetcp.toml",
            "fas70-ds460c-nlsas-nfs.toml", "aff8080-sqlserver-tpce.toml", "spinning192-sas-analytics.toml",
            "aff-a90-oracle-nvmefc64.toml"]


def _independent(scenario) -> tuple[int, float, bool]:
    """(rack units, typical W, every figure known) summed here from the catalog records, without the footprint
    code: controller chassis; each shelf's enclosure (not for bays inside a controller chassis that has a height)
    and its drives; each switch."""
    ru, watts, known = 0, 0.0, True
    for node in scenario.nodes:
        if node.kind == "controller":
            c = CAT.get(node.catalog_id, Controller)
            ru += c.rack_units or 0
            known &= c.rack_units is not None and c.typical_power_w is not None
            watts += c.typical_power_w or 0.0
        elif node.kind == "switch":
            sw = CAT.get(node.catalog_id, Switch)
            ru += sw.rack_units or 0
            known &= sw.rack_units is not None and sw.typical_power_w is not None
            watts += sw.typical_power_w or 0.0
        elif node.kind == "shelf":
            shelf, drive = CAT.get(node.catalog_id, Shelf), CAT.get(node.drive, Drive)
            owner = controller_of_shelf(scenario, node.id)
            in_chassis = shelf.internal and owner is not None and CAT.get(owner.catalog_id, Controller).rack_units
            part = 0.0 if drive.typical_power_w is None else node.drive_count * drive.typical_power_w
            known &= drive.typical_power_w is not None
            if not in_chassis:
                ru += shelf.rack_units
                known &= shelf.typical_power_w is not None
                part = part + shelf.typical_power_w if shelf.typical_power_w is not None else 0.0
            if drive.typical_power_w is not None and (in_chassis or shelf.typical_power_w is not None):
                watts += part
    return ru, watts, known


@pytest.mark.parametrize("name", EXAMPLES)
def test_footprint_and_bill_of_materials_match_an_independent_sum(name):
    scenario = load_any(examples_dir() / name).scenario
    total = footprint(scenario, CAT)
    ru, watts, known = _independent(scenario)
    assert total.rack_units == ru
    assert total.complete == known
    if known:
        assert total.power_w == pytest.approx(watts, abs=1e-6)
        assert total.known_power_w == pytest.approx(watts, abs=1e-6)
        assert total.btu_per_hr == pytest.approx(watts * 3.412142, abs=1e-6)
    rows = [r for r in bill_of_materials(scenario, CAT) if r.in_footprint]
    external = any(n.kind == "shelf" and not CAT.get(n.catalog_id, Shelf).internal for n in scenario.nodes)
    assert {r.category for r in rows} >= {"Controller system", "Drives"} | ({"Shelf"} if external else set())
    assert sum(r.rack_units or 0 for r in rows) == total.rack_units
    if known:
        assert all(r.power_w is not None for r in rows)
        assert sum(r.power_w or 0.0 for r in rows) == pytest.approx(total.power_w, abs=1e-6)
        drives = [r for r in rows if r.category == "Drives"]
        assert all(r.power_w == pytest.approx(r.quantity * CAT.get(r.catalog_id, Drive).typical_power_w)
                   for r in drives)


def test_the_a50_example_counts_its_shelves_and_drives_not_only_the_controller():
    """The AFF A50 example: 2U chassis + NS224 shelves; power far above the controller's 901.5 W alone."""
    scenario = load_any(examples_dir() / "aff-a50-ns224-oracle-nvmefc64.toml").scenario
    total = footprint(scenario, CAT)
    a50 = CAT.get("netapp-aff-a50", Controller)
    shelves = [n for n in scenario.nodes if n.kind == "shelf" and not CAT.get(n.catalog_id, Shelf).internal]
    assert shelves and a50.rack_units == 2
    assert total.rack_units >= 2 + 2 * len(shelves)
    assert total.power_w > a50.typical_power_w + len(shelves) * CAT.get("netapp-ns224", Shelf).typical_power_w


def test_an_unknown_part_makes_the_total_a_labelled_lower_bound():
    scenario = load_any(examples_dir() / "aff-a50-ns224-oracle-nvmefc64.toml").scenario
    node = next(n for n in scenario.nodes if n.kind == "controller")
    broken = scenario.model_copy(update={"nodes": [n.model_copy(update={"catalog_id": "no-such-array"}) if n is node
                                                   else n for n in scenario.nodes]})
    total = footprint(broken, CAT)
    assert not total.complete and total.known_power_w is None
    assert total.text().startswith("at least ") and "not counted" in total.text()
    row = next(r for r in bill_of_materials(broken, CAT) if r.category == "Controller system")
    assert row.power_w is None and row.footprint_cells() == ("unknown", "unknown", "unknown")


def test_the_sizer_power_is_controller_shelves_and_drives():
    """Every array the sizer proposes reports the controller's, its shelves' enclosures' and its drives' typical
    power (independent sum over the proposal's records), or None when one of them is not in the catalog."""
    from models.sizing import array_proposals

    base = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml").scenario
    proposals = list(array_proposals(base, CAT))
    assert proposals
    checked = 0
    for summary, controller, shelves, _ru, power, switch in proposals:
        parts = [controller.typical_power_w]
        if switch is not None:  # a switch-attached design's pairs of storage switches: each switch takes 2 ports
            # per external shelf (NetApp's storage-switch replacement page) and 2 per controller (assumed)
            external = sum(1 for shelf, _, _ in shelves if not shelf.internal)
            pairs = math.ceil(external / ((switch.ports - 2 * 2) // 2))
            parts.append(2 * pairs * switch.typical_power_w)
        for shelf, drive, count in shelves:
            if not shelf.internal or not controller.rack_units:
                parts.append(shelf.typical_power_w)
            parts.append(None if drive.typical_power_w is None else count * drive.typical_power_w)
        if any(p is None for p in parts):
            assert power is None, summary
        else:
            checked += 1
            assert power == pytest.approx(sum(parts), abs=1e-6), summary
            assert power > controller.typical_power_w
    assert checked > 10


def test_part_numbers_are_public_or_say_none_is_published():
    c30 = CAT.get("netapp-aff-c30", Controller)
    assert part_number(CAT, c30.id) == ("AFF-C30A-100-C", "catalog") and "part_number" in c30.provenance
    scenario = load_any(examples_dir() / "aff-a50-ns224-oracle-nvmefc64.toml").scenario
    controller = next(r for r in bill_of_materials(scenario, CAT) if r.category == "Controller system")
    assert controller.part_number == "" and controller.part_number_text() == NO_PART_NUMBER


@pytest.fixture(scope="module")
def a50():
    project = load_any(examples_dir() / "aff-a50-ns224-oracle-nvmefc64.toml")
    return project, evaluate(project)


def test_xlsx_carries_rack_units_watts_and_btu_per_line_and_in_total(a50, tmp_path):
    project, evaluation = a50
    out = tmp_path / "a50.xlsx"
    write_xlsx(sizing_sheets(project, evaluation=evaluation), out)
    sheet = list(load_workbook(out)["Bill of materials"].iter_rows(values_only=True))
    header = list(sheet[0])
    ru_col, w_col, btu_col = (header.index(h) for h in ("Rack units", "Typical power (W)", "Heat (BTU/hr)"))
    total = footprint(project.scenario, CAT)
    last = sheet[-1]
    assert str(last[0]).startswith("Total")
    assert last[ru_col] == total.rack_units
    assert last[btu_col] == pytest.approx(total.power_w * BTU_PER_W, abs=0.1)
    lines = [r for r in sheet[1:-1] if isinstance(r[w_col], (int, float))]
    assert sum(r[w_col] for r in lines) == pytest.approx(total.power_w, abs=0.1 * len(lines))
    assert all(r[btu_col] == pytest.approx(r[w_col] * 3.412142, abs=0.2) for r in lines)
    assert sum(r[ru_col] for r in lines) == total.rack_units
    assert NO_PART_NUMBER in [r[header.index("Part number")] for r in sheet[1:-1]]


def test_pdf_bill_of_materials_prints_the_btu_total(a50):
    project, evaluation = a50
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(io.BytesIO(data)).pages)
    total = footprint(project.scenario, CAT)
    assert "BTU/hr" in text
    assert f"{total.power_w * 3.412142:,.0f}" in text
    assert f"{total.power_w:,.0f} W" in text
    assert NO_PART_NUMBER in text


def _without_switches(scenario):
    """The scenario with its switch nodes left out (model_copy: the links to them are not checked; the sizer reads
    only the base's hosts and switches)."""
    return scenario.model_copy(update={"nodes": [n for n in scenario.nodes if n.kind != "switch"]})


def test_the_sizer_counts_the_projects_front_end_switches_with_every_array_design():
    """The A800 FCP example reaches its array through a Brocade G630 FC fabric: every array the sizer proposes
    counts the G630's rack units and typical power on top of the same design without it, whatever its protocol
    (so the ranking, which sorts by rack units and power, is the same as without the switch)."""
    from models.sizing import array_proposals

    base = load_any(examples_dir() / "a800-oracle-slob-fcp.toml").scenario
    g630 = CAT.get("brocade-g630", Switch)
    assert [CAT.get(n.catalog_id, Switch) for n in base.nodes if n.kind == "switch"] == [g630]
    with_fabric = list(array_proposals(base, CAT))
    bare = list(array_proposals(_without_switches(base), CAT))
    # the same designs; a row whose ports are faster than the G630's 32Gb says so (review 57)
    runs = " (runs at 32Gb on the project's Brocade G630)"
    assert [p[0].replace(runs, "") for p in with_fabric] == [p[0] for p in bare] and len(with_fabric) > 100
    assert any(runs in p[0] for p in with_fabric)
    assert any(", iSCSI over " in p[0] for p in bare) and any(", FCP over " in p[0] for p in bare)
    known = 0
    for (summary, _c, _s, ru, power, _sw), (_, _, _, ru0, power0, _) in zip(with_fabric, bare, strict=True):
        assert ru == ru0 + g630.rack_units, summary
        if power0 is None:
            assert power is None, summary
        else:
            known += 1
            assert power == pytest.approx(power0 + g630.typical_power_w, abs=1e-6), summary
    assert known > 10


def test_a_switch_with_no_figures_leaves_the_sizer_power_unknown():
    """A switch node whose record is not in the catalog counts an unknown height and power: no sizer power figure
    can then meet a power limit."""
    from models.topology import front_end_switches

    base = load_any(examples_dir() / "a800-oracle-slob-fcp.toml").scenario
    broken = base.model_copy(update={"nodes": [n.model_copy(update={"catalog_id": "no-such-switch"})
                                               if n.kind == "switch" else n for n in base.nodes]})
    found = front_end_switches(broken, CAT)
    assert len(found.names) == 1 and found.power_w is None and found.rack_units == 0
    assert found.added_to(4, 900.0) == (4, None)
    assert front_end_switches(_without_switches(base), CAT).added_to(4, 900.0) == (4, 900.0)
    assert front_end_switches(base, CAT).added_to(4, None) == (6, None)


def test_the_sizer_says_which_switches_it_counts_and_why_no_cluster_switch():
    from models.topology import SWITCHLESS_PAIR_SOURCE, front_end_switch_note

    base = load_any(examples_dir() / "a800-oracle-slob-fcp.toml").scenario
    note = front_end_switch_note(base, CAT)
    assert "2 U, 350 W" in note and "no cluster switch" in note and "whatever its protocol" in note
    assert front_end_switch_note(_without_switches(base), CAT) == ""
    assert "more than two nodes" in SWITCHLESS_PAIR_SOURCE


@pytest.mark.parametrize("switch_id, ru, part", [("cisco-nexus-9336c-fx2", 1, "X190200-CS-PE"),
                                                 ("nvidia-sn2100", 1, "X190006-PE")])
def test_netapp_cluster_switches_carry_rack_units_power_and_public_part_numbers(switch_id, ru, part):
    """NetApp's supported cluster / MetroCluster IP switches: height and part number from public pages (sourced),
    typical power assumed with its basis; the BOM's part number is NetApp's."""
    sw = CAT.get(switch_id, Switch)
    assert sw.medium == "Ethernet" and sw.speed_gbps == 100 and sw.rack_units == ru
    assert sw.provenance["rack_units"].kind == "sourced" and sw.provenance["part_number"].kind == "sourced"
    assert sw.typical_power_w and sw.provenance["typical_power_w"].kind == "assumed"
    assert part_number(CAT, switch_id) == (part, "catalog")


def test_csv_bill_of_materials_carries_rack_units_watts_and_btu(a50, tmp_path):
    import csv
    from pathlib import Path

    from app.report.workbook import write_csv_folder

    project, evaluation = a50
    paths = write_csv_folder(sizing_sheets(project, evaluation=evaluation), tmp_path / "a50")
    bom = next(p for p in paths if Path(p).name == "bill-of-materials.csv")
    with open(bom, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    ru_col, w_col, btu_col = (header.index(h) for h in ("Rack units", "Typical power (W)", "Heat (BTU/hr)"))
    total = footprint(project.scenario, CAT)
    last = rows[-1]
    assert last[0].startswith("Total")
    assert float(last[ru_col].replace(",", "")) == total.rack_units
    assert float(last[w_col].replace(",", "")) == pytest.approx(total.power_w, abs=0.5)
    assert float(last[btu_col].replace(",", "")) == pytest.approx(total.power_w * BTU_PER_W, abs=0.5)


def test_storplan_size_prints_rack_units_watts_btu_and_the_switch_note(capsys):
    """``storplan size`` of the AFF8080 example: each candidate's rack units, typical W and BTU/hr (W x 3.412142),
    and the note naming the project's switch it counts."""
    import re

    from app.cli import main

    assert main(["size", str(examples_dir() / "aff8080-sqlserver-tpce.toml"), "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "note: an array design's rack units and power include the project's switches" in out
    assert "Brocade 6510" in out
    found = re.findall(r"— (\d+) U, ([\d,]+) W \(([\d,]+) BTU/hr\) typical", out)
    assert found
    for _ru, watts, btu in found:
        w = float(watts.replace(",", ""))
        assert abs(float(btu.replace(",", "")) - w * 3.412142) <= 0.5 * 3.412142 + 0.5
