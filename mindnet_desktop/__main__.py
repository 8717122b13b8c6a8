"""`mindnet-desktop` / `python -m mindnet_desktop`.

The window arrives with the desktop issue; until then this imports the vault (default: the
bundled example vault) and prints a summary, so the README's run command does the main job.
"""

from __future__ import annotations

import sys
from pathlib import Path

EXAMPLE_VAULT = Path(__file__).resolve().parents[1] / "resources" / "example_vault"


def main(argv: list[str] | None = None) -> int:
    import argparse
    import os

    parser = argparse.ArgumentParser(prog="mindnet-desktop")
    parser.add_argument(
        "--vault", help="vault folder (default: MINDNET_VAULT or the example vault)"
    )
    parser.add_argument("--data-dir")
    parser.add_argument("--config")
    args = parser.parse_args(argv)
    vault = args.vault or os.environ.get("MINDNET_VAULT") or str(EXAMPLE_VAULT)
    from mindnet_desktop.cli import main as cli_main

    cli_args = ["--vault", vault]
    if args.data_dir:
        cli_args += ["--data-dir", args.data_dir]
    if args.config:
        cli_args += ["--config", args.config]
    print("Mindnet Desktop: the window is not built yet; importing the vault headless.")
    return cli_main(cli_args + ["import"])


if __name__ == "__main__":
    sys.exit(main())
