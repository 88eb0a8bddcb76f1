"""The import wizard's installed-controller field (issue 31, item 6): preselected from the model the ONTAP data
names, or chosen by the user; the workloads page shows the installed design's predicted latency beside the
measured one, the same figures ``storplan import-env`` prints; on a project without a storage system the installed
design is what the import brings in."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from app.cli import main
from models.store import load_project_file

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
POLLS = [SAMPLES / "ontap" / "harvest-keyperf-volume-poll-1.json",
         SAMPLES / "ontap" / "harvest-keyperf-volume-poll-2.json"]
LINE = re.compile(r"at [\d,]+ IOPS measured [\d.]+ ms, predicted [\d.]+ ms \(error [+-][\d.]+%\)")


def _nodes(tmp_path: Path, model: str) -> Path:
    """A REST /api/cluster/nodes answer naming ``model`` (the layout of the sample's REST answers)."""
    path = tmp_path / "nodes.json"
    path.write_text(json.dumps({"records": [{"uuid": "1", "name": "n1", "model": model}], "num_records": 1}))
    return path


def _to_workloads_page(wizard, files: list[Path]):
    wizard.add_files(files)
    assert wizard.runner.wait(30)
    wizard.next()
    wizard.next()
    page = wizard.grouping_page
    assert wizard.currentPage() is page
    assert wizard.runner.wait(60)
    return page


def test_the_named_model_is_preselected_and_the_installed_design_is_imported(window, qtbot, tmp_path,
                                                                             capsys) -> None:
    files = [*POLLS, _nodes(tmp_path, "AFF-A400")]
    out = tmp_path / "cli.storplan"
    assert main(["import-env", *map(str, files), "-o", str(out)]) == 0
    cli_lines = LINE.findall(capsys.readouterr().out)
    assert len(cli_lines) == 1
    cli = load_project_file(out).project
    window.act_import_env.trigger()
    wizard = window._import_wizard
    page = _to_workloads_page(wizard, files)
    assert page.installed.currentData() == "netapp-aff-a400"
    assert page.installed.currentText() == "NetApp AFF A400 HA pair"
    shown = page.today.text()
    assert shown.startswith("Your system today: NetApp AFF A400 HA pair")
    assert LINE.findall(shown) == cli_lines  # the figures import-env prints
    assert page.today.textFormat() == page.notes.textFormat()  # plain text
    shots = os.environ.get("STORPLAN_SHOTS")
    if shots:
        wizard.grab().save(str(Path(shots) / "import_wizard_installed.png"))
    wizard.next()
    assert wizard.finish_page.isComplete()
    wizard.accept()
    got = window.document.project.scenario
    assert [n.catalog_id for n in got.nodes if n.kind == "controller"] == ["netapp-aff-a400"]
    assert sorted((n.id, n.catalog_id) for n in got.nodes) == sorted((n.id, n.catalog_id) for n in cli.scenario.nodes)
    assert [(w.target, w.target_iops) for w in got.workloads] == [(w.target, w.target_iops)
                                                                   for w in cli.scenario.workloads]


def test_choosing_a_controller_shows_its_prediction_and_leaves_the_design(example_window, qtbot, tmp_path,
                                                                          capsys) -> None:
    window = example_window
    before = [n.catalog_id for n in window.document.project.scenario.nodes if n.kind == "controller"]
    window.act_import_env.trigger()
    wizard = window._import_wizard
    page = _to_workloads_page(wizard, POLLS)  # no model in the data
    assert page.installed.currentData() == "" and page.installed.currentText() == "Not known"
    assert page.today.text() == ""
    page.installed.setCurrentIndex(page.installed.findData("netapp-aff-a70"))
    assert wizard.runner.wait(60)
    shown = page.today.text()
    assert shown.startswith("Your system today: NetApp AFF A70 HA pair")
    assert main(["import-env", *map(str, POLLS), "-o", str(tmp_path / "p.toml"), "--installed", "netapp-aff-a70"]) == 0
    assert LINE.findall(shown) == LINE.findall(capsys.readouterr().out) and LINE.findall(shown)
    assert "drives not given" in shown
    wizard.next()
    wizard.accept()
    after = [n.catalog_id for n in window.document.project.scenario.nodes if n.kind == "controller"]
    assert after == before  # the scenario's own storage system serves the import; the comparison is shown only
