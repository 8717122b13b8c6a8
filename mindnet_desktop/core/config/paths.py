"""Where things live: vault, data dir (per vault, under the platform's user data dir)."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

APP_NAME = "mindnet-desktop"


def resolve_vault(explicit: str | Path | None) -> Path | None:
    """`--vault` beats `MINDNET_VAULT`; None when neither is given."""
    value = explicit or os.environ.get("MINDNET_VAULT")
    return Path(value).expanduser().resolve() if value else None


def default_data_dir(vault: Path) -> Path:
    """A per-vault folder under the user data dir (`<name>-<hash of the vault path>`)."""
    from platformdirs import user_data_dir

    vault = vault.expanduser().resolve()
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", vault.name).strip("-") or "vault"
    digest = hashlib.sha1(str(vault).encode("utf-8")).hexdigest()[:10]
    return Path(user_data_dir(APP_NAME, appauthor=False)) / "vaults" / f"{slug}-{digest}"


def resolve_data_dir(explicit: str | Path | None, vault: Path) -> Path:
    """`--data-dir` beats `MINDNET_DATA_DIR` beats the per-vault default."""
    value = explicit or os.environ.get("MINDNET_DATA_DIR")
    return Path(value).expanduser().resolve() if value else default_data_dir(vault)
