"""Which command starts the sandbox: the configured one, a project's npm install, PATH, or npx."""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path
from typing import Iterable

from .errors import SandboxStartError

NPM_BIN = Path("node_modules", ".bin", "wallet-sandbox")
SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs")


def find_cli(configured: str | None, relative_to: Path, search_from: Iterable[Path]) -> tuple[list[str], str]:
    """
    The command, and where it came from (for the report header): ``configured`` (a path, relative
    to ``relative_to``, or a command line; a ``.js`` file runs with node), else
    ``node_modules/.bin/wallet-sandbox`` in ``search_from`` or a folder above, else
    ``wallet-sandbox`` on PATH, else ``npx --no-install wallet-sandbox``.
    """
    if configured:
        return configured_command(configured, relative_to), "wallet_sandbox_bin"
    for start in search_from:
        for folder in (start, *start.parents):
            if (folder / NPM_BIN).is_file():
                return [str(folder / NPM_BIN)], f"npm install in {folder}"
    on_path = shutil.which("wallet-sandbox")
    if on_path:
        return [on_path], "PATH"
    if shutil.which("npx"):
        return ["npx", "--no-install", "wallet-sandbox"], "npx"
    raise SandboxStartError(
        "No wallet-sandbox to start: no node_modules/.bin/wallet-sandbox in the rootdir or above it, none on PATH, "
        "and no npx. Install it (npm install --save-dev wallet-sandbox), or give --wallet-sandbox-bin "
        "(ini wallet_sandbox_bin), or set WALLET_SANDBOX_BASE_URL to a running one.",
        command=[],
        returncode=None,
        output=[],
    )


def configured_command(configured: str, relative_to: Path) -> list[str]:
    words = shlex.split(configured)
    first = Path(words[0]).expanduser()
    if len(words) == 1 and ("/" in words[0] or first.suffix in SCRIPT_SUFFIXES):
        # Absolute, but a symlink stays one (node_modules/.bin/wallet-sandbox runs as it is).
        words[0] = os.path.abspath(first if first.is_absolute() else relative_to / first)
    if Path(words[0]).suffix in SCRIPT_SUFFIXES:
        return [shutil.which("node") or "node", *words]
    return words
