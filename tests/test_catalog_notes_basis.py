"""The catalog notes describe the hardware, not a performance basis that has since changed: no controller's note
says it runs on the uncalibrated default while ``storplan validate`` counts no platform on it, and none says no
published measurement calibrates it while its computed evidence has a calibrated protocol. The one-line basis the
palette tooltip shows (models.present.performance_basis) reads the same evidence rows."""

from __future__ import annotations

import re

from models.catalog import Controller, bundled_catalog
from models.performance.evidence import platform_evidence
from models.present.performance_basis import basis_line, first_clause, performance_basis
from models.validation.ladders import platform_bases


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_no_controller_note_contradicts_its_computed_basis():
    catalog = bundled_catalog()
    on_default = {b.id for b in platform_bases(catalog) if b.on_default}
    controllers = [r for r in catalog if isinstance(r, Controller)]
    assert len(controllers) > 30
    for record in controllers:
        note = _flat(record.notes).lower()
        rows = platform_evidence(record, catalog)
        assert rows, record.id
        profiles = {row.profile for row in rows}
        if record.id not in on_default:
            assert "uncalibrated default" not in note, record.id
        if "calibrated" in profiles:
            assert "no published measurement calibrates it" not in note, record.id
        if "assumed" not in profiles:
            assert "(assumed, the widest" not in note, record.id
    assert not on_default  # validate's count: while it is 0, the phrase appears in no note (above)


def test_first_clause_drops_parentheses_and_stops_at_the_first_top_level_comma():
    text = ("pooled E-Series software costs (assumed, none fitted) on 16 cores per node, parallelism x 1.5 "
            "(at X's capacity (vendor positioning: not below it)); read CPU cost: y")
    assert first_clause(text) == "pooled E-Series software costs on 16 cores per node"
    assert first_clause("fitted to published measurements (A; B (c, d)), profile 9.5 / FCP") == \
        "fitted to published measurements"


def test_the_basis_line_names_each_controllers_cores_and_calibrated_protocols():
    catalog = bundled_catalog()
    nouns = set()
    for record in (r for r in catalog if isinstance(r, Controller)):
        rows = platform_evidence(record, catalog)
        line = performance_basis(record, catalog)
        assert line == basis_line(rows)
        assert line.startswith("Performance: ") and "\n" not in line
        kinds = {row.profile for row in rows}
        for kind in kinds:
            assert f"{kind} (" in line, (record.id, kind)
        if kinds == {"hardware relation only"}:
            # an E-Series array's cores are SANtricity's per controller (c028474), an ONTAP system's per node
            noun = "controller" if record.family == "E-Series" else "node"
            nouns.add(noun)
            assert re.search(rf"software costs on {record.cores_per_node:g} cores per {noun}\)$", line), line
            assert " for " not in line  # one basis: no protocol list
        calibrated = [row.protocol for row in rows if row.profile == "calibrated"]
        if calibrated and len(kinds) > 1:
            assert f"calibrated (fitted to published measurements) for {', '.join(calibrated)}" in line, line
    assert nouns == {"node", "controller"}  # both families' words were read
