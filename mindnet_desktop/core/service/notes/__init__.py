"""One note at a time: finding it, its text for reading, its related notes, and the edges a
user creates, deletes and restores."""
