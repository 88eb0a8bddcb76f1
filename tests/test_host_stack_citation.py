"""A current server's I/O stack latency and CPU per I/O are the values assumed for the 2012 Fujitsu PRIMERGY RX300
S7: the report's sources table says so in a customer's words (the figure is assumed, what it is, that it is the
older server's assumption, and the one public document behind part of it), instead of "taken from a similar
server", which read as if the older server were the source of a measured number."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from app.report import render_report_bytes
from models.catalog import Host, bundled_catalog
from models.evaluate import evaluate
from models.present.citations import customer_citation
from models.resources import examples_dir
from models.store import load_any

_RX300 = "fujitsu-primergy-rx300-s7"


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _plain(value: float) -> str:
    return f"{value:g}"


def test_a_server_record_that_uses_the_rx300_s7s_values_says_so_and_lists_them():
    catalog = bundled_catalog()
    rx300 = catalog.get(_RX300, Host)
    hosts = [entry for entry in catalog if isinstance(entry, Host) and entry.id != _RX300]
    current = [host for host in hosts if host.lifecycle == "current"]
    assert len(current) >= 3
    borrowing = 0
    for host in hosts:
        for field in ("stack_latency_us", "cpu_us_per_io"):
            source = customer_citation(host.provenance[field].source)
            assert "similar server" not in source, (host.id, field)
            if host.lifecycle == "current":  # a current server's stack costs are the RX300 S7's, none published
                assert getattr(host, field) == getattr(rx300, field), (host.id, field)
            if "RX300 S7" not in source:
                assert host.lifecycle != "current", (host.id, field)
                continue
            borrowing += 1
            # the borrowed values are named as the older server's assumption and listed with their unit
            assert host.provenance[field].kind == "assumed", (host.id, field)
            assert "No published figure gives it for this server: these are the values assumed for the Fujitsu " \
                   "PRIMERGY RX300 S7" in source, (host.id, field)
            for protocol, value in getattr(host, field).items():
                assert value == getattr(rx300, field)[protocol], (host.id, field, protocol)
                assert re.search(rf"{re.escape(protocol)} ~?{re.escape(_plain(value))} µs", source), \
                    (host.id, field, protocol)
    assert borrowing >= 2 * len(current)


def test_the_a90_reports_sources_table_says_the_r760s_stack_costs_are_assumed_and_where_they_come_from():
    project = load_any(examples_dir() / "aff-a90-oracle-nvmefc64.toml")
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    text = _words(" ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages))
    table = text[text.index("Catalog and preset numbers used by this scenario"):]
    r760 = table[table.index("Dell PowerEdge R760"):table.index("(adapter)")]
    host = bundled_catalog().get("dell-poweredge-r760", Host)
    assert "similar server" not in text

    latency = r760[r760.index("stack latency"):r760.index("CPU per I/O")]
    assert "assumed: the host I/O stack's own latency per I/O" in latency
    assert "the values assumed for the Fujitsu PRIMERGY RX300 S7 (a 2012 server)" in latency
    assert "no published document gives them for that server either" in latency
    for protocol, value in host.stack_latency_us.items():
        assert f"{protocol} ~{_plain(value)} µs" in latency, protocol

    cpu = r760[r760.index("CPU per I/O"):r760.index("lifecycle")]
    assert "assumed: host CPU time per I/O spent in the I/O stack" in cpu
    assert "the values assumed for the Fujitsu PRIMERGY RX300 S7 (a 2012 server)" in cpu
    for protocol, value in host.cpu_us_per_io.items():
        assert f"{protocol} {_plain(value)} µs" in cpu, protocol
    ratio = host.cpu_us_per_io["NVMe/FC"] / host.cpu_us_per_io["FCP"]
    assert f"NVMe/FC to FCP ratio ({ratio:.2f})" in cpu
    assert f"up to {round((1 - ratio) * 100)}% less CPU with NVMe/FC than with FCP" in cpu
    # the public document, by its title, section and document number; no internal file name
    assert '"NetApp AFF A800 Performance with Oracle Database" (2019) §3.6 (NetApp TR-4767)' in cpu
    assert "seed" not in r760.lower() and ".txt" not in r760
