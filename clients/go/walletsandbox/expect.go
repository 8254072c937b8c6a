package walletsandbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// RequestExpectation says which of an account's /v1 requests a test expects the code under test
// to have sent (POST /_sandbox/requests/expect, CONTRACT.md section 23). Every field given must
// match; the zero value of a field matches anything.
type RequestExpectation struct {
	// Method is an HTTP method, in any case.
	Method string
	// Path is exact (/v1/payments), a template whose {name} segments are any one segment
	// (/v1/payments/{id}), or a prefix ending in * (/v1/wallets/*).
	Path string
	// Query holds query parameters the request had, each with this value.
	Query map[string]string
	// Headers holds headers the request had, each with this value; HeadersPresent names headers it
	// had whatever their value, HeadersAbsent headers it did not have. Names are in any case; an
	// authorization header is compared masked, as the journal keeps it.
	Headers        map[string]string
	HeadersPresent []string
	HeadersAbsent  []string
	// Body is JSON the request body must contain (anything encoding/json encodes): an object
	// matches when each field it names is there with an equal value, nested objects likewise, so
	// other fields may be there; arrays and other values match when equal.
	Body any
	// Status is the answer's status code ("201") or class ("4xx").
	Status string
	// Count is how many matching requests satisfy the expectation: at least Count (0 is 1), or
	// exactly Count with Exactly (so Count 0 with Exactly is ExpectNoRequest's: none).
	Count   int
	Exactly bool
	// Within is how long to wait, in real time, for enough matching requests: at most 30 s,
	// counted in whole milliseconds. 0 checks the requests answered already. Without Exactly the
	// answer comes as soon as enough have matched; with it, at the end of the window (one more
	// could still come), or as soon as too many have.
	Within time.Duration
}

// pattern is what a request must match, as the control API takes it and as a failure shows it.
type pattern struct {
	Method  string            `json:"method,omitempty"`
	Path    string            `json:"path,omitempty"`
	Query   map[string]string `json:"query,omitempty"`
	Headers map[string]any    `json:"headers,omitempty"`
	Body    any               `json:"body,omitempty"`
	Status  any               `json:"status,omitempty"`
}

// wire is the body of POST /_sandbox/requests/expect.
type wire struct {
	APIKey string `json:"api_key"`
	pattern
	Count    *int  `json:"count,omitempty"`
	Exactly  bool  `json:"exactly,omitempty"`
	WithinMS int64 `json:"within_ms,omitempty"`
}

// pattern answers the expectation's request pattern, or an error for a header named twice.
func (e RequestExpectation) pattern() (pattern, error) {
	p := pattern{Method: e.Method, Path: e.Path, Query: e.Query, Body: e.Body}
	if digits, err := strconv.Atoi(e.Status); err == nil {
		p.Status = digits
	} else if e.Status != "" {
		p.Status = e.Status
	}
	given := map[string]string{}
	add := func(from, name string, value any) error {
		if earlier, ok := given[strings.ToLower(name)]; ok {
			return fmt.Errorf("walletsandbox: RequestExpectation names the header %s in %s and in %s: say one thing of it", name, earlier, from)
		}
		given[strings.ToLower(name)] = from
		if p.Headers == nil {
			p.Headers = map[string]any{}
		}
		p.Headers[name] = value
		return nil
	}
	for name, value := range e.Headers {
		if err := add("Headers", name, value); err != nil {
			return pattern{}, err
		}
	}
	for _, name := range e.HeadersPresent {
		if err := add("HeadersPresent", name, true); err != nil {
			return pattern{}, err
		}
	}
	for _, name := range e.HeadersAbsent {
		if err := add("HeadersAbsent", name, false); err != nil {
			return pattern{}, err
		}
	}
	return p, nil
}

// ExpectRequest checks that the code under test sent the requests that e describes with the
// account's key, waiting up to e.Within for them. Satisfied, it answers the matching requests,
// newest first. Not satisfied, the error is a *RequestExpectationError whose message shows the
// expectation and the closest requests with what differed (`body.amount: expected "10.00", got
// "10"`). An expectation the sandbox refuses is an error naming its field, wrapping the *APIError.
func (a *Account) ExpectRequest(ctx context.Context, e RequestExpectation) ([]Request, error) {
	p, err := e.pattern()
	if err != nil {
		return nil, err
	}
	body := wire{APIKey: a.Key, pattern: p, Exactly: e.Exactly, WithinMS: e.Within.Milliseconds()}
	if e.Count != 0 || e.Exactly {
		body.Count = &e.Count
	}
	var result struct {
		Satisfied  bool       `json:"satisfied"`
		Matched    []Request  `json:"matched"`
		NearMisses []NearMiss `json:"near_misses"`
	}
	err = a.sandbox.control(ctx, http.MethodPost, "/_sandbox/requests/expect", body, &result)
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.Param != "" {
		return nil, &refusedExpectation{apiErr}
	}
	if err != nil {
		return nil, err
	}
	if !result.Satisfied {
		return nil, &RequestExpectationError{Expectation: e, AccountID: a.ID, Matched: result.Matched, NearMisses: result.NearMisses}
	}
	return result.Matched, nil
}

// ExpectNoRequest checks that the code under test sent no request that e describes with the
// account's key, and sends none within e.Within: it waits the whole window, and fails as soon as
// one comes. e takes no Count; the error is as ExpectRequest's.
func (a *Account) ExpectNoRequest(ctx context.Context, e RequestExpectation) error {
	if e.Count != 0 {
		return fmt.Errorf("walletsandbox: ExpectNoRequest expects no request, so its expectation takes no Count (it has %d); ExpectRequest with Exactly expects that many", e.Count)
	}
	e.Exactly = true
	_, err := a.ExpectRequest(ctx, e)
	return err
}

// RequireRequest is ExpectRequest for a test: an unmet expectation fails the test at once
// (t.Fatal) with its message. It waits at most e.Within and 30 s more for the sandbox's answer.
func (a *Account) RequireRequest(t testing.TB, e RequestExpectation) []Request {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), e.Within+30*time.Second)
	defer cancel()
	matched, err := a.ExpectRequest(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	return matched
}

// RequireNoRequest is ExpectNoRequest for a test: a request that e describes fails the test at
// once (t.Fatal) with the message.
func (a *Account) RequireNoRequest(t testing.TB, e RequestExpectation) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), e.Within+30*time.Second)
	defer cancel()
	if err := a.ExpectNoRequest(ctx, e); err != nil {
		t.Fatal(err)
	}
}
