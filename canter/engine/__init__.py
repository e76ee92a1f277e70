"""canter's engine: the rules library (`canter.engine.rules`) and the searcher
(`canter.engine.search`). No I/O; nothing here prints.

This package exports the public rules API (docs/engine-api.md), so `from canter.engine import
Position, parse_move` is all most programs need. The searcher is imported on its own, from
`canter.engine.search.searcher`, so that a program that only needs the rules never loads it.
"""

# The names and their list live once, in canter.engine.rules.
from canter.engine.rules import *  # noqa: F403
from canter.engine.rules import __all__  # noqa: F401
