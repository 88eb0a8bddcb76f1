"""A validation case as a customer reads it: the title of the published result it replays, not its id.

A validation case (``resources/validation/published.toml``, ``ramps.toml``) names its published source in its
``seed`` and ``section`` fields; :class:`models.validation.runner.CaseOutcome` carries them joined. This module
turns that into the published result's title, its section and, where the case states it, the protocol tested
(two cases of one report differ by it), e.g. ``NetApp AFF A800 Performance with Oracle Database (2019), §2, 3.6,
4, NVMe/FC``; or, for a public benchmark result, its title and address.
"""

from __future__ import annotations

import functools
import re
import tomllib

from models.present.citations import SEED_TITLES, customer_citation
from models.resources import resources_dir

_SEED_FILE = re.compile(r"(\d{3})_[0-9a-f]{16}\.txt\s*(.*)\Z", re.DOTALL)
_URL = re.compile(r"https?://[^\s()<>;,]+")


@functools.cache
def _protocols() -> dict[str, str]:
    """Published case id -> the protocol it states (``FCP``, ``NVMe/FC``); empty when the file cannot be read."""
    try:
        with open(resources_dir() / "validation" / "published.toml", "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    return {str(case["id"]): str(case["protocol"]) for cases in data.values() if isinstance(cases, list)
            for case in cases if isinstance(case, dict) and "id" in case and case.get("protocol")}


def _short_seed_title(number: str) -> str:
    """A seed report's title and year (``NetApp AFF A800 Performance with Oracle Database (2019)``), without its
    kind of document; a title without quotes up to its first bracket."""
    full = SEED_TITLES.get(number, "")
    quoted = re.search(r'"([^"]+)"\s*(?:\(([^()]*)\))?', full)
    if quoted:
        return f"{quoted.group(1)} ({quoted.group(2)})" if quoted.group(2) else quoted.group(1)
    return full.split(" (", 1)[0]


def _first_group_end(text: str) -> int:
    """The index just past the first top-level bracketed group of ``text``, or -1 without one."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if not depth:
                return i + 1
    return -1


def case_title(case_id: str, seed: str, address: bool = True) -> str:
    """The published result a validation case replays, in words.

    Args:
        case_id: the case's id (``a800-slob-select-nvmefc``), used to find the protocol it states.
        seed: the case's source, its ``seed`` and ``section`` joined by a space (``CaseOutcome.seed``).
        address: False leaves a public result's address out (a list that names the result again).

    Returns:
        A seed report case: the report's title and year, its section (``§3.6`` or ``section '<name>'``), and its
        protocol when the case states one. A public result (a benchmark): its title (up to its first bracketed
        group) and its first address that is neither a mirror's nor a plain-text file. "" when the case names no
        source (the caller then shows the case's id).
    """
    seed = seed.strip()
    if not seed:
        return ""
    parts: list[str] = []
    seed_file = _SEED_FILE.match(seed)
    if seed_file:
        parts.append(_short_seed_title(seed_file.group(1)))
        section = customer_citation(seed_file.group(2)) if seed_file.group(2).strip() else ""
        if section:
            parts.append(f"§{section}" if section[0].isdigit() else f"section '{section}'")
    else:
        end = _first_group_end(seed)
        title, rest = (seed[:end], seed[end:]) if end > 0 else (seed.split(";", 1)[0], "")
        parts.append(customer_citation(title.strip()))
        rest = re.sub(r"\((?:[^()]*\bmirror\b[^()]*)\)", "", rest)
        pages = [m.group(0) for m in _URL.finditer(rest) if not m.group(0).endswith(".txt")] if address else []
        if pages:  # a web page; a plain-text result file reads as a file name, the result's id names it already
            parts.append(pages[0])
    protocol = _protocols().get(case_id)
    if protocol:
        parts.append(protocol)
    return ", ".join(p for p in parts if p)


def case_source(case_id: str, seed: str) -> str:
    """The public document a validation case replays, cited in full (the workbook's Source column): a seed
    report's citation (kind of document, publisher, title, date, document number or address where it prints one:
    ``models.catalog.published_reports.SEED_TITLES``) with the section, e.g. ``NetApp report "NetApp AFF A800
    Performance with Oracle Database" (2019), §2, 3.6, 4``; a public result (a benchmark) as :func:`case_title`
    gives it with its address. "" when the case names no source."""
    seed_file = _SEED_FILE.match(seed.strip())
    if not seed_file:
        return case_title(case_id, seed)
    title = SEED_TITLES.get(seed_file.group(1), "")
    section = customer_citation(seed_file.group(2)) if seed_file.group(2).strip() else ""
    if section:
        section = f"§{section}" if section[0].isdigit() else f"section '{section}'"
    return ", ".join(p for p in (title, section) if p)
