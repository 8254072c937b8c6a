"""The sandbox's image, run by a container engine (``docker`` unless WALLET_SANDBOX_CONTAINER_ENGINE says)."""

from __future__ import annotations

import os
import secrets
import subprocess
from typing import Mapping, Sequence

from .errors import SandboxVersionError, check_version
from .launch import SandboxProcess
from .sandbox import Sandbox, from_ready_line

#: The port the image listens on inside the container.
CONTAINER_PORT = 4400


def container_engine(env: Mapping[str, str] = os.environ) -> str:
    return env.get("WALLET_SANDBOX_CONTAINER_ENGINE") or "docker"


def start_container(image: str, args: Sequence[str] = (), *, timeout: float = 60.0, engine: str | None = None) -> Sandbox:
    """
    ``<engine> run --rm --name wallet-sandbox-<random> -p 127.0.0.1::4400 IMAGE --ready-json args…``
    under the supervisor, which runs ``<engine> stop <name>`` when the test process goes; the host
    port is what ``<engine> port <name> 4400/tcp`` says (the ready line gives the container's).
    """
    __tracebackhide__ = True
    engine = engine or container_engine()
    name = f"wallet-sandbox-{secrets.token_hex(6)}"
    command = [engine, "run", "--rm", "--name", name, "-p", f"127.0.0.1::{CONTAINER_PORT}", image, "--ready-json", *args]
    process = SandboxProcess(command, stop_command=[engine, "stop", name])
    ready = process.wait_ready(timeout)
    try:
        check_version(ready.get("version"), f"The image {image}")
        port = published_port(engine, name)
    except (SandboxVersionError, RuntimeError):
        process.stop()
        raise
    return from_ready_line(ready, f"http://127.0.0.1:{port}", process, pid=None)


def published_port(engine: str, name: str) -> int:
    """The host's end of the container's port, from ``<engine> port`` (``127.0.0.1:49153``)."""
    asked = [engine, "port", name, f"{CONTAINER_PORT}/tcp"]
    done = subprocess.run(asked, capture_output=True, text=True, timeout=30)
    first = done.stdout.strip().splitlines()[:1]
    if done.returncode != 0 or not first or not first[0].rsplit(":", 1)[-1].isdigit():
        raise RuntimeError(f"`{' '.join(asked)}` exited with code {done.returncode} and said {(done.stdout + done.stderr).strip()!r}: no host port for the sandbox.")
    return int(first[0].rsplit(":", 1)[1])
