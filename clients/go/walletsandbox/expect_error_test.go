package walletsandbox_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

// request reads a journal entry as the sandbox sends it.
func request(t *testing.T, entry string) walletsandbox.Request {
	t.Helper()
	var r walletsandbox.Request
	if err := json.Unmarshal([]byte(entry), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

const (
	posted = `{"id":"req_2","method":"POST","path":"/v1/payments","query":null,"status":201,"duration_ms":3.5,"api_key":"sk_test_…_key","account_id":"acct_1",
		"idempotency_key":"invoice-42","headers":{"idempotency-key":"invoice-42"},"replayed":true,"fault":null,"at":"2026-01-01T00:00:01.000Z",
		"request_body":"{\"amount\":\"10\"}","response_body":"{}","truncated":false}`
	dropped = `{"id":"req_1","method":"GET","path":"/v1/wallets","query":"limit=100","status":null,"duration_ms":0,"api_key":null,"account_id":null,
		"idempotency_key":null,"headers":{},"replayed":false,"fault":"drop","at":"2026-01-01T00:00:00.000Z","request_body":null,"response_body":null,"truncated":false}`
)

func TestAJournalEntryReadsItsNullsAsZeroValuesAndItsDurationAsADuration(t *testing.T) {
	t.Parallel()
	r := request(t, posted)
	if r.Status != 201 || r.Duration != 3500*time.Microsecond || !r.Replayed || r.IdempotencyKey != "invoice-42" || r.RequestBody != `{"amount":"10"}` ||
		!r.At.Equal(time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)) {
		t.Errorf("the POST reads as %+v", r)
	}
	r = request(t, dropped)
	if r.Status != 0 || r.APIKey != "" || r.IdempotencyKey != "" || r.Query != "limit=100" || r.Fault != "drop" || r.RequestBody != "" {
		t.Errorf("the dropped GET reads as %+v", r)
	}
}

func TestAnUnmetExpectationSaysWhatWasExpectedAndWhatCameClosest(t *testing.T) {
	t.Parallel()
	var misses []walletsandbox.NearMiss
	missed := `[{"request":` + posted + `,"differences":[{"field":"body.amount","expected":"10.00","actual":"10"}]},
		{"request":` + dropped + `,"differences":[{"field":"method","expected":"POST","actual":"GET"},{"field":"headers.idempotency-key","expected":true},
		{"field":"headers.x-debug","expected":false,"actual":"1"},{"field":"body","expected":{"amount":"10.00"}},{"field":"status","expected":"2xx","actual":null}]}]`
	if err := json.Unmarshal([]byte(missed), &misses); err != nil {
		t.Fatal(err)
	}
	err := &walletsandbox.RequestExpectationError{
		Expectation: walletsandbox.RequestExpectation{Method: "POST", Path: "/v1/payments", Body: map[string]string{"amount": "10.00"}, Within: 1500 * time.Millisecond},
		AccountID:   "acct_1", NearMisses: misses,
	}
	want := `walletsandbox: expected at least 1 request matching {"method":"POST","path":"/v1/payments","body":{"amount":"10.00"}} from account acct_1 within 1.5s; 0 matched
Closest requests:
  POST /v1/payments 201 (req_2, replayed, 2026-01-01T00:00:01.000Z)
    body.amount: expected "10.00", got "10"
  GET /v1/wallets?limit=100 no answer (req_1, 2026-01-01T00:00:00.000Z)
    method: expected "POST", got "GET"
    headers.idempotency-key: expected present, got nothing
    headers.x-debug: expected absent, got "1"
    body: expected {"amount":"10.00"}, got nothing
    status: expected "2xx", got null`
	if got := err.Error(); got != want {
		t.Errorf("the message is\n%s\nwant\n%s", got, want)
	}
}

func TestAnExpectationOfExactlyNListsWhatMatchedAndOneWithNoJournalSaysSo(t *testing.T) {
	t.Parallel()
	var matched []walletsandbox.Request
	for i := 0; i < 7; i++ {
		matched = append(matched, request(t, posted))
	}
	cases := []struct {
		err  walletsandbox.RequestExpectationError
		want string
	}{{
		walletsandbox.RequestExpectationError{Expectation: walletsandbox.RequestExpectation{Method: "POST", Count: 2, Exactly: true}, AccountID: "acct_1", Matched: matched},
		`walletsandbox: expected exactly 2 requests matching {"method":"POST"} from account acct_1; 7 matched
Matched:
` + strings.Repeat("  POST /v1/payments 201 (req_2, replayed, 2026-01-01T00:00:01.000Z)\n", 5) + "  and 2 more",
	}, {
		walletsandbox.RequestExpectationError{Expectation: walletsandbox.RequestExpectation{Path: "/v1/payouts/*", Exactly: true, Within: time.Second}, AccountID: "acct_1", Matched: matched[:1]},
		`walletsandbox: expected no request matching {"path":"/v1/payouts/*"} from account acct_1 within 1s; 1 matched
Matched:
  POST /v1/payments 201 (req_2, replayed, 2026-01-01T00:00:01.000Z)`,
	}, {
		walletsandbox.RequestExpectationError{Expectation: walletsandbox.RequestExpectation{HeadersPresent: []string{"Idempotency-Key"}, Status: "201", Count: 3}, AccountID: "acct_1"},
		`walletsandbox: expected at least 3 requests matching {"headers":{"Idempotency-Key":true},"status":201} from account acct_1; 0 matched
The account has no other /v1 requests in the journal.`,
	}}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("the message is\n%s\nwant\n%s", got, c.want)
		}
	}
}
