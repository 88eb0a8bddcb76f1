"""The calibrated profiles written into the catalog's TOML files (``controllers.toml``, ``cloud.toml``).

:func:`calibrate_seed_systems` fits the seed systems (:mod:`.seed_profiles`), prints the values and, with
``write=True``, replaces each record's calibrated ``[[<kind>.performance]]`` tables (:func:`write_profiles`,
:func:`profile_toml`), keeping every other line of the file byte for byte.
"""

from __future__ import annotations

import re
from pathlib import Path

from models.atomic import write_text_atomic
from models.calibration.fit import EXTRA_FIELDS, FIELDS
from models.calibration.seed_profiles import derive_seed_profiles
from models.catalog import PerfProfile
from models.catalog.provenance import provenance_toml_line

_MARK = "# --- calibrated performance profiles (written by models.calibration.calibrate_seed_systems) ---"


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def profile_toml(kind: str, p: PerfProfile) -> str:
    """The ``[[<kind>.performance]]`` table (its ``provenance``: each field's kind, source and fit; and its standard
    errors when fitted) of one profile, as TOML text."""
    lines = [f"[[{kind}.performance]]", f"software = {_toml_str(p.software)}", f"protocol = {_toml_str(p.protocol)}"]
    for k in FIELDS:
        lines.append(f"{k} = {round(getattr(p, k), 3)!r}")
    for k in EXTRA_FIELDS:
        if k in p.provenance:  # set by the fit (fitted or held); otherwise the schema default stands
            lines.append(f"{k} = {round(getattr(p, k), 3)!r}")
    if "affinities_per_node" in p.provenance:
        lines.append(f"affinities_per_node = {p.affinities_per_node}")
    lines.append(f"servers_per_node = {p.servers_per_node}")
    lines.append(f"source = {_toml_str(p.source)}")
    lines.append(f"[{kind}.performance.provenance]")
    for k, prov in p.provenance.items():
        lines.append(provenance_toml_line(k, prov))
    if p.stderr:
        lines.append(f"[{kind}.performance.stderr]")
        for k, se in p.stderr.items():
            lines.append(f"{k} = {float(f'{se:.4g}')!r}")
    if p.correlation:
        lines.append(f"[{kind}.performance.correlation]")
        for k, rho in p.correlation.items():
            lines.append(f"{_toml_str(k)} = {float(f'{rho:.4g}')!r}")
    return "\n".join(lines)


def write_profiles(text: str, kind: str, profiles: dict[str, list[PerfProfile]]) -> str:
    """TOML text of a catalog file with each record's calibrated profiles replaced.

    For each ``[[kind]]`` block whose ``id`` is in ``profiles``: drop its ``performance = []`` line and any
    previously written calibrated block (from :data:`_MARK` to the block's end), then append the new tables at
    the block's end. Other text is kept byte for byte.
    """
    header = f"[[{kind}]]"
    parts = re.split(rf"(?m)^(?=\[\[{re.escape(kind)}\]\]\s*$)", text)
    out = []
    for part in parts:
        m = re.search(r'(?m)^id\s*=\s*"([^"]+)"', part) if part.startswith(header) else None
        if not m or m.group(1) not in profiles:
            out.append(part)
            continue
        body = part
        if _MARK in body:
            body = body[: body.index(_MARK)]
        body = re.sub(r"(?m)^performance\s*=\s*\[\s*\]\s*\n", "", body)
        body = body.rstrip("\n") + "\n\n" + _MARK + "\n"
        body += "\n".join(profile_toml(kind, p) for p in profiles[m.group(1)]) + "\n\n"
        out.append(body)
    return "".join(out).rstrip("\n") + "\n"


def calibrate_seed_systems(write: bool = False, catalog_dir: Path | None = None) -> list[tuple[str, PerfProfile]]:
    """Fit every seed system's profile, print the values, and with ``write=True`` write the profiles (with their
    standard errors) into ``controllers.toml`` and ``cloud.toml`` of ``catalog_dir`` (default: the bundled catalog
    directory). Their leave-one-out cross-validation is
    :func:`models.validation.cross_validation.calibrate_and_cross_validate` (``storplan calibrate`` runs both).

    Raises:
        CalibrationError: a fit failed; OSError: the files cannot be written.
    """
    from models.resources import catalog_dir as bundled_dir

    profiles = derive_seed_profiles(verbose=True)
    for rid, p in profiles:
        print(f"{rid:34s} {p.software:14s} {p.protocol:8s} read {p.cpu_read_us:8.2f} us  write {p.cpu_write_us:8.2f} us"
              f"  per KiB {p.cpu_per_kib_us:6.3f} us  servers {p.servers_per_node:3d}"
              f"  fixed {p.fixed_latency_us:8.2f} us"
              + (f"  stderr {', '.join(f'{k} {v:.3g}' for k, v in p.stderr.items())}" if p.stderr else ""))
    directory = Path(catalog_dir or bundled_dir())
    if write:
        grouped: dict[str, list[PerfProfile]] = {}
        for rid, p in profiles:
            grouped.setdefault(rid, []).append(p)
        for fname, kind in (("controllers.toml", "controller"), ("cloud.toml", "cloud_vm")):
            f = directory / fname
            text = f.read_text(encoding="utf-8")
            new = write_profiles(text, kind, grouped)
            if new != text:
                write_text_atomic(f, new)
                print(f"wrote {f}")
    return profiles
