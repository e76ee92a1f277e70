"""`canter tables`: build, probe and list the endgame tables (docs/tables.md)."""
