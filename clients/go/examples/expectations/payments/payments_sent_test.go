package payments_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// payInvoice is the code under test: it pays an invoice, and retries once, with the same
// Idempotency-Key, when the connection is lost. Its bug: fmt.Sprint(10) is "10", where the API
// wants "10.00".
func payInvoice(apiURL, key, walletID, invoice string, amount int) error {
	body, err := json.Marshal(map[string]string{
		"amount": fmt.Sprint(amount), "currency": "USDC", "source_wallet": walletID,
		"recipient": "0x52908400098527886E0F7030069857D2E4169EE7",
	})
	if err != nil {
		return err
	}
	send := func() (*http.Response, error) {
		req, err := http.NewRequest(http.MethodPost, apiURL+"/payments", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", invoice)
		return http.DefaultClient.Do(req)
	}
	res, err := send()
	if err != nil {
		res, err = send()
	}
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		return fmt.Errorf("paying %s: %s", invoice, res.Status)
	}
	return nil
}

var sandbox *walletsandbox.Sandbox

func TestMain(m *testing.M) {
	sb, err := walletsandbox.Run(context.Background())
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

func TestAPaymentRetriedAfterALostAnswerReusesItsIdempotencyKey(t *testing.T) {
	account := sandbox.NewAccount(t)
	wallet, _ := account.Wallet("USDC", "polygon")
	// The sandbox makes the account's next payment, then drops the connection before answering.
	fault := walletsandbox.Fault{Kind: "commit_then_drop", Method: "POST", Path: "/v1/payments", Times: 1}
	if _, err := account.AddFault(context.Background(), fault); err != nil {
		t.Fatal(err)
	}
	if err := payInvoice(sandbox.URL, account.Key, wallet.ID, "invoice-41", 10); err != nil {
		t.Fatal(err)
	}

	sent := account.RequireRequest(t, walletsandbox.RequestExpectation{
		Method: "POST", Path: "/v1/payments", Headers: map[string]string{"Idempotency-Key": "invoice-41"},
		Count: 2, Exactly: true,
	})
	retry, first := sent[0], sent[1]
	if first.Fault != "commit_then_drop" || !retry.Replayed {
		t.Errorf("the first request's fault is %q and the retry's replayed %v, want commit_then_drop and true", first.Fault, retry.Replayed)
	}
}

func TestFailsOnPurposeTheAmountWentOutAs10(t *testing.T) {
	account := sandbox.NewAccount(t)
	wallet, _ := account.Wallet("USDC", "polygon")
	if err := payInvoice(sandbox.URL, account.Key, wallet.ID, "invoice-42", 10); err != nil {
		t.Fatal(err)
	}

	account.RequireRequest(t, walletsandbox.RequestExpectation{
		Method: "POST", Path: "/v1/payments", Headers: map[string]string{"Idempotency-Key": "invoice-42"},
		Body: map[string]string{"amount": "10.00"},
	})
}
