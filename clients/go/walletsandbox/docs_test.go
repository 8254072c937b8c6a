package walletsandbox_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// docs/go.md shows this package's code as it is: each go block is the source of a declaration in
// the package's files (an Example, a test, TestMain), and its go.mod lines make a module that
// builds beside a checkout, offline.

const goPage = "../../../docs/go.md"

type block struct {
	line int
	text string
}

// fences answers the page's code blocks of one language, with the line each starts on.
func fences(t *testing.T, language string) []block {
	t.Helper()
	page, err := os.ReadFile(goPage)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []block
	fence := regexp.MustCompile("(?ms)^```" + regexp.QuoteMeta(language) + "\n(.*?)^```$")
	for _, match := range fence.FindAllSubmatchIndex(page, -1) {
		line := strings.Count(string(page[:match[0]]), "\n") + 1
		blocks = append(blocks, block{line, strings.TrimSuffix(string(page[match[2]:match[3]]), "\n")})
	}
	return blocks
}

// declarations answers the source of every top-level declaration of the package's files, tests
// included.
func declarations(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			var from, to token.Pos = decl.Pos(), decl.End()
			if fn, ok := decl.(*ast.FuncDecl); ok {
				from = fn.Type.Func
			}
			sources[string(src[fset.Position(from).Offset:fset.Position(to).Offset])] = true
		}
	}
	return sources
}

func TestEveryGoBlockOfTheGoPageIsCodeOfThePackage(t *testing.T) {
	t.Parallel()
	blocks, sources := fences(t, "go"), declarations(t)
	if len(blocks) < 5 {
		t.Fatalf("docs/go.md has %d go blocks", len(blocks))
	}
	for _, b := range blocks {
		if !sources[b.text] {
			t.Errorf("the go block on line %d of docs/go.md is not the source of a declaration of the package (copy it from the file again):\n%s", b.line, b.text)
		}
	}
}

func TestTheGoPagesSetUpBuildsAModuleBesideACheckoutOffline(t *testing.T) {
	t.Parallel()
	var requires string
	for _, b := range fences(t, "text") {
		if strings.HasPrefix(b.text, "require ") {
			requires = b.text
		}
	}
	if requires == "" {
		t.Fatal("docs/go.md has no go.mod lines (a text block starting with require)")
	}
	checkout, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(checkout, filepath.Join(dir, "wallet-sandbox")); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(dir, "app")
	files := map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.19\n\n" + requires + "\n",
		"app_test.go": `package app

import (
	"testing"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

func TestPays(t *testing.T) {
	sb := walletsandbox.Start(t, walletsandbox.WithArgs("--settle", "manual"))
	sb.NewAccount(t)
}
`,
	}
	for name, content := range files {
		if err := os.MkdirAll(app, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(app, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vet := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "vet", "./...")
	vet.Dir = app
	vet.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=", "GOWORK=off")
	if out, err := vet.CombinedOutput(); err != nil {
		t.Errorf("go vet in a module with docs/go.md's go.mod lines: %v\n%s", err, out)
	}
}
