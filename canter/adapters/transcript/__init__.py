"""Transcripts: the format, the runner and the recorder of protocol sessions
(docs/transcripts.md). Commands in `cli.py`."""
