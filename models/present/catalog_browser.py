"""The catalog browser's rows and details: every record with its kind, vendor, model, key figures and how its
numbers are sourced, and for one record every number with its source (``models.catalog.provenance`` kinds).
Qt-free: the GUI's browser (``app.gui.catalog_browser``) and the tests read the same rows."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from models.catalog import Catalog, Controller, Sourced
from models.catalog.provenance import SOURCE_KINDS, record_counts
from models.catalog.schema import Entry
from models.performance.evidence import platform_evidence
from models.present.citations import customer_citation
from models.present.verdicts import PROFILE_KIND_MEANINGS

KEY_FIELDS = {
    "controller": (("nodes", "nodes"), ("memory_gib_per_node", "GiB/node"), ("max_drives", "drives"),
                   ("max_drives_switched", "drives switch-attached"), ("rack_units", "U"), ("typical_power_w", "W")),
    "drive": (("marketed_bytes", "bytes"), ("media", ""), ("interface", ""), ("rpm", "rpm"), ("typical_power_w", "W")),
    "shelf": (("bays", "bays"), ("rack_units", "U"), ("typical_power_w", "W")),
    "link": (("speed_gbps", "Gb/s"), ("payload_mbps", "MB/s")),
    "switch": (("ports", "ports"), ("rack_units", "U"), ("typical_power_w", "W")),
    "host": (("cores", "cores"),),
    "hci_node": (("cores", "cores"), ("memory_gib", "GiB")),
    "cloud_vm": (("vcpu", "vCPU"), ("ram_gib", "GiB")),
    "cloud_disk": (("iops", "IOPS"), ("mbps", "MB/s")),
    "managed_service": (("service_level", ""), ("throughput_mibps_per_tib", "MiB/s per TiB"),
                        ("max_throughput_mbps", "MB/s max")),
}
"""Per kind, the fields shown as key figures (name, unit)."""


@dataclass(frozen=True)
class BrowserRow:
    """One record in the browser's table.

    Attributes:
        id, kind, vendor, model: the record; figures: its key figures in words; sources: how its numbers are
        sourced, e.g. ``sourced 6 · derived 1 · assumed 4``; status: the record's ``lifecycle`` (``current``,
        ``installed base``, ``end of sale``), else "end of sale" where its notes say so, else "".
    """

    id: str
    kind: str
    vendor: str
    model: str
    figures: str
    sources: str
    status: str

    def matches(self, text: str) -> bool:
        """Whether every word of ``text`` appears (case-insensitive) in the row's id, kind, vendor, model or
        figures."""
        hay = " ".join((self.id, self.kind, self.vendor, self.model, self.figures)).lower()
        return all(word in hay for word in text.lower().split())


def _figure(value: object, unit: str) -> str:
    """One key figure in words (bytes as TB, numbers with thousands separators)."""
    if unit == "bytes" and isinstance(value, (int, float)):
        return f"{value / 1e12:,.2f} TB"
    if isinstance(value, float):
        value = f"{value:,.1f}".rstrip("0").rstrip(".")
    elif isinstance(value, int):
        value = f"{value:,}"
    return f"{value} {unit}".strip()


def browser_rows(entries: Iterable[Entry]) -> list[BrowserRow]:
    """Every record as a :class:`BrowserRow`, by kind then model name."""
    rows = []
    for e in sorted(entries, key=lambda e: (e.kind, e.name)):
        figures = [_figure(getattr(e, f), unit) for f, unit in KEY_FIELDS.get(e.kind, ())
                   if getattr(e, f, None) not in (None, "", 0)]
        counts = record_counts(e)
        sources = " · ".join(f"{k} {counts[k]}" for k in SOURCE_KINDS if counts.get(k))
        notes = e.notes.lower()
        status = e.lifecycle or ("end of sale" if "end of sale" in notes or "end-of-sale" in notes else "")
        rows.append(BrowserRow(e.id, e.kind, e.vendor, e.name, ", ".join(figures), sources, status))
    return rows


def evidence_details(entry: Controller, catalog: Catalog) -> list[tuple[str, str, str, str]]:
    """A controller's performance evidence on its default software per protocol it serves
    (``models.performance.evidence.platform_evidence``): ("performance evidence (FCP)", the profile it runs on
    (calibrated, derived, hardware relation only, assumed), the evidence kind (benchmark ramp, benchmark peak,
    vendor claim, ratio claim, hardware relation only, assumed), the evidence as the customer reads it)."""
    return [(f"performance evidence ({row.protocol})", row.profile, row.kind, customer_citation(row.evidence))
            for row in platform_evidence(entry, catalog)]


def record_details(entry: Sourced, catalog: Catalog | None = None) -> list[tuple[str, str, str, str]]:
    """Every number of one record: (field, value, provenance kind, source text), nested performance profiles
    included (their fields prefixed with the profile's software and protocol). The kind is the field's
    ``Provenance.kind``; the source text is the customer's citation (``models.present.citations``: research notes
    stay in the catalog files and the hardware editor); a calibrated number's source text ends with the fit that
    set it. With ``catalog``, a controller's rows end with its performance evidence per protocol
    (:func:`evidence_details`; the kind column holds the evidence kind)."""
    out: list[tuple[str, str, str, str]] = []

    def walk(record: Sourced, prefix: str) -> None:
        for name in type(record).model_fields:
            if name == "provenance":
                continue
            value = getattr(record, name)
            if isinstance(value, list) and value and isinstance(value[0], Sourced):
                for inner in value:
                    label = f"{getattr(inner, 'software', '')} {getattr(inner, 'protocol', '')}".strip()
                    walk(inner, f"{prefix}{name}[{label}].")
                continue
            p = record.provenance.get(name)
            if p is None:
                continue
            source = customer_citation(p.source)
            text = f"{source} (fit: {p.fit})" if p.fit and p.fit not in p.source else source
            out.append((prefix + name, str(value), p.kind, text))

    walk(entry, "")
    if catalog is not None and isinstance(entry, Controller):
        out.extend(evidence_details(entry, catalog))
    return out


EVIDENCE_KINDS: tuple[tuple[str, str], ...] = tuple(PROFILE_KIND_MEANINGS.items())
"""The kinds of performance profile in a customer's words: ``models.present.verdicts.PROFILE_KIND_MEANINGS``, whose
words the verdicts say of a figure not measured on this system (one set of words, never two)."""
EVIDENCE_LEGEND = "; ".join(f"{kind}: {words}" for kind, words in EVIDENCE_KINDS)
"""One line saying what each profile kind means: the catalog browser's evidence tab and ``storplan catalog
controller --evidence`` print it."""

_EVIDENCE_REWRITES: tuple[tuple[str, str], ...] = (
    # the pooled CPU cost's formula: the words before it already say what it is
    (r"hardware relation: the CPU time per operation of one core \(demand x cores / servers\) of",
     "the CPU time per operation of one core, pooled over"),
    (r" \(demand x cores(?:_per_node)? / servers(?:_per_node)?\)", ""),
    # a parallelism bound by a neighbour's capacity: one level of brackets
    (r"parallelism x ([\d.]+) \(at the (.+?)'s capacity \(([^():]+): not (below|above) it\)\)",
     r"parallelism x \1, so its capacity is not \4 the \2's, by the \3"),
    (r"with CPU demands / ([\d.]+)", r"with its CPU time per operation divided by \1"),
    (r"hence the derived band", "hence 'derived'"),
    (r"\bband\b", "range"),
)


def _drop_repeated_addresses(text: str) -> str:
    """Drop a bracket that only lists web addresses the text already gave (``... c800/overview.html and ... page
    'a800/overview' (docs.netapp.com/.../c800/overview.html, .../a800/overview.html)``): one address once."""
    import re

    def repeat(match: re.Match[str]) -> str:
        parts = [p.strip() for p in match.group(1).split(",")]
        before = text[:match.start()]
        urlish = all(re.fullmatch(r"(?:https?://)?(?:\.\.\.|[\w.-]+\.\w+)(?:/[\w./-]*)?", p) for p in parts)
        first = parts[0].removeprefix("https://").removeprefix("http://")
        return "" if urlish and first in before else match.group(0)

    return re.sub(r" \(([^()]*)\)", repeat, text)


def _flatten_brackets(text: str) -> str:
    """Brackets inside brackets read as a comma-led clause: ``(a (b) c)`` -> ``(a, b, c)``."""
    out: list[str] = []
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth > 1:
                while out and out[-1] == " ":
                    out.pop()
                out.append(": " if out and out[-1].isalnum() and text[i + 1:i + 2].isupper() is False else ", ")
                continue
        elif ch == ")":
            depth -= 1
            if depth >= 1:
                nxt = text[i + 1:i + 2]
                if nxt and nxt not in ",;:).":
                    out.append(",")
                continue
        out.append(ch)
    return "".join(out).replace(":  ", ": ").replace(", ,", ",")


def evidence_words(text: str, kind: str = "") -> str:
    """A performance evidence text as a customer reads it (:func:`customer_citation`, then no formula without
    words, no bracket inside a bracket, no internal word "band", a web address once), without a leading
    ``kind: `` the table's column says already."""
    import re

    text = customer_citation(text)
    if kind and text.startswith(f"{kind}: "):
        text = text[len(kind) + 2:]
    for pattern, replacement in _EVIDENCE_REWRITES:
        text = re.sub(pattern, replacement, text)
    return _flatten_brackets(_drop_repeated_addresses(text))


BRIEF_BRACKET_CHARS = 200
"""A bracket in an evidence text longer than this many characters (a derived profile's whole catalog paragraph: the
ratio's reasoning and every source it cites) is left out of the text's brief (:func:`evidence_brief`)."""
BRIEF_MARK = "reasoning and sources in the details"
"""What stands in a brief for a bracket left out (the catalog browser shows the whole text below the table and in
the row's tooltip)."""


def evidence_brief(text: str, mark: str = BRIEF_MARK) -> str:
    """``text`` (an evidence text in a customer's words, :func:`evidence_words`) with each bracket longer than
    :data:`BRIEF_BRACKET_CHARS` replaced by ``(mark)`` (``(derived: mark)`` when the bracket begins with a short
    ``word:``): the line a table row shows, as long as the other rows'; the text itself stays whole where the
    reader asks for it. ``text`` as is when it has no such bracket."""
    out: list[str] = []
    depth, start = 0, -1
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                inner = text[start + 1:i]
                if len(inner) > BRIEF_BRACKET_CHARS:
                    head, colon, _rest = inner.partition(": ")
                    lead = f"{head}: " if colon and len(head) <= 20 else ""
                    out.append(f"({lead}{mark})")
                else:
                    out.append(f"({inner})")
            continue
        if depth == 0:
            out.append(ch)
    if depth:  # an unclosed bracket: the rest as written
        out.append(text[start:])
    return "".join(out)


@dataclass(frozen=True)
class EvidenceLine:
    """One protocol of a controller's performance evidence as the browser and the CLI show it.

    Attributes:
        protocol; profile: the profile kind (:data:`EVIDENCE_KINDS`); kind: the evidence kind (benchmark ramp,
        benchmark peak, ratio claim), blank when it says the same as the profile; text: the evidence in words.
    """

    protocol: str
    profile: str
    kind: str
    text: str

    @property
    def brief(self) -> str:
        """The evidence as a table row shows it: :func:`evidence_brief` of ``text`` (a derived profile's catalog
        paragraph left to the details, which give ``text`` whole)."""
        return evidence_brief(self.text)


def evidence_table(entry: Controller, catalog: Catalog) -> list[EvidenceLine]:
    """A controller's performance evidence per protocol in a customer's words: the one table the catalog
    browser's evidence tab and ``storplan catalog controller --evidence`` show."""
    return [EvidenceLine(row.protocol, row.profile, "" if row.kind == row.profile else row.kind,
                         evidence_words(row.evidence, row.kind))
            for row in platform_evidence(entry, catalog)]
