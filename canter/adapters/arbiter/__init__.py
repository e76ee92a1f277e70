"""The arbiter: matches, tournaments, compliance runs, time controls, openings, results,
statistics and reports (docs/arbiter.md). Commands in `cli.py`."""
