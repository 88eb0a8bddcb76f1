"""A file handle that counts what is read through it: the tests that check a refusal read no more than a header
(tests/test_bounded_read.py, tests/test_store_hostile.py) count bytes instead of timing the refusal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class CountedReads:
    """Wraps an open file ``handle``; each ``read`` passes the number of bytes (or characters) it returned to
    ``on_read``. Everything else, the context manager included, is the handle's own."""

    def __init__(self, handle: Any, on_read: Callable[[int], object]) -> None:
        self._handle, self._on_read = handle, on_read

    def __enter__(self) -> CountedReads:
        return self

    def __exit__(self, *exc: object) -> Any:
        return self._handle.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)

    def read(self, *args: Any) -> Any:
        data = self._handle.read(*args)
        self._on_read(len(data))
        return data
