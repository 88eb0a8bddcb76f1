"""The AFF A90's derived profile reads, in the PDF's sources table, as sentences a customer can follow, citing the
public documents by title, section and address (STOP41 "Left": it printed the catalog's research phrasing, "A
sibling profile that / 1.09 would let ...", "the AFF A90's derivation ratio, NetApp AFF A90 HA pair profile
from", "the engine's fallback"). Only the wording changed: the record's ratio, bound and the figures of its
derivation are the same (checked against the record and recomputed here).
"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from app.report import render_report_bytes
from models.catalog import bundled_catalog
from models.catalog.schema import Controller
from models.project import load
from models.resources import examples_dir

RESEARCH_PHRASES = ("derivation ratio", "profile from)", "profile_from", "A sibling profile", "the engine",
                    "hence the", "/ 1.09 would", "its lightest operation", "the ramp's CPU", "searched")


@pytest.fixture(scope="module")
def sources_text() -> str:
    pdf = PdfReader(io.BytesIO(render_report_bytes(load(examples_dir() / "aff-a90-oracle-nvmefc64.toml"),
                                                   validation=[])))
    text = " ".join(" ".join(page.extract_text().split()) for page in pdf.pages)
    start = text.index("Catalog and preset numbers used by this scenario")
    return text[start:text.index("PCIe 3.0 x4 NVMe", start)]


def test_the_a90_derivation_reads_as_sentences_citing_public_documents(sources_text):
    row = sources_text[sources_text.index("profile from"):sources_text.index("performance 9.15 NFS: CPU read")]
    assert not [p for p in RESEARCH_PHRASES if p in row], row
    # the documents: NVA-1173 with its section and address, the A800 report by title and section
    assert "NetApp NVA-1173, 'NetApp AIPod with NVIDIA DGX Systems - Hardware Components', section 'AFF A90" in row
    assert "docs.netapp.com/us-en/ netapp-solutions-ai/infra/ai-aipod-nv-hw.html" in row or \
        "docs.netapp.com/us-en/netapp-solutions-ai/infra/ai-aipod-nv-hw.html" in row
    assert 'NetApp report "NetApp AFF A800 Performance with Oracle Database" (2019) §4 Conclusion' in row
    # the figures of the derivation, recomputed from the record: 2.4M / 2.2M, 96 cores / 2.4M, 50.7 / 1.09
    a90 = bundled_catalog().get("netapp-aff-a90", Controller)
    assert a90.profile_from.ratio == pytest.approx(2_400_000 / 2_200_000, abs=0.005)
    assert a90.peak_iops == 2_400_000
    cores = a90.nodes * a90.cores_per_node
    assert f"2,400K / 2,200K = {a90.profile_from.ratio:g}" in row
    assert f"{cores} cores / 2.4M" not in row  # the working-out of a rejected alternative is not for the customer
    assert "bounds the rate, not the time per operation" in row
    a800 = {(p.software, p.protocol): p for p in bundled_catalog().get("netapp-aff-a800", Controller).performance}
    fcp = a800[("9.5", "FCP")].cpu_read_us
    ratio = a90.profile_from.ratio
    assert f"{fcp:.1f} / {ratio:g} = {fcp / ratio:.1f} \u00b5s" in row  # 50.741 / 1.09 = 46.6
    assert f"at most {cores / (fcp / ratio):.2f}M reads per second" in row  # 96 cores / 46.6 us = 2.06M


def test_the_a90_nfs_fields_held_from_the_a800_say_why_in_words(sources_text):
    start = sources_text.index("performance 9.15 NFS: CPU read")
    rows = sources_text[start:sources_text.index("performance 9.15 NFS: fixed", start)]
    assert not [p for p in RESEARCH_PHRASES if p in rows], rows
    assert rows.count("NetApp's published peak IOPS per HA pair, AFF A90 'up to 2.4M' over AFF A800 '2,200K'") == 3
