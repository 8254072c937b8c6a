package walletsandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The parallel pattern of docs/go.md, run as a user runs it: the two packages of
// ../examples/parallel, each with a TestMain that attaches, side by side under one
// wallet-sandbox exec. Package checkout's tests pay and settle while package statements' move
// their accounts' clocks and restore their snapshots; had an account's clock or restore reached
// the other accounts, a payment would have settled before it could fail (409) or an account
// would have vanished. Twenty runs, each with a sandbox of its own.
func TestTwoPackagesUnderOneExecKeepToTheirOwnAccounts(t *testing.T) {
	t.Parallel()
	cli, err := filepath.Abs("../../../bin/wallet-sandbox.js")
	if err != nil {
		t.Fatal(err)
	}
	env := exampleEnv()
	// underExec runs command under a sandbox of its own and checks that both packages passed:
	// go test says ok for each, a test binary PASS.
	underExec := func(t *testing.T, command ...string) {
		t.Helper()
		cmd := exec.Command("node", append([]string{cli, "exec", "--clock", "manual", "--settle", "auto", "--"}, command...)...)
		cmd.Dir, cmd.Env = "../examples/parallel", env
		out, err := cmd.CombinedOutput()
		passed := 0
		for _, line := range strings.Split(string(out), "\n") {
			if line == "PASS" || strings.HasPrefix(line, "ok  \texample.com/shop/") {
				passed++
			}
		}
		if err != nil || passed != 2 {
			t.Fatalf("wallet-sandbox exec --clock manual --settle auto -- %s (%v):\n%s", strings.Join(command, " "), err, out)
		}
	}

	// The first run is the user's command. The go command takes a few seconds to build and link
	// the two test binaries on a busy machine: the other runs run the same binaries, built once,
	// side by side as go test runs them.
	t.Run("run 1", func(t *testing.T) { underExec(t, goCommand, "test", "-count=1", "./...") })
	binaries := t.TempDir()
	for _, pkg := range []string{"checkout", "statements"} {
		build := exec.Command(goCommand, "test", "-c", "-o", filepath.Join(binaries, pkg+".test"), "./"+pkg)
		build.Dir, build.Env = "../examples/parallel", env
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go test -c ./%s: %v\n%s", pkg, err, out)
		}
	}
	sideBySide := `"$1" -test.count=1 & first=$!; "$2" -test.count=1; second=$?; wait $first && exit $second`
	for run := 2; run <= 20; run++ {
		t.Run(fmt.Sprintf("run %d", run), func(t *testing.T) {
			underExec(t, "sh", "-c", sideBySide, "sh", filepath.Join(binaries, "checkout.test"), filepath.Join(binaries, "statements.test"))
		})
	}
}

// goCommand is the go command of the Go that runs the tests.
var goCommand = filepath.Join(runtime.GOROOT(), "bin", "go")

// exampleEnv is the environment an example module's tests run in: offline, and without the
// WALLET_SANDBOX_ variables, so that they start or attach to the sandbox their test says.
func exampleEnv() []string {
	var env []string
	for _, variable := range os.Environ() {
		if !strings.HasPrefix(variable, "WALLET_SANDBOX_") {
			env = append(env, variable)
		}
	}
	return append(env, "GOPROXY=off", "GOFLAGS=", "GOWORK=off")
}
