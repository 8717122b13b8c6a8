"""Search: routing a question, the hybrid search with its explanations, and what a search
reads of the notes and the graph."""
