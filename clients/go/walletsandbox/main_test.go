package walletsandbox_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// sandbox is the package's one sandbox, for the tests that need no sandbox of their own.
var sandbox *walletsandbox.Sandbox

func TestMain(m *testing.M) {
	sb, err := walletsandbox.Run(context.Background(), walletsandbox.WithArgs("--clock", "manual", "--settle", "manual"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sandbox = sb
	code := m.Run()
	if err := sb.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}
