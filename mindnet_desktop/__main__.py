"""`mindnet-desktop` / `python -m mindnet_desktop`: opens the desktop window."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from mindnet_desktop.ui.app import main as app_main

    return app_main(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
