"""@pytest.mark.wallet_sandbox(...): a sandbox of its own, with those flags, for a marked test, class or module."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import CLI, alive, run_pytest

CONFTEST = """
import json, pathlib, pytest

@pytest.fixture(scope="session")
def app_url(wallet_sandbox):
    # Stands for an application configured once for the session's sandbox.
    return wallet_sandbox.url

@pytest.fixture
def record(request, wallet_sandbox, app_url):
    command = wallet_sandbox.process.command if wallet_sandbox.process else None
    seen = {"test": request.node.name, "pid": wallet_sandbox.pid, "flags": command and command[command.index("--port") + 2:],
            "app_url_is_its_url": app_url == wallet_sandbox.url}
    with pathlib.Path("seen.jsonl").open("a") as out:
        out.write(json.dumps(seen) + "\\n")
"""

MARKED_MODULE = """
import pytest

pytestmark = pytest.mark.wallet_sandbox(settle="manual")
RECIPIENT = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

def test_one(record, sandbox_account):
    wallet = sandbox_account.wallet("USDC", "polygon")
    payment = sandbox_account.post("/payments", {"source_wallet": wallet["id"], "amount": "1.00", "currency": "USDC", "recipient": RECIPIENT})
    sandbox_account.advance_clock(seconds=5)
    assert sandbox_account.get(f"/payments/{payment['id']}")["status"] == "pending"  # --settle manual

def test_two(record):
    pass
"""

SOME_MARKED = """
import pytest

def test_unmarked(record):
    pass

@pytest.mark.wallet_sandbox(clock="manual")
def test_marked(record, wallet_sandbox):
    assert wallet_sandbox.clock()["mode"] == "manual"

@pytest.mark.wallet_sandbox("--seed", "mine")
def test_marked_too(record):
    pass
"""


def seen(pytester: pytest.Pytester) -> dict[str, dict]:
    return {run["test"]: run for run in map(json.loads, (pytester.path / "seen.jsonl").read_text().splitlines())}


def test_a_marked_module_or_test_gets_a_sandbox_of_its_own_with_its_flags(pytester: pytest.Pytester, inner_ini: Path) -> None:
    pytester.makeini(f"[pytest]\nwallet_sandbox_bin = {CLI}\nwallet_sandbox_args = --clock manual\n")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_inner_marked=MARKED_MODULE, test_inner_some=SOME_MARKED)
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines_random([
        "*test_inner_marked.py::test_one?settle=manual? PASSED*",
        "*test_inner_some.py::test_marked?clock=manual? PASSED*",
        "*test_inner_some.py::test_marked_too?--seed,mine? PASSED*",
        "*test_inner_some.py::test_unmarked PASSED*",
    ])
    runs = seen(pytester)
    # The marked module's tests share its sandbox; each marked test has its own; the others, the session's.
    assert runs["test_one[settle=manual]"]["pid"] == runs["test_two[settle=manual]"]["pid"]
    pids = {runs[name]["pid"] for name in ("test_one[settle=manual]", "test_unmarked", "test_marked[clock=manual]", "test_marked_too[--seed,mine]")}
    assert len(pids) == 4
    # The suite's flags, then the marker's.
    assert runs["test_one[settle=manual]"]["flags"] == ["--clock", "manual", "--settle", "manual"]
    assert runs["test_marked[clock=manual]"]["flags"] == ["--clock", "manual", "--clock", "manual"]
    assert runs["test_marked_too[--seed,mine]"]["flags"] == ["--clock", "manual", "--seed", "mine"]
    assert runs["test_unmarked"]["flags"] == ["--clock", "manual"]
    # Fixtures built on wallet_sandbox, session-scoped ones too, are built again on a marked test's own.
    assert all(run["app_url_is_its_url"] for run in runs.values())
    assert not any(alive(pid) for pid in pids)


def test_under_exec_a_marked_test_starts_its_own_and_the_others_attach(pytester: pytest.Pytester, inner_ini: Path) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_inner_some=SOME_MARKED)
    done = run_pytest(cwd=pytester.path, exec_flags=["--clock", "manual"])
    assert done.returncode == 0, done.stdout + done.stderr
    runs = seen(pytester)
    assert runs["test_unmarked"]["pid"] is None  # exec's sandbox
    assert isinstance(runs["test_marked[clock=manual]"]["pid"], int)
    assert isinstance(runs["test_marked_too[--seed,mine]"]["pid"], int)
