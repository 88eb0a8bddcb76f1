"""No writer follows a symlink planted at a temporary name it uses, through every front door that writes a file.

For each writer (the command line's export, import, import-prices, export-xlsx, export-csv and report; the app's
project save in both forms and its recovery copy; the user catalog; the TOML and .storplan savers themselves),
symlinks are planted at the old fixed temporary names (``X.tmp``, ``X.json.tmp``) and at the first temporary
names the writer will try (its random names made predictable here): to a file, to a folder, and dangling. After
the write the file is there, every planted link is still a link to what it pointed to, and the file, the folder
and the missing target are untouched. (The GUI's chart and curve exports: tests/gui/test_chart_export_files.py
and tests/gui/test_no_symlink_follow_gui.py.)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from test_store_faults import SMALL

from app.cli import main
from models import atomic
from models.project import textformat
from models.resources import examples_dir

EXAMPLE = examples_dir() / "aff8080-sqlserver-tpce.toml"
PREDICTED = ("0" * 16, "1" * 16, "2" * 16)
SUFFIXES = (".tmp", ".saving")


class Planter:
    """Symlinks planted beside files about to be written, and the targets they point to (outside the folder)."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.victims = root / "victims"
        self.victims.mkdir()
        self.victim = self.victims / "precious.txt"
        self.victim.write_text("precious")
        self.victim_dir = self.victims / "folder"
        self.victim_dir.mkdir()
        self.missing = self.victims / "missing"
        self.links: dict[Path, Path] = {}
        self.tries: dict[Path, int] = {}
        real = atomic.temp_path_for

        def predictable(path: Path, suffix: str = atomic.TEMP_SUFFIX) -> Path:
            """The first three names a writer tries for ``path`` are the planted ones, then random ones."""
            k = self.tries.get(path, 0)
            self.tries[path] = k + 1
            if k < len(PREDICTED):
                return path.with_name(f".{path.name}.{PREDICTED[k]}{suffix}")
            return real(path, suffix)

        monkeypatch.setattr(atomic, "temp_path_for", predictable)

    def plant(self, path: Path) -> None:
        """Links at the old fixed names beside ``path`` and at the three predicted ones, for every suffix."""
        targets = (self.victim, self.victim_dir, self.missing)
        names = [path.with_name(path.name + ".tmp"), path.with_suffix(".json.tmp")]
        names += [path.with_name(f".{path.name}.{token}{suffix}") for token in PREDICTED for suffix in SUFFIXES]
        for k, name in enumerate(names):
            if not os.path.lexists(name):
                name.symlink_to(targets[k % len(targets)])
                self.links[name] = targets[k % len(targets)]

    def check(self, written: list[Path]) -> None:
        assert self.victim.read_text() == "precious"
        assert list(self.victim_dir.iterdir()) == []
        assert not os.path.lexists(self.missing)
        for link, target in self.links.items():  # left as planted (the recovery copy removes its old fixed name)
            assert link.is_symlink() and Path(os.readlink(link)) == target or (
                link.name.endswith(".json.tmp") and not os.path.lexists(link)), link
        for path in written:
            assert path.is_file() and not path.is_symlink() and path.stat().st_size > 0, path
        assert any(self.tries.get(Path(os.path.realpath(p)), self.tries.get(p, 0)) > len(PREDICTED)
                   for p in written)  # the writer did meet the planted names and went past them


def _cli(*args: str) -> None:
    assert main(list(args)) == 0


def _prices(folder: Path) -> Path:
    csv_path = folder / "prices.csv"
    csv_path.write_text("catalog_id,unit_price,part_number,currency\nnetapp-aff8080a-ex,1000,P-1,USD\n")
    return csv_path


def _storplan_source(folder: Path) -> Path:
    from models.store import save_project

    source = folder.parent / "source.storplan"
    if not source.exists():
        save_project(textformat.load(EXAMPLE), source)
    return source


def cli_export(folder: Path) -> list[Path]:
    _cli("export", str(_storplan_source(folder)), "-o", str(folder / "X.toml"))
    return [folder / "X.toml"]


def cli_import(folder: Path) -> list[Path]:
    _cli("import", str(EXAMPLE), "-o", str(folder / "Y.storplan"))
    return [folder / "Y.storplan"]


def cli_import_prices_toml(folder: Path) -> list[Path]:
    _cli("import-prices", str(EXAMPLE), str(_prices(folder.parent)), "-o", str(folder / "priced.toml"))
    return [folder / "priced.toml"]


def cli_import_prices_storplan(folder: Path) -> list[Path]:
    _cli("import-prices", str(EXAMPLE), str(_prices(folder.parent)), "-o", str(folder / "priced.storplan"))
    return [folder / "priced.storplan"]


def cli_export_xlsx(folder: Path) -> list[Path]:
    _cli("export-xlsx", str(EXAMPLE), "-o", str(folder / "sizing.xlsx"))
    return [folder / "sizing.xlsx"]


CSV_SHEETS = ("summary", "bill-of-materials", "capacity-waterfall", "curves", "resilience", "validation")


def cli_export_csv(folder: Path) -> list[Path]:
    _cli("export-csv", str(EXAMPLE), "-o", str(folder))
    return [folder / f"{sheet}.csv" for sheet in CSV_SHEETS]


def cli_report(folder: Path) -> list[Path]:
    _cli("report", str(EXAMPLE), "-o", str(folder / "report.pdf"))
    return [folder / "report.pdf"]


def toml_dump(folder: Path) -> list[Path]:
    textformat.dump(SMALL, folder / "p.toml")
    return [folder / "p.toml"]


def toml_tracked(folder: Path) -> list[Path]:
    from models.store import FileFingerprint, save_toml_tracked

    path = folder / "p.toml"
    save_toml_tracked(SMALL.with_changes(info={"name": "again"}), path, expected_fingerprint=FileFingerprint.of(path))
    return [path]


def storplan_save(folder: Path) -> list[Path]:
    from models.store import save_project

    save_project(SMALL, folder / "p.storplan")
    return [folder / "p.storplan"]


def app_save_toml(folder: Path) -> list[Path]:
    from app.gui.project_io import save_project_file
    from models.catalog import bundled_catalog

    save_project_file(SMALL, folder / "app.toml", catalog=bundled_catalog())
    return [folder / "app.toml"]


def app_save_storplan(folder: Path) -> list[Path]:
    from app.gui.project_io import save_project_file
    from models.catalog import bundled_catalog

    saved = save_project_file(SMALL, folder / "app.storplan", catalog=bundled_catalog())
    saved.lock.release()
    return [folder / "app.storplan"]


def user_catalog(folder: Path) -> list[Path]:
    from models.catalog import bundled_catalog
    from models.user_catalog import save_user_record

    shelf = bundled_catalog().find("netapp-ds2246")
    save_user_record(shelf.model_copy(update={"id": "my-shelf"}), folder / "user.toml")
    return [folder / "user.toml"]


def recovery_copy(folder: Path) -> list[Path]:
    from models.store import RecoveryStore

    store = RecoveryStore(folder)
    data = store.write("window-1", SMALL, original_path=folder / "p.storplan")
    return [data, data.with_suffix(".json")]


WRITERS: dict[str, tuple[Callable[[Path], list[Path]], tuple[str, ...]]] = {
    "cli export": (cli_export, ("X.toml",)),
    "cli import": (cli_import, ("Y.storplan",)),
    "cli import-prices toml": (cli_import_prices_toml, ("priced.toml",)),
    "cli import-prices storplan": (cli_import_prices_storplan, ("priced.storplan",)),
    "cli export-xlsx": (cli_export_xlsx, ("sizing.xlsx",)),
    "cli export-csv": (cli_export_csv, tuple(f"{s}.csv" for s in CSV_SHEETS)),
    "cli report": (cli_report, ("report.pdf",)),
    "toml dump": (toml_dump, ("p.toml",)),
    "toml tracked": (toml_tracked, ("p.toml",)),
    "storplan": (storplan_save, ("p.storplan",)),
    "app save toml": (app_save_toml, ("app.toml",)),
    "app save storplan": (app_save_storplan, ("app.storplan",)),
    "user catalog": (user_catalog, ("user.toml",)),
    "recovery copy": (recovery_copy, ()),
}


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("replacing", [False, True], ids=["new file", "replacing"])
def test_a_planted_symlink_at_a_temporary_name_is_never_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 writer: str, replacing: bool):
    write, names = WRITERS[writer]
    folder = tmp_path / "out"
    folder.mkdir()
    if replacing or writer == "toml tracked":
        written = (toml_dump if writer == "toml tracked" else write)(folder)  # a first version, unplanted
    planter = Planter(tmp_path, monkeypatch)
    if writer == "recovery copy":
        names = tuple(p.name for p in recovery_copy(tmp_path / "probe"))  # the names it will use, by key
    for name in names:
        planter.plant(folder / name)
    written = write(folder)
    assert sorted(p.name for p in written) == sorted(names)
    planter.check(written)
