package walletsandbox

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// write creates the file at root/path, and its folders.
func write(t *testing.T, root, path, content string) string {
	t.Helper()
	full := filepath.Join(root, path)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
	return full
}

// onPath is a lookPath that finds only these commands.
func onPath(commands ...string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, command := range commands {
			if command == name {
				return "/usr/bin/" + name, nil
			}
		}
		return "", errors.New("not on PATH")
	}
}

func TestTheCLIIsFoundInTheDocumentedOrder(t *testing.T) {
	root := t.TempDir()
	checkout := filepath.Join(root, "checkout")
	write(t, checkout, "package.json", `{"name": "wallet-sandbox"}`)
	write(t, checkout, "bin/wallet-sandbox.js", "")
	project := filepath.Join(root, "project")
	write(t, project, "package.json", `{"name": "an-application"}`)
	installed := write(t, project, "node_modules/.bin/wallet-sandbox", "")
	other := filepath.Join(root, "other")
	write(t, other, "package.json", `{"name": "another-package"}`)
	write(t, other, "bin/wallet-sandbox.js", "")
	write(t, root, "tools/cli.js", "")
	write(t, root, "tools/wallet-sandbox", "")

	cases := []struct {
		name, dir, bin, env string
		path                []string
		want                []string
	}{
		{"WithBin, a .js file, runs with node", project, "../tools/cli.js", "", []string{"node"}, []string{"/usr/bin/node", filepath.Join(root, "tools/cli.js")}},
		{"WithBin, an executable", project, filepath.Join(root, "tools/wallet-sandbox"), "", nil, []string{filepath.Join(root, "tools/wallet-sandbox")}},
		{"WithBin, a command on PATH", project, "wallet-sandbox", "", []string{"wallet-sandbox"}, []string{"/usr/bin/wallet-sandbox"}},
		{"WithBin before WALLET_SANDBOX_BIN", project, "../tools/wallet-sandbox", "../tools/cli.js", nil, []string{filepath.Join(root, "tools/wallet-sandbox")}},
		{"WALLET_SANDBOX_BIN before the search", project, "", "../tools/cli.js", []string{"node"}, []string{"/usr/bin/node", filepath.Join(root, "tools/cli.js")}},
		{"a checkout's bin/wallet-sandbox.js, named by WALLET_SANDBOX_BIN", project, "", "../checkout/bin/wallet-sandbox.js", []string{"node"}, []string{"/usr/bin/node", filepath.Join(checkout, "bin/wallet-sandbox.js")}},
		{"a checkout of wallet-sandbox, from a folder inside it", filepath.Join(checkout, "clients", "go"), "", "", []string{"node", "wallet-sandbox"}, []string{"/usr/bin/node", filepath.Join(checkout, "bin/wallet-sandbox.js")}},
		{"node_modules/.bin, from a folder below", filepath.Join(project, "internal", "api"), "", "", []string{"wallet-sandbox"}, []string{installed}},
		{"another package's bin/wallet-sandbox.js is not the CLI", other, "", "", []string{"wallet-sandbox", "npx"}, []string{"/usr/bin/wallet-sandbox"}},
		{"npx last", other, "", "", []string{"npx"}, []string{"/usr/bin/npx", "--no-install", "wallet-sandbox"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := finderIn(c.dir, c.env, c.path...).command(c.bin)
			if err != nil || !reflect.DeepEqual(got.command, c.want) {
				t.Errorf("got %q (%v), want %q", got.command, err, c.want)
			}
			if fromCheckout := got.checkout != ""; fromCheckout != strings.HasPrefix(c.name, "a checkout") || (fromCheckout && got.checkout != checkout) {
				t.Errorf("runs from the checkout %q", got.checkout)
			}
		})
	}
}

func finderIn(dir, bin string, path ...string) finder {
	getenv := func(name string) string {
		if name == "WALLET_SANDBOX_BIN" {
			return bin
		}
		return ""
	}
	return finder{getenv: getenv, dir: dir, lookPath: onPath(path...)}
}

func TestNotFindingTheCLISaysWhatToDo(t *testing.T) {
	root := t.TempDir()
	write(t, root, "cli.js", "")

	cases := []struct {
		name, dir, bin string
		path           []string
		want           string
	}{
		{"nowhere", root, "", nil, "walletsandbox: found no wallet-sandbox CLI (no node_modules/.bin/wallet-sandbox from the working directory up, none on PATH, no npx): name it with WithBin or WALLET_SANDBOX_BIN (a checkout's bin/wallet-sandbox.js), or install the package beside your module (see How the CLI is found in docs/go.md)"},
		{"WithBin, no such file", root, "./missing.js", []string{"node"}, "walletsandbox: WithBin names " + filepath.Join(root, "missing.js") + ", which is not a file"},
		{"WithBin, no such command", root, "wallet-sandbox", nil, `walletsandbox: WithBin names "wallet-sandbox", which is not on PATH: not on PATH`},
		{"a bare name is a command, even if it ends in .js", root, "cli.js", []string{"node"}, `walletsandbox: WithBin names "cli.js", which is not on PATH: not on PATH`},
		{"a .js file path without node", root, "./cli.js", nil, "walletsandbox: WithBin names " + filepath.Join(root, "cli.js") + ", but node is not on PATH (the sandbox needs Node 20 or later): not on PATH"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := finderIn(c.dir, "", c.path...).command(c.bin)
			if err == nil || err.Error() != c.want {
				t.Errorf("got %q, %v\nwant the error %s", got.command, err, c.want)
			}
		})
	}
}
