"""`canter book`: build, show and probe the engine's opening books (docs/book.md). The build
runs the searcher in-process, as `canter bench` does: a book is the search's own output.
Commands in `cli.py`, the walk in `build.py`."""
