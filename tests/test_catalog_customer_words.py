"""What a customer reads of the catalog carries no internal wording: a record's ``notes`` (the palette's tooltip)
and the source text of each of its numbers (the PDF's sources table, the catalog browser) name public documents,
never the project's internal names for its specification reports ("seed 004"), its branches or worktrees, its
research notes ("searched the docs corpora", "the search tool", "not readable offline") or an engine station that
no platform runs on any more.

The calibrated performance profiles of the seed systems are written by the calibration (their text comes from the
calibration code, rewritten for customers by ``models.present.citations.customer_citation``) and are not scanned
here: this test covers the hand-written text of every record."""

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
