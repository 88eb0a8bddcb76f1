"""A link cabled to a slower switch says the speed it runs at (review 57, C80 item 1): the design check warns
(GUI Problems, the report, the CLI) citing the switch's speed source, the bill of materials and the report's
topology say "runs at 32Gb", and a link at its type's speed says nothing more."""

from __future__ import annotations

import pytest

from app.report.fonts import register_fonts
from app.report.graphics import topology_drawing
from models.catalog import LinkType, Switch, bundled_catalog
from models.evaluate import evaluate
from models.present import bill_of_materials, link_label
from models.problems import find_problems
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
C80 = "aff-c80-qlc-vmware-nvmefc64.toml"


def _on(switch_id: str, name: str = C80):
    scenario = load_any(examples_dir() / name).scenario
    nodes = [n.model_copy(update={"catalog_id": switch_id, "label": ""}) if n.kind == "switch" else n
             for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


def _strings(drawing) -> list[str]:
    out = []
    for item in getattr(drawing, "contents", []):
        if hasattr(item, "text"):
            out.append(item.text)
        out += _strings(item)
    return out


def test_a_64g_target_link_on_a_32g_switch_is_a_warning_citing_the_switch():
    scenario = _on("brocade-g630")
    g630, link64 = CAT.get("brocade-g630", Switch), CAT.get("nvme-fc-64g", LinkType)
    runs_mbps = link64.payload_mbps * g630.speed_gbps / link64.speed_gbps  # independent: 6,400 x 32 / 64
    assert runs_mbps == 3200
    (warning,) = [p for p in find_problems(scenario, CAT) if p.node_id == "l-targets"]
    assert warning.severity == "warning" and warning.field == "link_type"
    assert "8 x 64Gb NVMe/FC target ports on the Brocade G630, whose ports are 32Gb" in warning.message
    assert "these links run at 32Gb (3,200 MB/s per port, not 6,400)" in warning.message
    assert warning.sources == g630.provenance["speed_gbps"].source
    # the evaluation carries it (the GUI's Problems, the report's Problems table and the CLI read it there)
    project = load_any(examples_dir() / C80)
    project = project.model_copy(update={"scenarios": [scenario]})
    assert warning in evaluate(project).problems
    # the 32Gb host links on the same switch run at their own speed: no warning
    assert not [p for p in find_problems(scenario, CAT) if p.node_id == "l-hosts"]


def test_the_bom_and_the_topology_say_the_speed_the_link_runs_at():
    scenario = _on("brocade-g630")
    rows = {r.catalog_id: r for r in bill_of_materials(scenario, CAT) if r.category == "Link ports"}
    assert rows["nvme-fc-64g"].figures == ("64Gb port, 6,400 MB/s per port; runs at 32Gb (3,200 MB/s) on the "
                                           "Brocade G630")
    assert rows["nvme-fc-32g"].figures == "3,200 MB/s per port"
    register_fonts()
    texts = _strings(topology_drawing(scenario, CAT, "TiB", 500, 400)[0])
    assert "64Gb NVMe/FC \u00d78, runs at 32Gb" in " ".join(texts), texts  # the label wraps after the type
    assert link_label(CAT, "nvme-fc-32g", 16) == "32Gb NVMe/FC \u00d716"


@pytest.mark.parametrize("switch_id", ["brocade-g720"])
def test_a_64g_switch_runs_the_link_at_64g_and_says_nothing(switch_id):
    scenario = _on(switch_id)
    assert not find_problems(scenario, CAT)
    rows = {r.catalog_id: r for r in bill_of_materials(scenario, CAT) if r.category == "Link ports"}
    assert rows["nvme-fc-64g"].figures == "6,400 MB/s per port"


def test_the_cli_prints_the_warning_with_the_switch_source(tmp_path, capsys):
    from app.cli import main

    text = (examples_dir() / C80).read_text(encoding="utf-8").replace("brocade-g720", "brocade-g630").replace(
        'label = "Brocade G720"', 'label = "Brocade G630"')
    path = tmp_path / "c80-g630.toml"
    path.write_text(text, encoding="utf-8")
    main(["evaluate", str(path)])
    out = capsys.readouterr().out
    assert ("[warning] link Brocade G630 \u2013 AFF C80 HA pair: 8 x 64Gb NVMe/FC target ports on the Brocade G630, "
            "whose ports are 32Gb: these links run at 32Gb (3,200 MB/s per port, not 6,400)") in out
    assert 'sources: NetApp report "NetApp AFF A800 Performance with Oracle Database" (2019)' in out
