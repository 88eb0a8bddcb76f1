"""Fuzzing the files StorPlan reads, through every command: mutated example projects (bytes of a .storplan, its
SQLite rows and schema, TOML values and text), absurd catalog records a project carries, hostile TOML (deep or odd
structure, NaN / inf, control characters, huge fields, absurd counts) and non-regular files (pipes, folders,
devices, links).

Every input first goes through ``storplan evaluate --json`` in-process (``app.cli.main``): a clean refusal (exit
status 2, one ``storplan: ...`` line) or a sane evaluation (exit 0 or 2 with JSON that has no NaN or infinity).

**Through all commands.** An input *counts* when it then goes through every other command that applies:
``report``, ``export-xlsx``, ``export-csv``, ``size --json``, ``calibrate --csv LAB --project`` and, for a text
project, ``import``. Each kind (and part of a kind) draws seeded cases until exactly :data:`PLAN`'s number of
inputs have gone through all commands; the plan adds up to :data:`FLOOR` = 1,500 or more (asserted statically
below), and each test asserts its own count and that every command ran on every counted input.

* an input evaluate **refuses** must be refused by every other command too, with the very same message, exit 2, and
  no output written;
* an input evaluate **accepts** must give exit 0, 1 or 2 (one ``storplan:`` line per problem) in each command, and
  what the command wrote is read back: JSON without NaN / Infinity tokens, the PDF's text (pypdf), the workbook's
  cells (openpyxl) and the CSV cells without a ``nan`` / ``inf`` word the input did not itself contain; it is
  also saved as a ``.storplan`` and must open back equal.

In every command: no traceback, under :data:`COMMAND_LIMIT_S` of CPU time (and :data:`WALL_LIMIT_S` of wall time,
which catches a blocking read on a shared, busy machine without failing on its load), the input unchanged and
nothing created beside it.

**Why most counted inputs are refused ones.** An accepted input costs 1-3 s of CPU through the six commands
(``report`` runs the sizer and lays out the PDF, ``size`` searches again, the two exports write the sheets (the
validation cases replayed once per process), ``calibrate`` fits 13 least-squares starts on the AFF8080
example), a refused one about 0.03 s. Every accepted input through every
command would cost about 15 minutes of CPU; so each part puts its first :data:`PLAN` ``accepted`` accepted inputs
through all commands and counts them, and any later accepted input of that part goes through ``evaluate`` and the
save-and-reopen check only and is **not** counted. Counted: 1,504 inputs through all commands, of which 48 are
accepted by evaluate (3 to 8 per kind) and 1,456 refused by every command alike (both figures asserted); besides
those, accepted inputs past the quotas go through ``evaluate`` and save-and-reopen only (321 in the run this was
written from, 167 of them SQLite-row edits, which evaluate mostly accepts; this figure is printed, not
asserted). The module took 167 s of CPU in one run on the shared 2-core machine, in 10 parts (tests) xdist can
spread (``pytest -s`` prints each part's counts and CPU seconds per command).

Seeded: a fixed seed, each case reproducible from its kind and number; no time guard (a slow machine takes longer,
it does not run fewer inputs).
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import math
import os
import random
import re
import sqlite3
import stat
import time
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import tomli_w

from app.cli import main
from models.project import load
from models.resources import examples_dir
from models.store import save_project

SEED = 20261124
EXAMPLES = ("aff8080-sqlserver-tpce", "vsan-sqlserver-raid5", "cvo-azure-ds4-ha-oltp", "ef550-sas-analytics")


class Part(NamedTuple):
    """One test's share of a kind: it draws the kind's cases ``first``, ``first + step``, ... until ``counted`` inputs
    went through all commands, ``accepted`` of them accepted by evaluate (the first that many accepted), within
    ``max_cases`` drawn cases."""

    kind: str
    first: int
    step: int
    counted: int
    accepted: int
    max_cases: int


PLAN: tuple[Part, ...] = (
    Part("bytes", 0, 1, 200, 5, 320),
    Part("rows", 0, 1, 130, 8, 700),
    Part("schema", 0, 1, 110, 3, 200),
    Part("toml", 0, 2, 150, 4, 300),
    Part("toml", 1, 2, 150, 4, 300),
    Part("toml_text", 0, 1, 200, 4, 320),
    Part("records", 0, 2, 160, 4, 300),
    Part("records", 1, 2, 160, 4, 300),
    Part("hostile", 0, 1, 160, 6, 400),
    Part("files", 0, 1, 84, 6, 220),
)
"""The tests: a kind with two parts draws its even and odd cases in two tests (xdist runs them side by side)."""
FLOOR = 1_500
"""Inputs through all commands, over the module: issue 26 asks for at least 1,500."""
COMMAND_LIMIT_S = 10.0
"""CPU seconds one command may take on one input."""
WALL_LIMIT_S = 40.0
"""Wall seconds one command may take on one input (a read that blocks uses no CPU; a busy machine stretches CPU
time up to a few times in wall time, hence more than COMMAND_LIMIT_S)."""


@dataclass
class Tally:
    """One test's own counts (nothing shared between tests): command runs, CPU seconds per command (and reading
    outputs back), and the slowest single command in CPU and wall seconds."""

    runs: Counter[str] = field(default_factory=Counter)
    cpu: Counter[str] = field(default_factory=Counter)
    slowest_cpu: float = 0.0
    slowest_wall: float = 0.0


NASTY_NUMBERS: list[Any] = [0, -1, 1, -0.0, 1e-320, 1e308, -1e308, 2**63 - 1, -(2**63), 2**64, 10**30,
                            float("inf"), float("-inf"), float("nan"), 0.5, 99999999]  # fmt: skip
NASTY_TEXT: list[Any] = ["", "x", "host", "controller", "shelf", "raid_dp", "NaN", "Infinity", "-inf", "1e999",
                         "{", "[]", "{}", '{"a": [1, 2', "null", "'; DROP TABLE node; --", "\x00", "😀" * 50,
                         "A" * 100_000, "=HYPERLINK(\"http://example.com\",\"x\")", "<b>bold</b>", "\x1b[31m",
                         "a\u2028b", "\ud7ff", "\t\r\n"]  # fmt: skip
LAB_CSV = "iops,latency_ms\n20000,0.35\n60000,0.42\n120000,0.61\n180000,0.95\n"


class NoConstantError(ValueError):
    pass


def _reject_constant(name: str) -> float:
    raise NoConstantError(f"JSON holds {name}")


def _identity(path: Path) -> tuple:
    """What must not change: a regular file's bytes; anything else's type and inode (never read: a pipe blocks)."""
    st = os.lstat(path)
    if stat.S_ISREG(st.st_mode):
        return ("file", hashlib.sha256(path.read_bytes()).hexdigest(), st.st_mtime_ns)
    return ("other", stat.S_IFMT(st.st_mode), st.st_ino, st.st_mtime_ns)


_NON_FINITE = re.compile(r"(?<![A-Za-z0-9_])-?(nan|inf)(?![A-Za-z0-9_])")


def _non_finite_words(text: str, source_text: str) -> list[str]:
    """``nan`` / ``inf`` words in an output that the input did not itself contain (a name may be "inf")."""
    return [m.group() for m in _NON_FINITE.finditer(text) if m.group() not in source_text]


def _source_text(path: Path) -> str:
    try:
        if path.is_file() and path.stat().st_size < 64 * 2**20:
            return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        pass
    return ""


def _commands(path: Path, out: Path) -> dict[str, list[str]]:
    lab = out / "lab.csv"
    if not lab.exists():
        lab.write_text(LAB_CSV)
    commands = {
        "report": ["report", str(path), "-o", str(out / "r.pdf")],
        "export-xlsx": ["export-xlsx", str(path), "-o", str(out / "w.xlsx")],
        "export-csv": ["export-csv", str(path), "-o", str(out / "csv")],
        "size": ["size", str(path), "--json", "--top", "2"],
        "calibrate": ["calibrate", "--csv", str(lab), "--project", str(path)],
    }
    if path.suffix.lower() == ".toml":
        commands["import"] = ["import", str(path), "-o", str(out / "i.storplan")]
    return commands


def _check_outputs(name: str, code: int, stdout: str, out: Path, source: str, label: str) -> None:
    """Read back what a command wrote: no NaN / inf in JSON, PDF text, workbook or CSV cells."""
    if code != 0:
        return
    if name == "size":
        try:
            json.loads(stdout, parse_constant=_reject_constant)
        except NoConstantError as exc:
            pytest.fail(f"{label}: size: {exc}")
    elif name == "report":
        from pypdf import PdfReader

        text = "".join(page.extract_text() or "" for page in PdfReader(out / "r.pdf").pages)
        assert not _non_finite_words(text, source), f"{label}: the PDF says {_non_finite_words(text, source)[:5]}"
    elif name == "export-xlsx":
        import openpyxl

        book = openpyxl.load_workbook(out / "w.xlsx", read_only=True)
        for sheet in book:
            for row in sheet.iter_rows(values_only=True):
                for value in row:
                    if isinstance(value, float):
                        assert math.isfinite(value), f"{label}: sheet {sheet.title} holds {value}"
                    elif isinstance(value, str):
                        assert not _non_finite_words(value, source), f"{label}: sheet {sheet.title}: {value[:80]}"
        book.close()
    elif name == "export-csv":
        for file in sorted((out / "csv").glob("*.csv")):
            with open(file, newline="", encoding="utf-8") as fh:
                for row in csv.reader(fh):
                    for value in row:
                        assert not _non_finite_words(value, source), f"{label}: {file.name}: {value[:80]}"


def _clean_outputs(out: Path) -> None:
    for child in out.iterdir():
        if child.name == "lab.csv":
            continue
        if child.is_dir():
            for inner in child.iterdir():
                inner.unlink()
            child.rmdir()
        else:
            child.unlink()


def run_case(path: Path, label: str, through_all_if_accepted: bool, tally: Tally) -> str:
    """Evaluate ``path`` through the command line, then (module docstring) every other command, or for an accepted
    input past its part's quota only the save-and-reopen check; assert a clean outcome of each, counted in ``tally``.
    Returns "refused", "accepted" (through all commands) or
    "accepted-evaluate-only"."""
    folder = path.parent
    out = folder.parent / f"{folder.name}-out"
    out.mkdir()
    beside = sorted(os.listdir(folder))
    before = _identity(path)
    source = _source_text(path)
    code, out_text, err_text = _timed("evaluate", ["evaluate", str(path), "--json"], label, tally)
    assert code in (0, 2), f"{label}: exit status {code}: {err_text[:500]}"
    if out_text:
        try:
            data = json.loads(out_text, parse_constant=_reject_constant)
        except NoConstantError as exc:
            pytest.fail(f"{label}: {exc}")  # a bare NaN / Infinity token (names may say "Infinity": fine)
        crashed = [p["message"] for p in data["problems"] if "engine failed" in p["message"]]
        assert not crashed, f"{label}: an engine raised instead of naming the problem: {crashed}"
        outcome = "accepted" if through_all_if_accepted else "accepted-evaluate-only"
        _saves_and_reopens(path, label)
    else:
        assert code == 2, label
        assert err_text.startswith("storplan: ") and err_text.strip(), f"{label}: {err_text[:500]}"
        outcome = "refused"
    commands = _commands(path, out) if outcome != "accepted-evaluate-only" else {}
    for name, argv in commands.items():
        code2, stdout2, stderr2 = _timed(name, argv, f"{label}: {name}", tally)
        where = f"{label}: {name}"
        if outcome == "refused":
            assert code2 == 2, f"{where}: exit {code2} for a file evaluate refuses: {stderr2[:300]}"
            assert stderr2 == err_text, f"{where}: said {stderr2[:300]!r}, evaluate said {err_text[:300]!r}"
            assert sorted(p.name for p in out.iterdir()) == ["lab.csv"], f"{where}: wrote output for a refusal"
        else:
            assert code2 in (0, 1, 2), f"{where}: exit {code2}"
            if code2 == 2:
                lines = stderr2.strip().splitlines()
                assert lines and all(line.startswith("storplan: ") for line in lines), f"{where}: {stderr2[:300]}"
            start = time.process_time()
            _check_outputs(name, code2, stdout2, out, source, where)
            tally.cpu["(reading outputs back)"] += time.process_time() - start
        _clean_outputs(out)
    assert _identity(path) == before, f"{label}: the input file was changed"
    assert sorted(os.listdir(folder)) == beside, f"{label}: files appeared beside the input: " \
        f"{sorted(set(os.listdir(folder)) - set(beside))}"
    return outcome


def _timed(name: str, argv: list[str], where: str, tally: Tally) -> tuple[int, str, str]:
    """Run one command in-process; assert no traceback and the time limits; count it."""
    out, err = io.StringIO(), io.StringIO()
    start, wall = time.process_time(), time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)  # an exception escaping here fails the test: a traceback
    spent, waited = time.process_time() - start, time.monotonic() - wall
    tally.runs[name] += 1
    tally.cpu[name] += spent
    tally.slowest_cpu, tally.slowest_wall = max(tally.slowest_cpu, spent), max(tally.slowest_wall, waited)
    assert spent < COMMAND_LIMIT_S, f"{where}: took {spent:.1f} s of CPU (a file must not be able to stall StorPlan)"
    assert waited < WALL_LIMIT_S, f"{where}: took {waited:.1f} s (a file must not be able to stall StorPlan)"
    assert "Traceback" not in err.getvalue(), f"{where}: {err.getvalue()[:2000]}"
    return code, out.getvalue(), err.getvalue()


def _saves_and_reopens(path: Path, label: str) -> None:
    """A project that evaluates can be saved (and autosaved) and opens back equal."""
    from app.cli import load_project
    from models.store import open_project

    project = load_project(str(path))
    copy = path.parent.parent / f"{path.parent.name}-resaved.storplan"
    save_project(project, copy)  # a StoreError here (e.g. "NOT NULL constraint failed") fails the case
    assert open_project(copy).project == project, f"{label}: the saved copy opens as another project"
    copy.unlink()


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Example name -> (TOML file, .storplan file), the unmutated inputs."""
    folder = tmp_path_factory.mktemp("fuzz-originals")
    out = {}
    for name in EXAMPLES:
        toml_path = examples_dir() / f"{name}.toml"
        out[name] = (toml_path, save_project(load(toml_path), folder / f"{name}.storplan"))
    return out


# --- bytes of a .storplan ------------------------------------------------------------------------------------------


def _make_bytes(originals: dict[str, tuple[Path, Path]], rng: random.Random, folder: Path) -> Path:
    data = bytearray(originals[rng.choice(EXAMPLES)][1].read_bytes())
    how = rng.choice(["flip", "flip", "zero-block", "truncate", "header", "swap-pages"])
    if how == "flip":
        for _ in range(rng.randint(1, 40)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif how == "zero-block":
        start = rng.randrange(len(data))
        data[start : start + rng.choice([16, 512, 4096])] = bytes(min(4096, len(data) - start))
    elif how == "truncate":
        del data[rng.randrange(1, len(data)) :]
    elif how == "header":
        for _ in range(rng.randint(1, 6)):
            data[rng.randrange(100)] = rng.randrange(256)
    else:
        page = 4096
        pages = len(data) // page
        a, b = rng.randrange(1, pages), rng.randrange(1, pages)
        data[a * page : (a + 1) * page], data[b * page : (b + 1) * page] = (
            data[b * page : (b + 1) * page], data[a * page : (a + 1) * page])  # fmt: skip
    path = folder / "mutated.storplan"
    path.write_bytes(bytes(data))
    return path



# --- SQLite rows -----------------------------------------------------------------------------------------------------

TABLES = ("meta", "setting", "scenario", "node", "link", "workload", "catalog_snapshot", "custom_catalog_kind",
          "custom_catalog_entry", "calibration_point", "calibration_fit")  # fmt: skip


def _copy(src: Path, folder: Path) -> Path:
    path = folder / "mutated.storplan"
    path.write_bytes(src.read_bytes())
    return path


def _nasty_value(rng: random.Random) -> Any:
    pick = rng.random()
    if pick < 0.45:
        return rng.choice(NASTY_NUMBERS)
    if pick < 0.9:
        return rng.choice(NASTY_TEXT)
    return rng.choice([None, b"\x00\xff\xfe", bytes(64)])


def _make_rows(originals: dict[str, tuple[Path, Path]], rng: random.Random, folder: Path) -> Path:
    path = _copy(originals[rng.choice(EXAMPLES)][1], folder)
    conn = sqlite3.connect(path, isolation_level=None)
    if rng.random() < 0.5:
        conn.execute("PRAGMA ignore_check_constraints = ON")
    for _ in range(rng.randint(1, 3)):
        table = rng.choice(TABLES)
        columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
        rowids = [r[0] for r in conn.execute(f"SELECT rowid FROM {table}")]
        action = rng.random()
        try:
            if rowids and action < 0.75:
                value = _nasty_value(rng)
                if isinstance(value, float) and value != value:
                    value = None  # SQLite stores NaN as NULL
                if isinstance(value, int) and not -(2**63) <= value < 2**63:
                    value = float(value)  # SQLite integers are 64-bit
                conn.execute(f"UPDATE {table} SET {rng.choice(columns)} = ? WHERE rowid = ?",
                             (value, rng.choice(rowids)))  # fmt: skip
            elif rowids and action < 0.9:
                conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (rng.choice(rowids),))
            elif rowids:
                conn.execute(f"INSERT INTO {table} SELECT * FROM {table} WHERE rowid = ?", (rng.choice(rowids),))
        except sqlite3.Error:
            pass  # a constraint refused this change: the file stays valid, still a case
    conn.close()
    return path



# --- SQLite schema ---------------------------------------------------------------------------------------------------


def _make_schema(originals: dict[str, tuple[Path, Path]], rng: random.Random, folder: Path) -> Path:
    path = _copy(originals[rng.choice(EXAMPLES)][1], folder)
    conn = sqlite3.connect(path, isolation_level=None)
    table = rng.choice(TABLES)
    other = rng.choice(TABLES)
    statements = [
        f"DROP TABLE {table}",
        f"ALTER TABLE {table} RENAME TO t_old; CREATE VIEW {table} AS SELECT * FROM t_old",
        f"ALTER TABLE {table} RENAME TO t_old; CREATE VIEW {table} AS SELECT a.* FROM t_old a, {other} b, "
        f"{other} c",
        f"ALTER TABLE {table} RENAME TO t_old; CREATE VIEW {table} AS WITH RECURSIVE r(i) AS (SELECT 1 UNION "
        f"ALL SELECT i + 1 FROM r) SELECT t_old.* FROM t_old, r",
        f"ALTER TABLE {table} ADD COLUMN extra TEXT",
        f"ALTER TABLE {table} ADD COLUMN g INTEGER AS (1) VIRTUAL",
        f"CREATE TRIGGER t AFTER INSERT ON {table} BEGIN SELECT 1; END",
        f"CREATE INDEX i_fuzz ON {table} ({rng.choice(['rowid', '1'])})",
        "CREATE TABLE stowaway (x)",
        f"PRAGMA user_version = {rng.choice([-1, 0, 1, 3, 2**31 - 1])}",
        f"PRAGMA application_id = {rng.choice([0, 1, -1])}",
    ]
    try:
        conn.executescript(rng.choice(statements))
    except sqlite3.Error:
        pass
    conn.close()
    return path



# --- TOML values and text --------------------------------------------------------------------------------------------


def _places(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path] if path else []
    if isinstance(value, dict):
        for key, child in value.items():
            out += _places(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _places(child, (*path, i))
    return out


def _at(data: Any, place: tuple) -> Any:
    for key in place:
        data = data[key]
    return data


def _toml_value(rng: random.Random) -> Any:
    pick = rng.random()
    if pick < 0.5:
        return rng.choice(NASTY_NUMBERS)
    if pick < 0.8:
        return rng.choice(NASTY_TEXT[:-1] + ["A" * 5000])
    nested: Any = 1
    for _ in range(rng.choice([2, 10, 40])):
        nested = [nested]
    return rng.choice([True, [], {}, [1, "a"], {"k": float("inf")}, nested])


def _make_toml(originals: dict[str, tuple[Path, Path]], rng: random.Random, folder: Path) -> Path:
    data = tomllib.loads(originals[rng.choice(EXAMPLES)][0].read_text(encoding="utf-8"))
    for _ in range(rng.randint(1, 3)):
        places = _places(data)
        numeric = rng.random() < 0.5
        if numeric:  # half the time a number of the project gets a nasty number (nan, inf, 1e308, -1, ...)
            places = [p for p in places if type(_at(data, p)) in (int, float)]  # not bool
        place = rng.choice(places)
        parent = _at(data, place[:-1])
        action = rng.random()
        if numeric:
            parent[place[-1]] = rng.choice(NASTY_NUMBERS)
        elif action < 0.8:
            parent[place[-1]] = _toml_value(rng)
        elif action < 0.9 and isinstance(parent, dict):
            del parent[place[-1]]
        elif isinstance(parent, list):
            parent.append(parent[place[-1]])  # a duplicate (same id)
    path = folder / "mutated.toml"
    try:
        path.write_text(tomli_w.dumps(data), encoding="utf-8")
    except (TypeError, ValueError):
        path.write_text("format = 'storplan-project'\n", encoding="utf-8")
    return path



def _make_toml_text(originals: dict[str, tuple[Path, Path]], rng: random.Random, folder: Path) -> Path:
    data = bytearray(originals[rng.choice(EXAMPLES)][0].read_bytes())
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(data))
        choice = rng.random()
        if choice < 0.5:
            data[i] = rng.choice(b"[]{}=\"'#\n.,0123456789-+einfa \x00\xff")
        elif choice < 0.8:
            del data[i : i + rng.randint(1, 30)]
        else:
            data[i:i] = rng.choice([b"[" * 500, b"\xff\xfe", b"inf", b"nan", b"\n[[node]]\n", b"1e400"])
    path = folder / ("mutated.storplan" if rng.random() < 0.25 else "mutated.toml")  # text given as a .storplan
    path.write_bytes(bytes(data))
    return path



# --- catalog records a project carries -----------------------------------------------------------------------------

ABSURD: list[Any] = [0.001, 2**63 - 1, 5e-324, 1e300, 1e-300, -1, 0, 10**6, 10**18, -(2**63), float("nan"),
                     float("inf"), float("-inf"), 1.5, "12", "", True, [], {"a": 1}, [1e300], "x" * 5000]  # fmt: skip


def _record_dict(entry: Any) -> dict[str, Any]:
    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if v is not None}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    return clean(entry.model_dump(mode="json", exclude_unset=True))


def _make_records(originals: dict[str, tuple[Path, Path]], rng: random.Random, folder: Path) -> Path:
    """A project's own record (a copy of one it uses, under the same id or a new one) with one number or more made
    absurd, in a TOML project or a .storplan file's own-records table: refused when read by every command alike (the
    schema's bounds), or evaluated sanely."""
    from models.store import default_catalog

    catalog = default_catalog()

    example = rng.choice(EXAMPLES)
    data = tomllib.loads(originals[example][0].read_text(encoding="utf-8"))
    used = sorted({v for node in data.get("node", []) for k, v in node.items()
                   if k in ("catalog_id", "drive", "adapter", "licence", "disk")}
                  | {link["link_type"] for link in data.get("link", [])})
    entry = catalog.get(rng.choice(used))
    record = _record_dict(entry)
    numeric = [k for k, v in record.items() if type(v) in (int, float)]
    digits = None
    for _ in range(rng.randint(1, 3)):
        field = rng.choice(numeric or list(record))
        value = rng.choice(ABSURD)
        if rng.random() < 0.08:
            digits, value = field, 7  # a 5,000-digit integer, written into the text below
        record[field] = value
        record.setdefault("provenance", {}).setdefault(field, {"kind": "sourced", "source": "fuzz"})
    if rng.random() < 0.3:
        record["id"] = "fuzz-record"
    if rng.random() < 0.3:  # the same record in a .storplan file's own-records table
        path = _copy(originals[example][1], folder)
        text = json.dumps(record)
        if digits is not None:
            text = text.replace(f'"{digits}": 7', f'"{digits}": {"9" * 5000}', 1)
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("INSERT OR IGNORE INTO custom_catalog_kind VALUES (?, 0)", (entry.kind,))
        conn.execute("INSERT INTO custom_catalog_entry VALUES (?, 0, ?, ?)", (entry.kind, record["id"], text))
        conn.close()
        return path
    data.setdefault("catalog", {}).setdefault(entry.kind, []).append(record)
    path = folder / "mutated.toml"
    text = tomli_w.dumps(data)
    if digits is not None:
        text = text.replace(f"{digits} = 7\n", f"{digits} = {'9' * 5000}\n", 1)
    path.write_text(text, encoding="utf-8")
    return path



# --- hostile TOML: structure, numbers, text and counts ---------------------------------------------------------------

NUMBER_FIELDS = ("x", "y", "count", "drive_count", "ports", "block_kib", "read_pct", "target_iops", "slo_ms",
                 "concurrency", "dataset_bytes", "compression_ratio", "curve_points", "default_slo_ms",
                 "horizon_months", "max_candidates", "max_power_w", "budget", "interval_h", "disk_count")  # fmt: skip
TEXT_FIELDS = ("label", "name", "description", "customer", "author", "scenario_name", "preset", "software")
HUGE = 300_000


def _hostile_text(rng: random.Random, base: str) -> str:
    how = rng.choice(["number", "number", "text", "text", "deep", "odd", "counts", "huge", "digits"])
    lines = base.splitlines()
    if how == "number":  # NaN, inf and absurd numbers in a field of the project
        places = [i for i, line in enumerate(lines) if line.split(" = ")[0].strip() in NUMBER_FIELDS]
        value = rng.choice(["nan", "inf", "-inf", "+inf", "-nan", "1e400", "-1e400", "5e-324", "1e-300",
                            "9223372036854775807", "-9223372036854775808", "18446744073709551616", "0", "-0.0",
                            "0x7fffffffffffffff", "1e308", "0.001"])  # fmt: skip
        for i in rng.sample(places, min(len(places), rng.randint(1, 3))):
            lines[i] = f"{lines[i].split(' = ')[0]} = {value}"
    elif how == "text":  # control characters, markup and formulas in the text a person reads
        places = [i for i, line in enumerate(lines) if line.split(" = ")[0].strip() in TEXT_FIELDS]
        value = rng.choice(["\\u0000", "\\u0007", "\\u001b[2J", "\\u007f", "\\b", "\\f", "a\\u0000b", "\\u0085",
                            "<img src='file:///etc/passwd'>", "=1+2", "@SUM(A1)", "\\ud7ff\\ue000", "\\t\\r\\n",
                            "\\uffff", "\\U0010ffff"])  # fmt: skip
        for i in rng.sample(places, min(len(places), rng.randint(1, 2))):
            lines[i] = f'{lines[i].split(" = ")[0]} = "{value}"'
    elif how == "deep":
        depth = rng.choice([31, 33, 64, 400, 2000])
        opener, closer = rng.choice([("[", "]"), ("{a = ", "}")])
        lines.insert(rng.randrange(3, len(lines)), f"deep = {opener * depth}1{closer * depth}")
    elif how == "odd":
        lines += [rng.choice([
            "scenario = [1, 2]", "scenario = []", "scenario = [[]]", 'scenario = ["a"]', "node = 5", 'link = "x"',
            "workload = [{}]", "node = [[]]", "format_version = -1", "format_version = 2", 'format = 5',
            "requirements = 3", "settings = []", "[project.deep.er]\nk = 1", "catalog = []", "catalog = {drive = 1}",
            "catalog = {drive = [1]}", "catalog = {unknown = [{}]}", "price = [{catalog_id = 'x', unit_price = inf, "
            "currency = 'USD'}]", 'active_scenario = "nope"', "a.b.c.d = 1", '"" = 1', "project = {name = ''}"])]
        if rng.random() < 0.3:
            lines = [line for line in lines if not line.startswith("format")]
    elif how == "counts":
        block = base[base.index("[[workload]]"):]
        many = rng.choice([101, 150, 300])
        extra = "".join(block.replace('id = "', f'id = "w{i}-', 1) for i in range(many)) if "[[workload]]" in \
            base else ""
        return base + "\n" + extra + "\n[other]\n" + "".join(f"k{i} = 1\n" for i in range(rng.choice([10, 5000])))
    elif how == "huge":
        places = [i for i, line in enumerate(lines) if line.split(" = ")[0].strip() in TEXT_FIELDS]
        i = rng.choice(places)
        lines[i] = f'{lines[i].split(" = ")[0]} = "{"A" * rng.choice([201, 20_001, HUGE])}"'
    else:
        places = [i for i, line in enumerate(lines) if line.split(" = ")[0].strip() in NUMBER_FIELDS]
        i = rng.choice(places)
        lines[i] = f"{lines[i].split(' = ')[0]} = {'9' * rng.choice([4301, 5000])}"
    return "\n".join(lines) + "\n"


def _make_hostile(originals: dict[str, tuple[Path, Path]], rng: random.Random, folder: Path) -> Path:
    base = originals[rng.choice(EXAMPLES)][0].read_text(encoding="utf-8")
    path = folder / "hostile.toml"
    path.write_text(_hostile_text(rng, base), encoding="utf-8")
    return path



# --- files that are not regular files --------------------------------------------------------------------------------


def _make_files(originals: dict[str, tuple[Path, Path]], rng: random.Random, folder: Path) -> Path:
    suffix = rng.choice([".toml", ".storplan"])
    path = folder / f"odd{suffix}"
    how = rng.choice(["fifo", "folder", "dev-null", "dev-zero", "dangling", "link-to-folder", "empty",
                      "random", "link-to-file", "wal"])  # fmt: skip
    if how == "fifo" and hasattr(os, "mkfifo"):
        os.mkfifo(path)
    elif how == "folder":
        path.mkdir()
    elif how in ("dev-null", "dev-zero"):
        path.symlink_to(f"/dev/{how[4:]}")
    elif how == "dangling":
        path.symlink_to(folder / "nowhere")
    elif how == "link-to-folder":
        path.symlink_to(folder)
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "random":
        path.write_bytes(rng.randbytes(rng.choice([1, 99, 100, 4096, 70_000])))
    elif how == "link-to-file":
        target = folder.parent / f"{folder.name}-target{suffix}"
        target.write_bytes(originals[rng.choice(EXAMPLES)][0 if suffix == ".toml" else 1].read_bytes())
        path.symlink_to(target)
    else:  # a .storplan another program switched to WAL: opening must leave no -wal / -shm beside it
        path = folder / "wal.storplan"
        path.write_bytes(originals[rng.choice(EXAMPLES)][1].read_bytes())
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.close()
    return path


MAKERS: dict[str, Callable[[dict[str, tuple[Path, Path]], random.Random, Path], Path]] = {
    "bytes": _make_bytes, "rows": _make_rows, "schema": _make_schema, "toml": _make_toml, "toml_text": _make_toml_text,
    "records": _make_records, "hostile": _make_hostile, "files": _make_files}
"""Kind -> how one case of it is made (from the unmutated examples, a seeded generator and the case's own folder)."""


def test_fuzz_plan_reaches_the_floor():
    """The plan puts at least FLOOR inputs through all commands, covers every kind, and no two parts draw one case."""
    assert sum(p.counted for p in PLAN) >= FLOOR
    assert {p.kind for p in PLAN} == set(MAKERS)
    for kind in MAKERS:
        parts = [p for p in PLAN if p.kind == kind]
        assert sorted(p.first for p in parts) == list(range(len(parts))) and {p.step for p in parts} == {len(parts)}
    assert all(0 < p.accepted < p.counted <= p.max_cases for p in PLAN)


@pytest.mark.parametrize("part", PLAN, ids=[f"{p.kind}-{p.first}" for p in PLAN])
def test_fuzz_inputs_through_every_command(part: Part, originals, tmp_path: Path):
    """Draw this part's cases until ``part.counted`` inputs went through all commands (module docstring)."""
    outcomes: Counter[str] = Counter()
    tally = Tally()
    text_projects = 0
    started = time.process_time()
    case = part.first
    drawn = 0
    while outcomes["refused"] + outcomes["accepted"] < part.counted:
        assert drawn < part.max_cases, f"{part.kind}: {drawn} cases drew only {dict(outcomes)}"
        rng = random.Random(f"{SEED}-{part.kind}-{case}")
        case_dir = tmp_path / f"{part.kind}-{case}"
        case_dir.mkdir()
        path = MAKERS[part.kind](originals, rng, case_dir)
        outcome = run_case(path, f"{part.kind} case {case} (seed {SEED})", outcomes["accepted"] < part.accepted,
                           tally)
        outcomes[outcome] += 1
        if outcome != "accepted-evaluate-only" and path.suffix.lower() == ".toml":
            text_projects += 1
        case += part.step
        drawn += 1
    counted = outcomes["refused"] + outcomes["accepted"]
    print(f"\n{part.kind}-{part.first}: {drawn} cases, {counted} through all commands ({outcomes['accepted']} "
          f"accepted, {outcomes['refused']} refused), {outcomes['accepted-evaluate-only']} accepted through evaluate "
          f"only; {time.process_time() - started:.1f} s CPU: "
          + ", ".join(f"{k} {v:.1f}" for k, v in sorted(tally.cpu.items(), key=lambda kv: -kv[1]))
          + f"; the slowest command {tally.slowest_cpu:.2f} s CPU, {tally.slowest_wall:.2f} s wall")
    assert counted == part.counted
    assert outcomes["accepted"] == part.accepted, f"{part.kind}: only {outcomes['accepted']} accepted inputs"
    assert outcomes["refused"] > 0
    assert tally.runs["evaluate"] == drawn
    for command in ("report", "export-xlsx", "export-csv", "size", "calibrate"):
        assert tally.runs[command] == counted, (command, tally.runs[command], counted)
    assert tally.runs["import"] == text_projects


def test_a_blob_in_a_text_column_is_refused_as_its_text_would_be(originals, tmp_path: Path, capsys):
    """Found by this fuzz (a SQLite-row edit): a project name stored as a BLOB of NUL bytes passed the control-character
    check (it looked only at text) and became text with NULs, which the project's own save then wrote into a file
    no command opens. Every command refuses it when read, naming the field."""
    path = _copy(originals["aff8080-sqlserver-tpce"][1], tmp_path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE meta SET name = ?", (bytes(8),))
    conn.close()
    for argv in (["evaluate", str(path)], ["size", str(path)], ["report", str(path), "-o", str(tmp_path / "r.pdf")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "field 'name': holds a control character (U+0000)" in err and err.count("\n") == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mutated.storplan"]
