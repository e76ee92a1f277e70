"""Tools that drive engines from outside, through the protocol: one subpackage per tool,
each with its click command in `cli.py` (client, arbiter, records, transcript, play,
pictures, measure)."""
