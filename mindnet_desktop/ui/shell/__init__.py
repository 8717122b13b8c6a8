"""The window around the features: main window, menus, status bar, where it opens; it
composes chat, graph, index and dialogs and wires them to one another."""
