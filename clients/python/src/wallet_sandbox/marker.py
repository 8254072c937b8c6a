"""
``@pytest.mark.wallet_sandbox(settle="manual")``: a sandbox of its own for the marked test, class
or module. The marked tests get ``wallet_sandbox`` as a parameter (indirect, session-scoped), one
value per marked node, so ``wallet_sandbox``, ``sandbox_account`` and every fixture built on them
are the node's own sandbox's, and pytest starts and stops it as it does any parametrized fixture.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from .sandbox import settings_flags

MARKER = "wallet_sandbox"
DESCRIPTION = (
    f"{MARKER}(*flags, **settings): a sandbox of its own for the marked test, class or module, started with "
    "the suite's wallet_sandbox_args and these (settle='manual' adds --settle manual), even under exec"
)
_INTERNED = pytest.StashKey[dict]()


@dataclass(frozen=True)
class OwnSandbox:
    """The sandbox of the tests under one marked node; ``label`` is their parameter id."""

    node_id: str
    flags: tuple[str, ...]
    label: str


def own_sandbox(definition: pytest.Item, config: pytest.Config) -> OwnSandbox | None:
    """The sandbox that the closest ``wallet_sandbox`` marker gives this test, if one does."""
    for node, mark in definition.iter_markers_with_node(MARKER):
        flags = (*(str(arg) for arg in mark.args), *settings_flags(mark.kwargs))
        label = ",".join([*(str(arg) for arg in mark.args), *(f"{name}={value}" for name, value in mark.kwargs.items())]) or MARKER
        wanted = OwnSandbox(node.nodeid, flags, label)
        # The same object for every test of the node: older pytest keeps a parametrized fixture
        # only while the parameter is the very same object.
        return config.stash.setdefault(_INTERNED, {}).setdefault(wanted, wanted)
    return None


def parametrize(metafunc: pytest.Metafunc) -> None:
    """Gives a marked test that uses the sandbox its node's own (``pytest_generate_tests``)."""
    if "wallet_sandbox" not in metafunc.fixturenames:
        return
    own = own_sandbox(metafunc.definition, metafunc.config)
    if own is not None:
        metafunc.parametrize("wallet_sandbox", [own], indirect=True, ids=[own.label])
