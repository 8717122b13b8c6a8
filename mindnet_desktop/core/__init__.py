"""The headless core: parsing, chunking, edges, store, graph, import, watcher. Imports no Qt."""
