"""The bounded readers: time and peak memory to refuse hostile price books and lab CSVs, and the time of a lab fit
against its number of rows (the batched residuals: 5,000 rows took 44 s before, one residual at a time).

Run: ``uv run python benchmarks/bench_readers.py [repeats]``. Targets: every refusal under 2 s and 200 MB (median
of ``repeats``, default 3); a lab fit of :data:`models.calibration.fit.LAB_LIMITS` rows (10,000, the most a lab CSV
may hold) within a few times the fit of 5 rows.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

from models.calibration import CalibrationError, fit_from_csv, read_points_csv, run_ramps
from models.catalog import bundled_catalog
from models.performance import seeds
from models.pricing import PriceBookError, read_price_book_file


def _files(folder: Path) -> dict[str, tuple[str, Path]]:
    out: dict[str, tuple[str, Path]] = {}
    for reader, header in (("prices", "catalog_id,unit_price"), ("lab", "iops,latency_ms")):
        field = folder / f"{reader}-field.csv"
        field.write_text(f"{header}\n" + "9" * 200 * 1024 + ",1\n", encoding="utf-8")
        rows = folder / f"{reader}-rows.csv"
        rows.write_text(f"{header}\n" + ("".join(f"i{i},1\n" for i in range(10**6)) if reader == "prices"
                                         else "1,1\n" * 10**6), encoding="utf-8")
        fifo = folder / f"{reader}.fifo"
        os.mkfifo(fifo)
        for name, path in (("200 KiB field", field), ("/dev/zero", Path("/dev/zero")), ("FIFO", fifo),
                           ("10^6 rows", rows)):
            out[f"{reader}: {name}"] = (reader, path)
    return out


def _refuse(reader: str, path: Path) -> str:
    try:
        if reader == "prices":
            read_price_book_file(path, bundled_catalog())
        else:
            read_points_csv(path)
    except (PriceBookError, CalibrationError) as exc:
        return str(exc)
    raise AssertionError(f"{path} accepted")


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    bundled_catalog()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'refusal':<28} {'median s':>9} {'peak MB':>8}  message")
        for name, (reader, path) in _files(Path(tmp)).items():
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                message = _refuse(reader, path)
                times.append(time.perf_counter() - start)
            tracemalloc.start()
            _refuse(reader, path)
            peak = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
            print(f"{name:<28} {statistics.median(times):>9.3f} {peak:>8.1f}  {message[-70:]}")
        sc = seeds.a800("9.5", "NVMe/FC", users=450)
        r = run_ramps({"lab": sc}, bundled_catalog())["lab"]
        print(f"\n{'lab fit rows':<28} {'median s':>9}")
        for n in (5, 500, 10_000):
            path = Path(tmp) / f"lab-{n}.csv"
            idx = np.linspace(0, len(r.iops) - 1, n).astype(int)
            path.write_text("iops,latency_ms\n" + "".join(f"{r.iops[i]},{r.host_ms[i]}\n" for i in idx),
                            encoding="utf-8")
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                fit_from_csv(path, sc, bundled_catalog(), host_side=True)
                times.append(time.perf_counter() - start)
            print(f"{n:<28,} {statistics.median(times):>9.2f}")


if __name__ == "__main__":
    main()
