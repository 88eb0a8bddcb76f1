"""Review 43 (PDF), finding 21: the vSAN report's assumptions read "(VMware vSAN documentation (VMware vSAN))" (the
source named twice) and "... cache tier (7.69 TB) are not capacity" (a singular subject with "are")."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from app.report import render_report_bytes
from models.capacity import rules
from models.present.citations import customer_citation
from models.project import load
from models.resources import examples_dir


def test_a_documentation_named_by_its_own_topic_is_named_once():
    assert customer_citation(rules.VSAN_DOCS) == "VMware vSAN documentation"
    assert customer_citation(f"slack space ({rules.VSAN_DOCS}: keep 25-30% free)") == \
        "slack space (VMware vSAN documentation: keep 25-30% free)"
    # the rules name their documents only; a source that still names the notes file's section keeps the section
    assert customer_citation(rules.ONTAP_DOCS) == "ONTAP documentation"
    assert customer_citation("ONTAP documentation (public_facts.md: ONTAP partitioning, reserves, RAID and spares)") \
        == "ONTAP documentation (ONTAP partitioning, reserves, RAID and spares)"


def test_the_vsan_report_s_cache_tier_assumption_reads_right():
    project = load(examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml")
    reader = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    assert "(VMware vSAN)" not in text and "are not capacity" not in text
    assert re.search(r"Cache tier: 8 x 960 GB Micron 5400 MAX 960GB SATA SSD \(mixed use\), vSAN OSA cache tier "
                     r"\([\d.]+ TiB\), not counted as capacity \(VMware vSAN documentation\)\.", text)
