"""The PySide6 widgets (the only place Qt is imported). They adapt core services."""

from mindnet_desktop.ui.support.import_hook import quiet_feature_hook

quiet_feature_hook()  # before any other import: PySide6's check must not import (see there)
