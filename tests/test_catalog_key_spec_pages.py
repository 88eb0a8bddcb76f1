"""The current ONTAP controllers against their NetApp key specifications pages (review 57, catalog items 1, 2, 8, 13):
every record's protocols cite the page's 'Storage networking supported' list and say what it lists that is not
sized here (S3, NFS over RDMA); 200 Gbps ports are said to be modelled as 100 GbE; the dual-chassis systems' typical
power (the page's figure beside one 2U chassis) is a derived per-chassis reading, doubled, as the FAS90's and A1K's.

The published values below were read from NetAppDocs/ontap-systems (docs.netapp.com/us-en/ontap-systems), the
pages named, sections 'Storage networking supported', 'Total I/O' and 'System environment specifications'."""

from __future__ import annotations

import pytest

from models.catalog import Controller, bundled_catalog

CAT = bundled_catalog()
BTU_W = 0.29307107

UNIFIED = {"FC", "iSCSI", "NFS v3", "NFS v4.2", "NVMe/FC", "NVMe/TCP", "S3", "SMB 3.1.1"}
RDMA = {"NFSv3/RDMA", "NFSv4/RDMA"}
ASA = {"FC", "iSCSI", "NVMe/FC", "NVMe/TCP"}
FAS2820 = {"FC", "FCoE", "iSCSI", "NFS v3", "NFS v4.1", "NVMe/TCP", "S3", "SMB 3.1.1"}

# id: (page address, items of its 'Storage networking supported' list, 'Ethernet 200 Gbps' ports per HA pair or 0)
PAGES = {
    "netapp-aff-a20": ("a20-30-50/a20-key-specifications.html", UNIFIED, 0),
    "netapp-aff-a30": ("a20-30-50/a30-key-specifications.html", UNIFIED, 0),
    "netapp-aff-a50": ("a20-30-50/a50-key-specifications.html", UNIFIED, 0),
    "netapp-aff-a70": ("a70-90/a70-key-specifications.html", UNIFIED | RDMA, 24),
    "netapp-aff-a90": ("a70-90/a90-key-specifications.html", UNIFIED | RDMA, 24),
    "netapp-aff-a1k": ("a1k/overview.html", UNIFIED | RDMA, 24),
    "netapp-aff-c30": ("c30-60/c30-key-specifications.html", UNIFIED, 0),
    "netapp-aff-c60": ("c30-60/c60-key-specifications.html", UNIFIED, 0),
    "netapp-aff-c80": ("c80/overview.html", UNIFIED | RDMA, 24),
    "netapp-asa-a20": ("asa-r2-key-specifications/asa-a20-key-specifications.html", ASA, 0),
    "netapp-asa-a30": ("asa-r2-key-specifications/asa-a30-key-specifications.html", ASA, 0),
    "netapp-asa-a50": ("asa-r2-key-specifications/asa-a50-key-specifications.html", ASA, 0),
    "netapp-asa-a70": ("asa-r2-key-specifications/asa-a70-key-specifications.html", ASA, 24),
    "netapp-asa-a90": ("asa-r2-key-specifications/asa-a90-key-specifications.html", ASA, 24),
    "netapp-asa-a1k": ("asa-r2-key-specifications/asa-a1k-key-specifications.html", ASA, 24),
    "netapp-fas50": ("fas50/overview.html", UNIFIED, 0),
    "netapp-fas70": ("fas-70-90/fas70-key-specifications.html", UNIFIED, 20),
    "netapp-fas90": ("fas-70-90/fas90-key-specifications.html", UNIFIED, 20),
    "netapp-fas2820": ("fas2800/overview.html", FAS2820, 0),
}
AS_SIZED = {"FC": "FCP", "iSCSI": "iSCSI", "NFS v3": "NFS", "NVMe/FC": "NVMe/FC", "NVMe/TCP": "NVMe/TCP",
            "SMB 3.1.1": "SMB"}


def test_the_table_covers_every_current_ontap_controller():
    current = {e.id for e in CAT if isinstance(e, Controller) and e.family == "ONTAP" and e.lifecycle == "current"}
    assert current == set(PAGES)


@pytest.mark.parametrize("cid", sorted(PAGES))
def test_protocols_cite_the_pages_storage_networking_list(cid):
    """Before review 57 the protocols of 38 controllers had no source ("unstated" in the audit) and the FAS50/70/90
    and FAS2820 lacked the NVMe/TCP their pages list. Each record sizes every block and file protocol its page lists
    and quotes the list; what the page lists and the planner does not size is said in words a customer reads."""
    page, listed, _ = PAGES[cid]
    rec = CAT.get(cid, Controller)
    assert set(rec.protocols) == {AS_SIZED[p] for p in listed if p in AS_SIZED}
    prov = rec.provenance["protocols"]
    assert prov.kind == "sourced"
    assert f"docs.netapp.com/us-en/ontap-systems/{page}" in prov.source
    assert "Storage networking supported" in prov.source
    assert all(f"'{p}'" in prov.source for p in listed)
    assert ("S3 object access" in prov.source and "not sized" in prov.source) == ("S3" in listed)
    assert ("NFS over RDMA is listed but not sized" in prov.source) == bool(listed & RDMA)
    assert ("FCoE" in prov.source and "not sized" in prov.source) == ("FCoE" in listed)


@pytest.mark.parametrize("cid", sorted(c for c, (_, _, ports) in PAGES.items() if ports))
def test_200_gbe_ports_are_said_to_be_modelled_as_100_gbe(cid):
    """The pages list 'Ethernet 200 Gbps; Ports: 24' (FAS70/90: 20); the catalog has no 200 GbE link type, so the
    records run 100 GbE and say so on both Ethernet fields (before, only the A1K, C80 and ASA A70/A90/A1K did)."""
    _, _, ports = PAGES[cid]
    rec = CAT.get(cid, Controller)
    assert rec.ethernet_port_speed_gbps == 100
    for name in ("ethernet_ports_per_node", "ethernet_port_speed_gbps"):
        source = rec.provenance[name].source
        assert f"'Ethernet 200 Gbps; Ports: {ports}'" in source, (cid, name)
        assert "200 Gbps ports are modelled as 100 GbE" in source, (cid, name)


@pytest.mark.parametrize("cid, btu", [("netapp-fas70", 3392), ("netapp-fas90", 3392), ("netapp-aff-a1k", 4402),
                                      ("netapp-asa-a1k", 4402)])
def test_dual_chassis_power_is_the_per_chassis_figure_doubled_and_marked_derived(cid, btu):
    """The FAS70 page now gives 'Typical Power: 3392 BTU/hr' (the record had an earlier revision's 2653, 1555.0 W);
    the page gives it beside one chassis's 2U height, so the HA pair's two chassis take twice it, as the FAS90 and
    the A1K records read their pages; the reading is derived, and the provenance says what per HA pair would give."""
    rec = CAT.get(cid, Controller)
    assert rec.typical_power_w == pytest.approx(2 * btu * BTU_W, abs=0.05)
    prov = rec.provenance["typical_power_w"]
    assert prov.kind == "derived"
    assert f"'Typical Power: {btu} BTU/hr'" in prov.source and f"2 x {btu} x 0.29307" in prov.source
    assert f"read per HA pair it would be {btu * BTU_W:.1f} W" in prov.source
