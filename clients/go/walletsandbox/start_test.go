package walletsandbox_test

import (
	"context"
	"errors"
	"io"
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

func TestAStartFailureNamesTheCommandItsExitCodeAndItsOutput(t *testing.T) {
	t.Parallel()
	_, err := walletsandbox.Run(context.Background(), walletsandbox.WithOwnSandbox(), walletsandbox.WithArgs("--clock", "sideways"))
	assertStartError(t, err, 1,
		"bin/wallet-sandbox.js --ready-json --port 0 --clock sideways exited with code 1 before it was ready; its output:",
		"--clock (WALLET_SANDBOX_CLOCK)")
}

// A mistyped flag's error comes first, before whatever the CLI writes after it (its whole --help,
// once): the start error shows the first lines as well as the last.
func TestAMistypedFlagsErrorIsInTheStartError(t *testing.T) {
	t.Parallel()
	_, err := walletsandbox.Run(context.Background(), walletsandbox.WithOwnSandbox(), walletsandbox.WithArgs("--clok", "manual"))
	assertStartError(t, err, 1, "--clok manual exited with code 1 before it was ready; its ", "\n    error: unknown option '--clok'")
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
	assertStartError(t, err, -1, "did not write its ready line within 200ms; its output:\n    starting")
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
	var told notes
	attached := walletsandbox.Start(t, walletsandbox.WithArgs("--settle", "auto"), walletsandbox.WithBin("wallet-sandbox"), walletsandbox.WithLogger(&told))
	if attached.PID != 0 || attached.URL != sandbox.URL || attached.StreamURL != sandbox.StreamURL || attached.Version != sandbox.Version {
		t.Errorf("attached to %+v, want the package's sandbox %+v", attached, sandbox)
	}
	want := "walletsandbox: attached to the sandbox at " + sandbox.BaseURL + " that WALLET_SANDBOX_BASE_URL names, which keeps the settings it was started with: " +
		"WithArgs(--settle auto) and WithBin(wallet-sandbox) not applied; start that sandbox with them (wallet-sandbox exec --settle auto -- go test ./...), " +
		"or give WithOwnSandbox() to start a sandbox of this process's own with them."
	if said := told.said(); len(said) != 1 || said[0] != want {
		t.Errorf("attaching said %q, want %q", said, want)
	}
	attached.NewAccount(t)
	if _, err := attached.Logs(context.Background()); err == nil || !strings.Contains(err.Error(), "was started by another process") {
		t.Errorf("Logs of an attached sandbox answered %v", err)
	}
	if err := attached.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := sandbox.Clock(context.Background()); err != nil {
		t.Errorf("the sandbox stopped when the helper attached to it closed: %v", err)
	}
}

// showLogsIfFailed writes the output of a sandbox the test started to the test's log, if the test
// fails.
func showLogsIfFailed(t *testing.T, sb *walletsandbox.Sandbox) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		logs, err := sb.Logs(context.Background())
		if err != nil {
			t.Log(err)
			return
		}
		defer logs.Close()
		written, _ := io.ReadAll(logs)
		t.Logf("the sandbox wrote:\n%s", written)
	})
}

func TestWithOwnSandboxStartsOneBesideTheVariablesAndLogsShowsItsOutput(t *testing.T) {
	t.Setenv("WALLET_SANDBOX_BASE_URL", sandbox.BaseURL)
	var told notes
	own := walletsandbox.Start(t, walletsandbox.WithOwnSandbox(), walletsandbox.WithArgs("--settle", "manual"), walletsandbox.WithLogger(&told))
	showLogsIfFailed(t, own)
	if own.PID == 0 || own.BaseURL == sandbox.BaseURL || len(told.said()) != 0 {
		t.Fatalf("WithOwnSandbox gave the sandbox %s (pid %d) and said %q, want one of its own", own.BaseURL, own.PID, told.said())
	}
	own.NewAccount(t)
	// Its GET /v1/wallets, logged as the answer goes out: in the output a moment later.
	var written []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		logs, err := own.Logs(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		written, _ = io.ReadAll(logs)
		logs.Close()
		if strings.Contains(string(written), `"path":"/v1/wallets","status":200`) {
			break
		}
	}
	if !strings.HasPrefix(string(written), `{"ready":true,`) || !strings.Contains(string(written), `"path":"/v1/wallets","status":200`) {
		t.Errorf("Logs shows no ready line first or no GET /v1/wallets:\n%s", written)
	}
}

func TestAttachingGivenTheAPIsURLSaysToDropV1(t *testing.T) {
	_, err := walletsandbox.Run(context.Background(), walletsandbox.WithURL(sandbox.URL+"/"))
	want := "walletsandbox: WithURL is " + sandbox.URL + ", the API's URL; it takes the sandbox's base URL, without /v1: drop the /v1 (" + sandbox.BaseURL + ")"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	t.Setenv("WALLET_SANDBOX_BASE_URL", sandbox.URL)
	_, err = walletsandbox.Run(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "walletsandbox: WALLET_SANDBOX_BASE_URL is "+sandbox.URL+", the API's URL;") {
		t.Errorf("got %v", err)
	}
}

func TestWithURLAndWithOwnSandboxContradictEachOther(t *testing.T) {
	t.Parallel()
	_, err := walletsandbox.Run(context.Background(), walletsandbox.WithURL(sandbox.BaseURL), walletsandbox.WithOwnSandbox())
	if err == nil || !strings.Contains(err.Error(), "WithURL(\""+sandbox.BaseURL+"\") attaches to a sandbox and WithOwnSandbox starts one: give one of them") {
		t.Errorf("got %v", err)
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
