"""Every text the catalog gives a customer as a source (provenance sources, notes, a licence's 'as of') names a
public document a customer can follow, never one of StorPlan's internal files (review 54 #3, #6).

The catalog files are read as TOML text, so every string is checked, including records the engine does not load
for a given project. The internal names: the reference-notes file the facts were gathered in (public_facts.md), the
engine's source files and module paths, the test suite, catalog file names, the seed reports' file names."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator

import pytest

from models.resources import resources_dir

CATALOG = resources_dir() / "catalog"

INTERNAL = re.compile(
    r"public_facts"                        # the reference-notes file
    r"|\b[\w/]+\.py\b"                     # an engine or test source file
    r"|\bmodels\.[a-z_]+\.[\w.]+"          # an engine module or constant
    r"|\btests/"                           # the test suite
    r"|\b\w+\.toml\b"                      # a catalog file
    r"|\b\d{3}_[0-9a-f]{16}\.txt\b")       # a seed report's file name
"""What a customer cannot follow: StorPlan's own files and code names."""

DEAD_ADDRESSES = re.compile(
    r"ns224/hot-add-(?:aff|asa)-cable-[a-z0-9-]+\.html"    # merged into ns224/cable-{aff,asa}-systems-hot-add-shelf
    r"|ontap-systems/c[36]0-key-specifications\.html")    # the pages are under c30-60/
"""NetApp addresses that no longer exist in NetAppDocs/ontap-systems 5ffe401d (the catalog's snapshot)."""


def _strings(value: object, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            label = item.get("id", i) if isinstance(item, dict) else i
            yield from _strings(item, f"{where}[{label}]")
    elif isinstance(value, str):
        yield where, value


def _catalog_texts(text_of=None) -> list[tuple[str, str]]:
    files = sorted(CATALOG.glob("*.toml"))
    assert len(files) >= 10, files
    out: list[tuple[str, str]] = []
    for path in files:
        text = text_of(path) if text_of else path.read_text(encoding="utf-8")
        out += list(_strings(tomllib.loads(text), path.stem))
    return out


def _offenders(texts: list[tuple[str, str]], pattern: re.Pattern[str]) -> list[str]:
    return [f"{where}: {m.group(0)!r} in ...{text[max(0, m.start() - 60):m.end() + 20]}..."
            for where, text in texts for m in [pattern.search(text)] if m]


def test_no_catalog_text_names_an_internal_file() -> None:
    texts = _catalog_texts()
    assert len(texts) > 3000  # every record's sources and notes were read
    offenders = _offenders(texts, INTERNAL)
    assert not offenders, "\n".join(offenders[:20]) + f"\n({len(offenders)} in all)"


def test_no_catalog_text_cites_an_address_netapp_has_removed() -> None:
    offenders = _offenders(_catalog_texts(), DEAD_ADDRESSES)
    assert not offenders, "\n".join(offenders[:20]) + f"\n({len(offenders)} in all)"


@pytest.mark.parametrize("text, internal", [
    ("NetApp CVO documentation (public_facts.md): Premium 368 TiB", True),
    ("RAID-TEC maximum 29 (ONTAP documentation, models/capacity/rules.py)", True),
    ("fitted to the ramp (models.calibration.seed_profiles.NFS_RAMP_FITS)", True),
    ("cloud.toml's cvo-explore record (tests/test_cloud_aws_gcp.py checks them)", True),
    ("MicrosoftDocs/azure-docs articles/virtual-machines/sizes/memory-optimized/edsv5-series.md", False),
    ("'Key specifications for AFF A90' (docs.netapp.com/us-en/ontap-systems/a70-90/a90-key-specifications.html)",
     False),
    ("NetApp TR-3838 (www.netapp.com/us/media/tr-3838.pdf; github.com/EricSherrill/nusc, arrays.js)", False),
])
def test_the_internal_name_rule_tells_internal_files_from_public_documents(text: str, internal: bool) -> None:
    assert bool(INTERNAL.search(text)) is internal
