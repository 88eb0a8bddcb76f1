"""The SAS back end of a FAS with SAS shelves: lanes per controller from the stacks cabled, not every SAS port.

Review 57 (rev2size57 item 3): a FAS90 with one DS212C of 12 x 1.92TB SAS SSDs showed its back-end 12Gb SAS
station 0.5% busy at 350,000 IOPS: the engine gave each controller all 96 lanes of the FAS90's 24 SAS ports (every
SAS card fitted), though one stack is cabled to each controller through one port pair (multipath HA: an A/C port to
the stack's first shelf, a B/D port to its last; NetAppDocs ontap-systems 'sas3/install-cabling-rules.adoc'; the
FAS70 / FAS90 guide 'fas-70-90/install-cable.adoc' cables each DS460C stack from e10a and e11b of each controller).
A mini-SAS HD (SAS-3 x4 wide) port has 4 lanes of 12 Gb/s, 8b/10b coded: 1,200 MB/s a lane.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from models.catalog import Controller, Drive, LinkType, bundled_catalog
from models.evaluate import evaluate
from models.performance.paths import build_path
from models.project.model import Link
from models.store import load_any

CAT = bundled_catalog()
DESIGN = Path(__file__).parent / "data" / "fas90-ds212c-sas-ssd-nvmetcp.toml"

# independent of the catalog's shelf record: multipath HA cables one port pair per controller and stack
PORTS_PER_CONTROLLER_PER_STACK = 2  # an A/C port to the first shelf, a B/D port to the last
LANES_PER_PORT = 4  # mini-SAS HD, SAS-3 x4 wide port
SAS3_LANE_MB_S = 12_000 / 10  # 12 Gb/s, 8 data bits in 10 line bits: 1,200 MB/s


def _scenario(links_to_shelves: int = 1, chained: int = 0):
    """The FAS90 design's scenario, with ``links_to_shelves`` DS212C stacks linked to the controller (the first
    is the design's) and ``chained`` more shelves daisy-chained behind the first."""
    project = load_any(DESIGN)
    sc = project.scenario
    shelf = next(n for n in sc.nodes if n.kind == "shelf")
    nodes, links = list(sc.nodes), list(sc.links)
    be = next(lk for lk in links if lk.target == shelf.id)
    for i in range(1, links_to_shelves + chained):
        extra = shelf.model_copy(update={"id": f"{shelf.id}-{i}", "label": f"{shelf.label} {i}"})
        nodes.append(extra)
        source = "array" if i < links_to_shelves else shelf.id
        links.append(Link(id=f"be-extra-{i}", source=source, target=extra.id, link_type=be.link_type,
                          ports=be.ports))
    return sc.model_copy(update={"nodes": nodes, "links": links})


def _backend(scenario):
    path = build_path(scenario, CAT, scenario.workloads[0])
    stations = [s for s in path.stations if s.ident.role == "backend"]
    assert len(stations) == 2  # one per controller
    return path, stations


def test_sas_backend_capacity_is_lanes_times_lane_rate():
    """One DS212C stack: each controller drives 2 ports x 4 lanes = 8 lanes of 12Gb SAS (9,600 MB/s), not 96."""
    link = CAT.get("sas-12g", LinkType)
    assert link.payload_mbps == SAS3_LANE_MB_S
    _, stations = _backend(_scenario())
    lanes = PORTS_PER_CONTROLLER_PER_STACK * LANES_PER_PORT
    for st in stations:
        assert st.multiplicity * st.servers == lanes == 8
    # the station's bandwidth: a write's back-end seconds per byte x the lanes = 1 / (lanes x lane rate)
    assert lanes * link.payload_mbps * 1e6 == pytest.approx(9.6e9)
    assert CAT.get("netapp-fas90", Controller).backend_lanes_per_node == 96  # the ports' total stays the cap


@pytest.mark.parametrize("stacks, chained, lanes", [(1, 1, 8), (2, 0, 16), (2, 1, 16), (13, 0, 96)])
def test_sas_lanes_follow_the_stacks_cabled(stacks, chained, lanes):
    """A shelf chained behind another shares its stack's ports; each stack linked to the controller adds a port
    pair; never more than the controller's SAS ports (FAS90: 48 per HA pair, 24 x 4 = 96 lanes a controller)."""
    _, stations = _backend(_scenario(stacks, chained))
    assert {st.multiplicity for st in stations} == {lanes}


def _evaluated():
    wl = evaluate(load_any(DESIGN), catalog=CAT).performance.workloads[0]
    return wl, {st.name: st.utilization for st in wl.stations}


def test_backend_utilisation_at_target_from_bytes_and_lanes():
    """At 350,000 IOPS the back end carries the writes (25% x 8 KiB x RAID DP 2 x (3+2) full stripes, 5/3) and the
    reads that miss both read caches (memory 34%, Flash Cache 49%: it keeps only what was read), half per
    controller, over 8 x 1,200 MB/s; the hit shares are the notes' rounded percentages, so the miss share within
    +-1 point."""
    wl, util = _evaluated()
    assert any("Flash Cache read hit 49%" in n for n in wl.notes) and any("read cache hit 34%" in n for n in wl.notes)
    lanes = 8 * SAS3_LANE_MB_S * 1e6
    writes = 350_000 * 0.25 * 8 * 1024 * 5 / 3 / 2
    def at(miss: float) -> float:
        return (writes + 350_000 * 0.75 * miss * 8 * 1024 / 2) / lanes
    miss = 1.0 - 0.34 - 0.49
    assert at(miss - 0.01) <= util["node 1 back-end 12Gb SAS (per lane)"] <= at(miss + 0.01)
    assert util["node 1 back-end 12Gb SAS (per lane)"] > 0.0622  # was 0.0052 with 96 lanes, 0.0622 writes alone


def test_fas90_twelve_sas_ssds_saturate_within_backend_and_drives():
    """The design saturates at or below what its back end and its drives carry: at the saturation IOPS the write
    bytes per controller fit its 8 lanes, and the data + parity bytes fit the 10 data-holding SSDs' write rate."""
    wl, util = _evaluated()
    sat = wl.saturation_iops
    drive = CAT.get("netapp-192tb-sas-ssd", Drive)
    write_bytes = sat * 0.25 * 8 * 1024 * 5 / 3  # full-stripe writes of RAID DP 2 x (3+2)
    assert write_bytes / 2 <= 8 * SAS3_LANE_MB_S * 1e6 * (1 + 1e-9)
    assert write_bytes <= 10 * drive.max_write_mbps * 1e6 * (1 + 1e-9)
    for name, u in util.items():
        if "back-end" in name:
            assert u * sat / 350_000 <= 1.0 + 1e-9
