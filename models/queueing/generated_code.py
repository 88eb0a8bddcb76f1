"""The code the models write at run time and compile: the closed ramp's recursion written out class by class
(:func:`models.queueing.general_service._ramp_kernel`, a few per evaluation; ``_batch_kernel``, the sizer's for
batches of a few networks). It is compiled by :data:`compile_text`:
the builtin ``compile`` unless the process's entry point gives it a cache of compiled code
(``app.method_cache.install``: the code an earlier run compiled from the very same text, as for the methods
``dataclasses`` writes). Either way the code is the one ``compile`` makes of the text."""

from __future__ import annotations

from collections.abc import Callable
from types import CodeType


def compile_source(source: str, filename: str) -> CodeType:
    """``compile(source, filename, "exec")`` with no ``__future__`` flag inherited from this module.

    Raises:
        SyntaxError: ``source`` is not Python."""
    return compile(source, filename, "exec", dont_inherit=True)


compile_text: Callable[[str, str], CodeType] = compile_source
"""What :func:`models.queueing.general_service._ramp_kernel` compiles its text with (source, file name) -> code."""
