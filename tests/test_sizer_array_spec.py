"""An array design of the sizer (``models.sizing._ArraySpec``) without the two function objects it was made with:
the same summary and scenario as :func:`models.sizing._design_summary` and :func:`models.sizing._design` of its
parts give, the same footprint for every front end, and the replication destination search reads the same builder
arguments from it."""

from __future__ import annotations

from itertools import islice

from models.evaluate import project_catalog
from models.replication.onprem_destination import _args, _raw_bytes
from models.resources import examples_dir
from models.sizing import _array_specs, _ArraySpec, _design, _design_summary, site_fields
from models.store import load_any


def test_an_array_spec_builds_what_its_parts_give():
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    catalog = project_catalog(project)
    base, req = project.scenario, project.requirements
    specs = list(islice(_array_specs(base, catalog, req, site_fields(base, req)), 0, 400, 7))
    assert len(specs) > 40 and all(isinstance(s, _ArraySpec) for s in specs)
    for spec in specs:
        hosts, record, inside, shelf, drive, count, fe, sites, switch = spec.parts
        protocol, link, note = spec._words
        assert spec.summary == _design_summary(record, inside, shelf, drive, count, protocol, link, note,
                                                     switch=switch)
        assert spec.scenario == _design(base, hosts, record, inside, shelf, drive, count, fe, sites, switch)
        assert spec.scenario is spec.scenario  # built once
        assert _args(spec)[2:7] == (record, inside, shelf, drive, count)
        drives = (inside.bays if inside is not None else 0) + count * (shelf.bays if shelf is not None else 0)
        assert spec.size == (drives, 0) and _raw_bytes(spec) == drives * drive.marketed_bytes
