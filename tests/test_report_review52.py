"""Review 52 of the customer PDF: five places where the report said one thing two ways.

1. The Cost section's inputs read "0.13 per kWh" and "30 per rack unit per month" with no currency (the screen
   reads "0.13 USD/kWh"): every price names the currency the cost is computed in.
2. A Cloud Volumes ONTAP HA report's Recommendation asked for the SLO "in takeover too" while the rest of it says
   failover: the state is named as the searched deployments name it.
3. A vSAN report listed the preset's Snapshot schedule among the numbers the scenario uses, though the workload has
   no schedule and takes no Snapshot space: a preset value the workload holds empty is not used.
4. One drive printed "14.27872 TiB", "14.279 TiB" and "14.28 TiB": one figure, one precision.
5. Memory printed "128 GB memory per node (binary GB)" beside "128 GiB" in the assumptions: GiB everywhere.

Expectations come from the project files, the catalog records and the engines' own results, computed here.
"""

from __future__ import annotations

import re

from example_reports import report_text

from app.report.sources import preset_numbers
from models.catalog import Controller, Drive, bundled_catalog
from models.costing.tco import project_currency
from models.evaluate import evaluate
from models.present.bom import bill_of_materials
from models.present.cost import design_line_texts, design_tco, figure_rows
from models.present.resilience import ha_state_words
from models.project.model import PriceRow, SnapshotSchedule
from models.resources import examples_dir
from models.store import load_any
from models.workloads import bundled_presets

CATALOG = bundled_catalog()
FAS = "fas70-ds460c-nlsas-nfs"
CVO = "cvo-azure-ds14-ha-oltp"
VSAN = "vsan8-esa-stretched-4x4-sqlserver-oltp"


def _project(name: str):
    return load_any(examples_dir() / f"{name}.toml")


def _pdf_text(name: str) -> str:
    """The whole report of example ``name`` (tests/example_reports.py: one PDF per example and process)."""
    return report_text(name)


# 1. prices in the cost's currency


def _rows(project) -> dict[str, str]:
    return dict(figure_rows(design_tco(project, project.scenario, CATALOG)))


def test_the_inputs_name_the_currency_of_every_price():
    project = _project(FAS)
    currency = project_currency(project)
    assert currency == "USD"  # no price book: the cloud list prices' currency
    running = project.requirements.running_costs
    price = running.electricity_price_per_kwh if running.electricity_price_per_kwh is not None else 0.13
    rack = running.rack_unit_cost_per_month if running.rack_unit_cost_per_month is not None else 30.0
    rows = _rows(project)
    assert rows["Electricity price"].startswith(f"{price:g} USD/kWh (")
    assert rows["Rack unit cost"].startswith(f"{rack:g} USD per rack unit per month (")
    assert rows["Grid carbon intensity"].startswith("481 g CO2e/kWh")  # not a price: no currency
    lines = design_line_texts(design_tco(project, project.scenario, CATALOG), project.scenario, CATALOG)
    assert any(line.startswith("Power: ") and line.endswith(f"x {price:g} USD/kWh") for line in lines), lines
    assert any(line.startswith("Space: ") and line.endswith(f"x {rack:g} USD a month") for line in lines), lines
    text = _pdf_text(FAS)
    assert f"{price:g} USD/kWh (default" in text and f"{rack:g} USD per rack unit per month (" in text
    assert " per kWh (default" not in text and f"x {price:g} per kWh" not in text


def test_a_price_book_currency_names_the_prices():
    project = _project(FAS)
    book = [PriceRow(catalog_id="netapp-fas70", unit_price=100_000.0, currency="EUR")]
    priced = project.model_copy(update={"price_book": book})
    assert project_currency(priced) == "EUR"
    rows = _rows(priced)
    assert " EUR/kWh (" in rows["Electricity price"] and " EUR per rack unit per month (" in rows["Rack unit cost"]
    assert "USD" not in rows["Electricity price"].partition("(")[0]


# 2. the HA state in the platform's own word


def test_a_cloud_ha_recommendation_says_failover_as_its_checks_do():
    project = _project(CVO)
    assert project.requirements.meet_slo_in_takeover and project.requirements.deployments == ["cloud"]
    resilience = evaluate(project, resilience=True).resilience
    assert resilience is not None
    checks = [c for c in resilience.requirement_checks if c.requirement == "slo_in_takeover"]
    assert checks and {c.state for c in checks} == {"failover"}  # how the evaluation names a CVO HA pair's state
    text = _pdf_text(CVO)
    said = set(re.findall(r"IOPS in (takeover|failover) \(required\)", text))
    assert said == {"failover"}  # and the rest of the report
    assert "grown target in failover too." in text
    assert "takeover too" not in text


def test_the_state_words_follow_the_searched_deployments():
    requirements = _project(CVO).requirements
    on_prem = requirements.model_copy(update={"deployments": ["on-prem"]})
    both = requirements.model_copy(update={"deployments": ["on-prem", "hci", "cloud"]})
    hci = requirements.model_copy(update={"deployments": ["hci"]})
    assert ha_state_words(on_prem) == " in takeover too"
    assert ha_state_words(requirements) == " in failover too"
    assert "takeover" in ha_state_words(both) and "failover" in ha_state_words(both)
    assert ha_state_words(hci) == ""  # N+k answers for a cluster
    assert ha_state_words(requirements.model_copy(update={"meet_slo_in_takeover": False})) == ""


# 3. a preset number the workload does not use is not listed


def _snapshot_space(project) -> float:
    capacity = evaluate(project).capacity
    return sum(s.efficiency.snapshot_physical_bytes for s in capacity.systems)


def test_a_preset_schedule_the_workload_leaves_empty_is_not_listed():
    project = _project(VSAN)
    workloads = [w for w in project.scenario.workloads if w.enabled]
    assert all(w.snapshots is None for w in workloads)
    preset = bundled_presets()[workloads[0].preset]
    assert preset.fields.get("snapshots")  # the preset has a schedule, with its source
    assert _snapshot_space(project) == 0.0  # the capacity engine takes no Snapshot space
    listed = {n.field for n in preset_numbers(project.scenario, project.settings.capacity_unit)}
    assert "snapshots" not in listed
    assert "dataset_bytes" not in listed  # replaced by the workload's own: still left out
    schedule = SnapshotSchedule(**preset.fields["snapshots"])
    kept = project.scenario.model_copy(update={"workloads": [
        w.model_copy(update={"snapshots": schedule}) for w in project.scenario.workloads]})
    with_schedule = project.model_copy(update={"scenarios": [kept if s.name == kept.name else s
                                                             for s in project.scenarios]})
    assert _snapshot_space(with_schedule) > 0.0  # the engine counts it: now a number the scenario uses
    assert "snapshots" in {n.field for n in preset_numbers(kept, project.settings.capacity_unit)}
    assert "interval h: 2 h" not in _pdf_text(VSAN)


# 4. one drive, one precision


def test_a_drive_size_prints_once_with_one_precision():
    project = _project(FAS)
    drive = CATALOG.find("netapp-16tb-nlsas-7k2")
    assert isinstance(drive, Drive)
    exact = drive.right_sized_bytes / 2**40
    text = _pdf_text(FAS)
    printed = {m.group(1) for m in re.finditer(r"(?<![\d.,])(\d+\.\d+) TiB", text)
               if abs(float(m.group(1)) - exact) < 0.005}
    assert printed == {f"{exact:.2f}"}, printed  # was 14.27872, 14.279 and 14.28
    assert project.settings.capacity_unit == "TiB"


# 5. memory in GiB


def test_memory_is_named_in_gib_everywhere():
    project = _project(FAS)
    rows = bill_of_materials(project.scenario, CATALOG)
    controller = next(r for r in rows if r.category == "Controller system")
    node = next(n for n in project.scenario.nodes if n.kind == "controller")
    record = CATALOG.find(node.catalog_id)
    assert isinstance(record, Controller)
    assert f"{record.memory_gib_per_node:g} GiB memory per node" in controller.figures
    text = _pdf_text(FAS)
    assert "binary GB" not in text and not re.search(r"\d GB memory", text)
    assert f"{record.memory_gib_per_node:g} GiB per node" in text  # the assumptions table's figure, the same unit


def test_a_ranked_design_the_price_book_does_not_price_reads_not_priced():
    """With a price book that prices only the FAS70 controller, the Recommendation's ranked table gives that design
    its partial cost marked "*" (the footnote: an item is left out) and a design with nothing in the book "not
    priced", never "0 EUR*"."""
    from example_reports import page_texts

    from app.report import render_report_bytes
    from models.sizing import size

    project = _project(FAS)
    book = [PriceRow(catalog_id="netapp-fas70", unit_price=100_000.0, currency="EUR")]
    priced = project.model_copy(update={"price_book": book})
    result = size(priced, catalog=CATALOG)
    shown = result.candidates[:5]
    assert any(c.unpriced and not c.cost for c in shown)  # something ranked has nothing in the book
    text = " ".join(" ".join(page_texts(render_report_bytes(priced, sizing=result))).split())
    assert "0 EUR*" not in text
    assert "not priced" in text
    for c in shown:
        if c.unpriced and c.cost:
            assert f"{c.cost:,.0f} EUR*" in text
