"""An E-Series report in E-Series terms (review of the EF600 PDF): its two controllers are not an ONTAP HA pair.

The EF600 report named its stations "NVRAM mirror" / "HA mirror latency", called the controller failure a
"takeover" whose "NVRAM mirroring stops", put the failed drive "in node 1's drive pool" of a one-pool design, and
said the drive rebuild had "no hot spare" beside a capacity page that deducts the DDP's preservation capacity;
every non-ONTAP report's Resilience intro listed "a controller takeover ... (a MetroCluster switchover ...)".
Expectations come from the project files and the engines' own results, computed here.
"""

from __future__ import annotations

import pytest
from example_reports import report_text

from models.catalog import bundled_catalog
from models.performance.resilience import evaluate_states
from models.present.resilience import ha_state_words, state_label
from models.project.model import Requirements
from models.resources import examples_dir
from models.store import load_any

CATALOG = bundled_catalog()
EF600 = "ef600-nvme-ddp-oltp-nvmefc"
ONTAP = "aff-a70-ns224-oracle-nvmetcp"
ANF = "anf-premium-oracle-nfs"


def _project(name: str):
    return load_any(examples_dir() / f"{name}.toml")


def _pdf_text(name: str) -> str:
    """The whole report of example ``name`` (tests/example_reports.py: one PDF per example and process)."""
    return report_text(name)


def _labels(name: str) -> list[str]:
    """The design's failure states in words, in order, as the engine returns them (first workload)."""
    project = _project(name)
    states = evaluate_states(project.scenario, CATALOG)
    return list(dict.fromkeys(state_label(s) for results in states.values() for s in results))


@pytest.mark.parametrize("term", ["NVRAM", "takeover", "Takeover", "MetroCluster", "node 1 ", "node 2 ", "(node ",
                                  "node 1's", "2 nodes", "per node;", "no hot spare", "HA mirror"])
def test_the_eseries_report_has_no_ontap_terms(term):
    text = _pdf_text(EF600)
    # the cost comparison prices Cloud Volumes ONTAP options, whose own NVRAM disk is an ONTAP term rightly
    for cvo_words in ("NVRAM disk", "(CVO NVRAM)", "holding NVRAM"):
        text = text.replace(cvo_words, "")
    assert term not in text


def test_the_eseries_report_names_its_own_states_and_stations():
    text = _pdf_text(EF600)
    node = next(n for n in _project(EF600).scenario.nodes if n.kind == "controller")
    assert CATALOG.get(node.catalog_id).family == "E-Series" and node.raid_type == "ddp"
    assert _labels(EF600)[0] == "controller failover"
    assert "controller A write cache mirror" in text and "cache mirror latency" in text
    assert "write cache mirroring between the controllers stops" in text
    assert "in controller failover (required)" in text and "grown target in controller failover too" in text
    # the intro lists the states the design has, in its words
    assert f"applies to this design ({', '.join(_labels(EF600))})" in text
    # the rebuild goes into the preservation capacity the capacity page deducts, and says what the model does
    keep = node.ddp_preservation_drives
    assert "DDP preservation capacity" in text and f"{keep} drives' worth" in text
    assert (f"rebuilds the failed drive's data into its preservation capacity ({keep} drives' worth, already left out"
            in text)
    assert f"{keep - 1} drives' worth of it remains" in text
    assert "which this estimate does not credit" in text


def test_an_ontap_report_keeps_its_terms():
    text = _pdf_text(ONTAP)
    assert _labels(ONTAP)[0] == "takeover"
    for term in ("node 1 NVRAM mirror", "HA mirror latency", "NVRAM mirroring stops", "in takeover",
                 "applies to this design (takeover"):
        assert term in text, term
    assert "controller failover" not in text and "write cache mirror" not in text


def test_a_managed_service_report_lists_no_other_platform_states():
    text = _pdf_text(ANF)
    assert "MetroCluster" not in text and "takeover" not in text


def test_the_search_words_follow_the_families():
    on_prem = dict(deployments=["on-prem"], meet_slo_in_takeover=True)
    assert ha_state_words(Requirements(families=["E-Series"], **on_prem)) == " in controller failover too"
    assert ha_state_words(Requirements(families=["ONTAP"], **on_prem)) == " in takeover too"
    assert ha_state_words(Requirements(families=["ONTAP", "E-Series"], **on_prem)) == \
        " in takeover too (controller failover for E-Series)"
    both = dict(deployments=["on-prem", "cloud"], meet_slo_in_takeover=True)
    assert ha_state_words(Requirements(**both)) == " in takeover too (failover for a Cloud Volumes ONTAP HA pair)"
    assert ha_state_words(Requirements(families=["E-Series", "ONTAP"], **both)) == \
        " in takeover too (controller failover for E-Series, failover for a Cloud Volumes ONTAP HA pair)"


def test_a_raid0_array_says_its_failed_drive_is_not_rebuilt():
    """EF550 example: RAID 0 and no spares; the capacity in a failure must not say the group "runs degraded"."""
    from models.evaluate import evaluate, evaluate_resilience

    project = load_any(examples_dir() / "ef550-sas-analytics.toml")
    node = next(n for n in project.scenario.nodes if n.kind == "controller")
    assert node.raid_type == "raid0"
    res = evaluate_resilience(project, evaluate(project), project.scenario.name, CATALOG)
    texts = [c.text for c in res.capacity_states]
    assert texts and all("no redundancy" in t and "runs degraded" not in t for t in texts)
    assert not any(s.state == "drive_rebuild" for states in res.states.values() for s in states)
