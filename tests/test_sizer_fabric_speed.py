"""The sizer's rows say the speed a design's ports run at on the project's switches (review 57, C80 item 1: rows
said 'NVMe/FC over 64Gb FC' while the footprint counted a 32Gb Brocade G630, on which 64Gb ports run at 32Gb),
and a note says how the figures count them."""

from __future__ import annotations

from models.catalog import LinkType, Switch, bundled_catalog
from models.resources import examples_dir
from models.sizing import fabric_speeds, runs_words, size
from models.store import load_any

CAT = bundled_catalog()


def test_a_64g_link_on_a_32g_fabric_says_32g():
    g630, link64 = CAT.get("brocade-g630", Switch), CAT.get("nvme-fc-64g", LinkType)
    fabric = {g630.medium: g630.speed_gbps}
    assert runs_words(link64, fabric, {"FC": "Brocade G630"}) == " (runs at 32Gb on the project's Brocade G630)"
    assert runs_words(CAT.get("nvme-fc-32g", LinkType), fabric, {"FC": "Brocade G630"}) == ""
    assert runs_words(link64, {"Ethernet": 10}, {"Ethernet": "x"}) == ""  # another medium's switch


def test_the_rows_of_a_g630_project_say_32g_and_a_note_says_why():
    project = load_any(examples_dir() / "a800-oracle-slob-nvmefc.toml")
    assert fabric_speeds(project.scenario, CAT) == {"FC": 32}
    result = size(project)
    rows = [c.summary for c in result.candidates if c.deployment == "on-prem"]
    fast = [r for r in rows if "over 64Gb FC" in r]
    assert fast and all("over 64Gb FC (runs at 32Gb on the project's Brocade G630)" in r for r in fast)
    (note,) = [n for n in result.notes if "have 32Gb ports" in n]
    assert note.startswith("the project's FC switches (Brocade G630) have 32Gb ports: a design whose FC ports are "
                           "faster (up to 64Gb) runs them at 32Gb there")


def test_the_rows_of_a_g720_project_keep_64g_and_no_note():
    project = load_any(examples_dir() / "aff-c80-qlc-vmware-nvmefc64.toml")
    assert fabric_speeds(project.scenario, CAT) == {"FC": 64}
    result = size(project)
    assert [c for c in result.candidates if c.summary.endswith("NVMe/FC over 64Gb FC")]
    assert not [c for c in result.candidates if "runs at" in c.summary]
    assert not [n for n in result.notes if "FC switches" in n]
