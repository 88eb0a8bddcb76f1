"""Customer citations: a catalog source text as a customer reads it (a document title, its section and a public
address or document number), with the research notes left in the catalog files and the hardware editor.

The catalog keeps, next to each number, how it was found: the seed report's file name, the reference notes file a
fact was copied from, the places searched for a number nobody publishes, commit hashes of documentation snapshots
and the engine module that applies a rule. :func:`customer_citation` is the one mapping from those internal
references to what a PDF, XLSX, CSV or the catalog browser shows; the catalog records themselves are unchanged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final

from models.capacity.rules import RAID_LABEL
from models.catalog.published_reports import SEED_TITLES

__all__ = ["SEED_TITLES", "customer_citation", "field_words", "workload_notes"]

_NOTE_WORDS_PATTERN = (
    r"search|remember|corpus|corpora|sources read|stored pages|not readable offline|no readable copy|"
    r"found no |not found|was not found|were not found|not in the pages|HEAD [0-9a-f]{6,}")
"""A clause that reports where was searched or how a value was recalled: a research note, not a citation."""

_HASH = r"[0-9a-f]{7,40}"

_REWRITE_PATTERNS: Final[tuple[tuple[str, str, int, str | None], ...]] = (
    # (pattern, replacement, flags, needle: a text the pattern cannot match without; None: always tried)
    # A pattern that starts with a run ("\s*", a word) starts only where the run does ("(?<!\s)"): the leftmost match
    # starts there anyway (the same matches), and a long run is read once, not once from each of its characters (a
    # 300,000-character word in a note took minutes, fuzz case hostile-41).
    # documentation snapshots: the commit or HEAD a copy was read at
    (rf"(?<!\s)\s*\(HEAD {_HASH}(?:, [0-9-]+)?\)", "", 0, "(HEAD "),
    (rf",?(?<!\s)\s*\bcommit {_HASH}\^?", "", 0, "commit "),
    (rf",?(?<!\s)\s*\bHEAD {_HASH}(?:, [0-9-]+)?", "", 0, "HEAD "),
    # the reference notes file a public fact was copied from: the fact's own document is already named
    (r"\b([A-Z][\w/.-]*(?: [\w/.-]+)*?) documentation \(public_facts\.md: \1\)", r"\1 documentation", 0,
     "public_facts.md"),
    (r"(?<!\s)\s*\(public_facts\.md(?:[ ,][^():]*)?\)", "", 0, "public_facts.md"),
    (r"public_facts\.md's", "the", 0, "public_facts.md"),
    (r",\s*public_facts\.md(?=\))", "", 0, "public_facts.md"),
    (r"(?<!\s)\s*\b(?:per|in|from|see) public_facts\.md\b", "", 0, "public_facts.md"),
    (r"public_facts\.md(?: [A-Za-z]+ table)?[:,]?\s*", "", 0, "public_facts.md"),
    (r"awsdocs/amazon-ec2-user-guide \(archived copy of the Amazon EC2 User Guide, ([^)]*)\)",
     r"Amazon EC2 User Guide (\1 edition)", 0, "awsdocs/amazon-ec2-user-guide"),
    # public documentation repositories -> their published pages
    (r"NetAppDocs[ /]([a-z0-9-]+),?\s*'?([a-z0-9/-]+)\.adoc'?", r"https://docs.netapp.com/us-en/\1/\2.html", 0,
     ".adoc"),
    (r"'?(?:(?<![a-z0-9-])|(?<=\.adoc))([a-z0-9-]+/[a-z0-9/-]+)\.adoc'?", r"docs.netapp.com page '\1'", 0, ".adoc"),
    (r"'?(?:(?<![a-z0-9-])|(?<=\.adoc))([a-z0-9-]+)\.adoc'?", r"page '\1'", 0, ".adoc"),
    (r"NetAppDocs/([a-z0-9-]+)", r"NetApp documentation (docs.netapp.com/us-en/\1)", 0, "NetAppDocs/"),
    (r"NetAppDocs ([a-z0-9-]+)", r"NetApp documentation (docs.netapp.com/us-en/\1)", 0, "NetAppDocs "),
    (r"(?:MicrosoftDocs/[A-Za-z-]+,?\s*)?articles/([^\s'(),;]+)\.md", r"https://learn.microsoft.com/en-us/azure/\1", 0,
     "articles/"),
    # an include file is a table the docs repository shares between pages: the page a customer opens and the table's
    # heading on it, never the file's name (review 57 #14)
    (r"(?:MicrosoftDocs/[A-Za-z-]+,?\s*)?includes/[^\s'(),;]+\.md\s*\((the '[^']+' table of '[^']+', [^()]*)\)",
     r"Microsoft, \1", 0, "includes/"),
    (r"(?<=disks-types; )(?:MicrosoftDocs/[A-Za-z-]+,?\s*)?includes/disk-storage-premium-ssd-sizes\.md",
     "its 'Premium SSD sizes' table", 0, "includes/"),
    (r"(?<=disks-types; )(?:MicrosoftDocs/[A-Za-z-]+,?\s*)?includes/disk-storage-standard-ssd-sizes\.md",
     "its 'Standard SSD sizes' table", 0, "includes/"),
    (r"(?:MicrosoftDocs/[A-Za-z-]+,?\s*)?includes/disk-storage-premium-ssd-sizes\.md",
     "Microsoft, 'Azure managed disk types', its 'Premium SSD sizes' table "
     "(https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types)", 0, "includes/"),
    (r"(?:MicrosoftDocs/[A-Za-z-]+,?\s*)?includes/disk-storage-standard-ssd-sizes\.md",
     "Microsoft, 'Azure managed disk types', its 'Standard SSD sizes' table "
     "(https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types)", 0, "includes/"),
    (r"(?:MicrosoftDocs/[A-Za-z-]+,?\s*)?includes/([^\s'(),;]+)\.md",
     r"a table of the Microsoft Azure documentation (learn.microsoft.com/en-us/azure)", 0, "includes/"),
    (r"(?:awsdocs/[A-Za-z0-9-]+,?\s*)?doc_source/([^\s'(),;]+)\.md",
     r"https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/\1.html", 0, "doc_source/"),
    # the NetBox device-type library's field and a Dell manual's file name: in words (r2 review #9)
    (r"\bu_height (\d+)\b", r"\1U high", 0, "u_height"),
    (r"(\(dell\.com/support/manuals),\s*[a-z0-9_]+\)", r"\1)", 0, "dell.com/support/manuals,"),
    # "the seeds": the published reports the catalog was built from, in a customer's words
    (r"\bthe catalog's seeds\b", "the published reports this catalog is built from", 0, "the catalog's seeds"),
    (r"\bin the seeds\b", "in the published reports this catalog is built from", 0, "in the seeds"),
    (r"\bthe seeds' ", "the published reports' ", 0, "the seeds' "),
    (r"\bthe seed's ", "the published report's ", 0, "the seed's "),
    (r"\bthe seed\b", "the published report", 0, "the seed"),
    # the engine's own code names: the rule is named by its document, not by where StorPlan applies it
    (r"fitted by models\.calibration \((\w+)\)", "fitted", 0, "models."),
    (r"(?<!\s)\s*\(models\.[\w.]+\)", "", 0, "models."),
    (r",\s*models\.[\w.]+", "", 0, "models."),
    (r"models\.[\w.]+,\s*", "", 0, "models."),
    (r"models\.[\w.]+", "StorPlan's engine", 0, "models."),
    # (a run of blanks is entered at its start only, the same matches; a dotted name of up to 16 parts: a dotted word
    # of thousands is read from each of its parts 16 parts on at most, not to its end: linear, not quadratic)
    (r"(?<!\s)\s*\((?:[a-z_]+\.)+[A-Z][A-Z0-9_]{2,}\)", "", 0, None),
    (r"\b(?:[a-z_]+\.){1,16}[A-Z][A-Z0-9_]{2,}\b", "StorPlan's engine", 0, None),
    # a catalog file named in a derivation: the catalog as a whole
    (r"\b(?:the )?[a-z_]+\.toml's\b", "the catalog's", 0, ".toml's"),
    (r"\b(?:the )?[a-z_]+\.toml\b", "the catalog", 0, ".toml"),
    # a note that a search found nothing: what the customer can rely on ("no published ... is known")
    (r"\bno public page found gives\b", "no public page gives", 0, "no public page found gives"),
    (r"\bby a public source found\b", "by a public source", 0, "by a public source found"),
    (r"\bno (?:public )?([\w./-]+(?: [\w./-]+){0,5}?) found (in (?:the published reports|NetApp documentation))",
     r"no published \1 \2", 0, "found in "),
    (r"\bno (?:public |readable )?([\w./-]+(?: [\w./-]+){0,5}?) (?:was |were )?found(?: in a readable source)?\b",
     r"no published \1 is known", 0, "found"),
    # a value no document read gives: say so without the research note (REVIEW57 #5)
    (r"\bnot published in the sources (?:read|searched)\b", "not published in the documents consulted", 0,
     "not published in the sources "),
    # a value recalled, not read: say so in words a customer can weigh
    # (in plain words: "unconfirmed: no public copy ... is cited" read as an internal note, review 57 #14)
    (r",? as remembered\b", " (not confirmed against a public copy of this document)", re.IGNORECASE, None),
)
"""The rewrites of :func:`customer_citation`, in order. Each is tried only when its needle is in the text (a pattern
that cannot match changes nothing) and compiled the first time it is tried (:meth:`_Compiled.rewrite`): the first
results' dozen citations need a handful of the 45 (about 4 ms less CPU between the first window and the first
results, ``benchmarks/bench_gui.py``), and nothing is compiled when the module is imported (3-5 ms of every start
that cites nothing, measured on two cores)."""


class _Compiled:
    """The compiled patterns of :func:`customer_citation` (:func:`_rx`)."""

    def __init__(self) -> None:
        self.note_words = re.compile(_NOTE_WORDS_PATTERN, re.IGNORECASE)
        self.seed_file = re.compile(r"\b(\d{3})_[0-9a-f]{16}\.txt\b")
        self.seed_pair = re.compile(r"\bseeds (\d{3})/(\d{3})\b", re.IGNORECASE)
        self.seed_one = re.compile(r"\b[Ss]eed (\d{3})\b(?!_)")
        self._rewrites: dict[int, re.Pattern[str]] = {}
        self.leftover_page = re.compile(r"\b([A-Za-z0-9-]+)\.md\b")
        # a leftover file name: from the start of its word only, so a long word without one is read once, not once
        # per character (the leftmost match starts there anyway: the same matches, linear time)
        self.leftover_file = re.compile(r"(?<!\S)\S*\.(?:toml|txt|md|py)\b")
        self.field_name = re.compile(r"(?<![\w/.#=:-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/.(-])")
        self.record_id = re.compile(r"(?<![\w/.#=:-])[a-z0-9]+(?:-[a-z0-9.]*[a-z0-9])+(?![\w/-]|\.html)")
        self.duplicate_address = re.compile(r"https://([^\s()]+)((?:\s'[^']*')?)\s*\(\1\)")

    def rewrite(self, index: int) -> re.Pattern[str]:
        """The compiled pattern of ``_REWRITE_PATTERNS[index]`` (compiled on first use)."""
        compiled = self._rewrites.get(index)
        if compiled is None:
            pattern, _replacement, flags, _needle = _REWRITE_PATTERNS[index]
            compiled = self._rewrites[index] = re.compile(pattern, flags)
        return compiled


@functools.cache
def _rx() -> _Compiled:
    return _Compiled()


def _seed_title(number: str) -> str:
    return SEED_TITLES.get(number, "a published report")


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses and quotes."""
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _drop_note_groups(text: str) -> str:
    """``text`` without the parenthesised groups (at any depth) that are research notes."""
    out: list[str] = []
    stack: list[int] = []
    for ch in text:
        if ch == "(":
            stack.append(len(out))
            out.append(ch)
        elif ch == ")" and stack:
            begin = stack.pop()
            group = "".join(out[begin:]) + ")"
            if _rx().note_words.search(group):
                del out[begin:]
                while out and out[-1] == " ":
                    out.pop()
            else:
                out.append(ch)
        else:
            out.append(ch)
    return "".join(out)


_FIELD_WORDS: Final = {
    "iops": "IOPS", "cpu": "CPU", "io": "I/O", "gib": "GiB", "tib": "TiB", "kib": "KiB", "mbps": "MB/s",
    "gbps": "Gb/s", "nvram": "NVRAM", "ha": "HA", "ssd": "SSD", "hdd": "HDD", "vm": "VM", "nvme": "NVMe",
    "raid": "RAID", "ftt": "FTT", "adp": "ADP", "wafl": "WAFL", "vcpu": "vCPU", "pct": "%",
}
_UNIT_WORDS: Final = frozenset({"us", "ms", "gib", "tib", "kib", "mbps", "gbps", "pct", "bytes", "h"})


def field_words(name: str) -> str:
    """A snake_case field or rule name in plain words (``cpu_per_kib_us`` -> ``CPU per KiB``, ``raid_tec`` ->
    ``RAID-TEC``): its trailing unit word dropped (the value carries the unit), abbreviations written as the field
    writes them. A name that is all units keeps them."""
    if name in RAID_LABEL:
        return RAID_LABEL[name]
    words = [w for w in name.split("_") if w]
    if len(words) > 1 and words[-1] in _UNIT_WORDS:
        words.pop()
    return " ".join(_FIELD_WORDS.get(w, w) for w in words)


@functools.cache
def _catalog_words() -> tuple[dict[str, str], frozenset[str]]:
    """(record id -> record name, snake_case field names) of the bundled catalog: what a citation names by id or
    field, in the words a customer reads. Empty when the catalog cannot be read (a citation never fails)."""
    import pydantic

    from models.catalog import bundled_catalog, schema
    from models.project import model

    fields = frozenset(name for module in (schema, model) for value in vars(module).values()
                       if isinstance(value, type) and issubclass(value, pydantic.BaseModel)
                       for name in value.model_fields if "_" in name) | {"write_to_read_cpu"}  # a fit's ratio
    try:
        names = {entry.id: entry.name for entry in bundled_catalog()}
    except Exception:  # noqa: BLE001 - a citation never fails; a broken catalog is reported where it is loaded
        names = {}
    return names, fields


def _named(match: re.Match[str], names: dict[str, str]) -> str:
    return names.get(match.group(0), match.group(0))


_ASSUMPTION_WORDS = re.compile(r"\bassum\w*|\bto be checked\b|\bnot (?:published|confirmed|verified)\b|\bunconfirmed\b",
                               re.IGNORECASE)
"""Words that say a value is not a published figure: a part of a note clause that says so is kept (REVIEW57 #5:
"...: the value is the planner's assumption ..., to be checked" was dropped with its note, and the customer read
the assumed figure next to the vendor's page as if the page gave it)."""


def _drop_note_clauses(text: str) -> str:
    kept: list[str] = []
    for clause in _split_top(text, "; "):
        clause = _drop_note_groups(clause)
        if _rx().note_words.search(clause) and _split_top(clause, ". ")[1:]:
            # a note sentence inside the clause: the clause's other sentences stand on their own
            kept.extend(filter(None, (_drop_note_clauses(sentence).strip(" .") for sentence in
                                      _split_top(clause, ". "))))
            continue
        if _rx().note_words.search(clause):
            # a clause that is itself a note: keep what comes before the note's colon or comma, if anything
            head = re.split(r"[,:] (?=[^,:]*(?:search|remember|corpus|corpora|not found|found no))", clause,
                            maxsplit=1, flags=re.IGNORECASE)[0]
            if head != clause and not _rx().note_words.search(head) and len(head.strip()) > 12:
                kept.append(head.strip())
            # and what, after a colon, says the value is assumed (not the note itself)
            kept.extend(part.strip() for part in _split_top(clause, ": ")[1:]
                        if _ASSUMPTION_WORDS.search(part) and not _rx().note_words.search(part))
            continue
        if clause.strip():
            kept.append(clause.strip())
    return "; ".join(kept)


_FIT_POINTS = re.compile(
    r"(least-squares fit of the service demands to [\d,]+ points): [^;]*(?=; RMS relative residual)")
"""A calibration fit's list of point labels ("Standard_DS14_v2 single oltp 18120, ..."): the catalog keeps it for
the record's history; a customer reads the count, the document cited and the residual."""


_PROFILE_FIELD_WORDS: Final = {
    "cpu_read_us": "CPU time per read", "cpu_write_us": "CPU time per write", "cpu_per_kib_us": "CPU time per KiB",
    "fixed_latency_us": "fixed latency", "servers_per_node": "servers per node",
}
_PROFILE_KEY = re.compile(r"\b(\d+(?:\.\d+)*)/([A-Za-z][\w/-]*?):([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b")
"""A fit's parameter key, ``<release>/<protocol>:<field>`` ("9.5/NVMe/FC:cpu_read_us")."""
_EXACT_FIT = re.compile(
    r"least-squares covariance s\^2 \(J\^T J\)\^-1 at the optimum; (\d+) points? for \1 parameters? leave no residual "
    r"degrees of freedom, so s = ([\d.]+) \(assumed relative error of a published figure\)")
_COVARIANCE = re.compile(r"least-squares covariance s\^2 \(J\^T J\)\^-1 at the optimum, s\^2 = SSR / \(m - p\) = "
                         r"[\d.]+ / (\d+) \(relative residuals\)")
_UNIDENTIFIED = re.compile(
    r"not identifiable from this fit's points \(J\^T J is singular along a direction that involves them, e\.g\. two "
    r"points tied by Little's law carry one piece of information; no standard error\): ([^;]+)")
_RESIDUAL = re.compile(r"RMS relative residual (\d+(?:\.\d+)?)")


def _profile_key_words(match: re.Match[str]) -> str:
    release, protocol, name = match.groups()
    return f"{_PROFILE_FIELD_WORDS.get(name) or field_words(name)} on ONTAP {release} over {protocol}"


def _residual_words(match: re.Match[str]) -> str:
    value = float(match.group(1))
    if value == 0:
        return ("the fitted curve passes through every point: the fit is exactly determined (no more points than "
                "the parameters it fits), so its residual is zero by construction and is not a measure of fit quality")
    return f"the fitted curve is {value:.1%} from the points (root-mean-square relative difference)"


def _fit_words(text: str) -> str:
    """A calibration fit's statistics in words a customer reads: the exactly determined fit said plainly, the
    residual as a percentage, a fit's parameter keys as the quantities they are (never a field key)."""
    text = re.sub(r"\b1 points\b", "1 point", text)
    text = _EXACT_FIT.sub(
        lambda m: (f"standard errors of the least-squares fit; the fit is exactly determined ({m.group(1)} measured "
                   f"point{'s' if m.group(1) != '1' else ''} for as many fitted parameters: its residual is zero by "
                   "construction), so these standard errors only carry an assumed "
                   f"{float(m.group(2)):.0%} error in each published figure and are not informative about how well "
                   "the model fits"), text)
    text = _COVARIANCE.sub(lambda m: f"standard errors of the least-squares fit, from the scatter of its points about "
                                     f"the fitted curve ({m.group(1)} more points than fitted parameters)", text)
    text = _UNIDENTIFIED.sub(lambda m: f"no standard error for {m.group(1).strip()}: the fit's points cannot tell "
                                       "these apart", text)
    text = _PROFILE_KEY.sub(_profile_key_words, text)
    text = re.sub(r"(no standard error for [^;:]*?), (?=[^,;:]* on ONTAP )", r"\1 or ", text)
    return _RESIDUAL.sub(_residual_words, text)


@functools.lru_cache(maxsize=4096)  # a pure function of the text; a report cites the same few texts thousands of times
def customer_citation(source: str) -> str:
    """The customer's citation for one catalog, preset or validation source text.

    Args:
        source: a ``Provenance.source`` (or a preset's or validation case's source) as the catalog files keep it.

    Returns:
        The same citation with seed file names replaced by the seed reports' titles (:data:`SEED_TITLES`), public
        documentation repository paths replaced by their published addresses, and research notes (places searched,
        values recalled, commit hashes, reference-notes and catalog file names, engine module names) removed; a
        calibration fit's list of point labels becomes "to 30 points from the measurements cited" (the count, the
        document and the residual stay).
        A source that was nothing but research notes becomes "no public source found"; an empty text stays
        empty. Never raises. Cached per text (a pure function of it): the capacity view cites the same sources
        at every edit.
    """
    if not source.strip():
        return source
    rx = _rx()
    text = rx.seed_file.sub(lambda m: _seed_title(m.group(1)), source)
    text = rx.seed_pair.sub(lambda m: f"{_seed_title(m.group(1))} and {_seed_title(m.group(2))}", text)
    text = rx.seed_one.sub(lambda m: _seed_title(m.group(1)), text)
    text = re.sub(r"\bseed (?=(?:NetApp|VMware|SAS) )", "", text)
    if "'device-types/" in text:  # a NetBox library file: its vendor and model (r2 review #9)
        text = re.sub(r"\s*'device-types/([^/']+)/([^/']+)\.yaml'", lambda m: f", {m[1]} {m[2].upper()}", text)
    for index, (_pattern, replacement, _flags, needle) in enumerate(_REWRITE_PATTERNS):
        if needle is None or needle in text:  # without its needle the pattern cannot match: nothing to replace
            text = rx.rewrite(index).sub(replacement, text)
    text = _drop_note_clauses(text)
    text = _FIT_POINTS.sub(r"\1 from the measurements cited", text)  # the fit's data once, not its point labels
    text = _fit_words(text)
    if rx.record_id.search(text) or rx.field_name.search(text):
        names, fields = _catalog_words()
        text = rx.record_id.sub(lambda m: _named(m, names), text)
        text = rx.field_name.sub(lambda m: field_words(m.group(0)) if m.group(0) in fields or m.group(0) in RAID_LABEL
                               else m.group(0), text)
    text = rx.duplicate_address.sub(r"https://\1\2", text)
    text = re.sub(r"\(([^\s()]+)\)\s*\(\1\)", r"(\1)", text)  # one address cited twice in a row
    if ".md" in text:  # without it nothing matches (and a long hyphenated word is not read once per hyphen)
        text = rx.leftover_page.sub(r"'\1'", text)
    text = rx.leftover_file.sub("", text)
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"(?<!\s)\s+,", ",", text)  # from a run's start only (the same matches): linear in the run
    text = re.sub(r"[,;]\s*\)", ")", text)
    text = re.sub(r"\(\s*[,;]\s*", "(", text)
    text = re.sub(r"\s{2,}", " ", text).strip(" ;,")
    return text or "no public source found"


ALL_FLASH_SEED = "002"
"""The seed report that measured an all-flash vSAN cluster only (VMware's SQL Server on All-Flash Virtual SAN)."""
HYBRID_SCOPE = "The all-flash vSAN blog cited above measured no hybrid cluster: its software costs are assumed here"
"""Said once, after the last note citing :data:`ALL_FLASH_SEED`, about a hybrid vSAN cluster (REVIEW45 #8; one
short sentence since REVIEW46: a long clause after each citing note was read twice)."""


def workload_notes(notes: Sequence[str]) -> list[str]:
    """A workload's notes (``WorkloadPerformance.notes``) as a customer reads them (:func:`customer_citation`);
    on a hybrid vSAN cluster (a ``vSAN hybrid ...`` note) the notes citing the all-flash vSAN source are followed,
    once, by :data:`HYBRID_SCOPE` (the source covers all-flash only), so none is read as a hybrid measurement."""
    hybrid = any(note.startswith("vSAN hybrid") for note in notes)
    cites = re.compile(rf"\bseed {ALL_FLASH_SEED}\b|\b{ALL_FLASH_SEED}_")
    out = [customer_citation(note) for note in notes]
    citing = [k for k, note in enumerate(notes) if cites.search(note)]
    if hybrid and citing:
        out.insert(citing[-1] + 1, HYBRID_SCOPE)
    return out
