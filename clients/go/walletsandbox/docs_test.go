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
	"sort"
	"strings"
	"testing"
)

// docs/go.md shows code as it is: each go block is a run of whole declarations copied from a file
// of this package or of its example modules (../examples: parallel, expectations), and the blocks of each
// package, put together in a module made from the page's go.mod lines, compile beside a checkout,
// offline. So a block that uses what the page does not show does not pass.

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

// shownPackages reads the files of the package (its tests' packages included) and of its example
// modules, by the name of their package.
func shownPackages(t *testing.T) map[string][]string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	example, _ := filepath.Glob("../examples/*/*/*.go")
	packages := map[string][]string{}
	for _, name := range append(names, example...) {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		packages[file.Name.Name] = append(packages[file.Name.Name], string(src))
	}
	return packages
}

// blocksByPackage answers the page's go blocks by the package whose files they come from, and
// fails the test for a block that is not whole declarations copied from one of them.
func blocksByPackage(t *testing.T) map[string][]string {
	t.Helper()
	packages := shownPackages(t)
	byPackage := map[string][]string{}
	for _, b := range fences(t, "go") {
		file, err := parser.ParseFile(token.NewFileSet(), "", "package p\n\n"+b.text, 0)
		if err != nil || len(file.Decls) == 0 {
			t.Errorf("the go block on line %d of docs/go.md is not whole declarations (%v):\n%s", b.line, err, b.text)
			continue
		}
		found := ""
		for name, sources := range packages {
			for _, src := range sources {
				if strings.Contains(src, b.text) {
					found = name
				}
			}
		}
		if found == "" {
			t.Errorf("the go block on line %d of docs/go.md is not in a file of the package or of its example modules (copy it from the file again):\n%s", b.line, b.text)
			continue
		}
		byPackage[found] = append(byPackage[found], b.text)
	}
	return byPackage
}

func TestEveryGoBlockOfTheGoPageIsCodeOfThePackageOrItsExamples(t *testing.T) {
	t.Parallel()
	byPackage := blocksByPackage(t)
	if len(byPackage["walletsandbox_test"]) < 5 || len(byPackage["checkout_test"]) == 0 || len(byPackage["statements_test"]) == 0 || len(byPackage["payments_test"]) < 3 {
		t.Errorf("docs/go.md shows %d blocks of the package's tests, %d of package checkout and %d of package statements of the parallel example, %d of package payments of the expectations example",
			len(byPackage["walletsandbox_test"]), len(byPackage["checkout_test"]), len(byPackage["statements_test"]), len(byPackage["payments_test"]))
	}
}

// withImports is the source of a file of package name holding blocks, with the imports they use.
func withImports(t *testing.T, name string, blocks []string) string {
	t.Helper()
	body := strings.Join(blocks, "\n\n")
	file, err := parser.ParseFile(token.NewFileSet(), "", "package "+name+"\n\n"+body, 0)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	ast.Inspect(file, func(node ast.Node) bool {
		if selector, ok := node.(*ast.SelectorExpr); ok {
			if ident, ok := selector.X.(*ast.Ident); ok && ident.Obj == nil {
				used[ident.Name] = true
			}
		}
		return true
	})
	// The packages the page's blocks may use, by the name they use them by.
	importPaths := map[string]string{
		"bytes": "bytes", "context": "context", "errors": "errors", "fmt": "fmt", "http": "net/http", "io": "io", "json": "encoding/json", "log": "log",
		"os": "os", "reflect": "reflect", "strings": "strings", "testing": "testing", "time": "time",
		"walletsandbox": "github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox",
	}
	var imports []string
	for pkg := range used {
		path, ok := importPaths[pkg]
		if !ok {
			t.Errorf("the blocks of package %s use %s., which is neither declared there nor a package withImports knows", name, pkg)
			continue
		}
		imports = append(imports, `	"`+path+`"`)
	}
	sort.Strings(imports)
	return "package " + name + "\n\nimport (\n" + strings.Join(imports, "\n") + "\n)\n\n" + body + "\n"
}

func TestTheGoPagesCodeCompilesInAModuleMadeFromItsSetUp(t *testing.T) {
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
	files := map[string]string{"go.mod": "module example.com/app\n\ngo 1.19\n\n" + requires + "\n"}
	for name, blocks := range blocksByPackage(t) {
		files[filepath.Join(name, "docs_test.go")] = withImports(t, name, blocks)
	}
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(app, name)), 0o755); err != nil {
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
		t.Errorf("go vet of docs/go.md's go blocks, in a module with its go.mod lines: %v\n%s", err, out)
	}
}
