"""How the rules library's messages quote text they refuse: a client's line may be of any
length, and an error that repeated all of it would bury the reason."""

from __future__ import annotations

QUOTE_LIMIT = 40  # a message quotes at most this much of the text it refuses


def shorten(text: str) -> str:
    """`text`, cut to QUOTE_LIMIT characters with '...' when longer."""
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "..."
