package walletsandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// A checkout of wallet-sandbox runs its CLI from dist/, which `npm run build` makes. As `npm start`
// does, Run first builds it when it is missing or older than src/, with the checkout's own
// scripts/build-if-needed.mjs, so that the tests run the sources as they are. A lock on the
// checkout's package.json makes parallel starts, in this process or in others, build it once.

// buildCheckout builds dist/ of the checkout at root if it is stale.
func buildCheckout(ctx context.Context, root string) error {
	if !stale(root) {
		return nil
	}
	lock, err := os.Open(filepath.Join(root, "package.json"))
	if err != nil {
		return fmt.Errorf("walletsandbox: building the checkout at %s: %w", root, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("walletsandbox: building the checkout at %s: locking package.json: %w", root, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if !stale(root) {
		return nil // another start built it while this one waited
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("walletsandbox: the checkout at %s needs node to build dist/ and run: %w", root, err)
	}
	build := exec.CommandContext(ctx, node, "scripts/build-if-needed.mjs")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		lines := strings.Split(string(bytes.TrimSpace(out)), "\n")
		if len(lines) > lastLines {
			lines = lines[len(lines)-lastLines:]
		}
		return fmt.Errorf("walletsandbox: building the checkout at %s (node scripts/build-if-needed.mjs) failed: %w; its last lines:\n    %s", root, err, strings.Join(lines, "\n    "))
	}
	return nil
}

var errNewer = errors.New("a source is newer than dist/")

// stale says what build-if-needed.mjs decides (this is its quick check, in Go): some of dist/'s
// main outputs are missing, or a file of src/ is newer than the oldest of them.
func stale(root string) bool {
	var built time.Time
	for _, output := range []string{"dist/cli/main.js", "dist/cli.bundle.cjs", "dist/code-cache.js", "dist/public.js"} {
		info, err := os.Stat(filepath.Join(root, output))
		if err != nil {
			return true
		}
		if built.IsZero() || info.ModTime().Before(built) {
			built = info.ModTime()
		}
	}
	err := filepath.WalkDir(filepath.Join(root, "src"), func(path string, entry fs.DirEntry, err error) error {
		if err != nil || entry.IsDir() {
			return err
		}
		if info, err := entry.Info(); err == nil && info.ModTime().After(built) {
			return errNewer
		}
		return nil
	})
	return err != nil
}
