"""canter: engine, protocol and arbiter for the Camelot family of games."""

__version__ = "0.1.0"
