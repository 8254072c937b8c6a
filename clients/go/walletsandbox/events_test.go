package walletsandbox_test

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

func TestWaitForEventAnswersAnEventAlreadyLoggedAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account := sandbox.NewAccount(t)
	first, second := pay(ctx, t, account, "1.00"), pay(ctx, t, account, "2.00")
	event, err := sandbox.WaitForEvent(ctx, walletsandbox.EventFilter{AccountID: account.ID, Type: "payment.created", ObjectID: second.ID})
	if err != nil || event.ObjectID() != second.ID || event.AccountID != account.ID {
		t.Errorf("got %+v, %v; want the payment.created of %s, not of %s", event, err, second.ID, first.ID)
	}
}

func TestWaitForEventSaysWhatTheAccountHadInstead(t *testing.T) {
	t.Parallel()
	account := sandbox.NewAccount(t)
	payment := pay(context.Background(), t, account, "1.00")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := account.WaitForEvent(ctx, walletsandbox.EventFilter{Type: "payment.failed,payment.succeeded", ObjectID: payment.ID})
	want := regexp.MustCompile(`^walletsandbox: no payment.failed or payment.succeeded event of ` + payment.ID + ` on the account of ` + account.Key +
		` within \d+ms; its last events were: payment.created ` + payment.ID + ` \(evt_\w+\): context deadline exceeded$`)
	if err == nil || !want.MatchString(err.Error()) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestWaitForEventOnAnAccountWithoutEventsSaysSo(t *testing.T) {
	t.Parallel()
	account := sandbox.NewAccount(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := account.WaitForEvent(ctx, walletsandbox.EventFilter{})
	want := regexp.MustCompile(`^walletsandbox: no event on the account of ` + account.Key + ` within \d+ms; it has had no events at all: context deadline exceeded$`)
	if err == nil || !want.MatchString(err.Error()) {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestWaitForEventReturnsTheSandboxsRefusalAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		filter walletsandbox.EventFilter
		status int
		code   string
		param  string
	}{
		{walletsandbox.EventFilter{Type: "payment.teleported"}, http.StatusBadRequest, "parameter_invalid", "type"},
		{walletsandbox.EventFilter{APIKey: "sk_test_nobody_has_this_key"}, http.StatusNotFound, "resource_missing", "api_key"},
	}
	for _, c := range cases {
		_, err := sandbox.WaitForEvent(ctx, c.filter)
		var apiErr *walletsandbox.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != c.status || apiErr.Code != c.code || apiErr.Param != c.param {
			t.Errorf("%+v: got %v, want %d %s naming %s", c.filter, err, c.status, c.code, c.param)
		}
	}
}
