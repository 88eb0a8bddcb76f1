"""Small hand-made results, built from the engines' own record types, for previews and tests of the result views.

Nothing here is a prediction: the numbers are round, chosen so that tests can recompute every displayed string.
"""

from __future__ import annotations

from models.capacity.results import CapacityResult, CapacityStep, CapacityTotals, ScenarioCapacity, frozen_inputs
from models.evaluate import Evaluation
from models.performance.results import CurvePoint, ScenarioPerformance, StationLoad, WorkloadPerformance

TIB = 2**40


def sample_system(system_id: str = "ctrl1", label: str = "AFF A800 HA pair", raw_tib: float = 100.0,
                  growth_months: float | None = 27.0) -> CapacityResult:
    """An ONTAP-like waterfall: raw 100 TiB -> usable 70.2 TiB -> effective 150 TiB (for ``raw_tib=100``)."""
    k = raw_tib / 100.0
    chain = [
        ("Raw (marketed)", 0.0, 100.0, "datasheet: 24 x 3.84 TB SSD", "24 drives x 3.84 TB", {"drives": "24"}),
        ("Right-sized", 100.0, 96.0, "catalog: right-sized capacity (ONTAP sysconfig -r)",
         "24 x 3.49 TiB", {"right-sized per drive": "3.49 TiB"}),
        ("ADP root-data partitioning", 96.0, 94.0, "ONTAP ADP: root partitions 2 x 24",
         "24 root partitions x 0.08 TiB", {"root partition": "0.08 TiB"}),
        ("Spares", 94.0, 90.0, "ONTAP best practice: 1 spare per node", "1 spare partition per node", {}),
        ("RAID DP parity", 90.0, 78.0, "ONTAP RAID DP: 2 parity per group", "2 x (21+2) groups",
         {"RAID type": "RAID DP", "group size": "23"}),
        ("WAFL reserve", 78.0, 70.2, "ONTAP: 10% WAFL reserve", "10% of 78.00 TiB", {"reserve": "10%"}),
        ("Compression", 70.2, 120.0, "assumed: workload profile 1.7:1", "x 1.71", {"ratio": "1.71:1"}),
        ("Deduplication", 120.0, 140.0, "assumed: workload profile 1.17:1", "x 1.17", {"ratio": "1.17:1"}),
        ("Snapshot savings", 140.0, 150.0, "NetApp AFF8080A EX SQL Server report, 2016, section 3.6",
         "9:1 against full copies", {}),
    ]
    steps = tuple(
        CapacityStep(name, before * k * TIB, after * k * TIB, source, formula, frozen_inputs(inputs))
        for name, before, after, source, formula, inputs in chain
    )
    return CapacityResult(
        system_id=system_id, system_label=label, family="ontap", steps=steps, raw_bytes=100.0 * k * TIB,
        right_sized_bytes=96.0 * k * TIB, usable_bytes=70.2 * k * TIB, effective_bytes=150.0 * k * TIB,
        logical_used_bytes=60.0 * k * TIB, physical_used_bytes=28.0 * k * TIB, data_reduction_ratio=2.0,
        efficiency_ratio=150.0 / 70.2, months_until_full=growth_months,
        layout=("node 1: aggregate RAID DP 1 x (21+2) data partitions, 1 spare",),
    )


def sample_capacity(*systems: CapacityResult) -> ScenarioCapacity:
    """A scenario capacity with correct totals over the given systems (one sample system by default)."""
    systems = systems or (sample_system(),)
    total = CapacityTotals(
        raw_bytes=sum(s.raw_bytes for s in systems), right_sized_bytes=sum(s.right_sized_bytes for s in systems),
        usable_bytes=sum(s.usable_bytes for s in systems), effective_bytes=sum(s.effective_bytes for s in systems),
        logical_used_bytes=sum(s.logical_used_bytes for s in systems),
        physical_used_bytes=sum(s.physical_used_bytes for s in systems),
        data_reduction_ratio=2.0, efficiency_ratio=sum(s.effective_bytes for s in systems) / sum(
            s.usable_bytes for s in systems),
        months_until_full=min((s.months_until_full for s in systems if s.months_until_full is not None),
                              default=None),
    )
    return ScenarioCapacity(systems=tuple(systems), total=total)


def sample_curve(saturation: float, base_ms: float, block_kib: float = 8.0, points: int = 40) -> tuple[CurvePoint, ...]:
    """A closed-ramp-like curve bending towards ``saturation`` IOPS."""
    curve = []
    for n in range(1, points + 1):
        x = n / points
        iops = saturation * (1 - (1 - x) ** 3) * 0.995
        latency = base_ms / max(1 - iops / saturation, 0.02) ** 0.8
        curve.append(CurvePoint(iops, latency, iops * block_kib * 1024 / 1e6, latency + 0.05, n * 8))
    return tuple(curve)


def sample_workload(workload_id: str = "w1", name: str = "SQL Server OLTP", saturation: float = 400_000.0,
                    base_ms: float = 0.25, slo_ms: float = 1.0, target_iops: float | None = 250_000.0,
                    protocol: str = "FCP", saturated_target: bool = False, slo_met: bool = True,
                    bottleneck: str = "node 1 CPU") -> WorkloadPerformance:
    """A made-up ``WorkloadPerformance`` whose curve rises to ``saturation`` IOPS from ``base_ms`` (for tests)."""
    curve = sample_curve(saturation, base_ms)
    max_at_slo = next((p.iops for p in reversed(curve) if p.latency_ms <= slo_ms), None) if slo_met else None
    operating = target_iops if target_iops is not None else (max_at_slo or 0.0)
    utilisation = min(operating / saturation, 1.0)
    others = (("node 1 CPU", "ctrl1", 0.8), ("FC target ports", "ctrl1", 0.55), ("SSD (node 1)", "shelf1", 0.7),
              ("NVRAM mirror", "ctrl1", 0.35), ("Host HBA ports", "host1", 0.25))
    stations = (StationLoad(bottleneck, "ctrl1", utilisation, 0.12),) + tuple(
        StationLoad(name, component, utilisation * share, 0.02) for name, component, share in others
        if name != bottleneck)
    return WorkloadPerformance(
        workload_id=workload_id, name=name, curve=curve, saturation_iops=saturation, max_iops_at_slo=max_at_slo,
        slo_ms=slo_ms, target_iops=target_iops,
        latency_at_target_ms=None if saturated_target or target_iops is None else 0.62,
        target_met=None if target_iops is None else not saturated_target,
        bottleneck=bottleneck, bottleneck_component="ctrl1",
        headroom_pct=None if target_iops is None else (saturation - target_iops) / target_iops * 100,
        stations=stations, operating_iops=operating, protocol=protocol, block_kib=8.0,
    )


def sample_performance(*workloads: WorkloadPerformance) -> ScenarioPerformance:
    """A ``ScenarioPerformance`` of these workloads (default: an OLTP and a log-writes sample)."""
    workloads = workloads or (
        sample_workload(),
        sample_workload("w2", "Log writes", saturation=180_000.0, base_ms=0.35, slo_ms=2.0, target_iops=None,
                        bottleneck="NVRAM mirror"),
    )
    return ScenarioPerformance(workloads=tuple(workloads))


def sample_evaluation(scenario: str = "A800 FCP", capacity=..., performance=..., problems=()) -> Evaluation:
    """An Evaluation with the sample capacity and performance (pass None to leave one out)."""
    return Evaluation(
        scenario,
        sample_capacity() if capacity is ... else capacity,
        sample_performance() if performance is ... else performance,
        tuple(problems),
    )
