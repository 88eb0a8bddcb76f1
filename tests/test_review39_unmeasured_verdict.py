"""A summary's performance tick says when its max IOPS is a prediction not fitted to the system's own measurements
(review of session 39: the A90 and EF600 reports' summaries stated "up to 3.12M IOPS" / "up to 1.23M IOPS" with no
word that the figure was derived from another system, beside a P10-P90 band four times wide)."""

from __future__ import annotations

import pytest

from models.evaluate import evaluate
from models.formatting import format_iops
from models.present import verdicts
from models.project import load
from models.resources import examples_dir


def _performance(name: str):
    evaluation = evaluate(load(examples_dir() / name))
    found = [v for v in verdicts(evaluation) if v.area == "performance" and "within the" in v.text]
    return evaluation.performance.workloads[0], found[0].text


@pytest.mark.parametrize("name, words", [
    ("aff-a90-oracle-nvmefc64.toml", "derived from a related system's measurements"),
    ("ef600-nvme-ddp-oltp-nvmefc.toml", "estimated from its family's calibrated systems"),
    ("vsan8-esa-6host-sqlserver-oltp.toml", "from the engine's uncalibrated default profile"),
])
def test_an_unfitted_profile_says_so_with_its_band(name, words):
    wp, text = _performance(name)
    assert wp.profile in ("derived", "hardware relation only", "assumed")
    band = f"{format_iops(wp.max_iops_at_slo_band_p10)} – {format_iops(wp.max_iops_at_slo_band_p90)}"
    assert text.endswith(f"at the SLO; not measured on this system: {words}, P10–P90 {band})")


@pytest.mark.parametrize("name", ["aff8080-sqlserver-tpce.toml", "gcnv-premium-oracle-nfs.toml"])
def test_a_calibrated_profile_or_a_services_published_limits_add_nothing(name):
    wp, text = _performance(name)
    assert "not measured on this system" not in text and text.endswith("at the SLO)")


def test_a_cvo_wafl_step_without_a_release_reads_as_words():
    """The CVO reports' WAFL reserve step read "(aggregate on ONTAP 9.16.1 (current release: none set))"."""
    evaluation = evaluate(load(examples_dir() / "cvo-aws-m5-4xlarge-ha-oltp.toml"))
    steps = [s for system in evaluation.capacity.systems for s in system.steps if s.name == "WAFL reserve"]
    assert steps and all("none set" not in s.formula for s in steps)
    assert any(s.formula.endswith(", the current release: the design names none)") for s in steps)
