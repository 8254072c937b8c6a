package walletsandbox_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"testing"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// exampleT stands for a test's t in the examples of the functions that take one (Start,
// NewAccount, NewWebhookReceiver), which run outside a test: it runs their cleanups when the
// example ends, as a test does when it ends, and a fatal error ends the example's program.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (t *exampleT) Helper()                   {}
func (t *exampleT) Cleanup(cleanup func())    { t.cleanups = append(t.cleanups, cleanup) }
func (t *exampleT) Fatal(args ...any)         { log.Fatal(args...) }
func (t *exampleT) Error(args ...any)         { log.Print(args...) }
func (t *exampleT) Errorf(f string, a ...any) { log.Printf(f, a...) }

func (t *exampleT) end() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

func ExampleStart() {
	t := &exampleT{} // in a test: the test's t
	defer t.end()

	sb := walletsandbox.Start(t, walletsandbox.WithArgs("--settle", "manual"))
	account := sb.NewAccount(t)
	wallet, _ := account.Wallet("USDC", "polygon")
	var payment walletsandbox.Payment
	err := account.Call(context.Background(), http.MethodPost, "/payments", map[string]string{
		"source_wallet": wallet.ID, "amount": "10.00", "currency": "USDC", "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	}, &payment)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(payment.Status, payment.Amount, payment.Currency)
	// Output: pending 10.00 USDC
}

func ExampleSandbox_NewAccount() {
	t := &exampleT{} // in a test: the test's t
	defer t.end()
	sb := walletsandbox.Start(t, walletsandbox.WithArgs("--settle", "manual"))
	ctx := context.Background()

	alice, bob := sb.NewAccount(t), sb.NewAccount(t)
	wallet, _ := alice.Wallet("USDC", "polygon")
	var payment walletsandbox.Payment
	err := alice.Call(ctx, http.MethodPost, "/payments", map[string]string{
		"source_wallet": wallet.ID, "amount": "10.00", "currency": "USDC", "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	}, &payment)
	if err != nil {
		t.Fatal(err)
	}
	err = bob.Call(ctx, http.MethodGet, "/payments/"+payment.ID, nil, nil)
	var apiErr *walletsandbox.APIError
	if errors.As(err, &apiErr) {
		fmt.Println("bob:", apiErr.StatusCode, apiErr.Code)
	}
	// Output: bob: 404 resource_missing
}

func ExampleNewWebhookReceiver() {
	t := &exampleT{} // in a test: the test's t
	defer t.end()
	sb := walletsandbox.Start(t, walletsandbox.WithArgs("--settle", "manual"))
	ctx := context.Background()
	account := sb.NewAccount(t)

	receiver := walletsandbox.NewWebhookReceiver(t, "")
	var endpoint struct {
		Secret string `json:"secret"`
	}
	webhook := map[string]any{"url": receiver.URL, "events": []string{"payment.failed"}}
	if err := account.Call(ctx, http.MethodPost, "/webhooks", webhook, &endpoint); err != nil {
		t.Fatal(err)
	}
	receiver.SetSecret(endpoint.Secret)

	wallet, _ := account.Wallet("USDC", "polygon")
	var payment walletsandbox.Payment
	err := account.Call(ctx, http.MethodPost, "/payments", map[string]string{
		"source_wallet": wallet.ID, "amount": "10.00", "currency": "USDC", "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	}, &payment)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.FailPayment(ctx, payment.ID, walletsandbox.Failure{}); err != nil {
		t.Fatal(err)
	}
	event, err := receiver.WaitFor(ctx, walletsandbox.EventPaymentFailed, payment.ID)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(event.Type, event.ObjectID() == payment.ID, receiver.Received()[0].Verified)
	// Output: payment.failed true true
}
