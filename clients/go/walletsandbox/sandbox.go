package walletsandbox

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Sandbox is a wallet-sandbox that Run started, or one it attached to.
type Sandbox struct {
	// URL is the API's base URL, what an SDK takes: http://127.0.0.1:PORT/v1.
	URL string
	// BaseURL is the server's root: http://127.0.0.1:PORT (the control API is under /_sandbox).
	BaseURL string
	// StreamURL is the WebSocket stream: ws://127.0.0.1:PORT/v1/stream.
	StreamURL string
	// APIKey is the key of the seeded default account; NewAccount makes others.
	APIKey string
	// ControlToken is the token the control API requires, or "" when it requires none.
	ControlToken string
	// Version is the sandbox's version, of the same major.minor as CompatibleVersion.
	Version string
	// PID is the process id of a sandbox started from the CLI, 0 otherwise.
	PID int

	transport *http.Transport
	client    *http.Client
	proc      *process // nil when attached
	logger    Logger
}

// Run attaches to the sandbox that WithURL or WALLET_SANDBOX_BASE_URL names (unless
// WithOwnSandbox), or else starts one: the CLI with --ready-json --port 0 and WithArgs' flags, or
// a container of WithImage's image. It returns once the sandbox is ready; ctx bounds the start
// only. Close stops a sandbox that Run started; one per package is what TestMain is for.
func Run(ctx context.Context, opts ...Option) (*Sandbox, error) {
	o := newOptions(opts)
	if o.own && o.url != "" {
		return nil, fmt.Errorf("walletsandbox: WithURL(%q) attaches to a sandbox and WithOwnSandbox starts one: give one of them", o.url)
	}
	if base, from := o.attachTo(); base != "" {
		return attach(ctx, base, from, o)
	}
	if o.image != "" {
		return startContainer(ctx, o)
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("walletsandbox: looking for the CLI: %w", err)
	}
	found, err := finder{getenv: os.Getenv, dir: dir, lookPath: exec.LookPath}.command(o.bin)
	if err != nil {
		return nil, err
	}
	if found.checkout != "" {
		if err := buildCheckout(ctx, found.checkout); err != nil {
			return nil, err
		}
	}
	command := append(append(found.command, "--ready-json", "--port", "0"), o.args...)
	p, line, err := startProcess(ctx, command, "", "", o.startTimeout)
	if err != nil {
		return nil, found.explain(err)
	}
	ready, err := acceptReadyLine(p, line)
	if err != nil {
		return nil, err
	}
	sb := newSandbox(ready, p, o.logger)
	sb.PID = ready.PID
	return sb, nil
}

// Start is Run for one test: the sandbox stops when the test and its subtests end (t.Cleanup),
// and a sandbox that cannot start fails the test at once.
func Start(t testing.TB, opts ...Option) *Sandbox {
	t.Helper()
	sb, err := Run(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sb.Close(); err != nil {
			t.Error(err)
		}
	})
	return sb
}

// Logs reads what the sandbox has written so far, stdout and stderr line by line as they came: its
// request log, its warnings, a crash's last words. Of a long run it keeps the first lines and the
// last 10,000 (a line says how many it left out between). A sandbox this process attached to
// writes where it was started (wallet-sandbox exec --no-quiet, to its stderr): Logs refuses it.
func (s *Sandbox) Logs(ctx context.Context) (io.ReadCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("walletsandbox: reading the sandbox's output: %w", err)
	}
	if s.proc == nil {
		return nil, fmt.Errorf("walletsandbox: the sandbox at %s was started by another process, which has its output (wallet-sandbox exec --no-quiet writes it to stderr)", s.BaseURL)
	}
	return io.NopCloser(strings.NewReader(s.proc.output.text())), nil
}

// Close stops a sandbox that Run started (SIGTERM to its process group, SIGKILL after five
// seconds) and waits until it is gone; an attached sandbox keeps running. It reports a sandbox
// that had to be killed, and one that had ended before (a *StartError, with its output).
func (s *Sandbox) Close() error {
	s.transport.CloseIdleConnections()
	if s.proc == nil {
		return nil
	}
	return s.proc.close()
}

// acceptReadyLine parses the ready line and checks the version, stopping the sandbox if either
// fails.
func acceptReadyLine(p *process, line string) (readyLine, error) {
	ready, err := parseReadyLine(line)
	if err == nil {
		err = checkVersion(ready.Version)
	}
	if err != nil {
		p.close()
		return readyLine{}, p.failure("started, but "+err.Error(), nil)
	}
	return ready, nil
}

func newSandbox(ready readyLine, p *process, logger Logger) *Sandbox {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	sb := &Sandbox{
		URL: ready.URL, BaseURL: ready.BaseURL, StreamURL: ready.StreamURL, APIKey: ready.APIKey, Version: ready.Version,
		transport: transport, client: &http.Client{Transport: transport}, proc: p, logger: logger,
	}
	if ready.ControlToken != nil {
		sb.ControlToken = *ready.ControlToken
	}
	return sb
}
