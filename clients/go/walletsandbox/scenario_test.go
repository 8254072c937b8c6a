package walletsandbox_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// The scenario every helper runs in its own language (docs/development.md lists them side by
// side): pay, force a failure, await payment.failed through the events route and through a
// verified webhook, advance the clock, snapshot and restore, and parallel tests on isolated
// accounts. It runs on the package's sandbox (TestMain), started with --clock manual --settle
// manual, which every test of the package shares: each test moves and restores its own account.

// recipient is a polygon address, for payments out of a polygon USDC wallet.
const recipient = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"

// pay makes a payment of amount USDC out of the account's polygon USDC wallet.
func pay(ctx context.Context, t *testing.T, account *walletsandbox.Account, amount string) walletsandbox.Payment {
	t.Helper()
	wallet, ok := account.Wallet("USDC", "polygon")
	if !ok {
		t.Fatalf("account %s has no USDC wallet on polygon: %+v", account.ID, account.Wallets)
	}
	var payment walletsandbox.Payment
	body := map[string]string{"source_wallet": wallet.ID, "amount": amount, "currency": "USDC", "recipient": recipient}
	if err := account.Call(ctx, http.MethodPost, "/payments", body, &payment); err != nil {
		t.Fatal(err)
	}
	return payment
}

func TestScenarioFailedPaymentReachesTheEventsRouteAndAVerifiedWebhook(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account := sandbox.NewAccount(t)
	receiver := walletsandbox.NewWebhookReceiver(t, "")
	var endpoint struct {
		Secret string `json:"secret"`
	}
	webhook := map[string]any{"url": receiver.URL, "events": []string{"payment.failed"}}
	if err := account.Call(ctx, http.MethodPost, "/webhooks", webhook, &endpoint); err != nil {
		t.Fatal(err)
	}
	receiver.SetSecret(endpoint.Secret)

	payment := pay(ctx, t, account, "10.00")
	if _, err := sandbox.FailPayment(ctx, payment.ID, walletsandbox.Failure{Code: "insufficient_network_fee"}); err != nil {
		t.Fatal(err)
	}

	event, err := account.WaitForEvent(ctx, walletsandbox.EventFilter{Type: "payment.failed", ObjectID: payment.ID})
	if err != nil {
		t.Fatal(err)
	}
	var failed walletsandbox.Payment
	if err := event.Decode(&failed); err != nil {
		t.Fatal(err)
	}
	if failed.ID != payment.ID || failed.Status != "failed" || failed.FailureCode != "insufficient_network_fee" {
		t.Errorf("payment.failed carries %+v", failed)
	}
	delivered, err := receiver.WaitFor(ctx, walletsandbox.EventPaymentFailed, payment.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(delivered, event) {
		t.Errorf("the webhook delivered %+v, the events route has %+v", delivered, event)
	}
}

func TestScenarioAnAccountsClockAdvancesAndItsRestoreForgetsWhatCameAfterItsSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account := sandbox.NewAccount(t)
	before, err := account.Clock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	after, err := account.AdvanceClock(ctx, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if moved := after.Now.Sub(before.Now); moved != time.Minute {
		t.Errorf("the account's clock moved by %v, want a minute", moved)
	}

	snapshot, err := account.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	payment := pay(ctx, t, account, "10.00")
	if err := account.Restore(ctx, snapshot); err != nil {
		t.Fatal(err)
	}
	var apiErr *walletsandbox.APIError
	err = account.Call(ctx, http.MethodGet, "/payments/"+payment.ID, nil, nil)
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound {
		t.Errorf("GET the payment made after the snapshot: %v, want a 404", err)
	}
}

// A test that owns its sandbox may move its clock and restore its state as a whole, every
// account's: WithOwnSandbox starts it one even under wallet-sandbox exec.
func TestATestThatOwnsItsSandboxAdvancesAndRestoresItWhole(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb := walletsandbox.Start(t, walletsandbox.WithOwnSandbox(), walletsandbox.WithArgs("--clock", "manual", "--settle", "manual"))
	account := sb.NewAccount(t)
	before, err := sb.Clock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	snapshot, err := sb.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	after, err := sb.AdvanceClock(ctx, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if clock, err := account.Clock(ctx); err != nil || !clock.Now.Equal(after.Now) || after.Now.Sub(before.Now) != time.Minute {
		t.Errorf("the sandbox clock went from %v to %v and the account's is at %v (%v), want both a minute on", before.Now, after.Now, clock.Now, err)
	}
	payment := pay(ctx, t, account, "10.00")
	if err := sb.Restore(ctx, snapshot); err != nil {
		t.Fatal(err)
	}
	var apiErr *walletsandbox.APIError
	err = account.Call(ctx, http.MethodGet, "/payments/"+payment.ID, nil, nil)
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound {
		t.Errorf("GET the payment made after the snapshot: %v, want a 404", err)
	}
	if restored, err := sb.Clock(ctx); err != nil || !restored.Now.Equal(before.Now) {
		t.Errorf("after the restore the sandbox clock is at %v (%v), want %v, the snapshot's", restored.Now, err, before.Now)
	}
}

func TestScenarioParallelTestsOnIsolatedAccountsSeeOnlyTheirOwnEvents(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 4; n++ {
		amount := fmt.Sprintf("%d.00", n)
		t.Run(amount, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			account := sandbox.NewAccount(t)
			payment := pay(ctx, t, account, amount)
			if _, err := sandbox.FailPayment(ctx, payment.ID, walletsandbox.Failure{}); err != nil {
				t.Fatal(err)
			}
			event, err := account.WaitForEvent(ctx, walletsandbox.EventFilter{Type: "payment.failed"})
			if err != nil {
				t.Fatal(err)
			}
			if event.ObjectID() != payment.ID {
				t.Errorf("payment.failed is about %s, want %s", event.ObjectID(), payment.ID)
			}
			all, err := account.Events(ctx, walletsandbox.EventFilter{})
			if err != nil {
				t.Fatal(err)
			}
			var about []string
			for _, e := range all.Data {
				about = append(about, e.Type+" "+e.ObjectID())
			}
			want := []string{"payment.created " + payment.ID, "payment.failed " + payment.ID}
			if !reflect.DeepEqual(about, want) {
				t.Errorf("the account's events are %v, want %v", about, want)
			}
		})
	}
}
