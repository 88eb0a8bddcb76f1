"""Review 57 (the customer PDF read by a reviewer), wording and sources: an example's description says what its
report says (#9, #10, #20), sources a customer can follow (#14), one unit as the provider states it and a drive's
marketed capacity as sold (#15), the method section says what the engine does (#19), the runway draws the
takeover line its text names (#21), the waterfall's axis is not scaled to the copies' bar (#18)."""

from __future__ import annotations

import io
import re
import tomllib

import pytest
from pypdf import PdfReader

from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any

EXAMPLES = sorted(examples_dir().glob("*.toml"))


def _text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())


@pytest.fixture(scope="module")
def reports():
    """The PDF text of the examples the review read, rendered once (no validation pages: not read here)."""
    from app.report import render_report_bytes

    out = {}
    for name in ("aff8080-nfs-file-services", "cvo-azure-ds14-ha-oltp", "aff-a70-snapmirror-cvo-dr"):
        out[name] = _text(render_report_bytes(load_any(examples_dir() / f"{name}.toml"), validation=None))
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_release_the_description_names_is_the_designs(path):
    """#9: "Cloud Volumes ONTAP 9.5" in the subtitle while the design named no release (the WAFL step took the
    current one); "ONTAP 9.15.1" over a design on 9.15."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    software = {n["software"] for n in data.get("node", []) if n.get("software")}
    for version in re.findall(r"(?:ONTAP|SANtricity) (\d+(?:\.\d+)+)", data["project"]["description"]):
        assert any(s == version or s.endswith(" " + version) for s in software), (version, software)


CLAIMS = {"hardware relation only": "hardware relation only", "derived from the calibrated": "derived",
          "as tested in": "calibrated"}
"""A description's words on its performance profile -> the profile basis its workloads must have."""


@pytest.mark.parametrize("path", [p for p in EXAMPLES if any(
    c in tomllib.loads(p.read_text(encoding="utf-8"))["project"]["description"] for c in CLAIMS)
    or "calibration" in p.read_text(encoding="utf-8")], ids=lambda p: p.stem)
def test_the_profile_the_description_names_is_the_reports(path):
    """#10: the AFF8080 NFS subtitle said "NFS CPU costs are derived from the FCP calibration" while the report's
    profile row said "hardware relation only"."""
    project = load_any(path)
    description = project.info.description
    assert not re.search(r"derived from the \w+ calibration", description)
    kinds = {(w.profile_basis.kind if w.profile_basis is not None else w.profile)
             for w in evaluate(project).performance.workloads}
    for words, kind in CLAIMS.items():
        if words in description:
            assert kind in kinds, (words, kinds)


def test_the_cvo_wafl_step_names_the_release_of_the_subtitle(reports):
    text = reports["cvo-azure-ds14-ha-oltp"]
    assert "Cloud Volumes ONTAP 9.5" in text
    assert "aggregate on ONTAP 9.5)" in text and "the design names none" not in text


def test_the_dr_example_needs_the_disks_its_description_says(tmp_path):
    """#20: the subtitle said "Give the DR system 12 disks", the Recommendation 9 data disks: 9 meet every
    requirement, 8 do not (the copies grown over the horizon fill 8)."""
    from models.verdict import design_verdict

    path = examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"
    text = path.read_text(encoding="utf-8")
    assert "Give the DR system 9 disks" in load_any(path).info.description
    assert text.count("\ndisk_count = 6\n") == 1  # the DR system's disks (the A70's are its shelf's)
    for count, met in ((9, True), (8, False)):
        changed = tmp_path / f"dr{count}.toml"
        changed.write_text(text.replace("\ndisk_count = 6\n", f"\ndisk_count = {count}\n"), encoding="utf-8")
        project = load_any(changed)
        ev = evaluate(project, resilience=True)
        verdict = design_verdict(ev.capacity, ev.performance, ev.resilience, project.requirements,
                                 protection=ev.protection, errors=len(ev.errors))
        assert verdict.met is met, (count, verdict.text)


def test_the_dr_copy_says_why_it_is_above_the_source(reports):
    text = reports["aff-a70-snapmirror-cvo-dr"]
    assert "3.64 TiB" in text and "3.65 TiB" in text
    assert ("Its physical used is the source's data as sent (after the source's data reduction) plus the last "
            "transfer, held until the next one lands") in text


LEAKS = ("project:", "(catalog)", "shared table", "unconfirmed", "root partition size: catalog")


@pytest.mark.parametrize("name", ["aff8080-nfs-file-services", "cvo-azure-ds14-ha-oltp", "aff-a70-snapmirror-cvo-dr"])
def test_no_source_a_customer_cannot_follow(reports, name):
    """#14: "[3] project: spares per node; ONTAP documentation (hot spares)", "root partition size: catalog NetApp
    AFF8080A EX HA pair ADP root partition", "(unconfirmed: no public copy of this document is cited)", "shared table
    'disk-storage-premium-ssd-sizes'"."""
    text = reports[name]
    assert not [w for w in LEAKS if w in text]
    if name.startswith("aff"):
        assert "Disks and Aggregates Power Guide" in text
    if name == "aff8080-nfs-file-services":  # the root partition size from the report it was read from
        assert re.search(r"root partition size: NetApp report \"NetApp AFF8080A EX Storage Efficiency", text)
        assert "not confirmed against a public copy of this document" in text
    if name.startswith("cvo"):
        assert "'Premium SSD sizes' table" in text


def test_the_method_section_names_the_engines_models(reports):
    """#19: "M/M/c stations (Erlang C)" and "approximate MVA for large populations" in the method section, while
    every workload's notes say Allen-Cunneen's G/G/c and Reiser's residual-life correction."""
    text = reports["aff8080-nfs-file-services"]
    method = text[text.index("How StorPlan predicts"):text.index("Catalog and preset numbers used")]
    assert "M/M/c" not in method and "approximate MVA" not in method
    for words in ("Seidmann", "mean-value analysis (MVA", "Reiser's residual-life correction", "Allen-Cunneen's G/G/c",
                  "Lazowska", "Bolch"):
        assert words in method, words
    assert "Allen-Cunneen" in text[:text.index("How StorPlan predicts")]  # the notes the method section explains


def test_one_unit_for_the_gp3_baseline_and_marketed_capacity_in_tb(reports):
    """#15: "AWS EBS gp3 1 TiB (baseline 3,000 IOPS, 125 MiB/s) ... 125 MB/s included"; "marketed capacity 3.49 TiB
    (3,840,000,000,000 bytes)" beside a right-sized 3.49 TiB."""
    from app.report.sources import format_value
    from models.catalog import bundled_catalog
    from models.costing.cloud_prices import DISK_PRICES
    from models.units import CapacityUnit

    gp3 = DISK_PRICES[("AWS", "gp3")].source
    assert "125 MiB/s" in gp3 and "MB/s" not in gp3.replace("MiB/s", "")
    drive = next(d for d in bundled_catalog() if getattr(d, "marketed_bytes", None) == 3_840_000_000_000)
    assert format_value(drive, "marketed_bytes", 3_840_000_000_000, CapacityUnit.TIB) == \
        "3.84 TB (3,840,000,000,000 bytes)"
    assert "TiB" in format_value(drive, "right_sized_bytes", drive.right_sized_bytes, CapacityUnit.TIB)


def test_the_runway_draws_the_takeover_line_it_names():
    """#21: "Months until the SLO is breached in takeover at the growing target (required): 53 months" with only
    normal-state lines on the chart: the takeover line crosses 100% at that month."""
    from models.present.resilience import runway_series, takeover_breach

    project = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    ev = evaluate(project, resilience=True)
    month, state = takeover_breach(ev.resilience)
    series = dict(runway_series(ev, ev.resilience, project.scenario, 120))
    (name,) = [n for n in series if f" in {state}: " in n]
    crossing = next(m for m, pct in series[name] if pct >= 100.0)
    assert crossing == pytest.approx(month, abs=1) and round(month) == 53


def test_the_waterfall_axis_ends_before_the_copies_bar():
    """#18: the AFF8080 NFS waterfall's axis ran to 300 TiB for its 278.74 TiB 'with copies' bar, its deductions
    specks; the axis now ends at the largest bar up to the effective total, the copies' bars cut there."""
    from app.report.graphics import waterfall_axis_top
    from models.present.waterfall import system_waterfall

    ev = evaluate(load_any(examples_dir() / "aff8080-nfs-file-services.toml"))
    (system,) = ev.capacity.systems
    bars = system_waterfall(system)
    rows = [(b.label, b.before, b.after, b.kind, b.band) for b in bars]
    top, cut = waterfall_axis_top(rows)
    effective = next(b for b in bars if b.label == "Effective")
    assert cut and bars[-1].after > 5 * top
    assert top == max(max(b.before, b.after, (b.band or (0, 0))[1]) for b in bars[:bars.index(effective) + 1])
    # a waterfall without copies keeps its whole range
    plain = [r for r in rows[:bars.index(effective) + 1]]
    assert waterfall_axis_top(plain) == (top, False)
