"""Importing and watching the vault for the window, and the index status panel; the jobs are
in `ops.py`."""
