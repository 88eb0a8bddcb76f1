"""The sizer's drive performance signature read from a record's fields (``models.sizing._fields_dumped``), not from
pydantic's serializer (built on a record class's first dump): the same dict as ``model_dump`` of every record of the
bundled catalog, with and without the drive's identity fields, and ``model_dump`` itself for a record with a
computed field, a serializer of its own (a decorator or ``Annotated`` metadata) or a field left out of dumps."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, PlainSerializer, WrapSerializer, computed_field, field_serializer

from models.evaluate import project_catalog
from models.resources import examples_dir
from models.sizing import DRIVE_IDENTITY_FIELDS, _fields_dumped
from models.store import load_any


def test_every_catalog_record_reads_as_its_dump() -> None:
    catalog = project_catalog(load_any(examples_dir() / "aff8080-sqlserver-tpce.toml"))
    records = list(catalog)
    assert len(records) > 200
    for record in records:
        for exclude in (DRIVE_IDENTITY_FIELDS, frozenset()):
            assert repr(_fields_dumped(record, exclude)) == repr(record.model_dump(exclude=set(exclude)))


class _Inner(BaseModel):
    size: int = 1


class _Computed(BaseModel):
    a: int = 1

    @computed_field  # type: ignore[prop-decorator]
    @property
    def twice(self) -> int:
        return 2 * self.a


class _Serialized(BaseModel):
    a: int = 1

    @field_serializer("a")
    def _a(self, value: int) -> str:
        return f"<{value}>"


class _Hidden(BaseModel):
    a: int = 1
    b: int = Field(default=2, exclude=True)


class _PlainAnnotated(BaseModel):
    a: Annotated[int, PlainSerializer(lambda v: f"<{v}>")] = 1


class _WrapAnnotated(BaseModel):
    a: Annotated[int, WrapSerializer(lambda v, nxt: nxt(v) * 10)] = 1


class _Nested(BaseModel):
    inner: _Inner = _Inner()
    rows: list[_Inner] = [_Inner(size=3)]
    by_name: dict[str, _Inner] = {"x": _Inner(size=4)}
    pair: tuple[int, int] = (1, 2)
    hidden: _Hidden = _Hidden()


def test_records_dumped_otherwise_are_dumped_by_pydantic() -> None:
    for record in (_Computed(), _Serialized(), _PlainAnnotated(), _WrapAnnotated(), _Hidden(), _Nested(), _Inner()):
        assert _fields_dumped(record) == record.model_dump()
        assert _fields_dumped(record, frozenset({"a"})) == record.model_dump(exclude={"a"})
