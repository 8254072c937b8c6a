# frozen_string_literal: true

module WalletSandbox
  # The sandbox runs under a few lines of `sh`, the leader of a process group of its own, whose stdin
  # is a pipe that only this Ruby process writes to. When that pipe closes, because #stop closed it
  # or because this process ended in any way at all (an exception, exit!, SIGKILL, a crash), the
  # supervisor stops the container if there is one, sends SIGTERM to its group (the sandbox flushes
  # and exits 0), and SIGKILL five seconds later if the sandbox is still there. So no sandbox
  # outlives the test process, even one that runs no Ruby on its way out.
  #
  # The supervisor ignores SIGTERM once the sandbox is started (which keeps the default), so that it
  # outlives the sandbox and reaps it, and exits with its exit code once the pipe has closed. It keeps
  # neither stdout nor stderr open: the pipes end exactly when the sandbox does.
  module Supervisor
    SCRIPT = <<~'SH'
      engine=$1 container=$2
      shift 2
      exec 3<&0
      "$@" 3<&- &
      sandbox=$!
      trap '' TERM
      exec >/dev/null 2>&1
      (
        cat <&3
        [ -z "$engine" ] || "$engine" stop "$container"
        kill -TERM 0
        n=0
        while [ "$n" -lt 50 ] && kill -0 "$sandbox"; do sleep 0.1; n=$((n + 1)); done
        if kill -0 "$sandbox"; then kill -KILL 0; fi
      ) &
      watchdog=$!
      exec 3<&-
      wait "$sandbox"
      status=$?
      wait "$watchdog"
      exit "$status"
    SH

    # The words that run `command` supervised; `container` (engine, name) when it is `<engine> run`.
    def self.argv(command, engine: nil, container: nil)
      ["sh", "-c", SCRIPT, "wallet-sandbox-supervisor", engine.to_s, container.to_s, *command]
    end
  end
end
