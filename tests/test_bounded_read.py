"""The bounded reading layer and the two CSV readers on it (price book, lab data): hostile files are refused
within their byte and row limits (counted, not timed) and 200 MB with a message naming the file, the line and the
problem; RFC 4180 quoting parses; lab fits need a spread of loads (refused before any fitting); many lab points are
fitted with the same residuals as one at a time."""

from __future__ import annotations

import os
import sys
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from counted_reads import CountedReads

from models.bounded_read import (
    CsvLimits,
    FileRefusedError,
    csv_rows,
    detect_delimiter,
    parse_toml,
    read_bytes,
    read_text,
    toml_too_deep,
)
from models.calibration import CalibrationError, read_points_csv
from models.calibration.fit import (
    LAB_LIMITS,
    MAX_LAB_BYTES,
    Observation,
    _latency_residuals,
    check_load_spread,
    fit_from_csv,
    residual,
    run_ramps,
)
from models.catalog import bundled_catalog
from models.performance import seeds
from models.pricing import (
    MAX_PRICE_BOOK_BYTES,
    PRICE_BOOK_LIMITS,
    PriceBookError,
    read_price_book,
    read_price_book_file,
)

LIMIT_BYTES = 200 * 10**6


# ------------------------------------------------------------------------------------------ the hostile inputs


def _big_field(tmp_path: Path, reader: str) -> tuple[Path, list[str]]:
    path = tmp_path / f"{reader}-field.csv"
    header = "catalog_id,unit_price" if reader == "prices" else "iops,latency_ms"
    path.write_text(f"{header}\n" + "9" * (200 * 1024) + ",1\n", encoding="utf-8")
    return path, ["line 2", "characters"]


def _dev_zero(tmp_path: Path, reader: str) -> tuple[Path, list[str]]:
    return Path("/dev/zero"), ["/dev/zero", "a device, not a regular file"]


def _fifo(tmp_path: Path, reader: str) -> tuple[Path, list[str]]:
    path = tmp_path / f"{reader}.fifo"
    os.mkfifo(path)
    return path, [path.name, "a pipe (FIFO), not a regular file"]


def _million_rows(tmp_path: Path, reader: str) -> tuple[Path, list[str]]:
    """10^6 short rows: under the byte limit, so the row limit refuses them."""
    path = tmp_path / f"{reader}-rows.csv"
    if reader == "prices":
        body = "catalog_id,unit_price\n" + "".join(f"i{i},1\n" for i in range(10**6))
        limit = PRICE_BOOK_LIMITS.max_rows
    else:
        body = "iops,latency_ms\n" + "1,1\n" * 10**6
        limit = LAB_LIMITS.max_rows
    assert len(body) < (MAX_PRICE_BOOK_BYTES if reader == "prices" else MAX_LAB_BYTES)
    path.write_text(body, encoding="utf-8")
    return path, [f"line {limit + 2}", f"more than {limit:,} rows"]


def _million_long_rows(tmp_path: Path, reader: str) -> tuple[Path, list[str]]:
    """10^6 rows as a lab or a price list writes them: over the byte limit, refused before parsing."""
    path = tmp_path / f"{reader}-long-rows.csv"
    header = "catalog_id,unit_price,part_number" if reader == "prices" else "iops,latency_ms"
    row = "netapp-aff-a70-something,12500.00,X1234-PN-LONG-PART-NUMBER\n" if reader == "prices" else "123456.7,1.2345\n"
    with path.open("w", encoding="utf-8") as handle:
        handle.write(header + "\n")
        for _ in range(100):
            handle.write(row * 10**4)
    return path, ["more than the", "MiB this reader accepts"]


CASES = {"200 KiB field": _big_field, "/dev/zero": _dev_zero, "FIFO": _fifo, "10^6 rows": _million_rows,
         "10^6 long rows": _million_long_rows}


def _read(reader: str, path: Path) -> None:
    if reader == "prices":
        read_price_book_file(path, bundled_catalog())
    else:
        read_points_csv(path)


def _refusal(reader: str, path: Path) -> str:
    """The refusal's message; run in a thread, so a reader that blocked (a FIFO) fails the test instead of hanging
    it (the 30 s join is a hang watchdog: a refusal takes milliseconds)."""
    out: dict = {}

    def run() -> None:
        try:
            _read(reader, path)
        except (PriceBookError, CalibrationError) as exc:
            out["message"] = str(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "the reader blocked"
    assert "message" in out, "the reader accepted the file"
    return out["message"]


class _Work:
    """What a reader did with one file: whether it opened it (``os.open``), the bytes it read from it and the CSV
    rows it parsed (every file of these readers goes through :func:`models.bounded_read.read_bytes` and
    :func:`models.bounded_read.csv_rows`)."""

    def __init__(self, monkeypatch, path: Path) -> None:
        import csv

        self.opened, self.bytes, self.rows = 0, 0, 0
        work = self
        real_open, real_fdopen, real_reader = os.open, os.fdopen, csv.reader
        watched: set[int] = set()

        def counting_open(file, *args, **kwargs):
            fd = real_open(file, *args, **kwargs)
            if Path(os.fsdecode(file)) == path:
                work.opened += 1
                watched.add(fd)
            return fd

        def count(n: int) -> None:
            work.bytes += n

        def counting_fdopen(fd, *args, **kwargs):
            handle = real_fdopen(fd, *args, **kwargs)
            return CountedReads(handle, count) if fd in watched else handle

        class CountedReader:
            def __init__(self, *args, **kwargs) -> None:
                self._reader = real_reader(*args, **kwargs)

            def __iter__(self):
                return self

            def __next__(self):
                row = next(self._reader)
                work.rows += 1
                return row

            @property
            def line_num(self) -> int:
                return self._reader.line_num

        monkeypatch.setattr(os, "open", counting_open)
        monkeypatch.setattr(os, "fdopen", counting_fdopen)
        monkeypatch.setattr(csv, "reader", CountedReader)


@pytest.mark.skipif(sys.platform == "win32", reason="/dev/zero and FIFOs are POSIX")
@pytest.mark.parametrize("reader", ["prices", "lab"])
@pytest.mark.parametrize("case", list(CASES))
def test_hostile_file_refused_unread_and_within_200_mb(case, reader, tmp_path, monkeypatch):
    """Refused with a message naming the file, the line and the problem, having done no more than the limits
    allow (counted, not timed): never more bytes than the reader accepts, never more rows than its limit; a device
    or a FIFO never opened; a file over the byte limit refused from its size, unread; and within 200 MB."""
    path, words = CASES[case](tmp_path, reader)
    bundled_catalog()  # loaded once per process, outside the measurement
    max_bytes, limits = (MAX_PRICE_BOOK_BYTES, PRICE_BOOK_LIMITS) if reader == "prices" else (MAX_LAB_BYTES,
                                                                                              LAB_LIMITS)
    work = _Work(monkeypatch, path)
    message = _refusal(reader, path)
    monkeypatch.undo()
    assert "\n" not in message and "Traceback" not in message
    assert str(path) in message or path.name in message
    for word in words:
        assert word in message, message
    assert "reading took longer than" not in message, "refused by the clock, not by the limits"
    assert work.bytes <= max_bytes + 1, f"read {work.bytes:,} bytes"
    assert work.rows <= limits.max_rows + 2, f"parsed {work.rows:,} rows"
    if case in ("/dev/zero", "FIFO"):
        assert work.opened == 0, "a device or a pipe is refused from what it is, never opened"
    if case == "10^6 long rows":
        assert work.opened == 1 and work.bytes == 0, "refused from its size, before reading"
    if case in ("200 KiB field", "10^6 rows"):
        assert work.bytes == path.stat().st_size and work.rows > 0  # the counters see the reading
    tracemalloc.start()
    try:
        _refusal(reader, path)  # refused again (tracemalloc slows it: the time budget may be what refuses)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < LIMIT_BYTES, f"{peak / 1e6:.0f} MB"


def test_price_book_rfc4180_doubled_quotes():
    text = ('catalog_id,unit_price,part_number\n'
            'netapp-aff-a70,"12,500.00","AFF ""A70"" HA, 2 nodes"\n'
            'netapp-aff-a50,9000,"two\nlines"\n')
    rows = read_price_book(text, "p.csv", bundled_catalog())
    assert [(r.catalog_id, r.unit_price, r.part_number) for r in rows] == [
        ("netapp-aff-a70", 12500.0, 'AFF "A70" HA, 2 nodes'), ("netapp-aff-a50", 9000.0, "two\nlines")]
    semicolons = 'catalog_id;unit_price;part_number\nnetapp-aff-a70;1;"say ""hi""; then"\n'
    assert read_price_book(semicolons, "p.csv")[0].part_number == 'say "hi"; then'


def test_price_book_line_numbers_count_quoted_line_breaks():
    text = 'catalog_id,unit_price,part_number\nnetapp-aff-a70,1,"a\nb\nc"\nnetapp-aff-a50,lots,x\n'
    with pytest.raises(PriceBookError, match=r"^p\.csv: line 5: unit_price 'lots' is not a number$"):
        read_price_book(text, "p.csv")


@pytest.mark.parametrize("text, words", [
    ("catalog_id,unit_price\nab\x00c,1\n", ["line 2", "column 3", "U+0000"]),
    ("catalog_id,unit_price\nabc,1\x1b[31m\n", ["line 2", "column 6", "U+001B"]),
    ("catalog_id,unit_price,part_number\nabc,1," + "x" * 5000 + "\n", ["line 2", "part_number", "5,000 characters"]),
])
def test_price_book_control_characters_and_long_fields_named(text, words):
    with pytest.raises(PriceBookError) as caught:
        read_price_book(text, "p.csv")
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_not_utf8_names_line_and_column(tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(b"catalog_id,unit_price\nnetapp-aff-a70,1\nab\xffc,2\n")
    with pytest.raises(PriceBookError, match=r"p\.csv: line 3: column 3: byte 0xff is not UTF-8"):
        read_price_book_file(path)
    path.write_bytes(b"\xef\xbb\xbfcatalog_id,unit_price\nnetapp-aff-a70,1\n")  # a byte-order mark is fine
    assert read_price_book_file(path)[0].catalog_id == "netapp-aff-a70"


def test_folder_and_missing_file_refused(tmp_path):
    with pytest.raises(FileRefusedError, match="a folder, not a regular file"):
        read_bytes(tmp_path, 100)
    with pytest.raises(FileRefusedError, match="cannot read the file"):
        read_text(tmp_path / "none.csv", 100)


def test_symlink_to_a_regular_file_is_read_and_to_a_device_refused(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("x", encoding="utf-8")
    (tmp_path / "good").symlink_to(real)
    assert read_text(tmp_path / "good", 10) == "x"
    if Path("/dev/zero").exists():
        (tmp_path / "bad").symlink_to("/dev/zero")
        with pytest.raises(FileRefusedError, match="a device"):
            read_bytes(tmp_path / "bad", 10)


def test_size_limit_is_exact(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_bytes(path, 100) == b"x" * 100
    with pytest.raises(FileRefusedError, match="100 bytes, more than the 99 bytes"):
        read_bytes(path, 99)


def test_csv_rows_time_budget():
    text = "a\n" + "1\n" * 50_000
    with pytest.raises(FileRefusedError, match="reading took longer than 0 s"):
        list(csv_rows(text, "t.csv", CsvLimits(max_rows=10**6, max_field_chars=10, seconds=0.0)))


def test_detect_delimiter():
    assert detect_delimiter("catalog_id;unit_price;currency") == ";"
    assert detect_delimiter("catalog_id\tunit_price") == "\t"
    assert detect_delimiter('"a;b",c') == ","
    assert detect_delimiter("single") == ","


def test_toml_nesting_named_with_its_line():
    deep = "x = 1\n\nvalue = " + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(FileRefusedError, match=r"^u\.toml: line 3: arrays or tables nested more than 64 deep$"):
        parse_toml(deep, "u.toml")
    assert toml_too_deep('a = "[[[[[[[["\n# [[[[[[[[[\nb = [[1], [2]]\n', 3) is None
    assert toml_too_deep("a = [[[[1]]]]\n", 3) == 1


def test_toml_syntax_error_names_line_and_column():
    with pytest.raises(FileRefusedError, match=r"^u\.toml: line 2: column 8: not valid TOML: "):
        parse_toml("a = 1\n[[drive]\n", "u.toml")


# -------------------------------------------------------------------------------------------------- lab fits


@pytest.fixture
def fitting(monkeypatch) -> list[str]:
    """The calls of the fitting steps of models.calibration.fit (the path, the ramps, the least squares), each
    still done: a lab file refused before fitting leaves it empty."""
    from models.calibration import fit

    calls: list[str] = []
    for name in ("build_path", "run_ramps", "fit_profile"):
        real = getattr(fit, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(fit, name, spy)
    return calls


@pytest.mark.parametrize("rows, words", [
    ("1000,0.5\n", ["one measured point cannot be fitted"]),
    ("1000,0.5\n1000,0.6\n1050,0.7\n", ["3 points are all at about one load", "1,000 to 1,050 IOPS"]),
])
def test_lab_fit_needs_a_spread_of_loads(rows, words, tmp_path, fitting):
    path = tmp_path / "lab.csv"
    path.write_text("iops,latency_ms\n" + rows, encoding="utf-8")
    sc = seeds.a800("9.5", "NVMe/FC", users=16)
    with pytest.raises(CalibrationError) as caught:
        fit_from_csv(path, sc, bundled_catalog())
    assert fitting == []  # refused before any fitting
    for word in words:
        assert word in str(caught.value)
    check_load_spread([(1000.0, 0.5), (1100.0, 0.6)], "ok.csv")  # a 10% spread is enough


def test_lab_csv_names_line_and_column(tmp_path):
    path = tmp_path / "lab.csv"
    path.write_text('iops,latency_ms\n1000,0.3\n"2,000",0.4\n', encoding="utf-8")
    with pytest.raises(CalibrationError, match=r"lab\.csv: line 3: iops: '2,000' is not a number"):
        read_points_csv(path)
    path.write_text('"iops","latency_ms"\n"1000","0.3"\n2000,0.5\n', encoding="utf-8")
    assert read_points_csv(path) == [(1000.0, 0.3), (2000.0, 0.5)]


def test_many_lab_points_give_the_residuals_of_one_at_a_time():
    """The batched residuals of many points (a lab CSV) are the per-point ones, to the last bit: inside the ramp,
    at its first point, beyond its end (the shortfall penalty)."""
    sc = seeds.a800("9.5", "NVMe/FC", users=100)
    r = run_ramps({"lab": sc}, bundled_catalog())["lab"]
    rng = np.random.default_rng(7)
    iops = np.concatenate([rng.uniform(1.0, r.iops[-1] * 1.3, 400), r.iops[:40], [r.iops[0], r.iops[-1] * 1.2]])
    value = rng.uniform(0.1, 5.0, len(iops))
    weight = rng.uniform(0.5, 2.0, len(iops))
    for host in (True, False):
        one = [residual(Observation("lab", "latency_at_iops", value=float(v), iops=float(x), host_side=host,
                                    weight=float(w)), {"lab": r}) for x, v, w in zip(iops, value, weight)]
        assert np.array_equal(_latency_residuals(r, host, iops, value, weight), np.array(one))


def test_fitting_sees_a_lab_fit(tmp_path, fitting):
    """The spies are wired: a lab file with a spread of loads is fitted through them."""
    path = tmp_path / "lab.csv"
    path.write_text("iops,latency_ms\n20000,0.35\n60000,0.42\n120000,0.61\n", encoding="utf-8")
    fit_from_csv(path, seeds.a800("9.5", "NVMe/FC", users=16), bundled_catalog(), fit_servers=False)
    assert "fit_profile" in fitting


def test_cli_refuses_a_one_point_lab_fit_and_saves_nothing(tmp_path, capsys, fitting):
    from app.cli import main
    from models.resources import user_catalog_path

    path = tmp_path / "lab.csv"
    path.write_text("iops,latency_ms\n50000,0.6\n", encoding="utf-8")
    assert main(["calibrate", "--csv", str(path), "--project", "aff8080-sqlserver-tpce", "--save"]) == 2
    assert fitting == []  # refused before any fitting
    err = capsys.readouterr().err
    assert "one measured point cannot be fitted" in err and "lab.csv" in err and len(err.splitlines()) == 1
    assert not user_catalog_path().exists()


@pytest.mark.skipif(sys.platform == "win32", reason="/dev/zero is POSIX")
def test_cli_refuses_a_price_book_from_a_device(tmp_path, capsys, monkeypatch):
    from app.cli import main

    work = _Work(monkeypatch, Path("/dev/zero"))
    code = main(["import-prices", "aff8080-sqlserver-tpce", "/dev/zero", "-o", str(tmp_path / "p.toml")])
    monkeypatch.undo()
    assert code == 2 and work.opened == 0 and work.bytes == 0  # refused from what it is, never opened
    err = capsys.readouterr().err
    assert "/dev/zero: a device, not a regular file" in err and not (tmp_path / "p.toml").exists()
