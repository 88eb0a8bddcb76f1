"""Qt-free task functions and projects for the task-runner tests (the worker process imports this module)."""

from __future__ import annotations

import os
import time


def steps_until_cancelled(state, steps: int, step_s: float) -> str:
    """Report progress after each of ``steps`` short steps; stop early when cancelled."""
    for i in range(steps):
        if state.is_interruption_requested():
            return "interrupted"
        state.set_progress((i + 1) / steps)
        time.sleep(step_s)  # stands for a slice of engine work
    return "finished"


def ignore_cancel(state, seconds: float) -> str:
    """A long call that never looks at cancellation (a stuck engine); it says once that it started."""
    state.set_progress(0.0)
    time.sleep(seconds)
    return "finished"


def pid(state) -> int:
    """The process the task ran in."""
    return os.getpid()


def large_project(n_nodes: int = 1000, n_workloads: int = 1):
    """A realistic ``n_nodes`` design: an HA pair, 10 switches, 60 % hosts linked to them, the rest DS2246 shelves."""
    from models.project import ControllerNode, HostNode, Link, Project, Scenario, ShelfNode, SwitchNode, Workload

    hosts = n_nodes * 6 // 10
    shelves = n_nodes - hosts - 12
    nodes = [ControllerNode(id=f"c{i}", catalog_id="netapp-aff8080a-ex", x=i * 200.0) for i in range(2)]
    nodes += [SwitchNode(id=f"sw{i}", catalog_id="brocade-g630", x=i * 150.0, y=100.0) for i in range(10)]
    nodes += [HostNode(id=f"h{i}", catalog_id="hp-dl980-g7", adapter="emulex-lpe32002", label=f"DB server {i}",
                       x=(i % 50) * 160.0, y=400.0 + (i // 50) * 90.0) for i in range(hosts)]
    nodes += [ShelfNode(id=f"s{i}", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd", drive_count=24,
                        x=(i % 50) * 160.0, y=-300.0 - (i // 50) * 90.0) for i in range(shelves)]
    links = [Link(id=f"lh{i}", source=f"h{i}", target=f"sw{i % 10}", link_type="fc-32g", ports=2) for i in range(hosts)]
    links += [Link(id=f"lc{i}", source=f"sw{i}", target=f"c{i % 2}", link_type="fc-32g", ports=2) for i in range(10)]
    links += [Link(id=f"ls{i}", source=f"c{i % 2}", target=f"s{i}", link_type="sas-6g") for i in range(shelves)]
    workloads = [Workload(id=f"w{i}", name=f"OLTP {i}", target=f"c{i % 2}", hosts=[f"h{i}"], block_kib=8,
                          read_pct=70, random_pct=100, target_iops=5000.0, dataset_bytes=10**12)
                 for i in range(n_workloads)]
    scenario = Scenario(name="Base", nodes=nodes, links=links, workloads=workloads)
    return Project(info={"name": f"{n_nodes}-node design"}, scenarios=[scenario])
