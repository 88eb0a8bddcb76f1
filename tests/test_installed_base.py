"""The NetApp AFF installed base a refresh starts from (resources/catalog/ontap_installed_base.toml): the records carry
the NetAppDocs ontap-systems key-specifications figures they cite (memory per HA pair, typical power in BTU/hr,
height, ports, minimum ONTAP), the derived numbers follow from them (watts from BTU/hr, maximum drives from the
maximum raw capacity), what is not published is marked assumed, the C800's profile is derived from the calibrated
A800, and `storplan catalog controller` lists every model."""

from __future__ import annotations

import pytest
from example_eval import assert_renders_report, clean_evaluation

from models.catalog import Controller, Shelf, bundled_catalog
from models.performance.profiles import profile_basis

CAT = bundled_catalog()
BTU_TO_W = 0.29307107

# id, memory GB per HA pair, typical BTU/hr, rack units, (FC ports per HA pair, FC Gb/s), (Ethernet ports, Gb/s),
# minimum ONTAP as published, max raw PB, drive TB dividing it: the key-specifications page of each model
# (NetAppDocs ontap-systems '<model>/overview.adoc').
KEY_SPECS = [
    ("netapp-aff-a150", 64, 1209, 2, (8, 16), (12, 10), "9.10.1", 0.5472, 7.6),
    ("netapp-aff-a250", 128, 2642, 2, (16, 32), (4, 100), "9.8", 1.1016, 15.3),
    ("netapp-aff-c250", 128, 2906, 2, (16, 32), (4, 100), "9.10.1", 1.4736, 30.7),
    ("netapp-aff-a400", 256, 4209, 4, (24, 32), (20, 100), "9.7", 14.6880, 30.6),
    ("netapp-aff-c400", 256, 4209, 4, (40, 32), (24, 100), "9.10.1", 2.9472, 30.7),
    ("netapp-aff-c800", 1280, 6626, 4, (32, 32), (20, 100), "9.10.1", 7.3680, 61.4),
]
MODELS = ["netapp-aff-a150", "netapp-aff-a250", "netapp-aff-a400", "netapp-aff-a700", "netapp-aff-c190",
          "netapp-aff-c250", "netapp-aff-c400", "netapp-aff-c800"]


@pytest.mark.parametrize("cid, memory_pair_gb, btu, ru, fc, eth, first_ontap, max_raw_pb, drive_tb", KEY_SPECS)
def test_key_specifications_and_their_sources(cid, memory_pair_gb, btu, ru, fc, eth, first_ontap, max_raw_pb,
                                              drive_tb):
    rec = CAT.get(cid, Controller)
    model = cid.removeprefix("netapp-aff-")
    assert rec.nodes == 2
    assert rec.memory_gib_per_node * rec.nodes == memory_pair_gb
    assert rec.typical_power_w == pytest.approx(btu * BTU_TO_W, abs=0.05)
    assert rec.rack_units == ru
    assert (rec.fc_ports_per_node * rec.nodes, rec.fc_port_speed_gbps) == fc
    assert (rec.ethernet_ports_per_node * rec.nodes, rec.ethernet_port_speed_gbps) == eth
    assert rec.software_versions[0] == first_ontap and rec.software_versions[-1] == "9.16.1"
    assert rec.default_software == "9.16.1"
    # one rule for NS224 platforms (as the current AFF records): max_drives the direct-attached cabling count, the
    # published maximum raw capacity reached with switch-attached shelves (max_drives_switched)
    limit = rec.max_drives_switched or rec.max_drives
    assert limit == round(max_raw_pb * 1000 / drive_tb)
    assert limit * drive_tb == pytest.approx(max_raw_pb * 1000)  # the published maximum, exactly
    for field in ("memory_gib_per_node", "fc_ports_per_node", "ethernet_ports_per_node", "rack_units"):
        assert rec.kind_of(field) == "sourced", field
        assert f"{model}/overview.adoc" in rec.sources[field], field
    assert f"{btu} BTU/hr" in rec.sources["typical_power_w"]
    assert rec.kind_of("typical_power_w") == "derived"
    limit_field = "max_drives_switched" if rec.max_drives_switched else "max_drives"
    assert rec.kind_of(limit_field) == "derived" and "Max Raw Capacity" in rec.sources[limit_field]
    assert "Minimum ONTAP Version" in rec.sources["software_versions"]
    assert rec.kind_of("cores_per_node") == "assumed" and "searched" in rec.sources["cores_per_node"]
    assert rec.nvram_gib_per_node is None  # not published: left unset rather than guessed


def test_every_model_is_listed_with_its_shelves_and_protocols():
    for cid in MODELS:
        rec = CAT.get(cid, Controller)
        assert rec.family == "ONTAP" and rec.adp
        # NVMe/TCP where the record speaks NVMe/FC (its NVMe target, ONTAP 9.10.1 or later on the node)
        assert ("NVMe/TCP" in rec.protocols) == ("NVMe/FC" in rec.protocols)
        for shelf_id in rec.shelves:
            if shelf_id != "netapp-ds224c":  # the DS224C record is added on another branch
                CAT.get(shelf_id, Shelf)
    # the SAS-only entry systems take the internal SAS bays; the NVMe ones NS224
    assert "netapp-aff-2u24-internal-sas" in CAT.get("netapp-aff-a150", Controller).shelves
    assert CAT.get("netapp-aff-c190", Controller).shelves == ["netapp-aff-2u24-internal-sas"]
    assert "netapp-ns224" in CAT.get("netapp-aff-a400", Controller).shelves
    assert "NVMe/FC" not in CAT.get("netapp-aff-a150", Controller).protocols  # its key specs list no NVMe/FC


def test_catalog_command_lists_them(capsys):
    from app.cli import main

    assert main(["catalog", "controller"]) == 0
    out = capsys.readouterr().out
    for cid in MODELS:
        assert cid in out


def test_a700_and_c190_say_what_is_assumed_and_what_comes_from_their_chassis_siblings():
    a700 = CAT.get("netapp-aff-a700", Controller)
    assert a700.rack_units == 8 and a700.kind_of("rack_units") == "derived"
    assert "a900/overview.adoc" in a700.sources["rack_units"]
    assert a700.kind_of("memory_gib_per_node") == "assumed"
    assert "netapp-ds224c" in a700.shelves and "netapp-ns224" in a700.shelves
    c190 = CAT.get("netapp-aff-c190", Controller)
    assert c190.software_versions[0] == "9.6" and "ONTAP 9.6" in c190.sources["software_versions"]
    assert c190.max_drives == 24 and c190.fc_ports_per_node == 4
    assert c190.kind_of("fc_ports_per_node") == "sourced"


def test_c800_profile_is_derived_from_the_calibrated_a800():
    c800 = CAT.get("netapp-aff-c800", Controller)
    assert c800.profile_from is not None and c800.profile_from.sibling == "netapp-aff-a800"
    assert c800.profile_from.ratio == 1.0
    assert "1280.0000 GB" in c800.sources["profile_from"] and "6626 BTU/hr" in c800.sources["profile_from"]
    basis = profile_basis(c800, None, "FCP", CAT)
    assert basis.kind == "derived" and basis.sibling == "netapp-aff-a800" and basis.ratio == 1.0
    # on NVMe/FC too (ONTAP's rate per core on its 96 cores, 2.4M, caps the rate beside the CPU; NetApp publishes no
    # figure of the C800's own)
    nvme = profile_basis(c800, None, "NVMe/FC", CAT)
    assert nvme.kind == "derived" and nvme.sibling == "netapp-aff-a800" and nvme.ratio == 1.0
    assert c800.peak_iops is None
    # the others have no published comparable figure: they run on the hardware relation
    for cid in set(MODELS) - {"netapp-aff-c800"}:
        rec = CAT.get(cid, Controller)
        assert rec.profile_from is None and not rec.performance
        assert profile_basis(rec, None, "FCP", CAT).kind == "hardware relation only"


def test_the_a400_example_evaluates_without_warnings_and_renders_a_report():
    project, evaluation = clean_evaluation("aff-a400-ns224-oracle-nvmefc.toml")
    wp = evaluation.performance.workloads[0]
    assert wp.profile == "hardware relation only" and wp.protocol == "NVMe/FC"
    assert_renders_report(project, evaluation)


def test_internal_bays_add_no_rack_units_or_power_to_the_footprint():
    """An AFF A150 with its 24 internal SAS bays is one 2U chassis at the A150's typical power (key
    specifications: '2U chassis with 2 HA controllers and 24 drive slots', 'Typical Power: 1209 BTU/hr'); the bays
    add their drives' typical power only (the key specifications do not say whether the chassis figure includes
    them: counted, never left out)."""
    from models.present.bom import footprint
    from models.project import ControllerNode, Scenario, ShelfNode

    scenario = Scenario(name="A150", nodes=[
        ControllerNode(id="a150", catalog_id="netapp-aff-a150", label="A150", x=0.0, y=0.0),
        ShelfNode(id="bays", catalog_id="netapp-aff-2u24-internal-sas", label="bays", x=0.0, y=0.0,
                  drive="netapp-x447a-800gb-ssd", drive_count=24)])
    total = footprint(scenario, CAT)
    assert total.rack_units == 2 and not total.unknown
    drive = CAT.find("netapp-x447a-800gb-ssd")
    assert total.power_w == pytest.approx(1209 * BTU_TO_W + 24 * drive.typical_power_w, abs=0.05)
