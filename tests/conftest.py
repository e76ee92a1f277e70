"""Shared by every test module: the engine's endgame tables come only from the package.

Tables a user built (in ~/.cache/canter/tables or $CANTER_TABLES) would change what a search
finds and how many nodes it takes, so the tests, and the engines they start, look in an
empty folder instead (docs/tables.md)."""

from __future__ import annotations

import os
import tempfile

os.environ["CANTER_TABLES"] = tempfile.mkdtemp(prefix="canter-tables-test-")
