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

// command is the CLI's command line, found in this order: WithBin; the WALLET_SANDBOX_BIN variable;
// from the working directory upward, a checkout of wallet-sandbox itself (its bin/, once built) or
// node_modules/.bin/wallet-sandbox; wallet-sandbox on PATH; npx --no-install wallet-sandbox.
func (f finder) command(bin string) ([]string, error) {
	if bin != "" {
		return f.runnable(bin, "WithBin")
	}
	if bin := f.getenv("WALLET_SANDBOX_BIN"); bin != "" {
		return f.runnable(bin, "WALLET_SANDBOX_BIN")
	}
	for dir := f.dir; ; dir = filepath.Dir(dir) {
		if command, found, err := f.checkout(dir); found {
			return command, err
		}
		if installed := filepath.Join(dir, "node_modules", ".bin", "wallet-sandbox"); isFile(installed) {
			return []string{installed}, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if path, err := f.lookPath("wallet-sandbox"); err == nil {
		return []string{path}, nil
	}
	if npx, err := f.lookPath("npx"); err == nil {
		return []string{npx, "--no-install", "wallet-sandbox"}, nil
	}
	return nil, errors.New("walletsandbox: found no wallet-sandbox CLI (no node_modules/.bin/wallet-sandbox from the working directory up, none on PATH, no npx): install it with `npm install --save-dev wallet-sandbox`, or name it with WithBin or WALLET_SANDBOX_BIN")
}

// runnable is the command line of a CLI named by the user: a .js file runs with node.
func (f finder) runnable(bin, source string) ([]string, error) {
	if !strings.ContainsRune(bin, filepath.Separator) {
		path, err := f.lookPath(bin)
		if err != nil {
			return nil, fmt.Errorf("walletsandbox: %s names %q, which is not on PATH: %w", source, bin, err)
		}
		return []string{path}, nil
	}
	if !filepath.IsAbs(bin) {
		bin = filepath.Join(f.dir, bin)
	}
	if !isFile(bin) {
		return nil, fmt.Errorf("walletsandbox: %s names %s, which is not a file", source, bin)
	}
	switch filepath.Ext(bin) {
	case ".js", ".mjs", ".cjs":
		node, err := f.lookPath("node")
		if err != nil {
			return nil, fmt.Errorf("walletsandbox: %s names %s, but node is not on PATH (the sandbox needs Node 20 or later): %w", source, bin, err)
		}
		return []string{node, bin}, nil
	}
	return []string{bin}, nil
}

// checkout answers whether dir is a checkout of wallet-sandbox itself (a package.json named
// wallet-sandbox beside bin/wallet-sandbox.js), and if so its CLI, which needs dist/ built.
func (f finder) checkout(dir string) (command []string, found bool, err error) {
	manifest, readErr := os.ReadFile(filepath.Join(dir, "package.json"))
	bin := filepath.Join(dir, "bin", "wallet-sandbox.js")
	if readErr != nil || !isFile(bin) {
		return nil, false, nil
	}
	var pkg struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(manifest, &pkg) != nil || pkg.Name != "wallet-sandbox" {
		return nil, false, nil
	}
	if !isFile(filepath.Join(dir, "dist", "cli.bundle.cjs")) {
		return nil, true, fmt.Errorf("walletsandbox: the wallet-sandbox checkout at %s is not built: run `npm run build` there (or name another CLI with WithBin or WALLET_SANDBOX_BIN)", dir)
	}
	command, err = f.runnable(bin, "the checkout")
	return command, true, err
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}
