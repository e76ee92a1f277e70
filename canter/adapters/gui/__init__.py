"""`canter gui`: the board in the browser, driven only through the protocol (docs/gui.md)."""
