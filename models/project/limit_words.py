"""pydantic's limit phrases in the words a user reads: ``Input should be less than or equal to 24`` reads
``At most 24``, ``String should have at most 200 characters`` reads ``At most 200 characters``. The GUI's field
refusals (``app.gui.record_form.refusal_text``) and a project file's load errors
(:func:`models.project.textformat.describe_validation_error`) share them."""

from __future__ import annotations

import re

__all__ = ["limit_words"]

_LIMITS = ((re.compile(r"^Input should be less than or equal to (.+)$"), "At most {}"),
           (re.compile(r"^Input should be greater than or equal to (.+)$"), "At least {}"),
           (re.compile(r"^Input should be less than (.+)$"), "Must be less than {}"),
           (re.compile(r"^Input should be greater than (.+)$"), "Must be more than {}"),
           # a bounded text (a label, a name: MAX_LABEL characters)
           (re.compile(r"^String should have at most (\d+) characters?$"), "At most {} characters"),
           (re.compile(r"^String should have at least 1 character$"), "Cannot be empty"),
           (re.compile(r"^String should have at least (\d+) characters$"), "At least {} characters"))


def limit_words(message: str) -> str:
    """``message`` (one pydantic error message, without its field path) in words where it is one of pydantic's limit
    phrases; any other message unchanged. Raises nothing."""
    for pattern, text in _LIMITS:
        match = pattern.match(message)
        if match:
            return text.format(*match.groups())
    return message
