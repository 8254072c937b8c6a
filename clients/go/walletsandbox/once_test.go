package walletsandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// What the package says once per process can only be seen from a process of its own: these run
// the test binary again with one helper test, which childEnv names, and read what it wrote.

const childEnv = "WALLET_SANDBOX_GO_TEST_CHILD"

// runChild runs the helper test name in a test binary of its own, in dir ("" for the package's
// folder), with env added, and answers its stdout and stderr; it fails the test if the child fails.
func runChild(t *testing.T, name, dir string, env ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), childEnv+"="+name), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("the child %s failed (%v):\n%s\n%s", name, err, out.String(), errOut.String())
	}
	return out.String(), errOut.String()
}

// child skips a helper test unless runChild runs it.
func child(t *testing.T) {
	if os.Getenv(childEnv) != t.Name() {
		t.Skip("a helper that another test runs in a test binary of its own")
	}
}

func TestSandboxWideCallsOnASharedSandboxWarnOncePerProcess(t *testing.T) {
	t.Parallel()
	shared := walletsandbox.Start(t, walletsandbox.WithOwnSandbox(), walletsandbox.WithArgs("--clock", "manual"))
	_, stderr := runChild(t, "TestChildCallsSandboxWideFormsOnASharedSandbox", "", "WALLET_SANDBOX_BASE_URL="+shared.BaseURL)

	warning := "walletsandbox: a sandbox-wide AdvanceClock on the sandbox at " + shared.BaseURL + ", which this process did not start"
	if n := strings.Count(stderr, "walletsandbox: a sandbox-wide "); n != 1 || !strings.Contains(stderr, warning) {
		t.Errorf("the child warned %d times, want once, %q…:\n%s", n, warning, stderr)
	}
	// Its TestMain attached with the package's WithArgs, and said so.
	if !strings.Contains(stderr, "attached to the sandbox at "+shared.BaseURL+" that WALLET_SANDBOX_BASE_URL names, which keeps the settings it was started with: WithArgs(--clock manual --settle manual) not applied; start that sandbox with them (wallet-sandbox exec --clock manual --settle manual -- go test ./...)") {
		t.Errorf("the child's TestMain did not say that it attached without its flags:\n%s", stderr)
	}
}

// TestChildCallsSandboxWideFormsOnASharedSandbox is the child of the test above: on a sandbox of
// its own it warns of nothing; on the shared one, which its TestMain attached to, every
// sandbox-wide form, twice, on two handles.
func TestChildCallsSandboxWideFormsOnASharedSandbox(t *testing.T) {
	child(t)
	ctx := context.Background()
	own := walletsandbox.Start(t, walletsandbox.WithOwnSandbox())
	second := walletsandbox.Start(t) // attached, as sandbox is
	for _, sb := range []*walletsandbox.Sandbox{own, sandbox, second} {
		for i := 0; i < 2; i++ {
			if _, err := sb.AdvanceClock(ctx, time.Second); err != nil {
				t.Fatal(err)
			}
			snapshot, err := sb.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := sb.Restore(ctx, snapshot); err != nil {
				t.Fatal(err)
			}
			if err := sb.Reset(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestAFailedNpxFallbackSaysWhatToSetOncePerProcess(t *testing.T) {
	t.Parallel()
	npx, err := filepath.Abs("testdata/fake-npx")
	if err != nil {
		t.Fatal(err)
	}
	// Outside any checkout, with no CLI on PATH: the package falls back to npx.
	stdout, _ := runChild(t, "TestChildStartsWithoutACLI", t.TempDir(), "PATH="+npx, "WALLET_SANDBOX_BIN=", "WALLET_SANDBOX_BASE_URL="+sandbox.BaseURL)
	var failures []string
	for _, line := range strings.Split(stdout, "\n") {
		var failure string
		if json.Unmarshal([]byte(line), &failure) == nil {
			failures = append(failures, failure)
		}
	}
	if len(failures) != 2 {
		t.Fatalf("the child reported %d failed starts, want 2:\n%s", len(failures), stdout)
	}
	hint := "npx found no wallet-sandbox package to run (it is not installed where the tests run, and npx installs nothing). Name the CLI with WithBin(path) or the WALLET_SANDBOX_BIN variable"
	for i, failure := range failures {
		if !strings.Contains(failure, npx+"/npx --no-install wallet-sandbox --ready-json --port 0 exited with code 1 before it was ready; its output:") || !strings.Contains(failure, "npm error 404 Not Found") {
			t.Errorf("failure %d does not show npx's command and npm's error:\n%s", i+1, failure)
		}
		if strings.Contains(failure, hint) != (i == 0) {
			t.Errorf("failure %d has the whole hint: %v, want it in the first only:\n%s", i+1, i != 0, failure)
		}
	}
	if !strings.HasSuffix(failures[1], "\nnpx found no wallet-sandbox to run: WithBin or WALLET_SANDBOX_BIN names one (as the first such failure of this process said).") {
		t.Errorf("the second failure does not point back to the first:\n%s", failures[1])
	}
}

// TestChildStartsWithoutACLI is the child of the test above: two starts, each of which falls back
// to npx; it writes their errors as JSON strings, a line each.
func TestChildStartsWithoutACLI(t *testing.T) {
	child(t)
	for i := 0; i < 2; i++ {
		_, err := walletsandbox.Run(context.Background(), walletsandbox.WithOwnSandbox())
		if err == nil {
			t.Fatal("a sandbox started without a CLI")
		}
		line, _ := json.Marshal(err.Error())
		os.Stdout.Write(append(line, '\n'))
	}
}
