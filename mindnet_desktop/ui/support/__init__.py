"""What the features share: the one worker mechanism (`workers.py`), translations, the app
settings, layouts, the status line, the names of score terms and Obsidian links."""
