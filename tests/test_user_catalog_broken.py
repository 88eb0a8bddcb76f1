"""A broken user catalog file: every command warns in one line naming the file and the line, goes on with the
bundled catalog, and leaves the file as it was (for the user to repair); saving into it is refused."""

from __future__ import annotations

import hashlib

import pytest
import tomli_w

from app.cli import main
from models.catalog import CatalogError, bundled_catalog
from models.resources import user_catalog_path
from models.store import default_catalog
from models.user_catalog import record_to_toml_dict, save_user_record, user_catalog_problem


def _drive_with(field: str, value: str) -> str:
    """A valid user drive record as TOML text, with ``field = value`` written over its line."""
    record = record_to_toml_dict(bundled_catalog().of_kind("drive")[0])
    record.update(id="my-drive", name="My drive")
    lines = tomli_w.dumps({"drive": [record]}).splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith(f"{field} ="))
    lines[k] = f"{field} = {value}"
    return "\n".join(lines) + "\n"


BROKEN = {
    # name: (file bytes, the line named, words of the message)
    "not UTF-8": (b'# mine\n[[drive]]\nid = "caf\xe9"\n', 3, ["byte 0xe9 is not UTF-8"]),
    "deep nesting": (b"a = 1\nb = " + b"[" * 3000 + b"]" * 3000 + b"\n", 2, ["nested more than 64 deep"]),
    "invalid TOML": (b'[[drive]]\nid = "x"\n[[drive]\n', 3, ["column 8", "not valid TOML"]),
    "unknown kind": (b'\n\n[[spaceship]]\nid = "x"\n', 3, ["unknown catalog kind 'spaceship'"]),
    "NaN": (None, None, ["drive 'my-drive'", "read_service_time_us", "finite number"]),
}


def _write(case: str) -> tuple[bytes, int]:
    data, line, _ = BROKEN[case]
    if data is None:
        text = _drive_with("read_service_time_us", "nan")
        data, line = text.encode(), text.splitlines().index("read_service_time_us = nan") + 1
    path = user_catalog_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data, line


def _digest() -> tuple[str, int]:
    path = user_catalog_path()
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


@pytest.mark.parametrize("case", list(BROKEN))
def test_problem_names_file_and_line(case):
    _, line = _write(case)
    problem = user_catalog_problem()
    assert problem is not None and "\n" not in problem
    assert problem.startswith(f"{user_catalog_path()}: line {line}: "), problem
    for word in BROKEN[case][2]:
        assert word in problem, problem
    assert default_catalog() is bundled_catalog()  # evaluated without it


@pytest.mark.parametrize("case", list(BROKEN))
def test_every_command_warns_once_and_goes_on(case, capsys, tmp_path):
    _, line = _write(case)
    before = _digest()
    assert main(["evaluate", "aff8080-sqlserver-tpce"]) == 0
    out, err = capsys.readouterr()
    warnings = [w for w in err.splitlines() if "warning" in w]
    assert len(warnings) == 1 and f"{user_catalog_path()}: line {line}: " in warnings[0], err
    assert "Traceback" not in err and "scenario 'Base'" in out
    assert main(["catalog", "controller"]) == 0
    out, err = capsys.readouterr()
    assert "netapp-aff8080a-ex" in out and f"line {line}" in err
    assert main(["curve", "aff8080-sqlserver-tpce", "--workload", "tpce", "--csv"]) == 0
    assert f"line {line}" in capsys.readouterr().err
    assert _digest() == before  # kept for repair


@pytest.mark.parametrize("case", ["not UTF-8", "deep nesting", "invalid TOML"])
def test_saving_into_a_broken_file_is_refused_and_leaves_it(case):
    _write(case)
    before = _digest()
    record = bundled_catalog().get("netapp-aff8080a-ex").model_copy(update={"id": "my-8080"})
    with pytest.raises(CatalogError, match=str(user_catalog_path())):
        save_user_record(record)
    assert _digest() == before


def test_a_valid_file_gives_no_warning(capsys):
    path = user_catalog_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_drive_with("read_service_time_us", "120.0"), encoding="utf-8")
    assert user_catalog_problem() is None
    assert default_catalog().find("my-drive") is not None
    assert main(["catalog", "drive"]) == 0
    out, err = capsys.readouterr()
    assert "my-drive" in out and err == ""


def test_an_oversized_user_file_is_refused_before_parsing(capsys):
    path = user_catalog_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# padding\n" * 300_000, encoding="utf-8")  # 3 MB of comments: valid TOML, too large
    problem = user_catalog_problem()
    assert problem is not None and str(path) in problem and "MiB this reader accepts" in problem
    assert main(["catalog", "drive"]) == 0 and "MiB this reader accepts" in capsys.readouterr().err
