package walletsandbox_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

func ExampleRun() {
	ctx := context.Background()
	sb, err := walletsandbox.Run(ctx, walletsandbox.WithArgs("--clock", "manual", "--settle", "manual"))
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()

	account, err := sb.CreateAccount(ctx)
	if err != nil {
		log.Fatal(err)
	}
	wallet, _ := account.Wallet("USDC", "polygon")
	fmt.Println(wallet.Balance, wallet.Currency, "on", wallet.Network)
	// Output: 250.00 USDC on polygon
}

func ExampleSandbox_CompletePayment() {
	ctx := context.Background()
	sb, err := walletsandbox.Run(ctx, walletsandbox.WithArgs("--settle", "manual"))
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	account, err := sb.CreateAccount(ctx)
	if err != nil {
		log.Fatal(err)
	}
	wallet, _ := account.Wallet("USDC", "polygon")
	var payment walletsandbox.Payment
	err = account.Call(ctx, http.MethodPost, "/payments", map[string]string{
		"source_wallet": wallet.ID, "amount": "10.00", "currency": "USDC", "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	}, &payment)
	if err != nil {
		log.Fatal(err)
	}

	completed, err := sb.CompletePayment(ctx, payment.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(completed.Status)
	// Output: completed
}

func ExampleSandbox_FailPayment() {
	ctx := context.Background()
	sb, err := walletsandbox.Run(ctx, walletsandbox.WithArgs("--settle", "manual"))
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	account, err := sb.CreateAccount(ctx)
	if err != nil {
		log.Fatal(err)
	}
	wallet, _ := account.Wallet("USDC", "polygon")
	var payment walletsandbox.Payment
	err = account.Call(ctx, http.MethodPost, "/payments", map[string]string{
		"source_wallet": wallet.ID, "amount": "10.00", "currency": "USDC", "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	}, &payment)
	if err != nil {
		log.Fatal(err)
	}

	failed, err := sb.FailPayment(ctx, payment.ID, walletsandbox.Failure{}) // the sandbox's default failure
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(failed.Status, failed.FailureCode)
	// Output: failed network_congestion
}

func ExampleSandbox_Deposit() {
	ctx := context.Background()
	sb, err := walletsandbox.Run(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	account, err := sb.CreateAccount(ctx)
	if err != nil {
		log.Fatal(err)
	}
	wallet, _ := account.Wallet("USDC", "polygon")

	credited, err := sb.Deposit(ctx, wallet.ID, "25.00")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(wallet.Balance, "+ 25.00 =", credited.Balance)
	// Output: 250.00 + 25.00 = 275.00
}

func ExampleSandbox_AdvanceClock() {
	ctx := context.Background()
	sb, err := walletsandbox.Run(ctx, walletsandbox.WithArgs("--clock", "manual"))
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()

	clock, err := sb.AdvanceClock(ctx, time.Hour)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(clock.Mode, clock.Now.Format(time.RFC3339), clock.Offset)
	// Output: manual 2026-01-01T01:00:00Z 1h0m0s
}

func ExampleSandbox_Restore() {
	ctx := context.Background()
	sb, err := walletsandbox.Run(ctx, walletsandbox.WithArgs("--settle", "manual"))
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	account, err := sb.CreateAccount(ctx)
	if err != nil {
		log.Fatal(err)
	}
	wallet, _ := account.Wallet("USDC", "polygon")

	snapshot, err := sb.Snapshot(ctx)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := sb.Deposit(ctx, wallet.ID, "25.00"); err != nil {
		log.Fatal(err)
	}
	if err := sb.Restore(ctx, snapshot); err != nil {
		log.Fatal(err)
	}
	var restored walletsandbox.Wallet
	if err := account.Call(ctx, http.MethodGet, "/wallets/"+wallet.ID, nil, &restored); err != nil {
		log.Fatal(err)
	}
	fmt.Println(restored.Balance)
	// Output: 250.00
}

func ExampleAccount_AdvanceClock() {
	ctx := context.Background()
	sb, err := walletsandbox.Run(ctx, walletsandbox.WithArgs("--clock", "manual"))
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	account, err := sb.CreateAccount(ctx)
	if err != nil {
		log.Fatal(err)
	}
	wallet, _ := account.Wallet("USDC", "polygon")
	var payment walletsandbox.Payment
	err = account.Call(ctx, http.MethodPost, "/payments", map[string]string{
		"source_wallet": wallet.ID, "amount": "10.00", "currency": "USDC", "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	}, &payment)
	if err != nil {
		log.Fatal(err)
	}

	// An hour on this account's clock settles its payment; the sandbox clock stays where it was.
	clock, err := account.AdvanceClock(ctx, time.Hour)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := account.WaitForEvent(ctx, walletsandbox.EventFilter{Type: walletsandbox.EventPaymentSucceeded, ObjectID: payment.ID}); err != nil {
		log.Fatal(err)
	}
	sandboxClock, err := sb.Clock(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("account:", clock.Now.Format(time.RFC3339), clock.Offset)
	fmt.Println("sandbox:", sandboxClock.Now.Format(time.RFC3339), sandboxClock.Offset)
	// Output:
	// account: 2026-01-01T01:00:00Z 1h0m0s
	// sandbox: 2026-01-01T00:00:00Z 0s
}

func ExampleSandbox_WaitForEvent() {
	ctx := context.Background()
	sb, err := walletsandbox.Run(ctx, walletsandbox.WithArgs("--settle", "manual"))
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	account, err := sb.CreateAccount(ctx)
	if err != nil {
		log.Fatal(err)
	}
	wallet, _ := account.Wallet("USDC", "polygon")
	var payment walletsandbox.Payment
	err = account.Call(ctx, http.MethodPost, "/payments", map[string]string{
		"source_wallet": wallet.ID, "amount": "10.00", "currency": "USDC", "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	}, &payment)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := sb.FailPayment(ctx, payment.ID, walletsandbox.Failure{Code: "insufficient_network_fee"}); err != nil {
		log.Fatal(err)
	}

	event, err := sb.WaitForEvent(ctx, walletsandbox.EventFilter{APIKey: account.Key, Type: "payment.failed", ObjectID: payment.ID})
	if err != nil {
		log.Fatal(err)
	}
	var failed walletsandbox.Payment
	if err := event.Decode(&failed); err != nil {
		log.Fatal(err)
	}
	fmt.Println(event.Type, failed.FailureCode)
	// Output: payment.failed insufficient_network_fee
}

func ExampleVerifyWebhook() {
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	body := []byte(`{"id":"evt_1","type":"payment.failed"}`)
	sent := time.Unix(1767225600, 0)
	header := http.Header{}
	header.Set("webhook-id", "evt_1")
	header.Set("webhook-timestamp", "1767225600")
	header.Set("webhook-signature", walletsandbox.SignWebhook(secret, "evt_1", sent, body))

	fmt.Println(walletsandbox.VerifyWebhook(secret, header, body, sent.Add(time.Minute)))
	fmt.Println(walletsandbox.VerifyWebhook(secret, header, []byte(`{"id":"evt_1","type":"payment.completed"}`), sent))
	fmt.Println(walletsandbox.VerifyWebhook(secret, header, body, sent.Add(time.Hour)))
	// Output:
	// <nil>
	// no v1 signature matches the body under this secret
	// webhook-timestamp 1767225600 is more than 5m0s from now (1767229200)
}
