"""The capacity step table's formulas multiply to the result they print (REVIEW43-PDF #15): "24 x 3.49 TiB" sat
beside 83.81 TiB (24 x 3.49 = 83.76), in TB "24 x 3.84 TB" beside 92.15 TB, "11.06 TiB / 1.33" beside 8.30 TiB.
Every formula line of every bundled example's Capacity section, as the report lays it out (its step tables), is
read back here and its product recomputed from the printed operands, independently of how the report makes them
agree: it reads as the printed total ("(total 13.97 TiB)"), the printed quotient ("= 11.02 TiB"), or the step's
result (its After, or what it takes away), at the printed precision; an operand that cannot agree says "~"."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from reportlab.platypus import Paragraph, Table

from models.evaluate import evaluate
from models.project import edits
from models.resources import examples_dir
from models.store import load_any

EXAMPLES = sorted(p.stem for p in examples_dir().glob("*.toml"))
BYTES = {"TiB": 2.0**40, "GiB": 2.0**30, "TB": 1e12, "GB": 1e9}
FIGURE = r"(\d[\d,]*(?:\.\d+)?) (TiB|GiB|TB|GB)\b"


def _steps(example: str, unit: str) -> list[tuple[str, str, str, str, float]]:
    """(step, before, after, how, exact change in bytes) of every step row the report's Capacity section prints."""
    from app.report.document import ReportBuilder
    from app.report.fonts import register_fonts
    from app.report.source_notes import KeptWithRows
    from models.catalog import bundled_catalog
    from models.design import resolve

    register_fonts()
    project = edits.set_setting(load_any(examples_dir() / f"{example}.toml"), "capacity_unit", unit)
    design = resolve(project, project.scenario.name, None)
    evaluation = evaluate(project, design=design)
    builder = ReportBuilder(project, {project.scenario.name: evaluation}, design.catalog, [], "A4", "test",
                            bundled_catalog().version, dt.date(2026, 11, 29))
    changes = {(s.system_id, st.name): st.bytes_before - st.bytes_after
               for s in (evaluation.capacity.systems if evaluation.capacity else ()) for st in s.steps}
    by_name: dict[str, list[float]] = {}
    for (_, name), change in changes.items():
        by_name.setdefault(name, []).append(change)
    rows = []
    seen: dict[str, int] = {}  # the k-th table's row of a step name is the k-th system's step
    for flowable in builder.capacity():
        table = flowable._content[0] if isinstance(flowable, KeptWithRows) else flowable
        if not isinstance(table, Table):
            continue
        cells = [[(c.getPlainText() if isinstance(c, Paragraph) else str(c)).replace("\n", " ") for c in row]
                 for row in table._cellvalues]
        if cells[0][:4] != ["Step", "Before", "After", "How"]:
            continue
        for step, before, after, how, *_ in cells[1:]:
            if how and step in by_name:
                k = seen.get(step, 0)
                seen[step] = k + 1
                rows.append((step, before, after, how, by_name[step][min(k, len(by_name[step]) - 1)]))
    return rows


def _factors(prefix: str) -> float | None:
    """The product of the counts / percentages / fraction before an operand; None when it is not a product."""
    if ":" in prefix:
        return None
    fraction = re.fullmatch(r"(\d+)/(\d+) of ", prefix)
    if fraction:
        return int(fraction.group(1)) / int(fraction.group(2))
    parts = prefix.split(" x ")
    if len(parts) < 2 or parts[-1] not in ("", "raw "):
        return None
    product = 1.0
    for part in parts[:-1]:
        lead = re.match(r"(\d[\d,]*(?:\.\d+)?)(%)?(?=$|[\s'])", part)
        if lead is None:
            return None
        product *= float(lead.group(1).replace(",", "")) / (100 if lead.group(2) else 1)
    return product


def _check(how: str, after: str, change: float, table_unit: str) -> str | None:
    """Why the formula's product does not read as its result (None: it does, or it is not a product)."""
    total_bytes, terms, stated = 0.0, 0, None
    for segment in how.split("; "):
        operand = re.search(r"(?<![\w.,])~?" + FIGURE, segment)
        if operand is None:
            continue
        factors = _factors(segment[:operand.start()])
        divide = re.match(r" / (\d+(?:\.\d+)?)(?: = " + FIGURE + ")?", segment[operand.end():])
        if factors is None and divide is None:
            continue
        if operand.group(0).startswith("~"):
            return None  # said to be approximate
        value = float(operand.group(1).replace(",", "")) * BYTES[operand.group(2)]
        total_bytes += (factors or 1.0) * value / (float(divide.group(1)) if divide else 1.0)
        terms += 1
        if divide and divide.group(2):
            stated = (divide.group(2), divide.group(3))
        total = re.search(r"\(total " + FIGURE + r"\)", segment)
        if total:
            stated = (total.group(1), total.group(2))
    if not terms:
        return None
    if stated is not None:
        figure, unit = stated
        digits = len(figure.partition(".")[2])
        shown = f"{total_bytes / BYTES[unit]:,.{digits}f}"
        return None if shown == figure else f"the product {shown} {unit} is printed {figure} {unit}"
    shown = f"{total_bytes / BYTES[table_unit]:,.2f} {table_unit}"
    taken = f"{change / BYTES[table_unit]:,.2f} {table_unit}"
    return None if shown in (after, taken) else f"the product {shown} is neither the After {after} nor {taken}"


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_formula_line_multiplies_to_its_printed_result(example):
    rows = _steps(example, "TiB")
    assert rows  # every example has a capacity section with steps
    wrong = [(step, how, why) for step, _, after, how, change in rows if (why := _check(how, after, change, "TiB"))]
    assert not wrong, wrong


@pytest.mark.parametrize("example", ["aff-a70-snapmirror-cvo-dr", "aff-a70-metrocluster-ip-oracle-nvmetcp",
                                     "aff-c80-qlc-vmware-nvmefc64", "vsan8-osa-hybrid-4host-oltp",
                                     "cvo-aws-m5-4xlarge-ha-oltp"])
def test_in_a_tb_project_too(example):
    rows = _steps(example, "TB")
    wrong = [(step, how, why) for step, _, after, how, change in rows if (why := _check(how, after, change, "TB"))]
    assert not wrong, wrong


def test_the_reviewed_line_reads_right_with_the_drive_size_printed_once():
    """"24 x 3.49 TiB" beside 83.81 TiB (REVIEW43-PDF #15) reads "24 x ~3.49 TiB": the product is marked approximate
    and the drive keeps the precision the report prints it with elsewhere (review 52: not "3.4921 TiB" in one
    step, "3.492 TiB" in the next and "3.49 TiB" in the bill of materials)."""
    from models.catalog import Drive, bundled_catalog

    project = load_any(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    rows = {step: how for step, _, _, how, _ in _steps("aff-a70-snapmirror-cvo-dr", "TiB")}
    drives = {n.drive for s in project.scenarios for n in s.nodes if getattr(n, "drive", None)}
    sizes = {f"{d.right_sized_bytes / 2**40:.2f}" for d in map(bundled_catalog().find, drives) if isinstance(d, Drive)}
    right_sized = re.fullmatch(r"24 x ~(\d\.\d+) TiB", rows["Right-sized"])
    assert right_sized and right_sized.group(1) in sizes, rows["Right-sized"]
    assert f"{24 * float(right_sized.group(1)):.2f}" != "83.81"  # why it says "~"
    for example in ("aff-a70-metrocluster-ip-oracle-nvmetcp", "vsan-sqlserver-raid5", "fas70-ds460c-nlsas-nfs"):
        for _, _, _, how, _ in _steps(example, "TiB"):
            for figure in re.findall(r"(\d[\d,]*\.(\d+)) (?:TiB|GiB|TB|GB)\b", how):
                assert len(figure[1]) <= 2, (example, how)  # no operand with more decimals than the report's
