"""Cloud Volumes ONTAP scales with the VM (issue 29, item 4): the CPU station runs the pooled fit's per-core demand
on the VM's own cores (with the fitted Amdahl contention), the VM's published network and disk limits and the
disks' own limits are stations named with their figures, so saturation rises with the VM size within a family until
a published limit binds, and the bottleneck then names that limit; a cloud failover that is faster than normal
operation says why (the write mirror's wait stops) and is faster by no more than that wait.

Independent checks: the CPU-bound saturation is recomputed here from the catalog profile (n cores / (demand per I/O
x (1 + contention x (n - 1)))); the limit-bound one from the VM's published IOPS figure and the I/O units a read
costs (one unit per random read that misses the cache)."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from models.catalog import CloudDisk, CloudVm, bundled_catalog
from models.performance import evaluate_performance
from models.performance.cloud_limits import cvo_cores, disk_limit_name, nvram_limit_name, vm_limit_name
from models.performance.engine import saturation_iops
from models.performance.paths import build_path, cpu_demand_us
from models.performance.resilience import evaluate_states
from models.project import load
from models.project.model import CloudVmNode, Scenario, Settings, Workload
from models.resources import examples_dir

CAT = bundled_catalog()
TIB = 2**40
# data disks that leave the VM's own limits to bind: 8 x Azure P60 (16,000 IOPS each), 8 x AWS gp3 at 16,000 IOPS,
# 4 x Google pd-ssd 2 TiB (61,440 IOPS each)
ROOMY_DISKS = {"Azure": ("azure-premium-lrs-p60", 8), "AWS": ("aws-ebs-gp3-1tib-16k", 8), "GCP": ("gcp-pd-ssd-2tib", 4)}
HA_EXAMPLES = ("cvo-azure-ds14-ha-oltp.toml", "cvo-azure-ds4-ha-oltp.toml", "cvo-azure-e20ds-v5-ha-oltp.toml",
               "cvo-aws-m5-4xlarge-ha-oltp.toml")


def _family(vm: CloudVm) -> str:
    """The VM series: Azure 'DS..._v2', 'E...ds_v5', 'L...s_v3'; AWS 'm5', 'r5', ...; Google 'n2-standard'."""
    if vm.provider == "AWS":
        return "AWS " + vm.vm_size.split(".")[0]
    if vm.provider == "GCP":
        return "GCP " + vm.vm_size.rsplit("-", 1)[0]
    m = re.fullmatch(r"Standard_([A-Z]+)\d+([a-z]*_v\d)", vm.vm_size)
    assert m, vm.vm_size
    return f"Azure {m.group(1)}*{m.group(2)}"


def _scenario(vm: CloudVm, read_pct: float = 70.0) -> Scenario:
    disk, count = ROOMY_DISKS[vm.provider]
    licence = next(i for i in vm.licences if i != "cvo-freemium")
    node = CloudVmNode(id="cvo", catalog_id=vm.id, licence=licence, disk=disk, disk_count=count)
    w = Workload(id="w", name="w", target="cvo", block_kib=8.0, read_pct=read_pct, random_pct=100.0, slo_ms=20.0,
                 concurrency=64, dataset_bytes=2 * TIB, working_set_bytes=TIB)
    return Scenario(name="Base", nodes=[node], workloads=[w])


def _saturation(vm: CloudVm, read_pct: float = 70.0) -> tuple[float, str]:
    sc = _scenario(vm, read_pct)
    path = build_path(sc, CAT, sc.workloads[0])
    sat, index = saturation_iops(path.stations, path.read_fraction)
    assert index is not None
    return float(sat), path.stations[index].name


def _published_limits(vm: CloudVm) -> set[str]:
    disk, count = ROOMY_DISKS[vm.provider]
    record = CAT.get(disk, CloudDisk)
    names = {vm_limit_name(vm, k) for k in ("network", "disk_iops", "disk_mbps")}
    names |= {disk_limit_name(record, count, k) for k in ("iops", "mbps")}
    if vm.nvram_disk:
        nvram = CAT.get(vm.nvram_disk, CloudDisk)
        names |= {nvram_limit_name(nvram, "mbps"), nvram_limit_name(nvram, "iops")}
    return names


def _families() -> dict[str, list[CloudVm]]:
    out: dict[str, list[CloudVm]] = {}
    for vm in CAT.of_kind(CloudVm):
        out.setdefault(_family(vm), []).append(vm)
    return {k: sorted(v, key=lambda x: (x.vcpu, x.ram_gib)) for k, v in out.items() if len(v) > 1}


def test_saturation_rises_with_the_vm_size_in_each_family_until_a_published_limit_binds():
    families = _families()
    assert {"Azure E*ds_v5", "Azure DS*_v2", "AWS m5", "GCP n2-standard"} <= set(families)
    rising = 0
    for family, vms in families.items():
        for small, large in pairwise(vms):
            s_sat, _ = _saturation(small)
            l_sat, l_neck = _saturation(large)
            if l_sat < s_sat * (1 - 1e-9):
                # only a published limit of the larger VM may stop it
                assert l_neck in _published_limits(large), (family, small.vm_size, large.vm_size, l_neck)
            if large.vcpu > small.vcpu and l_neck == "VM CPU":
                assert l_sat > s_sat, (family, small.vm_size, large.vm_size)
                rising += 1
    assert rising >= 5
    # the former model capped every VM at the same 4 cores: one saturation for 8 to 64 vCPUs
    e = {vm.vm_size: _saturation(vm)[0] for vm in families["Azure E*ds_v5"]}
    assert e["Standard_E64ds_v5"] > e["Standard_E32ds_v5"] > e["Standard_E20ds_v5"]


@pytest.mark.parametrize("vm_id", ["azure-standard-ds3-v2", "azure-standard-e32ds-v5", "aws-m5-16xlarge",
                                   "gcp-n2-standard-16"])
def test_a_cpu_bound_vm_saturates_at_its_cores_over_the_contended_per_core_demand(vm_id):
    vm = CAT.get(vm_id, CloudVm)
    sat, neck = _saturation(vm)
    assert neck == "VM CPU"
    profile = CAT.get("azure-standard-ds14-v2", CloudVm).performance[0]  # the pooled fit's, on every size
    n = cvo_cores(vm)
    assert n == vm.vcpu
    demand = (0.7 * cpu_demand_us(profile, 8.0, False, 1.0) + 0.3 * cpu_demand_us(profile, 8.0, True, 1.0)) * 1e-6
    assert 0 < profile.core_contention < 1
    assert sat == pytest.approx(n / (demand * (1 + profile.core_contention * (n - 1))), rel=1e-9)


def test_the_bottleneck_names_the_vm_disk_limit_and_its_published_figure():
    """Azure Standard_E8ds_v5 (12,800 uncached IOPS, Microsoft's Edsv5 size table) with random 8 KiB reads: each
    read that misses memory is one Azure I/O unit, so the VM's limit binds at 12,800 / miss ratio."""
    vm = CAT.get("azure-standard-e8ds-v5", CloudVm)
    sat, neck = _saturation(vm, read_pct=100.0)
    assert neck == "VM disk IOPS limit (Azure Standard_E8ds_v5: 12,800 IOPS uncached)"
    cache = vm.ram_gib * 2**30 * 0.5  # paths.CACHE_FRACTION_OF_MEMORY of the VM's memory
    miss = 1 - cache / TIB
    assert sat == pytest.approx(12_800 / miss, rel=1e-6)
    aws = CAT.get("aws-m5-xlarge", CloudVm)
    assert _saturation(aws)[1] == "VM EBS IOPS limit (AWS EC2 m5.xlarge: 6,000 IOPS EBS-optimized baseline)"


def test_a_small_disk_set_binds_before_a_large_vm_and_is_named():
    vm = CAT.get("azure-standard-e64ds-v5", CloudVm)
    sc = _scenario(vm)
    node = sc.nodes[0].model_copy(update={"disk": "azure-premium-lrs-p30", "disk_count": 2})
    sc = sc.model_copy(update={"nodes": [node]})
    wp = evaluate_performance(sc, CAT, Settings(curve_points=20)).workloads[0]
    assert wp.bottleneck == "Azure Premium SSD P30 (Premium_LRS, 1,024 GiB) IOPS limit (2 disks x 5,000 IOPS)"


@pytest.mark.parametrize("example", HA_EXAMPLES)
def test_a_cloud_failover_is_faster_only_by_the_mirror_wait_it_names(example):
    """A failover stops the write mirroring to the failed VM (the round trip, the partner's CPU and its NVRAM log
    write): its latency at the target is never above normal operation's plus nothing, and never below normal
    operation's less that wait (at light load: the mirror stations' write demand x the write share), and the reason
    says so with the wait in milliseconds."""
    project = load(examples_dir() / example)
    scenario = project.scenario
    normal = evaluate_performance(scenario, CAT, Settings(curve_points=50)).workloads[0]
    states = evaluate_states(scenario, CAT, Settings(curve_points=50), only=("cloud_failover",))
    (failover,) = states[normal.workload_id]
    path = build_path(scenario, CAT, next(w for w in scenario.workloads if w.enabled))
    mirror = [s for s in path.stations if s.ident.role in {"ha_partner_cpu", "ha_partner_log_write",
                                                            "ha_mirror_round_trip"}]
    wait_ms = sum(s.write_s for s in mirror) * 1e3
    assert len(mirror) == 3 and wait_ms > 0
    assert f"{wait_ms:.2f} ms per write" in failover.reason and "lower than in normal operation" in failover.reason
    assert {name for name, _ in failover.relieved} == {s.name for s in mirror}
    normal_ms = normal.latency_at_target_ms
    failover_ms = failover.performance.latency_at_target_ms
    assert normal_ms is not None and failover_ms is not None
    write_share = 1 - path.read_fraction
    assert failover_ms <= normal_ms
    # faster by no more than the mirror's wait (with its queueing at the partner's CPU: at most twice the light-load
    # wait at these utilisations)
    assert failover_ms >= normal_ms - 2 * write_share * wait_ms
    assert failover.performance.saturation_iops >= normal.saturation_iops * (1 - 1e-9)


def test_the_limit_names_follow_each_providers_words_and_refuse_an_unknown_limit():
    gcp = CAT.get("gcp-n2-standard-16", CloudVm)
    assert vm_limit_name(gcp, "disk_mbps") == \
        "VM persistent disk throughput limit (Google Cloud n2-standard-16: 1,258 MB/s per VM)"
    assert vm_limit_name(gcp, "network") == "VM network bandwidth limit (Google Cloud n2-standard-16: 32,000 Mbit/s)"
    disk = CAT.get("aws-ebs-gp3-1tib", CloudDisk)
    assert disk_limit_name(disk, 1, "mbps") == f"{disk.name} throughput limit (1 disk x 131 MB/s)"
    with pytest.raises(ValueError, match="unknown VM limit 'cpu'"):
        vm_limit_name(gcp, "cpu")
    with pytest.raises(ValueError, match="unknown disk limit"):
        disk_limit_name(disk, 2, "latency")
    with pytest.raises(ValueError, match="unknown NVRAM disk limit"):
        nvram_limit_name(disk, "latency")
    # the calibrated records run on their own vCPUs too
    for vm_id in ("azure-standard-ds3-v2", "azure-standard-ds4-v2", "azure-standard-ds14-v2"):
        vm = CAT.get(vm_id, CloudVm)
        assert vm.performance[0].servers_per_node == cvo_cores(vm) == vm.vcpu
