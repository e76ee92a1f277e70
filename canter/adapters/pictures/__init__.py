"""Pictures of positions and games: SVG boards, HTML pages, and `canter show`
(docs/boards.md). Command in `cli.py`."""
