"""The sizer's ranked results as plain data, for the golden file ``tests/data/sizer_golden.json``: every bundled
example's search and the benchmark's scenarios (every deployment; nothing meets; a price book with a budget).

Run ``uv run python tests/sizing_golden.py --write`` only to record a deliberate change of the results."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from models.evaluate import project_catalog  # noqa: E402
from models.pricing import read_price_book  # noqa: E402
from models.project.model import Requirements  # noqa: E402
from models.resources import examples_dir  # noqa: E402
from models.sizing import Candidate, SizingResult, size  # noqa: E402
from models.store import load_any  # noqa: E402

GOLDEN = ROOT / "tests" / "data" / "sizer_golden.json.gz"
PRICES = """catalog_id,part_number,unit_price,currency
netapp-aff-a20,AFF-A20-HA,41000,USD
netapp-aff-a30,AFF-A30-HA,62000,USD
netapp-aff-a50,AFF-A50-HA,90000,USD
netapp-aff-a70,AFF-A70-HA,140000,USD
netapp-aff-a800,AFF-A800-HA,180000,USD
netapp-ns224,X-NS224,9000,USD
netapp-a800-internal-nvme,X-A800-BAYS,0,USD
netapp-2u24-internal-nvme,X-2U24-BAYS,0,USD
netapp-nvme-ssd-1.92tb-tlc,X4016A,900,USD
netapp-nvme-ssd-3.84tb-tlc,X4017A,1500,USD
netapp-nvme-ssd-7.68tb-tlc,X4018A,2600,USD
netapp-nvme-ssd-15.3tb-tlc,X4019A,4800,USD
"""

FIGURES = ("usable_bytes", "effective_bytes", "max_iops_at_slo", "headroom_pct", "power_w", "cost")


def candidate_row(c: Candidate, nested: bool = True) -> dict:
    """A candidate's words and figures (the fields ``storplan size`` prints)."""
    row = {"summary": c.summary, "meets": c.meets, "reasons": list(c.reasons), "deployment": c.deployment,
           "rack_units": c.rack_units, "unpriced": list(c.unpriced), "pareto": c.pareto, "variant": c.variant}
    row.update({k: getattr(c, k) for k in FIGURES})
    if nested:
        row["alternatives"] = [candidate_row(a, nested=False) for a in c.alternatives]
        row["ties"] = [candidate_row(t, nested=False) for t in c.ties]  # tied on every criterion: one row
    return row


def result_row(r: SizingResult) -> dict:
    """A search's ranked candidates, nearest, evaluated meeting ones and totals."""
    return {"candidates": [candidate_row(c) for c in r.candidates], "nearest": [candidate_row(c) for c in r.nearest],
            "evaluated": [candidate_row(c) for c in r.evaluated], "considered": r.considered, "capped": r.capped,
            "needed_effective_bytes": r.needed_effective_bytes, "currency": r.currency, "notes": list(r.notes)}


def scenarios() -> dict:
    """name -> project of every recorded search."""
    out = {}
    for path in sorted(examples_dir().glob("*.toml")):
        out[path.stem] = load_any(path)
    base = out["aff8080-sqlserver-tpce"]
    out["bench: every deployment"] = base.model_copy(update={"requirements": Requirements()})
    out["bench: nothing meets"] = base.model_copy(
        update={"requirements": Requirements(effective_capacity_bytes=10**18)})
    out["bench: takeover, every deployment"] = base.model_copy(
        update={"requirements": Requirements(meet_slo_in_takeover=True)})
    a800 = out["a800-oracle-slob-nvmefc"]
    a800 = a800.model_copy(update={"requirements": a800.requirements.with_changes(protocols=[],
                                                                                  meet_slo_in_takeover=False)})
    book = read_price_book(PRICES, "prices.csv", project_catalog(a800))
    priced = a800.model_copy(update={"price_book": book})
    out["prices"] = priced
    out["prices, partial book"] = priced.model_copy(
        update={"price_book": [r for r in book if r.catalog_id != "netapp-ns224"]})
    out["prices, budget"] = priced.model_copy(update={"requirements": priced.requirements.with_changes(
        budget=150_000)})
    cvo = out["cvo-azure-ds14-ha-oltp"]
    out["cvo: single-node VMs only, SLO in takeover (nothing meets)"] = (
        cvo.model_copy(update={"requirements": cvo.requirements.with_changes(families=["CVO"])}),
        single_node_catalog(cvo))
    out["capped at 700 designs"] = base.model_copy(update={"requirements": Requirements(max_candidates=700)})
    out["bench: p90"] = base.model_copy(update={"requirements": base.requirements.model_copy(
        update={"rank_on": "p90"})})
    return out


def single_node_catalog(project):
    """``project``'s catalog with every cloud VM record offered as a single node only (no HA pair)."""
    from models.catalog import CloudVm

    catalog = project_catalog(project)
    return catalog.with_entries([vm.model_copy(update={"ha_supported": False}) for vm in catalog
                                 if isinstance(vm, CloudVm)])


def search(case) -> SizingResult:
    """The top-five search of one recorded case: a project, or (project, catalog)."""
    project, catalog = case if isinstance(case, tuple) else (case, None)
    return size(project, top=5, catalog=catalog)


def record() -> dict:
    """Every recorded search's result rows."""
    return {name: result_row(search(case)) for name, case in scenarios().items()}


if __name__ == "__main__":
    if "--write" in sys.argv:
        GOLDEN.write_bytes(gzip.compress((json.dumps(record(), indent=1, sort_keys=True) + "\n").encode(), mtime=0))
        print(f"wrote {GOLDEN}")
