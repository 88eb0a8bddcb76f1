"""Published performance cases (``[[performance]]``, ``[[relation]]``, ``[[cloud]]`` of published.toml) replayed
through ``models.performance.evaluate_performance``.

Every case builds the seed's configuration as a scenario of bundled catalog records
(:mod:`models.performance.seeds`), evaluates it, and compares. No predicted number is written here: each
``predicted`` comes from the engine; ``published`` and tolerances come from the case table. Interpretations of
loose seed statements are in each check's ``interpretation``.

Conventions used by the cases:

* "peak IOPS" of a benchmark ramp = the IOPS at the ramp's last load point (N = the test's outstanding I/O
  count), which is what a closed-load benchmark reports as its peak;
* seed 000 latencies are storage-side (ONTAP), seed 001 and seed 004 latencies host-side (Oracle / Iometer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from models.catalog import Catalog
from models.catalog.schema import CloudDisk, CloudVm
from models.performance import WorkloadPerformance, evaluate_performance, iops_at_latency, latency_at_iops, seeds
from models.performance.stations import PORT_ROLES
from models.project.model import Scenario, Settings
from models.validation.checks import Check


class CaseError(RuntimeError):
    """The engine could not evaluate a case's scenario (the message carries the engine's problems)."""


def evaluate_one(scenario: Scenario, catalog: Catalog) -> WorkloadPerformance:
    """The first workload's prediction, with every ramp point kept (curve_points = the concurrency).

    Raises:
        CaseError: the engine reported a problem and returned no prediction for the workload.
    """
    w = scenario.workloads[0]
    settings = Settings(curve_points=max(10, min(5000, w.concurrency)))
    result = evaluate_performance(scenario, catalog, settings)
    wp = result.for_workload(w.id)
    if wp is None:
        raise CaseError("; ".join(result.problems) or "no prediction")
    return wp


def _xs(wp: WorkloadPerformance) -> list[float]:
    return [p.iops for p in wp.curve]


def _storage(wp: WorkloadPerformance) -> list[float]:
    return [p.latency_ms for p in wp.curve]


def _host(wp: WorkloadPerformance) -> list[float]:
    return [p.host_latency_ms if p.host_latency_ms is not None else p.latency_ms for p in wp.curve]


def _seed(case: dict[str, Any]) -> str:
    return f"{case.get('seed', '')} {case.get('section', '')}".strip()


def _num(x: float | None) -> float:
    return float("nan") if x is None else float(x)


# ----------------------------------------------------------------------------------------------- seed 000


def case_aff8080_tpce(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Case ``aff8080-tpce-fcp`` (seed 000 §2, 3.5, 3.7, 5): AFF8080 TPC-E ramp over FCP.

    Checks peak IOPS, storage-side latency (ms) at the published points (339K IOPS as an upper bound), host-side
    latency (ms) at the lightest and the peak point, and that latency rises with load and stays <= 1 ms at the
    12.5-75 % load levels. ``case`` is the published.toml table. Raises CaseError when the engine gives no prediction.
    """
    wp = evaluate_one(seeds.aff8080("9.0"), catalog)
    cid, seed = case["id"], _seed(case)
    tol_i, tol_l = case["tolerance_iops"], case["tolerance_latency"]
    base = (f"8 hosts x {seeds.AFF8080_CONCURRENCY // 8} outstanding 8 KiB I/Os (90% reads, random) at the peak, "
            "a closed ramp N = 1..512; storage-side latency (ONTAP's). ")
    checks = [
        Check(cid, "peak_iops", case["peak_iops"], wp.peak_iops or 0.0, tol_i, seed=seed,
              interpretation=base + "Peak = the ramp's last point (8 servers)."),
    ]
    for point in case["points"]:
        x = point["iops"]
        if point["kind"] == "upper_bound":
            pred = latency_at_iops(_xs(wp), _storage(wp), x)
            checks.append(Check(cid, f"latency_ms_at_{x / 1000:.0f}k_iops", point["latency_ms"], _num(pred), tol_l,
                                kind="upper_bound", seed=seed,
                                interpretation=base + "'At or below 1 ms up to 339K IOPS': the latency at 339K "
                                "IOPS must not exceed 1 ms (within the latency tolerance)."))
        elif x >= case["peak_iops"] * 0.99:
            checks.append(Check(cid, "latency_ms_at_peak", point["latency_ms"], wp.curve[-1].latency_ms, tol_l,
                                seed=seed, interpretation=base + "Latency at the ramp's last point."))
        else:
            pred = latency_at_iops(_xs(wp), _storage(wp), x)
            if pred is None or x < wp.curve[0].iops:
                pred = wp.curve[0].latency_ms
            checks.append(Check(cid, f"latency_ms_at_{x / 1000:.0f}k_iops", point["latency_ms"], _num(pred), tol_l,
                                seed=seed, interpretation=base + "The 4K IOPS point is the lightest load (one "
                                "outstanding I/O gives about 3K IOPS; below the ramp's first point its latency "
                                "is used)."))
    low, high = case["host_side_latency_ms_range"]
    measured = sorted((p for p in case["points"] if p["kind"] == "measured"), key=lambda p: p["iops"])
    light_storage, peak_storage = measured[0]["latency_ms"], measured[-1]["latency_ms"]
    mixed = ("mixed: most of this host-side latency is the storage-side latency the calibration fits to this case's "
             "storage latencies; the part the model predicts, the host increment (host stack, fabric, ports), is "
             "checked apart")
    checks.append(Check(cid, "host_latency_ms_light_load", low, _num(wp.curve[0].host_latency_ms), tol_l, seed=seed,
                        interpretation=base + "SQL Server client latency 370 us at the lightest point: the model's "
                        "host-side latency (host stack, fabric, ports) at N = 1.", fitted_by=mixed))
    checks.append(Check(cid, "host_latency_ms_at_peak", high, _num(wp.curve[-1].host_latency_ms), tol_l, seed=seed,
                        interpretation=base + "SQL Server client latency 1,470 us at the peak point.",
                        fitted_by=mixed))
    for quantity, host, storage, point in (("host_increment_ms_light_load", low, light_storage, wp.curve[0]),
                                           ("host_increment_ms_at_peak", high, peak_storage, wp.curve[-1])):
        increment = (point.host_latency_ms - point.latency_ms if point.host_latency_ms is not None
                     else float("nan"))
        checks.append(Check(cid, quantity, host - storage, increment, tol_l, seed=seed,
                            interpretation=base + f"The host increment: published client latency {host:g} ms less "
                            f"the storage-side {storage:g} ms at the same point; predicted host-side less "
                            f"storage-side latency at that ramp point ({_num(point.host_latency_ms):.3f} - "
                            f"{point.latency_ms:.3f} ms). No parameter is set from these differences."))
    peak = wp.peak_iops or 0.0
    levels = case.get("load_levels_pct_of_peak", [])
    lats = [latency_at_iops(_xs(wp), _storage(wp), peak * pct / 100) for pct in levels if pct < 100]
    known = [v for v in lats if v is not None]
    ok = len(known) == len(lats) and all(v <= 1.0 for v in known) and known == sorted(known)
    checks.append(Check(cid, "load_levels_within_1ms", 1.0, 1.0 if ok else 0.0, 0.0, kind="expect", seed=seed,
                        expect_passed=ok,
                        interpretation="Load levels 12.5/25/50/75% of the peak (1, 2, 4, 6 servers): latency rises "
                        "with load and stays at or below 1 ms. Predicted: "
                        + ", ".join(f"{pct:g}% {v:.3f} ms" if v is not None else f"{pct:g}% n/a"
                                    for pct, v in zip(levels, lats))))
    return checks


def case_aff8080_ontap9_vs_831(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Relation ``aff8080-ontap9-vs-831`` (seed 000): max IOPS at <= 1 ms, ONTAP 9.0 over 8.3.1.

    The 8.3.1 profile is calibrated on this relation, so it checks the fit. Raises CaseError when the engine gives
    no prediction.
    """
    w9 = evaluate_one(seeds.aff8080("9.0"), catalog)
    w8 = evaluate_one(seeds.aff8080("8.3.1"), catalog)
    pred = _num(w9.max_iops_at_slo) / _num(w8.max_iops_at_slo) if w8.max_iops_at_slo else float("nan")
    return [Check(case["id"], "iops_under_1ms_ratio_9.0_over_8.3.1", case["ratio"], pred, case["tolerance"],
                  seed=case["seed"],
                  interpretation=f"Max IOPS with storage latency <= 1 ms on the same closed ramp: ONTAP 9.0 "
                  f"{_num(w9.max_iops_at_slo):,.0f} vs 8.3.1 {_num(w8.max_iops_at_slo):,.0f}. 'Over 60% more' read "
                  "as 1.6x. The 8.3.1 profile's CPU cost is calibrated on this relation (a fit, not a prediction).")]


# ----------------------------------------------------------------------------------------------- seed 001

_A800 = ("SLOB 100% SELECT as 8 KiB random reads, a closed ramp of 1..450 users with one outstanding read each "
         "and a think time of {z:.4f} ms per I/O (Little's law on the NVMe/FC peak point: 450 / 2.2M - 0.14 ms); "
         "host-side latency (Oracle's). Peak = the ramp's last point (450 users).")


def _a800(catalog: Catalog, software: str = "9.5", protocol: str = "FCP") -> WorkloadPerformance:
    return evaluate_one(seeds.a800(software, protocol), catalog)


def case_a800_fcp(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Case ``a800-slob-select-fcp`` (seed 001 §2, 3.6, 4): AFF A800 SLOB 100 % SELECT peak IOPS over FCP.

    Raises CaseError when the engine gives no prediction.
    """
    wp = _a800(catalog)
    return [Check(case["id"], "peak_iops", case["peak_iops"], wp.peak_iops or 0.0, case["tolerance_iops"],
                  seed=_seed(case), interpretation=_A800.format(z=seeds.A800_THINK_TIME_MS))]


def case_a800_nvmefc(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Case ``a800-slob-select-nvmefc`` (seed 001): A800 peak IOPS and host latency (ms) at the peak over NVMe/FC.

    The ramp's think time is derived from the peak point (``seeds.A800_THINK_TIME_MS``), so that point's IOPS and
    latency are tied by Little's law. Raises CaseError when the engine gives no prediction.
    """
    wp = _a800(catalog, protocol="NVMe/FC")
    checks = [Check(case["id"], "peak_iops", case["peak_iops"], wp.peak_iops or 0.0, case["tolerance_iops"],
                    seed=_seed(case), interpretation=_A800.format(z=seeds.A800_THINK_TIME_MS))]
    for point in case["points"]:
        checks.append(Check(case["id"], "host_latency_ms_at_peak", point["latency_ms"],
                            _num(wp.curve[-1].host_latency_ms), case["tolerance_latency"], seed=_seed(case),
                            interpretation=_A800.format(z=seeds.A800_THINK_TIME_MS)
                            + " The think time is derived from this point, so IOPS and latency here are tied by "
                            "Little's law."))
    return checks


def case_a800_peak_ratio(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Relation ``a800-nvmefc-vs-fcp-peak`` (seed 001): A800 peak IOPS, NVMe/FC over FCP (published 1.70).

    Raises CaseError when the engine gives no prediction.
    """
    f, n = _a800(catalog), _a800(catalog, protocol="NVMe/FC")
    return [Check(case["id"], "peak_iops_ratio_nvmefc_over_fcp", case["ratio"], (n.peak_iops or 0) / (f.peak_iops or 1),
                  case["tolerance"], seed=case["seed"],
                  interpretation=_A800.format(z=seeds.A800_THINK_TIME_MS)
                  + f" NVMe/FC {n.peak_iops:,.0f} vs FCP {f.peak_iops:,.0f} IOPS.")]


def case_a800_latency_ratio(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Relation ``a800-nvmefc-vs-fcp-latency`` (seed 001): host latency at FCP's peak IOPS, NVMe/FC over FCP.

    Calibrated jointly with the peaks, so a fit check. Raises CaseError when the engine gives no prediction.
    """
    f, n = _a800(catalog), _a800(catalog, protocol="NVMe/FC")
    fcp_peak = f.peak_iops or 0.0
    nv = latency_at_iops(_xs(n), _host(n), fcp_peak)
    fl = f.curve[-1].host_latency_ms
    pred = _num(nv) / _num(fl) if nv is not None and fl else float("nan")
    return [Check(case["id"], "latency_ratio_nvmefc_over_fcp_at_fcp_peak", case["ratio"], pred, case["tolerance"],
                  seed=case["seed"],
                  interpretation=_A800.format(z=seeds.A800_THINK_TIME_MS)
                  + f" Host-side latency at FCP's peak ({fcp_peak:,.0f} IOPS): NVMe/FC {_num(nv):.3f} ms vs FCP "
                  f"{_num(fl):.3f} ms. Calibrated jointly with the peaks (a fit, not an independent prediction).")]


def case_a800_95_vs_94(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Relation ``a800-ontap95-vs-94-fcp`` (seed 001): A800 FCP IOPS at 0.23 ms host latency, ONTAP 9.5 over 9.4.

    The 9.4 profile is calibrated on this relation, so it checks the fit. Raises CaseError when the engine gives no
    prediction.
    """
    w95, w94 = _a800(catalog, "9.5"), _a800(catalog, "9.4")
    x95 = iops_at_latency(_xs(w95), _host(w95), 0.23)
    x94 = iops_at_latency(_xs(w94), _host(w94), 0.23)
    pred = _num(x95) / _num(x94) if x95 and x94 else float("nan")
    return [Check(case["id"], "iops_ratio_at_0.23ms_9.5_over_9.4", case["ratio"], pred, case["tolerance"],
                  seed=case["seed"],
                  interpretation=_A800.format(z=seeds.A800_THINK_TIME_MS)
                  + f" IOPS where host latency reaches 0.23 ms: 9.5 {_num(x95):,.0f}, 9.4 {_num(x94):,.0f}. The 9.4 "
                  "profile's CPU cost is calibrated on this relation (a fit, not a prediction).")]


def case_a800_host_cpu(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Relation ``a800-nvmefc-host-cpu`` (seed 001): host CPU % per 100K IOPS, NVMe/FC over FCP.

    A consistency check of the host record's per-protocol CPU cost (taken from this seed) and of protocol
    detection, not a prediction. Raises CaseError when the engine gives no prediction.
    """
    f, n = _a800(catalog), _a800(catalog, protocol="NVMe/FC")
    pred = _num(n.host_cpu_pct_per_100k_iops) / _num(f.host_cpu_pct_per_100k_iops)
    return [Check(case["id"], "host_cpu_ratio_nvmefc_over_fcp", case["ratio"], pred, case["tolerance"],
                  seed=case["seed"], fitted_by="catalog constant: the host record's cpu_us_per_io (NVMe/FC / FCP = "
                  "0.57) was taken from this statement; not refitted by the calibration, so not cross-validated",
                  interpretation="Host CPU per I/O at the same IOPS from the host record's cpu_us_per_io by "
                  "protocol (catalog data taken from this seed statement: a consistency check of the catalog "
                  "and of the protocol detection, not a prediction).")]


# ----------------------------------------------------------------------------------------------- seed 002


def _vsan(catalog: Catalog, policy: str) -> WorkloadPerformance:
    return evaluate_one(seeds.vsan(policy), catalog)


VSAN_CONSTANT = ("engine constant: the vSAN software latencies were chosen from this case's write-latency range "
                 "and read bound; not refitted by the calibration, so not cross-validated")

_VSAN = ("TPC-E-like load as 8 KiB 90/10 random I/O at {iops:,} IOPS (assumed: ~8,000 TPS x 10 I/Os per "
         "transaction); open-model operating point; per-operation latency = each station's queueing factor applied "
         "to that operation's demand. The vSAN software latency per write phase is fitted to this seed's RAID1 "
         "write latency.")


def case_vsan_raid1(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Case ``vsan-tpce-raid1`` (seed 002): vSAN FTT=1 RAID1 write latency (a range) and read latency (a bound), ms.

    The load, 8 KiB 90/10 random at ``seeds.VSAN_TARGET_IOPS``, is assumed (the seed gives TPS only). Raises
    CaseError when the engine gives no prediction.
    """
    wp = _vsan(catalog, "ftt1-raid1")
    lo, hi = case["write_latency_ms_range"]
    text = _VSAN.format(iops=seeds.VSAN_TARGET_IOPS)
    return [
        Check(case["id"], "write_latency_ms", lo, _num(wp.write_latency_ms), case["tolerance_latency"], kind="range",
              published_high=hi, seed=_seed(case), interpretation=text, fitted_by=VSAN_CONSTANT),
        Check(case["id"], "read_latency_ms", case["read_latency_ms_max"], _num(wp.read_latency_ms),
              case["tolerance_latency"], kind="upper_bound", seed=_seed(case),
              interpretation=text + " 'Average disk read latency less than 2 ms'.", fitted_by=VSAN_CONSTANT),
    ]


def case_vsan_ratio(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Relation ``vsan-raid5-vs-raid1-write-latency`` (seed 002): vSAN write latency, RAID5 3+1 over RAID1.

    Same load as `case_vsan_raid1`. Raises CaseError when the engine gives no prediction.
    """
    r1, r5 = _vsan(catalog, "ftt1-raid1"), _vsan(catalog, "ftt1-raid5")
    pred = _num(r5.write_latency_ms) / _num(r1.write_latency_ms)
    return [Check(case["id"], "write_latency_ratio_raid5_over_raid1", case["ratio"], pred, case["tolerance"],
                  seed=case["seed"],
                  interpretation=_VSAN.format(iops=seeds.VSAN_TARGET_IOPS)
                  + f" RAID5 3+1 {_num(r5.write_latency_ms):.2f} ms vs RAID1 {_num(r1.write_latency_ms):.2f} ms at the "
                  "same load: a RAID5 partial-stripe write reads old data + parity, then writes new data + parity "
                  "(two distributed phases); RAID1 writes two replicas in one phase. In both, a write is "
                  "acknowledged from the cache tier: destaging to the capacity SSDs and near-line dedupe / "
                  "compression come later (they load those stations, not the write's latency).")]


# ----------------------------------------------------------------------------------------------- seed 003


def _util_text(wp: WorkloadPerformance) -> str:
    top = sorted(wp.stations, key=lambda s: -s.utilization)[:3]
    return ", ".join(f"{s.name} {s.utilization:.0%}" for s in top)


def case_ef550(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Case ``ef550-sas-mixed`` (seed 003): EF550 at the seed's 2.5 GB/s (MB/s in ``case``), two expectations.

    No station is saturated at that rate, and the host or target ports, below the array's 12 GB/s, bound the
    throughput. 256 KiB 50 % reads sequential is assumed. Raises CaseError when the engine gives no prediction.
    """
    wp = evaluate_one(seeds.ef550(case["workload"]["peak_mbps"]), catalog)
    keeps_up = wp.latency_at_target_ms is not None and all(s.utilization < 1.0 for s in wp.stations)
    bottleneck = wp.bottleneck_station
    links_bind = (bottleneck is not None and bottleneck.ident.role in PORT_ROLES
                  and wp.saturation_mbps < case["array_limit_mbps"])
    text = (f"256 KiB, 50% reads, sequential (assumed: the seed prints neither). At 2.5 GB/s the busiest stations: "
            f"{_util_text(wp)}. Saturation {wp.saturation_mbps:,.0f} MB/s, bottleneck '{wp.bottleneck}'. The 8 x 8Gb "
            "links carry 8 x 800 MB/s payload = 6,400 MB/s with one server per port for both directions (the seed's "
            "'8 GB/sec' is the nominal line rate); the array's 12 GB/s is a data-path station.")
    return [
        Check(case["id"], "no_station_saturated_at_2.5GBps", 1.0, 1.0 if keeps_up else 0.0, 0.0, kind="expect",
              expect_passed=keeps_up, seed=_seed(case), interpretation=text),
        Check(case["id"], "host_links_bound_throughput", 1.0, 1.0 if links_bind else 0.0, 0.0, kind="expect",
              expect_passed=links_bind, seed=_seed(case), interpretation=text),
    ]


def case_spinning(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Case ``spinning-sas-mixed`` (seed 003): the 192-drive RAID5 3+1 array keeps up with 2.5 GB/s.

    An expectation check (no station saturated, a latency at the target); 256 KiB 50/50 sequential is assumed.
    Raises CaseError when the engine gives no prediction.
    """
    wp = evaluate_one(seeds.spinning(case["workload"]["peak_mbps"]), catalog)
    keeps_up = wp.latency_at_target_ms is not None and all(s.utilization < 1.0 for s in wp.stations)
    return [Check(case["id"], "keeps_up_at_2.5GBps", 1.0, 1.0 if keeps_up else 0.0, 0.0, kind="expect",
                  expect_passed=keeps_up, seed=_seed(case),
                  interpretation=f"256 KiB 50/50 sequential (assumed) over 192 x 15K drives in RAID5 3+1 (full-stripe "
                  f"sequential writes cost 4/3 of the data); at 2.5 GB/s: {_util_text(wp)}; saturation "
                  f"{wp.saturation_mbps:,.0f} MB/s ('{wp.bottleneck}').")]


# ----------------------------------------------------------------------------------------------- seed 004


def _cvo_checks(catalog: Catalog, case: dict[str, Any], workload: str) -> list[Check]:
    from models.performance.seeds import cvo_concurrency

    checks = []
    block = seeds.CVO_WORKLOADS[workload]["block_kib"] * 1024
    unit = "iops" if workload == "oltp" else "mbps"
    for row in case["rows"]:
        vm_id = seeds.CVO_VM_IDS[row["vm"]]
        for ha in (False, True):
            prefix = "ha" if ha else "single"
            value = row.get(f"{prefix}_{unit}")
            if value is None:
                continue
            lat = row.get(f"{prefix}_latency_ms")
            n = cvo_concurrency(value, lat, workload)
            wp = evaluate_one(seeds.cvo(vm_id, ha, workload, concurrency=n), catalog)
            pred = (wp.peak_iops or 0.0) if unit == "iops" else (wp.peak_iops or 0.0) * block / 1e6
            vm = catalog.get(vm_id, CloudVm)
            nvram = catalog.get(vm.nvram_disk, CloudDisk).name if vm.nvram_disk else "the data disks"
            text = (f"{row['vm']} {'HA pair' if ha else 'single node'}, CVO 9.5, iSCSI, {seeds.CVO_DISK_COUNT} x P30 "
                    f"data disks (assumed), normal write speed: each write logged to the NVRAM disk, {nvram} "
                    f"(assumed, inferred from the seed's write ceilings: see the catalog record); Iometer outstanding "
                    f"I/Os N = {n} "
                    + ("(Little's law on this row: IOPS x latency, so latency = N / IOPS is tied to the throughput "
                       "check)" if lat is not None else "(assumed)")
                    + (f"; data read {seeds.CVO_STREAM_READ_WORKING_SET_BYTES / 2**30:g} GiB (assumed: held in "
                       "ONTAP's memory, since DS3_v2's 340 MB/s exceeds its disks' 192 MB/s cap)"
                       if workload == "stream-read" else "")
                    + f"; bottleneck '{wp.bottleneck}'. The VM's profile is fitted to its rows of Tables 2-5.")
            checks.append(Check(case["id"], f"{row['vm']}_{prefix}_{unit}", value, pred, case["tolerance"],
                                seed=_seed(case), interpretation=text))
            if lat is not None:
                checks.append(Check(case["id"], f"{row['vm']}_{prefix}_latency_ms", lat,
                                    _num(wp.curve[-1].host_latency_ms), case["tolerance"], seed=_seed(case),
                                    interpretation=text + " Latency host-side (Iometer's)."))
    return checks


def case_fabricpool_read(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Relation ``cvo-fabricpool-cold-read`` (seed 004): CVO read IOPS with all data in Blob over all on disks.

    DS4_v2 single node, 16 KiB random reads, 32 outstanding I/Os (assumed); compared with the range 0.5-0.7
    (the seed's "30-50 % lower"). Raises CaseError when the engine gives no prediction.
    """
    # the seed's FIO test: random reads, average 16 KiB
    hot = evaluate_one(_fp_read_scenario(0.0, "none"), catalog)
    cold = evaluate_one(_fp_read_scenario(100.0, "auto"), catalog)
    lo, hi = case["ratio_range"]
    return [Check(case["id"], "cold_over_hot_read_iops", lo, (cold.peak_iops or 0) / (hot.peak_iops or 1), 0.0,
                  kind="range", published_high=hi, seed=case["seed"],
                  interpretation="DS4_v2 single node (the seed names no VM: assumed), random 16 KiB reads (the "
                  "seed's average read size) with 32 outstanding I/Os (assumed), all data on the VM's disks vs all "
                  "data tiered to Blob: cold reads add the object store's first-byte latency "
                  "and cross the VM network. 'Degradation of 30-50%' read as a ratio of 0.5-0.7.",
                  fitted_by=FABRICPOOL_READ_CONSTANT)]


FABRICPOOL_READ_CONSTANT = (
    "assumed constant read with this range in view: the object store's first-byte latency (5 ms, assumed) decides "
    "whether the ratio lands in 0.5-0.7; at 4.5 ms it leaves the range, so the check holds only at the assumed "
    "latency")


def _fp_read_scenario(cold: float, tiering: str) -> Scenario:
    sc = seeds.cvo("azure-standard-ds4-v2", False, "analytics", concurrency=32, tiering=tiering, cold_data_pct=cold)
    w = sc.workloads[0].with_changes(read_pct=100, block_kib=16, name="FabricPool read")
    return sc.model_copy(update={"workloads": [w]})


def case_fabricpool_write(catalog: Catalog, case: dict[str, Any]) -> list[Check]:
    """Relation ``cvo-fabricpool-write`` (seed 004): CVO streaming write throughput, tiering "auto" over none.

    All cold data in Blob; the model predicts no change (ratio 1). Raises CaseError when the engine gives no
    prediction.
    """
    base = evaluate_one(seeds.cvo("azure-standard-ds4-v2", False, "stream-write", tiering="none"), catalog)
    tiered = evaluate_one(seeds.cvo("azure-standard-ds4-v2", False, "stream-write", tiering="auto",
                                    cold_data_pct=100.0), catalog)
    if tiered.peak_iops is None or base.peak_iops is None:
        raise CaseError("no peak throughput")
    return [Check(case["id"], "tiered_over_untiered_write_mbps", case["ratio"], tiered.peak_iops / base.peak_iops,
                  case["tolerance"], seed=case["seed"],
                  interpretation="DS4_v2 single node streaming write with tiering 'auto' and all cold data in Blob "
                  "vs no tiering: writes land on the VM's disks; tiering moves data in the background and cold data "
                  "only changes reads, so the model predicts no change.",
                  arithmetic="holds by construction: the model sends no write to the object store, so the ratio "
                  "is 1 whatever the inputs")]


PERFORMANCE_CASES: dict[str, Callable[[Catalog, dict[str, Any]], list[Check]]] = {
    "aff8080-tpce-fcp": case_aff8080_tpce,
    "a800-slob-select-fcp": case_a800_fcp,
    "a800-slob-select-nvmefc": case_a800_nvmefc,
    "a800-nvmefc-vs-fcp-peak": case_a800_peak_ratio,
    "a800-nvmefc-vs-fcp-latency": case_a800_latency_ratio,
    "a800-ontap95-vs-94-fcp": case_a800_95_vs_94,
    "a800-nvmefc-host-cpu": case_a800_host_cpu,
    "aff8080-ontap9-vs-831": case_aff8080_ontap9_vs_831,
    "vsan-tpce-raid1": case_vsan_raid1,
    "vsan-raid5-vs-raid1-write-latency": case_vsan_ratio,
    "ef550-sas-mixed": case_ef550,
    "spinning-sas-mixed": case_spinning,
    "cvo-azure-oltp": lambda c, k: _cvo_checks(c, k, "oltp"),
    "cvo-azure-streaming-read": lambda c, k: _cvo_checks(c, k, "stream-read"),
    "cvo-azure-streaming-write": lambda c, k: _cvo_checks(c, k, "stream-write"),
    "cvo-azure-analytics": lambda c, k: _cvo_checks(c, k, "analytics"),
    "cvo-fabricpool-cold-read": case_fabricpool_read,
    "cvo-fabricpool-write": case_fabricpool_write,
}
"""Case id -> function (catalog, case table) -> checks, for every performance, relation and cloud case."""
