"""`canter solve`: prove game values (canter/engine/search/solve) and check proofs
independently (`verify.py`, rules library only)."""
