"""Catalog facts checked against public vendor pages (REVIEW57, revcat57 items 4, 5, 7, 9-12): drives, shelves,
E-Series, cloud VMs and managed services. Each test fails on the catalog / code before the fix.

Published figures used (read in NetApp's documentation repositories, NetAppDocs/ontap-systems, /ontap,
/ontap-system-manager-classic, /e-series, /ontap-technical-reports, and AWS's API reference):

* ASA A20 'Max Raw Capacity: 0.7344 PB', ASA A30 '1.1016 PB', both '2U chassis with 2 HA controllers and 24 drive
  slots'; 'a maximum of one NS224 shelf to an ASA A20', 'up to two NS224 shelves to an ASA A30 or A50';
  AFF A150 'Max Raw Capacity: 0.5472 PB' (24 slots + two 24-drive shelves = 72 drives).
* ONTAP 'Considerations for sizing RAID groups', HDD: 'The recommended range of RAID group disk numbers is between
  12 and 20'; System Manager 9.6/9.7: FSAS or MSATA of 10 TB or more: 'RAID-TEC is the only available RAID type'.
  TR-3838 (transcribed in github.com/EricSherrill/nusc arrays.js): X316A 6 TB NL-SAS RAID-DP 14/14, X477A 4 TB 14/20.
* AWS CreateFileSystemOntapConfiguration, HAPairs: 'Block storage protocol support (iSCSI and NVMe over TCP) ...'.
"""

from __future__ import annotations

import pytest

from models.capacity import rules
from models.catalog import CloudVm, Controller, Drive, ManagedService, Shelf, bundled_catalog
from models.present.citations import customer_citation
from models.problems import find_problems
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()


# --- item 4: the 7.6 TB and 15.3 TB NVMe SSDs: derived from AFF / ASA pages, the AFX page at its real address ------


@pytest.mark.parametrize("drive_id", ["netapp-nvme-ssd-7.68tb-tlc", "netapp-nvme-ssd-15.3tb-tlc"])
def test_tlc_nvme_sizes_are_derived_and_cite_the_afx_page_at_its_address(drive_id):
    p = CAT.get(drive_id, Drive).provenance["marketed_bytes"]
    assert p.kind == "derived"  # no AFF / ASA page names the drive: read from raw capacities, not quoted
    assert "afx-overview" not in p.source
    cited = customer_citation(p.source)
    assert "docs.netapp.com/us-en/ontap-technical-reports/afx/afx-hardware.html" in cited
    assert "different product" in cited


def test_the_capacity_points_match_netapps_raw_capacities():
    # independent arithmetic on the published raw capacities: whole drive counts at the catalog's drive sizes
    d15 = CAT.get("netapp-nvme-ssd-15.3tb-tlc", Drive).marketed_bytes
    assert 0.7344e15 / d15 == pytest.approx(48) and 1.1016e15 / d15 == pytest.approx(72)
    assert 0.5472e15 / 7.6e12 == pytest.approx(72)  # the A150's 72 drives of NetApp's "7.6TB"
    assert CAT.get("netapp-nvme-ssd-7.68tb-tlc", Drive).marketed_bytes == 7_680_000_000_000  # unchanged
    assert "a150/overview.html" in CAT.get("netapp-nvme-ssd-7.68tb-tlc", Drive).provenance["marketed_bytes"].source
    assert "asa-a20-key-specifications.html" in CAT.get("netapp-nvme-ssd-15.3tb-tlc",
                                                        Drive).provenance["marketed_bytes"].source


# --- item 12: NS224 bays derived from NetApp pages, not "as remembered" ----------------------------------------------


def test_ns224_bays_are_derived_from_netapp_pages():
    shelf = CAT.get("netapp-ns224", Shelf)
    p = shelf.provenance["bays"]
    assert shelf.bays == 24 and p.kind == "derived"
    cited = customer_citation(p.source)
    assert "unconfirmed" not in cited and "remember" not in p.source
    assert "ns224/cable-asa-systems-hot-add-shelf.html" in cited
    # ASA A20: 24 slots + one NS224 = 48 drives of 15.3 TB; ASA A30: 24 + two NS224 = 72
    assert 0.7344e15 / 15.3e12 - 24 == pytest.approx(1 * shelf.bays)
    assert 1.1016e15 / 15.3e12 - 24 == pytest.approx(2 * shelf.bays)


# --- item 5: an assumed ceiling never reads as the vendor's figure -

OLD_GCNV = ("a regular volume's throughput ceiling of about 4,500 MiB/s (4,718.592 MB/s); Google Cloud NetApp Volumes "
            "docs, 'Volume performance sizing' (docs.cloud.google.com/netapp/volumes/docs/plan-and-prepare/"
            "volume-performance-sizing) has a section on the Standard, Premium and Extreme maximum, but the stored "
            "copies found by search stop before its figure, and no other stored page gives it: the value is the "
            "planner's assumption (the same order as Azure NetApp Files' regular volumes), to be checked")


def test_customer_citation_keeps_the_assumption_after_a_dropped_search_note():
    cited = customer_citation(OLD_GCNV)
    assert "search" not in cited and "stored" not in cited
    assert "the value is the planner's assumption" in cited and "to be checked" in cited


def test_customer_citation_keeps_not_published_and_assumed_sentences():
    cited = customer_citation("E2800 cache memory is not published in the sources read (searched as for cores); "
                              "16 GiB per controller")
    assert cited == "E2800 cache memory is not published in the documents consulted; 16 GiB per controller"
    cited = customer_citation("draws a few hundred watts; assumed 350 W typical. Cisco's data sheet figure was not "
                              "found in a public copy")
    assert "assumed 350 W typical" in cited and "not found" not in cited


@pytest.mark.parametrize("sid", ["gcnv-standard", "gcnv-premium", "gcnv-extreme"])
def test_gcnv_volume_ceiling_is_said_to_be_assumed_with_googles_page(sid):
    p = CAT.get(sid, ManagedService).provenance["max_throughput_mbps"]
    assert p.kind == "assumed"
    cited = customer_citation(p.source)
    # assumed, said so in words a customer reads: no "to be checked" (review 57 PDF #11)
    assert cited.startswith("Google's published maximum was not available to StorPlan") and "is assumed" in cited
    assert "to be checked" not in cited and "search" not in cited
    assert "cloud.google.com/netapp/volumes/docs/performance/expected-performance" in cited
    assert "'Maximum volume throughput and IOPS'" in cited and "stored" not in cited


# --- item 7: the EF600 / EF300 host interfaces StorPlan does not model, said on the record -


@pytest.mark.parametrize("cid", ["netapp-ef600", "netapp-ef300"])
def test_eseries_protocols_say_roce_and_infiniband_are_not_modelled(cid):
    rec = CAT.get(cid, Controller)
    assert set(rec.protocols) == {"FCP", "NVMe/FC", "iSCSI"}
    cited = customer_citation(rec.provenance["protocols"].source)
    assert "'100Gb NVMe / RoCE'" in cited and "are not modelled" in cited and "InfiniBand" in cited
    assert "learn-hardware-concept.html" in cited
    assert "not modelled" in customer_citation(rec.provenance["ethernet_port_speed_gbps"].source)
    if cid == "netapp-ef600":
        assert "'200Gb NVMe / RoCE'" in cited


# --- item 9: NL-SAS RAID groups, and RAID DP on capacity HDD of 10 TB or more -----------------------------------------

NLSAS = ["netapp-8tb-nlsas-7k2", "netapp-12tb-nlsas-7k2", "netapp-16tb-nlsas-7k2", "netapp-18tb-nlsas-7k2",
         "netapp-22tb-nlsas-7k2"]


@pytest.mark.parametrize("drive_id", NLSAS)
def test_nlsas_raid_group_sizes_cite_ontaps_hdd_range_and_tr3838(drive_id):
    drive = CAT.get(drive_id, Drive)
    dp = drive.raid_group_sizes["raid_dp"]
    # TR-3838's largest capacity HDD (X316A 6 TB): RAID-DP default 14, max 14; within ONTAP's HDD range 12-20
    assert (dp.default, dp.max) == (14, 14) and 12 <= dp.max <= 20
    cited = customer_citation(drive.provenance["raid_group_sizes"].source)
    assert "'The recommended range of RAID group disk numbers is between 12 and 20'" in cited
    tec_only = drive.marketed_bytes >= 10 * 10**12
    assert rules.ontap_raid_tec_only(drive) is tec_only
    assert ("'If the disk type of the aggregate disks is FSAS or MSATA, and the disk size is equal to or larger than "
            "10 TB, then RAID-TEC is the only available RAID type'" in cited) is tec_only
    assert rules.ontap_default_raid(drive) == "raid_tec"  # ONTAP's default from 6 TB (unchanged)


def test_tec_only_is_capacity_hdd_of_10_tb_or_more_only():
    sas = next(d for d in CAT.of_kind(Drive) if d.media == "HDD" and (d.rpm or 0) >= 10_000)
    ssd = CAT.get("netapp-nvme-ssd-15.3tb-tlc", Drive)
    assert not rules.ontap_raid_tec_only(sas) and not rules.ontap_raid_tec_only(ssd)
    assert rules.ONTAP_TEC_ONLY_BYTES == 10 * 10**12


def _fas70(raid_type: str):
    project = load_any(examples_dir() / "fas70-ds460c-nlsas-nfs.toml")
    scenario = project.scenario
    nodes = [n.model_copy(update={"raid_type": raid_type}) if n.kind == "controller" else n for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


def test_raid_dp_on_16tb_nlsas_is_warned_naming_the_controller_the_drive_and_the_source():
    assert not [p for p in find_problems(_fas70("raid_tec"), CAT) if "RAID DP is not available" in p.message]
    found = [p for p in find_problems(_fas70("raid_dp"), CAT) if "RAID DP is not available" in p.message]
    assert len(found) == 1, found
    p = found[0]
    # a warning, not an error: System Manager refuses RAID DP for a new aggregate of these drives, but its own pages
    # show RAID DP groups taking them ('you can add them only to Specific RAID group'); the figures stay RAID DP's
    assert p.severity == "warning" and p.field == "raid_type"
    assert "System Manager" in p.message and "NetApp FAS70" in p.message and "NetApp 16TB NL-SAS 7.2K HDD" in p.message
    assert "10 TB or more" in p.message and "choose RAID-TEC" in p.message
    assert ("docs.netapp.com/us-en/ontap-system-manager-classic/online-help-96-97/"
            "task_changing_raid_configuration_when_creating_aggregate.html") in customer_citation(p.sources)


# --- item 10: the n2-standard-4's egress: derived, and says it is not Google's N2 figure ------------------------------


def test_n2_standard_4_network_says_it_is_not_googles_n2_figure():
    vm = CAT.get("gcp-n2-standard-4", CloudVm)
    p = vm.provenance["network_mbps"]
    assert vm.network_mbps == 2 * 4 * 1_000  # 2 Gbps x 4 vCPUs, in the field's unit (unchanged)
    assert p.kind == "derived"
    cited = customer_citation(p.source)
    assert "not Google's N2 figure" in cited and "cloud.google.com/compute/docs/general-purpose-machines" in cited
    assert "may understate" in cited


# --- item 11: FSx for ONTAP second generation Multi-AZ takes NVMe/TCP; its sources give their addresses -


def test_fsx_multi_az_2_offers_nvme_tcp_and_cites_aws_addresses():
    rec = CAT.get("aws-fsx-ontap-multi-az-2", ManagedService)
    assert "NVMe/TCP" in rec.protocols and "iSCSI" in rec.protocols
    cited = customer_citation(rec.provenance["protocols"].source)
    assert "'Block storage protocol support (iSCSI and NVMe over TCP)" in cited
    for field, p in rec.provenance.items():
        assert "docs.aws.amazon.com/fsx/latest/" in p.source, field
