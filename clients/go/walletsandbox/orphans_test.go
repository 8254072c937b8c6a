package walletsandbox_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// holdEnv makes TestHoldSandboxesUntilKilled hold sandboxes: "cli", or an image to run.
const holdEnv = "WALLET_SANDBOX_GO_TEST_HOLD"

// TestHoldSandboxesUntilKilled is a helper, not a test of its own: TestAnInterruptedTestBinary…
// runs the test binary again with this test alone, and kills it while it holds two sandboxes, the
// package's (TestMain) and one of its own (Start). It prints their pids, then waits.
func TestHoldSandboxesUntilKilled(t *testing.T) {
	hold := os.Getenv(holdEnv)
	if hold == "" {
		t.Skip("a helper that TestAnInterruptedTestBinaryLeavesNoSandbox runs in a test binary of its own")
	}
	var opts []walletsandbox.Option
	if hold != "cli" {
		opts = append(opts, walletsandbox.WithImage(hold))
	}
	own := walletsandbox.Start(t, opts...)
	fmt.Println(sandbox.PID, own.PID)
	// Until the test that runs this binary ends, if nothing kills it first.
	io.Copy(io.Discard, os.Stdin)
}

// holdSandboxes runs TestHoldSandboxesUntilKilled in a test binary of its own, in a process group
// of its own as a shell runs a command, and answers it and the pids of its two sandboxes.
func holdSandboxes(t *testing.T, hold string, env ...string) (*exec.Cmd, [2]int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldSandboxesUntilKilled$")
	cmd.Env = append(append(os.Environ(), "WALLET_SANDBOX_BASE_URL=", holdEnv+"="+hold), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close() })
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	var pids [2]int
	if _, scanErr := fmt.Sscan(line, &pids[0], &pids[1]); err != nil || scanErr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the test binary held no sandboxes (%q, %v):\n%s", line, err, stderr.String())
	}
	return cmd, pids
}

// groupOf is the process group of pid, which must be running.
func groupOf(t *testing.T, pid int) int {
	t.Helper()
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		t.Fatalf("the sandbox %d does not run: %v", pid, err)
	}
	return pgid
}

func TestAnInterruptedTestBinaryLeavesNoSandbox(t *testing.T) {
	t.Parallel()
	// A Ctrl-C in a terminal sends SIGINT to the foreground job's process group; kill -9 sends
	// SIGKILL, which nothing in the test binary can catch.
	for _, signal := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		signal := signal
		t.Run(signal.String(), func(t *testing.T) {
			t.Parallel()
			cmd, pids := holdSandboxes(t, "cli")
			groups := [2]int{groupOf(t, pids[0]), groupOf(t, pids[1])}
			if err := syscall.Kill(-cmd.Process.Pid, signal); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "signal") {
				t.Errorf("the test binary ended with %v, want the signal", err)
			}
			waitGone(t, "the package's sandbox", pids[0], groups[0])
			waitGone(t, "the test's sandbox", pids[1], groups[1])
		})
	}
}

func TestAKilledTestBinaryStopsItsContainer(t *testing.T) {
	t.Parallel()
	engine, state := fakeEngine(t)
	cmd, pids := holdSandboxes(t, "wallet-sandbox:test", engine...)
	group := groupOf(t, pids[0])
	// The container's CLI: the fake engine wrote its pid (one container, one pid file).
	pidFiles, _ := filepath.Glob(filepath.Join(state, "*.pid"))
	if len(pidFiles) != 1 {
		t.Fatalf("the fake engine ran %d containers, want 1", len(pidFiles))
	}
	written, _ := os.ReadFile(pidFiles[0])
	container, _ := strconv.Atoi(strings.TrimSpace(string(written)))
	containerGroup := groupOf(t, container)

	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	waitGone(t, "the package's sandbox", pids[0], group)
	waitGone(t, "the container", container, containerGroup)
	if _, err := os.Stat(strings.TrimSuffix(pidFiles[0], ".pid") + ".stopped"); err != nil {
		t.Errorf("the container was not stopped with `docker stop`: %v", err)
	}
}

// The supervisor is what stops the sandbox; killed on its own, its watcher, which holds the pipe
// from the test binary, still stops the sandbox when the test binary ends.
func TestASandboxWhoseSupervisorWasKilledEndsWithTheTestBinary(t *testing.T) {
	t.Parallel()
	cmd, pids := holdSandboxes(t, "cli")
	groups := [2]int{groupOf(t, pids[0]), groupOf(t, pids[1])}
	supervisor := groups[1] // the leader of the sandbox's group
	if err := syscall.Kill(supervisor, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); running(supervisor); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the supervisor (pid %d) survived SIGKILL", supervisor)
		}
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	waitGone(t, "the package's sandbox", pids[0], groups[0])
	waitGone(t, "the test's sandbox, whose supervisor was killed first", pids[1], groups[1])
}
