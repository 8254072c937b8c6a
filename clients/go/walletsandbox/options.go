package walletsandbox

import (
	"log"
	"time"
)

// DefaultStartTimeout is how long Run waits for a sandbox it starts to say it is ready, unless
// WithStartTimeout says otherwise. A sandbox that exits before then fails at once; the timeout is
// only the backstop for one that hangs.
const DefaultStartTimeout = 30 * time.Second

// An Option configures Run and Start.
type Option func(*options)

type options struct {
	url          string
	own          bool
	bin          string
	image        string
	args         []string
	startTimeout time.Duration
	logger       Logger
}

func newOptions(opts []Option) options {
	o := options{startTimeout: DefaultStartTimeout, logger: log.Default()}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithURL attaches to the sandbox at baseURL (http://127.0.0.1:4400, without /v1) instead of
// starting one, as the WALLET_SANDBOX_BASE_URL variable does; it takes precedence over that
// variable.
func WithURL(baseURL string) Option {
	return func(o *options) { o.url = baseURL }
}

// WithOwnSandbox starts a sandbox of this process's own even when WALLET_SANDBOX_BASE_URL names
// one, as under wallet-sandbox exec: for a test that needs settings of its own (WithArgs), or the
// sandbox-wide clock, snapshot and restore, without touching the tests that share the other.
func WithOwnSandbox() Option {
	return func(o *options) { o.own = true }
}

// WithBin runs this wallet-sandbox CLI: a path to an executable, or to a .js file that runs with
// node. Without it, the CLI is looked for as the package documentation says.
func WithBin(path string) Option {
	return func(o *options) { o.bin = path }
}

// WithImage runs the sandbox in a container of this image (docker, or the engine named by
// WALLET_SANDBOX_CONTAINER_ENGINE) instead of the CLI.
func WithImage(image string) Option {
	return func(o *options) { o.image = image }
}

// WithArgs adds flags to the command line of the sandbox that Run starts, after --ready-json and
// --port 0: WithArgs("--clock", "manual", "--settle", "manual"). An attached sandbox keeps the
// settings it was started with: Run then says, through the Logger, which flags it did not apply
// (WithOwnSandbox starts a sandbox with them instead).
func WithArgs(args ...string) Option {
	return func(o *options) { o.args = append(o.args, args...) }
}

// WithStartTimeout bounds the wait for the sandbox's ready line (DefaultStartTimeout otherwise).
func WithStartTimeout(d time.Duration) Option {
	return func(o *options) { o.startTimeout = d }
}

// WithLogger sends the package's notes (what an attached sandbox does not take, a sandbox-wide
// call on a shared sandbox) to l instead of log.Default(); TestLogger(t) sends them to a test's
// log.
func WithLogger(l Logger) Option {
	return func(o *options) { o.logger = l }
}
