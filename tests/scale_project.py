"""A generated large project for the scale tests: realistic, not random.

Host groups on switches, ONTAP HA pairs each with two shelves, links between them, workloads spread over the
controllers (the shape issue 12's benchmarks use).
"""

from __future__ import annotations

from models.project.model import Project

CELL_NODES = 4
"""Nodes per cell: one host group, one HA pair, two shelves (switches come on top, one per 4 cells)."""
CELLS_PER_SWITCH = 4


def large_project(n_nodes: int = 1000, n_workloads: int = 10) -> Project:
    """A project of about ``n_nodes`` nodes (never fewer): cells of a host group (4 servers), an AFF8080A EX HA
    pair with two DS2246 shelves of 24 x 800GB SSD, four cells per Brocade 6510 switch (24 ports: 4 x (4 host + 2 target
    ports)); ``n_workloads`` OLTP workloads on the first controllers (round robin)."""
    cells = 1
    while cells * CELL_NODES + -(-cells // CELLS_PER_SWITCH) < n_nodes:
        cells += 1
    nodes: list[dict] = []
    links: list[dict] = []
    for s in range(-(-cells // CELLS_PER_SWITCH)):
        nodes.append({"id": f"sw-{s}", "kind": "switch", "catalog_id": "brocade-6510", "label": f"Fabric {s + 1}",
                      "x": 340.0, "y": 400.0 * s})
    for c in range(cells):
        y = 160.0 * c
        sw = f"sw-{c // CELLS_PER_SWITCH}"
        nodes.append({"id": f"h-{c}", "kind": "host", "catalog_id": "fujitsu-primergy-rx300-s7",
                      "label": f"SQL hosts {c + 1}", "count": 4, "adapter": "qlogic-qle2562",
                      "adapters_per_host": 2, "x": 0.0, "y": y})
        nodes.append({"id": f"c-{c}", "kind": "controller", "catalog_id": "netapp-aff8080a-ex",
                      "label": f"AFF8080 pair {c + 1}", "software": "9.0", "raid_type": "raid_dp",
                      "adp": "root-data", "x": 680.0, "y": y})
        for k in (1, 2):
            nodes.append({"id": f"s-{c}-{k}", "kind": "shelf", "catalog_id": "netapp-ds2246",
                          "label": f"DS2246 {c + 1}.{k}", "drive": "netapp-x447a-800gb-ssd", "drive_count": 24,
                          "x": 1040.0, "y": y + 80.0 * (k - 1)})
            links.append({"id": f"l-s-{c}-{k}", "source": f"c-{c}", "target": f"s-{c}-{k}", "link_type": "sas-6g",
                          "ports": 4})
        links.append({"id": f"l-h-{c}", "source": f"h-{c}", "target": sw, "link_type": "fc-8g", "ports": 4})
        links.append({"id": f"l-t-{c}", "source": sw, "target": f"c-{c}", "link_type": "fc-16g", "ports": 2})
    workloads = [{"id": f"w-{i}", "name": f"OLTP {i + 1}", "target": f"c-{i % cells}", "hosts": [f"h-{i % cells}"],
                  "block_kib": 8.0, "read_pct": 90.0, "random_pct": 100.0, "target_iops": 50_000.0, "slo_ms": 1.0,
                  "concurrency": 64, "dataset_bytes": 2_000_000_000_000, "compression_ratio": 1.5}
                 for i in range(n_workloads)]
    return Project.model_validate({
        "info": {"name": f"Scale test, {len(nodes)} nodes"},
        "scenarios": [{"name": "Base", "nodes": nodes, "links": links, "workloads": workloads}],
        "active_scenario": "Base",
    })
