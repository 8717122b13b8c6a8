"""Mindnet Desktop: a local, private second brain over an Obsidian vault."""

__version__ = "0.1.0"
