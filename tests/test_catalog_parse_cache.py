"""The bundled catalog's parsed tables are cached per user (JSON named by the TOML text's SHA-256): a start reads
them back instead of parsing 0.7 MB of TOML, and never a stale or damaged copy. So are its validated records (named
by the text and the record types' source): a start rebuilds them without validating again, exactly as validation
made them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import models.resources
from models.catalog import loader
from models.resources import resources_dir


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("STORPLAN_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _cache_files(home: Path) -> list[Path]:
    return sorted((home / loader.PARSED_CACHE).glob("*.json"))


def test_every_bundled_file_reads_back_from_the_cache_as_parsed(home):
    files = sorted((resources_dir() / "catalog").glob("*.toml"))
    first = [loader.load_file(path) for path in files]  # parsed, then cached
    assert len(_cache_files(home)) == len(files)
    for path in files:  # the cache's tables are exactly tomllib's
        (cached,) = (home / loader.PARSED_CACHE).glob(f"{path.stem}-*.json")
        assert loader._parse_bundled(path, path.read_text(encoding="utf-8")) == tomllib.loads(
            path.read_text(encoding="utf-8"))
        assert cached.stat().st_size > 0
    second = [loader.load_file(path) for path in files]  # from the cache
    assert second == first and sum(map(len, second)) > 100


def _bundled_copy(tmp_path: Path, monkeypatch, text: str) -> Path:
    """A catalog file inside a stand-in ``resources`` folder (so it counts as bundled)."""
    root = tmp_path / "resources"
    (root / "catalog").mkdir(parents=True)
    monkeypatch.setattr(models.resources, "resources_dir", lambda: root)
    path = root / "catalog" / "drives.toml"
    path.write_text(text, encoding="utf-8")
    return path


DRIVE = (resources_dir() / "catalog" / "drives.toml").read_text(encoding="utf-8")


def test_an_edited_file_is_parsed_again_and_its_old_cache_entry_removed(home, tmp_path, monkeypatch):
    path = _bundled_copy(tmp_path, monkeypatch, DRIVE)
    before = loader.load_file(path)
    (old,) = _cache_files(home)
    edited = DRIVE.replace('name = "', 'name = "Edited ', 1)
    assert edited != DRIVE
    path.write_text(edited, encoding="utf-8")
    after = loader.load_file(path)
    assert [e.name for e in after] != [e.name for e in before]
    assert sum(e.name.startswith("Edited ") for e in after) == 1
    (new,) = _cache_files(home)
    assert new != old and not old.exists()


def _records_files(home: Path) -> list[Path]:
    return sorted((home / loader.RECORDS_CACHE).glob("*.marshal"))


def test_a_damaged_cache_file_is_ignored_and_replaced(home, tmp_path, monkeypatch):
    path = _bundled_copy(tmp_path, monkeypatch, DRIVE)
    expected = loader.load_file(path)
    (cached,) = _cache_files(home)
    for records in _records_files(home):  # the tables are read when the records are not cached
        records.unlink()
    cached.write_text('{"drive": [', encoding="utf-8")  # truncated
    assert loader.load_file(path) == expected
    assert cached.read_text(encoding="utf-8").startswith("{") and len(cached.read_text(encoding="utf-8")) > 100
    for records in _records_files(home):
        records.unlink()
    cached.write_text("[1, 2]", encoding="utf-8")  # JSON, but not a document's tables
    assert loader.load_file(path) == expected


def test_a_cache_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "home-is-a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("STORPLAN_HOME", str(blocker))
    path = _bundled_copy(tmp_path, monkeypatch, DRIVE)
    assert loader.load_file(path) == loader.parse_entries(tomllib.loads(DRIVE), str(path))


def test_a_file_outside_the_bundled_catalog_is_never_cached(home, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(DRIVE, encoding="utf-8")
    assert loader.load_file(path)
    assert _cache_files(home) == []


def test_bad_toml_in_a_bundled_file_is_still_reported_with_its_place(home, tmp_path, monkeypatch):
    path = _bundled_copy(tmp_path, monkeypatch, "[[drive]]\nid = \n")
    with pytest.raises(loader.CatalogError, match=r"drives\.toml: line 2: column 6: not valid TOML"):
        loader.load_file(path)


def _fresh(path: Path) -> list:
    """The file's records validated from its TOML, bypassing both caches."""
    return loader.parse_entries(tomllib.loads(path.read_text(encoding="utf-8")), str(path))


def _fields_given(record) -> list:
    """Each model's type and set of fields given, depth first (what ``==`` on records does not compare)."""
    out = [(type(record).__name__, sorted(record.model_fields_set))]
    for value in record.__dict__.values():
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else [value]
        out += [pair for item in items if hasattr(item, "model_fields_set") for pair in _fields_given(item)]
    return out


def test_every_bundled_record_reads_back_from_the_record_cache_as_validated(home):
    files = sorted((resources_dir() / "catalog").glob("*.toml"))
    for path in files:
        loader.load_file(path)  # validated, then cached
    assert len(_records_files(home)) == len(files)
    calls = []
    original = loader.parse_entries
    try:
        loader.parse_entries = lambda *a, **k: calls.append(a) or original(*a, **k)
        again = {path: loader.load_file(path) for path in files}  # from the record cache: nothing validated
    finally:
        loader.parse_entries = original
    assert calls == []
    total = 0
    for path, records in again.items():
        fresh = _fresh(path)
        assert records == fresh
        assert [type(r) for r in records] == [type(r) for r in fresh]
        assert [_fields_given(r) for r in records] == [_fields_given(r) for r in fresh]
        assert [r.model_dump() for r in records] == [r.model_dump() for r in fresh]
        total += len(records)
    assert total > 200


def test_records_cached_by_other_record_types_are_validated_again(home, tmp_path, monkeypatch):
    path = _bundled_copy(tmp_path, monkeypatch, DRIVE)
    loader.load_file(path)
    expected = _fresh(path)
    (old,) = _records_files(home)
    monkeypatch.setattr(loader, "_schema_key", lambda: "another version of the record types")
    calls = []
    original = loader.parse_entries
    monkeypatch.setattr(loader, "parse_entries", lambda *a, **k: calls.append(a) or original(*a, **k))
    assert loader.load_file(path) == expected
    assert len(calls) == 1
    (new,) = _records_files(home)
    assert new != old and not old.exists()


def _with_crc(payload: bytes) -> bytes:
    """A record cache file's bytes for ``payload``: magic, CRC-32 and data (what passes the damage check)."""
    import zlib

    return loader._RECORDS_MAGIC + zlib.crc32(payload).to_bytes(4, "little") + payload


def test_a_damaged_record_cache_is_ignored_and_replaced(home, tmp_path, monkeypatch):
    import marshal

    path = _bundled_copy(tmp_path, monkeypatch, DRIVE)
    expected = loader.load_file(path)
    (records,) = _records_files(home)
    good = records.read_bytes()
    form = loader._RECORDS_FORMAT
    drive = ("Drive", {"id": "x"}, ["id"], ())
    damaged_files = [
        good[:len(good) // 2],  # truncated: the CRC-32 differs
        good[:-1] + bytes([good[-1] ^ 1]),  # one bit flipped
        b'[{"drive": ',  # JSON (an older layout), text of any kind
        b"",
        _with_crc(b"\xff\x00"),  # not marshal data
        _with_crc(marshal.dumps([1, 2])),  # marshal, not records
        _with_crc(marshal.dumps((form + 1, [drive], [0]))),  # another layout
        _with_crc(marshal.dumps((form, [("NoSuchModel", {}, [], ())], [0]))),
        _with_crc(marshal.dumps((form, [drive], [1]))),  # no such record
        _with_crc(marshal.dumps((form, [drive, ("Drive", {"id": "y"}, [], ((("id",), -1),))], [1]))),
        _with_crc(marshal.dumps((form, [drive, ("Drive", {"id": "y"}, [], ((("id", "a"), 0),))], [1]))),
        _with_crc(marshal.dumps((form, [("Drive", [1], [], ())], [0]))),  # fields not a dict
        _with_crc(marshal.dumps((form, [("Provenance", {}, [], ())], [0]))),  # a model, but no record
    ]
    for damaged in damaged_files:
        records.write_bytes(damaged)
        assert loader.load_file(path) == expected
        assert records.read_bytes() != damaged  # written again, validated
        assert loader._cached_records(records) == expected


def test_a_record_cache_of_an_older_layout_is_removed_when_the_records_are_written(home, tmp_path, monkeypatch):
    path = _bundled_copy(tmp_path, monkeypatch, DRIVE)
    folder = home / loader.RECORDS_CACHE
    folder.mkdir(parents=True)
    older = folder / "drives-0123456789.json"
    older.write_text('[{"\\u0000model": "Drive", "fields": {}, "set": []}]', encoding="utf-8")
    loader.load_file(path)
    assert not older.exists() and len(_records_files(home)) == 1


def test_the_record_cache_key_follows_the_record_types_or_the_frozen_build(tmp_path, monkeypatch):
    import sys

    from models.catalog import schema

    loader._schema_key.cache_clear()
    monkeypatch.setattr(schema, "__file__", str(tmp_path / "schema.py"))
    (tmp_path / "schema.py").write_text("one version of the record types", encoding="utf-8")
    first = loader._schema_key()
    loader._schema_key.cache_clear()
    (tmp_path / "schema.py").write_text("another version", encoding="utf-8")
    second = loader._schema_key()
    assert first and second and first != second
    loader._schema_key.cache_clear()
    (tmp_path / "schema.py").unlink()  # a frozen build keeps no source: its executable names the build
    assert loader._schema_key() is None
    loader._schema_key.cache_clear()
    exe = tmp_path / "storplan"
    exe.write_bytes(b"build 1")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(exe))
    build_1 = loader._schema_key()
    loader._schema_key.cache_clear()
    exe.write_bytes(b"build two")
    build_2 = loader._schema_key()
    loader._schema_key.cache_clear()
    assert build_1 and build_2 and build_1 != build_2 and build_1 not in (first, second)


def test_the_platform_ladders_read_through_the_same_cache(home, tmp_path):
    """``parse_bundled_toml`` (the hardware relation's ladder steps, read by every evaluation of such a controller):
    tomllib's tables, cached under the user's folder and read back from there; a file outside the resources is parsed
    every time and never cached."""
    ladders = resources_dir() / "validation" / "ladders.toml"
    expected = tomllib.loads(ladders.read_text(encoding="utf-8"))
    assert loader.parse_bundled_toml(ladders) == expected and expected["step"]
    (cached,) = (home / loader.PARSED_CACHE).glob("ladders-*.json")
    cached.write_text('{"step": []}', encoding="utf-8")  # the next read comes from the cache file, not the TOML
    assert loader.parse_bundled_toml(ladders) == {"step": []}
    own = tmp_path / "own.toml"
    own.write_text("[[step]]\nsmaller = 'a'\nlarger = 'b'\n", encoding="utf-8")
    assert loader.parse_bundled_toml(own) == {"step": [{"smaller": "a", "larger": "b"}]}
    assert not list((home / loader.PARSED_CACHE).glob("own-*.json"))
    own.write_text("[[step]\n", encoding="utf-8")
    with pytest.raises(loader.FileRefusedError):
        loader.parse_bundled_toml(own)
