package walletsandbox_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// These run on the package's sandbox: each expectation is about its own account's requests.

func TestEachFieldOfAnExpectationReachesTheSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account := sandbox.NewAccount(t) // it sent GET /v1/wallets?limit=100
	payment := pay(ctx, t, account, "2.50")
	if err := account.Call(ctx, http.MethodGet, "/payments/"+payment.ID, nil, nil); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		expectation walletsandbox.RequestExpectation
		// differs is the field of the closest request that differs, "" when the expectation is met.
		differs string
	}{
		"method in any case and a body's subset": {walletsandbox.RequestExpectation{Method: "post", Body: map[string]string{"amount": "2.50"}}, ""},
		"a body that differs":                    {walletsandbox.RequestExpectation{Method: "POST", Body: map[string]any{"currency": "EURC"}}, "body.currency"},
		"a path template":                        {walletsandbox.RequestExpectation{Path: "/v1/payments/{id}"}, ""},
		"a query parameter":                      {walletsandbox.RequestExpectation{Path: "/v1/wallets", Query: map[string]string{"limit": "100"}}, ""},
		"a query parameter that differs":         {walletsandbox.RequestExpectation{Path: "/v1/wallets", Query: map[string]string{"limit": "20"}}, "query.limit"},
		"a status code":                          {walletsandbox.RequestExpectation{Method: "POST", Status: "201"}, ""},
		"a status class":                         {walletsandbox.RequestExpectation{Method: "POST", Status: "4xx"}, "status"},
		"headers present and absent":             {walletsandbox.RequestExpectation{Method: "POST", HeadersPresent: []string{"Authorization"}, HeadersAbsent: []string{"idempotency-key"}}, ""},
		"a header present that is not":           {walletsandbox.RequestExpectation{Method: "POST", HeadersPresent: []string{"Idempotency-Key"}}, "headers.idempotency-key"},
		"a header's value":                       {walletsandbox.RequestExpectation{Method: "POST", Headers: map[string]string{"content-type": "application/json"}}, ""},
		"three /v1 requests, exactly":            {walletsandbox.RequestExpectation{Path: "/v1/*", Count: 3, Exactly: true}, ""},
		"two GETs at least":                      {walletsandbox.RequestExpectation{Method: "GET", Count: 2}, ""},
		"three GETs at least":                    {walletsandbox.RequestExpectation{Method: "GET", Count: 3}, "method"},
	}
	for name, c := range cases {
		matched, err := account.ExpectRequest(ctx, c.expectation)
		var unmet *walletsandbox.RequestExpectationError
		switch {
		case c.differs == "" && (err != nil || len(matched) == 0):
			t.Errorf("%s: %v, want it met", name, err)
		case c.differs != "" && !errors.As(err, &unmet):
			t.Errorf("%s: %v, want a *RequestExpectationError", name, err)
		case c.differs != "" && (len(unmet.NearMisses) == 0 || unmet.NearMisses[0].Differences[0].Field != c.differs):
			t.Errorf("%s: the closest request differs in %+v, want %s first", name, unmet.NearMisses, c.differs)
		}
	}
}

func TestAWaitingExpectationIsMetAsSoonAsTheRequestIsAnswered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account := sandbox.NewAccount(t)
	wallet, _ := account.Wallet("USDC", "polygon")
	const within = 10 * time.Second
	started := time.Now()
	sent := make(chan time.Time, 1)
	paid := make(chan error, 1)
	// The code under test pays 200 ms after the expectation starts waiting.
	time.AfterFunc(200*time.Millisecond, func() {
		sent <- time.Now()
		body := map[string]string{"source_wallet": wallet.ID, "amount": "3.00", "currency": "USDC", "recipient": recipient}
		paid <- account.Call(ctx, http.MethodPost, "/payments", body, nil)
	})

	matched, err := account.ExpectRequest(ctx, walletsandbox.RequestExpectation{Method: "POST", Path: "/v1/payments", Body: map[string]string{"amount": "3.00"}, Within: within})
	done := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	if err := <-paid; err != nil {
		t.Fatal(err)
	}
	sentAt := <-sent
	if len(matched) != 1 || matched[0].Status != http.StatusCreated {
		t.Fatalf("matched %+v, want the one payment", matched)
	}
	// Met as soon as the payment was answered, not at the end of the window.
	if done.Before(sentAt) || done.Sub(started) > within/2 {
		t.Errorf("the expectation returned %v after it started, the payment was sent after %v: want it met after the payment, well within %v", done.Sub(started), sentAt.Sub(started), within)
	}
	t.Logf("sent %v after the expectation started; met %v after it was sent (the payment itself took %v)", sentAt.Sub(started), done.Sub(sentAt), matched[0].Duration)
}

func TestExpectNoRequestFailsWithWhatCame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account := sandbox.NewAccount(t)
	if err := account.ExpectNoRequest(ctx, walletsandbox.RequestExpectation{Path: "/v1/payments"}); err != nil {
		t.Errorf("before any payment: %v, want none came", err)
	}
	payment := pay(ctx, t, account, "1.25")
	err := account.ExpectNoRequest(ctx, walletsandbox.RequestExpectation{Path: "/v1/payments"})
	var unmet *walletsandbox.RequestExpectationError
	if !errors.As(err, &unmet) || len(unmet.Matched) != 1 || !strings.Contains(unmet.Matched[0].ResponseBody, payment.ID) {
		t.Fatalf("after a payment: %v, want a *RequestExpectationError with the payment's request", err)
	}
	want := `walletsandbox: expected no request matching {"path":"/v1/payments"} from account ` + account.ID + "; 1 matched\nMatched:\n  POST /v1/payments 201 ("
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("the message is\n%s\nwant it to start\n%s", err, want)
	}
	err = account.ExpectNoRequest(ctx, walletsandbox.RequestExpectation{Path: "/v1/payments", Count: 2})
	if err == nil || !strings.Contains(err.Error(), "ExpectNoRequest expects no request, so its expectation takes no Count (it has 2)") {
		t.Errorf("ExpectNoRequest with a Count: %v", err)
	}
}

func TestABadExpectationIsRefusedNamingItsField(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account := sandbox.NewAccount(t)
	cases := []struct {
		expectation walletsandbox.RequestExpectation
		param, says string
	}{
		{walletsandbox.RequestExpectation{Within: 31 * time.Second}, "within_ms", "the expectation's Within is refused: within_ms "},
		{walletsandbox.RequestExpectation{Method: "FETCH"}, "method", "the expectation's Method is refused: method must be an HTTP method such as GET or POST"},
		{walletsandbox.RequestExpectation{Path: "payments"}, "path", "the expectation's Path is refused: path must be a path such as /v1/payments"},
		{walletsandbox.RequestExpectation{Status: "2x"}, "status", "the expectation's Status is refused: status must be an HTTP status code such as 201 or a class such as 4xx"},
		{walletsandbox.RequestExpectation{Count: -1}, "count", "the expectation's Count is refused: count "},
		{walletsandbox.RequestExpectation{HeadersPresent: []string{"bad name"}}, "headers.bad name", `the expectation's header "bad name" (Headers, HeadersPresent or HeadersAbsent) is refused: header names are HTTP tokens`},
	}
	for _, c := range cases {
		_, err := account.ExpectRequest(ctx, c.expectation)
		var apiErr *walletsandbox.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest || apiErr.Param != c.param ||
			!strings.HasPrefix(err.Error(), "walletsandbox: "+c.says) || !strings.HasSuffix(err.Error(), "(400 parameter_invalid, param "+c.param+")") {
			t.Errorf("%+v: %v, want a 400 naming %s, saying %s", c.expectation, err, c.param, c.says)
		}
	}
	twice := walletsandbox.RequestExpectation{Headers: map[string]string{"Idempotency-Key": "a"}, HeadersAbsent: []string{"idempotency-key"}}
	want := "walletsandbox: RequestExpectation names the header idempotency-key in Headers and in HeadersAbsent: say one thing of it"
	if _, err := account.ExpectRequest(ctx, twice); err == nil || err.Error() != want {
		t.Errorf("a header named twice: %v, want %s", err, want)
	}
}
