// Package statements is the other package of docs/go.md's parallel example: its tests move their
// accounts' clocks and restore their accounts' snapshots while package checkout's tests pay.
package statements_test

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

func TestARestoredAccountForgetsWhatCameAfterItsSnapshot(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			account := sandbox.NewAccount(t)
			wallet, _ := account.Wallet("USDC", "polygon")
			for round := 0; round < 3; round++ {
				snapshot, err := account.Snapshot(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var payment walletsandbox.Payment
				body := map[string]string{"source_wallet": wallet.ID, "amount": "2.00", "currency": "USDC", "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}
				if err := account.Call(ctx, http.MethodPost, "/payments", body, &payment); err != nil {
					t.Fatal(err)
				}
				// An hour on this account's clock settles its payment, and no one else's.
				if _, err := account.AdvanceClock(ctx, time.Hour); err != nil {
					t.Fatal(err)
				}
				filter := walletsandbox.EventFilter{Type: walletsandbox.EventPaymentSucceeded, ObjectID: payment.ID}
				if _, err := account.WaitForEvent(ctx, filter); err != nil {
					t.Fatal(err)
				}
				// Back to the snapshot: the payment is gone, the balance as it was.
				if err := account.Restore(ctx, snapshot); err != nil {
					t.Fatal(err)
				}
				var restored walletsandbox.Wallet
				if err := account.Call(ctx, http.MethodGet, "/wallets/"+wallet.ID, nil, &restored); err != nil {
					t.Fatal(err)
				}
				if restored.Balance != wallet.Balance {
					t.Fatalf("round %d: the restored balance is %s, want %s", round, restored.Balance, wallet.Balance)
				}
			}
		})
	}
}
