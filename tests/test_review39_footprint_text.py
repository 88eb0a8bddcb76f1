"""The bill of materials' footprint of a vSAN or cloud design (review of session 39): a vSAN design's parts list
said "0 U and 0 W (0 BTU/hr)" while the same report's cost section counted its hosts' rack units, and a cloud
design read as if it took 0 U and 0 W on site."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from app.report import render_report_bytes
from models.catalog import bundled_catalog
from models.costing.inputs import running_inputs
from models.costing.tco import energy_of
from models.evaluate import evaluate
from models.present.bom import bill_of_materials, footprint
from models.project.model import HciClusterNode
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()


@pytest.mark.parametrize("name", ["vsan-sqlserver-raid5.toml", "vsan8-esa-6host-sqlserver-oltp.toml"])
def test_vsan_parts_list_counts_the_hosts_as_the_cost_section_does(name):
    project = load_any(examples_dir() / name)
    scenario = project.scenario
    hosts = sum(n.hosts for n in scenario.nodes if isinstance(n, HciClusterNode))
    total = footprint(scenario, CAT)
    # the cost section's rack units (models.costing.tco.energy_of), computed by its own code
    cost_ru = energy_of(scenario, total, running_inputs(project.requirements.running_costs, 36)).rack_units
    assert total.total_rack_units == hosts * 2 == cost_ru
    text = total.text()
    assert "0 U and 0 W" not in text
    assert text.startswith(f"{hosts * 2} U, with the {hosts} vSAN hosts at 2 U each")
    assert "power not known" in text
    row = next(r for r in bill_of_materials(scenario, CAT) if r.category == "HCI hosts")
    assert row.in_footprint and row.rack_units == hosts * 2 and row.power_w is None
    assert row.footprint_cells() == (str(hosts * 2), "unknown", "unknown")


def test_cloud_design_has_no_on_site_footprint_text():
    scenario = load_any(examples_dir() / "cvo-aws-m5-4xlarge-ha-oltp.toml").scenario
    total = footprint(scenario, CAT)
    assert total.cloud_only and total.total_rack_units == 0
    assert total.text() == "no rack space or power on site: the design runs in the cloud provider's data centre"


def test_an_array_design_footprint_text_is_unchanged():
    scenario = load_any(examples_dir() / "aff-a50-ns224-oracle-nvmefc64.toml").scenario
    total = footprint(scenario, CAT)
    assert not total.cloud_only and total.hci_hosts == ()
    assert total.total_rack_units == total.rack_units
    assert total.text().startswith(f"{total.rack_units} U and ")


def test_vsan_pdf_parts_list_prints_the_hosts_height_and_unknown_power():
    project = load_any(examples_dir() / "vsan-sqlserver-raid5.toml")
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(io.BytesIO(data)).pages)
    assert "Footprint: 0 U and 0 W" not in text
    assert "Footprint: 8 U, with the 4 vSAN hosts at 2 U each" in text
    assert "unknow n" not in text  # the power cells' word fits its column


def _cost_section(name: str) -> str:
    project = load_any(examples_dir() / name)
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)
    return text[text.index("\nCost and footprint"):text.index("\nRecommendation")]


def test_a_cloud_designs_cost_section_has_no_on_site_inputs_or_empty_carbon_heading():
    """A managed-service design printed the electricity, PUE, grid-carbon, rack-space and support inputs it does not
    use, and an "Embodied carbon" heading over nothing but the drives' and enclosures' sources; its comparison notes
    sat under that heading."""
    section = _cost_section("gcnv-premium-oracle-nfs.toml")
    assert "Electricity price" not in section and "Rack unit cost" not in section
    assert "Embodied carbon\n" not in section and "Tannu" not in section
    notes = section[section.index("\nNotes\n"):]
    assert "sized month by month" in notes and "the option of the same service in the table" in notes


def test_an_on_site_designs_cost_section_keeps_its_inputs_and_embodied_carbon():
    section = _cost_section("aff-a50-ns224-oracle-nvmefc64.toml")
    assert "Electricity price" in section and "Rack unit cost" in section
    embodied = section[section.index("\nEmbodied carbon\n"):section.index("\nNotes\n")]
    assert "kg CO2e" in embodied and "Tannu" in embodied
    assert "sized month by month" in section[section.index("\nNotes\n"):]


def test_the_reports_cloud_recommendations_read_cloud_not_0_and_n_a():
    project = load_any(examples_dir() / "gcnv-premium-oracle-nfs.toml")
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)
    section = text[text.index("\nRecommendation"):text.index("\nAssumptions and sources")]
    # the rack-units, power and effective cells of each row on one line (the configuration, effective, headroom
    # and "Bound by" cells wrap onto lines of their own)
    rows = [line for line in section.splitlines() if " TiB (" in line and line.split()[0] == "cloud"]
    assert len(rows) >= 3
    assert all(line.startswith("cloud cloud ") and " n/a " not in line and " 0 " not in line for line in rows), rows


@pytest.mark.parametrize("name, why", [
    ("gcnv-premium-oracle-nfs.toml", "a managed service's controllers, paths and drives are the provider's"),
    ("cvo-azure-ds3-single-oltp.toml", "a single node has no partner to take over its work"),
])
def test_a_resilience_section_with_no_failure_state_says_why(name, why):
    """The NetApp Volumes and single-node CVO reports printed a "Resilience" heading and its introduction with
    nothing under it."""
    project = load_any(examples_dir() / name)
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(io.BytesIO(data)).pages)
    start = text.index("Resilience How each workload")
    section = text[start:text.index("Runway", start)]
    assert f"No failure state of the model applies to this design: {why}" in section
    assert "The runway follows." in section
