"""Starting and attaching: the version check, and one clear message when a sandbox does not start."""

from __future__ import annotations

import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Iterator

import pytest

from support import CLI, alive
from wallet_sandbox import Sandbox, SandboxStartError, SandboxVersionError, attach_sandbox, start_sandbox

def fake_cli(tmp_path: Path, body: str) -> list[str]:
    """A stand-in for the CLI: a Python script that writes its pid to ``pid``, then does ``body``."""
    script = tmp_path / "fake_cli.py"
    script.write_text(f"import json, os, pathlib, time\npathlib.Path({str(tmp_path / 'pid')!r}).write_text(str(os.getpid()))\n{body}\n")
    return [sys.executable, str(script)]


def fake_pid(tmp_path: Path) -> int:
    return int((tmp_path / "pid").read_text())


def test_a_sandbox_that_exits_says_the_command_its_exit_code_and_its_last_lines(pytester: pytest.Pytester, inner_ini: Path) -> None:
    pytester.makepyfile(test_inner_start="def test_start(wallet_sandbox): pass\n")
    result = pytester.runpytest("-o", "wallet_sandbox_args=--clock sometimes")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([
        f"E *SandboxStartError: wallet-sandbox did not start: `* {CLI} --ready-json --port 0 --clock sometimes` exited with code 1 before it was ready. Its output:",
        "E * stderr: wallet-sandbox: Invalid configuration:",
        'E * stderr:   --clock (WALLET_SANDBOX_CLOCK): Invalid option: expected one of "real"|"manual"',
    ])


def test_a_command_that_does_not_exist_is_exit_code_127_with_the_reason() -> None:
    with pytest.raises(SandboxStartError) as failed:
        start_sandbox(["/no/such/wallet-sandbox"])
    assert failed.value.returncode == 127
    assert str(failed.value) == (
        "wallet-sandbox did not start: `/no/such/wallet-sandbox --ready-json --port 0` exited with code 127 before it was ready. "
        "Its output:\n  stderr: cannot run /no/such/wallet-sandbox: No such file or directory"
    )


def test_a_sandbox_without_a_ready_line_is_stopped_after_the_start_timeout(tmp_path: Path) -> None:
    command = fake_cli(tmp_path, "print('starting…', flush=True)\ntime.sleep(600)")
    with pytest.raises(SandboxStartError) as failed:
        # Long enough for two Python processes to start on a busy machine, and print.
        start_sandbox(command, timeout=3)
    message = str(failed.value)
    assert "wrote no ready line within 3 s (--wallet-sandbox-start-timeout); stopped then, it exited with code 143. Its output:" in message
    assert "\n  starting…" in message
    assert not alive(fake_pid(tmp_path))


def test_a_sandbox_of_another_version_is_refused_and_stopped(tmp_path: Path) -> None:
    ready = {"ready": True, "url": "http://127.0.0.1:9/v1", "base_url": "http://127.0.0.1:9", "api_key": "sk_test_x", "control_token": None, "version": "0.2.0"}
    command = fake_cli(tmp_path, f"print(json.dumps({ready!r}), flush=True)\ntime.sleep(600)")
    with pytest.raises(SandboxVersionError) as refused:
        start_sandbox(command, timeout=30)
    assert str(refused.value) == (
        f"`{' '.join(command)} --ready-json --port 0` is wallet-sandbox 0.2.0, but this plugin speaks to 0.1.x: "
        "use wallet-sandbox 0.1, or the plugin that comes with wallet-sandbox 0.2.0 (clients/python in its checkout)."
    )
    assert not alive(fake_pid(tmp_path))


@pytest.fixture
def sandbox_of_version() -> Iterator[str]:
    """A server that answers the health route as wallet-sandbox 0.2.0 would."""

    class Health(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Wallet-Sandbox-Version", "0.2.0")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *_: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_attaching_checks_the_version_the_sandbox_answers_with(sandbox_of_version: str) -> None:
    with pytest.raises(SandboxVersionError, match=r"^The sandbox at http://127\.0\.0\.1:\d+ \(WALLET_SANDBOX_BASE_URL\) is wallet-sandbox 0\.2\.0, but this plugin speaks to 0\.1\.x"):
        attach_sandbox(sandbox_of_version)


def test_attaching_to_nothing_says_so(sandbox_of_version: str) -> None:
    with pytest.raises(SandboxStartError, match=r"^The sandbox at http://127\.0\.0\.1:1 \(WALLET_SANDBOX_BASE_URL\) does not answer: .*refused"):
        attach_sandbox("http://127.0.0.1:1")


def test_a_sandbox_that_dies_during_the_session_is_named_with_its_exit_code_by_the_next_account(pytester: pytest.Pytester, inner_ini: Path) -> None:
    pytester.makepyfile(
        test_inner_dies="""
import os, select, signal

def test_kills_the_sandbox(wallet_sandbox):
    os.kill(wallet_sandbox.pid, signal.SIGKILL)
    # Until the supervisor, too, has ended.
    select.select([os.pidfd_open(wallet_sandbox.process.pgid)], [], [], 30)

def test_then_asks_for_an_account(sandbox_account):
    pass
"""
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([f"E *SandboxProcessError: wallet-sandbox stopped during the session: `* {CLI} --ready-json --port 0` exited with code 137. Its output:"])


def test_a_refused_flag_is_shown_although_help_follows_it() -> None:
    # The CLI names a mistyped flag first, then may print its whole --help: the first lines say why.
    with pytest.raises(SandboxStartError) as failed:
        start_sandbox(["node", str(CLI)], ["--clok", "manual"])
    lines = str(failed.value).splitlines()
    assert lines[1] == "  stderr: error: unknown option '--clok'"


def test_a_long_output_shows_its_first_and_last_lines(tmp_path: Path) -> None:
    command = fake_cli(tmp_path, "import sys\nprint('refused: --clok')\nfor n in range(1, 200): print(f'line {n}')\nsys.exit(1)")
    with pytest.raises(SandboxStartError) as failed:
        start_sandbox(command)
    headline, *shown = str(failed.value).splitlines()
    assert headline.endswith("exited with code 1 before it was ready. The first 10 and the last 50 of its 200 lines:")
    assert shown[:10] == ["  refused: --clok", *(f"  line {n}" for n in range(1, 10))]
    assert shown[10] == "  … 140 lines left out …"
    assert shown[11:] == [f"  line {n}" for n in range(150, 200)]


def test_start_sandbox_finds_the_cli_itself_and_stops_it_as_a_context_manager(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_env: None) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WALLET_SANDBOX_BIN", str(CLI))
    with start_sandbox(clock="manual", seed="from-keywords") as sandbox:
        assert sandbox.process is not None and sandbox.process.command[-4:] == ["--clock", "manual", "--seed", "from-keywords"]
        assert sandbox.clock()["mode"] == "manual"
        pid = sandbox.pid
    assert pid is not None and not alive(pid)


def test_attaching_to_an_address_with_v1_says_to_drop_it(wallet_sandbox: Sandbox) -> None:
    with pytest.raises(SandboxStartError) as refused:
        attach_sandbox(f"{wallet_sandbox.base_url}/v1/")
    assert str(refused.value) == (
        f"The sandbox at {wallet_sandbox.base_url}/v1/ (WALLET_SANDBOX_BASE_URL) ends in /v1, but WALLET_SANDBOX_BASE_URL is the address "
        f"without it: drop the /v1 ({wallet_sandbox.base_url}). WALLET_SANDBOX_URL is the one with /v1, for an API client."
    )
