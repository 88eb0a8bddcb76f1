"""Write time of the XLSX sizing workbook with a large Curves sheet: the AFF8080 example with eight workloads
(every curve point of every workload in every failure state: about 5,000 rows), sheets built once.

Run: ``uv run python benchmarks/bench_workbook.py``. Prints the rows per sheet and the median of 5 writes
(``app.report.workbook.write_xlsx``, every cell through ``models.present.workbook.safe_cell``); before the writer
stopped rescanning the sheet for every row this took 34.8 s (median of 3) on the shared 2-core machine, 2.7 s after.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.report.workbook import sizing_sheets, write_xlsx
from models.project import load
from models.resources import examples_dir

WORKLOADS = 8
TARGET_S = 5.0


def main() -> int:
    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    template = project.scenario.workloads[0]
    workloads = [template.model_copy(update={"id": f"w{i}", "name": f"Workload {i}", "target_iops": 1000.0 * (i + 1)})
                 for i in range(WORKLOADS)]
    project = project.with_scenario(project.scenario.with_changes(workloads=workloads))
    sheets = sizing_sheets(project)
    times = []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "sizing.xlsx"
        for _ in range(5):
            start = time.perf_counter()
            write_xlsx(sheets, out)
            times.append(time.perf_counter() - start)
        size = out.stat().st_size
    median = statistics.median(times)
    print("rows: " + ", ".join(f"{name} {len(rows)}" for name, rows in sheets.items()))
    print(f"write_xlsx, median of 5: {median:.2f} s   (target < {TARGET_S:g} s)   {size / 1024:.0f} KiB")
    return 0 if median < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
