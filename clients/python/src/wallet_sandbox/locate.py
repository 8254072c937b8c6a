"""Which command starts the sandbox: the configured one, a project's npm install, PATH, or npx."""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .errors import SandboxStartError

NPM_BIN = Path("node_modules", ".bin", "wallet-sandbox")
SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs")
#: What to do when no CLI is found, in every message that says so.
HOW_TO_NAME_THE_CLI = (
    "Name the CLI with --wallet-sandbox-bin PATH (ini wallet_sandbox_bin) or WALLET_SANDBOX_BIN=PATH: "
    "node_modules/.bin/wallet-sandbox of an npm install, or bin/wallet-sandbox.js of a checkout after "
    "`npm ci && npm run build`; or set WALLET_SANDBOX_BASE_URL to a sandbox already running."
)


@dataclass(frozen=True)
class Cli:
    """The command that starts the sandbox, and what found it (the report header says)."""

    command: list[str]
    found_by: str

    @property
    def guessed(self) -> bool:
        """Nothing named or installed was found: ``npx --no-install`` is tried, which fails unless npx has the package cached."""
        return self.found_by == "npx"

    def describe(self) -> str:
        if self.guessed:
            return f"{' '.join(self.command)} (found by npx: no CLI in node_modules/.bin of the rootdir or above it, none on PATH)"
        return f"{' '.join(self.command)} (found by {self.found_by})"


def find_cli(configured: str | None, relative_to: Path, search_from: Iterable[Path], *, cwd: Path | None = None) -> Cli:
    """
    ``configured`` (a path, relative to ``relative_to``, or a command line; a ``.js`` file runs
    with node), else ``WALLET_SANDBOX_BIN`` (relative to ``cwd``; the variable every helper reads,
    one setting for a CI that runs them all), else ``node_modules/.bin/wallet-sandbox`` in
    ``search_from`` or a folder above, else ``wallet-sandbox`` on PATH, else ``npx --no-install
    wallet-sandbox``.
    """
    if configured:
        return Cli(configured_command(configured, relative_to), "wallet_sandbox_bin")
    from_env = os.environ.get("WALLET_SANDBOX_BIN")
    if from_env:
        return Cli(configured_command(from_env, cwd or Path.cwd()), "WALLET_SANDBOX_BIN")
    for start in search_from:
        for folder in (start, *start.parents):
            if (folder / NPM_BIN).is_file():
                return Cli([str(folder / NPM_BIN)], f"npm install in {folder}")
    on_path = shutil.which("wallet-sandbox")
    if on_path:
        return Cli([on_path], "PATH")
    if shutil.which("npx"):
        return Cli(["npx", "--no-install", "wallet-sandbox"], "npx")
    raise SandboxStartError(
        f"No wallet-sandbox to start: no node_modules/.bin/wallet-sandbox in the rootdir or above it, none on PATH, and no npx. {HOW_TO_NAME_THE_CLI}",
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
