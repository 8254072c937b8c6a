package walletsandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// These run on the package's sandbox, beside every other test: an account's clock, snapshot,
// restore and reset reach that account alone, or the tests beside them would fail.

// clockOf reads an account's clock.
func clockOf(ctx context.Context, t *testing.T, account *walletsandbox.Account) walletsandbox.Clock {
	t.Helper()
	clock, err := account.Clock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return clock
}

// status is the status of a payment as the account sees it, or the API's error code.
func status(ctx context.Context, account *walletsandbox.Account, paymentID string) string {
	var payment walletsandbox.Payment
	err := account.Call(ctx, http.MethodGet, "/payments/"+paymentID, nil, &payment)
	var apiErr *walletsandbox.APIError
	if errors.As(err, &apiErr) {
		return apiErr.Code
	}
	if err != nil {
		return err.Error()
	}
	return payment.Status
}

func TestAnAccountsClockMovesAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ahead, other := sandbox.NewAccount(t), sandbox.NewAccount(t)
	sandboxBefore, err := sandbox.Clock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before := clockOf(ctx, t, ahead)

	moved, err := ahead.AdvanceClock(ctx, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if moved.AccountID != ahead.ID || moved.Now.Sub(before.Now) != time.Hour || moved.Offset != before.Offset+time.Hour || moved.Mode != "manual" {
		t.Errorf("the account's clock went from %+v to %+v, want an hour on", before, moved)
	}
	if read := clockOf(ctx, t, ahead); read != moved {
		t.Errorf("Clock reads %+v after AdvanceClock answered %+v", read, moved)
	}
	if clock := clockOf(ctx, t, other); clock.Offset != 0 || !clock.Now.Equal(sandboxBefore.Now) || clock.AccountID != other.ID {
		t.Errorf("another account's clock is %+v, want the sandbox's time %v", clock, sandboxBefore.Now)
	}
	if after, err := sandbox.Clock(ctx); err != nil || after != sandboxBefore {
		t.Errorf("the sandbox clock went from %+v to %+v (%v)", sandboxBefore, after, err)
	}
}

func TestAnAccountRestoredToItsSnapshotLeavesTheOthersAsTheyAre(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account, other := sandbox.NewAccount(t), sandbox.NewAccount(t)
	kept := pay(ctx, t, account, "1.00")
	snapshot, err := account.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	taken := clockOf(ctx, t, account)

	later := pay(ctx, t, account, "2.00")
	if _, err := account.AdvanceClock(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	othersPayment := pay(ctx, t, other, "3.00")
	if err := account.Restore(ctx, snapshot); err != nil {
		t.Fatal(err)
	}

	if got := status(ctx, account, kept.ID); got != "pending" {
		t.Errorf("the payment made before the snapshot is %s, want pending", got)
	}
	if got := status(ctx, account, later.ID); got != "resource_missing" {
		t.Errorf("the payment made after the snapshot is %s, want resource_missing", got)
	}
	if clock := clockOf(ctx, t, account); !clock.Now.Equal(taken.Now) {
		t.Errorf("the account's clock is at %v, want %v, the snapshot's", clock.Now, taken.Now)
	}
	if got := status(ctx, other, othersPayment.ID); got != "pending" {
		t.Errorf("the other account's payment is %s, want pending as it was", got)
	}
}

func TestAnAccountsSnapshotRecreatesItInAnotherSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account := sandbox.NewAccount(t)
	payment := pay(ctx, t, account, "4.00")
	snapshot, err := account.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fresh := walletsandbox.Start(t, walletsandbox.WithOwnSandbox(), walletsandbox.WithArgs("--clock", "manual", "--settle", "manual"))
	if err := fresh.Restore(ctx, snapshot); err != nil {
		t.Fatal(err)
	}
	// The account's key works there, and its events are there.
	events, err := fresh.Events(ctx, walletsandbox.EventFilter{APIKey: account.Key})
	if err != nil || len(events.Data) != 1 || events.Data[0].Type != walletsandbox.EventPaymentCreated || events.Data[0].ObjectID() != payment.ID {
		t.Errorf("the fresh sandbox has the events %+v (%v), want the payment.created of %s", events.Data, err, payment.ID)
	}
}

func TestAnAccountTakesOnlyItsOwnSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account, other := sandbox.NewAccount(t), sandbox.NewAccount(t)
	othersSnapshot, err := other.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]json.RawMessage{
		"account " + other.ID + "'s":           othersSnapshot,
		"a whole sandbox's (Sandbox.Snapshot)": json.RawMessage(`{"accounts": [], "taken_at": "2026-01-01T00:00:00.000Z"}`),
	}
	for whose, snapshot := range cases {
		err := account.Restore(ctx, snapshot)
		want := "walletsandbox: Restore of account " + account.ID + " takes that account's snapshot (its Snapshot), and this one is " + whose
		if err == nil || err.Error() != want {
			t.Errorf("got %v, want %s", err, want)
		}
	}
}

func TestAResetAccountIsBackToItsSeedOnTheSandboxClock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account := sandbox.NewAccount(t)
	payment := pay(ctx, t, account, "5.00")
	if _, err := account.AdvanceClock(ctx, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := account.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if got := status(ctx, account, payment.ID); got != "resource_missing" {
		t.Errorf("the payment made before the reset is %s, want resource_missing", got)
	}
	if clock := clockOf(ctx, t, account); clock.Offset != 0 {
		t.Errorf("after a reset the account's clock is %v ahead of the sandbox's, want 0", clock.Offset)
	}
	wallet, ok := account.Wallet("USDC", "polygon")
	if !ok || wallet.Balance != "250.00" || !strings.HasPrefix(wallet.ID, "wal_") {
		t.Errorf("after a reset the account's USDC wallet on polygon is %+v, want the seeded one", wallet)
	}
	pay(ctx, t, account, "1.00") // its key and its wallets work
}
