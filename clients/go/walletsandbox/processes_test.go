package walletsandbox_test

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// What the tests of stopping look at: whether a process, or any process of a group, still runs.
// A zombie does not count: it has exited, and waits only for whoever inherited it to reap it.

// running says whether pid is a live process.
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return false
	}
	state, ok := procState(pid)
	return !ok || state.state != 'Z'
}

// groupRunning says whether a live process is left in process group pgid.
func groupRunning(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		// No /proc (macOS): the group exists while it has a member, zombies included.
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, entry := range entries {
		pid, err := strconv.Atoi(entry.Name())
		if err != nil {
			continue
		}
		if state, ok := procState(pid); ok && state.pgrp == pgid && state.state != 'Z' {
			return true
		}
	}
	return false
}

type procStat struct {
	state byte
	pgrp  int
}

// procState reads a process's state and group from /proc/PID/stat (Linux).
func procState(pid int) (procStat, bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, false
	}
	// The fields after the command name, which is in parentheses: state ppid pgrp …
	fields := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
	if len(fields) < 3 {
		return procStat{}, false
	}
	pgrp, _ := strconv.Atoi(string(fields[2]))
	return procStat{state: fields[0][0], pgrp: pgrp}, true
}

// waitGone waits until neither the process pid nor any process of its group pgid runs: stopping
// takes the sandbox a moment (SIGTERM, then its own shutdown), but never more than the grace
// period before SIGKILL.
func waitGone(t *testing.T, what string, pid, pgid int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for running(pid) || groupRunning(pgid) {
		if time.Now().After(deadline) {
			t.Errorf("%s (pid %d, group %d) still runs", what, pid, pgid)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
