"""Two small CLI items of review 53b: ``storplan curve`` names its throughput unit (MB/s, not "mbps"), describes
every argument in --help and says on stderr where the printed curve (the closed ramp) stops against the max IOPS at
the SLO (#12); ``storplan catalog controller --evidence`` has column headers, does not repeat the profile kind in
every row, gives the per-operation CPU time its unit, and refuses --evidence with --sources instead of ignoring
--evidence (#18)."""

from __future__ import annotations

import re

import pytest

from app import cli


def test_curve_names_its_throughput_unit_and_where_it_stops(capsys):
    assert cli.main(["curve", "aff-a70-ns224-oracle-nvmetcp", "--workload", "oltp", "--csv"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "iops,latency_ms,MB/s"
    last_iops = float(lines[-1].split(",")[0])
    assert "ends at" in err and f"{last_iops:,.0f} IOPS" in err
    assert "max IOPS at the SLO of 1 ms (1,598,874 IOPS)" in err and "open model" in err


def test_curve_help_describes_every_argument(capsys):
    with pytest.raises(SystemExit):
        cli.main(["curve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "path project file (.toml or .storplan) or example name" in text
    assert "--csv comma-separated values (default: tab-separated)" in text
    assert "MB/s" in text


def test_catalog_evidence_has_headers_units_and_no_repeated_kind(capsys):
    assert cli.main(["catalog", "controller", "--evidence"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["Protocol", "Profile", "Evidence", "kind", "Evidence"]
    rows = [line for line in lines[2:] if line.startswith("  ")]
    assert rows
    assert all(line.count("hardware relation only") <= 1 for line in rows)
    # a hardware relation's per-operation CPU time names its unit ("... 9.5 FCP 50.7 µs per read"), never bare
    unitless = re.compile(r"\d\.\d+(?:\.\d+)? (?:FCP|NVMe/FC|iSCSI|NVMe/TCP|NFS|SMB) \d[\d.]*(?![\d.]| µs)")
    assert any("µs per read" in line for line in rows)
    assert not [line for line in rows if unitless.search(line)]


def test_catalog_evidence_with_sources_is_refused_not_ignored(capsys):
    assert cli.main(["catalog", "controller", "--evidence", "--sources"]) == 2
    err = capsys.readouterr().err
    assert "--sources" in err and "--evidence" in err
