"""Review 56 (design canvas, findings 5, 6 and 11): what the Problems list, the CLI and the JSON say about a design.

* Two controllers of one model linked to one shelf are named as the canvas names them ("#1", "#2"), never by their
  ids ('controller-1'), and the one without drives is told apart from the other.
* A drive limit broken is one sentence naming both limits; the long citations (and never a documentation source
  file's name) are the problem's ``sources``, shown apart (tooltip, JSON, report's sources list).
* vSAN ESA with RAID-5 on too few hosts names the scheme the capacity step applies (adaptive 2+1) and its minimum
  (3 hosts), not OSA's 3+1.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from models.capacity import rules
from models.evaluate import evaluate
from models.present.citations import customer_citation
from models.problems import find_problems
from models.project.model import ControllerNode, HciClusterNode, Link, Project, Scenario, ShelfNode
from models.store import default_catalog

CAT = default_catalog()
A400 = "NetApp AFF A400 HA pair"
NS224 = "NetApp NS224 (24 x NVMe)"


def _a400s_sharing_a_shelf() -> Scenario:
    """Two AFF A400s (labelled alike, as the canvas labels a dropped model) linked to one NS224 (review's repro)."""
    return Scenario(name="Base", nodes=[
        ControllerNode(id="controller-1", catalog_id="netapp-aff-a400", label=A400),
        ControllerNode(id="controller-2", catalog_id="netapp-aff-a400", label=A400, x=300),
        ShelfNode(id="shelf-1", catalog_id="netapp-ns224", label=NS224, drive="netapp-nvme-ssd-3.84tb-tlc",
                  drive_count=24, x=600),
    ], links=[Link(id="link-1", source="controller-1", target="shelf-1", link_type="pcie-nvme", ports=1),
              Link(id="link-2", source="controller-2", target="shelf-1", link_type="pcie-nvme", ports=1)])


def _a400_with(drives: int) -> Scenario:
    return Scenario(name="Base", nodes=[
        ControllerNode(id="controller-1", catalog_id="netapp-aff-a400", label=A400),
        ShelfNode(id="shelf-1", catalog_id="netapp-ns224", label=NS224, drive="netapp-nvme-ssd-3.84tb-tlc",
                  drive_count=drives, x=300),
    ], links=[Link(id="link-1", source="controller-1", target="shelf-1", link_type="pcie-nvme", ports=1)])


# --- 5. names, never ids, and two controllers of one name told apart --------------------------------------------


def test_a_shelf_two_controllers_reach_names_them_as_the_canvas_does():
    evaluation = evaluate(Project(scenarios=[_a400s_sharing_a_shelf()]))
    messages = [p.message for p in evaluation.problems]
    shared = [m for m in messages if "is linked to controllers" in m]
    assert shared == [f"shelf '{NS224}' is linked to controllers '{A400} #1' and '{A400} #2'; its drives are "
                      f"counted for '{A400} #1' only."], messages
    # the controller without drives is the second one, and the message says so
    assert f"controller '{A400} #2': no drives are linked to this controller (link shelves with drives to it)." \
        in messages, messages
    assert not any(f"controller '{A400}':" in m for m in messages), messages  # never the ambiguous name
    for node_id in ("controller-1", "controller-2", "shelf-1"):
        assert not any(node_id in m for m in messages), (node_id, messages)
    # the capacity results name them alike (the Capacity tab's selector and captions)
    assert [s.system_label for s in evaluation.capacity.systems] == [f"{A400} #1", f"{A400} #2"]


def test_a_lone_controller_keeps_its_own_name():
    evaluation = evaluate(Project(scenarios=[_a400_with(24)]))
    assert [s.system_label for s in evaluation.capacity.systems] == [A400]


# --- 6. a drive limit: one sentence, its sources apart, no file names ------------------------------------------

LIMIT = (f"{A400}: 480 drives exceed {A400}'s maximum of 48 per HA pair with direct-attached shelves (480 with "
         "switch-attached shelves)")


def test_the_a400_drive_limit_is_one_sentence_with_its_sources_apart():
    # published: two NS224 shelves direct-attached (NetApp, 'Cable shelf to AFF A400 or AFF C400': "one or two
    # shelves") x 24 bays = 48; switch-attached: 'Max Raw Capacity: 14.6880 PB' per HA pair / the largest drive,
    # 30.6 TB = 480 drives
    assert 2 * 24 == 48 and round(14.6880e15 / 30.6e12) == 480
    problems = [p for p in find_problems(_a400_with(480), CAT) if "drives exceed" in p.message]
    assert [p.message for p in problems] == [LIMIT]
    sources = problems[0].sources
    assert "cable-aff-systems-hot-add-shelf.html" in sources and "a400/overview" in sources
    cited = customer_citation(sources)
    assert ".adoc" not in cited and "NetAppDocs" not in cited
    assert "docs.netapp.com/us-en/ontap-systems/a400/overview.html" in cited
    # the capacity engine's own words for the same limit: the same sentence, no sources
    evaluation = evaluate(Project(scenarios=[_a400_with(480)]))
    engine = [m for s in evaluation.capacity.systems for m in s.problems if "drives exceed" in m and "maximum" in m]
    assert engine == [f"controller '{A400}': 480 drives exceed {A400}'s maximum of 48 per HA pair with "
                      "direct-attached shelves (480 with switch-attached shelves)."]


def test_the_cli_prints_the_sentence_and_cites_its_sources_without_file_names(tmp_path):
    from models.project import dumps

    path = tmp_path / "limit.toml"
    path.write_text(dumps(Project(scenarios=[_a400_with(480)])), encoding="utf-8")
    text = subprocess.run([sys.executable, "-m", "app", "evaluate", str(path)], capture_output=True, text=True,
                          timeout=120).stdout
    assert f"[error] {LIMIT}\n" in text
    assert ".adoc" not in text and "NetAppDocs" not in text
    assert "sources: drive limit per HA pair:" in text
    data = json.loads(subprocess.run([sys.executable, "-m", "app", "evaluate", "--json", str(path)],
                                     capture_output=True, text=True, timeout=120).stdout)
    limit = next(p for p in data["problems"] if "drives exceed" in p["message"])
    assert limit["message"] == LIMIT
    assert ".adoc" not in limit["sources"] and "docs.netapp.com/us-en/ontap-systems/a400/overview.html" in \
        limit["sources"]


def test_the_report_lists_the_sentence_and_points_to_its_sources():
    from app.report import render_report_bytes

    pytest.importorskip("pypdf")
    from io import BytesIO

    from pypdf import PdfReader

    project = Project(scenarios=[_a400_with(480)])
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None)
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in PdfReader(BytesIO(data)).pages)
    assert "480 drives exceed NetApp AFF A400 HA pair's maximum of 48 per HA pair" in text
    assert "(sources: the record's limits in 'Catalog and preset numbers used by this scenario'" in text
    assert ".adoc" not in text


# --- 11. vSAN ESA RAID-5 on too few hosts: the scheme applied ------------------------------------------------


def _vsan(hosts: int, architecture: str) -> Scenario:
    catalog_id = "vsan-esa-readynode-af8-100g" if architecture == "esa" else "vsan-8-osa-allflash-host"
    return Scenario(name="Base", nodes=[HciClusterNode(
        id="hci-1", catalog_id=catalog_id, hosts=hosts, disk_groups_per_host=1, capacity_drives_per_group=6,
        policy="ftt1-raid5", architecture=architecture)])


def test_vsan_esa_raid5_on_two_hosts_names_the_2_plus_1_scheme_and_its_three_hosts():
    scenario = _vsan(2, "esa")
    errors = [p for p in find_problems(scenario, CAT) if p.field == "policy"]
    assert len(errors) == 1
    message = errors[0].message
    assert "RAID-5 (2+1)" in message and "needs at least 3 hosts" in message and "the cluster has 2" in message
    assert "3+1" not in message  # OSA's scheme, which a 2-host ESA cluster never uses
    # VMware's published adaptive RAID-5: 2+1 on 3-5 hosts, 4+1 on 6 or more
    assert "'RAID-5, 2+1, 3-5 hosts'" in errors[0].sources and "'RAID-5, 4+1, 6 hosts or more'" in errors[0].sources
    assert errors[0].sources == rules.VSAN_ESA_RAID5_HOSTS_DOCS
    # the capacity step applies the same scheme the message names
    capacity = evaluate(Project(scenarios=[scenario])).capacity.systems[0]
    assert any("RAID-5 (2+1)" in step.name for step in capacity.steps)
    assert not any("public_facts" in m for m in capacity.problems if "needs at least" in m)


def test_vsan_osa_raid5_still_needs_four_hosts_for_3_plus_1():
    messages = [p.message for p in find_problems(_vsan(3, "osa"), CAT) if p.field == "policy"]
    assert len(messages) == 1 and "RAID5 (3+1)" in messages[0] and "needs at least 4 hosts" in messages[0]
