"""Every bundled example's description (the PDF cover's text) gives the data in the project's capacity unit
(REVIEW43-PDF #20 and STOP42: the DR example's cover said "400 GB a day" beside TiB tables; the vSAN OSA hybrid
cover said "16 TB with an 8 TB working set" and "the 5.4 TB SSD read cache", the AFF C80 cover "1.47 PB raw" and
"about 1.2 PB of VM datastores", all in TiB projects). A figure in a decimal unit is left only where it names a part
as it is sold: a count of drives "24 x 3.84 TB", a cache drive "400GB cache", a host's memory "(32 cores, 512 GB",
a module "2TB Flash Cache"."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from models.resources import examples_dir
from models.store import load_any
from models.units import TIB

EXAMPLES = sorted(examples_dir().glob("*.toml"))

DECIMAL = re.compile(r"(\d[\d,]*(?:\.\d+)?) ?(PB|TB|GB)\b")
PART = re.compile(
    r"\d+ x (?:\d+ x )?\d[\d.]* ?(?:TB|GB)"  # a count of parts: "24 x 3.84 TB", "8 x 960 GB"
    r"|\(\d+ cores, \d+ (?:GB|TB)"  # a host's memory
    r"|\d+ ?GB cache \+"  # a vSAN disk group's cache drive
    r"|\d+ ?TB Flash Cache modules")  # a Flash Cache module
BINARY = {"TiB": TIB, "GiB": 2**30}


def _description(path) -> tuple[str, str]:
    project = load_any(path)
    return project.info.description, project.settings.capacity_unit.value


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_tib_projects_cover_gives_data_in_binary_units(path):
    text, unit = _description(path)
    if unit != "TiB":  # every bundled example is a TiB project today; a TB one would read the other way round
        assert not re.search(r"\d (TiB|GiB)\b", text)
        return
    parts = [m.span() for m in PART.finditer(text)]
    for m in DECIMAL.finditer(text):
        named = any(start <= m.start() and m.end() <= end for start, end in parts)
        assert named, f"{path.name}: '{m.group(0)}' is data in a decimal unit in a TiB project"


@pytest.mark.parametrize(("example", "figures"), [
    ("vsan8-osa-hybrid-4host-oltp", {"dataset_bytes": "workload on {} with", "working_set_bytes": "a {} working set"}),
    ("aff-c80-qlc-vmware-nvmefc64", {"dataset_bytes": "({} of VM datastores"}),
])
def test_the_converted_covers_state_the_workloads_figures_exactly(example, figures):
    project = load_any(examples_dir() / f"{example}.toml")
    text = project.info.description
    (workload,) = [w for w in project.scenario.workloads if w.enabled]
    for field, words in figures.items():
        shown = f"{getattr(workload, field) / TIB:,.2f} TiB"  # the model's bytes, in the project's unit
        assert words.format(shown) in text, (field, shown)


def test_the_c80_covers_raw_capacity_is_the_reports_raw_figure():
    from app.report import render_report_bytes
    from models.evaluate import evaluate

    project = load_any(examples_dir() / "aff-c80-qlc-vmware-nvmefc64.toml")
    raw = sum(s.raw_bytes for s in evaluate(project).capacity.systems)
    assert f"({raw / TIB:,.2f} TiB raw)" in project.info.description
    cover = PdfReader(io.BytesIO(render_report_bytes(project, validation=[]))).pages[0].extract_text()
    assert f"{raw / TIB:,.2f} TiB raw" in " ".join(cover.split())
