"""Under pytest-xdist: one sandbox per worker, and no account shared between tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import alive

INNER = """
import json, os, pathlib, pytest

@pytest.mark.parametrize("n", range(6))
def test_records(n, wallet_sandbox, sandbox_account):
    seen = {"worker": os.environ["PYTEST_XDIST_WORKER"], "pid": wallet_sandbox.pid, "account": sandbox_account.account_id}
    with pathlib.Path("seen.jsonl").open("a") as out:
        out.write(json.dumps(seen) + "\\n")
"""


def test_each_worker_starts_its_own_sandbox_and_every_test_has_its_own_account(pytester: pytest.Pytester, inner_ini: Path) -> None:
    pytest.importorskip("xdist", reason="pytest-xdist is not installed for this interpreter (Debian: python3-pytest-xdist)")
    pytester.makepyfile(test_inner_workers=INNER)
    pytester.runpytest_subprocess("-n", "2").assert_outcomes(passed=6)
    seen = [json.loads(line) for line in (pytester.path / "seen.jsonl").read_text().splitlines()]
    pids = {run["worker"]: {other["pid"] for other in seen if other["worker"] == run["worker"]} for run in seen}
    assert sorted(pids) == ["gw0", "gw1"]
    assert all(len(worker_pids) == 1 for worker_pids in pids.values())
    assert pids["gw0"] != pids["gw1"]
    # Two sandboxes may give the same ids (with --seed or --clock manual they do): an account is told apart by its sandbox.
    assert len({(run["pid"], run["account"]) for run in seen}) == 6
    assert not any(alive(pid) for worker_pids in pids.values() for pid in worker_pids)
