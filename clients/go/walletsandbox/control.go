package walletsandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Payment is a payment as the API and the control API answer it (its main fields).
type Payment struct {
	ID             string `json:"id"`
	Amount         string `json:"amount"`
	Currency       string `json:"currency"`
	Network        string `json:"network"`
	Status         string `json:"status"`
	Source         string `json:"source"`
	Destination    string `json:"destination"`
	FailureCode    string `json:"failure_code"`
	FailureMessage string `json:"failure_message"`
}

// Wallet is a wallet as the API answers it (its main fields). Balance is a decimal string.
type Wallet struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Name     string `json:"name"`
	Address  string `json:"address"`
	Currency string `json:"currency"`
	Network  string `json:"network"`
	Status   string `json:"status"`
	Balance  string `json:"balance"`
}

// Clock is a clock of the sandbox: its own (AccountID "") or an account's, which is the sandbox
// clock plus the account's offset. Mode is "manual" (moved only by AdvanceClock) or "real"; Now
// is the time it shows; Offset is how far the sandbox clock has been moved by hand, or how far the
// account is ahead of the sandbox.
type Clock struct {
	Mode      string
	Now       time.Time
	Offset    time.Duration
	AccountID string
}

// UnmarshalJSON reads the control API's clock: {mode, now, offset_ms, account_id}.
func (c *Clock) UnmarshalJSON(data []byte) error {
	var wire struct {
		Mode      string    `json:"mode"`
		Now       time.Time `json:"now"`
		OffsetMS  int64     `json:"offset_ms"`
		AccountID *string   `json:"account_id"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return err
	}
	*c = Clock{Mode: wire.Mode, Now: wire.Now, Offset: time.Duration(wire.OffsetMS) * time.Millisecond}
	if wire.AccountID != nil {
		c.AccountID = *wire.AccountID
	}
	return nil
}

// Failure says why FailPayment fails a payment; the zero value lets the sandbox choose
// (network_congestion, with its message).
type Failure struct {
	Code    string `json:"failure_code,omitempty"`
	Message string `json:"failure_message,omitempty"`
}

// CompletePayment settles a pending payment now: it passes through processing to completed, and
// its events follow.
func (s *Sandbox) CompletePayment(ctx context.Context, paymentID string) (Payment, error) {
	var payment Payment
	err := s.control(ctx, http.MethodPost, "/_sandbox/payments/"+url.PathEscape(paymentID)+"/complete", struct{}{}, &payment)
	return payment, err
}

// FailPayment fails a pending payment now, with the failure's code and message.
func (s *Sandbox) FailPayment(ctx context.Context, paymentID string, failure Failure) (Payment, error) {
	var payment Payment
	err := s.control(ctx, http.MethodPost, "/_sandbox/payments/"+url.PathEscape(paymentID)+"/fail", failure, &payment)
	return payment, err
}

// Deposit credits a wallet from outside, as an incoming transfer would: amount is a decimal
// string such as "25.00". It answers the wallet with its new balance.
func (s *Sandbox) Deposit(ctx context.Context, walletID, amount string) (Wallet, error) {
	var wallet Wallet
	body := map[string]string{"amount": amount}
	err := s.control(ctx, http.MethodPost, "/_sandbox/wallets/"+url.PathEscape(walletID)+"/deposit", body, &wallet)
	return wallet, err
}

// The sandbox-wide forms below reach every account. A test that shares its sandbox with others
// (under wallet-sandbox exec, or any attached sandbox) uses its account's (account_control.go); on
// an attached sandbox the first of them says so, once per process, through the Logger.

// AdvanceClock moves the sandbox clock forward by d (whole milliseconds; the rest is dropped), and
// every account's clock with it, running everything that falls due on the way in time order:
// settlements, webhook retries, expiries. Account.AdvanceClock moves one account's alone.
func (s *Sandbox) AdvanceClock(ctx context.Context, d time.Duration) (Clock, error) {
	s.warnShared("AdvanceClock")
	var clock Clock
	err := s.control(ctx, http.MethodPost, "/_sandbox/clock/advance", map[string]int64{"ms": d.Milliseconds()}, &clock)
	return clock, err
}

// Clock reads the sandbox clock.
func (s *Sandbox) Clock(ctx context.Context) (Clock, error) {
	var clock Clock
	err := s.control(ctx, http.MethodGet, "/_sandbox/clock", nil, &clock)
	return clock, err
}

// Snapshot is the whole state of the sandbox, every account's, as a JSON document for Restore.
// Account.Snapshot takes one account's.
func (s *Sandbox) Snapshot(ctx context.Context) (json.RawMessage, error) {
	s.warnShared("Snapshot")
	var snapshot json.RawMessage
	err := s.control(ctx, http.MethodGet, "/_sandbox/snapshot", nil, &snapshot)
	return snapshot, err
}

// Restore puts back the state a snapshot holds. A whole sandbox's (Sandbox.Snapshot) replaces
// every account, and the clock goes back to when it was taken: what happened since is gone. An
// account's (Account.Snapshot) replaces that account alone, here or in another sandbox, which then
// has it.
func (s *Sandbox) Restore(ctx context.Context, snapshot json.RawMessage) error {
	if accountID, err := snapshotAccount(snapshot); err != nil || accountID == "" {
		s.warnShared("Restore")
	}
	return s.control(ctx, http.MethodPost, "/_sandbox/restore", snapshot, nil)
}

// Reset puts the whole sandbox back to its fixtures: the accounts made since it started are gone,
// their keys too, and every rule. Account.Reset resets one account.
func (s *Sandbox) Reset(ctx context.Context) error {
	s.warnShared("Reset")
	return s.control(ctx, http.MethodPost, "/_sandbox/reset", struct{}{}, nil)
}

// warnShared says, once per process, that a sandbox-wide call reaches every test sharing a
// sandbox this process did not start.
func (s *Sandbox) warnShared(call string) {
	if s.proc != nil {
		return
	}
	once.sharedSandbox.Do(func() { s.logger.Printf(sharedWarning, call, s.BaseURL) })
}

// snapshotAccount is the account a snapshot is of, "" for a whole sandbox's.
func snapshotAccount(snapshot json.RawMessage) (string, error) {
	var of struct {
		AccountID *string `json:"account_id"`
	}
	if err := json.Unmarshal(snapshot, &of); err != nil {
		return "", fmt.Errorf("walletsandbox: the snapshot is not a JSON object: %w", err)
	}
	if of.AccountID == nil {
		return "", nil
	}
	return *of.AccountID, nil
}
