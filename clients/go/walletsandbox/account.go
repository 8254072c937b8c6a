package walletsandbox

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Account is a freshly seeded account of its own, isolated from every other: what one test (or
// one parallel subtest) works in, so that it sees only its own wallets, payments and events.
type Account struct {
	// Key is the account's sk_test_ key, which the API takes as a Bearer token.
	Key string
	// ID is the account's id (acct_…).
	ID string
	// Wallets are the seeded wallets, newest first, as GET /v1/wallets lists them.
	Wallets []Wallet

	sandbox *Sandbox
}

// CreateAccount makes a new key on a freshly seeded account and reads its wallets.
func (s *Sandbox) CreateAccount(ctx context.Context) (*Account, error) {
	var key struct {
		Key       string `json:"key"`
		AccountID string `json:"account_id"`
	}
	if err := s.control(ctx, http.MethodPost, "/_sandbox/keys", struct{}{}, &key); err != nil {
		return nil, err
	}
	account := &Account{Key: key.Key, ID: key.AccountID, sandbox: s}
	if err := account.Call(ctx, http.MethodGet, "/wallets?limit=100", nil, &account.Wallets); err != nil {
		return nil, err
	}
	return account, nil
}

// NewAccount is CreateAccount for a test: a failure fails the test.
func (s *Sandbox) NewAccount(t testing.TB) *Account {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	account, err := s.CreateAccount(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return account
}

// Wallet is the account's first wallet of this currency on this network, newest first; a seeded
// account has a user wallet of USDC on polygon and one on solana, for instance.
func (a *Account) Wallet(currency, network string) (Wallet, bool) {
	for _, wallet := range a.Wallets {
		if wallet.Currency == currency && wallet.Network == network {
			return wallet, true
		}
	}
	return Wallet{}, false
}

// Call sends one API request with the account's key: path is under the API's URL (/payments,
// /wallets?currency=USDC), body is encoded as JSON when not nil, and the answer's data is decoded
// into out when not nil. An answer other than 2xx is an *APIError.
func (a *Account) Call(ctx context.Context, method, path string, body, out any) error {
	route, rawQuery, _ := strings.Cut(path, "?")
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		return fmt.Errorf("walletsandbox: %s %s: the query does not parse: %w", method, path, err)
	}
	apiPath := strings.TrimPrefix(a.sandbox.URL, a.sandbox.BaseURL) + route
	return a.sandbox.call(ctx, method, apiPath, query, a.Key, body, out)
}

// Events reads one page of the account's events that filter selects (its key and account are
// the account's).
func (a *Account) Events(ctx context.Context, filter EventFilter) (EventPage, error) {
	filter.APIKey, filter.AccountID = a.Key, ""
	return a.sandbox.Events(ctx, filter)
}

// WaitForEvent is Sandbox.WaitForEvent on the account's events.
func (a *Account) WaitForEvent(ctx context.Context, filter EventFilter) (Event, error) {
	filter.APIKey, filter.AccountID = a.Key, ""
	return a.sandbox.WaitForEvent(ctx, filter)
}
