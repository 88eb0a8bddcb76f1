"""r2 consistency review ("one project file, one answer"), items 2-6, 8 and 9: the PDF (pypdf text), the workbook
(openpyxl cells), `evaluate` and `evaluate --json` say one thing in one set of words."""

from __future__ import annotations

import json
import re

import pytest
from example_reports import report_text

from app.cli import main
from app.report.workbook import sizing_sheets, write_xlsx
from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.present.bom import footprint
from models.present.cost import design_tco
from models.present.iops_bound import bottleneck_words
from models.present.verdicts import ASSUMED_UNMEASURED_WORDS
from models.project import load
from models.resources import examples_dir


def _path(name: str):
    return examples_dir() / f"{name}.toml"


def _workbook_rows(name: str, tmp_path, sheet: str = "Summary") -> dict:
    from openpyxl import load_workbook

    write_xlsx(sizing_sheets(load(_path(name))), tmp_path / "book.xlsx")
    book = load_workbook(tmp_path / "book.xlsx", read_only=True)
    return {r[0]: r[1:] for r in book[sheet].iter_rows(min_row=2, values_only=True)}


def test_2_one_name_for_an_assumed_profile(tmp_path):
    """ef550: a catalogued SANtricity profile none of whose fields a measurement fitted: "assumed" in the workbook
    and the report (whose longer words begin with it), never "uncalibrated default" (which it is not)."""
    wp = evaluate(load(_path("ef550-sas-analytics"))).performance.workloads[0]
    assert wp.profile == "assumed"
    assert "no field of the SANtricity 11 / FCP profile was fitted" in wp.profile_basis.reason
    rows = _workbook_rows("ef550-sas-analytics", tmp_path)
    assert rows[f"{wp.name}: profile"][0] == "assumed"
    pdf = report_text("ef550-sas-analytics")
    # review 56: the profile row says the kind in the one set of words the verdicts use
    # (models.present.verdicts.PROFILE_KIND_MEANINGS; an assumed profile by where its numbers come from), not words
    # of its own: "assumed (no published measurement constrains it)"
    words = ASSUMED_UNMEASURED_WORDS["catalogued"]
    assert f"Profile assumed ({words})" in pdf
    assert f"not measured on this system: {words}" in pdf
    assert "no published measurement constrains it" not in pdf
    assert "uncalibrated default" not in pdf


def test_2_a_managed_service_profile_reads_alike_in_the_workbook(tmp_path):
    rows = _workbook_rows("anf-premium-oracle-nfs", tmp_path)
    profile = [v[0] for k, v in rows.items() if k.endswith(": profile")]
    assert profile and set(profile) == {"published service limits, assumed latency floor"}


def _tco(name: str):
    project = load(_path(name))
    return design_tco(project, project.scenario, bundled_catalog()), project


def test_3_4_an_unknown_height_is_a_space_term_and_the_rack_units_a_lower_bound(tmp_path):
    """aff8080: the catalog gives the AFF8080A EX neither a height nor a power figure. Its height is named on the
    Space line (never "power of height of"), and the rack units read "at least N U" everywhere."""
    tco, project = _tco("aff8080-sqlserver-tpce")
    parts = footprint(project.scenario, bundled_catalog()).parts
    known_units = sum(p.height for p in parts if p.height is not None)  # the heights the catalog gives
    unknown = [p.name for p in parts if p.height is None]
    assert unknown == ["AFF8080A EX HA pair"] and known_units == tco.energy.rack_units == 5
    pdf = report_text("aff8080-sqlserver-tpce")
    assert "power of height" not in pdf and "not counting height of" not in pdf
    assert (f"Space: at least {known_units} U x 30 USD a month; not counting the height of NetApp AFF8080A EX HA "
            "pair" in pdf)
    assert f"Rack units at least {known_units} U" in pdf
    power = re.search(r"Power: [\d,]+ W x 730 h[^;]*; not counting (.*?) • Space", pdf)
    assert power is not None and power.group(1) == "power of NetApp AFF8080A EX HA pair"
    assert "not counting: power of NetApp AFF8080A EX HA pair; height of NetApp AFF8080A EX HA pair" in pdf
    cost = _workbook_rows("aff8080-sqlserver-tpce", tmp_path, "Cost and footprint")
    assert cost["Rack units"][:3] == (known_units, "U", "catalog (lower bound: height of NetApp AFF8080A EX HA pair)")
    power_kind = cost["Typical power"][2]
    assert "height" not in power_kind and "power of NetApp AFF8080A EX HA pair" in power_kind


def test_4_an_exact_height_stays_exact():
    tco, _ = _tco("a800-oracle-slob-fcp")
    from models.present.cost import footprint_rows

    units = dict(footprint_rows(tco))["Rack units"]
    assert not tco.energy.heights_not_counted and units == f"{tco.energy.rack_units} U"


def test_5_a_problem_names_the_node_by_its_label_only():
    evaluation = evaluate(load(_path("a800-oracle-slob-fcp")))
    found = [p for p in evaluation.problems if "no ADP root partition size" in p.message]
    assert [(p.message.split(":")[0], p.node_id) for p in found] == [("controller 'AFF A800 HA pair'", "a800")]
    pdf = report_text("a800-oracle-slob-fcp")
    assert "controller 'AFF A800 HA pair': no ADP root partition size" in pdf and "(a800)" not in pdf


def test_6_the_replication_text_and_the_json_name_the_bound_as_every_view(capsys):
    name = "aff-a70-snapmirror-cvo-dr"
    shown = "HA pair IOPS bound (node 1's share)"
    pdf = report_text(name)
    assert f"The transfer's reads at 62.5 MB/s on the source: {shown} at" in pdf
    assert "node 1 IOPS bound" not in pdf
    assert main(["evaluate", str(_path(name)), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    wp = evaluate(load(_path(name))).performance.workloads[0]
    got = data["workloads"][0]
    assert got["bottleneck"] == bottleneck_words(wp) == shown
    assert got["bottleneck_station"] == wp.bottleneck and wp.bottleneck in got["utilization"]
    loads = [e for r in data["replication"] for e in r["transfer_load"]]
    assert any(e["bottleneck"] == shown for e in loads) and all("node 1 IOPS bound" != e["bottleneck"] for e in loads)
    assert f"on the source: {shown} at" in data["replication"][0]["text"] or any(
        f"on the source: {shown} at" in e["text"] for e in loads)


def test_8_a_max_at_the_slo_capped_by_the_published_bound_says_so(capsys):
    """AFF A90: NetApp publishes 'up to' 2.4M IOPS for the HA pair; the latency stays within the SLO up to it, so
    max IOPS at the SLO = saturation = 2.40M, which the report and the CLI explain beside the figure."""
    name = "aff-a90-oracle-nvmefc64"
    wp = evaluate(load(_path(name))).performance.workloads[0]
    assert wp.saturation_iops == pytest.approx(2_400_000, rel=1e-3) == wp.max_iops_at_slo
    pdf = report_text(name)
    assert "Max IOPS at SLO 2.40M IOPS, capped by the published IOPS bound" in pdf
    assert main(["evaluate", str(_path(name))]) == 0
    out = capsys.readouterr().out
    assert re.search(r"max IOPS at [\d.]+ ms SLO +2\.40M IOPS \(capped by the published IOPS bound\)", out)


def test_8_a_max_at_the_slo_below_saturation_is_not_called_capped(capsys):
    name = "aff-a400-ns224-oracle-nvmefc"  # IOPS bound bottleneck, max at the SLO 999K below 1.00M saturation
    assert main(["evaluate", str(_path(name))]) == 0
    assert "capped by the published IOPS bound" not in capsys.readouterr().out


def test_8_a_p10_edge_that_misses_the_slo_reads_not_met_in_the_export(tmp_path):
    name = "vsan8-esa-stretched-4x4-sqlserver-oltp"
    wp = evaluate(load(_path(name))).performance.workloads[0]
    assert wp.max_iops_at_slo_band_p10 is None and wp.max_iops_at_slo_band_p90 > 0
    rows = _workbook_rows(name, tmp_path)
    assert rows[f"{wp.name}: max IOPS at SLO band P10"][0] == "not met"
    assert rows[f"{wp.name}: max IOPS at SLO band P90"][0] == pytest.approx(wp.max_iops_at_slo_band_p90)


def test_9_netbox_and_dell_manual_sources_are_cited_by_title():
    pdf = report_text("a800-oracle-slob-fcp")
    assert "Brocade G630: 2U high" in pdf
    assert "device-types/" not in pdf and ".yaml" not in pdf and "u_height" not in pdf
    pdf = report_text("vsan8-esa-6host-sqlserver-oltp")
    assert "Dell VxRail Architecture Overview, 'VMware vSAN ESA overview' (dell.com/support/manuals)" in pdf
    assert "vxrail_architecture_guide" not in pdf
