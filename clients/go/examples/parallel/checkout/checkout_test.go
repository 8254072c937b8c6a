// Package checkout is one of two packages of an application's tests that share one sandbox under
// `wallet-sandbox exec --clock manual --settle auto -- go test ./...` (docs/go.md, Parallel tests):
// its tests pay and settle while those of package statements, running at the same time, move
// their accounts' clocks and restore their accounts' snapshots.
package checkout_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

var sandbox *walletsandbox.Sandbox

func TestMain(m *testing.M) {
	sb, err := walletsandbox.Run(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sandbox = sb
	code := m.Run()
	sb.Close()
	os.Exit(code)
}

func TestAPaymentWaitsForItsOwnAccountsTime(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			account := sandbox.NewAccount(t)
			wallet, _ := account.Wallet("USDC", "polygon")
			for round := 0; round < 3; round++ {
				var settled, failed walletsandbox.Payment
				for _, payment := range []*walletsandbox.Payment{&settled, &failed} {
					body := map[string]string{"source_wallet": wallet.ID, "amount": "1.00", "currency": "USDC", "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}
					if err := account.Call(ctx, http.MethodPost, "/payments", body, payment); err != nil {
						t.Fatal(err)
					}
				}
				// Still pending, whatever the other tests do with their clocks: this one fails.
				if _, err := sandbox.FailPayment(ctx, failed.ID, walletsandbox.Failure{}); err != nil {
					t.Fatal(err)
				}
				// This account's time moves, and its other payment settles.
				if _, err := account.AdvanceClock(ctx, time.Minute); err != nil {
					t.Fatal(err)
				}
				filter := walletsandbox.EventFilter{Type: walletsandbox.EventPaymentSucceeded, ObjectID: settled.ID}
				if _, err := account.WaitForEvent(ctx, filter); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
