"""``storplan import-prices`` writing a price book into an older-format ``.storplan`` file in place says that the file
is now in the current format, which older StorPlan versions cannot open (the GUI asks before such a save; the command
line upgraded it without a word). A file written elsewhere, or already current, gets no note."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from app.cli import main
from models.store.schema import SCHEMA_VERSION

DATA = Path(__file__).resolve().parent / "data"


def _prices(folder: Path) -> Path:
    path = folder / "prices.csv"
    path.write_text("catalog_id,unit_price,part_number,currency\nnetapp-aff8080a-ex,1000,P-1,USD\n", encoding="utf-8")
    return path


def _format(path: Path) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


def test_an_older_file_priced_in_place_says_it_is_now_in_the_current_format(tmp_path, capsys):
    project = tmp_path / "old v1.storplan"
    shutil.copyfile(DATA / "project_v1.storplan", project)
    assert _format(project) == 1 < SCHEMA_VERSION
    assert main(["import-prices", str(project), str(_prices(tmp_path)), "-o", str(project)]) == 0
    out = capsys.readouterr().out
    assert _format(project) == SCHEMA_VERSION
    assert (f"note: old v1.storplan was in file format 1; it is now in file format {SCHEMA_VERSION}, which older "
            "StorPlan versions cannot open") in out


def test_a_current_file_or_a_new_target_gets_no_note(tmp_path, capsys):
    project = tmp_path / "old.storplan"
    shutil.copyfile(DATA / "project_v1.storplan", project)
    prices = _prices(tmp_path)
    new = str(tmp_path / "new.storplan")
    assert main(["import-prices", str(project), str(prices), "-o", new]) == 0
    assert main(["import-prices", new, str(prices), "-o", new]) == 0
    assert "note:" not in capsys.readouterr().out
