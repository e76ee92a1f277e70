"""Endgame tables: retrograde analysis of two-sided endings with few pieces (docs/tables.md).

The API (pure Python, no I/O):

    from canter.engine.search.endings import Endings, parse_material, WIN, DRAW, LOSS

    endings = Endings(load=None, save=None, build_missing=False)
    table = endings.build(parse_material("camette-wKM-bK"))   # builds wK-bK etc. first
    endings.probe(pos)        # (WIN | DRAW | LOSS, plies to the end) for the seat to move,
                              # or None
    endings.best_moves(pos)   # [(move, result, plies)], best first
    table.to_bytes(); Table.from_bytes(data)                  # the file format
"""

from canter.engine.search.endings.build import build_table
from canter.engine.search.endings.material import (
    Indexer,
    Material,
    MaterialError,
    classes,
    material_of,
    parse_material,
)
from canter.engine.search.endings.probe import (
    SUFFIX,
    Endings,
    default_table_dir,
    folder_keys,
    folder_table,
    shipped,
    shipped_keys,
)
from canter.engine.search.endings.table import DRAW, LOSS, WIN, Table, TableError

__all__ = ["DRAW", "LOSS", "SUFFIX", "WIN", "Endings", "Indexer", "Material",
           "MaterialError", "Table", "TableError", "build_table", "classes",
           "default_table_dir", "folder_keys", "folder_table", "material_of",
           "parse_material", "shipped", "shipped_keys"]
