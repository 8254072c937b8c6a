package walletsandbox_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// fakeEngine is the environment that puts testdata/fake-engine/docker first on PATH, running
// this checkout's CLI in place of containers, and the folder where it keeps its state.
func fakeEngine(t *testing.T) (env []string, state string) {
	t.Helper()
	engines, err := filepath.Abs("testdata/fake-engine")
	if err != nil {
		t.Fatal(err)
	}
	cli, err := filepath.Abs("../../../bin/wallet-sandbox.js")
	if err != nil {
		t.Fatal(err)
	}
	state = t.TempDir()
	return []string{
		"PATH=" + engines + string(os.PathListSeparator) + os.Getenv("PATH"),
		"FAKE_ENGINE_CLI=" + cli,
		"FAKE_ENGINE_STATE=" + state,
		"WALLET_SANDBOX_CONTAINER_ENGINE=",
	}, state
}

func TestWithImageRunsTheImageAndStopsItsContainer(t *testing.T) {
	env, state := fakeEngine(t)
	for _, variable := range env {
		name, value, _ := strings.Cut(variable, "=")
		t.Setenv(name, value)
	}
	sb := walletsandbox.Start(t, walletsandbox.WithImage("wallet-sandbox:test"), walletsandbox.WithArgs("--settle", "manual"))

	runs, _ := filepath.Glob(filepath.Join(state, "*.run"))
	if len(runs) != 1 {
		t.Fatalf("the fake engine ran %d containers, want 1", len(runs))
	}
	container := strings.TrimSuffix(runs[0], ".run")
	ran, _ := os.ReadFile(runs[0])
	if got := strings.TrimSpace(string(ran)); got != "wallet-sandbox:test --ready-json --settle manual" {
		t.Errorf("docker run got the image and arguments %q", got)
	}
	port, _ := os.ReadFile(container + ".port")
	base, _ := url.Parse(sb.BaseURL)
	if want := "127.0.0.1:" + strings.TrimSpace(string(port)); base.Host != want || sb.URL != sb.BaseURL+"/v1" || sb.StreamURL != "ws://"+want+"/v1/stream" {
		t.Errorf("the sandbox is at %s and %s, want %s (docker port answered 0.0.0.0)", sb.BaseURL, sb.StreamURL, want)
	}
	if sb.PID != 0 {
		t.Errorf("PID is %d, want 0 for a container", sb.PID)
	}
	sb.NewAccount(t)

	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(container + ".stopped"); err != nil {
		t.Errorf("Close did not run docker stop: %v", err)
	}
}

func TestWithImageNeedsAContainerEngine(t *testing.T) {
	t.Setenv("WALLET_SANDBOX_CONTAINER_ENGINE", "no-such-engine")
	_, err := walletsandbox.Run(context.Background(), walletsandbox.WithImage("wallet-sandbox:test"))
	if err == nil || !strings.Contains(err.Error(), `WithImage("wallet-sandbox:test") needs a container engine, and no-such-engine is not on PATH`) {
		t.Errorf("got %v", err)
	}
}
