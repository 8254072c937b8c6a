package walletsandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeCheckout is a checkout whose scripts/build-if-needed.mjs writes dist/'s outputs and a line
// to builds.log each time it runs (or fails, when the checkout says so).
func fakeCheckout(t *testing.T, fails bool) string {
	t.Helper()
	root := t.TempDir()
	write(t, root, "package.json", `{"name": "wallet-sandbox"}`)
	write(t, root, "src/cli.ts", "")
	script := `import fs from "node:fs"
fs.appendFileSync("builds.log", "built\n")
fs.mkdirSync("dist/cli", { recursive: true })
for (const file of ["cli/main.js", "cli.bundle.cjs", "code-cache.js", "public.js"]) fs.writeFileSync("dist/" + file, "")
`
	if fails {
		script = `console.error("src/cli.ts(1,1): error TS1005: ';' expected."); process.exit(2)`
	}
	write(t, root, "scripts/build-if-needed.mjs", script)
	if err := os.MkdirAll(filepath.Join(root, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func builds(t *testing.T, root string) int {
	t.Helper()
	log, _ := os.ReadFile(filepath.Join(root, "builds.log"))
	return strings.Count(string(log), "built")
}

func TestACheckoutIsBuiltOnceByParallelStartsAndAgainWhenSrcChanges(t *testing.T) {
	root := fakeCheckout(t, false)
	var starts sync.WaitGroup
	for i := 0; i < 3; i++ {
		starts.Add(1)
		go func() {
			defer starts.Done()
			if err := buildCheckout(context.Background(), root); err != nil {
				t.Error(err)
			}
		}()
	}
	starts.Wait()
	if n := builds(t, root); n != 1 {
		t.Fatalf("three parallel starts built %d times, want once", n)
	}
	if err := buildCheckout(context.Background(), root); err != nil || builds(t, root) != 1 {
		t.Errorf("a start on a built checkout built again (%v)", err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(root, "src/cli.ts"), later, later); err != nil {
		t.Fatal(err)
	}
	if err := buildCheckout(context.Background(), root); err != nil || builds(t, root) != 2 {
		t.Errorf("a change of src/ was not built (%v, %d builds)", err, builds(t, root))
	}
}

func TestAFailedBuildOfTheCheckoutSaysWhy(t *testing.T) {
	root := fakeCheckout(t, true)
	err := buildCheckout(context.Background(), root)
	want := "walletsandbox: building the checkout at " + root + " (node scripts/build-if-needed.mjs) failed: exit status 2; its last lines:\n    src/cli.ts(1,1): error TS1005: ';' expected."
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
