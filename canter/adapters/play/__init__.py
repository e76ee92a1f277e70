"""A game in the terminal against an engine process, or between people. Command in
`cli.py`."""
