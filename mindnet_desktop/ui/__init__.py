"""The PySide6 widgets (the only place Qt is imported). They adapt core services."""
