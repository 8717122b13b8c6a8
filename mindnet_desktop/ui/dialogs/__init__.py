"""The dialogs and the note preview: settings, retriever weights, detected models, your
ratings, check search quality, the vault picker; their jobs are in `ops.py`."""
