"""Benchmark of a whole evaluation on large generated designs; prints ms per evaluation.

    uv run python benchmarks/bench_scale.py            # nodes 10 .. 10,000 x workloads 1 / 10 / 100

Each cell times ``models.evaluate.evaluate`` (problems, capacity and performance) cold: the engine's closed-ramp
cache is cleared before every run, as for a new design. The designs are built like a large customer's: pods of
ten items (five host groups dual-attached to a pair of FC switches, an AFF8080A EX HA pair on both switches,
two DS2246 shelves of 24 SSDs on SAS), 14 links per pod, workloads spread round-robin over the controllers,
half of them naming their host group, half served by every host that reaches the controller.

Targets (issue 12, on a 2-core machine): 1,000 nodes x 10 workloads <= 50 ms; 10,000 nodes x 1 workload
<= 500 ms; the time per node from 1,000 to 10,000 nodes (same workloads) within 1.5x. The CPU time of the
process is printed beside the wall time: when other work shares the cores it is the better estimate of what a
quiet machine takes.
"""

from __future__ import annotations

import argparse
import os
import time

from models.evaluate import evaluate
from models.performance import engine
from models.project.model import (
    ControllerNode,
    HostNode,
    Link,
    Project,
    Scenario,
    ShelfNode,
    SwitchNode,
    Workload,
)

POD_NODES = 10
"""Items per pod: 5 host groups, 2 switches, 1 controller (HA pair), 2 shelves."""

NODE_COUNTS = (10, 100, 1_000, 10_000)
WORKLOAD_COUNTS = (1, 10, 100)


def make_design(nodes: int, workloads: int) -> Project:
    """A realistic project of about ``nodes`` items (rounded up to whole pods) and ``workloads`` workloads.

    Args:
        nodes: canvas items wanted (>= 1); workloads: enabled workloads (>= 0), spread round-robin over the
            controllers.

    Returns:
        A :class:`Project` with one scenario ("Base") whose every id is unique and every link valid.
    """
    pods = max(1, -(-nodes // POD_NODES))
    node_list: list = []
    links: list[Link] = []
    controllers: list[str] = []
    host_groups: list[list[str]] = []
    for p in range(pods):
        x = 400.0 * p
        hosts = [f"p{p}-h{h}" for h in range(5)]
        switches = [f"p{p}-sw{s}" for s in "ab"]
        ctl = f"p{p}-ctl"
        shelves = [f"p{p}-sh{s}" for s in (1, 2)]
        for h, host in enumerate(hosts):
            node_list.append(HostNode(id=host, catalog_id="fujitsu-primergy-rx300-s7", label=f"pod {p} hosts {h}",
                                      x=x, y=80.0 * h, count=4, adapter="qlogic-qle2562", adapters_per_host=2))
        for s, switch in enumerate(switches):
            node_list.append(SwitchNode(id=switch, catalog_id="brocade-6510", x=x + 150, y=200.0 * s))
        node_list.append(ControllerNode(id=ctl, catalog_id="netapp-aff8080a-ex", label=f"pod {p} AFF8080",
                                        x=x + 300, y=100.0, software="9.0", adp="root-data"))
        for s, shelf in enumerate(shelves):
            node_list.append(ShelfNode(id=shelf, catalog_id="netapp-ds2246", x=x + 380, y=200.0 * s,
                                       drive="netapp-x447a-800gb-ssd", drive_count=24))
        for host in hosts:
            for switch in switches:
                links.append(Link(id=f"{host}-{switch}", source=host, target=switch, link_type="fc-8g", ports=4))
        for switch in switches:
            links.append(Link(id=f"{switch}-{ctl}", source=switch, target=ctl, link_type="fc-16g", ports=4))
        for shelf in shelves:
            links.append(Link(id=f"{ctl}-{shelf}", source=ctl, target=shelf, link_type="sas-6g", ports=4))
        controllers.append(ctl)
        host_groups.append(hosts)
    work = []
    for w in range(workloads):
        pod = w % pods
        work.append(Workload(
            id=f"w{w}", name=f"OLTP {w}", target=controllers[pod],
            hosts=[host_groups[pod][w % 5]] if w % 2 == 0 else [],
            block_kib=8.0, read_pct=70.0 + w % 3 * 10, random_pct=100.0, target_iops=20_000.0 + 1_000.0 * (w % 7),
            slo_ms=1.0, concurrency=256, dataset_bytes=2 * 10**12, working_set_bytes=4 * 10**11,
            compression_ratio=1.5,
        ))
    scenario = Scenario(name="Base", nodes=node_list, links=links, workloads=work)
    return Project(scenarios=[scenario], active_scenario="Base")


def cold_ms(project: Project, repeat: int) -> tuple[float, float]:
    """Wall time and CPU time of this process for a cold ``evaluate(project)`` (closed-ramp cache cleared first),
    ms, each the fastest of ``repeat`` runs (the run least disturbed by other work, as ``timeit`` advises). On a
    machine busy with other work the CPU time is the closer estimate of a quiet machine's wall time."""
    evaluate(project)  # warm-up: imports, catalog
    wall, cpu = [], []
    for _ in range(repeat):
        engine._CURVE_CACHE.clear()
        t, c = time.perf_counter(), time.process_time()
        evaluate(project)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return 1000.0 * min(wall), 1000.0 * min(cpu)


def _table(title: str, table: dict[tuple[int, int], float]) -> None:
    print(title)
    print(f"{'nodes':>7s} " + " ".join(f"{f'x {w} wl':>11s}" for w in WORKLOAD_COUNTS))
    for n in NODE_COUNTS:
        print(f"{n:7,d} " + " ".join(f"{table[n, w]:11.1f}" for w in WORKLOAD_COUNTS))
    print()


def _targets(label: str, table: dict[tuple[int, int], float]) -> None:
    checks = [("1,000 nodes x 10 workloads <= 50 ms", table[1_000, 10], 50.0),
              ("10,000 nodes x 1 workload <= 500 ms", table[10_000, 1], 500.0)]
    for name, value, limit in checks:
        print(f"{label:5s} {name:40s} {value:8.1f} ms  {'ok' if value <= limit else 'MISSED'}")
    for w in WORKLOAD_COUNTS:
        ratio = (table[10_000, w] / 10_000) / (table[1_000, w] / 1_000)
        print(f"{label:5s} time per node 10,000 / 1,000 nodes, {w:3d} workloads: {ratio:5.2f}x  "
              f"{'ok' if ratio <= 1.5 else 'MISSED'} (target <= 1.5x)")


def main(argv: list[str] | None = None) -> None:
    """Run every cell and print the wall-clock table, the CPU table and the targets (``--repeat N`` runs each)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per cell (the fastest counts; default 5)")
    args = parser.parse_args(argv)
    wall: dict[tuple[int, int], float] = {}
    cpu: dict[tuple[int, int], float] = {}
    for n in NODE_COUNTS:
        for w in WORKLOAD_COUNTS:
            wall[n, w], cpu[n, w] = cold_ms(make_design(n, w), args.repeat if n * max(w, 10) <= 100_000 else 3)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"{os.cpu_count()} cores, load average {load:.1f} while measuring")
    print()
    _table("ms per evaluation (cold, wall clock, fastest run), models.evaluate.evaluate", wall)
    _table("CPU ms per evaluation (this process, fastest run)", cpu)
    _targets("wall", wall)
    _targets("CPU", cpu)


if __name__ == "__main__":
    main()
