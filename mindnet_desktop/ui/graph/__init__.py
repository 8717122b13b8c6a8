"""The graph view: the knowledge graph around a note or the whole vault, its drawing,
layout, filters, side panel, and the jobs that read and change it (`ops.py`)."""
