"""Every sizer row names what bounds its max IOPS at the SLO: the first workload's bottleneck, the station
``storplan evaluate`` of the row's design names (an independent evaluation of its project), in the field's words;
in ``size --json`` as ``max_iops_bound``."""

from __future__ import annotations

import json

import pytest

from models.evaluate import evaluate, project_catalog
from models.performance import build_path
from models.resources import examples_dir
from models.sizing import size
from models.store import load_any

HYBRID = examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml"

EXPECTED_WORDS = {  # the bottleneck's role (and, where a role is shared, its kind of system) in the field's words
    ("software_limit", "esa"): "vSAN ESA per-host software path limit",
    ("software_limit", "osa"): "vSAN OSA per-disk-group software path limit",
    ("cpu", "array"): "controller CPU",
    ("cpu", "cvo"): "VM CPU (Cloud Volumes ONTAP)",
    ("target_ports", "FCP"): "array FC ports",
    ("host_ports", "FCP"): "host FC ports",
    ("host_ports", "iSCSI"): "host Ethernet ports",
    ("service_mbps", ""): "service's published throughput limit",
    ("drives", ""): "drives",
    ("drive_transfer", ""): "drives (transfer rate)",
    ("nvram", ""): "controller NVRAM mirroring",
}


def _evaluated_bottleneck(project, candidate):
    """(the evaluated bottleneck station of the candidate's first workload, its path, its evaluated figures)."""
    wp = evaluate(project.with_scenario(candidate.scenario)).performance.workloads[0]
    workload = next(w for w in candidate.scenario.workloads if w.id == wp.workload_id)
    path = build_path(candidate.scenario, project_catalog(project), workload)
    return next(s for s in path.stations if s.name == wp.bottleneck), path, wp


def _key(station, path) -> tuple[str, str]:
    role = station.ident.role
    if role == "software_limit":
        return role, "esa" if "storage pool" in station.name else "osa"
    if role == "cpu":
        return role, "array" if station.ident.node is not None else "cvo"
    if role.endswith("_ports"):
        return role, path.protocol
    return role, ""


def test_the_hybrid_examples_esa_rows_are_bound_by_the_per_host_software_path_limit():
    project = load_any(HYBRID)
    result = size(project, top=5)
    rows = [c for c in result.candidates if "vSAN ESA" in c.summary]
    # RAID 5 and RAID 1 of the 32-core 25 GbE hosts, each tied with the same cluster of 64-core 100 GbE hosts
    assert len(rows) == 2 and all(len(c.ties) == 1 and "AF-8" in c.ties[0].summary for c in rows)
    esa = [*rows, *(t for c in rows for t in c.ties)]
    for c in [*result.candidates, *esa[2:]]:
        station, path, wp = _evaluated_bottleneck(project, c)
        assert c.bound == EXPECTED_WORDS[_key(station, path)]
        from models.sizing import exact_bound

        # evaluate's figure, printed at its bound where within 1e-6 of it (models.sizing.exact_bound, review 57)
        assert c.max_iops_at_slo == pytest.approx(exact_bound(wp.max_iops_at_slo, wp.saturation_iops), rel=1e-9)
    for c in esa:
        station, path, _ = _evaluated_bottleneck(project, c)
        assert c.bound == "vSAN ESA per-host software path limit"
        # the row stops at that limit: the storage pools' capacity over their demand per I/O (4 hosts' pools)
        limit = station.capacity / station.demand(path.read_fraction)
        assert limit == pytest.approx(800_000, rel=1e-6)
        assert 0.999 * limit < c.max_iops_at_slo <= limit


@pytest.mark.parametrize("example", ["aff8080-sqlserver-tpce", "spinning192-sas-analytics", "cvo-azure-ds14-ha-oltp"])
def test_every_row_names_the_bottleneck_evaluate_finds(example):
    project = load_any(examples_dir() / f"{example}.toml")
    result = size(project, top=5)
    rows = result.candidates or result.nearest
    assert rows
    for c in rows:
        if c.max_iops_at_slo is None:
            assert c.bound == ""
            continue
        station, path, _ = _evaluated_bottleneck(project, c)
        assert c.bound == EXPECTED_WORDS[_key(station, path)], (c.summary, station.name)


def test_size_json_gives_each_row_and_alternative_its_bound(capsys):
    from app.cli import main

    assert main(["size", str(HYBRID), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["candidates"]
    result = size(load_any(HYBRID), top=5)
    assert [r["max_iops_bound"] for r in rows] == [c.bound for c in result.candidates]
    assert [r["max_iops_bound"] for r in rows[:2]] == ["vSAN ESA per-host software path limit"] * 2
    assert all(len(r["tied_with"]) == 1 for r in rows[:2])  # each with the same cluster of AF-8 hosts
    alternatives = [a for r in rows for a in r["alternatives"]]
    assert alternatives and all(a["max_iops_bound"] == "vSAN ESA per-host software path limit"
                                for r in rows[:2] for a in r["alternatives"])
    # the existing keys keep their values (the headroom every host up, as before)
    assert [round(r["headroom_pct"]) for r in rows[:2]] == [26_567] * 2


def test_the_pdf_recommendation_names_each_rows_bound():
    import io

    from pypdf import PdfReader

    from app.report import render_report_bytes

    project = load_any(HYBRID)
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None)
    text = " ".join(" ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages).split())
    section = text[text.index("Recommendation"):]
    section = section[:section.index("First ranked:")]
    result = size(project, top=5)
    assert "Bound by" in section
    esa = sum(c.bound == "vSAN ESA per-host software path limit" for c in result.candidates[:5])
    assert esa == 2  # each ESA row names the cluster of AF-8 hosts it ties with
    assert section.count("vSAN ESA per-host software path limit") == esa
    osa = [c.bound for c in result.candidates[:5] if c.bound.startswith("vSAN OSA")]
    assert section.count("vSAN OSA per-disk-group software path limit") == len(osa) >= 1
