"""
A stand-in for a container engine (no Docker engine runs on the machines this suite runs on): it
answers ``run``, ``port`` and ``stop`` as docker does for the sandbox's image, by running this
checkout's CLI itself. ``run`` prints the ready line as the container writes it (port 4400 inside);
the host port is only known through ``port``. Every call is logged to $STUB_STATE/calls.log
under the engine's name ($STUB_ENGINE).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

STATE = Path(os.environ["STUB_STATE"])
CLI = os.environ["STUB_CLI"]


def run(args: list[str]) -> int:
    # run --rm --name NAME -p 127.0.0.1::4400 IMAGE [flags…]
    assert args[:2] == ["--rm", "--name"] and args[3:5] == ["-p", "127.0.0.1::4400"], args
    name, flags = args[2], args[6:]
    sandbox = subprocess.Popen(["node", CLI, "--port", "0", *flags], stdout=subprocess.PIPE, text=True)
    for number in (signal.SIGTERM, signal.SIGINT):  # docker run's --sig-proxy
        signal.signal(number, lambda n, _: sandbox.send_signal(n))
    assert sandbox.stdout is not None
    first = sandbox.stdout.readline()
    if first:
        ready = json.loads(first)
        (STATE / f"{name}.port").write_text(str(ready["port"]))
        (STATE / f"{name}.pid").write_text(str(sandbox.pid))
        inside = "http://0.0.0.0:4400"
        ready.update(port=4400, pid=1, base_url=inside, url=f"{inside}/v1", stream_url="ws://0.0.0.0:4400/v1/stream")
        print(json.dumps(ready), flush=True)
    for line in sandbox.stdout:
        print(line, end="", flush=True)
    return sandbox.wait()


def stop(name: str) -> int:
    pid = int((STATE / f"{name}.pid").read_text())
    try:
        ended = os.pidfd_open(pid)
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    else:
        select.select([ended], [], [], 30)  # docker stop, too, returns once the container has ended
    print(name)
    return 0


def main(argv: list[str]) -> int:
    with (STATE / "calls.log").open("a") as log:
        log.write(" ".join([os.environ["STUB_ENGINE"], *argv]) + "\n")
    if argv[0] == "run":
        return run(argv[1:])
    if argv[0] == "port":
        print(f"127.0.0.1:{(STATE / f'{argv[1]}.port').read_text()}")
        return 0
    if argv[0] == "stop":
        return stop(argv[1])
    print(f"engine stub: no command {argv[0]}", file=sys.stderr)
    return 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
