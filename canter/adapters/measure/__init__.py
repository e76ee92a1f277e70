"""What engine authors measure: `canter perft` (move generation) and `canter bench`
(the search signature). Commands in `cli.py`."""
