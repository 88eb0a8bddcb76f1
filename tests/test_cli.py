"""The storplan command line: headless commands, exit statuses and one-line errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_examples_lists_names_first(capsys):
    code, out, _ = run(capsys, "examples")
    assert code == 0
    names = [line.split("\t")[0] for line in out.splitlines()]
    assert "aff8080-sqlserver-tpce" in names and len(names) >= 12


def test_catalog_kind(capsys):
    code, out, _ = run(capsys, "catalog", "controller")
    assert code == 0 and "netapp-aff8080a-ex" in out and "netapp-aff-a800" in out
    code, _, err = run(capsys, "catalog", "spaceship")
    assert code == 2 and "unknown catalog kind 'spaceship'" in err


def test_evaluate_json_shape(capsys):
    code, out, _ = run(capsys, "evaluate", "aff8080-sqlserver-tpce", "--json")
    assert code == 0
    data = json.loads(out)
    capacity = data["capacity"]
    for key in ("raw_bytes", "usable_bytes", "effective_bytes", "efficiency_ratio", "steps"):
        assert key in capacity
    assert capacity["raw_bytes"] == pytest.approx(38.4e12)
    assert capacity["usable_bytes"] / 2**40 == pytest.approx(25.5, rel=0.02)
    assert all({"name", "bytes_after", "source"} <= set(step) for step in capacity["steps"])
    assert isinstance(data["problems"], list)
    workload = data["workloads"][0]
    for key in ("name", "curve", "saturation_iops", "max_iops_at_slo", "slo_ms", "bottleneck", "utilization"):
        assert key in workload
    assert {"iops", "latency_ms", "mbps"} <= set(workload["curve"][0])
    assert "NaN" not in out and "Infinity" not in out


def test_evaluate_text(capsys):
    code, out, _ = run(capsys, "evaluate", "ef550-sas-analytics")
    assert code == 0 and "Usable" in out and "Effective" in out


@pytest.mark.parametrize(
    "content, expected",
    [
        ("format = 'storplan-project'\n[[node]\n", "not valid TOML"),
        (
            "[[node]]\nid='s'\nkind='shelf'\ncatalog_id='netapp-ds2246'\ndrive='netapp-x447a-800gb-ssd'\ndrive_count=-1\n",
            "node 's' > drive_count",
        ),
    ],
)
def test_bad_project_files_exit_2_with_one_clear_message(tmp_path, capsys, content, expected):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2 and expected in err and "Traceback" not in err


def test_missing_catalog_id_reported_as_problem(tmp_path, capsys):
    path = tmp_path / "p.toml"
    path.write_text(
        "[[node]]\nid='c'\nkind='controller'\ncatalog_id='no-such-controller'\n"
    )
    code, out, _ = run(capsys, "evaluate", str(path), "--json")
    assert code == 0
    problems = json.loads(out)["problems"]
    assert any("no-such-controller" in p["message"] and p["node_id"] == "c" for p in problems)


def test_unknown_project_subprocess_has_no_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "app", "evaluate", "no-such-example"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr.strip().startswith("storplan: no project file or example named 'no-such-example'")
    assert "Traceback" not in result.stderr


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("storplan ")
