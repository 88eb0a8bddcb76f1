"""What a customer reads of the catalog carries no internal wording: a record's ``notes`` (the palette's tooltip)
and the source text of each of its numbers (the PDF's sources table, the catalog browser) name public documents,
never the project's internal names for its specification reports ("seed 004"), its branches or worktrees, its
research notes ("searched the docs corpora", "the search tool", "not readable offline") or an engine station that
no platform runs on any more.

The performance profiles are scanned too, the calibrated ones included: ``storplan calibrate --write`` writes their
source texts from the calibration code, which cites the published reports by title and section
(``models.catalog.published_reports``), never by the specification's file names ("004_2fde4983b68c72f7.txt")."""

from __future__ import annotations

import re

from models.catalog import bundled_catalog

INTERNAL_WORDS = (
    r"\bbranch(?:es)?\b",
    r"\bseeds? ?\d{3}",
    r"\bseed0",
    r"\bseeds?\b",
    r"\bseed's\b",
    r"\breadable offline\b",
    r"\bsearch tool\b",
    r"\bstored (?:public )?pages\b",
    r"\buncalibrated (?:CPU )?default\b",
    r"\bresearch",
    r"\bcorpus\b",
    r"\bcorpora\b",
    r"\bsearched the\b",
    r"\bTODO\b",
    r"\bhelpers?\b",
    r"\bworktrees?\b",
    r"(?<![/\w.-])[\w.-]+\.txt\b",  # a file name of its own; a public address ending in .txt (spec.org) is fine
)
"""Words that belong to the project's workings, not to a customer's document (case-insensitive)."""

_INTERNAL = re.compile("|".join(INTERNAL_WORDS), re.IGNORECASE)


def internal_phrases(text: str) -> list[str]:
    """The internal words found in ``text``, with a few characters either side."""
    return [text[max(m.start() - 30, 0):m.end() + 30] for m in _INTERNAL.finditer(text)]


def test_the_word_list_finds_each_kind_of_internal_wording():
    said = ("NVMe/TCP as well, added to the catalog's protocols on another branch; Seed 001: each host; "
            "seed 004_2fde4983b68c72f7.txt §2; used only to size the uncalibrated default CPU station; "
            "searched the pages and docs corpora")
    assert len(internal_phrases(said)) == 6
    assert internal_phrases("fitted to 004_2fde4983b68c72f7.txt §4 Tables 2-5") != []
    assert internal_phrases("https://www.spec.org/storage2020/results/res2023q4/storage2020-20231002-00055.txt") == []
    assert internal_phrases("NetApp TR-4671 §2 Table 1 (Standard_DS3_v2: 4 CPU, 14GB RAM, 3000 Mbps)") == []


def test_no_catalog_note_or_field_source_carries_internal_wording():
    catalog = bundled_catalog()
    records = list(catalog)
    assert len(records) > 200
    found = []
    scanned = 0
    for record in records:
        texts = [("notes", record.notes)] + [(name, p.source) for name, p in record.provenance.items()]
        for where, text in texts:
            scanned += bool(text)
            found += [f"{record.id} {where}: ...{phrase}..." for phrase in internal_phrases(text)]
    assert scanned > 2000
    assert not found, "\n".join(found)


def test_no_performance_profile_carries_internal_wording():
    """Every performance profile's source and the source of each of its fields, the blocks ``storplan calibrate
    --write`` writes included (the AFF8080A EX, AFF A800, CVO DSv2, EF550 and spinning-array profiles)."""
    found = []
    scanned = calibrated = 0
    for record in bundled_catalog():
        for profile in getattr(record, "performance", None) or ():
            where = f"{record.id} {profile.software} {profile.protocol}"
            texts = [("source", profile.source)] + [(name, p.source) for name, p in profile.provenance.items()]
            calibrated += any(p.kind == "calibrated" for p in profile.provenance.values())
            for field, text in texts:
                scanned += bool(text)
                found += [f"{where} {field}: ...{phrase}..." for phrase in internal_phrases(text)]
    assert calibrated >= 8 and scanned > 100
    assert not found, "\n".join(found)


def test_a_fit_reads_in_words_with_units_in_the_sources_table():
    """Review 44 #14: the AFF A800's sources table printed a fit's parameter keys ("9.5/FCP:cpu_read_us"), its
    standard errors without a unit and "4 points for 4 parameters ... RMS relative residual 0.000" as if it were a
    fit's quality. The exactly determined fit is said to be one, its standard errors carry the field's unit, and
    every bundled example's sources table names no field key."""
    from app.report.sources import catalog_numbers
    from models.resources import examples_dir
    from models.store import load_any
    from models.units import CapacityUnit

    catalog = bundled_catalog()
    key = re.compile(r"\d/[A-Za-z][\w/]*:[a-z]\w*|\w_us\b|RMS relative residual|J\^T J|lower ratio instead")
    leaks = []
    examples = sorted(examples_dir().glob("*.toml"))
    assert len(examples) >= 25
    for path in examples:
        rows = catalog_numbers(load_any(path).scenario, catalog, CapacityUnit.TIB)
        leaks += [f"{path.stem}: {m.group(0)}" for r in rows for m in key.finditer(f"{r.value} {r.source}")]
    assert not leaks, leaks[:10]

    a800 = catalog_numbers(load_any(examples_dir() / "a800-oracle-slob-nvmefc.toml").scenario, catalog,
                           CapacityUnit.TIB)
    errors = [r for r in a800 if r.field.endswith(": stderr") and r.value != "\u2014"]
    assert errors and all(part.endswith(" \u00b5s") and ": \u00b1" in part
                          for r in errors for part in r.value.split("; "))
    exact = [r for r in a800 if r.field.endswith(": stderr") and "4 measured points" in r.source]
    assert len(exact) == 2  # the ONTAP 9.5 FCP and NVMe/FC fits: four published figures, four parameters
    for r in exact:
        assert "exactly determined" in r.source and "not informative" in r.source
        assert "CPU time per read on ONTAP 9.5 over FCP" in r.source
