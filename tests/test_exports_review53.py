"""Review 53b's exports and CLI findings: each output says what the engines' own results (computed here) say."""

import json

from app.cli import example_paths, main
from models.catalog import Catalog
from models.present.bom import bill_of_materials
from models.project.textformat import loads
from models.resources import catalog_dir


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cvo_ha_disks_counted_per_node_and_in_all(capsys):
    """#4: a CVO HA pair's data disks are counted per node: the size text says '<n> x <disk> per node (<2n> disks)'
    and the bill of materials of the same design '<n> per node, <2n> disks' with quantity 2n."""
    code, out, _ = _run(capsys, "size", str(example_paths()["cvo-azure-e20ds-v5-ha-oltp"]), "--json")
    assert code == 0
    catalog = Catalog.from_dir(catalog_dir())
    checked = 0
    for cand in json.loads(out)["candidates"]:
        project = loads(cand["project"])
        node = next(n for n in project.scenario.nodes if n.kind == "cloud_vm")
        if not node.ha:
            continue
        n, disk = node.disk_count, catalog.find(node.disk).name
        assert f"{n} x {disk} per node ({2 * n} disks)" in cand["summary"], cand["summary"]
        assert cand["variant"] == f"{n} x {disk} per node ({2 * n} disks)"
        rows = [r for r in bill_of_materials(project.scenario, catalog) if r.category.startswith("Data disks")]
        assert [(r.category, r.quantity) for r in rows] == [(f"Data disks ({n} per node, {2 * n} disks)", 2 * n)]
        checked += 1
    assert checked


def test_dr_copy_fits_column_agrees_with_the_verdict():
    """#3: the 'Protection and DR' sheet says whether the copies fit over the project's horizon, the meaning of the
    PDF's capacity table and of the verdict: False exactly for a relationship the verdict misses on its DR copy."""
    from app.report.workbook import sizing_sheets
    from models.evaluate import evaluate
    from models.present.dr_copy import dr_copies
    from models.project.textformat import load
    from models.verdict import DR_COPY, protection_misses

    project = load(example_paths()["aff-a70-snapmirror-cvo-dr"])
    horizon = project.requirements.horizon_months
    evaluation = evaluate(project)
    missed = {m.subject for m in protection_misses(evaluation.protection, horizon) if m.state == DR_COPY}
    assert missed  # the example's DR copy fills within the horizon while it fits today
    sheet = sizing_sheets(project)["Protection and DR"]
    header, rows = sheet[0], sheet[1:]
    column = header.index(f"Fits over the {horizon:,.0f}-month horizon")
    copies = dr_copies(evaluation.protection)
    for row, f in zip(rows, evaluation.protection.relationships, strict=True):
        assert row[column] is (f.label not in missed)
        assert row[column] is copies[f.target_id].fits_over(horizon)  # the PDF capacity table's DR copy row


def _tco(name):
    from models.design import resolve
    from models.present.cost import design_tco
    from models.project.textformat import load

    project = load(example_paths()[name])
    design = resolve(project, None, Catalog.from_dir(catalog_dir()))
    return project, design_tco(project, design.scenario, design.catalog)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_break_even_hardware_price_for_every_option():
    """#7: a design whose hardware is not priced gets, against every cloud option, the most its hardware may cost to
    break even (H + H x support x horizon = option - running costs), in the text/PDF/GUI rows and the workbook."""
    from models.costing.tco import comparison_order
    from models.present.cost import option_rows, workbook_rows

    # NVMe/FC on an unpriced EF600: FSx carries it, the file-only services do not serve the protocol (review 57:
    # the A70 NVMe/TCP example has no carrier left, so no cheapest option to test the engine's figure against)
    _, tco = _tco("ef600-nvme-ddp-oltp-nvmefc")
    assert tco.cheapest is not None and tco.break_even_hardware is not None
    support, horizon = tco.inputs.support_pct_per_year.value, tco.inputs.horizon_months
    options = comparison_order(tco.options)
    budgets = {o.name: (o.total - tco.design.total) / (1 + horizon * support / 1200) for o in options}
    assert budgets[tco.cheapest] == __import__("pytest").approx(tco.break_even_hardware)  # the engine's figure
    rows = {name: even for name, _, even in option_rows(tco)[1:]}
    sheet = {row[0]: row for row in workbook_rows(tco)}
    assert len(budgets) > 1
    from models.present.cost import NO_BREAK_EVEN, NO_BREAK_EVEN_PROTOCOL

    carriers = {o.name for o in options if o.short_from_month != 1}
    for name, budget in budgets.items():
        row = sheet[f"Break-even hardware price against {name}"]
        if name not in carriers:  # no alternative to the design: no price against it (review 54)
            option = next(o for o in options if o.name == name)
            expected = NO_BREAK_EVEN_PROTOCOL if not name.startswith(("Amazon FSx", "Cloud Volumes ONTAP")) \
                else NO_BREAK_EVEN  # ANF and GCNV serve no NVMe/FC; FSx and CVO do, but may fall short on I/O
            assert option.short_from_month == 1
            assert rows[name] == expected and row[1] is None and row[4] == expected
            continue
        assert rows[name] == f"if the hardware costs at most {budget:,.0f} {tco.currency}"
        assert row[1] == __import__("pytest").approx(budget) and row[2] == tco.currency


def test_design_cost_says_the_same_everywhere(capsys):
    """#8: the design's own total is one statement in the text, the PDF/GUI row and the workbook: its running costs
    (the engine's total) with the hardware not priced; never 'no price' in one output and an amount in another."""
    from example_reports import report_text

    from models.present.cost import design_cost_text, option_rows, unpriced_row, workbook_rows

    name = "aff-a70-ns224-oracle-nvmetcp"
    _, tco = _tco(name)
    statement = design_cost_text(tco)
    assert f"running costs only: {tco.design.total:,.0f} {tco.currency}" in statement
    assert "hardware not priced" in statement
    assert option_rows(tco)[0][1] == unpriced_row(tco)[1] == statement
    assert next(r for r in workbook_rows(tco) if r[0] == f"Total cost: {tco.design.name}")[3] == statement
    _, out, _ = _run(capsys, "evaluate", name)
    assert f"{tco.design.name}: {statement}" in out
    assert _flat(statement) in _flat(report_text(name))


def test_protected_designs_say_the_cloud_options_are_not_like_for_like(capsys):
    """#9: a design with a DR copy or a second site says, where the options are listed, that the cloud options carry
    neither; a design without protection says nothing of it."""
    from example_reports import report_text

    from models.present.cost import workbook_rows

    for name, what in (("aff-a70-snapmirror-cvo-dr", "replication destination"),
                       ("aff-a70-metrocluster-ip-oracle-nvmetcp", "both MetroCluster sites")):
        project, tco = _tco(name)
        assert what in tco.scope and "no DR copy or second site" in tco.scope
        if project.scenario.replications:
            target = next(n for n in project.scenario.nodes if n.id == project.scenario.replications[0].target)
            assert target.label in tco.scope
        _, out, _ = _run(capsys, "evaluate", name)
        assert tco.scope in out
        assert ["Comparison basis", tco.scope] == next(r for r in workbook_rows(tco) if r[0] == "Comparison basis")[:2]
        assert _flat(tco.scope) in _flat(report_text(name))
    assert _tco("aff-a70-ns224-oracle-nvmetcp")[1].scope == ""


def test_no_data_reduction_says_whether_the_design_or_the_platform_left_it_out():
    """#10: the vSAN 8 ESA example turns deduplication and compression off, and its host compresses when they are
    on: every output says the design's setting turned it off; a platform that applies none (Azure NetApp Files)
    still says so of the platform."""
    from models.evaluate import evaluate
    from models.present.capacity_band import band_lines, band_rows, reduction_words
    from models.project.textformat import load

    catalog = Catalog.from_dir(catalog_dir())
    project = load(example_paths()["vsan8-esa-stretched-4x4-sqlserver-oltp"])
    node = next(n for n in project.scenario.nodes if n.kind == "hci_cluster")
    host = catalog.find(node.catalog_id)
    assert not node.dedupe_compression and host.data_reductions  # the example's facts
    evaluation = evaluate(project)
    system = evaluation.capacity.systems[0]
    assert system.inline_efficiency == (False, False, False)
    effective, _months, break_even = band_lines(evaluation.capacity_band, "TiB")
    words = (reduction_words(evaluation.capacity), effective, break_even,
             *(row[6] for row in band_rows(evaluation.capacity_band)))
    for text in words:
        assert "turned off in this design" in text.lower() and "platform applies no" not in text.lower(), text
    hybrid = load(example_paths()["vsan8-osa-hybrid-4host-oltp"])  # vSAN reduces on all-flash hosts only
    assert not catalog.find(next(n for n in hybrid.scenario.nodes if n.kind == "hci_cluster").catalog_id).all_flash
    assert "turned off" not in reduction_words(evaluate(hybrid).capacity)
    anf = evaluate(load(example_paths()["anf-premium-oracle-nfs"]))
    assert "turned off" not in reduction_words(anf.capacity)
    assert "the platform applies no data reduction" in band_lines(anf.capacity_band, "TiB")[0]


def test_site_failure_faster_than_normal_says_why_as_the_reason_column(capsys):
    """#17: a vSAN site failure faster than normal operation gives the reason the XLSX Reason column gives (its
    writes stored at one site, no inter-site round trip), not 'work of normal operation stops in this state'."""
    from models.evaluate import evaluate
    from models.formatting import fmt_ms
    from models.present.resilience import RELIEF_OTHER, state_verdict
    from models.project.textformat import load

    project = load(example_paths()["vsan8-esa-stretched-4x4-sqlserver-oltp"])
    evaluation = evaluate(project, resilience=True)
    found = 0
    for wp in evaluation.performance.workloads:
        for state in evaluation.resilience.states.get(wp.workload_id, ()):
            if state.state != "site_failure":
                continue
            assert state.performance.slo_bounded_at_target_ms < wp.slo_bounded_at_target_ms  # faster: says why
            line = state_verdict(state, wp)
            assert RELIEF_OTHER not in line
            clause = line.split(f"below normal operation's {fmt_ms(wp.slo_bounded_at_target_ms)}: ")[1].rstrip(")")
            assert clause in state.reason and "inter-site round trip" in clause  # the Reason column's words
            found += 1
    assert found
    _, out, _ = _run(capsys, "evaluate", str(example_paths()["vsan8-esa-stretched-4x4-sqlserver-oltp"]))
    assert RELIEF_OTHER not in out and "no longer waits the" in out


def test_binary_units_and_names_say_which_is_which(capsys):
    """#22: the SnapMirror window figure is computed with 2 MiB and says MiB; a host model named '512 GB' beside the
    BOM's '512 GiB memory' says the name's figure is the product's; the vSAN hosts' assumed height names the 2U of
    their model names instead of saying the catalog gives no height."""
    from models.evaluate import evaluate
    from models.present.bom import footprint
    from models.project.textformat import load
    from models.replication.figures import TCP_WINDOW_BYTES

    project = load(example_paths()["aff-a70-snapmirror-cvo-dr"])
    evaluation = evaluate(project)
    (f,) = evaluation.protection.relationships
    rtt = project.scenario.replications[0].rtt_ms
    mbit = TCP_WINDOW_BYTES * 8 / 1e6 / (rtt / 1000)  # one stream per protected workload
    note = next(n for f in evaluation.protection.relationships for n in f.notes if n.startswith("Transfers run"))
    assert f"of a {TCP_WINDOW_BYTES / 2**20:g} MiB window each" in note and TCP_WINDOW_BYTES == 2 * 2**20
    assert f"at most {mbit * len(f.workloads):,.0f} Mbit/s" in note

    catalog = Catalog.from_dir(catalog_dir())
    a70 = load(example_paths()["aff-a70-ns224-oracle-nvmetcp"])
    host_node = next(n for n in a70.scenario.nodes if n.kind == "host")
    record = catalog.find(host_node.catalog_id)
    assert f"{record.memory_gib:g} GB" in record.name  # the example's facts: '512 GB' in the product name
    (row,) = [r for r in bill_of_materials(a70.scenario, catalog) if r.category == "Hosts"]
    assert f"{record.memory_gib:g} GiB memory (the model name's \"{record.memory_gib:g} GB\"" in row.figures

    vsan = load(example_paths()["vsan8-esa-stretched-4x4-sqlserver-oltp"])
    node = next(n for n in vsan.scenario.nodes if n.kind == "hci_cluster")
    assert "2U" in catalog.find(node.catalog_id).name
    text = footprint(vsan.scenario, catalog).text()
    assert "gives no host height" not in text and "2U server form the host model's name states" in text


def test_bottleneck_names_the_ha_pair_bound(capsys):
    """#16: the engine's 'node 1 IOPS bound' (--json's bottleneck_station, a key of utilization) is node 1's share
    of a cap set for the HA pair: the outputs say 'HA pair IOPS bound (node 1's share)' beside 'per HA pair'."""
    from example_reports import report_text

    from models.evaluate import evaluate
    from models.present.iops_bound import bottleneck_words
    from models.present.verdicts import bottleneck_sentence
    from models.project.textformat import load

    for name, engine, shown in (("aff-a70-ns224-oracle-nvmetcp", "node 1 IOPS bound", "HA pair IOPS bound (node 1's "
                                 "share)"),):
        project = load(example_paths()[name])
        wp = evaluate(project).performance.workloads[0]
        assert wp.bottleneck == engine  # the engine's station, as --json gives it
        code, out, _ = _run(capsys, "evaluate", str(example_paths()[name]), "--json")
        got = json.loads(out)["workloads"][0]  # r2 #6: the words every view uses; the station a key of utilization
        assert (got["bottleneck"], got["bottleneck_station"]) == (shown, engine) and engine in got["utilization"]
        assert bottleneck_words(wp) == shown
        assert f"the bottleneck is {shown}" in bottleneck_sentence(wp).text
        _, out, _ = _run(capsys, "evaluate", str(example_paths()[name]))
        assert f"bottleneck            {shown}" in out and engine not in out.split("Protection and DR")[0]
        pdf = _flat(report_text(name))
        assert shown in pdf and engine not in pdf
