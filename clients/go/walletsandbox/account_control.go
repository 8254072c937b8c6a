package walletsandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// An account's time and state are its own (CONTRACT.md section 24): its clock is the sandbox clock
// plus an offset of its own, and its snapshot, restore and reset touch it alone. So tests that
// share a sandbox, in parallel and in other packages under wallet-sandbox exec, each move and
// restore their own account without reaching the others.

// Clock reads the account's clock: the sandbox clock plus how far the account has been moved.
func (a *Account) Clock(ctx context.Context) (Clock, error) {
	var clock Clock
	err := a.sandbox.call(ctx, http.MethodGet, "/_sandbox/clock", a.scope(), a.sandbox.ControlToken, nil, &clock)
	return clock, err
}

// AdvanceClock moves the account's clock forward by d (whole milliseconds; the rest is dropped),
// running what falls due of this account on the way, in time order: its settlements, webhook
// deliveries and retries, quote and order expiries. The sandbox clock and every other account
// stand still.
func (a *Account) AdvanceClock(ctx context.Context, d time.Duration) (Clock, error) {
	var clock Clock
	body := map[string]any{"ms": d.Milliseconds(), "api_key": a.Key}
	err := a.sandbox.control(ctx, http.MethodPost, "/_sandbox/clock/advance", body, &clock)
	return clock, err
}

// Snapshot is the account's whole state as a JSON document, for Restore: its keys, wallets,
// payments and the rest of its records, its events and deliveries, its rules, its clock.
func (a *Account) Snapshot(ctx context.Context) (json.RawMessage, error) {
	var snapshot json.RawMessage
	err := a.sandbox.call(ctx, http.MethodGet, "/_sandbox/snapshot", a.scope(), a.sandbox.ControlToken, nil, &snapshot)
	return snapshot, err
}

// Restore puts the account back as its snapshot holds it, its clock at the time the snapshot was
// taken: what the account did since is gone. Every other account and the sandbox clock are
// untouched. It takes this account's snapshot; another's, or a whole sandbox's, is refused before
// any request.
func (a *Account) Restore(ctx context.Context, snapshot json.RawMessage) error {
	of, err := snapshotAccount(snapshot)
	if err != nil {
		return err
	}
	if of != a.ID {
		whose := "a whole sandbox's (Sandbox.Snapshot)"
		if of != "" {
			whose = "account " + of + "'s"
		}
		return fmt.Errorf("walletsandbox: Restore of account %s takes that account's snapshot (its Snapshot), and this one is %s", a.ID, whose)
	}
	return a.sandbox.control(ctx, http.MethodPost, "/_sandbox/restore", snapshot, nil)
}

// Reset puts the account back to its seeded state, on the sandbox clock, without rules, price pins
// or screening entries of its own. Its key stays valid; Wallets are read again.
func (a *Account) Reset(ctx context.Context) error {
	if err := a.sandbox.control(ctx, http.MethodPost, "/_sandbox/reset", map[string]string{"api_key": a.Key}, nil); err != nil {
		return err
	}
	return a.Call(ctx, http.MethodGet, "/wallets?limit=100", nil, &a.Wallets)
}

// scope is the query that makes a control call about this account alone.
func (a *Account) scope() url.Values {
	return url.Values{"api_key": {a.Key}}
}
