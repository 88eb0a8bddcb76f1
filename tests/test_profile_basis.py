"""Performance profiles as a queryable fact: calibrated, derived (another version / protocol, or a calibrated
sibling by a documented throughput ratio) or assumed, with the sibling, ratio and reason; on each workload's
result and in ``storplan evaluate --json``."""

from __future__ import annotations

import json

import pytest

from models.catalog import CatalogError, Controller, ProfileDerivation, bundled_catalog, parse_entries
from models.evaluate import evaluate
from models.performance import build_path
from models.performance.profiles import profile_basis, scaled_profile
from models.resources import examples_dir
from models.store import load_any

CATALOG = bundled_catalog()
A800 = CATALOG.get("netapp-aff-a800", Controller)
DERIVATION = {"kind": "derived", "source": "test record, twice the A800's throughput (a made-up ratio for the test; a "
                                          "real record cites the vendor's published IOPS of both systems)"}


def _derived(ratio: float = 2.0, sibling: str = "netapp-aff-a800") -> Controller:
    data = A800.model_dump(mode="json", exclude_unset=True)
    data.update(id="test-aff-derived", name="Test AFF (derived)", performance=[],
                profile_from={"sibling": sibling, "ratio": ratio},
                provenance={**data["provenance"], "profile_from": DERIVATION})
    data["provenance"].pop("performance", None)
    return Controller.model_validate(data)


def test_the_three_kinds_with_their_reasons():
    calibrated = profile_basis(A800, "9.5", "FCP", CATALOG)
    assert calibrated.kind == "calibrated" and calibrated.sibling == "" and "least-squares fit" in calibrated.reason
    other_version = profile_basis(A800, "9.13.1", "FCP", CATALOG)
    assert other_version.kind == "derived" and "using 9.5 / FCP" in other_version.reason
    a50 = CATALOG.get("netapp-aff-a50", Controller)
    relation = profile_basis(a50, None, "NVMe/FC", CATALOG)
    assert relation.kind == "hardware relation only" and "pooled ONTAP software costs" in relation.reason
    sibling = profile_basis(_derived(), "9.5", "FCP", CATALOG)
    assert (sibling.kind, sibling.sibling, sibling.ratio) == ("derived", "netapp-aff-a800", 2.0)
    assert "CPU demands / 2" in sibling.reason and "made-up ratio" in sibling.reason
    # a sibling that does not exist (or has no profile) leaves the record on the hardware relation, saying why
    missing = profile_basis(_derived(sibling="no-such-controller"), "9.5", "FCP", CATALOG)
    assert missing.kind == "hardware relation only" and "no-such-controller" in missing.reason


def test_a_derived_profile_divides_the_siblings_cpu_demands_only():
    own = next(p for p in A800.performance if p.software == "9.5" and p.protocol == "FCP")
    scaled = scaled_profile(own, 2.0, A800.id)
    assert scaled.cpu_read_us == pytest.approx(own.cpu_read_us / 2)
    assert scaled.cpu_write_us == pytest.approx(own.cpu_write_us / 2)
    assert (scaled.servers_per_node, scaled.fixed_latency_us) == (own.servers_per_node, own.fixed_latency_us)
    assert scaled.kind_of("cpu_read_us") == "derived"
    assert scaled.source_of("cpu_read_us").startswith("netapp-aff-a800's")
    with pytest.raises(ValueError):
        scaled_profile(own, 0.0, A800.id)


def test_the_path_runs_on_what_the_basis_reports():
    """The derived record's CPU stations carry half the A800's demand, its workload says "derived" with the
    sibling, and the --json form carries the same."""
    from models.serialize import workload_to_dict

    catalog = CATALOG.with_entries([_derived()])
    project = load_any(examples_dir() / "a800-oracle-slob-fcp.toml")
    sc = project.scenario
    moved = project.with_scenario(sc.model_copy(update={"nodes": [
        n.model_copy(update={"catalog_id": "test-aff-derived"}) if n.kind == "controller" else n for n in sc.nodes]}))
    cpu = {}
    for name, proj, cat in (("a800", project, CATALOG), ("derived", moved, catalog)):
        path = build_path(proj.scenario, cat, proj.scenario.workloads[0])
        cpu[name] = next(s for s in path.stations if s.name == "node 1 CPU").read_s
    assert cpu["derived"] == pytest.approx(cpu["a800"] / 2)
    wp = evaluate(moved, catalog=catalog).performance.workloads[0]
    assert wp.profile == "derived" and wp.profile_basis.sibling == "netapp-aff-a800"
    data = json.loads(json.dumps(workload_to_dict(wp)))
    assert data["profile"] == "derived"
    assert data["profile_basis"]["sibling"] == "netapp-aff-a800" and data["profile_basis"]["ratio"] == 2.0
    a800 = evaluate(project).performance.workloads[0]
    assert a800.profile == a800.profile_basis.kind == "calibrated"


def test_profile_from_needs_its_derivation_as_a_source():
    record = A800.model_dump(mode="json", exclude_unset=True)
    record.update(id="test-no-source", performance=[], profile_from={"sibling": "netapp-aff-a800", "ratio": 1.5})
    record["provenance"] = {k: v for k, v in record["provenance"].items() if k not in ("performance", "profile_from")}
    with pytest.raises(CatalogError, match="profile_from"):
        parse_entries({"controller": [record]}, "test")
    with pytest.raises(ValueError):
        ProfileDerivation(sibling="netapp-aff-a800", ratio=0.0)  # a throughput ratio is positive


def test_evaluate_json_has_the_profile_basis(capsys):
    from app.cli import main

    assert main(["evaluate", "a800-oracle-slob-fcp", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    basis = data["workloads"][0]["profile_basis"]
    assert data["workloads"][0]["profile"] == basis["kind"] == "calibrated" and basis["sibling"] is None


@pytest.mark.parametrize("vm, sibling", [("azure-standard-ds5-v2", "azure-standard-ds14-v2"),
                                         ("azure-standard-ds13-v2", "azure-standard-ds4-v2")])
def test_the_other_dsv2_sizes_run_on_the_pooled_fit_of_their_vcpu_sibling(vm, sibling):
    """DS5_v2 and DS13_v2 are the DSv2 family of seed 004's pooled fit but were not measured: their profile is
    the sibling's with the same vCPU count, derived at ratio 1 and said so."""
    from models.catalog import CloudVm

    cat = bundled_catalog()
    record, twin = cat.get(vm, CloudVm), cat.get(sibling, CloudVm)
    assert record.vcpu == twin.vcpu and not record.performance
    basis = profile_basis(record, "9.5", "iSCSI", cat)
    assert basis.kind == "derived" and basis.sibling == sibling and basis.ratio == 1.0
    assert "pooled" in record.sources["profile_from"]
