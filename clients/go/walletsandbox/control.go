package walletsandbox

import (
	"context"
	"encoding/json"
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

// Clock is the sandbox's clock: "manual" (moved only by AdvanceClock) or "real", the time it
// shows, and how far it has been moved.
type Clock struct {
	Mode   string
	Now    time.Time
	Offset time.Duration
}

// UnmarshalJSON reads the control API's clock: {mode, now, offset_ms}.
func (c *Clock) UnmarshalJSON(data []byte) error {
	var wire struct {
		Mode     string    `json:"mode"`
		Now      time.Time `json:"now"`
		OffsetMS int64     `json:"offset_ms"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return err
	}
	*c = Clock{Mode: wire.Mode, Now: wire.Now, Offset: time.Duration(wire.OffsetMS) * time.Millisecond}
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

// AdvanceClock moves the sandbox clock forward by d (whole milliseconds), running everything that
// falls due on the way in time order: settlements, webhook retries, expiries.
func (s *Sandbox) AdvanceClock(ctx context.Context, d time.Duration) (Clock, error) {
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

// Snapshot is the whole state of the sandbox as a JSON document, for Restore.
func (s *Sandbox) Snapshot(ctx context.Context) (json.RawMessage, error) {
	var snapshot json.RawMessage
	err := s.control(ctx, http.MethodGet, "/_sandbox/snapshot", nil, &snapshot)
	return snapshot, err
}

// Restore replaces the whole state with a snapshot: what happened since it was taken is gone
// (the clock stays where it is).
func (s *Sandbox) Restore(ctx context.Context, snapshot json.RawMessage) error {
	return s.control(ctx, http.MethodPost, "/_sandbox/restore", snapshot, nil)
}
