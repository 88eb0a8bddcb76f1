"""The AFF C800 (the AFF A800's controller with QLC drives, derived from the A800 at ratio 1) is held at the bound its
successor's published figure sets: NetApp's AFF A90 'up to 2.4M IOPS per HA pair' that 'increases performance ...
over previous NetApp models' (``profile_from.peak_iops``). Without it the A800's NVMe/FC profile, fitted on a ramp
that never loaded the CPU, rated the C800 above 6M IOPS and first in the A800 NVMe/FC sizer search."""

from __future__ import annotations

import pytest

from models.catalog import Controller, bundled_catalog
from models.performance.profiles import controller_profile
from models.validation.ladders import check_step, load_ladders

CAT = bundled_catalog()
PEAK = 2_400_000.0


def _c800() -> Controller:
    return CAT.get("netapp-aff-c800", Controller)


def _own(record_id: str, protocol: str):
    return next(p for p in CAT.get(record_id, Controller).performance if (p.software, p.protocol) == ("9.5", protocol))


def test_the_c800_carries_the_successors_published_peak_with_its_source():
    c800 = _c800()
    assert c800.profile_from is not None and c800.profile_from.peak_iops == PEAK
    assert c800.profile_from.ratio == 1.0 and c800.profile_from.sibling == "netapp-aff-a800"
    source = c800.cited("profile_from")
    assert "up to 2.4M IOPS per HA pair" in source and "previous NetApp models" in source
    assert "docs.netapp.com/us-en/netapp-solutions-ai/infra/ai-aipod-nv-hw.html" in source
    assert c800.provenance["profile_from"].kind == "derived"


def test_nvme_fc_cpu_is_held_where_96_cores_would_pass_the_peak_on_reads():
    """Independent arithmetic: 2 nodes x 48 servers serve at most 2.4M reads when one read takes 96 / 2.4M s = 40 us
    of a server; the A800's own 15.6 us per read would serve 6.2M."""
    c800 = _c800()
    profile, note = controller_profile(c800, CAT, "9.5", "NVMe/FC")
    assert profile is not None and profile.protocol == "NVMe/FC"
    servers = c800.nodes * profile.servers_per_node
    assert servers == 96
    assert profile.cpu_read_us == pytest.approx(servers * 1e6 / PEAK, rel=1e-9)  # 40 us
    assert servers / profile.cpu_read_us * 1e6 == pytest.approx(PEAK, rel=1e-9)
    own = _own("netapp-aff-a800", "NVMe/FC")
    assert own.cpu_read_us < 20.0 and servers / own.cpu_read_us * 1e6 > 6e6  # what the bound corrects
    assert profile.cpu_write_us / profile.cpu_read_us == pytest.approx(own.cpu_write_us / own.cpu_read_us)
    assert "NetApp's published 'up to' figure of 2,400,000 IOPS for the NetApp AFF C800 HA pair" in note
    assert "ratio (1) would let it serve more NVMe/FC reads" in note and "divided by 0.389 instead" in note


def test_fcp_keeps_ratio_one_because_its_cpu_stays_below_the_peak():
    """The A800's FCP profile (50.7 us per read: 96 / 50.7 us = 1.89M reads) is within the bound: unchanged."""
    profile, _ = controller_profile(_c800(), CAT, "9.5", "FCP")
    own = _own("netapp-aff-a800", "FCP")
    assert profile is not None and 96 / own.cpu_read_us * 1e6 < PEAK
    assert profile.cpu_read_us == pytest.approx(own.cpu_read_us, rel=1e-12)
    assert profile.cpu_write_us == pytest.approx(own.cpu_write_us, rel=1e-12)


def test_the_whole_engine_keeps_the_c800_under_the_peak_on_nvme_fc():
    """The ladder design of the C800 -> C80 step on NVMe/FC (24 QLC drives, the same hosts and ports on both),
    evaluated by the whole engine: the C800's saturation is at most the published 2.4M, and equal to the AFF A90's
    on the A800 -> A90 step (the same 96 cores held at the same figure, the same drives aside)."""
    ladders = load_ladders(CAT)
    step = next(s for s in ladders.steps if (s.smaller, s.larger) == ("netapp-aff-c800", "netapp-aff-c80"))
    check = check_step(step, ladders, CAT, "oltp", "NVMe/FC")
    assert check.protocol == "NVMe/FC" and check.smaller.profile == "derived"
    assert 1e6 < check.smaller.saturation <= PEAK
    a90_step = next(s for s in ladders.steps if (s.smaller, s.larger) == ("netapp-aff-a800", "netapp-aff-a90"))
    a90 = check_step(a90_step, ladders, CAT, "oltp", "NVMe/FC").larger
    assert check.smaller.saturation == pytest.approx(a90.saturation, rel=1e-9)
    fcp = check_step(step, ladders, CAT, "oltp", "FCP")
    assert fcp.smaller.saturation <= check.smaller.saturation  # NVMe/FC still not slower than FCP on it
