package walletsandbox_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// runFake starts a fake CLI of testdata/fake-cli, which writes its pid to the file given last,
// and answers Run's error and that pid (0 if it wrote none).
func runFake(t *testing.T, ctx context.Context, fake string, opts ...walletsandbox.Option) (error, int) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pid")
	opts = append([]walletsandbox.Option{walletsandbox.WithBin("testdata/fake-cli/" + fake), walletsandbox.WithArgs(pidFile)}, opts...)
	sb, err := walletsandbox.Run(ctx, opts...)
	if err == nil {
		sb.Close()
		t.Fatalf("Run started the fake CLI %s", fake)
	}
	written, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(written)))
	return err, pid
}

// assertStopped checks that the fake CLI is no longer running.
func assertStopped(t *testing.T, pid int) {
	t.Helper()
	if pid == 0 {
		t.Error("the fake CLI wrote no pid")
	} else if running(pid) {
		t.Errorf("the fake CLI (pid %d) still runs", pid)
	}
}

func assertStartError(t *testing.T, err error, exitCode int, wants ...string) {
	t.Helper()
	var failure *walletsandbox.StartError
	if !errors.As(err, &failure) {
		t.Fatalf("got %T %v, want a *StartError", err, err)
	}
	if failure.ExitCode != exitCode {
		t.Errorf("ExitCode is %d, want %d", failure.ExitCode, exitCode)
	}
	for _, want := range wants {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
}

func TestAStartFailureNamesTheCommandItsExitCodeAndItsLastLines(t *testing.T) {
	t.Parallel()
	_, err := walletsandbox.Run(context.Background(), walletsandbox.WithArgs("--clock", "sideways"))
	assertStartError(t, err, 1,
		"bin/wallet-sandbox.js --ready-json --port 0 --clock sideways exited with code 1 before it was ready; its last lines:",
		"--clock (WALLET_SANDBOX_CLOCK)")
}

func TestASandboxOfAnotherMinorVersionIsRefusedAndStopped(t *testing.T) {
	t.Parallel()
	err, pid := runFake(t, context.Background(), "other-version")
	assertStartError(t, err, -1, "testdata/fake-cli/other-version", "started, but the sandbox is version 0.2.0 and this package is for version 0.1.x")
	assertStopped(t, pid)
}

func TestAFirstLineOtherThanTheReadyLineIsRefused(t *testing.T) {
	t.Parallel()
	err, pid := runFake(t, context.Background(), "not-ready-json")
	assertStartError(t, err, -1, `its first line is not the ready line of --ready-json: "wallet-sandbox listening on http://127.0.0.1:4400"`)
	assertStopped(t, pid)
}

func TestASilentSandboxIsStoppedAfterTheStartTimeout(t *testing.T) {
	t.Parallel()
	err, pid := runFake(t, context.Background(), "silent", walletsandbox.WithStartTimeout(200*time.Millisecond))
	assertStartError(t, err, -1, "did not write its ready line within 200ms; its last lines:\n    starting")
	assertStopped(t, pid)
}

func TestAStartEndsWithItsContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err, pid := runFake(t, ctx, "silent")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	assertStartError(t, err, -1, "was stopped while starting")
	// Ended at once, it may not have run far enough to write its pid.
	if pid != 0 && running(pid) {
		t.Errorf("the fake CLI (pid %d) still runs", pid)
	}
}

func TestWithBinNamesAFileThatDoesNotExist(t *testing.T) {
	t.Parallel()
	_, err := walletsandbox.Run(context.Background(), walletsandbox.WithBin("testdata/no-such-cli.js"))
	if err == nil || !strings.Contains(err.Error(), "WithBin names ") || !strings.Contains(err.Error(), "testdata/no-such-cli.js, which is not a file") {
		t.Errorf("got %v", err)
	}
}

func TestCloseLeavesNoProcessOfTheSandbox(t *testing.T) {
	t.Parallel()
	sb, err := walletsandbox.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pgid, err := syscall.Getpgid(sb.PID)
	if err != nil || pgid == sb.PID || pgid == syscall.Getpgrp() {
		t.Errorf("the sandbox %d runs in group %d (%v), want a group of its own", sb.PID, pgid, err)
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	if running(sb.PID) || groupRunning(pgid) {
		t.Errorf("after Close, the sandbox (pid %d, group %d) still runs", sb.PID, pgid)
	}
}

func TestAttachesToTheSandboxThatWALLET_SANDBOX_BASE_URLNames(t *testing.T) {
	t.Setenv("WALLET_SANDBOX_BASE_URL", sandbox.BaseURL)
	attached := walletsandbox.Start(t, walletsandbox.WithArgs("--clock", "ignored-when-attached"))
	if attached.PID != 0 || attached.URL != sandbox.URL || attached.StreamURL != sandbox.StreamURL || attached.Version != sandbox.Version {
		t.Errorf("attached to %+v, want the package's sandbox %+v", attached, sandbox)
	}
	attached.NewAccount(t)
	if err := attached.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := sandbox.Clock(context.Background()); err != nil {
		t.Errorf("the sandbox stopped when the helper attached to it closed: %v", err)
	}
}

func TestAttachingRefusesASandboxOfAnotherVersion(t *testing.T) {
	t.Parallel()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Wallet-Sandbox-Version", "1.0.0")
		w.Write([]byte(`{"data":{"status":"ok","version":"1.0.0","uptime_s":1}}`))
	}))
	defer other.Close()
	_, err := walletsandbox.Run(context.Background(), walletsandbox.WithURL(other.URL))
	want := "walletsandbox: attaching to the sandbox at " + other.URL + ": the sandbox is version 1.0.0 and this package is for version 0.1.x"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %q…", err, want)
	}
}

func TestAttachingToNothingSaysWhere(t *testing.T) {
	t.Parallel()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	_, err := walletsandbox.Run(context.Background(), walletsandbox.WithURL(closed.URL))
	if err == nil || !strings.Contains(err.Error(), "attaching to the sandbox at "+closed.URL+": walletsandbox: GET /_sandbox/health: ") {
		t.Errorf("got %v", err)
	}
}

func TestCloseReportsASandboxThatEndedWhileInUse(t *testing.T) {
	t.Parallel()
	sb, err := walletsandbox.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(sb.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Until the sandbox no longer answers: it has ended.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := sb.Clock(context.Background()); err != nil {
			break
		}
	}
	// "while it was in use", or "when it was stopped" if Close came before its end was noticed.
	assertStartError(t, sb.Close(), 137, "bin/wallet-sandbox.js --ready-json --port 0 was ended by signal 9 (killed) w")
}
