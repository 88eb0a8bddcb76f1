"""Save and open times of a 10,000-node project (issue 27: <= 200 ms each; 1,000 nodes were the earlier size).

Run: ``uv run python benchmarks/bench_store.py [nodes]`` (default 10,000). Each of 9 rounds saves the project and
opens it again; the wall-clock medians are the figures, the process CPU time of each is printed beside them (on a
busy machine it tells a change's effect better than the wall clock).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.catalog import Catalog, CatalogError, bundled_catalog
from models.project import ControllerNode, HostNode, Link, Project, Scenario, ShelfNode, SwitchNode, Workload
from models.store import open_project, save_project

TARGET_MS = 200.0


MIN_NODES = 5
"""The smallest project: two controllers, a switch, a host and a shelf."""


def project_with(n_nodes: int) -> Project:
    """A project of exactly ``n_nodes`` nodes: an AFF8080 pair, a switch per 100 nodes (1 to 10), about 60 %
    hosts and the rest DS2246 shelves (at least one each), 200 OLTP workloads spread over the hosts.

    Raises:
        ValueError: ``n_nodes`` is under :data:`MIN_NODES`.
    """
    if n_nodes < MIN_NODES:
        raise ValueError(f"at least {MIN_NODES} nodes (two controllers, a switch, a host and a shelf)")
    switches = min(10, max(1, n_nodes // 100))
    hosts = min(n_nodes * 6 // 10, n_nodes - switches - 2 - 1)  # the 1,000-node project keeps its 600 hosts
    shelves = n_nodes - hosts - switches - 2
    nodes = [ControllerNode(id=f"c{i}", catalog_id="netapp-aff8080a-ex", x=i * 200.0) for i in range(2)]
    nodes += [SwitchNode(id=f"sw{i}", catalog_id="brocade-g630", y=100.0 + i) for i in range(switches)]
    nodes += [HostNode(id=f"h{i}", catalog_id="hp-dl980-g7", adapter="emulex-lpe32002", label=f"DB server {i}",
                       x=i * 3.25, y=400.0) for i in range(hosts)]  # fmt: skip
    nodes += [ShelfNode(id=f"s{i}", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd", drive_count=24,
                        x=i * 5.5, y=-300.0) for i in range(shelves)]  # fmt: skip
    links = [Link(id=f"lh{i}", source=f"h{i}", target=f"sw{i % switches}", link_type="fc-32g", ports=2)
             for i in range(hosts)]
    links += [Link(id=f"ls{i}", source=f"c{i % 2}", target=f"s{i}", link_type="sas-6g") for i in range(shelves)]
    workloads = [Workload(id=f"w{i}", name=f"OLTP {i}", target=f"c{i % 2}", hosts=[f"h{i % hosts}"], block_kib=8,
                          read_pct=70, random_pct=100, target_iops=5000.0, dataset_bytes=10**12)
                 for i in range(200)]  # fmt: skip
    scenario = Scenario(name="Base", nodes=nodes, links=links, workloads=workloads)
    assert len(scenario.nodes) == n_nodes
    return Project(info={"name": f"{n_nodes}-node benchmark"}, scenarios=[scenario])


def main() -> int:
    n_nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    project = project_with(n_nodes)
    try:
        catalog = bundled_catalog()
    except CatalogError:
        catalog = Catalog([], "")
    saves, opens, save_cpu, open_cpu = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.storplan"
        for _ in range(9):
            c0, t0 = time.process_time(), time.perf_counter()
            save_project(project, path, catalog=catalog)
            c1, t1 = time.process_time(), time.perf_counter()
            opened = open_project(path)
            c2, t2 = time.process_time(), time.perf_counter()
            assert opened.project == project
            saves.append((t1 - t0) * 1000)
            opens.append((t2 - t1) * 1000)
            save_cpu.append((c1 - c0) * 1000)
            open_cpu.append((c2 - c1) * 1000)
        size_kib = path.stat().st_size / 1024
    save_ms, open_ms = statistics.median(saves), statistics.median(opens)
    try:
        load = f"{os.getloadavg()[0]:.1f}"
    except (OSError, AttributeError):  # pragma: no cover - not on every platform
        load = "?"
    print(f"{n_nodes} nodes, {len(project.scenario.links)} links, {len(project.scenario.workloads)} workloads, "
          f"file {size_kib:.0f} KiB")  # fmt: skip
    print(f"{os.cpu_count()} cores, load average {load}")
    print(f"save: median {save_ms:6.1f} ms (min {min(saves):.1f}, max {max(saves):.1f}; CPU median "
          f"{statistics.median(save_cpu):.1f} ms)  target <= {TARGET_MS:.0f} ms")
    print(f"open: median {open_ms:6.1f} ms (min {min(opens):.1f}, max {max(opens):.1f}; CPU median "
          f"{statistics.median(open_cpu):.1f} ms)  target <= {TARGET_MS:.0f} ms")
    ok = save_ms <= TARGET_MS and open_ms <= TARGET_MS
    print("OK" if ok else "SLOWER THAN TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
