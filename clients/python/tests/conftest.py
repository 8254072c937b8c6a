"""
The suite runs against this checkout's CLI (``wallet_sandbox_bin`` in pyproject.toml; ``npm run
build`` first). Runs of pytest inside a test (pytester) get the same CLI through ``inner_ini``, and
none of the WALLET_SANDBOX_* variables of the shell the suite runs in.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support import CLI


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("WALLET_SANDBOX_"):
            monkeypatch.delenv(name)


@pytest.fixture
def inner_ini(pytester: pytest.Pytester, clean_env: None) -> Path:
    """A pytest.ini for the inner run that points the plugin at this checkout's CLI."""
    return pytester.makeini(f"[pytest]\nwallet_sandbox_bin = {CLI}\n")
