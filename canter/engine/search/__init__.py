"""The searcher: evaluation, transposition table, time management, alpha-beta for two
seats, paranoid and Best-Reply Search for three, and the bench.

`searcher.Searcher` is the face the protocol drives; `limits` is the contract between them.
This file imports nothing, so that the protocol can load `limits` at start-up without loading
the search itself.
"""
