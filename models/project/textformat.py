"""The readable TOML form of a project (documented in docs/project-format.md).

Read: TOML text -> plain dicts -> validated :class:`Project`. Write: the reverse, with a single-scenario project
written flat (top-level ``[[node]]``, ``[[link]]``, ``[[workload]]``) so examples stay short.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from models.atomic import write_text_atomic
from models.project.limit_words import limit_words
from models.project.model import Project, Requirements

FORMAT_NAME = "storplan-project"
FORMAT_VERSION = 1


MAX_TOML_BYTES = 64 * 1024 * 1024
"""Largest project text read (a 10,000-node project is a few MB)."""

MAX_VALUES = 400_000
"""Most key/value pairs (``=`` signs) a project's text may hold, counted before it is parsed: a 10,000-node
project has about 150,000; a file with a million keys is refused at once, not after a minute of parsing."""

MAX_NESTING = 32
"""Deepest nesting of tables and arrays accepted (a project needs 6: catalog > kind > record > profile > ...)."""


class ProjectFormatError(ValueError):
    """A project file cannot be read; the message names the file and what is wrong where."""


def _nesting_depth(value: Any, limit: int) -> int:
    """How deeply tables and arrays nest in ``value`` (counting stops just past ``limit``); no recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            depth += 1
            deepest = max(deepest, depth)
            if depth > limit:
                return deepest
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _parse_toml(text: str, origin: str) -> dict[str, Any]:
    if len(text) > MAX_TOML_BYTES:
        raise ProjectFormatError(
            f"{origin}: too large for a project ({len(text):,} characters; the limit is {MAX_TOML_BYTES:,})"
        )
    values = text.count("=")
    if values > MAX_VALUES:
        raise ProjectFormatError(
            f"{origin}: too many values for a project ({values:,} '=' signs; the limit is {MAX_VALUES:,})"
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProjectFormatError(f"{origin}: not valid TOML: {exc}") from exc
    except ValueError as exc:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise ProjectFormatError(f"{origin}: not valid for a project: a number has more than "
                                 f"{sys.get_int_max_str_digits():,} digits") from exc
    except RecursionError:
        data = None
    if data is None or _nesting_depth(data, MAX_NESTING) > MAX_NESTING:
        raise ProjectFormatError(
            f"{origin}: arrays or tables are nested too deeply (more than {MAX_NESTING} levels); a project never "
            "nests that deep"
        )
    return data


MAX_LISTED_PROBLEMS = 20
"""Problems a message lists before "... and N more" (a crafted file can hold a million; a dialog shows a few)."""

MAX_LISTED_KEYS = 10
"""Unknown keys a message names before "and N more"."""

MAX_MESSAGE_CHARS = 4_000
"""Longest message about one file (a value quoted in it is cut short to keep it there)."""


def _listed(names: list[str], limit: int = MAX_LISTED_KEYS) -> str:
    """``a, b, c and 997 more``: at most ``limit`` names, each cut to 60 characters."""
    shown = [n if len(n) <= 60 else n[:57] + "..." for n in names[:limit]]
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" and {more:,} more" if more > 0 else "")


def describe_validation_error(error: ValidationError, data: dict[str, Any] | None = None) -> str:
    """Turn a pydantic error on a project into lines such as ``scenario 'Base' > node 'c1' > raid_group_size: ...``;
    at most :data:`MAX_LISTED_PROBLEMS` lines, then one "... and N more problems" line."""
    lines = []
    total = error.error_count()
    for item in error.errors(include_url=False, include_input=False)[:MAX_LISTED_PROBLEMS]:
        if item["type"] == "project_catalog":  # already names the record and field (models.catalog.loader)
            lines.extend(item["msg"].splitlines()[:MAX_LISTED_PROBLEMS])
            continue
        path: list[str] = []
        cursor: Any = data
        loc = list(item["loc"])
        i = 0
        while i < len(loc):
            part = loc[i]
            nxt = loc[i + 1] if i + 1 < len(loc) else None
            if isinstance(nxt, int) and isinstance(cursor, dict) and isinstance(cursor.get(part), list):
                seq = cursor[part]
                element = seq[nxt] if nxt < len(seq) else None
                label = None
                if isinstance(element, dict):
                    label = element.get("id") or element.get("name")
                singular = {"scenarios": "scenario", "nodes": "node", "links": "link", "workloads": "workload",
                            "replications": "replication", "change": "change rate"}.get(
                    str(part), str(part)
                )
                path.append(f"{singular} '{label}'" if label else f"{singular} #{nxt + 1}")
                cursor = element
                i += 2
                # skip the discriminator tag pydantic inserts for tagged unions
                if (i < len(loc) and isinstance(loc[i], str) and isinstance(cursor, dict)
                        and cursor.get("kind") == loc[i]):
                    i += 1
                continue
            path.append(str(part))
            cursor = cursor.get(part) if isinstance(cursor, dict) else None
            i += 1
        where = " > ".join(path) or "project"
        lines.append(f"{where}: {limit_words(item['msg'])}")
    if total > MAX_LISTED_PROBLEMS:
        lines.append(f"... and {total - MAX_LISTED_PROBLEMS:,} more problems")
    return "\n".join(line if len(line) <= MAX_MESSAGE_CHARS // 4 else line[:MAX_MESSAGE_CHARS // 4 - 3] + "..."
                     for line in lines)


def project_from_dict(data: dict[str, Any], origin: str = "project") -> Project:
    """Build a project from the TOML-shaped dict.

    Raises:
        ProjectFormatError: wrong format name or version, or invalid records (every problem listed, each with
            its place, e.g. ``scenario 'Base' > node 'shelf1' > drive_count: Input should be greater than
            or equal to 0``).
    """
    data = dict(data)
    fmt = data.pop("format", FORMAT_NAME)
    version = data.pop("format_version", FORMAT_VERSION)
    if fmt != FORMAT_NAME:
        raise ProjectFormatError(f"{origin}: not a StorPlan project (format = '{fmt}')")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ProjectFormatError(
            f"{origin}: written by a newer StorPlan (format_version {version}; this version reads up to "
            f"{FORMAT_VERSION})"
        )
    flat = {key: data.pop(key) for key in ("node", "link", "workload", "replication") if key in data}
    scenarios = data.pop("scenario", None)
    if scenarios is None:
        scenarios = [{"name": data.pop("scenario_name", "Base")}]
    if not isinstance(scenarios, list) or not scenarios or not all(isinstance(s, dict) for s in scenarios):
        raise ProjectFormatError(f"{origin}: 'scenario' must be a non-empty array of tables ([[scenario]])")
    for key, items in flat.items():
        if not isinstance(items, list):
            raise ProjectFormatError(f"{origin}: '{key}' must be an array of tables ([[{key}]])")
    if flat:
        first = dict(scenarios[0])
        for key, items in flat.items():
            first.setdefault(key, []).extend(items) if isinstance(first.get(key), list) else first.update({key: items})
        scenarios = [first, *scenarios[1:]]
    model_data = {
        "info": data.pop("project", {}),
        "settings": data.pop("settings", {}),
        "requirements": data.pop("requirements", {}),
        "price_book": data.pop("price", []),
        "measured": data.pop("measured", []),
        "scenarios": [
            {
                "name": s.get("name", "Base"),
                "nodes": s.get("node", []),
                "links": s.get("link", []),
                "workloads": s.get("workload", []),
                "replications": s.get("replication", []),
                **{k: v for k, v in s.items() if k not in ("name", "node", "link", "workload", "replication")},
            }
            for s in scenarios
        ],
        "active_scenario": data.pop("active_scenario", scenarios[0].get("name", "Base")),
        "custom_catalog": data.pop("catalog", {}),
    }
    if data:
        raise ProjectFormatError(f"{origin}: unknown top-level keys: {_listed(sorted(map(str, data)))}")
    try:
        return Project.model_validate(model_data)
    except ValidationError as exc:
        problems = describe_validation_error(exc, model_data)
        if "\n" not in problems:
            raise ProjectFormatError(f"{origin}: {problems}") from exc
        count = max(exc.error_count(), problems.count("\n") + 1)
        raise ProjectFormatError(f"{origin}: {count:,} problems:\n{problems}") from exc


def loads(text: str, origin: str = "project") -> Project:
    """Parse project TOML text.

    Raises:
        ProjectFormatError: not TOML (with line and column), over :data:`MAX_TOML_BYTES` or :data:`MAX_VALUES`,
            nested deeper than :data:`MAX_NESTING`, or not a valid project (every problem by place, at most
            :data:`MAX_LISTED_PROBLEMS` of them).
    """
    return project_from_dict(_parse_toml(text, origin), origin)


def load(path: Path | str) -> Project:
    """Read a project TOML file. Raises ProjectFormatError naming the file."""
    path = Path(path)
    try:
        if path.exists() and not path.is_file():
            raise ProjectFormatError(f"{path}: not a project file (a folder, a pipe or a device)")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_TOML_BYTES + 1)
        if len(raw) > MAX_TOML_BYTES:
            raise ProjectFormatError(f"{path}: too large for a project (over {MAX_TOML_BYTES:,} bytes)")
        text = raw.decode("utf-8")
    except OSError as exc:
        raise ProjectFormatError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ProjectFormatError(f"{path}: not a text file ({exc.reason} at byte {exc.start})") from exc
    return loads(text, str(path))


def _clean(value: Any) -> Any:
    """Drop None values (TOML has no null) recursively."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def project_to_dict(project: Project) -> dict[str, Any]:
    """The TOML-shaped dict of a project (inverse of :func:`project_from_dict`)."""
    dumped = project.model_dump(mode="json")
    out: dict[str, Any] = {"format": FORMAT_NAME, "format_version": FORMAT_VERSION}
    out["project"] = dumped["info"]
    out["settings"] = dumped["settings"]
    if project.requirements != Requirements():
        out["requirements"] = dumped["requirements"]
        # the running costs: only the figures and sources given (a file without them reads as every default)
        running = {k: v for k, v in out["requirements"].pop("running_costs", {}).items() if v not in (None, "")}
        if running:
            out["requirements"]["running_costs"] = running
    if project.price_book:
        out["price"] = dumped["price_book"]
    if project.measured:
        out["measured"] = dumped["measured"]
    scenarios = [
        {"name": s["name"], "node": s["nodes"], "link": s["links"], "workload": s["workloads"],
         "replication": s["replications"]}
        for s in dumped["scenarios"]
    ]
    if len(scenarios) == 1:
        out["scenario_name"] = scenarios[0]["name"]
        for key in ("node", "link", "workload", "replication"):
            if scenarios[0][key]:
                out[key] = scenarios[0][key]
    else:
        out["active_scenario"] = dumped["active_scenario"]
        out["scenario"] = [{k: v for k, v in s.items() if v != []} for s in scenarios]
    if dumped["custom_catalog"]:
        out["catalog"] = dumped["custom_catalog"]
    return _clean(out)


def dumps(project: Project) -> str:
    """Project -> TOML text."""
    import tomli_w  # here, not at import: opening a project (the first window) never writes one

    return tomli_w.dumps(project_to_dict(project))


def dump(project: Project, path: Path | str) -> None:
    """Write a project TOML file atomically (``models.atomic``: a new temporary file, fsync, rename; a new file's
    mode is ``0o666 & ~umask``, a replaced file keeps its own).

    Raises:
        OSError: the file cannot be written (an existing file is unchanged).
    """
    write_text_atomic(path, dumps(project))
