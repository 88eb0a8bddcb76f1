"""Review 43 (PDF), finding 8: the Recommendation read "NVMe/FC over 64Gb" (no medium) beside "FCP over 64Gb FC"."""

from __future__ import annotations

import re

from models.catalog import LinkType, bundled_catalog
from models.sizing import front_end_words

CATALOG = bundled_catalog()


def _speed(link: LinkType) -> str:
    return re.match(r"\d+Gb(E)?", link.short_name).group(0)  # "64Gb", "100GbE"


def test_every_front_end_names_its_protocol_once_and_its_medium():
    pairs = [(p, link) for link in CATALOG.of_kind(LinkType) for p in link.protocols
             if p not in ("SAS", "NVMe") and "FC-AL" not in link.short_name]  # front ends, not drive links
    assert len(pairs) >= 12
    for protocol, link in pairs:
        words = front_end_words(protocol, link)
        medium = " FC" if "Fibre Channel" in link.name else ""  # Ethernet speeds carry it: "100GbE"
        assert words == f"{protocol} over {_speed(link)}{medium}", (link.name, words)


def test_the_two_named_in_the_review():
    links = {link.name: link for link in CATALOG.of_kind(LinkType)}
    assert front_end_words("NVMe/FC", links["NVMe/FC over 64Gb Fibre Channel"]) == "NVMe/FC over 64Gb FC"
    assert front_end_words("NVMe/FC", links["NVMe/FC over 32Gb Fibre Channel"]) == "NVMe/FC over 32Gb FC"
    assert front_end_words("FCP", links["64Gb Fibre Channel (FCP)"]) == "FCP over 64Gb FC"
    assert front_end_words("NVMe/TCP", links["100GbE (NVMe/TCP)"]) == "NVMe/TCP over 100GbE"


def test_the_a90_report_s_recommendation_names_the_medium():
    import io

    from pypdf import PdfReader

    from app.report import render_report_bytes
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "aff-a90-oracle-nvmefc64.toml")
    reader = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    recommendation = text[text.index("Recommendation"):text.index("Ranked by the deployments")]
    # every ranked configuration names its medium (the sizer proposes models sold today, all with 64Gb FC here;
    # the A800's 32Gb FC, installed base, is no longer among them: the words of 32Gb FC are checked above)
    # (a row tied with another on every criterion names it after its configuration: "(or NetApp ASA A70 HA pair,
    # tied on every criterion)")
    rows = re.findall(r"\d (?:★ )?NetApp [^,]+ HA pair, .+?, (\S+ over \d+Gb FC)(?: \d+ | \(or )", recommendation)
    assert len(rows) == 5 and set(rows) == {"NVMe/FC over 64Gb FC"}
    assert recommendation.count("NVMe/FC over 64Gb FC") == 5 and "AFF A800" not in recommendation
    assert not re.search(r"NVMe/FC over \d+Gb(?! FC)", recommendation)
