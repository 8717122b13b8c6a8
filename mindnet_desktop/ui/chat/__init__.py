"""Ask the vault: the chat panel, its sources and their explanations, its turns, and the jobs
that answer (`ops.py`)."""
