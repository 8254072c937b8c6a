package walletsandbox

import (
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// stopGrace is how long a stopping sandbox has between SIGTERM and SIGKILL.
const stopGrace = 5 * time.Second

// supervisorScript runs the sandbox's command under a small sh process, the supervisor, which Go
// starts as the leader of a process group of its own; the command runs in that group. The
// supervisor's stdin is a pipe from this process, and a watcher waits for that pipe to close. It
// closes when Close is called, and also when this process ends in any way at all (a Ctrl-C, a
// panic, go test's timeout, SIGKILL), because the kernel closes its end then. The watcher then stops
// the container first if there is one, sends SIGTERM to the group, and SIGKILL after the grace
// period if the sandbox is still there. So no sandbox outlives its test binary, with no signal
// handler in the test process and no Linux-only Pdeathsig. The supervisor exits with the
// command's exit status, which a start failure reports, and leaves the output pipes to the
// command alone (its own messages, such as "Terminated" for a killed command, are not the
// sandbox's). A sandbox that ends by itself takes the watcher with it; once the watcher has begun
// to stop it (USR1), the supervisor waits for the watcher to finish, `docker stop` included.
//
// Arguments: the grace period in seconds; a container engine and a container name to stop first
// (or two empty strings); then the command.
const supervisorScript = `grace=$1 engine=$2 name=$3
shift 3
exec 3<&0 </dev/null
"$@" 3<&- &
child=$!
stopping=
trap 'stopping=1' USR1
trap : TERM
(
	trap : TERM
	exec >/dev/null 2>&1
	read -r line <&3
	kill -USR1 $$
	if [ -n "$engine" ]; then "$engine" stop "$name"; fi
	kill -TERM 0
	ticks=0
	while kill -0 "$child"; do
		if [ "$ticks" -ge "$((grace * 10))" ]; then kill -KILL 0; fi
		sleep 0.1
		ticks=$((ticks + 1))
	done
) &
watcher=$!
exec 3<&- >/dev/null 2>&1
while :; do
	wait "$child"
	status=$?
	kill -0 "$child" 2>/dev/null || break
done
if [ -z "$stopping" ]; then kill -KILL "$watcher"; fi
while kill -0 "$watcher" 2>/dev/null; do wait "$watcher"; done
exit "$status"
`

// supervised is the command that runs command under the supervisor, in a new process group.
// engine and container name the container to stop first, for a sandbox in a container.
func supervised(command []string, engine, container string) *exec.Cmd {
	args := append([]string{"-c", supervisorScript, "wallet-sandbox-supervisor",
		strconv.Itoa(int(stopGrace / time.Second)), engine, container}, command...)
	cmd := exec.Command("/bin/sh", args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}
