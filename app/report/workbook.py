"""Write the sizing workbook (``models.present.workbook``) as an XLSX file (openpyxl) or as one CSV file per sheet.

Both writers go through ``models.atomic`` (a temporary file, fsync, an atomic rename), like the PDF report, so
an existing file is never left half written; a new file's mode is ``0o666 & ~umask``, a replaced one keeps its own.

Both are safe to send: every cell passes ``models.present.workbook.safe_cell`` (no NaN or infinity, no control
character XLSX refuses), and text a spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@``, tab, carriage
return first) is written as text: a string cell marked "quote prefix" in XLSX, the ``'`` prefix in CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from models.atomic import write_atomic, write_error_words, write_files_atomic
from models.design import resolve
from models.evaluate import evaluate, evaluate_resilience
from models.present.workbook import cell_formats, csv_text, csv_value, looks_like_formula, safe_rows, workbook_sheets


class WorkbookError(Exception):
    """The workbook could not be written (the message names the file and why)."""


def sizing_sheets(project, scenario_name: str | None = None, evaluation=None, validation=None,
                  catalog=None) -> dict:
    """The workbook's sheets for a project's scenario (default: the active one), evaluating it when no
    ``evaluation`` is given and adding its failure states and runway.

    ``catalog`` is the base catalog (a project file's: ``models.store.load_project_file(path).catalog``, the
    app's ``ProjectDocument.base_catalog``; None: bundled plus the user's records); the project's own records go
    on top by the one rule (``models.design.resolve``), as for every other front door.

    Raises:
        KeyError: ``scenario_name`` is not a scenario of the project.
    """
    design = resolve(project, evaluation.scenario if evaluation is not None else scenario_name, catalog)
    evaluation = evaluation or evaluate(project, design=design)
    resilience = evaluation.resilience
    if resilience is None:
        resilience = evaluate_resilience(project, evaluation, design=design)
    return workbook_sheets(project, evaluation, design.catalog, resilience, validation)


def _atomic(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write ``path`` atomically (``models.atomic.write_atomic``: ``write`` fills the temporary file's handle).

    Raises:
        WorkbookError: the folder cannot be written (its message names the path).
    """
    path = Path(path)
    try:
        write_atomic(path, write)
    except OSError as exc:
        raise WorkbookError(f"cannot write {path}: {write_error_words(exc, path)}") from exc


def write_xlsx(sheets: dict, path: Path) -> None:
    """Write ``{sheet name: rows}`` as an XLSX workbook (bold header row, frozen below it, widths fitted; numbers
    as numbers with the number format of their unit, ``models.present.workbook.cell_formats``).

    Raises:
        WorkbookError: the file cannot be written.
    """
    from openpyxl import Workbook
    from openpyxl.styles import Font

    def write(handle: BinaryIO) -> None:
        book = Workbook()
        book.remove(book.active)
        for name, raw in sheets.items():
            sheet = book.create_sheet(name[:31])
            rows = safe_rows(raw)
            for r, (row, formats) in enumerate(zip(rows, cell_formats(rows)), start=1):
                sheet.append(list(row))
                for c, (value, number_format) in enumerate(zip(row, formats), start=1):
                    if number_format is not None:  # numbers stay numbers; the format rounds what is shown
                        sheet.cell(row=r, column=c).number_format = number_format
                    elif isinstance(value, str):
                        _as_text(sheet.cell(row=r, column=c), value)
            for cell in sheet[1]:
                cell.font = Font(bold=True)
            sheet.freeze_panes = "A2"
            for column in sheet.columns:
                width = max((len(str(c.value)) for c in column if c.value is not None), default=8)
                sheet.column_dimensions[column[0].column_letter].width = min(max(width + 2, 8), 60)
        book.save(handle)

    _atomic(path, write)


def _as_text(cell, value: str) -> None:
    """Make an openpyxl cell a plain string cell (openpyxl reads text starting with ``=`` as a formula and
    ``#N/A`` and the like as an error value); formula-like text also gets Excel's "quote prefix" style, so
    editing the cell keeps it text."""
    cell.data_type = "s"
    if looks_like_formula(value) or value.startswith("#"):
        cell.quotePrefix = True


def _csv_bytes(rows: list) -> bytes:
    rows = safe_rows(rows)
    text = io.StringIO(newline="")
    csv.writer(text).writerows(["" if v is None else csv_text(csv_value(v, f)) for v, f in zip(row, formats)]
                               for row, formats in zip(rows, cell_formats(rows)))
    return text.getvalue().encode("utf-8")


def write_sheet_csv(rows: list, path: Path) -> Path:
    """Write one sheet's rows as a CSV file (UTF-8, comma-separated, None as an empty cell, numbers at the
    XLSX cells' precision, at least 4 decimals, counts whole: ``models.present.workbook.csv_value``; text a
    spreadsheet would read as a formula with the ``'`` prefix: ``csv_text``); returns ``path``.

    Raises:
        WorkbookError: the file cannot be written (the message names it).
    """
    data = _csv_bytes(rows)
    _atomic(Path(path), lambda handle: handle.write(data))
    return Path(path)


def write_csv_folder(sheets: dict, folder: Path) -> list[Path]:
    """Write each sheet as ``<folder>/<sheet name>.csv`` (UTF-8, comma-separated); returns the files written.

    The files are one set (``models.atomic.write_files_atomic``): either every file is replaced, or, when one
    cannot be written, none is, so the folder never holds sheets of two designs.

    Raises:
        WorkbookError: the folder cannot be created or a file cannot be written (no file was changed).
    """
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkbookError(f"cannot create the folder {folder}: {write_error_words(exc, folder)}") from exc
    files = {folder / f"{name.lower().replace(' ', '-')}.csv": _csv_bytes(rows) for name, rows in sheets.items()}
    try:
        return write_files_atomic(files)
    except OSError as exc:
        failed = Path(exc.filename) if exc.filename else folder
        raise WorkbookError(f"cannot write {failed}: {write_error_words(exc, failed)}. No CSV file in {folder} "
                            "was changed.") from exc
