"""The PDF topology draws a replication relationship (review 40, item 10): the SnapMirror DR example's figure has a
dash-dot arrow from the AFF A70 to its Cloud Volumes ONTAP destination, labelled as the canvas labels it, with the
RPO the project requires. Checked on the drawing's own shapes and on the rendered PDF's text."""

from __future__ import annotations

import io
import tomllib

from pypdf import PdfReader
from reportlab.graphics.shapes import Group, Line, Polygon, Rect, String

from app.report import render_report_bytes
from app.report.fonts import BOLD, register_fonts
from app.report.graphics import REPLICATION_COLOUR, topology_drawing
from models.design import resolve
from models.present.replication_label import schedule_text, topology_label
from models.project import load
from models.project.model import Replication
from models.resources import examples_dir

EXAMPLE = examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"


def _shapes(node) -> list:
    """Every shape of a drawing or group, depth first (one coordinate space: the topology is one scaled group)."""
    out = []
    for item in getattr(node, "contents", ()):
        out += _shapes(item) if isinstance(item, Group) else [item]
    return out


def _box_of(shapes: list, label: str) -> Rect:
    """The box whose name (bold, its first line or lines) is ``label``: the tallest rectangle around it."""
    text = next(s for s in shapes if isinstance(s, String) and s.fontName == BOLD and s.text
                and label.startswith(s.text))
    return max((s for s in shapes if isinstance(s, Rect) and s.x <= text.x <= s.x + s.width
                and s.y <= text.y <= s.y + s.height), key=lambda r: r.height)


def test_the_dr_examples_topology_draws_a_labelled_dash_dot_arrow_from_source_to_destination():
    raw = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    rep = raw["replication"][0]
    assert (rep["source"], rep["target"], rep["kind"], rep["schedule_minutes"], rep["rpo_minutes"]) == (
        "a70", "cvo-dr", "snapmirror", 60.0, 90.0)
    labels = {n["id"]: n["label"] for n in raw["node"]}
    project = load(EXAMPLE)
    design = resolve(project, project.scenario.name)
    register_fonts()
    drawing, overview = topology_drawing(design.scenario, design.catalog, "TiB", 500, 700)
    assert not overview
    shapes = _shapes(drawing)
    dashed = [s for s in shapes if isinstance(s, Line) and s.strokeDashArray]
    assert len(dashed) == 1 and dashed[0].strokeColor == REPLICATION_COLOUR
    line = dashed[0]
    source, target = _box_of(shapes, labels["a70"]), _box_of(shapes, labels["cvo-dr"])
    assert target.y + target.height < source.y  # the destination right under its source
    assert abs(line.x1 - line.x2) < 1e-6 and source.x < line.x1 < source.x + source.width
    assert abs(line.y1 - source.y) < 1e-6 and abs(line.y2 - (target.y + target.height)) < 1e-6
    head = [s for s in shapes if isinstance(s, Polygon) and s.fillColor == REPLICATION_COLOUR]
    assert len(head) == 1 and (head[0].points[0], head[0].points[1]) == (line.x2, line.y2)  # points at the DR copy
    words = " ".join(s.text for s in shapes if isinstance(s, String) and s.fillColor == REPLICATION_COLOUR)
    assert words.replace(" · ", " ") == "SnapMirror asynchronous hourly RPO 90 min"
    for s in shapes:  # the label stays between the two boxes
        if isinstance(s, String) and s.fillColor == REPLICATION_COLOUR:
            assert target.y + target.height < s.y < source.y


def test_the_rendered_topology_page_carries_the_relationships_label():
    data = render_report_bytes(load(EXAMPLE), validation=[])
    pages = [" ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(data)).pages]
    page = next(p for p in pages if "Topology Scenario" in p)
    assert "SnapMirror asynchronous" in page and "hourly · RPO 90 min" in page
    assert "A dash-dot arrow is a replication relationship" in page


def test_a_design_without_replication_draws_no_relationship():
    project = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    assert not project.scenario.replications
    design = resolve(project, project.scenario.name)
    register_fonts()
    drawing, _ = topology_drawing(design.scenario, design.catalog, "TiB", 500, 700)
    shapes = _shapes(drawing)
    assert not any(isinstance(s, Line) and s.strokeDashArray for s in shapes)
    assert not any(getattr(s, "fillColor", None) == REPLICATION_COLOUR for s in shapes)


def test_labels_name_kind_schedule_and_required_rpo():
    def rep(**kw) -> Replication:
        return Replication(id="r", source="a", target="b", **kw)

    assert [schedule_text(rep(schedule_minutes=m)) for m in (60, 15, 1440, 240)] == [
        "hourly", "every 15 min", "daily", "every 4 h"]
    assert schedule_text(rep(kind="active-sync", schedule_minutes=5)) == "synchronous"
    assert topology_label(rep(rpo_minutes=90)) == "SnapMirror asynchronous · hourly · RPO 90 min"
    assert topology_label(rep(kind="snapvault", schedule_minutes=1440, rpo_minutes=1440)) == (
        "SnapVault · daily · RPO 24 h")
    assert topology_label(rep()) == "SnapMirror asynchronous · hourly"


def test_the_overview_of_a_large_design_says_a_relationship_inside_one_box_is_not_drawn():
    from scale_project import large_project

    from app.report.graphics import replication_note

    project = large_project(300, 2)
    project = project.with_scenario(project.scenario.with_changes(
        replications=[Replication(id="r", source="c-0", target="c-1", rpo_minutes=30)]))
    design = resolve(project, project.scenario.name)
    register_fonts()
    drawing, overview = topology_drawing(design.scenario, design.catalog, "TiB", 500, 700)
    assert overview  # both AFF8080 pairs are one box
    assert not any(isinstance(s, Line) and s.strokeDashArray for s in _shapes(drawing))
    assert "Protection and DR lists every relationship" in replication_note(design.scenario, overview)
    assert "is not drawn" not in replication_note(design.scenario, False)
    assert replication_note(load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml").scenario, False) == ""
