"""Proving game values: proof-number search (`dfpn.py`), the proofs it extracts
(`proof.py`) and the shipped proofs the searcher plays from (`solved.py`, `proofs/`).

No I/O beyond reading the proof files shipped in the package; nothing here prints.
"""
