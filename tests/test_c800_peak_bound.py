"""The AFF C800 (the AFF A800's controller with QLC drives, derived from the A800 at ratio 1) is held at ONTAP's rate
per core on its own 96 cores: NetApp's AFF A90 'up to 2.4M IOPS per HA pair' over the A90's 96 cores is 25,000 block
operations per second per core, the one rule every ONTAP controller is held to
(``models.performance.hardware_relation.iops_ceiling``), a rate cap beside the CPU on every block workload. NetApp
publishes no figure of the C800's own, so the record carries none. Without a bound the A800's NVMe/FC profile (fitted
on a ramp that never loaded the CPU) rated the C800 above 6M IOPS and first in the A800 NVMe/FC sizer search; held by
a longer CPU time per read instead (40 us) it could not serve the A800's own measured 2.2M reads at 0.14 ms on the
same controller."""

from __future__ import annotations

import pytest

from models.catalog import Controller, bundled_catalog
from models.performance.hardware_relation import iops_ceiling
from models.performance.profiles import controller_profile
from models.validation.ladders import check_step, load_ladders

CAT = bundled_catalog()
PEAK = 2_400_000.0


def _c800() -> Controller:
    return CAT.get("netapp-aff-c800", Controller)


def _own(record_id: str, protocol: str):
    return next(p for p in CAT.get(record_id, Controller).performance if (p.software, p.protocol) == ("9.5", protocol))


def test_the_c800_is_bounded_by_the_rate_per_core_with_its_source():
    c800 = _c800()
    assert c800.peak_iops is None and "peak_iops" not in c800.provenance
    assert c800.profile_from is not None
    assert c800.profile_from.ratio == 1.0 and c800.profile_from.sibling == "netapp-aff-a800"
    source = c800.cited("profile_from")
    assert "up to 2.4M IOPS per HA pair" in source and "25,000 per core" in source
    assert "docs.netapp.com/us-en/netapp-solutions-ai/infra/ai-aipod-nv-hw.html" in source
    assert c800.provenance["profile_from"].kind == "derived"
    ceiling = iops_ceiling(c800, CAT)
    assert ceiling is not None and ceiling.value == pytest.approx(PEAK)
    assert "on its 96 cores" in ceiling.words and "NetApp AFF A90 HA pair over its 96 cores" in ceiling.words


def test_every_protocol_keeps_the_a800s_cpu_time():
    """Ratio 1 on every protocol (the same controller): the CPU time per read is the A800's own, 15.6 us on NVMe/FC
    (96 cores would serve 6.2M reads), 50.7 us on FCP; the note claims no published figure of the C800's own."""
    c800 = _c800()
    for protocol in ("NVMe/FC", "FCP"):
        profile, note = controller_profile(c800, CAT, "9.5", protocol)
        own = _own("netapp-aff-a800", protocol)
        assert profile is not None and profile.protocol == protocol
        assert profile.cpu_read_us == pytest.approx(own.cpu_read_us, rel=1e-12)
        assert profile.cpu_write_us == pytest.approx(own.cpu_write_us, rel=1e-12)
        assert "for the NetApp AFF C800 HA pair" not in note
    nvme = _own("netapp-aff-a800", "NVMe/FC")
    assert c800.nodes * nvme.servers_per_node / nvme.cpu_read_us * 1e6 > 2 * PEAK  # what the cap bounds


def test_the_whole_engine_keeps_the_c800_under_the_bound_on_nvme_fc():
    """The ladder design of the C800 -> C80 step on NVMe/FC (24 QLC drives, the same hosts and ports on both),
    evaluated by the whole engine: the C800's saturation is 2.4M, equal to the AFF A90's and the A800's (the same
    rate per core on the same 96 cores), the C80 (96 cores too, as the C800 it replaces) not below it, and the
    C800's light-load latency is the A800's CPU time's."""
    ladders = load_ladders(CAT)
    step = next(s for s in ladders.steps if (s.smaller, s.larger) == ("netapp-aff-c800", "netapp-aff-c80"))
    check = check_step(step, ladders, CAT, "oltp", "NVMe/FC")
    assert check.protocol == "NVMe/FC" and check.smaller.profile == "derived"
    assert check.smaller.saturation == pytest.approx(PEAK, rel=1e-9)
    assert check.holds, check.why
    a90_step = next(s for s in ladders.steps if (s.smaller, s.larger) == ("netapp-aff-a800", "netapp-aff-a90"))
    a90 = check_step(a90_step, ladders, CAT, "oltp", "NVMe/FC")
    assert check.smaller.saturation == pytest.approx(a90.larger.saturation, rel=1e-9)
    assert a90.smaller.saturation == pytest.approx(a90.larger.saturation, rel=1e-9)
    fcp = check_step(step, ladders, CAT, "oltp", "FCP")
    assert fcp.smaller.saturation <= check.smaller.saturation  # NVMe/FC still not slower than FCP on it
    assert check.smaller.light_ms < fcp.smaller.light_ms
