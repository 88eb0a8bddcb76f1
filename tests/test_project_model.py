"""The project model, its TOML form, presets and topology problems."""

import pytest

from models.catalog import bundled_catalog
from models.problems import find_problems
from models.project import ProjectFormatError, dumps, load, loads
from models.project.factory import new_node, next_id
from models.project.model import ControllerNode, Link, ShelfNode
from models.resources import examples_dir
from models.topology import link_problem
from models.workloads import PresetError, bundled_presets, load_presets

EXAMPLES = sorted(examples_dir().glob("*.toml"))


def test_there_is_one_example_per_seed_configuration():
    names = {p.stem for p in EXAMPLES}
    for expected in (
        "aff8080-sqlserver-tpce",
        "a800-oracle-slob-fcp",
        "a800-oracle-slob-nvmefc",
        "vsan-sqlserver-raid1",
        "vsan-sqlserver-raid5",
        "ef550-sas-analytics",
        "spinning192-sas-analytics",
        "cvo-azure-ds3-single-oltp",
        "cvo-azure-ds4-single-oltp",
        "cvo-azure-ds4-ha-oltp",
        "cvo-azure-ds14-single-oltp",
        "cvo-azure-ds14-ha-oltp",
    ):
        assert expected in names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_load_round_trip_and_have_no_errors(path):
    project = load(path)
    assert loads(dumps(project)) == project
    problems = find_problems(project.scenario, bundled_catalog())
    assert [p for p in problems if p.severity == "error"] == []


BASE = """
format = "storplan-project"
format_version = 1
[project]
name = "t"
[[node]]
id = "c1"
kind = "controller"
catalog_id = "netapp-aff8080a-ex"
[[node]]
id = "s1"
kind = "shelf"
catalog_id = "netapp-ds2246"
drive = "netapp-x447a-800gb-ssd"
drive_count = 24
[[link]]
id = "l1"
source = "c1"
target = "s1"
link_type = "sas-6g"
"""


def test_negative_drive_count_names_the_node_and_field():
    with pytest.raises(ProjectFormatError) as info:
        loads(BASE.replace("drive_count = 24", "drive_count = -3"), "p.toml")
    message = str(info.value)
    assert "p.toml" in message and "node 's1'" in message and "drive_count" in message


def test_malformed_toml_names_line():
    with pytest.raises(ProjectFormatError) as info:
        loads(BASE + "\n[[node]\nid = 'x'\n", "bad.toml")
    assert "bad.toml" in str(info.value) and "line" in str(info.value)


def test_newer_format_version_is_refused():
    with pytest.raises(ProjectFormatError, match="newer"):
        loads(BASE.replace("format_version = 1", "format_version = 99"))


def test_not_a_project():
    with pytest.raises(ProjectFormatError, match="not a StorPlan project"):
        loads('format = "something-else"\n')


def _problems(text):
    return [p.message for p in find_problems(loads(text).scenario, bundled_catalog())]


def test_valid_base_has_no_errors():
    assert _problems(BASE) == []


def test_missing_catalog_id_is_a_problem_naming_the_node():
    messages = _problems(BASE.replace('drive = "netapp-x447a-800gb-ssd"', 'drive = "no-such-drive"'))
    # the shelf has no label: it is named by its catalog model, as on the canvas
    assert messages == ["NetApp DS2246 (24 x 2.5-inch SAS, IOM6): drive: unknown drive catalog id 'no-such-drive'"]


def test_raid_group_larger_than_drives():
    text = BASE.replace('catalog_id = "netapp-aff8080a-ex"', 'catalog_id = "netapp-aff8080a-ex"\nraid_group_size = 28')
    messages = _problems(text)
    assert any("RAID group size 28" in m for m in messages)


def test_shelf_without_controller_and_wrong_drive_interface():
    text = BASE.replace("[[link]]", "[[unused]]").split("[[unused]]")[0]
    text = text.replace('drive = "netapp-x447a-800gb-ssd"', 'drive = "netapp-1500gb-nvme-ssd-a800"')
    messages = _problems(text)
    assert any("not connected to a controller" in m for m in messages)
    assert any("cannot take NVMe drive" in m for m in messages)


def test_ha_pair_with_one_node():
    text = BASE.replace('catalog_id = "netapp-aff8080a-ex"', 'catalog_id = "netapp-aff8080a-ex"\nnodes = 1')
    assert any("HA pair but has one node" in m for m in _problems(text))


def test_protocol_the_controller_does_not_speak_is_refused():
    project = loads(BASE)
    scenario = project.scenario
    host = new_node(bundled_catalog().get("fujitsu-primergy-rx300-s7"), "h1", bundled_catalog())
    scenario = scenario.model_copy(update={"nodes": [*scenario.nodes, host]})
    reason = link_problem(scenario, bundled_catalog(), "h1", "c1", "nvme-fc-32g")
    assert reason is not None and "NVMe/FC" in reason
    assert link_problem(scenario, bundled_catalog(), "h1", "c1", "fc-16g") is None
    assert "back-end" in link_problem(scenario, bundled_catalog(), "h1", "s1", "fc-16g")


def test_factory_defaults_and_ids():
    catalog = bundled_catalog()
    project = loads(BASE)
    shelf = new_node(catalog.get("netapp-ds2246"), next_id(project.scenario, "shelf"), catalog)
    assert isinstance(shelf, ShelfNode) and shelf.drive_count == 24 and shelf.id == "shelf-1"
    controller = new_node(catalog.get("netapp-ef550"), "c2", catalog)
    assert isinstance(controller, ControllerNode) and controller.raid_type == "ddp"
    with pytest.raises(ValueError, match="drop a drive on a shelf"):
        new_node(catalog.get("netapp-x447a-800gb-ssd"), "d", catalog)


def test_link_to_itself_is_invalid():
    with pytest.raises(ValueError):
        Link(id="l", source="a", target="a", link_type="fc-8g")


def test_presets_cover_the_seed_workloads_with_sources():
    presets = bundled_presets()
    assert {"tpce-oltp", "slob-select", "slob-75-25", "oltp-8k-70-30", "streaming-read-64k", "streaming-write-64k",
            "analytics-16k-50-50", "sas-mixed-analytics"} <= set(presets)
    tpce = presets["tpce-oltp"].make("w", "c")
    assert (tpce.block_kib, tpce.read_pct, tpce.random_pct) == (8, 90, 100)
    assert presets["slob-75-25"].make("w", "c").read_pct == 80
    assert presets["sas-mixed-analytics"].make("w", "c").target_mbps == 2500
    for preset in presets.values():
        for field, value in preset.fields.items():
            if isinstance(value, (int, float, dict)) and not isinstance(value, bool):
                assert preset.sources.get(field), (preset.id, field)


def test_preset_without_source_is_refused(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[[preset]]\nid = "x"\nname = "X"\nblock_kib = 8\nread_pct = 50\nrandom_pct = 0\n')
    with pytest.raises(PresetError, match="preset 'x'.*block_kib"):
        load_presets(path)


CUSTOM_DRIVE = """
[[catalog.drive]]
id = "lab-3840gb-ssd"
name = "Lab 3.84TB SAS SSD"
media = "SSD"
interface = "SAS"
marketed_bytes = 3_840_000_000_000
right_sized_bytes = 3_600_000_000_000
read_service_time_us = 150
write_service_time_us = 60
max_read_mbps = 1000
max_write_mbps = 800
[catalog.drive.sources]
marketed_bytes = "vendor datasheet"
right_sized_bytes = "assumed: measured on the lab system"
read_service_time_us = "assumed: typical SAS SSD"
write_service_time_us = "assumed: typical SAS SSD"
max_read_mbps = "vendor datasheet"
max_write_mbps = "vendor datasheet"
"""


def test_project_catalog_record_is_used_by_the_engines():
    from models.evaluate import evaluate

    text = BASE.replace('drive = "netapp-x447a-800gb-ssd"', 'drive = "lab-3840gb-ssd"') + CUSTOM_DRIVE
    evaluation = evaluate(loads(text))
    assert [p for p in evaluation.problems if "lab-3840gb-ssd" in p.message] == []
    assert evaluation.capacity.total.raw_bytes == 24 * 3_840_000_000_000
    assert evaluation.capacity.total.right_sized_bytes == 24 * 3_600_000_000_000


def test_invalid_project_catalog_record_is_reported_with_its_place():
    """A project's own record is held to the bundled catalog's schema when the project is read (so every command
    refuses it alike), the message naming the record and the field."""
    text = BASE + CUSTOM_DRIVE.replace('max_write_mbps = "vendor datasheet"\n', "")
    with pytest.raises(ProjectFormatError) as info:
        loads(text, "t.toml")
    message = str(info.value)
    assert message.startswith("t.toml: catalog: drive 'lab-3840gb-ssd'") and "max_write_mbps" in message


def test_user_catalog_file_adds_records(capsys):
    from app.cli import main
    from models.resources import user_catalog_path

    path = user_catalog_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CUSTOM_DRIVE.replace("catalog.drive", "drive"))
    assert main(["catalog", "drive"]) == 0
    assert "lab-3840gb-ssd" in capsys.readouterr().out
    path.write_text("[[drive]]\nid = 'broken'\n")
    assert main(["catalog", "drive"]) == 0  # a broken user file never stops a command: one warning line
    out, err = capsys.readouterr()
    assert "line 1: drive 'broken'" in err and str(path) in err and len(err.splitlines()) == 1
    assert "lab-3840gb-ssd" not in out and out.strip()  # the bundled drives, without the user's


@pytest.mark.parametrize("drives, flagged", [(10, True), (12, False)])
def test_ontap_needs_the_capacity_engines_minimum_per_node(drives, flagged):
    """RAID DP needs 5 members per ONTAP data aggregate (rules.ONTAP_MIN_DRIVES, as the capacity engine):
    10 drives on an HA pair with 1 spare per node leave 4 per node (flagged), 12 leave 5 (fine)."""
    messages = _problems(BASE.replace("drive_count = 24", f"drive_count = {drives}"))
    hit = [m for m in messages if "RAID DP needs at least 5 drives per node" in m]
    assert bool(hit) is flagged, messages


def test_warnings_a_presales_engineer_must_see():
    """Seed configurations that work but carry a risk are warned about, not refused: the AFF8080 seed cables
    40 ports to a 24-port (licensed) Brocade 6510; the EF550 seed runs RAID 0; the 192-spindle array has no
    hot spares."""
    catalog = bundled_catalog()

    def warnings(name):
        project = load(examples_dir() / f"{name}.toml")
        return [p for p in find_problems(project.scenario, catalog) if p.severity == "warning"]

    (switch,) = warnings("aff8080-sqlserver-tpce")
    assert "40 ports are cabled to this switch" in switch.message and "has 24" in switch.message
    (raid0,) = warnings("ef550-sas-analytics")
    assert "RAID 0 keeps no redundancy" in raid0.message and raid0.field == "raid_type"
    (spares,) = warnings("spinning192-sas-analytics")
    assert "no hot spares" in spares.message and spares.field == "spares_per_node"
    assert warnings("a800-oracle-slob-nvmefc") == []
