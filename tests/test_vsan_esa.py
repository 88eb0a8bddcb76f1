"""vSAN ESA and FTT=0: ESA's adaptive RAID-5 is 2+1 (x1.5) on 3-5 hosts and 4+1 (x1.25) on 6 or more
(Broadcom vSAN 8 ESA documentation, cited in models.capacity.rules.VSAN_ESA_DOCS); ESA has no cache tier; FTT=0
keeps one copy (x1) and says it loses data on a failure."""

from __future__ import annotations

import pytest

from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.problems import find_problems
from models.resources import examples_dir
from models.store import load_any


def _cluster(hosts: int, policy: str, architecture: str = "esa"):
    project = load_any(examples_dir() / "vsan-sqlserver-raid1.toml")
    sc = project.scenario
    nodes = [n.model_copy(update={"hosts": hosts, "policy": policy, "architecture": architecture})
             if n.kind == "hci_cluster" else n for n in sc.nodes]
    return project.with_scenario(sc.model_copy(update={"nodes": nodes}))


@pytest.mark.parametrize("hosts, factor, layout", [(3, 1.5, "2+1"), (5, 1.5, "2+1"), (6, 1.25, "4+1")])
def test_esa_raid5_follows_the_host_count(hosts, factor, layout):
    result = evaluate(_cluster(hosts, "ftt1-raid5")).capacity.systems[0]
    step = next(s for s in result.steps if "RAID-5" in s.name)
    assert layout in step.name and "ESA" in step.source
    assert step.bytes_after == pytest.approx(step.bytes_before / factor)
    assert any("no cache tier" in n for n in result.notes)
    assert not [p for p in find_problems(_cluster(hosts, "ftt1-raid5").scenario, bundled_catalog())
                if "needs at least" in p.message]  # ESA RAID-5 runs on 3 hosts (OSA needs 4)


def test_osa_raid5_keeps_3_plus_1_and_four_hosts():
    result = evaluate(_cluster(4, "ftt1-raid5", "osa")).capacity.systems[0]
    step = next(s for s in result.steps if "RAID5" in s.name)
    assert step.bytes_after == pytest.approx(step.bytes_before * 3 / 4)
    msgs = [p.message for p in find_problems(_cluster(3, "ftt1-raid5", "osa").scenario, bundled_catalog())]
    assert any("needs at least 4 hosts" in m for m in msgs)


def test_ftt0_keeps_one_copy_and_warns():
    project = _cluster(4, "ftt0", "osa")
    result = evaluate(project).capacity.systems[0]
    step = next(s for s in result.steps if "FTT=0" in s.name)
    assert step.bytes_after == pytest.approx(step.bytes_before)
    assert any("loses its data" in p for p in result.problems)
    assert evaluate(project).performance.workloads[0].saturation_iops > 0
