"""Benchmarks of the widgets, run in a fresh process by `mindnet bench` (the app never imports
them)."""
