package walletsandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// finder looks for the wallet-sandbox CLI; its fields are what it reads of the world, so that a
// test can give it another one.
type finder struct {
	getenv   func(string) string
	dir      string // where the search upward starts: the working directory
	lookPath func(string) (string, error)
}

// cli is the CLI's command line, and the checkout it runs from, if it does (checkout.go).
type cli struct {
	command  []string
	checkout string
	npx      bool // the last resort, npx --no-install wallet-sandbox
}

// command finds the CLI in this order: WithBin; the WALLET_SANDBOX_BIN variable; from the working
// directory upward, a checkout of wallet-sandbox itself (its bin/) or
// node_modules/.bin/wallet-sandbox; wallet-sandbox on PATH; npx --no-install wallet-sandbox.
func (f finder) command(bin string) (cli, error) {
	if bin != "" {
		return f.runnable(bin, "WithBin")
	}
	if bin := f.getenv("WALLET_SANDBOX_BIN"); bin != "" {
		return f.runnable(bin, "WALLET_SANDBOX_BIN")
	}
	for dir := f.dir; ; dir = filepath.Dir(dir) {
		if isCheckout(dir) {
			found, err := f.runnable(filepath.Join(dir, "bin", "wallet-sandbox.js"), "the checkout")
			found.checkout = dir
			return found, err
		}
		if installed := filepath.Join(dir, "node_modules", ".bin", "wallet-sandbox"); isFile(installed) {
			return cli{command: []string{installed}}, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if path, err := f.lookPath("wallet-sandbox"); err == nil {
		return cli{command: []string{path}}, nil
	}
	if npx, err := f.lookPath("npx"); err == nil {
		return cli{command: []string{npx, "--no-install", "wallet-sandbox"}, npx: true}, nil
	}
	return cli{}, errors.New("walletsandbox: found no wallet-sandbox CLI (no node_modules/.bin/wallet-sandbox from the working directory up, none on PATH, no npx): name it with WithBin or WALLET_SANDBOX_BIN (a checkout's bin/wallet-sandbox.js), or install the package beside your module (see How the CLI is found in docs/go.md)")
}

// runnable is the command line of a CLI named by the user: a .js file runs with node.
func (f finder) runnable(bin, source string) (cli, error) {
	if !strings.ContainsRune(bin, filepath.Separator) {
		path, err := f.lookPath(bin)
		if err != nil {
			return cli{}, fmt.Errorf("walletsandbox: %s names %q, which is not on PATH: %w", source, bin, err)
		}
		return cli{command: []string{path}}, nil
	}
	if !filepath.IsAbs(bin) {
		bin = filepath.Join(f.dir, bin)
	}
	if !isFile(bin) {
		return cli{}, fmt.Errorf("walletsandbox: %s names %s, which is not a file", source, bin)
	}
	switch filepath.Ext(bin) {
	case ".js", ".mjs", ".cjs":
		node, err := f.lookPath("node")
		if err != nil {
			return cli{}, fmt.Errorf("walletsandbox: %s names %s, but node is not on PATH (the sandbox needs Node 20 or later): %w", source, bin, err)
		}
		found := cli{command: []string{node, bin}}
		// A checkout's own CLI runs from its dist/, built as when the search finds the checkout.
		if root := filepath.Dir(filepath.Dir(bin)); filepath.Base(bin) == "wallet-sandbox.js" && isCheckout(root) {
			found.checkout = root
		}
		return found, nil
	}
	return cli{command: []string{bin}}, nil
}

// isCheckout says whether dir is a checkout of wallet-sandbox itself: a package.json named
// wallet-sandbox beside bin/wallet-sandbox.js.
func isCheckout(dir string) bool {
	manifest, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil || !isFile(filepath.Join(dir, "bin", "wallet-sandbox.js")) {
		return false
	}
	var pkg struct {
		Name string `json:"name"`
	}
	return json.Unmarshal(manifest, &pkg) == nil && pkg.Name == "wallet-sandbox"
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// explain adds to a failed start of the npx fallback what npm's own error does not say: that npx
// found no CLI, and how to name one. The whole hint comes once per process; a later failure points
// back to it.
func (c cli) explain(err error) error {
	var failure *StartError
	if !c.npx || !errors.As(err, &failure) || !npmFailed(failure) {
		return err
	}
	failure.Hint = "npx found no wallet-sandbox to run: WithBin or WALLET_SANDBOX_BIN names one (as the first such failure of this process said)."
	once.npxHint.Do(func() { failure.Hint = npxHint })
	return err
}

// npmFailed says whether npm itself failed (a 404 of the registry, no network), rather than the
// CLI it ran: npm's errors are the lines that begin with "npm error" (npm 7 to 9: "npm ERR!").
func npmFailed(failure *StartError) bool {
	for _, line := range append(append([]string(nil), failure.FirstLines...), failure.LastLines...) {
		if strings.HasPrefix(line, "npm error") || strings.HasPrefix(line, "npm ERR!") {
			return true
		}
	}
	return false
}
