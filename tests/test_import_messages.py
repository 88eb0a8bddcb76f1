"""What a user reads about a refused value or an unknown workbook (issue 31): numbers written out with thousands
separators (never 1e+12 or a 31-digit integer), ceilings in words, tools by their names (never an internal code)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from models.importers.inventory import InventoryError
from models.importers.liveoptics import read_liveoptics
from models.importers.registry import detect
from models.importers.rvtools import read_rvtools

SAMPLES = next(p / "shared" / "samples" for p in Path(__file__).resolve().parents
               if (p / "shared" / "samples").is_dir())
SMALL = SAMPLES / "rvtools" / "rvtools-small-complete.xlsx"
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"


def _set(path: Path, out: Path, sheet: str, column: str, values: dict[int, object]) -> Path:
    book = openpyxl.load_workbook(path)
    ws = book[sheet]
    k = [c.value for c in ws[1]].index(column) + 1
    for row, value in values.items():
        ws.cell(row=row, column=k, value=value)
    book.save(out)
    return out


def test_refused_values_are_written_out_with_their_ceiling_in_words(tmp_path) -> None:
    path = _set(SMALL, tmp_path / "big.xlsx", "vInfo", "Provisioned MiB", {2: 1e30, 3: 2.5e12, 4: -5})
    messages = {f.row: f.message for f in read_rvtools(path).flags if f.refused}
    assert messages == {2: "1.000e+30 is above 1 EB: left out", 3: "2,500,000,000,000 is above 1 EB: left out",
                        4: "-5 is negative: left out"}
    path = _set(LIVE, tmp_path / "lo.xlsx", "VM Performance", "Peak Read IOPS", {2: 1e12, 3: 12345.5e9})
    messages = {f.row: f.message for f in read_liveoptics(path).flags if f.column == "Peak Read IOPS"}
    assert messages == {2: "1,000,000,000,000 is above 1,000,000,000 IOPS: left out",
                        3: "12,345,500,000,000 is above 1,000,000,000 IOPS: left out"}


def test_a_workbook_of_no_known_source_names_the_tools(tmp_path) -> None:
    book = openpyxl.load_workbook(SMALL)
    book["vInfo"].title = "VM info"
    book.save(tmp_path / "renamed.xlsx")
    with pytest.raises(InventoryError) as err:
        detect(tmp_path / "renamed.xlsx")
    assert str(err.value) == ("renamed.xlsx: a workbook of no known source (looked for the sheets Azure Migrate: "
                              "All_VM_IaaS_Server_Rehost_Perf; Live Optics: VMs with one of VM Performance, Details, "
                              "ESX Hosts, VM Disks, ESX Performance; RVTools: vInfo; it has 'VM info', 'vDisk', "
                              "'vPartition', 'vCPU', 'vMemory', 'vHost', 'vCluster', 'vNetwork', 'vSnapshot', "
                              "'vTools', 'vCD', 'vUSB' and 5 more)")


ONTAP = SAMPLES / "ontap"
AZURE = SAMPLES / "azure-migrate" / "AzureMigrate_Assessment_Core_Report.xlsx"


def _import_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """``storplan import-env ARGS``: exit status 2 and its one-line message (without the program's name)."""
    from app.cli import main

    assert main(["import-env", *args, "-o", str(tmp_path / "out.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("storplan: ") and "Traceback" not in err
    assert not (tmp_path / "out.toml").exists()
    return err.removeprefix("storplan: ").strip()


def test_a_file_of_another_kind_for_source_says_what_it_is(tmp_path, capsys) -> None:
    """Review 53 item 11: --source naming the wrong tool gets what the file is, not a damaged-workbook or a
    UTF-8 complaint."""
    poll = ONTAP / "harvest-keyperf-volume-poll-1.json"
    message = _import_error(tmp_path, capsys, "--source", "rvtools", str(poll))
    assert message.startswith(f"{poll.name}: an ONTAP REST JSON file (as NetApp Harvest collects it), not an RVTools "
                              "xlsx workbook or CSV export")
    message = _import_error(tmp_path, capsys, "--source", "ontap", str(AZURE))
    assert message.startswith(f"{AZURE.name}: an Azure Migrate workbook, not ONTAP counters")
    assert "UTF-8" not in message and "damaged" not in message
    message = _import_error(tmp_path, capsys, "--source", "liveoptics", str(SMALL))
    assert message.startswith(f"{SMALL.name}: an RVTools export, not a Live Optics xlsx workbook")


def test_empty_csv_named_xlsx_and_schema_only_files_are_named_for_what_they_are(tmp_path, capsys) -> None:
    """Review 53 item 11: a 0-byte file, a CSV renamed .xlsx, and counter schemas or catalogues without their
    polls each get a message that says so."""
    empty = tmp_path / "empty.xlsx"
    empty.write_bytes(b"")
    assert _import_error(tmp_path, capsys, str(empty)) == "empty.xlsx: empty (0 bytes)"
    assert _import_error(tmp_path, capsys, "--source", "ontap", str(empty)) == "empty.xlsx: empty (0 bytes)"
    renamed = tmp_path / "table.xlsx"
    renamed.write_text("VM,Provisioned MiB\nvm1,100\n")
    assert _import_error(tmp_path, capsys, str(renamed)).startswith(
        "table.xlsx: a CSV (comma-separated text) file named .xlsx, not an xlsx workbook: cannot tell which tool")
    assert _import_error(tmp_path, capsys, "--source", "liveoptics", str(renamed)) == (
        "table.xlsx: a CSV (comma-separated text) file, not a Live Optics xlsx workbook")
    schema = ONTAP / "harvest-restperf-volume-counters-1.json"
    message = _import_error(tmp_path, capsys, str(schema))
    assert message.startswith(f"{schema.name}: a counter schema (counter names and units) only, no counter values: "
                              "add the counter-table poll files")
    catalogue = ONTAP / "harvest-statperf-lun_counters.txt"
    assert "add the 'statistics show -raw' files" in _import_error(tmp_path, capsys, str(catalogue))


def test_header_only_sheet_and_svm_grouping_of_machines_are_refused_by_name(tmp_path, capsys) -> None:
    """Review 53 items 11 and 23: a vInfo with a header and no row names the file and the sheet; SVM or aggregate
    grouping of VMware machines says it needs ONTAP files."""
    book = openpyxl.load_workbook(SMALL)
    ws = book["vInfo"]
    ws.delete_rows(2, ws.max_row)
    book.save(tmp_path / "header.xlsx")
    assert _import_error(tmp_path, capsys, str(tmp_path / "header.xlsx")) == (
        "header.xlsx: sheet vInfo lists no machine, volume or LUN (only a header, or every row refused)")
    message = _import_error(tmp_path, capsys, "--group-by", "svm", str(SMALL))
    assert message.startswith("--group-by svm: groups ONTAP volumes and LUNs")
    assert "cluster, datastore or tag" in message


def test_refused_values_are_counted_by_value_and_row_with_their_column(tmp_path, capsys) -> None:
    """Review 53 item 13: 5 bad cells in 3 rows are 5 values in 3 rows, each named by its column."""
    from app.cli import main

    path = _set(SMALL, tmp_path / "bad.xlsx", "vInfo", "Provisioned MiB", {2: "100 GB", 3: 1e30, 4: -5})
    book = openpyxl.load_workbook(path)
    ws = book["vInfo"]
    k = [c.value for c in ws[1]].index("CPUs") + 1
    ws.cell(row=2, column=k, value=-1)
    ws.cell(row=3, column=k, value="many")
    book.save(path)
    assert main(["import-env", str(path), "-o", str(tmp_path / "out.toml")]) == 0
    err = capsys.readouterr().err
    assert err.startswith("5 value(s) in 3 row(s) (the rest of each row kept) refused; first: bad.xlsx sheet vInfo "
                          "row 2 column 'CPUs': -1 is negative"), err
    assert "row 2 column 'Provisioned MiB': '100 GB' is not a number" in err


def test_import_env_help_describes_file_and_where_grouping_applies(capsys) -> None:
    """Review 53 item 23."""
    from app.cli import main

    with pytest.raises(SystemExit):
        main(["import-env", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "FILE the exports to read" in text and "svm and aggregate need ONTAP files" in text
